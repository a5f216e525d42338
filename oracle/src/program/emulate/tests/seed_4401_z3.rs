//! Tests of 3501-N3 widened to chains of `cnot`s after seed 4303's trace (helper z3, session 44;
//! `emulate/cnot_chain_b16_or_b64.rs`): a float `cvt` of a `cnot.{b16,b64}` of a `cnot` converts the
//! number 0/1 (corpus/findings/fuzz-h200-4303/trace/T14x5.md, 42ff61b7). Each traced or
//! compiled wrong variant is emulated; the right ones are left alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// 42ff61b7's loaded double word (x ≠ 0: `cnot(cnot x)` is 1, the f64 bits 0x1).
const X: [u32; 4] = [0, 0xb40d_f694, 0, 0];

/// `lines` with the store of `store` appended.
fn with(lines: &[&'static str], store: &'static str) -> Vec<&'static str> {
    let mut lines = lines.to_vec();
    lines.push(store);
    lines
}

/// 42ff61b7 (`reduced.ptx`; `SEL R7, RZ, 0x3f80, P0`, 13.0.88 and 13.5 -O3): bf16 1.0 where
/// §9.7.9.21's `.rm` of 2^-1074 is +0; `v7` `.rp` (the spec's 0x0001) and `v5` (three
/// registers) the same.
#[test]
fn n3_42ff61b7_a_cnot_b64_of_a_cnot_is_converted_as_the_number() {
    let case = ["ld.global.u64 %d0, [%in];", "cnot.b64 %d0, %d0;", "cnot.b64 %d0, %d0;", "cvt.rm.bf16.f64 %h7, %d0;"];
    exact_case(&with(&case, "st.global.b16 [%out+2], %h7;"), X, D, 0, 0x3f80_0000);
    let rp = ["ld.global.u64 %d0, [%in];", "cnot.b64 %d0, %d0;", "cnot.b64 %d0, %d0;", "cvt.rp.bf16.f64 %h7, %d0;"];
    exact_case(&with(&rp, "st.global.b16 [%out+2], %h7;"), X, D, 0x0001_0000, 0x3f80_0000);
    let three = ["ld.global.u64 %d0, [%in];", "cnot.b64 %d1, %d0;", "cnot.b64 %d2, %d1;", "cvt.rm.bf16.f64 %h7, %d2;"];
    exact_case(&with(&three, "st.global.b16 [%out+2], %h7;"), X, D, 0, 0x3f80_0000);
}

/// 42ff61b7's `v4_f32_dst` (`FSEL R7, RZ, 1, P0`), `v8_cnot_b64_to_int` (`cvt.rmi.u32.f64`,
/// `SEL R7, RZ, 0x1, P0`) and `v6_cnot_b16_f16` (`cnot.b16` twice, `cvt.f32.f16`: 1.0f where
/// the spec's f16 0x0001 is 2^-24, 0x33800000).
#[test]
fn n3_42ff61b7_v4_v6_v8_every_float_source_and_destination() {
    let pair = ["ld.global.u64 %d0, [%in];", "cnot.b64 %d0, %d0;", "cnot.b64 %d0, %d0;"];
    let f32 = with(&with(&pair, "cvt.rm.f32.f64 %r7, %d0;"), "st.global.b32 [%out], %r7;");
    exact_case(&f32, X, D, 0, 0x3f80_0000);
    let int = with(&with(&pair, "cvt.rmi.u32.f64 %r7, %d0;"), "st.global.b32 [%out], %r7;");
    exact_case(&int, X, D, 0, 1);
    let b16 = ["ld.global.u16 %h0, [%in];", "cnot.b16 %h0, %h0;", "cnot.b16 %h0, %h0;", "cvt.f32.f16 %r7, %h0;"];
    exact_case(&with(&b16, "st.global.b32 [%out], %r7;"), [5, 0, 0, 0], D, 0x3380_0000, 0x3f80_0000);
}

