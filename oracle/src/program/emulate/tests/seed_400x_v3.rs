//! Tests of known root causes widened to their mechanisms after seeds 4002–4003's traces
//! (corpus/findings/fuzz-h200-400{2,3}/trace/T7D.md, T7E.md, T7F.md, T7H.md; helper v3,
//! session 40): 3702-N4 and 3301-N4 (a `.u32` use of a sign-extended field ptxas knows),
//! 3602-N4 (the s8 round trip), L (`cvt.s64.u32` inside `shl.b64`) and 3501-N2 (a `shl.b64`
//! chain folded into `LEA`). Each: the traced form emulated, a neighbour the listings show
//! right left alone.

use super::*;

/// 3702-N4 with an `.f64` destination (a8402534, T7E.md: `I2F.F64.S8`, with or without
/// `.sat`): 0xffffffe1 converts as −31.0 (saturated: 0.0) where the spec converts 4294967265.0
/// (saturated: 1.0). A scalar `ld.s8` is right (`v3_scalar_sat`, `I2F.F64.U32`).
#[test]
fn n4_3702_a_vector_byte_converted_to_f64_is_signed() {
    let d = Deviation::ByteOfVectorLoadU32CvtConvertsSigned;
    let with = |cvt: &'static str| {
        ["ld.global.v4.s8 {%h0, %h1, %h2, %h3}, [%in];", "cvt.s32.s16 %r0, %h0;", cvt, "st.global.f64 [%out], %d1;"]
    };
    let words = [0x0000_00e1, 0, 0, 0];
    exact_case(&with("cvt.rn.f64.u32 %d1, %r0;"), words, d, 0x41ef_ffff_fc20_0000, 0xc03f_0000_0000_0000);
    exact_case(&with("cvt.rn.sat.f64.u32 %d1, %r0;"), words, d, 0x3ff0_0000_0000_0000, 0);
    let scalar =
        ["ld.global.s8 %h0, [%in];", "cvt.s32.s16 %r0, %h0;", "cvt.rn.f64.u32 %d1, %r0;", "st.global.f64 [%out], %d1;"];
    untouched(&scalar, words, d);
}

/// 3702-N4 from a byte- or half-aligned `bfe.s32` (bb2b2b42, T7H.md: `bfe.s32 r, x, 0, 16;
/// cvt.rn.f32.u32` is `LDG.E.U16; I2F.S16`): 0xfffff570 converts as −2704.0 (0xc5290000), the
/// spec 4.29496448e9 (0x4f7ffff5). A field (0,12) is right (`SGXT; I2FP.F32.U32`).
#[test]
fn n4_3702_an_aligned_bfe_field_converted_to_float_is_signed() {
    let d = Deviation::ByteOfVectorLoadU32CvtConvertsSigned;
    let with = |bfe: &'static str| {
        ["ld.global.b32 %r7, [%in];", bfe, "cvt.rn.f32.u32 %r12, %r11;", "st.global.b32 [%out], %r12;"]
    };
    let words = [0x27ee_f570, 0, 0, 0];
    exact_case(&with("bfe.s32 %r11, %r7, 0, 16;"), words, d, 0x4f7f_fff5, 0xc529_0000);
    // (8,8): 0xf5 is −11.0 (0xc1300000).
    exact_case(&with("bfe.s32 %r11, %r7, 8, 8;"), words, d, 0x4f80_0000, 0xc130_0000);
    untouched(&with("bfe.s32 %r11, %r7, 0, 12;"), words, d);
}

/// 3301-N4 from a `.v4.s8` element (a1b4d60b, T7E.md: `cvt.u32.s8; cvt.sat.s8.u32` is `PRMT
/// 0x9991` and a signed clamp): 0xffffffff stays −1 (0xff) where the spec clamps it to 0x7f. A
/// scalar `ld.s8` is right (`v1_scalar_lds8`, an unsigned clamp).
#[test]
fn n4_3301_a_vector_byte_saturated_from_u32_is_signed() {
    let d = Deviation::SatCvtOfByteBfeSigned;
    let vector = [
        "ld.global.v4.s8 {%h0, %h1, %h2, %h3}, [%in];",
        "cvt.u32.s8 %r2, %h1;",
        "cvt.sat.s8.u32 %h5, %r2;",
        "st.global.b8 [%out], %h5;",
    ];
    let words = [0x2ce4_ff2f, 0, 0, 0];
    exact_case(&vector, words, d, 0x7f, 0xff);
    let scalar =
        ["ld.global.s8 %h1, [%in+1];", "cvt.u32.s8 %r2, %h1;", "cvt.sat.s8.u32 %h5, %r2;", "st.global.b8 [%out], %h5;"];
    untouched(&scalar, words, d);
}

