//! 3604-N3 generalized to its mechanism (helper w1, session 43; corpus/known/
//! fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed.toml): ptxas -O3 (13.0.88 and 13.5)
//! counts a loop whose exit test is `setp.{gt,ge,lt,le}.u32` of the induction value and an
//! immediate as if the test were `.s32` (§9.7.7.1 compares `.u32` unsigned), and folds the loop
//! to that constant trip count.
//!
//! Evidence (ptxas 13.0.88 -O3 listings, this session's variants in the toml): seed 4201's
//! ca25d7b2 (`gt.u32 0x7fffffff`, step 2^31: 1 trip, the spec 2), seed 4203's 98d8219f
//! (`lt.u32 0x15` counting up from 2^31: 4097 trips, the spec 1) and 00eb007a (`gt.u32 0x1f`,
//! step −0x7fffffff: 1 trip, the spec 2), besides session 36's down-counts against K ≥ 2^31.
//!
//! Scope: the induction register is set by a move of an immediate before the loop and written in
//! it only by unguarded `add`/`sub` of itself and an immediate, the test is followed by
//! `@p bra` back to the loop's label, and the signed reading gives a count that ptxas computes:
//! the signed progression reaches the exit without wrapping (a wrapping one keeps the loop:
//! 98d8219f's `v6_pos_start`, T8's up-count `l7`) within [`SIGNED_TRIPS_FOLDED`] trips (more
//! keeps or only partly folds the loop), or past that where the body only shifts registers out
//! and the count is not read after the loop (`emulate/signed_count_of_a_shifted_out_body.rs`);
//! a count read after such a loop is a point of the count ptxas's peel and unroll pick
//! (`emulate/counter_of_a_signed_count_read_after_the_loop.rs`, set at the step; the exit test
//! leaves where the spec does).
//! `gt.u32 i, 0` is counted signed only from a positive start (from 0 or a negative one the loop
//! is kept: ca25d7b2's `v16`; `emulate/unsigned_gt_zero_exit_counted_from_a_positive_start.rs`). Where ptxas keeps the
//! loop right although the signed count is finite (some small steps, ca25d7b2's
//! `v2`/`v7`/`v8`) the emulation over-approximates; which of those ptxas keeps is not known.

use super::fuzz3602::{label_at, next_flow, writes};
use super::origin::read_later;
use super::{
    imm_of, reg_of_glue, signed_count_of_a_shifted_out_body, unsigned_gt_zero_exit_counted_from_a_positive_start,
};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType};
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::Expected;

/// The most trips ptxas folds a signed-counted loop to. Seen folded: 32769 trips (98d8219f's
/// `v_step_0xffff`, and this session's `add 0x10000` variant); seen kept or partly folded:
/// 34953, 37450 and 65539 trips (98d8219f's `v_step_0x7fff`).
pub(super) const SIGNED_TRIPS_FOLDED: u64 = 32_769;

/// 3604-N3: the exit test `g` of a counted loop compared as `.s32` where ptxas counts it so;
/// `None` (the spec stands) elsewhere.
pub(super) fn loop_exit_test_signed(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let (i, bound, cmp) = exit_test(g)?;
    let (bra, &Stmt::Bra { guard: Some(guard), label }) = next_flow(m, m.stmt + 1)? else { return None };
    let head = label_at(m, label).filter(|&l| l < m.stmt)?;
    if guard.negated || Reg::Virt(RegClass::Pred, guard.pred) != g.dst {
        return None;
    }
    let step = step_per_trip(&m.p.body[head + 1..m.stmt], i)?;
    let start = start_before(&m.p.body[..head], i)?;
    let trips = signed_trips(i64::from(start), i64::from(step), cmp, i64::from(bound as i32))?;
    if !vals.iter().take(2).all(Expected::is_exact) {
        // Past the bound with the counter read after the loop, its step left the counter's
        // high bits free in the trip the unsigned test leaves
        // (`emulate/counter_of_a_signed_count_read_after_the_loop.rs`): the loop leaves there,
        // tested on the one value the set names (the spec's).
        let past = trips > SIGNED_TRIPS_FOLDED && read_later(m, bra, i);
        let s = [vals.first()?.bits as u64, vals.get(1)?.bits as u64, 0, 0];
        return past.then(|| Expected::exact(u128::from(g.eval(s, false)), result.width));
    }
    // Past the bound only a body that shifts its registers out has a closed form: the loop
    // leaves once they are 0 (`emulate/signed_count_of_a_shifted_out_body.rs`).
    if trips > SIGNED_TRIPS_FOLDED && signed_count_of_a_shifted_out_body::shifted_out(m, t, head, bra, i)? {
        return Some(Expected::exact(0, result.width));
    }
    let signed = Glue { ty: GlueType::S32, ..*g };
    let s = [vals[0].bits as u64, vals[1].bits as u64, 0, 0];
    Some(Expected::exact(u128::from(signed.eval(s, false)), result.width))
}

