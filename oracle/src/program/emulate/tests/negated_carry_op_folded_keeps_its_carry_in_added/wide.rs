//! Tests of eb1853bf's 64-bit scope (`emulate/negated_carry_op_folded_keeps_its_carry_in_added/wide.rs`):
//! seed 6103's 0519b12d (corpus/findings/fuzz-h200-6103/trace/T61F.md, trace/0519b12d/s61/).

use super::*;

/// The stored case, every differing word: the low byte of d4 stored at byte 2, 0x01 where the spec gives 0xff.
#[test]
fn negated_carry_op_0519b12d_the_stored_case_is_reproduced() {
    let (p, i) = super::super::stored_case("6103", "0519b12db8a2b5fe");
    let words = super::super::words_emulated_alone(&p, &i, D);
    assert_eq!(words.len(), 32);
    for (t, w, s, e) in words {
        assert_eq!((s.bits, e.bits), (0x00ff_0000, 0x0001_0000), "0519b12d thread {t} word {w}");
    }
}

/// The s61 form: d1 (and d0) loaded; `P d2, d1, d1` (the add.cc); N; `neg.s64 d3, d3`; C's carry
/// producer; C; d4 stored (64 bits).
fn form(p: &str, n: &str, neg: &[&str], cp: &str, c: &str) -> Vec<String> {
    let mut l = vec!["ld.global.b64 %d1, [%in];".to_string(), "ld.global.b64 %d0, [%in+8];".to_string()];
    l.push(format!("{p} %d2, %d1, %d1;"));
    l.push(n.to_string());
    l.extend(neg.iter().map(|s| s.to_string()));
    l.push("mov.b64 %d5, 0;".to_string());
    l.push(cp.to_string());
    l.push(c.to_string());
    l.push("st.global.u64 [%out], %d4;".to_string());
    l
}

const NEG: &[&str] = &["neg.s64 %d3, %d3;"];
/// d1 = 0x972c523d_00000000 (the stored case's: the add.cc carries), d0 = 0x00000005_00000007.
const W: [u32; 4] = [0, 0x972c_523d, 7, 5];

/// Wrong (13.0.88 = 13.5 -O3, `IADD3.X lo, P0, P1, …, Pc, Pn`): the spec + 2·Pn mod 2^64.
#[test]
fn negated_carry_op_0519b12d_the_wrong_variants_add_the_carry_in() {
    let orig = |n: &str, cp: &str, c: &str| form("add.cc.s64", n, NEG, cp, c);
    // v1: the stored case, whole (d3 = −(2·d1 + 1), d4 = d3 − 0 − 0).
    let v1 = orig("addc.cc.s64 %d3, %d2, 0;", "sub.cc.s64 %d6, %d5, 0;", "subc.s64 %d4, %d3, 0;");
    exact_case(&strs(&v1), W, D, 0xd1a7_5b85_ffff_ffff, 0xd1a7_5b86_0000_0001);
    // v2: C an addc (after `add.cc 0, 0`).
    let v2 = orig("addc.cc.s64 %d3, %d2, 0;", "add.cc.s64 %d6, %d5, 0;", "addc.s64 %d4, %d3, 0;");
    exact_case(&strs(&v2), W, D, 0xd1a7_5b85_ffff_ffff, 0xd1a7_5b86_0000_0001);
    // v6: `sub.s64 d3, d7, d3` of a moved 0 for the neg.
    let v6 = form(
        "add.cc.s64",
        "addc.cc.s64 %d3, %d2, 0;",
        &["mov.b64 %d7, 0;", "sub.s64 %d3, %d7, %d3;"],
        "sub.cc.s64 %d6, %d5, 0;",
        "subc.s64 %d4, %d3, 0;",
    );
    exact_case(&strs(&v6), W, D, 0xd1a7_5b85_ffff_ffff, 0xd1a7_5b86_0000_0001);
    // v11: N without .cc.
    let v11 = orig("addc.s64 %d3, %d2, 0;", "sub.cc.s64 %d6, %d5, 0;", "subc.s64 %d4, %d3, 0;");
    exact_case(&strs(&v11), W, D, 0xd1a7_5b85_ffff_ffff, 0xd1a7_5b86_0000_0001);
    // v15: C's sub.cc `.u64`.
    let v15 = orig("addc.cc.s64 %d3, %d2, 0;", "sub.cc.u64 %d6, %d5, 0;", "subc.s64 %d4, %d3, 0;");
    exact_case(&strs(&v15), W, D, 0xd1a7_5b85_ffff_ffff, 0xd1a7_5b86_0000_0001);
    // v8 (v22 with an `add.cc.u64`): N `addc d0, d1`, C `subc d3, d0` after `sub.cc d0, d1` (a borrow: d0 < d1).
    // −(d0 + d1 + 1) − d0 − 1 = −2·d0 − d1 − 2.
    let d0: u64 = 0x0000_0005_0000_0007;
    let d1: u64 = 0x972c_523d_0000_0000;
    let spec = 0u64.wrapping_sub(2 * d0).wrapping_sub(d1).wrapping_sub(2);
    for p in ["add.cc.s64", "add.cc.u64"] {
        let v8 = form(p, "addc.cc.s64 %d3, %d0, %d1;", NEG, "sub.cc.s64 %d6, %d0, %d1;", "subc.s64 %d4, %d3, %d0;");
        exact_case(&strs(&v8), W, D, spec, spec.wrapping_add(2));
    }
    // v23: N `addc d0, 0`, C `subc d3, d1`: −(d0 + 1) − d1 − 1.
    let v23 = orig("addc.cc.s64 %d3, %d0, 0;", "sub.cc.s64 %d6, %d0, %d1;", "subc.s64 %d4, %d3, %d1;");
    let spec = 0u64.wrapping_sub(d0).wrapping_sub(d1).wrapping_sub(2);
    exact_case(&strs(&v23), W, D, spec, spec.wrapping_add(2));
    // v24: C's subtrahend an immediate: −(d0 + d1 + 1) − 5 − 1.
    let v24 = orig("addc.cc.s64 %d3, %d0, %d1;", "sub.cc.s64 %d6, %d0, %d1;", "subc.s64 %d4, %d3, 5;");
    let spec = 0u64.wrapping_sub(d0).wrapping_sub(d1).wrapping_sub(7);
    exact_case(&strs(&v24), W, D, spec, spec.wrapping_add(2));
    // v30: C an addc of a register (`add.cc d0, d1` carries nothing): −(d0 + d1 + 1) + d0.
    let v30 = orig("addc.cc.s64 %d3, %d0, %d1;", "add.cc.s64 %d6, %d0, %d1;", "addc.s64 %d4, %d3, %d0;");
    let spec = 0u64.wrapping_sub(d1).wrapping_sub(1);
    exact_case(&strs(&v30), W, D, spec, spec.wrapping_add(2));
    // y C's second addc operand.
    let v30b = orig("addc.cc.s64 %d3, %d0, %d1;", "add.cc.s64 %d6, %d0, %d1;", "addc.s64 %d4, %d0, %d3;");
    exact_case(&strs(&v30b), W, D, spec, spec.wrapping_add(2));
}

