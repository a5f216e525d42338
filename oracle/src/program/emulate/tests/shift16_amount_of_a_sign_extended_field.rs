//! Tests of 3301-N4 through a 16-bit shift's amount that is a `.v2/.v4.s8` element (seed 5002's
//! 0ffca718, T21c.md, trace/0ffca718/s50/; `shift16_amount_of_a_sign_extended_element.rs`, the widening of seed 5001's c4120841, which covers it): a
//! negative element shifts by 0 (ptxas's signed clamp), where §9.7.8.7 clears the value.

use super::*;

const D: Deviation = Deviation::SatCvtOfByteBfeSigned;

/// 0ffca718's stored case: thread t's word 1 is the GPU's 0x4170 (`shl.b16` of 0x4170 by
/// `cvt.u32.s16` of the element 0x86, 0xffffff86: `SEL R0, R0, RZ, !P0` clamps it to 0), where
/// §9.7.8.7 gives 0.
#[test]
fn n4_0ffca718_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5002", "0ffca718452abfd9");
    let words = super::words_emulated_alone(&p, &i, D);
    for (t, w, s, e) in words.iter().filter(|(_, w, _, _)| *w == 1) {
        assert_eq!(s.bits, 0, "thread {t} word {w} spec");
        assert_eq!(e.bits, 0x4170, "thread {t} word {w}");
    }
}

/// The element's load and the chain to the amount, then the shift `shift` of 0x4170 in %h2,
/// stored (word 0). Input word 2's byte 1 is the element.
fn with(load: &str, chain: &[&str], shift: &str) -> Vec<String> {
    let mut v = vec!["mov.b16 %h2, 16752;".to_string(), load.to_string()];
    v.extend(chain.iter().map(|s| s.to_string()));
    v.push(shift.to_string());
    v.push("st.global.u16 [%out], %h2;".into());
    v
}

const NEG: [u32; 4] = [0, 0, 0x5f18_8637, 0];

/// Wrong (v1, v3, v7, v8): `.v2.s8`/`.v4.s8` elements, `cvt.u32.s16`, `cvt.s32.s16` and a copy,
/// an element loaded into a b32, under `shl.b16`, `shr.u16`, `shr.b16`: the value unshifted.
#[test]
fn n4_0ffca718_a_negative_vector_element_amount_shifts_by_zero() {
    let v2 = "ld.global.v2.s8 {%h0, %h5}, [%in+8];";
    let cases = [
        with(v2, &["cvt.u32.s16 %r1, %h5;"], "shl.b16 %h2, %h2, %r1;"),
        with("ld.global.v4.s8 {%h0, %h5, %h1, %h3}, [%in+8];", &["cvt.u32.s16 %r1, %h5;"], "shr.u16 %h2, %h2, %r1;"),
        with("ld.global.v2.s8 {%r0, %r1}, [%in+8];", &[], "shl.b16 %h2, %h2, %r1;"),
        with(v2, &["cvt.s32.s16 %r0, %h5;", "mov.b32 %r1, %r0;"], "shr.b16 %h2, %h2, %r1;"),
    ];
    for lines in &cases {
        exact_case(&strs(lines), NEG, D, 0, 0x4170);
    }
}

/// Right (v2, v4, v5, v6) and a non-negative element: a scalar `ld.s8`, `cvt.u32.u16` (zero
/// extension), `shr.s16` (clamped to [−0x8000, 0x7fff]), a 32-bit shift.
#[test]
fn n4_0ffca718_a_scalar_load_a_zero_extension_shr_s16_or_a_b32_shift_stay_the_spec_s() {
    let v2 = "ld.global.v2.s8 {%h0, %h5}, [%in+8];";
    let cases = [
        with("ld.global.s8 %h5, [%in+9];", &["cvt.u32.s16 %r1, %h5;"], "shl.b16 %h2, %h2, %r1;"),
        with(v2, &["cvt.u32.u16 %r1, %h5;"], "shl.b16 %h2, %h2, %r1;"),
        with(v2, &["cvt.u32.s16 %r1, %h5;"], "shr.s16 %h2, %h2, %r1;"),
    ];
    for lines in &cases {
        untouched(&strs(lines), NEG, D);
    }
    let b32 = [
        "mov.b32 %r2, 16752;",
        "ld.global.v2.s8 {%r0, %r1}, [%in+8];",
        "shl.b32 %r2, %r2, %r1;",
        "st.global.u32 [%out], %r2;",
    ];
    untouched(&b32, NEG, D);
    // A non-negative element (0x37 in byte 1): the signed clamp reads it as the spec does.
    untouched(&strs(&with(v2, &["cvt.u32.s16 %r1, %h5;"], "shl.b16 %h2, %h2, %r1;")), [0, 0, 0x0000_0500, 0], D);
}
