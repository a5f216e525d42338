//! Tests of 63aaaadc's emulation (`emulate/negation_of_max_s32_evaluated_in_an_arm_dropped.rs`):
//! in a one-armed `if`, `sub d, x, K` (`neg d, K`) of a 0x7fffffff evaluated in the arm from a
//! constant moved before the branch gives x + K (K) (seed 5001's 63aaaadc,
//! corpus/findings/fuzz-h200-5001/trace/T21a.md; variants in trace/63aaaadc/s50/ and s51/).

use super::*;

const D: Deviation = Deviation::NegationOfMaxS32EvaluatedInAnArmDropped;

/// The stored case: every thread's x is 0, the high half of x − 0x7fffffff = 0x80000001 stored at
/// out+6 (word 1 = 0x80000000); the GPU's word 1 is 0x7fff0000 (x + 0x7fffffff), word 0 agrees.
#[test]
fn arm_max_s32_63aaaadc_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5001", "63aaaadcd4d4959a");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0x8000_0000, 0x7fff_0000), "thread {t} word {w}");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// `x` loaded, r7 = `base` moved before `@p bra`, the arm `arm` (lines), the join, r7 stored.
fn arm(base: &str, arm: &[&str], tail: &[&str]) -> Vec<String> {
    let mut l = vec![
        "ld.global.u32 %r1, [%in];".to_string(),
        "ld.global.u32 %r2, [%in+4];".to_string(),
        format!("mov.b32 %r7, {base};"),
        "setp.eq.s32 %p0, %r1, -2147483648;".to_string(),
        "@%p0 bra $L0;".to_string(),
    ];
    l.extend(arm.iter().map(|s| s.to_string()));
    l.extend(tail.iter().map(|s| s.to_string()));
    l.push("$L0:".to_string());
    l.push("st.global.u32 [%out], %r7;".to_string());
    l
}

const WORDS: [u32; 4] = [0x1234_5678, 0x0bad_f00d, 0, 0];

/// Wrong (13.0.88 -O3 `@P0 IADD3 R7, R2, 0x7fffffff, RZ` / `@P0 MOV R7, 0x7fffffff`): the case's
/// xor of a moved 0, s50/v11 `or.b32`, s50/v12 `add.u32`, s51/v1 the xor of a moved 5, s51/v2
/// `sub.u32`, s51/v3 `neg.s32` then `add`, s51/v4 `neg.s32` alone, s51/v5 x another load.
#[test]
fn arm_max_s32_63aaaadc_the_negation_of_an_arm_evaluated_0x7fffffff_is_dropped() {
    let x = u64::from(WORDS[0]);
    let plus = (x + 0x7fff_ffff) & 0xffff_ffff;
    let minus = x.wrapping_sub(0x7fff_ffff) & 0xffff_ffff;
    let sub = ["sub.s32 %r7, %r1, %r7;"];
    for (base, op) in [
        ("0", "xor.b32 %r7, %r7, 0x7fffffff;"),
        ("0", "or.b32 %r7, %r7, 0x7fffffff;"),
        ("0", "add.u32 %r7, %r7, 0x7fffffff;"),
        ("5", "xor.b32 %r7, %r7, 0x7ffffffa;"),
    ] {
        exact_case(&strs(&arm(base, &[op], &sub)), WORDS, D, minus, plus);
    }
    let xor = "xor.b32 %r7, %r7, 0x7fffffff;";
    exact_case(&strs(&arm("0", &[xor], &["sub.u32 %r7, %r1, %r7;"])), WORDS, D, minus, plus);
    let neg_add = ["neg.s32 %r8, %r7;", "add.s32 %r7, %r1, %r8;"];
    exact_case(&strs(&arm("0", &[xor], &neg_add)), WORDS, D, minus, plus);
    exact_case(&strs(&arm("0", &[xor], &["neg.s32 %r7, %r7;"])), WORDS, D, 0x8000_0001, 0x7fff_ffff);
    let y = u64::from(WORDS[1]);
    let other = ["sub.s32 %r7, %r2, %r7;"];
    exact_case(&strs(&arm("0", &[xor], &other)), WORDS, D, y.wrapping_sub(0x7fff_ffff) & 0xffff_ffff, y + 0x7fff_ffff);
}

