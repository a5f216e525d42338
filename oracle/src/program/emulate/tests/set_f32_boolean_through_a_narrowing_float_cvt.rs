//! Tests of 3701 C1-N2 through a narrowing float `cvt` (seed 4803's 34986b1e, T19v5.md; helper
//! x4, session 49; `set_f32_boolean_through_a_narrowing_float_cvt.rs`): beside an xor of an
//! integer set, `cvt.<half>.f32` of a `set.f32` then a `cvt` reading that half under another type
//! converts the number 1; `cvt.f32.bf16`, a stored half and no trigger keep the bits.

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
/// d2 = 0 (words 0, 1: `set.ge.f32.s64 r3, 0, d2` true), r0 = 0 (word 2), x (word 3).
const WORDS: [u32; 4] = [0, 0, 0, 0x1234_5678];

/// `reduced.ptx` with `narrow` and `reader` (writing `%h1` or `%r4`, stored at `[%out]` by
/// `store`), `set` the integer set and `tail` after: the xor of the set and x at `[%out+4]`.
fn body(narrow: &str, reader: &str, set: &str, store: &str, tail: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "ld.global.u64 %d2, [%in];",
        "mov.b64 %d0, 0;",
        "ld.global.u32 %r0, [%in+8];",
        "ld.global.u32 %r5, [%in+12];",
        "set.ge.f32.s64 %r3, %d0, %d2;",
        narrow,
        reader,
        set,
        "xor.b32 %r11, %r1, %r5;",
        store,
        "st.global.b32 [%out+4], %r11;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(tail.iter().map(|s| s.to_string()));
    v
}

const SET_S32: &str = "set.gt.s32.u32 %r1, %r0, 5;";
const RP_BF16: &str = "cvt.rp.bf16.f32 %h0, %r3;";
const BF16_F16: &str = "cvt.bf16.f16 %h1, %h0;";
const ST16: &str = "st.global.u16 [%out], %h1;";
/// The xor's word (word 1): r1 = 0, so x.
const HIGH: u64 = 0x1234_5678 << 32;

/// 34986b1e's stored case: every thread's word 0 is the GPU's 0x3f80 (bf16 1.0, `SEL R0, RZ,
/// 0x3f80, !P0`), where §9.7.9.21 reads 0x3f80 as f16 1.875 and gives bf16 0x3ff0.
#[test]
fn c1n2_34986b1e_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4803", "34986b1e8dd6d7ca");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0x3ff0, 0x3f80), "thread {t}");
        } else {
            assert_eq!(s, e, "thread {t} word {w}");
        }
    }
}

/// `reduced` (`set.gt.s32.u32` trigger) and `s49/v1_set_u32_trigger`: 0x3f80 for 0x3ff0;
/// `s49/v2_f16_then_f16_bf16`: f16 1.0 read as bf16 (2^-7, f16 0x2000) folded as 1.0, 0x3c00;
/// `s49/v3_bf16_then_f32_f16`: bf16 1.0 read as f16 1.875 (f32 0x3ff00000) folded as 1.0f.
#[test]
fn c1n2_34986b1e_a_cvt_of_a_narrowed_set_f32_beside_an_xor_of_a_set_converts_1() {
    for set in [SET_S32, "set.gt.u32.u32 %r1, %r0, 5;"] {
        exact_case(&strs(&body(RP_BF16, BF16_F16, set, ST16, &[])), WORDS, D, HIGH | 0x3ff0, HIGH | 0x3f80);
    }
    let v2 = body("cvt.rn.f16.f32 %h0, %r3;", "cvt.f16.bf16 %h1, %h0;", SET_S32, ST16, &[]);
    exact_case(&strs(&v2), WORDS, D, HIGH | 0x2000, HIGH | 0x3c00);
    let v3 = body("cvt.rz.bf16.f32 %h0, %r3;", "cvt.f32.f16 %r4, %h0;", SET_S32, "st.global.u32 [%out], %r4;", &[]);
    exact_case(&strs(&v3), WORDS, D, HIGH | 0x3ff0_0000, HIGH | 0x3f80_0000);
}

/// Right: `cvt.f32.bf16` of the f16 1.0 (`s49/v4_f16_then_f32_bf16_right`: `IMAD.U32 R7, R0,
/// 0x10000`, the bits), the narrowed half also stored (`s49/v5_narrowed_also_stored_right`:
/// `F2F.BF16.F16` of the bits), no xor of a set (`s4_set_u32_stored`: the set stored).
#[test]
fn c1n2_34986b1e_an_exact_widening_a_stored_half_or_no_trigger_keep_the_bits() {
    let v4 = body("cvt.rn.f16.f32 %h0, %r3;", "cvt.f32.bf16 %r4, %h0;", SET_S32, "st.global.u32 [%out], %r4;", &[]);
    untouched(&strs(&v4), WORDS, D);
    untouched(&strs(&body(RP_BF16, BF16_F16, SET_S32, ST16, &["st.global.u16 [%out+2], %h0;"])), WORDS, D);
    let mut no_xor = body(RP_BF16, BF16_F16, SET_S32, ST16, &[]);
    no_xor[8] = "mov.b32 %r11, %r1;".into();
    untouched(&strs(&no_xor), WORDS, D);
}
