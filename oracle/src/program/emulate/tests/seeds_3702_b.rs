//! Tests of the emulations of seed 3702's conversion root causes (`emulate/fuzz3702_conversions.rs`):
//! 3702-N4, N5, N6 and root cause C's `cvt.sat.s16.u32` of a `.u32` float conversion. Each is
//! the GPU's word under the emulation and the spec's without, and the trace's right variants
//! untouched.

use super::*;

/// 3702-N4 (corpus/findings/fuzz-h200-3702/, 30858a36, trace `reduced.ptx`): byte 1 of
/// `ld.global.v2.s8` (0xb1) through `cvt.s32.s8` and `cvt.rp.bf16.u32` gives bf16(−79) = 0xc29e
/// (13.0.88 and 13.5 -O3 `I2F.BF16.S8.RP R7, R2.B1`), the spec bf16(0xffffffb1) = 0x4f80; a
/// scalar `ld.s8`, an `.s16` source and `.f64` are right.
#[test]
fn n4_3702_a_byte_of_a_v2_s8_load_converted_from_u32_converts_signed() {
    let d = Deviation::ByteOfVectorLoadU32CvtConvertsSigned;
    let with = |load: &'static str, widen: &'static str, convert: &'static str| {
        [load, widen, convert, "st.global.b16 [%out], %h3;"]
    };
    let v2 = "ld.global.v2.s8 {%h0, %h1}, [%in];";
    let s32 = "cvt.s32.s8 %r5, %h1;";
    exact_case(&with(v2, s32, "cvt.rp.bf16.u32 %h3, %r5;"), [0xb100, 0, 0, 0], d, 0x4f80, 0xc29e);
    // Element 0 (v9) and an f16 destination (v11) are wrong the same way.
    let h0 = "cvt.s32.s8 %r5, %h0;";
    exact_case(&with(v2, h0, "cvt.rn.f16.u32 %h3, %r5;"), [0x00b1, 0, 0, 0], d, 0x7c00, 0xd4f0);
    // A non-negative byte converts the same either way.
    untouched(&with(v2, s32, "cvt.rp.bf16.u32 %h3, %r5;"), [0x4200, 0, 0, 0], d);
    untouched(&with("ld.global.s8 %h1, [%in+1];", s32, "cvt.rp.bf16.u32 %h3, %r5;"), [0xb100, 0, 0, 0], d);
    // `cvt.u32.s8` of the element is wrong too (T3A's `v7` right is a scalar `ld.s8`;
    // corpus/findings/fuzz-h200-3902/, 1ab3812a `v3_u32_s8`, and session 40 with this
    // `cvt.rp.bf16.u32`: `I2F.BF16.S8.RP R7, R2.B1`, 13.0.88 -O3).
    exact_case(&with(v2, "cvt.u32.s8 %r5, %h1;", "cvt.rp.bf16.u32 %h3, %r5;"), [0xb100, 0, 0, 0], d, 0x4f80, 0xc29e);
    untouched(&with(v2, s32, "cvt.rp.bf16.s32 %h3, %r5;"), [0xb100, 0, 0, 0], d);
    let s16 = with("ld.global.v2.s16 {%h0, %h1}, [%in];", "cvt.s32.s16 %r5, %h1;", "cvt.rp.bf16.u32 %h3, %r5;");
    untouched(&s16, [0, 0, 0, 0], d);
    untouched(&s16, [0xb100_0000, 0, 0, 0], d);
    // T3A's right `.f64` (`v5`) was a scalar `ld.s8`; of a vector element `.f64` is wrong too
    // (corpus/findings/fuzz-h200-4002/, a8402534, trace/T7E.md: `tests/seed_400x_v3.rs`).
    let f64 = ["ld.global.s8 %h1, [%in+1];", s32, "cvt.rn.f64.u32 %d3, %r5;", "st.global.b64 [%out], %d3;"];
    untouched(&f64, [0xb100, 0, 0, 0], d);
}

