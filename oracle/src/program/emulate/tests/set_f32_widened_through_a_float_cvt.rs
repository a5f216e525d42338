//! Tests of 3701 C1-N2's 64-bit widening of a float conversion of the set's truth
//! (`emulate/set_f32_widened_as_its_boolean/of_a_float_cvt_of_the_set.rs`; seed 5702's 9d958b9f,
//! corpus/findings/fuzz-h200-5702/trace/T57C.md, trace/9d958b9f/s57/ with 13.0.88 and 13.5 -O3
//! listings). Each variant's body runs as a one-thread program on input words 0 (so the set
//! `set.le.f32.s32 r7, 0, r1` is true: 1.0f).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
const WORDS: [u32; 4] = [0, 0, 0x1234_5678, 0x0bad_cafe];

/// The body of variant `name` (`orig`, `s57/NAME`): the lines between its `// begin body` and
/// `// end body`.
fn body(name: &str) -> Vec<String> {
    let ptx = std::fs::read_to_string(super::trace("5702", "9d958b9f").join(format!("{name}.ptx"))).unwrap();
    let lines = ptx.lines().skip_while(|l| !l.contains("// begin body")).skip(1);
    lines.take_while(|l| !l.contains("// end body")).map(|l| l.trim().to_string()).collect()
}

/// The stored case: `cvt.u64.u16 d0, h1` of `h1 = cvt.rn.f16.s64` of the set's `cvt.rni.u64.f32`,
/// beside `and.b64 d2, d1, d1`, is `SEL R7, RZ, 0x1, !P0`: the stored word 1 (the GPU's) where
/// §9.7.9.21 gives 0x3c00 ^ 0.
#[test]
fn c1_n2_9d958b9f_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5702", "9d958b9f11570cc9");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits, e.bits), (0, 0x3c00, 1), "thread {t}");
    }
}

/// Wrong alike (13.0.88 and 13.5 -O3 `SEL …, 0x1` or a store of RZ): the widened float conversion
/// of the set's truth read as the boolean under each trigger the variants show. `(name, word 0 by
/// the spec, word 0 emulated, word 1)`: word 1 is the integer set's xor (`c5`, `c7`: −1 ^ word 2),
/// the set's word (`e2`) or a zero word, the same in both.
#[test]
fn c1_n2_9d958b9f_a_widened_float_cvt_of_the_set_reads_the_boolean() {
    let xor_of_set = u64::from(!WORDS[2]);
    let cases: [(&str, u64, u64, u64); 13] = [
        ("orig", 0x3c00, 1, 0),
        ("s57/a6_xor_low_halves", 0x3c01, 0, 0),
        ("s57/b1_or_b64", 0x3c00, 1, 0),
        ("s57/b7_a7_low_half", 0x3c01, 0, 0),
        ("s57/b8_xor_b64", 0x3c01, 0, 0),
        ("s57/b9_store_both", 0x3c00, 1, 0),
        ("s57/c1_cvt_s64_s16", 0x3c00, 1, 0),
        ("s57/c3_f32_then_u64_u32", 0x3f80_0000, 1, 0),
        ("s57/c4_xor_b64_self_trigger", 0x3c00, 1, 0),
        ("s57/c5_integer_set_xor_trigger", 0x3c00, 1, xor_of_set),
        ("s57/c7_f16_of_set_word_int_set_trigger", 0x3c00, 1, xor_of_set),
        ("s57/e2_set_word_also_stored", 0x3c00, 1, 0x3f80_0000),
        ("s57/e3_high_word_stored", 0x3c00, 1, 0),
    ];
    for (name, spec, bug, word1) in cases {
        exact_case(&strs(&body(name)), WORDS, D, spec | word1 << 32, bug | word1 << 32);
    }
}

/// Right (left alone): no trigger (`a1`, `a7`, `b2`–`b6`, `c8`, `c6`'s 32-bit chain), the float
/// conversion also stored (`e1`), a 32-bit widening (`a8`), a loaded float for the set (`a5`; `a4`'s
/// `selp` of an immediate 0x3f800000 is no glue form the program model parses), a loaded high word (`a3`).
#[test]
fn c1_n2_9d958b9f_leaves_untriggered_and_observed_conversions_alone() {
    for name in [
        "a1_no_xor",
        "a3_xor_of_loaded_high",
        "a5_loaded_float",
        "a7_no_and",
        "a8_cvt_u32_u16",
        "b2_mov_b64_copy",
        "b3_and_with_loaded",
        "b4_xor_b64_with_zero",
        "b5_add_zero",
        "b6_and_with_minus_one",
        "c6_rzi_u32_chain",
        "c8_u64_u16_and_b32_of_low",
        "e1_half_also_stored",
    ] {
        untouched(&strs(&body(&format!("s57/{name}"))), WORDS, D);
    }
}
