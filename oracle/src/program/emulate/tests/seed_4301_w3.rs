//! Tests of 3801-N3 as a value (helper w3, session 43; `emulate/hadd2_sat_pair_reads_guarded_overwrite.rs`): a plain
//! `cvt.sat.f16.f16 d, s` paired into one `HADD2.SAT` with the next `.sat` f16 cvt whose
//! saturation is a separate step reads s after a guarded in-place write between them. Each
//! traced wrong form is emulated; the right variants (ptxas 13.0.88 and 13.5 -O3, compiled by
//! helper w3 on 04f2039a's `reduced.ptx`) are left alone.

use super::*;

const D: Deviation = Deviation::SatCvtPairReadsGuardedOverwrite;

/// 04f2039a's `reduced.ptx` (corpus/findings/fuzz-h200-3801/trace/04f2039a/) with the guarded
/// writer of h1 `writer`, the second `.sat` cvt `second`, and `between` after the first cvt:
/// h2 = sat(h0 >> 8), stored with h0 and h1 (words: h0, p, r3).
fn reduced(writer: &'static str, second: &'static str, between: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.b16 %h0, [%in];",
        "ld.global.u32 %r1, [%in+4];",
        "setp.ne.u32 %p0, %r1, 0;",
        "shr.u16 %h1, %h0, 0x8;",
        "cvt.sat.f16.f16 %h2, %h1;",
    ];
    lines.extend_from_slice(between);
    lines.extend([
        "ld.global.f32 %r3, [%in+8];",
        writer,
        second,
        "st.global.b16 [%out], %h2;",
        "st.global.b16 [%out+2], %h0;",
        "st.global.b16 [%out+4], %h1;",
    ]);
    lines
}

/// h0 = 0xd300 (h1 = 0x00d3, a subnormal sat keeps), p true, r3 = 0.5f (bf16 0x3f00, read as
/// f16 1.75: sat 1.0).
const WORDS: [u32; 4] = [0xd300, 1, 0x3f00_0000, 0];
/// The spec's words: h2 = 0x00d3, h0 = sat(rni(−56)) = 0, h1 = 0x3f00.
const SPEC: u64 = 0x3f00_0000_00d3;
/// The GPU's (`PRMT R3, R9, 0x5410, R8` after `@P0 F2F.BF16.F32 R9, R6`): h2 = sat(0x3f00).
const GPU: u64 = 0x3f00_0000_3c00;

/// 04f2039a's `reduced.ptx` (13.0.88 and 13.5 -O3): h2 saturates the overwritten h1.
#[test]
fn n3_04f2039a_reduced_pair_reads_the_guarded_overwrite() {
    let lines = reduced("@%p0 cvt.rn.bf16.f32 %h1, %r3;", "cvt.rni.sat.f16.f16 %h0, %h0;", &[]);
    exact_case(&lines, WORDS, D, SPEC, GPU);
}

/// The same with the guard false: the register keeps s, the spec's words.
#[test]
fn n3_04f2039a_guard_false_keeps_the_spec() {
    let lines = reduced("@%p0 cvt.rn.bf16.f32 %h1, %r3;", "cvt.rni.sat.f16.f16 %h0, %h0;", &[]);
    untouched(&lines, [0xd300, 0, 0x3f00_0000, 0], D);
}

/// Helper w3's variants (13.0.88 and 13.5 -O3, `@P0 F2F.F16.F32.RP`/`@P0 IADD3` in place, the
/// pack after): an f32 second with a directed rounding, and a guarded `add.u16` writer.
#[test]
fn n3_an_f32_second_and_a_guarded_16_bit_add_are_wrong_alike() {
    let lines = reduced("@%p0 cvt.rn.bf16.f32 %h1, %r3;", "cvt.rp.sat.f16.f32 %h0, %r3;", &[]);
    // h0 = sat(rp(0.5)) = 0x3800.
    exact_case(&lines, WORDS, D, 0x3f00_3800_00d3, 0x3f00_3800_3c00);
    let lines = reduced("@%p0 add.u16 %h1, %h0, 0x6c00;", "cvt.rmi.sat.f16.f16 %h0, %h0;", &[]);
    // h1 = 0xd300 + 0x6c00 = 0x3f00 again.
    exact_case(&lines, WORDS, D, SPEC, GPU);
}

