//! A tile's geometry in shared memory — the traversal step, its rows, row pitch, bytes and
//! extent ([`TensorMap::tile_bytes`], [`TensorMap::tile_extent`]) — and the swizzle
//! ([`swizzle_offset`]). `tile.rs` lays a tile's elements out on this geometry; `load.rs` writes
//! their bytes.
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
//! Invariant: the geometry saturates instead of overflowing (at `u64::MAX`, for maps no driver
//! accepts), and [`swizzle_offset`] keeps every byte in its span-sized block.
//!
//! [`TileError`]: super::TileError
//! [`LoadedByte::Fill`]: super::LoadedByte::Fill
//! [`NAN_FILL_PATTERN`]: super::NAN_FILL_PATTERN
//! [`tfloat32_on_load`]: super::tfloat32_on_load

use super::{Interleave, MapMode, Swizzle, TensorMap};

/// The alignment every tensor copy's shared-memory address needs (bytes), swizzled or not: an
/// H100 faults with CUDA_ERROR_MISALIGNED_ADDRESS at 16, and loads at 128 under every swizzle
/// (corpus/evidence/tma-tile-loads.md).
pub const SMEM_TILE_ALIGN: u64 = 128;

/// The most shared memory one CTA can have (227 KiB on sm_90 and sm_100): a tile larger than
/// this cannot land in shared memory, and [`TensorMap::tile`] refuses it.
pub const MAX_TILE_BYTES: u64 = 227 * 1024;

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

impl TensorMap {
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
    pub(super) fn box_counts(&self) -> Vec<u64> {
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
    pub(super) fn dim0_step_bytes(&self) -> u64 {
        self.interleave.unit_bytes().unwrap_or(self.element_bytes())
    }

    /// Bytes of one [`TileElement`](super::TileElement): the map's element, or with interleave one 16-byte chunk of
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
