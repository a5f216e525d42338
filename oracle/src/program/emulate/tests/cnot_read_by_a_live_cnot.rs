//! Tests of 3501-N3 widened to the inner `cnot` of a chain after seed 4401's trace (helper h1,
//! session 45; `emulate/cnot_read_by_a_live_cnot.rs`): a float `cvt` of a `cnot` that a live
//! `cnot` also reads converts the number 0/1 (corpus/findings/fuzz-h200-4401/trace/T15t1.md,
//! a3fc1374; variants trace/a3fc1374/s45/). Each traced or compiled wrong variant is emulated;
//! the right ones are left alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// A loaded 0: the inner `cnot` is 1 (the bits converted by the spec are a subnormal's).
const ZERO: [u32; 4] = [0; 4];

/// a3fc1374 (`reduced.ptx`; 13.0.88 and 13.5 -O3 `SEL R7, RZ, 0x3f80, !P0`): `cvt.bf16.f16` of
/// the inner `cnot.b16` is bf16 1.0 where §9.7.9.21 converts f16 0x0001 (2^-24, bf16 0x3380);
/// the outer `cnot.b16` (stored) keeps its spec 0. T15t1's `v5_f32` (`cvt.f32.f16`, `FSEL R7,
/// RZ, 1, !P0`) and s45's `b4_outer_first` (the outer written before the `cvt`) the same.
#[test]
fn n3_a3fc1374_the_inner_cnot_of_a_live_pair_is_converted_as_the_number() {
    let reduced = [
        "ld.global.s16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "cvt.bf16.f16 %h3, %h2;",
        "cnot.b16 %h0, %h2;",
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+2], %h3;",
    ];
    exact_case(&reduced, ZERO, D, 0x3380_0000, 0x3f80_0000);
    let f32 = [
        "ld.global.s16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "cvt.f32.f16 %r3, %h2;",
        "cnot.b16 %h0, %h2;",
        "st.global.b16 [%out], %h0;",
        "st.global.b32 [%out+4], %r3;",
    ];
    exact_case(&f32, ZERO, D, 0x3380_0000 << 32, 0x3f80_0000 << 32);
    let outer_first = [
        "ld.global.s16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "cnot.b16 %h0, %h2;",
        "cvt.bf16.f16 %h3, %h2;",
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+2], %h3;",
    ];
    exact_case(&outer_first, ZERO, D, 0x3380_0000, 0x3f80_0000);
}

/// s45, 13.0.88 -O3: the pair's widths and links. `a1` a `.b64` pair, `cvt.rn.f32.f64` (`FSEL
/// R7, RZ, 1, !P0`); `a2` an inner `.b32` under an outer `cnot.b16` of `cvt.u16.u32`
/// (`cvt.rn.f16.f32`, `SEL R7, RZ, 0x3c00, !P0`); T15t1's `v7` an inner `.b16` under an outer
/// `cnot.b32` of `cvt.u32.u16` (`SEL R7, RZ, 0x3f80, !P0`); `b1` the `cvt` of a `mov.b16` copy;
/// `b6` three `cnot`s, the `cvt` of the first.
#[test]
fn n3_a3fc1374_s45_every_folded_width_and_link() {
    let b64 = [
        "ld.global.u64 %d1, [%in];",
        "cnot.b64 %d2, %d1;",
        "cvt.rn.f32.f64 %r3, %d2;",
        "cnot.b64 %d0, %d2;",
        "st.global.b32 [%out], %r3;",
        "cvt.u32.u64 %r0, %d0;",
        "st.global.b32 [%out+4], %r0;",
    ];
    exact_case(&b64, ZERO, D, 0, 0x3f80_0000);
    let b32_under_b16 = [
        "ld.global.u32 %r1, [%in];",
        "cnot.b32 %r2, %r1;",
        "cvt.rn.f16.f32 %h3, %r2;",
        "cvt.u16.u32 %h4, %r2;",
        "cnot.b16 %h0, %h4;",
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+4], %h3;",
    ];
    exact_case(&b32_under_b16, ZERO, D, 0, 0x3c00 << 32);
    let b16_under_b32 = [
        "ld.global.s16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "cvt.bf16.f16 %h3, %h2;",
        "cvt.u32.u16 %r2, %h2;",
        "cnot.b32 %r0, %r2;",
        "st.global.b32 [%out], %r0;",
        "st.global.b16 [%out+4], %h3;",
    ];
    exact_case(&b16_under_b32, ZERO, D, 0x3380 << 32, 0x3f80 << 32);
    let of_copy = [
        "ld.global.s16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "mov.b16 %h4, %h2;",
        "cvt.bf16.f16 %h3, %h4;",
        "cnot.b16 %h0, %h2;",
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+2], %h3;",
    ];
    exact_case(&of_copy, ZERO, D, 0x3380_0000, 0x3f80_0000);
    let three = [
        "ld.global.s16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "cvt.bf16.f16 %h3, %h2;",
        "cnot.b16 %h4, %h2;",
        "cnot.b16 %h0, %h4;",
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+2], %h3;",
    ];
    // The third `cnot` (stored in the low half) is 1.
    exact_case(&three, ZERO, D, 0x3380_0001, 0x3f80_0001);
}

