//! Tests of 3702-N2's no-outer-xor merge where the `lop3`'s `c` repeats its `a` through an
//! identity with a folded 0, straight or over a loop's back edge (seed 5403's 6cd4a975,
//! corpus/findings/fuzz-h200-5403/trace/T54S.md, variants in trace/6cd4a975/s54/ and s55/;
//! `emulate/lop3_c_repeating_a_through_a_zero_identity.rs`).

use super::*;

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// 6cd4a975's loaded word.
const X: u32 = 0xa8aa_0af0;

/// s54/v10: x loaded, `r` = `first` (lines writing `%r2`), `identity` (`%r2` := identity of it
/// and x), `lop3 r, x, 0, r, 0xea`, `xor r, r, x`, stored.
fn straight(first: &'static str, identity: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r5, [%in];",
        first,
        identity,
        "lop3.b32 %r2, %r5, 0x0, %r2, 0xea;",
        "xor.b32 %r2, %r2, %r5;",
        "st.global.u32 [%out], %r2;",
    ]
}

/// 6cd4a975's loop of `trips` trips (`xor r, r, x; lop3 r, x, 0, r, 0xea`) from `first`.
fn looped(first: &'static str, bound: &'static str) -> Vec<&'static str> {
    vec![
        first,
        "mov.u32 %r4, 0;",
        "$L2:",
        "ld.global.u32 %r5, [%in];",
        "xor.b32 %r2, %r2, %r5;",
        "lop3.b32 %r2, %r5, 0x0, %r2, 0xea;",
        "add.u32 %r4, %r4, 0x3;",
        bound,
        "@%p5 bra $L2;",
        "st.global.u32 [%out], %r2;",
    ]
}

const MOVED0: &str = "mov.b32 %r2, 0;";
const XOR: &str = "xor.b32 %r2, %r2, %r5;";

/// Wrong (13.0.88 -O3 `LOP3.LUT R7, R2, RZ, RZ, 0x1c` = x, the spec 0): s54/v10, an `or` or
/// `add.u32` in place of the first xor (s55/e2, e3), the immediate 0 (e4); and with an outer xor.
#[test]
fn n2_3702_6cd4a975_an_identity_with_a_folded_zero_repeats_a() {
    let w = [X, 0, 0, 0];
    exact_case(&straight(MOVED0, XOR), w, D, 0, u64::from(X));
    exact_case(&straight(MOVED0, "or.b32 %r2, %r2, %r5;"), w, D, 0, u64::from(X));
    exact_case(&straight(MOVED0, "add.u32 %r2, %r2, %r5;"), w, D, 0, u64::from(X));
    exact_case(&straight("mov.b32 %r9, 0;", "xor.b32 %r2, %r5, 0;"), w, D, 0, u64::from(X));
    // With an outer xor of a loaded y (s55/e9: `LOP3.LUT R7, y, x, RZ, 0xc4` = x, the spec y).
    let outer = [
        "ld.global.u32 %r5, [%in];",
        MOVED0,
        XOR,
        "lop3.b32 %r3, %r5, 0x0, %r2, 0xea;",
        "xor.b32 %r4, %r3, %r5;",
        "ld.global.u32 %r6, [%in+4];",
        "xor.b32 %r7, %r6, %r4;",
        "st.global.u32 [%out], %r7;",
    ];
    exact_case(&outer, [X, 0x1234_5678, 0, 0], D, 0x1234_5678, u64::from(X));
}

/// The loop (13.0.88 -O3 unrolled: `LOP3 0x1c` for trip 2's xor, then `0x1a`s and `0xea`): only
/// the first merge is wrong, so 7 trips give 0 (the GPU's, the spec x), 3 trips (s55/e8) 0, 2
/// trips (e7) x (the spec 0).
#[test]
fn n2_3702_6cd4a975_the_loop_merges_its_second_trip_only() {
    let w = [X, 0, 0, 0];
    exact_case(&looped(MOVED0, "setp.lt.u32 %p5, %r4, 0x15;"), w, D, u64::from(X), 0);
    exact_case(&looped(MOVED0, "setp.lt.u32 %p5, %r4, 0x9;"), w, D, u64::from(X), 0);
    exact_case(&looped(MOVED0, "setp.lt.u32 %p5, %r4, 0x6;"), w, D, 0, u64::from(X));
}

/// Right: a moved 5 (s55/e6), the first r loaded (s54/v7, v11: 0 only at run time), straight and
/// in the loop; left out: a register 0 as the xor's second source (s55/e1, wrong).
#[test]
fn n2_3702_6cd4a975_other_first_values_are_left_alone() {
    let w = [X, 0, 0, 0];
    untouched(&straight("mov.b32 %r2, 5;", XOR), w, D);
    untouched(&straight("ld.global.u32 %r2, [%in+4];", XOR), w, D);
    untouched(&looped("ld.global.u32 %r2, [%in+4];", "setp.lt.u32 %p5, %r4, 0x15;"), w, D);
    untouched(&straight(MOVED0, "xor.b32 %r2, %r5, %r2;"), w, D);
}

/// 6cd4a975's campaign case: word 2 is 0 (the spec's 0x000000f0) in every thread.
#[test]
fn n2_3702_6cd4a975_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5403", "6cd4a975dd12b617");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 2 { 0 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 2 || s.bits == 0xf0, "thread {t}: the spec's word 2");
    }
}
