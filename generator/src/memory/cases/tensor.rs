//! The tensor cases (§9.7.9.25.5): tile and im2col loads on an mbarrier (one CTA or a
//! multicast in the clusters of [`MULTICAST_CLUSTERS`]), tile and `.im2col_no_offs` stores and
//! reductions on a bulk group, and prefetches (memory unchanged), over the maps of `maps.rs`
//! at their coordinate sets.
//!
//! Invariants: stores and reductions keep to the coordinates §9.7.9.25.5.1 allows
//! ([`TensorMap::store_restriction`]); tile buffers are 1024-byte aligned, so a swizzle (a
//! function of the address) is the same on every backend.

use oracle::isa::operand::Operand;
use oracle::isa::{
    valid_forms, AsyncProxySpace, BulkSpace, CpAsyncBulkPrefetchTensor, CpAsyncBulkTensor, CpReduceAsyncBulkTensor,
    Family, Form, Instruction, LoadMode, RedOp, Target,
};
use oracle::memory::tensor_map::{OobFill, TensorDataType as D, TensorMap};
use oracle::memprog::{Init, MemSource, TensorMapSource};

use super::builder::{hex, pattern, Case};
use super::maps::{
    coordinate_sets, im2col_coordinates, im2col_maps, im2col_maps_of, im2col_store_coordinates, map_label,
    tensor_bytes, tiled_maps, with_zero_corners, Placement, TILE_TYPES,
};
use super::reduce::{edge_elements, reduce_types};
use super::{policy_operand, sample, MULTICAST_CLUSTERS};
use crate::memory::stmt::{at, forms, name, tensor_ref, vector, Stmt};

/// Shared-memory alignment of tile buffers: swizzle patterns follow the address, so 1024.
pub(super) const TILE_ALIGN: u64 = 1024;

/// The tensor reference `[map, {c0, …}]` of `coords` as input registers `c0…`.
pub(super) fn coords_operand(case: &mut Case, map: &str, coords: &[i32]) -> Operand {
    let names = input_regs(case, "c", coords.iter().map(|&c| u64::from(c as u32)));
    tensor_ref(map, &names)
}

/// The im2col offsets operand `{o0, …}` of `offsets` as input registers `o0…` (none without
/// offsets).
fn offsets_operand(case: &mut Case, offsets: &[u16]) -> Option<Operand> {
    let names = input_regs(case, "o", offsets.iter().map(|&o| u64::from(o)));
    (!names.is_empty()).then(|| vector(&names))
}

/// Input registers `<prefix>0…` holding `values`, by name.
fn input_regs(case: &mut Case, prefix: &str, values: impl Iterator<Item = u64>) -> Vec<String> {
    let mut names = Vec::new();
    for (k, v) in values.enumerate() {
        let n = format!("{prefix}{k}");
        case.reg(&n, v);
        names.push(n);
    }
    names
}

pub(super) fn tensor_copy_cases(c: &CpAsyncBulkTensor, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    if c.cta_group.is_some() {
        return Err("not modelled by the case generator: .cta_group".into());
    }
    if c.multicast {
        return multicast_tensor_cases(c, target);
    }
    let form = Form::CpAsyncBulkTensor(*c);
    let rank = usize::from(c.dim.rank());
    let load = c.dst != BulkSpace::Global;
    let mode = c.load_mode;
    // The `.shared::cta` destination (PTX 8.6) is the own-CTA case of `.shared::cluster`.
    let variant = c.cache_hint || mode.is_none() || c.dst == BulkSpace::SharedCta;
    let mut out = Vec::new();
    match mode.unwrap_or(LoadMode::Tile) {
        LoadMode::Tile => {
            for (m, map) in tiled_maps(rank, target, &TILE_TYPES).into_iter().enumerate() {
                for (where_, coords) in coordinate_sets(&map) {
                    // Stores keep to §9.7.9.25.5.1 (the oracle calls other stores undefined).
                    if !load && map.store_restriction(&coords).is_some() {
                        continue;
                    }
                    let seed = (m * 100 + out.len()) as u64;
                    let label = format!("{}; {where_} {coords:?}", map_label(&map));
                    let case = if load {
                        tensor_load(c.cache_hint, &form, target, &map, &coords, &[], seed, None)
                    } else {
                        tensor_store(&form, None, c.cache_hint, target, &map, &coords, seed)
                    };
                    out.push((label, case));
                }
            }
        }
        LoadMode::Im2col if load => {
            for (m, map) in im2col_maps(rank, target).into_iter().enumerate() {
                for (where_, coords, offsets) in im2col_coordinates(&map) {
                    let seed = (m * 100 + out.len()) as u64 + 50_000;
                    let label = format!("{}; {where_} {coords:?} offsets {offsets:?}", map_label(&map));
                    out.push((label, tensor_load(c.cache_hint, &form, target, &map, &coords, &offsets, seed, None)));
                }
            }
        }
        LoadMode::Im2colNoOffs if !load => {
            let maps = im2col_maps(rank, target).into_iter().map(with_zero_corners).enumerate();
            out = im2col_stores(&form, None, c.cache_hint, target, maps, &|m, n| (m * 100 + n) as u64 + 60_000);
        }
        m => return Err(format!("not modelled by the memory programs: tensor copies in .{m} mode")),
    }
    Ok(sample(out, variant))
}

