//! Tests of the known root causes' scopes widened by the traces of seed 3801 (helper w2:
//! corpus/findings/fuzz-h200-3801/trace/T4A.md … T4C.md): each the GPU's word under the
//! emulation and the spec's without, and the variants the traces show right left alone.

use super::*;

/// C3-2 of a `.u64` product (corpus/findings/fuzz-h200-3801/, b8a9995e, trace/T4B.md: `mul.lo.u64`
/// and `v1_mul_s64` give one listing, the product stored unshifted; ptxas 13.0.88 -O3 the same
/// for `mad.lo.u64` and `mul.wide.s32`): `shl.b64` by a moved 612370843 (≥ 64) stores the
/// product where §9.7.8.4 clamps the amount (0).
#[test]
fn c3_2_an_unsigned_or_signed_product_is_stored_unshifted() {
    let d = Deviation::ShlB64OfProductByConstantDropped;
    let with = |product: &'static str| {
        [
            "ld.global.u64 %d0, [%in];",
            "mov.b32 %r0, 612370843;",
            product,
            "shl.b64 %d2, %d1, %r0;",
            "st.global.b64 [%out], %d2;",
        ]
    };
    let x = [0, 0x5d95_4bcf, 0, 0];
    exact_case(&with("mul.lo.u64 %d1, %d0, 0x3f5eab7ed9631e1d;"), x, d, 0, 0xe0d8_d873_0000_0000);
    let y = [0x5d95_4bcf, 0, 0, 0];
    exact_case(&with("mad.lo.u64 %d1, %d0, 0x3f5eab7ed9631e1d, 5;"), y, d, 0, 0xdf98_5de2_e0d8_d878);
    let wide = [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r0, 612370843;",
        "mul.wide.s32 %d1, %r1, 0x631e1d;",
        "shl.b64 %d2, %d1, %r0;",
        "st.global.b64 [%out], %d2;",
    ];
    exact_case(&wide, [(-3i32) as u32, 0, 0, 0], d, 0, 0xffff_ffff_fed6_a5a9);
    // A loaded multiplier is no product by an immediate.
    untouched(&with("mul.lo.u64 %d1, %d0, %d0;"), x, d);
}

/// 3501-N1 with c a value ptxas knows (corpus/findings/fuzz-h200-3801/, 12356f04, trace/T4B.md:
/// `or.b32` of a moved 0 and 0x80000000 gives `v1_mov_c`'s 13.0.88 -O3 listing, `STG` of a):
/// `slct.s32.s32 d, a, 0, c` with c = −2^31 stores a; the spec (c < 0) gives 0.
#[test]
fn n1_3501_a_constant_folded_c_selects_a() {
    let d = Deviation::SlctS32ByMinImmediateSelectsA;
    let with = |c: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            c,
            "or.b32 %r8, %r5, 0x80000000;",
            "slct.s32.s32 %r9, %r0, 0, %r8;",
            "st.global.s32 [%out], %r9;",
        ]
    };
    exact_case(&with("mov.b32 %r5, 0;"), [0x1234, 0, 0, 0], d, 0, 0x1234);
    // `v2_or_of_loaded`: c an `or.b32` of a loaded word is right (`ISETP.GE; SEL`).
    untouched(&with("ld.global.u32 %r5, [%in+4];"), [0x1234, 0, 0, 0], d);
}

