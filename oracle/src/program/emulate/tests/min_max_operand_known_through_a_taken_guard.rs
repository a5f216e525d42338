//! Tests of 3702-N1 with K known through a guarded write whose guard ptxas knows true (seed
//! 5002's 50f6d065; `emulate/min_max_operand_known_through_a_taken_guard.rs`, variants in
//! corpus/findings/fuzz-h200-5002/trace/50f6d065/s50/).

use super::*;

const D: Deviation = Deviation::SetpEqOfMinMaxReadsSelection;

/// 50f6d065's body: `mov h1, 0; setp.ge.u16 p1, h1, 0xffff; mov h2, 1137; <write>; <minmax>;
/// <setp>; selp r20, 0xb033a27b, 0, p2; st r20`.
fn body(write: &'static str, minmax: &'static str, setp: &'static str) -> Vec<&'static str> {
    vec![
        "mov.b16 %h1, 0;",
        "setp.ge.u16 %p1, %h1, 0xffff;",
        "mov.b16 %h2, 1137;",
        write,
        minmax,
        setp,
        "mov.b32 %r19, 2956173947;",
        "selp.b32 %r20, %r19, 0x0, %p2;",
        "st.global.u32 [%out], %r20;",
    ]
}

const AND: &str = "@!%p1 and.b16 %h2, %h1, 0xfffe;";
const MAX: &str = "max.u16 %h3, %h2, 0x6e97;";
const EQ0: &str = "setp.eq.u16 %p2, %h3, 0x0;";

/// The stored case: word 0 is 0xb033a27b in every thread (P0 "0x6e97 selected", true), the
/// spec's 0 (max(0, 0x6e97) ≠ 0).
#[test]
fn n1_50f6d065_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5002", "50f6d065f67c646e");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { (0, 0xb033_a27b) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}

/// Wrong (13.0.88 -O3 `VIMNMX.{U16x2,S16x2} R0, P0, P0, R0, RZ; SEL …, !P0`): the case (`v1`),
/// `min.u16` (`v3`: P0 false, the spec true), a guarded `mov` (`v6`), `max.s16` (`v8`).
#[test]
fn n1_a_min_max_of_a_value_known_through_a_taken_guard_is_fused() {
    let w = [0, 0, 0, 0];
    exact_case(&body(AND, MAX, EQ0), w, D, 0, 0xb033_a27b);
    exact_case(&body(AND, "min.u16 %h3, %h2, 0x6e97;", EQ0), w, D, 0xb033_a27b, 0);
    exact_case(&body("@!%p1 mov.b16 %h2, 0;", MAX, EQ0), w, D, 0, 0xb033_a27b);
    exact_case(&body(AND, "max.s16 %h3, %h2, 0x6e97;", EQ0), w, D, 0, 0xb033_a27b);
}

/// Right: the `and` unguarded (`v2`, folded), the guard known false (`v7`, the write dropped and
/// folded), `setp.ne` (`v4`), the setp against the immediate (`v5`: P0 is the spec's test).
#[test]
fn n1_unguarded_skipped_and_other_tests_are_left_alone() {
    let w = [0, 0, 0, 0];
    untouched(&body("and.b16 %h2, %h1, 0xfffe;", MAX, EQ0), w, D);
    untouched(&body("@%p1 and.b16 %h2, %h1, 0xfffe;", MAX, "setp.eq.u16 %p2, %h3, 1137;"), w, D);
    untouched(&body(AND, MAX, "setp.ne.u16 %p2, %h3, 0x0;"), w, D);
    untouched(&body(AND, MAX, "setp.eq.u16 %p2, %h3, 0x6e97;"), w, D);
}
