//! The register-program emulations of known compiler root causes ([`Deviation`]s of
//! [`Scope::Program`]): what the interpreter computes instead of the spec's result where a
//! `corpus/known/` root cause applies, when triage switches the deviation on
//! ([`crate::semantics::Allowances::emulating`]). Nothing here changes a result otherwise.
//!
//! A root cause is scoped by the instruction that consumes a value and by where that value was
//! made: each thread remembers, per register, the statement that wrote its value ([`Origin`],
//! tracked and queried in `emulate/origin.rs`; the small value and operand facts the hooks share
//! live in `emulate/values.rs`;
//! `mov` copies and unpacks are looked through, so a value keeps its producer when moved or
//! split; every other write, shuffles and `mov.f32` copies included, makes the writer the
//! producer, a `mov.f32` copy recording the producer of what it copied). The hooks are
//! called by the interpreter with the spec's result and give it back changed where an emulation
//! applies ([`glue`], [`carry`], [`skipped_glue`], [`isa`], [`stored`]); each change of a value
//! is recorded as the deviation having fired. [`skipped_isa`] only marks an origin (A: a float
//! `cvt` whose guard was false still makes its destination float-typed to ptxas). A `cvt`
//! producer also records its source value and that value's producer (3301-N3 looks two
//! producers back), a glue producer its first and second source values (G, 3702-N1).
//!
//! Invariants:
//! - Without a program deviation emulated the machine records no origins and the hooks are not
//!   called (the interpreter checks [`Machine::emulating`] first).
//! - A hook only changes the destination (or, [`carry`], the carry flag) of the instruction it
//!   is called for, or ([`skipped_glue`]) what a skipped one leaves there, or (3701-N-D's pack
//!   built in place, at a `mov` or a store) the registers of the live half it destroys, or
//!   (3801-N3, at the second `.sat` f16 cvt of a `HADD2.SAT` pair) the first cvt's destination, and
//!   only when the instruction and its source's producer are the ones its deviation's evidence names
//!   (`oracle::semantics::deviation` documents each); a set-valued deviation keeps the spec's
//!   bits (or the evidenced conversion) as the one admissible value it names.

mod arm_sat_f64_low_word_clamped_by_zero_test;
mod b64_body_shifted_out_within_one_unrolled_pass;
mod b64_repack_in_an_arm_loads_new_word_over_old_low;
mod b_set_f32_rebuilt_at_its_shifts;
mod bfind_64_of_branch_fixed_value_folded_from_low_word;
mod byte_of_set_f32_beside_logic_of_a_mask;
mod carry;
mod carry_of_known_zero_shl_and_constant_set;
mod carry_reader_of_constants_with_zero_carry_in;
mod chained_shr_s32_of_known_ones_folded_to_zero;
mod cnot_chain_b16_or_b64;
mod cnot_conversion_beside_a_tested_one;
mod cnot_conversion_tested_down_a_chain;
mod cnot_funnel_rotate_in_lea_hi;
mod cnot_loop_chain_read_through_integer_cvts;
mod cnot_number_and_range_decided_sets;
mod cnot_number_through_a_float_cvt_chain;
mod cnot_number_through_later_cvts;
mod cnot_number_under_float_zero_test_or_b64_logic;
mod cnot_of_itself_run_twice_by_a_loop;
mod cnot_read_by_a_live_cnot;
mod cnot_read_by_a_live_zero_setp;
mod compare_of_loaded_half_packed_above_fp8_pair;
mod compare_of_loaded_half_rebuilt_over_its_fp8_pair_word;
mod compare_with_one_first_tests_the_set;
mod conversions_tested_against_zero;
mod converted_cnot_read_as_its_number;
mod counter_of_a_signed_count_read_after_the_loop;
mod cvt_producers_seen_through;
mod cvt_u8_into_its_copy_under_their_compare;
mod d_copies_dropped_before_tf32;
mod exit_predicate_read_after_a_signed_count;
mod f2i_of_half_bits_fused_with_float_source;
mod f2ip_of_constants_known_once_a_shuffle_folds;
mod f_clamped_negation32;
mod f_f32_of_sign_extended_abs;
mod f_f32_of_zero_extended_abs16;
mod f_negation16_through_a_16bit_cvt_copy;
mod float_cvt_skipped_over_an_unrecorded_value;
mod fp8_pair_built_only_in_its_pack;
mod ftz_copies_drop_f2i_truncation;
mod ftz_dropped_in_fused_sat16_cvt;
mod fuzz3602;
mod fuzz3701;
mod fuzz3702;
mod fuzz3702_conversions;
mod fuzz3801;
mod fuzz3802;
mod fuzz3901;
mod fuzz4003;
mod g_shift_amounts_ptxas_folds;
mod g_unpack_beside_a_folded_sign_test;
mod g_unpack_through_sign_extension_or_pack64;
mod glue_hooks;
mod hadd2_sat_pair_reads_guarded_overwrite;
mod hadd2_sat_pair_with_a_guarded_second_before_a_select;
mod half_cvt_folded_into_rzi;
mod high_half_of_max_s32_rejoined_after_an_arm;
mod j_branch_known_values;
mod j_branch_known_word_unpacked_through_a_pack64;
mod j_constant_unpacked_from_a_folded_b64;
mod j_narrowed_packed_add;
mod j_packed_constant;
mod j_shuffled_constant_folded_beside_a_load;
mod join_arm_of_an_unpacked_constant;
mod join_arm_pinned_by_the_branch_compare;
mod join_merged_over_shuffled_constant;
mod known_at_compile_time;
mod known_through_integer_cvt;
mod known_word_through_pack_or_logic64;
mod l_shift_by_an_amount_ptxas_knows;
mod loop_carried_negation_of_max_s32_held_invariant;
mod lop3_c_repeating_a_through_a_zero_identity;
mod lop3_chain_merged_into_two_outer_xors;
mod lop3_merged_by_its_b_or_c;
mod lop3_merged_through_b64_packs;
mod lop3_of_its_a_with_b_repeating_c;
mod lop3_of_one_folded_constant;
mod low_byte_of_an_unpack_narrowed_alone;
mod mad_hi_links_dropped_as_repeats;
mod mad_hi_links_of_mul_hi_and_add_cc_in_a_loop;
mod mad_hi_links_under_one_guard;
mod mad_hi_operand_reloaded_alike_each_trip;
mod mad_hi_operand_rewritten_alike_each_trip;
mod mad_step_of_its_own_addend;
mod mask_dropped_at_a_pack;
mod merge_c_guarded_pack_and_later_duplicate;
mod merge_c_guarded_word_pack_over_constant;
mod merge_c_half_of_an_if_converted_write;
mod merge_c_half_of_u8_cvt_or_truncation;
mod merge_c_half_reloaded_from_shared_in_a_later_arm;
mod merge_c_half_through_a_word_pack_made_before;
mod merge_c_in_place;
mod merge_c_low_byte_unpacked_before_pack;
mod merge_c_pack_word_read_by_a_forwarded_load;
mod merge_c_pair_through_copies;
mod merge_c_relu_u8_of_64_guarded_over_constant;
mod merge_c_widened_byte_half_read_after_pack;
mod merge_c_zero_extended_byte_half;
mod min_max_of_shuffled_sub_against_an_unknown_register;
mod min_max_operand_known_through_a_taken_guard;
mod min_s32_of_max_u32_by_zero_folded_to_zero;
mod movement_hooks;
mod mul_chain_zero_word_and_predicate_zero_one;
mod mul_hi_by_one_known_at_compile_time;
mod mul_hi_by_one_of_loaded_half_read_as_low_half;
mod mul_step_unread_shfl_predicate_folded_zero;
mod multiplier_chain_folded_to_its_low_word;
mod n7_known_within_one_block;
mod negated_abs_s64_below_every_negative_constant;
mod negated_carry_op_folded_keeps_its_carry_in_added;
mod negation_inside_fused_min_max_read_as_its_source;
mod negation_of_max_s32_evaluated_in_an_arm_dropped;
mod negation_of_set_f32_as_a_product_by_minus_one;
mod negation_of_set_f32_through_a_pack_round_trip;
mod negation_of_set_f32_through_an_int_to_float_cvt;
mod one_armed_if_by_branch_around_a_branch;
mod or_and16_of_set_mask_halves_xor_as_predicate;
mod origin;
mod pack_high_half_read_from_its_half_after_a_guarded_write;
mod packed_min_max_of_zero_extended_converted_half;
mod prmt_byte_narrowed_past_a_guarded_write_of_its_source;
mod prmt_constant_b_held_in_a_register;
mod prmt_narrowed_at_a_store_forwarded_load;
mod prmt_narrowed_per_zero_extending_reader;
mod producer_forms_of_o_f_g_m;
mod product_factor_folded_after_the_product;
mod ptxas_constant_operands;
mod s8_of_a_shuffled_constant_folded_beside_a_load;
mod s8_round_trip_of_a_learned_constant;
mod s8_round_trip_of_folded64_and_compare16;
mod sat_pair_over_a_guarded_cvt_sharing_its_conversion;
mod sat_s8_s16_of_cnot_clamps_negated_mask;
mod set_byte_through_float_cvt_at_byte_store;
mod set_f32_boolean_after_a_zero_test_diamond;
mod set_f32_boolean_beside_a_logic_op_of_set_f32_words;
mod set_f32_boolean_beside_a_zero_test_split_into_an_arm;
mod set_f32_boolean_converted_at_a_byte_store;
mod set_f32_boolean_of_a_set_tested_against_zero;
mod set_f32_boolean_through_a_narrowing_float_cvt;
mod set_f32_byte_beside_a_zero_tested_set_f32;
mod set_f32_overwrites_earlier_writers;
mod set_f32_widened_as_its_boolean;
mod set_f32_zero_tested;
mod set_negation_sign_extension_saturation_queries;
mod set_of_abs_against_zero_folded_non_negative;
mod set_round_trip_through_a_zero_extended_half;
mod set_truth_made_number_by_a_cvt;
mod set_truth_through_a_float_cvt_zero_tested;
mod setp_one_of_f32_set_of_wide_source;
mod shfl_of_a_register_ptxas_knows;
mod shift16_amount_of_a_sign_extended_element;
mod shl_chain_of_zero_extended_base;
mod shl_chain_through_constant_adds;
mod shl_chain_through_doubling_add;
mod shr16_of_a_sign_extending_load;
mod shuffle_of_a_value_selected_by_a_bfly_predicate;
mod signed_count_of_a_shifted_out_body;
mod skipped;
mod skipped_integer_copy_and_f2fp_mask;
mod skipped_set_low_half_through_an_add;
mod skipped_set_over_dropped_f32_copy;
mod skipped_set_over_saturated_f32;
mod slct_of_abs_folded_non_negative;
mod store_forwarded_load;
mod stored;
mod sub_cc_from_folded_zero_held_negated;
mod sub_of_s64_multiply_chain_from_a_constant;
mod u32_round_trip_folded_into_last_cvt;
mod unsigned_gt_zero_exit_counted_from_a_positive_start;
mod unsigned_loop_exit_counted_signed;
mod values;
mod wide16_product_of_s8_round_trip;
mod widening_sat_of_a_negation32_keeps_its_minimum;
mod word_of_an_unpack_known_from_its_pack;
mod xor16_of_set_mask_halves_as_predicate;
mod zero_folded_from_a_zero_factor;

