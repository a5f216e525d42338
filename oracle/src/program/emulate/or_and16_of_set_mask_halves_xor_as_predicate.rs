//! 7ec10586's mechanism (1e6e819c's entry, corpus/known/fuzz-h200-4101-1e6e819c-xor-of-set-mask-
//! halves-tested-over-merged-half.toml) with `or.b16`/`and.b16` reading m = `xor.b16 m, lo, hi` of
//! the two halves of one `set.<cmp>.{s32,u32}` word: ptxas 13.0.88 and 13.5 -O3 (and the JIT) test m
//! as a 32-bit predicate over a `PRMT R, mask, 0x7632, R` whose upper half is stale (`LOP3.LUT P0,
//! RZ, mask, R, RZ, 0x3c`) and build `or.b16 d, m, x` as `SEL x, 0xffffffff, !P0` (or the predicate
//! `ISETP.NE.U32.OR P0, x, RZ, P0` for a later xor) and `and.b16 d, m, x` as `SEL x, RZ, P0` (or
//! `ISETP.NE.U32.AND`): m reads 0 (the spec's, §9.7.8.3: lo ^ hi = 0) or 0xffff, so d is the spec's
//! or `op(0xffff, x)`: 0xffff for or, x for and. Called from the glue hooks after
//! [`xor16_of_set_mask_halves_as_predicate`](super::xor16_of_set_mask_halves_as_predicate) (the xor form).
//!
//! Evidence: seed 5001's d3cdbd0c (corpus/findings/fuzz-h200-5001/trace/T21b.md: `xor.b16 h5, h1, h2;
//! or.b16 h6, h5, h3; xor.b16 h7, h6, h4` of a `set.ge.s32.s64` word's halves, the set read by other
//! xor and add chains: byte h7 = 0xff where r0 = 0 and the stale half ≠ 0, the spec 0) and its
//! variants (trace/d3cdbd0c/s50/, 13.0.88 = 13.5 -O3): wrong — v1 (or, then xor, a half stored),
//! v2 (the or stored), v4 (and, then xor), v5 (or with a loaded x); right — v3 (the or and its xor
//! the only readers of the set: all folded to 0, `STG RZ`), v6 (an or of a half, no halves xor).
//! Scope: as the xor form's (the set's word or a half read by a statement other than the halves'
//! xor and moves), not counting the statements that read d (v3's xor of d and a half is folded with it).
//!
//! Invariants: [`glue`] changes only the result of an `or.b16`/`and.b16` one of whose sources holds
//! such a halves xor, only when its deviation is emulated, and admits the spec's value beside the
//! one other value.

use super::reg_of_glue;
use super::xor16_of_set_mask_halves_as_predicate::{halves_xor_of, stale_half_read_as_all_ones};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::semantics::{Deviation, Expected};

/// `or.b16`/`and.b16 d, a, b` under 7ec10586's mechanism: `Some` (the spec's `result` or the value
/// with m read as 0xffff, the deviation recorded as fired) where a source is the xor of the two
/// halves of one set's word that another statement (not a reader of d) reads too.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let d = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;
    if !m.allow.emulates(d) || !matches!(g.op, GlueOp::Or | GlueOp::And) || g.ty != GlueType::B16 {
        return None;
    }
    if !result.is_exact() || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let (k, (j, set)) = (0..2).find_map(|k| Some((k, halves_xor_of(m, t, reg_of_glue(g, k)?)?)))?;
    stale_half_read_as_all_ones(m, g, (k, j, set), vals, result)
}
