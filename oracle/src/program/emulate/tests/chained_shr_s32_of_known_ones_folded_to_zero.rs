//! Tests of 1c2ac943's emulation (`emulate/chained_shr_s32_of_known_ones_folded_to_zero.rs`):
//! two chained `shr.s32` by immediates of a value with n known leading ones give 0 when a + b ≥ 32
//! and n + a ≤ 4 (seed 4203's 1c2ac943, trace/T12c3.md and its sweep; seed 5001's b9401452,
//! corpus/findings/fuzz-h200-5001/trace/T21b.md, variants in trace/b9401452/s50/).

use super::*;

const D: Deviation = Deviation::ChainedShrS32OfKnownOnesFoldedToZero;

/// The stored cases: every thread's words are 0 on the GPU (the spec 0xffffffff): 1c2ac943 (word 1)
/// and b9401452 (`mov.b64 {r3, r3}` stored: words 0 and 1).
#[test]
fn shr_s32_chain_1c2ac943_the_stored_cases_are_reproduced() {
    for (seed, name, words) in [("4203", "1c2ac9432411b8a7", &[1][..]), ("5001", "b9401452ee495f6f", &[0, 1][..])] {
        let (p, i) = super::stored_case(seed, name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            let want = if words.contains(&w) { 0 } else { s.bits };
            assert_eq!(e.bits, want, "{name} thread {t} word {w}");
            if words.contains(&w) {
                assert_eq!(s.bits, 0xffff_ffff, "{name} thread {t} word {w}");
            }
        }
    }
}

/// `or.b32 x, c` (x loaded), `pre` (a `shl` into r5, then shifted, or nothing), `shr.s32` by `a`
/// then by `b`, stored.
fn chain(c: &str, pre: Option<&str>, a: &str, b: &str) -> Vec<String> {
    let mut l = vec!["ld.global.b32 %r0, [%in];".to_string(), format!("or.b32 %r1, %r0, {c};")];
    l.extend(pre.map(String::from));
    let y = if pre.is_some() { "%r5" } else { "%r1" };
    l.push(format!("shr.s32 %r2, {y}, {a};"));
    l.push(format!("shr.s32 %r3, %r2, {b};"));
    l.push("st.global.u32 [%out], %r3;".to_string());
    l
}

/// Wrong (13.0.88 -O3 `STG … RZ`): v1 (n 2, a 1, b 63), v2 (n 2, a 2, b 30), v4 (n 1, a 3, b 29),
/// v7 (`or 0xffc00000; shl.b32 8`: n 2, a 1, b 63).
#[test]
fn shr_s32_chain_1c2ac943_chained_shifts_of_few_known_ones_fold_to_zero() {
    for (c, pre, a, b) in [
        ("0xc0000000", None, "1", "63"),
        ("0xc0000000", None, "2", "30"),
        ("0x80000000", None, "3", "29"),
        ("0xffc00000", Some("shl.b32 %r5, %r1, 8;"), "1", "63"),
    ] {
        exact_case(&strs(&chain(c, pre, a, b)), [0x1234_5678, 0, 0, 0], D, 0xffff_ffff, 0);
    }
}

/// Right (13.0.88 -O3 −1 or the shifts kept): v3 (n 2, a 3: n + a = 5), v5 (a + b = 31), v6 (n 4),
/// v8 (b a register), one shift only, a shl that leaves no known one (`shl.b32 10` of n 10).
#[test]
fn shr_s32_chain_1c2ac943_leaves_more_known_ones_short_shifts_and_register_amounts_alone() {
    let words = [0x1234_5678, 5, 0, 0];
    for (c, pre, a, b) in [
        ("0xc0000000", None, "3", "29"),
        ("0xc0000000", None, "1", "30"),
        ("0xf0000000", None, "1", "63"),
        ("0xffc00000", Some("shl.b32 %r5, %r1, 10;"), "1", "63"),
    ] {
        untouched(&strs(&chain(c, pre, a, b)), words, D);
    }
    let reg = [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b32 %r4, [%in+4];",
        "or.b32 %r1, %r0, 0xc0000000;",
        "shr.s32 %r2, %r1, 1;",
        "shr.s32 %r3, %r2, %r4;",
        "st.global.u32 [%out], %r3;",
    ];
    untouched(&reg, [0x1234_5678, 63, 0, 0], D);
    untouched(
        &[
            "ld.global.b32 %r0, [%in];",
            "or.b32 %r1, %r0, 0xc0000000;",
            "shr.s32 %r3, %r1, 63;",
            "st.global.u32 [%out], %r3;",
        ],
        words,
        D,
    );
}
