//! Tests of known root causes widened to their mechanisms after seeds 4102 and 4103's traces
//! (corpus/findings/fuzz-h200-4102/trace/T9y1.md, T9y2.md; fuzz-h200-4103/trace/T9y4.md; helper
//! z4, session 41): 3501-N2 (a `mul.lo.u64` by 2^k chain), 6e4d6e41 (a 32-bit word 0 by known
//! bits), 3501-N3 (any 0/1 of a predicate, an `.f64` source), 3701 C3-3 (a `set` consumer) and
//! C3-2 (a moved multiplier). Each: the traced form emulated, a neighbour the listings show
//! right left alone.

use super::*;

/// 9fdf9221 (T9y1.md, `reduced.ptx`, `model.py`): a loop of 7 × `mul.lo.u64 d, d, 0x80; add.u64
/// d, d, K` gives (x0 << 35) + chain(0) on 13.0.88 -O3 (word 1 0xfe680a07, spec 0x9eba70f7);
/// straight-line 5 × (0x100, K) cuts at 32 (`sweep_k8_n5`). Right: `mul.lo.s64` (`v6`), a
/// multiplier 0x81 (`v4`), 5 × 0x80 (35 = the cut on the last step, `v3_trips5`), 4 × 0x100.
#[test]
fn n2_3501_a_mul_lo_u64_by_a_power_of_two_chain_is_cut_where_it_reaches_32() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let looped = |mul: &'static str, trips: &'static str| {
        [
            "ld.global.u64 %d0, [%in];",
            "mov.u32 %r6, 0;",
            "$L1:",
            mul,
            "add.u64 %d0, %d0, 0xdf8df50e23dc7128;",
            "add.u32 %r6, %r6, 0x1;",
            trips,
            "@%p2 bra $L1;",
            "st.global.b64 [%out], %d0;",
        ]
    };
    let x0 = [1_488_859_938, 0, 0, 0];
    let seven = "setp.lt.u32 %p2, %r6, 7;";
    exact_case(&looped("mul.lo.u64 %d0, %d0, 0x80;", seven), x0, d, 0x9eba_70f7_d35f_0528, 0xfe68_0a07_d35f_0528);
    let straight = |k: &str, n: usize| {
        let mut v = vec!["ld.global.u64 %d0, [%in];".to_string(), format!("mov.b64 %d3, {k};")];
        for _ in 0..n {
            v.push("mul.lo.u64 %d0, %d3, %d0;".to_string());
            v.push("add.u64 %d0, %d0, 0xdf8df50e23dc7128;".to_string());
        }
        v.push("st.global.b64 [%out], %d0;".to_string());
        v
    };
    exact_case(&strs(&straight("256", 5)), x0, d, 0x52c4_96a7_9975_9928, 0xed4f_a7c9_9975_9928);
    untouched(&looped("mul.lo.s64 %d0, %d0, 0x80;", seven), x0, d);
    untouched(&looped("mul.lo.u64 %d0, %d0, 0x81;", seven), x0, d);
    untouched(&looped("mul.lo.u64 %d0, %d0, 0x80;", "setp.lt.u32 %p2, %r6, 5;"), x0, d);
    untouched(&strs(&straight("256", 4)), x0, d);
}

/// Whether emulating `d` makes the first output word of `lines` any value (the spec's and
/// `gpu` among them) and fires.
fn any_first_word(lines: &[&str], words: [u32; 4], d: Deviation, gpu: u32) {
    let (s, e, fired) = both(lines, words, d);
    let high = s.bits & !0xFFFF_FFFF;
    assert!(s.is_exact() && e.matches(s.bits) && e.matches(high | u128::from(gpu)), "{d:?} of {lines:?}: {e:?}");
    assert_eq!(fired, vec![d], "{lines:?}");
}

