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
