//! Where an H100 departs from the PTX ISA and cuda.h on a tensor copy, as predicates the caller
//! asks (the conformance and fuzz paths keep such copies apart or record a finding); the
//! model's tile stays the spec's. Each is an open finding with its measurements:
//!
//! - [`TensorMap::inner_coordinate_traps`]: a tiled load whose `c0 · elementSize` is not a
//!   multiple of 16 bytes faults (corpus/findings/tma-inner-coordinate-trap.md); so do tile
//!   stores and reductions (an H200, corpus/findings/tma-store-coordinates.md).
//! - [`TensorMap::im2col_start_traps`]: an im2col load whose spatial coordinate lies outside
//!   the pixel bounding box faults (corpus/findings/tma-im2col-fuzz-trap.md).
//! - [`TensorMap::interleave_skips_box`]: an interleaved tile traverses only the starting
//!   coordinate of dimension rank − 2 (corpus/findings/tma-interleave-box-skip.md).
//!
//! Invariant: each predicate answers `false` for the maps its measurements do not cover.

use super::{Interleave, MapMode, TensorMap};

/// On an H100 a tiled load faults unless `c0 · elementSize` is a multiple of this many bytes
/// (corpus/findings/tma-inner-coordinate-trap.md).
const INNER_COORDINATE_BYTES: i64 = 16;

impl TensorMap {
    /// Whether an H100 faults on a tiled load at `coords` though the PTX ISA promises data
    /// (§9.7.9.25.5.2 puts no condition on `tensorCoords`; §9.7.9.25.5.1 restricts the first
    /// coordinate only for the packed types): it does when `c0 · elementSize` is not a multiple
    /// of 16 bytes, for negative and positive `c0` alike (CUDA_ERROR_ILLEGAL_INSTRUCTION on an
    /// H100, driver 580.159.04: f32 c0 = 1, f16 c0 = −3, −1, 4, u8 c0 = −1, 8 fault; f16 c0 =
    /// −16, −8, 8, u8 16, f32 36 load; corpus/findings/tma-inner-coordinate-trap.md). Only
    /// non-interleaved tiled maps of unpacked types were measured; others answer `false`. Tile
    /// stores and reductions fault by the same rule (an H200, driver 580.159.04: UINT8 stores at
    /// c0 = 1…15, 17…20 and UINT32 reductions at c0 = 1…3, 5 fault, c0 = 0 and 16 / 0 and 4
    /// do not; corpus/findings/tma-store-coordinates.md). The oracle's tile stays the spec's:
    /// a conformance case that sees the fault records a finding.
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::tensor_map::tests::{im2col_map, tiled};
    use crate::memory::tensor_map::TensorDataType;

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