/// c9b123b1 (T9y1.md): `and.b32 x, 3; and.b32 ·, 0xffffff80` is 0 by known bits, and
/// `cvt.rn.f16x2.e5m2x2` of the high half of its `mov.b32 {lo, hi}` is `UNPACK_B R5, 0x20`
/// (0x00002000; `v6` e4m3x2 alike), the spec 0. Right: the low half (`v1`), a moved 0 (`v3`),
/// words not all known 0 (`and 0xffff`, `and 3`, `shr.u32 16`, `and 3; shl 3`).
#[test]
fn e6e4d6e41_an_fp8_unpack_of_the_high_half_of_a_32_bit_word_zero_by_known_bits_is_any_value() {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let with = |value: &[&'static str], cvt: &'static str| {
        let mut lines = vec!["ld.global.s32 %r0, [%in+4];"];
        lines.extend_from_slice(value);
        lines.extend(["mov.b32 {%h4, %h1}, %r2;", cvt, "st.global.u32 [%out], %r4;"]);
        lines
    };
    let words = [0, 0xffff_ffff, 0, 0];
    let two_ands = ["and.b32 %r1, %r0, 0x3;", "and.b32 %r2, %r1, 0xffffff80;"];
    any_first_word(&with(&two_ands, "cvt.rn.f16x2.e5m2x2 %r4, %h1;"), words, d, 0x2000);
    any_first_word(&with(&two_ands, "cvt.rn.f16x2.e4m3x2 %r4, %h1;"), words, d, 0x2000);
    untouched(&with(&two_ands, "cvt.rn.f16x2.e5m2x2 %r4, %h4;"), words, d);
    untouched(&with(&["mov.b32 %r2, 0;"], "cvt.rn.f16x2.e5m2x2 %r4, %h1;"), words, d);
    for right in [
        &["and.b32 %r2, %r0, 0xffff;"][..],
        &["and.b32 %r2, %r0, 0x3;"],
        &["shr.u32 %r2, %r0, 16;"],
        &["and.b32 %r1, %r0, 0x3;", "shl.b32 %r2, %r1, 3;"],
    ] {
        untouched(&with(right, "cvt.rn.f16x2.e5m2x2 %r4, %h1;"), words, d);
    }
}

/// 87db6a36 (T9y1.md, `reduced.ptx`): `cnot.b64` of 0 (the bits 1, an f64 subnormal) converted
/// by `cvt.rm.f32.f64` is 1.0f (`FSEL R6, RZ, 1, !P1`) beside `xor.b16` of a half of an integer
/// set, the spec 0; without the xor (`v1_no_xor`) right.
#[test]
fn n3_3501_a_cnot_b64_converted_from_f64_is_the_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let lines = [
        "ld.global.b64 %d0, [%in];",
        "cnot.b64 %d1, %d0;",
        "ld.global.b64 %d2, [%in+8];",
        "set.lt.s32.s64 %r4, %d2, 5;",
        "cvt.rm.f32.f64 %r1, %d1;",
        "ld.global.u16 %h1, [%in+4];",
        "mov.b32 {%h6, %h7}, %r4;",
        "xor.b16 %h9, %h6, %h1;",
        "st.global.b32 [%out], %r1;",
        "st.global.u16 [%out+4], %h9;",
    ];
    exact_case(&lines, [0; 4], d, 0xffff_0000_0000, 0xffff_3f80_0000);
    untouched(&[&lines[..5], &lines[8..9]].concat(), [0; 4], d);
}

/// 6d0262f6 (T9y2.md, `reduced.ptx`): the 0/1 of `cvt.rmi.s16.f32` of a `set.ne.f32` read as
/// bf16 bits by `cvt.rmi.s8.bf16` is converted as the number 1 (`SEL R9, RZ, 0x1, !P0`) beside
/// `xor.b32` of an integer set, the spec 0; so are `selp.b16 1, 0` (`v9_selp_int`) and
/// `set.ne.s32; neg.s32; cvt.u16.u32` (`v13_set_s32_first`). No xor (`v1_no_xor`): right.
#[test]
fn n3_3501_any_zero_one_of_a_predicate_converted_from_a_float_type_is_the_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let with = |zero_one: &[&'static str], logic: bool| {
        let mut lines = vec!["ld.global.b8 %h0, [%in+2];"];
        lines.extend_from_slice(zero_one);
        lines.extend(["cvt.rmi.s8.bf16 %h2, %h1;", "st.global.b8 [%out+2], %h2;"]);
        if logic {
            lines.extend([
                "ld.global.s32 %r8, [%in+12];",
                "set.ge.s32.u32 %r9, %r8, 0x0;",
                "ld.global.b32 %r10, [%in+8];",
                "xor.b32 %r11, %r9, %r10;",
                "st.global.b32 [%out+4], %r11;",
            ]);
        }
        lines
    };
    let words = [0x0010_0000, 0, 0, 0];
    let (spec, gpu) = (0xffff_ffff_0000_0000, 0xffff_ffff_0001_0000);
    let of_set = ["set.ne.f32.s16 %r4, %h0, 0;", "cvt.rmi.s16.f32 %h1, %r4;"];
    exact_case(&with(&of_set, true), words, d, spec, gpu);
    let selp = ["setp.ne.s16 %p1, %h0, 0;", "mov.b16 %h5, 1;", "selp.b16 %h1, %h5, 0, %p1;"];
    exact_case(&with(&selp, true), words, d, spec, gpu);
    let negated = ["set.ne.s32.s16 %r4, %h0, 0;", "neg.s32 %r5, %r4;", "cvt.u16.u32 %h1, %r5;"];
    exact_case(&with(&negated, true), words, d, spec, gpu);
    untouched(&with(&of_set, false), words, d);
    untouched(&with(&selp, false), words, d);
    // A loaded 1 is no 0/1 of a predicate.
    untouched(&with(&["ld.global.b16 %h1, [%in+8];"], true), [0x0010_0000, 0, 1, 0], d);
}

