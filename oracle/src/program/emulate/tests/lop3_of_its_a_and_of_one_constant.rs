//! Tests of 3702-N2 widened after seeds 4501 and 4502 (helper x1, session 46): `OP(y, lop3(y, x,
//! x))`, which ptxas swaps into 37cc5597's `lop3(x, y, x)` form (8aa15b08, T16t3.md;
//! `lop3_of_its_a_with_b_repeating_c.rs`), and `OP(K, lop3(K, K, K))` of one constant ptxas folds
//! (d288306a, T16t4.md; `lop3_of_one_folded_constant.rs`). Each: the words of the 13.0.88 -O3
//! listings emulated, the neighbours ptxas keeps right left alone.

use super::*;

use super::seed_4404_v1::{apply, lop3};

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// x (word 0: 8aa15b08's input), a loaded y (word 1) and a loaded z (word 2).
const X: u32 = 0x4e83_55cb;
const Y: u32 = 0x5098_6993;
const Z: u32 = 0x0f3c_5a66;
const WORDS: [u32; 4] = [X, Y, Z, 0];

/// `body` checked against `spec` and the merged word `bug`: emulated where they differ, left
/// alone where they agree.
fn check(body: &[&str], words: [u32; 4], spec: u64, bug: u64) {
    if spec == bug {
        untouched(body, words, D);
    } else {
        exact_case(body, words, D, spec, bug);
    }
}

/// 8aa15b08 (`orig.ptx`): `xor.b64 d7, K64, {l, l}` with `l = lop3(4, x, x, 0x1a)` (a moved 4)
/// and K64's high word 4: the high half is `LOP3.LUT R7, x, 0x4, RZ, 0xea` = x & 4 (4 ^ L(4, x,
/// 0)), the low half two LOP3s (the spec's 0). The stored word 1 is 0 where §9.7.8.6 gives x;
/// with bit 2 of x set, 4.
#[test]
fn n2_8aa15b08_a_64_bit_xor_of_the_lop3_s_moved_a_reads_c_as_0_in_that_half() {
    for x in [X, X | 4] {
        let l = 4 ^ x;
        let body = [
            "ld.global.u32 %r1, [%in];",
            "mov.u32 %r2, 4;",
            "lop3.b32 %r3, %r2, %r1, %r1, 0x1a;",
            "mov.b64 %d0, 18497099215;",
            "mov.b64 %d6, {%r3, %r3};",
            "xor.b64 %d7, %d0, %d6;",
            "st.global.u64 [%out], %d7;",
        ];
        let low = u64::from(0x4e83_55cf ^ l);
        exact_case(&body, [x, 0, 0, 0], D, u64::from(x) << 32 | low, u64::from(x & 4) << 32 | low);
    }
}

/// `reduced` (y the immediate 4, the moved `a`'s value) and `v1_b32_reg_y` (y the register `a`):
/// `LOP3.LUT R7, x, 0x4, RZ, 0xea` = x & 4 where §9.7.8.6 gives x.
#[test]
fn n2_8aa15b08_a_32_bit_op_of_the_lop3_s_a_reads_c_as_0() {
    let lop = ["ld.global.u32 %r1, [%in];", "mov.u32 %r2, 4;", "lop3.b32 %r3, %r2, %r1, %r1, 0x1a;"];
    for op in ["xor.b32 %r4, %r3, 4;", "xor.b32 %r4, %r2, %r3;"] {
        let body = [lop[0], lop[1], lop[2], op, "st.global.u32 [%out], %r4;"];
        exact_case(&body, WORDS, D, u64::from(X), u64::from(X & 4));
    }
}

/// `var/tab/` (a loaded `a`, 18 rows: six tables under xor, and, or; either operand order): d =
/// a OP L(a, x, 0); `v4_two_readers` (the `lop3` stored too) merged alike.
#[test]
fn n2_8aa15b08_every_table_and_op_of_a_loaded_a_reads_c_as_0() {
    for lut in [0x1a, 0x1e, 0x65, 0x96, 0xca, 0xe8] {
        for op in ["xor", "and", "or"] {
            let l = format!("lop3.b32 %r3, %r2, %r1, %r1, {lut:#x};");
            let (spec, bug) = (apply(op, Y, lop3(lut, Y, X, X)), apply(op, Y, lop3(lut, Y, X, 0)));
            for o in [format!("{op}.b32 %r4, %r2, %r3;"), format!("{op}.b32 %r4, %r3, %r2;")] {
                let loads = ["ld.global.u32 %r1, [%in];", "ld.global.u32 %r2, [%in+4];"];
                let body = [loads[0], loads[1], &l, &o, "st.global.u32 [%out], %r4;"];
                check(&body, WORDS, u64::from(spec), u64::from(bug));
            }
        }
    }
    let body = [
        "ld.global.u32 %r1, [%in];",
        "ld.global.u32 %r2, [%in+4];",
        "lop3.b32 %r3, %r2, %r1, %r1, 0x1a;",
        "xor.b32 %r4, %r2, %r3;",
        "st.global.u32 [%out], %r4;",
        "st.global.u32 [%out+4], %r3;",
    ];
    let high = u64::from(Y ^ X) << 32;
    exact_case(&body, WORDS, D, high | u64::from(X), high | u64::from(X & Y));
}

