//! Tests of the emulations of the root causes found by the H200 campaigns of seeds 3602, 3604
//! and 3701 (`emulate/fuzz3602.rs`, `emulate/fuzz3701.rs`): one per cause, each the GPU's word
//! under the emulation and the spec's without.

use super::*;

/// 3602-N1 (corpus/findings/fuzz-h200-3602/, f4932ac3, trace `reduced.ptx`): in the if/else
/// diamond on `setp.ne.u32 v, 5`, the fall-through arm's `xor.b32 v, 0xffffffff` gives 5
/// (13.0.88 -O3 `SEL R7, R0, 0x9, !P0` with R0 = 5), the spec 0xfffffffa; the other arm, a
/// one-armed `if` and `setp.eq` are right.
#[test]
fn n1_3602_xor_in_the_arm_where_a_branch_fixes_v_gives_the_constant() {
    let d = Deviation::XorOfBranchConstantDropsInversion;
    let diamond = [
        "ld.global.u32 %r0, [%in];",
        "setp.ne.u32 %p0, %r0, 5;",
        "@%p0 bra $L0;",
        "xor.b32 %r1, %r0, 0xffffffff;",
        "bra $L1;",
        "$L0:",
        "mov.b32 %r1, 9;",
        "$L1:",
        "st.global.b32 [%out], %r1;",
    ];
    exact_case(&diamond, [5, 0, 0, 0], d, 0xFFFF_FFFA, 5);
    untouched(&diamond, [7, 0, 0, 0], d);
    // The finding's form: `@!p bra` to the xor, v overwritten (K = 0xffffffff: spec 0).
    let target_arm = [
        "ld.global.u32 %r0, [%in];",
        "setp.ne.u32 %p0, %r0, 0xffffffff;",
        "@!%p0 bra $L0;",
        "mov.b32 %r0, 0;",
        "bra $L1;",
        "$L0:",
        "xor.b32 %r0, %r0, 0xffffffff;",
        "$L1:",
        "st.global.b32 [%out], %r0;",
    ];
    exact_case(&target_arm, [0xFFFF_FFFF, 0, 0, 0], d, 0, 0xFFFF_FFFF);
    let one_armed = [
        "ld.global.u32 %r0, [%in];",
        "setp.ne.u32 %p0, %r0, 5;",
        "@%p0 bra $L0;",
        "xor.b32 %r0, %r0, 0xffffffff;",
        "$L0:",
        "st.global.b32 [%out], %r0;",
    ];
    untouched(&one_armed, [5, 0, 0, 0], d);
    let eq = diamond.map(|l| if l.starts_with("setp") { "setp.eq.u32 %p0, %r0, 5;" } else { l });
    untouched(&eq, [7, 0, 0, 0], d);
}

/// 3602-N2 (corpus/findings/fuzz-h200-3602/, 2034b61d): `and.b16`/`xor.b16` of the halves of
/// `neg.s32` of a true `set.le.f32.u32` (spec halves 0x0000 and 0xc080) give 0xffff and 0
/// (13.0.88 and 13.5 -O3 `SEL R7, RZ, 0xffffffff, !P0`; `STG … RZ`); `add.u16` is right.
#[test]
fn n2_3602_a_16_bit_combine_of_the_halves_of_a_negated_set_f32_reads_the_boolean() {
    let d = Deviation::NegOfSetF32HalvesReadAsBoolean;
    let with = |op: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.f32 %r1, [%in+4];",
            "set.le.f32.u32 %r2, %r0, %r1;",
            "neg.s32 %r3, %r2;",
            "mov.b32 {%h0, %h1}, %r3;",
            op,
            "st.global.b16 [%out], %h2;",
        ]
    };
    exact_case(&with("and.b16 %h2, %h0, %h1;"), [1, 2, 0, 0], d, 0, 0xFFFF);
    exact_case(&with("xor.b16 %h2, %h0, %h1;"), [1, 2, 0, 0], d, 0xC080, 0);
    untouched(&with("and.b16 %h2, %h0, %h1;"), [3, 2, 0, 0], d);
    untouched(&with("add.u16 %h2, %h0, %h1;"), [1, 2, 0, 0], d);
}

