//! The glue hooks of deviations emulated in files of their own, in the order [`super::glue`]
//! asks them before its own rules: the first hook that applies decides an instruction's result.
//! A hook records the deviation it applied as fired; the order matters only where two scopes
//! meet (the first one's comment says why it is first).

use super::super::glue::Glue;
use super::{
    bfind_64_of_branch_fixed_value_folded_from_low_word, chained_shr_s32_of_known_ones_folded_to_zero,
    compare_of_loaded_half_packed_above_fp8_pair, conversions_tested_against_zero, converted_cnot_read_as_its_number,
    fuzz3602, fuzz3701, fuzz3702, fuzz3702_conversions, fuzz3801, fuzz3901, fuzz4003, j_packed_constant,
    known_at_compile_time, loop_carried_negation_of_max_s32_held_invariant, mad_hi_links_dropped_as_repeats,
    merge_c_guarded_pack_and_later_duplicate, min_s32_of_max_u32_by_zero_folded_to_zero,
    multiplier_chain_folded_to_its_low_word, negated_abs_s64_below_every_negative_constant,
    negated_carry_op_folded_keeps_its_carry_in_added, negation_inside_fused_min_max_read_as_its_source,
    negation_of_max_s32_evaluated_in_an_arm_dropped, or_and16_of_set_mask_halves_xor_as_predicate,
    packed_min_max_of_zero_extended_converted_half, setp_one_of_f32_set_of_wide_source,
    xor16_of_set_mask_halves_as_predicate, Machine,
};
use crate::semantics::{Deviation, Expected};

