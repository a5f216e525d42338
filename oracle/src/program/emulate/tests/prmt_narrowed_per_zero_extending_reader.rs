//! Tests of 3702-N5 at a `cvt.*.u8` reader (session 50: seed 5003's e7e92a13,
//! corpus/findings/fuzz-h200-5003/trace/T21e.md, trace/e7e92a13/ and its s50/).

use super::*;

const D: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// `prmt` of the loaded word 0 by 0xbe166c89 (byte 0 the sign of a's byte 1), `tail` reading it.
fn prmt_then(tail: &[&str]) -> Vec<String> {
    let mut lines = vec!["ld.global.b32 %r0, [%in];".to_string(), "prmt.b32 %r1, %r0, %r0, 0xbe166c89;".into()];
    lines.extend(tail.iter().map(|l| l.to_string()));
    lines
}

/// e7e92a13's input word: a's byte 1 0xa8 (negative), so the spec's byte 0 is 0xff.
const A: [u32; 4] = [0xe94f_a8d6, 0, 0, 0];

/// Wrong (13.0.88 -O3 `PRMT Rd, RZ, 0x9, R2`: 0): `cvt.{u16,s16,u32,s32,u64}.u8` after the
/// truncation (`s50/v_cvt_*_u8_*`) and `cvt.u32.u8` of the word (`s50/v_cvt_u32_u8_of_word`).
#[test]
fn n5_3702_a_cvt_of_a_u8_source_reads_the_narrowed_byte() {
    for d in ["u16", "s16"] {
        let cvt = format!("cvt.{d}.u8 %h1, %h0;");
        let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", &cvt, "st.global.u16 [%out], %h1;"]);
        exact_case(&strs(&lines), A, D, 0xff, 0);
    }
    for d in ["u32", "s32"] {
        let cvt = format!("cvt.{d}.u8 %r2, %h0;");
        let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", &cvt, "st.global.u32 [%out], %r2;"]);
        exact_case(&strs(&lines), A, D, 0xff, 0);
    }
    let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", "cvt.u64.u8 %d0, %h0;", "st.global.u64 [%out], %d0;"]);
    exact_case(&strs(&lines), A, D, 0xff, 0);
    let lines = prmt_then(&["cvt.u32.u8 %r2, %r1;", "st.global.u32 [%out], %r2;"]);
    exact_case(&strs(&lines), A, D, 0xff, 0);
}

/// Right: a `.s8` source sign-extends (`s50/v_cvt_{s16,u16,s32}_s8_*`: the whole `PRMT`, then
/// `0x8880`).
#[test]
fn n5_3702_leaves_a_cvt_of_an_s8_source_alone() {
    let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", "cvt.s16.s8 %h1, %h0;", "st.global.u16 [%out], %h1;"]);
    untouched(&strs(&lines), A, D);
    let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", "cvt.s32.s8 %r2, %h0;", "st.global.u32 [%out], %r2;"]);
    untouched(&strs(&lines), A, D);
}

/// e7e92a13's campaign case: emulating 3702-N5 gives the stored ptxas -O3 and JIT word 0, 0 (the
/// spec's 0x3d310000: `cvt.s16.u8` of 0xff is 255 ≥ 3), in every thread.
#[test]
fn n5_3702_e7e92a13_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5003", "e7e92a137d9b7f49");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 0 || s.bits == 0x3d31_0000, "thread {t}: the spec's word 0");
    }
}
