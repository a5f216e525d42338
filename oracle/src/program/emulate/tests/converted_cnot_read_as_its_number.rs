//! Tests of 3501-N3's float conversion of a `cnot`'s 0/1 read as its number (helper x3, session
//! 49; `emulate/converted_cnot_read_as_its_number.rs`): seed 4801's 90c88344 (`mul.lo.s16` of
//! `cvt.rp.bf16.u64` of a `cnot.b64` under the logic trigger, corpus/findings/fuzz-h200-4801/
//! trace/T19v1.md) and seed 4802's cc897994 (a `cnot` chain's 0/1 through `cvt.rz.bf16.s64` then
//! `cvt.rni.u8.f16`, corpus/findings/fuzz-h200-4802/trace/T19v4.md). Variants under each
//! finding's trace/<id>/s49/ (ptxas 13.0.88 and 13.5 -O3).

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// The logic trigger (an `xor.b16` of an integer set's halves), its 16 bits stored at [out+6].
const TRIGGER: [&str; 5] = [
    "ld.global.u32 %r4, [%in+4];",
    "set.ne.s32.u32 %r2, %r4, 0;",
    "mov.b32 {%h4, %h5}, %r2;",
    "xor.b16 %h6, %h4, %h5;",
    "st.global.b16 [%out+6], %h6;",
];