/// A glue hook of one or more deviations in a file of their own: the emulated result where one
/// applies (recorded as fired), `None` elsewhere.
pub(super) type GlueHook = fn(&mut Machine<'_>, u32, &Glue, &[Expected], &Expected) -> Option<Expected>;

/// The glue hooks [`super::glue`] asks before its own rules, in order; the first that applies decides.
pub(super) const GLUE_HOOKS: &[GlueHook] = &[
    // 7ec10586's xor of a set mask's halves tested over a merged half (seeds 4101's 1e6e819c,
    // 4102's 24d5ace8): first, as its scope is an `xor.b16` no other rule names, and it keeps the
    // spec's value as one of the two it admits.
    xor16_of_set_mask_halves_as_predicate::glue,
    // Its `or.b16`/`and.b16` reader of the halves' xor (seed 5001's d3cdbd0c).
    or_and16_of_set_mask_halves_xor_as_predicate::glue,
    // The halves combined by `or.b16` in place of the xor, read by xor/or/and (seed 6101's 014173b6).
    xor16_of_set_mask_halves_as_predicate::or_halves::glue,
    // 119d98cf's packed min/max of a converted half whose zero extension ptxas drops.
    |m, t, g, _, r| packed_min_max_of_zero_extended_converted_half::glue(m, t, g, r),
    // ace805b3's 16-bit compare of a loaded half packed above an fp8 pair, over a stale upper half.
    |m, t, g, vals, r| compare_of_loaded_half_packed_above_fp8_pair::glue(m, t, g, vals, r),
    // 3701-N-D's h recomputed after its pack, numbered as h (seed 4401's 42bfc506).
    |m, t, g, _, r| merge_c_guarded_pack_and_later_duplicate::later_duplicate_glue(m, t, g, r),
    // 17b32162's held negation, c80aa912's min of a max by 0, 592cbe0b's bfind, 3801-N1's
    // `mad.hi` links dropped as repeats (set-valued), d438d526's composed multiplier folded to
    // its low word, 1c2ac943's chained shr.s32 folded to 0 (and its `or` with the sign bit made an
    // add, seed 5601's 958b8f4e), 63aaaadc's negation of an arm's
    // evaluated 0x7fffffff dropped, df7cd5e3's negation read as its source in a fused min/max,
    // eb1853bf's negated addc/subc folded with its carry-in added, b33158de's −|x| (64-bit) taken as
    // below every negative constant: each in its file.
    |m, t, g, vals, r| {
        let rules: &[(Deviation, GlueRule)] = &[
            (
                Deviation::LoopCarriedNegationOfMaxS32HeldInvariant,
                loop_carried_negation_of_max_s32_held_invariant::glue,
            ),
            (Deviation::MinS32OfMaxU32ByZeroFoldedToZero, min_s32_of_max_u32_by_zero_folded_to_zero::glue),
            // Its mirrored nesting, max.u32 of a signed min by 0 (seed 5603's d1b73357).
            (Deviation::MinS32OfMaxU32ByZeroFoldedToZero, min_s32_of_max_u32_by_zero_folded_to_zero::max_of_min_glue),
            (
                Deviation::BfindOf64BranchFixedValueFoldedFromLowWord,
                bfind_64_of_branch_fixed_value_folded_from_low_word::glue,
            ),
            // J's branch-known 64-bit value read by popc/clz/brev.b64 (seed 5902's ea4a3d40).
            (Deviation::BranchConstantHighHalfIsItsLowHalf, j_packed_constant::bit_op),
            (Deviation::MadHiChainLosesRepeatedLinks, mad_hi_links_dropped_as_repeats::glue),
            (Deviation::MultiplierChainFoldedToItsLowWord, multiplier_chain_folded_to_its_low_word::glue),
            (Deviation::ChainedShrS32OfKnownOnesFoldedToZero, chained_shr_s32_of_known_ones_folded_to_zero::glue),
            (
                Deviation::ChainedShrS32OfKnownOnesFoldedToZero,
                chained_shr_s32_of_known_ones_folded_to_zero::or_with_the_sign_bit,
            ),
            // Its `and.b32` and `setp` readers (seeds 5702's f9ec76ad, 5703's 5ff8f0a0).
            (
                Deviation::ChainedShrS32OfKnownOnesFoldedToZero,
                chained_shr_s32_of_known_ones_folded_to_zero::and_inside_the_known_ones,
            ),
            (
                Deviation::ChainedShrS32OfKnownOnesFoldedToZero,
                chained_shr_s32_of_known_ones_folded_to_zero::compare_with_an_immediate,
            ),
            // Its `or.b32` reader setting every unknown bit (seed 6202's 9980fb38).
            (
                Deviation::ChainedShrS32OfKnownOnesFoldedToZero,
                chained_shr_s32_of_known_ones_folded_to_zero::or_covering_the_unknown_bits,
            ),
            (Deviation::NegationOfMaxS32EvaluatedInAnArmDropped, negation_of_max_s32_evaluated_in_an_arm_dropped::glue),
            (
                Deviation::NegationInsideFusedMinMaxReadAsItsSource,
                negation_inside_fused_min_max_read_as_its_source::glue,
            ),
            (
                Deviation::NegatedCarryOpFoldedKeepsItsCarryInAdded,
                negated_carry_op_folded_keeps_its_carry_in_added::glue,
            ),
            (Deviation::NegatedAbsS64BelowEveryNegativeConstant, negated_abs_s64_below_every_negative_constant::glue),
        ];
        first_glue_rule(m, t, g, vals, r, rules)
    },
    // The root causes of seeds 3602 and 3604 (3602-N1 … N4, 3604-N1, N3).
    fuzz3602::glue,
    // The root causes of seed 3701 (C1-N4, C3-2, fc9c9c66, C3-3, C1-N3).
    fuzz3701::glue,
    // 6a4d050b: C3-3's fold of a compare with 1 where the set is `.f32` of a 64-bit source (13.5 too).
    setp_one_of_f32_set_of_wide_source::glue,
    // J's branch-known `add.{s16x2,u16x2}` operand.
    j_packed_constant::glue,
    // F's 16-bit unsigned readers of abs.s16 of a learned −2^15 (seed 6202's 61e60b91).
    |m, t, g, vals, r| {
        let rules: &[(Deviation, GlueRule)] =
            &[(Deviation::NegationOverflow, known_at_compile_time::f_abs16_of_a_learned_minimum::glue)];
        first_glue_rule(m, t, g, vals, r, rules)
    },
    // F's 16-bit multiplies of seed 3701 (434a41d1).
    known_at_compile_time::glue,
    // The root causes of seed 3702 (3702-N1, N2, an arm's `set` of N3).
    fuzz3702::glue,
    // Seed 3702's 16-bit shift by a `.ftz` conversion (3702-N6).
    fuzz3702_conversions::glue,
    // Seed 3801's reversed `sub` of a shuffled immediate under `max`/`min` (3801-N2).
    fuzz3801::glue,
    // Seeds 3902/3903's new causes (4483ae72's negated `LEA.HI`, fc25f5c6's fold of a cnot's
    // half `cvt` as the number).
    fuzz3901::glue,
    // 3301-N3's set.f32 truncation compared with a known 0 (d4a6b86d).
    |m, t, g, vals, r| {
        let rules: &[(Deviation, GlueRule)] =
            &[(Deviation::SetRoundTripFolded, conversions_tested_against_zero::truncated_set_compared_with_zero)];
        first_glue_rule(m, t, g, vals, r, rules)
    },
    // Seed 4003's new cause (0c35d334's `shl.b64` by 64 or more of a select of two constants
    // folded as a masked shift).
    fuzz4003::glue,
    // 3501-N3's float conversion of a cnot's 0/1 read as its number by a sign-extending `.s16`
    // reader (seed 4801's 90c88344).
    converted_cnot_read_as_its_number::glue,
];

/// One glue rule of a deviation: the emulated result where it applies (`None` elsewhere).
pub(super) type GlueRule = fn(&Machine<'_>, u32, &Glue, &[Expected], &Expected) -> Option<Expected>;

/// The result of the first of `rules` whose deviation is emulated and that applies to `g`
/// (source values `vals`, spec result `result`), recorded as fired.
pub(super) fn first_glue_rule(
    m: &mut Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
    rules: &[(Deviation, GlueRule)],
) -> Option<Expected> {
    let (d, v) = rules
        .iter()
        .filter(|(d, _)| m.allow.emulates(*d))
        .find_map(|(d, rule)| rule(m, t, g, vals, result).map(|v| (*d, v)))?;
    Some(m.fire(d, result, v))
}
