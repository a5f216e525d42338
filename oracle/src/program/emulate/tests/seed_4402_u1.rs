//! Tests of 3702-N1 widened after seed 4202's trace (corpus/findings/fuzz-h200-4202/trace/
//! T12b2.md, 0320c7c9; helper u1, session 44): the all-constant `min`/`max` that ptxas's local
//! fold leaves (its constant `K` computed in another basic block: a loop's label, a branch, a
//! barrier, a shuffle) is fused with the `setp.eq` into `VIMNMX`, whose predicate reads "the
//! immediate operand selected" (or, of two registers, the second). Variants and 13.0.88 -O3
//! listings: trace/0320c7c9/s44/. Each: the forms ptxas fuses emulated, the ones it folds or
//! fuses right left alone.

use super::*;

const D: Deviation = Deviation::SetpEqOfMinMaxReadsSelection;

/// `head`, then `max`/`min` `op` of `h0`, `setp` `cmp` of `h0`, `selp.b16 h2, h0, 1, p5` stored.
fn with(head: &[&'static str], op: &'static str, cmp: &'static str) -> Vec<&'static str> {
    let mut v = head.to_vec();
    v.extend([op, cmp, "selp.b16 %h2, %h0, 0x1, %p5;", "st.global.b16 [%out], %h2;"]);
    v
}

/// A loop that runs once around the `max` (the reduced case's `@never bra` back to the label).
const LOOP: [&str; 2] = ["mov.b16 %h1, 0;", "$L3:"];
const BACK: [&str; 3] = ["mov.b32 %r6, 7;", "setp.lt.u32 %p3, %r6, 0x7;", "@%p3 bra $L3;"];

/// 0320c7c9 (reduced.ptx): `mov h1, 0; L: max.s16 h0, h1, 9800; @never bra L; setp.eq.u16 h0,
/// 0` is `VIMNMX.S16x2 R0, P0, P0, R0(=0x2648), RZ; SEL R5, R0, 0x1, P0`: P0 is "9800
/// selected", the GPU stores 0x2648 where the spec selects 1. Without the loop (v1_noloop) it
/// folds (right).
#[test]
fn n1_0320c7c9_a_constant_max_behind_a_loop_label_reads_the_selection() {
    let mut lines = LOOP.to_vec();
    lines.push("max.s16 %h0, %h1, 9800;");
    lines.extend(BACK);
    lines.extend(["setp.eq.u16 %p5, %h0, 0x0;", "selp.b16 %h2, %h0, 0x1, %p5;", "st.global.b16 [%out], %h2;"]);
    exact_case(&lines, [0; 4], D, 1, 0x2648);
    let folded = with(&["mov.b16 %h1, 0;"], "max.s16 %h0, %h1, 9800;", "setp.eq.u16 %p5, %h0, 0x0;");
    untouched(&folded, [0; 4], D);
}

/// The boundary may be anywhere between `K`'s producer and the `max` (a barrier: v14; a
/// barrier after the `max` as well: v16), `K` any value ptxas knows (`sub` of a moved 3 and 3:
/// v17), `x` a moved register (v18), `min` (v11) and `.u16` (v12) alike.
#[test]
fn n1_0320c7c9_any_boundary_after_a_known_k_stops_the_fold() {
    let eq0 = "setp.eq.u16 %p5, %h0, 0x0;";
    let bar = ["mov.b16 %h1, 0;", "bar.sync 0;"];
    exact_case(&with(&bar, "max.s16 %h0, %h1, 9800;", eq0), [0; 4], D, 1, 0x2648);
    let glue = ["mov.b16 %h4, 3;", "sub.s16 %h1, %h4, 3;", "bar.sync 0;"];
    exact_case(&with(&glue, "max.s16 %h0, %h1, 9800;", eq0), [0; 4], D, 1, 0x2648);
    let moved_x = ["mov.b16 %h4, 9800;", "mov.b16 %h1, 0;", "bar.sync 0;"];
    exact_case(&with(&moved_x, "max.s16 %h0, %h1, %h4;", eq0), [0; 4], D, 1, 0x2648);
    exact_case(&with(&bar, "max.u16 %h0, %h1, 9800;", eq0), [0; 4], D, 1, 0x2648);
    exact_case(&with(&bar, "min.s16 %h0, %h1, -9800;", eq0), [0; 4], D, 1, 0xd9b8);
    // x a moved register without a boundary is folded (v21).
    untouched(&with(&["mov.b16 %h4, 9800;", "mov.b16 %h1, 0;"], "max.s16 %h0, %h1, %h4;", eq0), [0; 4], D);
}

/// A boundary before `K`'s move leaves the `max` in one block with it: folded (v6 a label, v7 a
/// shuffle, v8 a barrier before the move; right).
#[test]
fn n1_0320c7c9_a_boundary_before_the_move_of_k_is_folded() {
    let eq0 = "setp.eq.u16 %p5, %h0, 0x0;";
    let shfl = ["mov.b32 %r1, 0;", "shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;", "mov.b16 %h1, 0;"];
    untouched(&with(&shfl, "max.s16 %h0, %h1, 9800;", eq0), [0; 4], D);
    untouched(&with(&["bar.sync 0;", "mov.b16 %h1, 0;"], "max.s16 %h0, %h1, 9800;", eq0), [0; 4], D);
}

/// Of an all-constant `max` the `VIMNMX`'s first operand, whose selection P0 reads, is the
/// immediate (v20: `max h1(=9800), 0; setp.eq h0, 9800` is `VIMNMX RZ, 0x2648`, stores 1 where
/// the spec stores 9800), or of two registers the second (v25, v26). When that operand is K
/// (v4, v19, v27) P0 is "K selected", the spec's test: right.
#[test]
fn n1_0320c7c9_the_selection_read_is_of_the_immediate_or_second_operand() {
    let mv = |k: &'static str| ["mov.b16 %h4, 9800;", k, "bar.sync 0;"];
    exact_case(
        &with(&mv("mov.b16 %h1, 9800;"), "max.s16 %h0, %h1, 0;", "setp.eq.u16 %p5, %h0, 9800;"),
        [0; 4],
        D,
        0x2648,
        1,
    );
    let five = mv("mov.b16 %h1, 5;");
    exact_case(&with(&five, "max.s16 %h0, %h1, %h4;", "setp.eq.u16 %p5, %h0, 5;"), [0; 4], D, 1, 0x2648);
    untouched(&with(&five, "max.s16 %h0, %h4, %h1;", "setp.eq.u16 %p5, %h0, 5;"), [0; 4], D);
    untouched(&with(&five, "max.s16 %h0, %h1, 9800;", "setp.eq.u16 %p5, %h0, 9800;"), [0; 4], D);
    untouched(&with(&five, "max.s16 %h0, %h1, %h4;", "setp.eq.u16 %p5, %h0, 9800;"), [0; 4], D);
    untouched(
        &with(&["mov.b16 %h1, 0;", "bar.sync 0;"], "max.s16 %h0, %h1, 9800;", "setp.eq.u16 %p5, %h0, 9800;"),
        [0; 4],
        D,
    );
}