/// Multicast tensor loads (tile and im2col) in the clusters of [`MULTICAST_CLUSTERS`]: the
/// first maps of the one-CTA sweep, each at its first and last coordinate sets (a box inside
/// the tensor and one straddling its far edges).
pub(super) fn multicast_tensor_cases(
    c: &CpAsyncBulkTensor,
    target: &Target,
) -> Result<Vec<(String, MemSource)>, String> {
    let form = Form::CpAsyncBulkTensor(*c);
    let rank = usize::from(c.dim.rank());
    let mut placed: Vec<(String, TensorMap, Vec<i32>, Vec<u16>)> = Vec::new();
    match c.load_mode.unwrap_or(LoadMode::Tile) {
        LoadMode::Tile => {
            for map in tiled_maps(rank, target, &TILE_TYPES).into_iter().take(3) {
                let sets = coordinate_sets(&map);
                for (where_, coords) in sets.first().into_iter().chain(sets.last()) {
                    placed.push((
                        format!("{}; {where_} {coords:?}", map_label(&map)),
                        map.clone(),
                        coords.clone(),
                        Vec::new(),
                    ));
                }
            }
        }
        LoadMode::Im2col => {
            for map in im2col_maps(rank, target).into_iter().take(2) {
                let sets = im2col_coordinates(&map);
                for (where_, coords, offsets) in sets.first().into_iter().chain(sets.last()) {
                    let label = format!("{}; {where_} {coords:?} offsets {offsets:?}", map_label(&map));
                    placed.push((label, map.clone(), coords.clone(), offsets.clone()));
                }
            }
        }
        m => return Err(format!("not modelled by the memory programs: tensor copies in .{m} mode")),
    }
    let mut out = Vec::new();
    for (k, (label, map, coords, offsets)) in placed.iter().enumerate() {
        for (j, &cluster) in MULTICAST_CLUSTERS.iter().enumerate() {
            // Every placement in the first two clusters, the rest on a stride.
            if j >= 2 && (k + j) % 3 != 0 {
                continue;
            }
            let seed = (k * 10 + j) as u64 + 70_000;
            let case = tensor_load(c.cache_hint, &form, target, map, coords, offsets, seed, Some(cluster));
            let (ctas, mask, issuer) = cluster;
            out.push((format!("cluster {ctas}, ctaMask {mask:#06b} from CTA {issuer}; {label}"), case));
        }
    }
    let variant = c.cache_hint || c.load_mode.is_none();
    Ok(sample(out, variant))
}

/// A tensor load (`form`) of the tile at `coords` into `win`, completing on an mbarrier; with
/// `multicast` (CTAs, ctaMask, issuer), a multicast in that cluster.
#[allow(clippy::too_many_arguments)]
pub(super) fn tensor_load(
    cache_hint: bool,
    form: &Form,
    target: &Target,
    map: &TensorMap,
    coords: &[i32],
    offsets: &[u16],
    seed: u64,
    multicast: Option<(u32, u64, u32)>,
) -> MemSource {
    let mut case = Case::new(target);
    case.global("src", pattern(tensor_bytes(map) as usize, seed), true).shared(
        "win",
        Init::Fill { len: map.tile_extent(), byte: Some(0xA5) },
        TILE_ALIGN,
        true,
    );
    case.tensor_maps.push(TensorMapSource {
        name: "tmap".into(),
        global: "src".into(),
        global_offset: 0,
        map: map.clone(),
        object: None,
    });
    case.mbarrier();
    let guard = match multicast {
        Some((ctas, mask, issuer)) => Some(case.multicast_arm(ctas, mask, issuer, map.tile_bytes())),
        None => {
            case.expect_tx(map.tile_bytes());
            None
        }
    };
    let mut operands = vec![at("win", 0), coords_operand(&mut case, "tmap", coords), at("bar", 0)];
    operands.extend(offsets_operand(&mut case, offsets));
    operands.extend(guard.is_some().then(|| name("mask")));
    operands.extend(policy_operand(&mut case, cache_hint));
    case.push(Stmt::Isa(Instruction { guard, form: form.clone(), operands })).wait_phase0();
    case.finish()
}

