//! Tests of [`super`] (`sass/dataflow.rs`) on the listings of the seed-3802 H200 campaign's
//! crash b22ec791 (corpus/findings/fuzz-h200-3802/trace/T5C.md, trace/b22ec791/: root cause K,
//! the global descriptor never loaded): what the check flags there, and why not the `R2UR`s.

use super::tests::flagged;

/// The stored ptxas 13.0.88 listing `name` of b22ec791's kernel, with its labels
/// (`w6_orig.130.O*.labelled.sass`: the tracer's `orig.*.sass` leave the labels out, so their
/// branches go nowhere).
fn listing(name: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200-3802/trace/b22ec791/");
    std::fs::read_to_string(format!("{dir}{name}")).unwrap()
}

/// -O3 (the level the campaign checks) never loads c[0x0][0x208]: the first `LDG` reads UR4/UR5
/// never written, and the `STG` after the branch reads them never written on the path that skips
/// the arm. The arm's `R2UR UR4, R0; R2UR UR5, R1` copy registers that are written (the masked
/// load, the stack pointer) but hold data: no unwritten read, the fault is K's, not the check's.
/// -O0 (the crashing kernel, not checked by the campaign): `R2UR UR4, R8; R2UR UR5, R9` of R8/R9
/// never written are copies the check follows to their reader, so each `LDG`/`STG` is flagged as
/// reading the descriptor, not the `R2UR` (one finding per use, not per copy).
#[test]
fn b22ec791_k_flags_the_loads_and_store_whose_descriptor_is_never_written() {
    assert_eq!(flagged(&listing("w6_orig.130.O3.labelled.sass")), ["0050: UR4 UR5", "01d0: UR4 UR5"]);
    assert_eq!(
        flagged(&listing("w6_orig.130.O0.labelled.sass")),
        ["0250: UR4 UR5", "02e0: UR4 UR5", "0460: UR5", "06e0: UR5"]
    );
}