/// `v3_pack_ab_loaded`: `{z, a} ^ {l, l}` with loaded `a` and `z` merges the high half
/// (`LOP3.LUT R7, a, RZ, x, 0xec` = a & x) though `l` faces two values; the low half keeps two
/// LOP3s (z ^ l, the spec's).
#[test]
fn n2_8aa15b08_the_half_of_a_pack_facing_a_is_merged() {
    let body = [
        "ld.global.u32 %r1, [%in];",
        "ld.global.u32 %r2, [%in+4];",
        "ld.global.u32 %r5, [%in+8];",
        "lop3.b32 %r3, %r2, %r1, %r1, 0x1a;",
        "mov.b64 %d0, {%r5, %r2};",
        "mov.b64 %d6, {%r3, %r3};",
        "xor.b64 %d7, %d0, %d6;",
        "st.global.u64 [%out], %d7;",
    ];
    let low = u64::from(Z ^ Y ^ X);
    exact_case(&body, WORDS, D, u64::from(X) << 32 | low, u64::from(X & Y) << 32 | low);
}

/// `s46/` (13.0.88 -O3): y another register moved 4 (`w2`: x & 4) is `a`; y the immediate 5
/// (`w1`) is not (right); `{4, 5} ^ {l, l}` (`w3`) merges the low half; `and.b64` of the case's
/// constant (`w4`) merges the high half, 4 & L(4, x, 0) = 4 & !x (the spec's word for 0x1a);
/// the pack stored too (`w6`, `w7`) merged alike.
#[test]
fn n2_8aa15b08_s46_constants_per_half() {
    let lop = ["ld.global.u32 %r1, [%in];", "mov.u32 %r2, 4;", "lop3.b32 %r3, %r2, %r1, %r1, 0x1a;"];
    let l = 4 ^ X;
    let b32 = |tail: &[&str]| -> Vec<String> { lop.iter().chain(tail).map(|s| s.to_string()).collect() };
    let w2 = b32(&["mov.u32 %r5, 4;", "xor.b32 %r4, %r3, %r5;", "st.global.u32 [%out], %r4;"]);
    exact_case(&strs(&w2), WORDS, D, u64::from(X), u64::from(X & 4));
    untouched(&strs(&b32(&["xor.b32 %r4, %r3, 5;", "st.global.u32 [%out], %r4;"])), WORDS, D);
    let b64 = |k: &str, op: &str, more: &[&str]| -> Vec<String> {
        let mut v = b32(&[k, "mov.b64 %d6, {%r3, %r3};", op, "st.global.u64 [%out], %d7;"]);
        v.extend(more.iter().map(|s| s.to_string()));
        v
    };
    let w3 = b64("mov.b64 %d0, 0x0000000500000004;", "xor.b64 %d7, %d0, %d6;", &[]);
    let high = u64::from(5 ^ l) << 32;
    exact_case(&strs(&w3), WORDS, D, high | u64::from(X), high | u64::from(X & 4));
    let w4 = b64("mov.b64 %d0, 18497099215;", "and.b64 %d7, %d0, %d6;", &[]);
    let low = u64::from(0x4e83_55cf & l);
    // Under `and` table 0x1a gives 4 & !x either way: the spec's word, left alone.
    check(&strs(&w4), WORDS, u64::from(4 & l) << 32 | low, u64::from(4 & !X) << 32 | low);
    // `w6`'s second reader as a store the output word then overwrites (`w7`: the same merge).
    let mut w7 = b64("mov.b64 %d0, 18497099215;", "xor.b64 %d7, %d0, %d6;", &[]);
    w7.insert(5, "st.global.u64 [%out], %d6;".to_string());
    let low = u64::from(0x4e83_55cf ^ l);
    exact_case(&strs(&w7), WORDS, D, u64::from(X) << 32 | low, u64::from(X & 4) << 32 | low);
}

