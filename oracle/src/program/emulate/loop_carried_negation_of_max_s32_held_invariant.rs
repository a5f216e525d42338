//! 17b32162 (corpus/known/fuzz-h200-4201-17b32162-loop-carried-negation-of-max-s32-held-invariant.toml):
//! ptxas 13.0.88 -O3 (13.5 too where the loop is not evaluated ahead) and the JIT take a
//! loop-carried negation of 0x7fffffff — `xor.b32 r, r, 0xffffffff`, `neg.s32 r, r`,
//! `mul.lo.{s32,u32} r, r, -1` — as loop-invariant: r keeps 0x7fffffff through every trip
//! (`MOV R7, 0x7fffffff; STG`, the loop deleted), where §9.7.8.2 / §9.7.1 make an odd number of
//! negations 0x80000000 (0x7fffffff ^ 0xffffffff). Called from [`glue`](super::glue).
//!
//! Evidence (ptxas 13.0.88 -O3 listings): seed 4201's 17b32162 (trace/T12a1.md, trace/17b32162/:
//! `reduced.ptx`, a loaded trip count), seed 4601's 35e392ba (trace/T17t1.md) and 5417329a
//! (trace/T17t2.md, trace/5417329a/ and its `s47/`): `mov.b32 r0, 0x7fffffff; mov.u32 r1, S;
//! L: xor.b32 r0, r0, -1; add r1, r1, 2; setp.lt.u32 p, r1, 8; @p bra L` with S = 0x100000 or
//! 0x100080 (one trip by §9.7.7.1's unsigned compare) stores 0x7fffffff. Wrong alike: `neg.s32`
//! (`v5_neg`, 35e392ba's `v4_neg`), `mul.lo.s32 ×−1` (`s47/v2_mul_m1`), three negations a trip
//! (`s47/v9_three_negations`), a loaded start of the counter (`v2_loaded_start`), a loaded count
//! stepped down to 0 (`s47/v6_loaded_countdown`, 17b32162's `reduced.ptx`), and a reader of r in
//! the loop sees 0x7fffffff too (`s47/v4_read_in_loop`: `IADD3 R5, R5, 0x7fffffff`).
//!
//! Scope — where ptxas does not evaluate the loop ahead: a join between r's move and the loop,
//! reached by a forward branch over an arm ptxas keeps (a store or an `ld.acquire`: 17b32162's
//! orig with 7 trips, `s2_c1`, `s4_c3`, `d_store_arm_loop`); or the exit test (the last writer of
//! the back edge's predicate) reads a counter whose value on entry ptxas does not know
//! ([`ptxas_constant`] of its last writer before the loop); or a counter moved from an
//! immediate S and stepped by an immediate k > 0 under `setp.lt.u32 i, b` whose start already
//! fails the test, S = b or S ≥ b + k, S and b below 2^31 (`s47/v1_start_step_scan.txt`,
//! 5417329a's `start_scan.txt`: b < S < b + k is evaluated, right).
//!
//! Out (the spec stands): any other start value of r (`v3_init_{0,5,2147483646,2147483648}`),
//! a loaded r (`s47/v8_loaded_init_r0`: the loop is kept), `not.b32` (`v4_not`), other widths
//! (17b32162's `u/`), no loop (`v6_no_loop`), a known count (`s47/v5_countdown_const3`, 17b32162's
//! `v1`…`v13`: evaluated, right), S < b (evaluated: 35e392ba's `v2_three_trips`,
//! `v3_one_trip_small`), a branch whose arm ptxas deletes (`r3_no_load`, `r4_label_only`,
//! `r5_ld_weak`), r moved after the join (`w/i_loop_other_reg_init`) or the branch after the loop
//! (`w/j_loop_then_branch`), any write of r in the loop other than such a negation. Not emulated
//! though wrong: a `membar.gl` arm (`r7_fence`: the program model has no `membar`),
//! `sub.s32 r, -1, r` (0x7ffffffe, another word), and a start S ≥ 2^31 (`s47/v7_start_min`, 0x80000000: wrong, but
//! 0xfffffffa and 0xffffffff are right, as ptxas counts those starts signed, 3604-N3).
//!
//! Invariants: changes only such a negation's result (to its source, 0x7fffffff), only when the
//! deviation is emulated.

use super::fuzz3602::{guard_setp, label_at, next_flow, previous_flow, writes};
use super::origin::ptxas_constant;
use super::unsigned_loop_exit_counted_signed::{start_before, step_per_trip};
use super::{imm_of, reg_of_glue};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, LdSem, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The value ptxas holds invariant (`i32::MAX`).
const MAX_S32: u128 = 0x7fff_ffff;

