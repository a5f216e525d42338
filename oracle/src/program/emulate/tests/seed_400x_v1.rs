//! Tests of known root causes' emulations widened to their mechanisms from the traces of seeds
//! 4001–4003 (corpus/findings/fuzz-h200-400{1,2,3}/trace/): G through a byte unpack and a
//! `cvt.u32.u8` of a byte (T7A.md), 3702-N5 read by a `mov.b16` byte unpack (T7B.md), M after a
//! bf16 `F2FP` (T7C.md) and with the mask written as a truncation `cvt.u8.s16` (T7H.md). Each:
//! the form the trace shows wrong emulated, the forms it shows right left alone.

use super::*;

/// G (ef73cb67, 7c009de1; T7A.md): `mov.b32 {_, _, b2, b3}, r` of a zero-extended half reads b2,
/// b3 as the value's bytes 0 and 1 (13.0.88 and 13.5 -O3 `PRMT 0x7770`, `0x7771`), the spec 0;
/// `cvt.u32.u8` of a byte (`cvt.rni.u8.f16`, `ld.u8`) is such a zero extension, in the byte and the
/// halves form. Right: b0 read too (`v7_b01_read_too`), r also stored whole (`v5_store_whole_too`),
/// a sign extension (`v4_sext`), and `cvt.u32.u8` of a loaded u16 (`LOP3 0xff; PRMT 0x7632`).
#[test]
fn g_a_byte_unpack_of_a_zero_extended_half_reads_the_value_bytes() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let words = [0x1234, 0, 0, 0];
    let ld16 = "ld.global.u16 %h4, [%in];";
    let at = |load: &'static str, cvt: &'static str, unpack: &'static str, tail: &[&'static str]| {
        [&[load, cvt, unpack][..], tail].concat()
    };
    let st_c4 = ["st.global.u8 [%out], %c4;"];
    // ef73cb67/reduced: cvt.s32.u16, b2 → byte 0.
    exact_case(&at(ld16, "cvt.s32.u16 %r7, %h4;", "mov.b32 {_, _, %c4, %c5}, %r7;", &st_c4), words, d, 0, 0x34);
    // v3_byte3: b3 → byte 1.
    let b3 = ["st.global.u8 [%out], %c5;"];
    exact_case(&at(ld16, "cvt.u32.u16 %r7, %h4;", "mov.b32 {_, _, _, %c5}, %r7;", &b3), words, d, 0, 0x12);
    // 7c009de1/reduced: cvt.rni.u8.f16 of 89.0 (0x5590), then cvt.u32.u8: b2 is 0x59.
    let f16 = ["mov.b16 %h1, 21904;", "cvt.rni.u8.f16 %h2, %h1;", "cvt.u32.u8 %r0, %h2;"];
    let byte2 = ["mov.b32 {_, _, %c2, %c3}, %r0;", "st.global.u8 [%out], %c2;"];
    exact_case(&[&f16[..], &byte2].concat(), words, d, 0, 0x59);
    // ef73cb67/v6_u8_halves_hi: ld.u8, cvt.u32.u8, the high half.
    let u8_halves = ["ld.global.u8 %h4, [%in];", "cvt.u32.u8 %r7, %h4;", "mov.b32 {_, %h5}, %r7;"];
    exact_case(&[&u8_halves[..], &["st.global.u16 [%out], %h5;"]].concat(), words, d, 0, 0x34);
    // Right: b0 read too, r stored whole too, a sign extension, cvt.u32.u8 of a loaded u16.
    let b0_too = ["st.global.u8 [%out], %c4;", "st.global.u8 [%out+1], %c0;"];
    untouched(&at(ld16, "cvt.u32.u16 %r7, %h4;", "mov.b32 {%c0, _, %c4, _}, %r7;", &b0_too), words, d);
    let whole_too = ["st.global.u8 [%out], %c4;", "st.global.u32 [%out+4], %r7;"];
    untouched(&at(ld16, "cvt.u32.u16 %r7, %h4;", "mov.b32 {_, _, %c4, _}, %r7;", &whole_too), words, d);
    untouched(&at(ld16, "cvt.s32.s16 %r7, %h4;", "mov.b32 {_, _, %c4, _}, %r7;", &st_c4), words, d);
    let u16_u8 = ["st.global.u16 [%out], %h5;"];
    untouched(&at(ld16, "cvt.u32.u8 %r7, %h4;", "mov.b32 {_, %h5}, %r7;", &u16_u8), words, d);
}