/// 019cca90 (T9y4.md): `set.eq.s32.s32 r, s, 1` of `set.lt.u32.s64 s, d, 0` is folded to the
/// set's own test (13.0.88 -O3 `ISETP.LT; SEL R7, RZ, -1, !P0`): −1 for d < 0, the spec 0;
/// `set.ne` (`v2`) and an `.f32` destination (`v4`) alike; a compare with 2 (`v3`) is right.
#[test]
fn c3_3_3701_a_set_eq_1_of_a_set_result_tests_the_set() {
    let d = Deviation::SetpEqOneOfSetTestsTheSet;
    let with = |consumer: &'static str| {
        ["ld.global.b64 %d1, [%in];", "set.lt.u32.s64 %r3, %d1, 0;", consumer, "st.global.u32 [%out], %r0;"]
    };
    let negative = [0, 0xffff_ffff, 0, 0];
    exact_case(&with("set.eq.s32.s32 %r0, %r3, 1;"), negative, d, 0, 0xffff_ffff);
    exact_case(&with("set.ne.f32.s32 %r0, %r3, 1;"), negative, d, 0x3f80_0000, 0);
    exact_case(&with("set.eq.f32.u32 %r0, %r3, 1;"), negative, d, 0, 0x3f80_0000);
    untouched(&with("set.eq.s32.s32 %r0, %r3, 2;"), negative, d);
    untouched(&with("set.eq.s32.s32 %r0, %r3, 1;"), [0, 1, 0, 0], d);
}

/// 13a84319 (T9y4.md): `mov.s64 c, K; mul.lo.u64 p, x, c; shl.b64 d, p, 0x1ff` stores p
/// unshifted (`IMAD R7, R2, 0x1ab32cce, RZ`, as the immediate `v1_imm_operand`), the spec 0;
/// either operand order; a loaded multiplier (`v2`) and an amount of 63 (`v3`) are right.
#[test]
fn c3_2_3701_a_product_by_a_moved_immediate_is_stored_unshifted() {
    let d = Deviation::ShlB64OfProductByConstantDropped;
    let with = |multiplier: &'static str, mul: &'static str, amount: &'static str| {
        ["ld.global.u64 %d0, [%in];", multiplier, mul, amount, "st.global.b64 [%out], %d3;"]
    };
    let moved = "mov.s64 %d1, -816799867539870514;";
    let x = [0x2804_4ca5, 0, 0, 0];
    let product = 0xb42a_9da8_4a01_08c6;
    exact_case(&with(moved, "mul.lo.u64 %d2, %d0, %d1;", "shl.b64 %d3, %d2, 0x1ff;"), x, d, 0, product);
    exact_case(&with(moved, "mul.lo.u64 %d2, %d1, %d0;", "shl.b64 %d3, %d2, 0x1ff;"), x, d, 0, product);
    let loaded = "ld.global.u64 %d1, [%in+8];";
    untouched(&with(loaded, "mul.lo.u64 %d2, %d0, %d1;", "shl.b64 %d3, %d2, 0x1ff;"), x, d);
    untouched(&with(moved, "mul.lo.u64 %d2, %d0, %d1;", "shl.b64 %d3, %d2, 63;"), x, d);
}
