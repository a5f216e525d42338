//! The dedicated sets of cases on which an H100 deviates from the PTX ISA
//! ([`DEVIATION_SETS`]), and the predicates that keep those cases out of the main sweep and out
//! of generated programs.
//!
//! Invariant: each set holds exactly the cases its predicate takes out of the sweep (checked by
//! this module's test); a set's conform rows are `<opcode> [<name>]`.

use oracle::isa::{valid_forms, BulkSpace, Family, Form, LoadMode, RedOp, ReduceType, Target};
use oracle::memory::tensor_map::{Interleave, MapMode, Swizzle, TensorDataType as D, TensorMap};

use super::maps::{im2col_maps, im2col_maps_of, interleaved_map, map_label, tiled_map};
use super::reduce::{reduce_cases, reduce_types};
use super::tensor::{im2col_stores, tensor_load, tensor_reduce_cases, tensor_store, tensor_write_forms};
use super::AsyncCase;

/// A dedicated set of cases on which an H100 deviates from the PTX ISA: an open finding under
/// `corpus/findings/` with its known entry under `corpus/known/`. Its conform rows are
/// `<opcode> [<name>]` and its findings carry `input_class`, so that the known entry matches
/// these cases and nothing else; the main sweep leaves them out.
#[derive(Clone, Copy, Debug)]
pub struct DeviationSet {
    /// The row suffix's name (`inner-coordinate traps`).
    pub name: &'static str,
    /// The input class of its findings (the known entry's `input_class`).
    pub input_class: &'static str,
    /// Its cases on a target.
    pub cases: fn(&Target) -> Vec<AsyncCase>,
    /// Whether its cases trap on the GPU: each such fault ends its worker's CUDA context, so a
    /// runner gives every case a job of its own (one fault, one restart, no re-run of others).
    pub traps: bool,
}

/// Tiled loads whose innermost coordinate × element size is not a multiple of 16 bytes trap
/// (corpus/findings/tma-inner-coordinate-trap.md).
pub const INNER_COORDINATE_TRAPS: DeviationSet = DeviationSet {
    name: "inner-coordinate traps",
    input_class: "inner-coordinate-not-16B",
    cases: inner_coordinate_trap_cases,
    traps: true,
};

/// `cp.reduce.async.bulk .add.f32` keeps subnormal inputs and results, where §9.7.9.25.4.2 says
/// it flushes them (corpus/findings/reduce-add-f32-subnormals.md).
pub const F32_SUBNORMAL_ADDS: DeviationSet = DeviationSet {
    name: "f32 subnormal adds",
    input_class: "f32-subnormal-add",
    cases: f32_subnormal_add_cases,
    traps: false,
};

/// Bitwise tensor reductions over an INT64 map trap (corpus/findings/tensor-reduce-int64-bitwise-trap.md).
pub const INT64_BITWISE_TRAPS: DeviationSet = DeviationSet {
    name: "int64 bitwise traps",
    input_class: "int64-bitwise-reduction",
    cases: int64_bitwise_cases,
    traps: true,
};

/// `.im2col_no_offs` tensor stores and reductions over an im2col map with a pixel bounding box
/// corner other than 0 trap (corpus/findings/tma-im2col-no-offs-corner-trap.md).
pub const IM2COL_CORNER_TRAPS: DeviationSet = DeviationSet {
    name: "im2col_no_offs corner traps",
    input_class: "im2col-no-offs-corners",
    cases: im2col_corner_trap_cases,
    traps: true,
};

/// `.im2col` tensor loads whose spatial coordinate lies outside the pixel bounding box trap
/// (corpus/findings/tma-im2col-fuzz-trap.md).
pub const IM2COL_START_TRAPS: DeviationSet = DeviationSet {
    name: "im2col start traps",
    input_class: "im2col-start-outside-box",
    cases: im2col_start_trap_cases,
    traps: true,
};

/// Interleaved tensor stores and reductions whose box spans more than one position along
/// dimension rank − 2: an H100 writes only the first (corpus/findings/tma-interleave-box-skip.md).
pub const INTERLEAVE_BOX_SKIP: DeviationSet = DeviationSet {
    name: "interleave box skipped",
    input_class: "interleave-box-rank-2",
    cases: interleave_box_skip_cases,
    traps: false,
};

