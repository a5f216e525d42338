//! Tests of seed 5901's findings traced by helper ib (session 59; corpus/findings/fuzz-h200-5901/
//! trace/T59B.md, variants in trace/<id8>/s59/): 3701-N-D with h a `slct` (da9494d5) or a
//! `mad.hi` (897610fe) half (`emulate/merge_c_in_place.rs`, `alu_half`), and 3801-N1 with y
//! reloaded each trip by a load ptxas hoists (6879f321,
//! `emulate/mad_hi_operand_reloaded_alike_each_trip.rs`).

use super::*;

const ND: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;
const N1: Deviation = Deviation::MadHiChainLosesRepeatedLinks;

/// The stored case of seed 5901's `id8` (`None`) or its variant `name`.
fn case(id8: &str, stored: &str, name: Option<&str>) -> (Program, Inputs) {
    match name {
        None => super::stored_case("5901", stored),
        Some(name) => super::variant_of("5901", id8, name, &[]),
    }
}

/// Checks that 3701-N-D alone changes only word `word` of every thread, to `gpu(spec word)`.
fn merged_word(id8: &str, stored: &str, name: Option<&str>, word: u32, gpu: impl Fn(u128) -> u128) {
    let (p, i) = case(id8, stored, name);
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, ND) {
        if w == word {
            assert_ne!(s.bits, e.bits, "{name:?} thread {t}: the spec's word stays");
            assert_eq!(e.bits, gpu(s.bits), "{name:?} thread {t}");
        } else {
            assert_eq!(e, s, "{name:?} thread {t} word {w}");
        }
    }
}

/// Checks that `d` leaves the variant `name` of `id8` alone (no deviation fires, the spec's words).
fn left_alone(id8: &str, name: &str, d: Deviation) {
    let (p, i) = super::variant_of("5901", id8, name, &[]);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{id8} {name}");
}

/// da9494d5 (`slct.u16.s32 h6, h2, 0x815d, r8` merged over by the e5m2x2 pair's `st.v4.b16 {h1, h6,
/// …}`: `SEL R7; MERGE_C R8, RZ, RZ, R7; MOV R7, R8`): the later `st.u16 [+10], h6` stores the pair,
/// word 2 0 (spec 0x815d0000) — the stored case and the s59 wrong variants (v1 `selp.b16`, already
/// in scope; v2 `slct.s16.s32`; v7 a loaded a; v8 a `mov.b32` pack; v10 e4m3x2; v3 `slct.b16.f32`
/// is wrong too but the oracle's glue has no `.f32` slct).
#[test]
fn nd_da9494d5_a_slct_half_is_merged_over_by_the_pair() {
    let pair_low = |w: u128| w & 0xffff;
    merged_word("da9494d5", "da9494d5ef97840f", None, 2, pair_low);
    for name in ["v1_selp_b16", "v2_slct_s16_s32", "v7_slct_loaded_a", "v8_mov_b32_pack", "v10_e4m3"] {
        merged_word("da9494d5", "da9494d5ef97840f", Some(&format!("s59/{name}")), 2, pair_low);
    }
}

/// da9494d5's right variants: no pair in the pack (v4), h before the pair (v5), an f16 for the
/// pair (v6).
#[test]
fn nd_da9494d5_right_variants_are_left_alone() {
    for name in ["v4_no_pair_in_pack", "v5_h_before_pair", "v6_f16x2_not_fp8"] {
        left_alone("da9494d5", &format!("s59/{name}"), ND);
    }
}

