//! 3604-N3 (corpus/known/fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed.toml) for the
//! exit test `setp.gt.u32 p, i, 0` (or `setp.lt.u32 p, 0, i`): ptxas -O3 (13.0.88 and 13.5)
//! counts it as `.s32` (§9.7.7.1 compares `.u32` unsigned) where the loop's start, moved before
//! it, is positive read as `.s32`, and keeps the unsigned test (`ISETP.LT.U32 P0, PT, RZ, UR4`:
//! right) where the start is 0 or negative. Called from
//! [`signed_trips`](super::unsigned_loop_exit_counted_signed::signed_trips), where every other
//! exit test of [`exit_test`](super::unsigned_loop_exit_counted_signed::exit_test) is counted.
//!
//! Evidence (13.0.88 -O3 = 13.5 -O3; seed 4802's 13ad5714, corpus/findings/fuzz-h200-4802/trace/
//! T19v2.md, variants in trace/13ad5714/ and its s49/, a loop of `shr.u16 h1, h1, 1` from 206):
//! wrong — from 4 by −0x40000001 (`reduced`: 4 trips by the spec, h1 0x000c; `HFMA2.MMA R7` of
//! f16 0x0067 twice: 1 trip), from 4 by −3 (`v5`: 0x0033, 2 trips), s49 `v3_swapped_lt_0_i`
//! (`lt.u32 0, i`: 0x0067), s49 `v7_start8_sub40000002` (0x0067), s49 `v8_counter_stored` (i
//! stored: `HFMA2.MMA R7, -RZ, RZ, -2, 1.788e-07` = 0xc0000003, i after one trip; the spec 0).
//! Right — from 0 (`v2_start0_sub40000001`, s49 `v5_gt0_start0_sub40000000`, seed 4201's
//! ca25d7b2 `v16`, step 2^31) and from a negative start (s49 `v2_negative_start`: 0xc0000000 by
//! −0x40000000, 3 trips, the signed count 1): the loop kept with its unsigned test; an up-count
//! (s49 `v1_start1_3trips`: kept; the signed progression wraps, which `signed_trips` already
//! leaves alone). `ge.u32 i, 1` from 0 is folded signed (s49 `v4_ge1_start0`: 0x0067), so the
//! start condition is the `gt 0` test's own, not the unsigned order's.

use crate::program::glue::Cmp;

/// Whether ptxas keeps the unsigned test `i cmp bound` of a loop from `start` (both read as
/// `.s32`): `gt 0` from a start that is not positive.
pub(super) fn kept_unsigned(start: i64, cmp: Cmp, bound: i64) -> bool {
    cmp == Cmp::Gt && bound == 0 && start <= 0
}
