//! Tests of known root causes widened to their mechanisms after seed 4303's traces
//! (corpus/findings/fuzz-h200-4303/trace/T14x4.md; helper y4, session 43): 3501-N2 (a
//! multiply chain by any multiplier with k trailing zeros), N-7 (a shuffle with an unread
//! predicate destination), O (a minuend ptxas folds to 0; seed 4301's T14x1.md). Each: the traced form emulated, a
//! neighbour the listings show right left alone.

use super::*;

/// 02990ceb (T14x4.md, `reduced.ptx`, `v1_loop8.ptx`, `model.py`): `mul.lo.u64 d, d,
/// 0xfffffffffc000000` (−2^26) × 3, or × 8 in a loop read by `add.cc.u64 d2, d, K`, keeps 2
/// steps on 13.0.88 -O3: x·c² + K (0xb11a80edfa3c81ca, the spec's x·c^n + K = K). `v9`: 7 ×
/// `mul.lo.s64 ·, 0x80` keeps 5; 7 × (`mul.lo.u64 ·, 0x180; add 5`) keeps 5 steps of the base
/// and the constants exact (ptxas 13.0.88 -O3, simulated: x·c^5 + chain(0) + K). Right: the
/// same with `mul.lo.s64` (every step kept), no add reading the chain (`v3_no_add`).
#[test]
fn n2_3501_a_multiply_chain_by_any_multiplier_is_cut_where_its_trailing_zeros_reach_32() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let x = [0xb836_1e5d, 0, 0, 0];
    let add = "add.u64 %d2, %d0, 0xcb4a80edfa3c81ca;";
    let chain = |steps: &[&str], n: usize, last: &str| {
        let mut v = vec!["ld.global.u64 %d0, [%in];".to_string()];
        for _ in 0..n {
            v.extend(steps.iter().map(|s| s.to_string()));
        }
        v.extend([last.to_string(), "st.global.b64 [%out], %d2;".to_string()]);
        v
    };
    let neg_2p26 = ["mul.lo.u64 %d0, %d0, 0xfffffffffc000000;"];
    exact_case(&strs(&chain(&neg_2p26, 3, add)), x, d, 0xcb4a_80ed_fa3c_81ca, 0xb11a_80ed_fa3c_81ca);
    let looped = [
        "ld.global.u64 %d0, [%in];",
        "mov.u32 %r0, 16;",
        "$L0:",
        "mul.lo.u64 %d0, %d0, 0xfffffffffc000000;",
        "add.cc.u64 %d2, %d0, 0xcb4a80edfa3c81ca;",
        "sub.u32 %r0, %r0, 2;",
        "setp.gt.u32 %p0, %r0, 0;",
        "@%p0 bra $L0;",
        "st.global.b64 [%out], %d2;",
    ];
    exact_case(&looped, x, d, 0xcb4a_80ed_fa3c_81ca, 0xb11a_80ed_fa3c_81ca);
    let s64 = ["mul.lo.s64 %d0, %d0, 0x80;"];
    exact_case(&strs(&chain(&s64, 7, add)), x, d, 0x0804_80ed_fa3c_81ca, 0x8cfb_73d5_fa3c_81ca);
    let odd_with_adds = ["mul.lo.u64 %d0, %d0, 0x180;", "add.u64 %d0, %d0, 5;"];
    exact_case(&strs(&chain(&odd_with_adds, 7, add)), x, d, 0x9481_9aff_5b27_c94f, 0xa67a_2d37_5b27_c94f);
    untouched(&strs(&chain(&["mul.lo.s64 %d0, %d0, 0x180;", "add.u64 %d0, %d0, 5;"], 7, add)), x, d);
    untouched(&strs(&chain(&neg_2p26, 3, "mov.b64 %d2, %d0;")), x, d);
}

