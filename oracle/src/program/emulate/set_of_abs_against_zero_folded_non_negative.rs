//! F (corpus/known/fuzz-h200-f-negation-overflow.toml) where the consumer of the overflowed
//! `abs` is a `set` (§9.7.7.1) that tests it against 0: seed 5002's f46efbdc
//! (corpus/findings/fuzz-h200-5002/trace/T21d.md, variants in trace/f46efbdc/s50/); or a
//! `min.s64` with 0 (seed 5703's 9823257d, below).
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
//! Seed 5703's 9823257d (corpus/findings/fuzz-h200-5703/trace/T57A.md, variants in
//! trace/9823257d/s57/; 13.0.88 -O3 and the JIT, 13.5 -O3 right): `min.s64 d, |x|, 0` — the
//! same `lt`-by-zero test, as ptxas lowers a 64-bit min to `ISETP.LT` + `SEL` — is folded to 0
//! (`STG … RZ`), where §9.7.1 gives −2^63 (`abs.s64` of −2^63 is −2^63, the smaller). Wrong: the
//! case (an immediate 0, an acquire load), `v1` (a plain load), `v2` (the 64-bit word), `v3` (the
//! 0 first), `v4` (a moved 0). Right: `v5` (a loaded 0), `v6`/`v7` (bounds 5, −1), `v8`/`v9`
//! (`max.s64` by 0, 5: `gt`, which non-negativity does not decide), `v10` (`min.s32`: `VIMNMX`),
//! `v16` (`min.s16`), `v11` (`min.u64`), `v12` (no abs), `v13` (`neg.s64`).
//!
//! Invariants: [`glue`] only changes a `set` of `.s32`/`.s64` (or a `min.s64`) whose abs operand
//! holds the type's minimum (the overflowed abs), and gives exactly the word of the folded truth
//! (the min's 0).

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
    if g.op == GlueOp::Min && g.ty == GlueType::S64 {
        return min_glue(m, t, g, vals, result);
    }
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
    if !overflowed_abs_against_zero(m, t, g, vals, at_abs, at_zero) {
        return None;
    }
    // The set's word for the folded truth: `set.eq.<dtype>` of the truth and 1.
    let word = Glue { op: GlueOp::Set(Cmp::Eq, dst), ty: GlueType::U32, ..*g }.eval([u64::from(holds), 1, 0, 0], false);
    Some(Expected::exact(u128::from(word), result.width))
}

/// 9823257d's `min.s64 d, a, b` of an overflowed `abs.s64` and 0 (either order): 0, the test
/// `|x| < 0` folded false (see the module header); `None` elsewhere.
fn min_glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    (0..2)
        .any(|at_abs| overflowed_abs_against_zero(m, t, g, vals, at_abs, 1 - at_abs))
        .then(|| Expected::exact(0, result.width))
}

/// Whether source `at_abs` of `g` holds an `abs` of `g`'s type that overflowed (the type's
/// minimum) and source `at_zero` is 0, an immediate or a moved one.
fn overflowed_abs_against_zero(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    at_abs: usize,
    at_zero: usize,
) -> bool {
    let abs = reg_of_glue(g, at_abs).is_some_and(
        |r| matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _)) if glue.op == GlueOp::Abs && glue.ty == g.ty),
    );
    let zero = imm_of(g, at_zero) == Some(0)
        || reg_of_glue(g, at_zero).is_some_and(|r| {
            moved_immediate(m, t, r) && vals.get(at_zero).is_some_and(|v| v.is_exact() && v.bits == 0)
        });
    abs && zero && vals.get(at_abs).is_some_and(|v| is_min(v, g.ty.bits()))
}
