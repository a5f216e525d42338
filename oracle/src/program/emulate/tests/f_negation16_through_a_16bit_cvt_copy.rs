//! Tests of F through a 16-bit `cvt` copy (seed 5902's 958e24a0,
//! corpus/findings/fuzz-h200-5902/trace/T59D.md, variants in trace/958e24a0/s59/;
//! `emulate/f_negation16_through_a_16bit_cvt_copy.rs`).

use super::*;

const D: Deviation = Deviation::NegationOverflow;

/// `ld.b16 h0 (= 0x8000); neg.s16 h0, h0; <copy>; <reader>; st.u32 r0`.
fn chain(copy: &'static str, reader: &'static str) -> Vec<&'static str> {
    vec!["ld.global.b16 %h0, [%in];", "neg.s16 %h0, %h0;", copy, reader, "st.global.u32 [%out], %r0;"]
}

/// 13.0.88 -O3 `PRMT 0x9910; IADD3 R0, RZ, -R0` with no re-narrowing: the widening reader of the
/// copied negation converts +32768 (`r1_min` `cvt.s16.s16` then `cvt.s32.s16`: 0x8000, the spec
/// 0xffff8000; `r3` `cvt.u16.u16`, `r5` into another register, `r9` `cvt.s16.u16`, `r6` the reader
/// `cvt.u32.s16`).
#[test]
fn f_neg16_through_a_same_width_cvt_copy_widens_unwrapped() {
    let w = [0x8000, 0, 0, 0];
    exact_case(&chain("cvt.s16.s16 %h0, %h0;", "cvt.s32.s16 %r0, %h0;"), w, D, 0xffff_8000, 0x8000);
    exact_case(&chain("cvt.u16.u16 %h1, %h0;", "cvt.s32.s16 %r0, %h1;"), w, D, 0xffff_8000, 0x8000);
    exact_case(&chain("cvt.s16.u16 %h1, %h0;", "cvt.u32.s16 %r0, %h1;"), w, D, 0xffff_8000, 0x8000);
}

/// Left to the spec: a saturating copy (`cvt.sat.s16.u16` clamps 0x8000 to 0x7fff first, no
/// copy), another input than −32768, a widening copy that is no 16-bit `cvt`.
#[test]
fn f_neg16_through_a_saturating_or_wider_cvt_keeps_the_spec() {
    untouched(&chain("cvt.sat.s16.u16 %h1, %h0;", "cvt.s32.s16 %r0, %h1;"), [0x8000, 0, 0, 0], D);
    untouched(&chain("cvt.s16.s16 %h1, %h0;", "cvt.s32.s16 %r0, %h1;"), [0x8001, 0, 0, 0], D);
}

/// 958e24a0's campaign case: emulating F gives the stored ptxas -O3 and JIT word of thread 17
/// (0x00002593, the spec's 0x00ff2593) and leaves every other word as the spec's.
#[test]
fn f_958e24a0_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5902", "958e24a0c051723d");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if (t, w) == (17, 0) { (0x00ff_2593, 0x0000_2593) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}
