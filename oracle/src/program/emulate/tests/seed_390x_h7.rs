//! Tests of the emulations of seeds 3902/3903's new word-level root causes (`emulate/fuzz3901.rs`):
//! 4483ae72 (an `add` of a `cnot.b32` result's funnel shift fused into a negated `LEA.HI`) and
//! fc25f5c6 (a bitwise op of a plain half `cvt` of a `cnot` result and its integer rounding
//! folded with the `cvt` read as the number). Each is the GPU's word under the emulation and the
//! spec's without, the variants ptxas 13.0.88 -O3 compiles right untouched.

use super::*;

/// 4483ae72 (corpus/findings/fuzz-h200-3903/, trace/T6F.md, `trace/4483ae72/reduced.ptx`): for a
/// loaded 0, `cnot` gives 1, `shf.l.wrap.b32 s, c, 0, 8` gives 0 and the sum 1; 13.0.88 -O3's
/// `LEA.HI R7, -R0, R7, RZ, 0x8` (R0 = −1) gives 1 − 0xff = 0xffffff02 (the GPU's half 0xff02).
#[test]
fn n_4483ae72_an_add_of_a_cnot_funnel_shift_subtracts_the_shifted_negation() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let with = |shf: &'static str, add: &'static str| {
        vec!["ld.global.b32 %r0, [%in];", "cnot.b32 %r1, %r0;", shf, add, "st.global.b32 [%out], %r8;"]
    };
    let wrap8 = "shf.l.wrap.b32 %r7, %r1, 0, 8;";
    let add = "add.s32 %r8, %r1, %r7;";
    exact_case(&with(wrap8, add), [0; 4], d, 1, 0xffff_ff02);
    // x ≠ 0: cnot 0, R0 = 0, right.
    untouched(&with(wrap8, add), [5, 0, 0, 0], d);
    // `.clamp` (v6), n = 16 (v7) and 31, `add.u32` swapped: the same negated LEA.HI.
    exact_case(&with("shf.l.clamp.b32 %r7, %r1, 0, 8;", add), [0; 4], d, 1, 0xffff_ff02);
    exact_case(&with("shf.l.wrap.b32 %r7, %r1, 0, 16;", add), [0; 4], d, 1, 0xffff_0002);
    exact_case(&with("shf.l.wrap.b32 %r7, %r1, 0, 31;", add), [0; 4], d, 1, 0x8000_0002);
    exact_case(&with(wrap8, "add.u32 %r8, %r7, %r1;"), [0; 4], d, 1, 0xffff_ff02);
    // A loaded addend (v3): x − 0xff; a moved 0 high word and a copy of c the same.
    let loaded = [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b32 %r2, [%in+4];",
        "cnot.b32 %r1, %r0;",
        "mov.b32 %r3, %r1;",
        "mov.b32 %r4, 0;",
        "shf.l.wrap.b32 %r7, %r3, %r4, 8;",
        "add.s32 %r8, %r2, %r7;",
        "st.global.b32 [%out], %r8;",
    ];
    exact_case(&loaded, [0, 0x1000, 0, 0], d, 0x1000, 0x1000 - 0xff);
    // Right: shr.u32 (v1), shf.r of {c:0}, a sub, a loaded high word (value unobserved), a
    // cnot.b16 widened, a cnot of a constant.
    untouched(&with("shr.u32 %r7, %r1, 24;", add), [0; 4], d);
    let shf_r = [
        "ld.global.b32 %r0, [%in];",
        "cnot.b32 %r1, %r0;",
        "mov.b32 %r4, 0;",
        "shf.r.wrap.b32 %r7, %r4, %r1, 24;",
        add,
        "st.global.b32 [%out], %r8;",
    ];
    untouched(&shf_r, [0; 4], d);
    untouched(&with(wrap8, "sub.s32 %r8, %r1, %r7;"), [0; 4], d);
    let high = ["ld.global.b32 %r0, [%in];", "ld.global.b32 %r2, [%in+4];", "cnot.b32 %r1, %r0;"];
    let high = [&high[..], &["shf.l.wrap.b32 %r7, %r1, %r2, 8;", add, "st.global.b32 [%out], %r8;"][..]].concat();
    untouched(&high, [0, 3, 0, 0], d);
    let widened = [
        "ld.global.b16 %h0, [%in];",
        "cnot.b16 %h2, %h0;",
        "cvt.u32.u16 %r1, %h2;",
        wrap8,
        add,
        "st.global.b32 [%out], %r8;",
    ];
    untouched(&widened, [0; 4], d);
    let constant = ["mov.b32 %r0, 0;", "cnot.b32 %r1, %r0;", wrap8, add, "st.global.b32 [%out], %r8;"];
    untouched(&constant, [0; 4], d);
}

