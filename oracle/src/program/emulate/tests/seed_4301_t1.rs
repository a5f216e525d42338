//! Tests of 3501-N3 under a live zero test of a `set.f32` (seed 4201's 6c26d195,
//! corpus/findings/fuzz-h200-4201/trace/T13t1.md, trace/6c26d195/; helper t1, session 43): the
//! traced forms emulated, the neighbours the listings show right left alone.

use super::*;

/// The set's word (1.0f when the loaded u64 is at least the immediate), its 0/1 by a
/// float-to-integer `cvt`, a zero test `test` of the set's word (`%r1`) or of the 0/1, the `cvt`s
/// `chain`, and a `selp` by the test's predicate: word 0 the chain's 16-bit result and the
/// selected 0x39af, word 1 `%r3` (a 32-bit chain result, else 0).
fn with(zero_one: &'static str, test: &'static str, chain: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "mov.b32 %r3, 0;",
        "ld.global.u64 %d0, [%in];",
        "set.ge.f32.u64 %r1, %d0, 0xf8b76156b6b4b24e;",
        zero_one,
        test,
    ];
    lines.extend_from_slice(chain);
    lines.extend([
        "mov.b16 %h36, 14767;",
        "selp.b16 %h37, %h36, 0x0, %p2;",
        "st.global.v2.b16 [%out], {%h2, %h37};",
        "st.global.b32 [%out+4], %r3;",
    ]);
    lines
}

/// The words for which the set is true (d0 = 0xfc503987_00000000, the finding's input).
const TRUE: [u32; 4] = [0, 0xfc50_3987, 0, 0];
const S16: &str = "cvt.rpi.s16.f32 %h0, %r1;";
const GT: &str = "setp.gt.s32 %p2, %r1, 0;";

/// 6c26d195 (`reduced.ptx`): `cvt.rpi.s16.f32` of the set's 1.0f is 1, `cvt.f16.bf16` of the
/// bits 0x0001 is +0 and `cvt.rp.bf16.s16` of it +0 (§9.7.9.21); 13.0.88 and 13.5 -O3 give
/// `SEL R0, RZ, 0x3f80, !P0` (bf16 1.0) beside `setp.gt.s32 p2, r1, 0`. `v15` (no second cvt)
/// 0x3c00, `v24` (`setp.ne.s16` of the 0/1) the same, `v26` `cvt.rn.f32.s16` after it 1.0f,
/// `v36` a 32-bit 0/1 read by `cvt.rn.f16.f32` 0x3c00.
#[test]
fn n3_3501_a_set_truth_tested_against_zero_is_converted_as_the_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let bf16_chain = ["cvt.f16.bf16 %h2, %h0;", "cvt.rp.bf16.s16 %h2, %h2;"];
    exact_case(&with(S16, GT, &bf16_chain), TRUE, d, 0x39af_0000, 0x39af_3f80);
    exact_case(&with(S16, GT, &bf16_chain[..1]), TRUE, d, 0x39af_0000, 0x39af_3c00);
    exact_case(&with(S16, "setp.ne.s16 %p2, %h0, 0;", &bf16_chain[..1]), TRUE, d, 0x39af_0000, 0x39af_3c00);
    exact_case(&with(S16, "setp.eq.s32 %p2, %r1, 0;", &bf16_chain[..1]), TRUE, d, 0, 0x3c00);
    let to_f32 = ["cvt.f16.bf16 %h2, %h0;", "cvt.rn.f32.s16 %r3, %h2;"];
    exact_case(&with(S16, GT, &to_f32), TRUE, d, 0x39af_0000, 0x3f80_0000_39af_3c00);
    let wide = ["cvt.rn.f16.f32 %h2, %r2;"];
    exact_case(&with("cvt.rzi.s32.f32 %r2, %r1;", GT, &wide), TRUE, d, 0x39af_0000, 0x39af_3c00);
    let rzi = ["cvt.f16.bf16 %h2, %h0;", "cvt.rzi.s32.f16 %r3, %h2;"];
    exact_case(&with(S16, GT, &rzi), TRUE, d, 0x39af_0000, 0x1_39af_3c00);
}

/// The neighbours 13.0.88 -O3 compiles right (the spec's words): the predicate dead (`v22`),
/// tested against a loaded value (`v25`) or 1 (`v3x_setp_ne_s32_1`), `cvt.f32.bf16` (`v28`:
/// the widening `IMAD.U32 …, 0x10000`), a `selp 1, 0` of a loaded value's predicate (k1's
/// `v14`), and the set false (both arms 0).
#[test]
fn n3_3501_a_set_truth_without_a_live_zero_test_is_converted_as_its_bits() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let bf16_chain = ["cvt.f16.bf16 %h2, %h0;", "cvt.rp.bf16.s16 %h2, %h2;"];
    let mut dead = with(S16, GT, &bf16_chain);
    dead.retain(|l| !l.starts_with("selp"));
    dead.insert(dead.len() - 2, "mov.b16 %h37, 0;");
    untouched(&dead, TRUE, d);
    let loaded = with(S16, "setp.lt.s32 %p2, %r1, %r5;", &bf16_chain);
    untouched(&[&["ld.global.u32 %r5, [%in+8];"], &loaded[..]].concat(), TRUE, d);
    untouched(&with(S16, "setp.ne.s32 %p2, %r1, 1;", &bf16_chain), TRUE, d);
    untouched(&with(S16, GT, &["cvt.f32.bf16 %r3, %h0;", "mov.b16 %h2, 0;"]), TRUE, d);
    let selp = [
        "ld.global.u32 %r4, [%in+8];",
        "setp.gt.s32 %p2, %r4, 0;",
        "mov.b16 %h5, 1;",
        "selp.b16 %h0, %h5, 0, %p2;",
        "cvt.f16.bf16 %h2, %h0;",
        "mov.b16 %h36, 14767;",
        "selp.b16 %h37, %h36, 0x0, %p2;",
        "st.global.v2.b16 [%out], {%h2, %h37};",
    ];
    untouched(&selp, [0, 0, 1, 0], d);
    untouched(&with(S16, GT, &bf16_chain), [0, 0, 0, 0], d);
}

/// 6c26d195's minimized case (`orig.ptx`): the byte pair `{h27, h37}` stored at byte 2, h27 a
/// `selp` of the chain with itself: the GPU's bytes 0x80 0xaf where the spec gives 0x00 0xaf
/// (A, the any-byte of a narrow store of a float `cvt`, fires there too: checked alone).
#[test]
fn n3_3501_the_minimized_case_stores_the_low_byte_of_bf16_one() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let lines = [
        "ld.global.u64 %d0, [%in];",
        "set.ge.f32.u64 %r1, %d0, 0xf8b76156b6b4b24e;",
        "cvt.rpi.s16.f32 %h0, %r1;",
        "setp.gt.s64 %p1, %d0, 0;",
        "setp.gt.s32 %p2, %r1, 0;",
        "cvt.f16.bf16 %h2, %h0;",
        "cvt.rp.bf16.s16 %h2, %h2;",
        "selp.b16 %h27, %h2, %h2, %p1;",
        "mov.b16 %h36, 14767;",
        "selp.b16 %h37, %h36, 0x0, %p2;",
        "st.global.v2.b8 [%out+2], {%h27, %h37};",
    ];
    let (s, e, fired) = both(&lines, TRUE, d);
    assert_eq!((s.bits as u32, s.is_exact()), (0xaf00_0000, true));
    assert_eq!((e.bits as u32, e.is_exact()), (0xaf80_0000, true));
    assert_eq!(fired, vec![d]);
}
