//! Tests of 3702-N2 widened after seeds 4401–4403's traces (corpus/findings/fuzz-h200-4402/
//! trace/T15t3.md, folder `lop3_t3/`; helper v1, session 44): `OP(y, lop3(...))` whose y is the
//! `lop3`'s `b` or `c`, not its `a`, the `lop3`'s inputs two values. Each: the forms ptxas
//! 13.0.88 -O3 merges emulated with the words of its listings, the neighbours it keeps (right)
//! left alone.

use super::*;

/// §9.7.8.6's table `lut` applied bit by bit to `a`, `b`, `c`.
pub(super) fn lop3(lut: u32, a: u32, b: u32, c: u32) -> u32 {
    (0..32).map(|i| ((lut >> ((a >> i & 1) * 4 + (b >> i & 1) * 2 + (c >> i & 1))) & 1) << i).sum()
}

/// `op` (`xor`, `and`, `or`) of two words.
pub(super) fn apply(op: &str, p: u32, q: u32) -> u32 {
    match op {
        "xor" => p ^ q,
        "and" => p & q,
        _ => p | q,
    }
}

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// y (word 1, `%r0`) and x (word 2, `%r1`).
const Y: u32 = 0x5098_6993;
const X: u32 = 0x4740_cc88;
const WORDS: [u32; 4] = [0, Y, X, 0];
const LOADS: [&str; 2] = ["ld.global.u32 %r0, [%in+4];", "ld.global.u32 %r1, [%in+8];"];

/// The loads of y and x, `body`, and a store of `%r3`.
fn program(body: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = LOADS.iter().map(|s| s.to_string()).collect();
    v.extend(body.iter().map(|s| s.to_string()));
    v.push("st.global.b32 [%out], %r3;".to_string());
    v
}

/// `body` checked against `spec` and the merged word `bug`: emulated where they differ, left
/// alone where they agree.
fn check(body: &[&str], spec: u32, bug: u32) {
    let lines = program(body);
    if spec == bug {
        untouched(&strs(&lines), WORDS, D);
    } else {
        exact_case(&strs(&lines), WORDS, D, u64::from(spec), u64::from(bug));
    }
}

/// The tables and operations of `lop3_t3/tab_results.txt`.
const TABLES: [u32; 5] = [0x96, 0xe8, 0x1e, 0x65, 0xca];
const OPS: [&str; 3] = ["xor", "and", "or"];

/// 37cc5597 (`r37cc.ptx`): `or(y, lop3(x, y, x, 0xe0))` is `LOP3.LUT R7, R0, RZ, R3, 0xf8` = y
/// | (x & (y | 0)) = y, the GPU's word 0 for y = 0; §9.7.8.6 gives y | x.
#[test]
fn n2_37cc5597_an_or_of_the_lop3_s_b_reads_the_repeated_c_as_0() {
    check(&["lop3.b32 %r2, %r1, %r0, %r1, 0xe0;", "or.b32 %r3, %r0, %r2;"], Y | X, Y);
}

/// `lop3(x, y, x, L)` (F1 of `tab_results.txt`: every table under xor/and/or, 13.0.88 -O3): d = y
/// OP L(x, y, 0), in either operand order.
#[test]
fn n2_c_repeating_a_with_y_the_b_is_read_as_0_for_every_table_and_op() {
    for lut in TABLES {
        for op in OPS {
            let lop = format!("lop3.b32 %r2, %r1, %r0, %r1, {lut:#x};");
            let (spec, bug) = (apply(op, Y, lop3(lut, X, Y, X)), apply(op, Y, lop3(lut, X, Y, 0)));
            check(&[&lop, &format!("{op}.b32 %r3, %r0, %r2;")], spec, bug);
            check(&[&lop, &format!("{op}.b32 %r3, %r2, %r0;")], spec, bug);
        }
    }
}

/// ab08e584 (`rab08.ptx`): `xor(lop3(0, y, y, 0xa), y)` is `LOP3.LUT R7, R2, RZ, RZ, 0xb4` = y;
/// §9.7.8.6 gives 0; `a` a `mov.b32` of 0 (`rab08_reg0`, the case's form) or loaded
/// (`rab08_a_loaded`) alike, and the F2 tables: d = y OP L(x, y, 0).
#[test]
fn n2_ab08e584_c_repeating_b_is_read_as_0() {
    check(&["mov.b32 %r1, 0;", "lop3.b32 %r2, %r1, %r0, %r0, 0xa;", "xor.b32 %r3, %r2, %r0;"], 0, Y);
    for lut in TABLES {
        for op in OPS {
            let lop = format!("lop3.b32 %r2, %r1, %r0, %r0, {lut:#x};");
            let (spec, bug) = (apply(op, Y, lop3(lut, X, Y, Y)), apply(op, Y, lop3(lut, X, Y, 0)));
            check(&[&lop, &format!("{op}.b32 %r3, %r2, %r0;")], spec, bug);
        }
    }
}

