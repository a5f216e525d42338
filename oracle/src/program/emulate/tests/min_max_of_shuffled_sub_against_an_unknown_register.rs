//! Tests of 3801-N2 against a register bound (seed 5001's 3f1783f2, session 50;
//! corpus/findings/fuzz-h200-5001/trace/T21a.md, variants in trace/3f1783f2/s50/;
//! `emulate/min_max_of_shuffled_sub_against_an_unknown_register.rs`).

use super::seed_3801_new::{warp_case, warp_untouched};
use super::*;

const D: Deviation = Deviation::SubOfShuffledImmediateReversedInMinMax;

/// The case's core: y = in[1] (the bound), K = 0x5a051646 shuffled `.down` (or `shfl`), x =
/// in[0], `sub.u32 d, K, x`, then `minmax`, stored.
fn core(bound: &'static str, shfl: &'static str, minmax: &'static str) -> [&'static str; 6] {
    [bound, shfl, "ld.global.b32 %r9, [%in];", "sub.u32 %r5, %r0, %r9;", minmax, "st.global.b32 [%out], %r4;"]
}

const LOADED: &str = "ld.global.u32 %r7, [%in+4];";
const DOWN: &str = "shfl.sync.down.b32 %r0, 1510282822, 10, 3121131825, -1;";

/// 13.0.88 and 13.5 -O3 `VIADDMNMX.U32 R7, R7, 0xa5fae9ba, R0, PT`: with x = 0 and y =
/// 0x7790ec34 the spec's min(K, y) = K, the GPU's min(−K, y) = y; the bound first (`s50/v5`),
/// `max.u32` (`v3`: the spec's y, the GPU's −K), `min.s32` (`v4`: K positive, −K negative),
/// `.idx` (`v7`), the bound `%tix` = %tid.x (`v9`: thread 0's 0, min(K, 0) = 0 either way for u32, so
/// x = 1 there: K − 1 against −K + 1, the bound 0 wins both: shown with max.u32).
#[test]
fn n2_3801_min_of_a_shuffled_sub_and_a_loaded_word_reads_it_reversed() {
    let words = [0, 0x7790_ec34, 0, 0];
    let (k, neg_k) = (0x5a05_1646_u64, 0xa5fa_e9ba_u64);
    warp_case(&core(LOADED, DOWN, "min.u32 %r4, %r5, %r7;"), words, D, k, 0x7790_ec34);
    warp_case(&core(LOADED, DOWN, "min.u32 %r4, %r7, %r5;"), words, D, k, 0x7790_ec34);
    warp_case(&core(LOADED, DOWN, "max.u32 %r4, %r5, %r7;"), words, D, 0x7790_ec34, neg_k);
    warp_case(&core(LOADED, DOWN, "min.s32 %r4, %r5, %r7;"), words, D, k, neg_k);
    let idx = "shfl.sync.idx.b32 %r0, 1510282822, 10, 3121131825, -1;";
    warp_case(&core(LOADED, idx, "min.u32 %r4, %r5, %r7;"), words, D, k, 0x7790_ec34);
    let tid = "mov.u32 %r7, %tix;";
    warp_case(&core(tid, DOWN, "max.u32 %r4, %r5, %r7;"), [1, 0, 0, 0], D, k - 1, neg_k + 1);
}

/// Right (`IADD3 R9, -R2; VIADDMNMX.U32 R7, R9, R0, 0x5`): a bound ptxas knows, the immediate 5
/// (`s50/v1`) or a moved 5 (`v11`); K a `mov` (`v6`); a shuffled loaded value (`v10`).
#[test]
fn n2_3801_a_bound_ptxas_knows_or_an_unshuffled_k_is_left_alone() {
    let words = [0, 0x7790_ec34, 0, 0];
    warp_untouched(&core(LOADED, DOWN, "min.u32 %r4, %r5, 5;"), words, D);
    warp_untouched(&core("mov.b32 %r7, 5;", DOWN, "min.u32 %r4, %r5, %r7;"), words, D);
    warp_untouched(&core(LOADED, "mov.b32 %r0, 1510282822;", "min.u32 %r4, %r5, %r7;"), words, D);
    let shfl_loaded = "shfl.sync.down.b32 %r0, %r7, 10, 3121131825, -1;";
    warp_untouched(&core(LOADED, shfl_loaded, "min.u32 %r4, %r5, %r7;"), words, D);
}

/// The campaign case (32 threads, in[12] = 0x7790ec34, the rest 0): emulating 3801-N2 alone
/// gives the stored -O3/JIT word 0x7790ec34 in word 0 of every thread and the spec's word 1.
#[test]
fn n2_3801_3f1783f2_the_campaign_case_gives_the_stored_o3_word() {
    let (p, i) = super::stored_case("5001", "3f1783f28a25ccfe");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0x7790_ec34 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}
