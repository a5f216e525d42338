//! The encode-time rules of a [`TensorMap`], as the driver checks them
//! ([`TensorMap::validate`]), device rules first.
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
//! Invariant: after `rank` or `array-lengths` nothing else is checked (the other rules read the
//! arrays); every rule of the table is raised here and has a violation test
//! (`every_rule_is_in_the_header_table_and_tested`).

use super::{encode_err, EncodeError, Interleave, MapMode, OobFill, Swizzle, TensorDataType, TensorMap};
use crate::isa::Target;

/// The first device architecture (compute capability 10.0) with the packed 4/6-bit types and
/// the `128B_ATOM_*` swizzles.
const PACKED_AND_ATOM_SWIZZLE_SM: u16 = 100;

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

impl TensorMap {
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
    pub(super) fn encode_violations(&self, target: Option<&Target>) -> Vec<EncodeError> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::tensor_map::tests::{im2col_map, issue_example, target, tiled};

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
        let source = include_str!("encode.rs");
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
}
