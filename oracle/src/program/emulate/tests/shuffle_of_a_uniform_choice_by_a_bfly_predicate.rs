//! Tests of 3702-N7's dropped shuffle with the choice among values ptxas takes as uniform (seed
//! 5702's c3be1a58, helper h5, session 57; corpus/findings/fuzz-h200-5702/trace/T57E.md, variants
//! in trace/c3be1a58/s57/; `emulate/shuffle_of_a_value_selected_by_a_bfly_predicate/uniform_choice.rs`).

use super::*;

const D: Deviation = Deviation::ShuffleOfBflyPredicateChoiceDropped;

/// The variant `name` (`s57/NAME`) of c3be1a58 on the stored case's inputs.
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("5702", "c3be1a58", name, &[])
}

/// The stored case: lane 6 alone runs the guarded prmt (0x008eff1a), and the second bfly swaps
/// lanes 6 and 7; emulating the drop each lane keeps its own word (the GPU's words 0 and 1: lane 6
/// 0x008eff1a, lane 7 0x12fa1a8e), every other word the spec's.
#[test]
fn n7_c3be1a58_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5702", "c3be1a585d925ea3");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = match (t, w) {
            (6, 0 | 1) => 0x008e_ff1a,
            (7, 0 | 1) => 0x12fa_1a8e,
            _ => s.bits,
        };
        assert!(s.bits != want || !matches!((t, w), (6 | 7, 0 | 1)), "thread {t} spec");
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Dropped alike (13.0.88 -O3, no second `SHFL`): a guarded mov, add, xor, mul.lo, shl, or, min,
/// not, bfe of the shuffle's result, a cvt of its unpacked half, a copy of it over a moved 0,
/// a second `.idx` shuffle, the prmt over a moved constant or into another register, a prmt with a
/// moved `b`, a `selp` of the result and a prmt of it.
#[test]
fn n7_c3be1a58_a_choice_among_uniform_values_drops_the_shuffle() {
    for name in [
        "x1_guarded_mov_imm",
        "x3_guarded_add",
        "x4_guarded_xor_imm",
        "x7_second_idx",
        "x8_moved_const_shuffled_other",
        "x9_selp_of_prmt",
        "x10_guarded_prmt_other_dst",
        "x12_guarded_prmt_const_c",
        "y_mul_lo_u32",
        "y_shl_b32",
        "y_or_b32",
        "y_min_s32",
        "y_not_b32",
        "y_bfe_u32",
        "y_cvt_u32_u16",
        "y_mov_b32_unpack_guarded",
    ] {
        let (p, i) = variant(&format!("s57/{name}"));
        let words = super::words_emulating(&p, &i, D);
        assert!(words.iter().any(|(_, _, s, e)| s != e), "{name}");
    }
}

/// Kept (right): the prmt's `b` a loaded word (`x2`), c[4:0] = 0 (`x5`), the first bfly of a loaded
/// word (`x6`), a guard not the bfly's predicate (`x11`).
#[test]
fn n7_c3be1a58_leaves_loaded_values_and_other_guards_alone() {
    for name in ["x2_prmt_b_loaded", "x5_first_clamp_0", "x6_first_src_loaded", "x11_no_pred_read_guard_tid"] {
        let (p, i) = variant(&format!("s57/{name}"));
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
