//! Tests of 3701-N-D widened by seed 4302's traces (helper y2, session 43;
//! `emulate/merge_c_half_of_u8_cvt_or_truncation.rs`): a float-to-`u8` cvt writing the destroyed half
//! (corpus/findings/fuzz-h200-4302/trace/T14x2.md, df316674) and the 32-bit source of a free
//! `cvt.{u16,s16}.{u32,s32}` half destroyed with it (trace/T14x1.md, 84d08552). Each traced wrong
//! variant gives the GPU's word; the right ones are left alone.

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// df316674's reduction with h1 loaded (word 0 or words 0-1 for f64) and converted by `cvt`,
/// packed beside the e5m2x2 pair 0xe4e4 (of 0xc487f28a) in `r2 = {h0, h1}` (its `v4_movb32_pack`),
/// then `{h1, h1}` stored at word 0 and r2 at word 1.
fn df316674(load: &'static str, cvt: &'static str) -> [&'static str; 8] {
    [
        load,
        cvt,
        "mov.b32 %r9, 3297155466;",
        "cvt.rn.satfinite.e5m2x2.f32 %h0, %r9, %r9;",
        "mov.b32 %r2, {%h0, %h1};",
        "mov.b32 %r3, {%h1, %h1};",
        "st.global.b32 [%out], %r3;",
        "st.global.b32 [%out+4], %r2;",
    ]
}

const F32: &str = "ld.global.f32 %r1, [%in];";
const F64: &str = "ld.global.f64 %d1, [%in];";
/// 3.0 as f32 (word 0), and as f64 (words 0-1).
const THREE_F32: [u32; 4] = [0x4040_0000, 0, 0, 0];
const THREE_F64: [u32; 4] = [0, 0x4008_0000, 0, 0];
/// The spec: h1 = 3 in both halves of word 0, word 1 = {0xe4e4, 3}; the GPU: word 0 the pair twice.
const SPEC: u64 = 0x0003_e4e4_0003_0003;
const GPU: u64 = 0x0003_e4e4_e4e4_e4e4;

/// df316674 (`F2IP.U8.F32.NTZ R0; LOP3.LUT R4, R0, 0xff; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C
/// R4, R7, R7, R4`, 13.0.88 and 13.5 -O3): `cvt.rni.u8.f32` is built over by the pair; its
/// `v10_rzi_u8` and (helper y2, 13.0.88 -O3) `.sat` alike.
#[test]
fn nd_df316674_a_float_to_u8_cvt_of_f32_is_the_pair_later() {
    for cvt in ["cvt.rni.u8.f32 %h1, %r1;", "cvt.rzi.u8.f32 %h1, %r1;", "cvt.rzi.sat.u8.f32 %h1, %r1;"] {
        exact_case(&df316674(F32, cvt), THREE_F32, D, SPEC, GPU);
    }
}

/// df316674's `v11_rni_u8_f64` (`F2I.U8.F64; LOP3 0xff` into R8, `MERGE_C R8, …, R8`) and
/// (helper y2, 13.0.88 -O3) `.rzi`, `.rmi`, `.rpi` of f64 alike.
#[test]
fn nd_df316674_v11_a_float_to_u8_cvt_of_f64_is_the_pair_later() {
    let cvts = [
        "cvt.rni.u8.f64 %h1, %d1;",
        "cvt.rzi.u8.f64 %h1, %d1;",
        "cvt.rmi.u8.f64 %h1, %d1;",
        "cvt.rpi.u8.f64 %h1, %d1;",
    ];
    for cvt in cvts {
        exact_case(&df316674(F64, cvt), THREE_F64, D, SPEC, GPU);
    }
}

/// This reduction with `cvt.rni.u8.f16` (compiled in session 56 by helper t1, seed 5501's
/// 9baa273a: corpus/findings/fuzz-h200-5501/trace/9baa273a/s56/x4_4302_unit_test_form_mov_b32_pack,
/// 13.0.88 and 13.5 -O3 `F2I.U8.F16.NTZ R0, R2; LOP3.LUT R0, R0, 0xff; F2FP.SATFINITE.E5M2.F32.
/// PACK_AB_MERGE_C R0, R9, R9, R0; PRMT R3, R0, 0x5410, R0`) is the pair later too; df316674's own
/// `v12_rni_u8_f16` (a `st.shared.v4 {p, h1, h1, h4}` pack) built the pair in another register.
#[test]
fn nd_df316674_a_float_to_u8_cvt_of_f16_in_a_mov_pack_is_the_pair_later() {
    let f16 = df316674("ld.global.b16 %h5, [%in];", "cvt.rni.u8.f16 %h1, %h5;");
    exact_case(&f16, [0x4200, 0, 0, 0], D, SPEC, GPU);
}

