//! Tensor maps as data: the arguments of `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col`
//! (cuda.h) as a [`TensorMap`], the encode-time rules the driver checks
//! ([`TensorMap::validate`]), and what a tensor copy (`cp.async.bulk.tensor`,
//! `cp.reduce.async.bulk.tensor`, §9.7.9.25.5) moves: the elements of one tile, each with its
//! byte offset in the shared-memory destination (after swizzling) and its global address, or
//! none when it lies out of bounds ([`TensorMap::tile_at`]), and the bytes a load writes
//! ([`TensorMap::load_at`]).
//!
//! # Encode rules
//!
//! Each rule has one stable name (the `rule` of an [`EncodeError`]); the wording is cuda.h's,
//! from the comments above `cuTensorMapEncodeTiled` and `cuTensorMapEncodeIm2col`. The rules are
//! checked in this table's order (the three `globalStrides` rules entry by entry), and
//! [`TensorMap::validate`] reports the first one broken.
//!
//! | rule | cuda.h |
//! | --- | --- |
//! | `target-data-type` | the packed types `16U4_ALIGN8B`, `16U4_ALIGN16B`, `16U6_ALIGN16B` exist on devices of compute capability 10.0 or higher only |
//! | `target-swizzle` | the `128B_ATOM_*` swizzles exist on devices of compute capability 10.0 or higher only |
//! | `rank` | "tensorRank must be non-zero and less than or equal to … 5. If interleave is not NONE, then tensorRank must additionally be greater than or equal to 3"; im2col: "must be 3, 4, or 5" |
//! | `array-lengths` | globalDim, boxDim, elementStrides have tensorRank entries, globalStrides tensorRank − 1, the im2col corners tensorRank − 2 (im2col maps have no boxDim) |
//! | `global-address-align` | "globalAddress … must be 16 byte aligned"; 32 with INTERLEAVE_32B or the `*_ALIGN16B` types |
//! | `global-dim` | "globalDim … must be non-zero and less than or equal to 2^31" |
//! | `packed-global-dim0` | "`globalDim[0]` must be a multiple of 128" (`*_ALIGN16B`), "a multiple of 2" (`16U4_ALIGN8B`) |
//! | `stride-multiple-of-16` | "globalStrides … must be a multiple of 16" |
//! | `stride-multiple-of-32` | "When interleave is INTERLEAVE_32B [or the type is `*_ALIGN16B`], the strides must be a multiple of 32" |
//! | `stride-limit` | "… and less than 2^40" |
//! | `box-dim` | "boxDim … must be non-zero and less than or equal to 256" |
//! | `box-inner-bytes` | "When interleave is NONE, `{ boxDim[0] * elementSizeInBytes }` must be a multiple of 16 bytes"; the driver (580.159.04) rejects interleaved maps that break it too (CUDA_ERROR_INVALID_VALUE for 8, 24 and 40 bytes, 16B and 32B interleave, every type: corpus/evidence/tma-interleave.md) |
//! | `packed-box-dim0` | "When tensorDataType is 16U6_ALIGN16B or 16U4_ALIGN16B, `boxDim[0]` must be 128" |
//! | `element-stride` | "elementStrides … must be non-zero and less than or equal to 8" |
//! | `swizzle-span` | "When interleave is NONE and swizzle is not NONE, the bounding box inner dimension … must be less than or equal to the swizzle size" (32, 64, 128) |
//! | `interleave-32b-swizzle` | "When interleave is INTERLEAVE_32B, swizzle must be SWIZZLE_32B" |
//! | `packed-interleave` | "16U6_ALIGN16B requires interleave to be INTERLEAVE_NONE" |
//! | `packed-swizzle` | 16U6_ALIGN16B: NONE, 128B, 128B_ATOM_32B, 128B_ATOM_64B only; 16U4_ALIGN16B: NONE, 128B, 128B_ATOM_32B only |
//! | `oob-fill-float` | "NAN_REQUEST_ZERO_FMA can only be used when tensorDataType represents a floating-point data type" (not a packed type) |
//! | `im2col-corner-range` | corners within [-32768, 32767] (rank 3), [-128, 127] (rank 4), [-16, 15] (rank 5) |
//! | `im2col-box-area` | "The bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must have non-zero area" |
//! | `channels-per-pixel` | "channelsPerPixel … must be less than or equal to 256" (and non-zero; 128 for `*_ALIGN16B`) |
//! | `pixels-per-column` | "pixelsPerColumn … must be less than or equal to 1024" (and non-zero) |
//!
//! Not checked: the 64-byte alignment of the map object itself (the GPU backend places it), and
//! the pseudo-code in cuda.h that shows how strides usually nest (it states no requirement).
//! Where cuda.h and CCCL's `make_tma_descriptor` differ (CCCL allows `globalDim` up to 2^32 and
//! counts `16U4_ALIGN16B` as half a byte per value, cuda.h says 2^31 and 16 bytes per 16
//! values in shared memory), the model follows cuda.h and the driver decides.
//! The "non-zero area" rule is read as: along each spatial dimension `d` the box spans
//! `globalDim[d] + upper − lower ≥ 1` positions (lower corner relative to the tensor's first
//! element, upper corner relative to its last).
//!
//! # Tile layout (tiled mode)
//!
//! Measured on an H100 where cuda.h and the PTX ISA are silent (corpus/evidence/tma-tile-loads.md:
//! device, driver, the probe kernel and every case; the unit test `h100_measurements_replay`
//! rebuilds each recorded shared-memory window from this model).
//!
//! - Along dimension `d` a tile has `ceil(boxDim[d] / elementStrides[d])` elements at
//!   coordinates `c_d + i·elementStrides[d]`, except that with INTERLEAVE_NONE the element stride
//!   of dimension 0 is ignored (cuda.h: "TMA doesn't support the stride for dimension zero"; the
//!   H100 loads `boxDim[0]` contiguous elements): [`TensorMap::traversal_stride`].
//! - Elements are laid out row-major, dimension 0 innermost. Without a swizzle rows are packed
//!   (the row pitch is the inner extent in bytes); with one, a row occupies a whole number of
//!   swizzle spans (32, 64, 128 bytes), and the bytes of a row past its inner extent are not
//!   written: they keep what the destination held ([`TensorMap::row_pitch`]). So
//!   [`TensorMap::tile_bytes`] (the bytes written, the transaction count of a load) can be less
//!   than [`TensorMap::tile_extent`] (the room the destination needs).
//! - The swizzle is a function of the **absolute** shared-memory address ([`swizzle_offset`]):
//!   the 16-byte chunk bits `[4, 4+B)` are XORed with bits `[7, 7+B)`, B = 1, 2, 3 for the 32B,
//!   64B, 128B swizzles (CUTLASS `Swizzle<B,4,3>`). A tile at window + 128 under the 128B
//!   swizzle starts with XOR 1: [`TensorMap::tile_at`] and [`TensorMap::load_at`] take the
//!   destination address. A chunk never leaves its span-sized row, so every byte stays inside
//!   the tile's extent.
//! - The destination must be 128-byte aligned ([`TensorMap::smem_align`]); the H100 faults with
//!   CUDA_ERROR_MISALIGNED_ADDRESS otherwise, swizzled or not (no 1024-byte requirement: the
//!   pattern follows the address). A misaligned destination is a [`TileError`] `smem-align`.
//! - Interleaved maps (NC/8HWC8 with 16B, NC/16HWC16 with 32B interleave; cuda.h names the
//!   layouts and nothing more) were measured on an H100 (corpus/evidence/tma-interleave.md,
//!   419 probes replayed by `oracle/tests/tma_interleave.rs`): dimension 0 counts interleave
//!   units of 16 or 32 bytes whatever the element type — its coordinate, `globalDim[0]`,
//!   `boxDim[0]` and `elementStrides[0]` (which applies) are in units, a unit's global address
//!   is `c0 · unit` plus the strides of the other dimensions — and out-of-bounds units are
//!   filled or skipped whole. Rows of `ceil(boxDim[0] / elementStrides[0])` units are packed in
//!   shared memory, swizzled or not (the pattern follows the address, so a tile's last chunks
//!   may land up to the end of its last span: [`TensorMap::tile_extent`]). A tile element is
//!   a 16-byte chunk of a unit ([`TensorMap::tile_element_bytes`]). The H100 traverses only
//!   the starting coordinate of dimension rank − 2 (an open finding: the model's tile keeps
//!   the box cuda.h describes; [`TensorMap::interleave_skips_box`] tells the caller).
//!   Interleaved im2col maps are validated but not modeled.
//! - Out of bounds: an element with any coordinate `< 0` or `≥ globalDim[d]` is filled by a load
//!   (zero with OOB_FILL_NONE; with NAN_REQUEST_ZERO_FMA a NaN, [`LoadedByte::Fill`]: the H100
//!   writes the bytes [`NAN_FILL_PATTERN`] repeated whatever the type, and the allowance
//!   `tma-oob-nan-fill` admits any NaN) and skipped by a store or reduction.
//! - TFLOAT32 and TFLOAT32_FTZ loads convert each in-bounds f32 to tf32 on the way
//!   ([`tfloat32_on_load`]); FLOAT32_FTZ loads copy the bytes (no flush).
//! - The inner coordinate: on the H100 a tiled load whose `c0 · elementSize` is not a multiple
//!   of 16 bytes faults (CUDA_ERROR_ILLEGAL_INSTRUCTION), negative or positive, though the PTX
//!   ISA promises data (open finding corpus/findings/tma-inner-coordinate-trap.md). The model
//!   still computes the spec's tile; [`TensorMap::inner_coordinate_traps`] tells the caller.
//! - Packed 4/6-bit types and the `128B_ATOM_*` swizzles (devices of compute capability 10.0+)
//!   are validated but their layouts are not modeled ([`TileError`] `not-modeled`). For the
//!   packed types an "element" in [`TensorMap::element_bytes`] is one group of 16 packed values
//!   as shared memory holds it (8 bytes for `16U4_ALIGN8B`, 16 for the `*_ALIGN16B` types);
//!   `globalDim`/`boxDim` along dimension 0 count individual values.
//!
//! # Tile layout (im2col mode)
//!
//! Dimension 0 is the channel C, dimensions 1…rank-2 the spatial W, H, D, dimension rank-1 the
//! image N (NWC, NHWC, NDHWC). A copy writes a column of `pixelsPerColumn` pixels ×
//! `channelsPerPixel` channels, channel innermost, rows as in tiled mode, swizzled. The
//! pixels are the model's traversal of the bounding box (lower corner … `globalDim − 1 +` upper
//! corner along each spatial dimension) from the pixel the coordinates name, W fastest, then H,
//! D, and on to the next image; each loads the tensor element at its position plus the im2col
//! offsets. The traversal is one function (`im2col_pixels`), the assumption to correct from
//! what the GPU does.
//!
//! Invariants: [`TensorMap::tile_at`] and [`TensorMap::load_at`] never panic on any map or
//! destination (an invalid one is a [`TileError`]); for a valid, modeled map the tile's
//! elements have distinct, element-aligned shared-memory offsets inside `0..tile_extent()`, and
//! their bytes number `tile_bytes()`.

use crate::isa::{Target, TensormapField};
use crate::num::{decode, encode, Overflow, Rounding, F32, TF32};

/// Generates one cuda.h enumeration: variants in cuda.h order (so `code()` is the enumerator's
/// value), with the enumerator suffix as the name.
macro_rules! cu_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $v,)* }

        impl $name {
            /// Every enumerator, in cuda.h order.
            pub const ALL: &'static [Self] = &[$(Self::$v,)*];

            /// The enumerator's suffix as cuda.h spells it.
            pub fn name(self) -> &'static str {
                match self { $(Self::$v => $s,)* }
            }

            /// The enumerator whose cuda.h suffix is `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }

            /// The enumerator's value in cuda.h.
            pub fn code(self) -> u32 {
                self as u32
            }
        }
    };
}

