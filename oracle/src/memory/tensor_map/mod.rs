//! Tensor maps as data: the arguments of `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col`
//! (cuda.h) as a [`TensorMap`], the encode-time rules the driver checks
//! ([`TensorMap::validate`]), and what a tensor copy (`cp.async.bulk.tensor`,
//! `cp.reduce.async.bulk.tensor`, §9.7.9.25.5) moves: the elements of one tile, each with its
//! byte offset in the shared-memory destination (after swizzling) and its global address, or
//! none when it lies out of bounds ([`TensorMap::tile_at`]), and the bytes a load writes
//! ([`TensorMap::load_at`]).
//!
//! This module holds the types a caller sees; each job has its own file:
//!
//! - `enums.rs`: the `CU_TENSOR_MAP_*` enumerations of cuda.h and what each value means
//!   (element bytes, packed layouts, interleave units, swizzle spans, the reduction type of an
//!   element type).
//! - `encode.rs`: the encode rules ([`TensorMap::validate`]), tabled in its header with their
//!   stable names.
//! - `replace.rs`: `tensormap.replace` of one field ([`TensorMap::replaced`], §9.7.9.26).
//! - `layout.rs`: a tile's geometry in shared memory (rows, pitch, bytes, extent) and the
//!   swizzle ([`swizzle_offset`]); its header states the tile layout, tiled and im2col, as
//!   measured on an H100.
//! - `tile.rs`: the elements of a tile ([`TensorMap::tile_at`]).
//! - `load.rs`: the bytes a load writes ([`TensorMap::load_at`]: out-of-bounds fill, TFLOAT32
//!   rounding) and the restriction on a store's coordinates.
//! - `deviations.rs`: where an H100 departs from the PTX ISA (faults, a skipped box), as
//!   predicates for the caller; the model's tile stays the spec's.
//! - `tests.rs`: fixtures the files' tests share, the property tests of tiles and loads, and the
//!   replay of the H100 measurements (corpus/evidence/tma-tile-loads.md).
//!
//! Invariants: [`TensorMap::tile_at`] and [`TensorMap::load_at`] never panic on any map or
//! destination (an invalid one is a [`TileError`]); for a valid, modeled map the tile's
//! elements have distinct, element-aligned shared-memory offsets inside `0..tile_extent()`, and
//! their bytes number `tile_bytes()`.

mod deviations;
mod encode;
mod enums;
mod layout;
mod load;
mod replace;
#[cfg(test)]
mod tests;
mod tile;

pub use enums::{Interleave, L2Promotion, OobFill, Swizzle, TensorDataType};
pub use layout::{swizzle_offset, MAX_TILE_BYTES, SMEM_TILE_ALIGN};
pub use load::{fill_byte, tfloat32_on_load, NAN_FILL_PATTERN};

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
/// "swizzle-span", …; `encode.rs`'s header lists them all), `detail` the values.
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

impl TensorMap {
    /// `tensorRank`.
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Bytes of one element; for the packed types, of one group of 16 values as shared memory
    /// holds it (8 for `16U4_ALIGN8B`, 16 for the `*_ALIGN16B` types).
    pub fn element_bytes(&self) -> u64 {
        self.dtype.element_bytes()
    }
}