/// A tensor store (or, with `redop`, reduction; `form` either) of `win` to the tile at
/// `coords`, on a bulk group; the tensor in `dst` is read back.
pub(super) fn tensor_store(
    form: &Form,
    redop: Option<RedOp>,
    cache_hint: bool,
    target: &Target,
    map: &TensorMap,
    coords: &[i32],
    seed: u64,
) -> MemSource {
    let mut case = Case::new(target);
    let len = tensor_bytes(map) as usize;
    let extent = map.tile_extent() as usize;
    let (global, shared) = match redop {
        None => (pattern(len, seed), pattern(extent, seed + 1)),
        Some(_) => (edge_elements(map.dtype, len, 0), edge_elements(map.dtype, extent, 3)),
    };
    case.global("dst", global, true).shared("win", Init::Hex(hex(&shared)), TILE_ALIGN, true);
    case.tensor_maps.push(TensorMapSource {
        name: "tmap".into(),
        global: "dst".into(),
        global_offset: 0,
        map: map.clone(),
        object: None,
    });
    case.isa(forms::proxy_fence(AsyncProxySpace::SharedCta), vec![]);
    let mut operands = vec![coords_operand(&mut case, "tmap", coords), at("win", 0)];
    operands.extend(policy_operand(&mut case, cache_hint));
    case.isa(form.clone(), operands).bulk_wait();
    case.finish()
}

pub(super) fn tensor_reduce_cases(
    c: &CpReduceAsyncBulkTensor,
    target: &Target,
    keep: &dyn Fn(&TensorMap) -> bool,
) -> Result<Vec<(String, MemSource)>, String> {
    let form = Form::CpReduceAsyncBulkTensor(*c);
    let rank = usize::from(c.dim.rank());
    let variant = c.cache_hint || c.load_mode.is_none();
    let mut out = Vec::new();
    match c.load_mode.unwrap_or(LoadMode::Tile) {
        LoadMode::Tile => {}
        LoadMode::Im2colNoOffs => {
            // `.add` over an f32 im2col map pairs edge values into subnormal sums, which an H100
            // keeps where §9.7.9.25.4.2 flushes them: the known deviation of
            // corpus/findings/reduce-add-f32-subnormals.md (seen here too, 2026-11-27), so f32
            // adds are left out of these rows.
            let types: Vec<D> =
                reduce_types(c.redop).into_iter().filter(|&t| !(c.redop == RedOp::Add && t == D::Float32)).collect();
            let maps = im2col_maps_of(rank, target, &types).into_iter().map(with_zero_corners);
            let seed = |m: usize, n: usize| (m * 100 + n) as u64 + 80_000;
            let kept = maps.enumerate().filter(|(_, m)| keep(m));
            let out = im2col_stores(&form, Some(c.redop), c.cache_hint, target, kept, &seed);
            return Ok(sample(out, variant));
        }
        m => return Err(format!("not modelled by the memory programs: tensor reductions in .{m} mode")),
    }
    for (m, map) in tiled_maps(rank, target, &reduce_types(c.redop)).into_iter().enumerate().step_by(2) {
        if map.oob_fill != OobFill::None || !keep(&map) {
            continue;
        }
        // Two placements per map: inside and straddling the end of every dimension.
        let end: Vec<i32> = coordinate_sets(&map)
            .into_iter()
            .find(|(w, _)| w.starts_with("past the end of dim 0"))
            .map(|(_, c)| c)
            .unwrap_or_default();
        for (where_, coords) in [("inside", coordinate_sets(&map)[0].1.clone()), ("past the end", end)] {
            if coords.is_empty() || map.store_restriction(&coords).is_some() {
                continue;
            }
            let seed = (m * 100 + out.len()) as u64 + 70_000;
            let label = format!("{}; {where_} {coords:?}", map_label(&map));
            out.push((label, tensor_store(&form, Some(c.redop), c.cache_hint, target, &map, &coords, seed)));
        }
    }
    Ok(sample(out, variant))
}

