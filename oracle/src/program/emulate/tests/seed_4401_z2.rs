//! Tests of 3702-N2 widened after seed 4302's trace (corpus/findings/fuzz-h200-4302/trace/
//! T14x3.md, c7c59b39; helper z2, session 44): the merge through a 64-bit `xor`/`and` of
//! `mov.b64` packs, one 32-bit merge per half, and the repeated `a` reached through copies.
//! Each: the forms ptxas 13.0.88 -O3 merges emulated, the neighbours it keeps (right) left alone.

use super::*;

/// §9.7.8.6's table `lut` applied bit by bit to `a`, `b`, `c`.
fn lop3(lut: u32, a: u32, b: u32, c: u32) -> u32 {
    (0..32).map(|i| ((lut >> ((a >> i & 1) * 4 + (b >> i & 1) * 2 + (c >> i & 1))) & 1) << i).sum()
}

/// The word `w` in both halves.
fn both_halves(w: u32) -> u64 {
    u64::from(w) << 32 | u64::from(w)
}

/// `body` between a load of `a` (word 1) and `b` (word 2) and a store of `%d5`.
fn with_loads(body: &[&str]) -> Vec<String> {
    let mut v = vec!["ld.global.u32 %r0, [%in+4];".to_string(), "ld.global.u32 %r1, [%in+8];".to_string()];
    v.extend(body.iter().map(|s| s.to_string()));
    v.push("st.global.b64 [%out], %d5;".to_string());
    v
}

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
const A: u32 = 0x9191_9191;
const B: u32 = 0x0f3c_5a66;

/// c7c59b39 (`reduced.ptx`): a byte splat `a`, `lop3(a, a, 0, 0xbd)` = ~a and a second splat
/// of the same byte (numbered as `a`), `xor.b64` of `{a', a'}` and `{l, l}`: 13.0.88 -O3
/// `LOP3.LUT R6, R7, RZ, RZ, 0x4d` stored twice = a ^ L(a, 0, 0) = ~a = 0x6e6e6e6e per half, the
/// GPU's words; the spec gives all ones.
#[test]
fn n2_c7c59b39_a_64_bit_xor_of_packs_merges_each_half() {
    let lines = [
        "ld.global.s8 %c0, [%in+5];",
        "mov.b32 %r0, {%c0, %c0, %c0, %c0};",
        "lop3.b32 %r2, %r0, %r0, 0, 0xbd;",
        "mov.b32 %r4, {%c0, %c0, %c0, %c0};",
        "mov.b64 %d3, {%r4, %r4};",
        "mov.b64 %d4, {%r2, %r2};",
        "xor.b64 %d5, %d3, %d4;",
        "st.global.b64 [%out], %d5;",
    ];
    exact_case(&lines, [0, 0x9100, 0, 0], D, u64::MAX, 0x6e6e_6e6e_6e6e_6e6e);
}

/// The neighbours compiled in session 44 (13.0.88 -O3, merged): `v3` `{a, a} ^ {l, l}` in either
/// order, `and.b64` (0xb0: a & L(a, 0, 0)), `c` repeating `a` with a loaded `b` (0x93: a ^ L(a,
/// b, 0)), `a` copied by `mov.b32`, the pack copied by `mov.b64`, `a` unpacked from a pack,
/// two lop3s `{l, m}` (each half its own), `{a, b} ^ {l, b}` (the low half only).
#[test]
fn n2_the_64_bit_neighbours_ptxas_merges_are_emulated_per_half() {
    let words = [0, A, B, 0];
    let lop = "lop3.b32 %r2, %r0, %r0, 0, 0xbd;";
    let (aa, ll) = ("mov.b64 %d3, {%r0, %r0};", "mov.b64 %d4, {%r2, %r2};");
    let (spec, bug) = (u64::MAX, both_halves(!A));
    exact_case(&strs(&with_loads(&[lop, aa, ll, "xor.b64 %d5, %d4, %d3;"])), words, D, spec, bug);
    let and = with_loads(&[lop, aa, ll, "and.b64 %d5, %d3, %d4;"]);
    exact_case(&strs(&and), words, D, 0, both_halves(A & lop3(0xbd, A, 0, 0)));
    let c_repeats = with_loads(&["lop3.b32 %r2, %r0, %r1, %r0, 0x65;", aa, ll, "xor.b64 %d5, %d4, %d3;"]);
    let (spec, bug) = (A ^ lop3(0x65, A, B, A), A ^ lop3(0x65, A, B, 0));
    exact_case(&strs(&c_repeats), words, D, both_halves(spec), both_halves(bug));
    let copied_a = ["mov.b32 %r4, %r0;", lop, "mov.b64 %d3, {%r4, %r4};", ll, "xor.b64 %d5, %d3, %d4;"];
    let copied_pack = [lop, aa, "mov.b64 %d6, %d3;", ll, "xor.b64 %d5, %d6, %d4;"];
    let unpacked = [
        lop,
        "mov.b64 %d7, {%r0, %r1};",
        "mov.b64 {%r5, %r6}, %d7;",
        "mov.b64 %d3, {%r5, %r5};",
        ll,
        "xor.b64 %d5, %d3, %d4;",
    ];
    let lop_of_a_copy = ["mov.b32 %r4, %r0;", "lop3.b32 %r2, %r0, %r4, 0, 0xbd;", aa, ll, "xor.b64 %d5, %d4, %d3;"];
    for body in [&copied_a[..], &copied_pack, &unpacked, &lop_of_a_copy] {
        exact_case(&strs(&with_loads(body)), words, D, u64::MAX, both_halves(!A));
    }
    let two = [
        lop,
        "lop3.b32 %r3, %r1, %r1, 0, 0xbd;",
        "mov.b64 %d3, {%r0, %r1};",
        "mov.b64 %d4, {%r2, %r3};",
        "xor.b64 %d5, %d3, %d4;",
    ];
    exact_case(&strs(&with_loads(&two)), words, D, u64::MAX, u64::from(!B) << 32 | u64::from(!A));
    let low_only = [lop, "mov.b64 %d3, {%r0, %r1};", "mov.b64 %d4, {%r2, %r1};", "xor.b64 %d5, %d3, %d4;"];
    exact_case(&strs(&with_loads(&low_only)), words, D, 0xFFFF_FFFF, u64::from(!A));
}