/// A counted loop's exit test `g` as `i cmp K` (`setp.{gt,ge,lt,le}.u32` of a register and an
/// immediate, whichever operand the immediate is): the register, K and the order; `None` for any
/// other `setp`. `gt.u32 i, 0` is counted only from a positive start ([`signed_trips`]).
pub(super) fn exit_test(g: &Glue) -> Option<(Reg, u32, Cmp)> {
    let GlueOp::Setp(cmp) = g.op else { return None };
    if g.ty != GlueType::U32 || !matches!(cmp, Cmp::Gt | Cmp::Ge | Cmp::Lt | Cmp::Le) {
        return None;
    }
    let (i, bound, cmp) = match (reg_of_glue(g, 0), imm_of(g, 1), imm_of(g, 0), reg_of_glue(g, 1)) {
        (Some(i), Some(k), _, _) => (i, k, cmp),
        (_, _, Some(k), Some(i)) => (i, k, swapped(cmp)),
        _ => return None,
    };
    Some((i, bound as u32, cmp))
}

/// `cmp` with its operands exchanged (`K < i` is `i > K`).
fn swapped(cmp: Cmp) -> Cmp {
    match cmp {
        Cmp::Gt => Cmp::Lt,
        Cmp::Lt => Cmp::Gt,
        Cmp::Ge => Cmp::Le,
        Cmp::Le => Cmp::Ge,
        other => other,
    }
}

/// What one trip of `in_loop` adds to `i` (read as `.s32`), where every write of `i` in it is an
/// unguarded `add`/`sub` of `i` and an immediate and there is one; `None` otherwise or for 0.
pub(super) fn step_per_trip(in_loop: &[Stmt], i: Reg) -> Option<i32> {
    let mut step = 0u32;
    let mut stepped = false;
    for s in in_loop.iter().filter(|s| writes(s, i)) {
        let Stmt::Glue { guard: None, glue } = s else { return None };
        let k = imm_of(glue, 1).filter(|_| reg_of_glue(glue, 0) == Some(i))? as u32;
        step = match glue.op {
            GlueOp::Add => step.wrapping_add(k),
            GlueOp::Sub => step.wrapping_sub(k),
            _ => return None,
        };
        stepped = true;
    }
    (stepped && step != 0).then_some(step as i32)
}

/// The immediate the last write of `i` in `before` (the statements before the loop) moves.
pub(super) fn start_before(before: &[Stmt], i: Reg) -> Option<i32> {
    match before.iter().rev().find(|s| writes(s, i))? {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            match operands.get(1) {
                Some(Operand::Imm(Imm::Int(v))) => Some(*v as u32 as i32),
                _ => None,
            }
        }
        _ => None,
    }
}

/// How many trips a loop runs from `start`, adding `step` a trip, while `i cmp bound` holds with
/// every value read as `.s32`: the least n ≥ 1 for which the test fails. `None` where the
/// progression wraps before (ptxas cannot count it signed), `cmp` is no order, or ptxas keeps the
/// unsigned test (`gt 0` from a start that is not positive:
/// `emulate/unsigned_gt_zero_exit_counted_from_a_positive_start.rs`).
pub(super) fn signed_trips(start: i64, step: i64, cmp: Cmp, bound: i64) -> Option<u64> {
    if unsigned_gt_zero_exit_counted_from_a_positive_start::kept_unsigned(start, cmp, bound) {
        return None;
    }
    // Continue while i > b (gt, ge as b − 1) or while i < b (lt, le as b + 1).
    let (above, b) = match cmp {
        Cmp::Gt => (true, bound),
        Cmp::Ge => (true, bound - 1),
        Cmp::Lt => (false, bound),
        Cmp::Le => (false, bound + 1),
        _ => return None,
    };
    if step == 0 {
        return None;
    }
    let first = start + step;
    let goes_on = |v: i64| if above { v > b } else { v < b };
    let n = if !goes_on(first) {
        1
    } else if above == (step < 0) {
        // Moving towards the exit: the least n with start + n·step past b.
        let distance = if above { start - b } else { b - start };
        (distance + step.abs() - 1) / step.abs()
    } else {
        return None;
    };
    let last = start + n * step;
    (i64::from(i32::MIN)..=i64::from(i32::MAX)).contains(&last).then_some(n as u64)
}
