//! 63aaaadc (corpus/known/fuzz-h200-5001-63aaaadc-sub-of-evaluated-max-s32-in-an-arm-added.toml):
//! ptxas 13.0.88 -O3 and the JIT drop the negation of a 0x7fffffff evaluated in the arm of a
//! one-armed `if`: in `@p bra L; K = op c, imm; … sub d, x, K (or neg d, K); L:`, where `op` is an
//! `xor`/`or`/`add` of a register c holding a constant moved before the branch and an immediate,
//! giving 0x7fffffff, the arm's `sub.{s32,u32} d, x, K` is compiled as x + K (`@P0 IADD3 R6, R2,
//! 0x7fffffff, RZ`) and `neg.s32 d, K` as K (`@P0 MOV R7, 0x7fffffff`), where §9.7.1.2 (sub) gives
//! x − K and §9.7.1 (integer `neg`) −K = 0x80000001. 13.5 -O3 (`-0x7fffffff`) and -O0 right. Called from
//! [`glue`](super::glue) (a glue hook).
//!
//! Evidence (13.0.88 / 13.5 -O3 listings): seed 5001's 63aaaadc (corpus/findings/fuzz-h200-5001/
//! trace/T21a.md "63aaaadc": the xor of a moved 0, the sub's high half stored, 0x7fff for 0x8000)
//! and its variants. Wrong: trace/63aaaadc/s50/ v5 (another guard constant), v11 (`or.b32`), v12
//! (`add.u32`); s51/ v1 (the xor of a moved 5), v2 (`sub.u32`), v3 (`neg.s32` then `add`: x + K),
//! v4 (`neg.s32` alone: K), v5 (x another load). Right: s50/ v1 (no branch), v2 (a moved
//! 0x7fffffff), v3 (an immediate subtrahend), v4/v6/v9/v10 (other constants; s51/ v11, v12 and the
//! sweep in s51/README.md: only 0x7fffffff), v7 (`add`: the spec's x + K), v8 (the xor before
//! the branch); s51/ v6 (K − x: `-R2 + 0x7fffffff`, the spec's), v7 (a predicated arm, no branch),
//! v8 (the sub after the join), v9 (the moved constant written in the arm), v10 (an if/else).
//!
//! Scope: the statement run is an unguarded `sub.{s32,u32}` whose subtrahend (or `neg.s32` whose
//! source) holds 0x7fffffff from an unguarded `xor`/`or`/`add` (32-bit) of a register and an
//! immediate, the register's last write before the branch a constant ptxas folds
//! ([`folded_constant`]) and unwritten in the arm; the two in one straight arm that a guarded
//! forward branch right before it skips, the arm ending at that branch's label (no else arm).
//!
//! Invariants: [`glue`] changes only such a `sub`/`neg` result, to x + K (K), never where the
//! subtrahend is not exactly 0x7fffffff.

use super::fuzz3602::writes;
use super::fuzz3701::folded_constant;
use super::one_armed_if_by_branch_around_a_branch::branch_around_a_branch;
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// The one constant whose negation is lost (the sweep: 0x7ffffffe, 0x7ffffffd, 0x3fffffff,
/// 0x40000000, 0xffff, 0x7fff, 0xffffff, 1, 0x12345, 0xffffffff, 0x80000000 are compiled right).
const K: u64 = 0x7FFF_FFFF;

/// How deep [`folded_constant`] follows the moved constant's producers.
const DEPTH: u32 = 3;

/// The value ptxas 13.0.88 -O3 gives `sub.{s32,u32} d, x, K` (x + K) or `neg.s32 d, K` (K) where
/// K is a 0x7fffffff evaluated in the same one-armed `if` arm ([`evaluated_in_the_arm`]);
/// `None` (the spec stands) elsewhere.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let (k_src, minuend) = match (g.op, g.ty) {
        (GlueOp::Sub, GlueType::S32 | GlueType::U32) => (1, vals.first().filter(|a| a.is_exact())?.bits as u64),
        (GlueOp::Neg, GlueType::S32) => (0, 0),
        _ => return None,
    };
    if !matches!(m.p.body.get(m.stmt)?, Stmt::Glue { guard: None, .. }) {
        return None;
    }
    vals.get(k_src).filter(|v| v.is_exact() && v.bits as u64 & 0xFFFF_FFFF == K)?;
    let r = reg_of_glue(g, k_src)?;
    let (Stmt::Glue { guard: None, glue: p }, o) = m.producer(t, r)? else { return None };
    if !evaluated_in_the_arm(m, o.stmt, p) {
        return None;
    }
    Some(Expected::exact(u128::from(minuend.wrapping_add(K) & 0xFFFF_FFFF), result.width))
}

/// Whether glue `p` at body index `k` is a 32-bit `xor`/`or`/`add` of a register and an
/// immediate whose register holds a constant from before the branch of a one-armed `if` whose
/// arm holds both `k` and the statement being run (no branch or label between them; the arm
/// ends at the branch's label).
fn evaluated_in_the_arm(m: &Machine<'_>, k: usize, p: &Glue) -> bool {
    if !matches!(p.op, GlueOp::Xor | GlueOp::Or | GlueOp::Add) || p.ty.bits() != 32 || k >= m.stmt {
        return false;
    }
    let Some(c) = (0..2).find_map(|i| imm_of(p, 1 - i).and(reg_of_glue(p, i))) else { return false };
    let flow = |s: &Stmt| matches!(s, Stmt::Label(_) | Stmt::Bra { .. });
    let body = &m.p.body;
    let Some(b) = body[..k].iter().rposition(flow) else { return false };
    // The head: `@p bra L;` right before the arm, or a branch around a branch.
    let head = match body[b] {
        Stmt::Bra { guard: Some(_), label } => Some((b, label)),
        _ => branch_around_a_branch(body, b),
    };
    let Some((b, label)) = head else { return false };
    let arm_end = body.iter().enumerate().skip(m.stmt + 1).find(|(_, s)| flow(s));
    let one_armed = matches!(arm_end, Some((_, Stmt::Label(l))) if *l == label);
    one_armed
        && !body[k + 1..m.stmt].iter().any(flow)
        && !body[b + 1..k].iter().any(|s| writes(s, c))
        && folded_constant(m, b, c, DEPTH)
}