/// Right (the bits converted), 13.0.88 and 13.5 -O3 (T15t1): no second `cnot` (`v1`), the second
/// `cnot` dead (`v2`), `not.b16` or `xor.b16 …, 1` as the second reader (`v3`, `v8`), a `cnot.b32`
/// pair (`v6`, s45's `a7`); s45, 13.0.88 -O3: an outer `cnot.b32` of a narrowed `cnot.b64` (`a5`,
/// `F2F.F32.F64` of the bits), a `not.b16` as the inner one (`c3`).
#[test]
fn n3_a3fc1374_right_neighbours_are_left_alone() {
    let pair = |second: &'static str, store_second: bool| {
        let mut v = vec!["ld.global.s16 %h1, [%in];", "cnot.b16 %h2, %h1;", "cvt.bf16.f16 %h3, %h2;", second];
        if store_second {
            v.push("st.global.b16 [%out], %h0;");
        }
        v.push("st.global.b16 [%out+2], %h3;");
        v
    };
    untouched(&pair("mov.b16 %h0, 0;", true), ZERO, D);
    untouched(&pair("cnot.b16 %h0, %h2;", false), ZERO, D);
    untouched(&pair("not.b16 %h0, %h2;", true), ZERO, D);
    untouched(&pair("xor.b16 %h0, %h2, 1;", true), ZERO, D);
    let b32 = [
        "ld.global.u32 %r1, [%in];",
        "cnot.b32 %r2, %r1;",
        "cvt.rn.f16.f32 %h3, %r2;",
        "cnot.b32 %r0, %r2;",
        "st.global.b32 [%out], %r0;",
        "st.global.b16 [%out+4], %h3;",
    ];
    untouched(&b32, ZERO, D);
    let b32_of_b64 = [
        "ld.global.u64 %d1, [%in];",
        "cnot.b64 %d2, %d1;",
        "cvt.rn.f32.f64 %r3, %d2;",
        "cvt.u32.u64 %r4, %d2;",
        "cnot.b32 %r0, %r4;",
        "st.global.b32 [%out], %r0;",
        "st.global.b32 [%out+4], %r3;",
    ];
    untouched(&b32_of_b64, ZERO, D);
    let inner_not = [
        "ld.global.s16 %h1, [%in];",
        "not.b16 %h2, %h1;",
        "cvt.bf16.f16 %h3, %h2;",
        "cnot.b16 %h0, %h2;",
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+2], %h3;",
    ];
    untouched(&inner_not, [0xfffe, 0, 0, 0], D);
}
