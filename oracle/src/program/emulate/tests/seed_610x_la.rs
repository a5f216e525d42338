//! Tests of 3701 C1-N2 widened after seeds 6101/6102 (helper la, session 61;
//! corpus/findings/fuzz-h200-6101/trace/T61A.md): 04f8f106's trigger, an xor of a 16-bit cvt
//! narrowing of an integer set (`set_f32_widened_as_its_boolean/narrowed_mask.rs`), and 9e2ce1b2's
//! integer narrowing of a float cvt of the set's truth
//! (`set_f32_widened_as_its_boolean/of_a_float_cvt_of_the_set.rs`). The variants run on the
//! stored cases' inputs (32 threads); thread 0's word 0 is compared.

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// Thread 0's word 0 of variant `name` of finding `id8` of seed `seed`: by the spec, emulating
/// C1-N2, and the deviations that fired.
fn word0(seed: &str, id8: &str, name: &str) -> (u64, u64, Vec<Deviation>) {
    let (p, i) = super::variant_of(seed, id8, name, &[]);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    let (s, e) = (spec[0].field(0, 32), out[0].field(0, 32));
    assert!(s.is_exact() && e.is_exact(), "{name}");
    (s.bits as u64, e.bits as u64, fired)
}

/// The stored case: `cvt.u16.s64` of the widened set.f32 stored as a byte is the rebuilt 1
/// (`SEL R9, RZ, 0x1, !P1`), word 0x00010000 (the GPU's), where §9.7.9.21 gives 0.
#[test]
fn c1_n2_04f8f106_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6101", "04f8f1064c78769c");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits, e.bits), (0, 0, 0x0001_0000), "thread {t}");
    }
}

/// Wrong alike (13.0.88 and 13.5 -O3 `SEL …, 0x1`): the xor's mask a `cvt.{u16,s16}.{u32,s32}`
/// of an integer set (v4, v12), `and.b16` for the xor (v9), the half also stored (v11: word 0's
/// low half is h7 = 0). `(name, spec, emulated)` of word 0.
#[test]
fn c1_n2_04f8f106_a_16_bit_narrowing_of_a_set_is_the_mask_trigger() {
    for name in
        ["orig", "s61/v4_cvt_u16_of_set", "s61/v12_cvt_s16_s32_of_set_s32", "s61/v9_and", "s61/v11_half_also_stored"]
    {
        assert_eq!(word0("6101", "04f8f106", name), (0, 0x0001_0000, vec![D]), "{name}");
    }
}

/// Right (left alone): no logic op (v1), the cvt of a loaded word (v3), a byte narrowing
/// `cvt.s8.u32` of the set (v8: `PRMT 0x8880`, xored as a number).
#[test]
fn c1_n2_04f8f106_no_xor_a_loaded_word_or_a_byte_narrowing_is_no_trigger() {
    for name in ["s61/v1_no_xor", "s61/v3_cvt_s16_of_load", "s61/v8_cvt_s8_of_set"] {
        assert_eq!(word0("6101", "04f8f106", name), (0, 0, vec![]), "{name}");
    }
}

/// The stored case: `cvt.u8.u64` of `cvt.rn.f64.s32` of the set.f32, round-tripped through f64
/// and stored as h12, is the rebuilt 1 (`SEL R0, RZ, 0x1, !P0`): word 0x00010000 (the GPU's),
/// where §9.7.9.21 keeps the low byte of f64 1065353216.0, 0.
#[test]
fn c1_n2_9e2ce1b2_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6102", "9e2ce1b2e0b27204");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let bug = if w == 0 { 0x0001_0000 } else { s.bits };
        assert_eq!(e.bits, bug, "thread {t} word {w}");
    }
}

/// Wrong alike (13.0.88 and 13.5 -O3 `SEL R0, RZ, 0x1, !P0`): h9 stored itself (w4: word 0's high
/// half), an f32 step and `cvt.u8.u32` (w5), `.u16` (w7), `.u32` then `.u16` (w8), `.rm.f64.u32`
/// (w10), the 32-bit narrowing unpacked (w11).
#[test]
fn c1_n2_9e2ce1b2_an_integer_narrowing_of_a_float_cvt_of_the_set_reads_the_boolean() {
    for name in [
        "orig",
        "s61/w4_h9_stored",
        "s61/w5_f32_step",
        "s61/w7_u16_narrowing",
        "s61/w8_u32_then_u16_narrowing",
        "s61/w10_rm",
        "s61/w11_u32_narrowing_unpacked",
    ] {
        assert_eq!(word0("6102", "9e2ce1b2", name), (0, 0x0001_0000, vec![D]), "{name}");
    }
}

/// Right (left alone): no trigger (w1, w6), an integer set (w2), a loaded word (w3); and the f64
/// also stored (w9): h9 keeps the spec's low byte 0 (the stored f64 is C1-N2's float form, 1.0).
#[test]
fn c1_n2_9e2ce1b2_no_trigger_an_integer_set_or_an_observed_float_keep_the_bits() {
    for name in ["s61/w1_no_xor", "s61/w2_integer_set", "s61/w3_loaded_word", "s61/w6_no_xor_integer_set"] {
        let (s, e, fired) = word0("6102", "9e2ce1b2", name);
        assert_eq!((e, fired), (s, vec![]), "{name}");
    }
    let (s, e, _) = word0("6102", "9e2ce1b2", "s61/w9_f64_top_half_stored");
    assert_eq!((s, e), (0, 0), "w9");
}