/// 3602-N3 (corpus/findings/fuzz-h200-3602/, a9d3dbc0, trace `b1.ptx`): `subc.u32 d, a, b` on
/// the fall-through of `@p bra` with `p = setp.ne.u32 b, 25` adds 25 (13.0.88 -O3 `IADD3.X R7,
/// R0, 0x19, RZ, P0`): 0xe200f4f8 gives 0xe200f512, the spec 0xe200f4df; a `setp.eq` fact and
/// a register K are right.
#[test]
fn n3_3602_subc_of_a_branch_fixed_subtrahend_adds_it() {
    let d = Deviation::SubcOfBranchConstantAddsIt;
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "setp.ne.u32 %p0, %r0, 25;",
        "@%p0 bra $L1;",
        "ld.global.u32 %r2, [%in+4];",
        "ld.global.u32 %r4, [%in+8];",
        "sub.cc.u32 %r5, %r2, 0;",
        "subc.u32 %r6, %r4, %r0;",
        "st.global.b32 [%out], %r6;",
        "$L1:",
    ];
    exact_case(&lines, [25, 5, 0xE200_F4F8, 0], d, 0xE200_F4DF, 0xE200_F512);
    let eq = lines.map(|l| match l {
        "setp.ne.u32 %p0, %r0, 25;" => "setp.eq.u32 %p0, %r0, 25;",
        "@%p0 bra $L1;" => "@!%p0 bra $L1;",
        l => l,
    });
    untouched(&eq, [25, 5, 0xE200_F4F8, 0], d);
    let register_k = lines.map(|l| if l.starts_with("setp") { "setp.ne.u32 %p0, %r0, %r7;" } else { l });
    let mut moved = vec!["mov.u32 %r7, 25;"];
    moved.extend(register_k);
    untouched(&moved, [25, 5, 0xE200_F4F8, 0], d);
}

/// 3602-N3 through a chain (trace `b7.ptx`: both of two chained `subc`s wrong): `subc.cc`'s
/// borrow is that of a + K + (1 − borrow in) (0xe200f4f8 + 25 + 1 does not carry: a borrow),
/// so the next `subc` gives 100 + 25 + 0 = 125, the spec 100 − 25 − 0 = 75.
#[test]
fn n3_3602_subc_cc_of_a_branch_fixed_subtrahend_borrows_as_the_addition_carries() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "setp.ne.u32 %p0, %r0, 25;",
        "@%p0 bra $L1;",
        "ld.global.u32 %r2, [%in+4];",
        "ld.global.u32 %r4, [%in+8];",
        "sub.cc.u32 %r5, %r2, 0;",
        "subc.cc.u32 %r6, %r4, %r0;",
        "subc.u32 %r7, %r9, %r0;",
        "st.global.b32 [%out], %r7;",
        "$L1:",
    ];
    let mut with_r9 = vec!["mov.u32 %r9, 100;"];
    with_r9.extend(lines);
    exact_case(&with_r9, [25, 5, 0xE200_F4F8, 0], Deviation::SubcOfBranchConstantAddsIt, 75, 125);
}

/// 3602-N4 (corpus/findings/fuzz-h200-3602/, c306162d, trace `r1.ptx`, `c1.ptx`): 0xd2 through
/// `cvt.s64.s8; cvt.s8.s64` into a 16-bit register, `shr.u16` by 1 gives 0xffe9 (13.0.88 -O3:
/// `PRMT 0x8880; SHF.R.U32.HI`, no mask), the spec 0x7fe9; `cvt.u32.u16` gives 0xffffffd2, the
/// spec 0xffd2; through `.s32` it is right.
#[test]
fn n4_3602_an_s8_round_trip_through_64_bits_reads_as_its_32_bit_extension() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let round_trip = ["ld.global.b8 %h4, [%in];", "cvt.s64.s8 %d4, %h4;", "cvt.s8.s64 %h5, %d4;"];
    let with = |tail: [&'static str; 2]| {
        let mut lines = round_trip.to_vec();
        lines.extend(tail);
        lines
    };
    exact_case(&with(["shr.u16 %h7, %h5, 1;", "st.global.b16 [%out], %h7;"]), [0xd2, 0, 0, 0], d, 0x7FE9, 0xFFE9);
    exact_case(&with(["cvt.u32.u16 %r1, %h5;", "st.global.b32 [%out], %r1;"]), [0xd2, 0, 0, 0], d, 0xFFD2, 0xFFFF_FFD2);
    untouched(&with(["shr.u16 %h7, %h5, 1;", "st.global.b16 [%out], %h7;"]), [0x52, 0, 0, 0], d);
    let through_32 = [
        "ld.global.b8 %h4, [%in];",
        "cvt.s32.s8 %r4, %h4;",
        "cvt.s8.s32 %h5, %r4;",
        "shr.u16 %h7, %h5, 1;",
        "st.global.b16 [%out], %h7;",
    ];
    untouched(&through_32, [0xd2, 0, 0, 0], d);
}