/// C's float direction through a `mov.f32` (corpus/findings/fuzz-h200-3801/, 0b744aae,
/// trace/T4B.md: `cvt.sat.s32.u32; mov.f32; cvt.sat.f32.f32` compiles to `ISETP.GE.U32; SEL`
/// as `v1_no_movf32` does, ptxas 13.0.88 and 13.5 -O3): the NaN 0x7fffffff passes unsaturated,
/// where §9.7.9.21's `.sat` gives 0.
#[test]
fn c_float_direction_looks_through_a_mov_f32() {
    let d = Deviation::FloatSatOfIntSatDropped;
    let copied = [
        "ld.global.b32 %r0, [%in];",
        "cvt.sat.s32.u32 %r1, %r0;",
        "mov.f32 %r2, %r1;",
        "cvt.sat.f32.f32 %r2, %r2;",
        "st.global.b32 [%out], %r2;",
    ];
    let (spec, emulated, fired) = both(&copied, [0xe147_7866, 0, 0, 0], d);
    assert_eq!((spec.bits, spec.is_exact()), (0, true));
    assert!(emulated.matches(0x7fff_ffff) && !emulated.matches(0), "{emulated:?}");
    assert_eq!(fired, vec![d]);
    // `v2_no_intsat_right`: no integer `cvt.sat` before the copy keeps `FADD.SAT`.
    let loaded =
        ["ld.global.b32 %r0, [%in];", "mov.f32 %r2, %r0;", "cvt.sat.f32.f32 %r2, %r2;", "st.global.b32 [%out], %r2;"];
    untouched(&loaded, [0x7fff_ffff, 0, 0, 0], d);
}

/// N-7 with the start a `mov.f32` of a float immediate (corpus/findings/fuzz-h200-3801/,
/// 14d15bd2, trace/T4C.md: 0fFD410B87, start 135, and `v_movb32_int` give one 13.0.88 -O3
/// listing, `MOV R7, 0xffffffff`): −1 where §9.7.1.19 fills with a's sign (0).
#[test]
fn n7_a_float_immediate_start_is_known() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |start: &'static str| {
        ["ld.global.u32 %r2, [%in];", start, "bfe.s32 %r7, %r2, %r5, 0x12;", "st.global.s32 [%out], %r7;"]
    };
    exact_case(&with("mov.f32 %r5, 0fFD410B87;"), [0x1234, 0, 0, 0], d, 0, 0xffff_ffff);
    exact_case(&with("mov.b32 %r5, 0xFD410B87;"), [0x1234, 0, 0, 0], d, 0, 0xffff_ffff);
    // A loaded start (`v3_loaded_pos` of 33969c1e, trace/T4A.md) is right.
    untouched(&with("ld.global.u32 %r5, [%in+4];"), [0x1234, 0xFD41_0B87, 0, 0], d);
}

/// C1-N4 with `pos` a moved immediate (corpus/findings/fuzz-h200-3801/, bfd7f6c9, trace/T4C.md:
/// `mov.f32 r2, 0f00000012`, `v_movint_pos` and `v_imm_pos` give one 13.0.88 -O3 listing,
/// `LOP3.LUT R7, R9, 0x1fc0000, R2, 0xe2`): the length 103 inserts 7 bits at 18, where
/// §9.7.1.20 inserts up to the msb.
#[test]
fn c1_n4_a_moved_position_is_a_constant() {
    let d = Deviation::BfiConstantLengthTakenMod32;
    let with = |pos: &'static str| {
        [
            "mov.u32 %r0, 318344039;",
            "ld.global.s32 %r1, [%in];",
            pos,
            "bfi.b32 %r1, %r0, %r1, %r2, %r0;",
            "st.global.s32 [%out], %r1;",
        ]
    };
    let b = [0x7a13_d806, 18, 0, 0];
    exact_case(&with("mov.f32 %r2, 0f00000012;"), b, d, 0x2d9f_d806, 0x7b9f_d806);
    exact_case(&with("mov.u32 %r2, 18;"), b, d, 0x2d9f_d806, 0x7b9f_d806);
    // A loaded position is no constant.
    untouched(&with("ld.global.u32 %r2, [%in+4];"), b, d);
}

