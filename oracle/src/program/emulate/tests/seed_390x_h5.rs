//! Tests of known root causes widened to their mechanisms after seeds 3901–3903's traces
//! (corpus/findings/fuzz-h200-390{1,2,3}/trace/T6A.md … T6G.md; helper h5, session 40):
//! 3501-N3, 3301-N3, 3301-N4, 3601-N1, N-7 and N-8. Each: the traced form emulated, a neighbour
//! the listings show right left alone.

use super::*;

/// 3501-N3 with 3701 C1-N2's trigger (a1c204af, T6C.md: `reduced`, `v8_xor_sep_store`): a
/// `cnot.b32` of a loaded f32 converted by `cvt.rn.f16.f32` is 1.0h (`SEL R7, RZ, 0x3c00, !P0`)
/// where the program xors (or ands, ors) an integer set with a register; an immediate other
/// source, or no logic op of the set, keeps the conversion of the bits (right).
#[test]
fn n3_3501_a_cnot_of_any_register_beside_logic_of_a_set_converts_as_a_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let with = |logic: &'static str| {
        [
            "ld.global.u32 %r1, [%in];",
            "ld.global.f32 %r9, [%in+8];",
            "cnot.b32 %r3, %r9;",
            "cvt.rn.f16.f32 %h3, %r3;",
            "set.eq.u32.s32 %r5, %r1, 7;",
            logic,
            "st.global.u32 [%out], %r19;",
            "st.global.u16 [%out+4], %h3;",
        ]
    };
    let words = [1, 0, 0, 0];
    exact_case(&with("xor.b32 %r19, %r5, %r1;"), words, d, 1, 0x3c00_0000_0001);
    exact_case(&with("and.b32 %r19, %r5, %r1;"), words, d, 0, 0x3c00_0000_0000);
    exact_case(&with("or.b32 %r19, %r5, %r1;"), words, d, 1, 0x3c00_0000_0001);
    untouched(&with("xor.b32 %r19, %r5, 5;"), words, d);
    untouched(&with("add.u32 %r19, %r5, %r1;"), words, d);
    // The loaded f32 not 0: the cnot is 0, converted alike.
    untouched(&with("xor.b32 %r19, %r5, %r1;"), [1, 0, 0x3f80_0000, 0], d);
}

/// 3501-N3 through 16-bit conversions (09c3068e, T6B.md: `cnot.b16` of a loaded bf16, a plain
/// `cvt.f16.f16`, `SEL R7, RZ, 0x3c00, !P0` beside `xor.b16` of a set's halves; 60948fcb,
/// T6D.md: `cnot.b16` of a loaded s8, `cvt.rni.s16.bf16` (`v9_s16cvt`), `SEL R9, RZ, 0x1` beside
/// an xor with a `set.lt.u32.u32` mask). The bits 0x0001 are 0x0001 and 0 by §9.7.9.21.
#[test]
fn n3_3501_a_cnot_b16_converted_from_a_half_type_is_the_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let f16 = [
        "ld.global.b32 %r1, [%in+4];",
        "set.ne.u32.s32 %r0, %r1, 0;",
        "mov.b32 {%h8, %h9}, %r0;",
        "xor.b16 %h10, %h8, %h9;",
        "st.global.b16 [%out+4], %h10;",
        "ld.global.b16 %h3, [%in];",
        "cnot.b16 %h4, %h3;",
        "cvt.f16.f16 %h5, %h4;",
        "st.global.b16 [%out+6], %h5;",
    ];
    exact_case(&f16, [0, 5, 0, 0], d, 0x0001_0000_0000_0000, 0x3c00_0000_0000_0000);
    // Without the set's logic: the bits (right, `r3`/`r7`).
    untouched(&f16[5..], [0, 5, 0, 0], d);
    let s16 = [
        "ld.global.s8 %h0, [%in];",
        "ld.global.s32 %r2, [%in+4];",
        "cnot.b16 %h1, %h0;",
        "cvt.rni.s16.bf16 %h2, %h1;",
        "set.gt.u32.u32 %r9, %r2, 0;",
        "mov.b32 %r15, {%h2, %h2};",
        "xor.b32 %r16, %r9, %r15;",
        "st.global.b32 [%out], %r16;",
    ];
    exact_case(&s16, [0, 0, 0, 0], d, 0, 0x0001_0001);
}

/// 3301-N3 from `.u32` (681ef45e, T6A.md): `set.le.u32.u64; cvt.rm.f32.u32; cvt.rzi.s64.f32` is
/// the set's word zero-extended (`SEL R6, RZ, 0xffffffff, !P0`, R7 = 0), not sign-extended.
#[test]
fn n3_3301_the_round_trip_from_u32_zero_extends_the_set() {
    let lines = [
        "ld.global.b64 %d2, [%in];",
        "set.le.u32.u64 %r0, %d2, 6636321672891604166;",
        "cvt.rm.f32.u32 %r1, %r0;",
        "cvt.rzi.s64.f32 %d5, %r1;",
        "st.global.b64 [%out], %d5;",
    ];
    exact_case(&lines, [0; 4], Deviation::SetRoundTripFolded, 0xffff_ff00, 0xffff_ffff);
}

