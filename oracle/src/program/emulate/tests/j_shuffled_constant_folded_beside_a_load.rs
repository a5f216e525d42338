//! Tests of J's narrowed `add.u16x2` of two constants where one is a `shfl.sync` of a constant
//! and the body loads (seed 4703's 4b4a61c5, corpus/findings/fuzz-h200-4703/trace/T18u4.md,
//! variants in trace/4b4a61c5/; `emulate/j_shuffled_constant_folded_beside_a_load.rs`).

use super::seed_3801_new::{warp_case, warp_untouched};
use super::*;

/// The case's body (`reduced.ptx`) with the moved constant `r0`, the `load` line (or none) and
/// the half `half` of the sum stored.
fn body(r0: &'static str, shfl: &'static str, load: Option<&'static str>, half: &'static str) -> Vec<String> {
    let mut lines = vec![format!("mov.b32 %r0, {r0};"), shfl.to_string(), "add.u16x2 %r1, %r4, %r0;".to_string()];
    lines.extend(load.map(str::to_string));
    lines.push("mov.b32 {%h11, %h12}, %r1;".to_string());
    lines.push(format!("st.global.u16 [%out], {half};"));
    lines
}

const SHFL_IMM: &str = "shfl.sync.down.b32 %r4|%p0, 2080439295, 31, 3926675981, -1;";
const DEAD_LOAD: &str = "ld.global.s8 %c0, [%in+8];";

/// 13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0` (reduced, v3, v6, v9): the shuffled 0x7c00fbff dropped,
/// the moved 0 kept as RZ: 0 where the spec's high half is 0x7c00 (`v5_low_half`: 0, the spec
/// 0xfbff); `v8_const_nonzero` (r0 = 0x10001): `VIADD.16x2 R0, R0(=1), 0x0`, 1, the spec 0x7c01.
#[test]
fn j_a_shuffled_constant_beside_a_load_is_dropped_from_the_narrowed_add() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let case = |lines: Vec<String>, spec: u64, bug: u64| warp_case(&strs(&lines), [0; 4], d, spec, bug);
    case(body("0", SHFL_IMM, Some(DEAD_LOAD), "%h12"), 0x7c00, 0);
    case(body("0", SHFL_IMM, Some(DEAD_LOAD), "%h11"), 0xfbff, 0);
    case(body("65537", SHFL_IMM, Some(DEAD_LOAD), "%h12"), 0x7c01, 1);
    // The shuffled value a moved register (v6), the load first (v9).
    let mut moved = body("0", "shfl.sync.down.b32 %r4|%p0, %r3, 31, 3926675981, -1;", Some(DEAD_LOAD), "%h12");
    moved.insert(0, "mov.b32 %r3, 2080439295;".to_string());
    case(moved, 0x7c00, 0);
    let mut first = body("0", SHFL_IMM, None, "%h12");
    first.insert(0, DEAD_LOAD.to_string());
    case(first, 0x7c00, 0);
}

/// Right: no load in the body (`v1_no_dead_load_right`: `HFMA2.MMA R0 = 0x7c00; VIADD.16x2 R0,
/// R0, RZ`), a shuffled loaded value (`v7_shfl_loaded_right`).
#[test]
fn j_a_shuffled_constant_without_a_load_or_a_shuffled_load_is_kept() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    warp_untouched(&strs(&body("0", SHFL_IMM, None, "%h12")), [0; 4], d);
    let mut loaded = body("0", "shfl.sync.down.b32 %r4|%p0, %r3, 31, 3926675981, -1;", Some(DEAD_LOAD), "%h12");
    loaded.insert(0, "ld.global.u32 %r3, [%in];".to_string());
    warp_untouched(&strs(&loaded), [0x7c00_fbff; 4], d);
}

/// The stored case (4b4a61c5027aad07): word 2's high half 0 where the spec's is 0x7c00, every
/// other word the spec's.
#[test]
fn j_4b4a61c5_stored_case_is_emulated() {
    let (p, i) = stored_case("4703", "4b4a61c5027aad07");
    let words = words_emulated_alone(&p, &i, Deviation::AddU16x2OfConstantsNarrowedDropsOne);
    for (t, w, s, e) in words {
        if w == 2 && t == 0 {
            assert_eq!((s.bits as u32, e.bits as u32), (0x7c00_0000, 0), "thread {t} word {w}");
        } else if w != 2 {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}
