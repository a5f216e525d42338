//! Tests of [`Unwritten::partly_written`] (`dataflow/partly.rs`): bits an arm or a guarded write
//! made and the read's lanes lack are partly written; bits nothing writes are not. Planted
//! listings, then the traced ptxas 13.0.88 -O3 listings of corpus/findings/: root cause N-5
//! (an if-conversion losing the else-value) against D, N-6 and the check's own false alarm.

use super::fixtures::kernel;
use super::{check_listing, Unwritten};

/// The flagged reads of a kernel with the instruction lines `body`, as `(offset, partly)`.
fn partly(body: &str) -> Vec<(u32, bool)> {
    check_listing(&kernel("k", body)).unwrap().iter().map(|u| (u.offset, u.partly_written)).collect()
}

/// A traced listing of `corpus/findings/CAMPAIGN/trace/PATH` (instruction lines alone: one
/// kernel around them), checked.
fn traced(campaign: &str, path: &str) -> Vec<Unwritten> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/");
    let text = std::fs::read_to_string(format!("{dir}{campaign}/trace/{path}")).unwrap();
    let text = if text.contains(".section") { text } else { kernel("k", &text) };
    check_listing(&text).unwrap()
}

const PROLOGUE: &str = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R3, SR_TID.X ;\n\
    /*0020*/ ULDC.64 UR4, c[0x0][0x208] ;\n/*0030*/ LDC.64 R4, c[0x0][0x218] ;\n\
    /*0040*/ ISETP.GT.U32.AND P0, PT, R3, 0x5, PT ;\n";

#[test]
fn bits_written_only_under_a_guard_are_partly_written() {
    // N-5's arm: R0's low half is R3's upper half where !P0, nothing elsewhere.
    let body = format!(
        "{PROLOGUE}/*0050*/ @!P0 PRMT R0, R3, 0x7632, R0 ;\n/*0060*/ STG.E.U16 desc[UR4][R4.64], R0 ;\n\
         /*0070*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, true)]);
    // Through an origin: the permute that reads R0's low half is what the store's bits come from.
    let body = format!(
        "{PROLOGUE}/*0050*/ @!P0 PRMT R0, R3, 0x7632, R0 ;\n/*0060*/ PRMT R7, RZ, 0x5410, R0 ;\n\
         /*0070*/ STG.E desc[UR4][R4.64], R7 ;\n/*0080*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x70, true)]);
}

#[test]
fn bits_written_in_a_branch_arm_are_partly_written() {
    let body = format!(
        "{PROLOGUE}/*0050*/ @P0 BRA `(.L_x_1) ;\n/*0060*/ MOV R0, R3 ;\n.L_x_1:\n\
         /*0070*/ STG.E desc[UR4][R4.64], R0 ;\n/*0080*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x70, true)]);
}

#[test]
fn a_guarded_write_after_the_read_counts() {
    // 8d490639's form: the pack word reads R0's low half before the only (guarded) write of R0.
    let body = format!(
        "{PROLOGUE}/*0050*/ PRMT R7, RZ, 0x5410, R0 ;\n/*0060*/ STG.E desc[UR4][R4.64], R7 ;\n\
         /*0070*/ @P0 PRMT R0, RZ, 0x7610, R0 ;\n/*0080*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, true)]);
}

#[test]
fn bits_never_written_are_not_partly_written() {
    // A register nothing writes, read directly and through a permute (D's and N-6's form: the
    // upper half of `PRMT R8, R3, 0x7610, R8` is never written).
    let body = format!(
        "{PROLOGUE}/*0050*/ STG.E desc[UR4][R4.64], R0 ;\n/*0060*/ PRMT R8, R3, 0x7610, R8 ;\n\
         /*0070*/ STG.E desc[UR4][R4.64+0x4], R8 ;\n/*0080*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x50, false), (0x70, false)]);
    // The reading instruction's own guarded write is not the value it reads.
    let body = format!("{PROLOGUE}/*0050*/ @!P0 IADD3 R9, R9, 0x1, RZ ;\n/*0060*/ @!P0 STG.E desc[UR4][R4.64], R9 ;\n");
    assert_eq!(partly(&body), [(0x60, false)]);
    // Nor bits written under the read's own guard before it (the walk lost that guard when P0
    // was written again, not the compiler: 2c543d4e's form).
    let body = format!(
        "{PROLOGUE}/*0050*/ @!P0 LDG.E R9, desc[UR4][R4.64] ;\n/*0060*/ SHFL.BFLY P0, R6, R3, RZ, R3 ;\n\
         /*0070*/ ISETP.GT.U32.AND P0, PT, R3, 0x5, PT ;\n/*0080*/ @!P0 STG.E desc[UR4][R4.64], R9 ;\n"
    );
    assert!(partly(&body).iter().all(|&(_, p)| !p), "{:?}", partly(&body));
}

#[test]
fn the_traced_n5_reads_are_partly_written() {
    for (campaign, path) in [
        ("fuzz-h200-4003", "8d490639/orig.130.O3.sass"),
        ("fuzz-h200-4003", "25ba51f3/orig.130.O3.sass"),
        ("fuzz-h200-4003", "9fc1b1dc/orig.130.O3.sass"),
        ("fuzz-h200-4003", "f3e83ec2/orig.130.O3.sass"),
        ("fuzz-h200-4002", "83b27374/orig.130.O3.sass"),
        ("fuzz-h200-4002", "b97eda93/orig.130.O3.sass"),
        ("fuzz-h200-3903", "387dd709/orig.130.O3.sass"),
        ("fuzz-h200-3903", "5a91f5fc/orig.130.O3.sass"),
        ("fuzz-h200-3802", "387dd709/orig.130.O3.sass"),
        ("fuzz-h200-3601", "75b062aa6fb392b6/reduced47.130.O3.sass"),
    ] {
        let found = traced(campaign, path);
        assert!(!found.is_empty() && found.iter().all(|u| u.partly_written), "{campaign} {path}: {found:#?}");
    }
}

#[test]
fn the_traced_reads_of_never_written_registers_are_not() {
    for (campaign, path) in [
        // D: the tf32 conversion of a never-written half.
        ("fuzz-h200-3701", "5a4b88eb101f7b83/orig.130.O3.sass"),
        ("fuzz-h200-3901", "9f78d433/orig.130.O3.sass"),
        // N-6: `UPRMT` of a never-written uniform register.
        ("fuzz-h200-4003", "e6bab329/orig.130.O3.sass"),
        ("fuzz-h200-3601", "f3e83ec295c2d2db/reduced.130.O3.sass"),
        // O: a shift by a never-written register; the guard of a hoisted load; a CCTL's guard.
        ("fuzz-h200-3902", "f860a7e5/reduced.130.O3.sass"),
        ("fuzz-h200-3902", "11dec73a/orig.130.O3.sass"),
        ("fuzz-h200-4001", "0a8e4978/orig.130.O3.sass"),
        // The check's false alarm of a guard recomputed after it was clobbered.
        ("fuzz-h200-4003", "2c543d4e/orig.130.O3.sass"),
    ] {
        let found = traced(campaign, path);
        assert!(found.iter().all(|u| !u.partly_written), "{campaign} {path}: {found:#?}");
    }
    // 11dec73a's variant whose `LOP3.LUT` is gone: P3, which it should have written, is read by
    // a compare chain that writes it under !P0 itself: a predicate, not partly written.
    let v2 = traced("fuzz-h200-3902", "11dec73a/v2_no_redefine.130.O3.sass");
    assert!(v2.iter().all(|u| !u.partly_written), "{v2:#?}");
}
