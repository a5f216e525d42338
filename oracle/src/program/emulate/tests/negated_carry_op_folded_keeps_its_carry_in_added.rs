//! Tests of eb1853bf's emulation (`emulate/negated_carry_op_folded_keeps_its_carry_in_added.rs`):
//! the negation of an `addc`/`subc` N folded into the next `addc`/`subc` adds N's carry-in
//! (seed 4803's eb1853bf, corpus/findings/fuzz-h200-4803/trace/T19v5.md and trace/eb1853bf/;
//! seed 5002's 3fdedd5c, corpus/findings/fuzz-h200-5002/trace/T21c.md and trace/3fdedd5c/s50/).

use super::*;

const D: Deviation = Deviation::NegatedCarryOpFoldedKeepsItsCarryInAdded;

/// The stored cases, every differing word: eb1853bf (words 0 and 1 of every thread, 2 where the
/// spec gives 0) and 3fdedd5c (word 0 of threads 2–31, 5 where the spec gives 3; threads 0 and 1
/// have no carry-in, right).
#[test]
fn negated_carry_op_eb1853bf_the_stored_cases_are_reproduced() {
    let (p, i) = super::stored_case("4803", "eb1853bf3f0bb8a4");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0, 2), "eb1853bf thread {t} word {w}");
    }
    let (p, i) = super::stored_case("5002", "3fdedd5cbae2977e");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if t >= 2 { (3, 5) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "3fdedd5c thread {t} word {w}");
    }
}

/// eb1853bf's `v8_u32_min`: r0, r2, r5 loaded; `sub.cc r1, r0, r5; subc r3, r0, r2; neg r4, r3;
/// add.cc r6, r5, 1; addc r7, r4, <addend>`, r7 stored.
fn v8(n: &str, addend: &str, tail: &[&str]) -> Vec<String> {
    let mut l: Vec<String> = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r2, [%in+4];",
        "ld.global.u32 %r5, [%in+8];",
        "sub.cc.u32 %r1, %r0, %r5;",
        n,
        "neg.s32 %r4, %r3;",
        "add.cc.u32 %r6, %r5, 1;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    l.push(format!("addc.u32 %r7, %r4, {addend};"));
    l.push("st.global.u32 [%out], %r7;".into());
    l.extend(tail.iter().map(|s| s.to_string()));
    l
}

/// Wrong (13.0.88 = 13.5 -O3, `IADD3.X …, P1, P0`): eb1853bf's `v8` (no borrow: + 2; a borrow:
/// right, P0 = 0), `v4`'s `subc` with `.cc`, `v9` (a register addend); 3fdedd5c's `v1` (an addc
/// negated in place into a subc), `v3` (into an addc), `v9` (a subc into a subc).
#[test]
fn negated_carry_op_eb1853bf_the_wrong_variants_add_the_carry_in() {
    exact_case(&strs(&v8("subc.u32 %r3, %r0, %r2;", "0", &[])), [0, 0, 0, 0], D, 0, 2);
    exact_case(&strs(&v8("subc.cc.u32 %r3, %r0, %r2;", "0", &[])), [7, 3, 2, 0], D, 0xffff_fffc, 0xffff_fffe);
    exact_case(&strs(&v8("subc.u32 %r3, %r0, %r2;", "%r5", &[])), [7, 3, 2, 0], D, 0xffff_fffe, 0);
    // A borrow (r0 < r5): P0 = 0, the fused IADD3.X gives the spec's word.
    untouched(&strs(&v8("subc.u32 %r3, %r0, %r2;", "0", &[])), [1, 3, 2, 0], D);
    // 3fdedd5c's forms, x = 0xfffffffe, t = 2 (the tid): CF of t + x = 1.
    let mirror = |n1: &str, n: &str, c1: &str, c: &str| {
        vec![
            "ld.global.u32 %r1, [%in];".to_string(),
            "ld.global.u32 %r5, [%in+4];".to_string(),
            format!("{n1} %r3, %r5, %r1;"),
            format!("{n} %r2, %r1, 0;"),
            "neg.s32 %r2, %r2;".to_string(),
            format!("{c1} %r3, %r1, {};", if c.starts_with("sub") { "0" } else { "1" }),
            format!("{c} %r0, %r2, %r1;"),
            "st.global.b32 [%out], %r0;".to_string(),
        ]
    };
    let w = [0xffff_fffe, 2, 0, 0];
    exact_case(&strs(&mirror("add.cc.u32", "addc.u32", "sub.cc.u32", "subc.u32")), w, D, 3, 5);
    exact_case(&strs(&mirror("add.cc.u32", "addc.u32", "add.cc.u32", "addc.u32")), w, D, 0xffff_ffff, 1);
    // v9: sub.cc t − x borrows (2 < x): P0 = 0, no change; t = 0xffffffff does not: + 2.
    untouched(&strs(&mirror("sub.cc.u32", "subc.u32", "sub.cc.u32", "subc.u32")), w, D);
    exact_case(
        &strs(&mirror("sub.cc.u32", "subc.u32", "sub.cc.u32", "subc.u32")),
        [0xffff_fffe, 0xffff_ffff, 0, 0],
        D,
        4,
        6,
    );
}

