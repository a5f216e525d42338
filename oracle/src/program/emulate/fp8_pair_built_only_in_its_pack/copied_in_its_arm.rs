//! 59da91ec's form A reached through a copy of the pair made in the arm (seed 5801's 55941181,
//! session 58, helper he; corpus/findings/fuzz-h200-5801/trace/T58E.md, variants in
//! trace/55941181/s58/): the arm converts h to an fp8 pair, packs it as the low half of a word
//! that is read after the join, and copies h into a register x (`mov.b16 {c0, _}, h` or `mov.b16
//! x, h`) that held a value before the branch and is read after the join. ptxas 13.0.88 -O3 (and
//! the JIT) build the pair only in the pack's word and never write x in the arm: after the join
//! x holds its value from before the branch.
//!
//! Evidence: `ld.global.s8 c0; …; @p bra L; cvt.rn.satfinite.e4m3x2.f32 h0, r0, r0; mov.b16 h4,
//! 0; mov.b16 h5, 0; mov.b64 d0, {h2, h4, h0, h5}; mov.b16 {c0, _}, h0; L: mov.b64 {r4, r5}, d0;
//! mov.b16 h7, {c0, c0}` is `@P0 F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, RZ, RZ, RZ; @P0
//! IMAD.MOV.U32 R7, RZ, RZ, R0; …; LOP3.LUT R9, R2, 0xff; PRMT R9, R2, 0x6540, R9` (c0 from R2, the
//! load): the stored byte 0xa1 where §9.7.9.21 gives the pair's 0. Wrong alike (13.0.88 -O3): an
//! `.f16x2` pair (v3), e5m2x2 (v7), a `mov.b32 {h0, h4}` pack (v5), the unpack before the pack
//! (v9), a 16-bit copy (v10), a loaded pair source (v12). Right: no branch (v1), no pack (v2: the
//! pair written into c0's register), the pair's word unread (v4: `{h0, h4, h2, h5}` with only
//! word 1 read), `cvt.rn.f16.f32` (v6), the pair the high half of its word (v8). ptxas 13.5 -O3
//! is right on all (the pair built in x's register).
//!
//! Scope: the copy (an unguarded `mov` copy or unpack of the 16-bit h) in the straight-line arm
//! of `@p bra L; …; L:`; h's last writer an unguarded `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,
//! f16x2}` in the arm; an unguarded `mov` pack in the arm after it with h at an even element of
//! 16-bit halves (the low half of a 32-bit word) whose word is read later; x written before the
//! branch, not again in the arm after the copy, read after the join. Left to the parent: the
//! parent's own forms (h itself keeps its old value there).
//!
//! Invariants: only when the deviation is emulated; only the copy's destinations change, each to
//! the value it held before the copy.

use super::super::arm_sat_f64_low_word_clamped_by_zero_test::arm_of;
use super::super::fuzz3602::writes;
use super::super::origin::{read_later, reads_and_overwrites};
use super::{form, D};
use crate::isa::operand::Operand;
use crate::isa::{CvtRnd, CvtType, Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The results of the `mov` copy or unpack `inst` being run (`results`, the spec's), each
/// destination that keeps its old value (module docs) replaced by that value.
pub(in crate::program::emulate) fn copied(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    if !m.allow.emulates(D) || inst.guard.is_some() || !matches!(mv.shape, MovShape::Copy | MovShape::Unpack(_)) {
        return results;
    }
    let q = m.stmt;
    let Some(h) = inst.operands.get(1).and_then(|o| m.reg_of(o).ok()).filter(|h| h.class().bits() == 16) else {
        return results;
    };
    let Some((b, j)) = arm_of(m, q).filter(|&(_, j)| j > q) else { return results };
    let Some(k) = (b + 1..q).rev().find(|&k| writes(&m.p.body[k], h)) else { return results };
    let Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) = &m.p.body[k] else { return results };
    if !pair_cvt(&m.p.body[k]) || form(m, k, h, c).is_some() || !packed_low_and_read(m, k, j, h) {
        return results;
    }
    for (x, value) in results.iter_mut() {
        let before = m.p.body[..b].iter().any(|s| writes(s, *x));
        let kept = !m.p.body[q + 1..j].iter().any(|s| writes(s, *x));
        if !(before && kept && read_later(m, j, *x)) {
            continue;
        }
        if let Ok(old) = m.read(t, *x) {
            let spec = value.clone();
            *value = m.fire(D, &spec, old);
        }
    }
    results
}

/// Whether `s` is an unguarded `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2}` (no `.relu`).
fn pair_cvt(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })
        if matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
            && matches!(c.atype, CvtType::F32 | CvtType::F16x2)
            && c.rnd == Some(CvtRnd::Rn)
            && c.satfinite
            && !c.relu)
}

/// Whether an unguarded `mov` pack of 16-bit halves between body indices `k` and `j` names `h`
/// at an even element (the low half of a 32-bit word) whose word is read after the pack.
fn packed_low_and_read(m: &Machine<'_>, k: usize, j: usize, h: Reg) -> bool {
    (k + 1..j).any(|p| {
        let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = &m.p.body[p] else {
            return false;
        };
        let (MovShape::Pack(n), Some(Operand::Vector(elems))) = (mv.shape, operands.get(1)) else { return false };
        let Some(w) = operands.first().and_then(|o| m.reg_of(o).ok()) else { return false };
        if w.class().bits() != 16 * u32::from(n) {
            return false;
        }
        elems.iter().enumerate().any(|(e, o)| e % 2 == 0 && m.reg_of(o).ok() == Some(h) && word_read(m, p, w, e / 2))
    })
}

/// Whether word `word` (32 bits) of register `w`, written at body index `p`, is read later: any
/// reader of `w` but a `mov` unpack reads it; an unpack reads it when the parts covering it are
/// registers read later.
fn word_read(m: &Machine<'_>, p: usize, w: Reg, word: usize) -> bool {
    for (k, s) in m.p.body.iter().enumerate().skip(p + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, w);
        if reads {
            let unpack = match s {
                Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) => match mv.shape {
                    MovShape::Unpack(n) => match operands.first() {
                        Some(Operand::Vector(parts)) => Some((usize::from(n), parts)),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            let Some((n, parts)) = unpack else { return true };
            let bits = w.class().bits() as usize;
            let covering = parts.iter().enumerate().filter(|(i, _)| i * bits / n / 32 == word);
            if covering.filter_map(|(_, o)| m.reg_of(o).ok()).any(|r| read_later(m, k, r)) {
                return true;
            }
        }
        if overwrites {
            return false;
        }
    }
    false
}
