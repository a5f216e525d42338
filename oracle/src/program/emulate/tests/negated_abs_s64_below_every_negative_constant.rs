//! Tests of b33158de's emulation (`emulate/negated_abs_s64_below_every_negative_constant.rs`):
//! −|x| (`neg.s64`/`sub.s64 0` of `abs.s64 x`) taken as below every negative constant K by
//! `max.s64` (K), `min.s64` (−|x|) and signed 64-bit `setp`/`set` (seed 5403's b33158de,
//! corpus/findings/fuzz-h200-5403/trace/T54S.md; variants in trace/b33158de/s54/ and s57/, 13.0.88
//! and 13.5 -O3 listings alike): the wrong forms emulated, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::NegatedAbsS64BelowEveryNegativeConstant;

/// The stored case: x = 0 in every thread, `max.s64 K, −|x|` with a moved K = 0xb2a168521b4a1c71,
/// its low half stored: the spec's 0, the GPU's 0x1c71 (K's low half) in word 0.
#[test]
fn negated_abs64_b33158de_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5403", "b33158de65035c43");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0, 0x1c71), "thread {t} word {w}");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// x loaded (words 0–1), −|x| in %d3 by `neg` (the `tail` reads it), the 64-bit %d4 stored.
fn negated(tail: &[&str]) -> Vec<String> {
    let mut l =
        vec!["ld.global.u64 %d1, [%in];".to_string(), "abs.s64 %d4, %d1;".to_string(), "neg.s64 %d3, %d4;".to_string()];
    l.extend(tail.iter().map(|s| s.to_string()));
    l
}

const ZERO: [u32; 4] = [0, 0, 0, 0];
const STORE: &str = "st.global.u64 [%out], %d4;";
const NEG1: u64 = u64::MAX;

/// Wrong (13.0.88 and 13.5 -O3 fold to K / −|x|): the case's `max.s64 K, −|x|` of a moved K for
/// K = −1 (s54/v6), −2^62 (v8), INT64_MIN + 5 (v7), INT64_MIN (s57/w16); `min.s64` (v5), the
/// immediate second (v18, s57/w5), `sub.s64` of a moved 0 (v11), through a `mov` copy (s57/w7),
/// in place (s57/w10), a nonzero x with |x| < −K.
#[test]
fn negated_abs64_b33158de_min_max_against_a_negative_constant_fold() {
    for k in [NEG1, 0xC000_0000_0000_0000, 0x8000_0000_0000_0005, 0x8000_0000_0000_0000] {
        let mov = format!("mov.u64 %d5, {k};");
        exact_case(&strs(&negated(&[&mov, "max.s64 %d4, %d5, %d3;", STORE])), ZERO, D, 0, k);
    }
    let min = negated(&["mov.u64 %d5, 18446744073709551615;", "min.s64 %d4, %d5, %d3;", STORE]);
    exact_case(&strs(&min), ZERO, D, NEG1, 0);
    exact_case(&strs(&negated(&["max.s64 %d4, %d3, -1;", STORE])), ZERO, D, 0, NEG1);
    exact_case(&strs(&negated(&["min.s64 %d4, %d3, -1;", STORE])), ZERO, D, NEG1, 0);
    let sub = [
        "ld.global.u64 %d1, [%in];",
        "abs.s64 %d4, %d1;",
        "mov.u64 %d6, 0;",
        "sub.s64 %d3, %d6, %d4;",
        "max.s64 %d4, %d3, -1;",
        STORE,
    ];
    exact_case(&sub, ZERO, D, 0, NEG1);
    exact_case(&strs(&negated(&["mov.b64 %d6, %d3;", "max.s64 %d4, %d6, -1;", STORE])), ZERO, D, 0, NEG1);
    let in_place =
        ["ld.global.u64 %d1, [%in];", "abs.s64 %d1, %d1;", "neg.s64 %d1, %d1;", "max.s64 %d4, %d1, -1;", STORE];
    exact_case(&in_place, ZERO, D, 0, NEG1);
    // x = −3: −|x| = −3 above K = −2^62.
    let x = [(-3i64) as u32, u32::MAX, 0, 0];
    let k = 0xC000_0000_0000_0000u64;
    exact_case(&strs(&negated(&["max.s64 %d4, %d3, -4611686018427387904;", STORE])), x, D, (-3i64) as u64, k);
}