/// c24603c9 (T14x4.md, `reduced.ptx`): bfe.s32's start `shfl.sync.idx.b32 r1|p1, 0x7f7ffffe,
/// …` with p1 never read is the immediate in every lane (start 254), and ptxas drops the
/// predicate: 13.0.88 -O3 `MOV R7, 0xffffffff` (the spec the sign of a = 0, 0), as without
/// `|p1` (`v1`), for a moved immediate (`v4`) or a bfly (`v6`). Right: p1 read by `@!p1 mov`
/// (`v5_pred_used`, `SHFL` kept), a loaded value shuffled (`v2`).
#[test]
fn n7_a_shuffle_of_an_immediate_with_an_unread_predicate_destination_is_known() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |shuffle: &'static str, after: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            "mov.b32 %r5, 0x7f7ffffe;",
            shuffle,
            "bfe.s32 %r3, %r0, %r1, 9;",
            after,
            "st.global.u32 [%out], %r3;",
        ]
    };
    let words = [0, 0, 0, 0];
    let idx = "shfl.sync.idx.b32 %r1|%p1, 0x7f7ffffe, %r0, 0x1f, -1;";
    let moved = "shfl.sync.idx.b32 %r1|%p1, %r5, %r0, 0x1f, -1;";
    let bfly = "shfl.sync.bfly.b32 %r1|%p1, 0x7f7ffffe, 3, 0x1f, -1;";
    let unrelated = "mov.b32 %r4, 5;";
    for shuffle in [idx, moved, bfly] {
        let (s, e, fired) = warp_both(&with(shuffle, unrelated), words, d);
        assert_eq!((s.bits as u32, s.is_exact()), (0, true), "{shuffle}");
        assert_eq!((e.bits as u32, e.is_exact(), fired), (0xFFFF_FFFF, true, vec![d]), "{shuffle}");
    }
    let loaded = "shfl.sync.idx.b32 %r1|%p1, %r0, %r0, 0x1f, -1;";
    for (shuffle, after) in [(idx, "@!%p1 mov.b32 %r3, 5;"), (loaded, unrelated)] {
        let (s, e, fired) = warp_both(&with(shuffle, after), words, d);
        assert_eq!((e, fired), (s, vec![]), "{shuffle} {after}");
    }
}

/// 87a7efec (T14x1.md, seed 4301, `reduced.ptx`): `shl.b16 h, 0xfc5a, r10` by `sub.u32 r10, r8,
/// r0` of `and.b32 r8, r0, 0` is 13.0.88 -O3's shift by a register nothing wrote (`LOP3.LUT R0,
/// R0, 0xffff; SHF.L.U32 R5, R5, R0`, the stored 0xfc5a; the spec 0 − x ≥ 16 gives 0): any
/// value, as for `and` of another register (`v3`), `mul.lo.u32 x, 0` (`v4`), `xor.b32 x, x`
/// (`v8`). Right: `and.b32 x, 1` (`v5`), `sub.s32` (`v7`, the O entry).
#[test]
fn o_a_16_bit_shift_by_a_subtraction_from_a_folded_zero_is_any_value() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let at = |zero: &str, sub: &str| {
        [
            "ld.global.u32 %r0, [%in];".to_string(),
            "ld.global.u32 %r3, [%in+8];".to_string(),
            format!("{zero};"),
            format!("{sub} %r10, %r8, %r0;"),
            "mov.b16 %h0, 64602;".to_string(),
            "shl.b16 %h1, %h0, %r10;".to_string(),
            "cvt.u32.u16 %r2, %h1;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    let words = [0x74a6_55f8, 0, 7, 0];
    for zero in ["and.b32 %r8, %r0, 0", "and.b32 %r8, %r3, 0", "mul.lo.u32 %r8, %r0, 0", "xor.b32 %r8, %r0, %r0"] {
        let lines = at(zero, "sub.u32");
        let (s, e, fired) = both(&strs(&lines), words, d);
        assert_eq!((s.bits, s.is_exact()), (0, true), "{zero}");
        assert!(!e.is_exact() && e.matches(0) && e.matches(0xfc5a), "{zero}: {e:?}");
        assert_eq!(fired, vec![d], "{zero}");
    }
    untouched(&strs(&at("and.b32 %r8, %r0, 1", "sub.u32")), words, d);
    untouched(&strs(&at("and.b32 %r8, %r0, 0", "sub.s32")), words, d);
    untouched(&strs(&at("xor.b32 %r8, %r0, %r3", "sub.u32")), words, d);
}
