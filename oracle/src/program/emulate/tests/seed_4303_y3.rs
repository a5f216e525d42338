//! Tests of root cause G's unpack form widened after session 43's traces (helper y3;
//! `emulate/g_unpack_through_sign_extension_or_pack64.rs`): a sign extension from 16 bits of a loaded byte kept in place
//! (4302's 1b724026, trace/T14x3.md) and a `mov.b64` unpack of a `mov.b64` pack, per word
//! (4303's aeb796d5). Each traced wrong variant is emulated, each right one left alone.

use super::*;

/// 1b724026's `reduced.ptx` forms: the byte `load`, the widening `cvt` into d1 (or r1), the
/// `unpack` and `st.global.s8 [%out+1]` of h3.
fn f1b724026(load: &'static str, cvt: &'static str, unpack: &'static str) -> Vec<&'static str> {
    vec![load, cvt, unpack, "st.global.s8 [%out+1], %h3;"]
}

/// The byte 0x83 (the stored case's t0 byte) at [%in+2].
const X_1B724026: [u32; 4] = [0x0083_0000, 0, 0, 0];

/// 1b724026 (`LDG.E.U8 R3; STG.E.S8 R3`, 13.0.88 and 13.5 -O3): h3 (bits 16–31 of the sign
/// extension, 0 by the spec) is the loaded byte: byte 1 of the word is 0x83. `v5_s32_b32unpack`,
/// `v6_ld_b8`, `v7_u64_s16` and `cvt.u16.u8` of the load between (compiled by y3) alike.
#[test]
fn g_the_high_half_of_a_16_bit_sign_extension_of_a_loaded_byte_is_the_byte() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let u8 = "ld.global.u8 %h1, [%in+2];";
    let unpack64 = "mov.b64 {_, %h3, _, _}, %d1;";
    exact_case(&f1b724026(u8, "cvt.s64.s16 %d1, %h1;", unpack64), X_1B724026, d, 0, 0x8300);
    let v5 = f1b724026(u8, "cvt.s32.s16 %r1, %h1;", "mov.b32 {_, %h3}, %r1;");
    exact_case(&v5, X_1B724026, d, 0, 0x8300);
    let b8 = "ld.global.b8 %h1, [%in+2];";
    exact_case(&f1b724026(b8, "cvt.s64.s16 %d1, %h1;", unpack64), X_1B724026, d, 0, 0x8300);
    exact_case(&f1b724026(u8, "cvt.u64.s16 %d1, %h1;", unpack64), X_1B724026, d, 0, 0x8300);
    let through_cvt_u16_u8 = [
        "ld.global.u8 %h2, [%in+2];",
        "cvt.u16.u8 %h1, %h2;",
        "cvt.s64.s16 %d1, %h1;",
        unpack64,
        "st.global.s8 [%out+1], %h3;",
    ];
    exact_case(&through_cvt_u16_u8, X_1B724026, d, 0, 0x8300);
}

/// 1b724026's right variants: `v2_ld_u16` (bit 15 may be set), `v3_cvt_s64_s8_of_u8` (bit 7
/// extended), `v4_h0_read_too`, `v8_cvt_u16_u8` (of an `ld.u16`), and a `cvt.rni.u8.f32` byte
/// (compiled by y3: `LOP3 0xff; PRMT 0x7632`).
#[test]
fn g_a_sign_extension_ptxas_must_compute_or_a_low_half_read_is_right() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let unpack64 = "mov.b64 {_, %h3, _, _}, %d1;";
    let s16 = "cvt.s64.s16 %d1, %h1;";
    untouched(&f1b724026("ld.global.u16 %h1, [%in+2];", s16, unpack64), X_1B724026, d);
    untouched(&f1b724026("ld.global.u8 %h1, [%in+2];", "cvt.s64.s8 %d1, %h1;", unpack64), X_1B724026, d);
    let v4 = [
        "ld.global.u8 %h1, [%in+2];",
        s16,
        "mov.b64 {%h0, %h3, _, _}, %d1;",
        "st.global.s8 [%out+1], %h3;",
        "st.global.b8 [%out+2], %h0;",
    ];
    untouched(&v4, X_1B724026, d);
    let v8 = ["ld.global.u16 %h2, [%in+2];", "cvt.u16.u8 %h1, %h2;", s16, unpack64, "st.global.s8 [%out+1], %h3;"];
    untouched(&v8, X_1B724026, d);
    let float_byte =
        ["ld.global.f32 %r2, [%in+4];", "cvt.rni.u8.f32 %h1, %r2;", s16, unpack64, "st.global.s8 [%out+1], %h3;"];
    untouched(&float_byte, [0, 0x4300_0000, 0, 0], d);
}