pub(super) fn tensor_prefetch_cases(
    c: &CpAsyncBulkPrefetchTensor,
    target: &Target,
) -> Result<Vec<(String, MemSource)>, String> {
    let rank = usize::from(c.dim.rank());
    let mode = c.load_mode.unwrap_or(LoadMode::Tile);
    let mut out = Vec::new();
    let maps: Vec<(TensorMap, Vec<Placement>)> = match mode {
        LoadMode::Tile => tiled_maps(rank, target, &[D::Float16, D::Uint8])
            .into_iter()
            .take(3)
            .map(|m| {
                let sets = coordinate_sets(&m).into_iter().take(3).map(|(w, c)| (w, c, Vec::new())).collect();
                (m, sets)
            })
            .collect(),
        LoadMode::Im2col => im2col_maps(rank, target)
            .into_iter()
            .map(|m| {
                let sets = im2col_coordinates(&m);
                (m, sets)
            })
            .collect(),
        m => return Err(format!("not modelled by the memory programs: tensor prefetches in .{m} mode")),
    };
    for (k, (map, sets)) in maps.into_iter().enumerate() {
        for (where_, coords, offsets) in sets {
            let mut case = Case::new(target);
            case.global("src", pattern(tensor_bytes(&map) as usize, 90_000 + k as u64), true);
            case.tensor_maps.push(TensorMapSource {
                name: "tmap".into(),
                global: "src".into(),
                global_offset: 0,
                map: map.clone(),
                object: None,
            });
            let mut operands = vec![coords_operand(&mut case, "tmap", &coords)];
            operands.extend(offsets_operand(&mut case, &offsets));
            operands.extend(policy_operand(&mut case, c.cache_hint));
            case.isa(Form::CpAsyncBulkPrefetchTensor(*c), operands);
            out.push((format!("{}; {where_} {coords:?}: memory unchanged", map_label(&map)), case.finish()));
        }
    }
    Ok(sample(out, c.cache_hint))
}

/// `.im2col_no_offs` stores (`redop` `None`) or reductions of `form` over each of `maps`
/// (numbered) at [`im2col_store_coordinates`]; `seed(m, n)` seeds the bytes of the `n`-th case,
/// on map number `m`.
pub(super) fn im2col_stores(
    form: &Form,
    redop: Option<RedOp>,
    cache_hint: bool,
    target: &Target,
    maps: impl Iterator<Item = (usize, TensorMap)>,
    seed: &dyn Fn(usize, usize) -> u64,
) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (m, map) in maps {
        for (where_, coords) in im2col_store_coordinates(&map) {
            let label = format!("{}; {where_} {coords:?}", map_label(&map));
            out.push((label, tensor_store(form, redop, cache_hint, target, &map, &coords, seed(m, out.len()))));
        }
    }
    out
}

/// The tensor stores into global memory and the tensor reductions whose redOp `redops` accepts,
/// in `mode` (no cache hint), of a rank `ranks` accepts, valid on `target`: (form, `None` for
/// a store or the redOp, rank).
pub(crate) fn tensor_write_forms(
    target: &Target,
    mode: LoadMode,
    ranks: &dyn Fn(usize) -> bool,
    redops: &dyn Fn(RedOp) -> bool,
) -> Vec<(Form, Option<RedOp>, usize)> {
    [Family::CpAsyncBulkTensor, Family::CpReduceAsyncBulkTensor]
        .into_iter()
        .flat_map(|family| valid_forms(target, Some(family)))
        .filter_map(|(form, _)| {
            let (redop, rank) = match &form {
                Form::CpAsyncBulkTensor(c)
                    if c.dst == BulkSpace::Global && c.load_mode == Some(mode) && !c.cache_hint =>
                {
                    (None, c.dim.rank())
                }
                Form::CpReduceAsyncBulkTensor(c) if c.load_mode == Some(mode) && redops(c.redop) && !c.cache_hint => {
                    (Some(c.redop), c.dim.rank())
                }
                _ => return None,
            };
            ranks(usize::from(rank)).then(|| (form.clone(), redop, usize::from(rank)))
        })
        .collect()
}
