//! Tests of the scopes seed 3801's traces widened for root causes O and J
//! (corpus/findings/fuzz-h200-3801/, trace/T4A.md … T4D.md): O's `shr.u16`, J's narrowed
//! `add.s16x2` and the addend it keeps, J's branch-known `add.u16x2` and an unpack ahead of
//! the branch. Each is the GPU's word under the emulation and the spec's without, and the
//! trace's right variants untouched.

use super::*;

/// O with `shr.u16` (eb9ca4a8, c18ff4fe, e4527e8a; trace/T4A.md, T4B.md, T4D.md: ptxas 13.0.88
/// -O3 `LOP3.LUT R0, R0, 0xffff; SHF.R.U32.HI R5, RZ, R0, R5`, R0 never written, the listing of
/// `shr.b16`): `shr.u16` of 0xfc00 by `cnot.b32` of a loaded 0 is any value, the GPU's
/// unshifted 0xfc00 among them (the spec's 0x7e00 too). `shr.s16` (C1-N3's clamp, `v_shr_s16`)
/// and a `not.b32` amount: the spec's.
#[test]
fn o_3801_a_shr_u16_by_a_cnot_amount_is_any_value() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let with = |amount: &'static str, shift: &'static str| {
        ["ld.global.s32 %r1, [%in];", "mov.b16 %h0, 64512;", amount, shift, "st.global.u16 [%out], %h1;"]
    };
    let (cnot, shr_u16) = ("cnot.b32 %r2, %r1;", "shr.u16 %h1, %h0, %r2;");
    let (s, e, fired) = both(&with(cnot, shr_u16), [0; 4], d);
    assert_eq!((s.bits, s.is_exact()), (0x7e00, true));
    assert!(e.matches(0x7e00) && e.matches(0xfc00) && !e.is_exact());
    assert_eq!(fired, vec![d]);
    untouched(&with(cnot, "shr.s16 %h1, %h0, %r2;"), [0; 4], d);
    untouched(&with("not.b32 %r2, %r1;", shr_u16), [0; 4], d);
}

/// J narrowed, `.s16x2` (c34717b2, 6ee35dab; trace/T4B.md, T4D.md: ptxas 13.0.88 -O3
/// `VIADD.16x2 R0, R0, 0x0` as for `.u16x2`, `v1_u16x2`): `add.s16x2` of 0xffda56dc and itself
/// read only as the `c` of `cvt.pack.sat.u8.s32.b32` keeps 0x56dc, the spec 0xadb8; of
/// 0x85c16b55 read only as the low half of an unpack 0x6b55, the spec 0xd6aa. Read whole
/// (`v_both_halves`): the spec's.
#[test]
fn j_3801_a_narrowed_add_s16x2_of_constants_drops_an_addend() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let pack = [
        "mov.u32 %r0, 4292499164;",
        "add.s16x2 %r0, %r0, %r0;",
        "cvt.pack.sat.u8.s32.b32 %r1, -1874854486, 1309397991, %r0;",
        "st.global.b32 [%out], %r1;",
    ];
    exact_case(&pack, [0; 4], d, 0xadb8_00ff, 0x56dc_00ff);
    let with = |reader: &[&'static str]| {
        let mut lines = vec!["mov.u32 %r0, 2244045653;", "add.s16x2 %r1, %r0, %r0;"];
        lines.extend(reader);
        lines
    };
    exact_case(&with(&["mov.b32 {%h1, %h0}, %r1;", "st.global.u16 [%out], %h1;"]), [0; 4], d, 0xd6aa, 0x6b55);
    untouched(&with(&["st.global.b32 [%out], %r1;"]), [0; 4], d);
}

