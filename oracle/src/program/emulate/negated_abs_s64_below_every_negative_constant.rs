//! b33158de (corpus/known/fuzz-h200-5403-b33158de-min-max-s64-of-negated-abs-folded-against-a-negative-constant.toml):
//! ptxas 13.0.88 and 13.5 -O3 (and the JIT) take the 64-bit negated abs v = −|x| (`neg.s64` of
//! `abs.s64 x`, or `sub.s64 v, 0, |x|`) as below every negative constant K: `max.s64 d, K, v`
//! is folded to K, `min.s64 d, K, v` to v (the `SEL` of x and −x alone), and a signed 64-bit
//! `setp`/`set` of v against K to the truth of v < K (`lt`/`le`/`ne` true, `gt`/`ge`/`eq`
//! false with v first; the mirror with K first), where §9.7.1 (`abs`, `neg`, `min`, `max`) and
//! §9.7.7.1/§9.7.7.2 (`set`, `setp`) give −|x| = 0 for x = 0: wrong for every x with |x| < −K
//! (for K = INT64_MIN, every x but the minimum; `eq`/`ne` where −|x| = K). Called from
//! [`glue`](super::glue) (a glue hook).
//!
//! Evidence (13.0.88 and 13.5 -O3 listings alike): seed 5403's b33158de
//! (corpus/findings/fuzz-h200-5403/trace/T54S.md "b33158de": `max.s64 K, v` of a moved K =
//! 0xb2a168521b4a1c71, x = 0, stored as K's low half 0x1c71, spec 0) and its variants. Wrong:
//! trace/b33158de/s54/ v3 (the 64-bit word), v5 (`min.s64`: v), v6 (K = −1), v7 (K = INT64_MIN +
//! 5), v8 (K = −2^62), v11 (`sub.s64` of a moved 0), v12 (`setp.lt.s64 v, −1`: true), v18 (the
//! immediate second); s57/ w1–w4 (`setp.ge`/`gt` K first/`le`/`lt` K first), w5 (`min` of an
//! immediate), w6 (`sub.s64 v, 0, |x|`), w7 (v through a `mov` copy), w8/w11 (`ne` true, `eq`
//! false), w9 (`setp.lt` −2^62), w10 (abs and neg in place), w13 (`set.lt.u32.s64`: −1),
//! w16/w17 (K = INT64_MIN: `max` K, `setp.lt` true), w19 (v also stored, the max still K).
//! Right: s54/ v1 (no neg), v2 (no abs), v4 (the `.s32` chain), v9 (K = 5, 0: the fold is the
//! spec's), v10 and s57/ w14 (K loaded), v14 (v stored), v15 (`setp.ge.s64 v, 0`), v16/v17 (the
//! neg of another non-negative value), s57/ w12 (`max.u64`), w15 (`abs.s32` widened to 64
//! bits), w18 (`setp.lt.u64`).
//!
//! Scope: an `.s64` `min`/`max`/`setp`/`set` whose one register operand holds v — made by an
//! unguarded `neg.s64` of a value an unguarded `abs.s64` made, or an unguarded `sub.s64` of an
//! immediate or moved 0 and a register last written (in the same straight run) by an unguarded
//! `abs.s64` — and whose other operand is a negative constant: an immediate, or a moved
//! immediate ptxas still knows ([`known_at_compile_time::known`]).
//!
//! Invariants: [`glue`] changes only such an instruction's result, to the folded one; it
//! answers `None` where the fold agrees with the spec, so other rules still see it.

use super::fuzz3602::writes;
use super::producer_forms_of_o_f_g_m::first_source_moved_zero;
use super::{imm_of, known_at_compile_time, moved_immediate, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;
use std::cmp::Ordering;

/// The result ptxas gives an `.s64` `min`/`max`/`setp`/`set` of −|x| against a negative
/// constant (see the module header); `None` (the spec stands) elsewhere or where they agree.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.ty != GlueType::S64 || !matches!(g.op, GlueOp::Min | GlueOp::Max | GlueOp::Setp(_) | GlueOp::Set(..)) {
        return None;
    }
    if !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let k = (0..2).find(|&k| reg_of_glue(g, k).is_some_and(|r| negated_abs(m, t, r)))?;
    let c = 1 - k;
    let constant = imm_of(g, c).is_some()
        || reg_of_glue(g, c).is_some_and(|r| moved_immediate(m, t, r) && known_at_compile_time::known(m, t, r));
    let bound = vals[c].bits as u64;
    if !constant || (bound as i64) >= 0 {
        return None;
    }
    let v = vals[k].bits as u64;
    // The order ptxas assumes: v below the bound.
    let ord = if k == 0 { Ordering::Less } else { Ordering::Greater };
    let folded = match g.op {
        GlueOp::Max => bound,
        GlueOp::Min => v,
        GlueOp::Setp(cmp) => u64::from(cmp.holds(ord)),
        GlueOp::Set(cmp, dst) => {
            let holds = u64::from(cmp.holds(ord));
            Glue { op: GlueOp::Set(Cmp::Eq, dst), ty: GlueType::U32, ..*g }.eval([holds, 1, 0, 0], false)
        }
        _ => return None,
    };
    let to = Expected::exact(u128::from(folded), result.width);
    (to != *result).then_some(to)
}

/// Whether register `r` of thread `t` holds −|x|: the result of an unguarded `neg.s64` of an
/// unguarded `abs.s64`'s result, or of an unguarded `sub.s64 d, 0, y` (0 an immediate or a
/// moved 0) whose y register was last written by an unguarded `abs.s64` in the same straight run.
fn negated_abs(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Glue { guard: None, glue: p }, o)) = m.producer(t, r) else { return false };
    if p.ty != GlueType::S64 {
        return false;
    }
    match p.op {
        GlueOp::Neg => o.a_stmt.is_some_and(|k| is_abs64(m.p.body.get(k))),
        GlueOp::Sub => {
            let zero = imm_of(p, 0).map_or_else(|| first_source_moved_zero(m, o), |z| z == 0);
            zero && reg_of_glue(p, 1).is_some_and(|y| abs64_wrote_last(m, o.stmt, y))
        }
        _ => false,
    }
}

/// Whether statement `s` is an unguarded `abs.s64`.
fn is_abs64(s: Option<&Stmt>) -> bool {
    matches!(s, Some(Stmt::Glue { guard: None, glue }) if glue.op == GlueOp::Abs && glue.ty == GlueType::S64)
}

/// Whether the last statement before body index `at` that writes `y`, with no label or branch
/// between, is an unguarded `abs.s64`.
fn abs64_wrote_last(m: &Machine<'_>, at: usize, y: Reg) -> bool {
    for s in m.p.body.get(..at).unwrap_or_default().iter().rev() {
        if matches!(s, Stmt::Label(_) | Stmt::Bra { .. }) {
            return false;
        }
        if writes(s, y) {
            return is_abs64(Some(s));
        }
    }
    false
}
