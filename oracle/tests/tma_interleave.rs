//! Interleaved tensor maps against the H100: every probe of
//! corpus/evidence/tma-interleave/2026-11-28/ (`tma.py` there: raw PTX through libcuda, maps
//! encoded by the driver's `cuTensorMapEncodeTiled`) replayed through the model.
//!
//! - encode-only probes: the driver's verdict is the model's `validate` for sm_90;
//! - loads: the whole shared window (0xa5 before the load) as the H100 left it, chunk by
//!   chunk, and the transaction bytes the load signalled (counted on the mbarrier);
//! - stores and reductions (`add` over UINT32, `max` over INT32): which global bytes were
//!   written from which shared bytes; a store at a negative coordinate faults, as
//!   `store_restriction` says.
//!
//! Where the map's box asks for more than one position along dimension `rank − 2`, the H100
//! traverses only the first (the open finding corpus/findings/tma-interleave-box-skip.md,
//! [`TensorMap::interleave_skips_box`]): those probes must differ from the model's tile and
//! equal the tile of the same map with that box dimension cut to 1.

use oracle::isa::Target;
use oracle::memory::tensor_map::{
    fill_byte, Interleave, L2Promotion, LoadedByte, MapMode, OobFill, Swizzle, TensorDataType, TensorMap,
};
use serde_json::Value;

/// Where the probes put the tensor: this far into a 1 MiB global buffer whose 32-bit word `i`
/// holds `i` (loads and reductions) or zero (stores).
const GOFF: u64 = 65536;
/// The shared window after the 1 KiB that holds the mbarrier: 32 KiB, 1024-byte aligned.
const WINDOW: usize = 32768;

fn probes() -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/evidence/tma-interleave/2026-11-28/h100.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

fn numbers(v: &Value, key: &str) -> Vec<i64> {
    v[key].as_array().map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default()
}

fn map_of(p: &Value) -> TensorMap {
    let name = |key: &str, default: &str| p[key].as_str().unwrap_or(default).to_string();
    let rank = numbers(p, "dims").len();
    let fill = if name("fill", "NONE") == "NAN" { OobFill::NanRequestZeroFma } else { OobFill::None };
    let estr = numbers(p, "estr");
    TensorMap {
        mode: MapMode::Tiled,
        dtype: TensorDataType::from_name(&name("dtype", "")).expect("a data type"),
        global_address: GOFF,
        dims: numbers(p, "dims").into_iter().map(|n| n as u64).collect(),
        strides: numbers(p, "strides").into_iter().map(|n| n as u64).collect(),
        box_dims: numbers(p, "box").into_iter().map(|n| n as u32).collect(),
        element_strides: if estr.is_empty() { vec![1; rank] } else { estr.into_iter().map(|n| n as u32).collect() },
        interleave: Interleave::from_name(&name("inter", "16B")).expect("an interleave"),
        swizzle: Swizzle::from_name(&name("swizzle", "NONE")).expect("a swizzle"),
        l2_promotion: L2Promotion::None,
        oob_fill: fill,
    }
}

/// What the H100 traverses: the map with box dimension `rank − 2` cut to its first position.
fn as_traversed(map: &TensorMap) -> TensorMap {
    let mut m = map.clone();
    if m.interleave_skips_box() {
        let d = m.rank() - 2;
        m.box_dims[d] = 1;
    }
    m
}

