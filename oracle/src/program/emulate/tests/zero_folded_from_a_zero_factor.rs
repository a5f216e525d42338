//! Tests of N-8's known 0 folded from a zero factor (helper x3, session 49;
//! `emulate/zero_folded_from_a_zero_factor.rs`): seed 4801's b698901a (`set.gt.s32.u32 r4, r0, s`
//! with r0 = `mul.lo.s32` of a moved 0 and a loaded value, corpus/findings/fuzz-h200-4801/
//! trace/T19v4.md). Variants under trace/b698901a/s49/ (ptxas 13.0.88 -O3; 13.5 right).

use super::*;

const D: Deviation = Deviation::UnsignedBelowZeroOfSet;

/// b698901a's `reduced.ptx` with `zero` making %r0 (from %r2, loaded [in+4]): `s = set.ne.u32.u32
/// [in+8], 0` (−1 for a nonzero word), `r4 = set.gt.s32.u32 r0, s` (spec 0: 0 >u s never holds), stored at [out].
fn case(zero: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r2, [%in+4];", "ld.global.u32 %r5, [%in+12];"];
    lines.extend_from_slice(zero);
    lines.extend([
        "ld.global.u32 %r6, [%in+8];",
        "set.ne.u32.u32 %r3, %r6, 0;",
        "set.gt.s32.u32 %r4, %r0, %r3;",
        "st.global.u32 [%out], %r4;",
    ]);
    lines
}

/// The stored case: every thread's word 1 is the loaded byte xor 0x9cc5 where the spec stores
/// the byte (`selp` by a p4 that ptxas computes as s != 0).
#[test]
fn n8_b698901a_stored_case_compares_a_product_by_zero() {
    let (p, i) = stored_case("4801", "b698901a88025130");
    let mut changed = 0;
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!(e.bits, s.bits ^ 0x9cc5_0000, "thread {t}");
            changed += 1;
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
    assert!(changed > 0);
}

/// The wrong zeros (13.0.88 -O3 `ISETP.GT.U32 P0, PT, s, RZ`): `reduced` (`mul.lo` of a moved
/// 0), `v2_mul_imm0`, s49 `v1_and_zero`, `v2_mul_hi_zero`, `v3_mad_zero`, `v4_shl_32`,
/// `v5_mul_zero_twice`.
#[test]
fn n8_zeros_folded_from_a_zero_factor_are_known() {
    let words = [0, 7, 5, 0];
    let spec_and_bug = |zero: &[&'static str]| exact_case(&case(zero), words, D, 0, 0xffff_ffff);
    spec_and_bug(&["mov.b32 %r0, 0;", "mul.lo.s32 %r0, %r0, %r2;"]);
    spec_and_bug(&["mul.lo.s32 %r0, %r2, 0;"]);
    spec_and_bug(&["and.b32 %r0, %r2, 0;"]);
    spec_and_bug(&["mov.b32 %r0, 0;", "mul.hi.s32 %r0, %r0, %r2;"]);
    spec_and_bug(&["mov.b32 %r0, 0;", "mad.lo.s32 %r0, %r0, %r2, 0;"]);
    spec_and_bug(&["shl.b32 %r0, %r2, 32;"]);
    spec_and_bug(&["mov.b32 %r0, 0;", "mul.lo.s32 %r1, %r0, %r2;", "mul.lo.s32 %r0, %r1, %r2;"]);
}

/// The right neighbours: a product of two loaded values that is 0 (s49 `v6_loaded_product`), a
/// multiply by 1 of a loaded 0 (`v7_mul_one`), a `mad` by 0 with a loaded addend 0
/// (`v8_mad_loaded_addend`), a signed `shr` by 32.
#[test]
fn n8_zeros_ptxas_does_not_know_are_left_alone() {
    let words = [0, 0, 5, 0];
    untouched(&case(&["mul.lo.s32 %r0, %r5, %r2;"]), words, D);
    untouched(&case(&["mov.b32 %r0, 1;", "mul.lo.s32 %r0, %r0, %r2;"]), words, D);
    untouched(&case(&["mov.b32 %r0, 0;", "mad.lo.s32 %r0, %r0, %r2, %r5;"]), words, D);
    untouched(&case(&["shr.s32 %r0, %r2, 32;"]), words, D);
}