/// aeb796d5's forms: `cvt.u32.u16 r1` of the loaded half, the pack `pack` into d1, the unpack
/// `unpack` and `st.global.b8 [%out+1]` of h14.
fn faeb796d5(low: &'static str, pack: &'static str, unpack: &'static str) -> Vec<&'static str> {
    vec!["ld.global.u16 %h0, [%in];", "cvt.u32.u16 %r1, %h0;", low, pack, unpack, "st.global.b8 [%out+1], %h14;"]
}

/// The half 0xc4c9 (the stored case's bf16) at [%in], 0x1234 at [%in+4].
const X_AEB796D5: [u32; 4] = [0xc4c9, 0x1234, 0, 0];

/// aeb796d5 (`LDG.E.U16 R3; STG.E.U8 R3`, 13.0.88 and 13.5 -O3): h14 (bits 48–63 of `{0, r1}`,
/// 0 by the spec) is r1's low half: byte 1 of the word is 0xc9. `v3_loaded_low` (a loaded low
/// word) and `v4_value_low_word` (`{r1, 0}`, h12) alike.
#[test]
fn g_the_high_half_of_a_packed_word_that_is_a_zero_extension_is_the_value() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let zero = "mov.b32 %r4, 0;";
    let reduced = faeb796d5(zero, "mov.b64 %d1, {%r4, %r1};", "mov.b64 {_, _, _, %h14}, %d1;");
    exact_case(&reduced, X_AEB796D5, d, 0, 0xc900);
    let v3 = faeb796d5("ld.global.u32 %r4, [%in+4];", "mov.b64 %d1, {%r4, %r1};", "mov.b64 {_, _, _, %h14}, %d1;");
    exact_case(&v3, X_AEB796D5, d, 0, 0xc900);
    let v4 = faeb796d5(zero, "mov.b64 %d1, {%r1, %r4};", "mov.b64 {_, %h14, _, _}, %d1;");
    exact_case(&v4, X_AEB796D5, d, 0, 0xc900);
}

/// aeb796d5's right variant `v2_h13_read_too` (`PRMT R0, R3, 0x7632, R0`), the pack stored
/// whole too, and r1 read by another instruction too.
#[test]
fn g_a_packed_word_whose_low_half_or_value_is_read_elsewhere_is_right() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let zero = "mov.b32 %r4, 0;";
    let pack = "mov.b64 %d1, {%r4, %r1};";
    let mut v2 = faeb796d5(zero, pack, "mov.b64 {_, _, %h13, %h14}, %d1;");
    v2.push("st.global.b8 [%out+2], %h13;");
    untouched(&v2, X_AEB796D5, d);
    let mut whole = faeb796d5(zero, pack, "mov.b64 {_, _, _, %h14}, %d1;");
    whole.insert(5, "st.global.b64 [%out], %d1;");
    untouched(&whole, X_AEB796D5, d);
    let mut r1_too = faeb796d5(zero, pack, "mov.b64 {_, _, _, %h14}, %d1;");
    r1_too.push("st.global.b32 [%out+4], %r1;");
    untouched(&r1_too, X_AEB796D5, d);
}
