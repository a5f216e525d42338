//! Tests of the scopes session 40's helper h6 widened to their mechanisms (seeds 3901–3903):
//! 3802 6e4d6e41 (an fp8 unpack of the high half of a word ptxas knows is 0), 3701-N-D (a
//! MERGE_C pack built in place in the register of the half beside it), D (a tf32 conversion of
//! packed halves). Each is the GPU's word under the emulation and the spec's without, and the
//! right variants untouched.

use super::*;

/// Whether emulating `d` makes the first output word of `lines` any value (the spec's and
/// `gpu` among them) and fires.
fn any_first_word(lines: &[&str], words: [u32; 4], d: Deviation, gpu: u32) {
    let (s, e, fired) = both(lines, words, d);
    let high = s.bits & !0xFFFF_FFFF;
    assert!(s.is_exact() && e.matches(s.bits) && e.matches(high | u128::from(gpu)), "{d:?} of {lines:?}: {e:?}");
    assert_eq!(fired, vec![d], "{lines:?}");
}

/// 3802 6e4d6e41 widened (corpus/findings/fuzz-h200-3901/, a2febec8, trace/T6A.md): element 1
/// of `mov.b64` of `and.b64 d, 0 (moved), 0x4000000000000` converted by
/// `cvt.rn.f16x2.e5m2x2` is `UNPACK_B R0, 0x100` (stored 0x01000000), the spec 0; so are a
/// loaded source, element 3, a moved mask register first, `shl.b64` / `shr.u64` by 32 or more, a copy
/// between and the low word's high half through `mov.b32`. The low half of a word, a word ptxas
/// does not know is 0, `shr.u64`'s low word and a 64-bit constant moved whole are right.
#[test]
fn a2febec8_3901_an_fp8_unpack_of_the_high_half_of_a_known_zero_word_is_any_value() {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let with = |value: &[&'static str], element: &'static str| {
        let mut lines = value.to_vec();
        lines.extend(["mov.b64 {%h1, %h4, %h5, %h6}, %d2;", element, "st.global.u32 [%out], %r6;"]);
        lines
    };
    let (e1, e3) = ("cvt.rn.f16x2.e5m2x2 %r6, %h4;", "cvt.rn.f16x2.e5m2x2 %r6, %h6;");
    let moved_zero = ["mov.b64 %d0, 0;", "and.b64 %d2, %d0, 0x4000000000000;"];
    any_first_word(&with(&moved_zero, e1), [0; 4], d, 0x0100_0000); // the stored case
    any_first_word(&with(&moved_zero, e3), [0; 4], d, 0x0100_0000); // v2_h6
    let loaded = |op: &'static str| ["ld.global.b64 %d0, [%in];", op];
    let words = [0xffff_ffff; 4];
    any_first_word(&with(&loaded("and.b64 %d2, %d0, 0x4000000000000;"), e1), words, d, 0x40); // v5_ldand
    any_first_word(&with(&loaded("and.b64 %d2, %d0, 0xff00;"), e3), words, d, 0x40);
    any_first_word(&with(&loaded("shl.b64 %d2, %d0, 40;"), e1), words, d, 0x40);
    any_first_word(&with(&loaded("shr.u64 %d2, %d0, 48;"), e3), words, d, 0x40);
    let copy = ["ld.global.b64 %d0, [%in];", "shl.b64 %d1, %d0, 32;", "mov.b64 %d2, %d1;"];
    any_first_word(&with(&copy, "cvt.rn.f16x2.e4m3x2 %r6, %h4;"), words, d, 0x40);
    let mask_reg = ["ld.global.b64 %d0, [%in];", "mov.b64 %d1, 0x40000;", "and.b64 %d2, %d1, %d0;"];
    any_first_word(&with(&mask_reg, e3), words, d, 0x40);
    let low_word = [
        "ld.global.b64 %d0, [%in];",
        "and.b64 %d2, %d0, 0x4000000000000;",
        "mov.b64 {%r1, %r2}, %d2;",
        "mov.b32 {%h4, %h5}, %r1;",
        "cvt.rn.f16x2.e5m2x2 %r6, %h5;",
        "st.global.u32 [%out], %r6;",
    ];
    any_first_word(&low_word, words, d, 0x40);
    // Right: the low half of a word (v3_h1, element 2), a word not known 0 (the mask's bits or
    // an `or` in it), `shr.u64`'s low word, a 32-bit `and` (v6_and32), a constant moved whole.
    untouched(&with(&moved_zero, "cvt.rn.f16x2.e5m2x2 %r6, %h1;"), [0; 4], d);
    untouched(&with(&loaded("and.b64 %d2, %d0, 0x40000;"), "cvt.rn.f16x2.e5m2x2 %r6, %h5;"), words, d);
    untouched(&with(&loaded("and.b64 %d2, %d0, 0x4000000000000;"), e3), words, d);
    untouched(&with(&loaded("and.b64 %d2, %d0, 0xff00000000ff;"), e1), words, d);
    untouched(&with(&loaded("shr.u64 %d2, %d0, 48;"), e1), words, d);
    untouched(&with(&loaded("shl.b64 %d2, %d0, 16;"), e1), words, d);
    let or_in = ["ld.global.b64 %d0, [%in];", "and.b64 %d1, %d0, 0xff;", "or.b64 %d2, %d1, 0x7f000000000000;"];
    untouched(&with(&or_in, e1), words, d);
    let and32 =
        ["mov.b32 %r0, 0;", "and.b32 %r2, %r0, 0x40000;", "mov.b32 {%h1, %h4}, %r2;", e1, "st.global.u32 [%out], %r6;"];
    untouched(&and32, [0; 4], d);
    untouched(&with(&["mov.b64 %d2, 0;"], e1), [0; 4], d);
}

/// 3701-N-D widened to any half that is the fresh result of one ALU instruction
/// (corpus/findings/fuzz-h200-3902/, f7020e9e, trace/T6E.md: `h0 = mul.lo.u16 19135, ld.b8`,
/// `IMAD R6, R2, 0x4abf, RZ; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R6, RZ, RZ, R6; PRMT R7, R6,
/// 0x5410, R6`): the pack `{p, h0, h0, h0}` stores the pair (0) as its later halves, 0 where the
/// spec stores {h0, h0}. Helper h6 compiled the other 16-bit ALU operations, `selp`, the
/// narrowing `cvt.u16.u32`, and a `.v2.u8` element alike (13.0.88 -O3); `min`, `cnot`, `neg`,
/// `cvt.s8.s32`, `cvt.u8.u16`, a copy of the loaded byte and a 16-bit vector load are right.
#[test]
fn f7020e9e_3902_any_alu_half_is_destroyed_by_a_merge_c_pair() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |half: &[&'static str]| {
        let mut lines = vec!["mov.b16 %h0, 19135;", "ld.global.b8 %h1, [%in+5];"];
        lines.extend_from_slice(half);
        lines.extend([
            "mov.b32 %r0, 0;",
            "cvt.rn.satfinite.e4m3x2.f32 %h1, %r0, %r0;",
            "st.global.v4.b16 [%out], {%h1, %h0, %h0, %h0};",
        ]);
        lines
    };
    let words = [0x0000_0100, 0x0000_0100, 0x0000_0100, 0];
    // The stored case: h0 = 0x4abf · 1.
    exact_case(&with(&["mul.lo.u16 %h0, %h0, %h1;"]), words, d, 0x4abf_4abf_4abf_0000, 0x4abf_0000);
    for half in [
        &["add.u16 %h0, %h0, %h1;"][..],
        &["sub.s16 %h0, %h1, %h0;"],
        &["or.b16 %h0, %h1, %h0;"],
        &["shl.b16 %h0, %h1, 3;"],
        &["not.b16 %h0, %h1;"],
        &["mad.lo.u16 %h0, %h1, %h1, %h0;"],
        &["setp.eq.u16 %p0, %h1, 3;", "selp.b16 %h0, %h1, %h0, %p0;"],
        &["ld.global.u32 %r2, [%in+8];", "cvt.u16.u32 %h0, %r2;"],
        &["ld.global.v2.u8 {%h2, %h0}, [%in+8];"],
    ] {
        let (s, e, fired) = both(&with(half), words, d);
        let pair_halves = 0xFFFF_FFFF_0000_0000u128;
        assert!(s.is_exact() && e.is_exact() && s.bits & pair_halves != 0, "{half:?}: {s:?}");
        assert_eq!((e.bits & pair_halves, e.bits & 0xFFFF_FFFF), (0, s.bits & 0xFFFF_FFFF), "{half:?}");
        assert_eq!(fired, vec![d], "{half:?}");
    }
    for half in [
        &["min.u16 %h0, %h1, %h0;"][..],
        &["cnot.b16 %h0, %h1;"],
        &["neg.s16 %h0, %h1;"],
        &["ld.global.u32 %r2, [%in+8];", "cvt.s8.s32 %h0, %r2;"],
        &["cvt.u8.u16 %h0, %h1;"],
        &["mov.b16 %h0, %h1;"],
        &["ld.global.v2.u16 {%h2, %h0}, [%in+8];"],
        &["add.u16 %h0, %h0, 1;"],
    ] {
        untouched(&with(half), words, d);
    }
}

