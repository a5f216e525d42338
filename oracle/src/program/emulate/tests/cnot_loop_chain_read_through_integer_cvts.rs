//! Tests of 3501-N3's loop-carried `cnot` chain read through integer `cvt`s (seed 5103's
//! de634528, session 51; corpus/findings/fuzz-h200-5103/trace/T22c.md, variants in
//! trace/de634528/s51/; `emulate/cnot_loop_chain_read_through_integer_cvts.rs`).

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// The stored case: byte 1 of word 0 is the low byte of `SEL R0, RZ, 0x3f80, P0` (bf16 1.0),
/// 0x80, where §9.7.9.21 rounds the bits 0x00000001 up to bf16 0x0001 (0x00000100).
#[test]
fn n3_de634528_stored_case_is_reached() {
    let (p, i) = super::stored_case("5103", "de634528988e2c39");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0x0000_0100, 0x0000_8000), "thread {t}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// d0 loaded from words 2–3, `trips` trips of `step` on it, then `link` and the float `cvt`
/// stored as a half.
fn looped(step: &str, trips: u32, link: &str, cvt: &str) -> Vec<String> {
    vec![
        "ld.global.b64 %d0, [%in+8];".into(),
        "mov.u32 %r5, 0;".into(),
        "$L0:".into(),
        step.into(),
        "add.u32 %r5, %r5, 0x1;".into(),
        format!("setp.lt.u32 %p2, %r5, {trips};"),
        "@%p2 bra $L0;".into(),
        link.into(),
        cvt.into(),
        "st.global.b16 [%out], %h4;".into(),
    ]
}

const CNOT: &str = "cnot.b64 %d0, %d0;";
const S32: &str = "cvt.s32.s64 %r6, %d0;";
const BF16: &str = "cvt.rp.bf16.f32 %h4, %r6;";
const WORDS: [u32; 4] = [0, 0, 0, 0xbb41_3e98];

/// Wrong (13.0.88 and 13.5 -O3): six trips and `cvt.s32.s64` (s51/v1: `SEL R7, RZ, 0x3f80, P0`),
/// two trips and `cvt.u32.u64` then `cvt.rn.f16.f32` (v4: `SEL R7, RZ, 0x3c00, P0`).
#[test]
fn n3_de634528_a_loop_cnot_chain_through_an_integer_cvt_converts_the_number() {
    exact_case(&strs(&looped(CNOT, 6, S32, BF16)), WORDS, D, 0x0001, 0x3f80);
    let f16 = looped(CNOT, 2, "cvt.u32.u64 %r6, %d0;", "cvt.rn.f16.f32 %h4, %r6;");
    exact_case(&strs(&f16), WORDS, D, 0x0000, 0x3c00);
}

/// Right: one trip (s51/v2, one `cnot`: the bits converted), `not.b64` (v3).
#[test]
fn n3_de634528_one_trip_or_a_not_is_left_alone() {
    untouched(&strs(&looped(CNOT, 1, S32, BF16)), WORDS, D);
    untouched(&strs(&looped("not.b64 %d0, %d0;", 6, S32, BF16)), WORDS, D);
}
