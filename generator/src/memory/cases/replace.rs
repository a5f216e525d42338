//! The `tensormap.replace` cases (§9.7.9.26) and the `tensormap.cp_fenceproxy` cases
//! (§9.7.13.16). On a tensor-map object in global memory: each plan's replacements, the
//! tensormap-proxy release and acquire fences (§9.7.13.4), then a tiled load through the object.
//! On a `.shared::cta` object: the global object copied whole into a shared buffer
//! (`cp.async.bulk`, after `fence.proxy.async.global` for the prologue's generic writes), the
//! plan's replacements there, `tensormap.cp_fenceproxy` back to the global object (the fused
//! release), the acquire, then the same load. `tensormap.cp_fenceproxy` itself runs at each
//! scope without a replacement, into the object and into a blank global buffer. Also the
//! arch-specific target `tensormap.replace` needs beside a target (sm_90 → sm_90a), which
//! generated programs with `replace` use too.
//!
//! Invariant: every replaced map is one the driver would encode (a plan's earlier replacements
//! keep it so); global and shared objects go through one case builder ([`object_case`]).

use oracle::isa::types::{OrderSem, Scope};
use oracle::isa::{
    AsyncProxySpace, Form, LoadMode, MovType, Target, TensormapCpFenceproxy, TensormapField, TensormapReplace,
    TensormapSs, TensormapType,
};
use oracle::memory::tensor_map::{TensorDataType as D, TensorMap};
use oracle::memprog::{BufferSpace, Init, MemSource, TensorMapSource};
use oracle::program::{Cmp, GlueOp, GlueType};

use super::builder::{pattern, Case};
use super::maps::blank_map;
use super::tensor::{coords_operand, TILE_ALIGN};
use crate::memory::stmt::{self, at, forms, guard, imm, name, Stmt};

/// The arch-specific target `tensormap.replace` needs beside `target` (sm_90 → sm_90a, §9.7.9.26
/// Target ISA Notes), at the same PTX version or the lowest that knows it.
pub fn replace_target(target: &Target) -> Option<Target> {
    let t = Target::parse(&format!("sm_{}a", target.sm)).ok()?;
    t.with_ptx(target.ptx.max(t.min_ptx())).ok()
}

/// The `tensormap.replace.tile.<field>.<ss>.b1024.<type>` form for `field` on an object in the
/// state space `ss`; `value` is the Table 33 row of a `.field3` field (part of the form), ignored
/// for the others.
pub(crate) fn replace_form(field: TensormapField, value: Option<u64>, ss: TensormapSs) -> Form {
    use TensormapField as F;
    let ty = if matches!(field, F::GlobalAddress | F::GlobalStride) { TensormapType::B64 } else { TensormapType::B32 };
    let new_val = match field.has_ord() || matches!(field, F::GlobalAddress | F::Rank) {
        false => value.and_then(|v| u8::try_from(v).ok()),
        true => None,
    };
    Form::TensormapReplace(TensormapReplace { field, ss: Some(ss), ty, new_val })
}

/// The map the `tensormap.replace` cases start from: UINT8, 64 × 6 × 2 bytes in rows of 64,
/// a 32 × 4 × 1 box (its copy lives in the object buffer `gmap`).
pub(super) fn replace_base_map() -> TensorMap {
    TensorMap {
        dtype: D::Uint8,
        dims: vec![64, 6, 2],
        strides: vec![64, 512],
        box_dims: vec![32, 4, 1],
        element_strides: vec![1, 1, 1],
        ..blank_map()
    }
}