/// fc25f5c6 (corpus/findings/fuzz-h200-3902/, trace/T6E.md, `trace/fc25f5c6/reduced.ptx`): for a
/// loaded 0, y = `cvt.f16.f16` of the cnot's 1 is the f16 bits 0x0001, its ceiling 1.0 = 0x3c00,
/// and the xor 0x3c01; 13.0.88 and 13.5 -O3 store 0 (the cnot's 1 taken as the number 1.0).
#[test]
fn n_fc25f5c6_a_bitwise_op_of_a_cnot_half_cvt_and_its_rounding_takes_the_number() {
    let d = Deviation::BitwiseOfCnotHalfCvtFoldedAsNumber;
    let chain = |plain: &'static str, round: &'static str, op: &'static str| {
        vec![
            "ld.global.s8 %h0, [%in];",
            "cnot.b16 %h0, %h0;",
            plain,
            round,
            op,
            "cvt.u32.u16 %r1, %h2;",
            "st.global.b32 [%out], %r1;",
        ]
    };
    let f16 = "cvt.f16.f16 %h1, %h0;";
    let rpi = "cvt.rpi.f16.f16 %h2, %h1;";
    let xor = "xor.b16 %h2, %h2, %h1;";
    exact_case(&chain(f16, rpi, xor), [0; 4], d, 0x3c01, 0);
    untouched(&chain(f16, rpi, xor), [7, 0, 0, 0], d);
    // .rmi (v10), .rni, .rzi, swapped operands: folded to 0 alike.
    exact_case(&chain(f16, "cvt.rmi.f16.f16 %h2, %h1;", xor), [0; 4], d, 0x0001, 0);
    exact_case(&chain(f16, "cvt.rni.f16.f16 %h2, %h1;", xor), [0; 4], d, 0x0001, 0);
    exact_case(&chain(f16, rpi, "xor.b16 %h2, %h1, %h2;"), [0; 4], d, 0x3c01, 0);
    // or/and: `SEL R7, RZ, 0x3c00, !P0`.
    exact_case(&chain(f16, rpi, "or.b16 %h2, %h1, %h2;"), [0; 4], d, 0x3c01, 0x3c00);
    exact_case(&chain(f16, rpi, "and.b16 %h2, %h1, %h2;"), [0; 4], d, 0, 0x3c00);
    // bf16: 1.0 is 0x3f80.
    let bf = chain("cvt.bf16.bf16 %h1, %h0;", "cvt.rpi.bf16.bf16 %h2, %h1;", "or.b16 %h2, %h1, %h2;");
    exact_case(&bf, [0; 4], d, 0x3f81, 0x3f80);
    // A cnot.b32 narrowed by cvt.u16.u32.
    let narrowed = [
        "ld.global.u32 %r0, [%in];",
        "cnot.b32 %r0, %r0;",
        "cvt.u16.u32 %h0, %r0;",
        f16,
        rpi,
        xor,
        "cvt.u32.u16 %r1, %h2;",
        "st.global.b32 [%out], %r1;",
    ];
    exact_case(&narrowed, [0; 4], d, 0x3c01, 0);
    // Right: no plain cvt (v3), selp 1/0 (v9), a loaded value (v6), sub.s16 (v7).
    let v3 = ["ld.global.s8 %h0, [%in];", "cnot.b16 %h0, %h0;", "cvt.rpi.f16.f16 %h2, %h0;", "xor.b16 %h2, %h2, %h0;"];
    untouched(&[&v3[..], &["cvt.u32.u16 %r1, %h2;", "st.global.b32 [%out], %r1;"][..]].concat(), [0; 4], d);
    let v9 = [
        "ld.global.s8 %h0, [%in];",
        "setp.eq.s16 %p0, %h0, 0;",
        "mov.b16 %h5, 1;",
        "mov.b16 %h6, 0;",
        "selp.b16 %h0, %h5, %h6, %p0;",
        f16,
        rpi,
        xor,
        "cvt.u32.u16 %r1, %h2;",
        "st.global.b32 [%out], %r1;",
    ];
    untouched(&v9, [0; 4], d);
    let v6 = ["ld.global.u16 %h0, [%in];", f16, rpi, xor, "cvt.u32.u16 %r1, %h2;", "st.global.b32 [%out], %r1;"];
    untouched(&v6, [1, 0, 0, 0], d);
    untouched(&chain(f16, rpi, "sub.s16 %h2, %h2, %h1;"), [0; 4], d);
}
