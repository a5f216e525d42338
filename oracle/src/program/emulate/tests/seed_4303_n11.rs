//! N-11 over an old value a `cvt.f32.bf16` wrote (session 43; seed 4303's 31481867,
//! corpus/findings/fuzz-h200-4303/trace/T14x5.md, trace/31481867/): the GPU widens bf16 by a
//! shift, so a NaN keeps its payload in the high half and the skipped `set.<cmp>.f32` of a
//! 16-bit source converts the low half 0 (`emulate/skipped.rs`, `bf16_widened`).

use super::*;

/// 31481867's `reduced.ptx` with the set's guard `guard` and the old value's producer `cvt`.
fn f31481867(guard: &str, cvt: &str) -> Vec<String> {
    vec![
        "ld.global.b16 %h0, [%in];".to_string(),
        format!("{cvt} %r2, %h0;"),
        format!("setp.{guard}.u32 %p1, %tix, %tix;"),
        "@%p1 set.eq.f32.s16 %r2, %h0, 0;".to_string(),
        "st.global.b32 [%out], %r2;".to_string(),
    ]
}

/// 31481867 (13.0.88 and 13.5, -O0 and -O3, and the JIT: `SHF.L.U32 R0, R2, 0x10; SEL …;
/// I2F.S16` of the low half): bf16 0x7fff widens to 0x7fff0000 and the skipped set stores +0.0,
/// where the canonical-NaN rule gave 1.0. A guard that holds: the spec's 0.0 (0x7fff ≠ 0).
#[test]
fn n11_a_skipped_set_over_a_bf16_widened_nan_converts_its_zero_low_half() {
    let d = Deviation::SkippedSetSignExtends;
    let (s, e, fired) = both(&strs(&f31481867("ne", "cvt.f32.bf16")), [0x7fff, 0, 0, 0], d);
    assert!(!s.is_exact() && s.matches(0x7fff_0000), "the spec's is any f32 NaN: {s:?}");
    assert_eq!((e.bits as u32, e.is_exact()), (0, true), "{e:?}");
    assert_eq!(fired, vec![d]);
    // A number widened: its low half is 0 too (bf16 0x3f80 = 1.0 → 0x3f800000 → +0.0).
    exact_case(&strs(&f31481867("ne", "cvt.f32.bf16")), [0x3f80, 0, 0, 0], d, 0x3f80_0000, 0);
    untouched(&strs(&f31481867("eq", "cvt.f32.bf16")), [0x7fff, 0, 0, 0], d);
}