/// 3604-N1 (corpus/findings/fuzz-h200-3604/, 313ad4b7, trace `s1.ptx`): `shr.s16` of 0xce98 by
/// `cvt.rmi.u32.f32` of −1.4e−34 (floor −1, saturated to 0) gives 0xffff (13.0.88 and 13.5 -O3
/// `F2I.S16.FLOOR.NTZ; SHF.R.S32.HI`), the spec 0xce98; a positive amount, and `shr.u16`, are
/// right.
#[test]
fn n1_3604_shr_s16_by_a_u32_cvt_of_a_negative_float_fills_with_the_sign() {
    let d = Deviation::ShrS16ByU32CvtConvertsAsS16;
    let with = |shift: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "cvt.rmi.u32.f32 %r0, %r0;",
            "mov.b16 %h1, 52888;",
            shift,
            "st.global.b16 [%out], %h3;",
        ]
    };
    exact_case(&with("shr.s16 %h3, %h1, %r0;"), [0x873b_406b, 0, 0, 0], d, 0xCE98, 0xFFFF);
    untouched(&with("shr.s16 %h3, %h1, %r0;"), [0x3f80_0000, 0, 0, 0], d);
    untouched(&with("shr.u16 %h3, %h1, %r0;"), [0x873b_406b, 0, 0, 0], d);
}

/// 3604-N1 through f32 copies (seed 6203's f783c3c1, corpus/findings/fuzz-h200-6201/trace/T62E.md,
/// variants in corpus/findings/fuzz-h200-6203/trace/f783c3c1/s62/): ptxas 13.0.88 and 13.5 -O3 drop
/// a `mov.f32` (the case), two (`w3`) or a plain `cvt.f32.f32` (`w4`) between the conversion and
/// the shift and fuse `F2I.S16.NTZ` as without one (`w1`); a `cvt.ftz.f32.f32` (`w5`: `F2I.U32.NTZ;
/// FADD.FTZ; ISETP.GT.U32 …, 0x7fff; SEL`) and `shr.u16` (`w6`) are right.
#[test]
fn n1_3604_the_amount_through_f32_copies_fills_with_the_sign() {
    let d = Deviation::ShrS16ByU32CvtConvertsAsS16;
    let with = |copies: &[&'static str], shift: &'static str| {
        let mut lines = vec!["ld.global.u32 %r0, [%in];", "cvt.rmi.u32.f32 %r1, %r0;", "mov.b16 %h1, 52888;"];
        lines.extend_from_slice(copies);
        lines.extend([shift, "st.global.b16 [%out], %h3;"]);
        lines
    };
    let words = [0x873b_406b, 0, 0, 0];
    for copies in [&["mov.f32 %r2, %r1;"][..], &["mov.f32 %r3, %r1;", "mov.f32 %r2, %r3;"], &["cvt.f32.f32 %r2, %r1;"]]
    {
        exact_case(&with(copies, "shr.s16 %h3, %h1, %r2;"), words, d, 0xCE98, 0xFFFF);
        untouched(&with(copies, "shr.u16 %h3, %h1, %r2;"), words, d);
    }
    untouched(&with(&["cvt.ftz.f32.f32 %r2, %r1;"], "shr.s16 %h3, %h1, %r2;"), words, d);
}

/// Seed 6203's f783c3c1 (`cvt.rni.u32.f32 r1` of −32768.004; `mov.f32 r2, r1; shr.s16 h5, h2, r2`
/// of h2 = bf16 35.0, 0x420c; `mov.b32 r7, {h5, h5}`): emulating 3604-N1 gives the stored -O3 and
/// JIT word 0 0 in every thread, the spec 0x420c420c.
#[test]
fn n1_3604_f783c3c1_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6203", "f783c3c12bbec2f1");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, Deviation::ShrS16ByU32CvtConvertsAsS16) {
        let want = if w == 0 { (0x420c_420c, 0) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "f783c3c1 thread {t} word {w}");
    }
}

