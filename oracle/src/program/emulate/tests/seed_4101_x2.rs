//! Tests of known root causes' emulations widened to their mechanisms from the trace of seed
//! 4101 by helper x2 (corpus/findings/fuzz-h200-4101/trace/T8x.md): G through a `mov.b64`
//! unpack of a 64-bit zero extension (350b849f, f1fe2a66) and N-11 over an old word holding a
//! packed bf16 NaN (26f4113b). Each: the form the trace shows wrong emulated, the forms it shows
//! right left alone.

use super::*;

/// G (350b849f, f1fe2a66; T8x.md): `mov.b64 {h0, h1, h2, h3}, r` of a 64-bit zero extension of a
/// 16-bit value (`cvt.{s64,u64}.u16`, `cvt.u64.u8` of a byte, `ld.u16` into the 64-bit register)
/// with h0 unobserved reads h1 as the value (13.0.88 and 13.5 -O3 `LDG.E.U8 R2; PRMT R3, R2,
/// 0x5410, R2`), the spec 0. Right: h0 read too (`v2_low_read_too`), h2 and h3 (`v3_h2`), the
/// 32-bit halves (`v4_b32_halves`), r stored whole too (`v5_stored_whole_too`), a sign extension
/// (`v7_sext`).
#[test]
fn g_the_second_half_of_a_b64_unpack_of_a_zero_extended_half_is_the_value() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let words = [0x0000_9800, 0, 0, 0];
    let at = |cvt: &'static str, unpack: &'static str, tail: &[&'static str]| {
        [&["ld.global.b8 %h3, [%in+1];", cvt, unpack][..], tail].concat()
    };
    // 350b849f/reduced: cvt.s64.u16, {_, h11, _, _}, h11 packed twice.
    let pair = ["mov.b32 %r27, {%h11, %h11};", "st.global.b32 [%out], %r27;"];
    let s64 = "cvt.s64.u16 %d3, %h3;";
    exact_case(&at(s64, "mov.b64 {_, %h11, %h4, %h12}, %d3;", &pair), words, d, 0, 0x0098_0098);
    // v8_u8_of_byte: cvt.u64.u8 of a loaded byte.
    let h11 = ["st.global.b16 [%out], %h11;"];
    let u8_of_byte = ["ld.global.u8 %h3, [%in+1];", "cvt.u64.u8 %d3, %h3;", "mov.b64 {%h1, %h11, %h4, %h12}, %d3;"];
    exact_case(&[&u8_of_byte[..], &h11].concat(), words, d, 0, 0x98);
    // v6_ld_u16_64: a scalar ld.u16 into the 64-bit register.
    let ld64 = ["ld.global.u16 %d3, [%in];", "mov.b64 {%h1, %h11, %h4, %h12}, %d3;", "st.global.b16 [%out], %h11;"];
    exact_case(&ld64, [0x1234, 0, 0, 0], d, 0, 0x1234);
    // f1fe2a66/reduced: ld.b16, cvt.u64.u16, {h1, h2, h0, h3} (h0 the cvt's source), a byte store.
    let f1fe = [
        "ld.global.b16 %h0, [%in+2];",
        "cvt.u64.u16 %d0, %h0;",
        "mov.b64 {%h1, %h2, %h0, %h3}, %d0;",
        "mov.b16 %h11, 0;",
        "st.global.v2.b8 [%out+2], {%h2, %h11};",
    ];
    exact_case(&f1fe, [0xff78_0000, 0, 0, 0], d, 0, 0x0078_0000);
    // Right: h0 read too, h2 and h3, the 32-bit halves, stored whole too, a sign extension.
    let u16 = "cvt.u64.u16 %d3, %h3;";
    let unpack = "mov.b64 {%h1, %h11, %h4, %h12}, %d3;";
    untouched(&at(u16, unpack, &["st.global.b16 [%out], %h11;", "st.global.b16 [%out+2], %h1;"]), words, d);
    untouched(&at(u16, unpack, &["st.global.b16 [%out], %h4;", "st.global.b16 [%out+2], %h12;"]), words, d);
    untouched(&at(u16, "mov.b64 {%r1, %r2}, %d3;", &["st.global.b32 [%out], %r2;"]), words, d);
    untouched(&at(u16, unpack, &["st.global.b16 [%out], %h11;", "st.global.b32 [%out+4], %d3;"]), words, d);
    // v7_sext loads a u16 (bit 15 may be set: `PRMT 0x9910`); of a loaded byte the extension
    // is a no-op and wrong (4302's 1b724026, `emulate/tests/seed_4303_y3.rs`).
    let v7 = ["ld.global.u16 %h3, [%in];", "cvt.s64.s16 %d3, %h3;", unpack, "st.global.b16 [%out], %h11;"];
    untouched(&v7, [0x9800, 0, 0, 0], d);
}

/// N-11 (26f4113b; T8x.md): a skipped `set.ge.f32.s32` whose old word is `cvt.rn.bf16x2.f32` of
/// {NaN, 0} (bits 31:16 any bf16 NaN, §9.7.9.21) converts the GPU's canonical 0x7fff0000 as it
/// converts −1 (`SEL; IABS; I2FP.F32.S32`, 13.0.88 and 13.5 at -O0 and -O3): 0x4efffe00. A
/// guard that holds is the spec's 1.0.
#[test]
fn n11_a_skipped_set_f32_over_a_packed_bf16_nan_converts_the_canonical_half() {
    let d = Deviation::SkippedSetSignExtends;
    let at = |guard: &'static str| {
        [
            "mov.b32 %r0, 0;",
            "mov.b32 %r1, 2142841713;",
            "cvt.rn.bf16x2.f32 %r0, %r1, %r0;",
            "mov.b64 %d0, 0;",
            guard,
            "@%p1 set.ge.f32.s32 %r0, %r1, 0;",
            "st.global.u32 [%out], %r0;",
        ]
    };
    let skipped = at("setp.eq.s64 %p1, %d0, 8796093022207;");
    let (s, e, fired) = both(&skipped, [0; 4], d);
    assert!(!s.is_exact() && s.matches(0x7fff_0000) && s.matches(0x7fc0_0000));
    assert_eq!((e.bits, e.is_exact(), fired), (0x4eff_fe00, true, vec![d]));
    untouched(&at("setp.eq.s64 %p1, %d0, 0;"), [0; 4], d);
}
