//! Tests of 3701-N-D widened by session 45's traces (helper w1;
//! `emulate/merge_c_relu_u8_of_64_guarded_over_constant.rs`): a `.relu` pair (seed 4501's
//! b4024b2c), a `cvt.u8.{u64,s64}` half (seed 4501's a3e35b85; both corpus/findings/
//! fuzz-h200-4501/trace/T16t3.md) and a guarded write of any value over a moved constant half
//! (seed 4503's dd2be460, corpus/findings/fuzz-h200-4503/trace/T16t5.md). Each traced wrong
//! variant gives the GPU's words; the right neighbours are left alone.

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// a3e35b85's `reduced.ptx` with h1 = `cvt` of the loaded d0 (words 0-1): `r2 = {pair, h1}`
/// stored at word 0, r2's high half (an unpack) at word 1's high half.
fn a3e35b85(cvt: &'static str) -> [&'static str; 8] {
    [
        "ld.global.s64 %d0, [%in];",
        cvt,
        "mov.b32 %r0, 0;",
        "cvt.rn.satfinite.e4m3x2.f32 %h0, %r0, %r0;",
        "mov.b32 %r2, {%h0, %h1};",
        "mov.b32 {%h7, %h8}, %r2;",
        "st.global.u16 [%out+6], %h8;",
        "st.global.u32 [%out], %r2;",
    ]
}

/// a3e35b85's input word ([in+24] of the case).
const A3E35B85_WORDS: [u32; 4] = [0x3043_5885, 0, 0, 0];

/// a3e35b85 (`LOP3.LUT R7, R2, 0xff, RZ, 0xc0; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, RZ,
/// RZ, R7; …; STG.E.U16 [+0x6], R7`, 13.0.88 and 13.5 -O3): r2's high half is stored as the
/// pair 0 where the spec's is 0x85; `v2_cvt_u8_u64` alike.
#[test]
fn nd_a3e35b85_a_cvt_u8_of_a_64_bit_register_is_the_pair_later() {
    for cvt in ["cvt.u8.s64 %h1, %d0;", "cvt.u8.u64 %h1, %d0;"] {
        exact_case(&a3e35b85(cvt), A3E35B85_WORDS, D, 0x0085_0000_0085_0000, 0x0000_0000_0085_0000);
    }
}

/// a3e35b85's right variants (`MERGE_C R9, RZ, RZ, R7; PRMT R7, R9, 0x7632, R7`):
/// `v3_cvt_u16_s64`, `v4_cvt_u16_u64`, `v5_cvt_s16_s64`, `v6_cvt_s8_s64`.
#[test]
fn nd_a3e35b85_v3_to_v6_other_conversions_of_a_64_bit_register_are_right() {
    for cvt in ["cvt.u16.s64 %h1, %d0;", "cvt.u16.u64 %h1, %d0;", "cvt.s16.s64 %h1, %d0;", "cvt.s8.s64 %h1, %d0;"] {
        untouched(&a3e35b85(cvt), A3E35B85_WORDS, D);
    }
}

/// b4024b2c's `reduced.ptx` with the pair written by `pair` from the loaded r0 (word 0): `d1 =
/// {pair, h3, h2, h3}` with h2, h3 the elements of a `.v2.s8` load (word 2's bytes), stored.
fn b4024b2c(pair: &'static str) -> [&'static str; 5] {
    [
        "ld.global.v2.s8 {%h2, %h3}, [%in+8];",
        "ld.global.b32 %r0, [%in];",
        pair,
        "mov.b64 %d1, {%h0, %h3, %h2, %h3};",
        "st.global.b64 [%out], %d1;",
    ]
}

/// b4024b2c's thread 0: [in] = 0xb9df7f7e (the pair 0x007f: relu of 0xb9df is 0, NaN 0x7f7e is
/// 0x7f), h2 = h3 = 0xffc1.
const B4024B2C_WORDS: [u32; 4] = [0xb9df_7f7e, 0, 0xc1c1, 0];

/// Checks `lines` emulating 3701-N-D: the spec's d1 with element 3 (h3) the pair, element 0.
fn element_3_is_the_pair(lines: &[&str]) {
    let (s, e, fired) = both(lines, B4024B2C_WORDS, D);
    let spec = s.bits as u64;
    let bug = (spec & 0x0000_ffff_ffff_ffff) | ((spec & 0xffff) << 48);
    assert!(s.is_exact() && spec >> 16 == 0xffc1_ffc1_ffc1, "spec of {lines:?}: {spec:#x}");
    assert_eq!((e.bits as u64, e.is_exact()), (bug, true), "{lines:?}");
    assert_eq!(fired, vec![D]);
}