/// The replacements of one `tensormap.replace` form's cases: each a list of `(field, ord,
/// value)` that ends with the form's own (earlier ones keep the map one the driver encodes:
/// a wider element type shrinks dimension 0 and the box to the same bytes), and a label.
pub(super) fn replace_plans(r: &TensormapReplace) -> Result<Vec<(String, ReplacePlan)>, String> {
    use ReplaceValue::{Bits, Buffer};
    use TensormapField as F;
    let one = |ord: Option<usize>, v: u64| vec![(r.field, ord, Bits(v))];
    let plans: Vec<(String, ReplacePlan)> = match r.field {
        F::BoxDim => vec![
            ("box dimension 0 of 16".into(), one(Some(0), 16)),
            ("box dimension 0 of 64".into(), one(Some(0), 64)),
            ("box dimension 1 of 1".into(), one(Some(1), 1)),
            ("box dimension 1 of 6, past the end".into(), one(Some(1), 6)),
            ("box dimension 2 of 2".into(), one(Some(2), 2)),
        ],
        F::GlobalDim => vec![
            ("dimension 0 of 40: the box straddles its end".into(), one(Some(0), 40)),
            ("dimension 1 of 3".into(), one(Some(1), 3)),
            ("dimension 2 of 1".into(), one(Some(2), 1)),
        ],
        F::GlobalStride => vec![
            ("rows 128 bytes apart".into(), one(Some(0), 128)),
            ("rows 16 bytes apart (overlapping)".into(), one(Some(0), 16)),
            ("planes 256 bytes apart".into(), one(Some(1), 256)),
        ],
        F::ElementStride => vec![
            ("every second row".into(), one(Some(1), 2)),
            ("every third row".into(), one(Some(1), 3)),
            ("element stride 2 of dimension 0 (ignored without interleave)".into(), one(Some(0), 2)),
        ],
        F::GlobalAddress => {
            vec![
                ("the second tensor".into(), vec![(F::GlobalAddress, None, Buffer("src2", 0))]),
                ("the second tensor 64 bytes in".into(), vec![(F::GlobalAddress, None, Buffer("src2", 64))]),
            ]
        }
        F::Rank => vec![("rank 2".into(), one(None, 1))],
        F::Elemtype => {
            let v = r.new_val.ok_or("an .elemtype form without its value")?;
            let dtype = replace_base_map().replaced(F::Elemtype, None, u64::from(v))?.dtype;
            if dtype.is_packed() {
                return Err(format!("packed element type {} (layout not modeled)", dtype.name()));
            }
            let eb = dtype.element_bytes();
            vec![(
                format!("element type {}", dtype.name()),
                vec![
                    (F::GlobalDim, Some(0), Bits(64 / eb)),
                    (F::BoxDim, Some(0), Bits(32 / eb)),
                    (F::Elemtype, None, Bits(u64::from(v))),
                ],
            )]
        }
        F::SwizzleMode => {
            let v = r.new_val.ok_or("a .swizzle_mode form without its value")?;
            vec![(format!("swizzle mode {v}"), one(None, u64::from(v)))]
        }
        F::FillMode => {
            let v = r.new_val.ok_or("a .fill_mode form without its value")?;
            // A NaN fill needs a float type: FLOAT16 first, rows past dimension 1's end.
            vec![(
                format!("fill mode {v} over FLOAT16, dimension 1 of 3"),
                vec![
                    (F::GlobalDim, Some(0), Bits(32)),
                    (F::BoxDim, Some(0), Bits(16)),
                    (F::Elemtype, None, Bits(6)),
                    (F::GlobalDim, Some(1), Bits(3)),
                    (F::FillMode, None, Bits(u64::from(v))),
                ],
            )]
        }
        F::InterleaveLayout => match r.new_val {
            Some(0) => vec![("no interleave".into(), one(None, 0))],
            // Dimension 0 then counts 16- or 32-byte units (corpus/evidence/tma-interleave.md):
            // a 64-byte row is 4 or 2 of them, a box of 16 reaches past it; one position along
            // dimension 1 (an H100 traverses no more of it); 32B needs the 32B swizzle.
            Some(v @ (1 | 2)) => {
                let mut plan = vec![
                    (F::GlobalDim, Some(0), Bits(if v == 1 { 4 } else { 2 })),
                    (F::BoxDim, Some(0), Bits(16)),
                    (F::BoxDim, Some(1), Bits(1)),
                ];
                if v == 2 {
                    plan.push((F::SwizzleMode, None, Bits(1)));
                }
                plan.push((F::InterleaveLayout, None, Bits(u64::from(v))));
                vec![(format!("interleave layout {v}, dimension 0 of 16 units"), plan)]
            }
            Some(v) => return Err(format!("interleave layout {v} is no Table 33 value")),
            None => return Err("a .interleave_layout form without its value".into()),
        },
        F::SwizzleAtomicity => return Err("`.swizzle_atomicity` (sm_100) is not modeled".into()),
    };
    Ok(plans)
}

/// The form on an object in `ss` that replaces `field` with `value` (the helper
/// replacements of a plan).
pub(super) fn field_form(field: TensormapField, value: ReplaceValue, ss: TensormapSs) -> Form {
    let bits = match value {
        ReplaceValue::Bits(v) => Some(v),
        ReplaceValue::Buffer(..) => None,
    };
    replace_form(field, bits, ss)
}

/// The replacements of one case, in order: field, ordinal, value.
pub(super) type ReplacePlan = Vec<(TensormapField, Option<usize>, ReplaceValue)>;

