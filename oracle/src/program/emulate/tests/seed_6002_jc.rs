//! Tests of the known root causes widened after seed 6002's trace T60C (helper jc, session 60;
//! corpus/findings/fuzz-h200-6002/trace/T60C.md): 3501-N2's `.s64` multiply chain subtracted
//! from a constant (1b473611) and 3602-N2's float −1.0 negation beside a predicate mask
//! (06791736). Each: the stored case reproduced, the traced form emulated, the neighbours the
//! listings show right left alone.

use super::*;

/// 1b473611 (trace/1b473611/s60/): three `mul.lo.s64 ·, -2^18` (36 at the second) then
/// `sub.s64 d, C, chain` is 13.0.88 -O3 C + x·F² (0x17e9049f in every thread's stored word, the
/// spec's C − x·F³ 0x927fffff).
#[test]
fn n2_3501_1b473611_the_stored_case_is_reproduced() {
    let (p, i) = stored_case("6002", "1b473611b02c5fc5");
    for (t, w, s, e) in words_emulated_alone(&p, &i, Deviation::ShlChainFoldedIntoLea) {
        assert_eq!((s.bits, e.bits), (0x927f_ffff, 0x17e9_049f), "thread {t} word {w}");
    }
}

/// The form unrolled (`v13`), with `mov.b64` of C (`v14`), F = +2^18 (`v04`), four steps
/// (`v02`: the spec C) and `sub.cc.s64` (`v21`): C + x·F². Right (the spec stands): two steps,
/// the cut on the last (`v01`), `sub.u64` (`v19`), `.u64` steps (`v16`), C = 0 (`v12`).
#[test]
fn n2_3501_a_s64_multiply_chain_subtracted_from_a_constant_adds_the_cut_chain() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let x = [0x497e_904a, 0, 0, 0];
    let lines = |step: &str, n: usize, c: &str, sub: &str| {
        let mut v = vec!["ld.global.s64 %d0, [%in];".to_string()];
        v.extend((0..n).map(|_| format!("{step} %d0, %d0, {};", if step.contains('+') { "" } else { "-262144" })));
        v.extend([format!("mov.b64 %d1, {c};"), format!("{sub} %d2, %d1, %d0;"), "st.global.b64 [%out], %d2;".into()]);
        v
    };
    let s64 = "mul.lo.s64";
    let c = "0x7ffffffffffffffe";
    exact_case(&strs(&lines(s64, 3, c, "sub.s64")), x, d, 0x927f_ffff_ffff_fffe, 0x17e9_049f_ffff_fffe);
    exact_case(&strs(&lines(s64, 3, c, "sub.cc.s64")), x, d, 0x927f_ffff_ffff_fffe, 0x17e9_049f_ffff_fffe);
    exact_case(&strs(&lines(s64, 4, c, "sub.s64")), x, d, 0x7fff_ffff_ffff_fffe, 0x17e9_049f_ffff_fffe);
    let positive = [
        "ld.global.s64 %d0, [%in];",
        "mul.lo.s64 %d0, %d0, 262144;",
        "mul.lo.s64 %d0, %d0, 262144;",
        "mul.lo.s64 %d0, %d0, 262144;",
        "mov.b64 %d1, 5;",
        "sub.s64 %d2, %d1, %d0;",
        "st.global.b64 [%out], %d2;",
    ];
    exact_case(&positive, x, d, 0xed80_0000_0000_0005, 0x97e9_04a0_0000_0005);
    untouched(&strs(&lines(s64, 2, c, "sub.s64")), x, d);
    untouched(&strs(&lines(s64, 3, c, "sub.u64")), x, d);
    untouched(&strs(&lines("mul.lo.u64", 3, c, "sub.s64")), x, d);
    untouched(&strs(&lines(s64, 3, "0", "sub.s64")), x, d);
}

/// 06791736 (trace/06791736/s60/): `neg.s32` of a true set.f32 xor an integer set is 13.0.88
/// and 13.5 -O3 0xbf800000 (the float −1.0) where the spec negates 0x3f800000 to 0xc0800000.
#[test]
fn n2_3602_06791736_the_stored_case_is_reproduced() {
    let (p, i) = stored_case("6002", "067917361c936565");
    for (t, w, s, e) in words_emulated_alone(&p, &i, Deviation::NegOfSetF32HalvesReadAsBoolean) {
        assert_eq!((s.bits, e.bits), (0xc080_0000, 0xbf80_0000), "thread {t} word {w}");
    }
}

/// The negation read by and/or/xor.b32 beside an integer set (`set.*.u32`/`.s32`; `v03`, `v06`,
/// `v09`, `v16`, `v17`) is the float −1.0; beside a set.f32 (`v12`),
/// a loaded word (`v02`), a cnot (`v20`), or under an add (`v08`) the spec stands.
#[test]
fn n2_3602_the_negation_of_a_set_f32_beside_a_predicate_mask_is_the_float_minus_one() {
    let d = Deviation::NegOfSetF32HalvesReadAsBoolean;
    let words = [0, 0, 0, 0];
    let with = |mask: &str, logic: &str| {
        [
            "ld.global.u64 %d3, [%in];".to_string(),
            "set.ge.f32.u64 %r5, %d3, 0;".to_string(),
            "neg.s32 %r6, %r5;".to_string(),
            "ld.global.u64 %d6, [%in+8];".to_string(),
            mask.to_string(),
            "mov.b32 %r7, %r6;".to_string(),
            logic.to_string(),
            "st.global.u32 [%out], %r13;".to_string(),
        ]
    };
    let set_u32 = "set.ge.u32.u64 %r10, %d6, 0;";
    let set_s32 = "set.ge.s32.u64 %r10, %d6, 0;";
    for (mask, logic, spec, bug) in [
        (set_u32, "xor.b32 %r13, %r6, %r10;", 0x3f7f_ffff, 0x407f_ffff),
        (set_s32, "xor.b32 %r13, %r10, %r6;", 0x3f7f_ffff, 0x407f_ffff),
        (set_u32, "and.b32 %r13, %r7, %r10;", 0xc080_0000, 0xbf80_0000),
    ] {
        exact_case(&strs(&with(mask, logic)), words, d, spec, bug);
    }
    for (mask, logic) in [
        ("set.ge.f32.u64 %r10, %d6, 0;", "xor.b32 %r13, %r6, %r10;"),
        ("ld.global.u32 %r10, [%in+8];", "xor.b32 %r13, %r6, %r10;"),
        ("cnot.b32 %r10, %r5;", "xor.b32 %r13, %r6, %r10;"),
        (set_u32, "add.u32 %r13, %r6, %r10;"),
    ] {
        untouched(&strs(&with(mask, logic)), words, d);
    }
}
