//! Tests of 3701-N-D widened to if-converted writers of the destroyed half (helper v4, session
//! 42; corpus/findings/fuzz-h200-4202/trace/T12b3.md, a36272a5, and T12b4.md, bc46b617;
//! `emulate/merge_c_half_of_an_if_converted_write.rs`): a guarded write of h of a known value or a guarded 16-bit ALU
//! result (one `SEL`, or a predicated ALU instruction), beside an fp8 pair packed in place (and a
//! `selp.b16` of constants, in scope before, pinned). Each traced wrong variant is emulated; the right ones (a guarded
//! `cvt` of a loaded value) are left alone.

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// a36272a5's `reduced.ptx` with h0's last writer `writer` (and `setp` of word 0 for `%tix`):
/// the pair (e4m3x2 of 0.0, 0) is packed beside h0, and `add.u16 h15, h0, h0` reads h0 after.
fn a36272a5(h0: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r0, [%in];", "setp.le.s32 %p0, %r0, 624229717;"];
    lines.extend_from_slice(h0);
    lines.extend([
        "cvt.rn.satfinite.e4m3x2.f32 %h1, %r0, %r0;",
        "mov.b32 %r6, {%h1, %h0};",
        "add.u16 %h15, %h0, %h0;",
        "st.global.u32 [%out], %r6;",
        "st.global.u16 [%out+4], %h15;",
    ]);
    lines
}

/// a36272a5 (`SEL R0, R0, 0x1, P0; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R5, R5, R0;
/// IMAD.IADD R5, R0, 0x1, R0`, 13.0.88 and 13.5 -O3): `@!p0 cvt.f16.f16 h0, h0` of a moved 1
/// is built over by the pair, so h15 = 0 + 0 where the spec's is 1 + 1.
#[test]
fn nd_a36272a5_a_guarded_cvt_of_a_moved_constant_is_the_pair_later() {
    let h0 = ["mov.b16 %h0, 1;", "@!%p0 cvt.f16.f16 %h0, %h0;"];
    exact_case(&a36272a5(&h0), [0; 4], D, 0x2_0001_0000, 0x0_0001_0000);
}

/// a36272a5's `v2_guarded_mov` (`@!p0 mov.b16 h0, 7`, a SEL of two constants): wrong alike.
#[test]
fn nd_a36272a5_v2_a_guarded_mov_of_an_immediate_is_the_pair_later() {
    let h0 = ["mov.b16 %h0, 1;", "@!%p0 mov.b16 %h0, 7;"];
    exact_case(&a36272a5(&h0), [0; 4], D, 0x2_0001_0000, 0x0_0001_0000);
}

/// a36272a5's `v3_selp` (`selp.b16 h0, h0, cvt.f16.f16(h0), p0` of a moved 1): wrong alike.
/// Pinned only: in scope before this widening too (`computed_half` counts the predicate as
/// the selp's non-constant source).
#[test]
fn nd_a36272a5_v3_a_selp_of_constants_is_the_pair_later() {
    let h0 = ["mov.b16 %h0, 1;", "cvt.f16.f16 %h3, %h0;", "selp.b16 %h0, %h0, %h3, %p0;"];
    exact_case(&a36272a5(&h0), [0; 4], D, 0x2_0001_0000, 0x0_0001_0000);
}

/// a36272a5's `v5_guarded_loaded_cvt` (`@!p0 cvt.f16.f16` of a loaded h0: `@P0 HADD2`, the
/// pair built in another register): right.
#[test]
fn nd_a36272a5_v5_a_guarded_cvt_of_a_loaded_half_is_right() {
    let h0 = ["ld.global.u16 %h0, [%in+4];", "@!%p0 cvt.f16.f16 %h0, %h0;"];
    untouched(&a36272a5(&h0), [0, 1, 0, 0], D);
}