cu_enum! {
    /// `CU_TENSOR_MAP_DATA_TYPE_*`.
    TensorDataType {
        /// 1 byte.
        Uint8 = "UINT8",
        /// 2 bytes.
        Uint16 = "UINT16",
        /// 4 bytes.
        Uint32 = "UINT32",
        /// 4 bytes.
        Int32 = "INT32",
        /// 8 bytes.
        Uint64 = "UINT64",
        /// 8 bytes.
        Int64 = "INT64",
        /// 2 bytes.
        Float16 = "FLOAT16",
        /// 4 bytes.
        Float32 = "FLOAT32",
        /// 8 bytes.
        Float64 = "FLOAT64",
        /// 2 bytes.
        Bfloat16 = "BFLOAT16",
        /// 4 bytes.
        Float32Ftz = "FLOAT32_FTZ",
        /// 4 bytes.
        Tfloat32 = "TFLOAT32",
        /// 4 bytes.
        Tfloat32Ftz = "TFLOAT32_FTZ",
        /// 16 packed 4-bit values in 8 bytes, no gaps.
        U4x16Align8B = "16U4_ALIGN8B",
        /// 16 packed 4-bit values (8 bytes) per 16 bytes of shared memory.
        U4x16Align16B = "16U4_ALIGN16B",
        /// 16 packed 6-bit values (12 bytes) per 16 bytes of shared memory.
        U6x16Align16B = "16U6_ALIGN16B",
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_INTERLEAVE_*`.
    Interleave {
        /// No interleave.
        None = "NONE",
        /// NC/8HWC8-style: channel slices of 16 bytes.
        B16 = "16B",
        /// NC/16HWC16-style: channel slices of 32 bytes.
        B32 = "32B",
    }
}

impl Interleave {
    /// Bytes of one interleave unit (a C-vector: 16 or 32 bytes), which dimension 0 of an
    /// interleaved map counts in (corpus/evidence/tma-interleave.md); `None` without interleave.
    pub fn unit_bytes(self) -> Option<u64> {
        match self {
            Interleave::None => None,
            Interleave::B16 => Some(16),
            Interleave::B32 => Some(32),
        }
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_SWIZZLE_*`.
    Swizzle {
        /// No swizzle.
        None = "NONE",
        /// 16-byte chunks within a 32-byte span.
        B32 = "32B",
        /// 16-byte chunks within a 64-byte span.
        B64 = "64B",
        /// 16-byte chunks within a 128-byte span.
        B128 = "128B",
        /// 32-byte chunks within a 128-byte span (compute capability 10.0+).
        B128Atom32B = "128B_ATOM_32B",
        /// As `128B_ATOM_32B`, the 8-byte halves of each 16 bytes swapped every other row
        /// (compute capability 10.0+).
        B128Atom32BFlip8B = "128B_ATOM_32B_FLIP_8B",
        /// 64-byte chunks within a 128-byte span (compute capability 10.0+).
        B128Atom64B = "128B_ATOM_64B",
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_L2_PROMOTION_*`: a performance hint, no effect on the bytes.
    L2Promotion {
        /// No promotion.
        None = "NONE",
        /// 64-byte L2 requests.
        B64 = "L2_64B",
        /// 128-byte L2 requests.
        B128 = "L2_128B",
        /// 256-byte L2 requests.
        B256 = "L2_256B",
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_FLOAT_OOB_FILL_*`: what a load writes for out-of-bounds elements.
    OobFill {
        /// Zero.
        None = "NONE",
        /// A NaN that requests a zero result from FMA (an H100 writes the bytes `f7 7f` repeated:
        /// [`NAN_FILL_PATTERN`]).
        NanRequestZeroFma = "NAN_REQUEST_ZERO_FMA",
    }
}

/// The first device architecture (compute capability 10.0) with the packed 4/6-bit types and
/// the `128B_ATOM_*` swizzles.
const PACKED_AND_ATOM_SWIZZLE_SM: u16 = 100;

/// The alignment every tensor copy's shared-memory address needs (bytes), swizzled or not: an
/// H100 faults with CUDA_ERROR_MISALIGNED_ADDRESS at 16, and loads at 128 under every swizzle
/// (corpus/evidence/tma-tile-loads.md).
pub const SMEM_TILE_ALIGN: u64 = 128;

/// On an H100 a tiled load faults unless `c0 · elementSize` is a multiple of this many bytes
/// (corpus/findings/tma-inner-coordinate-trap.md).
const INNER_COORDINATE_BYTES: i64 = 16;

/// The bytes an H100 writes, repeated, for every out-of-bounds element of a NAN_REQUEST_ZERO_FMA
/// load, whatever the type: `0x7ff7` (f16, bf16), `0x7ff77ff7` (f32, tf32), `0x7ff77ff77ff77ff7`
/// (f64) — a NaN in each (corpus/evidence/tma-tile-loads.md). The strict value of the
/// allowance `tma-oob-nan-fill`, which admits any NaN of the type.
pub const NAN_FILL_PATTERN: [u8; 2] = [0xf7, 0x7f];

/// The byte of the NaN fill at `offset_in_element` bytes into an out-of-bounds element
/// ([`NAN_FILL_PATTERN`] repeated).
pub fn fill_byte(offset_in_element: u64) -> u8 {
    NAN_FILL_PATTERN[(offset_in_element % 2) as usize]
}

/// What a TFLOAT32 / TFLOAT32_FTZ tile load writes for the f32 `bits` it reads (H100,
/// corpus/evidence/tma-tile-loads.md): rounded to tf32 (10 mantissa bits) to nearest even by
/// the one rounding engine, kept in f32's layout (low 13 bits zero); overflow gives ±∞,
/// subnormals are rounded, not flushed (TFLOAT32_FTZ alike), and every NaN, quiet or
/// signalling, becomes tf32's canonical NaN `0x7fffe000`.
pub fn tfloat32_on_load(bits: u32) -> u32 {
    let shift = F32.man_bits - TF32.man_bits;
    let value = decode(&F32, u64::from(bits));
    let code = if value.is_nan() {
        TF32.canonical_nan_bits().unwrap_or(0)
    } else {
        encode(&TF32, value, Rounding::NearestEven, Overflow::Ieee).bits
    };
    (code << shift) as u32
}

/// The most shared memory one CTA can have (227 KiB on sm_90 and sm_100): a tile larger than
/// this cannot land in shared memory, and [`TensorMap::tile`] refuses it.
pub const MAX_TILE_BYTES: u64 = 227 * 1024;

/// The largest `globalDim` entry (cuda.h: "less than or equal to 2^31").
const MAX_GLOBAL_DIM: u64 = 1 << 31;

/// Global strides must be below this (cuda.h: "less than 2^40").
const STRIDE_LIMIT: u64 = 1 << 40;

/// The largest `boxDim` and `channelsPerPixel` entry.
const MAX_BOX_DIM: u32 = 256;

/// The largest `elementStrides` entry.
const MAX_ELEMENT_STRIDE: u32 = 8;

/// The largest `pixelsPerColumn`.
const MAX_PIXELS_PER_COLUMN: u32 = 1024;

/// How one group of 16 packed values sits in memory.
struct Packed {
    /// Bytes the 16 values take in shared memory (gaps included).
    smem_bytes: u64,
    /// `globalDim[0]` must be a multiple of this.
    dim0_multiple: u64,
}

impl TensorDataType {
    /// Bytes of one element (unpacked types), `None` for the packed types.
    fn unpacked_bytes(self) -> Option<u64> {
        use TensorDataType::*;
        match self {
            Uint8 => Some(1),
            Uint16 | Float16 | Bfloat16 => Some(2),
            Uint32 | Int32 | Float32 | Float32Ftz | Tfloat32 | Tfloat32Ftz => Some(4),
            Uint64 | Int64 | Float64 => Some(8),
            U4x16Align8B | U4x16Align16B | U6x16Align16B => None,
        }
    }

    /// Bytes an element takes in shared memory: its size, or for a packed type one group of
    /// 16 values' shared-memory bytes.
    pub fn element_bytes(self) -> u64 {
        self.unpacked_bytes().or_else(|| self.packed().map(|p| p.smem_bytes)).unwrap_or(0)
    }

    /// The layout of a packed type's groups of 16 values.
    fn packed(self) -> Option<Packed> {
        match self {
            TensorDataType::U4x16Align8B => Some(Packed { smem_bytes: 8, dim0_multiple: 2 }),
            TensorDataType::U4x16Align16B => Some(Packed { smem_bytes: 16, dim0_multiple: 128 }),
            TensorDataType::U6x16Align16B => Some(Packed { smem_bytes: 16, dim0_multiple: 128 }),
            _ => None,
        }
    }

    /// Whether the type is one of the packed 4/6-bit types.
    pub fn is_packed(self) -> bool {
        self.packed().is_some()
    }

    /// Whether the type is a floating-point type (the types NAN_REQUEST_ZERO_FMA may fill).
    pub fn is_float(self) -> bool {
        use TensorDataType::*;
        matches!(self, Float16 | Float32 | Float64 | Bfloat16 | Float32Ftz | Tfloat32 | Tfloat32Ftz)
    }

    /// Whether the type needs `*_ALIGN16B` alignments (32-byte address and strides).
    fn align16b(self) -> bool {
        matches!(self, TensorDataType::U4x16Align16B | TensorDataType::U6x16Align16B)
    }

    /// Bytes that `n` values along dimension 0 take in shared memory (packed types: `n/16`
    /// groups, rounded up to a whole byte).
    fn smem_bytes_of(self, n: u64) -> u64 {
        match (self.unpacked_bytes(), self.packed()) {
            (Some(b), _) => n.saturating_mul(b),
            (None, Some(p)) => n.saturating_mul(p.smem_bytes).div_ceil(16),
            (None, None) => 0,
        }
    }
}

impl Swizzle {
    /// The span in bytes within which chunks move (`None` for no swizzle).
    pub fn span(self) -> Option<u64> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(32),
            Swizzle::B64 => Some(64),
            Swizzle::B128 | Swizzle::B128Atom32B | Swizzle::B128Atom32BFlip8B | Swizzle::B128Atom64B => Some(128),
        }
    }

    /// Bytes after which the pattern repeats: 8 rows of the span (`None` for no swizzle).
    pub fn repeat(self) -> Option<u64> {
        self.span().map(|s| 8 * s)
    }

    /// Whether the swizzle exists on devices of compute capability 10.0+ only.
    fn needs_sm100(self) -> bool {
        matches!(self, Swizzle::B128Atom32B | Swizzle::B128Atom32BFlip8B | Swizzle::B128Atom64B)
    }
}

/// The shared-memory address where the byte at unswizzled `address` lands: bits `[4, 4+B)` XOR
/// bits `[7, 7+B)` (CUTLASS `Swizzle<B,4,3>`, B = 1, 2, 3 for 32B, 64B, 128B). The address is
/// the absolute shared-memory address, not an offset from the tile (an H100 swizzles a tile at
/// a window's byte 128 with XOR 1 from its first row on: corpus/evidence/tma-tile-loads.md); an
/// offset from a 1024-byte-aligned base gives the same bits. The function is its own inverse
/// and keeps every byte in its span-sized block. `None` for the `128B_ATOM_*` swizzles, whose
/// patterns are not modeled.
pub fn swizzle_offset(swizzle: Swizzle, offset: u64) -> Option<u64> {
    let bits = match swizzle {
        Swizzle::None => return Some(offset),
        Swizzle::B32 => 1,
        Swizzle::B64 => 2,
        Swizzle::B128 => 3,
        Swizzle::B128Atom32B | Swizzle::B128Atom32BFlip8B | Swizzle::B128Atom64B => return None,
    };
    let mask = (1u64 << bits) - 1;
    Some(offset ^ (((offset >> 7) & mask) << 4))
}

/// How a tensor copy traverses the tensor (the driver's two encoders).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapMode {
    /// `cuTensorMapEncodeTiled`: a box of `box_dims`.
    Tiled,
    /// `cuTensorMapEncodeIm2col`: a column of pixels from a bounding box in the spatial
    /// dimensions (1 … rank-2; dimension 0 is the channel, rank-1 the batch).
    Im2col {
        /// `pixelBoxLowerCorner`: rank-2 entries, innermost spatial dimension (W) first.
        lower_corner: Vec<i32>,
        /// `pixelBoxUpperCorner`: rank-2 entries, innermost spatial dimension (W) first.
        upper_corner: Vec<i32>,
        /// `channelsPerPixel`.
        channels_per_pixel: u32,
        /// `pixelsPerColumn`.
        pixels_per_column: u32,
    },
}

/// The arguments of one tensor-map encode call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// Tiled or im2col.
    pub mode: MapMode,
    /// `tensorDataType`.
    pub dtype: TensorDataType,
    /// The tensor's base address in global memory (the driver's `globalAddress`).
    pub global_address: u64,
    /// `globalDim`, innermost first (rank = dims.len()).
    pub dims: Vec<u64>,
    /// `globalStrides`: byte strides of dims 1..rank-1 (rank-1 entries).
    pub strides: Vec<u64>,
    /// `boxDim` (tiled) — for im2col, `pixels_per_column`/`channels_per_pixel` give the box, and
    /// `box_dims` is empty.
    pub box_dims: Vec<u32>,
    /// `elementStrides`, rank entries.
    pub element_strides: Vec<u32>,
    /// `interleave`.
    pub interleave: Interleave,
    /// `swizzle`.
    pub swizzle: Swizzle,
    /// `l2Promotion`.
    pub l2_promotion: L2Promotion,
    /// `oobFill`.
    pub oob_fill: OobFill,
}

/// A violated encode-time rule (cuTensorMapEncodeTiled / Im2col, cuda.h): `rule` is a short
/// stable name ("rank", "global-address-align", "stride-multiple-of-16", "box-inner-bytes",
/// "swizzle-span", …; the module header lists them all), `detail` the values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tensor map rejected by encode rule `{rule}`: {detail}")]
pub struct EncodeError {
    /// The rule's stable name.
    pub rule: &'static str,
    /// The offending values.
    pub detail: String,
}

/// One element of a tile (a box, or an im2col column block) in the order the copy lays it out:
/// [`TensorMap::tile_element_bytes`] bytes (an element, or a 16-byte chunk of an interleave unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileElement {
    /// Byte offset of the element in the shared-memory destination (after swizzling).
    pub smem_offset: u64,
    /// The element's global address, `None` when the element is out of bounds.
    pub global: Option<u64>,
}

/// One byte of a tensor load's extent in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadedByte {
    /// A byte copied from global memory (`None`: unknown there; TFLOAT32 maps: of the converted
    /// element, unknown when any of its 4 bytes is) or the zero of OOB_FILL_NONE.
    Byte(Option<u8>),
    /// A byte of an out-of-bounds element under NAN_REQUEST_ZERO_FMA: part of the NaN fill.
    /// Under the allowance `tma-oob-nan-fill` the element may be any NaN of the map's type;
    /// strictly it is what the H100 writes, [`fill_byte`] of the byte's offset in its element
    /// (the bytes `f7 7f` repeated).
    Fill,
    /// A byte inside the tile's extent that the load does not write (past the inner extent of a
    /// row padded to the swizzle span): the destination keeps its old value.
    Unwritten,
}

/// Why a tile cannot be computed: `problem` is a stable name ("coords", "offsets",
/// "invalid-map", "not-modeled", "too-large", "address-overflow", "smem-align"), `detail` the
/// values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tensor tile: {problem}: {detail}")]
pub struct TileError {
    /// The problem's stable name.
    pub problem: &'static str,
    /// The values involved.
    pub detail: String,
}

fn encode_err(rule: &'static str, detail: String) -> EncodeError {
    EncodeError { rule, detail }
}

fn tile_err(problem: &'static str, detail: String) -> TileError {
    TileError { problem, detail }
}

/// The `.elemtype` values of `tensormap.replace`, by `new_val` (§9.7.9.26 Table 33; they are
/// not the `CUtensorMapDataType` codes).
const REPLACE_ELEMTYPES: [TensorDataType; 16] = [
    TensorDataType::Uint8,
    TensorDataType::Uint16,
    TensorDataType::Uint32,
    TensorDataType::Int32,
    TensorDataType::Uint64,
    TensorDataType::Int64,
    TensorDataType::Float16,
    TensorDataType::Float32,
    TensorDataType::Float32Ftz,
    TensorDataType::Float64,
    TensorDataType::Bfloat16,
    TensorDataType::Tfloat32,
    TensorDataType::Tfloat32Ftz,
    TensorDataType::U4x16Align8B,
    TensorDataType::U4x16Align16B,
    TensorDataType::U6x16Align16B,
];

impl TensorMap {
    /// `tensorRank`.
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The map after `tensormap.replace` of `field` (§9.7.9.26): `ord` is the dimension of the
    /// per-dimension fields (`.global_stride` ordinal `i` is `globalStrides[i]`, the stride of
    /// dimension `i + 1`, as cuda.h numbers the array), `value` the new value (a model address
    /// for `.global_address`, rank − 1 for `.rank`, a Table 33 row for the enumerated fields).
    /// The result is not validated: a map that breaks an encode rule is the caller's to refuse.
    /// `.swizzle_atomicity` and `.rank` above the encoded rank (fields the encoder never set)
    /// are not modeled; an ordinal past the rank or a value outside its table is an error.
    pub fn replaced(&self, field: TensormapField, ord: Option<usize>, value: u64) -> Result<TensorMap, String> {
        use TensormapField as F;
        let mut m = self.clone();
        let rank = m.rank();
        let dim = |n: usize| match ord {
            Some(d) if d < n => Ok(d),
            _ => Err(format!("ordinal {ord:?} of `.{field}` is outside the map's {n} entries (rank {rank})")),
        };
        let narrow = |v: u64| u32::try_from(v).map_err(|_| format!("`.{field}` value {v} does not fit 32 bits"));
        let row = |n: usize| {
            usize::try_from(value)
                .ok()
                .filter(|&v| v < n)
                .ok_or_else(|| format!("`.{field}` value {value}: not a row of Table 33"))
        };
        match field {
            F::GlobalAddress => m.global_address = value,
            F::Rank => {
                let new = usize::try_from(value).unwrap_or(usize::MAX).saturating_add(1);
                if new > rank {
                    return Err(format!(
                        "raising the rank from {rank} to {new} (the encoder never set the new dimensions' fields)"
                    ));
                }
                m.dims.truncate(new);
                m.strides.truncate(new.saturating_sub(1));
                m.box_dims.truncate(new);
                m.element_strides.truncate(new);
            }
            F::BoxDim => {
                let d = dim(m.box_dims.len())?;
                m.box_dims[d] = narrow(value)?;
            }
            F::GlobalDim => {
                let d = dim(rank)?;
                m.dims[d] = u64::from(narrow(value)?);
            }
            F::GlobalStride => {
                let d = dim(m.strides.len())?;
                m.strides[d] = value;
            }
            F::ElementStride => {
                let d = dim(m.element_strides.len())?;
                m.element_strides[d] = narrow(value)?;
            }
            F::Elemtype => m.dtype = REPLACE_ELEMTYPES[row(REPLACE_ELEMTYPES.len())?],
            F::InterleaveLayout => m.interleave = [Interleave::None, Interleave::B16, Interleave::B32][row(3)?],
            F::SwizzleMode if value == 4 => {
                return Err("`.swizzle_mode` 4 (96B swizzling, sm_103a) is not modeled".into())
            }
            F::SwizzleMode => m.swizzle = [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128][row(4)?],
            F::FillMode => m.oob_fill = [OobFill::None, OobFill::NanRequestZeroFma][row(2)?],
            F::SwizzleAtomicity => {
                return Err("`.swizzle_atomicity` (the 128B_ATOM swizzles of sm_100) is not modeled".into())
            }
        }
        Ok(m)
    }

