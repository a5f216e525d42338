//! Tests of 3701 C1-N2 where the set.f32 tests an integer set's word against 0 (seed 5002's
//! 85d1dc7a; `emulate/set_f32_boolean_of_a_set_tested_against_zero.rs`, variants in
//! corpus/findings/fuzz-h200-5002/trace/85d1dc7a/s50/).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// `ld r0; set.ne.s32.s32 r3, r0, 0; <test>; <cvt> h10; st {h10, h10}`.
fn chain(test: &'static str, cvt: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r0, [%in];",
        "set.ne.s32.s32 %r3, %r0, 0;",
        test,
        cvt,
        "mov.b32 %r6, {%h10, %h10};",
        "st.global.b32 [%out], %r6;",
    ]
}

const BF16: &str = "cvt.rn.bf16.u32 %h10, %r3;";

/// The stored case: word 3 is {bf16 1.0, bf16 1.0} = 0x3f803f80 in every thread (r0 = 0, the
/// set.f32 true), where the spec converts 0x3f800000 = 1065353216 (bf16 0x4e7e).
#[test]
fn c1n2_85d1dc7a_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5002", "85d1dc7ae63ff665");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 3 { 0x3f80_3f80 } else { s.bits };
        if w == 3 {
            assert_eq!(s.bits, 0x4e7e_4e7e, "thread {t} spec");
        }
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Wrong (13.0.88 -O3 `SEL R0, RZ, 0x3f80, P0`): the case's core (`v1`), `set.ge.f32.s32` (`v9`),
/// `set.lt.f32.s32` (`v6`, true where r0 ≠ 0), `set.le.f32.u32` of a moved 0 first (`v10`),
/// `cvt.rn.bf16.s32` (`v12`), `cvt.rn.f16.u32` (`v7`: f16 1.0 for +inf).
#[test]
fn c1n2_a_set_f32_of_a_set_against_zero_converts_its_truth() {
    let zero = [0, 0, 0, 0];
    exact_case(&chain("set.ge.f32.u32 %r3, %r3, 0x0;", BF16), zero, D, 0x4e7e_4e7e, 0x3f80_3f80);
    exact_case(&chain("set.ge.f32.s32 %r3, %r3, 0x0;", BF16), zero, D, 0x4e7e_4e7e, 0x3f80_3f80);
    exact_case(&chain("set.lt.f32.s32 %r3, %r3, 0x0;", BF16), [9, 0, 0, 0], D, 0x4e7e_4e7e, 0x3f80_3f80);
    exact_case(
        &chain("set.ge.f32.u32 %r3, %r3, 0x0;", "cvt.rn.bf16.s32 %h10, %r3;"),
        zero,
        D,
        0x4e7e_4e7e,
        0x3f80_3f80,
    );
    exact_case(&chain("set.ge.f32.u32 %r3, %r3, 0x0;", "cvt.rn.f16.u32 %h10, %r3;"), zero, D, 0x7c00_7c00, 0x3c00_3c00);
    let moved_zero = [
        "ld.global.u32 %r0, [%in];",
        "set.ne.u32.s32 %r3, %r0, 0;",
        "mov.b32 %r5, 0;",
        "set.le.f32.u32 %r3, %r5, %r3;",
        BF16,
        "mov.b32 %r6, {%h10, %h10};",
        "st.global.b32 [%out], %r6;",
    ];
    exact_case(&moved_zero, zero, D, 0x4e7e_4e7e, 0x3f80_3f80);
}

/// Right (13.0.88 -O3 converts the word: `SEL; IABS; I2FP.F32.S32; I2F.BF16.U32`): `set.eq.f32`
/// of the set (`v3`), `set.gt.f32.u32` with the set first (`v8`), a set.f32 of the load (`v2`,
/// `v5`).
#[test]
fn c1n2_other_tests_of_a_set_and_tests_of_a_load_are_left_alone() {
    let zero = [0, 0, 0, 0];
    untouched(&chain("set.eq.f32.s32 %r3, %r3, 0x0;", BF16), zero, D);
    untouched(&chain("set.gt.f32.u32 %r3, %r3, 0x0;", BF16), [9, 0, 0, 0], D);
    untouched(&chain("set.ne.f32.s32 %r3, %r0, 0;", BF16), [9, 0, 0, 0], D);
    untouched(&chain("set.ge.f32.u32 %r3, %r0, 0x0;", BF16), zero, D);
}
