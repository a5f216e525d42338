//! F's f32 conversion of a sign extension of an overflowed abs read as unsigned (seed 5602's
//! 7b7273cd, corpus/findings/fuzz-h200-5602/trace/T56F.md; `emulate/f_f32_of_sign_extended_abs.rs`):
//! the stored case and its s56 variants, on the stored inputs (word 9's high half 0x8000, every
//! thread; w7's word 9 set to 0x80000000).

use super::*;

const D: Deviation = Deviation::NegationOverflow;

/// Word 1 (`st.global.b16 [%out+4]`) of every thread of `p` on `i`: by the spec, and emulating F.
fn word1(p: &Program, i: &Inputs) -> Vec<(u64, u64)> {
    words_emulated_alone(p, i, D)
        .into_iter()
        .filter(|&(_, w, _, _)| w == 1)
        .map(|(_, _, s, e)| (s.bits as u64, e.bits as u64))
        .collect()
}

/// 7b7273cd: `abs.s16` of −32768, `cvt.s64.s16`, `cvt.rn.f32.u64` is `IABS; PRMT 0x7710; I2F.S16`
/// (13.0.88 and 13.5 -O3): −32768.0's high half 0xc700 where the spec's 2^64 − 2^15 rounds to 2^64
/// (0x5f80), in every thread (the json's threads 0–7 among them); word 0 untouched.
#[test]
fn f_7b7273cd_the_stored_case_converts_the_sign_extended_abs_as_signed() {
    let (p, i) = stored_case("5602", "7b7273cd0d60fea2");
    let words = words_emulated_alone(&p, &i, D);
    assert_eq!(words.len(), 64);
    for (t, w, s, e) in words {
        let expected = if w == 1 { (0x5f80, 0xc700) } else { (0, 0) };
        assert_eq!((s.bits as u64, e.bits as u64), expected, "thread {t} word {w}");
    }
}

/// The s56 variants the listings have wrong: a 32-bit extension read as `.u32` (w1: 2^32 − 2^15
/// is 0x4f7fff80, exact), `cvt.u64.s16` (w2), `.rz` and `.rm` (w6, w10: 0x5f7f), `.sat` (w9: the spec's 1.0,
/// `FADD.SAT` of −32768.0 gives 0), abs.s32 of −2^31 widened by `cvt.s64.s32` (w7: `I2FP.F32.S32`,
/// −2^31 is 0xcf00).
#[test]
fn f_7b7273cd_wrong_variants_convert_the_abs_as_signed() {
    let var = |name: &str, patch: &[(usize, u32)]| variant_of("5602", "7b7273cd", &format!("s56/{name}"), patch);
    for (name, patch, spec, bug) in [
        ("w1_s32_u32", &[][..], 0x4f7f, 0xc700),
        ("w2_u64_s16", &[][..], 0x5f80, 0xc700),
        ("w6_rz", &[][..], 0x5f7f, 0xc700),
        ("w10_rm", &[][..], 0x5f7f, 0xc700),
        ("w9_sat_f32", &[][..], 0x3f80, 0),
        ("w7_abs32", &[(9, 0x8000_0000)][..], 0x5f80, 0xcf00),
    ] {
        let (p, i) = var(name, patch);
        for (s, e) in word1(&p, &i) {
            assert_eq!((s, e), (spec, bug), "{name}");
        }
    }
}

/// The neighbours: `.f64`/`.f16`/`.bf16` destinations (w3, w4, w11: `IABS; SHF.R.S32.HI;
/// I2F.*.U64`) and `neg.s16` (w5: `IMAD.MOV -R0; …; I2F.U64`) convert the unwrapped +2^15 (F's
/// 5fe30520 rule at the extension: 0x40e0, 0x7800, 0x4700, 0x4700 where the spec has 0x43ef, +inf
/// 0x7c00, 0x5f80, 0x5f80), not the abs as signed; a `.s64` source (w8: `I2F.S16`) gives −32768.0,
/// the spec's (the earlier rule alone would give +32768.0); not the minimum (w7 on its stored
/// 0x8000ad27): the spec's.
#[test]
fn f_7b7273cd_neighbours_keep_the_unwrapped_value_or_the_spec() {
    for (name, spec, emulated) in [
        ("w3_f64", 0x43ef, 0x40e0),
        ("w4_f16", 0x7c00, 0x7800),
        ("w11_bf16", 0x5f80, 0x4700),
        ("w5_neg", 0x5f80, 0x4700),
        ("w8_s32_f32s64", 0xc700, 0xc700),
        ("w7_abs32", 0x4eff, 0x4eff),
    ] {
        let (p, i) = variant_of("5602", "7b7273cd", &format!("s56/{name}"), &[]);
        let spec_words = run(&p, &i, &Allowances::all()).unwrap();
        let (out, _) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        for (s, e) in spec_words.iter().zip(&out) {
            let (s, e) = (s.field(32, 16).bits as u64, e.field(32, 16).bits as u64);
            assert_eq!((s, e), (spec, emulated), "{name}");
        }
    }
}
