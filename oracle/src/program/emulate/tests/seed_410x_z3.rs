//! Tests of four emulations widened after seeds 4102 and 4103's traces
//! (corpus/findings/fuzz-h200-4102/trace/T9y2.md, corpus/findings/fuzz-h200-4103/trace/T9y3.md;
//! helper z3, session 41): G's byte source as `ld.b8` (78ee4405), F's f32 conversion through a
//! 32-bit zero extension of `abs.s16` (6d10fa02), 3701-N-D's `.b8` vector elements and
//! duplicate byte packs (efcd1a77, 197cef57, 166f4fba), 3602-N4 read by `cvt.s32.u16`
//! (c3105f61). Each: the traced form emulated, the neighbours the listings show right left alone.

use super::*;

/// G (78ee4405: `ld.global.b8 h0; cvt.s64.u8 d0, h0; mov.b64 {_, h1, _, _}, d0; st.s8 h1` is
/// `LDG.E.U8 R3; STG.E.S8 R3`, 13.0.88 and 13.5 -O3): h1 reads as the byte (0xaf at byte 1, the
/// spec's 0); the 32-bit form (`v7_ld_b8_u32`: `cvt.u32.u8; mov.b32 {_, h1}`, `STG.E.U16 R3`)
/// and a scalar `ld.b16` straight into the word (§9.7.9.8, zero-extended as `ld.u16` is) the same.
/// Right: `ld.s8` (v2) and a `ld.b16` whose high byte the `cvt.u64.u8` must clear (v3).
#[test]
fn g_78ee4405_a_b8_byte_zero_extended_reads_as_the_value_in_the_high_half() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let wide = |ld: &'static str| {
        [ld, "cvt.s64.u8 %d0, %h0;", "mov.b64 {_, %h1, %h3, %h4}, %d0;", "st.global.s8 [%out+1], %h1;"]
    };
    let words = [0x9daf_1b9a, 0, 0, 0];
    exact_case(&wide("ld.global.b8 %h0, [%in+2];"), words, d, 0, 0xaf00);
    let narrow =
        ["ld.global.b8 %h0, [%in+2];", "cvt.u32.u8 %r1, %h0;", "mov.b32 {_, %h1}, %r1;", "st.global.b16 [%out], %h1;"];
    exact_case(&narrow, words, d, 0, 0xaf);
    let direct = ["ld.global.b16 %r1, [%in+2];", "mov.b32 {_, %h1}, %r1;", "st.global.b16 [%out], %h1;"];
    exact_case(&direct, words, d, 0, 0x9daf);
    untouched(&wide("ld.global.s8 %h0, [%in+2];"), words, d);
    untouched(&wide("ld.global.b16 %h0, [%in+2];"), words, d);
}

/// F (6d10fa02: `abs.s16 h1, h0; cvt.u32.u16 r1, h1; cvt.rn.sat.f32.s32 r2, r1` of −32768 is
/// `IABS; PRMT 0x7710; I2F.S16; FADD.SAT`, 13.0.88 and 13.5 -O3): 0.0 where the spec's 32768.0
/// saturates to 1.0; without `.sat` (v1) and from `.u32` (v4) −32768.0; `cvt.s32.u16` and a `mov`
/// copy between the same. Right: `neg.s16` (v2), another value, `.f16`/`.f64` destinations (v5,
/// v6), a 64-bit extension read as `.s64` (v7), an abs ptxas knows.
#[test]
fn f_6d10fa02_an_f32_cvt_of_a_zero_extended_abs_s16_converts_it_as_signed() {
    let d = Deviation::NegationOverflow;
    let chain = |op: &'static str, ext: &'static str, f32: &'static str| {
        ["ld.global.b16 %h0, [%in];", op, ext, "mov.b32 %r3, %r1;", f32, "st.global.b32 [%out], %r2;"]
    };
    let (abs, ext) = ("abs.s16 %h1, %h0;", "cvt.u32.u16 %r1, %h1;");
    let min = [0x8000, 0, 0, 0];
    exact_case(&chain(abs, ext, "cvt.rn.sat.f32.s32 %r2, %r3;"), min, d, 0x3f80_0000, 0);
    exact_case(&chain(abs, ext, "cvt.rn.f32.s32 %r2, %r3;"), min, d, 0x4700_0000, 0xc700_0000);
    exact_case(&chain(abs, ext, "cvt.rn.f32.u32 %r2, %r3;"), min, d, 0x4700_0000, 0xc700_0000);
    exact_case(&chain(abs, "cvt.s32.u16 %r1, %h1;", "cvt.rz.f32.u32 %r2, %r3;"), min, d, 0x4700_0000, 0xc700_0000);
    untouched(&chain("neg.s16 %h1, %h0;", ext, "cvt.rn.sat.f32.s32 %r2, %r3;"), min, d);
    untouched(&chain(abs, ext, "cvt.rn.sat.f32.s32 %r2, %r3;"), [0x8001, 0, 0, 0], d);
    let f16 = ["ld.global.b16 %h0, [%in];", abs, ext, "cvt.rn.f16.s32 %h2, %r1;", "st.global.b16 [%out], %h2;"];
    untouched(&f16, min, d);
    let f64 = ["ld.global.b16 %h0, [%in];", abs, ext, "cvt.rn.f64.s32 %d2, %r1;", "st.global.b64 [%out], %d2;"];
    untouched(&f64, min, d);
    let u64 = ["ld.global.b16 %h0, [%in];", abs, "cvt.u64.u16 %d1, %h1;", "cvt.rn.f32.s64 %r2, %d1;"];
    untouched(&[&u64[..], &["st.global.b32 [%out], %r2;"]].concat(), min, d);
    let known = ["mov.b16 %h0, 0x8000;", abs, ext, "cvt.rn.f32.s32 %r2, %r1;", "st.global.b32 [%out], %r2;"];
    untouched(&known, min, d);
}