/// c7c59b39's `v2_b32_copy_reg`: the 32-bit `xor` of a `mov.b32` copy of `a` and `lop3(a, a, 0,
/// 0xbd)` is the same `LOP3.LUT R7, R2, RZ, RZ, 0x4d` (13.0.88 -O3).
#[test]
fn n2_a_32_bit_op_of_a_copy_of_a_is_merged() {
    let lines = [
        "ld.global.u32 %r0, [%in+4];",
        "mov.b32 %r4, %r0;",
        "lop3.b32 %r2, %r0, %r0, 0, 0xbd;",
        "xor.b32 %r3, %r4, %r2;",
        "st.global.b32 [%out], %r3;",
    ];
    exact_case(&lines, [0, A, 0, 0], D, 0xFFFF_FFFF, u64::from(!A));
}

/// Right on 13.0.88 -O3 (two LOP3s kept; session 44): `l` read by two distinct halves (`{a, b}
/// ^ {l, l}`, `{a, l} ^ {l, a}`, `{a, 0} ^ {l, l}`), the pack of `l` read again (an `add`), and `or.b64`
/// (merged, the value the spec's); `v4_b64_loaded_b` (no repeated input).
#[test]
fn n2_64_bit_forms_ptxas_keeps_are_left_alone() {
    let words = [0, A, B, 0];
    let lop = "lop3.b32 %r2, %r0, %r0, 0, 0xbd;";
    let (aa, ll, xor) = ("mov.b64 %d3, {%r0, %r0};", "mov.b64 %d4, {%r2, %r2};", "xor.b64 %d5, %d3, %d4;");
    let forms: [&[&str]; 6] = [
        &[lop, "mov.b64 %d3, {%r0, %r1};", ll, xor],
        &[lop, "mov.b64 %d3, {%r0, %r2};", "mov.b64 %d4, {%r2, %r0};", xor],
        &[lop, "mov.b64 %d3, {%r0, 0};", ll, xor],
        &[lop, aa, ll, xor, "add.u64 %d5, %d5, %d4;"],
        &[lop, aa, ll, "or.b64 %d5, %d3, %d4;"],
        &["lop3.b32 %r2, %r0, %r1, 0, 0xbd;", aa, ll, xor],
    ];
    for body in forms {
        untouched(&strs(&with_loads(body)), words, D);
    }
}

/// The outer-xor form through 64-bit operations (session 44, 13.0.88 -O3): `{x, x} ^ ({a, a} OP
/// {l, l})` with `lop3(a, a, 0, 0xbd)` is `LOP3.LUT R6, x, a, RZ, 0x81` (OP `xor`: x ^ (a ^ L(a,
/// x, 0))) or 0x7c (OP `and`) per half; a middle `{a, y} ^ {l, l}` keeps `LOP3 0xdb` and a
/// three-input xor (right).
#[test]
fn n2_an_outer_64_bit_xor_of_a_64_bit_chain_of_packs_binds_x_per_half() {
    let x = 0x3c3c_0ff0u32;
    let words = [0, A, x, B];
    let body = |middle_pack: &'static str, middle: &'static str| {
        let lines = [
            "ld.global.u32 %r0, [%in+4];",
            "ld.global.u32 %r1, [%in+8];",
            "ld.global.u32 %r5, [%in+12];",
            "lop3.b32 %r2, %r0, %r0, 0, 0xbd;",
            middle_pack,
            "mov.b64 %d4, {%r2, %r2};",
            middle,
            "mov.b64 %d7, {%r1, %r1};",
            "xor.b64 %d5, %d7, %d6;",
            "st.global.b64 [%out], %d5;",
        ];
        lines.map(String::from).to_vec()
    };
    let aa = "mov.b64 %d3, {%r0, %r0};";
    let xor = body(aa, "xor.b64 %d6, %d3, %d4;");
    let bug = x ^ (A ^ lop3(0xbd, A, x, 0));
    exact_case(&strs(&xor), words, D, both_halves(!x), both_halves(bug));
    let and = body(aa, "and.b64 %d6, %d4, %d3;");
    let bug = x ^ (A & lop3(0xbd, A, x, 0));
    exact_case(&strs(&and), words, D, both_halves(x), both_halves(bug));
    untouched(&strs(&body("mov.b64 %d3, {%r0, %r5};", "xor.b64 %d6, %d3, %d4;")), words, D);
}
