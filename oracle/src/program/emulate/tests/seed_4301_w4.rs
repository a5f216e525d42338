//! Tests of 3501-N3 widened after seeds 4202 and 4203 (helper w4, session 43;
//! `emulate/cnot_number_under_float_zero_test_or_b64_logic.rs`): a `cnot`'s float-to-float conversion tested against zero
//! itself (corpus/findings/fuzz-h200-4202/trace/T12b2.md, 06b614f9) and a program with a live
//! `and.b64`/`or.b64` of `cnot` results (corpus/findings/fuzz-h200-4203/trace/T12c5.md,
//! 7cb7444f; T12c3.md, 7ea011df). Each traced wrong variant is emulated; the right ones are left
//! alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// 06b614f9's `reduced.ptx` with the conversion `cvt` and the zero test `test` (writing h4):
/// x = 0, so the `cnot` is the bits 0x0001 (bf16 9.2e-41, f16 0 by §9.7.9.21's rn).
fn b06b614f9(cvt: &'static str, test: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.b8 %h1, [%in];", "cnot.b16 %h2, %h1;", cvt];
    lines.extend_from_slice(test);
    lines.push("st.global.b8 [%out+1], %h4;");
    lines
}

/// 06b614f9 (`ISETP.EQ.U32 P0, x, RZ; SEL R7, RZ, 0x1, P0`, 13.0.88 and 13.5 -O3): the cnot of
/// the f16 is 0 where the spec's is 1.
#[test]
fn n3_06b614f9_a_cnot_of_the_float_conversion_of_a_cnot_tests_the_number() {
    exact_case(&b06b614f9("cvt.f16.bf16 %h3, %h2;", &["cnot.b16 %h4, %h3;"]), [0; 4], D, 0x100, 0);
}

/// 06b614f9's `v3_setp` (`setp.eq.b16 …, 0; selp.b16 5, 7`; `.u16` here, the glue's compare
/// type): wrong alike (7 for 5).
#[test]
fn n3_06b614f9_v3_a_setp_eq_0_of_the_float_conversion_tests_the_number() {
    let test = ["setp.eq.u16 %p1, %h3, 0;", "mov.b16 %h5, 5;", "selp.b16 %h4, %h5, 7, %p1;"];
    exact_case(&b06b614f9("cvt.f16.bf16 %h3, %h2;", &test), [0; 4], D, 0x500, 0x700);
}

/// 06b614f9's `v1_f16_f32` (`cnot.b32; cvt.rn.f16.f32; cnot.b16`) and session 43's chain
/// `cvt.f64.f32; cvt.rn.f32.f64; cvt.rn.f16.f32` (the same `SEL`): wrong alike.
#[test]
fn n3_06b614f9_v1_and_a_float_chain_from_f32_test_the_number() {
    let direct = ["ld.global.u32 %r1, [%in];", "cnot.b32 %r2, %r1;", "cvt.rn.f16.f32 %h3, %r2;", "cnot.b16 %h4, %h3;"];
    let chain = [
        "ld.global.u32 %r1, [%in];",
        "cnot.b32 %r2, %r1;",
        "cvt.f64.f32 %d1, %r2;",
        "cvt.rn.f32.f64 %r3, %d1;",
        "cvt.rn.f16.f32 %h3, %r3;",
        "cnot.b16 %h4, %h3;",
    ];
    for lines in [&direct[..], &chain[..]] {
        let mut lines = lines.to_vec();
        lines.push("st.global.b16 [%out], %h4;");
        exact_case(&lines, [0; 4], D, 1, 0);
    }
}

/// 06b614f9's right variants: `cvt.ftz.f32.f32` (`v2_ftz`, `FADD.FTZ` kept), no outer test
/// (`v4_noouter`), `not.b16` for the inner `cnot` (`v6_not`).
#[test]
fn n3_06b614f9_right_variants_are_left_alone() {
    let ftz = ["ld.global.u32 %r1, [%in];", "cnot.b32 %r2, %r1;", "cvt.ftz.f32.f32 %r3, %r2;", "cnot.b32 %r4, %r3;"];
    let mut ftz = ftz.to_vec();
    ftz.push("st.global.b32 [%out], %r4;");
    untouched(&ftz, [0; 4], D);
    let no_outer =
        ["ld.global.b8 %h1, [%in];", "cnot.b16 %h2, %h1;", "cvt.f16.bf16 %h3, %h2;", "st.global.b16 [%out], %h3;"];
    untouched(&no_outer, [0; 4], D);
    let not = ["ld.global.b8 %h1, [%in];", "not.b16 %h2, %h1;", "cvt.f16.bf16 %h3, %h2;", "cnot.b16 %h4, %h3;"];
    let mut not = not.to_vec();
    not.push("st.global.b8 [%out+1], %h4;");
    untouched(&not, [0xfe; 4], D);
}

