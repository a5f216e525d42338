//! Tests of root cause F widened after seed 4701's 72d92e64 (corpus/findings/fuzz-h200-4701/
//! trace/T18u1.md; variants in trace/72d92e64/s47/): `cvt.sat.{u32,u64}.s32` of a 32-bit
//! negation of −2^31 keeps 0x80000000 (`emulate/widening_sat_of_a_negation32_keeps_its_minimum.rs`).

use super::*;

const D: Deviation = Deviation::NegationOverflow;
const MIN: [u32; 4] = [0x8000_0000, 0, 0, 0];

/// The loaded word, `neg` (into `%r1`), then `tail` (a cvt into `%d5` or `%r6` and its store).
fn negated(neg: &[&'static str], tail: &[&'static str]) -> Vec<&'static str> {
    [&["ld.global.s32 %r0, [%in];"][..], neg, tail].concat()
}

const SAT_U64: [&str; 2] = ["cvt.sat.u64.s32 %d5, %r1;", "st.global.u64 [%out], %d5;"];
const SAT_U32: [&str; 2] = ["cvt.sat.u32.s32 %r6, %r1;", "st.global.u32 [%out], %r6;"];

/// 72d92e64's stored case (32 threads, x = −2^31 in each): emulating F gives the stored -O3/JIT
/// word 0, 0x80000000 (spec 0); the other word is the spec's.
#[test]
fn f_72d92e64_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4701", "72d92e6442a6703e");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0, 0x8000_0000), "thread {t} word {w}");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// `w1_neg_sat_u64_whole` (both words: 0x80000000, 0), `v1_sat_u32` (the trace's),
/// `w2_sub_moved_zero_sat_u32` and `w3_neg_mov_copy_sat_u64`: the same `ISETP.GT.U32 …
/// -0x80000000; SEL` (13.0.88 -O3). Another x is clamped right.
#[test]
fn f_widening_sat_of_neg_s32_of_the_minimum_keeps_it() {
    let neg = ["neg.s32 %r1, %r0;"];
    exact_case(&negated(&neg, &SAT_U64), MIN, D, 0, 0x8000_0000);
    exact_case(&negated(&neg, &SAT_U32), MIN, D, 0, 0x8000_0000);
    let moved = ["mov.b32 %r2, 0;", "sub.s32 %r1, %r2, %r0;"];
    exact_case(&negated(&moved, &SAT_U32), MIN, D, 0, 0x8000_0000);
    let copy = ["neg.s32 %r3, %r0;", "mov.b32 %r1, %r3;"];
    exact_case(&negated(&copy, &SAT_U64), MIN, D, 0, 0x8000_0000);
    untouched(&negated(&neg, &SAT_U64), [0x8000_0001, 0, 0, 0], D);
    untouched(&negated(&neg, &SAT_U64), [0x7fff_ffff, 0, 0, 0], D);
}

/// Right in 13.0.88 -O3 (trace/72d92e64/s47/), so left alone: no `.sat` (`r1_neg_u64_no_sat`:
/// `SHF.R.S32.HI`), a join of another path's write (`r3_neg_branch_join_sat_u64`: `ISETP.LT`),
/// `sub.u32` (`r4_sub_u32_zero_sat_u64`: `ISETP.LT`), `neg.s64` (`r5_neg64_sat_u64`), no
/// negation (the trace's `v4_ld_direct_no_neg`).
#[test]
fn f_right_widening_readers_are_left_alone() {
    let neg = ["neg.s32 %r1, %r0;"];
    untouched(&negated(&neg, &["cvt.u64.s32 %d5, %r1;", "st.global.u64 [%out], %d5;"]), MIN, D);
    let joined = [
        "neg.s32 %r1, %r0;",
        "ld.global.s32 %r2, [%in+4];",
        "setp.ne.s32 %p1, %r2, 0;",
        "@%p1 bra $L1;",
        "add.s32 %r1, %r1, 1;",
        "$L1:",
    ];
    untouched(&negated(&joined, &SAT_U64), [0x8000_0000, 1, 0, 0], D);
    let sub_u32 = ["mov.b32 %r2, 0;", "sub.u32 %r1, %r2, %r0;"];
    untouched(&negated(&sub_u32, &SAT_U64), MIN, D);
    let neg64 =
        ["ld.global.s64 %d0, [%in];", "neg.s64 %d1, %d0;", "cvt.sat.u64.s64 %d5, %d1;", "st.global.u64 [%out], %d5;"];
    untouched(&neg64, [0, 0x8000_0000, 0, 0], D);
    untouched(&negated(&[], &["cvt.sat.u64.s32 %d5, %r0;", "st.global.u64 [%out], %d5;"]), MIN, D);
}