/// Every dedicated set.
pub const DEVIATION_SETS: [DeviationSet; 6] = [
    INNER_COORDINATE_TRAPS,
    F32_SUBNORMAL_ADDS,
    INT64_BITWISE_TRAPS,
    IM2COL_CORNER_TRAPS,
    IM2COL_START_TRAPS,
    INTERLEAVE_BOX_SKIP,
];

/// Whether an f32 edge pair has a subnormal: the H100 keeps them where §9.7.9.25.4.2 says
/// `.add.f32` flushes ([`F32_SUBNORMAL_ADDS`]).
pub(super) fn f32_subnormal_pair(ty: ReduceType, a: u64, b: u64) -> bool {
    let subnormal = |v: u64| v & 0x7F80_0000 == 0 && v & 0x007F_FFFF != 0;
    ty == ReduceType::F32 && (subnormal(a) || subnormal(b))
}

/// Whether `map` is an im2col map whose pixel bounding box has a corner other than 0: an
/// `.im2col_no_offs` store or reduction over one traps on an H100 ([`IM2COL_CORNER_TRAPS`];
/// loads over them work, and so do stores over the same map with both corners 0, swizzled or
/// not).
pub(super) fn im2col_corners(map: &TensorMap) -> bool {
    matches!(&map.mode, MapMode::Im2col { lower_corner, upper_corner, .. }
        if lower_corner.iter().chain(upper_corner).any(|&c| c != 0))
}

/// Whether a tensor reduction with `redop` over `map` is a bitwise one over an INT64 map, which
/// traps on an H100 ([`INT64_BITWISE_TRAPS`]).
pub(crate) fn int64_bitwise(redop: RedOp, map: &TensorMap) -> bool {
    matches!(redop, RedOp::And | RedOp::Or | RedOp::Xor) && map.dtype == D::Int64
}

/// The `.tile` tensor stores and `.add` reductions of ranks 3 and 4 (no cache hint) over
/// interleaved maps (16B and 32B, UINT32) whose box spans 2 or 3 positions along dimension
/// rank − 2, inside the tensor: the spec writes every position, an H100 the first only
/// ([`TensorMap::interleave_skips_box`], corpus/findings/tma-interleave-box-skip.md). Loads are
/// left out: the transaction bytes a load signals fall short of the tile's, so it would hang.
pub fn interleave_box_skip_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, redop, rank) in
        tensor_write_forms(target, LoadMode::Tile, &|r| matches!(r, 3 | 4), &|op| op == RedOp::Add)
    {
        let opcode = form.opcode();
        for (k, (interleave, swizzle, positions)) in
            [(Interleave::B16, Swizzle::None, 2u32), (Interleave::B32, Swizzle::B32, 3)].into_iter().enumerate()
        {
            let mut map = interleaved_map(rank, D::Uint32, interleave, 16, 0, 1, positions);
            map.swizzle = swizzle;
            let coords: Vec<i32> = (0..rank).map(|d| i32::from(d > 0 && d != rank - 2)).collect();
            if !map.interleave_skips_box() || map.validate(target).is_err() || map.store_restriction(&coords).is_some()
            {
                continue;
            }
            let label = format!("{}; {positions} positions along dimension {}", map_label(&map), rank - 2);
            let seed = 96_000 + (rank * 10 + k) as u64 + 100 * u64::from(redop.is_some());
            out.push(AsyncCase {
                form: opcode.clone(),
                label,
                source: tensor_store(&form, redop, false, target, &map, &coords, seed),
            });
        }
    }
    out
}