/// No carry into N (d1's top bit clear): Pn = 0, the fused IADD3.X gives the spec's word.
#[test]
fn negated_carry_op_0519b12d_without_a_carry_in_is_right() {
    let v1 = form("add.cc.s64", "addc.cc.s64 %d3, %d2, 0;", NEG, "sub.cc.s64 %d6, %d5, 0;", "subc.s64 %d4, %d3, 0;");
    untouched(&strs(&v1), [0, 0x172c_523d, 0, 0], D);
}

/// Right (N computed on its own, or no fold): the s61 variants.
#[test]
fn negated_carry_op_0519b12d_leaves_the_right_variants_alone() {
    let sub = "sub.cc.s64 %d6, %d5, 0;";
    let c = "subc.s64 %d4, %d3, 0;";
    let right = [
        // v3: every op `.u64`.
        form("add.cc.u64", "addc.cc.u64 %d3, %d2, 0;", NEG, "sub.cc.u64 %d6, %d5, 0;", "subc.u64 %d4, %d3, 0;"),
        // v4: N's result also stored.
        form("add.cc.s64", "addc.cc.s64 %d3, %d2, 0;", &["st.global.u64 [%out], %d3;", NEG[0]], sub, c),
        // v5: y C's subtrahend.
        form("add.cc.s64", "addc.cc.s64 %d3, %d2, 0;", NEG, sub, "subc.s64 %d4, %d1, %d3;"),
        // v9: a plain sub after the neg.
        form("add.cc.s64", "addc.cc.s64 %d3, %d2, 0;", NEG, sub, "sub.s64 %d4, %d3, 7;"),
        // v12 / v13 / v20: C, N, C (an addc) `.u64`.
        form("add.cc.s64", "addc.cc.s64 %d3, %d2, 0;", NEG, "sub.cc.u64 %d6, %d5, 0;", "subc.u64 %d4, %d3, 0;"),
        form("add.cc.s64", "addc.cc.u64 %d3, %d2, 0;", NEG, sub, c),
        form("add.cc.s64", "addc.cc.s64 %d3, %d2, 0;", NEG, "add.cc.s64 %d6, %d5, 0;", "addc.u64 %d4, %d3, 0;"),
        // v14: N's operand the result of an `add.cc.u64` (not reassociated).
        form("add.cc.u64", "addc.cc.s64 %d3, %d2, 0;", NEG, sub, c),
        // v19: two immediates (5 and C's ~0).
        form("add.cc.s64", "addc.cc.s64 %d3, %d1, 5;", NEG, sub, c),
        // v21: four terms (d1, d1 + d1, C's ~0).
        form("add.cc.s64", "addc.cc.s64 %d3, %d1, %d2;", NEG, sub, c),
        // v25: two immediates (7 and C's ~5).
        form("add.cc.s64", "addc.cc.s64 %d3, %d0, 7;", NEG, "sub.cc.s64 %d6, %d0, %d1;", "subc.s64 %d4, %d3, 5;"),
        // v28 / v29: N / C `.u64` with register operands.
        form("add.cc.s64", "addc.cc.u64 %d3, %d0, %d1;", NEG, "sub.cc.s64 %d6, %d0, %d1;", "subc.s64 %d4, %d3, %d0;"),
        form("add.cc.s64", "addc.cc.s64 %d3, %d0, %d1;", NEG, "sub.cc.s64 %d6, %d0, %d1;", "subc.u64 %d4, %d3, %d0;"),
        // C reading N's own carry (no carry producer after N): not tried.
        form("add.cc.s64", "addc.cc.s64 %d3, %d0, %d1;", NEG, "mov.b64 %d6, 0;", "addc.s64 %d4, %d3, %d0;"),
    ];
    for v in &right {
        untouched(&strs(v), W, D);
    }
    // v16-v18 (sub.cc/subc N): N a subc is out of scope.
    let v16 = form("sub.cc.s64", "subc.cc.s64 %d3, %d2, 0;", NEG, sub, c);
    untouched(&strs(&v16), W, D);
}
