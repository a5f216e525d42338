//! Tests of 3701 C1-N2 at a byte narrowing of a set.f32 word (seed 4602's 15e3e364, session 46;
//! corpus/findings/fuzz-h200-4602/trace/T17t3.md, variants in trace/15e3e364/ and its s46/).

use super::*;

/// C1-N2's trigger: `xor.b16` of the two halves of an integer set (−1), stored as a byte at +7.
const XOR_OF_SET: [&str; 5] = [
    "ld.global.s32 %r5, [%in+4];",
    "set.ge.s32.u32 %r6, %r5, 0;",
    "mov.b32 {%h23, %h24}, %r6;",
    "xor.b16 %h25, %h23, %h24;",
    "st.global.b8 [%out+7], %h25;",
];

/// `set.ne.f32.u32 r4` of the loaded word, then `narrow` (ending in %h0 or %r7), its store, and
/// `trigger` (C1-N2's xor, or nothing).
fn chain(narrow: &[&str], extra: &[&str], trigger: bool) -> Vec<String> {
    let mut lines = vec!["ld.global.u32 %r2, [%in];".to_string(), "set.ne.f32.u32 %r4, %r2, 0;".to_string()];
    lines.extend(narrow.iter().map(|l| l.to_string()));
    lines.extend(extra.iter().map(|l| l.to_string()));
    if trigger {
        lines.extend(XOR_OF_SET.iter().map(|l| l.to_string()));
    }
    lines
}

const TRUE: [u32; 4] = [0xffff_ffff, 0, 0, 0];

/// 15e3e364's chain (`v5_orig_chain_s8`: `cvt.s16.s32; cvt.s8.s16`, 13.0.88 -O3 `SEL R0, RZ,
/// 0x1, !P0; PRMT R3, R0, 0x5410, R0`): {h0, h0} = 0x00010001 where §9.7.9.21 truncates
/// 0x3f800000 to 0. So do `cvt.u8.u32` (v3), `cvt.u8.u16` of `cvt.u16.u32` (s46/w1),
/// `cvt.s8.s32` (s46/w2), a 32-bit destination (s46/w4) and the 16-bit step read by a dead `add`
/// too (s46/w9).
#[test]
fn c1n2_a_byte_narrowing_of_a_set_f32_word_beside_xor_of_a_set_is_its_truth() {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let pack = ["mov.b32 %r10, {%h0, %h0};", "st.global.s32 [%out], %r10;"];
    let s8_of_s16 = ["cvt.s16.s32 %h0, %r4;", "cvt.s8.s16 %h0, %h0;"];
    exact_case(&strs(&chain(&s8_of_s16, &pack, true)), TRUE, d, 0, 0x0001_0001);
    let h0 = ["st.global.b16 [%out], %h0;"];
    exact_case(&strs(&chain(&["cvt.u8.u32 %h0, %r4;"], &h0, true)), TRUE, d, 0, 1);
    exact_case(&strs(&chain(&["cvt.u16.u32 %h0, %r4;", "cvt.u8.u16 %h0, %h0;"], &h0, true)), TRUE, d, 0, 1);
    exact_case(&strs(&chain(&["cvt.s8.s32 %h0, %r4;"], &h0, true)), TRUE, d, 0, 1);
    let r7 = ["cvt.s16.s32 %h0, %r4;", "cvt.s8.s16 %r7, %h0;"];
    exact_case(&strs(&chain(&r7, &["st.global.b32 [%out], %r7;"], true)), TRUE, d, 0, 1);
    let dead = ["cvt.s16.s32 %h0, %r4;", "cvt.s8.s16 %h1, %h0;", "add.s16 %h2, %h0, 1;"];
    exact_case(&strs(&chain(&dead, &["st.global.b16 [%out], %h1;"], true)), TRUE, d, 0, 1);
    // A false set is 0 either way.
    untouched(&strs(&chain(&s8_of_s16, &pack, true)), [0, 0, 0, 0], d);
}

/// Right: a 16-bit narrowing alone (`reduced`, `v2`: `FSEL R7, RZ, 1`), no trigger (`v1`, s46/w3),
/// a loaded word in place of the set (s46/w5), the 16-bit step also stored (s46/w6), the set
/// word also stored (s46/w8).
#[test]
fn c1n2_leaves_16_bit_narrowings_and_observed_steps_alone() {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let h0 = ["st.global.b16 [%out], %h0;"];
    let s8_of_s16 = ["cvt.s16.s32 %h0, %r4;", "cvt.s8.s16 %h0, %h0;"];
    untouched(&strs(&chain(&["cvt.s16.s32 %h0, %r4;"], &h0, true)), TRUE, d);
    untouched(&strs(&chain(&["cvt.u16.u32 %h0, %r4;"], &h0, true)), TRUE, d);
    untouched(&strs(&chain(&s8_of_s16, &h0, false)), TRUE, d);
    let loaded = ["ld.global.u32 %r4, [%in+8];", "cvt.s16.s32 %h0, %r4;", "cvt.s8.s16 %h0, %h0;"];
    untouched(&strs(&chain(&loaded, &h0, true)), [0xffff_ffff, 0, 0x3f80_0000, 0], d);
    let both = ["cvt.s16.s32 %h0, %r4;", "cvt.u8.s16 %h1, %h0;"];
    let stores = ["st.global.b16 [%out], %h1;", "st.global.b16 [%out+4], %h0;"];
    untouched(&strs(&chain(&both, &stores, true)), TRUE, d);
    let mut lines = chain(&["cvt.u8.u32 %h0, %r4;"], &h0, true);
    lines.push("st.global.b32 [%out+4], %r4;".to_string());
    untouched(&strs(&lines), TRUE, d);
}

/// 15e3e364's campaign case (32 threads, 13 statements): emulating C1-N2 alone gives the stored
/// ptxas -O3 word 0, 0x00010001, in every thread (each loads r2 = 0xffffffff) and the spec's
/// words elsewhere.
#[test]
fn c1n2_15e3e364_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4602", "15e3e36454766b47");
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, d) {
        let want = if w == 0 { 0x0001_0001 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}
