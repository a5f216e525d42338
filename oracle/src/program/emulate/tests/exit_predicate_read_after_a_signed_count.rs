//! Tests of 3604-N3 with the exit predicate read after the loop (seed 5002's 91b8cb66;
//! `emulate/exit_predicate_read_after_a_signed_count.rs`, variants in
//! corpus/findings/fuzz-h200-5002/trace/91b8cb66/s50/).

use super::*;

const D: Deviation = Deviation::UnsignedLoopExitTestCountedSigned;

/// `mov r3, start; L: <step>; <test>; @p0 bra L; <after…>`.
fn looped(start: &'static str, step: &'static str, test: &'static str, after: &[&'static str]) -> Vec<&'static str> {
    let mut v = vec!["mov.b32 %r2, 2717964800;", start, "$L0:", step, test, "@%p0 bra $L0;"];
    v.extend_from_slice(after);
    v
}

const GUARDED_ST: &[&str] = &["@%p0 st.global.u32 [%out+4], %r2;"];
const SELP: &[&str] =
    &["mov.b32 %r7, 7;", "mov.b32 %r9, 9;", "selp.b32 %r4, %r7, %r9, %p0;", "st.global.u32 [%out+4], %r4;"];

/// The stored case: word 1 is 0xa200da00 (r2 stored under p0) in every thread, the spec's 0.
#[test]
fn n3_91b8cb66_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5002", "91b8cb6623c18a80");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { 0xa200_da00 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Wrong (13.0.88 -O3: one trip, p0 the unsigned test of the last counter): the case (`v1`), a
/// `selp` of p0 (`v2`), a step `add 0x90000000` (`v6`), five spec trips (`v7`: selp 7 and the
/// counter 0xd0000000 where the spec has 9 and 0x10000000).
#[test]
fn n3_the_exit_predicate_after_the_loop_is_the_unsigned_test_of_the_last_counter() {
    let w = [0, 0, 0, 0];
    let (start, sub, gt) = ("mov.b32 %r3, 0;", "sub.u32 %r3, %r3, 0x80000000;", "setp.gt.u32 %p0, %r3, 0x40;");
    exact_case(&looped(start, sub, gt, GUARDED_ST), w, D, 0, 0xa200_da00_0000_0000);
    exact_case(&looped(start, sub, gt, SELP), w, D, 9 << 32, 7 << 32);
    exact_case(&looped(start, "add.u32 %r3, %r3, 0x90000000;", gt, GUARDED_ST), w, D, 0, 0xa200_da00_0000_0000);
    let five = [
        "mov.b32 %r7, 7;",
        "mov.b32 %r9, 9;",
        "selp.b32 %r4, %r7, %r9, %p0;",
        "st.global.u32 [%out+4], %r4;",
        "st.global.u32 [%out], %r3;",
    ];
    let five = looped(start, "sub.u32 %r3, %r3, 0x30000000;", "setp.gt.u32 %p0, %r3, 0x20000000;", &five);
    exact_case(&five, w, D, (9 << 32) | 0x1000_0000, (7 << 32) | 0xd000_0000);
}

/// Right: a `.s32` exit test (`v4`), a count both readings agree on (`v5`).
#[test]
fn n3_signed_tests_and_agreeing_counts_are_left_alone() {
    let w = [0, 0, 0, 0];
    untouched(
        &looped("mov.b32 %r3, 0;", "sub.u32 %r3, %r3, 0x80000000;", "setp.gt.s32 %p0, %r3, 0x40;", GUARDED_ST),
        w,
        D,
    );
    untouched(
        &looped(
            "mov.b32 %r3, 0x7fffff00;",
            "add.u32 %r3, %r3, 0x40000000;",
            "setp.lt.u32 %p0, %r3, 0x7fffffff;",
            GUARDED_ST,
        ),
        w,
        D,
    );
}
