//! 3301-N3 cut at the integer cvt's type, not the register's width (session 44; seed 4401's
//! 77454b6b, corpus/findings/fuzz-h200-4401/trace/T15t1.md, trace/77454b6b/): the set's word
//! folded through the float round trip is truncated to the cvt's destination type and extended
//! as that type reads it (`emulate.rs`, the 3301-N3 block of the cvt hook).

use super::*;

const D: Deviation = Deviation::SetRoundTripFolded;

/// 77454b6b's `reduced.ptx` with the integer cvt `cvt` into `dst`, stored by `st`.
fn f77454b6b(cvt: &str, dst: &str, st: &str) -> Vec<String> {
    vec![
        "ld.global.u32 %r4, [%in];".to_string(),
        "set.le.u32.u32 %r1, %r4, 0xabd08037;".to_string(),
        "cvt.rn.f32.s32 %r6, %r1;".to_string(),
        format!("{cvt} {dst}, %r6;"),
        format!("{st} [%out], {dst};"),
    ]
}

/// 13.0.88 and 13.5 -O3: `SEL R0, RZ, 0xffffffff, !P0; LOP3.LUT R7, R0, 0xff` (reduced,
/// `v2_u8dst_r32`), `… 0xffff` (`v3_u16dst`): the set's −1 cut at 8 and 16 bits, where the
/// spec's `cvt.rni.u8.f32` of −1.0 is 0. `v1_s8dst` (`PRMT 0x8880`) sign-extends: the spec's −1.
#[test]
fn n3_77454b6b_the_set_word_is_cut_at_the_cvt_type() {
    let u8_h = f77454b6b("cvt.rni.u8.f32", "%h4", "st.global.u16");
    exact_case(&strs(&u8_h), [0; 4], D, 0, 0xff);
    let u8_r = f77454b6b("cvt.rni.u8.f32", "%r7", "st.global.u32");
    exact_case(&strs(&u8_r), [0; 4], D, 0, 0xff);
    let u16_h = f77454b6b("cvt.rni.u16.f32", "%h4", "st.global.u16");
    exact_case(&strs(&u16_h), [0; 4], D, 0, 0xffff);
    let (s, e, _) = both(&strs(&f77454b6b("cvt.rni.s8.f32", "%h4", "st.global.u16")), [0; 4], D);
    assert_eq!((s.bits, e.bits), (0xffff, 0xffff), "s8: sign-extended, as the spec");
}
