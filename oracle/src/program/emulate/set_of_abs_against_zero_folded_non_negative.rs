//! F (corpus/known/fuzz-h200-f-negation-overflow.toml) where the consumer of the overflowed
//! `abs` is a `set` (§9.7.7.1) that tests it against 0: seed 5002's f46efbdc
//! (corpus/findings/fuzz-h200-5002/trace/T21d.md, variants in trace/f46efbdc/s50/).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 -O3 and -O0 right): `set.<cmp>.<dtype>.s32 d,
//! |x|, 0` whose comparison non-negativity alone decides — `ge`/`lt` with the abs first, `le`/`gt`
//! with the 0 first — is folded as if `abs(x) ≥ 0` always held: `set.le.f32.s32 d, 0, |x|` is
//! `HFMA2.MMA R7, -RZ, RZ, 1.875, 0` (1.0f) and `set.ge.u32.s32 d, |x|, 0` `MOV R7, 0xffffffff`,
//! where §9.7.3 (`abs.s32` of −2^31 is −2^31) and §9.7.7.1 give false; the `lt`/`gt`-by-zero
//! forms store 0 where the spec's test of −2^31 is true. Wrong: the case (`v1`, a moved 0),
//! `v2` (`ge.u32`), `v3` (`lt.s32`), `v9` (`gt` 0 first), `v11` (`abs.s64` with `set.ge.u32.s64`).
//! Right (the listing keeps `IABS; ISETP`): `gt`/`le` with the abs first (`v4`, `v10`), `eq`
//! (`v5`), another bound (`v6`), `neg.s32` (`v7`), an unsigned compare (`v8`).
//!
//! Invariants: [`glue`] only changes a `set` of `.s32`/`.s64` whose abs operand holds the
//! type's minimum (the overflowed abs), and gives exactly the word of the folded truth.

use super::{imm_of, is_min, moved_immediate, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// The value ptxas 13.0.88 -O3 gives `set.<cmp>.<dtype>.{s32,s64} d, a, b` of an overflowed
/// `abs` against 0 in an order that non-negativity decides (see the module header): the word of
/// "true" for `ge`/`le`, of "false" for `lt`/`gt`; `None` elsewhere. `vals` are the source
/// values, `result` the spec's.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let GlueOp::Set(cmp, dst) = g.op else { return None };
    if !matches!(g.ty, GlueType::S32 | GlueType::S64) {
        return None;
    }
    // The abs's operand and the 0's, by the order.
    let (at_abs, at_zero, holds) = match cmp {
        Cmp::Ge => (0, 1, true),
        Cmp::Lt => (0, 1, false),
        Cmp::Le => (1, 0, true),
        Cmp::Gt => (1, 0, false),
        _ => return None,
    };
    let width = g.ty.bits();
    let abs = reg_of_glue(g, at_abs).is_some_and(
        |r| matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _)) if glue.op == GlueOp::Abs && glue.ty == g.ty),
    );
    let zero = imm_of(g, at_zero) == Some(0)
        || reg_of_glue(g, at_zero).is_some_and(|r| {
            moved_immediate(m, t, r) && vals.get(at_zero).is_some_and(|v| v.is_exact() && v.bits == 0)
        });
    if !abs || !zero || !vals.get(at_abs).is_some_and(|v| is_min(v, width)) {
        return None;
    }
    // The set's word for the folded truth: `set.eq.<dtype>` of the truth and 1.
    let word = Glue { op: GlueOp::Set(Cmp::Eq, dst), ty: GlueType::U32, ..*g }.eval([u64::from(holds), 1, 0, 0], false);
    Some(Expected::exact(u128::from(word), result.width))
}
