//! 4b68821e: `cvt.rzi.<int>.f32` of the zero-extended bits of `cvt.<rnd>.{f16,bf16}.f32 x` is one
//! `F2I` of x rounding as the first cvt (`emulate/f2i_of_half_bits_fused_with_float_source.rs`;
//! corpus/findings/fuzz-h200-4203/trace/T12c3.md, fuzz-h200-5101/trace/T22a.md and
//! trace/9033ff50/s51/).

use super::*;

/// `x` (input word 0) through the first cvt `first`, `cvt.<mid>.u16` and the last cvt `last`
/// into `%r5`, stored as word 0.
fn chain(first: &str, mid: &str, last: &str) -> Vec<String> {
    vec![
        "ld.global.u32 %r0, [%in];".into(),
        format!("cvt.{first}.f32 %h0, %r0;"),
        format!("cvt.{mid}.u16 %r4, %h0;"),
        format!("cvt.{last}.f32 %r5, %r4;"),
        "st.global.u32 [%out], %r5;".into(),
    ]
}

/// The stored cases: every word the GPU's (4b68821e 0x49944993; 9033ff50 `F2I.S16.NTZ` of 8.12e8,
/// 0x7fff at out+2; 007db41c `F2I.NTZ` of −1.31e38, high half 0x8000 at out+2).
#[test]
fn the_stored_cases_are_the_gpus() {
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    for (seed, name, gpu) in [
        ("4203", "4b68821edd3420e7", 0x4994_4993),
        ("5101", "9033ff50a39af9cb", 0x7FFF_0000),
        ("5101", "007db41c4b40bfc2", 0x8000_0000),
    ] {
        let (p, i) = stored_case(seed, name);
        let words = words_emulated_alone(&p, &i, d);
        let mut changed = 0;
        for (t, w, s, e) in words {
            if w == 0 {
                assert_eq!(e.bits as u32, gpu, "{name} thread {t}");
                changed += usize::from(s != e);
            }
        }
        assert!(changed > 0, "{name}");
    }
}

/// Wrong forms (13.0.88 = 13.5 -O3, one F2I of x): the F2I rounds as the first cvt — `.rm`
/// (v2: `.FLOOR`, −2.5 → −3), `.rz` (v1: `.TRUNC`, 2.7 → 2), `.rn` (2.7 → 3) — and saturates to
/// the last cvt's type (`.u32`, v7); `cvt.s32.u16` as the middle (4b68821e).
#[test]
fn the_fused_f2i_rounds_as_the_first_cvt() {
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    let minus_2_5 = [0xC020_0000, 0, 0, 0];
    exact_case(&strs(&chain("rm.bf16", "u32", "rzi.s32")), minus_2_5, d, 0, 0xFFFF_FFFD);
    let two_7 = [0x402C_CCCD, 0, 0, 0];
    exact_case(&strs(&chain("rz.f16", "s32", "rzi.u32")), two_7, d, 0, 2);
    exact_case(&strs(&chain("rn.bf16", "u32", "rzi.u32")), two_7, d, 0, 3);
    exact_case(&strs(&chain("rp.f16", "u32", "rzi.ftz.s32")), two_7, d, 0, 3);
}

/// Right forms (the `F2F` kept): a last cvt rounding otherwise (v4 `.rni`, v5 `.rmi`), a `.relu`
/// first cvt (v9), `cvt.u64.u16` as the middle (4b68821e's v10).
#[test]
fn other_roundings_relu_and_a_64_bit_middle_are_left() {
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    let two_7 = [0x402C_CCCD, 0, 0, 0];
    untouched(&strs(&chain("rn.bf16", "u32", "rni.s32")), two_7, d);
    untouched(&strs(&chain("rz.f16", "s32", "rmi.s32")), two_7, d);
    untouched(&strs(&chain("rn.relu.bf16", "u32", "rzi.s32")), two_7, d);
    let wide = [
        "ld.global.u32 %r0, [%in];",
        "cvt.rn.bf16.f32 %h0, %r0;",
        "cvt.u64.u16 %d4, %h0;",
        "cvt.u32.u64 %r4, %d4;",
        "cvt.rzi.s32.f32 %r5, %r4;",
        "st.global.u32 [%out], %r5;",
    ];
    untouched(&wide, two_7, d);
}