pub(super) use carry::carry;
pub(super) use shuffle_of_a_value_selected_by_a_bfly_predicate::{
    dropped as shuffle_dropped, keeps_own as shuffle_keeps_own,
};
pub(super) use skipped::{skipped_glue, skipped_isa};
pub(super) use stored::stored;
use values::{
    any_f32_nan, anything, byte_pack_with_c, convert, cvt_form, float_dtype, half, imm_of, is_min, nan_of, one_in,
    reg_of_glue, signed_of,
};

use super::exec::Machine;
use super::glue::{Cmp, Glue, GlueOp, GlueType, SetDst, Src};
use super::interp::InterpError;
use super::{Reg, Stmt};
pub(super) use exit_predicate_read_after_a_signed_count::restore as restore_exit_predicate_after_a_signed_count;
use glue_hooks::{first_glue_rule, GlueRule};
pub(super) use known_at_compile_time::{forget_at_join, shuffle_origin};
pub(super) use n7_known_within_one_block::count_boundary;
use origin::{
    boundary_between, cvt_through_f32_copies, f32_typed, moved_immediate, negated, negated16, packed_half_producer,
};
pub(super) use origin::{glue_origin, Origin};

use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::semantics::{Allowance, Constraint, Deviation, Expected};

impl Machine<'_> {
    /// Records that `d` changed `from` into `to` (when it did) and gives `to`.
    fn fire(&mut self, d: Deviation, from: &Expected, to: Expected) -> Expected {
        if &to != from {
            self.fired.insert(d);
        }
        to
    }
}

