//! 3701-N-D: ptxas 13.0.88 and 13.5 -O3 (and the JIT) build a pack of an e4m3 pair in place in
//! the register of the half packed beside it, while that half is still read
//! (`corpus/known/fuzz-h200-3701-nd-merge-c-in-place.toml`;
//! corpus/findings/fuzz-h200-3701/, c8681b22, trace/TC1.md; corpus/findings/fuzz-h200-3702/,
//! dc54c0ab, trace/T3A.md). Called from the `mov` hook of `emulate.rs` ([`isa`]).
//!
//! Scope (the traces' variants): the pair `p` is `cvt.rn.satfinite.e4m3x2.{f32,f16x2}` of
//! zeros (moved immediates 0: `F2FP…MERGE_C R7, RZ, RZ, R7` / `R7, RZ, R7`), packed as the low
//! half of `mov.b32 r, {p, h}` or of the first word of `mov.b64 d, {p, h, …}`; `h` was written by
//! `xor.b16` (dc54c0ab: `LOP3.LUT R7, R2, 0x2`) or is an element of a `ld.v4.s8`
//! (c8681b22: `SGXT R7, R7, 0x8`). Then h's register holds the merged word, so a later read of
//! h, or of r's high half through a `mov.b32` unpack (`STG.E.U8 [+5], R7`), takes p. Right: h
//! from a scalar `ld.s8` or a 16-bit load (`right_ld_s8_distinct_regs`, `a5_ld16`: another
//! register), a `cvt.rn.f16.f32` in place of the pair (`a3_f16`, no MERGE_C), -O0.
//!
//! Invariants: the pack's own result is the spec's (§9.7.9.9 `mov` packs the halves as given);
//! a register changes only when the deviation is emulated and every statement named above is
//! unguarded and is exactly of the form given; otherwise the spec's values stand.

use super::fuzz3602::{unchanged_between, writes};
use super::origin::value_readers;
use crate::isa::operand::{Imm, Operand};
use crate::isa::types::{MemType, VecWidth};
use crate::isa::{CvtRnd, CvtType, Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The destinations of a `mov` under 3701-N-D: a destroying pack also writes its `h` with the
/// pair; the high half of a `mov.b32` unpack of its first word is the pair. `results` (the
/// spec's) extended or changed.
pub(super) fn isa(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) || inst.guard.is_some() {
        return results;
    }
    match mv.shape {
        MovShape::Pack(_) => {
            // Only a half still read (an unread one's change explains nothing).
            let Some((p, h)) = destroying_pack(m, m.stmt).filter(|&(_, h)| value_readers(m, m.stmt, h) > 0) else {
                return results;
            };
            let (Ok(pair), Ok(old)) = (m.read(t, p), m.read(t, h)) else { return results };
            let to = m.fire(d, &old, pair);
            results.push((h, to));
        }
        MovShape::Unpack(2) => {
            let (Some(Operand::Vector(items)), Some(src)) = (inst.operands.first(), inst.operands.get(1)) else {
                return results;
            };
            let Some(hi) = items.get(1).and_then(|o| m.reg_of(o).ok()) else { return results };
            let Some(pair) = m.reg_of(src).ok().and_then(|w| merged_word_pair(m, t, w)) else { return results };
            if let Some((_, e)) = results.iter_mut().find(|(r, _)| *r == hi) {
                let from = e.clone();
                *e = m.fire(d, &from, pair);
            }
        }
        _ => {}
    }
    results
}

/// The last statement before body index `before` that writes `r`, with its index.
fn last_writer<'m>(m: &'m Machine<'_>, before: usize, r: Reg) -> Option<(usize, &'m Stmt)> {
    m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, r))
}

/// Whether operand `o` is 0 where body index `before` reads it: an immediate 0, or a register
/// last written (unguarded) by a move of an immediate 0.
fn zero_at(m: &Machine<'_>, before: usize, o: &Operand) -> bool {
    let zero = |o: Option<&Operand>| {
        matches!(o, Some(Operand::Imm(Imm::Int(0) | Imm::F32Bits(0))))
            || matches!(o, Some(Operand::Imm(Imm::Float(f))) if *f == 0.0)
    };
    if zero(Some(o)) {
        return true;
    }
    let Ok(r) = m.reg_of(o) else { return false };
    matches!(last_writer(m, before, r), Some((_, Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. })))
        if zero(operands.get(1)))
}

/// The pair `p` and the half `h` of the pack at body index `k`, when it is one 3701-N-D builds
/// in place (module docs).
fn destroying_pack(m: &Machine<'_>, k: usize) -> Option<(Reg, Reg)> {
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = &m.p.body[k] else {
        return None;
    };
    let dst = operands.first().and_then(|o| m.reg_of(o).ok())?;
    let packs_halves = matches!((mv.shape, dst.class().bits()), (MovShape::Pack(2), 32) | (MovShape::Pack(4), 64));
    let Some(Operand::Vector(items)) = operands.get(1).filter(|_| packs_halves) else { return None };
    let (p, h) = (m.reg_of(items.first()?).ok()?, m.reg_of(items.get(1)?).ok()?);
    if p == h || p.class().bits() != 16 {
        return None;
    }
    let pair = match last_writer(m, k, p)? {
        (c, Stmt::Isa(Instruction { form: Form::Cvt(cv), operands, guard: None, .. })) => {
            let form = cv.dtype == CvtType::E4m3x2
                && matches!(cv.atype, CvtType::F32 | CvtType::F16x2)
                && cv.rnd == Some(CvtRnd::Rn)
                && cv.satfinite
                && !cv.relu;
            form && operands.iter().skip(1).all(|o| zero_at(m, c, o))
        }
        _ => false,
    };
    let half = match last_writer(m, k, h)? {
        (_, Stmt::Glue { glue, guard: None }) => {
            glue.op == GlueOp::Xor
                && glue.ty == GlueType::B16
                && glue.src.iter().flatten().any(|s| matches!(s, Src::Reg(_)))
        }
        (_, Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. })) => {
            l.ty == MemType::S8 && l.vec == Some(VecWidth::V4)
        }
        _ => false,
    };
    (pair && half).then_some((p, h))
}

/// The pair a destroying pack merged into the first word of its result, where `w` (read by a
/// `mov.b32` unpack at the statement being run) is that word: the pack's `mov.b32` result, or
/// the first word of `mov.b64 {w, _}, d` of its `mov.b64` result; read from the pair's register
/// (unwritten since the pack).
fn merged_word_pair(m: &Machine<'_>, t: u32, w: Reg) -> Option<Expected> {
    if w.class().bits() != 32 {
        return None;
    }
    let (u, writer) = last_writer(m, m.stmt, w)?;
    let pack = match writer {
        Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) if matches!(mv.shape, MovShape::Pack(_)) => u,
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
            if mv.shape == MovShape::Unpack(2) =>
        {
            let first = match operands.first() {
                Some(Operand::Vector(items)) => items.first().and_then(|o| m.reg_of(o).ok()),
                _ => None,
            };
            let d = operands
                .get(1)
                .and_then(|o| m.reg_of(o).ok())
                .filter(|d| first == Some(w) && d.class().bits() == 64)?;
            let (k, _) = last_writer(m, u, d)?;
            (unchanged_between(m, d, k, u)).then_some(k)?
        }
        _ => return None,
    };
    let (p, _) = destroying_pack(m, pack)?;
    let pair = m.read(t, p).ok().filter(|_| unchanged_between(m, p, pack, m.stmt))?;
    Some(pair)
}
