//! Tests of [`super`] (`sass/dataflow.rs`): a guarded instruction that overwrites its own guard
//! predicate (`@!P1 IADD3 R0, P1, R2, UR6, RZ`, the carry-out into the guard) writes R0 where
//! the guard held before it — the guard is read before the predicate is written — and that
//! write combines with a write under the complementary guard. The seed-4403 H200 campaign's
//! false alarm 6c3ac39e (corpus/findings/fuzz-h200-4403/trace/T15t4.md, trace/6c3ac39e/).

use super::tests::flagged;

/// The stored ptxas 13.0.88 listing `name` of 6c3ac39e's kernel.
fn listing(name: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200-4403/trace/6c3ac39e/");
    std::fs::read_to_string(format!("{dir}{name}")).unwrap()
}

/// -O3 if-converts both arms on the uniform UP0 and copies it into P0–P6 (`PLOP3.LUT Px, PT,
/// PT, PT, UP0, 0x80, 0x0`). `@!P1 IADD3 R0, P1, …` (/*0190*/) writes R0 on the lanes of !UP0,
/// `@P0 IADD3 R8, P0, …` (/*01e0*/) writes R8 on those of UP0, each carry-out into its own
/// guard; `@P1 IMAD.MOV.U32 R0, RZ, RZ, R8` (/*0220*/, P1 copied from UP0 again at /*01d0*/)
/// writes R0 on the other lanes. Every register the `STG.E.U8` (and the `STG.E.64` of the
/// `st.b64` variant) reads is written on every lane: clean.
#[test]
fn f6c3ac39e_carries_into_their_own_guards_leave_the_values_written() {
    let none = Vec::<String>::new();
    assert_eq!(flagged(&listing("orig.130.O3.sass")), none);
    assert_eq!(flagged(&listing("v3_st_b64.130.O3.sass")), none);
    // Without the write of the UP0 lanes, R0 is never written there: flagged at the store.
    let lost =
        listing("orig.130.O3.sass").replace("@P1 IMAD.MOV.U32 R0, RZ, RZ, R8", "@P1 IMAD.MOV.U32 R9, RZ, RZ, R8");
    assert_eq!(flagged(&lost), ["0280: R5"]);
}

/// The pattern by hand: P1 a copy of P0, `@!P1 IADD3 R0, P1, …` with the carry into its guard,
/// P1 copied from P0 again, `@P1 MOV R0` on the other lanes.
const HAND: &str = "/*0000*/ S2R R2, SR_TID.X ;\n/*0010*/ ISETP.NE.AND P0, PT, R2, RZ, PT ;\n\
    /*0020*/ PLOP3.LUT P1, PT, PT, PT, P0, 0x80, 0x0 ;\n/*0030*/ @!P1 IADD3 R0, P1, R2, 0x1, RZ ;\n\
    /*0040*/ PLOP3.LUT P1, PT, PT, PT, P0, 0x80, 0x0 ;\n/*0050*/ @P1 MOV R0, R2 ;\n\
    /*0060*/ STS [RZ], R0 ;\n/*0070*/ EXIT ;\n";

#[test]
fn a_write_under_a_guard_it_overwrites_combines_with_the_complementary_write() {
    let none = Vec::<String>::new();
    assert_eq!(flagged(HAND), none);
    // Without the restore of P1: where the old P1 held, the add left P1 true, so `@P1 MOV`
    // writes R0 there; where it did not, the add wrote R0. Written on every lane.
    let no_restore = HAND.replace("/*0040*/ PLOP3.LUT P1, PT, PT, PT, P0, 0x80, 0x0 ;\n", "");
    assert_eq!(flagged(&no_restore), none);
    // The carry into an unused predicate: clean before the change too.
    assert_eq!(flagged(&HAND.replace("IADD3 R0, P1,", "IADD3 R0, P2,")), none);
}

#[test]
fn a_write_under_a_guard_it_overwrites_alone_is_not_a_write_everywhere() {
    // The other guard's write missing: R0 is never written where P0 holds.
    let missing = HAND.replace("/*0050*/ @P1 MOV R0, R2 ;\n", "");
    assert_eq!(flagged(&missing), ["0060: R0"]);
    // The second write under the same guard as the first: still not where P0 holds.
    assert_eq!(flagged(&HAND.replace("@P1 MOV R0, R2", "@!P1 MOV R0, R2")), ["0060: R0"]);
    // Restored from the other literal: the same lanes as the add's, so not everywhere.
    assert_eq!(
        flagged(&HAND.replace("/*0040*/ PLOP3.LUT P1, PT, PT, PT, P0,", "/*0040*/ PLOP3.LUT P1, PT, PT, PT, !P0,")),
        ["0060: R0"]
    );
    // No restore, and the second write under the new !P1: where the old P1 held, the new P1
    // holds too and nothing wrote R0.
    let no_restore = HAND.replace("/*0040*/ PLOP3.LUT P1, PT, PT, PT, P0, 0x80, 0x0 ;\n", "");
    assert_eq!(flagged(&no_restore.replace("@P1 MOV R0, R2", "@!P1 MOV R0, R2")), ["0060: R0"]);
    // Both writes under guards they overwrite, on the same side: flagged.
    let twice = "/*0000*/ S2R R2, SR_TID.X ;\n/*0010*/ ISETP.NE.AND P0, PT, R2, RZ, PT ;\n\
        /*0020*/ PLOP3.LUT P1, PT, PT, PT, P0, 0x80, 0x0 ;\n/*0030*/ @!P1 IADD3 R0, P1, R2, 0x1, RZ ;\n\
        /*0040*/ PLOP3.LUT P1, PT, PT, PT, P0, 0x80, 0x0 ;\n/*0050*/ @!P1 IADD3 R0, P1, R2, 0x2, RZ ;\n\
        /*0060*/ STS [RZ], R0 ;\n/*0070*/ EXIT ;\n";
    assert_eq!(flagged(twice), ["0060: R0"]);
    assert_eq!(flagged(&twice.replace("/*0050*/ @!P1", "/*0050*/ @P1")), Vec::<String>::new());
}
