//! Tests of 3501-N2 widened to a zero-extended base after seed 4501's trace (helper x2, session
//! 46; `emulate/shl_chain_of_zero_extended_base.rs`): the first shift of a `cvt.{u64,s64}` of an
//! unsigned source of at most 32 bits is the widening, and the cut is counted from the second
//! (corpus/findings/fuzz-h200-4501/trace/T16t1.md, 6275f4b8; variants trace/6275f4b8/s46/).

use super::*;

const D: Deviation = Deviation::ShlChainFoldedIntoLea;

/// Byte 1 of the input word 0 is 0x7c (6275f4b8's `ld.global.s8 %h0, [%in+1]`).
const X: [u32; 4] = [0x57db_7cb2, 0, 0, 0];

/// The constant 6275f4b8's `add.cc.s64` adds, K = 0xebaa392931b23fc8.
const K: u64 = 0xebaa_3929_31b2_3fc8;

/// The base `base` (statements writing `%d0`), `shl.b64 %d0, %d0, k` for each `k` of `amounts`,
/// `add.cc.s64 %d1, %d0, K` and the store of `%d1`.
fn chain(base: &[&str], amounts: &[u32]) -> Vec<String> {
    let mut v: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    v.extend(amounts.iter().map(|k| format!("shl.b64 %d0, %d0, {k};")));
    v.push("add.cc.s64 %d1, %d0, -1465295879665467448;".to_string());
    v.push("st.global.b64 [%out], %d1;".to_string());
    v
}

const BYTE: [&str; 2] = ["ld.global.s8 %h0, [%in+1];", "cvt.s64.u8 %d0, %h0;"];

/// (0x7c << `kept`) + K.
fn kept(kept: u32) -> u64 {
    (0x7c_u64 << kept).wrapping_add(K)
}

/// 6275f4b8 (its loop of 18, 15, …, 3 by a counter; 13.0.88 -O3 keeps 18 + 15 + 12 and fuses 9
/// into `LEA …, 0x9`): (x << 54) + K = 0x0aaa392931b23fc8, where the spec's x << 63 is 0 (K) and
/// the plain cut at 18 + 15 = 33 gives K's high word back. `v3_byte_unrolled` (the same chain by
/// immediates), s46's `z3` (`cvt.u64.u8`) and `z1` (`cvt.s64.u16`) keep 54, `z7` (20 × 4) 60.
#[test]
fn n2_6275f4b8_a_zero_extended_base_counts_from_the_second_shift() {
    let looped = [
        "ld.global.s8 %h0, [%in+1];",
        "cvt.s64.u8 %d0, %h0;",
        "mov.u32 %r0, 18;",
        "$L0:",
        "shl.b64 %d0, %d0, %r0;",
        "sub.u32 %r0, %r0, 3;",
        "setp.gt.u32 %p0, %r0, 0;",
        "@%p0 bra $L0;",
        "add.cc.s64 %d1, %d0, -1465295879665467448;",
        "st.global.b64 [%out], %d1;",
    ];
    assert_eq!(kept(54), 0x0aaa_3929_31b2_3fc8);
    exact_case(&looped, X, D, K, kept(54));
    let descending = [18, 15, 12, 9, 6, 3];
    exact_case(&strs(&chain(&BYTE, &descending)), X, D, K, kept(54));
    let u64_u8 = ["ld.global.s8 %h0, [%in+1];", "cvt.u64.u8 %d0, %h0;"];
    exact_case(&strs(&chain(&u64_u8, &descending)), X, D, K, kept(54));
    let s64_u16 = ["ld.global.u16 %h0, [%in+2];", "cvt.s64.u16 %d0, %h0;"];
    let words = [0x007c_0000, 0, 0, 0];
    exact_case(&strs(&chain(&s64_u16, &descending)), words, D, K, kept(54));
    exact_case(&strs(&chain(&BYTE, &[20, 20, 20, 20])), X, D, K, kept(60));
}

/// Right neighbours and the plain rule (s46, 13.0.88 -O3): with a zero-extended base a chain
/// whose count from the second shift reaches no cut keeps every shift (`z6`: 12, 10, 8, 6, 4,
/// 2 is x << 42, right; 30 + 3 × 11 and 31 × 3 of the sweep); a sign-extending `cvt.u64.s8`
/// (`z4`) and a loaded u64 (`v2_ld_u64_unrolled`) keep the cut at 18 + 15 = 33.
#[test]
fn n2_a_zero_extended_base_with_no_cut_from_the_second_shift_is_right() {
    untouched(&strs(&chain(&BYTE, &[12, 10, 8, 6, 4, 2])), X, D);
    untouched(&strs(&chain(&BYTE, &[30, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3])), X, D);
    untouched(&strs(&chain(&BYTE, &[31, 31, 31])), X, D);
    let u64_s8 = ["ld.global.s8 %h0, [%in+1];", "cvt.u64.s8 %d0, %h0;"];
    exact_case(&strs(&chain(&u64_s8, &[18, 15, 12, 9, 6, 3])), X, D, K, kept(33));
    let loaded = ["ld.global.u64 %d0, [%in];"];
    let x = 0x57db_7cb2_u64;
    exact_case(&strs(&chain(&loaded, &[18, 15, 12, 9, 6, 3])), X, D, K, (x << 33).wrapping_add(K));
}
