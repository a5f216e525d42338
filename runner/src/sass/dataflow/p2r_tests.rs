//! Tests of [`super::saved`] from the seed-3903 H200 campaign's false alarms 550d3ab7, a1eecf57
//! and fe60b08f (corpus/findings/fuzz-h200-3903/trace/T6G.md): a load's guard saved with `P2R`,
//! its predicate reused as a carry, then restored with `ISETP.NE.AND … RZ`; the restored guard
//! reads the loaded register only where the load wrote it.

use super::tests::flagged;

/// The reduced shape of 550d3ab7's listing (ptxas 13.0.88 -O3, orig.130.O3.sass 0x0290–0x04b0):
/// `save` saves a predicate into R16, `between` runs after P5 is reused as a carry, `restore`
/// restores P5 and `read` reads the register loaded under the old P5.
fn listing(save: &str, between: &str, restore: &str, read: &str) -> Vec<String> {
    flagged(&format!(
        "/*0000*/ LDC.64 R2, c[0x0][0x210] ;\n/*0010*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
         /*0020*/ LDG.E.U16 R5, desc[UR4][R2.64] ;\n/*0030*/ LDG.E R14, desc[UR4][R2.64+0x8] ;\n\
         /*0040*/ PRMT R7, R5, 0x9910, RZ ;\n/*0050*/ ISETP.NE.AND P5, PT, R7, -0x8000, PT ;\n\
         /*0058*/ ISETP.NE.AND P4, PT, R14, RZ, PT ;\n\
         /*0060*/ @P5 LDG.E.64 R18, desc[UR4][R2.64+0x10] ;\n/*0070*/ {save} ;\n\
         /*0080*/ IADD3 R6, P5, P6, R14, R14, R14 ;\n/*0090*/ IADD3.X R4, R14, R14, R14, P5, P6 ;\n\
         {between}/*00a0*/ {restore} ;\n/*00b0*/ {read} ;\n\
         /*00c0*/ STG.E.64 desc[UR4][R2.64], R4 ;\n/*00d0*/ EXIT ;\n"
    ))
}

const SAVE: &str = "P2R R16, PR, RZ, 0x20";
const RESTORE: &str = "ISETP.NE.AND P5, PT, R16, RZ, PT";
const READ: &str = "@P5 PRMT R5, R18, 0x7610, R5";

/// The listing's own save and restore: clean; the `.EQ` form restores the complement, read
/// under `@!P5`.
#[test]
fn a_predicate_restored_from_its_p2r_save_keeps_what_was_written_under_it() {
    let none = Vec::<String>::new();
    assert_eq!(listing(SAVE, "", RESTORE, READ), none);
    assert_eq!(listing(SAVE, "", "ISETP.NE.U32.AND P5, PT, R16, RZ, PT", READ), none);
    assert_eq!(listing(SAVE, "", "ISETP.EQ.AND P5, PT, R16, RZ, PT", "@!P5 PRMT R5, R18, 0x7610, R5"), none);
    // Restored into another predicate: it is the saved P5 all the same.
    assert_eq!(listing(SAVE, "", "ISETP.NE.AND P3, PT, R16, RZ, PT", "@P3 PRMT R5, R18, 0x7610, R5"), none);
}

/// Planted variants that must stay flagged: the carry's P5 itself, a save of another bit
/// (P4), of two bits, R16 changed between save and restore, the `.EQ` restore read under the
/// wrong polarity, a guarded save.
#[test]
fn a_restore_that_is_not_the_saved_predicate_is_still_flagged() {
    // The `PRMT` carries R18's undefined bytes into R5; the store of R5 reads them.
    let flags = ["00c0: R5"];
    assert_eq!(listing(SAVE, "", "NOP", READ), flags, "P5 is the carry, not the load's guard");
    assert_eq!(listing("P2R R16, PR, RZ, 0x10", "", RESTORE, READ), flags, "P4 saved, not P5");
    assert_eq!(listing("P2R R16, PR, RZ, 0x30", "", RESTORE, READ), flags, "P4 or P5");
    assert_eq!(listing(SAVE, "/*0098*/ IADD3 R16, R16, 0x1, RZ ;\n", RESTORE, READ), flags, "R16 changed");
    assert_eq!(listing(SAVE, "/*0098*/ @P4 MOV R16, R14 ;\n", RESTORE, READ), flags, "R16 changed on some lanes");
    assert_eq!(listing(SAVE, "", "ISETP.EQ.AND P5, PT, R16, RZ, PT", READ), flags, "the complement");
    // Saved on the lanes of P4 only: R16 is never written elsewhere, so the restored P5 is
    // undefined there too.
    assert_eq!(listing("@P4 P2R R16, PR, RZ, 0x20", "", RESTORE, READ), ["00b0: P5", "00c0: R5"]);
}

/// The three stored -O3 listings of the false alarms (13.0.88 and 13.5 alike) are clean; their
/// -O0 listings were clean already.
#[test]
fn the_seed_3903_p2r_listings_are_clean() {
    for id in ["550d3ab7", "a1eecf57", "fe60b08f"] {
        for name in ["orig.130.O3.sass", "orig.135.O3.sass", "orig.130.O0.sass", "orig.135.O0.sass"] {
            let path = format!("{}/../corpus/findings/fuzz-h200-3903/trace/{id}/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let body: String =
                text.lines().filter(|l| l.trim_start().starts_with("/*")).map(|l| format!("{l}\n")).collect();
            assert_eq!(flagged(&body), Vec::<String>::new(), "{id}/{name}");
        }
    }
}
