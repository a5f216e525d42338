//! Tests of 3702-N7's dropped shuffle with the bfly's `c` a moved register, `c[4:0]` = 0 in a body
//! that loads, and a `cvt.pack` choice (session 58, helper hd: seed 5801's 917157f1,
//! corpus/findings/fuzz-h200-5801/trace/T58D.md, variants in trace/917157f1/s58/;
//! `emulate/shuffle_of_a_value_selected_by_a_bfly_predicate/clamp.rs`).

use super::shuffle_of_a_value_selected_by_a_bfly_predicate::lanes;
use super::*;

const D: Deviation = Deviation::ShuffleOfBflyPredicateChoiceDropped;
const K: u128 = 0xe591_cf3d;
const CHOICE: &str = "@!%p1 mov.s32 %r1, -443429059;";
const SECOND: &str = "shfl.sync.bfly.b32 %r4, %r1, 14, 6175, -1;";

/// 746b5bde's chain (a moved 0 shuffled by `first`, chosen over by `choice`, shuffled again),
/// with `load` (if any) first in the body.
fn chain<'a>(load: Option<&'a str>, first: &'a str, choice: &'a str) -> Vec<&'a str> {
    let mut lines: Vec<&str> = load.into_iter().collect();
    lines.extend(["mov.b32 %r1, 0;", "mov.b32 %r6, 1;", "mov.b32 %r7, 0;", first, choice, SECOND]);
    lines.push("st.global.b32 [%out], %r4;");
    lines
}

/// Each lane's own value of the choice: `low` in the lanes whose predicate holds (`lane <= last`),
/// `chosen` elsewhere.
fn own(last: usize, low: u128, chosen: u128) -> Vec<u128> {
    (0..32).map(|l| if l <= last { low } else { chosen }).collect()
}

/// Wrong (dropped, each lane keeps its own value): `c` a moved 1 (917157f1's `c` a moved register;
/// `s58/v10_c_imm1`), `c` a moved 0 or an immediate 0 where the body loads (917157f1 itself;
/// `s58/v26_746b5bde_v18_dead_load`), a guarded `cvt.pack` choice (917157f1's).
#[test]
fn n7_3702_a_known_clamp_and_a_cvt_pack_choice_drop_the_shuffle() {
    let moved_1 = "shfl.sync.bfly.b32 %r3|%p1, %r1, 2147483648, %r6, -1;";
    let (s, e, fired) = lanes(&chain(None, moved_1, CHOICE));
    assert_eq!((e, fired), (own(1, 0, K), vec![D]));
    assert_ne!(s, own(1, 0, K));
    let load = Some("ld.global.b32 %r5, [%in];");
    for first in ["shfl.sync.bfly.b32 %r3|%p1, %r1, 2, %r7, -1;", "shfl.sync.bfly.b32 %r3|%p1, %r1, 2, 0, -1;"] {
        let (s, e, fired) = lanes(&chain(load, first, CHOICE));
        let mine: Vec<u128> = (0..32).map(|l| if l == 2 { 0 } else { K }).collect();
        assert_eq!((e, fired), (mine.clone(), vec![D]), "{first}");
        assert_ne!(s, mine, "{first}");
    }
    let pack = "@!%p1 cvt.pack.sat.u4.s32.b32 %r1, %r1, -2147483647, 4204658815;";
    let first = "shfl.sync.bfly.b32 %r3|%p1, %r1, 2147483648, 1, -1;";
    let (s, e, fired) = lanes(&chain(None, first, pack));
    assert_eq!((e, fired), (own(1, 0, 0x9e00_7f00), vec![D]));
    assert_ne!(s, own(1, 0, 0x9e00_7f00));
}

/// Right (kept): `c[4:0]` = 0 in a body that does not load (746b5bde v8/v10/v18; `s58/v25_no_dead_load`),
/// moved or immediate; a `c` register not a moved immediate (a loaded word).
#[test]
fn n7_3702_a_zero_clamp_without_a_load_and_an_unknown_clamp_keep_the_shuffle() {
    for first in ["shfl.sync.bfly.b32 %r3|%p1, %r1, 2, %r7, -1;", "shfl.sync.bfly.b32 %r3|%p1, %r1, 2, 0, -1;"] {
        let (s, e, fired) = lanes(&chain(None, first, CHOICE));
        assert_eq!((e, fired), (s, Vec::new()), "{first}");
    }
    let loaded = "shfl.sync.bfly.b32 %r3|%p1, %r1, 2147483648, %r5, -1;";
    let (s, e, fired) = lanes(&chain(Some("ld.global.b32 %r5, [%in+4];"), loaded, CHOICE));
    assert_eq!((e, fired), (s, Vec::new()));
}

/// 917157f1's campaign case: emulating 3702-N7 gives the stored ptxas -O3 and JIT words: thread 13
/// word 0 is 0 (its own), the spec's 0x9e000000 (lane 12's high half); every other word the spec's.
#[test]
fn n7_3702_917157f1_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5801", "917157f1c7457f39");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if t == 13 && w == 0 { (0x9e00_0000, 0) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}
