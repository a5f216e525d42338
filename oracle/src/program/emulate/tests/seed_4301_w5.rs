//! Tests of four known root causes widened after session 42's traces (helper w5, session 43;
//! `emulate/scopes_4301_w5.rs`, `emulate/fuzz3702_conversions.rs`): 3702-C under `.rmi`/`.rpi`
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
