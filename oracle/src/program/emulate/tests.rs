//! Tests of the register-program emulations (one per root cause and scope).

use super::*;
use crate::program::interp::{run, run_emulating};
use crate::program::text::parse_stmt;
use crate::program::{Inputs, Launch, Program};
use crate::semantics::Allowances;

/// A one-thread program of `lines` reading the input words `words`, writing two words.
fn program(lines: &[&str]) -> Program {
    Program {
        name: "k".into(),
        target: "sm_90@9.0".parse().unwrap(),
        launch: Launch::one_cta(1),
        inputs: 4,
        outputs: 2,
        shared: 0,
        body: lines.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
    }
}

/// The output (two words) of `lines` on `words`: by the spec, and emulating `d` (with the
/// deviations that fired).
fn both(lines: &[&str], words: [u32; 4], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    let (p, i) = (program(lines), Inputs(words.to_vec()));
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    (spec, out.remove(0), fired)
}

/// Checks that emulating `d` turns the spec's exact `spec` into the exact `bug` and fires.
fn exact_case(lines: &[&str], words: [u32; 4], d: Deviation, spec: u64, bug: u64) {
    let (s, e, fired) = both(lines, words, d);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert_eq!((e.bits as u64, e.is_exact()), (bug, true), "{d:?} of {lines:?}");
    assert_eq!(fired, vec![d]);
    // Every other emulation leaves the program alone.
    for other in Deviation::ALL.into_iter().filter(|&o| o != d) {
        let (_, e, fired) = both(lines, words, other);
        assert_eq!((e.bits as u64, fired.as_slice()), (spec, &[][..]), "{other:?} of {lines:?}");
    }
}

/// Checks that emulating `d` leaves `lines` as the spec says (out of its scope).
fn untouched(lines: &[&str], words: [u32; 4], d: Deviation) {
    let (s, e, fired) = both(lines, words, d);
    assert_eq!((e, fired), (s, Vec::new()), "{d:?} of {lines:?}");
}