/// A `tensormap.replace` value: bits, or a global buffer's address plus an offset.
#[derive(Clone, Copy)]
pub(super) enum ReplaceValue {
    Bits(u64),
    Buffer(&'static str, u64),
}

/// The threads of a warp: a shared object's case runs one (see [`Flow::Shared`]).
const WARP: u32 = 32;

/// Where a case's object is replaced and how it reaches the tensormap proxy.
#[derive(Clone, Copy)]
enum Flow {
    /// Replaced in global memory (`gmap`), then `fence.proxy.tensormap::generic` release and
    /// acquire at `.gpu` (§9.7.13.4).
    Global,
    /// Copied whole into the shared buffer `smap`, replaced there, copied back to `dst`
    /// (`gmap`, or the blank global buffer `gout`) by `tensormap.cp_fenceproxy` at `scope`,
    /// and acquired there at the same scope (§9.7.13.16). The case is one warp of 32
    /// threads: thread 0 copies, replaces, acquires and loads; the whole warp runs
    /// `tensormap.cp_fenceproxy` after `bar.sync 0`.
    Shared { scope: Scope, dst: &'static str },
}

/// The places a case loads the box at: the origin and a place that straddles the end of
/// dimension 1 (or 0 of a rank-1 map).
fn load_places(rank: usize) -> Vec<Vec<i32>> {
    let mut straddle = vec![0; rank];
    straddle[1.min(rank - 1)] = 3;
    vec![vec![0; rank], straddle]
}

/// One case: the tensor `src` (and `src2`, the second tensor a global address may name) with
/// its map's object `gmap` starting as [`replace_base_map`]; `statements` (the replacements,
/// naming `[gmap]` or `[smap]` as `flow` says) run on the object, which reaches the tensormap
/// proxy as `flow` says; then the box at `coords` is loaded through the object into `win`
/// (expecting `map`'s tile bytes) and `win` and the tensor are compared.
fn object_case(
    target: &Target,
    seed: u64,
    flow: Flow,
    statements: &[Stmt],
    map: &TensorMap,
    coords: &[i32],
) -> Result<MemSource, String> {
    let mut case = Case::new(target);
    case.global("src", pattern(1024, seed), false)
        .global("src2", pattern(1024, seed + 1), false)
        .buffer("gmap", BufferSpace::Global, 128, Init::Fill { len: 128, byte: None }, false)
        .shared("win", Init::Fill { len: map.tile_extent(), byte: Some(0xA5) }, TILE_ALIGN, true);
    case.tensor_maps.push(TensorMapSource {
        name: "tmap".into(),
        global: "src".into(),
        global_offset: 0,
        map: replace_base_map(),
        object: Some("gmap".into()),
    });
    let map_operand = match flow {
        Flow::Global => {
            for s in statements {
                case.push(s.clone());
            }
            case.isa(forms::tensormap_fence(OrderSem::Release, Scope::Gpu), vec![])
                .isa(forms::tensormap_fence(OrderSem::Acquire, Scope::Gpu), vec![at("gmap", 0), imm(128)])
                .mbarrier();
            "gmap"
        }
        Flow::Shared { scope, dst } => {
            if dst != "gmap" {
                case.buffer(dst, BufferSpace::Global, 128, Init::Fill { len: 128, byte: None }, false);
            }
            let bytes = oracle::memprog::TENSOR_MAP_BYTES as u64;
            // A whole warp: `tensormap.cp_fenceproxy` is `.sync.aligned`, and ptxas lowers it as
            // each lane copying its own 4 bytes (lane i bytes 4i…4i+3), so a warp of fewer than
            // 32 threads copies only part of the object (corpus/findings/cp-fenceproxy-partial-warp.md).
            // Thread 0 does everything else.
            case.threads = WARP;
            case.isa(stmt::mov_special(MovType::U32), vec![name("tid"), name("%tid.x")])
                .glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, "lead", vec![name("tid"), imm(0)])
                .push(Stmt::Bra { guard: Some(guard("lead", true)), label: "copied".into() });
            case.shared("smap", Init::Fill { len: bytes, byte: None }, 128, false).mbarrier().expect_tx(bytes);
            case.isa(forms::proxy_fence(AsyncProxySpace::Global), vec![])
                .isa(forms::bulk_load(false), vec![at("smap", 0), at("gmap", 0), imm(bytes), at("bar", 0)])
                .wait_parity(0);
            for s in statements {
                case.push(s.clone());
            }
            let cp = Form::TensormapCpFenceproxy(TensormapCpFenceproxy { scope: Some(scope) });
            case.push(Stmt::Label("copied".into()))
                .push(Stmt::Bar)
                .isa(cp, vec![at(dst, 0), at("smap", 0), imm(bytes)])
                .push(Stmt::Bra { guard: Some(guard("lead", true)), label: "loaded".into() })
                .isa(forms::tensormap_fence(OrderSem::Acquire, scope), vec![at(dst, 0), imm(bytes)]);
            dst
        }
    };
    case.expect_tx(map.tile_bytes());
    let load = forms::tensor_load(map.rank(), LoadMode::Tile, false)
        .ok_or_else(|| format!("no tensor load of rank {}", map.rank()))?;
    let tensor = coords_operand(&mut case, map_operand, coords);
    case.isa(load, vec![at("win", 0), tensor, at("bar", 0)]);
    match flow {
        Flow::Global => case.wait_parity(0),
        Flow::Shared { .. } => case.wait_parity(1).push(Stmt::Label("loaded".into())),
    };
    Ok(case.finish())
}

/// The cases of a `tensormap.replace` form (§9.7.9.26) on a tensor-map object in global
/// memory or (`.shared::cta`) in shared memory: each plan's replacements, then a tiled load
/// through the object at the origin and at a place that straddles the end of dimension 1
/// ([`object_case`]); its window and the object's tensor are compared byte for byte. The
/// expected transaction count comes from the replaced map ([`TensorMap::replaced`]).
pub(super) fn replace_cases(r: &TensormapReplace, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    let (ss, object, flow) = match r.ss {
        Some(TensormapSs::SharedCta) => {
            (TensormapSs::SharedCta, "smap", Flow::Shared { scope: Scope::Gpu, dst: "gmap" })
        }
        _ => (TensormapSs::Global, "gmap", Flow::Global),
    };
    // The shared cases' seeds follow the global ones' (each case its own pattern).
    let seed0 = if ss == TensormapSs::SharedCta { 97_000 } else { 96_000 };
    let mut out = Vec::new();
    for (k, (label, plan)) in replace_plans(r)?.into_iter().enumerate() {
        let mut map = replace_base_map();
        let mut statements = Vec::new();
        for (n, &(field, ord, value)) in plan.iter().enumerate() {
            let form = if n + 1 == plan.len() { Form::TensormapReplace(*r) } else { field_form(field, value, ss) };
            let (v, bits) = match value {
                ReplaceValue::Bits(b) => (imm(b), b),
                ReplaceValue::Buffer(buffer, off) => {
                    let a = format!("a{n}");
                    statements.push(Stmt::isa(stmt::mov_name(MovType::B64, buffer), vec![name(&a), name(buffer)]));
                    statements.push(Stmt::glue(GlueOp::Add, GlueType::S64, &a, vec![name(&a), imm(off)]));
                    // The model address of `src2` (the second global buffer) plus the offset.
                    (name(&a), oracle::memprog::global_base(1, 256) + off)
                }
            };
            map = map.replaced(field, ord, bits)?;
            let mut operands = vec![at(object, 0)];
            operands.extend(ord.map(|o| imm(o as u64)));
            operands.push(v);
            statements.push(Stmt::isa(form, operands));
        }
        if map.validate(target).is_err() {
            return Err(format!("{label}: the replaced map breaks an encode rule"));
        }
        for (j, coords) in load_places(map.rank()).into_iter().enumerate() {
            let seed = seed0 + (k * 10 + j) as u64;
            let source = object_case(target, seed, flow, &statements, &map, &coords)?;
            out.push((format!("{label}; at {coords:?}"), source));
        }
    }
    Ok(out)
}

/// The cases of `tensormap.cp_fenceproxy` at `scope` (§9.7.13.16): the object copied into
/// shared memory and back, unreplaced, into the object itself and into a blank global buffer,
/// then a load through it at the origin and straddling the end of dimension 1
/// ([`object_case`]).
pub(super) fn cp_fenceproxy_cases(
    c: &TensormapCpFenceproxy,
    target: &Target,
) -> Result<Vec<(String, MemSource)>, String> {
    let scope = c.scope.ok_or("a tensormap.cp_fenceproxy form without a scope")?;
    let map = replace_base_map();
    let mut out = Vec::new();
    for (k, dst) in ["gmap", "gout"].into_iter().enumerate() {
        for (j, coords) in load_places(map.rank()).into_iter().enumerate() {
            let seed = 98_000 + (k * 10 + j) as u64;
            let source = object_case(target, seed, Flow::Shared { scope, dst }, &[], &map, &coords)?;
            out.push((format!("copied back to {dst}; at {coords:?}"), source));
        }
    }
    Ok(out)
}