/// 7cb7444f's `reduced.ptx` with the logic statement `logic` (writing d1, its low word stored
/// as word 1): x = 0, the `cnot.b64` is 1 (f64 5e-324), `cvt.rm.f32.f64` of it +0 (word 0).
fn b7cb7444f(cvt: &'static str, logic: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        "ld.global.s64 %d3, [%in+8];",
        "cnot.b64 %d3, %d3;",
        cvt,
        logic,
        "st.global.b32 [%out], %r0;",
        "cvt.u32.u64 %r1, %d1;",
        "st.global.b32 [%out+4], %r1;",
    ]
}

/// 7cb7444f (`FSEL R7, RZ, 1, !P0`, 13.0.88 and 13.5 -O3) and its `x3_or`, `x10_and_two_cnots`
/// and `x9_f64_to_f16` (`SEL R7, RZ, 0x3c00`): the cvt is the number 1.
#[test]
fn n3_7cb7444f_a_cnot_b64_anded_with_itself_is_converted_as_the_number() {
    let f32 = "cvt.rm.f32.f64 %r0, %d0;";
    exact_case(&b7cb7444f(f32, "and.b64 %d1, %d0, %d0;"), [0; 4], D, 1 << 32, 0x1_3f80_0000);
    exact_case(&b7cb7444f(f32, "or.b64 %d1, %d0, %d0;"), [0; 4], D, 1 << 32, 0x1_3f80_0000);
    exact_case(&b7cb7444f(f32, "and.b64 %d1, %d0, %d3;"), [0; 4], D, 1 << 32, 0x1_3f80_0000);
    let f16 = "cvt.rm.f16.f64 %h0, %d0;\n";
    let lines: Vec<_> = b7cb7444f(f16.trim_end(), "and.b64 %d1, %d0, %d0;")
        .into_iter()
        .map(|l| if l == "st.global.b32 [%out], %r0;" { "st.global.b16 [%out], %h0;" } else { l })
        .collect();
    exact_case(&lines, [0; 4], D, 1 << 32, 0x1_0000_3c00);
}

/// Session 43: the self-`and.b64` of ANOTHER `cnot.b64` (`e1`) and of a `cnot.b32` widened by
/// `cvt.u64.u32` (`e3`, `FSEL R7, RZ, 1, !P0`): the first `cnot`'s conversion is the number.
#[test]
fn n3_7cb7444f_any_cnot_of_the_program_is_converted_as_the_number() {
    let f32 = "cvt.rm.f32.f64 %r0, %d0;";
    exact_case(&b7cb7444f(f32, "and.b64 %d1, %d3, %d3;"), [0; 4], D, 1 << 32, 0x1_3f80_0000);
    let widened = [
        "ld.global.u32 %r2, [%in];",
        "cnot.b32 %r2, %r2;",
        "cvt.u64.u32 %d0, %r2;",
        "cvt.rm.f32.f64 %r0, %d0;",
        "and.b64 %d1, %d0, %d0;",
        "st.global.b32 [%out], %r0;",
        "cvt.u32.u64 %r1, %d1;",
        "st.global.b32 [%out+4], %r1;",
    ];
    exact_case(&widened, [0; 4], D, 1 << 32, 0x1_3f80_0000);
}

/// 7cb7444f's right variants: the `and` dead (`x12`), with a loaded word (`x4`) or the
/// immediate 1 (`x11`), a `mov.b64` in its place (`x2`), `.b32` of itself (`x8`), and
/// `selp.u64 1, 0` in place of the `cnot` (`x13`).
#[test]
fn n3_7cb7444f_right_variants_are_left_alone() {
    let f32 = "cvt.rm.f32.f64 %r0, %d0;";
    for logic in ["and.b64 %d1, %d0, %d2;", "and.b64 %d1, %d0, 1;", "mov.b64 %d1, %d0;"] {
        let mut lines = b7cb7444f(f32, logic);
        lines.insert(0, "ld.global.b64 %d2, [%in+8];");
        untouched(&lines, [0, 0, 0x5, 0], D);
    }
    let dead = [
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        f32,
        "and.b64 %d1, %d0, %d0;",
        "st.global.b32 [%out], %r0;",
    ];
    untouched(&dead, [0; 4], D);
    let b32 = [
        "ld.global.b32 %r5, [%in];",
        "cnot.b32 %r6, %r5;",
        "cvt.rn.f16.f32 %h0, %r6;",
        "and.b32 %r7, %r6, %r6;",
        "st.global.b16 [%out], %h0;",
        "st.global.b32 [%out+4], %r7;",
    ];
    untouched(&b32, [0; 4], D);
    let selp = [
        "ld.global.s64 %d0, [%in];",
        "setp.eq.s64 %p1, %d0, 0;",
        "mov.b64 %d4, 1;",
        "mov.b64 %d5, 0;",
        "selp.b64 %d0, %d4, %d5, %p1;",
        f32,
        "and.b64 %d1, %d0, %d0;",
        "st.global.b32 [%out], %r0;",
        "cvt.u32.u64 %r1, %d1;",
        "st.global.b32 [%out+4], %r1;",
    ];
    untouched(&selp, [0; 4], D);
}