/// 3604-N2 (corpus/findings/fuzz-h200-3604/, 6bd62f60, trace `g7.ptx`): `cvt.u64.s32` of a true
/// `set.le.f32.s64` (1.0f) that `setp.ne.u64 …, 0` tests gives 1 (13.0.88 and 13.5 -O3 `SEL R6,
/// RZ, 0x1, !P0`), the spec 0x3f800000; without the 64-bit compare it is right.
#[test]
fn n2_3604_a_widened_set_f32_compared_with_zero_is_0_or_1() {
    let d = Deviation::WidenedSetF32ComparedWithZeroIs0Or1;
    let compared = [
        "ld.global.b64 %d0, [%in];",
        "set.le.f32.s64 %r2, %d0, 0;",
        "cvt.u64.s32 %d4, %r2;",
        "setp.ne.u64 %p2, %d4, 0;",
        "selp.b64 %d5, %d4, 7, %p2;",
        "st.global.b64 [%out], %d5;",
    ];
    exact_case(&compared, [0, 0, 0, 0], d, 0x3F80_0000, 1);
    untouched(&compared, [5, 0, 0, 0], d);
    let stored = [
        "ld.global.b64 %d0, [%in];",
        "set.le.f32.s64 %r2, %d0, 0;",
        "cvt.u64.s32 %d4, %r2;",
        "st.global.b64 [%out], %d4;",
    ];
    untouched(&stored, [0, 0, 0, 0], d);
}

/// 3604-N3 (corpus/findings/fuzz-h200-3604/, da27327e, trace `l1.ptx`): a loop counting 5 down
/// with the exit test `setp.gt.u32 i, 0xffffffff` runs once (−1) by the spec, six times (−6)
/// as ptxas counts it (13.0.88 and 13.5 -O3 `MOV R7, 0xfffffffa`); `setp.ne` and a loaded
/// start are right.
#[test]
fn n3_3604_an_unsigned_loop_exit_test_is_counted_signed() {
    let d = Deviation::UnsignedLoopExitTestCountedSigned;
    let with = |start: &'static str, test: &'static str| {
        [
            "mov.u32 %r8, 0;",
            start,
            "$L0:",
            "add.s32 %r8, %r8, -1;",
            "sub.u32 %r14, %r14, 1;",
            test,
            "@%p1 bra $L0;",
            "st.global.b32 [%out], %r8;",
        ]
    };
    let counted = with("mov.u32 %r14, 5;", "setp.gt.u32 %p1, %r14, 0xffffffff;");
    exact_case(&counted, [0; 4], d, 0xFFFF_FFFF, 0xFFFF_FFFA);
    untouched(&with("mov.u32 %r14, 5;", "setp.ne.u32 %p1, %r14, 0xffffffff;"), [0; 4], d);
    untouched(&with("ld.global.u32 %r14, [%in];", "setp.gt.u32 %p1, %r14, 0xffffffff;"), [5, 0, 0, 0], d);
    // `setp.ge` (trace `l4.ptx`): seven trips.
    exact_case(&with("mov.u32 %r14, 5;", "setp.ge.u32 %p1, %r14, 0xffffffff;"), [0; 4], d, 0xFFFF_FFFF, 0xFFFF_FFF9);
    // An up-count (`l7.ptx`) is not folded.
    let up = with("mov.u32 %r14, 5;", "setp.gt.u32 %p1, %r14, 0x80000005;").map(|l| {
        if l.starts_with("sub.u32") {
            "add.u32 %r14, %r14, 1;"
        } else {
            l
        }
    });
    untouched(&up, [0; 4], d);
    // Seed 3702's 5ea00426 (session 38): from 2 against 0x80000000 the signed count is 2^31
    // trips, and 13.0.88 -O3 keeps the loop with an unsigned `ISETP.GT.U32` (right).
    untouched(&with("mov.u32 %r14, 2;", "setp.gt.u32 %p1, %r14, 0x80000000;"), [0; 4], d);
    // `l6.ptx`: 21 trips against 0xfffffff0, folded.
    exact_case(&with("mov.u32 %r14, 5;", "setp.gt.u32 %p1, %r14, 0xfffffff0;"), [0; 4], d, 0xFFFF_FFFF, 0xFFFF_FFEB);
}

