//! Tests of [`super::propagate`] through [`super::undefined_output_bytes`]: stores the check does
//! not flag, of values derived from a flagged read.

use super::tests::{mapped, PROLOGUE};
use crate::sass::fixtures;

/// The kernel of `body` after [`PROLOGUE`], then `EXIT`, with 16 bytes of output per thread:
/// its flagged stores and derived stores, as (the flagged read's instruction, the bytes).
fn mapped_after_prologue(body: &str) -> Vec<(String, Vec<u32>)> {
    mapped(&fixtures::kernel("k", &format!("{PROLOGUE}{body}/*0f00*/ EXIT ;\n")), 16)
}

/// `ISETP` of never-written R10: flagged (role `source`); P1 derives from it (the check counts
/// it defined, one finding, not a cascade).
const FLAGGED_COMPARE: &str = "/*0080*/ ISETP.NE.AND P1, PT, R10, RZ, PT ;\n";
const FLAGGED: &str = "ISETP.NE.AND P1, PT, R10, RZ, PT";

#[test]
fn a_real_listing_maps_the_byte_an_undefined_predicate_chose() {
    // Seed 4101's 1e6e819c (ptxas 13.0.88 -O3, trace/T8x1.md): `PRMT R0, R7, 0x7632, R0` leaves
    // R0's upper half never written, `LOP3.LUT P0, RZ, R0, R7, …` tests it, the check flags
    // `@P0 LOP3.LUT R0, …` (guard) and `STG.E.U8 [R4.64], R0` stores the byte P0 chose: byte 0
    // of word 0, the GPU's 0x00 for the oracle's 0xff. Byte 3 (`R7`, defined) is not mapped.
    let body = include_str!("../../../../corpus/findings/fuzz-h200-4101/trace/1e6e819c/orig.130.O3.sass");
    let got = mapped(&fixtures::kernel("p200_219", body), 4);
    assert_eq!(got, [("@P0 LOP3.LUT R0, RZ, R0, RZ, 0x33, !PT".to_string(), vec![0])], "{got:?}");
}

#[test]
fn a_value_derived_from_a_flagged_read_maps_its_store() {
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ SEL R8, RZ, 0x1, P1 ;\n/*00a0*/ IADD3 R9, R8, 0x2, RZ ;\n\
         /*00b0*/ STG.E desc[UR8][R2.64+0x4], R9 ;\n"
    ));
    assert_eq!(got, [(FLAGGED.to_string(), vec![4, 5, 6, 7])]);
}

#[test]
fn a_store_of_defined_values_after_a_flagged_read_maps_nothing() {
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ SEL R8, RZ, 0x1, P1 ;\n/*00a0*/ IADD3 R9, R0, 0x2, RZ ;\n\
         /*00b0*/ STG.E desc[UR8][R2.64+0x4], R9 ;\n"
    ));
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn a_register_written_again_from_defined_sources_is_clean() {
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ SEL R8, RZ, 0x1, P1 ;\n/*00a0*/ MOV R8, R0 ;\n\
         /*00b0*/ STG.E desc[UR8][R2.64+0x4], R8 ;\n"
    ));
    assert!(got.is_empty(), "{got:?}");
    // Under a guard the old value stays where the guard fails: still derived.
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ SEL R8, RZ, 0x1, P1 ;\n/*00a0*/ ISETP.NE.AND P2, PT, R0, RZ, PT ;\n\
         /*00b0*/ @P2 MOV R8, R0 ;\n/*00c0*/ STG.E desc[UR8][R2.64+0x4], R8 ;\n"
    ));
    assert_eq!(got, [(FLAGGED.to_string(), vec![4, 5, 6, 7])]);
}

#[test]
fn a_derived_guard_derives_what_it_writes_and_maps_what_it_stores() {
    // A guarded write under a derived predicate.
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ MOV R8, R0 ;\n/*00a0*/ @P1 LOP3.LUT R8, RZ, R8, RZ, 0x33, !PT ;\n\
         /*00b0*/ STG.E.U16 desc[UR8][R2.64+0x6], R8 ;\n"
    ));
    assert_eq!(got, [(FLAGGED.to_string(), vec![6, 7])]);
    // A store under a derived predicate: all its bytes, whatever it stores.
    let got = mapped_after_prologue(&format!("{FLAGGED_COMPARE}/*0090*/ @P1 STG.E.64 desc[UR8][R2.64+0x8], R4 ;\n"));
    assert_eq!(got, [(FLAGGED.to_string(), (8..16).collect())]);
}

#[test]
fn a_store_flagged_for_its_guard_maps_all_its_bytes() {
    // P6 never written: the store itself is flagged (role guard).
    let got = mapped_after_prologue("/*0080*/ @P6 STG.E desc[UR8][R2.64+0x4], R0 ;\n");
    assert_eq!(got, [("@P6 STG.E desc[UR8][R2.64+0x4], R0".to_string(), vec![4, 5, 6, 7])]);
}

#[test]
fn a_derived_store_whose_address_is_not_proved_maps_nothing() {
    for store in ["STG.E desc[UR8][R4.64+0x4], R8", "STG.E desc[UR8][R2.64+0x10], R8", "STS [R3+0x4], R8"] {
        let got =
            mapped_after_prologue(&format!("{FLAGGED_COMPARE}/*0090*/ SEL R8, RZ, 0x1, P1 ;\n/*00a0*/ {store} ;\n"));
        assert!(got.is_empty(), "{store}: {got:?}");
    }
}

#[test]
fn control_dependence_on_a_derived_branch_is_not_followed() {
    // The arm's store writes a defined value; which lanes run it depends on P1 (not followed:
    // a word left unmapped stays a compiler finding).
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ @P1 BRA `(.L_x_1) ;\n/*00a0*/ STG.E desc[UR8][R2.64+0x4], R0 ;\n\
         .L_x_1:\n/*00b0*/ NOP ;\n"
    ));
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn derived_values_join_at_a_label_and_keep_the_read_they_come_from() {
    // R8 derived on one path only (a may-analysis): the store after the join maps.
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ MOV R8, R0 ;\n/*00a0*/ ISETP.NE.AND P2, PT, R0, 0x3, PT ;\n\
         /*00b0*/ @P2 BRA `(.L_x_1) ;\n/*00c0*/ SEL R8, RZ, 0x1, P1 ;\n.L_x_1:\n\
         /*00d0*/ STG.E.U8 desc[UR8][R2.64+0x1], R8 ;\n"
    ));
    assert_eq!(got, [(FLAGGED.to_string(), vec![1])]);
}

#[test]
fn a_byte_another_store_writes_from_defined_bits_does_not_count() {
    let got = mapped_after_prologue(&format!(
        "{FLAGGED_COMPARE}/*0090*/ SEL R8, RZ, 0x1, P1 ;\n/*00a0*/ STG.E.U8 desc[UR8][R2.64+0x5], R0 ;\n\
         /*00b0*/ STG.E desc[UR8][R2.64+0x4], R8 ;\n"
    ));
    assert_eq!(got, [(FLAGGED.to_string(), vec![4, 6, 7])]);
}
