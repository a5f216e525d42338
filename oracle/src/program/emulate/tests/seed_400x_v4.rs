//! Tests of known root causes widened to their mechanisms after seeds 4002–4003's traces
//! (corpus/findings/fuzz-h200-400{2,3}/trace/T7C.md, T7D.md, T7F.md, T7H.md; helper v4,
//! session 40): 3701 C1-N2, 3301-N3, 3702-N1, 3702-N3, 3601-N1 and 3501-N3. Each: the traced
//! form emulated, a neighbour the listings show right left alone.

use super::*;

/// 3701 C1-N2 with a `.u32` cvt of a `set.f32.u16` (12e77443, T7C.md: `FSEL R7, RZ, 1, !P0`);
/// an `add` in place of the xor (v1) keeps the conversion of the word (right).
#[test]
fn c1n2_3701_any_set_type_and_a_u32_cvt_convert_the_number() {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let with = |logic: &'static str| {
        [
            "ld.global.u32 %r1, [%in];",
            "ld.global.b16 %h3, [%in+4];",
            "ld.global.b16 %h6, [%in+8];",
            "set.gt.f32.u16 %r7, %h3, 0x0;",
            "cvt.rn.f32.u32 %r3, %r7;",
            "set.ge.u32.s32 %r8, %r1, 0;",
            "mov.b32 %r22, {%h6, %h6};",
            logic,
            "st.global.u32 [%out], %r3;",
            "st.global.u32 [%out+4], %r23;",
        ]
    };
    let words = [5, 0xfed5, 7, 0];
    exact_case(&with("xor.b32 %r23, %r8, %r22;"), words, d, 0xfff8_fff8_4e7e_0000, 0xfff8_fff8_3f80_0000);
    untouched(&with("add.u32 %r23, %r8, %r22;"), words, d);
}

/// 3701 C1-N2 triggered by an `xor.b64` of the set.f32's own integer conversion (2fb09e8f,
/// T7H.md: `SEL R7, RZ, 0x3c00, !P0`); the xor of the set word itself (v2) is right.
#[test]
fn c1n2_3701_an_xor_b64_of_the_sets_integer_conversion_triggers() {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let with = |logic: &'static [&'static str]| {
        let mut lines = vec!["ld.global.b32 %r4, [%in];", "set.lt.f32.s32 %r8, %r4, 0;"];
        lines.extend_from_slice(logic);
        lines.extend(["cvt.rn.f16.s32 %h10, %r8;", "st.global.b16 [%out], %h10;"]);
        lines
    };
    let words = [0x89c0_0a6d, 0, 0, 0];
    exact_case(&with(&["cvt.rni.u64.f32 %d1, %r8;", "xor.b64 %d1, %d1, %d1;"]), words, d, 0x7c00, 0x3c00);
    untouched(&with(&["xor.b32 %r9, %r8, %r8;"]), words, d);
}

/// 3601-N1 with the mul.hi result read again by the `subc` (4019c7cf and 139c0307, T7F.md: the
/// mul.hi duplicated, `IADD3.X R7, R0, -0x1, RZ, P0`); a store among the readers is right.
#[test]
fn n1_3601_a_mul_hi_read_by_more_arithmetic_still_borrows() {
    let d = Deviation::SubCcOfMulHiZeroBorrows;
    let with = |ty: &'static str, extra: &'static str| {
        vec![
            "ld.global.u32 %r0, [%in];",
            if ty == "u32" { "mul.hi.u32 %r1, %r0, %r0;" } else { "mul.hi.s32 %r1, %r0, %r0;" },
            extra,
            "sub.cc.u32 %r4, %r1, 0;",
            "subc.u32 %r5, %r1, 0;",
            "st.global.u32 [%out], %r5;",
        ]
    };
    exact_case(&with("u32", "mov.b32 %r9, 0;"), [0; 4], d, 0, 0xffff_ffff);
    exact_case(&with("s32", "mov.b32 %r9, 0;"), [0; 4], d, 0, 0xffff_ffff);
    untouched(&with("u32", "st.global.u32 [%out+4], %r1;"), [0; 4], d);
}

/// 3702-N1 with both max operands constant behind a barrier (73c13b6f, T7D.md: `VIMNMX.U16x2
/// R0, P0, P0, RZ, 0xa1; SEL R5, RZ, 0xab63, !P0`); without the barrier ptxas folds (right).
#[test]
fn n1_3702_an_immediate_x_and_a_moved_k_behind_a_barrier_read_the_selection() {
    let d = Deviation::SetpEqOfMinMaxReadsSelection;
    let with = |barrier: &'static str| {
        [
            "mov.b16 %h0, 161;",
            "mov.b16 %h1, 161;",
            barrier,
            "max.u16 %h3, %h1, 0x0;",
            "setp.eq.s16 %p0, %h3, %h0;",
            "mov.b16 %h20, 43875;",
            "selp.b16 %h22, %h20, 0x0, %p0;",
            "st.global.u8 [%out+2], %h22;",
        ]
    };
    exact_case(&with("bar.sync 0;"), [0; 4], d, 0x0063_0000, 0);
    untouched(&with("mov.b32 %r0, 0;"), [0; 4], d);
}