#[test]
fn n3_3604_signed_trip_counts() {
    use super::super::unsigned_loop_exit_counted_signed::signed_trips;
    use crate::program::glue::Cmp;
    assert_eq!(signed_trips(5, -1, Cmp::Gt, -1), Some(6));
    assert_eq!(signed_trips(5, -1, Cmp::Ge, -1), Some(7));
    assert_eq!(signed_trips(5, -1, Cmp::Gt, -16), Some(21));
    assert_eq!(signed_trips(5, -2, Cmp::Ge, -1), Some(4));
    assert_eq!(signed_trips(2, -1, Cmp::Gt, -(1 << 31)), Some((1 << 31) + 2));
    assert_eq!(signed_trips(0, -1, Cmp::Gt, 5), Some(1));
    assert_eq!(signed_trips(5, 0, Cmp::Gt, -1), None);
}

/// 3701-N-A (corpus/findings/fuzz-h200-3701/, 212b09c9; trace/TC4.md `variants/`):
/// `cvt.pack.sat.s8.s32.b32` of `cvt.rzi.u32.f32` of −2.96e20 packs 0 by the spec (the `.u32`
/// conversion saturates to 0) and 0x8080 on the GPU (`F2IP.S8.F32.TRUNC.NTZ`: −128 per byte);
/// 2^31 packs 0x8080 (0x80000000 read as `.s32`) and 0x7f7f; `.u8` packs 0 and 0xffff. Two
/// cvts and a `cvt.u32.u32` between fuse too; `.rmi`, an `.s16` pack and one loaded operand
/// are right.
#[test]
fn na_3701_a_pack_of_u32_float_conversions_converts_the_floats_signed() {
    let d = Deviation::PackOfU32CvtFusedSigned;
    let with = |cvt: &'static str, pack: &'static str| {
        [
            "ld.global.u32 %r1, [%in];",
            "ld.global.u32 %r4, [%in+4];",
            cvt,
            "cvt.rzi.u32.f32 %r5, %r4;",
            pack,
            "st.global.b32 [%out], %r3;",
        ]
    };
    let s8 = with("cvt.rzi.u32.f32 %r2, %r1;", "cvt.pack.sat.s8.s32.b32 %r3, %r2, %r2, 0;");
    exact_case(&s8, [0xe180_5aec, 0, 0, 0], d, 0, 0x8080);
    exact_case(&s8, [0x4f00_0000, 0, 0, 0], d, 0x8080, 0x7f7f);
    untouched(&s8, [0x4060_0000, 0, 0, 0], d);
    let u8 = with("cvt.rni.u32.f32 %r2, %r1;", "cvt.pack.sat.u8.s32.b32 %r3, %r2, %r2, 0;");
    exact_case(&u8, [0x4f00_0000, 0, 0, 0], d, 0, 0xffff);
    // Two cvts (v10), and `cvt.u32.u32` between (8aad1e14); the c bits stay.
    let two = with("cvt.rzi.u32.f32 %r2, %r1;", "cvt.pack.sat.s8.s32.b32 %r3, %r2, %r5, 0x1234;");
    exact_case(&two, [0xe180_5aec, 0x4f00_0000, 0, 0], d, 0x1234_0080, 0x1234_807f);
    let through = [
        "ld.global.u32 %r1, [%in];",
        "cvt.rni.sat.u32.f32 %r2, %r1;",
        "cvt.u32.u32 %r6, %r2;",
        "cvt.pack.sat.s8.s32.b32 %r3, %r6, %r6, 0;",
        "st.global.b32 [%out], %r3;",
    ];
    exact_case(&through, [0xe180_5aec, 0, 0, 0], d, 0, 0x8080);
    let rmi = with("cvt.rmi.u32.f32 %r2, %r1;", "cvt.pack.sat.s8.s32.b32 %r3, %r2, %r2, 0;");
    untouched(&rmi, [0xe180_5aec, 0, 0, 0], d);
    let s16 = with("cvt.rzi.u32.f32 %r2, %r1;", "cvt.pack.sat.s16.s32 %r3, %r2, %r2;");
    untouched(&s16, [0x4f00_0000, 0, 0, 0], d);
    let one = with("cvt.rzi.u32.f32 %r2, %r1;", "cvt.pack.sat.s8.s32.b32 %r3, %r2, %r4, 0;");
    untouched(&one, [0xe180_5aec, 0, 0, 0], d);
}

