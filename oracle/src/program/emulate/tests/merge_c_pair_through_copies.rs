//! Tests of 3701-N-D with the pair element a copy of the pair (seed 4601's f5d8ab7c, helper g2,
//! session 47; corpus/findings/fuzz-h200-4601/trace/T17t1.md, variants in trace/f5d8ab7c/ and
//! its s47/; `emulate/merge_c_pair_through_copies.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// Words 0-1 the pair's sources (1.0 each: the e4m3x2 pair 0x3838), byte 8 the loaded byte
/// 0x40 of h2 = {c0, c0} = 0x4040.
const WORDS: [u32; 4] = [0x3f80_0000, 0x3f80_0000, 0x40, 0];

/// The pair converted into %h0, `copy` (into %h1), h2 = {c0, c0}, the pack `mov.b32 r1, {h1,
/// h2}` stored as word 0 and h2 stored at byte 4 (`v3_copy_plain_ld`'s shape).
fn chain(copy: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.v2.f32 {%r2, %r3}, [%in];", "cvt.rn.satfinite.e4m3x2.f32 %h0, %r3, %r2;"];
    lines.extend_from_slice(copy);
    lines.extend([
        "ld.global.s8 %c0, [%in+8];",
        "mov.b16 %h2, {%c0, %c0};",
        "mov.b32 %r1, {%h1, %h2};",
        "st.global.b32 [%out], %r1;",
        "st.global.b16 [%out+4], %h2;",
    ]);
    lines
}

/// The spec's output: word 0 {pair, h2}, word 1's low half h2.
const SPEC: u64 = 0x0000_4040_4040_3838;
/// 13.0.88 -O3 (`MERGE_C R9, R7, R6, R9; …; STG.E.U16 [+0xa], R9`): h2's store takes the pair.
const BUG: u64 = 0x0000_3838_4040_3838;

/// `v3_copy_plain_ld` (a `mov.u16` copy), s47 `w1_copy_chain` (two copies), `w3_cvt_u16_u16_copy`,
/// `w4_mov_b16_copy_after_h2` and `w2_copy_source_read_after` (h0 stored after: the pair either
/// way): the pair is built in h2's register.
#[test]
fn nd_f5d8ab7c_a_copy_of_the_pair_is_built_in_place_beside_h() {
    exact_case(&chain(&["mov.u16 %h1, %h0;"]), WORDS, D, SPEC, BUG);
    exact_case(&chain(&["mov.u16 %h3, %h0;", "mov.u16 %h1, %h3;"]), WORDS, D, SPEC, BUG);
    exact_case(&chain(&["cvt.u16.u16 %h1, %h0;"]), WORDS, D, SPEC, BUG);
    let mut after = chain(&[]);
    after.insert(4, "mov.b16 %h1, %h0;");
    exact_case(&after, WORDS, D, SPEC, BUG);
    let mut read_after = chain(&["mov.u16 %h1, %h0;"]);
    read_after.push("st.global.b16 [%out+6], %h0;");
    exact_case(&read_after, WORDS, D, 0x3838_4040_4040_3838, 0x3838_3838_4040_3838);
}

/// Right: s47 `w5_guarded_copy` (a guarded copy over a loaded old value: `F2FP…MERGE_C R0, R15,
/// R14, RZ; @!P0 LDG.E.U16 R0`, h2 in R7), `w6_f16_copy_right` (a copy of an f16 conversion: no
/// pair).
#[test]
fn nd_f5d8ab7c_a_guarded_copy_or_a_copy_of_an_f16_cvt_is_left_alone() {
    let guarded = chain(&["ld.global.u16 %h1, [%in+12];", "setp.ne.u32 %p0, %r2, 0;", "@%p0 mov.u16 %h1, %h0;"]);
    untouched(&guarded, WORDS, D);
    let mut f16 = chain(&["mov.u16 %h1, %h0;"]);
    f16[1] = "cvt.rn.f16.f32 %h0, %r3;";
    untouched(&f16, WORDS, D);
}

/// f5d8ab7c's stored case (32 threads; `mov.u16 h1, h0` of the pair, `st.v2.s8 {h1, h2}`):
/// emulating 3701-N-D gives the stored -O3/JIT word 2 (0x00000000: byte 11, h2's, the pair's 0)
/// and the spec's other words.
#[test]
fn nd_f5d8ab7c_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "f5d8ab7c3dab200d");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 2 && t < 8 {
            assert_eq!((s.bits, e.bits), (0x4000_0000, 0), "thread {t} word {w}");
        } else if w != 2 {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}