/// 3702-N3 with an arm of two writes (d82eb12b, T7D.md: 13.0.88 -O3 stores the old 1.0f);
/// an old value 2 (v4_old_2) is right.
#[test]
fn n3_3702_an_arm_with_two_constant_writes_is_merged() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let with = |old: &'static str| {
        [
            old,
            "ld.global.u32 %r2, [%in];",
            "setp.lt.u32 %p0, %r2, 30;",
            "@!%p0 bra $L0;",
            "mov.b32 %r0, 0;",
            "set.le.s32.u32 %r0, %r0, 0x0;",
            "$L0:",
            "st.global.u32 [%out], %r0;",
        ]
    };
    exact_case(&with("mov.b32 %r0, 1065353216;"), [0; 4], d, 0xffff_ffff, 0x3f80_0000);
    untouched(&with("mov.b32 %r0, 2;"), [0; 4], d);
}

/// 3301-N3's truncation of a set.f32 compared with a moved 0 (d4a6b86d, T7C.md: `SEL R7, RZ,
/// 0xffffffff, P0`; `setp.ne.s16 …, 0` v6 the same); a compare with 1 (v7) is right.
#[test]
fn n3_3301_a_truncated_set_f32_compared_with_zero_is_its_truth() {
    let d = Deviation::SetRoundTripFolded;
    let with = |tail: &'static [&'static str]| {
        let mut lines = vec!["ld.global.s64 %d0, [%in];", "set.le.f32.s64 %r2, %d0, 0;", "cvt.s16.s32 %h2, %r2;"];
        lines.extend_from_slice(tail);
        lines.push("st.global.u32 [%out], %r4;");
        lines
    };
    exact_case(&with(&["mov.b16 %h0, 0;", "set.ge.u32.s16 %r4, %h0, %h2;"]), [0; 4], d, 0xffff_ffff, 0);
    exact_case(
        &with(&["setp.ne.s16 %p0, %h2, 0;", "mov.b32 %r10, 1;", "selp.b32 %r4, %r10, 2, %p0;"]),
        [0; 4],
        d,
        2,
        1,
    );
    untouched(&with(&["mov.b16 %h0, 1;", "set.ge.u32.s16 %r4, %h0, %h2;"]), [0; 4], d);
}

/// 3501-N3 triggered by a test of the cnot's converted value (ce007cb2, T7H.md: `ISETP.EQ.U32
/// P0, R0, RZ; SEL R5, RZ, 0x1, P0`; v12 the 3-instruction form); no outer test is right.
#[test]
fn n3_3501_a_cnot_conversion_tested_against_zero_is_the_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let traced = [
        "ld.global.b32 %r0, [%in];",
        "cvt.rmi.s16.f32 %h1, %r0;",
        "cnot.b16 %h2, %h1;",
        "cvt.f32.f16 %r1, %h2;",
        "cvt.rmi.u64.f32 %d0, %r1;",
        "cnot.b64 %d2, %d0;",
        "st.global.b64 [%out], %d2;",
    ];
    exact_case(&traced, [0; 4], d, 1, 0);
    let smallest = |tail: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            "cnot.b32 %r1, %r0;",
            "cvt.rmi.u32.f32 %r2, %r1;",
            tail,
            "st.global.u32 [%out], %r7;",
        ]
    };
    exact_case(&smallest("cnot.b32 %r7, %r2;"), [0; 4], d, 1, 0);
    untouched(&smallest("mov.b32 %r7, %r2;"), [0; 4], d);
}

/// 3601-N1 with an `add` reading the mul.hi result after the `subc` (the form the first trace
/// called right): ptxas 13.0.88 -O3 keeps the fusion (`IMAD.HI.U32 RZ, P0, R9, R9, R6; IADD3.X
/// R7, ~R0, R11, RZ, P0`, checked offline in session 40), so it borrows.
#[test]
fn n1_3601_a_later_add_of_the_mul_hi_result_keeps_the_fusion() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r7, [%in+4];",
        "ld.global.u32 %r5, [%in+8];",
        "mul.hi.u32 %r6, %r0, %r0;",
        "sub.cc.u32 %r4, %r6, %r7;",
        "subc.u32 %r8, %r5, %r7;",
        "add.u32 %r8, %r8, %r6;",
        "st.global.u32 [%out], %r8;",
    ];
    // hi(0x10000²) = 1: spec 7 − 0 + 1 = 8; the borrow makes it 7.
    exact_case(&lines, [0x10000, 0, 7, 0], Deviation::SubCcOfMulHiZeroBorrows, 8, 7);
}