/// 3701-N-D with h = `mul.lo.u16 h1, h1` packed as `mov.b64 {p, h2, h1, h2}` (corpus/findings/
/// fuzz-h200-3903/, 062bc61c, trace/T6F.md: `IMAD R7, R2, R2, RZ; F2FP.SATFINITE.E4M3.F16.
/// UNPACK_B_MERGE_C R7, RZ, R7; PRMT R3, R2, 0x5410, R7`): the high word is 0x000000e8, the spec's
/// 0xd24000e8 (0xe8² = 0xd240).
#[test]
fn n062bc61c_3903_a_mul_lo_half_beside_a_merge_c_pair_is_the_pair_later() {
    let lines = [
        "mov.b32 %r2, 0;",
        "ld.global.b8 %h1, [%in+4];",
        "mul.lo.u16 %h2, %h1, %h1;",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r2;",
        "mov.b64 %d0, {%h0, %h2, %h1, %h2};",
        "st.global.b64 [%out], %d0;",
    ];
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    exact_case(&lines, [0, 0xe8, 0, 0], d, 0xd240_00e8_d240_0000, 0x0000_00e8_d240_0000);
}

/// 3701-N-D with h an element of `ld.v4.u8` (corpus/findings/fuzz-h200-3902/, 5e8d798d,
/// trace/T6D.md, `v2_global_v4u8`: `PRMT R5, R5, 0x7772, RZ; F2FP.SATFINITE.E5M2.F32.
/// PACK_AB_MERGE_C R5, RZ, RZ, R5; STG.E.U8 [+0xf], R5`): the later byte store of h stores the
/// pair's low byte (0), the spec's 0x62.
#[test]
fn n5e8d798d_3902_a_v4_u8_element_beside_a_merge_c_pair_is_the_pair_later() {
    let lines = [
        "mov.b32 %r0, 0;",
        "cvt.rn.satfinite.e5m2x2.f32 %h3, %r0, %r0;",
        "ld.global.v4.u8 {%h4, %h1, %h5, %h6}, [%in];",
        "st.global.v2.b16 [%out+4], {%h3, %h5};",
        "st.global.u8 [%out], %h5;",
    ];
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    exact_case(&lines, [0x0062_0000, 0, 0, 0], d, 0x0062_0000_0000_0062, 0x0062_0000_0000_0000);
}