/// Session 44, 13.0.88 -O3: three `cnot.b64`s (`FSEL R7, RZ, 1, !P0`: x = 0 gives 1) and four
/// (`FSEL R7, RZ, 1, P0`), `mov.b64` copies between, the inner `cnot` stored too (`FSEL R7, RZ,
/// 1, P0; SEL R6, RZ, 0x1, !P0`).
#[test]
fn n3_42ff61b7_longer_chains_and_copies_between() {
    let tail = ["cvt.rm.f32.f64 %r7, %d0;", "st.global.b32 [%out], %r7;"];
    let mut triple =
        vec!["ld.global.u64 %d0, [%in];", "cnot.b64 %d0, %d0;", "cnot.b64 %d0, %d0;", "cnot.b64 %d0, %d0;"];
    triple.extend(tail);
    exact_case(&triple, [0; 4], D, 0, 0x3f80_0000);
    let mut quad = triple.clone();
    quad.insert(1, "cnot.b64 %d0, %d0;");
    exact_case(&quad, X, D, 0, 0x3f80_0000);
    let copies = [
        "ld.global.u64 %d0, [%in];",
        "cnot.b64 %d1, %d0;",
        "mov.b64 %d2, %d1;",
        "cnot.b64 %d3, %d2;",
        "mov.b64 %d4, %d3;",
        "cvt.rm.f32.f64 %r7, %d4;",
        "st.global.b32 [%out], %r7;",
    ];
    exact_case(&copies, X, D, 0, 0x3f80_0000);
    let inner_stored = [
        "ld.global.u64 %d0, [%in];",
        "cnot.b64 %d1, %d0;",
        "cnot.b64 %d2, %d1;",
        "cvt.rm.f32.f64 %r7, %d2;",
        "st.global.b32 [%out], %r7;",
        "cvt.u32.u64 %r1, %d1;",
        "st.global.b32 [%out+4], %r1;",
    ];
    exact_case(&inner_stored, X, D, 0, 0x3f80_0000);
}

/// Session 44, 13.0.88 -O3: integer `cvt`s between the `cnot`s (an inner `cnot.b32` widened by
/// `cvt.u64.u32` or `cvt.s64.s32`, an inner `cnot.b16` by `cvt.u64.u16`: `FSEL R7, RZ, 1, P0`;
/// an outer `cnot.b16` of a `cnot.b32` narrowed by `cvt.u16.u32`: the same), and between the
/// outer `cnot` and the float `cvt` (`cvt.u32.u64` then `cvt.rm.f16.f32`: `SEL R7, RZ, 0x3c00,
/// P0`, where the spec's `.rm` of 1.4e-45 to f16 is +0; `cvt.u16.u64`; an unpacked half).
#[test]
fn n3_42ff61b7_integer_cvts_between() {
    for widen in ["cvt.u64.u32 %d1, %r1;", "cvt.s64.s32 %d1, %r1;"] {
        let lines = [
            "ld.global.u32 %r0, [%in];",
            "cnot.b32 %r1, %r0;",
            widen,
            "cnot.b64 %d2, %d1;",
            "cvt.rm.f32.f64 %r7, %d2;",
            "st.global.b32 [%out], %r7;",
        ];
        exact_case(&lines, [7, 0, 0, 0], D, 0, 0x3f80_0000);
    }
    let b16_widened = [
        "ld.global.u16 %h0, [%in];",
        "cnot.b16 %h1, %h0;",
        "cvt.u64.u16 %d1, %h1;",
        "cnot.b64 %d2, %d1;",
        "cvt.rm.f32.f64 %r7, %d2;",
        "st.global.b32 [%out], %r7;",
    ];
    exact_case(&b16_widened, [7, 0, 0, 0], D, 0, 0x3f80_0000);
    let b16_outer = [
        "ld.global.u32 %r0, [%in];",
        "cnot.b32 %r1, %r0;",
        "cvt.u16.u32 %h1, %r1;",
        "cnot.b16 %h2, %h1;",
        "cvt.f32.f16 %r7, %h2;",
        "st.global.b32 [%out], %r7;",
    ];
    exact_case(&b16_outer, [7, 0, 0, 0], D, 0x3380_0000, 0x3f80_0000);
    let narrowed_after = [
        "ld.global.u64 %d0, [%in];",
        "cnot.b64 %d1, %d0;",
        "cnot.b64 %d2, %d1;",
        "cvt.u32.u64 %r2, %d2;",
        "cvt.rm.f16.f32 %h7, %r2;",
        "st.global.b16 [%out], %h7;",
    ];
    exact_case(&narrowed_after, X, D, 0, 0x3c00);
    // `cvt.u16.u64` then `cvt.f32.f16` (`FSEL R7, RZ, 1, P0`); the low half a `mov.b64` unpack
    // takes, then `cvt.rm.f16.f32` (`SEL R7, RZ, 0x3c00, P0`).
    let to_f16 = ["cvt.u16.u64 %h2, %d2;", "cvt.f32.f16 %r7, %h2;", "st.global.b32 [%out], %r7;"];
    let unpacked = ["mov.b64 {%r2, %r3}, %d2;", "cvt.rm.f16.f32 %h7, %r2;", "st.global.b16 [%out], %h7;"];
    for (tail, spec, bug) in [(to_f16, 0x3380_0000, 0x3f80_0000), (unpacked, 0, 0x3c00)] {
        let mut lines = vec!["ld.global.u64 %d0, [%in];", "cnot.b64 %d1, %d0;", "cnot.b64 %d2, %d1;"];
        lines.extend(tail);
        exact_case(&lines, X, D, spec, bug);
    }
}

