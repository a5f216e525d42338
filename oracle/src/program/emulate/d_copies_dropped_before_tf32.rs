//! The copies ptxas drops between a packed-halves producer and a tf32 conversion (root cause D,
//! `corpus/known/fuzz-h200-d-tf32-of-packed-half.toml`), widened to the mechanism in session 40
//! (corpus/findings/fuzz-h200-3902/, 5a4c85c6, trace/T6E.md: `or.b32 r7, r6, 0` between
//! `cvt.rn.f16x2.f32` and `cvt.rn.tf32.f32`, 13.0.88 and 13.5 -O3 `PRMT R7, R10, 0x7610, R7` of a
//! register never written). Called from `origin.rs` ([`copied_source`]).
//!
//! Every 32-bit operation ptxas folds to its source is a copy here (helper h6 compiled each on
//! 5a4c85c6's reduction with 13.0.88 -O3: the same `PRMT … 0x7610` and `F2FP.TF32.F32.PACK_B`):
//! `or`/`xor`/`add` with 0 and `sub`/`shl`/`shr` by 0 (an immediate or a register holding a
//! folded constant 0), `and` with all ones, `mul.lo` by 1, `min`/`max` of a register with itself,
//! and a `mov` copy. Not a copy (right: `LOP3` of the whole word): `or.b32 x, 1`.
//!
//! Invariants: pure queries of the program and the machine's values; no register is changed.

use super::fuzz3602::{unchanged_between, writes};
use super::fuzz3701::folded_constant;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// The register the statement at body index `at` copies (§9.7.9.4 `mov`; §9.7.1, §9.7.8 for the
/// identities in the module docs), read where thread `t` runs the statement being run: none when
/// it is no copy.
pub(super) fn copied_source(m: &Machine<'_>, t: u32, at: usize) -> Option<Reg> {
    match m.p.body.get(at)? {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }) if mv.shape == MovShape::Copy => {
            operands.get(1).filter(|o| !matches!(o, Operand::Imm(_))).and_then(|o| m.reg_of(o).ok())
        }
        Stmt::Glue { glue, .. } if matches!(glue.ty, GlueType::B32 | GlueType::U32 | GlueType::S32) => {
            let reg = |k: usize| match glue.src.get(k).copied().flatten() {
                Some(Src::Reg(r)) => Some(r),
                _ => None,
            };
            let constant = |k: usize| match glue.src.get(k).copied().flatten()? {
                Src::Imm(v) => Some(v & 0xFFFF_FFFF),
                Src::Reg(r) if folded_constant(m, at, r, 3) && unchanged_between(m, r, at, m.stmt) => {
                    m.read(t, r).ok().filter(|v| v.is_exact()).map(|v| v.bits as u64 & 0xFFFF_FFFF)
                }
                Src::Reg(_) => None,
            };
            let neutral = |v: u64| match glue.op {
                GlueOp::Or | GlueOp::Xor | GlueOp::Add => v == 0,
                GlueOp::And => v == 0xFFFF_FFFF,
                GlueOp::MulLo => v == 1,
                _ => false,
            };
            match glue.op {
                GlueOp::Or | GlueOp::Xor | GlueOp::Add | GlueOp::And | GlueOp::MulLo => {
                    [(0, 1), (1, 0)].into_iter().find_map(|(x, k)| reg(x).filter(|_| constant(k).is_some_and(neutral)))
                }
                GlueOp::Sub | GlueOp::Shl | GlueOp::Shr => reg(0).filter(|_| constant(1) == Some(0)),
                GlueOp::Min | GlueOp::Max => reg(0).filter(|&x| reg(1) == Some(x)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The body index of the unguarded statement that last wrote `r` before body index `before`
/// (none where that statement is guarded: which value reached is not known statically).
pub(super) fn unguarded_writer(m: &Machine<'_>, before: usize, r: Reg) -> Option<usize> {
    let (k, s) = m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, r))?;
    let guarded = match s {
        Stmt::Glue { guard, .. } => guard.is_some(),
        Stmt::Isa(i) => i.guard.is_some(),
        _ => true,
    };
    (!guarded).then_some(k)
}