/// df316674's right variants: `v9_rzi_s8`, `v3_rzi_s16`, `v7_loaded_f64_u16`, and (helper y2,
/// 13.0.88 -O3: `F2I`, the pair built in its source's dead register) f32 `.rmi` and `.rzi.ftz`.
#[test]
fn nd_df316674_other_float_conversions_of_the_half_are_right() {
    for cvt in ["cvt.rzi.s8.f32 %h1, %r1;", "cvt.rzi.s16.f32 %h1, %r1;", "cvt.rmi.u8.f32 %h1, %r1;"] {
        untouched(&df316674(F32, cvt), THREE_F32, D);
    }
    untouched(&df316674(F32, "cvt.rzi.ftz.u8.f32 %h1, %r1;"), THREE_F32, D);
    untouched(&df316674(F64, "cvt.rni.u16.f64 %h1, %d1;"), THREE_F64, D);
}

/// 84d08552's reduction with h0 = `cvt` of the loaded r4 (word 1), the e5m2x2 pair of zeros
/// packed beside it by `pack` (r15's word {pair, h0}), then `tail`.
fn d84d08552(cvt: &'static str, pair: &'static str, pack: &'static str, tail: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r4, [%in+4];", cvt, "mov.b32 %r1, 0;", pair, pack];
    lines.extend_from_slice(tail);
    lines
}

const WORDS: [u32; 4] = [0, 0xb143_7d07, 0, 0];
const E5M2: &str = "cvt.rn.satfinite.e5m2x2.f32 %h1, %r1, %r1;";
const U16_U32: &str = "cvt.u16.u32 %h0, %r4;";
const PACK: &str = "mov.b32 %r15, {%h1, %h0};";
const XOR: [&str; 2] = ["xor.b32 %r21, %r15, %r4;", "st.global.u32 [%out], %r21;"];

/// 84d08552 (`LDG.E R0; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R0, RZ, RZ, R0; MOV R0, R0;
/// LOP3.LUT R7, R0, R0, RZ, 0x3c`, 13.0.88 and 13.5 -O3): r4 holds the pack's word 0x7d070000,
/// so r15 ^ r4 = 0 where the spec's is 0x7d070000 ^ 0xb1437d07; `v7_cvt_s16_s32`,
/// `v8_cvt_u16_s32`, `v10_e4m3` alike.
#[test]
fn nd_84d08552_the_source_of_a_free_truncated_half_is_the_pack_later() {
    exact_case(&d84d08552(U16_U32, E5M2, PACK, &XOR), WORDS, D, 0xcc44_7d07, 0);
    for cvt in ["cvt.s16.s32 %h0, %r4;", "cvt.u16.s32 %h0, %r4;"] {
        exact_case(&d84d08552(cvt, E5M2, PACK, &XOR), WORDS, D, 0xcc44_7d07, 0);
    }
    let e4m3 = "cvt.rn.satfinite.e4m3x2.f32 %h1, %r1, %r1;";
    exact_case(&d84d08552(U16_U32, e4m3, PACK, &XOR), WORDS, D, 0xcc44_7d07, 0);
}

/// 84d08552's `v1_store_r4_separately` (both `STG R7`: r4 stored as 0x7d070000), and (helper
/// y2, 13.0.88 -O3) the pack a `st.v2.b16 {pair, h0}` (`MERGE_C R7, RZ, RZ, R7; STG.E R7` twice)
/// alike.
#[test]
fn nd_84d08552_v1_a_store_of_the_source_stores_the_pack() {
    let stored = ["st.global.u32 [%out], %r15;", "st.global.u32 [%out+4], %r4;"];
    let lines = d84d08552(U16_U32, E5M2, PACK, &stored);
    exact_case(&lines, WORDS, D, 0xb143_7d07_7d07_0000, 0x7d07_0000_7d07_0000);
    let v2 = d84d08552(U16_U32, E5M2, "st.global.v2.b16 [%out], {%h1, %h0};", &["st.global.u32 [%out+4], %r4;"]);
    exact_case(&v2, WORDS, D, 0xb143_7d07_7d07_0000, 0x7d07_0000_7d07_0000);
}

/// 84d08552's right variants: `v4_cvt_u8` (a `LOP3` into a fresh register), `v6_pack_h_first_right`,
/// `v9_mov_unpack`, and `v5_cvt_u16_u64_right` (a 64-bit source); and a pack into the source
/// itself (nothing destroyed).
#[test]
fn nd_84d08552_other_sources_of_the_half_are_right() {
    untouched(&d84d08552("cvt.u8.u32 %h0, %r4;", E5M2, PACK, &XOR), WORDS, D);
    untouched(&d84d08552(U16_U32, E5M2, "mov.b32 %r15, {%h0, %h1};", &XOR), WORDS, D);
    untouched(&d84d08552("mov.b32 {%h0, %h2}, %r4;", E5M2, PACK, &XOR), WORDS, D);
    // The pack overwriting the source itself: r4 is then the pack's word by the spec too.
    let own = ["mov.b32 %r4, {%h1, %h0};", "st.global.u32 [%out], %r4;"];
    untouched(&d84d08552(U16_U32, E5M2, own[0], &own[1..]), WORDS, D);
    let u64 = [
        "ld.global.u64 %d0, [%in];",
        "cvt.u16.u64 %h0, %d0;",
        "mov.b32 %r1, 0;",
        E5M2,
        PACK,
        "mov.b64 {%r3, %r4}, %d0;",
        "xor.b32 %r21, %r15, %r3;",
        "st.global.u32 [%out], %r21;",
    ];
    untouched(&u64, WORDS, D);
}