/// 17b32162: the result of a loop-carried negation of 0x7fffffff that ptxas holds invariant (its
/// source, 0x7fffffff); `None` (the spec stands) elsewhere.
pub(super) fn glue(m: &Machine<'_>, _: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let source = vals.first().filter(|v| v.is_exact() && v.bits & 0xFFFF_FFFF == MAX_S32)?;
    if !matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. })) || !negation_of_itself(g) {
        return None;
    }
    let r = g.dst;
    // The loop: a label before the negation, no label or branch between, and the back edge the
    // next branch after it.
    let (head, &Stmt::Label(l)) = previous_flow(m, m.stmt)? else { return None };
    let (bra, &Stmt::Bra { guard: Some(guard), label }) = next_flow(m, m.stmt + 1)? else { return None };
    if label != l || guard.negated || label_at(m, l) != Some(head) {
        return None;
    }
    // Every write of r in the loop such a negation, r 0x7fffffff on entry.
    let in_loop = m.p.body.get(head + 1..bra)?;
    let every_write_negates = in_loop
        .iter()
        .filter(|s| writes(s, r))
        .all(|s| matches!(s, Stmt::Glue { guard: None, glue } if glue.dst == r && negation_of_itself(glue)));
    let entry = max_s32_moved_before(m, head, r)?;
    if !every_write_negates {
        return None;
    }
    // The exit test: the last writer of the back edge's predicate, in the loop.
    let (_, exit) = guard_setp(m, guard, bra).filter(|(k, _)| (head..bra).contains(k))?;
    let held = join_of_a_kept_arm(m, entry, head) || not_evaluated_ahead(m, head, bra, exit);
    held.then(|| Expected::exact(source.bits & 0xFFFF_FFFF, result.width))
}

/// The body index of the last write of `r` before `head` where it is an unguarded move of the
/// immediate 0x7fffffff (`mov.{b32,u32,s32}` of the integer, `mov.f32` of `0f7FFFFFFF`).
fn max_s32_moved_before(m: &Machine<'_>, head: usize, r: Reg) -> Option<usize> {
    let k = m.p.body.get(..head)?.iter().rposition(|s| writes(s, r))?;
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = &m.p.body[k] else {
        return None;
    };
    let bits = match operands.get(1) {
        Some(Operand::Imm(Imm::Int(v))) => *v as u32,
        Some(Operand::Imm(Imm::F32Bits(v))) => *v,
        _ => return None,
    };
    (mv.shape == MovShape::Copy && u128::from(bits) == MAX_S32).then_some(k)
}

/// Whether a forward `@p bra J` between `entry` (r's move) and the loop's label `head` skips an
/// arm that ptxas keeps — one with a store or an `ld.acquire` (17b32162's orig and
/// `d_store_arm_loop`) — to a join J at or before `head`. An empty arm, or one of dead
/// arithmetic or a dead weak load (`r3_no_load`, `r4_label_only`, `r5_ld_weak`), is deleted with
/// its branch, and the loop is evaluated ahead (right).
fn join_of_a_kept_arm(m: &Machine<'_>, entry: usize, head: usize) -> bool {
    let kept = |s: &Stmt| match s {
        Stmt::Isa(Instruction { form: Form::St(_), .. }) => true,
        Stmt::Isa(Instruction { form: Form::Ld(ld), .. }) => ld.sem == Some(LdSem::Acquire),
        _ => false,
    };
    (entry + 1..head).any(|j| match &m.p.body[j] {
        Stmt::Bra { guard: Some(_), label } => label_at(m, *label).is_some_and(|join| {
            let arm = &m.p.body[j + 1..join.max(j + 1)];
            join <= head && arm.iter().all(|s| !matches!(s, Stmt::Label(_) | Stmt::Bra { .. })) && arm.iter().any(kept)
        }),
        _ => false,
    })
}

/// Whether `g` is `xor.b32 r, r, 0xffffffff`, `neg.s32 r, r` or `mul.lo.{s32,u32} r, r, −1`.
fn negation_of_itself(g: &Glue) -> bool {
    let itself = reg_of_glue(g, 0) == Some(g.dst);
    let all_ones = imm_of(g, 1).is_some_and(|k| k & 0xFFFF_FFFF == 0xFFFF_FFFF);
    itself
        && match (g.op, g.ty) {
            (GlueOp::Xor, GlueType::B32) | (GlueOp::MulLo, GlueType::S32 | GlueType::U32) => all_ones,
            (GlueOp::Neg, GlueType::S32) => true,
            _ => false,
        }
}

/// Whether ptxas leaves the loop from `head` to the back edge at `bra`, exited by `exit`, to run
/// (the variants' scope, see the module docs): a counter ptxas does not know on entry, or a
/// known start that already fails an up-counted `setp.lt.u32` (S = b or S ≥ b + k).
fn not_evaluated_ahead(m: &Machine<'_>, head: usize, bra: usize, exit: &Glue) -> bool {
    let counters: Vec<Reg> = (0..2)
        .filter_map(|k| reg_of_glue(exit, k))
        .filter(|&i| m.p.body[head + 1..bra].iter().any(|s| writes(s, i)))
        .collect();
    let [i] = counters[..] else { return false };
    if ptxas_constant(m, head, i).is_none() {
        return true;
    }
    let (GlueOp::Setp(Cmp::Lt), GlueType::U32) = (exit.op, exit.ty) else { return false };
    let (Some(b), true) = (imm_of(exit, 1), reg_of_glue(exit, 0) == Some(i)) else { return false };
    let (Some(start), Some(step)) = (start_before(&m.p.body[..head], i), step_per_trip(&m.p.body[head + 1..bra], i))
    else {
        return false;
    };
    let (s, b, k) = (i64::from(start), i64::from(b as u32), i64::from(step));
    s >= 0 && b < 1 << 31 && k > 0 && (s == b || s >= b + k)
}
