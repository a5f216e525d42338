//! Tests of 2b9b7b3e's emulation (`emulate/arm_sat_f64_low_word_clamped_by_zero_test.rs`): an if
//! arm's `cvt.sat.f64.f64` read only through its low word, beside a live unguarded
//! `cvt.sat.f64.f64`, has its low word 0 (seed 5003's 2b9b7b3e, trace/T21e.md; variants in
//! trace/2b9b7b3e/s50/ and s51/).

use super::*;

const D: Deviation = Deviation::ArmSatF64LowWordClampedByZeroTest;

/// The stored case: threads 0–28 run the arm (x = 0x00000000_21b99355, a positive subnormal
/// double) and store word 3 = 0x00007d00 on the GPU where the spec gives 0x00007d55 (h0, the low
/// half of the arm's sat, is 0); threads 29–31 skip the arm; every other word is the spec's.
#[test]
fn arm_sat_f64_2b9b7b3e_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5003", "2b9b7b3e2baf0afd");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if t < 29 && w == 3 {
            assert_eq!((s.bits, e.bits), (0x7d55, 0x7d00), "thread {t} word {w}");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// `other` (the other sat, or nothing) before the branch, `later` after the join, the arm's sat
/// of x (words 2, 3) read by `reader`, the arm taken when d0 (words 0, 1) is 0; word 0 stores
/// r0, word 1 `tail` (a reader of d1 or r1).
fn arm(other: &str, arm_other: &str, reader: &str, later: &str, tail: &str) -> Vec<String> {
    let mut l: Vec<String> = vec!["ld.global.b64 %d0, [%in];".into(), other.into(), "mov.b32 %r0, 0;".into()];
    l.extend(["mov.b32 %r1, 0;".into(), "mov.b32 %r6, 0;".into(), "setp.eq.u64 %p1, %d0, 0;".into()]);
    l.extend(["@!%p1 bra $L1;".into(), arm_other.into(), "ld.global.b64 %d3, [%in+8];".into()]);
    l.extend(["cvt.sat.f64.f64 %d2, %d3;".into(), reader.into(), "$L1:".into(), later.into()]);
    l.extend(["st.global.u32 [%out], %r0;".into(), tail.into()]);
    l.retain(|s| !s.is_empty());
    l
}

const UNPACK: &str = "mov.b64 {%r0, %r1}, %d2;";
const SAT: &str = "cvt.sat.f64.f64 %d1, %d0;";
const USE_D1: &str = "cvt.rn.f32.f64 %r6, %d1;";
const STORE_R6: &str = "st.global.u32 [%out+4], %r6;";
/// x = 0x00000000_21b99355 (the stored case's), d0 = 0.
const WORDS: [u32; 4] = [0, 0, 0x21b9_9355, 0];

/// Wrong (13.0.88 -O3 `@!P0 DSETP.EQ.AND P1, PT, RZ, R8`): s50 v11 (the other sat before the
/// branch, the arm's low word unpacked), s51 w1 (the other sat after the join), w3 (the low word
/// by `cvt.u32.u64`), the case's 4-way unpack with the upper halves unread.
#[test]
fn arm_sat_f64_2b9b7b3e_low_word_of_the_arm_sat_is_zero() {
    let cvt_u32 = "cvt.u32.u64 %r0, %d2;";
    let quarters = "mov.b64 {%h0, %h2, %h3, _}, %d2; cvt.u32.u16 %r0, %h0;";
    for lines in [
        arm(&format!("{SAT} {USE_D1}"), "", UNPACK, "", STORE_R6),
        arm("", "", UNPACK, &format!("{SAT} {USE_D1}"), STORE_R6),
        arm(&format!("{SAT} {USE_D1}"), "", cvt_u32, "", STORE_R6),
    ] {
        let lines: Vec<String> = lines.iter().flat_map(|l| split(l)).collect();
        exact_case(&strs(&lines), WORDS, D, 0x21b9_9355, 0);
    }
    let lines: Vec<String> =
        arm(&format!("{SAT} {USE_D1}"), "", quarters, "", STORE_R6).iter().flat_map(|l| split(l)).collect();
    exact_case(&strs(&lines), WORDS, D, 0x9355, 0);
}

/// Right (13.0.88 -O3 `DSETP.MIN`): s51 w2 (the other sat `.f32`), w6 (no live other sat), w7 (the
/// other sat in the same arm), w4 (the arm's high word read too), s50 v7 (no other sat), w5
/// (guarded statements, no branch).
#[test]
fn arm_sat_f64_2b9b7b3e_leaves_lone_f32_same_arm_whole_and_guarded_forms_alone() {
    let f32_other = "cvt.sat.f32.f32 %r6, %r7;";
    let high_too = "xor.b32 %r6, %r1, %r6; st.global.u32 [%out+4], %r6;";
    for lines in [
        arm(&format!("mov.b32 %r7, 0x3f000000; {f32_other}"), "", UNPACK, "", STORE_R6),
        arm(SAT, "", UNPACK, "", ""),
        arm("", &format!("{SAT} {USE_D1}"), UNPACK, "", STORE_R6),
        arm(&format!("{SAT} {USE_D1}"), "", UNPACK, "", high_too),
        arm("", "", UNPACK, "", STORE_R6),
    ] {
        let lines: Vec<String> = lines.iter().flat_map(|l| split(l)).collect();
        untouched(&strs(&lines), WORDS, D);
    }
    let guarded = [
        "ld.global.b64 %d0, [%in];",
        SAT,
        USE_D1,
        "mov.b32 %r0, 0;",
        "setp.eq.u64 %p1, %d0, 0;",
        "@%p1 ld.global.b64 %d3, [%in+8];",
        "@%p1 cvt.sat.f64.f64 %d2, %d3;",
        "@%p1 mov.b64 {%r0, %r1}, %d2;",
        "st.global.u32 [%out], %r0;",
        STORE_R6,
    ];
    untouched(&guarded, WORDS, D);
}

/// One statement per line (`a; b;` split after each `;`).
fn split(l: &str) -> Vec<String> {
    l.split_inclusive(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}