/// bc46b617's `reduced.ptx` forms: a loaded h0 (word 2) rewritten by `writer` under `@p2`
/// (p2: word 1 ≠ 0), the e4m3x2 pair of word 1 packed beside it in `r12 = {h1, h0}`, and `r14
/// = {h0, h0}` added.
fn bc46b617(writer: &'static str) -> [&'static str; 10] {
    [
        "ld.global.b16 %h0, [%in+8];",
        "ld.global.b32 %r0, [%in+4];",
        "setp.ne.u32 %p2, %r0, 0x0;",
        "mov.b32 %r10, 0;",
        writer,
        "cvt.rn.satfinite.e4m3x2.f16x2 %h1, %r0;",
        "mov.b32 %r12, {%h1, %h0};",
        "mov.b32 %r14, {%h0, %h0};",
        "add.u32 %r15, %r12, %r14;",
        "st.global.u32 [%out], %r15;",
    ]
}

/// bc46b617's input: word 1 = f16x2 {0, 0xae4f} (the pair 0x9d00), h0 loaded 0x1234.
const BC46B617_WORDS: [u32; 4] = [0, 0xae4f_0000, 0x1234, 0];

/// bc46b617 (`SEL R7, R7, R2, P0; F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R0, R7; PRMT R0,
/// R7, 0x5410, R7`, 13.0.88 and 13.5 -O3): `@p2 cvt.rn.satfinite.e5m2x2.f16x2 h0, r10` of a
/// moved 0 is built over, so r14 = {pair, pair}: 0x9d00 + 0x9d009d00 (the GPU's 0x9d013a00)
/// where the spec's is 0x9d00 + 0.
#[test]
fn nd_bc46b617_a_guarded_fp8_cvt_of_a_moved_zero_is_the_pair_later() {
    let lines = bc46b617("@%p2 cvt.rn.satfinite.e5m2x2.f16x2 %h0, %r10;");
    exact_case(&lines, BC46B617_WORDS, D, 0x9d00, 0x9d01_3a00);
}

/// bc46b617's `v2_guarded_mov_imm` (`@p2 mov.b16 h0, 0`) and `v1_guarded_add` (`@p2 add.u16
/// h0, h0, 3` of the loaded h0: `@P0 VIADD R0; MERGE_C R0, R7, R0`): wrong alike; helper v4,
/// 13.0.88 -O3: `@p2 add.u16 h0, h3, 5` of a moved h3 (`SEL R7, R0, 0x7, !P0`) too.
#[test]
fn nd_bc46b617_v1_v2_guarded_mov_and_add_are_the_pair_later() {
    exact_case(&bc46b617("@%p2 mov.b16 %h0, 0;"), BC46B617_WORDS, D, 0x9d00, 0x9d01_3a00);
    let add = bc46b617("@%p2 add.u16 %h0, %h0, 3;");
    exact_case(&add, BC46B617_WORDS, D, 0x1237_9d00 + 0x1237_1237, 0x1237_9d00 + 0x9d00_9d00);
    let moved = [&["mov.b16 %h3, 2;"][..], &bc46b617("@%p2 add.u16 %h0, %h3, 5;")].concat();
    exact_case(&moved, BC46B617_WORDS, D, 0x0007_9d00 + 0x0007_0007, 0x0007_9d00 + 0x9d00_9d00);
}

/// Helper v4, 13.0.88 -O3: `selp.b16 h0, 7, 3, p2` (`SEL R7, R7, 0x3, P0; MERGE_C R7, R2, R7`;
/// here the 7 moved, as the oracle's glue reads it) is wrong alike. Pinned only: in scope
/// before (`computed_half`, the predicate a non-constant source).
#[test]
fn nd_bc46b617_a_selp_of_constants_is_the_pair_later() {
    let selp = [&["mov.b16 %h3, 7;"][..], &bc46b617("selp.b16 %h0, %h3, 3, %p2;")].concat();
    exact_case(&selp, BC46B617_WORDS, D, 0x0007_9d00 + 0x0007_0007, 0x0007_9d00 + 0x9d00_9d00);
}

/// bc46b617's `v9_guarded_cvt_of_loaded` and `v6_guarded_cvt_f16` (a guarded cvt of the loaded
/// r0: `@!P0 LDG.E.U16 R7`, the pair built in another register): right.
#[test]
fn nd_bc46b617_v9_v6_a_guarded_cvt_of_a_loaded_word_is_right() {
    untouched(&bc46b617("@%p2 cvt.rn.satfinite.e5m2x2.f16x2 %h0, %r0;"), BC46B617_WORDS, D);
    untouched(&bc46b617("@%p2 cvt.rn.f16.f32 %h0, %r0;"), BC46B617_WORDS, D);
}
