//! Tests of the emulation of a root cause found by the H200 campaign of seed 3801
//! (`emulate/fuzz3801.rs`: 3801-N2): the GPU's word under the emulation and the spec's without,
//! and the variants its traces show right left alone.

use super::*;

/// Checks that emulating `d` turns thread 0's exact `spec` into the exact `bug` in a one-warp
/// program of `lines` (a shuffle needs its warp) and fires `d` alone.
pub(super) fn warp_case(lines: &[&str], words: [u32; 4], d: Deviation, spec: u64, bug: u64) {
    let (s, e, fired) = warp_both(lines, words, d);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert_eq!((e.bits as u64, e.is_exact()), (bug, true), "{d:?} of {lines:?}");
    assert_eq!(fired, vec![d]);
}

/// Checks that emulating `d` leaves the one-warp program of `lines` as the spec says.
pub(super) fn warp_untouched(lines: &[&str], words: [u32; 4], d: Deviation) {
    let (s, e, fired) = warp_both(lines, words, d);
    assert_eq!((e, fired), (s, Vec::new()), "{d:?} of {lines:?}");
}

/// 3801-N2 (corpus/findings/fuzz-h200-3801/, 06fd6dd5, trace `reduced.ptx`, `v_*`): with x = 0,
/// `max.u32(3 − x, 0)` of a shuffled immediate 3 is 3; 13.0.88 and 13.5 -O3
/// (`VIADDMNMX.U32 R7, R2, 0xfffffffd, RZ`) store max(x − 3, 0) = 0xfffffffd.
#[test]
fn n2_3801_max_of_sub_of_a_shuffled_immediate_reads_it_reversed() {
    let d = Deviation::SubOfShuffledImmediateReversedInMinMax;
    let with = |shfl: &'static str, op: &'static str, minmax: &'static str| {
        ["ld.global.u32 %r2, [%in];", shfl, op, minmax, "st.global.b32 [%out], %r8;"]
    };
    let up = "shfl.sync.up.b32 %r6, 3, %r2, %r2, -1;";
    let sub = "sub.u32 %r4, %r6, %r2;";
    let reduced = with(up, sub, "max.u32 %r8, %r4, 0;");
    warp_case(&reduced, [0, 0, 0, 0], d, 3, 0xFFFF_FFFD);
    // v_shfl1 (a predicate destination), v_shfl_idx, v_maxs32 (x = 1: max.s32(2, 0) = 2, the
    // GPU max.s32(−2, 0) = 0).
    let with_pred = with("shfl.sync.up.b32 %r6|%p0, 3, %r2, %r2, -1;", sub, "max.u32 %r8, %r4, 0;");
    warp_case(&with_pred, [0; 4], d, 3, 0xFFFF_FFFD);
    warp_case(&with("shfl.sync.idx.b32 %r6, 3, %r2, 31, -1;", sub, "max.u32 %r8, %r4, 0;"), [0; 4], d, 3, 0xFFFF_FFFD);
    warp_case(&with(up, sub, "max.s32 %r8, %r4, 0;"), [1, 0, 0, 0], d, 2, 0);
    // Right: no max (v_nomax), a bound of 5 (v_max5), add (v_add), K a mov (v_one).
    warp_untouched(&with(up, sub, "mov.b32 %r8, %r4;"), [0; 4], d);
    warp_untouched(&with(up, sub, "max.u32 %r8, %r4, 5;"), [0; 4], d);
    warp_untouched(&with(up, "add.u32 %r4, %r6, %r2;", "max.u32 %r8, %r4, 0;"), [0; 4], d);
    warp_untouched(&with("mov.b32 %r6, 3;", sub, "max.u32 %r8, %r4, 0;"), [0; 4], d);
}