/// s51 (13.0.88 = 13.5 -O3): wrong — `v1` (y the addc's second operand), `v2` (`sub.s32 y, 0, z` of
/// a moved 0); right — `v3` (z also stored: N kept), `v4` (`sub.u32` of a moved 0), `v5` (y the
/// subtrahend of a `subc`).
#[test]
fn negated_carry_op_eb1853bf_s51_operand_order_and_negation_forms() {
    let zero = [0, 0, 0, 0];
    let mut v1 = v8("subc.u32 %r3, %r0, %r2;", "0", &[]);
    // (the addend a moved 0, as glue's first operand is a register)
    v1[7] = "addc.u32 %r7, %r9, %r4;".into();
    v1.insert(0, "mov.u32 %r9, 0;".into());
    exact_case(&strs(&v1), zero, D, 0, 2);
    let mut v2 = v8("subc.u32 %r3, %r0, %r2;", "0", &[]);
    v2[5] = "mov.u32 %r8, 0;".into();
    v2.insert(6, "sub.s32 %r4, %r8, %r3;".into());
    exact_case(&strs(&v2), zero, D, 0, 2);
    untouched(&strs(&v8("subc.u32 %r3, %r0, %r2;", "0", &["st.global.u32 [%out+4], %r3;"])), zero, D);
    let mut v4 = v2.clone();
    v4[6] = "sub.u32 %r4, %r8, %r3;".into();
    untouched(&strs(&v4), zero, D);
    let mut v5 = v8("subc.u32 %r3, %r0, %r2;", "0", &[]);
    v5[6] = "sub.cc.u32 %r6, %r5, 1;".into();
    v5[7] = "subc.u32 %r7, %r2, %r4;".into();
    untouched(&strs(&v5), [5, 3, 0, 0], D);
}

/// Right: eb1853bf's `v1` (the negation stored, no addc), `v2` (a plain `add` after the neg), `v3`
/// (the addc of the subc itself), `v7` (a plain `sub` for N); 3fdedd5c's `v4` (the negation also
/// stored: the addc kept), `v2` (a plain `sub` for C).
#[test]
fn negated_carry_op_eb1853bf_leaves_the_right_variants_alone() {
    let zero = [0, 0, 0, 0];
    let mut v1 = v8("subc.u32 %r3, %r0, %r2;", "0", &[]);
    v1[7] = "mov.b32 %r7, %r4;".into();
    untouched(&strs(&v1), zero, D);
    let mut v2 = v8("subc.u32 %r3, %r0, %r2;", "0", &[]);
    v2[7] = "add.u32 %r7, %r4, 5;".into();
    untouched(&strs(&v2), zero, D);
    let mut v3 = v8("subc.u32 %r3, %r0, %r2;", "0", &[]);
    v3[7] = "addc.u32 %r7, %r3, 0;".into();
    untouched(&strs(&v3), zero, D);
    untouched(&strs(&v8("sub.u32 %r3, %r0, %r2;", "0", &[])), zero, D);
    untouched(&strs(&v8("subc.u32 %r3, %r0, %r2;", "0", &["st.global.u32 [%out+4], %r4;"])), zero, D);
    let plain_sub = [
        "ld.global.u32 %r1, [%in];",
        "ld.global.u32 %r5, [%in+4];",
        "add.cc.u32 %r3, %r5, %r1;",
        "addc.u32 %r2, %r1, 0;",
        "neg.s32 %r2, %r2;",
        "sub.u32 %r0, %r2, %r1;",
        "st.global.b32 [%out], %r0;",
    ];
    untouched(&plain_sub, [0xffff_fffe, 2, 0, 0], D);
}

/// 0519b12d: the same fold at 64 bits (`emulate/negated_carry_op_folded_keeps_its_carry_in_added/wide.rs`).
mod wide;
