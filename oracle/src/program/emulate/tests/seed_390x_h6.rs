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
    let and32 = [
        "mov.b32 %r0, 0;",
        "and.b32 %r2, %r0, 0x40000;",
        "mov.b32 {%h1, %h4}, %r2;",
        e1,
        "st.global.u32 [%out], %r6;",
    ];
    untouched(&and32, [0; 4], d);
    untouched(&with(&["mov.b64 %d2, 0;"], e1), [0; 4], d);
}
