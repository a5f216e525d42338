//! The `tensormap.replace` cases (§9.7.9.26) on a tensor-map object in global memory: each plan's
//! replacements, the tensormap-proxy release and acquire fences (§9.7.13.4), then a tiled load
//! through the object; and the arch-specific target the instruction needs beside a target
//! (sm_90 → sm_90a), which generated programs with `replace` use too.
//!
//! Invariant: every replaced map is one the driver would encode (a plan's earlier replacements
//! keep it so); forms on `.shared::cta` objects are listed as not run.

use oracle::isa::{Form, Target, TensormapField, TensormapReplace, TensormapSs, TensormapType};
use oracle::memory::tensor_map::{TensorDataType as D, TensorMap};
use oracle::memprog::{BufferSpace, Init, MemSource, TensorMapSource};

use super::builder::{pattern, Case};
use super::maps::blank_map;
use super::tensor::{coords_operand, TILE_ALIGN};

/// The arch-specific target `tensormap.replace` needs beside `target` (sm_90 → sm_90a, §9.7.9.26
/// Target ISA Notes), at the same PTX version or the lowest that knows it.
pub fn replace_target(target: &Target) -> Option<Target> {
    let t = Target::parse(&format!("sm_{}a", target.sm)).ok()?;
    t.with_ptx(target.ptx.max(t.min_ptx())).ok()
}

/// The `tensormap.replace.tile.<field>.global.b1024.<type>` opcode for `field`; `value` is the
/// Table 33 row of a `.field3` field (part of the form), ignored for the others.
pub(crate) fn replace_opcode(field: TensormapField, value: Option<u64>) -> String {
    use TensormapField as F;
    let ty = if matches!(field, F::GlobalAddress | F::GlobalStride) { TensormapType::B64 } else { TensormapType::B32 };
    let new_val = match field.has_ord() || matches!(field, F::GlobalAddress | F::Rank) {
        false => value.and_then(|v| u8::try_from(v).ok()),
        true => None,
    };
    Form::TensormapReplace(TensormapReplace { field, ss: Some(TensormapSs::Global), ty, new_val }).opcode()
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

/// The `.global` opcode that replaces `field` with `value` (the helper replacements of a plan).
pub(super) fn field_opcode(field: TensormapField, value: ReplaceValue) -> String {
    let bits = match value {
        ReplaceValue::Bits(v) => Some(v),
        ReplaceValue::Buffer(..) => None,
    };
    replace_opcode(field, bits)
}

/// The replacements of one case, in order: field, ordinal, value.
pub(super) type ReplacePlan = Vec<(TensormapField, Option<usize>, ReplaceValue)>;

/// A `tensormap.replace` value: bits, or a global buffer's address plus an offset.
#[derive(Clone, Copy)]
pub(super) enum ReplaceValue {
    Bits(u64),
    Buffer(&'static str, u64),
}

/// The cases of a `tensormap.replace` form (§9.7.9.26) on a tensor-map object in global
/// memory: each plan's replacements, the release and acquire fences (§9.7.13.4), then a tiled
/// load through the object at the origin and at a place that straddles the end of dimension 1;
/// its window and the object's tensor are compared byte for byte. The expected transaction
/// count comes from the replaced map ([`TensorMap::replaced`]); forms on `.shared::cta` objects
/// are not run.
pub(super) fn replace_cases(
    r: &TensormapReplace,
    opcode: &str,
    target: &Target,
) -> Result<Vec<(String, MemSource)>, String> {
    if r.ss == Some(TensormapSs::SharedCta) {
        return Err("tensor-map objects in shared memory are not modeled".into());
    }
    let base = replace_base_map();
    let mut out = Vec::new();
    for (k, (label, plan)) in replace_plans(r)?.into_iter().enumerate() {
        let mut map = base.clone();
        let mut statements = Vec::new();
        for (n, &(field, ord, value)) in plan.iter().enumerate() {
            let op = if n + 1 == plan.len() { opcode.to_string() } else { field_opcode(field, value) };
            let (v, bits) = match value {
                ReplaceValue::Bits(b) => (b.to_string(), b),
                ReplaceValue::Buffer(name, off) => {
                    statements.push(format!("mov.b64 a{n}, {name};"));
                    statements.push(format!("add.s64 a{n}, a{n}, {off};"));
                    // The model address of `src2` (the second global buffer) plus the offset.
                    (format!("a{n}"), oracle::memprog::global_base(1, 256) + off)
                }
            };
            map = map.replaced(field, ord, bits)?;
            let ord = ord.map_or(String::new(), |o| format!("{o}, "));
            statements.push(format!("{op} [gmap], {ord}{v};"));
        }
        if map.validate(target).is_err() {
            return Err(format!("{label}: the replaced map breaks an encode rule"));
        }
        let rank = map.rank();
        let places: Vec<Vec<i32>> = vec![vec![0; rank], {
            let mut c = vec![0; rank];
            c[1.min(rank - 1)] = 3;
            c
        }];
        for (j, coords) in places.into_iter().enumerate() {
            let mut case = Case::new(target);
            let seed = 96_000 + (k * 10 + j) as u64;
            case.global("src", pattern(1024, seed), false)
                .global("src2", pattern(1024, seed + 1), false)
                .buffer("gmap", BufferSpace::Global, 128, Init::Fill { len: 128, byte: None }, false)
                .shared("win", Init::Fill { len: map.tile_extent(), byte: Some(0xA5) }, TILE_ALIGN, true);
            case.tensor_maps.push(TensorMapSource {
                name: "tmap".into(),
                global: "src".into(),
                global_offset: 0,
                map: base.clone(),
                object: Some("gmap".into()),
            });
            for s in &statements {
                case.stmt(s.clone());
            }
            case.stmt("fence.proxy.tensormap::generic.release.gpu;")
                .stmt("fence.proxy.tensormap::generic.acquire.gpu [gmap], 128;");
            case.mbarrier().expect_tx(map.tile_bytes());
            let c = coords_operand(&mut case, &coords);
            case.stmt(format!(
                "cp.async.bulk.tensor.{rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [gmap, {c}], [bar];"
            ))
            .wait_phase0();
            out.push((format!("{label}; at {coords:?}"), case.finish()));
        }
    }
    Ok(out)
}
