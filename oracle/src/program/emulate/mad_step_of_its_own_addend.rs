//! 3501-N2 widened after seed 4402's 372615e8 (helper h1, session 45;
//! corpus/findings/fuzz-h200-4402/trace/T15t2.md, trace/372615e8/, variants
//! trace/372615e8/s45/): a step of the chain may be `mad.lo.{u64,s64} d, x, c, x` — a multiply
//! by c + 1 whose addend is the multiplied register — and such a step past the cut is dropped
//! even when no add reads the chain, the mad being its own add ([`mad_steps`], [`dropped_step`]).
//!
//! Mechanism (13.0.88 -O3, five `mad.lo.u64 d0, d0, 0x3fff, d0` stored): three `IMAD.WIDE.U32
//! R6, R6, 0x3fff, R6` (with `IMAD R9, R7, 0x3fff, RZ; IADD3 R7, R7, R9, RZ` for the high word),
//! x·2^14 each: 14, 28, 42 — the cut where the running amount first reaches 32, as for `shl.b64`
//! and `mul.lo` steps — and the last two dropped: x << 42 where the spec's x << 70 is 0 (13.5
//! keeps all five, right). s45: `.s64` (`m2`), an odd part (`m3`, 0x5fff = 3·2^13 − 1: three
//! kept), a moved c as the first factor (`m5`), a `shl.b64` before (`m6`: shl, two mads kept),
//! 0xfff × 8 (`m13`: three kept), 0x3fffffff × 3 (`m12`: two kept), an add of 5 after (`m10`);
//! all wrong alike. Right: the cut on the last step (`m7`, 3 × 0x3fff), c + 1 odd (`m4`, 0x4000:
//! all kept), another register as the addend (T15t2's `v1`, `m11`), and `mul.lo` steps after two
//! mads (`m8`: every step kept) or alone (`m9`) with no add reading them: only a mad step is
//! dropped by itself.
//!
//! Invariants: [`mad_steps`] is a condition on one glue statement and the values ptxas knows
//! (its caller `mul_step_unread_shfl_predicate_folded_zero::mul_step` decides what a step is); [`dropped_step`] changes a
//! value only under the deviation, for a mad step whose source chain was already cut.

use super::origin::ShlChain;
use super::{known_at_compile_time, mul_step_unread_shfl_predicate_folded_zero, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::semantics::{Deviation, Expected};

/// The candidate steps of `mad.lo.{u64,s64} d, x, c, x` (c either factor, an immediate or a
/// value ptxas knows; the addend the register `x`): the index of `x` and the factor c + 1 that
/// `x·c + x` multiplies it by (§9.7.1.4). Empty for any other statement.
pub(super) fn mad_steps(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Vec<(usize, u64)> {
    let Some(addend) = reg_of_glue(g, 2) else { return Vec::new() };
    if g.op != GlueOp::MadLo || !matches!(g.ty, GlueType::U64 | GlueType::S64) {
        return Vec::new();
    }
    [(0usize, 1usize), (1, 0)]
        .into_iter()
        .filter(|&(x, _)| reg_of_glue(g, x) == Some(addend))
        .filter_map(|(x, c)| Some((x, known_at_compile_time::known_source(m, t, g, vals, c)?.wrapping_add(1))))
        .collect()
}

/// For 3501-N2: the value the GPU holds for a mad step ([`mad_steps`]) whose source chain was
/// already cut (a plain chain, not through adds): the step is dropped, so its source's value.
pub(super) fn dropped_step(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<Expected> {
    if !m.allow.emulates(Deviation::ShlChainFoldedIntoLea) || g.op != GlueOp::MadLo {
        return None;
    }
    let step = mul_step_unread_shfl_predicate_folded_zero::mul_step(m, t, g, vals)?;
    let source = reg_of_glue(g, step.x)?;
    let chain: &ShlChain = m.origins.get(t as usize)?.get(&source)?.shl_chain.as_ref()?;
    let value = vals.get(step.x)?;
    (chain.cut.is_some() && !chain.through_adds && value.is_exact()).then(|| value.clone())
}
