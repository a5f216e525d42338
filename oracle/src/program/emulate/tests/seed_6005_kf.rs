//! Tests of seed 6005's caa2b68c traced by helper kf (session 60; corpus/findings/fuzz-h200-6005/
//! trace/T60F.md, variants in trace/caa2b68c/s60/): 3701-N-D where a later word of the `mov.b64`
//! pack repeats the pair's word {p, h} (`emulate/merge_c_in_place.rs`, `repeated_pair_word`):
//! ptxas reads it from the merged register, so its high half is h, while a later read of h is
//! the pair.

use super::*;

const ND: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// The stored case (`None`) or its variant `name`.
fn case(name: Option<&str>) -> (Program, Inputs) {
    match name {
        None => super::stored_case("6005", "caa2b68cd96a1077"),
        Some(name) => super::variant_of("6005", "caa2b68c", name, &[]),
    }
}

/// caa2b68c: `st.s8 [+2], h1` stores the e5m2 pair's low byte 0xfb (`STG.E.S8 R9` of the merged
/// R9), while `st.u8 [+3]` of d4's top half keeps the spec's 0xff (`sub.u64 d4, d0, {p, h1, p,
/// h1}` reads R9 as both words): every thread 0xfffb0000, spec 0xff000000. With
/// `repeated_pair_word` undone the top half of d4 changes (element 3 taken as the pair).
#[test]
fn nd_caa2b68c_a_repeated_pair_word_keeps_its_h() {
    let (p, i) = case(None);
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, ND) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0xff00_0000, 0xfffb_0000), "thread {t}");
        }
    }
    // The reduction and its wrong variants: shr by 3 (v3), an e4m3x2 pair (v4), an xor.b16 h
    // (v5): byte 2 the pair's low byte, byte 3 the spec's.
    for name in [None, Some("s60/v3_shr_by_3"), Some("s60/v4_e4m3"), Some("s60/v5_xor_half")] {
        let (p, i) = match name {
            None => super::variant_of("6005", "caa2b68c", "reduced", &[]),
            Some(n) => case(Some(n)),
        };
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(ND)).unwrap();
        assert_eq!(fired, vec![ND], "{name:?}");
        for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
            assert_eq!(e.field(24, 8), s.field(24, 8), "{name:?} thread {t}: d4's byte");
            assert_ne!(e.field(16, 8).bits, s.field(16, 8).bits, "{name:?} thread {t}: h1's byte");
        }
    }
}

/// v2_h_not_stored: h1 is not read after the pack, whose repeated word is the merged register
/// (`IMAD.X R4, R5, 0x1, ~R9, P0`): right, left alone (undone, element 3 would be the pair).
#[test]
fn nd_caa2b68c_a_repeated_pair_word_alone_is_right() {
    for name in ["s60/v2_h_not_stored", "s60/v6_f16x2_not_pair"] {
        let (p, i) = case(Some(name));
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(ND)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}

/// v1_word1_other_pair (`{p, h1, h0, h1}`: `PRMT R3, R8, 0x5410, R9`) and
/// v7_word1_first_half_only (`{p, h1, h1, h0}`: `PRMT R3, R9, 0x5410, R8`): a later element naming
/// h in a word that is not the pair's reads the pair, as before.
#[test]
fn nd_caa2b68c_h_in_another_word_still_reads_the_pair() {
    for name in ["s60/v1_word1_other_pair", "s60/v7_word1_first_half_only"] {
        let (p, i) = case(Some(name));
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(ND)).unwrap();
        assert_eq!(fired, vec![ND], "{name}");
        for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
            assert_ne!(e.field(16, 8).bits, s.field(16, 8).bits, "{name} thread {t}: h1's byte");
        }
    }
}
