//! 3702-N3 (`join-of-minus-one-and-one-f32-merged`) widened after seed 5803's b7cf5d00 (session
//! 58, helper hb; corpus/findings/fuzz-h200-5803/trace/T58B.md, variants with 13.0.88 and 13.5
//! -O3 listings in trace/b7cf5d00/s58/): the arm's write is a constant to ptxas because the
//! one-armed if's own head pins its source. `setp.ne.{u32,s32} p, r, K; @p bra L` runs the
//! arm only where r == K, and 13.0.88 -O3 folds the arm's value of r as of K. The stored case:
//! `mov.b32 r0, -1; setp.ne.u32 p0, tix, 90; @p0 bra L0; cvt.rpi.f32.f32 r0, tix; L0:` — in the
//! arm ceil(90 as f32 bits, a subnormal kept by §9.7.9.21) = 1.0f, so ptxas takes the arm's 1.0f
//! and the old −1 as equal and stores −1 in every thread (`MOV R0, 0xffff; STG.E.U16`), where
//! thread 90 should store 0x0000; 13.5 keeps `ISETP.NE.U32; @!P0 PRMT R0, RZ, 0x7610, R0`.
//!
//! Wrong alike (s58): other pinned values giving 1.0f (w8 tix == 1, x6 == 91), r loaded (x1, x9:
//! even the load deleted), `.s32` (x3) and `.b32` (x12, no glue form of the program model) compares, a `cvt.rn.f32.u32` of r == 1
//! (x4), a `mov` of r == 0x3f800000 (x5), the old 1.0f under an arm moving r == −1 (x14), r
//! rewritten in the arm from itself (x13: `add.u32 tix, tix, 1` first, still known). Right:
//! `setp.eq; @!p bra` (x11: the same arm condition, but 13.0.88 keeps `@!P0 FRND.CEIL`), `setp.eq;
//! @p bra` (x2: the arm where r != K), a range compare (x10), no branch (v10, x8), and every
//! pair but −1/1.0f (`merged_at_join`'s own condition).
//!
//! Invariants: a condition on the program's statements only; changes no value by itself. The
//! caller is `fuzz3702.rs`'s `merged_at_join`.

use super::fuzz3602::writes;
use super::fuzz3701::{folded_constant, reaches_on_every_path};
use super::reg_of_glue;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, GlueType, Src};
use crate::program::{Reg, RegClass, Stmt};

/// The register the head `@p bra L` at body index `bra` pins in its arm, with the index of the
/// `setp` that does: p (not negated) last written before `bra` by an unguarded
/// `setp.ne.{u32,s32} p, r, K` (or `K, r`), K an immediate or a [`folded_constant`], on
/// every path to the branch.
fn pinned(m: &Machine<'_>, bra: usize) -> Option<(usize, Reg)> {
    let Stmt::Bra { guard: Some(g), .. } = &m.p.body[bra] else { return None };
    if g.negated {
        return None;
    }
    let p = Reg::Virt(RegClass::Pred, g.pred);
    let (k, s) = m.p.body[..bra].iter().enumerate().rev().find(|(_, s)| writes(s, p))?;
    let Stmt::Glue { glue, guard: None } = s else { return None };
    let int32 = matches!(glue.ty, GlueType::U32 | GlueType::S32);
    if glue.op != GlueOp::Setp(Cmp::Ne) || !int32 || !reaches_on_every_path(m, k, bra) {
        return None;
    }
    let constant = |i: usize| match glue.src[i] {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(r)) => folded_constant(m, k, r, 3),
        None => false,
    };
    match (reg_of_glue(glue, 0), reg_of_glue(glue, 1)) {
        (Some(r), _) if constant(1) => Some((k, r)),
        (_, Some(r)) if constant(0) => Some((k, r)),
        _ => None,
    }
}

/// Whether the statement at body index `s`, the arm's write after the head at `bra`, writes a
/// value ptxas knows there because the head pins a register ([`pinned`]): an unguarded `mov`
/// copy or `cvt` of a known value, or unguarded glue (no carry) of known values and immediates,
/// at least one of them the pinned register or an arm value computed from it (at most `depth`
/// writes deep). A known value: the pinned register unwritten since its `setp`, a
/// [`folded_constant`], or such a write in the arm.
pub(super) fn arm_write_of_a_pinned_register(m: &Machine<'_>, bra: usize, s: usize) -> bool {
    let Some((setp, r)) = pinned(m, bra) else { return false };
    let head = Head { setp, bra, r };
    writes_pinned(m, &head, s, 3)
}

/// A pinning head: the `setp` at `setp`, the branch at `bra`, the pinned register `r`.
struct Head {
    setp: usize,
    bra: usize,
    r: Reg,
}

/// Whether the statement at `k` writes a value known from the pinned register (see
/// [`arm_write_of_a_pinned_register`]).
fn writes_pinned(m: &Machine<'_>, h: &Head, k: usize, depth: u32) -> bool {
    // Each source: `Some(true)` pinned-derived, `Some(false)` a plain constant, `None` unknown.
    let source = |r: Reg| -> Option<bool> {
        let w = m.p.body[..k].iter().rposition(|x| writes(x, r));
        // The pinned register unwritten since its `setp`, or an arm write computed from it.
        let unwritten = r == h.r && w.is_none_or(|w| w < h.setp);
        let in_arm = w.is_some_and(|w| w > h.bra && depth > 0 && writes_pinned(m, h, w, depth - 1));
        if unwritten || in_arm {
            Some(true)
        } else if folded_constant(m, k, r, 3) {
            Some(false)
        } else {
            None
        }
    };
    let of_operand = |o: Option<&Operand>| match o {
        Some(Operand::Imm(_)) => Some(false),
        Some(o) => m.reg_of(o).ok().and_then(source),
        None => None,
    };
    let known = match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            of_operand(operands.get(1))
        }
        Stmt::Isa(Instruction { form: Form::Cvt(_), operands, guard: None, .. }) => of_operand(operands.get(1)),
        Stmt::Glue { glue, guard: None } if !glue.op.reads_carry() => {
            glue.src.iter().take(glue.op.arity()).try_fold(false, |any, src| match src {
                Some(Src::Imm(_)) => Some(any),
                Some(Src::Reg(r)) => source(*r).map(|p| any || p),
                None => None,
            })
        }
        _ => None,
    };
    known == Some(true)
}