    /// Bytes of one element; for the packed types, of one group of 16 values as shared memory
    /// holds it (8 for `16U4_ALIGN8B`, 16 for the `*_ALIGN16B` types).
    pub fn element_bytes(&self) -> u64 {
        self.dtype.element_bytes()
    }

    /// The encode-time rules, as the driver checks them, for `target` (sm_90 lacks the
    /// 128B_ATOM swizzles and the packed 4/6-bit types).
    pub fn validate(&self, target: &Target) -> Result<(), EncodeError> {
        match self.encode_violations(Some(target)).into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Every encode rule the map breaks, device rules first (when `target` is given), then in
    /// the order of cuda.h's text. After `rank` or `array-lengths` nothing else is checked: the
    /// other rules read the arrays.
    fn encode_violations(&self, target: Option<&Target>) -> Vec<EncodeError> {
        let mut errs = Vec::new();
        if let Some(target) = target {
            self.check_target(target, &mut errs);
        }
        self.check_encode(&mut errs);
        errs
    }

    /// The rules that depend on the device: packed types and `128B_ATOM_*` swizzles need
    /// compute capability 10.0 (the target's `sm` ≥ 100).
    fn check_target(&self, target: &Target, errs: &mut Vec<EncodeError>) {
        if target.sm < PACKED_AND_ATOM_SWIZZLE_SM {
            if self.dtype.is_packed() {
                errs.push(encode_err(
                    "target-data-type",
                    format!("{} needs compute capability 10.0+, the target is {target}", self.dtype.name()),
                ));
            }
            if self.swizzle.needs_sm100() {
                errs.push(encode_err(
                    "target-swizzle",
                    format!("swizzle {} needs compute capability 10.0+, the target is {target}", self.swizzle.name()),
                ));
            }
        }
    }

    /// Every rule that does not depend on the device, in the order of cuda.h's text.
    fn check_encode(&self, errs: &mut Vec<EncodeError>) {
        let rank = self.rank();
        let im2col = match &self.mode {
            MapMode::Tiled => None,
            MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => {
                Some((lower_corner, upper_corner, *channels_per_pixel, *pixels_per_column))
            }
        };
        let min_rank = if im2col.is_some() || self.interleave != Interleave::None { 3 } else { 1 };
        if !(min_rank..=5).contains(&rank) {
            errs.push(encode_err(
                "rank",
                format!(
                    "rank {rank} (mode {}, interleave {}): must be {min_rank}..=5",
                    self.mode_name(),
                    self.interleave.name()
                ),
            ));
            return;
        }
        let box_len = if im2col.is_some() { 0 } else { rank };
        let corners_ok = im2col.is_none_or(|(lo, hi, _, _)| lo.len() == rank - 2 && hi.len() == rank - 2);
        if self.strides.len() != rank - 1
            || self.box_dims.len() != box_len
            || self.element_strides.len() != rank
            || !corners_ok
        {
            errs.push(encode_err(
                "array-lengths",
                format!(
                    "rank {rank}: {} strides (need {}), {} box dims (need {box_len}), {} element strides (need {rank}){}",
                    self.strides.len(),
                    rank - 1,
                    self.box_dims.len(),
                    self.element_strides.len(),
                    if corners_ok { "" } else { ", im2col corners need rank-2 entries" }
                ),
            ));
            return;
        }
        let addr_align = if self.interleave == Interleave::B32 || self.dtype.align16b() { 32 } else { 16 };
        if !self.global_address.is_multiple_of(addr_align) {
            errs.push(encode_err(
                "global-address-align",
                format!("global address {:#x} is not {addr_align}-byte aligned", self.global_address),
            ));
        }
        if let Some((d, &n)) = self.dims.iter().enumerate().find(|(_, &n)| n == 0 || n > MAX_GLOBAL_DIM) {
            errs.push(encode_err("global-dim", format!("globalDim[{d}] = {n}: must be 1..=2^31")));
        }
        if let Some(p) = self.dtype.packed() {
            if !self.dims[0].is_multiple_of(p.dim0_multiple) {
                errs.push(encode_err(
                    "packed-global-dim0",
                    format!(
                        "globalDim[0] = {} must be a multiple of {} for {}",
                        self.dims[0],
                        p.dim0_multiple,
                        self.dtype.name()
                    ),
                ));
            }
        }
        let stride_multiple = if self.interleave == Interleave::B32 || self.dtype.align16b() { 32 } else { 16 };
        for (i, &s) in self.strides.iter().enumerate() {
            if !s.is_multiple_of(16) {
                errs.push(encode_err("stride-multiple-of-16", format!("globalStrides[{i}] = {s}")));
            } else if !s.is_multiple_of(stride_multiple) {
                errs.push(encode_err(
                    "stride-multiple-of-32",
                    format!("globalStrides[{i}] = {s} (interleave {}, {})", self.interleave.name(), self.dtype.name()),
                ));
            }
            if s >= STRIDE_LIMIT {
                errs.push(encode_err("stride-limit", format!("globalStrides[{i}] = {s}: must be < 2^40")));
            }
        }
        if let Some((d, &b)) = self.box_dims.iter().enumerate().find(|(_, &b)| b == 0 || b > MAX_BOX_DIM) {
            errs.push(encode_err("box-dim", format!("boxDim[{d}] = {b}: must be 1..=256")));
        }
        let inner_bytes = match im2col {
            None => self.dtype.smem_bytes_of(u64::from(self.box_dims[0])),
            Some((_, _, channels, _)) => self.dtype.smem_bytes_of(u64::from(channels)),
        };
        if im2col.is_none() && !inner_bytes.is_multiple_of(16) {
            errs.push(encode_err(
                "box-inner-bytes",
                format!(
                    "boxDim[0] = {} × {} is {inner_bytes} bytes, not a multiple of 16",
                    self.box_dims[0],
                    self.dtype.name()
                ),
            ));
        }
        if im2col.is_none() && self.dtype.align16b() && self.box_dims[0] != 128 {
            errs.push(encode_err(
                "packed-box-dim0",
                format!("boxDim[0] = {} must be 128 for {}", self.box_dims[0], self.dtype.name()),
            ));
        }
        if let Some((d, &e)) = self.element_strides.iter().enumerate().find(|(_, &e)| e == 0 || e > MAX_ELEMENT_STRIDE)
        {
            errs.push(encode_err("element-stride", format!("elementStrides[{d}] = {e}: must be 1..=8")));
        }
        if let (Interleave::None, Some(span)) = (self.interleave, self.swizzle.span()) {
            if inner_bytes > span {
                errs.push(encode_err(
                    "swizzle-span",
                    format!(
                        "inner box extent {inner_bytes} bytes > {span}-byte span of swizzle {}",
                        self.swizzle.name()
                    ),
                ));
            }
        }
        if self.interleave == Interleave::B32 && self.swizzle != Swizzle::B32 {
            errs.push(encode_err(
                "interleave-32b-swizzle",
                format!("interleave 32B needs swizzle 32B, not {}", self.swizzle.name()),
            ));
        }
        self.check_packed_layout(errs);
        if self.oob_fill == OobFill::NanRequestZeroFma && !self.dtype.is_float() {
            errs.push(encode_err(
                "oob-fill-float",
                format!("NAN_REQUEST_ZERO_FMA needs a floating-point type, not {}", self.dtype.name()),
            ));
        }
        if let Some((lower, upper, channels, pixels)) = im2col {
            self.check_im2col(lower, upper, channels, pixels, errs);
        }
    }

    /// `packed-interleave` and `packed-swizzle`.
    fn check_packed_layout(&self, errs: &mut Vec<EncodeError>) {
        let swizzles: &[Swizzle] = match self.dtype {
            TensorDataType::U6x16Align16B => {
                if self.interleave != Interleave::None {
                    errs.push(encode_err(
                        "packed-interleave",
                        format!("16U6_ALIGN16B needs interleave NONE, not {}", self.interleave.name()),
                    ));
                }
                &[Swizzle::None, Swizzle::B128, Swizzle::B128Atom32B, Swizzle::B128Atom64B]
            }
            TensorDataType::U4x16Align16B => &[Swizzle::None, Swizzle::B128, Swizzle::B128Atom32B],
            _ => return,
        };
        if !swizzles.contains(&self.swizzle) {
            errs.push(encode_err(
                "packed-swizzle",
                format!("{} does not support swizzle {}", self.dtype.name(), self.swizzle.name()),
            ));
        }
    }

    /// The im2col-only rules.
    fn check_im2col(&self, lower: &[i32], upper: &[i32], channels: u32, pixels: u32, errs: &mut Vec<EncodeError>) {
        let rank = self.rank();
        let limit: i32 = match rank {
            3 => 32768,
            4 => 128,
            _ => 16,
        };
        if let Some(&c) = lower.iter().chain(upper).find(|&&c| c < -limit || c >= limit) {
            errs.push(encode_err(
                "im2col-corner-range",
                format!("corner offset {c}: rank {rank} allows {}..={}", -limit, limit - 1),
            ));
        }
        for (i, (&lo, &hi)) in lower.iter().zip(upper).enumerate() {
            let extent = i128::from(self.dims[i + 1]) + i128::from(hi) - i128::from(lo);
            if extent < 1 {
                errs.push(encode_err(
                    "im2col-box-area",
                    format!(
                        "spatial dim {}: globalDim {} + upper {hi} − lower {lo} = {extent}",
                        i + 1,
                        self.dims[i + 1]
                    ),
                ));
            }
        }
        let channels_ok = if self.dtype.align16b() { channels == 128 } else { (1..=MAX_BOX_DIM).contains(&channels) };
        if !channels_ok {
            errs.push(encode_err(
                "channels-per-pixel",
                format!(
                    "channelsPerPixel = {channels} for {}: must be 1..=256 (128 for *_ALIGN16B)",
                    self.dtype.name()
                ),
            ));
        }
        if !(1..=MAX_PIXELS_PER_COLUMN).contains(&pixels) {
            errs.push(encode_err("pixels-per-column", format!("pixelsPerColumn = {pixels}: must be 1..=1024")));
        }
    }

    fn mode_name(&self) -> &'static str {
        match self.mode {
            MapMode::Tiled => "tiled",
            MapMode::Im2col { .. } => "im2col",
        }
    }

    /// The step between a tile's elements along dimension `d`: `elementStrides[d]`, except
    /// along dimension 0 of a non-interleaved map, where cuda.h says the stride is ignored.
    pub fn traversal_stride(&self, d: usize) -> u32 {
        if d == 0 && self.interleave == Interleave::None {
            1
        } else {
            self.element_strides.get(d).copied().unwrap_or(1)
        }
    }

    /// Elements of a tiled-mode tile along each dimension: `ceil(boxDim[d] / stride)`.
    fn box_counts(&self) -> Vec<u64> {
        (0..self.box_dims.len())
            .map(|d| u64::from(self.box_dims[d]).div_ceil(u64::from(self.traversal_stride(d).max(1))))
            .collect()
    }

    /// Bytes of one row (a dimension-0 run: `boxDim[0]` elements, `ceil(boxDim[0] /
    /// elementStrides[0])` units of an interleaved map, or an im2col pixel's `channelsPerPixel`)
    /// in shared memory: what a row writes.
    fn row_bytes(&self) -> u64 {
        let inner = self.box_counts().first().copied().unwrap_or(0);
        match (&self.mode, self.interleave.unit_bytes()) {
            (MapMode::Tiled, Some(unit)) => inner.saturating_mul(unit),
            (MapMode::Tiled, None) => self.dtype.smem_bytes_of(inner),
            (MapMode::Im2col { channels_per_pixel, .. }, _) => self.dtype.smem_bytes_of(u64::from(*channels_per_pixel)),
        }
    }

    /// Rows of a tile: the product of the element counts of dimensions 1… (tiled), or
    /// `pixelsPerColumn` (im2col); saturates for maps no driver accepts.
    fn rows(&self) -> u64 {
        match &self.mode {
            MapMode::Tiled => self.box_counts().iter().skip(1).fold(1u64, |rows, &n| rows.saturating_mul(n)),
            MapMode::Im2col { pixels_per_column, .. } => u64::from(*pixels_per_column),
        }
    }

    /// Bytes between consecutive rows of a tile in shared memory before swizzling: the row's
    /// bytes without a swizzle, rounded up to a whole number of swizzle spans with one (an H100
    /// leaves the rest of each span unwritten: corpus/evidence/tma-tile-loads.md).
    /// Interleaved rows are packed, swizzled or not (corpus/evidence/tma-interleave.md).
    pub fn row_pitch(&self) -> u64 {
        let row = self.row_bytes();
        match (self.swizzle.span(), self.interleave) {
            (Some(span), Interleave::None) => row.div_ceil(span).saturating_mul(span),
            _ => row,
        }
    }

    /// Bytes between consecutive positions along dimension 0: the element, or with interleave
    /// the unit (16 or 32 bytes).
    fn dim0_step_bytes(&self) -> u64 {
        self.interleave.unit_bytes().unwrap_or(self.element_bytes())
    }

    /// Bytes of one [`TileElement`]: the map's element, or with interleave one 16-byte chunk of
    /// an interleave unit (a 32-byte unit is two elements; the swizzle moves 16-byte chunks).
    pub fn tile_element_bytes(&self) -> u64 {
        if self.interleave == Interleave::None {
            self.element_bytes()
        } else {
            16
        }
    }

    /// Bytes one tile copy writes to shared memory (= the transaction bytes of a load: along
    /// dimension 0 `boxDim[0]` elements whatever its element stride without interleave, as an
    /// H100 signals them); saturates at `u64::MAX` for maps no driver accepts.
    pub fn tile_bytes(&self) -> u64 {
        self.row_bytes().saturating_mul(self.rows())
    }

    /// Bytes from a tile's start to the end of its last row: the room the shared-memory
    /// destination needs. Equal to [`Self::tile_bytes`] without a swizzle; with one, each row
    /// is padded to the span, and the written bytes of the last row lie anywhere in its span,
    /// depending on the address. Interleaved rows are packed, so a swizzle can move the last
    /// chunks up to the end of the last span. Saturates at `u64::MAX` for maps no driver accepts.
    pub fn tile_extent(&self) -> u64 {
        let packed = self.row_pitch().saturating_mul(self.rows());
        match (self.interleave, self.swizzle.span()) {
            (Interleave::B16 | Interleave::B32, Some(span)) => packed.div_ceil(span).saturating_mul(span),
            _ => packed,
        }
    }