/// The `.im2col` loads into `.shared::cluster` of ranks 3, 4 and 5 (no multicast, no cache
/// hint) over each im2col map of the sweep's shapes, with the first spatial coordinate one
/// below the pixel bounding box's lower corner and one past its end: the spec promises the
/// column, an H100 traps ([`TensorMap::im2col_start_traps`],
/// corpus/findings/tma-im2col-fuzz-trap.md).
pub fn im2col_start_trap_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, _) in valid_forms(target, Some(Family::CpAsyncBulkTensor)) {
        let Form::CpAsyncBulkTensor(c) = &form else { continue };
        if c.dst != BulkSpace::SharedCluster
            || c.load_mode != Some(LoadMode::Im2col)
            || c.multicast
            || c.cache_hint
            || c.cta_group.is_some()
        {
            continue;
        }
        let opcode = form.opcode();
        let rank = usize::from(c.dim.rank());
        for (m, map) in im2col_maps(rank, target).into_iter().enumerate() {
            let MapMode::Im2col { lower_corner, upper_corner, .. } = &map.mode else { continue };
            let (below, past) = (lower_corner[0] - 1, map.dims[1] as i32 + upper_corner[0]);
            for (k, w) in [below, past].into_iter().enumerate() {
                let mut coords = vec![0; rank];
                coords[1] = w;
                let offsets = vec![0u16; rank - 2];
                if !map.im2col_start_traps(&coords) || map.tile_at(0, &coords, &offsets).is_err() {
                    continue;
                }
                let label = format!("{}; w = {w} outside [{}, {}]", map_label(&map), lower_corner[0], past - 1);
                let seed = 97_000 + (rank * 100 + m * 10 + k) as u64;
                out.push(AsyncCase {
                    form: opcode.clone(),
                    label,
                    source: tensor_load(false, &form, target, &map, &coords, &offsets, seed, None),
                });
            }
        }
    }
    out
}

/// The 3-D `.im2col_no_offs` store and `.add` reduction (no cache hint) over each im2col map of
/// the sweep's shapes whose corners are not 0, at the sweep's store coordinates: the spec
/// promises the write, an H100 traps (corpus/findings/tma-im2col-no-offs-corner-trap.md).
pub fn im2col_corner_trap_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, redop, _) in tensor_write_forms(target, LoadMode::Im2colNoOffs, &|r| r == 3, &|op| op == RedOp::Add) {
        let opcode = form.opcode();
        let maps = match redop {
            None => im2col_maps(3, target),
            Some(op) => im2col_maps_of(3, target, &reduce_types(op)),
        };
        let before = out.len();
        let seed = |m: usize, n: usize| 98_000 + (m * 10 + before + n) as u64;
        let trapping = maps.into_iter().enumerate().filter(|(_, m)| im2col_corners(m));
        let cases = im2col_stores(&form, redop, false, target, trapping, &seed);
        out.extend(cases.into_iter().map(|(label, source)| AsyncCase { form: opcode.clone(), label, source }));
    }
    out
}

/// The `cp.reduce.async.bulk .add.f32` edge pairs with a subnormal, for each such form.
pub fn f32_subnormal_add_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, _) in valid_forms(target, Some(Family::CpReduceAsyncBulk)) {
        let Form::CpReduceAsyncBulk(c) = &form else { continue };
        if c.ty != ReduceType::F32 || c.redop != RedOp::Add {
            continue;
        }
        let opcode = form.opcode();
        for (label, source) in reduce_cases(c, target, &|a, b| f32_subnormal_pair(c.ty, a, b)) {
            out.push(AsyncCase { form: opcode.clone(), label, source });
        }
    }
    out
}

/// The bitwise tensor reductions over INT64 maps, for each `.and`/`.or`/`.xor` tensor form of
/// rank 1 and 2.
pub fn int64_bitwise_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, _) in valid_forms(target, Some(Family::CpReduceAsyncBulkTensor)) {
        let Form::CpReduceAsyncBulkTensor(c) = &form else { continue };
        if !matches!(c.redop, RedOp::And | RedOp::Or | RedOp::Xor) || c.dim.rank() > 2 {
            continue;
        }
        let opcode = form.opcode();
        let Ok(cases) = tensor_reduce_cases(c, target, &|m| int64_bitwise(c.redop, m)) else { continue };
        out.extend(cases.into_iter().map(|(label, source)| AsyncCase { form: opcode.clone(), label, source }));
    }
    out
}