/// b4024b2c (`F2FP.SATFINITE.RELU.E4M3.F16.UNPACK_B_MERGE_C R8, R11, R8; …; PRMT R7, R3, 0x5410,
/// R8`, 13.0.88 and 13.5 -O3): d1's element 3 is the `.relu` pair; the GPU's word is
/// 0x007f_ffc1_ffc1_007f where the spec's is 0xffc1_ffc1_ffc1_007f. `v2_relu_e5m2` and
/// `v3_relu_f32` (`PACK_AB_MERGE_C R7, R6, R0, R7`) alike.
#[test]
fn nd_b4024b2c_a_relu_pair_is_built_in_place_too() {
    let exact = b4024b2c("cvt.rn.relu.satfinite.e4m3x2.f16x2 %h0, %r0;");
    exact_case(&exact, B4024B2C_WORDS, D, 0xffc1_ffc1_ffc1_007f, 0x007f_ffc1_ffc1_007f);
    element_3_is_the_pair(&b4024b2c("cvt.rn.relu.satfinite.e5m2x2.f16x2 %h0, %r0;"));
    element_3_is_the_pair(&b4024b2c("cvt.rn.relu.satfinite.e4m3x2.f32 %h0, %r0, %r0;"));
}

/// b4024b2c's right variant `v6_f16_relu_not_pair` (`cvt.rn.relu.f16.f32`: `F2FP.RELU.F16.F32
/// .PACK_AB`, no MERGE_C): `.relu` alone widens nothing.
#[test]
fn nd_b4024b2c_v6_a_relu_f16_conversion_is_right() {
    untouched(&b4024b2c("cvt.rn.relu.f16.f32 %h0, %r0;"), B4024B2C_WORDS, D);
}

/// dd2be460's `reduced.ptx` with h1's old value written by `old` and h1 rewritten by `guarded`
/// under `@!p0` (p0: word 0 ≠ 0, so skipped here): `r3 = {h0, h1}` with h0 the e4m3x2 pair of
/// word 0, stored at word 0, and h1 at word 1.
fn dd2be460(old: &'static str, guarded: &'static str) -> [&'static str; 8] {
    [
        "ld.global.b32 %r0, [%in];",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r0;",
        old,
        "setp.ne.s32 %p0, %r0, 0;",
        guarded,
        "mov.b32 %r3, {%h0, %h1};",
        "st.global.b32 [%out], %r3;",
        "st.global.b16 [%out+4], %h1;",
    ]
}

/// dd2be460's input (the pair 0x697e: 70.4 → 0x69, 4680 → satfinite 448 = 0x7e), h2 loaded.
const DD2BE460_WORDS: [u32; 4] = [0x5466_6c92, 0, 0x1234, 0];
const E5M2: &str = "@!%p0 cvt.rn.satfinite.e5m2x2.f16x2 %h1, %r0;";

/// dd2be460 (`SEL R7, R0, RZ, !P0; F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R2, R7; …;
/// STG.E.U16 [+4], R7`, 13.0.88 and 13.5 -O3): the guarded cvt of the loaded r0 over a moved 0
/// is built over, h1 stored as the pair 0x697e where the spec's is 0; `v3_guarded_f16_cvt`,
/// `v6_guarded_mov_of_loaded` and `v4_old_moved_7` (`SEL R7, R0, 0x7, !P0`) alike.
#[test]
fn nd_dd2be460_a_guarded_write_of_a_loaded_value_over_a_moved_constant_is_the_pair_later() {
    let moved_0 = "mov.b16 %h1, 0;";
    exact_case(&dd2be460(moved_0, E5M2), DD2BE460_WORDS, D, 0x697e, 0x697e_0000_697e);
    exact_case(&dd2be460(moved_0, "@!%p0 cvt.rn.f16.f32 %h1, %r0;"), DD2BE460_WORDS, D, 0x697e, 0x697e_0000_697e);
    let v6 = [&["ld.global.b16 %h2, [%in+8];"][..], &dd2be460(moved_0, "@!%p0 mov.b16 %h1, %h2;")].concat();
    exact_case(&v6, DD2BE460_WORDS, D, 0x697e, 0x697e_0000_697e);
    let v4 = dd2be460("mov.b16 %h1, 7;", E5M2);
    exact_case(&v4, DD2BE460_WORDS, D, 0x0007_0007_697e, 0x697e_0007_697e);
}

/// dd2be460's right variants: `v1_old_loaded_right` (h1's old value loaded: `@P0 LDG.E.U16 R7`,
/// the pair built in R9) and `v2_unguarded` (the pair built in R9).
#[test]
fn nd_dd2be460_v1_v2_a_loaded_old_value_or_an_unguarded_write_is_right() {
    untouched(&dd2be460("ld.global.b16 %h1, [%in+8];", E5M2), DD2BE460_WORDS, D);
    let unguarded = "cvt.rn.satfinite.e5m2x2.f16x2 %h1, %r0;";
    untouched(&dd2be460("mov.b16 %h1, 0;", unguarded), DD2BE460_WORDS, D);
}
