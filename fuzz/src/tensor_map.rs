//! The `tensor_map` target: tensor-map encoding, loads and `tensormap.replace` never panic,
//! whatever the encode arguments, and a load never lays out more than shared memory holds.
//!
//! Input layout (through `Unstructured`): the encode arguments of a tiled or im2col map (mode,
//! data type, rank 0–6, dimensions, strides, box, element strides, interleave, swizzle, L2
//! promotion, OOB fill, base address), then coordinates and im2col offsets, then up to four
//! `tensormap.replace` edits (field, ordinal, value). For each map — the encoded one and every
//! replaced one — [`TensorMap::validate`] either accepts it or names a rule; an accepted map
//! answers [`TensorMap::load`] at the coordinates with every byte of its extent, at most
//! [`MAX_TILE_BYTES`], or a [`TileError`] with its problem; and [`TensorMap::replaced`]
//! answers every edit.
//!
//! [`TileError`]: oracle::memory::tensor_map::TileError

use arbitrary::{Arbitrary, Unstructured};
use oracle::isa::qualifier::Qualifier;
use oracle::isa::{Target, TensormapField};
use oracle::memory::tensor_map::{
    Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType, TensorMap, MAX_TILE_BYTES,
};

/// The target the encode rules are checked for.
const TARGETS: [&str; 2] = ["sm_90", "sm_100a"];

fn pick<T: Copy>(u: &mut Unstructured<'_>, all: &[T]) -> T {
    all[usize::from(u8::arbitrary(u).unwrap_or(0)) % all.len()]
}

/// A small value most of the time (the interesting range of dims, boxes and strides), any
/// 64-bit value otherwise.
fn size(u: &mut Unstructured<'_>) -> u64 {
    match u8::arbitrary(u).unwrap_or(0) % 8 {
        0 => u64::arbitrary(u).unwrap_or(0),
        1 => 1 << (u8::arbitrary(u).unwrap_or(0) % 40),
        _ => u64::from(u16::arbitrary(u).unwrap_or(0) % 300),
    }
}

/// The map the bytes describe.
pub fn map(u: &mut Unstructured<'_>) -> TensorMap {
    let rank = usize::from(u8::arbitrary(u).unwrap_or(0) % 7);
    let dims: Vec<u64> = (0..rank).map(|_| size(u)).collect();
    let strides: Vec<u64> = (1..rank).map(|_| size(u).wrapping_mul(16)).collect();
    let mode = if bool::arbitrary(u).unwrap_or(false) && rank >= 3 {
        let corner = |u: &mut Unstructured<'_>| (2..rank).map(|_| i32::from(i8::arbitrary(u).unwrap_or(0))).collect();
        MapMode::Im2col {
            lower_corner: corner(u),
            upper_corner: corner(u),
            channels_per_pixel: size(u) as u32,
            pixels_per_column: size(u) as u32,
        }
    } else {
        MapMode::Tiled
    };
    let box_dims = match mode {
        MapMode::Tiled => (0..rank).map(|_| size(u) as u32).collect(),
        MapMode::Im2col { .. } => Vec::new(),
    };
    TensorMap {
        mode,
        dtype: pick(u, TensorDataType::ALL),
        global_address: u64::arbitrary(u).unwrap_or(0) & !0xf,
        dims,
        strides,
        box_dims,
        element_strides: (0..rank).map(|_| 1 + u32::from(u8::arbitrary(u).unwrap_or(0) % 9)).collect(),
        interleave: pick(u, Interleave::ALL),
        swizzle: pick(u, Swizzle::ALL),
        l2_promotion: pick(u, L2Promotion::ALL),
        oob_fill: pick(u, OobFill::ALL),
    }
}

/// One map's property: validate, and load where valid.
fn check_map(m: &TensorMap, target: &Target, coords: &[i32], offsets: &[u16]) {
    if m.validate(target).is_err() {
        return;
    }
    // A map may encode a box larger than shared memory (the driver does not know where it
    // lands); its load is then an error, never a larger allocation.
    if let Ok(bytes) = m.load(coords, offsets, &|a| Some(a as u8)) {
        assert_eq!(bytes.len() as u64, m.tile_extent(), "a load answers every byte of the extent: {m:?}");
        assert!(bytes.len() as u64 <= MAX_TILE_BYTES, "a load within the shared-memory limit: {m:?}");
    }
}

/// The target's property for one input.
pub fn check(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let target: Target = pick(&mut u, &TARGETS).parse().expect("the targets parse");
    let m = map(&mut u);
    let coords: Vec<i32> = (0..m.rank()).map(|_| i32::from(i16::arbitrary(&mut u).unwrap_or(0))).collect();
    let offsets: Vec<u16> = (0..m.rank().saturating_sub(2)).map(|_| u16::arbitrary(&mut u).unwrap_or(0) % 8).collect();
    check_map(&m, &target, &coords, &offsets);
    let mut cur = m;
    for _ in 0..usize::from(u8::arbitrary(&mut u).unwrap_or(0) % 5) {
        let field = pick(&mut u, TensormapField::ALL);
        let ord = if bool::arbitrary(&mut u).unwrap_or(false) {
            Some(usize::from(u8::arbitrary(&mut u).unwrap_or(0) % 8))
        } else {
            None
        };
        let value = size(&mut u);
        match cur.replaced(field, ord, value) {
            Ok(next) => {
                check_map(&next, &target, &coords, &offsets);
                cur = next;
            }
            Err(e) => assert!(!e.is_empty(), "an empty replace error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// A few thousand byte strings; small values dominate, so many maps pass the encode rules
    /// and reach the loads.
    #[test]
    fn tensor_map_smoke() {
        let mut rng = Rng::new(0x1405_7B7E_F767_814F);
        let (mut valid, mut target) = (0, "sm_90".parse::<Target>().expect("a target"));
        for i in 0..3000 {
            let n = rng.below(120);
            let mut data = rng.bytes(n);
            if i % 3 == 0 {
                data.iter_mut().for_each(|b| *b &= 0x07);
            }
            check(&data);
            let mut u = Unstructured::new(&data);
            target = pick(&mut u, &TARGETS).parse().unwrap_or(target);
            valid += usize::from(map(&mut u).validate(&target).is_ok());
        }
        assert!(valid > 30, "only {valid} maps passed the encode rules: the smoke test reaches no load");
    }
}