/// 3701-N-D with h an element of a `.v2.b8` load (efcd1a77, 197cef57: `PRMT R9, R4, 0x7771,
/// RZ; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R9, RZ, R8, R9; LOP3.LUT R9, R10, R9, …`, 13.0.88
/// and 13.5 -O3): the later `xor.b16` (or `or.b16`) of the pair and h reads the pair for h.
/// A scalar `ld.b8` (`v2_scalar_b8`) is right.
#[test]
fn nd_efcd1a77_a_v2_b8_element_beside_a_merge_c_pair_is_the_pair_later() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |ld: &'static str, op: &'static str| {
        [
            "ld.global.f32 %r0, [%in];",
            ld,
            "mov.b32 %r1, 0;",
            "cvt.rn.satfinite.e5m2x2.f32 %h2, %r1, %r0;",
            "mov.b32 %r3, {%h2, %h0};",
            op,
            "st.global.b32 [%out], %r3;",
            "st.global.b16 [%out+4], %h20;",
        ]
    };
    let words = [0x3f80_0000, 0x2100, 0, 0];
    let (v2, v4) = ("ld.global.v2.b8 {%h5, %h0}, [%in+4];", "ld.global.v4.b8 {%h5, %h0, %h6, %h7}, [%in+4];");
    exact_case(&with(v2, "xor.b16 %h20, %h2, %h0;"), words, d, 0x1d_0021_003c, 0x0021_003c);
    exact_case(&with(v4, "or.b16 %h20, %h2, %h0;"), words, d, 0x3d_0021_003c, 0x3c_0021_003c);
    untouched(&with("ld.global.b8 %h0, [%in+5];", "xor.b16 %h20, %h2, %h0;"), words, d);
}

/// 3701-N-D through two identical byte packs (166f4fba: `h3 = {c0, c0}` beside the pair in
/// `st.v2.s16 {h2, h3}`, `h9 = {c0, c0}` stored later; 13.0.88 and 13.5 -O3 `PRMT R7, R0, 0x6540,
/// R0; F2FP…UNPACK_B_MERGE_C R7, RZ, R7; STG.E.U16 [+8], R7`): ptxas numbers h9 as h3, so h9's
/// store takes the pair (0), the spec's 0x0606. `{c0, c1}` (v2) and `{c1, c0}` (v3) are right.
#[test]
fn nd_166f4fba_an_identical_byte_pack_is_numbered_as_the_destroyed_half() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |h9: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "mov.b32 %r1, 0;",
            "cvt.rn.satfinite.e5m2x2.f16x2 %h2, %r1;",
            "mov.b32 {%c0, %c1, %c2, _}, %r0;",
            "mov.b16 %h3, {%c0, %c0};",
            h9,
            "st.global.v2.s16 [%out], {%h2, %h3};",
            "st.global.u16 [%out+4], %h9;",
        ]
    };
    let words = [0x0706_0506, 0, 0, 0];
    exact_case(&with("mov.b16 %h9, {%c0, %c0};"), words, d, 0x0606_0606_0000, 0x0606_0000);
    untouched(&with("mov.b16 %h9, {%c0, %c1};"), words, d);
    untouched(&with("mov.b16 %h9, {%c1, %c0};"), words, d);
}

/// 3602-N4 read by `cvt.s32.u16` (c3105f61: `ld.b8; cvt.u64.s8; cvt.s8.u64; cvt.s32.u16` is
/// `PRMT R0, R2, 0x8880, RZ; MOV R7, R0`, 13.0.88 -O3): 0xffffff81 where the spec zero-extends
/// 0xff81. `cvt.s64.u16` is right (`v2_s64_u16`: `LOP3 0xffff`).
#[test]
fn n4_3602_c3105f61_a_round_trip_read_by_cvt_s32_u16_is_sign_extended() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let with = |ext: &'static str, st: &'static str| {
        ["ld.global.b8 %h0, [%in];", "cvt.u64.s8 %d0, %h0;", "cvt.s8.u64 %h1, %d0;", ext, st]
    };
    let words = [0x81, 0, 0, 0];
    exact_case(&with("cvt.s32.u16 %r4, %h1;", "st.global.u32 [%out], %r4;"), words, d, 0xff81, 0xffff_ff81);
    untouched(&with("cvt.s64.u16 %d4, %h1;", "st.global.u64 [%out], %d4;"), words, d);
}
