//! Tests of 3701-C3-3 with the 1 a counter of a loop ptxas unrolls whole
//! (`emulate/fuzz3701/compare_with_one_an_unrolled_counter.rs`; seed 5603's c5084be2,
//! corpus/findings/fuzz-h200-5603/trace/T56G.md, trace/c5084be2/s56/ with 13.0.88 and 13.5 -O3 listings).

use super::*;

const D: Deviation = Deviation::SetpEqOneOfSetTestsTheSet;

/// The variant `name` (`orig`, `s56/NAME`) of c5084be2 on the stored case's inputs.
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("5603", "c5084be2", name, &[])
}

/// The spec's words of `(p, i)` and, emulating [`D`], the words and the deviations that fired.
fn spec_and_emulated((p, i): &(Program, Inputs)) -> (Vec<Expected>, Vec<Expected>, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(p, i, &Allowances::all().emulating(D)).unwrap();
    (spec, out, fired)
}

/// The stored case: trip 4's `set.ne s, s, i` (i = 1) tests trip 3's set, s = 0, so `shfl.sync.idx`
/// by lane 0 is in range and `selp` stores 0xf1ceddbe (the GPU's word), where the spec's s = −1 is
/// lane 26, out of range: 0.
#[test]
fn c3_3_c5084be2_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5603", "c5084be27962a3b6");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits, e.bits), (0, 0, 0xf1ce_ddbe), "thread {t}");
    }
}

/// Wrong alike (13.0.88 -O3 `ISETP.EQ.U32 P0, R0, 0x2; SEL`): the loop's s stored (`v1`), s loaded
/// (`v5`), two trips (`v6`): −1 by the spec, 0 emulated. `v2` (the loop written out with immediates)
/// was the entry's form before and gives the same word.
#[test]
fn c3_3_c5084be2_a_set_ne_of_the_unrolled_counter_one_tests_the_set() {
    for name in ["v1_store_r1", "v2_written_out", "v5_loaded_start_value", "v6_two_trips"] {
        let (spec, out, fired) = spec_and_emulated(&variant(&format!("s56/{name}")));
        assert_eq!(fired, vec![D], "{name}");
        for (s, e) in spec.iter().zip(&out) {
            assert_eq!((s.field(0, 32).bits, e.field(0, 32).bits), (0xFFFF_FFFF, 0), "{name}");
        }
    }
}

/// Right: no trip compares with 1 (`v3`), a loaded trip count (`v4`: the loop is not unrolled).
#[test]
fn c3_3_c5084be2_leaves_a_rolled_loop_and_other_counts_alone() {
    for name in ["v3_counter_stops_at_2", "v4_loaded_count"] {
        let (spec, out, fired) = spec_and_emulated(&variant(&format!("s56/{name}")));
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