/// A glue instruction's result under the emulated deviations: `result` (the spec's) changed
/// where B, F, L, O, N-7, N-8, 3301-N1, 3501-N1, 3501-N2, J's branch-known `add.{s16x2,u16x2}`
/// (`emulate/j_packed_constant.rs`) or a root cause of seeds 3602, 3604 (`emulate/fuzz3602.rs`),
/// 3701 (`emulate/fuzz3701.rs`), 6a4d050b (`emulate/setp_one_of_f32_set_of_wide_source.rs`) or 3702 (`emulate/fuzz3702.rs`) applies, F's 16-bit multiplies
/// in `emulate/known_at_compile_time.rs`.
/// `vals` are its source values.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: Expected) -> Expected {
    if let Some(v) = glue_hooks::GLUE_HOOKS.iter().find_map(|hook| hook(m, t, g, vals, &result)) {
        return v;
    }
    let reg = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    };
    // B: a 64-bit shift by an f32-typed amount with no block boundary since it became f32-typed
    // shifts by the low word of its conversion to a 64-bit integer of the shift's signedness
    // (`F2I.S64.TRUNC` for `shr.s64`, `F2I.U64.TRUNC` otherwise), then the shift's own clamp
    // of that word.
    // Across a boundary too where the amount is a `set.f32` ptxas rebuilds from its predicate at
    // the shift (`emulate/b_set_f32_rebuilt_at_its_shifts.rs`, d78a59b7).
    if m.allow.emulates(Deviation::F32ShiftAmount)
        && matches!(g.op, GlueOp::Shl | GlueOp::Shr)
        && g.ty.bits() == 64
        && vals.iter().all(Expected::is_exact)
        && reg(1).is_some_and(|r| {
            f32_typed(m, t, r).is_some_and(|k| {
                !boundary_between(m, k, m.stmt)
                    || b_set_f32_rebuilt_at_its_shifts::set_f32_rebuilt_at_its_shifts(m, r, k)
            })
        })
    {
        // Rounded to nearest after two ftz copies (0c8cc6d5: `emulate/ftz_copies_drop_f2i_truncation.rs`).
        let rounded = m.allow.emulates(Deviation::FtzCopiesDropF2iTruncation)
            && reg(1).is_some_and(|r| ftz_copies_drop_f2i_truncation::two_ftz_copies(m, t, r));
        let shifted = |to: &str| {
            let amount =
                cvt_form(to).and_then(|f| convert(m, &f, vals[1].bits & 0xFFFF_FFFF)).filter(Expected::is_exact)?;
            let low = amount.bits as u64 & 0xFFFF_FFFF;
            Some(Expected::exact(u128::from(g.eval([vals[0].bits as u64, low, 0, 0], false)), 64))
        };
        let (s, u) =
            if rounded { ("cvt.rni.s64.f32", "cvt.rni.u64.f32") } else { ("cvt.rzi.s64.f32", "cvt.rzi.u64.f32") };
        let truncated = shifted(if g.ty == GlueType::S64 { "cvt.rzi.s64.f32" } else { "cvt.rzi.u64.f32" });
        if let Some(v) = shifted(if g.ty == GlueType::S64 { s } else { u }) {
            let d = if rounded && truncated.as_ref() != Some(&v) {
                Deviation::FtzCopiesDropF2iTruncation
            } else {
                Deviation::F32ShiftAmount
            };
            return m.fire(d, &result, v);
        }
    }
    // L (corpus/findings/fuzz-h200-3602/, 11a4e5a9; ptxas 13.0.88 and 13.5 -O3): a `cvt.s64.u32`
    // result is sign-extended only inside `shl.b64 d, x, k` by an immediate 0 ≤ k < 32
    // (`SHF.R.S32.HI R7, RZ, 32−k, R2` for the high word; k = 0 too, `SHF.R.S32.HI R7, RZ, 0x1f,
    // R2`: corpus/findings/fuzz-h200-4002/, 9ebbecf8, trace/T7D.md); not of a constant source (an
    // immediate, or a register a move of an immediate wrote), which -O3 folds right
    // (corpus/findings/fuzz-h200-3501/, ad84da1a: `MOV R5, 0x0`).
    let of_loaded_cvt_s64_u32 = reg(0).and_then(|r| match m.producer(t, r) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. }), o))
            if c.dtype == CvtType::S64 && c.atype == CvtType::U32 =>
        {
            let moved = o.a_stmt.is_some_and(|k| {
                matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::Mov(_), operands, .. })
                    if matches!(operands.get(1), Some(Operand::Imm(_))))
            });
            let constant = matches!(operands.get(1), Some(Operand::Imm(_))) || moved;
            o.a.clone().filter(|a| !constant && a.is_exact())
        }
        _ => None,
    });
    // The amount may be a register ptxas knows: a counted loop's counter, a moved immediate
    // (corpus/findings/fuzz-h200-4503/, 99b131f4, trace/T16t5.md; `emulate/l_shift_by_an_amount_ptxas_knows.rs`).
    let l_amount = imm_of(g, 1).or_else(|| l_shift_by_an_amount_ptxas_knows::amount(m, t, g, vals));
    if m.allow.emulates(Deviation::CvtS64U32SignExtends)
        && g.op == GlueOp::Shl
        && g.ty.bits() == 64
        && l_amount.is_some_and(|k| (0..32).contains(&(k & 0xFFFF_FFFF)))
    {
        if let (Some(a), Some(k)) = (of_loaded_cvt_s64_u32, l_amount) {
            let x = i64::from(a.bits as u32 as i32) as u64;
            let v = Expected::exact(u128::from(g.eval([x, k & 0xFFFF_FFFF, 0, 0], false)), result.width);
            return m.fire(Deviation::CvtS64U32SignExtends, &result, v);
        }
    }
    // O: shl.b16/shr.{b16,u16} by an amount cnot.b32 of a register wrote shifts by a register
    // nothing wrote: any value. (`sub.u32 d, 0, x` does the same; glue has no immediate minuend.)
    // `shr.u16` is the same `SHF.R.U32.HI` as `shr.b16` (corpus/findings/fuzz-h200-3801/,
    // eb9ca4a8 `v_shr_u16`/`v_shr_b16`, c18ff4fe, e4527e8a; trace/T4A.md, T4B.md, T4D.md; ptxas
    // 13.0.88 -O3); `shr.s16` is C1-N3's clamp (`v_shr_s16`), and §9.7.8.7 has no `shl.u16`.
    // `sub{.cc}.u32 d, z, x` of a moved 0 too (seed 3902's f860a7e5): `emulate/producer_forms_of_o_f_g_m.rs`.
    let unwritten_amount = reg(1).is_some_and(|r| producer_forms_of_o_f_g_m::dropped_amount_producer(m, t, r));
    if m.allow.emulates(Deviation::Shift16ByCnotAmountUnwritten)
        && matches!(g.op, GlueOp::Shl | GlueOp::Shr)
        && matches!(g.ty, GlueType::B16 | GlueType::U16)
        && unwritten_amount
    {
        let to = anything(result.clone());
        return m.fire(Deviation::Shift16ByCnotAmountUnwritten, &result, to);
    }
    // 3301-N4 through a 16-bit shift's amount clamp: `emulate/cnot_number_and_range_decided_sets.rs`.
    if m.allow.emulates(Deviation::SatCvtOfByteBfeSigned) {
        if let Some(v) = cnot_number_and_range_decided_sets::shift16_by_byte_bfe(m, t, g, vals, &result) {
            return m.fire(Deviation::SatCvtOfByteBfeSigned, &result, v);
        }
    }
    // 3301-N1: a 16-bit shift by an immediate of 2^16 or more shifts by its low 16 bits.
    if m.allow.emulates(Deviation::Shift16ImmediateLowHalf)
        && matches!(g.op, GlueOp::Shl | GlueOp::Shr)
        && g.ty.bits() == 16
        && vals.first().is_some_and(Expected::is_exact)
    {
        if let Some(amount) = imm_of(g, 1).filter(|&v| v & 0xFFFF_FFFF > 0xFFFF) {
            let v =
                Expected::exact(u128::from(g.eval([vals[0].bits as u64, amount & 0xFFFF, 0, 0], false)), result.width);
            return m.fire(Deviation::Shift16ImmediateLowHalf, &result, v);
        }
    }
    // 3501-N1: slct.{s32,u32}.s32 with a constant c (an immediate, or a moved immediate) tests
    // c as an f32, c ≥ 0.0 (corpus/findings/fuzz-h200-3602/, a9cbbc89, bisected on 13.0.88
    // -O3): c = −2^31 (−0.0) selects a, c in the NaNs 0x7f800001–0x7fffffff selects b. c may be
    // any value ptxas knows (corpus/findings/fuzz-h200-3801/, 12356f04, trace/T4B.md: `or.b32` of
    // a moved 0 and 0x80000000 gives `v1_mov_c`'s 13.0.88 -O3 listing, `STG` of a; `or.b32` of a
    // loaded word, `v2_or_of_loaded`, is right).
    let constant_c = imm_of(g, 2).or_else(|| {
        let known = |r: Reg| moved_immediate(m, t, r) || known_at_compile_time::known(m, t, r);
        reg(2).filter(|&r| known(r)).and(vals.get(2)).filter(|c| c.is_exact()).map(|c| c.bits as u64)
    });
    if m.allow.emulates(Deviation::SlctS32ByMinImmediateSelectsA)
        && g.op == GlueOp::Slct
        && matches!(g.ty, GlueType::S32 | GlueType::U32)
    {
        let selected = match constant_c.map(|c| c & 0xFFFF_FFFF) {
            Some(0x8000_0000) => vals.first().cloned(),
            Some(0x7f80_0001..=0x7fff_ffff) => vals.get(1).cloned(),
            _ => None,
        };
        if let Some(v) = selected {
            return m.fire(Deviation::SlctS32ByMinImmediateSelectsA, &result, v);
        }
    }
    // 3501-N2 (corpus/findings/fuzz-h200-3601/, 1a7764b0: 7 × 7 in a loop gives x << 35): a
    // 64-bit add/sub of a nonzero constant `b` reading a chain of shl.b64 by immediates below 32
    // is computed from the chain cut at the first shift where the running amount reaches 32:
    // (x << cut) ± b, x the value the chain started from (every later shift dropped).
    // The constant may be a value ptxas knows (corpus/findings/fuzz-h200-3701/, 2d12fb46, trace
    // TC2.md: a `selp` of a moved immediate by a counted loop's exit predicate), and an add's
    // operands come in either order (2d12fb46: `add.cc.s64 d, c, chain`; sub: the chain first).
    // A chain through adds (each shift followed by an add of a constant, seed 3802's 81cc67f0)
    // keeps the value after the cut's pair: `emulate/shl_chain_through_constant_adds.rs`.
    // A mad whose factors are constants is the add of their product (5ddee562, T7F.md).
    // A chain with a `mul.lo.u64` by 2^k step keeps its adds exact (seed 4102's 9fdf9221,
    // `emulate/mul_chain_zero_word_and_predicate_zero_one.rs`).
    // A `mad.lo d, x, c, x` step past the cut is dropped by itself, the mad its own add (seed
    // 4402's 372615e8, `emulate/mad_step_of_its_own_addend.rs`).
    if let Some(v) = mad_step_of_its_own_addend::dropped_step(m, t, g, vals) {
        return m.fire(Deviation::ShlChainFoldedIntoLea, &result, v);
    }
    // `sub.s64 d, C, chain` of `mul.lo.s64` steps past the cut is C + the kept chain (seed
    // 6002's 1b473611, `emulate/sub_of_s64_multiply_chain_from_a_constant.rs`).
    if let Some(v) = sub_of_s64_multiply_chain_from_a_constant::constant_minus_cut_chain(m, t, g, vals, &result) {
        return m.fire(Deviation::ShlChainFoldedIntoLea, &result, v);
    }
    if let Some((c, x)) = shl_chain_through_constant_adds::chain_and_addend(m, t, g, vals) {
        let folded = if c.by_multiply {
            mul_chain_zero_word_and_predicate_zero_one::multiply_chain_cut(&c, g, vals, x, &result)
        } else if c.through_adds {
            shl_chain_through_constant_adds::past_cut(&c)
        } else {
            c.cut.filter(|&cut| cut < c.total && c.base.is_exact()).map(|cut| {
                let mut s = [0u64; 4];
                for (k, v) in vals.iter().enumerate().take(3) {
                    s[k] = v.bits as u64;
                }
                s[x] = (c.base.bits as u64) << cut;
                Expected::exact(u128::from(g.eval(s, false)), result.width)
            })
        };
        if let Some(v) = folded {
            return m.fire(Deviation::ShlChainFoldedIntoLea, &result, v);
        }
    }
    let imm = |k: usize| imm_of(g, k);
    // N-7: bfe.s32 with an immediate start past the msb (and a non-empty field) gives −1; start
    // and length may be values ptxas knows (corpus/findings/fuzz-h200-3701/, 5d90f3ab: a moved
    // immediate start, trace TC1.md; 3b8517e9: both `or.b32`/`not.b32` of shuffles of moved
    // immediates, trace TC2.md; 13.0.88 -O3 `MOV R7, 0xffffffff` as for immediates). Only for an
    // `a` ptxas does not know: a known `a` folds the whole bfe right (corpus/findings/
    // fuzz-h200-3903/, 43d72870, trace/T6F.md: `mov.b32 r0, 0x0fffffff; bfe.s32 d, r0, r0, r0`
    // is 13.0.88 -O3 `STG … RZ`, a loaded `a` `MOV R5, 0xffffffff`).
    // The known `a` must be known in the bfe's own ptxas basic block: a branch, a branch target,
    // a barrier, fence or shuffle, or a guarded access between (any step of) its computation and
    // the bfe makes the fold −1 again (corpus/findings/fuzz-h200-4001/, 375479fd, trace/T7A.md;
    // fuzz-h200-4002/, 38604c4d, T7E.md; fuzz-h200-4003/, a9e9f24e, T7F.md;
    // `emulate/n7_known_within_one_block.rs`). The start and length may also be constants a branch fixes, J's
    // `setp.ne.<type> v, K; @p bra L` fall-through (corpus/findings/fuzz-h200-4001/, 423e94d2,
    // trace/T7A.md: start %tix fixed to 59, 13.0.88 -O3 `@!P0 MOV R7, 0xffffffff`; a start of 27
    // right, a `setp.eq; @!p bra` not folded).
    let field = |k: usize| {
        known_at_compile_time::known_source(m, t, g, vals, k).or_else(|| {
            let r = reg_of_glue(g, k)?;
            j_branch_known_values::branch_fixed(m, r, m.stmt, &[GlueType::U32, GlueType::S32, GlueType::B32])
        })
    };
    let a_known_locally = imm_of(g, 0).is_some()
        || reg_of_glue(g, 0).is_some_and(|r| {
            n7_known_within_one_block::a_known_locally(m, t, r) && vals.first().is_some_and(Expected::is_exact)
        });
    if m.allow.emulates(Deviation::BfeS32PastMsbAllOnes)
        && g.op == GlueOp::Bfe
        && g.ty == GlueType::S32
        && !a_known_locally
        && field(1).is_some_and(|pos| pos & 0xff >= 32)
        && field(2).is_some_and(|len| len & 0xff >= 1)
    {
        let v = Expected::exact(0xFFFF_FFFF, result.width);
        return m.fire(Deviation::BfeS32PastMsbAllOnes, &result, v);
    }
    // N-8: an unsigned compare of a set.*.{s32,u32} result s with 0 is folded as the signed one:
    // `setp.lt.u32 s, 0` and `setp.gt.u32 0, s` test s ≠ 0, `setp.ge.u32 s, 0` and
    // `setp.le.u32 0, s` test s = 0; the 0 an immediate or a moved immediate
    // (corpus/findings/fuzz-h200-3602/, 5d06e0d1: `mov.b32 %r1, 0; setp.gt.u32 %p0, %r1, %r3`).
    // The set may write `.u32` (the same −1/0 word), and the compare may be a `set.<cmp>.<dst>.u32`
    // writing that test as its destination type (corpus/findings/fuzz-h200-3801/, 703b2dfd,
    // trace/T4A.md: `set.le.u32.u32 d, 0, s` of `set.gt.u32.s64` is `SEL R0, RZ, -1, P0`, variants
    // v1–v4; `.s32`/`.f32` destinations the same `SEL`/`FSEL R7, RZ, 1, P0`, 13.0.88 -O3, session 39).
    // A `set.<cmp>.u32` result is the same −1/0 word and is folded the same
    // (corpus/findings/fuzz-h200-3801/, 91beedbc, trace/T4D.md: `set.ge.u32.s32 s, r, 0; setp.ge.u32
    // p, s, 0` is `ISETP.GE.AND P0, PT, R2, RZ` as `v_s32dst` is, 13.0.88 -O3; 13.5 right). Not a set
    // whose value ptxas knows: it folds the set to its −1/0 first and the unsigned compare right
    // (85778452, trace/T4C.md: `set.le.s32.u32 %r8, <moved 0>, 0; setp.ge.u32 %p3, %r8, 0`, the GPU
    // word 0xc07fffff = 1.0f ^ −1 selects %r8 = −1 by a true %p3).
    // The 0 may also be any value ptxas knows ([`known_at_compile_time::known`]): the counter of a loop it
    // unrolls at its last trip (corpus/findings/fuzz-h200-3802/, 87cad7bf, trace/T5A.md: the 9th
    // trip's `set.ge.s32.u32 s, s, %r12` with %r12 counted down to 0 is `SEL R5, RZ, 0xffffffff,
    // P0`, s = 0, in 87cad7bf `v4`, 13.0.88 -O3; `v1`, `v2` the same with an immediate and a moved 0).
    let of_set = |k: usize| {
        reg(k).is_some_and(|r| {
            let set = matches!(m.producer(t, r),
                Some((Stmt::Glue { glue, .. }, _)) if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)));
            set && !known_at_compile_time::known(m, t, r)
        })
    };
    // So may a `set.{ne,lt,gt}` of a register with itself (corpus/findings/fuzz-h200-3901/,
    // 0e470a25, trace/T6C.md; [`cnot_number_and_range_decided_sets::false_set_of_itself`]).
    // Or a product by a 0 (seed 4801's b698901a, `emulate/zero_folded_from_a_zero_factor.rs`).
    let zero = |k: usize| {
        let folded = |r: Reg| {
            moved_immediate(m, t, r)
                || known_at_compile_time::known(m, t, r)
                || cnot_number_and_range_decided_sets::false_set_of_itself(m, t, r)
                || zero_folded_from_a_zero_factor::zero_from_a_zero_factor(m, t, r)
        };
        imm(k).is_some_and(|v| v & 0xFFFF_FFFF == 0)
            || (reg(k).is_some_and(folded) && vals.get(k).is_some_and(|v| v.is_exact() && v.bits & 0xFFFF_FFFF == 0))
    };
    let set_against_zero = match g.op {
        GlueOp::Setp(cmp @ (Cmp::Lt | Cmp::Ge)) | GlueOp::Set(cmp @ (Cmp::Lt | Cmp::Ge), _) => {
            Some((0, 1, cmp == Cmp::Lt))
        }
        GlueOp::Setp(cmp @ (Cmp::Gt | Cmp::Le)) | GlueOp::Set(cmp @ (Cmp::Gt | Cmp::Le), _) => {
            Some((1, 0, cmp == Cmp::Gt))
        }
        _ => None,
    };
    if let Some((s, _, tests_true)) = set_against_zero.filter(|&(s, z, _)| of_set(s) && zero(z)) {
        if m.allow.emulates(Deviation::UnsignedBelowZeroOfSet) && g.ty == GlueType::U32 && vals[s].is_exact() {
            let is_true = vals[s].bits & 0xFFFF_FFFF != 0;
            // The test's truth as the compare writes it (a predicate, or a set's −1/1.0f/0):
            // `set.eq.<dst>.u32` of the truth and 1.
            let holds = u64::from(is_true == tests_true);
            let as_written = match g.op {
                GlueOp::Set(_, dst) => Glue { op: GlueOp::Set(Cmp::Eq, dst), ..*g }.eval([holds, 1, 0, 0], false),
                _ => holds,
            };
            let v = Expected::exact(u128::from(as_written), result.width);
            return m.fire(Deviation::UnsignedBelowZeroOfSet, &result, v);
        }
    }
    // F, 16 bits (corpus/findings/fuzz-h200-3501/, a3b8be37; ptxas 13.0.88 -O3, 13.5 right):
    // `abs.s16`/`neg.s16` are computed on the 32-bit sign extension (`PRMT 0x9910; IABS` or
    // `IMAD.MOV R0, RZ, RZ, -R0`) and not wrapped back to 16 bits, so `set.<cmp>.<dst>.s16`
    // (`ISETP` at 32 bits) compares the overflowed −2^15 as +2^15.
    if m.allow.emulates(Deviation::NegationOverflow)
        && matches!(g.op, GlueOp::Set(..))
        && g.ty == GlueType::S16
        && vals.iter().take(2).all(Expected::is_exact)
    {
        let overflowed = |k: usize| reg(k).is_some_and(|r| negated16(m, t, r)) && is_min(&vals[k], 16);
        if overflowed(0) || overflowed(1) {
            let wide = |k: usize| {
                if overflowed(k) {
                    0x8000
                } else {
                    u64::from(i32::from(vals[k].bits as u16 as i16) as u32)
                }
            };
            let at_32 = Glue { ty: GlueType::S32, ..*g };
            let v = Expected::exact(u128::from(at_32.eval([wide(0), wide(1), 0, 0], false)), result.width);
            return m.fire(Deviation::NegationOverflow, &result, v);
        }
    }
    // F: a signed comparison or arithmetic shift of an overflowed abs/neg is folded: any result.
    let signed_consumer =
        matches!(g.op, GlueOp::Setp(_) | GlueOp::Shr) && matches!(g.ty, GlueType::S16 | GlueType::S32 | GlueType::S64);
    if m.allow.emulates(Deviation::NegationOverflow) && signed_consumer {
        let width = g.ty.bits();
        if (0..2).any(|k| reg(k).is_some_and(|r| negated(m, t, r)) && vals.get(k).is_some_and(|v| is_min(v, width))) {
            let to = anything(result.clone());
            return m.fire(Deviation::NegationOverflow, &result, to);
        }
    }
    // F: `slct.<dtype>.s32` (not `.s32`) of an overflowed `abs.s32` selects `a`, the test folded
    // as non-negative (seed 4402's 2bec5b10: `emulate/slct_of_abs_folded_non_negative.rs`).
    if m.allow.emulates(Deviation::NegationOverflow) {
        if let Some(to) = slct_of_abs_folded_non_negative::glue(m, t, g, vals, &result) {
            return m.fire(Deviation::NegationOverflow, &result, to);
        }
        // …and a `set` (or `min.s64`) of it against 0 is folded as non-negative (seed 5002's
        // f46efbdc, 5703's 9823257d: `emulate/set_of_abs_against_zero_folded_non_negative.rs`).
        if let Some(to) = set_of_abs_against_zero_folded_non_negative::glue(m, t, g, vals, &result) {
            return m.fire(Deviation::NegationOverflow, &result, to);
        }
    }
    result
}