/// 3701 C1-N4 (corpus/findings/fuzz-h200-3701/, ca3fc161; trace/TC1.md `reduced.ptx`,
/// `l_imm*.ptx`): `bfi.b32` of 0x04dff082 at 2 with the moved length 0x04dff082 (130) inserts
/// 2 bits on 13.0.88 -O3 (0x8), the spec up to the msb (0x137fc208); 34 likewise; a loaded
/// length and 31 are right.
#[test]
fn n4_c1_3701_bfi_b32_with_a_constant_length_of_32_or_more_takes_it_mod_32() {
    let d = Deviation::BfiConstantLengthTakenMod32;
    let with = |len: &'static str, bfi: &'static str| {
        ["ld.global.u32 %r1, [%in];", "ld.global.u32 %r2, [%in+4];", len, bfi, "st.global.b32 [%out], %r0;"]
    };
    let words = [0, 0x04df_f082, 130, 0];
    exact_case(&with("mov.b32 %r3, 0x04DFF082;", "bfi.b32 %r0, %r2, %r1, 0x2, %r3;"), words, d, 0x137f_c208, 0x8);
    exact_case(&with("mov.b32 %r3, 0;", "bfi.b32 %r0, %r2, %r1, 0x2, 34;"), words, d, 0x137f_c208, 0x8);
    untouched(&with("ld.global.u32 %r3, [%in+8];", "bfi.b32 %r0, %r2, %r1, 0x2, %r3;"), words, d);
    untouched(&with("mov.b32 %r3, 0;", "bfi.b32 %r0, %r2, %r1, 0x2, 31;"), words, d);
}

/// 3701 C3-2 (corpus/findings/fuzz-h200-3701/, e50cc840; trace/TC3.md `reduced.ptx`):
/// `shl.b64` by a moved 0xffffffff of `mul.lo.s64 x, −1` stores −x (0xffffffff888cdcb6 for
/// 0x7773234a; 13.0.88 and 13.5 -O3), the spec 0; by 63, or of a loaded value, right.
#[test]
fn n2_c3_3701_shl_b64_by_64_or_more_of_a_product_by_an_immediate_is_the_product() {
    let d = Deviation::ShlB64OfProductByConstantDropped;
    let with = |source: &'static str, amount: &'static str| {
        ["ld.global.u64 %d0, [%in];", source, amount, "shl.b64 %d2, %d1, %r4;", "st.global.b64 [%out], %d2;"]
    };
    let words = [0x7773_234a, 0, 0, 0];
    let product = "mul.lo.s64 %d1, %d0, -1;";
    exact_case(&with(product, "mov.b32 %r4, 4294967295;"), words, d, 0, 0xffff_ffff_888c_dcb6);
    exact_case(
        &with("mul.wide.u32 %d1, %r9, 3;", "mov.b32 %r4, 64;").map(|l| {
            if l.starts_with("ld.") {
                "ld.global.u32 %r9, [%in];"
            } else {
                l
            }
        }),
        words,
        d,
        0,
        0x1_6659_69de,
    );
    untouched(&with(product, "mov.b32 %r4, 63;"), words, d);
    untouched(&with("ld.global.u64 %d1, [%in];", "mov.b32 %r4, 64;"), words, d);
    untouched(&with("mul.lo.s64 %d1, %d0, %d0;", "mov.b32 %r4, 64;"), words, d);
}

