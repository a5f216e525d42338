//! Tests of [`super`]: which output bytes a flagged store writes from undefined bits.

use std::collections::BTreeSet;

use super::*;
use crate::sass::{check_functions, fixtures, parse::parse_listing};

/// The flagged stores of the one kernel of `listing` (outputs of `stride` bytes per thread),
/// each as (the store's instruction, its bytes).
pub(super) fn mapped(listing: &str, stride: u32) -> Vec<(String, Vec<u32>)> {
    let functions = parse_listing(listing).unwrap();
    let reads = check_functions(&functions);
    let f = functions.iter().find(|f| f.entry).unwrap();
    undefined_output_bytes(f, &reads, OUTPUT_POINTER_SM90, stride)
        .into_iter()
        .map(|s| (reads[s.read].instruction.clone(), s.bytes.into_iter().collect()))
        .collect()
}

/// The prologue of a generated kernel at -O3 (ptxas 13.0.88): the input and output pointers
/// of the thread, 16 bytes of output each.
pub(super) const PROLOGUE: &str = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R7, SR_TID.X ;\n\
    /*0020*/ LDC.64 R4, c[0x0][0x210] ;\n/*0030*/ ULDC.64 UR8, c[0x0][0x208] ;\n\
    /*0040*/ IMAD.WIDE.U32 R4, R7, 0x40, R4 ;\n/*0050*/ LDC.64 R2, c[0x0][0x218] ;\n\
    /*0060*/ IMAD.WIDE.U32 R2, R7.reuse, 0x10, R2 ;\n/*0070*/ LDG.E R0, desc[UR8][R4.64] ;\n";

#[test]
fn a_real_listing_maps_its_flagged_stores_to_their_output_bytes() {
    // Seed 4003's e6bab329 (N-6 as a value), ptxas 13.0.88 -O3: `UPRMT UR6, UR11, 0x7610, UR6`
    // with UR11 never written reaches `STG.E.U16 [R2.64]` (word 0's low half) and `STG.E.S8
    // [R2.64+0xb]` (word 2's top byte) — the words the GPU stored wrong (trace/T7H.md).
    let listing = include_str!("../../../corpus/findings/fuzz-h200-4003/trace/e6bab329/orig.130.O3.sass");
    let got = mapped(listing, 16);
    assert_eq!(
        got,
        [
            ("STG.E.U16 desc[UR8][R2.64], R9".to_string(), vec![0, 1]),
            ("STG.E.S8 desc[UR8][R2.64+0xb], R19".to_string(), vec![0xb]),
        ],
        "{got:?}"
    );
}

#[test]
fn only_the_bytes_of_the_never_written_registers_count() {
    // R8 written, R9 never: a 64-bit store at +0x8 writes undefined bits to bytes 12..16.
    let body =
        format!("{PROLOGUE}/*0080*/ MOV R8, R0 ;\n/*0090*/ STG.E.64 desc[UR8][R2.64+0x8], R8 ;\n/*00a0*/ EXIT ;\n");
    let got = mapped(&fixtures::kernel("k", &body), 16);
    assert_eq!(got, [("STG.E.64 desc[UR8][R2.64+0x8], R8".to_string(), vec![12, 13, 14, 15])]);
    // A byte store writes one byte; a 16-bit store two.
    for (store, bytes) in
        [("STG.E.U8 desc[UR8][R2.64+0x5], R9", vec![5]), ("STG.E.S16 desc[UR8][R2.64+0x2], R9", vec![2, 3])]
    {
        let body = format!("{PROLOGUE}/*0080*/ {store} ;\n/*0090*/ EXIT ;\n");
        assert_eq!(mapped(&fixtures::kernel("k", &body), 16), [(store.to_string(), bytes)]);
    }
}

#[test]
fn a_store_not_proved_to_write_the_output_maps_to_nothing() {
    for store in [
        // The input pointer.
        "STG.E desc[UR8][R4.64+0x4], R9",
        // Past the thread's 16 bytes.
        "STG.E desc[UR8][R2.64+0x10], R9",
    ] {
        let body = format!("{PROLOGUE}/*0080*/ {store} ;\n/*0090*/ EXIT ;\n");
        assert!(mapped(&fixtures::kernel("k", &body), 16).is_empty(), "{store}");
    }
    // Another stride than the program's outputs.
    let body = format!("{PROLOGUE}/*0080*/ STG.E desc[UR8][R2.64+0x4], R9 ;\n/*0090*/ EXIT ;\n");
    assert!(mapped(&fixtures::kernel("k", &body), 8).is_empty());
    // The pointer rewritten on one path only (a join of two values).
    let body = format!(
        "{PROLOGUE}/*0080*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n/*0090*/ @P0 BRA `(.L_x_1) ;\n\
         /*00a0*/ IADD3 R2, R2, 0x4, RZ ;\n.L_x_1:\n/*00b0*/ STG.E desc[UR8][R2.64+0x4], R9 ;\n/*00c0*/ EXIT ;\n"
    );
    assert!(mapped(&fixtures::kernel("k", &body), 16).is_empty());
    // A guarded write of the pointer.
    let body = format!(
        "{PROLOGUE}/*0080*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n/*0090*/ @P0 MOV R2, R0 ;\n\
         /*00a0*/ STG.E desc[UR8][R2.64+0x4], R9 ;\n/*00b0*/ EXIT ;\n"
    );
    assert!(mapped(&fixtures::kernel("k", &body), 16).is_empty());
}

#[test]
fn a_pointer_built_through_moves_or_from_the_constant_itself_is_proved() {
    let body = "/*0000*/ S2R R5, SR_TID.X ;\n/*0010*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
        /*0020*/ IMAD.MOV.U32 R6, RZ, RZ, R5 ;\n/*0030*/ IMAD.WIDE.U32 R2, R6, 0x8, c[0x0][0x218] ;\n\
        /*0040*/ MOV R10, R2 ;\n/*0050*/ MOV R11, R3 ;\n/*0060*/ STG.E desc[UR4][R10.64+0x4], R9 ;\n/*0070*/ EXIT ;\n";
    assert_eq!(
        mapped(&fixtures::kernel("k", body), 8),
        [("STG.E desc[UR4][R10.64+0x4], R9".to_string(), vec![4, 5, 6, 7])]
    );
}

#[test]
fn bytes_an_unflagged_store_also_writes_do_not_count() {
    // Which of the two came last is not modelled: byte 4 is also written from defined bits.
    let body = format!(
        "{PROLOGUE}/*0080*/ STG.E.U8 desc[UR8][R2.64+0x4], R0 ;\n/*0090*/ STG.E desc[UR8][R2.64+0x4], R9 ;\n/*00a0*/ EXIT ;\n"
    );
    let got = mapped(&fixtures::kernel("k", &body), 16);
    assert_eq!(got, [("STG.E desc[UR8][R2.64+0x4], R9".to_string(), vec![5, 6, 7])]);
    let all: BTreeSet<u32> = got.into_iter().flat_map(|(_, b)| b).collect();
    assert!(!all.contains(&4));
}

#[test]
fn only_sm_90_has_a_known_output_pointer() {
    assert_eq!(output_pointer(90), Some(0x218));
    assert_eq!(output_pointer(80), None);
}
