//! Tests of 3602-N2 widened after seed 5803's 6699aa1a (corpus/findings/fuzz-h200-5803/trace/
//! T58F.md; variants in trace/6699aa1a/s58/): `neg.s32` of an int-to-float `cvt.<frnd>.f32.{s32,u32}`
//! of a `set.*.f32` (`emulate/negation_of_set_f32_through_an_int_to_float_cvt.rs`).

use super::*;

const D: Deviation = Deviation::NegOfSetF32HalvesReadAsBoolean;

/// The set of two loaded words (`set`), converted by `cvt`, negated by `neg` (which writes
/// `%r4` from `%r2`), the halves of the negation combined by `logic` and stored as a half.
fn case(set: &'static str, cvt: &'static str, neg: &'static str, logic: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r3, [%in];",
        "ld.global.u32 %r0, [%in+4];",
        set,
        cvt,
        "mov.b32 %r6, 0;",
        neg,
        "mov.b32 {%h12, %h13}, %r4;",
        logic,
        "st.global.u16 [%out], %h14;",
    ]
}

const SET_F32: &str = "set.ne.f32.u32 %r1, %r3, %r0;";
const CVT_RZ: &str = "cvt.rz.f32.s32 %r2, %r1;";
const NEG: &str = "neg.s32 %r4, %r2;";
const XOR: &str = "xor.b16 %h14, %h12, %h13;";

/// 6699aa1a's stored case (32 threads): emulating N2 gives the stored -O3/JIT word 0 (byte 3
/// 0x00 where the spec has 0x82, every thread); every other word is the spec's.
#[test]
fn n2_6699aa1a_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5803", "6699aa1a586c93ac");
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0x8200_0000, 0), "thread {t} word {w}");
            changed += 1;
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
    assert_eq!(changed, 32);
}

/// The orig's form (`cvt.rz.f32.s32`), `v2_cvt_rn`, `v3_cvt_f32_u32` and `v13_sub_of_moved_zero`:
/// `STG … RZ` (13.0.88 and 13.5 -O3), the xor of the boolean's equal halves, 0 where the spec
/// negates 1065353216.0 (0x4e7e0000) to 0xb1820000 (xor 0xb182); `v6_and_reader`: `SEL R7, RZ,
/// 0xffffffff, !P0`, 0xffff where the spec's and is 0.
#[test]
fn n2_neg_of_an_int_to_float_cvt_of_a_set_f32_is_its_boolean() {
    exact_case(&case(SET_F32, CVT_RZ, NEG, XOR), [1, 0, 0, 0], D, 0xb182, 0);
    exact_case(&case(SET_F32, "cvt.rn.f32.s32 %r2, %r1;", NEG, XOR), [1, 0, 0, 0], D, 0xb182, 0);
    exact_case(&case(SET_F32, "cvt.rz.f32.u32 %r2, %r1;", NEG, XOR), [1, 0, 0, 0], D, 0xb182, 0);
    exact_case(&case(SET_F32, CVT_RZ, "sub.s32 %r4, %r6, %r2;", XOR), [1, 0, 0, 0], D, 0xb182, 0);
    exact_case(&case(SET_F32, CVT_RZ, NEG, "and.b16 %h14, %h12, %h13;"), [1, 0, 0, 0], D, 0, 0xffff);
}

/// Right or left out: an integer set (`v9_integer_set`), a float-to-int cvt (`v4`: the spec's 1
/// is the boolean), two cvts (`v10`, not emulated), the cvt's result rewritten before the
/// negation.
#[test]
fn n2_an_integer_set_or_another_cvt_chain_is_left_alone() {
    untouched(&case("set.ne.u32.u32 %r1, %r3, %r0;", CVT_RZ, NEG, XOR), [1, 0, 0, 0], D);
    untouched(&case(SET_F32, "cvt.rzi.s32.f32 %r2, %r1;", NEG, XOR), [1, 0, 0, 0], D);
    let mut two = case(SET_F32, "cvt.rn.f64.s32 %d0, %r1;", NEG, XOR);
    two.insert(4, "cvt.rn.f32.f64 %r2, %d0;");
    untouched(&two, [1, 0, 0, 0], D);
    let mut rewritten = case(SET_F32, CVT_RZ, NEG, XOR);
    rewritten.insert(4, "add.u32 %r2, %r2, 1;");
    untouched(&rewritten, [1, 0, 0, 0], D);
}
