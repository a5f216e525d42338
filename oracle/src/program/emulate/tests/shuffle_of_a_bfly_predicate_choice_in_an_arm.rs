//! Tests of 3702-N7's dropped shuffle with the choice written as a one-armed `if` on the bfly's
//! predicate (session 62, helper md: seed 6201's b7f77768, corpus/findings/fuzz-h200-6201/trace/T62D.md,
//! variants in trace/b7f77768/s62/; `emulate/shuffle_of_a_value_selected_by_a_bfly_predicate/arm.rs`).

use super::*;

const D: Deviation = Deviation::ShuffleOfBflyPredicateChoiceDropped;

/// The variant `name` (`s62/NAME`) of b7f77768 on the stored case's inputs (all zero).
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("6201", "b7f77768", &format!("s62/{name}"), &[])
}

/// The stored case: lanes 24, 25 and 27 (`(lane ^ 25) <= 2`) run the arm's `mov.b32 r0, 0`; the
/// `.idx` shuffle reads lane 0's 2 (word 0x02000000); emulating the drop those three keep their own
/// 0 (the GPU's word 0), every other word the spec's.
#[test]
fn n7_b7f77768_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6201", "b7f777689b7642b8");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let wrong = matches!((t, w), (24 | 25 | 27, 0));
        assert_eq!(s.bits, if w == 0 { 0x0200_0000 } else { 0 }, "thread {t} word {w} spec");
        assert_eq!(e.bits, if wrong { 0 } else { s.bits }, "thread {t} word {w}");
    }
}

/// Dropped alike (13.0.88 = 13.5 -O3, no `SHFL.IDX`): `@p0 bra`, an arm of two statements, an arm
/// `add` of the bfly's result, an arm that also loads another register, the later shuffle's
/// immediates, a branch around a branch, an immediate `c` of 0 in this loading body.
#[test]
fn n7_b7f77768_a_choice_in_a_one_armed_if_drops_the_shuffle() {
    for name in [
        "v2_bra_on_p0",
        "v7_arm_two_stmts",
        "v8_arm_add_of_result",
        "v10_bfly_clamp_imm0",
        "v12_arm_also_other_write",
        "v13_second_idx_imm",
        "v14_branch_around_a_branch",
    ] {
        let (p, i) = variant(name);
        let words = super::words_emulating(&p, &i, D);
        assert!(words.iter().any(|(_, _, s, e)| s != e), "{name}");
    }
}

/// Kept (right, `SHFL.IDX` in the 13.0.88 -O3 listing): the arm loads the value or moves %tid.x,
/// the bfly shuffles a loaded word, the branch tests %tid.x, the first shuffle is `.up`.
#[test]
fn n7_b7f77768_leaves_arms_of_other_values_and_predicates_alone() {
    for name in ["v3_arm_loaded", "v4_arm_mov_tid", "v5_bfly_src_loaded", "v6_branch_on_setp_tid", "v11_first_up"] {
        let (p, i) = variant(name);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
