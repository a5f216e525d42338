//! Tests of 3301-N4's signed clamp reached by a 16-bit shift's amount that an `ld.*.v{2,4}.s8`
//! element made (seed 5001's c4120841, session 50; corpus/findings/fuzz-h200-5001/trace/T21b.md,
//! variants in trace/c4120841/s50/).

use super::*;

const D: Deviation = Deviation::SatCvtOfByteBfeSigned;

/// The stored case: `ld.shared.v4.s8` of the bytes 83 fb 31 9c, `cvt.u32.s8 r0, h3` (0xffffff9c),
/// `shr.u16 h5, h1, r0`: the GPU's byte 0xfb (h1 = 0xfffb shifted by 0) in every thread, the spec 0.
#[test]
fn n4_3301_c4120841_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5001", "c41208414e316f59");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0xfb } else { s.bits };
        assert_eq!((s.bits, e.bits), (if w == 0 { 0 } else { s.bits }, want), "thread {t} word {w}");
    }
}

/// `amount` made from the loaded word 0x9c31fb83 (h1 = 0xfffb, h3 = 0xff9c), `shift` of h1 by it.
fn with(load: &'static str, amount: &'static str, shift: &'static str) -> [&'static str; 4] {
    [load, amount, shift, "st.global.u16 [%out], %h5;"]
}

const V4: &str = "ld.global.v4.s8 {%h0, %h1, %h2, %h3}, [%in];";
const WORDS: [u32; 4] = [0x9c31_fb83, 0, 0, 0];

/// Wrong (13.0.88 and 13.5 -O3, the signed clamp): `shr.u16` (v1), `shl.b16` (v2), a `.v2.s8`
/// element through `cvt.s32.s8` read by `shr.b16` (v3): the shift by 0 keeps 0xfffb (v3: 0xff83).
#[test]
fn n4_3301_a_shift16_by_a_sign_extended_element_shifts_by_zero() {
    exact_case(&with(V4, "cvt.u32.s8 %r0, %h3;", "shr.u16 %h5, %h1, %r0;"), WORDS, D, 0, 0xfffb);
    exact_case(&with(V4, "cvt.u32.s8 %r0, %h3;", "shl.b16 %h5, %h1, %r0;"), WORDS, D, 0, 0xfffb);
    let v2 = "ld.global.v2.s8 {%h1, %h3}, [%in+2];";
    exact_case(&with(v2, "cvt.s32.s8 %r0, %h3;", "shr.b16 %h5, %h1, %r0;"), WORDS, D, 0, 0x0031);
}

/// Right (the listings' unsigned clamp or no clamp): a scalar `ld.s8` (v4), `cvt.u32.u8` (v5),
/// `shr.s16` (v6: the sign fill either way), a non-negative byte.
#[test]
fn n4_3301_leaves_scalar_loads_zero_extensions_and_signed_shifts_alone() {
    let scalar = "ld.global.s8 %h3, [%in+3];";
    untouched(
        &[
            "ld.global.u16 %h1, [%in];",
            scalar,
            "cvt.u32.s8 %r0, %h3;",
            "shr.u16 %h5, %h1, %r0;",
            "st.global.u16 [%out], %h5;",
        ],
        WORDS,
        D,
    );
    untouched(&with(V4, "cvt.u32.u8 %r0, %h3;", "shr.u16 %h5, %h1, %r0;"), WORDS, D);
    untouched(&with(V4, "cvt.u32.s8 %r0, %h3;", "shr.s16 %h5, %h1, %r0;"), WORDS, D);
    untouched(&with(V4, "cvt.u32.s8 %r0, %h3;", "shr.u16 %h5, %h1, %r0;"), [0x0331_fb83, 0, 0, 0], D);
}