/// 897610fe (`mad.hi.u16 h0` of a loaded byte merged over by `mov.b32 r9, {pair, h0}`: `LEA.HI R0;
/// MERGE_C R0, RZ, RZ, R0`): the later `cvt.f32.f16 r10, h0` reads the pair (+0), word 0 0 (spec
/// 0x33800000) — the stored case and the s59 wrong variants (v1 `mad.hi.s16`, v3 h0 from `ld.u16`,
/// v4 an immediate factor, v10 e5m2x2).
#[test]
fn nd_897610fe_a_mad_hi_half_is_merged_over_by_the_pair() {
    merged_word("897610fe", "897610fed80d952f", None, 0, |_| 0);
    for name in ["v1_mad_hi_s16", "v3_h_from_ld_u16", "v4_mad_hi_by_imm", "v10_e5m2"] {
        merged_word("897610fe", "897610fed80d952f", Some(&format!("s59/{name}")), 0, |_| 0);
    }
}

/// 897610fe's right variants: h before the pair (v5), no pair in the pack (v6), an f16 for the
/// pair (v7).
#[test]
fn nd_897610fe_right_variants_are_left_alone() {
    for name in ["v5_h_before_pair", "v6_no_pair_in_pack", "v7_f16_not_fp8"] {
        left_alone("897610fe", &format!("s59/{name}"), ND);
    }
}

/// hi(t·0x8222b960) (§9.7.1.4 `mad.hi.u32`, the case's x = tid, y = in[5]).
fn hi(t: usize) -> u128 {
    ((t as u64 * 0x8222_b960) >> 32).into()
}

/// hi(t·0x8222b960) as `mad.hi.s32` reads it (the word negative), as a 32-bit word.
fn hi_s32(t: usize) -> u128 {
    (((t as i64 * i64::from(0x8222_b960_u32 as i32)) >> 32) as u32).into()
}

/// 6879f321's stored case and its s59 wrong variants (the load hoisted, fewer links): word 0 of
/// each thread admits acc + k·hi for the GPU's k (2 of 4 trips; v4 4 of 8) and the spec's (v13, a
/// generic load of the global address, is wrong too: the oracle runs no generic load of `%in`).
#[test]
fn n1_6879f321_links_of_a_y_reloaded_by_a_hoisted_load_lose_steps() {
    // The stored words (threads 2, 4, 8: 2·hi where the spec is 4·hi).
    super::mad_hi_links_dropped_as_repeats::admits_stored_words(
        "5901",
        "6879f3218f06a899",
        &[(2, 0, 2), (3, 0, 2), (4, 0, 4), (8, 0, 8), (9, 0, 8)],
    );
    let variants = [
        ("v4_loop8", 8, 4),
        ("v5_ld_nc_in_loop", 4, 2),
        ("v7_shared_store_in_loop", 4, 2),
        ("v10_mad_hi_s32", 4, 2),
        ("v11_cv_in_loop", 4, 2),
        ("v12_cg_in_loop", 4, 2),
    ];
    for (name, trips, links) in variants {
        let (p, i) = super::variant_of("5901", "6879f321", &format!("s59/{name}"), &[]);
        for (t, _, s, e) in super::words_emulating(&p, &i, N1).into_iter().filter(|&(t, w, ..)| w == 0 && t >= 2) {
            let step = if name == "v10_mad_hi_s32" { hi_s32(t) } else { hi(t) };
            assert_eq!(s.bits, (trips * step) & 0xffff_ffff, "{name} thread {t}: the spec");
            assert!(e.matches((links * step) & 0xffff_ffff), "{name} thread {t}: {e}");
            assert!(e.matches(s.bits), "{name} thread {t}: the spec's value stays admitted");
        }
    }
}

/// 6879f321's right variants (one load per trip, every link): `.volatile` (v2), a `st.global` in
/// the loop (v3), `.relaxed.gpu` (v6), `.acquire.gpu` (v9).
#[test]
fn n1_6879f321_links_of_a_y_loaded_anew_each_trip_are_left_alone() {
    for name in ["v2_volatile_load_in_loop", "v3_store_in_loop", "v6_relaxed_gpu_in_loop", "v9_acquire_in_loop"] {
        left_alone("6879f321", &format!("s59/{name}"), N1);
    }
}