    /// The alignment the shared-memory address of a tile copy needs (bytes):
    /// [`SMEM_TILE_ALIGN`], whatever the swizzle (the pattern follows the address).
    pub fn smem_align(&self) -> u64 {
        SMEM_TILE_ALIGN
    }

    /// The §9.7.9.25.5.1 restriction a tile store (`.global.shared::cta`) at `coords` breaks, if
    /// any: the starting coordinates must be non-negative (an H100 traps on a negative one,
    /// corpus/evidence/tma-tile-stores.md), and the box must stay inside the tensor along the
    /// dimensions after the first ("D, W and H"). Dimension 0 may pass the end (what the
    /// hardware then writes is the allowance `tma-store-oob-chunk`).
    pub fn store_restriction(&self, coords: &[i32]) -> Option<String> {
        if let Some(c) = coords.iter().find(|&&c| c < 0) {
            return Some(format!(
                "§9.7.9.25.5.1: a tensor store's starting coordinates must be non-negative (coordinate {c})"
            ));
        }
        for (d, &c) in coords.iter().enumerate().take(self.rank().min(4)).skip(1) {
            let es = u64::from(self.element_strides.get(d).copied().unwrap_or(1).max(1));
            let n = u64::from(self.box_dims.get(d).copied().unwrap_or(1)).div_ceil(es).max(1);
            let last = c as u64 + (n - 1) * es;
            if last >= self.dims.get(d).copied().unwrap_or(0) {
                return Some(format!(
                    "§9.7.9.25.5.1: a tensor store's box must stay inside the tensor along dimension {d} (coordinate {c} + box reaches {last}, dims[{d}] = {})",
                    self.dims.get(d).copied().unwrap_or(0)
                ));
            }
        }
        None
    }

    /// Whether an H100 faults on a tiled load at `coords` though the PTX ISA promises data
    /// (§9.7.9.25.5.2 puts no condition on `tensorCoords`; §9.7.9.25.5.1 restricts the first
    /// coordinate only for the packed types): it does when `c0 · elementSize` is not a multiple
    /// of 16 bytes, for negative and positive `c0` alike (CUDA_ERROR_ILLEGAL_INSTRUCTION on an
    /// H100, driver 580.159.04: f32 c0 = 1, f16 c0 = −3, −1, 4, u8 c0 = −1, 8 fault; f16 c0 =
    /// −16, −8, 8, u8 16, f32 36 load; corpus/findings/tma-inner-coordinate-trap.md). Only
    /// non-interleaved tiled maps of unpacked types were measured; others answer `false`. The
    /// oracle's tile stays the spec's: a conformance case that sees the fault records a finding.
    pub fn inner_coordinate_traps(&self, coords: &[i32]) -> bool {
        let (MapMode::Tiled, Interleave::None, Some(elem), Some(&c0)) =
            (&self.mode, self.interleave, self.dtype.unpacked_bytes(), coords.first())
        else {
            return false;
        };
        (i64::from(c0) * elem as i64).rem_euclid(INNER_COORDINATE_BYTES) != 0
    }

    /// Whether an H100 faults on an im2col load at `coords`: it does when a spatial coordinate
    /// lies outside the pixel bounding box `[lowerCorner, dim + upperCorner − 1]` of its
    /// dimension, whatever the `im2colInfo` offsets (CUDA_ERROR_ILLEGAL_INSTRUCTION on an H100,
    /// driver 580.159.04, JIT: a rank-3 UINT16 map with W = 7 loads at w ∈ [−1, 4] with corners
    /// −1/−2, [0, 6] with 0/0, [−2, 8] with −2/+2, and faults just outside each range, offsets
    /// 0, 1, 2 alike; at ranks 4 and 5 every spatial dimension follows the same rule, corners
    /// −1/−2, 0/0, −2/+2 and +1/+1, 187 probes; corpus/findings/tma-im2col-fuzz-trap.md). The PTX ISA and cuda.h put no
    /// such condition on `tensorCoords`; the oracle's column stays the spec's. Tiled maps answer
    /// `false`.
    pub fn im2col_start_traps(&self, coords: &[i32]) -> bool {
        let MapMode::Im2col { lower_corner, upper_corner, .. } = &self.mode else { return false };
        lower_corner.iter().zip(upper_corner).enumerate().any(|(d, (&lo, &up))| {
            let (Some(&c), Some(&dim)) = (coords.get(d + 1), self.dims.get(d + 1)) else { return false };
            let c = i64::from(c);
            c < i64::from(lo) || c > dim as i64 + i64::from(up) - 1
        })
    }

    /// Whether an H100 traverses less of an interleaved tile than the box says: with 16B or 32B
    /// interleave it walks only the starting coordinate of dimension `rank − 2` (its `boxDim`
    /// and element stride are ignored; the descriptor the driver encodes holds them unchanged),
    /// so a load delivers `1 / ceil(boxDim[rank−2] / elementStrides[rank−2])` of the bytes the
    /// mbarrier expects and never completes, and a store writes only those rows (H100, driver
    /// 580.159.04, ranks 3–5, loads, stores and reductions; open finding
    /// corpus/findings/tma-interleave-box-skip.md). cuda.h says `boxDim` gives the elements
    /// "traversed along each of the tensorRank dimensions"; the oracle's tile stays that. Other
    /// maps answer `false`.
    pub fn interleave_skips_box(&self) -> bool {
        let r = self.rank();
        if self.interleave == Interleave::None || self.mode != MapMode::Tiled || r < 3 {
            return false;
        }
        let counts = self.box_counts();
        counts.get(r - 2).is_some_and(|&n| n > 1)
    }

    /// The checks every tile computation starts with: a valid map (device rules aside) of a
    /// modeled kind, of a size shared memory can hold.
    fn check_tileable(&self) -> Result<(), TileError> {
        if let Some(e) = self.encode_violations(None).into_iter().next() {
            return Err(tile_err("invalid-map", e.to_string()));
        }
        if self.dtype.is_packed() {
            return Err(tile_err("not-modeled", format!("layout of packed type {}", self.dtype.name())));
        }
        if self.swizzle.needs_sm100() {
            return Err(tile_err("not-modeled", format!("swizzle {}", self.swizzle.name())));
        }
        if self.interleave != Interleave::None && self.mode != MapMode::Tiled {
            return Err(tile_err("not-modeled", format!("im2col with interleave {}", self.interleave.name())));
        }
        let extent = self.tile_extent();
        if extent > MAX_TILE_BYTES {
            return Err(tile_err("too-large", format!("{extent} bytes > {MAX_TILE_BYTES} bytes of shared memory")));
        }
        Ok(())
    }

    /// The destination rules: 128-byte aligned (an H100 faults with
    /// CUDA_ERROR_MISALIGNED_ADDRESS otherwise), and the tile's extent inside the address space.
    fn check_destination(&self, dst: u64) -> Result<(), TileError> {
        if !dst.is_multiple_of(SMEM_TILE_ALIGN) {
            return Err(tile_err(
                "smem-align",
                format!(
                    "shared-memory destination {dst:#x} is not {SMEM_TILE_ALIGN}-byte aligned \
                     (an H100 faults: CUDA_ERROR_MISALIGNED_ADDRESS)"
                ),
            ));
        }
        if dst.checked_add(self.tile_extent()).is_none() {
            return Err(tile_err(
                "address-overflow",
                format!("a {}-byte tile at shared-memory address {dst:#x} lies past 2^64", self.tile_extent()),
            ));
        }
        Ok(())
    }

    /// [`Self::tile_at`] a destination at address 0 (the same tile as at any multiple of 1024).
    pub fn tile(&self, coords: &[i32], offsets: &[u16]) -> Result<Vec<TileElement>, TileError> {
        self.tile_at(0, coords, offsets)
    }

    /// The elements of the tile at `coords` (rank entries for tile mode; for im2col the
    /// coordinates of the `cp.async.bulk.tensor` operand plus `offsets` = im2colInfo), for a
    /// copy whose shared-memory destination is at address `dst` (the swizzle follows the
    /// absolute address); each `smem_offset` is relative to `dst`.
    pub fn tile_at(&self, dst: u64, coords: &[i32], offsets: &[u16]) -> Result<Vec<TileElement>, TileError> {
        self.check_tileable()?;
        self.check_destination(dst)?;
        if coords.len() != self.rank() {
            return Err(tile_err("coords", format!("{} coordinates for a rank-{} map", coords.len(), self.rank())));
        }
        let unswizzled = match &self.mode {
            MapMode::Tiled => {
                if !offsets.is_empty() {
                    return Err(tile_err("offsets", "im2col offsets given for a tiled map".into()));
                }
                self.tiled_elements(coords)?
            }
            MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => self
                .im2col_elements(
                    coords,
                    offsets,
                    lower_corner,
                    upper_corner,
                    *channels_per_pixel,
                    *pixels_per_column,
                )?,
        };
        self.swizzle_tile(dst, unswizzled)
    }

    /// The global address of the element at tensor coordinates `x` (innermost first), `None`
    /// when a coordinate lies outside `0..globalDim`.
    fn global_of(&self, x: &[i64]) -> Result<Option<u64>, TileError> {
        let elem = u128::from(self.dim0_step_bytes());
        let mut address = u128::from(self.global_address);
        for (d, &x_d) in x.iter().enumerate() {
            if x_d < 0 || x_d as u64 >= self.dims[d] {
                return Ok(None);
            }
            let step = if d == 0 { elem } else { u128::from(self.strides[d - 1]) };
            address += x_d as u128 * step;
        }
        u64::try_from(address)
            .map(Some)
            .map_err(|_| tile_err("address-overflow", format!("element at coordinates {x:?} lies past 2^64")))
    }

    /// Tiled mode: the elements in layout order, offsets before swizzling (rows
    /// [`Self::row_pitch`] apart); an interleave unit is one element per 16 bytes.
    fn tiled_elements(&self, coords: &[i32]) -> Result<Vec<TileElement>, TileError> {
        let counts = self.box_counts();
        let elem = self.dim0_step_bytes();
        let part = self.tile_element_bytes();
        let pitch = self.row_pitch();
        let per_row = counts.first().copied().unwrap_or(1).max(1);
        let total: u64 = counts.iter().product();
        let mut out = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
        let mut index = vec![0u64; counts.len()];
        let mut x = vec![0i64; counts.len()];
        for linear in 0..total {
            for (d, (x_d, &i)) in x.iter_mut().zip(&index).enumerate() {
                *x_d = i64::from(coords[d]) + (i * u64::from(self.traversal_stride(d))) as i64;
            }
            let smem_offset = linear / per_row * pitch + linear % per_row * elem;
            let global = self.global_of(&x)?;
            for k in (0..elem).step_by(part as usize) {
                let global = global
                    .map(|g| g.checked_add(k).ok_or_else(|| tile_err("address-overflow", format!("{g:#x} + {k}"))))
                    .transpose()?;
                out.push(TileElement { smem_offset: smem_offset + k, global });
            }
            for (i, &n) in index.iter_mut().zip(&counts) {
                *i += 1;
                if *i < n {
                    break;
                }
                *i = 0;
            }
        }
        Ok(out)
    }

    /// Im2col mode (§9.7.9.25.5.2 `.im2col`; the PTX ISA's tensor chapter draws it): dimension
    /// 0 is the channel C, dimensions 1…rank-2 the spatial W, H, D, dimension rank-1 the image
    /// N. The column holds `pixelsPerColumn` pixels of `channelsPerPixel` channels each, channel
    /// innermost. The model's traversal ([`Self::im2col_pixels`]) starts at the pixel of
    /// `coords`; each pixel's channels start at `coords[0]`; the element loaded for spatial
    /// position `p` is the tensor element at `p + offsets` (the im2col offsets, zero when
    /// `offsets` is empty as for `.im2col_no_offs`), out of bounds filled as in tiled mode.
    fn im2col_elements(
        &self,
        coords: &[i32],
        offsets: &[u16],
        lower: &[i32],
        upper: &[i32],
        channels: u32,
        pixels: u32,
    ) -> Result<Vec<TileElement>, TileError> {
        let spatial = self.rank() - 2;
        if !offsets.is_empty() && offsets.len() != spatial {
            return Err(tile_err(
                "offsets",
                format!("{} im2col offsets for a rank-{} map", offsets.len(), self.rank()),
            ));
        }
        let elem = self.element_bytes();
        let pitch = self.row_pitch();
        let mut out = Vec::with_capacity(pixels as usize * channels as usize);
        let mut x = vec![0i64; self.rank()];
        for (p, position) in self.im2col_pixels(coords, lower, upper, pixels).into_iter().enumerate() {
            for (d, x_d) in x.iter_mut().enumerate().skip(1) {
                let offset = if d <= spatial { offsets.get(d - 1).map_or(0, |&o| i64::from(o)) } else { 0 };
                *x_d = position[d - 1] + offset;
            }
            for k in 0..u64::from(channels) {
                x[0] = i64::from(coords[0]) + (k * u64::from(self.traversal_stride(0))) as i64;
                out.push(TileElement { smem_offset: p as u64 * pitch + k * elem, global: self.global_of(&x)? });
            }
        }
        Ok(out)
    }

    /// The model's im2col traversal: `pixels` positions `(w, h, d, n)` (dimensions 1…rank-1),
    /// the first at `coords[1..]`. Each step adds `elementStrides[1]` to W; past the bounding
    /// box's last W position (`globalDim + upper − 1`) W returns to the lower corner and H takes
    /// its step, and so on outwards; past the last D (or H, or W) the image N takes its step.
    /// The bounding box of each spatial dimension is `lower … globalDim − 1 + upper`.
    fn im2col_pixels(&self, coords: &[i32], lower: &[i32], upper: &[i32], pixels: u32) -> Vec<Vec<i64>> {
        let spatial = lower.len().min(upper.len()).min(self.rank().saturating_sub(2));
        let mut position: Vec<i64> = coords.iter().skip(1).map(|&c| i64::from(c)).collect();
        let mut out = Vec::with_capacity(pixels as usize);
        for _ in 0..pixels {
            out.push(position.clone());
            let mut d = 0;
            loop {
                let step = i64::from(self.traversal_stride(d + 1));
                let Some(p) = position.get_mut(d) else { break };
                *p += step;
                if d >= spatial {
                    break;
                }
                let last = self.dims[d + 1] as i64 - 1 + i64::from(upper[d]);
                if *p <= last {
                    break;
                }
                *p = i64::from(lower[d]);
                d += 1;
            }
        }
        out
    }

    /// Applies the swizzle, by absolute address, to offsets laid out from a destination at
    /// `dst` (128-byte aligned: [`Self::check_destination`]).
    fn swizzle_tile(&self, dst: u64, mut elements: Vec<TileElement>) -> Result<Vec<TileElement>, TileError> {
        for e in &mut elements {
            let moved = swizzle_offset(self.swizzle, dst + e.smem_offset)
                .ok_or_else(|| tile_err("not-modeled", format!("swizzle {}", self.swizzle.name())))?;
            // The swizzle keeps the byte in its span-sized block, which starts at or after the
            // span-aligned `dst`: no underflow.
            e.smem_offset = moved - dst;
        }
        Ok(elements)
    }

