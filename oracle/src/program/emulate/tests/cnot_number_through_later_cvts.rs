//! Tests of 3501-N3 carried past a `cnot`'s first conversion (helper w2, session 45;
//! `emulate/cnot_number_through_later_cvts.rs`): seed 4501's db13d0ac (a float `cvt` of a
//! float-to-integer `cvt` of a `cnot`, corpus/findings/fuzz-h200-4501/trace/T16t2.md) and seed
//! 4503's 59c56fd7 (a sign-extending widening of a float `cvt` of a `cnot`,
//! corpus/findings/fuzz-h200-4503/trace/T16t5.md). Variants under each finding's trace/<id>/s45/.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// The logic trigger (an `xor.b16` of a set mask's halves) storing its 16 bits at `at`.
fn trigger(at: &'static str) -> Vec<&'static str> {
    let store = match at {
        "+4" => "st.global.b16 [%out+4], %h6;",
        _ => "st.global.b16 [%out], %h6;",
    };
    vec![
        "ld.global.u32 %r4, [%in+4];",
        "set.ne.s32.u32 %r2, %r4, 0;",
        "mov.b32 {%h4, %h5}, %r2;",
        "xor.b16 %h6, %h4, %h5;",
        store,
    ]
}

/// db13d0ac's chain `cnot.b32; <first>; <second>` storing the word `r3` at [out].
fn chain_4501(first: &'static str, second: &'static str, logic: bool) -> Vec<&'static str> {
    let mut lines =
        vec!["ld.global.u32 %r0, [%in];", "cnot.b32 %r1, %r0;", first, second, "st.global.u32 [%out], %r3;"];
    if logic {
        lines.extend(trigger("+4"));
    }
    lines
}

/// db13d0ac (`reduced.ptx`; 13.0.88 and 13.5 -O3 `ISETP.EQ.U32 P0, PT, R2, RZ; FSEL R7, RZ, 1,
/// !P0`): `cvt.f32.f16` of `cvt.rmi.u8.f32` of a `cnot.b32` of 0 is 1.0f, the spec +0 (the
/// `.rmi` of the bits 0x00000001 is 0). `v4_rzi_u16` (`cvt.rzi.u16.f32` first) the same. No
/// trigger (`v1_no_trigger`: `F2I.U8.FLOOR.NTZ; HADD2.F32`) and a loaded u8 (`v3`) are right.
#[test]
fn n3_db13d0ac_a_float_cvt_of_an_integer_cvt_of_a_cnot_is_the_number() {
    let (spec, gpu) = (0, 0x3f80_0000);
    exact_case(&chain_4501("cvt.rmi.u8.f32 %h0, %r1;", "cvt.f32.f16 %r3, %h0;", true), [0; 4], D, spec, gpu);
    exact_case(&chain_4501("cvt.rzi.u16.f32 %h0, %r1;", "cvt.f32.f16 %r3, %h0;", true), [0; 4], D, spec, gpu);
    untouched(&chain_4501("cvt.rmi.u8.f32 %h0, %r1;", "cvt.f32.f16 %r3, %h0;", false), [0; 4], D);
    let mut loaded = vec!["ld.global.u8 %h0, [%in+8];", "cvt.f32.f16 %r3, %h0;", "st.global.u32 [%out], %r3;"];
    loaded.extend(trigger("+4"));
    untouched(&loaded, [0, 0, 1, 0], D);
}

/// db13d0ac's `v6_selp10` (`selp.b32 1, 0` in place of the `cnot`; 13.0.88 -O3 `SEL R0, RZ,
/// 0x1, P0; F2I.U8.FLOOR.NTZ R0, R0`): the float-to-integer `cvt` of a `selp` is no 0/1 ptxas
/// carries further, so the `cvt.f32.f16` after it is not converted as the number 1.0.
#[test]
fn n3_db13d0ac_not_through_an_integer_cvt_of_a_selp() {
    let mut lines = vec![
        "ld.global.u32 %r0, [%in];",
        "setp.eq.u32 %p0, %r0, 0;",
        "mov.b32 %r5, 1;",
        "selp.b32 %r1, %r5, 0, %p0;",
        "cvt.rmi.u8.f32 %h0, %r1;",
        "cvt.f32.f16 %r3, %h0;",
        "st.global.u32 [%out], %r3;",
    ];
    lines.extend(trigger("+4"));
    let (_, e, _) = both(&lines, [0; 4], D);
    assert_ne!(e.bits as u64 & 0xffff_ffff, 0x3f80_0000, "{lines:?}");
}