/// The small dedicated set of tiled loads whose innermost coordinate × element size is not a
/// multiple of 16 bytes: the spec promises the tile, an H100 traps
/// (corpus/findings/tma-inner-coordinate-trap.md). One form (the 2-D `.tile` load into
/// `.shared::cluster`, the form the H100 was measured with), four cases.
pub fn inner_coordinate_trap_cases(target: &Target) -> Vec<AsyncCase> {
    let Some(form) = valid_forms(target, Some(Family::CpAsyncBulkTensor)).into_iter().map(|(f, _)| f).find(|f| {
        matches!(f, Form::CpAsyncBulkTensor(c) if c.dim.rank() == 2 && c.dst == BulkSpace::SharedCluster
            && c.load_mode == Some(LoadMode::Tile) && !c.multicast && !c.cache_hint && c.cta_group.is_none())
    }) else {
        return Vec::new();
    };
    let opcode = form.opcode();
    let mut out = Vec::new();
    for (k, (dtype, c0)) in
        [(D::Float32, 1i32), (D::Float16, 4), (D::Float16, -3), (D::Uint8, 8)].into_iter().enumerate()
    {
        let map = tiled_map(2, dtype, 32, 0);
        let coords = vec![c0, 0];
        if !map.inner_coordinate_traps(&coords) || map.validate(target).is_err() {
            continue;
        }
        let label = format!("{}; inner coordinate {c0} × {} bytes", map_label(&map), map.element_bytes());
        out.push(AsyncCase {
            form: opcode.clone(),
            label,
            source: tensor_load(false, &form, target, &map, &coords, &[], 99_000 + k as u64, None),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::async_cases;
    use super::super::reduce::edge_pairs;
    use super::*;

    /// Each dedicated set has cases on sm_90, and the main sweep has none of them: no f32 edge
    /// pair with a subnormal, no bitwise tensor reduction over an INT64 map, no tile load at a
    /// trapping innermost coordinate, no interleaved map whose box spans positions along
    /// dimension rank − 2, no `.im2col_no_offs` store or
    /// reduction over an im2col map with a corner other than 0.
    #[test]
    fn the_sets_hold_exactly_what_the_sweep_leaves_out() {
        let t: Target = "sm_90".parse().unwrap();
        for set in &DEVIATION_SETS {
            assert!(!(set.cases)(&t).is_empty(), "set `{}` has no cases", set.name);
        }
        let subnormals = f32_subnormal_add_cases(&t);
        assert!(subnormals.iter().all(|c| c.form.ends_with(".add.f32")));
        let (dst, src) = edge_pairs(ReduceType::F32, &|a, b| f32_subnormal_pair(ReduceType::F32, a, b));
        assert_eq!(dst.len(), src.len());
        assert!(dst.chunks(4).zip(src.chunks(4)).all(|(a, b)| {
            let w = |x: &[u8]| u64::from(u32::from_le_bytes(x.try_into().unwrap()));
            f32_subnormal_pair(ReduceType::F32, w(a), w(b)) || (w(a) == 0 && w(b) == 0)
        }));
        let sweep = async_cases(&t, &|_| true);
        let interleaved = |cases: &[AsyncCase], i: Interleave| {
            cases.iter().filter(|c| c.source.tensor_maps.iter().any(|m| m.map.interleave == i)).count()
        };
        let (b16, b32) = (interleaved(&sweep.cases, Interleave::B16), interleaved(&sweep.cases, Interleave::B32));
        eprintln!("{b16} cases over 16B-interleaved maps, {b32} over 32B ones");
        assert!(b16 >= 100 && b32 >= 30, "{b16} cases over 16B-interleaved maps, {b32} over 32B ones");
        let skipped = interleave_box_skip_cases(&t);
        assert!(skipped.iter().all(|c| c.source.tensor_maps.iter().all(|m| m.map.interleave_skips_box())));
        assert!(skipped.iter().any(|c| c.form.starts_with("cp.reduce")) && skipped.len() >= 8, "{}", skipped.len());
        for c in &sweep.cases {
            for m in &c.source.tensor_maps {
                assert!(!m.map.interleave_skips_box(), "{}: {}", c.form, c.label);
                let bitwise = [".and.", ".or.", ".xor."].iter().any(|op| c.form.contains(op));
                assert!(!(bitwise && m.map.dtype == D::Int64), "{}: {}", c.form, c.label);
                let no_offs = c.form.contains(".im2col_no_offs");
                assert!(!(no_offs && im2col_corners(&m.map)), "{}: {}", c.form, c.label);
            }
        }
        let corners = im2col_corner_trap_cases(&t);
        for c in &corners {
            assert!(c.form.contains(".im2col_no_offs"), "{}", c.form);
            for m in &c.source.tensor_maps {
                assert!(im2col_corners(&m.map), "{}: {}", c.form, c.label);
            }
        }
        let int64 = int64_bitwise_cases(&t);
        assert!(int64.iter().all(|c| c.source.tensor_maps.iter().all(|m| m.map.dtype == D::Int64)));
    }
}