/// 3702-N5 (corpus/findings/fuzz-h200-3702/, 5bf2de82 and b9d3a4f3): `cvt.u8.s32` of `prmt.b32`
/// whose byte-0 selector nibble is 0xA or 0xB (the sign of a's byte 2 or 3) gives 0 (13.0.88
/// -O3 `PRMT R7, RZ, 0xa, R2`: a dropped), the spec 0xff; an index nibble, the sign of b's
/// byte and a constant b are right. A live second reader (the word stored) does not keep the
/// whole `PRMT` for the cvt (session 40, 13.0.88 -O3: `PRMT R9, RZ, 0xa, R2` for the cvt beside
/// `PRMT R7, R11, 0xa, R2` for the store; seed_390x_h1.rs).
#[test]
fn n5_3702_a_prmt_narrowed_to_a_sign_byte_of_a_reads_the_sign_of_zero() {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    let with = |b: &'static str, selector: &'static str| {
        [
            "mov.b32 %r0, 3285697495;",
            b,
            selector,
            "prmt.b32 %r5, %r0, %r3, %r4;",
            "cvt.u8.s32 %h5, %r5;",
            "st.global.b16 [%out], %h5;",
        ]
    };
    let loaded = "ld.global.b32 %r3, [%in];";
    exact_case(&with(loaded, "mov.f32 %r4, 0f0000A86A;"), [0x1234, 0, 0, 0], d, 0xff, 0);
    // b9d3a4f3: a = b loaded, an immediate selector 0xCFAB6CFB (sign of a's byte 3).
    let same = [
        "ld.global.s32 %r1, [%in];",
        "prmt.b32 %r2, %r1, %r1, 3484088827;",
        "cvt.u8.s32 %h3, %r2;",
        "st.global.b8 [%out], %h3;",
    ];
    exact_case(&same, [0xd400_0000, 0, 0, 0], d, 0xff, 0);
    untouched(&with(loaded, "mov.b32 %r4, 0x0002;"), [0x1234, 0, 0, 0], d);
    untouched(&with(loaded, "mov.b32 %r4, 0x000C;"), [0x80, 0, 0, 0], d);
    untouched(&with("mov.b32 %r3, 0x1234;", "mov.b32 %r4, 0x000A;"), [0, 0, 0, 0], d);
    untouched(&with(loaded, "ld.global.b32 %r4, [%in+4];"), [0x1234, 0xA, 0, 0], d);
    let stored_too = [
        "mov.b32 %r0, 3285697495;",
        "ld.global.b32 %r3, [%in];",
        "prmt.b32 %r5, %r0, %r3, 0x000A;",
        "cvt.u8.s32 %h5, %r5;",
        "st.global.b16 [%out], %h5;",
        "st.global.b32 [%out+4], %r5;",
    ];
    exact_case(&stored_too, [0x1234, 0, 0, 0], d, 0xd7d7_d7ff_0000_00ff, 0xd7d7_d7ff_0000_0000);
    // The consumer `and.b32 0xff` (v5) is wrong the same way; a mask of another byte reads it
    // from the whole `PRMT` (0xffff narrows too: seed_3801_w3.rs).
    let masked = |mask: &'static str| {
        [
            "mov.b32 %r0, 3285697495;",
            "ld.global.b32 %r3, [%in];",
            "prmt.b32 %r5, %r0, %r3, 0xA86A;",
            mask,
            "st.global.b32 [%out], %r6;",
        ]
    };
    exact_case(&masked("and.b32 %r6, %r5, 0xff;"), [0x1234, 0, 0, 0], d, 0xff, 0);
    untouched(&masked("and.b32 %r6, %r5, 0xff00;"), [0x1234, 0, 0, 0], d);
}