/// 3701 fc9c9c66 (corpus/findings/fuzz-h200-3701/; trace/TC2.md `v/x1`): `xor.b32` of a true
/// `set.le.s32.u32` and `cnot.b32` of 0 gives 0 (1 − 1; 13.0.88 and 13.5 -O3), the spec
/// 0xfffffffe; of a nonzero word 1 for 0xffffffff; a false set, and `and.b32`, are right.
#[test]
fn fc9c9c66_3701_xor_of_a_true_set_and_a_cnot_gives_one_minus_the_cnot() {
    let d = Deviation::XorOfSetAndCnotGivesOneMinus;
    let with = |op: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r1, [%in+4];",
            "ld.global.u32 %r2, [%in+8];",
            "cnot.b32 %r5, %r0;",
            "set.le.s32.u32 %r11, %r1, %r2;",
            op,
            "st.global.u32 [%out], %r13;",
        ]
    };
    let xor = with("xor.b32 %r13, %r11, %r5;");
    exact_case(&xor, [0, 1, 2, 0], d, 0xffff_fffe, 0);
    exact_case(&xor, [7, 1, 2, 0], d, 0xffff_ffff, 1);
    exact_case(&with("xor.b32 %r13, %r5, %r11;"), [0, 1, 2, 0], d, 0xffff_fffe, 0);
    untouched(&xor, [0, 3, 2, 0], d);
    untouched(&with("and.b32 %r13, %r11, %r5;"), [0, 1, 2, 0], d);
    // The stored finding: the set xored first with a constant 0 ptxas folds (a `cvt.rn.f32.f64`
    // of `cvt.rni.sat.f64.f64` of a moved −4e−54); a loaded 0 in its place is not folded.
    let through = |zero: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r1, [%in+4];",
            "ld.global.u32 %r2, [%in+8];",
            "mov.f64 %d0, 0dB49B00D410E50865;",
            "cvt.rni.sat.f64.f64 %d0, %d0;",
            zero,
            "cnot.b32 %r5, %r0;",
            "set.le.s32.u32 %r11, %r1, %r2;",
            "xor.b32 %r12, %r11, %r4;",
            "xor.b32 %r13, %r12, %r5;",
            "st.global.u32 [%out], %r13;",
        ]
    };
    exact_case(&through("cvt.rn.f32.f64 %r4, %d0;"), [0, 1, 2, 0], d, 0xffff_fffe, 0);
    untouched(&through("ld.global.u32 %r4, [%in+12];"), [0, 1, 2, 0], d);
}

/// 3701 C3-3 (corpus/findings/fuzz-h200-3701/, 5087e596; trace/TC3.md `reduced.ptx`):
/// `setp.eq.u32 p, s, 1` with a moved 1 of `set.ne.s32.s64 s, x, 0` is true for x ≠ 0 on
/// 13.0.88 -O3 (`selp` 7), never by the spec (0); `ne` the reverse; a compare with 2 is right.
#[test]
fn n3_c3_3701_setp_eq_1_of_a_set_result_tests_the_set() {
    let d = Deviation::SetpEqOneOfSetTestsTheSet;
    let with = |one: &'static str, setp: &'static str| {
        [
            "ld.global.u64 %d0, [%in];",
            "set.ne.s32.s64 %r2, %d0, 0;",
            one,
            setp,
            "mov.b32 %r6, 7;",
            "mov.b32 %r7, 0;",
            "selp.b32 %r5, %r6, %r7, %p1;",
            "st.global.b32 [%out], %r5;",
        ]
    };
    let eq = with("mov.b32 %r4, 1;", "setp.eq.u32 %p1, %r2, %r4;");
    exact_case(&eq, [5, 0, 0, 0], d, 0, 7);
    untouched(&eq, [0, 0, 0, 0], d);
    exact_case(&with("mov.b32 %r4, 1;", "setp.ne.s32 %p1, %r2, 1;"), [5, 0, 0, 0], d, 7, 0);
    untouched(&with("mov.b32 %r4, 2;", "setp.eq.u32 %p1, %r2, %r4;"), [5, 0, 0, 0], d);
}

/// 3701 C1-N3 (corpus/findings/fuzz-h200-3701/, 6b7f302e; trace/TC1.md `reduced.ptx`):
/// `shr.s16` of 0x8002 by `cnot.b32` of 0 fills with the sign (0xffff; 13.0.88 and 13.5 -O3),
/// the spec shifts by 1 (0xc001); a cnot of a nonzero word (0) is right, as is `shr.s32`.
#[test]
fn n3_c1_3701_shr_s16_by_a_cnot_of_0_fills_with_the_sign() {
    let d = Deviation::ShrS16ByCnotClampFolded;
    let with = |shift: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "cnot.b32 %r1, %r0;",
            "ld.global.u16 %h0, [%in+4];",
            shift,
            "st.global.b16 [%out], %h1;",
        ]
    };
    let shr = with("shr.s16 %h1, %h0, %r1;");
    exact_case(&shr, [0, 0x8002, 0, 0], d, 0xc001, 0xffff);
    exact_case(&shr, [0, 0x6ef0, 0, 0], d, 0x3778, 0);
    untouched(&shr, [3, 0x8002, 0, 0], d);
}
