//! Tests of [`Unwritten::partly_written`] (`dataflow/partly.rs`) where the arm's write of the
//! lost register computes from that register itself (`@P0 LOP3.LUT R6, R7, R6, …`, `@!P1 SEL
//! R0, R0, RZ, P0`): no bit of it is ever defined under a guard, but the undefined bits the read
//! reads were made there, by a guarded write of the register the if-conversion lost the
//! else-value of (root cause N-5; corpus/findings/fuzz-h200-4203/trace/T12c1.md, "22465283 and
//! e459bfd2"). The traced listings of those two findings, then planted forms that stay out.

use super::fixtures::kernel;
use super::{check_listing, Unwritten};

/// The flagged reads of a kernel with the instruction lines `body`, as `(offset, partly)`.
fn partly(body: &str) -> Vec<(u32, bool)> {
    check_listing(&kernel("k", body)).unwrap().iter().map(|u| (u.offset, u.partly_written)).collect()
}

/// The stored listing `corpus/findings/fuzz-h200-4203/trace/PATH` (instruction lines alone:
/// one kernel around them), checked.
fn traced(path: &str) -> Vec<Unwritten> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200-4203/trace/");
    check_listing(&kernel("k", &std::fs::read_to_string(format!("{dir}{path}")).unwrap())).unwrap()
}

const PROLOGUE: &str = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R3, SR_TID.X ;\n\
    /*0020*/ ULDC.64 UR4, c[0x0][0x208] ;\n/*0030*/ LDC.64 R4, c[0x0][0x218] ;\n\
    /*0040*/ ISETP.GT.U32.AND P0, PT, R3, 0x5, PT ;\n";

/// 22465283 (13.0.88 -O3): `@P0 LOP3.LUT R6, R7, R6, RZ, 0xfc, !PT` (the arm's `or.b16 h1, h2,
/// h1`) is the only write of R6; both halves of the `STS.64` pair are permutes of it.
#[test]
fn t22465283_the_or_in_the_arm_reads_the_lost_register() {
    let found = traced("22465283/orig.130.O3.sass");
    assert_eq!(found.iter().map(|u| (u.offset, u.partly_written)).collect::<Vec<_>>(), [(0x180, true)]);
    let reduced = traced("22465283/reduced.130.O3.sass");
    assert_eq!(reduced.iter().map(|u| (u.offset, u.partly_written)).collect::<Vec<_>>(), [(0x120, true)]);
}

/// e459bfd2 (13.0.88 and 13.5 -O3, the same listing): `@!P1 SEL R0, R0, RZ, P0` (the arm's
/// `@!p4 mov.u16 h0, h1`) is the only write of R0, and `PRMT R7, R0, 0x5410, R0` is stored.
#[test]
fn e459bfd2_the_select_in_the_arm_reads_the_lost_register() {
    for path in ["e459bfd2/orig.130.O3.sass", "e459bfd2/orig.135.O3.sass"] {
        let found = traced(path);
        let got: Vec<_> = found.iter().map(|u| (u.offset, u.partly_written)).collect();
        assert_eq!(got, [(0xb0, true)], "{path}");
    }
    let reduced = traced("e459bfd2/reduced.130.O3.sass");
    assert!(!reduced.is_empty() && reduced.iter().all(|u| u.partly_written), "{reduced:#?}");
}

#[test]
fn a_guarded_write_computing_from_its_own_register_counts_for_a_later_read() {
    // The arm's `@!P0 IADD3 R9, R9, 0x1` then a store of R9 on every lane (83b27374ca2b5deb/v4_add's form).
    let body = format!(
        "{PROLOGUE}/*0050*/ @!P0 IADD3 R9, R9, 0x1, RZ ;\n/*0060*/ STG.E.U16 desc[UR4][R4.64], R9 ;\n\
         /*0070*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, true)]);
}

#[test]
fn an_unguarded_write_from_its_own_register_does_not() {
    // D's and N-6's form: the register nothing writes is merged into itself on every lane.
    let body = format!(
        "{PROLOGUE}/*0050*/ PRMT R8, R3, 0x7610, R8 ;\n/*0060*/ STG.E desc[UR4][R4.64], R8 ;\n/*0070*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, false)]);
    let body = format!(
        "{PROLOGUE}/*0050*/ LOP3.LUT R6, R3, R6, RZ, 0xfc, !PT ;\n/*0060*/ STG.E desc[UR4][R4.64], R6 ;\n\
         /*0070*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, false)]);
}

#[test]
fn a_read_under_the_writes_own_guard_does_not() {
    // The lanes that read are the lanes that wrote: no else-value was lost.
    let body = format!(
        "{PROLOGUE}/*0050*/ @!P0 LOP3.LUT R6, R3, R6, RZ, 0xfc, !PT ;\n\
         /*0060*/ @!P0 STG.E desc[UR4][R4.64], R6 ;\n/*0070*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, false)]);
}

#[test]
fn a_guarded_write_that_reads_another_register_only_does_not() {
    // R6's undefined bits come from R8, which nothing writes; the guarded write is R6's own.
    let body = format!(
        "{PROLOGUE}/*0050*/ @!P0 LOP3.LUT R6, R3, R8, RZ, 0xfc, !PT ;\n\
         /*0060*/ STG.E desc[UR4][R4.64], R6 ;\n/*0070*/ EXIT ;\n"
    );
    assert_eq!(partly(&body), [(0x60, false)]);
}