/// 3701-N-D through a vector store, of an e5m2 pair of a loaded word (corpus/findings/
/// fuzz-h200-3801/, d03f820c, trace/T4B.md: `F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R7, R2, R2,
/// R7` in the register of the `xor.b16` half h9, ptxas 13.0.88 and 13.5 -O3): the store of
/// {pair, h9} is right, a later read of h9 takes the pair (0x7b7b: 0x477fefff saturates to
/// e5m2 57344), where the spec gives 0xefff ^ 0x477f.
#[test]
fn nd_3701_a_vector_store_of_a_loaded_e5m2_pair_destroys_its_half() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |pair: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            pair,
            "mov.b32 {%h7, %h8}, %r0;",
            "xor.b16 %h9, %h7, %h8;",
            "st.global.v2.s16 [%out], {%h3, %h9};",
            "st.global.s16 [%out+4], %h9;",
        ]
    };
    let x = [0x477f_efff, 0, 0, 0];
    exact_case(&with("cvt.rn.satfinite.e5m2x2.f32 %h3, %r0, %r0;"), x, d, 0xa880_a880_7b7b, 0x7b7b_a880_7b7b);
    // `v1_e4m3`: the same with an e4m3 pair (0x7e7e, e4m3's 448 saturated).
    exact_case(&with("cvt.rn.satfinite.e4m3x2.f32 %h3, %r0, %r0;"), x, d, 0xa880_a880_7e7e, 0x7e7e_a880_7e7e);
    // `v2_f16_right`: an f16 in place of the pair has no MERGE_C.
    untouched(&with("cvt.rn.f16.f32 %h3, %r0;"), x, d);
}

/// 3701-N-D reaches a register ptxas numbers as the half (d03f820c's stored case: `xor.b16 h12`
/// of a second unpack of the same word is `R7`, h9's register; `PRMT R7, R7, 0x5410, RZ` for
/// `{h12, 0}` takes the pair), and only that register.
#[test]
fn nd_3701_a_common_subexpression_of_the_half_is_destroyed_too() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |second: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            "mov.b16 %h0, 0;",
            "cvt.rn.satfinite.e5m2x2.f32 %h3, %r0, %r0;",
            "mov.b32 {%h7, %h8}, %r0;",
            "xor.b16 %h9, %h7, %h8;",
            "mov.b32 {%h10, %h11}, %r0;",
            second,
            "st.global.v2.s16 [%out], {%h3, %h9};",
            "st.global.v2.s16 [%out+4], {%h12, %h0};",
        ]
    };
    let x = [0x477f_efff, 0, 0, 0];
    exact_case(&with("xor.b16 %h12, %h10, %h11;"), x, d, 0xa880_a880_7b7b, 0x7b7b_a880_7b7b);
    // Another expression of the same halves is another register.
    untouched(&with("and.b16 %h12, %h10, %h11;"), x, d);
}

/// 3701-N-D with the half a byte pack (corpus/findings/fuzz-h200-3801/, 536f1382, trace/T4A.md:
/// `LOP3 0xff; PRMT R7, R2, 0x6540, R7; F2FP…UNPACK_B_MERGE_C R7, RZ, R7`, ptxas 13.0.88 and 13.5
/// -O3): the pack `{pair, h1, h1, 0}`'s third half reads h1's register after the merge, the pair
/// 0, so the xor of its words is 0x21210000 where the spec gives 0x21212121.
#[test]
fn nd_3701_a_byte_packed_half_is_destroyed_within_its_own_pack() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |half: &'static str| {
        [
            "ld.global.s8 %c0, [%in];",
            half,
            "mov.b32 %r2, 0;",
            "cvt.rn.satfinite.e4m3x2.f16x2 %h2, %r2;",
            "mov.b16 %h3, 0;",
            "mov.b64 %d0, {%h2, %h1, %h1, %h3};",
            "mov.b64 {%r3, %r4}, %d0;",
            "xor.b32 %r5, %r3, %r4;",
            "st.global.s32 [%out], %r5;",
        ]
    };
    exact_case(&with("mov.b16 %h1, {%c0, %c0};"), [0x21, 0, 0, 0], d, 0x2121_2121, 0x2121_0000);
    // `v1_half_from_ld_u16`: a loaded half has another register.
    let loaded = [
        "ld.global.b16 %h1, [%in];",
        "mov.b32 %r2, 0;",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h2, %r2;",
        "mov.b32 %r3, {%h2, %h1};",
        "st.global.b32 [%out], %r3;",
        "st.global.b16 [%out+4], %h1;",
    ];
    untouched(&loaded, [0x2121, 0, 0, 0], d);
}