/// 59c56fd7's chain `ld.b16; cnot.b16; <float cvt>; <widening>` storing `r9` at [out+4].
fn chain_4503(float: &'static str, widening: &'static str, logic: bool) -> Vec<&'static str> {
    let mut lines =
        vec!["ld.global.b16 %h1, [%in];", "cnot.b16 %h1, %h1;", float, widening, "st.global.b32 [%out+4], %r9;"];
    if logic {
        lines.extend(trigger("+0"));
    }
    lines
}

/// 59c56fd7 (`reduced.ptx` = `v12_cvt_u32_s16`; 13.0.88 and 13.5 -O3 `ISETP.EQ.U32 P0, PT, R0,
/// RZ; SEL R9, RZ, 0x1, !P0`): `cvt.u32.s16` of `cvt.rni.bf16.bf16` of a `cnot.b16` of 0 is the
/// integer 1 (spec 0: the bf16 bits 0x0001 round to +0; the number model alone gives bf16 1.0,
/// 0x3f80, sign-extended). `v16_f16_cvt_u32_s16` (`cvt.rni.f16.f16`) the same.
#[test]
fn n3_59c56fd7_a_signed_widening_of_a_converted_cnot_is_the_integer() {
    let (spec, gpu) = (0, 1 << 32);
    exact_case(&chain_4503("cvt.rni.bf16.bf16 %h2, %h1;", "cvt.u32.s16 %r9, %h2;", true), [0; 4], D, spec, gpu);
    exact_case(&chain_4503("cvt.rni.f16.f16 %h2, %h1;", "cvt.u32.s16 %r9, %h2;", true), [0; 4], D, spec, gpu);
    // No trigger (`v13_cvt_u32_s16_no_logic`: `FRND.BF16; PRMT 0x9910`): right.
    untouched(&chain_4503("cvt.rni.bf16.bf16 %h2, %h1;", "cvt.u32.s16 %r9, %h2;", false), [0; 4], D);
}

/// 59c56fd7's `v20_f32_cvt_s32` (`cnot.b32; cvt.rni.f32.f32; cvt.s64.s32`; 13.0.88 -O3 `SEL R8,
/// RZ, 0x1, !P0; IMAD.MOV.U32 R9, RZ, RZ, RZ`): the 64-bit integer 1.
#[test]
fn n3_59c56fd7_cvt_s64_s32_of_a_converted_cnot_is_the_integer() {
    let mut lines = vec![
        "ld.global.b32 %r2, [%in];",
        "cnot.b32 %r2, %r2;",
        "cvt.rni.f32.f32 %r3, %r2;",
        "cvt.s64.s32 %d5, %r3;",
        "mov.b64 {%r20, %r21}, %d5;",
        "st.global.b32 [%out+4], %r20;",
    ];
    lines.extend(trigger("+0"));
    exact_case(&lines, [0; 4], D, 0, 1 << 32);
}

/// 59c56fd7's right neighbours of the widening: a zero-extending `cvt.u32.u16` (`v14`: `SEL R9,
/// RZ, 0x3f80, !P0`) and a bf16 result with another reader (`v18`: `SEL R9, RZ, 0x3f80, !P0;
/// PRMT R11, R9, 0x9910, RZ`) keep the number model's bits 0x3f80.
#[test]
fn n3_59c56fd7_zero_extension_or_another_reader_keeps_the_float_bits() {
    let zero_extending = chain_4503("cvt.rni.bf16.bf16 %h2, %h1;", "cvt.u32.u16 %r9, %h2;", true);
    exact_case(&zero_extending, [0; 4], D, 0, 0x3f80 << 32);
    let mut two_readers = chain_4503("cvt.rni.bf16.bf16 %h2, %h1;", "cvt.u32.s16 %r9, %h2;", true);
    two_readers.push("st.global.b16 [%out+2], %h2;");
    exact_case(&two_readers, [0; 4], D, 0, (0x3f80 << 32) | (0x3f80 << 16));
}
