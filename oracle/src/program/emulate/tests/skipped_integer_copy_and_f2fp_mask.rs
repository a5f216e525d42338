//! Tests of the known root causes' scopes widened by the traces of seed 3702 (helper scopesC:
//! corpus/findings/fuzz-h200-3702/trace/T3B.md, T3C.md): each the GPU's word under the
//! emulation and the spec's without, and the variants the traces show right left alone.

use super::*;

/// E/I through an identity integer cvt (corpus/findings/fuzz-h200-3702/, 1f3f107d;
/// trace/T3C.md: `cvt.rm.f16.bf16 → cvt.u16.u16 → cvt.rzi.sat.u16.f16` is one
/// `F2I.U16.F16.FLOOR`, 13.0.88 and 13.5.37 -O3): as through `cvt.u16.s16`, f16 58.875 gives 59
/// where the spec truncates to 58, through `cvt.u16.u16` and `cvt.s16.s16`; `cvt.u16.u8` is no
/// copy (it keeps the `F2F`): the spec's (`.sat` is illegal on an identity cvt, §9.7.9.21).
#[test]
fn e_an_identity_16_bit_cvt_between_the_half_cvt_and_the_rzi_is_looked_through() {
    let d = Deviation::Bf16ReadAsF16;
    let with = |copy: &'static str| {
        [
            "mov.b16 %h0, 0x535c;",
            "cvt.f16.f16 %h1, %h0;",
            copy,
            "cvt.rzi.s64.f16 %d2, %h2;",
            "st.global.b64 [%out], %d2;",
        ]
    };
    exact_case(&with("cvt.u16.u16 %h2, %h1;"), [0; 4], d, 58, 59);
    exact_case(&with("cvt.s16.s16 %h2, %h1;"), [0; 4], d, 58, 59);
    untouched(&with("cvt.u16.u8 %h2, %h1;"), [0; 4], d);
}

/// I through `cvt.u16.u16`, the finding's form (1f3f107d, t6): the bf16 0x3cd5 (0.026) is read
/// as f16 1.208 and floored to 1 (I: the `.rm` folded); the spec converts 0.026 and gives 0.
#[test]
fn i_the_findings_bf16_floor_through_cvt_u16_u16() {
    let lines = [
        "ld.global.b16 %h1, [%in];",
        "cvt.rm.f16.bf16 %h2, %h1;",
        "cvt.u16.u16 %h3, %h2;",
        "cvt.rzi.sat.u16.f16 %h4, %h3;",
        "st.global.u16 [%out], %h4;",
    ];
    exact_case(&lines, [0x3cd5, 0, 0, 0], Deviation::DirectedRoundingFoldedIntoInt, 0, 1);
}

/// B: a skipped integer `mov` copy ends the f32 typing as an executed one does
/// (corpus/findings/fuzz-h200-3702/, d479c2c6; trace/T3C.md: `@%p0 mov.b32 %r0, %r0` with p0
/// false after `cvt.rm.f32.bf16 %r0`, ptxas 13.0.88 -O0 `SEL R4, R4, R4, P0; SHF.L.U64.HI`):
/// the shift is by the raw bits (0x3f800000: the spec's 0), not by F2I(1.0) = 1.
#[test]
fn b_a_skipped_integer_copy_ends_the_f32_typing() {
    let with = |guard: &'static str| {
        [
            "mov.b64 %d0, 0x1234;",
            "ld.global.b16 %h0, [%in];",
            "ld.global.u32 %r1, [%in+4];",
            "cvt.rm.f32.bf16 %r0, %h0;",
            "setp.eq.u32 %p0, %r1, 7;",
            guard,
            "shl.b64 %d1, %d0, %r0;",
            "st.global.b64 [%out], %d1;",
        ]
    };
    untouched(&with("@%p0 mov.b32 %r0, %r0;"), [0x3f80, 0, 0, 0], Deviation::F32ShiftAmount);
    untouched(&with("@%p0 mov.u32 %r0, %r0;"), [0x3f80, 0, 0, 0], Deviation::F32ShiftAmount);
    // A skipped `mov.f32` keeps it f32-typed: shl by 1.
    exact_case(&with("@%p0 mov.f32 %r0, %r0;"), [0x3f80, 0, 0, 0], Deviation::F32ShiftAmount, 0, 0x2468);
}