/// The window after a load at offset 0, in `tma.py`'s chunk notation: `.` untouched, `0` zero,
/// the tensor offset of four consecutive words, else the chunk's hex.
fn load_window(map: &TensorMap, coords: &[i32]) -> Vec<String> {
    let global = |a: u64| Some(((a / 4) as u32).to_le_bytes()[(a % 4) as usize]);
    let loaded = map.load_at(0, coords, &[], &global).expect("a modeled load");
    let mut w = vec![0xa5u8; WINDOW];
    for (i, b) in loaded.iter().enumerate() {
        match b {
            LoadedByte::Byte(Some(v)) => w[i] = *v,
            LoadedByte::Byte(None) => panic!("byte {i} unknown"),
            LoadedByte::Fill => w[i] = fill_byte(i as u64),
            LoadedByte::Unwritten => {}
        }
    }
    let last = (0..WINDOW / 16).rev().find(|&c| w[c * 16..c * 16 + 16].iter().any(|&b| b != 0xa5));
    (0..last.map_or(0, |l| l + 1))
        .map(|c| {
            let chunk = &w[c * 16..c * 16 + 16];
            let words: Vec<u32> = chunk.chunks(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            if chunk.iter().all(|&b| b == 0xa5) {
                ".".into()
            } else if chunk.iter().all(|&b| b == 0) {
                "0".into()
            } else if (1..4).all(|k| words[k] == words[0].wrapping_add(k as u32)) {
                (i64::from(words[0]) * 4 - GOFF as i64).to_string()
            } else {
                chunk.iter().map(|b| format!("{b:02x}")).collect()
            }
        })
        .collect()
}

/// A store's (or reduction's) writes in `tma.py`'s notation: runs `g<offset>+<len><-s<offset>`
/// of global bytes (from the tensor's base) and the shared bytes they came from.
fn store_runs(map: &TensorMap, coords: &[i32]) -> Vec<String> {
    let elements = map.tile_at(0, coords, &[]).expect("a modeled store");
    let eb = map.tile_element_bytes();
    // Overlapping rows (a stride smaller than a row): the later element's bytes stay.
    let mut from = std::collections::BTreeMap::new();
    for e in elements {
        let Some(g) = e.global else { continue };
        from.extend((0..eb).map(|k| (g - GOFF + k, e.smem_offset + k)));
    }
    let mut runs: Vec<(u64, u64, u64)> = Vec::new();
    for (g, s) in from {
        match runs.last_mut() {
            Some((g0, s0, n)) if *g0 + *n == g && *s0 + *n == s => *n += 1,
            _ => runs.push((g, s, 1)),
        }
    }
    runs.into_iter().map(|(g, s, n)| format!("g{g}+{n}<-s{s}")).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect()).unwrap_or_default()
}

#[test]
fn h100_interleave_probes_replay() {
    let sm90: Target = "sm_90".parse().expect("sm_90");
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for p in probes() {
        let tag =
            format!("round {} {} `{}`", p["round"], p["kind"].as_str().unwrap_or(""), p["tag"].as_str().unwrap_or(""));
        let map = map_of(&p);
        let r = &p["result"];
        let encoded = r["encode"].as_u64().unwrap_or(0) == 0;
        assert_eq!(map.validate(&sm90).is_ok(), encoded, "{tag}: the driver's verdict ({:?})", map.validate(&sm90));
        let coords: Vec<i32> = numbers(&p, "coords").into_iter().map(|c| c as i32).collect();
        let kind = p["kind"].as_str().unwrap_or("");
        if !encoded || kind == "enc" {
            *counts.entry(if encoded { "encoded" } else { "rejected" }).or_default() += 1;
            continue;
        }
        let hw = as_traversed(&map);
        let skips = map.interleave_skips_box();
        if kind == "ld" {
            let tx = 32768 - r["steps"].as_u64().expect("steps");
            assert_eq!(tx, hw.tile_bytes(), "{tag}: transaction bytes");
            assert_eq!(strings(&r["win"]), load_window(&hw, &coords), "{tag}: the window");
            // The finding: the tile cuda.h describes is not what the H100 loaded.
            assert_eq!(skips, strings(&r["win"]) != load_window(&map, &coords), "{tag}: the spec's window");
        } else if r.get("fault").is_some() {
            assert!(map.store_restriction(&coords).is_some_and(|w| w.contains("non-negative")), "{tag}: a fault");
            *counts.entry("store faults").or_default() += 1;
            continue;
        } else {
            assert_eq!(strings(&r["runs"]), store_runs(&hw, &coords), "{tag}: the bytes written");
            // A store the H100 completed starts at non-negative coordinates (the part of the
            // §9.7.9.25.5.1 restriction it enforces; a box past the end of a later dimension
            // breaks the restriction too, which leaves the result undefined, and the H100 writes
            // what is in bounds).
            let why = map.store_restriction(&coords);
            assert!(!why.as_deref().is_some_and(|w| w.contains("non-negative")), "{tag}: {why:?}");
            if skips {
                // Unless the spec's box writes nothing in bounds, the H100 wrote less of it.
                let spec = store_runs(&map, &coords);
                assert!(spec.is_empty() || strings(&r["runs"]) != spec, "{tag}: the H100 wrote the spec's whole box");
            }
        }
        if skips {
            *counts.entry("box skipped").or_default() += 1;
        } else if map.interleave != Interleave::None {
            *counts.entry("interleaved, as modeled").or_default() += 1;
        }
        *counts.entry(if kind == "ld" { "loads" } else { "stores and reductions" }).or_default() += 1;
    }
    let counts: Vec<(&str, usize)> = counts.into_iter().collect();
    assert_eq!(
        counts,
        vec![
            ("box skipped", 168),
            ("encoded", 161),
            ("interleaved, as modeled", 12),
            ("loads", 98),
            ("rejected", 65),
            ("store faults", 8),
            ("stores and reductions", 87)
        ]
    );
}