/// Session 44, 13.0.88 -O3: `cvt.f64.f16` of `cnot.b16` twice is `FSEL R7, RZ, 1.875, P0`
/// (1.0, where the spec's f16 0x0001 is 2^-24).
#[test]
fn n3_42ff61b7_a_b16_pair_widened_to_f64_is_one() {
    let lines = [
        "ld.global.u16 %h0, [%in];",
        "cnot.b16 %h1, %h0;",
        "cnot.b16 %h2, %h1;",
        "cvt.f64.f16 %d7, %h2;",
        "st.global.b64 [%out], %d7;",
    ];
    exact_case(&lines, [7, 0, 0, 0], D, 0x3e70_0000_0000_0000, 0x3ff0_0000_0000_0000);
}

/// Right (the bits converted), 13.0.88 -O3: one `cnot` (`v1_single_cnot`), an outer `cnot.b32`
/// (`v2_cnot_b32_f32`, `v9_cnot_b32_f16`, of a narrowed `cnot.b64`, three `cnot.b32`s, the pair
/// widened to `.f64`), `not` for both `cnot`s or the first (`v3_not`; `v10_cnot_b64_then_not`'s value is never 0/1), the outer
/// `cnot.b64` of a `selp.u64 1, 0`, of an `and.b64 x, 1` or of a widened `set.ne.u32`, `cnot.b64`
/// of a `not.b64` (`c1`).
#[test]
fn n3_42ff61b7_right_variants_are_left_alone() {
    let store32 = "st.global.b32 [%out], %r7;";
    let single = ["ld.global.u64 %d0, [%in];", "cnot.b64 %d0, %d0;", "cvt.rm.f32.f64 %r7, %d0;"];
    untouched(&with(&single, store32), X, D);
    let b32 = ["ld.global.u32 %r0, [%in];", "cnot.b32 %r0, %r0;", "cnot.b32 %r0, %r0;", "cvt.rm.bf16.f32 %h7, %r0;"];
    untouched(&with(&b32, "st.global.b16 [%out+2], %h7;"), [7, 0, 0, 0], D);
    let b32_f16 = ["ld.global.u32 %r0, [%in];", "cnot.b32 %r0, %r0;", "cnot.b32 %r0, %r0;", "cvt.rp.f16.f32 %h7, %r0;"];
    untouched(&with(&b32_f16, "st.global.b16 [%out], %h7;"), [7, 0, 0, 0], D);
    let b32_of_b64 = [
        "ld.global.u64 %d0, [%in];",
        "cnot.b64 %d1, %d0;",
        "cvt.u32.u64 %r1, %d1;",
        "cnot.b32 %r2, %r1;",
        "cvt.rp.f16.f32 %h7, %r2;",
        "st.global.b16 [%out], %h7;",
    ];
    untouched(&b32_of_b64, X, D);
    let b32_triple = [
        "ld.global.u32 %r0, [%in];",
        "cnot.b32 %r1, %r0;",
        "cnot.b32 %r2, %r1;",
        "cnot.b32 %r3, %r2;",
        "cvt.rp.f16.f32 %h7, %r3;",
        "st.global.b16 [%out], %h7;",
    ];
    untouched(&b32_triple, [0; 4], D);
    let b32_widened = [
        "ld.global.u32 %r0, [%in];",
        "cnot.b32 %r1, %r0;",
        "cnot.b32 %r2, %r1;",
        "cvt.u64.u32 %d2, %r2;",
        "cvt.rp.f32.f64 %r7, %d2;",
        store32,
    ];
    untouched(&b32_widened, [7, 0, 0, 0], D);
    // x = 1 (`not` twice is 1) and x = all ones (`cnot` of its `not` is 1).
    for (first, second, x) in [("not.b64", "not.b64", [1, 0, 0, 0]), ("not.b64", "cnot.b64", [!0, !0, 0, 0])] {
        let one = format!("{first} %d1, %d0;");
        let two = format!("{second} %d2, %d1;");
        let lines = ["ld.global.u64 %d0, [%in];", one.as_str(), two.as_str(), "cvt.rp.f32.f64 %r7, %d2;", store32];
        untouched(&lines, x, D);
    }
    let selp =
        ["ld.global.u64 %d0, [%in];", "setp.ne.u64 %p1, %d0, 0;", "mov.b64 %d5, 1;", "selp.b64 %d1, %d5, 0, %p1;"];
    let and1 = ["ld.global.u64 %d0, [%in];", "and.b64 %d1, %d0, 1;"];
    let set = ["ld.global.u32 %r0, [%in];", "set.ne.u32.u32 %r1, %r0, 0;", "cvt.u64.u32 %d1, %r1;"];
    for source in [&selp[..], &and1[..], &set[..]] {
        let mut lines = source.to_vec();
        lines.extend(["cnot.b64 %d2, %d1;", "cvt.rp.f32.f64 %r7, %d2;", store32]);
        untouched(&lines, [0, 0, 0, 0], D);
    }
}