    /// [`Self::load_at`] a destination at address 0 (the same bytes as at any multiple of 1024).
    pub fn load(
        &self,
        coords: &[i32],
        offsets: &[u16],
        global: &dyn Fn(u64) -> Option<u8>,
    ) -> Result<Vec<LoadedByte>, TileError> {
        self.load_at(0, coords, offsets, global)
    }

    /// What a load to the shared-memory address `dst` does to `dst..dst + tile_extent()`, byte
    /// by byte: the tile's bytes, swizzled, out-of-bounds elements filled (zero, or
    /// [`LoadedByte::Fill`] under NAN_REQUEST_ZERO_FMA), TFLOAT32 elements converted
    /// ([`tfloat32_on_load`]), and [`LoadedByte::Unwritten`] where the load writes nothing;
    /// `global(addr)` gives the byte at a global address (None = unknown).
    pub fn load_at(
        &self,
        dst: u64,
        coords: &[i32],
        offsets: &[u16],
        global: &dyn Fn(u64) -> Option<u8>,
    ) -> Result<Vec<LoadedByte>, TileError> {
        let elements = self.tile_at(dst, coords, offsets)?;
        let elem = self.tile_element_bytes();
        let tf32 = matches!(self.dtype, TensorDataType::Tfloat32 | TensorDataType::Tfloat32Ftz);
        let mut out = vec![LoadedByte::Unwritten; usize::try_from(self.tile_extent()).unwrap_or(0)];
        let mut bytes = Vec::with_capacity(elem as usize);
        for e in elements {
            bytes.clear();
            match (e.global, self.oob_fill) {
                (Some(addr), _) => {
                    bytes.extend((0..elem).map(|b| LoadedByte::Byte(addr.checked_add(b).and_then(global))));
                    if tf32 {
                        bytes.chunks_exact_mut(4).for_each(convert_tfloat32);
                    }
                }
                (None, OobFill::None) => bytes.resize(elem as usize, LoadedByte::Byte(Some(0))),
                (None, OobFill::NanRequestZeroFma) => bytes.resize(elem as usize, LoadedByte::Fill),
            }
            // In range: tile_at keeps every element inside 0..tile_extent.
            let at = e.smem_offset as usize;
            if let Some(slots) = out.get_mut(at..at + bytes.len()) {
                slots.copy_from_slice(&bytes);
            }
        }
        Ok(out)
    }
}

/// Replaces the 4 little-endian bytes of an f32 element by those of [`tfloat32_on_load`]; an
/// unknown byte makes all 4 unknown.
fn convert_tfloat32(bytes: &mut [LoadedByte]) {
    let known: Option<Vec<u8>> = bytes
        .iter()
        .map(|b| match b {
            LoadedByte::Byte(v) => *v,
            LoadedByte::Fill | LoadedByte::Unwritten => None,
        })
        .collect();
    let converted = known
        .and_then(|k| <[u8; 4]>::try_from(k.as_slice()).ok())
        .map(|k| tfloat32_on_load(u32::from_le_bytes(k)).to_le_bytes());
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = LoadedByte::Byte(converted.map(|c| c[i]));
    }
}

impl TensorDataType {
    /// The `.type` a tensor reduction (`cp.reduce.async.bulk.tensor`, §9.7.9.25.5.3) over
    /// elements of this type reduces with under `redop`: the bitwise operations on the `.b`
    /// types, the others on the signed/unsigned/float type of the element; `None` for element
    /// types no reduction takes.
    pub fn reduce_type(self, redop: crate::isa::RedOp) -> Option<crate::isa::ReduceType> {
        use crate::isa::{RedOp, ReduceType};
        use TensorDataType as D;
        let bitwise = matches!(redop, RedOp::And | RedOp::Or | RedOp::Xor);
        Some(match self {
            D::Uint32 | D::Int32 if bitwise => ReduceType::B32,
            D::Uint64 | D::Int64 if bitwise => ReduceType::B64,
            D::Uint32 => ReduceType::U32,
            D::Int32 => ReduceType::S32,
            D::Uint64 => ReduceType::U64,
            D::Int64 => ReduceType::S64,
            D::Float16 => ReduceType::F16,
            D::Bfloat16 => ReduceType::Bf16,
            D::Float32 => ReduceType::F32,
            D::Float64 => ReduceType::F64,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn target(name: &str) -> Target {
        name.parse().expect("a known target")
    }

    fn sm90() -> Target {
        target("sm_90")
    }

    /// A tiled map with no interleave, swizzle, promotion or fill, at a 1 KiB-aligned address.
    fn tiled(dtype: TensorDataType, dims: &[u64], strides: &[u64], box_dims: &[u32]) -> TensorMap {
        TensorMap {
            mode: MapMode::Tiled,
            dtype,
            global_address: 0x1000,
            dims: dims.to_vec(),
            strides: strides.to_vec(),
            box_dims: box_dims.to_vec(),
            element_strides: vec![1; dims.len()],
            interleave: Interleave::None,
            swizzle: Swizzle::None,
            l2_promotion: L2Promotion::None,
            oob_fill: OobFill::None,
        }
    }

    /// The issue's eval example: f16 40 × 20, box 32 × 18, 64B swizzle, NaN fill.
    fn issue_example() -> TensorMap {
        TensorMap {
            swizzle: Swizzle::B64,
            oob_fill: OobFill::NanRequestZeroFma,
            ..tiled(TensorDataType::Float16, &[40, 20], &[80], &[32, 18])
        }
    }

    fn im2col_map() -> TensorMap {
        TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![-1],
                upper_corner: vec![-1],
                channels_per_pixel: 8,
                pixels_per_column: 16,
            },
            box_dims: vec![],
            ..tiled(TensorDataType::Float16, &[8, 16, 2], &[16, 256], &[1, 1, 1])
        }
    }

    #[test]
    fn enum_names_codes_and_cuda_spellings() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(
            all: &[T],
            name: fn(T) -> &'static str,
            from: fn(&str) -> Option<T>,
            code: fn(T) -> u32,
        ) {
            for (i, &v) in all.iter().enumerate() {
                assert_eq!(code(v), i as u32, "{v:?}: cuda.h order");
                assert_eq!(from(name(v)), Some(v));
            }
            assert_eq!(from("NOT_AN_ENUMERATOR"), None);
        }
        check(TensorDataType::ALL, TensorDataType::name, TensorDataType::from_name, TensorDataType::code);
        check(Interleave::ALL, Interleave::name, Interleave::from_name, Interleave::code);
        check(Swizzle::ALL, Swizzle::name, Swizzle::from_name, Swizzle::code);
        check(L2Promotion::ALL, L2Promotion::name, L2Promotion::from_name, L2Promotion::code);
        check(OobFill::ALL, OobFill::name, OobFill::from_name, OobFill::code);
        assert_eq!(TensorDataType::ALL.len(), 16);
        assert_eq!(TensorDataType::from_name("16U4_ALIGN8B"), Some(TensorDataType::U4x16Align8B));
        assert_eq!(TensorDataType::U6x16Align16B.code(), 15);
        assert_eq!(Swizzle::from_name("128B_ATOM_32B_FLIP_8B").map(Swizzle::code), Some(5));
        assert_eq!(L2Promotion::from_name("L2_256B").map(L2Promotion::code), Some(3));
        assert_eq!(OobFill::from_name("NAN_REQUEST_ZERO_FMA").map(OobFill::code), Some(1));
        assert_eq!(Interleave::from_name("32B").map(Interleave::code), Some(2));
    }

    /// One violation per rule: (rule, target, the map that breaks exactly that rule).
    fn violations() -> Vec<(&'static str, &'static str, TensorMap)> {
        use TensorDataType::*;
        let base = || tiled(Float16, &[64, 32, 4], &[128, 4096], &[64, 8, 2]);
        let interleaved = || TensorMap { interleave: Interleave::B16, ..base() };
        let packed = |dtype| TensorMap {
            swizzle: Swizzle::B128,
            global_address: 0x1000,
            ..tiled(dtype, &[256, 8], &[256], &[128, 4])
        };
        let im2col = im2col_map;
        let with_im2col = |lower: Vec<i32>, upper: Vec<i32>, channels: u32, pixels: u32| TensorMap {
            mode: MapMode::Im2col {
                lower_corner: lower,
                upper_corner: upper,
                channels_per_pixel: channels,
                pixels_per_column: pixels,
            },
            ..im2col_map()
        };
        vec![
            ("rank", "sm_90", tiled(Uint8, &[16; 6], &[16; 5], &[16; 6])),
            ("rank", "sm_90", tiled(Uint8, &[], &[], &[])),
            ("rank", "sm_90", TensorMap { interleave: Interleave::B16, ..tiled(Uint8, &[16, 4], &[16], &[16, 4]) }),
            (
                "rank",
                "sm_90",
                TensorMap { dims: vec![8, 16], strides: vec![16], element_strides: vec![1, 1], ..im2col() },
            ),
            ("array-lengths", "sm_90", TensorMap { strides: vec![128], ..base() }),
            ("array-lengths", "sm_90", TensorMap { box_dims: vec![64, 8], ..base() }),
            ("array-lengths", "sm_90", TensorMap { element_strides: vec![1; 4], ..base() }),
            ("array-lengths", "sm_90", TensorMap { box_dims: vec![8, 1, 1], ..im2col() }),
            ("array-lengths", "sm_90", with_im2col(vec![0, 0], vec![0], 8, 16)),
            ("target-data-type", "sm_90", packed(U4x16Align16B)),
            ("target-swizzle", "sm_90", TensorMap { swizzle: Swizzle::B128Atom32B, ..base() }),
            ("global-address-align", "sm_90", TensorMap { global_address: 0x1008, ..base() }),
            (
                "global-address-align",
                "sm_90",
                TensorMap { global_address: 0x1010, interleave: Interleave::B32, swizzle: Swizzle::B32, ..base() },
            ),
            ("global-address-align", "sm_100a", TensorMap { global_address: 0x1010, ..packed(U6x16Align16B) }),
            ("global-dim", "sm_90", tiled(Float16, &[64, 0, 4], &[128, 4096], &[64, 8, 2])),
            ("global-dim", "sm_90", tiled(Uint8, &[(1 << 31) + 1], &[], &[16])),
            ("packed-global-dim0", "sm_100a", TensorMap { dims: vec![192, 8], ..packed(U4x16Align16B) }),
            (
                "packed-global-dim0",
                "sm_100a",
                TensorMap { dims: vec![255, 8], swizzle: Swizzle::None, box_dims: vec![32, 4], ..packed(U4x16Align8B) },
            ),
            ("stride-multiple-of-16", "sm_90", tiled(Float16, &[64, 32, 4], &[136, 4096], &[64, 8, 2])),
            (
                "stride-multiple-of-32",
                "sm_90",
                TensorMap { interleave: Interleave::B32, swizzle: Swizzle::B32, strides: vec![144, 4096], ..base() },
            ),
            ("stride-multiple-of-32", "sm_100a", TensorMap { strides: vec![272], ..packed(U4x16Align16B) }),
            ("stride-limit", "sm_90", tiled(Float16, &[64, 32, 4], &[128, 1 << 40], &[64, 8, 2])),
            ("box-dim", "sm_90", tiled(Float16, &[64, 32, 4], &[128, 4096], &[64, 257, 2])),
            ("box-dim", "sm_90", tiled(Float16, &[64, 32, 4], &[128, 4096], &[64, 0, 2])),
            ("box-inner-bytes", "sm_90", tiled(Float16, &[64, 32, 4], &[128, 4096], &[60, 8, 2])),
            ("box-inner-bytes", "sm_100a", tiled(U4x16Align8B, &[64, 8], &[32], &[24, 4])),
            ("packed-box-dim0", "sm_100a", TensorMap { box_dims: vec![64, 4], ..packed(U4x16Align16B) }),
            ("element-stride", "sm_90", TensorMap { element_strides: vec![1, 9, 1], ..base() }),
            ("element-stride", "sm_90", TensorMap { element_strides: vec![0, 1, 1], ..base() }),
            ("swizzle-span", "sm_90", TensorMap { swizzle: Swizzle::B64, ..base() }),
            ("swizzle-span", "sm_90", TensorMap { swizzle: Swizzle::B32, ..with_im2col(vec![-1], vec![-1], 32, 16) }),
            ("interleave-32b-swizzle", "sm_90", TensorMap { interleave: Interleave::B32, ..base() }),
            (
                "packed-interleave",
                "sm_100a",
                TensorMap {
                    interleave: Interleave::B16,
                    dims: vec![256, 8, 2],
                    strides: vec![256, 2048],
                    box_dims: vec![128, 4, 1],
                    element_strides: vec![1; 3],
                    ..packed(U6x16Align16B)
                },
            ),
            ("packed-swizzle", "sm_100a", TensorMap { swizzle: Swizzle::B128Atom64B, ..packed(U4x16Align16B) }),
            ("packed-swizzle", "sm_100a", TensorMap { swizzle: Swizzle::B128Atom32BFlip8B, ..packed(U6x16Align16B) }),
            (
                "oob-fill-float",
                "sm_90",
                TensorMap { oob_fill: OobFill::NanRequestZeroFma, ..tiled(Int32, &[64, 32], &[256], &[16, 8]) },
            ),
            ("oob-fill-float", "sm_100a", TensorMap { oob_fill: OobFill::NanRequestZeroFma, ..packed(U6x16Align16B) }),
            ("im2col-corner-range", "sm_90", with_im2col(vec![-32769], vec![0], 8, 16)),
            (
                "im2col-corner-range",
                "sm_90",
                TensorMap {
                    dims: vec![8, 16, 16, 2],
                    strides: vec![16, 256, 4096],
                    element_strides: vec![1; 4],
                    ..with_im2col(vec![0, -129], vec![0, 0], 8, 16)
                },
            ),
            ("im2col-box-area", "sm_90", with_im2col(vec![8], vec![-8], 8, 16)),
            ("channels-per-pixel", "sm_90", with_im2col(vec![-1], vec![-1], 0, 16)),
            ("channels-per-pixel", "sm_90", with_im2col(vec![-1], vec![-1], 257, 16)),
            ("pixels-per-column", "sm_90", with_im2col(vec![-1], vec![-1], 8, 1025)),
            ("pixels-per-column", "sm_90", with_im2col(vec![-1], vec![-1], 8, 0)),
            (
                "rank",
                "sm_90",
                TensorMap {
                    mode: MapMode::Im2col {
                        lower_corner: vec![0; 4],
                        upper_corner: vec![0; 4],
                        channels_per_pixel: 8,
                        pixels_per_column: 16,
                    },
                    dims: vec![8, 16, 16, 16, 16, 2],
                    strides: vec![16, 256, 4096, 65536, 1 << 20],
                    element_strides: vec![1; 6],
                    ..im2col()
                },
            ),
            ("global-address-align", "sm_90", TensorMap { global_address: 0x1001, ..interleaved() }),
        ]
    }