/// J's branch-known value unpacked into bytes (corpus/findings/fuzz-h200-3702/, c388df98;
/// trace/T3B.md: `@!P0 PRMT R0, R4(=0x33), 0x7610, R0`, ptxas 13.0.88 -O3): under `setp.ne.s32
/// %p1, %r0, 51; @%p1 bra`, byte 2 of `mov.b32 {b0, b1, b2, b3}, %r0` is K's byte 0 (0x33, the
/// spec's 0); `v1-byte1` (K = 0x133): byte 1 stays 0x01 and byte 2 is 0x33. The taken branch is
/// right.
#[test]
fn j_byte_2_of_a_branch_known_value_is_its_byte_0() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |setp: &'static str, read: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "mov.b16 %h0, 0;",
            "mov.b16 {%c2, %c1}, %h0;",
            setp,
            "@%p1 bra $L1;",
            "mov.b32 {%c4, %c5, %c2, %c0}, %r0;",
            "$L1:",
            read,
            "st.global.u16 [%out], %h1;",
        ]
    };
    let byte2 = "cvt.u16.u8 %h1, %c2;";
    exact_case(&with("setp.ne.s32 %p1, %r0, 51;", byte2), [51, 0, 0, 0], d, 0, 0x33);
    exact_case(&with("setp.ne.s32 %p1, %r0, 307;", byte2), [307, 0, 0, 0], d, 0, 0x33);
    untouched(&with("setp.ne.s32 %p1, %r0, 307;", "cvt.u16.u8 %h1, %c5;"), [307, 0, 0, 0], d);
    untouched(&with("setp.ne.s32 %p1, %r0, 51;", byte2), [52, 0, 0, 0], d);
}

/// M after the other `F2FP` producers (corpus/findings/fuzz-h200-3702/, c77930ea; trace/T3B.md:
/// `F2FP…UNPACK_B_MERGE_C R0; PRMT R5, R0, 0x5410, RZ` with no mask, ptxas 13.0.88 -O3):
/// `and.b16 h5, h0, 0x40` of a `cvt.rn.satfinite.e4m3x2.f16x2`, `cvt.rn.satfinite.e5m2x2.f32`
/// (`v3`) or `cvt.rn.f16.f32` (`v4`) result, the low half of a pack, is h0 unmasked. As the
/// high half (`v1`) or stored alone (`v2`): the spec's.
#[test]
fn m_an_immediate_mask_of_an_fp8_or_rn_f16_result_is_dropped_in_a_pack() {
    let d = Deviation::F16MaskDropped;
    let with = |cvt: &'static str, tail: &[&'static str]| {
        let mut lines =
            vec!["ld.global.b32 %r1, [%in];", "ld.global.b32 %r2, [%in+4];", cvt, "and.b16 %h5, %h0, 0x40;"];
        lines.push("mov.b16 %h3, 0;");
        lines.extend(tail);
        lines
    };
    let low = ["st.global.v2.s16 [%out], {%h5, %h3};"];
    let spec_and_bug = |cvt: &'static str, words: [u32; 4]| {
        let (s, e, _) = both(&with(cvt, &["st.global.b16 [%out], %h0;"]), words, d);
        assert_eq!(s, e);
        (s.bits as u64 & 0x40, s.bits as u64 & 0xFFFF)
    };
    for (cvt, words) in [
        ("cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r1;", [0x3c00_5640, 0, 0, 0]),
        ("cvt.rn.satfinite.e5m2x2.f32 %h0, %r1, %r2;", [0x4000_0000, 0x3f80_0000, 0, 0]),
        ("cvt.rn.f16.f32 %h0, %r1;", [0x3f9f_0000, 0, 0, 0]),
    ] {
        let (spec, bug) = spec_and_bug(cvt, words);
        assert_ne!(spec, bug, "{cvt}: the mask must change the value");
        exact_case(&with(cvt, &low), words, d, spec, bug);
        untouched(&with(cvt, &["st.global.v2.s16 [%out], {%h3, %h5};"]), words, d);
        untouched(&with(cvt, &["st.global.b16 [%out], %h5;"]), words, d);
    }
}

