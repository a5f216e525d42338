//! Tests of M widened to `.relu` producers after seed 4103's trace (corpus/findings/fuzz-h200-4103/,
//! `trace/T10z2.md` section 4ad93098, `trace/4ad93098/`; helper e2, session 42): the byte mask of
//! an `F2FP` result in a pack's low half is dropped by ptxas 13.0.88 -O3 whether or not the `cvt`
//! has `.relu`, for fp8x2 producers from `.f32` or `.f16x2` and for f16/bf16 ones, with each byte
//! mask spelling (the compiled variants: `trace/T11e2.md`). Each: the traced and compiled wrong
//! variants emulated with the listing's value, the variants the listings show right (13.0.88 keeps
//! `LOP3.LUT …, 0xff`) left alone.

use super::*;

/// The traced program's shape: `producer` (writing h2 from r0, the first input word), `mask` (h2 to
/// h2), then `tail` (h4 is the low half of the second input word, 0x1234).
fn with(producer: &'static str, mask: &'static str, tail: &[&'static str]) -> Vec<&'static str> {
    let head = ["ld.global.b32 %r0, [%in];", producer, mask, "ld.global.b16 %h4, [%in+4];"];
    [&head[..], tail].concat()
}

/// The finding's store: h2 the low half of `st.v2.b16`.
const LOW_HALF: [&str; 1] = ["st.global.v2.b16 [%out], {%h2, %h4};"];

/// 57344.0, e5m2 0x7b (the finding's byte, both bytes of the pair from one source).
const E5M2_MAX: [u32; 4] = [0x4760_0000, 0x1234, 0, 0];

/// 448.0, e4m3 0x7e.
const E4M3_MAX: [u32; 4] = [0x43e0_0000, 0x1234, 0, 0];

/// 4ad93098 (reduced.ptx, 13.0.88 -O3 `F2FP.SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C R9, R0, R0, RZ;
/// PRMT R3, R9, 0x5410, R6`, no `LOP3 0xff`; 13.5 `LOP3.LUT R0, R0, 0xff`): `cvt.u8.u16` (§9.7.9.21,
/// the low byte zero-extended) of a `.relu` e5m2x2 pair stores both bytes, 0x7b7b for 0x007b; so do
/// `v1_no_relu`, `v2_e4m3` (`.relu`), `v3_u16_u8` (`cvt.u16.u8`) and `v5_and_ff` (`and.b16 0xff`).
#[test]
fn m_4ad93098_a_relu_fp8x2_byte_mask_is_dropped_in_a_pack_low_half() {
    let d = Deviation::F16MaskDropped;
    let relu_e5m2 = "cvt.rn.relu.satfinite.e5m2x2.f32 %h2, %r0, %r0;";
    let u8_u16 = "cvt.u8.u16 %h2, %h2;";
    exact_case(&with(relu_e5m2, u8_u16, &LOW_HALF), E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
    let no_relu = "cvt.rn.satfinite.e5m2x2.f32 %h2, %r0, %r0;";
    exact_case(&with(no_relu, u8_u16, &LOW_HALF), E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
    let relu_e4m3 = "cvt.rn.relu.satfinite.e4m3x2.f32 %h2, %r0, %r0;";
    exact_case(&with(relu_e4m3, u8_u16, &LOW_HALF), E4M3_MAX, d, 0x1234_007e, 0x1234_7e7e);
    exact_case(&with(relu_e5m2, "cvt.u16.u8 %h2, %h2;", &LOW_HALF), E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
    exact_case(&with(relu_e5m2, "and.b16 %h2, %h2, 0xff;", &LOW_HALF), E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
}

/// The neighbours compiled for this widening (ptxas 13.0.88 -O3, 13.5 right with `LOP3 0xff` in
/// each): a `.relu` fp8x2 pair from `.f16x2` (`F2FP.SATFINITE.RELU.E4M3.F16.UNPACK_B_MERGE_C R9, R0,
/// RZ; PRMT R3, R9, 0x5410, R6`), the other byte masks (`cvt.s16.u8`, `cvt.u8.{s16,s8,u8}`, a moved
/// 0xff, another immediate), and the low half of a `mov.b32`, of the second word of a `mov.b64`
/// and of lane 2 of `st.v4.b16` (`PRMT R3, R9, 0x5410, R6` each, no `LOP3`).
#[test]
fn m_a_relu_fp8x2_result_loses_every_byte_mask_in_every_low_half() {
    let d = Deviation::F16MaskDropped;
    let relu_e5m2 = "cvt.rn.relu.satfinite.e5m2x2.f32 %h2, %r0, %r0;";
    // f16x2 {0x5800 = 128.0, 0x5f00 = 448.0}: the e4m3 pair 0x70, 0x7e.
    let from_f16x2 = "cvt.rn.relu.satfinite.e4m3x2.f16x2 %h2, %r0;";
    let f16x2 = [0x5800_5f00, 0x1234, 0, 0];
    exact_case(&with(from_f16x2, "cvt.u8.u16 %h2, %h2;", &LOW_HALF), f16x2, d, 0x1234_007e, 0x1234_707e);
    let e5m2_relu_f16x2 = "cvt.rn.relu.satfinite.e5m2x2.f16x2 %h2, %r0;";
    // f16x2 {0x4000 = 2.0, 0x3c00 = 1.0}: the e5m2 pair 0x40, 0x3c.
    exact_case(
        &with(e5m2_relu_f16x2, "and.b16 %h2, %h2, 0xff;", &LOW_HALF),
        [0x4000_3c00, 0x1234, 0, 0],
        d,
        0x1234_003c,
        0x1234_403c,
    );
    for mask in ["cvt.s16.u8 %h2, %h2;", "cvt.u8.s16 %h2, %h2;", "cvt.u8.s8 %h2, %h2;", "cvt.u8.u8 %h2, %h2;"] {
        exact_case(&with(relu_e5m2, mask, &LOW_HALF), E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
    }
    let moved = ["ld.global.b32 %r0, [%in];", relu_e5m2, "mov.b16 %h9, 0xff;", "and.b16 %h2, %h2, %h9;"];
    let moved = [&moved[..], &["ld.global.b16 %h4, [%in+4];"], &LOW_HALF[..]].concat();
    exact_case(&moved, E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
    exact_case(&with(relu_e5m2, "and.b16 %h2, %h2, 0xf0;", &LOW_HALF), E5M2_MAX, d, 0x1234_0070, 0x1234_7b7b);
    let mov_b32 = ["mov.b32 %r5, {%h2, %h4};", "st.global.b32 [%out], %r5;"];
    exact_case(&with(relu_e5m2, "cvt.u8.u16 %h2, %h2;", &mov_b32), E5M2_MAX, d, 0x1234_007b, 0x1234_7b7b);
    let mov_b64 = ["mov.b64 %d0, {%h4, %h4, %h2, %h4};", "st.global.b64 [%out], %d0;"];
    let (spec, bug) = (0x1234_007b_1234_1234, 0x1234_7b7b_1234_1234);
    exact_case(&with(relu_e5m2, "cvt.u8.u16 %h2, %h2;", &mov_b64), E5M2_MAX, d, spec, bug);
    let v4 = ["st.global.v4.b16 [%out], {%h4, %h4, %h2, %h4};"];
    exact_case(&with(relu_e5m2, "cvt.u8.u16 %h2, %h2;", &v4), E5M2_MAX, d, spec, bug);
}

/// `.relu` f16 and bf16 producers the same (13.0.88 -O3 `F2FP.RELU.F16.F32.MERGE_C R0, R0, RZ`,
/// `F2FP.RELU.BF16.F32.MERGE_C`, `F2FP.SATFINITE.RELU.F16.F32.MERGE_C`, `…MERGE_C.RZ`, then `PRMT
/// R0, R0, 0x5410, RZ; PRMT R3, R0, 0x5410, R6`, no `LOP3`, with `and.b16 0x7f` or `cvt.u8.u16`;
/// 13.5 `LOP3.LUT R0, R0, 0x7f` / `0xff`).
#[test]
fn m_a_relu_f16_or_bf16_result_loses_an_immediate_or_byte_mask_in_a_pack_low_half() {
    let d = Deviation::F16MaskDropped;
    // 1 + 2^-10: f16 0x3c01, bf16 0x3f80.
    let one_ulp = [0x3f80_2000, 0x1234, 0, 0];
    for cvt in
        ["cvt.rn.relu.f16.f32 %h2, %r0;", "cvt.rz.relu.f16.f32 %h2, %r0;", "cvt.rn.relu.satfinite.f16.f32 %h2, %r0;"]
    {
        exact_case(&with(cvt, "and.b16 %h2, %h2, 0x7f;", &LOW_HALF), one_ulp, d, 0x1234_0001, 0x1234_3c01);
        exact_case(&with(cvt, "cvt.u8.u16 %h2, %h2;", &LOW_HALF), one_ulp, d, 0x1234_0001, 0x1234_3c01);
    }
    // 0x3f812345 rounds to bf16 0x3f81.
    let bf16 = "cvt.rn.relu.bf16.f32 %h2, %r0;";
    exact_case(
        &with(bf16, "cvt.u8.u16 %h2, %h2;", &LOW_HALF),
        [0x3f81_2345, 0x1234, 0, 0],
        d,
        0x1234_0081,
        0x1234_3f81,
    );
}

/// Right on 13.0.88 -O3 (`LOP3.LUT …, 0xff` kept, as 13.5): the `.relu` pair stored alone
/// (`v4_store_alone`, `STG.E.U16`), as the high half (`v6_high_half`, `PRMT R7, R7, 0x5410, R0`),
/// the high half of `mov.b32` and of `mov.b64`'s first word, lane 1 of `st.v4.b16`, an 8-bit
/// store, a 32-bit extension; a sign extension (`cvt.s8.s16`, `cvt.s16.s8`: `PRMT 0x8880`) and
/// a saturation (`cvt.sat.u8.u16`: `ISETP; SEL; LOP3 0xff`) are no masks.
#[test]
fn m_a_relu_fp8x2_byte_mask_is_kept_outside_a_pack_low_half() {
    let d = Deviation::F16MaskDropped;
    let relu_e5m2 = "cvt.rn.relu.satfinite.e5m2x2.f32 %h2, %r0, %r0;";
    let u8_u16 = "cvt.u8.u16 %h2, %h2;";
    for tail in [
        &["st.global.b16 [%out], %h2;"][..],
        &["st.global.v2.b16 [%out], {%h4, %h2};"],
        &["mov.b32 %r5, {%h4, %h2};", "st.global.b32 [%out], %r5;"],
        &["mov.b64 %d0, {%h4, %h2, %h4, %h4};", "st.global.b64 [%out], %d0;"],
        &["st.global.v4.b16 [%out], {%h4, %h2, %h4, %h4};"],
        &["st.global.b8 [%out], %h2;"],
        &["cvt.u32.u16 %r5, %h2;", "st.global.b32 [%out], %r5;"],
    ] {
        untouched(&with(relu_e5m2, u8_u16, tail), E5M2_MAX, d);
    }
    for mask in ["cvt.s8.s16 %h2, %h2;", "cvt.s16.s8 %h2, %h2;", "cvt.sat.u8.u16 %h2, %h2;"] {
        untouched(&with(relu_e5m2, mask, &LOW_HALF), E5M2_MAX, d);
    }
}