/// 3602-N4 entered through `ld.s8` then `cvt.s64.s16` (cd70f198, T7D.md: `LDG.E.S8` and
/// `SHF.R.U32.HI` with no 16-bit mask): 0xff80 >> 1 is 0xffc0, the spec 0x7fc0. An `ld.b8`
/// source is right (`v2_ldb8_cvt_s64_s16`).
#[test]
fn n4_3602_a_round_trip_from_a_loaded_s8_through_s16_shifts_ones_in() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let with = |ld: &'static str| {
        [ld, "cvt.s64.s16 %d1, %h1;", "cvt.s8.u64 %h7, %d1;", "shr.u16 %h10, %h7, 1;", "st.global.b16 [%out], %h10;"]
    };
    let words = [0x8000_0000, 0, 0, 0];
    exact_case(&with("ld.global.s8 %h1, [%in+3];"), words, d, 0x7fc0, 0xffc0);
    untouched(&with("ld.global.b8 %h1, [%in+3];"), words, d);
}

/// 3602-N4 read by `mad.hi.u16`/`mul.hi.u16` (0aa7c9e7, T7E.md: `IMAD R0, R0, 0x8001; LEA.HI
/// R0, R0, 0x5ccd, RZ, 0x10` of the 32-bit extension): 0x5cc6 where the spec gives 0xdcc7. The
/// low half (`mad.lo`) is right.
#[test]
fn n4_3602_a_round_trip_read_by_a_high_half_product_multiplies_the_32_bit_extension() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let with = |reader: &'static str| {
        [
            "ld.global.u8 %h1, [%in];",
            "cvt.u64.s8 %d1, %h1;",
            "cvt.s8.s64 %h0, %d1;",
            "mov.b16 %h2, 0x8001;",
            reader,
            "st.global.b16 [%out], %h7;",
        ]
    };
    let words = [0xf3, 0, 0, 0];
    exact_case(&with("mad.hi.u16 %h7, %h0, 0x8001, 0x5ccd;"), words, d, 0xdcc7, 0x5cc6);
    exact_case(&with("mul.hi.u16 %h7, %h2, %h0;"), words, d, 0x7ffa, 0xfff9);
    untouched(&with("mad.lo.u16 %h7, %h0, 0x8001, 0x5ccd;"), words, d);
}

/// L inside `shl.b64` by 0 (9ebbecf8, T7D.md: `SHF.R.S32.HI R7, RZ, 0x1f, R2`): the high word of
/// 0x80000000 is 0xffffffff, the spec 0. `shr.b64` by 0 is right (`v3_shr_0`).
#[test]
fn l_a_shift_by_zero_sign_extends() {
    let d = Deviation::CvtS64U32SignExtends;
    let with = |shift: &'static str| {
        ["ld.global.u32 %r3, [%in];", "cvt.s64.u32 %d1, %r3;", shift, "st.global.b64 [%out], %d1;"]
    };
    let words = [0x8000_0000, 0, 0, 0];
    exact_case(&with("shl.b64 %d1, %d1, 0;"), words, d, 0x8000_0000, 0xffff_ffff_8000_0000);
    untouched(&with("shr.b64 %d1, %d1, 0;"), words, d);
}

/// 3501-N2 with the chain as the addend of a mad of constants (5ddee562, T7F.md: `mad.wide.s32
/// d1, −1, −1, chain` is `LEA …, 0x1, 0x10` of x << 16): (x << 32) + 1 where the spec gives
/// x << 64 + 1 = 1. A loaded factor keeps every shift (right).
#[test]
fn n2_3501_a_chain_added_by_a_mad_of_constants_is_cut() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let with = |factor: &'static str, mad: &'static str| {
        [
            "ld.global.s64 %d0, [%in];",
            "shl.b64 %d0, %d0, 16;",
            "shl.b64 %d0, %d0, 16;",
            "shl.b64 %d0, %d0, 16;",
            "shl.b64 %d0, %d0, 16;",
            factor,
            mad,
            "st.global.b64 [%out], %d1;",
        ]
    };
    let words = [0x27f1_852f, 0, 0xffff_ffff, 0];
    let wide = "mad.wide.s32 %d1, %r2, %r2, %d0;";
    exact_case(&with("mov.b32 %r2, -1;", wide), words, d, 1, 0x27f1_852f_0000_0001);
    exact_case(&with("mov.b64 %d2, 3;", "mad.lo.u64 %d1, %d2, 5, %d0;"), words, d, 15, 0x27f1_852f_0000_000f);
    untouched(&with("ld.global.s32 %r2, [%in+8];", wide), words, d);
}