/// 3601-N1 with an immediate 0 subtrahend (dbb0f09c, T6A.md: `sub.cc.s32 r8, r0, 0` after
/// `mul.hi.s32` is `IMAD.HI RZ, P0, R3, R3, R6` with R6 = 0): the carry out of hi + 0 is a borrow.
#[test]
fn n1_3601_an_immediate_zero_subtrahend_borrows_too() {
    let with = |sub: &'static str| {
        [
            "mov.b32 %r1, 0;",
            "ld.global.u32 %r4, [%in];",
            "mul.hi.s32 %r0, %r4, %r4;",
            "mov.b32 %r5, 4294967295;",
            sub,
            "subc.s32 %r7, %r1, %r5;",
            "st.global.u32 [%out], %r7;",
        ]
    };
    let d = Deviation::SubCcOfMulHiZeroBorrows;
    exact_case(&with("sub.cc.s32 %r8, %r0, 0;"), [3, 0, 0, 0], d, 1, 0);
    exact_case(&with("sub.cc.u32 %r8, %r0, 0;"), [3, 0, 0, 0], d, 1, 0);
    untouched(&with("sub.cc.s32 %r8, %r0, 1;"), [3, 0, 0, 0], d);
}

/// N-8 against a `set` of a register with itself (0e470a25, T6C.md): `set.ne.u32.s32 r1, t, t`
/// is the 0 ptxas knows (`v1_imm0`'s listing); `sub.u32 r1, t, t` keeps the compare (right).
#[test]
fn n8_a_false_set_of_a_register_with_itself_is_a_known_zero() {
    let with = |zero: &'static str| {
        [
            "ld.global.u32 %r0, [%in+4];",
            zero,
            "ld.global.u32 %r2, [%in];",
            "set.ge.u32.u32 %r7, %r2, 0;",
            "setp.ge.u32 %p3, %r7, %r1;",
            "mov.b32 %r12, 7;",
            "selp.b32 %r13, %r12, 0, %p3;",
            "st.global.u32 [%out], %r13;",
        ]
    };
    let d = Deviation::UnsignedBelowZeroOfSet;
    exact_case(&with("set.ne.u32.s32 %r1, %r0, %r0;"), [5, 9, 0, 0], d, 7, 0);
    exact_case(&with("set.lt.s32.u32 %r1, %r0, %r0;"), [5, 9, 0, 0], d, 7, 0);
    untouched(&with("sub.u32 %r1, %r0, %r0;"), [5, 9, 0, 0], d);
}

/// N-7 with a start ptxas derives from a value range (972eb062, T6G.md): `set.lt.s32.u16` of a
/// zero-extended loaded byte and 0x638f is −1 in every thread, so `bfe.s32 d, a, r2, 1` is −1
/// (`MOV R7, 0xffffffff`); a bound inside the byte's range (100) decides nothing.
#[test]
fn n7_a_set_its_sources_ranges_decide_is_a_known_start() {
    let with = |set: &'static str| {
        [
            "ld.global.u8 %h0, [%in+4];",
            "cvt.u16.s16 %h1, %h0;",
            set,
            "ld.global.u32 %r1, [%in];",
            "bfe.s32 %r7, %r1, %r2, 1;",
            "st.global.u32 [%out], %r7;",
        ]
    };
    let d = Deviation::BfeS32PastMsbAllOnes;
    exact_case(&with("set.lt.s32.u16 %r2, %h1, 0x638f;"), [5, 0x77, 0, 0], d, 0, 0xFFFF_FFFF);
    untouched(&with("set.lt.s32.u16 %r2, %h1, 100;"), [5, 0x77, 0, 0], d);
}

/// N-7 through a `mov.f32` copy of a known start (60d48019, T6F.md: `mov.b32 r0, 0x3ea8a372;
/// mov.f32 r0, r0` as the start, 13.0.88 -O3 folds the bfe to −1).
#[test]
fn n7_a_mov_f32_copy_of_a_known_start_is_known() {
    let lines = [
        "mov.b32 %r0, 1051232626;",
        "mov.f32 %r0, %r0;",
        "ld.global.s32 %r2, [%in];",
        "mov.f32 %r3, 0f0000001E;",
        "bfe.s32 %r4, %r2, %r0, %r3;",
        "st.global.u32 [%out], %r4;",
    ];
    exact_case(&lines, [5, 0, 0, 0], Deviation::BfeS32PastMsbAllOnes, 0, 0xFFFF_FFFF);
}

/// 3301-N4 through a 16-bit shift's amount (dd8d148c, T6G.md: `bfe.s32 r3, x, 0, 8; shl.b16 h,
/// 0x6502, r3` clamps −1 to 0 with signed bounds and shifts by 0; `v_shr.b16` the same).
/// `shr.s16` (sign-extended clamp) and a non-negative field are right.
#[test]
fn n4_3301_a_16_bit_shift_by_a_negative_byte_field_shifts_by_0() {
    let with = |shift: &'static str| {
        [
            "ld.global.s32 %r2, [%in];",
            "bfe.s32 %r3, %r2, 0x0, 0x8;",
            "mov.b16 %h1, 25858;",
            shift,
            "st.global.u16 [%out], %h1;",
        ]
    };
    let d = Deviation::SatCvtOfByteBfeSigned;
    exact_case(&with("shl.b16 %h1, %h1, %r3;"), [0x7fff_ffff, 0, 0, 0], d, 0, 0x6502);
    exact_case(&with("shr.u16 %h1, %h1, %r3;"), [0x7fff_ffff, 0, 0, 0], d, 0, 0x6502);
    exact_case(&with("shr.b16 %h1, %h1, %r3;"), [0x7fff_ffff, 0, 0, 0], d, 0, 0x6502);
    untouched(&with("shr.s16 %h1, %h1, %r3;"), [0x7fff_ffff, 0, 0, 0], d);
    untouched(&with("shl.b16 %h1, %h1, %r3;"), [0x7f, 0, 0, 0], d);
}