    #[test]
    fn valid_maps_pass() {
        use TensorDataType::*;
        let valid = [
            ("sm_90", tiled(Float16, &[64, 32, 4], &[128, 4096], &[64, 8, 2])),
            ("sm_90", issue_example()),
            ("sm_90", im2col_map()),
            (
                "sm_90",
                TensorMap {
                    interleave: Interleave::B32,
                    swizzle: Swizzle::B32,
                    ..tiled(Float16, &[16, 32, 4], &[32, 1024], &[16, 8, 2])
                },
            ),
            ("sm_90", TensorMap { swizzle: Swizzle::B128, ..tiled(Uint8, &[1 << 31], &[], &[128]) }),
            ("sm_100a", TensorMap { swizzle: Swizzle::B128, ..tiled(U4x16Align16B, &[256, 8], &[256], &[128, 4]) }),
            (
                "sm_100a",
                TensorMap { swizzle: Swizzle::B128Atom64B, ..tiled(U6x16Align16B, &[256, 8], &[256], &[128, 4]) },
            ),
            (
                "sm_100a",
                TensorMap { swizzle: Swizzle::B128Atom32BFlip8B, ..tiled(Float32, &[64, 8], &[256], &[32, 4]) },
            ),
        ];
        for (t, map) in valid {
            assert_eq!(map.validate(&target(t)), Ok(()), "{map:?} on {t}");
        }
    }

    #[test]
    fn each_encode_rule_rejects_exactly_its_violation() {
        for (rule, t, map) in violations() {
            let broken: Vec<&str> = map.encode_violations(Some(&target(t))).iter().map(|e| e.rule).collect();
            assert_eq!(broken, vec![rule], "{map:?} on {t}");
            assert_eq!(map.validate(&target(t)).map_err(|e| e.rule), Err(rule));
        }
    }

