//! What a tensor copy writes. A load ([`TensorMap::load_at`]) writes the tile's extent byte by
//! byte: in-bounds bytes copied from global memory, out-of-bounds elements filled (zero with
//! OOB_FILL_NONE; with NAN_REQUEST_ZERO_FMA [`LoadedByte::Fill`], which an H100 writes as
//! [`NAN_FILL_PATTERN`] repeated and the allowance `tma-oob-nan-fill` widens to any NaN),
//! TFLOAT32 elements rounded to tf32 on the way ([`tfloat32_on_load`]; FLOAT32_FTZ copies the
//! bytes), and the bytes past a padded row's inner extent left unwritten. A store or reduction
//! skips out-of-bounds elements, and its coordinates must keep the §9.7.9.25.5.1 restriction
//! ([`TensorMap::store_restriction`]).
//!
//! Invariant: a load's bytes number `tile_extent()`, and [`LoadedByte::Unwritten`] marks exactly
//! the bytes no element of the tile covers.

use super::{LoadedByte, MapMode, OobFill, TensorDataType, TensorMap, TileError};
use crate::num::{decode, encode, Overflow, Rounding, F32, TF32};

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

impl TensorMap {
    /// The §9.7.9.25.5.1 restriction a tensor store (`.global.shared::cta`) at `coords` breaks,
    /// if any: the starting coordinates must be non-negative (an H100 traps on a negative one,
    /// corpus/evidence/tma-tile-stores.md), and for an im2col map (`.im2col_no_offs`: a
    /// box of one pixel per spatial dimension) the bounding box must stay inside the tensor
    /// along the spatial dimensions ("D, W and H").
    ///
    /// A tile-mode box may pass the tensor's end along any dimension: the spec's second
    /// restriction names the im2col bounding box, and an H200 clips such a store — it writes
    /// the in-bounds elements and nothing of the rows past the end of dimension 1, as it does
    /// for reductions (driver 580.159.04, ptxas 13.0.88 -O3 and JIT, UINT8 dims [20, 4] box
    /// [16, 2] at c1 = 3, 4; corpus/findings/tma-store-coordinates.md). Dimension 0 may pass
    /// the end too (what the hardware then writes is the allowance `tma-store-oob-chunk`).
    pub fn store_restriction(&self, coords: &[i32]) -> Option<String> {
        if let Some(c) = coords.iter().find(|&&c| c < 0) {
            return Some(format!(
                "§9.7.9.25.5.1: a tensor store's starting coordinates must be non-negative (coordinate {c})"
            ));
        }
        if self.mode == MapMode::Tiled {
            return None;
        }
        for (d, &c) in coords.iter().enumerate().take(self.rank().min(4)).skip(1) {
            if u64::from(c as u32) >= self.dims.get(d).copied().unwrap_or(0) {
                return Some(format!(
                    "§9.7.9.25.5.1: a tensor store's bounding box must stay inside the tensor along D, W and H (coordinate {c} of dimension {d}, dims[{d}] = {})",
                    self.dims.get(d).copied().unwrap_or(0)
                ));
            }
        }
        None
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::tensor_map::tests::{issue_example, sm90, tiled};

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
}