/// A §9.7.9 instruction's destinations under the emulated deviations: `results` (the spec's)
/// changed where C's float direction, D, E, F, G, I, N, 3301-N3, 3301-N4 or row 10's M-like
/// fold applies (all of them concern `cvt`; L's `cvt.s64.u32` is emulated at the `shl.b64`
/// reading it, [`glue`]), 3701 C1-N2 (`emulate/fuzz3701.rs`) or J's narrowed `add.u16x2`
/// (`emulate/j_packed_constant.rs`) at a `cvt`, M at a `mov` pack, J at a `mov` unpack,
/// 3702-N3 at an arm's `mov` of an immediate, 3701-N-D at a `mov` pack or unpack
/// (`emulate/merge_c_in_place.rs`), or 3701-N-A and J's narrowed `c` at a `cvt.pack`; seed 3802's
/// causes (`emulate/fuzz3802.rs`) at a `cvt.pack`, an fp8 → f16x2 `cvt` and a `mov.b32` unpack;
/// 3801-N3's `HADD2.SAT` pair at its second `.sat` f16 cvt (`emulate/hadd2_sat_pair_reads_guarded_overwrite.rs`); 80274cbb's
/// u32 round trip (`emulate/u32_round_trip_folded_into_last_cvt.rs`) and ba4f6f03's saturated cnot
/// (`emulate/sat_s8_s16_of_cnot_clamps_negated_mask.rs`) at a `cvt`; 63f83d6e at a `mov.b32` unpack and
/// 7a05c905 at a `cvt` (`emulate/pack_high_half_read_from_its_half_after_a_guarded_write.rs`,
/// `emulate/prmt_byte_narrowed_past_a_guarded_write_of_its_source.rs`). The `mov`, `cvt.pack` and
/// `ld` hooks (and a `cvt`'s, after the rules here) are called from `emulate/movement_hooks.rs`.
pub(super) fn isa(
    m: &mut Machine<'_>,
    t: u32,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Result<Vec<(Reg, Expected)>, InterpError> {
    // The `mov`, `cvt.pack` and `ld` hooks: `emulate/movement_hooks.rs`.
    let results = match &inst.form {
        Form::Mov(mv) => return Ok(movement_hooks::mov(m, t, mv, inst, results)),
        Form::CvtPack(p) => return Ok(movement_hooks::cvt_pack(m, t, p, inst, results)),
        Form::Ld(l) => return Ok(movement_hooks::ld(m, t, l, inst, results)),
        _ => results,
    };
    let Form::Cvt(c) = inst.form else { return Ok(results) };
    let [(dst, spec)] = results.as_slice() else { return Ok(results) };
    let (dst, spec) = (*dst, spec.clone());
    let width = dst.class().bits();
    let src = inst.operands.get(1);
    let a = match src {
        Some(o) => m.source(t, o, 64)?,
        None => return Ok(results),
    };
    let widen = |e: Expected| super::thread::extend(e, width, c.dtype.is_signed_int());
    let mut emulated: Option<(Deviation, Expected)> = None;
    let producer = m.cvt_producer(t, src).map(|(c0, o)| (c0, o.a.clone(), o.a_stmt));
    if let Some((c0, first_a, first_a_stmt)) = producer {
        // 3301-N3: an integer cvt of a float cvt of a set.{s32,u32} result is the set's word
        // (−1 or 0) extended to 64 bits as the float cvt's source type reads it, cut at the
        // integer cvt's type and extended to the destination's width as that type reads it:
        // sign-extended from `.s32`, zero-extended from `.u32`
        // (corpus/findings/fuzz-h200-3901/, 681ef45e, trace/T6A.md: `set.le.u32.u64;
        // cvt.rm.f32.u32; cvt.rzi.s64.f32` is `SEL R6, RZ, 0xffffffff, !P0` with R7 = 0, 13.0.88
        // and 13.5 -O3; `v1_s32src` `SHF.R.S32.HI R7, RZ, 0x1f, R6`).
        let of_set = first_a_stmt.is_some_and(|k| values::is_integer_set(m, k));
        let round_trip = c.dtype.is_int()
            && c.rnd.is_some_and(CvtRnd::is_integer)
            && c0.atype.is_int()
            && !c0.dtype.is_int()
            && !c.atype.is_int();
        if m.allow.emulates(Deviation::SetRoundTripFolded) && round_trip && of_set {
            if let Some(w) = first_a.as_ref().filter(|w| w.is_exact()) {
                let word = super::thread::extend(w.field(0, 32), 64, c0.atype.is_signed_int());
                // Cut at the cvt's type and read as it reads (seed 4401's 77454b6b,
                // corpus/findings/fuzz-h200-4401/trace/T15t1.md: `cvt.rni.u8.f32` into a
                // 16-bit register stores 0x00ff, `LOP3 …0xff`; `.s8` sign-extends, `PRMT 0x8880`).
                let bits = c.dtype.bits().min(width);
                emulated = Some((Deviation::SetRoundTripFolded, widen(word.field(0, bits))));
            }
        }
        // 3301-N3 through `cvt.{s32,u32}.u16` of a half float step: `emulate/set_round_trip_through_a_zero_extended_half.rs`.
        if let Some((d, v)) = set_round_trip_through_a_zero_extended_half::folded(m, t, inst, c) {
            emulated = Some((d, widen(v)));
        }
        // 3301-N3 with the `set.<cmp>.f32` itself as the float step and an integer truncation
        // `cvt.{s16,u16}.{s32,u32}` between (corpus/findings/fuzz-h200-3602/, dced936c; ptxas
        // 13.0.88 and 13.5 -O3: `SEL R0, RZ, 0xffffffff, !P0; IABS R0, R0; PRMT R7, R0, 0x7710`,
        // set.f32's lowering without its `I2FP`, the truncation and the `F2I` dropped): an integer
        // cvt (integer rounding) of a half source gives the set's |word|, 1 or 0.
        let of_set_f32 = first_a_stmt.is_some_and(
            |k| matches!(&m.p.body[k], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32))),
        );
        let truncation =
            matches!(c0.dtype, CvtType::S16 | CvtType::U16) && matches!(c0.atype, CvtType::S32 | CvtType::U32);
        let half_to_int = c.dtype.is_int() && c.rnd.is_some_and(CvtRnd::is_integer) && half(c.atype);
        if m.allow.emulates(Deviation::SetRoundTripFolded) && half_to_int && truncation && of_set_f32 {
            if let Some(w) = first_a.as_ref().filter(|w| w.is_exact()) {
                let truth = u128::from(w.bits & 0xFFFF_FFFF != 0);
                emulated = Some((Deviation::SetRoundTripFolded, Expected::exact(truth, width)));
            }
        }
        // E and I: a `cvt.rzi` of a cvt between halves is folded with it (`emulate/half_cvt_folded_into_rzi.rs`).
        if let Some((d, v)) = half_cvt_folded_into_rzi::half_cvt_folded(m, c, c0, first_a.as_ref()) {
            emulated = Some((d, widen(v)));
        }
        // C's integer direction for a NaN: cvt.sat.s32.s64 / cvt.sat.u32.u64 of a float-to-64-bit
        // cvt of a NaN is folded into one F2I to 32 bits (NaN → 0).
        let int_sat =
            c.sat && matches!((c.dtype, c.atype), (CvtType::S32, CvtType::S64) | (CvtType::U32, CvtType::U64));
        // A `.bf16` source folds the same (`F2I.BF16.NTZ`; corpus/findings/fuzz-h200-3701/,
        // e90e547c and 4cdc6561, trace TC1.md and TC4.md, ptxas 13.0.88 and 13.5 -O3).
        let of_float = c0.dtype == c.atype && matches!(c0.atype, CvtType::F32 | CvtType::F16 | CvtType::Bf16);
        if m.allow.emulates(Deviation::IntSatOfNanCvtFolded)
            && int_sat
            && of_float
            && first_a.as_ref().is_some_and(|x| nan_of(c0.atype, x))
        {
            emulated = Some((Deviation::IntSatOfNanCvtFolded, widen(Expected::exact(0, 32))));
        }
        // M's mechanism (row 10 of fuzz-h200-3201): cvt.u16.u8 of an e4m3x2 result is dropped.
        if m.allow.emulates(Deviation::U8ExtensionOfE4m3x2Dropped)
            && c.dtype == CvtType::U16
            && c.atype == CvtType::U8
            && c0.dtype == CvtType::E4m3x2
        {
            // The 16 bits as they are, a NaN's any-NaN byte included (e4m3 NaN under
            // `nan-payload`: 243ce6a0's thread 4 stored its 0x7f).
            emulated = Some((Deviation::U8ExtensionOfE4m3x2Dropped, widen(a.field(0, 16))));
        }
    }
    // N: cvt.u8.s8 of an f16 result of a cvt from f32 is dropped; or a guarded cvt.u8.{s8,s16}
    // of a signed load into its copy under a compare of the two (seed 4601's caae8b2b,
    // `emulate/cvt_u8_into_its_copy_under_their_compare.rs`).
    let of_f16 =
        matches!(m.cvt_producer(t, src), Some((c0, _)) if c0.dtype == CvtType::F16 && c0.atype == CvtType::F32);
    let n_of_f16 = of_f16 && c.dtype == CvtType::U8 && c.atype == CvtType::S8;
    if m.allow.emulates(Deviation::CvtU8S8OfF16Dropped)
        && a.is_exact()
        && (n_of_f16 || cvt_u8_into_its_copy_under_their_compare::dropped(m, inst, c))
    {
        emulated = Some((Deviation::CvtU8S8OfF16Dropped, widen(a.field(0, 16))));
    }
    // 80274cbb: a float → u32 → f32 → u32 chain is its last conversion of the first source
    // (seeds 4503's 80274cbb, 4602's d5c92b86): `emulate/u32_round_trip_folded_into_last_cvt.rs`.
    if m.allow.emulates(Deviation::U32RoundTripFoldedIntoLastConversion) {
        if let Some(v) = u32_round_trip_folded_into_last_cvt::last_cvt_of_first_source(m, t, inst, c) {
            emulated = Some((Deviation::U32RoundTripFoldedIntoLastConversion, widen(v)));
        }
    }
    // 4b68821e: `emulate/f2i_of_half_bits_fused_with_float_source.rs`.
    let d = Deviation::F2iOfHalfBitsFusedWithFloatSource;
    if let Some(v) = f2i_of_half_bits_fused_with_float_source::fused_conversion_of_source(m, t, inst, c) {
        emulated = m.allow.emulates(d).then(|| (d, widen(v))).or(emulated);
    }
    let r = src.and_then(|o| m.reg_of(o).ok());
    // C's float direction: a float-to-float cvt.sat of an integer cvt.sat result is not
    // saturated; f32 copies between are looked through (corpus/findings/fuzz-h200-3801/,
    // 0b744aae, trace/T4B.md: `cvt.sat.s32.u32; mov.f32; cvt.sat.f32.f32` and `v1_no_movf32`
    // give one listing, `ISETP.GE.U32; SEL` with no `FADD.SAT`, ptxas 13.0.88 and 13.5 -O3).
    let float_sat = c.sat && !c.dtype.is_int() && !c.atype.is_int();
    // Or a 32-bit cvt.sat (float or integer) truncated to the 16-bit source by a cvt
    // (`emulate/set_negation_sign_extension_saturation_queries.rs`, seed 4203's 36b8e382).
    let of_int_sat = r.is_some_and(|r| {
        cvt_through_f32_copies(m, t, r).is_some_and(|c0| c0.sat && c0.dtype.is_int() && c0.atype.is_int())
            || set_negation_sign_extension_saturation_queries::saturated_before_truncation(m, t, r)
    });
    if m.allow.emulates(Deviation::FloatSatOfIntSatDropped) && float_sat && of_int_sat && a.is_exact() {
        let unsaturated = Form::Cvt(Cvt { sat: false, ..c });
        let bits = match c.atype {
            CvtType::F16 | CvtType::Bf16 => 16,
            CvtType::F32 => 32,
            _ => 64,
        };
        if let Some(v) = convert(m, &unsaturated, a.bits & ((1u128 << bits) - 1)) {
            emulated = Some((Deviation::FloatSatOfIntSatDropped, widen(v)));
        }
    }
    // ba4f6f03: `cvt.sat.{s8,s16}.u32` of a cnot clamps the negated mask unsigned (seeds 4402's
    // ba4f6f03, 4602's 8d93b13f): `emulate/sat_s8_s16_of_cnot_clamps_negated_mask.rs`.
    if m.allow.emulates(Deviation::SatS8S16OfCnotClampsNegatedMask) {
        if let Some(v) = sat_s8_s16_of_cnot_clamps_negated_mask::clamped_negated_mask(m, t, inst, c, r, &a) {
            emulated = Some((Deviation::SatS8S16OfCnotClampsNegatedMask, widen(v)));
        }
    }
    // 3501-N3: a float-source cvt of a cnot converts the cnot's 0/1 as the number, where the
    // cnot's source is a set or the program lowers boolean logic with predicates
    // (`emulate/cnot_number_and_range_decided_sets.rs`).
    if let Some(v) = r.and_then(|r| cnot_number_and_range_decided_sets::cnot_converted_as_number(m, t, inst, c, r, &a))
    {
        emulated = Some((Deviation::CnotOfSetCvtConvertedAsNumber, widen(v)));
    }
    // 3501-N3: the only reader of such a float cvt widening it with a sign extension gives the
    // integer 0/1 (seed 4503's 59c56fd7, `emulate/cnot_number_through_later_cvts.rs`).
    if let Some(v) =
        r.and_then(|r| cnot_number_through_later_cvts::signed_widening_of_a_converted_cnot(m, t, &c, r, &a))
    {
        emulated = Some((Deviation::CnotOfSetCvtConvertedAsNumber, widen(v)));
    }
    // 3501-N3 where a live `setp` tests a `set.f32` (or its 0/1) against 0: the 0/1 and the
    // `cvt`s after it are folded by the number (`emulate/set_truth_made_number_by_a_cvt.rs`, seed 4201's 6c26d195).
    if let Some(v) = r.and_then(|r| set_truth_made_number_by_a_cvt::set_truth_converted_as_number(m, &c, r, &a)) {
        emulated = Some((Deviation::CnotOfSetCvtConvertedAsNumber, widen(v)));
    }
    // 3301-N4: cvt.sat.<int>.u32 of a sign-extended field ptxas knows (a byte- or half-aligned
    // bfe.s32, an element of a `.v2/.v4.s8` load, through copies and extension-keeping cvts:
    // `fuzz3702_conversions::sign_extended_field`) saturates it as an .s32
    // (corpus/findings/fuzz-h200-4002/, a1b4d60b, trace/T7E.md: `cvt.u32.s8` of a `.v4.s8`
    // element, then `cvt.sat.s8.u32` is `PRMT 0x9991` and a signed clamp, 13.0.88 and 13.5 -O3;
    // `.u8`, `.s16`, `.s32` destinations, `.v2.s8`, `cvt.s32.s8` alike; a scalar `ld.s8` right).
    let byte_bfe = r.is_some_and(|r| {
        cnot_number_and_range_decided_sets::byte_field_bfe(m, t, r)
            || fuzz3702_conversions::sign_extended_field(m, m.stmt, r, 4)
    });
    if m.allow.emulates(Deviation::SatCvtOfByteBfeSigned)
        && byte_bfe
        && c.sat
        && c.atype == CvtType::U32
        && c.dtype.is_int()
        && a.is_exact()
    {
        let signed = Form::Cvt(Cvt { atype: CvtType::S32, ..c });
        if let Some(v) = convert(m, &signed, a.bits & 0xFFFF_FFFF) {
            emulated = Some((Deviation::SatCvtOfByteBfeSigned, widen(v)));
        }
    }
    // G: a half-source cvt of shr.s16 by 16 of a non-negative `a` may convert `a` itself; of a
    // scalar sign-extending load, `a` of either sign (seed 4602's af46c5e9,
    // `emulate/shr16_of_a_sign_extending_load.rs`).
    let by_16 = r.and_then(|r| match m.producer(t, r) {
        Some((Stmt::Glue { glue, .. }, o)) if g_shift_amounts_ptxas_folds::shr_s16_by_16(m, glue, o) => {
            let any_sign = shr16_of_a_sign_extending_load::shifted_signed_load(m, o);
            o.a.clone().filter(|a| a.is_exact() && (any_sign || a.bits & 0x8000 == 0))
        }
        _ => None,
    });
    // A NaN source (corpus/findings/fuzz-h200-3801/, a97764ed, trace/T4C.md: bf16 0x7ffe,
    // `F2F.F16.BF16` of it gives 0x7fff, 13.0.88 and 13.5 -O3) converts to a NaN, whose free
    // payload is named by its canonical bits (what `F2F` writes).
    let named = |v: Expected| {
        let nan = !v.is_exact() && v.free.iter().all(|f| matches!(f.constraint, Constraint::AnyNan(_)));
        (v.is_exact() || nan).then(|| Expected::exact(v.bits, v.width))
    };
    if m.allow.emulates(Deviation::ShrS16By16ReadsSource) && half(c.atype) {
        // The spec's NaN (a negative source's shift, 0xffff) is named by its canonical bits too.
        let spec_named = named(spec.clone());
        if let Some(v) = by_16.and_then(|a| convert(m, &inst.form, a.bits & 0xFFFF)).and_then(named) {
            if let Some(s) = spec_named.filter(|s| s.bits != v.bits) {
                emulated = Some((Deviation::ShrS16By16ReadsSource, widen(v).or_value(s.bits, Allowance::Undefined)));
            }
        }
    }
    // O: `cvt.sat.{u16,u8}.u32` of O's dropped producer reads a register nothing wrote: any
    // value (seed 3901's 1391020a and 17b9ea5e, `emulate/producer_forms_of_o_f_g_m.rs`).
    if m.allow.emulates(Deviation::Shift16ByCnotAmountUnwritten)
        && producer_forms_of_o_f_g_m::saturating_reader_of_dropped_producer(m, t, &c, r)
    {
        emulated = Some((Deviation::Shift16ByCnotAmountUnwritten, anything(spec.clone())));
    }
    // D: a tf32 conversion of a packed half result reads a half nothing wrote.
    if m.allow.emulates(Deviation::Tf32OfPackedHalf)
        && c.dtype == CvtType::Tf32
        && r.is_some_and(|r| packed_half_producer(m, t, r))
    {
        emulated = Some((Deviation::Tf32OfPackedHalf, anything(spec.clone())));
    }
    // F: a narrowing integer cvt.sat from .s16/.s32 of an overflowed abs saturates it as
    // unsigned (`IABS; VIMNMX.U32 …, 0xff`: the lower clamp is dropped).
    let of_abs = r.is_some_and(|r| {
        matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _))
            if glue.op == GlueOp::Abs && matches!(glue.ty, GlueType::S16 | GlueType::S32))
    });
    let src_bits = match c.atype {
        CvtType::S16 => 16,
        CvtType::S32 => 32,
        _ => 0,
    };
    let narrowing = matches!(c.dtype, CvtType::U8 | CvtType::S8)
        || (src_bits == 32 && matches!(c.dtype, CvtType::U16 | CvtType::S16));
    // `neg.s32` (or `sub.s32` from 0) the same: its clamp rewritten onto the negated value takes
    // the upper bound (seed 4101's ac4a6049, cd71a421: `emulate/f_clamped_negation32.rs`).
    let of_neg32 = src_bits == 32 && r.is_some_and(|r| f_clamped_negation32::clamped_negation32(m, t, r));
    if m.allow.emulates(Deviation::NegationOverflow)
        && (of_abs || of_neg32)
        && c.sat
        && narrowing
        && is_min(&a, src_bits)
    {
        let unsigned = if src_bits == 16 { CvtType::U16 } else { CvtType::U32 };
        let f = Form::Cvt(Cvt { atype: unsigned, ..c });
        if let Some(v) = convert(m, &f, a.bits & ((1u128 << src_bits) - 1)) {
            emulated = Some((Deviation::NegationOverflow, widen(v)));
        }
    }
    // F, 32 bits, widening or the same width (corpus/findings/fuzz-h200-3701/, 1d8039b3, trace
    // TC1.md; ptxas 13.0.88 and 13.5 -O3): `cvt.sat.{u32,u64}.s32` of an overflowed `abs.s32` is
    // the `IABS` result zero-extended with no clamp, +2^31 (§9.7.9.21 saturates −2^31 to 0).
    // `neg.s32` (or `sub.s32` from a moved 0) the same: its unsigned clamp `>u 2^31` keeps the
    // wrapped −(−2^31) (seed 4701's 72d92e64,
    // `emulate/widening_sat_of_a_negation32_keeps_its_minimum.rs`). `cvt.{u64,s64}.s32`
    // sign-extend, `abs.s64` is right.
    let of_abs32 = r.is_some_and(|r| {
        matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _)) if glue.op == GlueOp::Abs && glue.ty == GlueType::S32)
    });
    let of_neg32_kept =
        r.is_some_and(|r| widening_sat_of_a_negation32_keeps_its_minimum::negation_kept_by_unsigned_clamp(m, t, r));
    if m.allow.emulates(Deviation::NegationOverflow)
        && (of_abs32 || of_neg32_kept)
        && c.sat
        && c.atype == CvtType::S32
        && matches!(c.dtype, CvtType::U32 | CvtType::U64)
        && is_min(&a, 32)
    {
        // +2^31 as the `.u32` it is (nothing to saturate in `cvt.{u32,u64}.u32`).
        let f = Form::Cvt(Cvt { atype: CvtType::U32, sat: false, ..c });
        if let Some(v) = convert(m, &f, 0x8000_0000) {
            emulated = Some((Deviation::NegationOverflow, widen(v)));
        }
    }
    // F, 16 bits (corpus/findings/fuzz-h200-3501/, 5fe30520; ptxas 13.0.88 -O3, 13.5 right):
    // an integer cvt from `.s16` to a wider type, saturating or not, of an overflowed
    // `abs.s16`/`neg.s16` converts +2^15 (`PRMT 0x9910; IABS R7, R0` for `cvt.u32.s16`, then
    // `ISETP.LT; SEL` for `.sat`, `SHF.R.S32.HI` for `.s64`: no wrap back to 16 bits).
    let wider = matches!(c.dtype, CvtType::U32 | CvtType::S32 | CvtType::U64 | CvtType::S64);
    let of_negated16 = r.is_some_and(|r| negated16(m, t, r));
    if m.allow.emulates(Deviation::NegationOverflow)
        && of_negated16
        && c.atype == CvtType::S16
        && wider
        && is_min(&a, 16)
    {
        // +2^15 fits every wider type: nothing to saturate (and `.sat` is no modifier of a
        // widening `cvt.u32.u16`).
        let f = Form::Cvt(Cvt { atype: CvtType::U16, sat: false, ..c });
        if let Some(v) = convert(m, &f, 0x8000) {
            emulated = Some((Deviation::NegationOverflow, widen(v)));
        }
    }
    // F, 16 bits, same width or narrower (corpus/findings/fuzz-h200-3601/, e2ff640a; ptxas
    // 13.0.88 and 13.5 -O3, JIT): `cvt.sat.{u16,u8,s8}.s16` of an overflowed `abs.s16`/`neg.s16`
    // saturates +2^15 (`PRMT 0x9910; IABS; ISETP.GT.U32 …, 0xffff; SEL`, 13.5 `VIMNMX.U32`):
    // 0x8000, 0xff, 0x7f.
    if m.allow.emulates(Deviation::NegationOverflow)
        && of_negated16
        && c.atype == CvtType::S16
        && c.sat
        && matches!(c.dtype, CvtType::U16 | CvtType::U8 | CvtType::S8)
        && is_min(&a, 16)
    {
        // +2^15 as the `.u32` ptxas compares (`cvt.sat.<dtype>.u32`: `cvt.sat.u16.u16` is no
        // conversion the semantics evaluate).
        let f = Form::Cvt(Cvt { atype: CvtType::U32, ..c });
        if let Some(v) = convert(m, &f, 0x8000) {
            emulated = Some((Deviation::NegationOverflow, widen(v)));
        }
    }
    // F: an unsigned int-to-f32 cvt of an overflowed `abs.s16`/`abs.s32` converts it as signed
    // (c2-compiler-cvt.rm.f32.u16-9b4a3a32: `IABS; PRMT 0x7710; I2F.S16.RM`; `cvt.rn.f32.u32` of a
    // loaded `abs.s32` is `IABS; I2FP.F32.S32`, ptxas 13.0.88 and 13.5 -O3). Only there
    // (corpus/findings/fuzz-h200-3801/, b4269706, trace/T4A.md, and its variants compiled with
    // 13.0.88 and 13.5 -O3): `.f16`, `.bf16` and `.f64` destinations convert unsigned
    // (`I2F.BF16.U32`, `I2F.F16.U16`, `I2F.F64.U32`), as do `neg.s16`/`neg.s32` (`IADD3 R, -R2;
    // I2F.U16.RM`, `I2FP.F32.U32`) and `abs.s64` (`I2F.U64`), and an `abs` of a value ptxas knows
    // is folded right (`abs.s32` of a moved 0x80000000 read by `cvt.rn.bf16.u32`: `I2F.BF16.U32 R5,
    // 0x80000000`; by `cvt.rn.f32.u32`: 2^31).
    let overflowed = of_abs && r.is_some_and(|r| !known_at_compile_time::known(m, t, r));
    if m.allow.emulates(Deviation::NegationOverflow)
        && overflowed
        && c.dtype == CvtType::F32
        && matches!(c.atype, CvtType::U16 | CvtType::U32)
    {
        if let Some(s) = signed_of(c.atype) {
            let bits = if c.atype == CvtType::U16 { 16 } else { 32 };
            if is_min(&a, bits) {
                let f = Form::Cvt(Cvt { atype: s, ..c });
                if let Some(v) = convert(m, &f, a.bits & ((1u128 << bits) - 1)) {
                    emulated = Some((Deviation::NegationOverflow, widen(v)));
                }
            }
        }
    }
    // F through a zero (6d10fa02) or sign (7b7273cd) extension of abs: `emulate/f_f32_of_sign_extended_abs.rs`.
    if m.allow.emulates(Deviation::NegationOverflow) {
        if let Some(v) = r.and_then(|r| f_f32_of_sign_extended_abs::f32_of_extended_abs(m, t, c, r, &a)) {
            emulated = Some((Deviation::NegationOverflow, widen(v)));
        }
    }
    // 1a937110: a half-precision cvt of `mul.hi`/`mad.hi` by a known 1 of a loaded byte or half
    // converts the loaded value's low half: `emulate/mul_hi_by_one_of_loaded_half_read_as_low_half.rs`.
    if m.allow.emulates(Deviation::MulHiByOneOfLoadedHalfReadAsLowHalf) {
        if let Some(v) = mul_hi_by_one_of_loaded_half_read_as_low_half::converted_low_half(m, t, inst, c, &spec) {
            emulated = Some((Deviation::MulHiByOneOfLoadedHalfReadAsLowHalf, widen(v)));
        }
    }
    // 3301-N3 through a `mov.b32` unpack, E through `cvt.u16.s16`: `emulate/cvt_producers_seen_through.rs`;
    // J's narrowed `add.u16x2` read by a 16-bit or widening `cvt`: `emulate/j_packed_constant.rs`.
    // 3701 C1-N2's cvt of a set.f32 result: `emulate/fuzz3701.rs`.
    // Its 64-bit integer widening beside a logic op of a predicate mask: `emulate/set_f32_widened_as_its_boolean.rs`;
    // its narrowing to a byte there: `emulate/byte_of_set_f32_beside_logic_of_a_mask.rs`.
    // A float cvt of its narrowing float cvt: `emulate/set_f32_boolean_through_a_narrowing_float_cvt.rs`.
    let seed_3701 = || {
        fuzz3701::cvt(m, t, inst, c)
            .or_else(|| set_f32_widened_as_its_boolean::cvt(m, t, inst, c))
            .or_else(|| byte_of_set_f32_beside_logic_of_a_mask::byte_of_set_f32(m, t, inst, c))
            .or_else(|| set_f32_boolean_through_a_narrowing_float_cvt::cvt(m, t, inst, c))
    };
    if let Some((d, v)) = cvt_producers_seen_through::cvt(m, t, inst, c)
        .or_else(|| j_packed_constant::cvt(m, t, inst, c))
        .or_else(seed_3701)
    {
        emulated = Some((d, widen(v)));
    }
    // 3602-N4, 3604-N2: `emulate/fuzz3602.rs`; 3604-N2's set.f32 compared with 0: `…/set_f32_widened_as_its_boolean.rs`.
    let byte_of_set = || set_f32_widened_as_its_boolean::compared_with_zero(m, t, inst, c);
    if let Some((d, v)) = fuzz3602::cvt(m, t, inst, c, &a).or_else(byte_of_set) {
        emulated = Some((d, v.field(0, width)));
    }
    // Seed 3702's conversion causes (3702-N4, N5, N6's fused `.sat` 16-bit reader, C's
    // `cvt.sat.s16.u32`): `emulate/fuzz3702_conversions.rs`.
    // Only a changed value takes the place of an earlier rule's.
    let seed_3702 = fuzz3702_conversions::cvt(m, t, inst, c, &a).map(|(d, v)| (d, widen(v)));
    if let Some((d, v)) = seed_3702.filter(|(_, v)| *v != spec) {
        emulated = Some((d, v));
    }
    // Seed 3802's fp8 unpack of a known-zero top half (6e4d6e41): `emulate/fuzz3802.rs`.
    emulated = fuzz3802::cvt(m, t, inst, c, &spec).or(emulated);
    // 3702-N3 with an arm's `cvt` of a constant: `emulate/fuzz3702.rs`.
    emulated = fuzz3702::cvt(m, t, dst, &spec).or(emulated);
    // 2b9b7b3e's arm `cvt.sat.f64.f64` read by its low word: `emulate/arm_sat_f64_low_word_clamped_by_zero_test.rs`.
    emulated = arm_sat_f64_low_word_clamped_by_zero_test::cvt(m, t, inst, c, &spec).or(emulated);
    // 59da91ec's fp8 pair built only in its pack: `emulate/fp8_pair_built_only_in_its_pack.rs`.
    emulated = fp8_pair_built_only_in_its_pack::cvt(m, t, inst, c, &spec).or(emulated);
    // 7a05c905's prmt byte: `emulate/prmt_byte_narrowed_past_a_guarded_write_of_its_source.rs`.
    emulated = prmt_byte_narrowed_past_a_guarded_write_of_its_source::cvt(m, t, inst, c, &spec).or(emulated);
    let results = match emulated {
        Some((d, v)) => vec![(dst, m.fire(d, &spec, v))],
        None => results,
    };
    // 3801-N3's `HADD2.SAT` pair: `emulate/hadd2_sat_pair_reads_guarded_overwrite.rs`; then the `cvt` hook.
    let results = hadd2_sat_pair_reads_guarded_overwrite::paired(m, t, inst, c, results);
    Ok(movement_hooks::cvt(m, t, c, inst, results))
}

#[cfg(test)]
mod tests;