/// 3702-N5 (9e62a918, T7B.md): `mov.b16 {c1, c2}, h1` of the low half of a `prmt.b32` 0x3eaa
/// of a = -1 reads the sign bytes as 0 (13.0.88 -O3), where the spec gives 0xff; a byte unpack of
/// the word (`v1_bytes_of_word`) keeps the whole `PRMT` (right).
#[test]
fn n5_3702_a_byte_unpack_of_the_narrowed_half_reads_zero_signs() {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    let head = ["mov.b32 %r4, 4294967295;", "ld.global.u32 %r5, [%in+4];", "prmt.b32 %r6, %r4, %r5, 16042;"];
    let half = ["mov.b32 {%h1, _}, %r6;", "mov.b16 {%c1, %c2}, %h1;", "mov.b16 %h2, {%c2, %c2};"];
    let store = ["st.global.b16 [%out], %h2;"];
    exact_case(&[&head[..], &half, &store].concat(), [0; 4], d, 0xffff, 0);
    let low = ["mov.b32 {%h1, _}, %r6;", "mov.b16 {%c1, %c2}, %h1;", "st.global.u8 [%out], %c1;"];
    exact_case(&[&head[..], &low].concat(), [0; 4], d, 0xff, 0);
    let word = ["mov.b32 {%c0, %c1, %c2, %c3}, %r6;", "mov.b16 %h2, {%c1, %c1};"];
    untouched(&[&head[..], &word, &store].concat(), [0; 4], d);
}

/// M (e31f01ee, T7C.md; b9524b6f, T7H.md): the byte mask of an `F2FP` result is dropped in a
/// pack's low half after `cvt.rn.bf16.f32` too, and written as the truncation `cvt.u8.s16`
/// (or `.u8.s8`, `.u8.u16`) too: the 16 bits stay. `cvt.s8.s16` (a sign extension) and a direct
/// 16-bit store are right.
#[test]
fn m_a_bf16_producer_and_a_truncation_to_u8_drop_the_mask_in_a_pack() {
    let d = Deviation::F16MaskDropped;
    let at = |producer: &'static str, mask: &'static str, tail: &[&'static str]| {
        let head = ["ld.global.u32 %r0, [%in];", producer, mask, "mov.b16 %h3, 0;"];
        [&head[..], tail].concat()
    };
    let pack: &[&str] = &["mov.b32 %r1, {%h2, %h3};", "st.global.u32 [%out], %r1;"];
    let alone: &[&str] = &["st.global.b16 [%out], %h2;"];
    // e31f01ee: 0xc46f0b7d → bf16 0xc46f, its byte 0x6f.
    let bf16 = "cvt.rn.bf16.f32 %h1, %r0;";
    exact_case(&at(bf16, "cvt.s16.u8 %h2, %h1;", pack), [0xc46f_0b7d, 0, 0, 0], d, 0x6f, 0xc46f);
    // e31f01ee's store: element 0 of `st.v4.b16` is a pack's low half too.
    let v4: &[&str] = &["st.global.v4.b16 [%out], {%h2, %h3, %h3, %h3};"];
    exact_case(&at(bf16, "cvt.s16.u8 %h2, %h1;", v4), [0xc46f_0b7d, 0, 0, 0], d, 0x6f, 0xc46f);
    // b9524b6f: −1.3e20 → f16 −inf 0xfc00, its byte 0.
    let f16 = "cvt.rn.f16.f32 %h1, %r0;";
    let words = [0xe0e0_e0e0, 0, 0, 0];
    for truncation in ["cvt.u8.s16 %h2, %h1;", "cvt.u8.s8 %h2, %h1;", "cvt.u8.u16 %h2, %h1;"] {
        let (s, e, fired) = both(&at(f16, truncation, pack), words, d);
        assert_eq!((s.bits, e.bits, e.is_exact()), (0, 0xfc00, true), "{truncation}");
        assert!(fired.contains(&d), "{truncation}");
    }
    untouched(&at(f16, "cvt.s8.s16 %h2, %h1;", pack), words, d);
    untouched(&at(f16, "cvt.u8.s16 %h2, %h1;", alone), words, d);
    untouched(&at(bf16, "cvt.s16.u8 %h2, %h1;", alone), [0xc46f_0b7d, 0, 0, 0], d);
}