/// Right (13.0.88 -O3 `-0x7fffffff` or not folded): other constants (s50/v4 0x7ffffffe, v6
/// 0x12345, v9 0xffffffff; s51/v11 0x3fffffff), s50/v2 a moved 0x7fffffff, s50/v3 an immediate
/// subtrahend, s50/v7 `add`, s50/v8 the xor before the branch, s51/v6 K − x, s51/v7 a predicated
/// arm, s51/v8 the sub after the join, s51/v9 the constant moved in the arm, s51/v10 an if/else.
#[test]
fn arm_max_s32_63aaaadc_other_constants_moves_orders_and_joins_are_left_alone() {
    let sub = ["sub.s32 %r7, %r1, %r7;"];
    for k in ["0x7ffffffe", "0x12345", "0xffffffff", "0x3fffffff"] {
        untouched(&strs(&arm("0", &[&format!("xor.b32 %r7, %r7, {k};")], &sub)), WORDS, D);
    }
    untouched(&strs(&arm("0", &["mov.b32 %r7, 0x7fffffff;"], &sub)), WORDS, D);
    untouched(&strs(&arm("0", &[], &["sub.s32 %r7, %r1, 0x7fffffff;"])), WORDS, D);
    let xor = "xor.b32 %r7, %r7, 0x7fffffff;";
    untouched(&strs(&arm("0", &[xor], &["add.s32 %r7, %r1, %r7;"])), WORDS, D);
    untouched(&strs(&arm("0", &[xor], &["sub.s32 %r7, %r7, %r1;"])), WORDS, D);
    untouched(
        &strs(&arm("0", &["mov.b32 %r8, 0;", "xor.b32 %r8, %r8, 0x7fffffff;"], &["sub.s32 %r7, %r1, %r8;"])),
        WORDS,
        D,
    );
    // The xor before the branch (s50/v8).
    let before = [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r7, 0;",
        "xor.b32 %r7, %r7, 0x7fffffff;",
        "setp.eq.s32 %p0, %r1, -2147483648;",
        "@%p0 bra $L0;",
        "sub.s32 %r7, %r1, %r7;",
        "$L0:",
        "st.global.u32 [%out], %r7;",
    ];
    untouched(&before, WORDS, D);
    // A predicated arm (s51/v7) and the sub after the join (s51/v8).
    let predicated = [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r7, 0;",
        "setp.eq.s32 %p0, %r1, -2147483648;",
        "@!%p0 xor.b32 %r7, %r7, 0x7fffffff;",
        "@!%p0 sub.s32 %r7, %r1, %r7;",
        "st.global.u32 [%out], %r7;",
    ];
    untouched(&predicated, WORDS, D);
    let after_join = [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r7, 0;",
        "setp.eq.s32 %p0, %r1, -2147483648;",
        "@%p0 bra $L0;",
        "xor.b32 %r7, %r7, 0x7fffffff;",
        "$L0:",
        "sub.s32 %r7, %r1, %r7;",
        "st.global.u32 [%out], %r7;",
    ];
    untouched(&after_join, WORDS, D);
    // An if/else (s51/v10): the arm ends in a branch to the join, not at the label.
    let if_else = [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r7, 0;",
        "setp.eq.s32 %p0, %r1, -2147483648;",
        "@%p0 bra $L1;",
        "xor.b32 %r7, %r7, 0x7fffffff;",
        "sub.s32 %r7, %r1, %r7;",
        "bra $L0;",
        "$L1:",
        "add.s32 %r7, %r1, 3;",
        "$L0:",
        "st.global.u32 [%out], %r7;",
    ];
    untouched(&if_else, WORDS, D);
}
