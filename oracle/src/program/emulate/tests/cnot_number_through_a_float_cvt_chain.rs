//! Tests of 3501-N3 through a second float-to-float `cvt` (`emulate/cnot_number_through_a_float_cvt_chain.rs`,
//! seed 4701's 64ad9add, corpus/findings/fuzz-h200-4701/trace/64ad9add/ and its `s48/`, 13.0.88
//! -O3 listings): the wrong forms emulated, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// `ld.u8 x; <zero_one>; <cvts>; <trigger>; <pack or read>; st [%out]`: the reduced case's frame
/// (x = byte 0, the 64-bit word at +8 nonzero so the `set` is false).
fn chain(zero_one: &[&'static str], cvts: &[&'static str], logic: bool, tail: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u8 %h0, [%in];"];
    lines.extend_from_slice(zero_one);
    lines.extend_from_slice(cvts);
    if logic {
        lines.extend_from_slice(&["ld.global.b64 %d1, [%in+8];", "mov.b64 %d2, 0;", "set.ge.s32.u64 %r5, %d2, %d1;"]);
    }
    lines.extend_from_slice(tail);
    lines
}

const CNOT: &[&str] = &["cnot.b16 %h1, %h0;"];
const TWO_CVTS: &[&str] = &["cvt.bf16.f16 %h2, %h1;", "cvt.f16.f16 %h3, %h2;"];
const PACK_OR: &[&str] = &["mov.b32 %r1, {%h3, %h1};", "or.b32 %r7, %r1, %r5;", "st.global.b32 [%out], %r7;"];
const WORDS: [u32; 4] = [0, 0, 0x0010_0000, 0];

/// The campaign's case: emulating 3501-N3 alone gives the stored ptxas -O3 and JIT word 2, 0
/// (the low byte of f16 1.0 = 0x3c00; the spec's byte 0x80 of bf16 0x3380), in threads 0–7.
#[test]
fn n3_3501_64ad9add_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4701", "64ad9adda9301f8b");
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 2 && s.bits == 0x0080_0000 {
            assert_eq!(e.bits, 0, "thread {t}");
            changed += 1;
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
    assert!(changed > 0);
}

/// Wrong (13.0.88 -O3 `SEL R0, RZ, 0x3c00, !P1`): `cnot.b16; cvt.bf16.f16; cvt.f16.f16` under
/// the logic trigger (`reduced`), h = 0x3c00 where §9.7.9.21 gives 0x3380; `cnot.b32;
/// cvt.rn.bf16.f32; cvt.f16.f16` (`v5`: the f32 bits 0x00000001 round to bf16 0) the same;
/// `cvt.f32.bf16` after (`s48/x1`: 1.0f, the older scope's value at the first cvt).
#[test]
fn n3_3501_a_second_float_cvt_of_a_converted_cnot_converts_the_number() {
    exact_case(&chain(CNOT, TWO_CVTS, true, PACK_OR), WORDS, D, 0x0001_3380, 0x0001_3c00);
    let b32 = ["cnot.b32 %r2, %r0;", "cvt.rn.bf16.f32 %h2, %r2;", "cvt.f16.f16 %h3, %h2;"];
    let mut v5 = vec!["ld.global.u32 %r0, [%in];"];
    v5.extend_from_slice(&b32);
    v5.extend_from_slice(
        &chain(&[], &[], true, &["mov.b32 %r1, {%h3, %h3};", "or.b32 %r7, %r1, %r5;", "st.global.b32 [%out], %r7;"])
            [1..],
    );
    exact_case(&v5, WORDS, D, 0, 0x3c00_3c00);
    let to_f32 = ["cvt.bf16.f16 %h2, %h1;", "cvt.f32.bf16 %r1, %h2;"];
    exact_case(
        &chain(CNOT, &to_f32, true, &["or.b32 %r7, %r1, %r5;", "st.global.b32 [%out], %r7;"]),
        WORDS,
        D,
        0x3380_0000,
        0x3f80_0000,
    );
}

/// Right (the spec stands): no logic trigger (`v1`, `s48/x2`: `F2F.BF16.F16; HADD2`), a
/// `selp 1, 0` in place of the `cnot` at the second cvt (`s48/x3`: `F2F.BF16.F16 R8, R0; HADD2`;
/// the first cvt is the entry's older scope, so only the second is checked here: its result is
/// the bits of what the first left).
#[test]
fn n3_3501_the_chain_without_the_trigger_or_of_a_selp_is_left_alone() {
    untouched(&chain(CNOT, TWO_CVTS, false, &["mov.b32 %r1, {%h3, %h1};", "st.global.b32 [%out], %r1;"]), WORDS, D);
    // Seed 3901's 09c3068e: a `cvt.f32.bf16` second reads the first's f16 1.0 as bf16 bits.
    let f16_then_f32 = ["cvt.f16.f16 %h2, %h1;", "cvt.f32.bf16 %r1, %h2;"];
    let tail = ["or.b32 %r7, %r1, %r5;", "st.global.b32 [%out], %r7;"];
    exact_case(&chain(CNOT, &f16_then_f32, true, &tail), WORDS, D, 0x0001_0000, 0x3c00_0000);
    let selp = ["setp.eq.u16 %p0, %h0, 0;", "mov.b16 %h5, 1;", "mov.b16 %h6, 0;", "selp.b16 %h1, %h5, %h6, %p0;"];
    let (s, e, _) = both(&chain(&selp, TWO_CVTS, true, PACK_OR), WORDS, D);
    // The first cvt (the older scope) gives bf16 1.0 = 0x3f80; the second keeps those bits.
    assert_eq!((s.bits, e.bits), (0x0001_3380, 0x0001_3f80));
}
