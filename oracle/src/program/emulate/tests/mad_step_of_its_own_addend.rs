//! Tests of 3501-N2 widened to `mad.lo d, x, c, x` steps after seed 4402's trace (helper h1,
//! session 45; `emulate/mad_step_of_its_own_addend.rs`): a mad of a register by a known c plus
//! itself is a step by c + 1, and past the cut it is dropped with no add reading the chain
//! (corpus/findings/fuzz-h200-4402/trace/T15t2.md, 372615e8; variants trace/372615e8/s45/).

use super::*;

const D: Deviation = Deviation::ShlChainFoldedIntoLea;

/// The loaded word the chains start from.
const X: [u32; 4] = [0xb836_1e5d, 0, 0, 0];

/// `n` times `step`, between a load of `%d0` and `tail`.
fn chain(step: &str, n: usize, tail: &[&str]) -> Vec<String> {
    let mut v = vec!["ld.global.u64 %d0, [%in];".to_string()];
    v.extend(std::iter::repeat_n(step.to_string(), n));
    v.extend(tail.iter().map(|s| s.to_string()));
    v
}

const STORE: &str = "st.global.b64 [%out], %d0;";

/// 372615e8 (`reduced.ptx`; 13.0.88 -O3 three `IMAD.WIDE.U32 R6, R6, 0x3fff, R6`): five
/// `mad.lo.u64 d0, d0, 0x3fff, d0` are x << 42 where the spec's x << 70 is 0; the campaign's
/// loop of 7 (`orig.ptx`, the high word stored) the same. s45: `m2` `.s64`, `m3` c = 0x5fff
/// (x·0x6000^3), `m5` a moved c as the first factor, `m6` a `shl.b64` by 14 then 4 mads, `m15`
/// two `mul.lo.u64 0x4000` then 3 mads, `m10` an `add.u64 5` after.
#[test]
fn n2_372615e8_a_mad_of_its_own_addend_past_the_cut_is_dropped() {
    let mad = "mad.lo.u64 %d0, %d0, 0x3fff, %d0;";
    exact_case(&strs(&chain(mad, 5, &[STORE])), X, D, 0, 0xd879_7400_0000_0000);
    let looped = [
        "ld.global.u64 %d0, [%in];",
        "mov.u32 %r1, 14;",
        "$L1:",
        "mad.lo.u64 %d0, %d0, 0x3fff, %d0;",
        "sub.u32 %r1, %r1, 2;",
        "setp.gt.u32 %p1, %r1, 0;",
        "@%p1 bra $L1;",
        "mov.b64 {%r6, %r7}, %d0;",
        "st.global.b32 [%out], %r7;",
    ];
    exact_case(&looped, X, D, 0, 0xd879_7400);
    exact_case(&strs(&chain("mad.lo.s64 %d0, %d0, 0x3fff, %d0;", 5, &[STORE])), X, D, 0, 0xd879_7400_0000_0000);
    let odd_part = "mad.lo.u64 %d0, %d0, 0x5fff, %d0;";
    exact_case(&strs(&chain(odd_part, 5, &[STORE])), X, D, 0, 0xda99_e780_0000_0000);
    let mut moved = chain("mad.lo.u64 %d0, %d2, %d0, %d0;", 5, &[STORE]);
    moved.insert(1, "mov.b64 %d2, 0x3fff;".to_string());
    exact_case(&strs(&moved), X, D, 0, 0xd879_7400_0000_0000);
    let mut after_shl = chain(mad, 4, &[STORE]);
    after_shl.insert(1, "shl.b64 %d0, %d0, 14;".to_string());
    exact_case(&strs(&after_shl), X, D, 0, 0xd879_7400_0000_0000);
    let mut after_mul = chain(mad, 3, &[STORE]);
    after_mul.splice(1..1, ["mul.lo.u64 %d0, %d0, 0x4000;".to_string(), "mul.lo.u64 %d0, %d0, 0x4000;".to_string()]);
    exact_case(&strs(&after_mul), X, D, 0, 0xd879_7400_0000_0000);
    exact_case(&strs(&chain(mad, 5, &["add.u64 %d0, %d0, 5;", STORE])), X, D, 5, 0xd879_7400_0000_0005);
}

/// Right, 13.0.88 -O3 (every step kept): the cut on the last step (`m7`, three mads), c + 1 odd
/// (`m4`, c = 0x4000), another register as the addend (T15t2's `v1`, `m11`), and `mul.lo` steps
/// with no add reading them after two mads (`m8`) or after a cut of three (`m16`).
#[test]
fn n2_372615e8_right_neighbours_are_left_alone() {
    let mad = "mad.lo.u64 %d0, %d0, 0x3fff, %d0;";
    untouched(&strs(&chain(mad, 3, &[STORE])), X, D);
    untouched(&strs(&chain("mad.lo.u64 %d0, %d0, 0x4000, %d0;", 5, &[STORE])), X, D);
    let mut other = chain("mad.lo.u64 %d0, %d0, 0x3fff, %d1;", 5, &[STORE]);
    other.insert(1, "ld.global.u64 %d1, [%in+8];".to_string());
    untouched(&strs(&other), [0xb836_1e5d, 0, 7, 0], D);
    let mul = "mul.lo.u64 %d0, %d0, 0x4000;";
    let mut mad_then_mul = chain(mad, 2, &[]);
    mad_then_mul.extend(std::iter::repeat_n(mul.to_string(), 3));
    mad_then_mul.push(STORE.to_string());
    untouched(&strs(&mad_then_mul), X, D);
    let mut cut_then_mul = chain(mad, 3, &[]);
    cut_then_mul.extend(std::iter::repeat_n(mul.to_string(), 2));
    cut_then_mul.push(STORE.to_string());
    untouched(&strs(&cut_then_mul), X, D);
}
