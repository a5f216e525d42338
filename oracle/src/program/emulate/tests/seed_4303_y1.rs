//! Tests of 6e4d6e41 widened by session 43's helper y1 (corpus/findings/fuzz-h200-4302/trace/
//! T14x2.md): an fp8 unpack of the high half of a word ptxas knows through a `mov.b64 {lo, hi}`
//! pack (3d132351) or a 64-bit `or`/`xor`/`min`/`max` of constants or zero extensions
//! (29c22ed5) is any value; the right variants untouched.

use super::*;

/// Whether emulating `d` makes the first output word of `lines` any value (the spec's and
/// `gpu` among them) and fires.
fn any_first_word(lines: &[&str], words: [u32; 4], d: Deviation, gpu: u32) {
    let (s, e, fired) = both(lines, words, d);
    let high = s.bits & !0xFFFF_FFFF;
    assert!(s.is_exact() && e.matches(s.bits) && e.matches(high | u128::from(gpu)), "{d:?} of {lines:?}: {e:?}");
    assert_eq!(fired, vec![d], "{lines:?}");
}

/// `value` (writing %d0), unpacked by `mov.b64` and element `element` (1 or 3 → %h4 / %h6, 0 →
/// %h3) converted by `cvt.rn.f16x2.e4m3x2` and stored.
fn unpacked(value: &[&'static str], element: usize) -> Vec<&'static str> {
    let mut lines = value.to_vec();
    let cvt = ["cvt.rn.f16x2.e4m3x2 %r6, %h3;", "cvt.rn.f16x2.e4m3x2 %r6, %h4;", "", "cvt.rn.f16x2.e4m3x2 %r6, %h6;"];
    lines.extend(["mov.b64 {%h3, %h4, %h5, %h6}, %d0;", cvt[element], "st.global.u32 [%out], %r6;"]);
    lines
}

/// 3d132351 (4302): element 3 of `mov.b64 %d1, {%r0, %r1}` with r1 a moved 0 and r0 no constant
/// is `UNPACK_B R5, 0x20` (stored 0x00003000), the spec 0; a loaded lo, an immediate hi, a
/// non-zero constant hi, lo constant beside a loaded hi (element 1), a known-bits 0 word and a
/// copy before a `mov.b32` unpack alike. Both words constant is right.
#[test]
fn d3d132351_4302_an_fp8_unpack_of_a_constant_word_of_a_pack_is_any_value() {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let reduced = ["mov.b16 %h0, 0;", "cvt.rn.f16x2.e5m2x2 %r0, %h0;", "mov.b32 %r1, 0;", "mov.b64 %d0, {%r0, %r1};"];
    any_first_word(&unpacked(&reduced, 3), [0; 4], d, 0x3000);
    let words = [0x1234_5678; 4];
    let loaded = |hi: &'static str| ["ld.global.b32 %r0, [%in];", hi, "mov.b64 %d0, {%r0, %r1};"];
    any_first_word(&unpacked(&loaded("mov.b32 %r1, 0;"), 3), words, d, 0x3000); // v2_lo_loaded
    any_first_word(&unpacked(&loaded("mov.b32 %r1, 0x10;"), 3), words, d, 0x3000);
    any_first_word(&unpacked(&loaded("mov.b32 %r1, 0x10000;"), 3), words, d, 0x3000);
    let imm = ["ld.global.b32 %r0, [%in];", "mov.b64 %d0, {%r0, 0};"];
    any_first_word(&unpacked(&imm, 3), words, d, 0x3000);
    let lo = ["mov.b32 %r0, 0;", "ld.global.b32 %r1, [%in];", "mov.b64 %d0, {%r0, %r1};"];
    any_first_word(&unpacked(&lo, 1), words, d, 0x3000);
    let known_bits =
        ["ld.global.b32 %r0, [%in];", "and.b32 %r2, %r0, 3;", "mov.b32 %r3, 0;", "mov.b64 %d0, {%r2, %r3};"];
    any_first_word(&unpacked(&known_bits, 3), words, d, 0x3000);
    let through_b32 = [
        "ld.global.b32 %r0, [%in];",
        "mov.b32 %r1, 0;",
        "mov.b64 %d1, {%r0, %r1};",
        "mov.b64 %d2, %d1;",
        "mov.b64 {%r4, %r5}, %d2;",
        "mov.b32 {%h6, %h7}, %r5;",
        "cvt.rn.f16x2.e4m3x2 %r6, %h7;",
        "st.global.u32 [%out], %r6;",
    ];
    any_first_word(&through_b32, words, d, 0x3000);
    // Right: both words constant (v1_lo_moved0), the low half (v6_elem2), element 1 of the
    // variable word (v4_elem1).
    untouched(&unpacked(&["mov.b32 %r0, 0;", "mov.b32 %r1, 0;", "mov.b64 %d0, {%r0, %r1};"], 3), words, d);
    untouched(&unpacked(&loaded("mov.b32 %r1, 0;"), 1), words, d);
    untouched(&unpacked(&loaded("mov.b32 %r1, 0;"), 0), words, d);
}

/// 29c22ed5 (4303): element 3 of `min.u64 (mov.b64 0), 2` is `UNPACK_B R0, 0x40` (stored
/// 0x40000000), the spec 0; `max.u64`, `min.s64`, `or`, `xor`, element 1 (the high word 0), moved
/// registers, a non-zero half, and `min.u64`/`or` of a zero-extended load with 2 alike. A loaded source, a
/// 32-bit min, `add`/`shl` of constants, element 0 and element 1 beside a non-zero high word
/// are right.
#[test]
fn d29c22ed5_4303_an_fp8_unpack_of_a_word_of_or_xor_min_max_of_constants_is_any_value() {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let of = |first: &'static str, op: &'static str| vec![first, op];
    let min = of("mov.b64 %d0, 0;", "min.u64 %d0, %d0, 0x2;");
    any_first_word(&unpacked(&min, 3), [0; 4], d, 0x4000_0000);
    any_first_word(&unpacked(&min, 1), [0; 4], d, 0x4000_0000); // v4_min_elem1
    any_first_word(&unpacked(&of("mov.b64 %d0, 0;", "max.u64 %d0, %d0, 0x2;"), 3), [0; 4], d, 0x40);
    any_first_word(&unpacked(&of("mov.b64 %d0, 0;", "min.s64 %d0, %d0, 0x2;"), 3), [0; 4], d, 0x40);
    any_first_word(&unpacked(&of("mov.b64 %d0, 1;", "or.b64 %d0, %d0, 0x2;"), 3), [0; 4], d, 0x40);
    let moved_both = ["mov.b64 %d0, 1;", "mov.b64 %d1, 2;", "or.b64 %d0, %d1, %d0;"];
    any_first_word(&unpacked(&moved_both, 1), [0; 4], d, 0x40);
    any_first_word(&unpacked(&of("mov.b64 %d0, 0x10000;", "xor.b64 %d0, %d0, 0x2;"), 1), [0; 4], d, 0x40);
    any_first_word(&unpacked(&of("mov.b64 %d0, 0x1234000000000000;", "or.b64 %d0, %d0, 2;"), 3), [0; 4], d, 0x40);
    let zext = |op: &'static str| vec!["ld.global.u32 %r0, [%in];", "cvt.u64.u32 %d1, %r0;", op];
    let words = [0x1234_5678; 4];
    any_first_word(&unpacked(&zext("min.u64 %d0, %d1, 0x2;"), 3), words, d, 0x40);
    any_first_word(&unpacked(&zext("or.b64 %d0, %d1, 0x2;"), 3), words, d, 0x40);
    // Right: v2_min_loaded, v6_min32, w_add_u64, w_shl_b64, v5_min_elem0, element 1 of
    // `or 0x100000000, 2`, a zero extension's low word.
    untouched(&unpacked(&of("ld.global.u64 %d0, [%in];", "min.u64 %d0, %d0, 0x2;"), 3), words, d);
    let min32 = ["mov.b32 %r0, 0;", "min.u32 %r0, %r0, 0x2;", "mov.b32 {%h3, %h4}, %r0;"];
    let mut min32 = min32.to_vec();
    min32.extend(["cvt.rn.f16x2.e4m3x2 %r6, %h4;", "st.global.u32 [%out], %r6;"]);
    untouched(&min32, [0; 4], d);
    untouched(&unpacked(&of("mov.b64 %d0, 1;", "add.u64 %d0, %d0, 0x2;"), 3), [0; 4], d);
    untouched(&unpacked(&of("mov.b64 %d0, 1;", "shl.b64 %d0, %d0, 1;"), 3), [0; 4], d);
    untouched(&unpacked(&min, 0), [0; 4], d);
    untouched(&unpacked(&of("mov.b64 %d0, 0x100000000;", "or.b64 %d0, %d0, 0x2;"), 1), [0; 4], d);
    untouched(&unpacked(&zext("min.u64 %d0, %d1, 0x2;"), 1), words, d);
}