/// 34d36df1 (corpus/findings/fuzz-h200-3903/, trace/T6F.md; 13.0.88 and 13.5 -O3): a loaded
/// h0, `@p cvt.rz.bf16.f32 h0` of a moved 90.84f (0x42b5afd9: bf16 0x42b5, read as f16 3.35),
/// paired with `cvt.rp.sat.f16.f32`: h1 = 1.0 where the spec's is sat(h0).
#[test]
fn n3_34d36df1_a_loaded_source_rewritten_by_a_constant_bf16() {
    let lines = [
        "ld.global.u16 %h0, [%in];",
        "cvt.sat.f16.f16 %h1, %h0;",
        "mov.b32 %r0, 1119203289;",
        "ld.global.u32 %r1, [%in+4];",
        "setp.ne.u32 %p0, %r1, 0;",
        "@%p0 cvt.rz.bf16.f32 %h0, %r0;",
        "cvt.rp.sat.f16.f32 %h2, %r1;",
        "st.global.b16 [%out], %h1;",
        "st.global.b16 [%out+2], %h2;",
    ];
    // h0 = 0x1234 (sat keeps it), r1 = 1 (bits 1, 1.4e-45: h2 = 0x0001 rounded up).
    exact_case(&lines, [0x1234, 1, 0, 0], D, 0x0001_1234, 0x0001_3c00);
}

/// 33bf5631 (corpus/findings/fuzz-h200-4201/trace/audit/T12k1.md; 13.0.88 and 13.5 -O3:
/// `@P0 F2F.BF16.F16 R7, RZ; PRMT R0, R7, 0x5410, R0; HADD2.SAT`): h1 a `mov` copy of an
/// f64 conversion (0x03ff), rewritten by `@!p cvt.bf16.f16 h1, 0` (tix ≠ 30): h4 = 0.
#[test]
fn n3_33bf5631_a_copied_cvt_rewritten_under_not_p() {
    let lines = [
        "ld.global.b64 %d0, [%in];",
        "cvt.rn.f16.f64 %h0, %d0;",
        "mov.b16 %h1, %h0;",
        "mov.b16 %h2, 0;",
        "cvt.sat.f16.f16 %h4, %h1;",
        "mov.b16 %h6, 0;",
        "setp.eq.s32 %p0, %tix, 30;",
        "@!%p0 cvt.bf16.f16 %h1, %h2;",
        "cvt.rmi.sat.f16.f16 %h2, %h6;",
        "mov.b16 %h29, %h4;",
        "st.global.b16 [%out], %h29;",
    ];
    exact_case(&lines, [0, 0x3f0f_f800, 0, 0], D, 0x03ff, 0);
}

/// 04f2039a's `v3_no_rni`: a plain `cvt.sat.f16.f16` second keeps the copy (`MOV R9, R11`).
#[test]
fn n3_04f2039a_v3_a_plain_second_is_right() {
    untouched(&reduced("@%p0 cvt.rn.bf16.f32 %h1, %r3;", "cvt.sat.f16.f16 %h0, %h0;", &[]), WORDS, D);
}

/// 04f2039a's `v1_no_second_sat` (no pair) and helper w3's `add.sat.f16` second: right.
#[test]
fn n3_04f2039a_v1_no_split_second_is_right() {
    untouched(&reduced("@%p0 cvt.rn.bf16.f32 %h1, %r3;", "cvt.rni.f16.f16 %h0, %h0;", &[]), WORDS, D);
}

/// 04f2039a's `v2_unguarded` and `v4_guarded_mov` (a guarded load), helper w3's guarded
/// `mov.b16` of an immediate (a `SEL` into another register): right.
#[test]
fn n3_04f2039a_v2_v4_writers_not_in_place_are_right() {
    let second = "cvt.rni.sat.f16.f16 %h0, %h0;";
    untouched(&reduced("cvt.rn.bf16.f32 %h1, %r3;", second, &[]), WORDS, D);
    untouched(&reduced("@%p0 ld.global.b16 %h1, [%in+8];", second, &[]), WORDS, D);
    untouched(&reduced("@%p0 mov.b16 %h1, 0x3f00;", second, &[]), WORDS, D);
}

/// Helper w3's variants: a store of h2 before the write, or another `.sat` f16 cvt between
/// (it pairs with the first, ahead of the write): right.
#[test]
fn n3_a_reader_or_another_sat_cvt_between_is_right() {
    let (writer, second) = ("@%p0 cvt.rn.bf16.f32 %h1, %r3;", "cvt.rni.sat.f16.f16 %h0, %h0;");
    untouched(&reduced(writer, second, &["st.global.b16 [%out+6], %h2;"]), WORDS, D);
    untouched(&reduced(writer, second, &["cvt.sat.f16.f16 %h3, %h0;"]), WORDS, D);
}

/// 04f2039a's case (cases/04f2039afc4e7b7f.case: `shfl.sync.down` between the first cvt and the
/// write, in one basic block; `F2F` then `PRMT … 0x5410` as in `reduced.ptx`): in scope.
#[test]
fn n3_04f2039a_a_shuffle_between_is_in_scope() {
    let lines = reduced(
        "@%p0 cvt.rn.bf16.f32 %h1, %r3;",
        "cvt.rni.sat.f16.f16 %h0, %h0;",
        &["shfl.sync.idx.b32 %r5|%p1, %r1, 0, 31, -1;"],
    );
    exact_case(&lines, WORDS, D, SPEC, GPU);
}