/// J narrowed, which addend survives (a82b8b26, trace/T4D.md; 53f554e1, trace/T4B.md: ptxas
/// 13.0.88 -O3 keeps a zero constant as RZ and the other as the dropped immediate, else K2 in a
/// register, 13.5 adding K1): `add.u16x2` of moved (K1, K2) read by `cvt.u16.s32` gives 0 for
/// (2, 0) and (0, 2), 5 for (2, 5), 2 for (5, 2) (`add.s16x2` too); as the pack's `c`,
/// 0xc40625e4 + 0 gives 0 and 0xc40625e4 + 0x00010001 keeps K2's 1.
#[test]
fn j_3801_a_narrowed_add_of_constants_keeps_k2_or_zero() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let cvt = |k1: &'static str, k2: &'static str, add: &'static str| {
        [k1, k2, add, "cvt.u16.s32 %h1, %r0;", "st.global.u16 [%out], %h1;"]
    };
    let (u16x2, s16x2) = ("add.u16x2 %r0, %r0, %r1;", "add.s16x2 %r0, %r0, %r1;");
    let (two, zero, five) = ("mov.b32 %r0, 2;", "mov.b32 %r1, 0;", "mov.b32 %r1, 5;");
    exact_case(&cvt(two, zero, u16x2), [0; 4], d, 2, 0);
    exact_case(&cvt("mov.b32 %r0, 0;", "mov.b32 %r1, 2;", u16x2), [0; 4], d, 2, 0);
    exact_case(&cvt(two, five, u16x2), [0; 4], d, 7, 5);
    exact_case(&cvt("mov.b32 %r0, 5;", "mov.b32 %r1, 2;", u16x2), [0; 4], d, 7, 2);
    exact_case(&cvt("mov.b32 %r0, 5;", "mov.b32 %r1, 2;", s16x2), [0; 4], d, 7, 2);
    let pack = |k2: &'static str| {
        [
            "mov.b32 %r2, 3288737252;",
            k2,
            "add.u16x2 %r7, %r2, %r4;",
            "mov.b32 %r8, 0;",
            "cvt.pack.sat.s8.s32.b32 %r7, %r8, %r8, %r7;",
            "st.global.b32 [%out], %r7;",
        ]
    };
    exact_case(&pack("mov.b32 %r4, 0;"), [0; 4], d, 0x25e4_0000, 0);
    exact_case(&pack("mov.b32 %r4, 0x00010001;"), [0; 4], d, 0x25e5_0000, 0x0001_0000);
}

/// J branch-known, `.u16x2` (f2611d02, trace/T4C.md: ptxas 13.0.88 -O3 `@!P0 VIADD.16x2 R5, RZ,
/// 0x440044`, `v_s16x2` the same listing): the branch-known 0x44 is added to both halves,
/// 0x00440044 for the spec's 0x44; the taken branch is right.
#[test]
fn j_3801_a_branch_known_add_u16x2_operand_is_splatted() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r4, 0;",
        "setp.ne.u32 %p0, %r0, 0x44;",
        "@%p0 bra $L0;",
        "add.u16x2 %r4, %r4, %r0;",
        "$L0:",
        "st.global.u32 [%out], %r4;",
    ];
    exact_case(&lines, [0x44, 0, 0, 0], d, 0x44, 0x0044_0044);
    untouched(&lines, [0x45, 0, 0, 0], d);
}

/// J branch-known with the unpack ahead of the branch (87576d8b, trace/T4D.md: ptxas 13.0.88
/// -O3 stores `HFMA2.MMA R0 = 6` in the fall-through of `setp.ne.s32 %p1, %tix, 6; @%p1 bra`,
/// the listing of `v_after`, the unpack after the branch; 13.5 stores RZ): the high half of
/// `mov.b32 {%h0, %h3}, %r0` read only in the fall-through is K's low half (6, 0x2345 for K =
/// 0x12345), in the finding's pack `{%h3, %h3, %h2, %h2}` too. A reader after the label, the low
/// half, `setp.eq` with `@!p bra` and the taken branch: the spec's.
#[test]
fn j_3801_the_high_half_of_a_value_unpacked_ahead_of_its_branch_is_its_low_half() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |setp: &'static str, bra: &'static str, tail: &[&'static str]| {
        let mut lines = vec!["ld.global.u32 %r0, [%in];", "mov.b16 %h2, 0;", "mov.b32 {%h0, %h3}, %r0;", setp, bra];
        lines.extend(tail);
        lines
    };
    let (ne, bra) = ("setp.ne.s32 %p1, %r0, 6;", "@%p1 bra $L1;");
    let in_fall_through = ["st.global.u16 [%out], %h3;", "$L1:"];
    exact_case(&with(ne, bra, &in_fall_through), [6, 0, 0, 0], d, 0, 6);
    let k = "setp.ne.s32 %p1, %r0, 0x12345;";
    exact_case(&with(k, bra, &in_fall_through), [0x12345, 0, 0, 0], d, 1, 0x2345);
    let packed = ["mov.b64 %d0, {%h3, %h3, %h2, %h2};", "$L1:", "st.global.b64 [%out], %d0;"];
    let finding = [&["mov.b64 %d0, 0;"][..], &with(ne, bra, &packed)].concat();
    exact_case(&finding, [6, 0, 0, 0], d, 0, 0x0006_0006);
    untouched(&with(ne, bra, &in_fall_through), [7, 0, 0, 0], d);
    untouched(&with(ne, bra, &["$L1:", "st.global.u16 [%out], %h3;"]), [6, 0, 0, 0], d);
    untouched(&with(ne, bra, &["st.global.u16 [%out], %h0;", "$L1:"]), [6, 0, 0, 0], d);
    untouched(&with("setp.eq.s32 %p1, %r0, 6;", "@!%p1 bra $L1;", &in_fall_through), [6, 0, 0, 0], d);
}