/// A campaign's stored case, `corpus/findings/fuzz-h200-SEED/cases/NAME.case`.
fn stored_case(seed: &str, name: &str) -> (Program, Inputs) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../corpus/findings/fuzz-h200-{seed}/cases/{name}.case"));
    crate::program::text::parse_case(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The trace folder of finding `id8` of seed `seed`.
fn trace(seed: &str, id8: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../corpus/findings/fuzz-h200-{seed}/trace/{id8}"))
}

/// The variant `name` of finding `id8` of seed `seed` (its `.ptx`, 32 threads) on the stored
/// case's inputs, with input word `w` of every thread set to `v` for each `(w, v)` of `patch`.
fn variant_of(seed: &str, id8: &str, name: &str, patch: &[(usize, u32)]) -> (Program, Inputs) {
    let ptx = std::fs::read_to_string(trace(seed, id8).join(format!("{name}.ptx"))).unwrap();
    let case = std::fs::read_to_string(trace(seed, id8).join("orig.case")).unwrap();
    let inputs = &case[case.find("// ptxdiff-inputs").unwrap()..];
    let (p, mut i) = crate::program::text::parse_case(&format!("{ptx}\n{inputs}")).unwrap();
    let n = p.inputs as usize;
    for t in 0..i.0.len() / n {
        for &(w, v) in patch {
            i.0[t * n + w] = v;
        }
    }
    (p, i)
}

/// Each 32-bit word of `p` on `i` as `(thread, word, spec, emulated)`: the spec's, and with `d`
/// emulated — asserting that `d` alone fired (a word may be a set: see [`words_emulated_alone`]).
fn words_emulating(p: &Program, i: &Inputs, d: Deviation) -> Vec<(usize, u32, Expected, Expected)> {
    let spec = run(p, i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(p, i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!(fired, vec![d], "{d:?}");
    let mut words = Vec::new();
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        for w in 0..p.outputs {
            words.push((t, w, s.field(32 * w, 32), e.field(32 * w, 32)));
        }
    }
    words
}

/// Each word of `p` on `i` emulating `d` alone: the spec's where the word is not `word`, else
/// `want(thread, spec's bits)`.
fn assert_words(p: &Program, i: &Inputs, d: Deviation, word: u32, want: impl Fn(usize, u32) -> u32, what: &str) {
    for (t, w, s, e) in words_emulated_alone(p, i, d) {
        let expected = if w == word { want(t, s.bits as u32) } else { s.bits as u32 };
        assert_eq!((w, e.bits as u32), (w, expected), "{what} thread {t} word {w}");
    }
}

/// Emulating `d` changes nothing in `p` on `i` and fires nothing.
fn assert_untouched(p: &Program, i: &Inputs, d: Deviation, what: &str) {
    let spec = run(p, i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(p, i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{what}");
}

/// [`words_emulating`], asserting also that every emulated word is exact (a stored case's words
/// are the GPU's, one value each).
fn words_emulated_alone(p: &Program, i: &Inputs, d: Deviation) -> Vec<(usize, u32, Expected, Expected)> {
    let words = words_emulating(p, i, d);
    for (t, w, _, e) in &words {
        assert!(e.is_exact(), "{d:?}: thread {t} word {w}");
    }
    words
}

/// `lines` as the `&str`s the helpers take.
fn strs(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).collect()
}

/// A one-warp program of `lines` (32 threads, four input words each, all `words`), for the
/// shuffles: thread 0's two output words by the spec, and emulating `d` (with the deviations
/// that fired).
fn warp_both(lines: &[&str], words: [u32; 4], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    let p = Program { launch: Launch::one_cta(32), ..program(lines) };
    let i = Inputs(words.repeat(32));
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    (spec, out.remove(0), fired)
}

/// M's form: `cvt` (of the loaded word %r0 into %h1) masked by the loaded half %h0, packed below
/// a zero half and stored.
fn m_masked_pack(cvt: &'static str) -> [&'static str; 7] {
    [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b16 %h0, [%in+4];",
        cvt,
        "and.b16 %h2, %h1, %h0;",
        "mov.b16 %h3, 0;",
        "mov.b32 %r1, {%h2, %h3};",
        "st.global.b32 [%out], %r1;",
    ]
}

mod arm_sat_f64_low_word_clamped_by_zero_test;
mod b64_body_shifted_out_within_one_unrolled_pass;
mod b64_repack_in_an_arm_loads_new_word_over_old_low;
mod bfind_64_of_branch_fixed_value_folded_from_low_word;
mod byte_of_set_f32_beside_logic_of_a_mask;
mod carry_of_known_zero_shl_and_constant_set;
mod carry_reader_of_constants_with_zero_carry_in;
mod chained_shr_s32_of_known_ones_folded_to_zero;
mod cnot_conversion_beside_a_tested_one;
mod cnot_conversion_tested_down_a_chain;
mod cnot_funnel_rotate_in_lea_hi;
mod cnot_loop_chain_read_through_integer_cvts;
mod cnot_number_through_a_float_cvt_chain;
mod cnot_number_through_later_cvts;
mod cnot_of_itself_run_twice_by_a_loop;
mod cnot_read_by_a_live_cnot;
mod cnot_read_by_a_live_zero_setp;
mod compare_of_loaded_half_packed_above_fp8_pair;
mod compare_of_loaded_half_rebuilt_over_its_fp8_pair_word;
mod compare_with_one_an_unrolled_counter;
mod converted_cnot_read_as_its_number;
mod counter_of_a_signed_count_read_after_the_loop;
mod cvt_u8_into_its_copy_under_their_compare;
mod exit_predicate_read_after_a_signed_count;
mod f2i_of_half_bits_fused_with_float_source;
mod f2ip_of_constants_known_once_a_shuffle_folds;
mod f32_write_over_an_unrecorded_value;
mod f_f32_of_sign_extended_abs;
mod f_negation16_through_a_16bit_cvt_copy;
mod float_cvt_skipped_over_an_unrecorded_value;
mod fp8_pair_built_only_in_its_pack;
mod fp8_pair_copied_in_its_arm;
mod ftz_dropped_in_fused_sat16_cvt;
mod g_shift_amounts_ptxas_folds;
mod hadd2_sat_pair_with_a_guarded_second_before_a_select;
mod known_at_compile_time;
mod known_through_integer_cvt;
mod l_m_n_origins;
mod l_shift_by_an_amount_ptxas_knows;
mod lettered_root_causes;
mod loop_carried_negation_of_max_s32_held_invariant;
mod lop3_merged_over_halves_of_an_unpacked_value;
mod low_byte_of_an_unpack_narrowed_alone;
mod mad_hi_links_dropped_as_repeats;
mod mad_hi_links_of_mul_hi_and_add_cc_in_a_loop;
mod mad_step_of_its_own_addend;
mod merge_c_guarded_word_pack_over_constant;
mod merge_c_half_copied_from_a_computed_half;
mod merge_c_half_of_an_unfolded_half_float_cvt;
mod merge_c_half_reloaded_from_shared_in_a_later_arm;
mod merge_c_half_through_a_word_pack_made_before;
mod merge_c_low_byte_unpacked_before_pack;
mod merge_c_pack_word_read_by_a_forwarded_load;
mod merge_c_pair_through_copies;
mod merge_c_relu_u8_of_64_guarded_over_constant;
mod merge_c_widened_byte_half_read_after_pack;
mod min_max_of_shuffled_sub_against_an_unknown_register;
mod min_max_operand_known_through_a_taken_guard;
mod min_s32_of_max_u32_by_zero_folded_to_zero;
mod mul_hi_by_one_known_at_compile_time;
mod mul_hi_by_one_of_loaded_half_read_as_low_half;
mod multiplier_chain_folded_to_its_low_word;
mod n7_a_through_a_carry_writer;
mod n7_a_through_a_late_folded_producer;
mod n7_to_3501;
mod neg_of_set_f32_beside_logic_of_sets;
mod negated_abs_s64_below_every_negative_constant;
mod negated_carry_op_folded_keeps_its_carry_in_added;
mod negation_inside_fused_min_max_read_as_its_source;
mod negation_of_max_s32_evaluated_in_an_arm_dropped;
mod negation_of_set_f32_as_a_product_by_minus_one;
mod negation_of_set_f32_through_a_pack_round_trip;
mod negation_of_set_f32_through_an_int_to_float_cvt;
mod pack_high_half_read_from_its_half_after_a_guarded_write;
mod packed_min_max_of_a_merged_sign_extended_load;
mod packed_min_max_of_zero_extended_converted_half;
mod prmt_byte_narrowed_past_a_guarded_write_of_its_source;
mod prmt_constant_b_held_in_a_register;
mod prmt_narrowed_at_a_store_forwarded_load;
mod prmt_narrowed_per_zero_extending_reader;
mod product_factor_folded_after_the_product;
mod ptxas_constant_operands;
mod s8_of_a_shuffled_constant_folded_beside_a_load;
mod seeds_3602_to_3701;
mod set_f32_boolean_beside_a_logic_op_of_set_f32_words;
mod set_f32_boolean_converted_at_a_byte_store;
mod shift16_amount_of_a_sign_extended_field;
mod shr16_of_s8_round_trip_by_a_run_time_amount;

mod cvt_producers_seen_through;
mod seeds_3702_a;
mod seeds_3702_b;

mod skipped_integer_copy_and_f2fp_mask;

mod seed_3801_new;
mod seed_3801_w1;
mod seed_3801_w2;
mod seed_3801_w3;
mod seed_3801_w4;
mod seed_3802_new;
mod seed_3802_w6;
mod seed_4802_w4;

mod j_branch_known_b64_high_word;
mod j_branch_known_word_unpacked_through_a_pack64;
mod j_shuffled_constant_folded_beside_a_load;
mod join_arm_of_an_unpacked_constant;
mod join_arm_pinned_by_the_branch_compare;
mod lop3_c_repeating_a_through_a_zero_identity;
mod lop3_chain_merged_into_two_outer_xors;
mod lop3_of_a_repeated_x_and_a_folded_c;
mod lop3_of_its_a_and_of_one_constant;
mod lop3_of_its_a_through_a_pack;
mod or_and16_of_set_mask_halves_xor_as_predicate;
mod sat_pair_over_a_guarded_cvt_sharing_its_conversion;
mod sat_s8_s16_of_cnot_clamps_negated_mask;
mod seed_3802_w1b;
mod seed_3802_w8;
mod seed_3802_w9;
mod seed_3903_nx1;
mod seed_390x_h1;
mod seed_390x_h2;
mod seed_390x_h3;
mod seed_390x_h4;
mod seed_390x_h5;
mod seed_390x_h6;
mod seed_390x_h7;
mod seed_400x_v1;
mod seed_400x_v2;
mod seed_400x_v3;
mod seed_400x_v4;
mod seed_400x_v5;
mod seed_4101_x1;
mod seed_4101_x2;
mod seed_410x_z2;
mod seed_410x_z3;
mod seed_410x_z4;
mod seed_4201_e1;
mod seed_4201_e2;
mod seed_4201_v1;
mod seed_4201_v2;
mod seed_4201_v3;
mod seed_4201_v4;
mod seed_4301_t1;
mod seed_4301_w1;
mod seed_4301_w3;
mod seed_4301_w4;
mod seed_4301_w5;
mod seed_4303_n11;
mod seed_4303_y1;
mod seed_4303_y2;
mod seed_4303_y3;
mod seed_4303_y4;
mod seed_4401_z1;
mod seed_4401_z2;
mod seed_4401_z3;
mod seed_4401_z4;
mod seed_4401_z5;
mod seed_4402_s45;
mod seed_4402_u1;
mod seed_4402_u2;
mod seed_4404_n11;
mod seed_4404_n3;
mod seed_4404_v1;
mod seed_4404_v2;
mod seed_4404_v3;
mod seed_4501_s45;
mod seed_5501_t1;
mod seed_5601_t3;
mod seed_5601_t4;
mod seed_5603_t8;
mod seed_5703_h6;
mod seed_570x_h2;
mod seed_5803_n11_ftz_bf16;
mod seed_580x_hc;
mod seed_58_hg;
mod seed_5901_ib;
mod seed_6002_jc;
mod seed_6005_kf;
mod seed_600x_jd;
mod seed_610x_la;
mod seed_620x_ma;
mod seed_620x_mc;
mod seed_620x_mf;
mod seed_620x_mg;
mod set_byte_through_float_cvt_at_byte_store;
mod set_f32_boolean_beside_a_not_of_a_set;
mod set_f32_boolean_beside_a_zero_test_split_into_an_arm;
mod set_f32_boolean_of_a_set_tested_against_zero;
mod set_f32_boolean_through_a_narrowing_float_cvt;
mod set_f32_byte_beside_a_zero_tested_set_f32;
mod set_f32_number_of_a_rebuilt_byte;
mod set_f32_widened_beside_a_zero_test_of_its_word;
mod set_f32_widened_through_a_float_cvt;
mod set_f32_zero_tested;
mod set_of_abs_against_zero_folded_non_negative;
mod set_round_trip_through_a_zero_extended_half;
mod set_truth_through_a_float_cvt_zero_tested;
mod setp_one_of_f32_set_arm_copy;
mod setp_one_of_f32_set_of_wide_source;
mod shfl_of_a_register_ptxas_knows;
mod shift16_amount_of_a_sign_extended_element;
mod shl_chain_of_zero_extended_base;
mod shl_chain_through_doubling_add;
mod shr16_of_a_sign_extending_load;
mod shuffle_of_a_bfly_predicate_choice_in_an_arm;
mod shuffle_of_a_bfly_predicate_choice_with_a_known_clamp;
mod shuffle_of_a_uniform_choice_by_a_bfly_predicate;
mod shuffle_of_a_value_selected_by_a_bfly_predicate;
mod signed_count_of_a_shifted_out_body;
mod skipped_set_low_half_through_an_add;
mod skipped_set_over_saturated_f32;
mod sub_cc_from_folded_zero_held_negated;
mod subc_of_branch_constant_wide_or_copied;
mod u32_round_trip_folded_into_last_cvt;
mod unsigned_gt_zero_exit_counted_from_a_positive_start;
mod wide16_product_of_s8_round_trip;
mod widening_sat_of_a_negation32_keeps_its_minimum;
mod word_of_an_unpack_known_from_its_pack;
mod xor_of_branch_constant_mask_register_or_one_armed;
mod zero_folded_from_a_zero_factor;