/// 3701-N-D, the pack of an e4m3 pair built in place (corpus/findings/fuzz-h200-3702/,
/// dc54c0ab, trace/T3A.md: `F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, RZ, R7` with R7 = h1,
/// then `STG.E.S16 [R4], R7`, ptxas 13.0.88 and 13.5 -O3): the later `st.s16 h1` stores the pair
/// e4m3x2(0, 0) = 0, where the spec stores h1 = 0 ^ 2 = 2; the packed word stays right. A scalar
/// `ld.s8` straight into h (`right_ld_s8_distinct_regs`: another register) and a
/// `cvt.rn.f16.f32` in place of the pair (`a3_f16`): the spec's.
#[test]
fn nd_3701_a_live_xor_half_is_overwritten_by_the_pair_packed_beside_it() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |half: &'static str, cvt: &'static str| {
        [
            "ld.global.s8 %h0, [%in];",
            half,
            "mov.b32 %r1, 0;",
            cvt,
            "mov.b32 %r2, {%h4, %h1};",
            "st.global.b16 [%out], %h1;",
        ]
    };
    let (xor, e4m3) = ("xor.b16 %h1, %h0, 0x2;", "cvt.rn.satfinite.e4m3x2.f16x2 %h4, %r1;");
    exact_case(&with(xor, e4m3), [0, 0, 0, 0], d, 0x0002, 0);
    untouched(&with("ld.global.s8 %h1, [%in+1];", e4m3), [0x0200, 0, 0, 0], d);
    untouched(&with(xor, "cvt.rn.f16.f32 %h4, %r1;"), [0, 0, 0, 0], d);
    // The packed word itself is right: {0, 2}.
    let packed = ["ld.global.s8 %h0, [%in];", xor, "mov.b32 %r1, 0;", e4m3, "mov.b32 %r2, {%h4, %h1};"];
    untouched(&[&packed[..], &["st.global.b32 [%out], %r2;"]].concat(), [0, 0, 0, 0], d);
}

/// 3701-N-D through an unpack (corpus/findings/fuzz-h200-3701/, c8681b22, trace/TC1.md
/// `reduced.ptx` and `a2`: `SGXT R7, R7, 0x8; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, RZ, RZ,
/// R7; STG.E.U8 [+5], R7`): the high half of `mov.b32 {h21, h22}, r7` of the pack `{p, h4}`
/// (h4 of a `ld.v4.s8`) is the pair, whose low byte 0 is stored where the spec stores h4's
/// 0x16; through `mov.b64 {r7, r8}` of a 64-bit pack too. The low half (h21) stays.
#[test]
fn nd_3701_the_high_half_unpacked_from_the_in_place_pack_is_the_pair() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |pack: &[&'static str]| {
        let mut lines = vec![
            "ld.global.v4.s8 {%h1, %h2, %h3, %h4}, [%in];",
            "mov.b32 %r2, 0;",
            "cvt.rn.satfinite.e4m3x2.f32 %h0, %r2, %r2;",
        ];
        lines.extend(pack);
        lines.extend(["mov.b32 {%h21, %h22}, %r7;", "st.global.u8 [%out+1], %h22;"]);
        lines
    };
    let words = [0x16dd_0201, 0, 0, 0];
    exact_case(&with(&["mov.b32 %r7, {%h0, %h4};"]), words, d, 0x1600, 0);
    let wide = ["mov.b64 %d2, {%h0, %h4, %h3, %h1};", "mov.b64 {%r7, %r8}, %d2;"];
    exact_case(&with(&wide), words, d, 0x1600, 0);
    let distinct = ["ld.global.s8 %h4, [%in+3];", "mov.b32 %r7, {%h0, %h4};"];
    untouched(&with(&distinct), words, d);
}

/// M through a subtraction of a known zero (corpus/findings/fuzz-h200-3702/, c77930ea, the
/// stored case: `shl.b16 %h6, %h0, 0x3f; sub.s16 %h7, %h5, %h6`, 13.0.88 -O3 `PRMT R5, R0,
/// 0x5410, RZ` with neither `LOP3` nor subtraction): the low half of the pack is the e4m3 pair
/// unmasked. A shift by 15 (not a known zero) leaves the spec's.
#[test]
fn m_the_unmasked_value_survives_a_subtraction_of_a_shift_past_16_bits() {
    let d = Deviation::F16MaskDropped;
    let with = |shl: &'static str| {
        [
            "ld.global.b32 %r1, [%in];",
            "cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r1;",
            "and.b16 %h5, %h0, 0x40;",
            shl,
            "sub.s16 %h7, %h5, %h6;",
            "mov.b16 %h3, 0;",
            "st.global.v2.s16 [%out], {%h7, %h3};",
        ]
    };
    let words = [0x3c00_5640, 0, 0, 0];
    let (pair, _, _) = both(
        &["ld.global.b32 %r1, [%in];", "cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r1;", "st.global.b16 [%out], %h0;"],
        words,
        d,
    );
    let pair = pair.bits as u64 & 0xFFFF;
    assert_ne!(pair & 0x40, pair);
    exact_case(&with("shl.b16 %h6, %h0, 0x3f;"), words, d, pair & 0x40, pair);
    untouched(&with("shl.b16 %h6, %h0, 0xf;"), words, d);
}