/// Wrong: signed 64-bit compares of −|x| with a negative K folded as −|x| < K — `setp.lt` (s54/v12,
/// s57/w9: 1), `ge` (w1: 0), `le` (w3: 1), `ne` (w8: 1), `eq` (w11: 0), K first (w2 `gt`: 1, w4
/// `lt`: 0; here a moved K), `set.lt.u32.s64` (w13: −1).
#[test]
fn negated_abs64_b33158de_compares_against_a_negative_constant_fold() {
    let selp = ["mov.b32 %r5, 1;", "selp.b32 %r1, %r5, 0, %p0;", "st.global.u32 [%out], %r1;"];
    for (setp, spec, bug) in [
        ("setp.lt.s64 %p0, %d3, -1;", 0, 1),
        ("setp.lt.s64 %p0, %d3, -4611686018427387904;", 0, 1),
        ("setp.ge.s64 %p0, %d3, -1;", 1, 0),
        ("setp.le.s64 %p0, %d3, -1;", 0, 1),
        ("setp.ne.s64 %p0, %d3, -1;", 1, 1),
        ("setp.gt.s64 %p0, %d5, %d3;", 0, 1),
        ("setp.lt.s64 %p0, %d5, %d3;", 1, 0),
    ] {
        let lines = negated(&["mov.u64 %d5, 18446744073709551615;", setp, selp[0], selp[1], selp[2]]);
        if spec == bug {
            // x = 0 agrees; x = 1 (−|x| = K) is where `ne` folds wrong.
            exact_case(&strs(&lines), [1, 0, 0, 0], D, 0, 1);
        } else {
            exact_case(&strs(&lines), ZERO, D, spec, bug);
        }
    }
    let eq = negated(&["setp.eq.s64 %p0, %d3, -1;", selp[0], selp[1], selp[2]]);
    exact_case(&strs(&eq), [1, 0, 0, 0], D, 1, 0);
    let set = negated(&["set.lt.u32.s64 %r1, %d3, -1;", "st.global.u32 [%out], %r1;"]);
    exact_case(&strs(&set), ZERO, D, 0, 0xFFFF_FFFF);
}

/// Right (the compare and `SEL` kept, or the fold the spec's): no neg (s54/v1), no abs (v2), the
/// `.s32` chain (v4), K = 5 and 0 (v9), K loaded (v10, s57/w14), `setp.ge.s64 −|x|, 0` (v15), the
/// neg of an `and.b64` mask (v16) or of a `cvt.u64.u32` (v17), `max.u64` (s57/w12), `abs.s32`
/// widened (w15), `setp.lt.u64` (w18); and an x with |x| ≥ −K (the fold agrees).
#[test]
fn negated_abs64_b33158de_other_producers_bounds_and_types_are_left_alone() {
    const SELP: [&str; 3] = ["mov.b32 %r5, 1;", "selp.b32 %r1, %r5, 0, %p0;", "st.global.u32 [%out], %r1;"];
    let x5 = [5, 0, 0, 0];
    untouched(&["ld.global.u64 %d1, [%in];", "abs.s64 %d3, %d1;", "max.s64 %d4, %d3, -1;", STORE], ZERO, D);
    untouched(&["ld.global.u64 %d1, [%in];", "neg.s64 %d3, %d1;", "max.s64 %d4, %d3, -1;", STORE], x5, D);
    let s32 = [
        "ld.global.u32 %r1, [%in];",
        "abs.s32 %r2, %r1;",
        "neg.s32 %r3, %r2;",
        "max.s32 %r4, %r3, -1;",
        "st.global.u32 [%out], %r4;",
    ];
    untouched(&s32, ZERO, D);
    for k in ["5", "0"] {
        untouched(&strs(&negated(&[&format!("max.s64 %d4, %d3, {k};"), STORE])), x5, D);
    }
    let loaded = negated(&["ld.global.u64 %d5, [%in+8];", "max.s64 %d4, %d5, %d3;", STORE]);
    untouched(&strs(&loaded), [0, 0, u32::MAX, u32::MAX], D);
    let ge0 = negated(&["setp.ge.s64 %p0, %d3, 0;", SELP[0], SELP[1], SELP[2]]);
    untouched(&strs(&ge0), ZERO, D);
    for producer in ["and.b64 %d4, %d1, 9223372036854775807;", "cvt.u64.u32 %d4, %r1;"] {
        let lines = [
            "ld.global.u64 %d1, [%in];",
            "ld.global.u32 %r1, [%in];",
            producer,
            "neg.s64 %d3, %d4;",
            "max.s64 %d4, %d3, -1;",
            STORE,
        ];
        untouched(&lines, ZERO, D);
    }
    untouched(&strs(&negated(&["max.u64 %d4, %d3, -1;", STORE])), ZERO, D);
    let widened = [
        "ld.global.s32 %r1, [%in];",
        "abs.s32 %r1, %r1;",
        "cvt.s64.s32 %d4, %r1;",
        "neg.s64 %d3, %d4;",
        "max.s64 %d4, %d3, -1;",
        STORE,
    ];
    untouched(&widened, ZERO, D);
    let unsigned = negated(&["setp.lt.u64 %p0, %d3, -1;", SELP[0], SELP[1], SELP[2]]);
    untouched(&strs(&unsigned), ZERO, D);
    // |x| = 5 ≥ 1: max(−1, −5) is −1 either way.
    untouched(&strs(&negated(&["max.s64 %d4, %d3, -1;", STORE])), x5, D);
}
