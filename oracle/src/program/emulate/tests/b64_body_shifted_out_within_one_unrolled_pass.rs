//! Tests of 3604-N3 past its trip bound for a body of 64-bit shifts (seed 4803's 7ef87864,
//! corpus/findings/fuzz-h200-4803/trace/T19v2.md, variants in trace/7ef87864/ and its s49/;
//! `emulate/b64_body_shifted_out_within_one_unrolled_pass.rs`).

use super::*;

const D: Deviation = Deviation::UnsignedLoopExitTestCountedSigned;

/// 7ef87864's loop from 0x80000000 by +15 under `setp.lt.u32 …, 12` (1 trip by the spec,
/// 143165578 counted signed) after `before`, with the body `body`, d0 stored after it.
fn long_loop(before: &[String], body: &[String]) -> Vec<String> {
    let mut lines = before.to_vec();
    lines.extend(["mov.u32 %r10, -2147483648;".into(), "$L1:".into()]);
    lines.extend_from_slice(body);
    lines.extend(
        ["add.u32 %r10, %r10, 0xf;", "setp.lt.u32 %p1, %r10, 0xc;", "@%p1 bra $L1;", "st.global.b64 [%out], %d0;"]
            .map(String::from),
    );
    lines
}

/// `n` registers d0… loaded from in[0..2], each shifted by `op` into itself.
fn shifting(n: usize, op: &str) -> Vec<String> {
    let loads: Vec<String> = (0..n).map(|k| format!("ld.global.u64 %d{k}, [%in];")).collect();
    let shifts: Vec<String> = (0..n).map(|k| format!("{op} %d{k}, %d{k}, 0x1;")).collect();
    long_loop(&loads, &shifts)
}

const X: [u32; 4] = [0x89ab_cdef, 0x0123_4567, 0, 0];

/// The stored case (13.0.88 -O3 and the JIT store 0/0: 178 trips peeled, 350 unrolled; the spec
/// the constant << 15 = 0x7842d5e2_1b310000), every thread.
#[test]
fn n3_7ef87864_a_shl_b64_body_past_the_bound_is_shifted_out() {
    let (p, i) = stored_case("4803", "7ef87864d9e0fb07");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D).into_iter().filter(|&(_, w, ..)| w < 2) {
        assert_eq!((s.bits, e.bits), ([0x1b31_0000, 0x7842_d5e2][w as usize], 0), "thread {t} word {w}");
    }
}

/// Wrong, 0 (s49 listings): a loaded d0 by 1 (cb86bb27's `s46/v13_shl_b64`, `v4_shl_b64_by_1`),
/// `shr.u64` (`v3_shr_b64_by_15`), four registers by 1 (s49 `v6_four_shl_b64_by_1`: 10 + 68
/// trips), a 64-bit and a 32-bit one (s49 `v3_shl_b64_and_shl_b32`).
#[test]
fn n3_7ef87864_small_64_bit_shift_bodies_are_shifted_out() {
    let x = 0x0123_4567_89ab_cdef_u64;
    exact_case(&strs(&shifting(1, "shl.b64")), X, D, x << 1, 0);
    exact_case(&strs(&shifting(1, "shr.u64")), X, D, x >> 1, 0);
    exact_case(&strs(&shifting(4, "shl.b64")), X, D, x << 1, 0);
    let mixed = long_loop(
        &["ld.global.u64 %d0, [%in];".into(), "ld.global.u32 %r5, [%in+8];".into()],
        &["shl.b64 %d0, %d0, 0xf;".into(), "shl.b32 %r5, %r5, 0x3;".into()],
    );
    exact_case(&strs(&mixed), X, D, x << 15, 0);
}

/// Out (the spec stands): six registers by 1 (s49 `v7_six_shl_b64_by_1`: 58 shifts, d << 58,
/// not 0), twelve (s49 `v9_twelve_shl_b64_by_1`: the loop kept, right), `shr.s64`
/// (`v1_shr_s64`), a shift of another register (`v4_shl_b64_other_src`, right).
#[test]
fn n3_7ef87864_large_or_other_64_bit_bodies_stay_unexplained() {
    untouched(&strs(&shifting(6, "shl.b64")), X, D);
    untouched(&strs(&shifting(12, "shl.b64")), X, D);
    untouched(&strs(&shifting(1, "shr.s64")), X, D);
    let other =
        long_loop(&["ld.global.u64 %d1, [%in];".into(), "mov.b64 %d0, 0;".into()], &["shl.b64 %d0, %d1, 0xf;".into()]);
    untouched(&strs(&other), X, D);
}