/// 3702-N6 (corpus/findings/fuzz-h200-3702/, 3c1be158, trace `reduced.ptx`, `v2`, `v6`):
/// `shl.b16` of 0x1ffc by `cvt.rpi.ftz.u32.f32` of the subnormal 0x0001ffff gives 0x3ff8
/// (13.0.88 and 13.5 -O3 `F2I.U16.CEIL.NTZ`, no `.FTZ`: a shift by 1), the spec 0x1ffc (the
/// flush gives +0, a shift by 0); `shr.u16`/`shr.s16` the same; no `.ftz`, a normal float, a
/// negative subnormal and `shl.b32` are right.
#[test]
fn n6_3702_a_16_bit_shift_by_an_ftz_u32_cvt_of_a_subnormal_is_not_flushed() {
    let d = Deviation::Shift16ByFtzU32CvtFlushDropped;
    let with = |convert: &'static str, shift: &'static str| {
        ["mov.b16 %h0, 8188;", "ld.global.b32 %r0, [%in];", convert, shift, "st.global.b16 [%out], %h2;"]
    };
    let rpi_ftz = "cvt.rpi.ftz.u32.f32 %r0, %r0;";
    let subnormal = [0x0001_ffff, 0, 0, 0];
    exact_case(&with(rpi_ftz, "shl.b16 %h2, %h0, %r0;"), subnormal, d, 0x1ffc, 0x3ff8);
    exact_case(&with(rpi_ftz, "shr.u16 %h2, %h0, %r0;"), subnormal, d, 0x1ffc, 0x0ffe);
    exact_case(&with(rpi_ftz, "shr.s16 %h2, %h0, %r0;"), subnormal, d, 0x1ffc, 0x0ffe);
    untouched(&with("cvt.rpi.u32.f32 %r0, %r0;", "shl.b16 %h2, %h0, %r0;"), subnormal, d);
    untouched(&with(rpi_ftz, "shl.b16 %h2, %h0, %r0;"), [0x3f80_0000, 0, 0, 0], d);
    untouched(&with(rpi_ftz, "shl.b16 %h2, %h0, %r0;"), [0x8001_ffff, 0, 0, 0], d);
    let b32 = [
        "mov.b32 %r1, 8188;",
        "ld.global.b32 %r0, [%in];",
        rpi_ftz,
        "shl.b32 %r2, %r1, %r0;",
        "st.global.b32 [%out], %r2;",
    ];
    untouched(&b32, subnormal, d);
}

/// Root cause C, float-to-int direction (corpus/findings/fuzz-h200-3702/, f25dd895, trace
/// `reduced.ptx`, `v1`): `cvt.sat.s16.u32` of `cvt.rni.u32.f32` of −1.0e18 gives 0x8000
/// (13.0.88 and 13.5 -O3 `F2I.S16.NTZ`), the spec 0 (the `.u32` clamp first); `.rzi` the same,
/// and `.rmi` (session 43: seed 4202's 2bf704ce, `F2I.S16.FLOOR.NTZ`, T12b4.md; f25dd895 had no
/// `.rmi` variant); a positive float, `cvt.sat.s8.u32`, `cvt.sat.u16.u32` and an `.s32`
/// intermediate are right.
#[test]
fn c_3702_sat_s16_of_a_u32_float_cvt_saturates_the_float_signed() {
    let d = Deviation::IntSatS16OfU32CvtFoldedSigned;
    let with = |first: &'static str, second: &'static str| {
        ["ld.global.u32 %r0, [%in];", first, second, "st.global.b16 [%out], %h0;"]
    };
    let negative = [0xdd5e_70b2, 0, 0, 0];
    let sat_s16 = "cvt.sat.s16.u32 %h0, %r1;";
    exact_case(&with("cvt.rni.u32.f32 %r1, %r0;", sat_s16), negative, d, 0, 0x8000);
    exact_case(&with("cvt.rzi.u32.f32 %r1, %r0;", sat_s16), negative, d, 0, 0x8000);
    untouched(&with("cvt.rni.u32.f32 %r1, %r0;", sat_s16), [0x4780_0000, 0, 0, 0], d);
    exact_case(&with("cvt.rmi.u32.f32 %r1, %r0;", sat_s16), negative, d, 0, 0x8000);
    untouched(&with("cvt.rni.u32.f32 %r1, %r0;", "cvt.sat.s8.u32 %h0, %r1;"), negative, d);
    untouched(&with("cvt.rni.u32.f32 %r1, %r0;", "cvt.sat.u16.u32 %h0, %r1;"), negative, d);
    untouched(&with("cvt.rni.s32.f32 %r1, %r0;", "cvt.sat.s16.s32 %h0, %r1;"), negative, d);
}
