//! The loaded-descriptor analysis on the listings of seed 4601's createpolicy crash
//! (corpus/findings/fuzz-h200-4601/trace/16e60ff5/, T17t2.md: ptxas 13.0.88 -O3) and its right
//! variants, and on small kernels for guards, overwrites and loops.

use super::*;
use crate::sass::fixtures::{kernel, CREATEPOLICY_O3};
use crate::sass::parse::parse_listing;

const TRACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200-4601/trace/16e60ff5/");

fn reads_of(listing: &str) -> Vec<(u32, String, Vec<String>)> {
    let functions = parse_listing(listing).unwrap();
    let f = functions.iter().find(|f| f.entry).unwrap();
    loaded_descriptor_reads(f).into_iter().map(|r| (r.offset, r.mnemonic, r.registers)).collect()
}

fn trace_listing(name: &str) -> String {
    std::fs::read_to_string(format!("{TRACE}{name}")).unwrap()
}

/// 16e60ff5 at -O3: the dropped fractional policy's hinted load reads UR4:UR5, `R2UR` copies
/// of the `mul.lo.s64` product of two loaded values; the range policy's load before (UR4:UR5
/// from the thread's address) and the hinted store after (its policy computed with
/// `UMOV`/`USHF`/`ULOP3`) are not named.
#[test]
fn the_createpolicy_crash_reads_a_descriptor_of_loaded_data() {
    let reads = reads_of(&trace_listing("orig.130.O3.sass"));
    let names: Vec<(u32, &str)> = reads.iter().map(|(o, m, _)| (*o, m.as_str())).collect();
    assert_eq!(names, [(0x3e0, "LDG.E.EL.S8")], "{reads:?}");
    assert_eq!(reads[0].2, ["UR4", "UR5"]);
    // 13.5.37 gives the same listing (T17t2.md).
    let later = reads_of(&trace_listing("orig.135.O3.sass"));
    assert!(later.iter().any(|(_, m, _)| m == "LDG.E.EL.S8"), "{later:?}");
}

/// The right neighbours: the hinted acquire live, or no dead hinted load — the policy is
/// computed (`UMOV`/`USHF`/`ULOP3`) and nothing is named; the hand reduction's descriptor is never
/// written (the never-written check's finding), so it holds no loaded bits either; nor does a
/// kernel whose descriptor comes from the constant bank.
#[test]
fn computed_policies_and_never_written_descriptors_are_not_loaded_data() {
    for name in ["v1_hinted_acquire_live.130.O3.sass", "v2_no_dead_hinted_load.130.O3.sass", "reduced.130.O3.sass"] {
        assert_eq!(reads_of(&trace_listing(name)), [], "{name}");
    }
    assert_eq!(reads_of(&kernel("k", CREATEPOLICY_O3)), []);
}

/// A guarded write adds loaded bits and removes none; an unguarded one of other bits clears;
/// bits loaded in a loop reach the loop's head.
#[test]
fn guards_overwrites_and_loops() {
    let k = |body: &str| reads_of(&kernel("k", body));
    let load = "/*0000*/ LDG.E R2, desc[UR6][R4.64] ;\n";
    // Copied unguarded from loaded data: named.
    let copied =
        "/*0010*/ R2UR UR4, R2 ;\n/*0020*/ R2UR UR5, R3 ;\n/*0030*/ LDG.E R8, desc[UR4][R4.64] ;\n/*0040*/ EXIT ;\n";
    assert_eq!(k(&format!("{load}{copied}")), [(0x30, "LDG.E".into(), vec!["UR4".into()])]);
    // Overwritten by a constant before the copy: not named; under a guard: named (some lanes).
    let over = "/*0008*/ MOV R2, 0x10 ;\n";
    assert_eq!(k(&format!("{load}{over}{copied}")), []);
    let guarded = "/*0008*/ @P0 MOV R2, 0x10 ;\n";
    assert_eq!(k(&format!("{load}{guarded}{copied}")).len(), 1);
    // A spill reload (LDL) and a constant-bank load hold no loaded bits.
    let spill = "/*0000*/ LDL R2, [R1] ;\n/*0004*/ ULDC.64 UR6, c[0x0][0x208] ;\n";
    assert_eq!(k(&format!("{spill}{copied}")), []);
    // Loaded at the end of a loop's body, copied at its head: named.
    let looped = "/*0000*/ MOV R2, RZ ;\n.L_x_0:\n/*0010*/ R2UR UR4, R2 ;\n/*0020*/ LDG.E R8, desc[UR4][R4.64] ;\n\
        /*0030*/ LDG.E R2, desc[UR6][R4.64] ;\n/*0040*/ @P0 BRA `(.L_x_0) ;\n/*0050*/ EXIT ;\n";
    assert_eq!(k(looped), [(0x20, "LDG.E".into(), vec!["UR4".into()])]);
}