/// `cnot.b32` of [in] converted by `cvt.rp.bf16.u32` into %h2, then `reader` (writing what it
/// stores at [out]), with the logic trigger when `logic`.
fn logic_case(reader: &[&'static str], logic: bool) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r0, [%in];", "cnot.b32 %r1, %r0;", "cvt.rp.bf16.u32 %h2, %r1;"];
    lines.extend_from_slice(reader);
    if logic {
        lines.extend(TRIGGER);
    }
    lines
}

/// A chain `cnot.b64; cnot.b64` of [in+8], converted by `convert`, then `reader`.
fn chain_case(convert: &'static str, reader: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u64 %d1, [%in+8];", "cnot.b64 %d2, %d1;", "cnot.b64 %d3, %d2;", convert];
    lines.extend_from_slice(reader);
    lines
}

/// 90c88344's stored case (`mul.lo.s16 %h0, %h5, %h2` of a moved 130 and bf16 1.0, 13.0.88 and
/// 13.5 -O3 `SEL R0, RZ, 0x1, !P0; IMAD R0, R0, 0x82`): word 1 is 0x00820082, the spec's
/// 0x3f003f00 (130·0x3f80 mod 2^16); the other words as the spec.
#[test]
fn n3_90c88344_stored_case_multiplies_the_number() {
    let (p, i) = stored_case("4801", "90c883448706c84f");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0x3f00_3f00, 0x0082_0082), "thread {t}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// cc897994's stored case (a loop-carried `cnot.b64 x, x` run 8 times, `cvt.rz.bf16.s64`,
/// `cvt.rni.u8.f16`; 13.0.88 and 13.5 -O3 `SEL R0, RZ, 0x1, P0`): word 2 is 0x00010001, the
/// spec's 0x00020002 (bf16 0x3f80 read as f16 1.875, rounded to 2).
#[test]
fn n3_cc897994_stored_case_converts_the_number() {
    let (p, i) = stored_case("4802", "cc897994fd109b0a");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        if w == 2 {
            assert_eq!((s.bits, e.bits), (0x0002_0002, 0x0001_0001), "thread {t}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// The wrong readers of the conversion: `mul.lo.s16` (90c88344 `reduced`, `v5_cnot_b32`),
/// `mad.lo.s16` (s49 `v2`), `mul.wide.s16` (`v3`), `set.gt.u32.s16` (`v6`), `cvt.s32.s16`
/// (`v8_widening_reader`), `cvt.f32.f16` (`v5_cvt_f32_f16`: 1.0f, the spec's 1.875f).
#[test]
fn n3_sign_extending_and_float_readers_under_the_logic_trigger_read_the_number() {
    let store16 = "st.global.b16 [%out], %h0;";
    let store32 = "st.global.b32 [%out], %r9;";
    exact_case(&logic_case(&["mul.lo.s16 %h0, %h2, 130;", store16], true), [0; 4], D, 0x3f00, 0x82);
    exact_case(&logic_case(&["mad.lo.s16 %h0, %h2, 130, 3;", store16], true), [0; 4], D, 0x3f03, 0x85);
    exact_case(&logic_case(&["mul.wide.s16 %r9, %h2, 130;", store32], true), [0; 4], D, 0x0020_3f00, 0x82);
    exact_case(&logic_case(&["set.gt.u32.s16 %r9, %h2, 1;", store32], true), [0; 4], D, 0xffff_ffff, 0);
    exact_case(&logic_case(&["cvt.s32.s16 %r9, %h2;", store32], true), [0; 4], D, 0x3f80, 1);
    exact_case(&logic_case(&["cvt.f32.f16 %r9, %h2;", store32], true), [0; 4], D, 0x3ff0_0000, 0x3f80_0000);
}

/// cc897994's chain form (`reduced.ptx` = `v3_two_cnots_loaded`, s49 `v1_mul_lo_s16`,
/// `v3_cvt_s32_s16`, `v4_shr_s16`, `v6_f32_low_half`, `v8_f16_then_rzi_s32_bf16`).
#[test]
fn n3_a_cnot_chain_conversion_is_read_as_the_number() {
    let (bf16, f32) = ("cvt.rz.bf16.s64 %h11, %d3;", "cvt.rz.f32.s64 %r2, %d3;");
    let x = [0, 0, 5, 0];
    let store16 = "st.global.b16 [%out], %h7;";
    exact_case(&chain_case(bf16, &["cvt.rni.u8.f16 %h7, %h11;", store16]), x, D, 2, 1);
    exact_case(&chain_case(bf16, &["mul.lo.s16 %h7, %h11, 130;", store16]), x, D, 0x3f00, 0x82);
    exact_case(&chain_case(bf16, &["cvt.s32.s16 %r9, %h11;", "st.global.b32 [%out], %r9;"]), x, D, 0x3f80, 1);
    exact_case(&chain_case(bf16, &["shr.s16 %h7, %h11, 1;", store16]), x, D, 0x1fc0, 0);
    let low = ["mov.b32 {%h2, %h3}, %r2;", "mul.lo.s16 %h7, %h2, 130;", store16];
    exact_case(&chain_case(f32, &low), x, D, 0, 0x82);
    let f16 = "cvt.rz.f16.s64 %h11, %d3;";
    exact_case(&chain_case(f16, &["cvt.rzi.s32.bf16 %r9, %h11;", "st.global.b32 [%out], %r9;"]), x, D, 0, 1);
}

/// The right neighbours: no trigger (90c88344 `v1_no_xor_trigger`), a `selp 1, 0` in place of
/// the `cnot` (`v10_selp10`), zero-extending or bit readers (s49 `v1_mul_lo_u16`,
/// `v4_cvt_u32_u16`, `v7_and_b16`, `v9_add_reader`; cc897994 s49 `v2`, `v9_max_s16`), the high
/// half of an `.f32` conversion (cc897994 s49 `v7_f32_high_half`), one `cnot` without the
/// logic trigger (cc897994 `v4_one_cnot_loaded`).
#[test]
fn n3_right_readers_of_a_converted_cnot_are_left_alone() {
    let store16 = "st.global.b16 [%out], %h0;";
    untouched(&logic_case(&["mul.lo.s16 %h0, %h2, 130;", store16], false), [0; 4], D);
    let selp = [
        "ld.global.u32 %r0, [%in];",
        "setp.eq.u32 %p0, %r0, 0;",
        "mov.b32 %r5, 1;",
        "selp.b32 %r1, %r5, 0, %p0;",
        "cvt.rp.bf16.u32 %h2, %r1;",
        "mul.lo.s16 %h0, %h2, 130;",
        store16,
    ];
    untouched(&[&selp[..], &TRIGGER[..]].concat(), [0; 4], D);
    untouched(&logic_case(&["mul.lo.u16 %h0, %h2, 130;", store16], true), [0; 4], D);
    untouched(&logic_case(&["cvt.u32.u16 %r9, %h2;", "st.global.b32 [%out], %r9;"], true), [0; 4], D);
    untouched(&logic_case(&["and.b16 %h0, %h2, 0x7fff;", store16], true), [0; 4], D);
    untouched(&logic_case(&["add.s16 %h0, %h2, 130;", store16], true), [0; 4], D);
    untouched(&logic_case(&["max.s16 %h0, %h2, 5;", store16], true), [0; 4], D);
    let x = [0, 0, 5, 0];
    let high = ["mov.b32 {%h2, %h3}, %r2;", "mul.lo.s16 %h7, %h3, 130;", "st.global.b16 [%out], %h7;"];
    untouched(&chain_case("cvt.rz.f32.s64 %r2, %d3;", &high), x, D);
    let one = [
        "ld.global.u64 %d1, [%in+8];",
        "cnot.b64 %d2, %d1;",
        "cvt.rz.bf16.s64 %h11, %d2;",
        "cvt.rni.u8.f16 %h7, %h11;",
        "st.global.b16 [%out], %h7;",
    ];
    untouched(&one, [0; 4], D);
}
