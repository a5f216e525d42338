//! Tests of [`Unwritten::carry_in`] and its input class [`NEVER_WRITTEN_CARRY`]: an `.X`
//! instruction reading a carry-in predicate nothing writes (ptxas 13.0.88 -O3 deleted the
//! carry's producer: seed 4702's dcfbdafd, `LEA.X R0, R0, 0xffffffff, 0x1, P0`; 35a05e88's
//! `IMAD.X … P0`), and the reads that are not: a never-written general register of an `IMAD.X`,
//! a predicate read as a condition (`SEL`) or a guard, a carry made from undefined bits.

use super::fixtures::kernel;
use super::{check_listing, Unwritten, NEVER_WRITTEN_CARRY, PARTLY_WRITTEN};

/// The flagged reads of the stored listing `corpus/findings/PATH`.
fn traced(path: &str) -> Vec<Unwritten> {
    let text = std::fs::read_to_string(format!("{}/../corpus/findings/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let text = if text.contains("STO_CUDA_ENTRY") { text } else { kernel("k", &text) };
    check_listing(&text).unwrap()
}

/// Each flagged read's key and input class.
fn classes(reads: &[Unwritten]) -> Vec<(String, &'static str)> {
    reads.iter().map(|u| (u.key(), u.input_class())).collect()
}

/// The listing of 25ad2263's reduction (dcfbdafd's program) with `consumer` at /*0070*/ and
/// `before` at /*0058*/.
fn frame(before: &str, consumer: &str) -> String {
    kernel(
        "k",
        &format!(
            "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R5, SR_TID.X ;\n/*0020*/ LDC.64 R2, c[0x0][0x218] ;\n\
             /*0030*/ USEL UR4, URZ, 0xffffffff, UPT ;\n/*0040*/ HFMA2.MMA R0, -RZ, RZ, -1.6629695892333984375e-05, 6.1875 ;\n\
             /*0050*/ ULDC.64 UR4, c[0x0][0x208] ;\n/*0058*/ {before} ;\n/*0060*/ IMAD.WIDE.U32 R2, R5, 0x8, R2 ;\n/*0070*/ {consumer} ;\n\
             /*0080*/ STG.E desc[UR4][R2.64+0x4], R5 ;\n/*0090*/ EXIT ;\n"
        ),
    )
}

#[test]
fn the_traced_carry_consumers_read_a_never_written_carry() {
    let carry = |key: &str| vec![(key.to_string(), NEVER_WRITTEN_CARRY)];
    for path in ["dcfbdafd/orig.130.O3.sass", "dcfbdafd/reduced.130.O3.sass", "25ad2263/v4_one_link.130.O3.sass"] {
        assert_eq!(classes(&traced(&format!("fuzz-h200-4702/trace/{path}"))), carry("LEA.X source"), "{path}");
    }
    let imad = traced("fuzz-h200-4702/trace/25ad2263/v10_mul_for_shl.130.O3.sass");
    assert_eq!(classes(&imad), carry("IMAD.X source"));
    assert!(imad[0].carry_in && imad[0].registers == ["P0"], "{imad:?}");
    let chain = traced("fuzz-h200-4702/trace/25ad2263/v6_add_chain.130.O3.sass");
    assert_eq!(classes(&chain), carry("IMAD.U32.X source"));
    let v8 = traced("fuzz-h200-4702/trace/dcfbdafd/s48/35a05e88_v8_carryin.130.O3.sass");
    assert_eq!(classes(&v8), carry("IMAD.X source"));
    // The producer kept (the carry not constant, no dead load): nothing flagged.
    for path in [
        "25ad2263/v3_loaded_r0.130.O3.sass",
        "25ad2263/v7_no_dead_load.130.O3.sass",
        "25ad2263/v11_first_link_no_borrow.130.O3.sass",
        "dcfbdafd/s48/35a05e88_v3_unknown.130.O3.sass",
        "dcfbdafd/s48/v1_shr_hi.130.O3.sass",
    ] {
        assert_eq!(classes(&traced(&format!("fuzz-h200-4702/trace/{path}"))), [], "{path}");
    }
}

#[test]
fn only_carry_in_predicates_nothing_writes_are_never_written_carries() {
    let lea = "LEA.X R5, R0, 0xffffffff, 0x1, P0";
    assert_eq!(classes(&check_listing(&frame("NOP", lea)).unwrap()), [("LEA.X source".into(), NEVER_WRITTEN_CARRY)]);
    // The producer kept: P0 written.
    assert_eq!(classes(&check_listing(&frame("IADD3 RZ, P0, RZ, -R0, RZ", lea)).unwrap()), []);
    // A general register of the consumer never written too (R7): the multiply carries its
    // undefined bits to the store (a finding of its own, shaped by its origin), the carry-in is
    // still read never written.
    let shaped = |reads: &[Unwritten]| -> Vec<(String, String, &'static str)> {
        reads.iter().map(|u| (u.key(), u.shape(), u.input_class())).collect()
    };
    let both = check_listing(&frame("NOP", "IMAD.X R5, R0, R7, RZ, P0")).unwrap();
    assert_eq!(
        shaped(&both),
        [
            ("IMAD.X source".into(), String::new(), NEVER_WRITTEN_CARRY),
            ("STG.E source".into(), "IMAD.X → STG.E".into(), "")
        ]
    );
    // Only the general register never written: no carry read.
    let gpr = check_listing(&frame("IADD3 RZ, P0, RZ, -R0, RZ", "IMAD.X R5, R0, R7, RZ, P0")).unwrap();
    assert_eq!(shaped(&gpr), [("STG.E source".into(), "IMAD.X → STG.E".into(), "")]);
    // A predicate read as a condition or a guard: no extended-precision add.
    assert_eq!(classes(&check_listing(&frame("NOP", "SEL R5, R0, RZ, P0")).unwrap()), [("SEL source".into(), "")]);
    let guarded = check_listing(&frame("NOP", "@P0 IADD3.X R5, R0, 0x1, RZ, P1, !PT")).unwrap();
    assert_eq!(classes(&guarded), [("IADD3.X guard+source".into(), "")]);
    // A carry made from undefined bits (R7 never written): origin IADD3, not a carry of its own.
    let made = check_listing(&frame("IADD3 RZ, P0, RZ, R7, RZ", lea)).unwrap();
    assert!(made.iter().all(|u| !u.carry_in && u.input_class() != NEVER_WRITTEN_CARRY), "{made:?}");
    // A later read of the same predicate is keyed by the carry read, and takes its class.
    let later = check_listing(&frame("NOP", &format!("{lea} ;\n/*0074*/ @P0 CCTL.IVALL"))).unwrap();
    let carry = ("LEA.X source".to_string(), NEVER_WRITTEN_CARRY);
    assert_eq!(classes(&later), [carry.clone(), carry]);
    assert_ne!(NEVER_WRITTEN_CARRY, PARTLY_WRITTEN);
}