/// e6f0c29f (T15t1.md): `and(y, lop3(x, x, y, 0x3c))` reads `a` as 0: y & L(0, x, y) = y & x,
/// where §9.7.8.6 gives 0; the F3 tables: d = y OP L(0, x, y).
#[test]
fn n2_e6f0c29f_b_repeating_a_with_y_the_c_reads_a_as_0() {
    check(&["lop3.b32 %r2, %r1, %r1, %r0, 0x3c;", "and.b32 %r3, %r0, %r2;"], 0, Y & X);
    for lut in TABLES {
        for op in OPS {
            let lop = format!("lop3.b32 %r2, %r1, %r1, %r0, {lut:#x};");
            let (spec, bug) = (apply(op, Y, lop3(lut, X, X, Y)), apply(op, Y, lop3(lut, 0, X, Y)));
            check(&[&lop, &format!("{op}.b32 %r3, %r0, %r2;")], spec, bug);
        }
    }
}

/// `F1_ycopy` (a copy of y as the `lop3`'s b) and `F1_tworeaders` (the `lop3` stored too:
/// `LOP3.LUT R9, R0, RZ, R7, 0xf8`, merged anyway), 13.0.88 -O3; the third form alike.
#[test]
fn n2_a_copy_of_y_and_a_second_reader_of_the_lop3_are_merged() {
    let copy = ["mov.b32 %r4, %r0;", "lop3.b32 %r2, %r1, %r4, %r1, 0xe0;", "or.b32 %r3, %r0, %r2;"];
    check(&copy, Y | X, Y);
    let two = ["lop3.b32 %r2, %r1, %r0, %r1, 0xe0;", "or.b32 %r3, %r0, %r2;", "st.global.b32 [%out+4], %r2;"];
    let stored = u64::from(lop3(0xe0, X, Y, X)) << 32;
    exact_case(&strs(&program(&two)), WORDS, D, stored | u64::from(Y | X), stored | u64::from(Y));
    // `s44v/F3_tworeaders_and_0x3c`: `LOP3.LUT R9, y, RZ, x, 0x60` = y & x, stored beside the lop3.
    let two = ["lop3.b32 %r2, %r1, %r1, %r0, 0x3c;", "and.b32 %r3, %r0, %r2;", "st.global.b32 [%out+4], %r2;"];
    exact_case(&strs(&program(&two)), WORDS, D, 0, u64::from(Y & X));
}

/// `s44v/F2_tworeaders_*` (13.0.88 -O3): `lop3(x, y, y, L)` read by a second instruction too keeps
/// its own LOP3 and the OP reads it (right).
#[test]
fn n2_c_repeating_b_with_a_second_reader_is_left_alone() {
    for (lut, op) in [(0x96, "xor"), (0xe8, "and"), (0x65, "xor"), (0xca, "xor")] {
        let lop = format!("lop3.b32 %r2, %r1, %r0, %r0, {lut:#x};");
        let body = [&lop, &format!("{op}.b32 %r3, %r0, %r2;")[..], "st.global.b32 [%out+4], %r2;"];
        untouched(&strs(&program(&body)), WORDS, D);
    }
}

/// Right on 13.0.88 -O3: three distinct inputs (`no_repeat`), y not an input (`y_outside`), and
/// y the `lop3`'s `a` under `or` (`y_is_a_or`: the spec's value).
#[test]
fn n2_forms_ptxas_keeps_are_left_alone() {
    let forms: [&[&str]; 3] = [
        &["ld.global.u32 %r5, [%in+12];", "lop3.b32 %r2, %r1, %r0, %r5, 0xe0;", "or.b32 %r3, %r0, %r2;"],
        &["lop3.b32 %r2, %r1, %r1, %r1, 0xe8;", "or.b32 %r3, %r0, %r2;"],
        &["lop3.b32 %r2, %r0, %r1, %r0, 0xe0;", "or.b32 %r3, %r0, %r2;"],
    ];
    for body in forms {
        untouched(&strs(&program(body)), WORDS, D);
    }
}