/// 3801-N2 (corpus/findings/fuzz-h200-3801/, 6dd16205, trace `v_ld_store.ptx`): `min.s32` of a
/// moved 0 and `sub.s32 K − tid`, K = `shfl.sync.bfly` of 0xe73f5c6b (negative), with a dead
/// load between: the spec's min(K − tid, 0) = K − tid; 13.0.88 and 13.5 -O3 (`VIADDMNMX R5, R5,
/// 0x18c0a395, RZ`) give min(tid − K, 0) = 0. Without the load (v_bfly_min) ptxas keeps K in a
/// register and is right.
#[test]
fn n2_3801_min_of_sub_of_a_shuffled_immediate_needs_a_load_before_it() {
    let d = Deviation::SubOfShuffledImmediateReversedInMinMax;
    let body = |load: &'static str| {
        [
            "mov.b32 %r3, 0;",
            "mov.b32 %r10, 0;",
            "shfl.sync.bfly.b32 %r11|%p1, 3879689323, %r10, 3429202993, -1;",
            "sub.s32 %r12, %r11, %tix;",
            load,
            "min.s32 %r13, %r3, %r12;",
            "st.global.u32 [%out], %r13;",
        ]
    };
    warp_case(&body("ld.global.b16 %h2, [%in+4];"), [0; 4], d, 0xE73F_5C6B, 0);
    warp_untouched(&body("mov.b32 %r14, 0;"), [0; 4], d);
}

/// The core of seed 5403's 5fd181c4 (corpus/findings/fuzz-h200-5403/trace/T54S.md, variants in
/// trace/5fd181c4/s54/): y = in[1], x = in[0], K = `shfl.sync.bfly` of 0x7f7fffff into `shfl`'s
/// register, then `sub` and `min.u32 y, d`, stored.
fn in_place(k: &'static str, sub: &'static str, min: &'static str) -> [&'static str; 8] {
    [
        "mov.b32 %r0, 0;",
        "ld.global.u32 %r1, [%in+4];",
        "mov.b32 %r5, 0;",
        "ld.global.u32 %r7, [%in];",
        k,
        sub,
        min,
        "st.global.b32 [%out], %r6;",
    ]
}

/// 3801-N2 with the `sub` written over its own K register (`sub.u32 %r5, %r5, %r7`: K's register
/// then holds the `sub`; the `sub`'s origin names the shuffle): 13.0.88 and 13.5 -O3
/// `VIADDMNMX.U32 R7, R7, 0x80800001, R0` = min(x − K, y) = 0x80800001 for x = 0, y =
/// 0xa607016b, where the spec gives min(y, K − x) = 0x7f7fffff; the same with the `sub` (w1) or
/// the shuffle (w2) in another register. Right: K a `mov`, in place too.
#[test]
fn n2_3801_5fd181c4_a_sub_over_its_own_k_register_reads_it_reversed() {
    let d = Deviation::SubOfShuffledImmediateReversedInMinMax;
    let words = [0, 0xa607_016b, 0, 0];
    let (spec, bug) = (0x7f7f_ffff, 0x8080_0001);
    let k = "shfl.sync.bfly.b32 %r5, 2139095039, %r5, %r0, -1;";
    warp_case(&in_place(k, "sub.u32 %r5, %r5, %r7;", "min.u32 %r6, %r1, %r5;"), words, d, spec, bug);
    warp_case(&in_place(k, "sub.u32 %r8, %r5, %r7;", "min.u32 %r6, %r1, %r8;"), words, d, spec, bug);
    let k9 = "shfl.sync.bfly.b32 %r9, 2139095039, %r5, %r0, -1;";
    warp_case(&in_place(k9, "sub.u32 %r5, %r9, %r7;", "min.u32 %r6, %r1, %r5;"), words, d, spec, bug);
    let moved = "mov.b32 %r5, 2139095039;";
    warp_untouched(&in_place(moved, "sub.u32 %r5, %r5, %r7;", "min.u32 %r6, %r1, %r5;"), words, d);
}

/// The campaign case (32 threads, in[4] = 0xa607016b, the rest 0): emulating 3801-N2 alone gives
/// the stored -O3/JIT word 1 = 0x00010000 (byte 6 = 0x01) in every thread, the spec's word 0.
#[test]
fn n2_3801_5fd181c4_the_campaign_case_gives_the_stored_o3_word() {
    let (p, i) = super::stored_case("5403", "5fd181c417d031ae");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, Deviation::SubOfShuffledImmediateReversedInMinMax) {
        let want = if w == 1 { 0x0001_0000 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}
