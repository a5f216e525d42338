//! Tests of 3701 C1-N2 under the trigger of a logic op of the float `cvt`'s result and another
//! set.f32 word (seed 5103's 15219630, session 51; corpus/findings/fuzz-h200-5103/trace/T22c.md,
//! variants in trace/15219630/s51/; `emulate/set_f32_boolean_beside_a_logic_op_of_set_f32_words.rs`).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// The stored case: word 1 is `FSEL R7, RZ, 1, !P0` of the two predicates' xor, 0, where the
/// spec's is 0x3f800000 ^ 0x4e7e0000 = 0x71fe0000.
#[test]
fn c1n2_15219630_stored_case_is_reached() {
    let (p, i) = super::stored_case("5103", "15219630cf95bf6d");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0x71fe_0000, 0), "thread {t}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// The stored body with `op` as the logic op of r4 (a set.f32 word, or `other`'s result) and r9.
fn body(other: &str, op: &str) -> Vec<String> {
    [
        "mov.b32 %r0, 0;",
        "ld.global.u16 %h2, [%in+8];",
        other,
        "ld.global.u32 %r5, [%in+4];",
        "set.lt.f32.s32 %r6, %r0, %r5;",
        "cvt.rn.f32.s32 %r9, %r6;",
        op,
        "st.global.b32 [%out], %r18;",
    ]
    .into_iter()
    .map(String::from)
    .collect()
}

const SET: &str = "set.le.f32.s16 %r4, %h2, 0;";
const WORDS: [u32; 4] = [0, 0x2cea_7b41, 0, 0];

/// Wrong (13.0.88 and 13.5 -O3): the xor (the stored core), `and.b32` (s51/v3: `ISETP.LE.AND;
/// FSEL R7, RZ, 1, !P0`, 1.0 where the spec's is 0x0e000000).
#[test]
fn c1n2_15219630_a_logic_op_of_the_cvt_and_a_set_f32_word_converts_one() {
    exact_case(&strs(&body(SET, "xor.b32 %r18, %r4, %r9;")), WORDS, D, 0x71fe_0000, 0);
    exact_case(&strs(&body(SET, "and.b32 %r18, %r4, %r9;")), WORDS, D, 0x0e00_0000, 0x3f80_0000);
}

/// Right: the xor's other source a loaded word (s51/v1: `I2FP.F32.S32` of the word), and the
/// cvt not read by the logic op (v2's form).
#[test]
fn c1n2_15219630_a_loaded_word_or_no_logic_reader_is_left_alone() {
    untouched(&strs(&body("ld.global.u32 %r4, [%in+8];", "xor.b32 %r18, %r4, %r9;")), WORDS, D);
    untouched(&strs(&body(SET, "xor.b32 %r18, %r4, %r6;")), WORDS, D);
}