/// Right (13.0.88 -O3): three distinct inputs (`v5_no_repeat`: `LOP3.LUT R7, a, x, z, 0xea`, a
/// correct merge) and y not an input (`v6_y_outside`: two LOP3s).
#[test]
fn n2_8aa15b08_no_repeat_and_y_outside_are_right() {
    let loads = ["ld.global.u32 %r1, [%in];", "ld.global.u32 %r2, [%in+4];", "ld.global.u32 %r5, [%in+8];"];
    for (l, o) in [
        ("lop3.b32 %r3, %r2, %r1, %r5, 0x1a;", "xor.b32 %r4, %r2, %r3;"),
        ("lop3.b32 %r3, %r2, %r1, %r1, 0x1a;", "xor.b32 %r4, %r5, %r3;"),
    ] {
        untouched(&[loads[0], loads[1], loads[2], l, o, "st.global.u32 [%out], %r4;"], WORDS, D);
    }
}

const K: u32 = 0x3f80_0000;

/// `mov K; lop3(K, K, K, lut); OP` with `op_line` reading `%r0` and `%r2` into `%r4`.
fn folded(lut: u32, op_line: &str) -> Vec<String> {
    vec![
        "ld.global.u32 %r1, [%in];".to_string(),
        "mov.b32 %r0, 1065353216;".to_string(),
        format!("lop3.b32 %r2, %r0, %r0, %r0, {lut:#x};"),
        op_line.to_string(),
        "st.global.b32 [%out], %r4;".to_string(),
    ]
}

/// d288306a (`orig.ptx`) and the variants of T16t4.md: `OP(K, lop3(K, K, K, L))` of a moved K is
/// `LOP3.LUT R5, R0, K, RZ, L'` = K OP L(K, K, 0): 0x98/xor K (spec 0), 0x65/xor 0xc07fffff,
/// 0x96/xor K, 0x30/and 0 (the spec's: left alone, not a OP L(a, 0, 0) = K), 0x7e/or K.
#[test]
fn n2_d288306a_a_lop3_of_one_moved_constant_is_bound_as_lop3_x_y_x() {
    for (lut, op) in [(0x98, "xor"), (0x65, "xor"), (0x96, "xor"), (0x30, "and"), (0xc0, "and"), (0x7e, "or")] {
        let (spec, bug) = (apply(op, K, lop3(lut, K, K, K)), apply(op, K, lop3(lut, K, K, 0)));
        let lines = folded(lut, &format!("{op}.b32 %r4, %r0, %r2;"));
        check(&strs(&lines), WORDS, u64::from(spec), u64::from(bug));
    }
    // `v9_two_readers`: the lop3 stored too, merged anyway.
    let mut lines = folded(0x98, "xor.b32 %r4, %r0, %r2;");
    lines.push("st.global.b32 [%out+4], %r2;".to_string());
    let high = u64::from(K) << 32;
    exact_case(&strs(&lines), WORDS, D, high, high | u64::from(K));
}

/// `s46/s1_outer_xor_loaded_x`: `x ^ (K ^ lop3(K, K, K, 0x98))` is `LOP3.LUT R7, x, K, K, 0xfe` =
/// x | K (the `c` bound to x) where §9.7.8.6 gives x; `s46/s2_glue_constant` (K an `add` of a
/// moved constant) is the case's listing.
#[test]
fn n2_d288306a_an_outer_xor_and_a_folded_add_bind_alike() {
    let mut lines = folded(0x98, "xor.b32 %r3, %r0, %r2;");
    lines.insert(4, "xor.b32 %r4, %r3, %r1;".to_string());
    exact_case(&strs(&lines), WORDS, D, u64::from(X), u64::from(X | K));
    let mut lines = folded(0x98, "xor.b32 %r4, %r0, %r2;");
    lines[1] = "mov.b32 %r5, 1065353215;".to_string();
    lines.insert(2, "add.u32 %r0, %r5, 1;".to_string());
    exact_case(&strs(&lines), WORDS, D, 0, u64::from(K));
}

/// `v3_loaded_lut30` (a loaded `a`): `LOP3.LUT R7, a, RZ, RZ, 0xc0` = a ^ L(a, 0, 0) = 0,
/// ec047aa1's binding, kept (§9.7.8.6 gives a; K's binding a ^ L(a, a, 0) would give a too).
#[test]
fn n2_d288306a_a_loaded_a_keeps_ec047aa1_s_binding() {
    let body = [
        "ld.global.u32 %r0, [%in+4];",
        "lop3.b32 %r2, %r0, %r0, %r0, 0x30;",
        "xor.b32 %r4, %r0, %r2;",
        "st.global.b32 [%out], %r4;",
    ];
    exact_case(&body, WORDS, D, u64::from(Y), 0);
}