/// D through any copy ptxas folds (corpus/findings/fuzz-h200-3902/, 5a4c85c6, trace/T6E.md:
/// `or.b32 r7, r6, 0` between `cvt.rn.f16x2.f32 r6, x, 0` and `cvt.rn.tf32.f32 r8, r7`, 13.0.88
/// and 13.5 -O3 `F2FP.F16.F32.PACK_AB R10, R2, RZ; PRMT R7, R10, 0x7610, R7`: the high half −inf is
/// lost, the GPU's 0 where the spec gives 0xfc000000). Helper h6 compiled the other identities
/// alike (13.0.88 -O3); `or.b32 x, 1` is right (a LOP3 of the whole word).
#[test]
fn n5a4c85c6_3902_a_tf32_conversion_through_a_folded_copy_of_packed_halves_is_any_value() {
    let d = Deviation::Tf32OfPackedHalf;
    let with = |copies: &[&'static str]| {
        let mut lines = vec!["ld.global.f32 %r2, [%in];", "mov.b32 %r3, 0;", "cvt.rn.f16x2.f32 %r6, %r2, %r3;"];
        lines.extend_from_slice(copies);
        lines.extend(["cvt.rn.tf32.f32 %r8, %r7;", "st.global.s32 [%out], %r8;"]);
        lines
    };
    let minus_inf = [0xff80_0000, 0, 0, 0];
    let (s, _, _) = both(&with(&["or.b32 %r7, %r6, 0x0;"]), minus_inf, d);
    assert_eq!(s.bits as u32, 0xfc00_0000);
    for copies in [
        &["or.b32 %r7, %r6, 0x0;"][..],
        &["xor.b32 %r7, %r6, 0;"],
        &["add.s32 %r7, %r6, 0;"],
        &["sub.u32 %r7, %r6, 0;"],
        &["and.b32 %r7, %r6, -1;"],
        &["shl.b32 %r7, %r6, 0;"],
        &["shr.u32 %r7, %r6, 0;"],
        &["mul.lo.u32 %r7, %r6, 1;"],
        &["min.u32 %r7, %r6, %r6;"],
        &["or.b32 %r7, %r6, %r3;"],
        &["and.b32 %r1, %r6, -1;", "xor.b32 %r7, %r1, 0;"],
        &["and.b32 %r1, %r6, -1;", "mov.f32 %r7, %r1;"],
    ] {
        any_first_word(&with(copies), minus_inf, d, 0);
    }
    untouched(&with(&["or.b32 %r7, %r6, 1;"]), minus_inf, d);
    untouched(&with(&["ld.global.b32 %r4, [%in+4];", "xor.b32 %r7, %r6, %r4;"]), minus_inf, d);
    let loaded =
        ["ld.global.b32 %r6, [%in];", "or.b32 %r7, %r6, 0;", "cvt.rn.tf32.f32 %r8, %r7;", "st.global.s32 [%out], %r8;"];
    untouched(&loaded, minus_inf, d);
}

