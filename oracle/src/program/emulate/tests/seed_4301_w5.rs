//! Tests of four known root causes widened after session 42's traces (helper w5, session 43;
//! `emulate/set_negation_sign_extension_saturation_queries.rs`, `emulate/fuzz3702_conversions.rs`): 3702-C under `.rmi`/`.rpi`
//! (2bf704ce, T12b4.md), 3602-N2 through `sub` from 0 (f863ba79, T12a1.md), G's unpack of a
//! sign extension ptxas keeps in place (e0a4f736, T12c3.md) and 3301-C's float direction
//! through a truncating `cvt` (36b8e382, T12c5.md). Each traced wrong variant is emulated, each
//! right one left alone.

use super::*;

/// 2bf704ce's `reduced.ptx` with the first cvt `first` and the saturating one `second`.
fn f2bf704ce(first: &'static str, second: &'static str) -> [&'static str; 4] {
    ["ld.global.f32 %r0, [%in];", first, second, "st.global.u16 [%out], %h0;"]
}

/// −159.95, the stored case's word +28.
const X_2BF704CE: [u32; 4] = [0xc31f_f3c9, 0, 0, 0];

/// 2bf704ce (`F2I.S16.FLOOR.NTZ R7, R2`, 13.0.88 and 13.5 -O3): floor(−159.95) clamped to s16
/// is −160 = 0xff60, where the `.u32` clamp gives 0. `var/v1_rpi` (`F2I.S16.CEIL.NTZ`): −159.
#[test]
fn c_3702_a_rmi_or_rpi_u32_cvt_is_folded_into_a_signed_saturation() {
    let d = Deviation::IntSatS16OfU32CvtFoldedSigned;
    let sat = "cvt.sat.s16.u32 %h0, %r1;";
    exact_case(&f2bf704ce("cvt.rmi.u32.f32 %r1, %r0;", sat), X_2BF704CE, d, 0, 0xff60);
    exact_case(&f2bf704ce("cvt.rpi.u32.f32 %r1, %r0;", sat), X_2BF704CE, d, 0, 0xff61);
}

/// 2bf704ce's right variants: `v4_rmi_u16dst` (`F2I.U16.FLOOR`), `v6_rmi_s8dst` (not fused)
/// and `v3_rmi_s32mid` (fused, the clamps agree).
#[test]
fn c_3702_rmi_u16_s8_destinations_and_an_s32_intermediate_are_right() {
    let d = Deviation::IntSatS16OfU32CvtFoldedSigned;
    let rmi = "cvt.rmi.u32.f32 %r1, %r0;";
    untouched(&f2bf704ce(rmi, "cvt.sat.u16.u32 %h0, %r1;"), X_2BF704CE, d);
    untouched(&f2bf704ce(rmi, "cvt.sat.s8.u32 %h0, %r1;"), X_2BF704CE, d);
    untouched(&f2bf704ce("cvt.rmi.s32.f32 %r1, %r0;", "cvt.sat.s16.s32 %h0, %r1;"), X_2BF704CE, d);
}

/// f863ba79's `reduced.ptx` with the negation `negation` of the set's r0 into r8 and the
/// 16-bit op `op` of its halves.
fn f863ba79(negation: &[&'static str], op: &'static str) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r1, [%in];", "set.ne.f32.u32 %r0, %r1, 0;"];
    lines.extend_from_slice(negation);
    lines.extend(["mov.b32 {%h6, %h7}, %r8;", op, "st.global.u16 [%out], %h8;"]);
    lines
}

/// f863ba79 (`STG.E.U16 …, RZ`, 13.0.88 and 13.5 -O3): `sub.s32` of the set from a moved 0
/// (the stored case; `reduced.ptx`'s immediate 0 is no glue form), a copy of the difference
/// between, and `sub.u32` alike (compiled in session 43): the xor of the halves is 0 (each
/// 0xffff), the spec's 0xc080; `or.b16` (`v9_xor_word_halves_or`: `SEL R7, RZ, 0xffffffff,
/// !P0`) is 0xffff.
#[test]
fn n2_3602_sub_of_a_set_f32_result_from_zero_is_its_negation() {
    let d = Deviation::NegOfSetF32HalvesReadAsBoolean;
    let xor = "xor.b16 %h8, %h6, %h7;";
    let moved = ["mov.b32 %r2, 0;", "sub.s32 %r8, %r2, %r0;"];
    exact_case(&f863ba79(&moved, xor), [1, 0, 0, 0], d, 0xc080, 0);
    let copied = ["mov.b32 %r2, 0;", "sub.s32 %r9, %r2, %r0;", "mov.b32 %r8, %r9;"];
    exact_case(&f863ba79(&copied, xor), [1, 0, 0, 0], d, 0xc080, 0);
    let unsigned = ["mov.b32 %r2, 0;", "sub.u32 %r8, %r2, %r0;"];
    exact_case(&f863ba79(&unsigned, xor), [1, 0, 0, 0], d, 0xc080, 0);
    exact_case(&f863ba79(&moved, "or.b16 %h8, %h6, %h7;"), [1, 0, 0, 0], d, 0xc080, 0xffff);
}

