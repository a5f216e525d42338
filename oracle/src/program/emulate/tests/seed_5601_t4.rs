//! Tests of three findings of seed 5601 (corpus/findings/fuzz-h200-5601/trace/T56D.md, variants
//! in trace/<id8>/s56/): b97651e9 and 46c959cd, 4b68821e's fusion the other way round (a
//! widening `cvt` to f32, an integer narrowing and a `.rzi` float-to-integer `cvt` are one `F2I`
//! of the half, `emulate/f2i_of_half_bits_fused_with_float_source.rs`), and f268c40e, J's
//! narrowed add whose other half's byte only a dead `mov` pack reads
//! (`emulate/j_branch_known_values.rs`, `dead`).

use super::*;

/// The stored cases: every changed word is the GPU's (b97651e9 word 1 0x00008d00: the bf16 bits
/// 0xd730 converted as the f16 −115; 46c959cd word 0 0x0000f000: the f16 141 converted, then the
/// ceiling of the f64 with bits 141, 1.0).
#[test]
fn the_stored_widening_chains_are_the_gpus() {
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    for (name, word, gpu) in [("b97651e9d2c09dec", 1, 0x8d00), ("46c959cd586ede97", 0, 0xf000)] {
        let (p, i) = stored_case("5601", name);
        let mut changed = 0;
        for (t, w, s, e) in words_emulated_alone(&p, &i, d) {
            if w == word {
                assert_eq!(e.bits as u32, gpu, "{name} thread {t}");
                changed += usize::from(s != e);
            }
        }
        assert!(changed > 0, "{name}");
    }
}

/// Thread 0's two output words of b97651e9's variant `name` with the loaded half x (input word
/// 0's low half): by the spec, and emulating `d` (with the deviations that fired).
fn widening_variant(name: &str, x: u32, d: Deviation) -> (u64, u64, Vec<Deviation>) {
    let (p, i) = variant_of("5601", "b97651e9", &format!("s56/{name}"), &[(0, x)]);
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    let e = out.remove(0);
    assert!(spec.is_exact() && e.is_exact(), "{name}");
    (spec.bits as u64, e.bits as u64, fired)
}

/// Wrong s56 forms (13.0.88 = 13.5 -O3, one `F2I` of x without `.TRUNC`): `v5` (`cvt.f32.f16`;
/// x = 1.5 gives 2, to nearest, where the spec's low half of the f32 is 0), `v6`
/// (`cvt.ftz.f32.bf16`; x = 0xc2f6 read as the f16 −3.48: −3), `v15` (a `.bf16` last cvt: the f16
/// 0x4040 read as the bf16 3.0: 3), `v18` (`.s32`; the f32 of that f16 is 0xc05ec000, its low
/// half the f16 −2.0: the spec's −2, the fused −3), `v11` (`cvt.u16.u32` middle).
#[test]
fn the_widening_chain_is_one_f2i_of_the_half_to_nearest() {
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    let minus_3 = 0xFFFF_FFFF_FFFF_FFFD;
    for (name, x, right, bug) in [
        ("v5_cvt_f32_f16_widening", 0x3E00, 0, 2),
        ("v6_ftz_bf16_loaded", 0xC2F6, 0, minus_3),
        ("v15_f16_src_bf16_consumer", 0x4040, 0, 3),
        ("v11_u16_u32", 0x3E00, 0, 2),
        ("v18_s32_dst", 0xC2F6, 0xFFFF_FFFE, 0xFFFF_FFFD),
    ] {
        let (spec, e, fired) = widening_variant(name, x, d);
        assert_eq!((spec, e, fired), (right, bug, vec![d]), "{name}");
    }
}

/// Right s56 forms (the `F2F` or the narrowing kept): an exact `cvt.f32.bf16` (`v1`, a shift), a
/// last `.rmi` (`v9`), a `.sat` middle (`v16`), a `mov` unpack middle (`v26`).
#[test]
fn shifts_other_roundings_and_saturated_middles_are_left() {
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    for name in ["v1_loaded_source", "v9_rmi_consumer", "v16_sat_narrow", "v26_mov_b32_unpack_middle"] {
        let (spec, e, fired) = widening_variant(name, 0x3E00, d);
        assert_eq!((e, fired), (spec, Vec::new()), "{name}");
    }
}

/// Word 0 of every thread of f268c40e's `name` (the stored case, or an s56 variant on its
/// inputs): by the spec, and emulating J's narrowed add.
fn narrowed_words(name: &str) -> Vec<(u32, u32)> {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let (p, i) = match name {
        "orig" => stored_case("5601", "f268c40eb5abf61a"),
        _ => variant_of("5601", "f268c40e", &format!("s56/{name}"), &[]),
    };
    words_emulating(&p, &i, d)
        .into_iter()
        .filter(|w| w.1 == 0)
        .map(|(_, _, s, e)| (s.bits as u32, e.bits as u32))
        .collect()
}

/// 13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0` (13.5 `0x1`): byte 2 of `add.s16x2` of the moved
/// 0x0001ffff and a zero constant stored as 0 where the spec gives 1, though a `mov.b16` pack
/// reads byte 1 (the other half's) — nothing reads the pack (the case, `x1_moved_b32_zero`; `x3`
/// without the pack has the same listing).
#[test]
fn f268c40e_a_dead_pack_of_the_other_half_leaves_the_add_narrowed() {
    for name in ["orig", "x1_moved_b32_zero", "x3_no_dead_c1_pack"] {
        let words = narrowed_words(name);
        assert_eq!(words.len(), 32, "{name}");
        assert!(words.iter().all(|&w| w == (1, 0)), "{name}: {words:x?}");
    }
}

/// Right: both halves' bytes stored (`x6`: `VIADD.16x2 R0, RZ, 0x1ffff`).
#[test]
fn f268c40e_bytes_of_both_halves_stored_are_left() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let (p, i) = variant_of("5601", "f268c40e", "s56/x6_bytes_of_both_halves_right", &[]);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()));
}