/// 7ea011df's `reduced.ptx` with `body` between the `cnot.b64` of word 0 and the store of d1.
fn b7ea011df(body: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.s64 %d0, [%in];", "cnot.b64 %d0, %d0;"];
    lines.extend_from_slice(body);
    lines.push("st.global.b64 [%out], %d1;");
    lines
}

/// 7ea011df (`FSEL R0, RZ, 1.875, !P0`, 13.0.88 and 13.5 -O3: 1.0 where floor of 5e-324 is +0),
/// `v12_or_self`, `v16_and_of_cnot` (the `and` before the `cvt`), `v21` (`cvt.rm.f32.f64;
/// cvt.u64.u32; and.b64 x, x`: 0x3f800000) and session 43's two floors before the `and`.
#[test]
fn n3_7ea011df_a_float_conversion_of_a_cnot_anded_with_itself_is_the_number() {
    let one = 0x3ff0_0000_0000_0000;
    exact_case(&b7ea011df(&["cvt.rmi.f64.f64 %d0, %d0;", "and.b64 %d1, %d0, %d0;"]), [0; 4], D, 0, one);
    exact_case(&b7ea011df(&["cvt.rmi.f64.f64 %d0, %d0;", "or.b64 %d1, %d0, %d0;"]), [0; 4], D, 0, one);
    exact_case(&b7ea011df(&["and.b64 %d1, %d0, %d0;", "cvt.rmi.f64.f64 %d1, %d1;"]), [0; 4], D, 0, one);
    let v21 = ["cvt.rm.f32.f64 %r1, %d0;", "cvt.u64.u32 %d2, %r1;", "and.b64 %d1, %d2, %d2;"];
    exact_case(&b7ea011df(&v21), [0; 4], D, 0, 0x3f80_0000);
    let twice = ["cvt.rmi.f64.f64 %d2, %d0;", "cvt.rmi.f64.f64 %d3, %d2;", "and.b64 %d1, %d3, %d3;"];
    exact_case(&b7ea011df(&twice), [0; 4], D, 0, one);
}

/// 7ea011df's right variants: no `and` (`v0`), an `and` with a loaded register (`v10`), a
/// self-`and` of a loaded value (`v11`), `.b32` (`v13`), a copy (`v14`), `xor` of itself
/// (`v18`), `selp.b64 1, 0` for the `cnot` (`v20`), and session 43's `and.b64` of the floor with
/// the `cnot` itself (`FRND.F64.FLOOR` kept).
#[test]
fn n3_7ea011df_right_variants_are_left_alone() {
    let floor = "cvt.rmi.f64.f64 %d0, %d0;";
    untouched(&b7ea011df(&[floor, "mov.b64 %d1, %d0;"]), [0; 4], D);
    untouched(&b7ea011df(&["ld.global.b64 %d2, [%in+8];", floor, "and.b64 %d1, %d0, %d2;"]), [0, 0, 7, 0], D);
    let apart = ["ld.global.b64 %d2, [%in+8];", floor, "and.b64 %d3, %d2, %d2;", "add.s64 %d1, %d0, %d3;"];
    untouched(&b7ea011df(&apart), [0, 0, 7, 0], D);
    let b32 = [
        "ld.global.b32 %r0, [%in];",
        "cnot.b32 %r0, %r0;",
        "cvt.rmi.f32.f32 %r1, %r0;",
        "and.b32 %r2, %r1, %r1;",
        "st.global.b32 [%out], %r2;",
    ];
    untouched(&b32, [0; 4], D);
    let b16 = [
        "ld.global.b16 %h0, [%in];",
        "cnot.b16 %h0, %h0;",
        "cvt.rmi.f16.f16 %h1, %h0;",
        "and.b16 %h2, %h1, %h1;",
        "st.global.b16 [%out], %h2;",
    ];
    untouched(&b16, [0; 4], D);
    untouched(&b7ea011df(&[floor, "xor.b64 %d1, %d0, %d0;"]), [0; 4], D);
    let mixed = [
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        "cvt.rmi.f64.f64 %d2, %d0;",
        "and.b64 %d1, %d2, %d0;",
        "mov.b64 {%r1, %r2}, %d2;",
        "st.global.b32 [%out], %r2;",
        "cvt.u32.u64 %r3, %d1;",
        "st.global.b32 [%out+4], %r3;",
    ];
    untouched(&mixed, [0; 4], D);
    let selp = [
        "ld.global.s64 %d0, [%in];",
        "setp.eq.s64 %p1, %d0, 0;",
        "mov.b64 %d4, 1;",
        "mov.b64 %d5, 0;",
        "selp.b64 %d0, %d4, %d5, %p1;",
        floor,
        "and.b64 %d1, %d0, %d0;",
        "st.global.b64 [%out], %d1;",
    ];
    untouched(&selp, [0; 4], D);
}