/// f863ba79's right variants: a loaded minuend (`v10_sub_from_loaded`), an integer set
/// (`v2_set_u32_sub`).
#[test]
fn n2_3602_sub_from_a_loaded_value_or_of_an_integer_set_is_right() {
    let d = Deviation::NegOfSetF32HalvesReadAsBoolean;
    let xor = "xor.b16 %h8, %h6, %h7;";
    let loaded = ["ld.global.u32 %r2, [%in+4];", "sub.s32 %r8, %r2, %r0;"];
    untouched(&f863ba79(&loaded, xor), [1, 0, 0, 0], d);
    let integer = [
        "ld.global.u32 %r1, [%in];",
        "set.ne.u32.u32 %r0, %r1, 0;",
        "mov.b32 %r2, 0;",
        "sub.s32 %r8, %r2, %r0;",
        "mov.b32 {%h6, %h7}, %r8;",
        xor,
        "st.global.u16 [%out], %h8;",
    ];
    untouched(&integer, [1, 0, 0, 0], d);
}

/// e0a4f736's forms: the sign-extended value `lines` (into r3 or d3), unpacked, h1 stored.
fn e0a4f736(lines: &[&'static str], store: &'static str) -> Vec<&'static str> {
    let mut all = lines.to_vec();
    all.push(store);
    all
}

/// e0a4f736 (`LDG.E.S8 R2; PRMT R3, R2, 0x5410, R2`, 13.0.88 and 13.5 -O3): h1 of the
/// sign-extended byte is read as its low half: 0x0005 (spec 0), and a negative byte 0xff85
/// (spec 0xffff). `v3_s16`, `v4_s32_b32unpack`, `v5_ld_s8_32`, `v6_ld_s8_64`,
/// `v8_s64_s16_of_s8` alike.
#[test]
fn g_the_high_half_of_a_sign_extension_kept_in_place_is_its_low_half() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let st = "st.global.b16 [%out], %h1;";
    let unpack64 = "mov.b64 {%h0, %h1, %h2, %h3}, %d3;";
    let reduced = ["ld.global.s8 %h0, [%in];", "cvt.s64.s8 %d3, %h0;", unpack64];
    exact_case(&e0a4f736(&reduced, st), [0x05, 0, 0, 0], d, 0, 0x0005);
    exact_case(&e0a4f736(&reduced, st), [0x85, 0, 0, 0], d, 0xffff, 0xff85);
    let v3 = ["ld.global.s16 %h0, [%in];", "cvt.s64.s16 %d3, %h0;", unpack64];
    exact_case(&e0a4f736(&v3, st), [0x8005, 0, 0, 0], d, 0xffff, 0x8005);
    let v4 = ["ld.global.s8 %h0, [%in];", "cvt.s32.s8 %r3, %h0;", "mov.b32 {%h0, %h1}, %r3;"];
    exact_case(&e0a4f736(&v4, st), [0x05, 0, 0, 0], d, 0, 0x0005);
    let v5 = ["ld.global.s8 %r3, [%in];", "mov.b32 {%h0, %h1}, %r3;"];
    exact_case(&e0a4f736(&v5, st), [0x05, 0, 0, 0], d, 0, 0x0005);
    let v6 = ["ld.global.s8 %d3, [%in];", unpack64];
    exact_case(&e0a4f736(&v6, st), [0x05, 0, 0, 0], d, 0, 0x0005);
    let v8 = ["ld.global.s8 %h0, [%in];", "cvt.s64.s16 %d3, %h0;", unpack64];
    exact_case(&e0a4f736(&v8, st), [0x05, 0, 0, 0], d, 0, 0x0005);
}

