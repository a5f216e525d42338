//! 7ec10586's mechanism (1e6e819c's entry, corpus/known/fuzz-h200-4101-1e6e819c-xor-of-set-mask-
//! halves-tested-over-merged-half.toml) with the set mask's two halves combined by `or.b16` in place
//! of the first `xor.b16`: ptxas 13.0.88 and 13.5 -O3 (and the JIT) build `or.b16 m, lo, hi` of the
//! halves of one `set.<cmp>.{s32,u32}` word as `PRMT R, mask, 0x7632, R` (mask.hi into a register
//! whose upper half is stale) and test m ≠ 0 over all 32 bits (`LOP3.LUT P0, RZ, mask, R, RZ, 0xfc`),
//! then select for `xor.b16 d, m, x` x or ~x (`SEL R, ~x, x, P0`), for `or.b16` x or 0xffff, for
//! `and.b16` 0 or x. For the set's true mask m is 0xffff (§9.7.8.3) and the test is right; for its
//! false mask m is 0 and the stale half makes it read 0xffff: d is the spec's or `op(0xffff, x)`.
//! Called from the glue hooks after
//! [`or_and16_of_set_mask_halves_xor_as_predicate`](super::super::or_and16_of_set_mask_halves_xor_as_predicate).
//!
//! Evidence: seed 6101's 014173b6 (corpus/findings/fuzz-h200-6101/trace/T61B.md: `or.b16 h16, h12,
//! h13; xor.b16 h17, h16, h14; add.u16 h18, h17, h15` of a `set.eq.s32.u32` word's halves, the set
//! read by other xor chains: `LOP3.LUT P2, RZ, R6, R7, RZ, 0xfc; SEL R0, ~R6, R6, P2`, h18 = 0xffff
//! where the spec gives 0) and its variants (trace/014173b6/s61/, 13.0.88 = 13.5 -O3): wrong form —
//! reduced (or, xor, add; the set word stored), v3 (or, then or), v4 (or, then and), v7 (the xor
//! stored), v8 (x a loaded half), v10 (`set.s32`), v11 (x first), v12 (a half stored as the other
//! reader); right — v1 (no other reader: folded), v2 (`and.b16` of the halves: `LOP3 … 0xc0` is right
//! for both masks), v5/v6 (the or stored or added: no predicate), v9 (the same half twice).
//! Scope: as the or/and form's (the set's word or a half read by a statement other than the halves'
//! or, moves and readers of d), the halves' or's spec value 0.
//!
//! Invariants: [`glue`] changes only the result of an `xor.b16`/`or.b16`/`and.b16` one of whose
//! sources holds such a halves `or` of value 0, only when its deviation is emulated, and admits the
//! spec's value beside the one other value.

use super::super::reg_of_glue;
use super::{halves_op_of, stale_half_read_as_all_ones};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::semantics::{Deviation, Expected};

/// `xor.b16`/`or.b16`/`and.b16 d, a, b` under 7ec10586's mechanism with the halves `or`-ed: `Some`
/// (the spec's `result` or the value with m read as 0xffff, the deviation recorded as fired) where a
/// source is an `or.b16` of the two halves of one set's word, of value 0, that another statement (not
/// a reader of d) reads too.
pub(in crate::program::emulate) fn glue(
    m: &mut Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let d = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;
    if !m.allow.emulates(d) || !matches!(g.op, GlueOp::Xor | GlueOp::Or | GlueOp::And) || g.ty != GlueType::B16 {
        return None;
    }
    if !result.is_exact() || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let (k, (j, set)) = (0..2).find_map(|k| Some((k, halves_op_of(m, t, reg_of_glue(g, k)?, GlueOp::Or)?)))?;
    // The true mask's or is 0xffff: nonzero over any upper half, so right.
    if vals.get(k)?.bits & 0xFFFF != 0 {
        return None;
    }
    stale_half_read_as_all_ones(m, g, (k, j, set), vals, result)
}