    #[test]
    fn every_rule_is_in_the_header_table_and_tested() {
        let source = include_str!("tensor_map.rs");
        let header: String = source.lines().take_while(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
        let tested: std::collections::BTreeSet<&str> = violations().iter().map(|(r, _, _)| *r).collect();
        let table: Vec<&str> = header
            .lines()
            .filter_map(|l| l.strip_prefix("//! | `"))
            .filter_map(|l| l.split_once('`').map(|(name, _)| name))
            .collect();
        assert_eq!(table.len(), 23, "{table:?}");
        for rule in &table {
            assert!(tested.contains(rule), "rule {rule} has no violation test");
            assert!(source.contains(&format!("\"{rule}\"")), "rule {rule} is never raised");
        }
        for rule in &tested {
            assert!(table.contains(rule), "rule {rule} is missing from the header table");
        }
    }

    #[test]
    fn issue_example_is_all_fill() {
        let map = issue_example();
        assert_eq!(map.validate(&sm90()), Ok(()));
        assert_eq!(map.tile_bytes(), 32 * 18 * 2);
        assert_eq!(map.tile_bytes(), 1152);
        let tile = map.tile(&[0x28, 2], &[]).expect("modeled");
        assert_eq!(tile.len(), 32 * 18);
        assert!(tile.iter().all(|e| e.global.is_none()), "c0 = 40 = dims[0]: every element out of bounds");
        let bytes = map.load(&[0x28, 2], &[], &|_| Some(0x11)).expect("modeled");
        assert_eq!(bytes, vec![LoadedByte::Fill; 1152]);
    }

    #[test]
    fn tile_fully_inside_2d_f16() {
        let map = tiled(TensorDataType::Float16, &[40, 20], &[80], &[8, 3]);
        let tile = map.tile(&[4, 5], &[]).expect("modeled");
        assert_eq!(tile.len(), 24);
        for (i, e) in tile.iter().enumerate() {
            let (x, y) = (4 + (i % 8) as u64, 5 + (i / 8) as u64);
            assert_eq!(e.smem_offset, 2 * i as u64);
            assert_eq!(e.global, Some(0x1000 + 2 * x + 80 * y));
        }
        let bytes = map.load(&[4, 5], &[], &|a| Some((a & 0xff) as u8)).expect("modeled");
        assert_eq!(bytes[0], LoadedByte::Byte(Some(((0x1000 + 8 + 400) & 0xff) as u8)));
        assert_eq!(bytes[17], LoadedByte::Byte(Some(((0x1000 + 8 + 480 + 1) & 0xff) as u8)));
        let unknown = map.load(&[4, 5], &[], &|_| None).expect("modeled");
        assert!(unknown.iter().all(|b| *b == LoadedByte::Byte(None)));
    }

    #[test]
    fn tiles_straddling_each_edge_fill_out_of_bounds_elements() {
        let zero = tiled(TensorDataType::Float32, &[8, 6], &[32], &[4, 3]);
        let nan = TensorMap { oob_fill: OobFill::NanRequestZeroFma, ..zero.clone() };
        // (coords, which (x, y) of the 4 × 3 box are inside)
        let inside = |c: [i32; 2], x: i32, y: i32| {
            let (gx, gy) = (c[0] + x, c[1] + y);
            (0..8).contains(&gx) && (0..6).contains(&gy)
        };
        for coords in [[-2, 1], [6, 1], [2, -1], [2, 4], [-3, -2], [7, 5], [-4, 0], [8, 0], [0, 6], [0, -3]] {
            for map in [&zero, &nan] {
                let tile = map.tile(&coords, &[]).expect("modeled");
                let bytes = map.load(&coords, &[], &|_| Some(0x5a)).expect("modeled");
                for (i, e) in tile.iter().enumerate() {
                    let (x, y) = ((i % 4) as i32, (i / 4) as i32);
                    let expect_in = inside(coords, x, y);
                    assert_eq!(e.global.is_some(), expect_in, "{coords:?} element ({x}, {y})");
                    let at = e.smem_offset as usize;
                    let want = match (expect_in, map.oob_fill) {
                        (true, _) => LoadedByte::Byte(Some(0x5a)),
                        (false, OobFill::None) => LoadedByte::Byte(Some(0)),
                        (false, OobFill::NanRequestZeroFma) => LoadedByte::Fill,
                    };
                    assert_eq!(&bytes[at..at + 4], &[want; 4], "{coords:?} element ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn element_strides_step_coordinates_except_dim0_without_interleave() {
        let map = TensorMap { element_strides: vec![4, 2], ..tiled(TensorDataType::Uint32, &[16, 16], &[64], &[4, 5]) };
        assert_eq!(map.validate(&sm90()), Ok(()));
        assert_eq!(map.traversal_stride(0), 1, "dim 0 stride ignored with interleave NONE");
        assert_eq!(map.traversal_stride(1), 2);
        let tile = map.tile(&[1, 3], &[]).expect("modeled");
        assert_eq!(tile.len(), 4 * 3, "ceil(5 / 2) = 3 rows");
        assert_eq!(map.tile_bytes(), 48);
        let rows: Vec<u64> = tile.iter().step_by(4).map(|e| e.global.expect("inside")).collect();
        assert_eq!(rows, vec![0x1000 + 4 + 3 * 64, 0x1000 + 4 + 5 * 64, 0x1000 + 4 + 7 * 64]);
    }

    /// Interleaved tiles (corpus/evidence/tma-interleave.md): dimension 0 counts 16-byte units
    /// (coordinates, globalDim, boxDim and its element stride), rows are packed, the tile of
    /// the spec traverses every box dimension while the H100 skips dimension rank − 2.
    #[test]
    fn interleaved_tiles_count_dimension_0_in_units() {
        let inter = TensorMap {
            interleave: Interleave::B16,
            global_address: 0x1000,
            ..tiled(TensorDataType::Float16, &[16, 6, 4], &[256, 1536], &[8, 1, 2])
        };
        assert_eq!(inter.validate(&sm90()), Ok(()));
        assert!(!inter.interleave_skips_box());
        let tile = inter.tile(&[12, 1, 1], &[]).expect("modeled");
        assert_eq!((inter.tile_bytes(), tile.len()), (256, 16));
        let globals: Vec<Option<u64>> = tile.iter().map(|e| e.global).collect();
        let unit = |x: u64, z: u64| Some(0x1000 + x * 16 + 256 + z * 1536);
        assert_eq!(&globals[..8], &[unit(12, 1), unit(13, 1), unit(14, 1), unit(15, 1), None, None, None, None]);
        assert_eq!(globals[8], unit(12, 2));
        assert_eq!(tile[8].smem_offset, 128);
        // The element stride of dimension 0 applies, in units.
        let strided = TensorMap { element_strides: vec![3, 1, 1], ..inter.clone() };
        assert_eq!(strided.tile_bytes(), 96);
        assert_eq!(strided.tile(&[0, 1, 1], &[]).expect("modeled")[1].global, unit(3, 1));
        // A 32-byte unit is two 16-byte elements; a 128B swizzle moves chunks by address only.
        let wide =
            TensorMap { interleave: Interleave::B32, swizzle: Swizzle::B32, strides: vec![512, 3072], ..inter.clone() };
        let tile = wide.tile(&[0, 1, 1], &[]).expect("modeled");
        assert_eq!((wide.tile_bytes(), wide.tile_extent(), tile.len()), (512, 512, 32));
        assert_eq!((tile[8].smem_offset, tile[9].smem_offset), (144, 128));
        let packed = TensorMap { swizzle: Swizzle::B128, box_dims: vec![4, 1, 2], ..inter.clone() };
        assert_eq!((packed.row_pitch(), packed.tile_extent()), (64, 128));
        // The box along dimension rank − 2 is the H100's finding.
        assert!(TensorMap { box_dims: vec![8, 3, 2], ..inter.clone() }.interleave_skips_box());
        assert!(!TensorMap { box_dims: vec![8, 3, 2], element_strides: vec![1, 3, 1], ..inter.clone() }
            .interleave_skips_box());
        assert!(!TensorMap { interleave: Interleave::None, box_dims: vec![8, 3, 2], ..inter }.interleave_skips_box());
    }

    #[test]
    fn swizzles_permute_16_byte_chunks_within_their_span_and_invert() {
        for swizzle in [Swizzle::B32, Swizzle::B64, Swizzle::B128] {
            let span = swizzle.span().expect("swizzled");
            let repeat = swizzle.repeat().expect("swizzled");
            let mut seen = vec![false; repeat as usize];
            let mut moved = 0;
            for offset in 0..repeat {
                let s = swizzle_offset(swizzle, offset).expect("modeled");
                assert!(s < repeat);
                assert_eq!(s / span, offset / span, "{swizzle:?}: stays in its span");
                assert_eq!(s % 16, offset % 16, "{swizzle:?}: moves whole 16-byte chunks");
                assert_eq!(swizzle_offset(swizzle, s), Some(offset), "{swizzle:?}: the inverse");
                assert!(!std::mem::replace(&mut seen[s as usize], true), "{swizzle:?}: a permutation");
                moved += u64::from(s != offset);
            }
            assert!(moved > 0, "{swizzle:?} moves something");
            // The pattern repeats.
            assert_eq!(swizzle_offset(swizzle, repeat + 200), swizzle_offset(swizzle, 200).map(|s| s + repeat));
        }
        // Known rows: 128B, the second 128-byte row swaps chunk pairs; the eighth XORs with 7.
        assert_eq!(swizzle_offset(Swizzle::B128, 128), Some(144));
        assert_eq!(swizzle_offset(Swizzle::B128, 7 * 128 + 16), Some(7 * 128 + 6 * 16));
        assert_eq!(swizzle_offset(Swizzle::B64, 3 * 128 + 5), Some(3 * 128 + 48 + 5));
        assert_eq!(swizzle_offset(Swizzle::B32, 128 + 20), Some(128 + 4));
        assert_eq!(swizzle_offset(Swizzle::None, 12345), Some(12345));
        assert_eq!(swizzle_offset(Swizzle::B128Atom64B, 0), None);
    }

    #[test]
    fn swizzled_tile_is_the_dense_tile_permuted() {
        let plain = tiled(TensorDataType::Float16, &[64, 64], &[128], &[64, 16]);
        let swizzled = TensorMap { swizzle: Swizzle::B128, ..plain.clone() };
        let a = plain.tile(&[0, 0], &[]).expect("modeled");
        let b = swizzled.tile(&[0, 0], &[]).expect("modeled");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.global, y.global);
            assert_eq!(swizzle_offset(Swizzle::B128, y.smem_offset), Some(x.smem_offset));
        }
        assert_eq!(swizzled.smem_align(), 128);
        assert_eq!(plain.smem_align(), 128);
    }

    #[test]
    fn swizzled_rows_are_span_apart_and_the_pattern_follows_the_address() {
        // 11 rows of 16 bytes under the 32B swizzle: rows 32 bytes apart, half of each written.
        let map = TensorMap { swizzle: Swizzle::B32, ..tiled(TensorDataType::Uint8, &[16, 16], &[16], &[16, 11]) };
        assert_eq!((map.row_pitch(), map.tile_bytes(), map.tile_extent()), (32, 176, 352));
        let rows = |dst: u64| -> Vec<u64> {
            let tile = map.tile_at(dst, &[0, 0], &[]).expect("modeled");
            tile.iter().step_by(16).map(|e| e.smem_offset).collect()
        };
        // Address bit 7 flips chunk bit 4: rows 4..8 (bytes 128..256) land in the upper half.
        assert_eq!(rows(0), vec![0, 32, 64, 96, 144, 176, 208, 240, 256, 288, 320]);
        // At a destination 128 bytes further the flips come first.
        assert_eq!(rows(128), vec![16, 48, 80, 112, 128, 160, 192, 224, 272, 304, 336]);
        assert_eq!(rows(1024), rows(0));
        assert_eq!(map.tile_at(64, &[0, 0], &[]).map_err(|e| e.problem), Err("smem-align"));
        let bytes = map.load_at(128, &[0, 0], &[], &|_| Some(3)).expect("modeled");
        assert_eq!(bytes.len(), 352);
        assert_eq!(bytes[..16], [LoadedByte::Unwritten; 16]);
        assert_eq!(bytes[16..32], [LoadedByte::Byte(Some(3)); 16]);
        assert_eq!(bytes.iter().filter(|b| **b != LoadedByte::Unwritten).count(), 176);
    }

    #[test]
    fn tile_errors_name_the_problem() {
        let map = tiled(TensorDataType::Float16, &[40, 20], &[80], &[8, 3]);
        assert_eq!(map.tile(&[0], &[]).map_err(|e| e.problem), Err("coords"));
        assert_eq!(map.tile(&[0, 0], &[1]).map_err(|e| e.problem), Err("offsets"));
        assert_eq!(map.tile_at(16, &[0, 0], &[]).map_err(|e| e.problem), Err("smem-align"));
        assert_eq!(map.load_at(0x80, &[0, 0], &[], &|_| None).map(|b| b.len()), Ok(48));
        let tall = TensorMap { box_dims: vec![8, 16], ..map.clone() };
        assert_eq!(tall.tile_at(u64::MAX - 127, &[0, 0], &[]).map_err(|e| e.problem), Err("address-overflow"));
        let bad = TensorMap { element_strides: vec![0, 0], ..map.clone() };
        assert_eq!(bad.tile(&[0, 0], &[]).map_err(|e| e.problem), Err("invalid-map"));
        let huge = tiled(TensorDataType::Float64, &[256, 256, 256], &[2048, 1 << 20], &[32, 256, 256]);
        assert_eq!(huge.tile(&[0, 0, 0], &[]).map_err(|e| e.problem), Err("too-large"));
        assert_eq!(im2col_map().tile(&[0, 0, 0], &[0, 1]).map_err(|e| e.problem), Err("offsets"));
        let packed =
            TensorMap { swizzle: Swizzle::B128, ..tiled(TensorDataType::U4x16Align16B, &[256, 8], &[256], &[128, 4]) };
        assert_eq!(packed.tile(&[0, 0], &[]).map_err(|e| e.problem), Err("not-modeled"));
        assert_eq!(packed.element_bytes(), 16);
        assert_eq!(packed.tile_bytes(), 128 * 4, "128 values = 8 groups of 16 bytes per row");
        let absurd = tiled(TensorDataType::Float64, &[1; 9], &[16; 8], &[u32::MAX; 9]);
        assert_eq!(absurd.tile_bytes(), u64::MAX);
        assert_eq!(absurd.tile(&[0; 9], &[]).map_err(|e| e.problem), Err("invalid-map"));
        let far = TensorMap { global_address: u64::MAX - 15, ..map };
        assert_eq!(far.tile(&[1, 1], &[]).map_err(|e| e.problem), Err("address-overflow"));
    }

    #[test]
    fn im2col_column_walks_the_bounding_box() {
        // NWC f16: 8 channels, W = 16, 2 images; box W = -1 ..= 14 (16 positions).
        let map = im2col_map();
        assert_eq!(map.validate(&sm90()), Ok(()));
        assert_eq!(map.tile_bytes(), 16 * 8 * 2);
        let w_of = |e: &TileElement| e.global.map(|a| ((a - 0x1000) % 256 / 16) as i64);
        let n_of = |e: &TileElement| e.global.map(|a| ((a - 0x1000) / 256) as i64);
        let tile = map.tile(&[0, -1, 0], &[]).expect("modeled");
        assert_eq!(tile.len(), 16 * 8);
        assert!(tile[..8].iter().all(|e| e.global.is_none()), "pixel w = -1 is padding");
        for p in 1..16 {
            let pixel = &tile[8 * p..8 * p + 8];
            assert!(pixel.iter().all(|e| w_of(e) == Some(p as i64 - 1) && n_of(e) == Some(0)), "pixel {p}");
            let channels: Vec<u64> = pixel.iter().map(|e| (e.global.unwrap_or(0) - 0x1000) % 16 / 2).collect();
            assert_eq!(channels, (0..8).collect::<Vec<_>>());
        }
        // The im2col offset shifts every pixel: w = 0 ..= 15, all inside.
        let shifted = map.tile(&[0, -1, 0], &[1]).expect("modeled");
        assert!(shifted.iter().enumerate().all(|(i, e)| w_of(e) == Some((i / 8) as i64)));
        // 20 pixels from w = 11: 11 ..= 14 of image 0, then -1 ..= 14 of image 1.
        let long = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![-1],
                upper_corner: vec![-1],
                channels_per_pixel: 8,
                pixels_per_column: 20,
            },
            ..im2col_map()
        };
        let tile = long.tile(&[0, 11, 0], &[]).expect("modeled");
        let pixels: Vec<(Option<i64>, Option<i64>)> = tile.iter().step_by(8).map(|e| (w_of(e), n_of(e))).collect();
        let mut want: Vec<(Option<i64>, Option<i64>)> = (11..15).map(|w| (Some(w), Some(0))).collect();
        want.push((None, None));
        want.extend((0..15).map(|w| (Some(w), Some(1))));
        assert_eq!(pixels, want);
        let bytes = long.load(&[0, 11, 0], &[], &|_| Some(7)).expect("modeled");
        assert_eq!(bytes.len() as u64, long.tile_bytes());
        assert_eq!(bytes[4 * 16], LoadedByte::Byte(Some(0)), "the padding pixel is zero-filled");
    }

    #[test]
    fn im2col_traversal_wraps_w_into_h_with_element_strides() {
        // NHWC u8: 16 channels, W = 4, H = 3, 1 image; box W 0 ..= 3 stepping by 2, H 0 ..= 2.
        let map = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![0, 0],
                upper_corner: vec![0, 0],
                channels_per_pixel: 16,
                pixels_per_column: 6,
            },
            element_strides: vec![1, 2, 1, 1],
            swizzle: Swizzle::B32,
            ..tiled(TensorDataType::Uint8, &[16, 4, 3, 1], &[16, 64, 192], &[1, 1, 1, 1])
        };
        let map = TensorMap { box_dims: vec![], ..map };
        assert_eq!(map.validate(&sm90()), Ok(()));
        let tile = map.tile(&[0, 0, 0, 0], &[]).expect("modeled");
        let mut pixels: Vec<(u64, u64)> = Vec::new();
        for e in &tile {
            let a = e.global.expect("inside") - 0x1000;
            if a % 16 == 0 {
                pixels.push((e.smem_offset / 16, a / 16));
            }
        }
        pixels.sort_unstable();
        // (w, h) = (0,0) (2,0) (0,1) (2,1) (0,2) (2,2), at w + 4h; the 16-byte pixels sit 32
        // bytes apart (the 32B span), and the 32B swizzle moves those past byte 128 up 16.
        assert_eq!(pixels, vec![(0, 0), (2, 2), (4, 4), (6, 6), (9, 8), (11, 10)]);
        assert_eq!((map.tile_bytes(), map.tile_extent()), (96, 192));
    }

    /// A map built from random numbers, valid by construction for most draws.
    fn random_map(rank: usize, r: &[u32; 24]) -> TensorMap {
        use TensorDataType::*;
        let unpacked = [
            Uint8,
            Uint16,
            Uint32,
            Int32,
            Uint64,
            Int64,
            Float16,
            Float32,
            Float64,
            Bfloat16,
            Float32Ftz,
            Tfloat32,
            Tfloat32Ftz,
        ];
        let dtype = unpacked[r[0] as usize % unpacked.len()];
        let elem = dtype.unpacked_bytes().unwrap_or(1);
        let interleave = if rank >= 3 {
            [Interleave::None, Interleave::None, Interleave::B16, Interleave::B32][r[1] as usize % 4]
        } else {
            Interleave::None
        };
        let swizzle = if interleave == Interleave::B32 {
            Swizzle::B32
        } else {
            [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128][r[2] as usize % 4]
        };
        let box0 = match interleave {
            Interleave::None => {
                let chunks = swizzle.span().map_or(8, |s| s / 16);
                (1 + u64::from(r[3]) % chunks) * 16 / elem
            }
            _ => (1 + u64::from(r[3]) % 4) * 16 / elem,
        };
        let dims: Vec<u64> = (0..rank).map(|d| 1 + u64::from(r[4 + d]) % if d == 0 { 80 } else { 12 }).collect();
        let mut strides = Vec::new();
        let mut extent = dims[0] * interleave.unit_bytes().unwrap_or(elem);
        for &n in dims.iter().skip(1).take(rank.saturating_sub(1)) {
            let stride = extent.div_ceil(32) * 32 + 32 * u64::from(r[10] % 2);
            strides.push(stride);
            extent = stride * n;
        }
        let box_dims: Vec<u32> = (0..rank).map(|d| if d == 0 { box0 as u32 } else { 1 + r[14 + d] % 6 }).collect();
        let element_strides: Vec<u32> = (0..rank).map(|d| 1 + r[19 + d.min(4)] % 3).collect();
        let mode = if rank >= 3 && r[13].is_multiple_of(3) {
            let corner = |v: u32| -> Vec<i32> { (0..rank - 2).map(|i| ((v >> (2 * i)) % 3) as i32).collect() };
            MapMode::Im2col {
                lower_corner: corner(r[14]).into_iter().map(|c| -c).collect(),
                upper_corner: corner(r[15]),
                channels_per_pixel: box0 as u32,
                pixels_per_column: 1 + r[16] % 64,
            }
        } else {
            MapMode::Tiled
        };
        let box_dims = if mode == MapMode::Tiled { box_dims } else { Vec::new() };
        TensorMap {
            mode,
            dtype,
            global_address: 0x10000 + 32 * u64::from(r[9] % 64),
            dims,
            strides,
            box_dims,
            element_strides,
            interleave,
            swizzle,
            l2_promotion: L2Promotion::ALL[r[11] as usize % 4],
            oob_fill: if dtype.is_float() && r[12] % 2 == 1 { OobFill::NanRequestZeroFma } else { OobFill::None },
        }
    }

    proptest! {
    #[test]
    fn tile_elements_are_distinct_inside_the_extent_and_written_once(
        rank in 1usize..=5,
        r in any::<[u32; 24]>(),
        coords in proptest::collection::vec(-12i32..90, 5),
        block in 0u64..64,
    ) {
        let map = random_map(rank, &r);
        prop_assert_eq!(map.validate(&sm90()), Ok(()), "{:?}", map);
        let dst = block * SMEM_TILE_ALIGN;
        match map.tile_at(dst, &coords[..rank], &[]) {
            Ok(tile) => {
                let elem = map.tile_element_bytes();
                prop_assert_eq!(tile.len() as u64 * elem, map.tile_bytes());
                prop_assert!(map.tile_bytes() <= map.tile_extent());
                let mut covered = vec![false; map.tile_extent() as usize];
                for e in &tile {
                    prop_assert_eq!(e.smem_offset % elem, 0);
                    prop_assert!(e.smem_offset + elem <= map.tile_extent());
                    for b in e.smem_offset..e.smem_offset + elem {
                        prop_assert!(!std::mem::replace(&mut covered[b as usize], true), "byte {} twice", b);
                    }
                }
                if map.swizzle == Swizzle::None {
                    prop_assert!(covered.iter().all(|&c| c), "unswizzled tiles are dense");
                }
                let loaded = map.load_at(dst, &coords[..rank], &[], &|_| Some(1)).expect("same tile");
                prop_assert_eq!(loaded.len() as u64, map.tile_extent());
                for (b, c) in loaded.iter().zip(&covered) {
                    prop_assert_eq!(*b == LoadedByte::Unwritten, !c);
                }
            }
            Err(e) if map.interleave != Interleave::None && map.mode != MapMode::Tiled => {
                prop_assert_eq!(e.problem, "not-modeled", "{}", e)
            }
            Err(e) => prop_assert_eq!(e.problem, "too-large", "{}", e),
        }
    }    }

    #[test]
    fn most_random_maps_are_modeled() {
        // The property above skips oversized tiles: make sure they are the exception, so that
        // it checks something.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u32
        };
        let (mut modeled, mut im2col, mut interleaved, mut unmodeled) = (0, 0, 0, 0);
        for i in 0..500 {
            let rank = 1 + i % 5;
            let r: [u32; 24] = std::array::from_fn(|_| next());
            let map = random_map(rank, &r);
            assert_eq!(map.validate(&sm90()), Ok(()), "{map:?}");
            if map.interleave != Interleave::None && map.mode != MapMode::Tiled {
                unmodeled += 1;
                continue;
            }
            let coords: Vec<i32> = (0..rank).map(|_| (next() % 100) as i32 - 12).collect();
            if map.tile(&coords, &[]).is_ok() {
                modeled += 1;
                im2col += usize::from(matches!(map.mode, MapMode::Im2col { .. }));
                interleaved += usize::from(map.interleave != Interleave::None);
            }
        }
        assert!(
            modeled >= (500 - unmodeled) * 9 / 10,
            "{modeled} of {} maps other than interleaved im2col modeled",
            500 - unmodeled
        );
        assert!(interleaved >= 50, "{interleaved} interleaved maps modeled");
        assert!(im2col >= 30, "{im2col} im2col maps modeled");
    }

    /// The H100 measurements: corpus/evidence/tma-tile-loads/, written by `tma.py` there.
    mod h100 {
        use super::*;
        use serde_json::Value;

        fn evidence_dir() -> std::path::PathBuf {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/evidence/tma-tile-loads")
        }

        /// One recorded case (the keys `tma.py` writes).
        pub(super) struct Case {
            pub(super) name: String,
            pub(super) map: TensorMap,
            pub(super) coords: Vec<i32>,
            pub(super) dst: u64,
            /// The CUresult of cuTensorMapEncodeTiled.
            pub(super) encode: u64,
            /// The CUresults of the launch and of the synchronize, when encoded.
            pub(super) launch: Option<[u64; 2]>,
            /// The `expect_tx` byte count the probe used (`esz · Π ceil(box / es)`).
            pub(super) expect_tx: Option<u64>,
            /// The whole 16 KiB shared-memory window after the load.
            pub(super) smem: Option<Vec<u8>>,
            /// The tensor's bytes in global memory, as `tma.py` filled them.
            pub(super) global: Vec<u8>,
        }

        fn numbers(v: &Value, key: &str) -> Vec<i64> {
            v[key].as_array().unwrap_or_else(|| panic!("{key}: an array")).iter().filter_map(Value::as_i64).collect()
        }

        fn number(v: &Value, key: &str) -> u64 {
            v[key].as_u64().unwrap_or_else(|| panic!("{key}: a number"))
        }

        fn hex(text: &str) -> Vec<u8> {
            (0..text.len() / 2).map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("hex")).collect()
        }

        /// `TV` of `tma.py`: the f32 bits the TFLOAT32 cases start with, and the names of the
        /// cases that load them (`data=TD`).
        pub(super) fn tf32_inputs() -> (Vec<u32>, Vec<String>) {
            let script = std::fs::read_to_string(evidence_dir().join("tma.py")).expect("tma.py");
            let line = script.lines().find(|l| l.starts_with("TV = [")).expect("TV in tma.py");
            let values = line[6..line.len() - 1]
                .split(',')
                .map(|v| u32::from_str_radix(v.trim().trim_start_matches("0x"), 16).expect("hex"))
                .collect();
            let names = script
                .lines()
                .filter(|l| l.contains("data=TD"))
                .filter_map(|l| l.split('"').nth(1).map(String::from))
                .collect();
            (values, names)
        }

        /// The global tensor of `tma.py`'s `run`: element `i` holds `i` (truncated to the
        /// element), over `strides[-1] · dims[-1]` bytes, the TFLOAT32 inputs first where asked.
        fn global_bytes(name: &str, elem: usize, dims: &[u64], strides: &[u64]) -> Vec<u8> {
            let total = match (strides.last(), dims.last()) {
                (Some(s), Some(d)) => (s * d) as usize,
                _ => dims[0] as usize * elem,
            };
            let mut host = vec![0u8; total];
            for (i, chunk) in host.chunks_exact_mut(elem).enumerate() {
                chunk.copy_from_slice(&(i as u64).to_le_bytes()[..elem]);
            }
            let (values, names) = tf32_inputs();
            if names.iter().any(|n| n == name) {
                for (chunk, v) in host.chunks_exact_mut(4).zip(values) {
                    chunk.copy_from_slice(&v.to_le_bytes());
                }
            }
            host
        }

        pub(super) fn cases() -> Vec<Case> {
            let mut out = Vec::new();
            for round in ["round1.jsonl", "round2.jsonl", "round3.jsonl"] {
                let text = std::fs::read_to_string(evidence_dir().join(round)).expect(round);
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    let parsed: Value = serde_json::from_str(line).expect("a JSON line");
                    let records = match parsed {
                        Value::Array(a) => a,
                        other => vec![other],
                    };
                    for v in records {
                        out.push(case(&v));
                    }
                }
            }
            out
        }

        fn case(v: &Value) -> Case {
            let name = v["name"].as_str().expect("name").to_string();
            let code = |key| u32::try_from(number(v, key)).expect("a cuda.h code");
            let dtype = TensorDataType::ALL[code("dtype") as usize];
            let unsigned = |key| numbers(v, key).into_iter().map(|n| n as u64).collect::<Vec<_>>();
            let (dims, strides) = (unsigned("dims"), unsigned("strides"));
            let elem = dtype.unpacked_bytes().expect("unpacked") as usize;
            let map = TensorMap {
                mode: MapMode::Tiled,
                dtype,
                global_address: 0x10000,
                box_dims: numbers(v, "box").into_iter().map(|n| n as u32).collect(),
                element_strides: numbers(v, "es").into_iter().map(|n| n as u32).collect(),
                interleave: Interleave::ALL[code("inter") as usize],
                swizzle: Swizzle::ALL[code("swz") as usize],
                l2_promotion: L2Promotion::None,
                oob_fill: OobFill::ALL[code("oob") as usize],
                dims: dims.clone(),
                strides: strides.clone(),
            };
            Case {
                global: global_bytes(&name, elem, &dims, &strides),
                name,
                map,
                coords: numbers(v, "coords").into_iter().map(|n| n as i32).collect(),
                dst: number(v, "dstoff"),
                encode: number(v, "encode"),
                launch: v["launch"].as_array().map(|l| [l[0].as_u64().expect("rc"), l[1].as_u64().expect("rc")]),
                expect_tx: v["tile_bytes"].as_u64(),
                smem: v["smem"].as_str().map(hex),
            }
        }

        /// The window the probe copied out, rebuilt from the model: 0xa5 everywhere, then what
        /// `load_at` writes at the destination (the NaN fill as the H100 writes it).
        fn rebuilt_window(c: &Case) -> Vec<u8> {
            let base = c.map.global_address;
            let global = |a: u64| a.checked_sub(base).and_then(|i| c.global.get(i as usize)).copied();
            let loaded = c.map.load_at(c.dst, &c.coords, &[], &global).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            let elem = c.map.element_bytes();
            let mut window = vec![0xa5u8; 16384];
            for (i, b) in loaded.iter().enumerate() {
                let at = c.dst as usize + i;
                match b {
                    LoadedByte::Byte(Some(v)) => window[at] = *v,
                    LoadedByte::Byte(None) => panic!("{}: byte {i} unknown", c.name),
                    LoadedByte::Fill => window[at] = fill_byte(i as u64 % elem),
                    LoadedByte::Unwritten => {}
                }
            }
            window
        }

        /// Every recorded case the model covers: encode rejections name their rule, faults are
        /// the inner-coordinate rule or a misaligned destination, and every load's whole
        /// window is rebuilt byte for byte (swizzles at window offsets 0, 128 and 1024,
        /// half and quarter rows, NaN and zero fill, element strides, TFLOAT32 rounding).
        #[test]
        fn h100_measurements_replay() {
            let (mut rejected, mut inner_traps, mut misaligned, mut replayed) = (0, 0, 0, 0);
            for c in cases() {
                if c.encode != 0 {
                    assert_eq!(c.encode, 1, "{}: CUDA_ERROR_INVALID_VALUE", c.name);
                    let rule = c.map.validate(&sm90()).map_err(|e| e.rule);
                    let want = match c.name.as_str() {
                        "u16-nan" => "oob-fill-float",
                        "stride-72" => "stride-multiple-of-16",
                        "box-inner-8B" => "box-inner-bytes",
                        other => panic!("{other}: an encode rejection the test does not know"),
                    };
                    assert_eq!(rule, Err(want), "{}", c.name);
                    rejected += 1;
                    continue;
                }
                assert_eq!(c.map.validate(&sm90()), Ok(()), "{}", c.name);
                match c.launch {
                    Some([0, 715]) => {
                        assert!(c.map.inner_coordinate_traps(&c.coords), "{}: CUDA_ERROR_ILLEGAL_INSTRUCTION", c.name);
                        assert!(c.map.tile_at(c.dst, &c.coords, &[]).is_ok(), "{}: the spec's tile exists", c.name);
                        inner_traps += 1;
                    }
                    Some([0, 716]) => {
                        assert!(!c.map.inner_coordinate_traps(&c.coords), "{}", c.name);
                        let err = c.map.tile_at(c.dst, &c.coords, &[]).map_err(|e| e.problem);
                        assert_eq!(err, Err("smem-align"), "{}: CUDA_ERROR_MISALIGNED_ADDRESS", c.name);
                        misaligned += 1;
                    }
                    Some([0, 0]) => {
                        assert!(!c.map.inner_coordinate_traps(&c.coords), "{}", c.name);
                        let smem = c.smem.as_ref().expect("a loaded window");
                        let rebuilt = rebuilt_window(&c);
                        assert_eq!(rebuilt.len(), smem.len(), "{}", c.name);
                        if let Some(i) = rebuilt.iter().zip(smem).position(|(m, h)| m != h) {
                            panic!(
                                "{}: window byte {i} (destination + {}): model {:02x}, H100 {:02x}",
                                c.name,
                                i as i64 - c.dst as i64,
                                rebuilt[i],
                                smem[i]
                            );
                        }
                        if c.map.element_strides[0] == 1 {
                            assert_eq!(Some(c.map.tile_bytes()), c.expect_tx, "{}: transaction bytes", c.name);
                        }
                        replayed += 1;
                    }
                    other => panic!("{}: launch {other:?} the test does not know", c.name),
                }
            }
            assert_eq!((rejected, inner_traps, misaligned, replayed), (3, 15, 1, 39));
        }

        /// Element strides along dimension 0 are ignored without interleave: the H100 wrote
        /// `boxDim[0]` contiguous elements per row even though the probe's expect_tx counted
        /// `ceil(boxDim[0] / es[0])`.
        #[test]
        fn dim0_element_stride_is_ignored_on_the_h100() {
            let strided: Vec<Case> =
                cases().into_iter().filter(|c| c.launch == Some([0, 0]) && c.map.element_strides[0] > 1).collect();
            assert_eq!(strided.len(), 2);
            for c in strided {
                let rows: u64 = c.map.box_dims[1].div_ceil(c.map.element_strides[1]).into();
                assert_eq!(
                    c.map.tile_bytes(),
                    u64::from(c.map.box_dims[0]) * c.map.element_bytes() * rows,
                    "{}",
                    c.name
                );
                assert!(Some(c.map.tile_bytes()) > c.expect_tx, "{}", c.name);
            }
        }

        /// Every input of the TFLOAT32 table, converted as the H100 did (round3 `tf32-round`
        /// and `tf32ftz`: the first 16 elements of the window).
        #[test]
        fn tfloat32_loads_round_as_measured() {
            let (inputs, _) = tf32_inputs();
            assert_eq!(inputs.len(), 16);
            for name in ["tf32-round", "tf32ftz"] {
                let c = cases().into_iter().find(|c| c.name == name).expect(name);
                let smem = c.smem.expect("loaded");
                for (i, &a) in inputs.iter().enumerate() {
                    let d = u32::from_le_bytes(smem[4 * i..4 * i + 4].try_into().expect("4 bytes"));
                    assert_eq!(tfloat32_on_load(a), d, "{name}: {a:#010x}");
                }
            }
            // FLOAT32_FTZ copies the same inputs unchanged (subnormals not flushed).
            let c = cases().into_iter().find(|c| c.name == "f32ftz-sub").expect("f32ftz-sub");
            assert_eq!(c.smem.expect("loaded")[..64], c.global[..64]);
            // The facts' table, spelled out.
            for (a, d) in [
                (0x3f80_1000, 0x3f80_0000),
                (0x3f80_3000, 0x3f80_4000),
                (0x7f7f_ffff, 0x7f80_0000),
                (0x0000_1fff, 0x0000_2000),
                (0x007f_f000, 0x0080_0000),
                (0x8000_1000, 0x8000_0000),
                (0x7f80_0001, 0x7fff_e000),
                (0x7fc0_0001, 0x7fff_e000),
                (0xff80_0000, 0xff80_0000),
            ] {
                assert_eq!(tfloat32_on_load(a), d, "{a:#010x}");
            }
        }
    }

    #[test]
    fn nan_fill_is_a_nan_of_every_float_type() {
        use crate::num::{classify, Class, BF16, F16, F64};
        for (dtype, format) in [
            (TensorDataType::Float16, &F16),
            (TensorDataType::Bfloat16, &BF16),
            (TensorDataType::Float32, &F32),
            (TensorDataType::Float32Ftz, &F32),
            (TensorDataType::Tfloat32, &F32),
            (TensorDataType::Float64, &F64),
        ] {
            let elem = dtype.unpacked_bytes().expect("unpacked");
            let bits = (0..elem).rev().fold(0u64, |bits, i| bits << 8 | u64::from(fill_byte(i)));
            assert_eq!(classify(format, bits), Class::Nan, "{dtype:?}: {bits:#x}");
        }
        assert_eq!([fill_byte(0), fill_byte(1), fill_byte(6), fill_byte(7)], [0xf7, 0x7f, 0xf7, 0x7f]);
    }

    #[test]
    fn tfloat32_loads_need_every_byte_of_the_element() {
        let map = tiled(TensorDataType::Tfloat32, &[8, 2], &[32], &[4, 2]);
        let known = |a: u64| if a == 0x1000 + 33 { None } else { Some(0x3f) };
        let bytes = map.load(&[0, 1], &[], &known).expect("modeled");
        assert_eq!(bytes[..4], [LoadedByte::Byte(None); 4], "one unknown byte hides the element");
        let rounded = tfloat32_on_load(0x3f3f_3f3f).to_le_bytes();
        assert_eq!(bytes[4..8], rounded.map(|b| LoadedByte::Byte(Some(b))));
        assert_eq!(rounded, [0x00, 0x40, 0x3f, 0x3f]);
    }

    #[test]
    fn inner_coordinate_rule_counts_bytes() {
        let f16 = tiled(TensorDataType::Float16, &[40, 20], &[80], &[16, 4]);
        let traps: Vec<i32> = (-17..=17).filter(|&c0| f16.inner_coordinate_traps(&[c0, 0])).collect();
        let loads: Vec<i32> = (-17..=17).filter(|&c0| !f16.inner_coordinate_traps(&[c0, 0])).collect();
        assert_eq!(loads, vec![-16, -8, 0, 8, 16]);
        assert_eq!(traps.len(), 35 - 5);
        let u64_map = tiled(TensorDataType::Uint64, &[40, 20], &[320], &[8, 4]);
        assert!(!u64_map.inner_coordinate_traps(&[-2, 0]) && u64_map.inner_coordinate_traps(&[3, 0]));
        // Not measured: im2col and interleaved maps make no claim.
        assert!(!im2col_map().inner_coordinate_traps(&[1, 0, 0]));
        let inter = TensorMap {
            interleave: Interleave::B16,
            ..tiled(TensorDataType::Uint8, &[16, 4, 2], &[16, 64], &[8, 2, 1])
        };
        assert!(!inter.inner_coordinate_traps(&[1, 0, 0]));
    }

    /// The ranges measured on an H100 (corpus/findings/tma-im2col-fuzz-trap.md): a UINT16
    /// rank-3 map with W = 7 loads exactly at w ∈ [lower, 7 + upper − 1] of w ∈ −3…8.
    #[test]
    fn im2col_start_rule_is_the_pixel_bounding_box() {
        for ((lo, up), loads) in [((-1, -2), (-1, 4)), ((0, 0), (0, 6)), ((-2, 2), (-2, 8))] {
            let map = TensorMap {
                mode: MapMode::Im2col {
                    lower_corner: vec![lo],
                    upper_corner: vec![up],
                    channels_per_pixel: 32,
                    pixels_per_column: 1,
                },
                box_dims: vec![],
                ..tiled(TensorDataType::Uint16, &[40, 7, 1], &[80, 560], &[1, 1, 1])
            };
            let ok: Vec<i32> = (-3..=8).filter(|&w| !map.im2col_start_traps(&[0, w, 0])).collect();
            assert_eq!(ok, (loads.0..=loads.1.min(8)).collect::<Vec<_>>(), "corners {lo}/{up}");
        }
        let tiled_map = tiled(TensorDataType::Float16, &[40, 20], &[80], &[16, 4]);
        assert!(!tiled_map.im2col_start_traps(&[0, -5]));
    }

    /// Ranks 4 and 5 on an H100 (corpus/findings/tma-im2col-fuzz-trap.md, 187 probes): UINT16
    /// maps of 16 channels, one spatial dimension's corners set at a time (the others 0), its
    /// coordinate swept from two below the lower corner to two past the box, the others 0;
    /// each row is the first and last coordinate that loaded (every one between loaded too,
    /// byte for byte as the oracle computes it; every other one trapped).
    #[test]
    fn im2col_start_rule_holds_at_ranks_4_and_5() {
        type Row = (usize, i32, i32, (i32, i32));
        let rank4: [Row; 8] = [
            (0, -1, -2, (-1, 3)),
            (1, -1, -2, (-1, 2)),
            (0, 0, 0, (0, 5)),
            (1, 0, 0, (0, 4)),
            (0, -2, 2, (-2, 7)),
            (1, -2, 2, (-2, 6)),
            (0, 1, 1, (1, 6)),
            (1, 1, 1, (1, 5)),
        ];
        let rank5: [Row; 12] = [
            (0, -1, -2, (-1, 2)),
            (1, -1, -2, (-1, 1)),
            (2, -1, -2, (-1, 0)),
            (0, 0, 0, (0, 4)),
            (1, 0, 0, (0, 3)),
            (2, 0, 0, (0, 2)),
            (0, -2, 2, (-2, 6)),
            (1, -2, 2, (-2, 5)),
            (2, -2, 2, (-2, 4)),
            (0, 1, 1, (1, 5)),
            (1, 1, 1, (1, 4)),
            (2, 1, 1, (1, 3)),
        ];
        let cases: [(&[u64], &[Row]); 2] = [(&[16, 6, 5, 2], &rank4), (&[16, 5, 4, 3, 2], &rank5)];
        for (dims, rows) in cases {
            let spatial = dims.len() - 2;
            let mut strides = vec![32u64];
            for d in &dims[1..dims.len() - 1] {
                strides.push(strides.last().unwrap() * d);
            }
            for &(d, lo, up, (first, last)) in rows {
                let (mut lower, mut upper) = (vec![0; spatial], vec![0; spatial]);
                (lower[d], upper[d]) = (lo, up);
                let map = TensorMap {
                    mode: MapMode::Im2col {
                        lower_corner: lower,
                        upper_corner: upper,
                        channels_per_pixel: 16,
                        pixels_per_column: 1,
                    },
                    box_dims: vec![],
                    ..tiled(TensorDataType::Uint16, dims, &strides, &vec![1; dims.len()])
                };
                let at = |c: i32| {
                    let mut coords = vec![0; dims.len()];
                    coords[d + 1] = c;
                    *coords.last_mut().unwrap() = 1;
                    coords
                };
                let swept = lo - 2..=dims[d + 1] as i32 + up + 1;
                let ok: Vec<i32> = swept.filter(|&c| !map.im2col_start_traps(&at(c))).collect();
                assert_eq!(
                    ok,
                    (first..=last).collect::<Vec<_>>(),
                    "rank {} dimension {d} corners {lo}/{up}",
                    dims.len()
                );
            }
        }
    }
}
