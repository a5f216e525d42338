//! Tests of 3701-N-D with a widening `cvt` of a byte-converted h made before the pack and read
//! after it (seed 4703's f788f578, helper k3, session 47; corpus/findings/fuzz-h200-4703/trace/
//! T18u4.md, variants in trace/f788f578/ and its s47/;
//! `emulate/merge_c_widened_byte_half_read_after_pack.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// f788f578's frame on word 0 = 0xe4822711: the e5m2x2 pair 0xfbfb in h1, h2 by `half`,
/// `widen` before the pack `mov.b32 r15, {h1, h2}` stored as word 0, then `after`.
fn chain(half: &'static str, widen: &'static str, after: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.s32 %r0, [%in];", "cvt.rn.satfinite.e5m2x2.f32 %h1, %r0, %r0;", half, widen];
    lines.extend(["mov.b32 %r15, {%h1, %h2};", "st.global.b32 [%out], %r15;"]);
    lines.extend_from_slice(after);
    lines
}

const BYTE: &str = "cvt.u8.u32 %h2, %r0;";
const WIDEN64: &str = "cvt.s64.u16 %d0, %h2;";
/// d0's low word stored as word 1 (f788f578's `cvt.u32.s64 r2, d0`).
const LOW_WORD: [&str; 2] = ["cvt.u32.s64 %r2, %d0;", "st.global.u32 [%out+4], %r2;"];
const WORDS: [u32; 4] = [0xe482_2711, 0, 0, 0];

/// f788f578 (`reduced.ptx`, 13.0.88 -O3 `LOP3.LUT R7, R2, 0xff; MERGE_C R2, R2, R2, R7; IMAD.MOV.U32
/// R7, RZ, RZ, R2; STG.E.U16 [+0x6], R7`): the low word of d0 is the pair 0xfbfb, the spec 0x11;
/// `v3_cvt_u32_u16_before` (`cvt.u32.u16` stored whole) and `s47/y1_cvt_s64_s16_sign_extending`
/// alike.
#[test]
fn nd_f788f578_a_widening_of_a_byte_half_before_the_pack_is_the_pair() {
    exact_case(&chain(BYTE, WIDEN64, &LOW_WORD), WORDS, D, 0x0000_0011_0011_fbfb, 0x0000_fbfb_0011_fbfb);
    let widen32 = chain(BYTE, "cvt.u32.u16 %r2, %h2;", &["st.global.u32 [%out+4], %r2;"]);
    exact_case(&widen32, WORDS, D, 0x0000_0011_0011_fbfb, 0x0000_fbfb_0011_fbfb);
    exact_case(
        &chain(BYTE, "cvt.s64.s16 %d0, %h2;", &LOW_WORD),
        WORDS,
        D,
        0x0000_0011_0011_fbfb,
        0x0000_fbfb_0011_fbfb,
    );
}

/// Right: d0 read whole (`v4_cvt_s64_stored_whole`: kept in R6:R7), h2 a free truncation
/// `cvt.u16.u32` (`s47/y2_cvt_u16_u32_half`: `LOP3.LUT R9, R6, 0xffff` before the merge), h2 from
/// `ld.u16` (`v5_h2_ld_u16_right`).
#[test]
fn nd_f788f578_a_whole_read_a_truncated_or_loaded_half_is_left_alone() {
    untouched(&chain(BYTE, WIDEN64, &["st.global.u64 [%out], %d0;"]), WORDS, D);
    untouched(&chain("cvt.u16.u32 %h2, %r0;", WIDEN64, &LOW_WORD), WORDS, D);
    untouched(&chain("ld.global.u16 %h2, [%in+4];", WIDEN64, &LOW_WORD), [0xe482_2711, 0x11, 0, 0], D);
}

/// f788f578's stored case: emulating 3701-N-D alone gives the stored -O3/JIT word 1 (high half
/// 0xfbfb, the spec 0x0011) in every thread (word 0 = 0xe4822711 in all 32) and the spec's
/// words elsewhere.
#[test]
fn nd_f788f578_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4703", "f788f57864bb0d05");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (s.bits & 0xffff) | 0xfbfb_0000 } else { s.bits };
        assert!(w != 1 || s.bits >> 16 == 0x0011, "thread {t} spec");
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}
