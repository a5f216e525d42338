//! Tests of N-7 with an `a` computed through a carry-writing add or sub (seed 5702's 4b300431,
//! helper h5, session 57; corpus/findings/fuzz-h200-5702/trace/T57E.md, variants in
//! trace/4b300431/s57/; `emulate/n7_known_within_one_block/a_through_a_carry_writer.rs`).

use super::*;

const D: Deviation = Deviation::BfeS32PastMsbAllOnes;

/// The variant `name` (`s57/NAME`) of 4b300431 on the stored case's inputs.
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("5702", "4b300431", name, &[])
}

/// The stored case (`add.cc.u32 r3, <moved 0>, 0; bfe.s32 r5, r3, <moved −1>, <moved −1>`, the
/// low bytes of a moved 0 and of r5 stored at byte 2): emulating N-7 gives the GPU's word
/// 0xff000000 in every thread (13.0.88 -O3 `MOV R0, 0xff00`), the spec 0.
#[test]
fn n7_4b300431_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5702", "4b300431472148f9");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0xff00_0000 } else { s.bits };
        assert!(w != 0 || s.bits == 0, "thread {t} spec");
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Wrong alike (13.0.88 -O3 `MOV R0, 0xff00`): an add.cc of 5 and 3 (`v2`), `sub.cc.u32` (`v3`),
/// the carry read by an `addc` (`v5`), an `add.u32` of the add.cc result (`v7`), `add.cc.s32`
/// (`v10`), `addc.cc.u32` (`v11`), the low word of `add.cc.u64` (`v12`).
#[test]
fn n7_4b300431_an_a_through_a_carry_writer_is_not_known() {
    for name in [
        "v2_addcc_5_plus_3",
        "v3_sub_cc",
        "v5_carry_read",
        "v7_copy_of_addcc",
        "v10_addcc_s32",
        "v11_addc_cc",
        "v12_addcc_u64",
    ] {
        let (p, i) = variant(&format!("s57/{name}"));
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            let want = if w == 0 { 0xff00_0000 } else { s.bits };
            assert_eq!((w, e.bits), (w, want), "{name} thread {t} word {w}");
        }
    }
}

/// Right: the plain `add.u32` (`v1`: ptxas folds the whole bfe, `STG.E.U16 … RZ`), a start below
/// 32 (`v8`).
#[test]
fn n7_4b300431_leaves_a_plain_add_and_a_start_below_32_alone() {
    for name in ["v1_add_no_cc", "v8_pos_below_32"] {
        let (p, i) = variant(&format!("s57/{name}"));
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
