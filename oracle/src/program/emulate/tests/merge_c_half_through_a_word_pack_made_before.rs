//! Tests of 3701-N-D with h read through a `mov.b32` pack of it made before the pair's pack and
//! unpacked (seed 4802's 568a8359, helper w3, session 48; corpus/findings/fuzz-h200-4802/trace/
//! T19v3.md, variants in trace/568a8359/ and its s48/;
//! `emulate/merge_c_half_through_a_word_pack_made_before.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// 568a8359's frame: h1 = `cvt.u8.s64` of words 0–1 (0x72), the e4m3x2 pair of word 2's f16x2
/// {1.0, 1.0} (0x3838) in h0, `h2` then `word` (the 32-bit pack of h1, before the pair's pack
/// `st.global.v2.b16 [%out+4], {h0, h1}`, word 1), then `after`.
fn chain(h2: &'static str, word: &'static str, after: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.s64 %d0, [%in];",
        "cvt.u8.s64 %h1, %d0;",
        "ld.global.u32 %r0, [%in+8];",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r0;",
        h2,
        word,
    ];
    lines.extend_from_slice(after);
    lines
}

const H2: &str = "mov.b16 %h2, 0;";
const HIGH: &str = "mov.b32 %r2, {%h2, %h1};";
const PAIR_PACK: &str = "st.global.v2.b16 [%out+4], {%h0, %h1};";
const WORDS: [u32; 4] = [0x7bb2_d572, 0, 0x3c00_3c00, 0x1234];

/// 568a8359 in the unit frame (`s48/s8_unit_frame_global_v2`, 13.0.88 -O3 `LOP3.LUT R7, R0,
/// 0xff; F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R6, R7; MOV R7, R7; STG.E [+0x4], R7;
/// STG.E.U16 [+0x2], R7`): h15, unpacked after the pair's pack, is the pair 0x3838 (the spec
/// 0x72); with the unpack before the pack and h1 the low half (`s48/s9_unit_frame_unpack_before`,
/// the same listing, `STG.E.U16 [R4.64], R7`) h14 alike; r2 also stored whole
/// (`s48/s10_unit_frame_r2_whole_too`: `MERGE_C R9, R6, R7; PRMT R3, RZ, 0x5410, R7; MOV R7, R9`)
/// stays the spec's while h15 is the pair.
#[test]
fn nd_568a8359_an_unpack_of_a_word_pack_of_h_made_before_the_pack_is_the_pair() {
    let after = [PAIR_PACK, "mov.b32 {%h14, %h15}, %r2;", "st.global.u16 [%out+2], %h15;"];
    exact_case(&chain(H2, HIGH, &after), WORDS, D, 0x0072_3838_0072_0000, 0x0072_3838_3838_0000);
    let before = ["mov.b32 {%h14, %h15}, %r2;", PAIR_PACK, "st.global.u16 [%out], %h14;"];
    exact_case(&chain(H2, "mov.b32 %r2, {%h1, %h2};", &before), WORDS, D, 0x0072_3838_0000_0072, 0x0072_3838_0000_3838);
    let whole =
        [PAIR_PACK, "mov.b32 {%h14, %h15}, %r2;", "st.global.u16 [%out+2], %h15;", "st.global.u32 [%out+4], %r2;"];
    exact_case(&chain(H2, HIGH, &whole), WORDS, D, 0x0072_0000_0072_0000, 0x0072_0000_3838_0000);
}

/// Right: the other element read (`s48/s6_other_element_read_right`, h2 loaded: `STG.E.U16 R7` of
/// its own load), r2 read whole only (`v3_r2_stored_whole`), h1 from `ld.u16`
/// (`s48/s7_h_ld_u16_right`: `PRMT R7, R9, 0x7632, R7`), no pair pack (`v2_no_pair_pack_right`).
#[test]
fn nd_568a8359_the_other_element_a_whole_read_a_loaded_half_or_no_pack_are_left_alone() {
    let unpack = ["mov.b32 {%h14, %h15}, %r2;"];
    let other = [PAIR_PACK, unpack[0], "st.global.u16 [%out+2], %h14;"];
    untouched(&chain("ld.global.u16 %h2, [%in+12];", HIGH, &other), WORDS, D);
    untouched(&chain(H2, HIGH, &[PAIR_PACK, "st.global.u32 [%out], %r2;"]), WORDS, D);
    let mut loaded = chain(H2, HIGH, &[PAIR_PACK, unpack[0], "st.global.u16 [%out+2], %h15;"]);
    loaded[1] = "ld.global.u16 %h1, [%in];";
    untouched(&loaded, WORDS, D);
    let no_pack = ["st.global.b16 [%out+4], %h0;", unpack[0], "st.global.u16 [%out+2], %h15;"];
    untouched(&chain(H2, HIGH, &no_pack), WORDS, D);
}

/// 568a8359's stored case: emulating 3701-N-D alone gives the stored -O3/JIT word 0 (high half
/// the pair 0, the spec 0x0072) in every thread.
#[test]
fn nd_568a8359_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4802", "568a83593ec4c29a");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!(s.bits, 0x0072_0000, "thread {t} spec");
        assert_eq!((w, e.bits), (0, 0), "thread {t} word {w}");
    }
}