/// D through a shuffle of packed glue of constants (corpus/findings/fuzz-h200-3901/, 9f78d433,
/// trace/T6C.md: `min.s16x2 r2, r1, r1` of the moved 0x6fea41c5, `shfl.sync.idx`, `cvt.rn.tf32.f32`;
/// 13.0.88 -O3 `VIMNMX.S16x2 R8, R0, 0x41c541c5; PRMT R5, R8, 0x7610, R5` of R5 never written):
/// any value, the spec's tf32 0x6fea4000. A shuffle of a loaded (per-thread) packed value is right.
#[test]
fn n9f78d433_3901_a_tf32_conversion_of_shuffled_packed_glue_of_constants_is_any_value() {
    let d = Deviation::Tf32OfPackedHalf;
    let with = |source: &[&'static str]| {
        let mut lines = source.to_vec();
        lines.extend([
            "min.s16x2 %r2, %r1, %r1;",
            "shfl.sync.idx.b32 %r3, %r2, 10, 0x1f, -1;",
            "cvt.rn.tf32.f32 %r5, %r3;",
            "st.global.u32 [%out], %r5;",
        ]);
        lines
    };
    let (s, e, fired) = warp_both(&with(&["mov.u32 %r1, 1877623237;"]), [0; 4], d);
    assert_eq!((s.bits as u32, s.is_exact()), (0x6fea_4000, true));
    assert!(e.matches(s.bits) && e.matches(s.bits & !0xFFFF_FFFF), "{e:?}");
    assert_eq!(fired, vec![d]);
    let (s, e, fired) = warp_both(&with(&["ld.global.u32 %r1, [%in];"]), [0x6fea_41c5; 4], d);
    assert_eq!((e, fired), (s, Vec::new()));
}