/// e0a4f736's right variants: `v1_ld_u8` (`PRMT 0x8880`: the cvt extends), `v2_low_read_too`,
/// `v7_h3` (the high register), and `cvt.s64.s8` of an `ld.s16` (not a no-op).
#[test]
fn g_a_sign_extension_ptxas_computes_or_a_read_low_half_is_right() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let unpack64 = "mov.b64 {%h0, %h1, %h2, %h3}, %d3;";
    let st = "st.global.b16 [%out], %h1;";
    let v1 = ["ld.global.u8 %h0, [%in];", "cvt.s64.s8 %d3, %h0;", unpack64, st];
    untouched(&v1, [0x05, 0, 0, 0], d);
    let v2 = ["ld.global.s8 %h0, [%in];", "cvt.s64.s8 %d3, %h0;", unpack64, st, "st.global.b16 [%out+2], %h0;"];
    untouched(&v2, [0x05, 0, 0, 0], d);
    let v7 = ["ld.global.s8 %h0, [%in];", "cvt.s64.s8 %d3, %h0;", unpack64, "st.global.b16 [%out], %h3;"];
    untouched(&v7, [0x05, 0, 0, 0], d);
    let of_s16 = ["ld.global.s16 %h0, [%in];", "cvt.s64.s8 %d3, %h0;", unpack64, st];
    untouched(&of_s16, [0x0105, 0, 0, 0], d);
}

/// 36b8e382's `reduced.ptx` with the saturation `first`, the truncation `trunc` and the reader
/// `last` (stored by `st`).
fn f36b8e382(first: &'static str, trunc: &'static str, last: &'static str, st: &'static str) -> [&'static str; 5] {
    ["ld.global.b32 %r6, [%in];", first, trunc, last, st]
}

/// 2.08e-8, whose low half is f16 63.03125.
const X_36B8E382: [u32; 4] = [0x32b2_53e1, 0, 0, 0];

/// 36b8e382 (`FADD.SAT R0, RZ, R2; HADD2.F32 R7, -RZ, R0.H0_H0`, 13.0.88 and 13.5 -O3): the
/// f16 63.03125 converted unclamped (0x427c2000, spec 1.0). `v2_f64dst`, `v10_intsat_then_trunc`,
/// `v11_f32sat_then_s16_trunc`, `v6_f16_sat_then_sat` alike.
#[test]
fn c_3301_a_float_sat_of_a_truncated_32_bit_saturation_is_not_saturated() {
    let d = Deviation::FloatSatOfIntSatDropped;
    let (sat, trunc) = ("cvt.sat.f32.f32 %r7, %r6;", "cvt.u16.u32 %h6, %r7;");
    let (last, st) = ("cvt.sat.f32.f16 %r15, %h6;", "st.global.f32 [%out], %r15;");
    exact_case(&f36b8e382(sat, trunc, last, st), X_36B8E382, d, 0x3f80_0000, 0x427c_2000);
    let v2 = f36b8e382(sat, trunc, "cvt.sat.f64.f16 %d1, %h6;", "st.global.f64 [%out], %d1;");
    exact_case(&v2, X_36B8E382, d, 0x3ff0_0000_0000_0000, 0x404f_8400_0000_0000);
    let v10 = f36b8e382("cvt.sat.u32.s32 %r7, %r6;", trunc, last, st);
    exact_case(&v10, X_36B8E382, d, 0x3f80_0000, 0x427c_2000);
    let v11 = f36b8e382(sat, "cvt.s16.s32 %h6, %r7;", last, st);
    exact_case(&v11, X_36B8E382, d, 0x3f80_0000, 0x427c_2000);
    let v6 = f36b8e382(sat, trunc, "cvt.sat.f16.f16 %h8, %h6;", "st.global.b16 [%out], %h8;");
    exact_case(&v6, X_36B8E382, d, 0x3c00, 0x53e1);
}

/// 36b8e382's right variants: no first saturation (`v1`), a `mov.b32` unpack (`v3`), a
/// 64-bit saturation truncated from `.u64` (`v13`), an f16 saturation widened then truncated
/// (`v14`).
#[test]
fn c_3301_no_32_bit_saturation_before_the_truncation_is_right() {
    let d = Deviation::FloatSatOfIntSatDropped;
    let (last, st) = ("cvt.sat.f32.f16 %r15, %h6;", "st.global.f32 [%out], %r15;");
    untouched(&f36b8e382("mov.b32 %r7, %r6;", "cvt.u16.u32 %h6, %r7;", last, st), X_36B8E382, d);
    untouched(&f36b8e382("cvt.sat.f32.f32 %r7, %r6;", "mov.b32 {%h6, %h5}, %r7;", last, st), X_36B8E382, d);
    let v13 = ["ld.global.b64 %d0, [%in];", "cvt.sat.f64.f64 %d1, %d0;", "cvt.u16.u64 %h6, %d1;", last, st];
    untouched(&v13, [0x53e1, 0x3e40_0000, 0, 0], d);
    let v14 = [
        "ld.global.b16 %h1, [%in];",
        "cvt.sat.f16.f16 %h2, %h1;",
        "cvt.u32.u16 %r7, %h2;",
        "cvt.u16.u32 %h6, %r7;",
        last,
        st,
    ];
    untouched(&v14, [0x53e1, 0, 0, 0], d);
}
