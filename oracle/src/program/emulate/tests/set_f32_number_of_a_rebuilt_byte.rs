//! Tests of 3701 C1-N2's number conversion of the set's byte narrowing rebuilt as 0/1
//! (`emulate/set_f32_boolean_through_a_narrowing_float_cvt/of_a_rebuilt_byte.rs`; seed 5702's
//! 03b451b4, corpus/findings/fuzz-h200-5702/trace/T57C.md, trace/03b451b4/s57/ with 13.0.88 and
//! 13.5 -O3 listings).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// The variant `name` (`orig`, `s57/NAME`) of 03b451b4 on the stored case's inputs (word 3, r0,
/// 1989846883 > 0: the set.f32 true; word 1, r7, 0: the integer set −1).
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("5702", "03b451b4", name, &[])
}

/// The 32-bit output words of thread 0 of `(p, i)`: `(spec, emulated)`, and the deviations that fired.
fn words((p, i): &(Program, Inputs)) -> (Vec<(u64, u64)>, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(p, i, &Allowances::all().emulating(D)).unwrap();
    let w = |e: &Expected, k: u32| e.field(32 * k, 32).bits as u64;
    ((0..p.outputs).map(|k| (w(&spec[0], k), w(&out[0], k))).collect(), fired)
}

/// The stored case: `cvt.f16.f16 h4, h0` of the byte `cvt.s8.s32 h0` of the set.f32 word, beside
/// `xor.b16` of a half of an integer set, is `SEL R7, RZ, 0x3c00, !P0; @P1 LOP3 0x33`: the stored
/// half 0xc3ff (the GPU's) where §9.7.9.21 gives 0xffff ^ 0 (15e3e364's rebuilt byte alone: 0xfffe).
#[test]
fn c1_n2_03b451b4_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5702", "03b451b4de2c97e7");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (0xffff, 0xc3ff) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}

/// Wrong alike (13.0.88 and 13.5 -O3): the number 1 converted by `cvt.rni.f16.f16` (`d2`),
/// `cvt.rn.f16.s16` (`d3`), `cvt.bf16.f16` (`d4`: 0x3f80), h0 overwritten after (`d5`), `cvt.f32.f16`
/// (`d8`: 1.0f in word 0), the converted half stored (`d9`, word 0). `(name, word, spec, emulated)`.
#[test]
fn c1_n2_03b451b4_a_float_cvt_of_the_rebuilt_byte_converts_the_number() {
    let cases = [
        ("orig", 1, 0xffff, 0xc3ff),
        ("s57/d2_cvt_rni_f16_f16", 1, 0xffff, 0xc3ff),
        ("s57/d3_cvt_rn_f16_s16", 1, 0xffff, 0xc3ff),
        ("s57/d4_cvt_bf16_f16", 1, 0xffff, 0xc07f),
        ("s57/d5_cvt_u8_u32", 1, 0xffff, 0xc3ff),
        ("s57/d8_cvt_f32_f16", 0, 0, 0x3f80_0000),
        ("s57/d9_f16_cvt_stored_no_xor_of_it", 0, 0, 0x3c00),
    ];
    for (name, k, spec, bug) in cases {
        let (w, fired) = words(&variant(name));
        assert_eq!(fired, vec![D], "{name}");
        assert_eq!(w[k], (spec, bug), "{name}");
    }
}

/// Not this form: no trigger (`d6`: untouched), the byte also stored (`d7`: 15e3e364's byte 1 and
/// the spec's conversion of its bits, 0xfffe, as the listing's `HADD2` of 0x0001); with no cvt
/// (`d1`) 15e3e364's byte alone (0xfffe).
#[test]
fn c1_n2_03b451b4_leaves_an_observed_byte_and_no_trigger_to_the_byte_rule() {
    let (w, fired) = words(&variant("s57/d6_no_trigger"));
    assert_eq!(fired, Vec::new(), "d6");
    assert!(w.iter().all(|(s, e)| s == e), "d6");
    for name in ["s57/d7_byte_also_stored", "s57/d1_no_f16_cvt"] {
        let (w, fired) = words(&variant(name));
        assert_eq!(fired, vec![D], "{name}");
        assert_eq!(w[1], (0xffff, 0xfffe), "{name}");
    }
}
