//! d88aeb3a / a27dfeaf (corpus/known/fuzz-h200-5103-d88aeb3a-b64-repack-in-an-arm-loads-the-new-low-word-over-the-old.toml):
//! ptxas 13.0.88 and 13.5 -O3 (and the JIT) compile a branch arm's 64-bit repack `mov.b64 {lo,
//! hi}, d; <ld new>; mov.b64 d, {new, lo}` (§9.7.9.4: the new high word is the OLD low word lo) as
//! a load of new straight into lo's register followed by a copy of that register up (`@P0 LDG.E.U8
//! R4, [+0x8]; @P0 MOV R5, R4`, if-converted; `LDG.E.STRONG.GPU R4, [+0xc]; CCTL.IVALL; MOV R5,
//! R4` in a kept branch): the high word is new, not lo. -O0 right. Called from the ISA hook of
//! `emulate.rs` at the repack ([`repacked`]).
//!
//! Evidence (corpus/findings/fuzz-h200-5103/, trace/T22c.md; trace/d88aeb3a/ and trace/a27dfeaf/
//! with their s51/ variants, 13.0.88 and 13.5 -O3 listings, identical on every variant). Wrong:
//! d88aeb3a (the arm's new word `ld.global.b8; cvt.u32.u16`, the branch testing `tid == r` with r
//! a loaded word), its s51 v1 (the test register renamed), v3 (the new word `ld.global.u32`), v5
//! (d stored whole: both words new), v7 (the high word unpacked as a b32); a27dfeaf (the branch
//! testing tid alone, both loads `ld.acquire`), its s51 v5 (only the arm's load acquire), v6 (only
//! d's load acquire). Right: d88aeb3a s51 v2 (a test of tid alone, plain loads: `@P0 LDG.E.U8 R9`
//! into a fresh register, the copy first), v4 (a computed new word, `add.u32`), v6 (selp for the
//! branch: no arm); a27dfeaf s51 v1 (no branch), v2, v3, v7 (plain loads beside a test of tid
//! alone), v8 (`ld.volatile` in the arm, tid test), v4 (`{lo, new}`: lo kept low).
//!
//! Scope, exactly the wrong variants' PTX facts (which register the allocator loads into looks
//! like its own choice; the evidence does not separate more finely): the statement run is an
//! unguarded `mov.b64 d, {new, lo}` of two 32-bit registers, inside the straight arm of a guarded
//! forward branch `@p bra L; …; L:` ([`arm_of`]); in that arm lo was last written by an unguarded
//! `mov.b64 {lo, x}, d` (lo d's low word, d not written after it), and new by an unguarded `ld`
//! into new or an unguarded `cvt.u32.u16 new, h` of an `ld` into h, both in the arm; and either
//! p's last write before the branch is a `setp` with a source last written by an `ld` (d88aeb3a's
//! test of a loaded word), or new's load or d's last write before the branch is an
//! `ld.acquire` (a27dfeaf). Left out: the arm as guarded statements (`@!p mov.b64 …`: right on
//! 13.0.88 and 13.5 -O3, `SEL`s, trace/d88aeb3a/s54/ w1, w2); not in the evidence, a `setp`
//! chained through other ops, other loads of the new word (`ld.u16`, vectors), `ld.relaxed`.
//!
//! Invariants: [`repacked`] changes only the repack's high word, to its low word (the new word
//! as the spec computes it), only when the deviation is emulated and the scope holds; it returns
//! its input otherwise.

use super::arm_sat_f64_low_word_clamped_by_zero_test::arm_of;
use super::fuzz3602::writes;
use crate::isa::operand::Operand;
use crate::isa::{CvtType, Form, Instruction, Ld, LdSem, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, Src};
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::B64RepackInAnArmLoadsNewWordOverOldLow;

/// The repack `mov.b64 d, {new, lo}` being run (`results`, the spec's word): its high word
/// replaced by its low word (the new word) where the deviation applies (module docs).
pub(super) fn repacked(
    m: &mut Machine<'_>,
    _t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    if !m.allow.emulates(D) || mv.shape != MovShape::Pack(2) || inst.guard.is_some() {
        return results;
    }
    let Some((d, spec)) = results.first().cloned() else { return results };
    let Some(Operand::Vector(elems)) = inst.operands.get(1) else { return results };
    let regs: Vec<Option<Reg>> = elems.iter().map(|o| m.reg_of(o).ok()).collect();
    let [Some(new), Some(lo)] = regs[..] else { return results };
    let b32 = |r: Reg| r.class() == RegClass::B32;
    if d.class() != RegClass::B64 || !b32(new) || !b32(lo) || new == lo || spec.width != 64 {
        return results;
    }
    if !in_scope(m, d, new, lo) {
        return results;
    }
    let mut v = spec.clone();
    v.replace(32, spec.field(0, 32));
    let v = m.fire(D, &spec, v);
    results[0] = (d, v);
    results
}

/// Whether the repack at the statement being run, `mov.b64 d, {new, lo}`, is in the scope of
/// the module docs.
fn in_scope(m: &Machine<'_>, d: Reg, new: Reg, lo: Reg) -> bool {
    let k = m.stmt;
    let Some((b, _)) = arm_of(m, k) else { return false };
    let body = &m.p.body;
    let Stmt::Bra { guard: Some(g), .. } = &body[b] else { return false };
    let last = |from: usize, to: usize, r: Reg| (from..to).rev().find(|&i| writes(&body[i], r));
    // lo: d's low word, unpacked in the arm, d unwritten since.
    let Some(u) = last(b + 1, k, lo) else { return false };
    if !unpacks_low_of(m, &body[u], lo, d) || last(u + 1, k, d).is_some() {
        return false;
    }
    // new: loaded in the arm (directly or zero-extended from a loaded half).
    let Some(n) = last(b + 1, k, new) else { return false };
    let new_load = match &body[n] {
        Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) => *l,
        Stmt::Isa(i @ Instruction { form: Form::Cvt(c), guard: None, .. })
            if c.dtype == CvtType::U32 && c.atype == CvtType::U16 =>
        {
            let Some(h) = i.operands.get(1).and_then(|o| m.reg_of(o).ok()) else { return false };
            let Some(l) = last(b + 1, n, h).and_then(|i| unguarded_ld(&body[i])) else { return false };
            l
        }
        _ => return false,
    };
    // The trigger: a test of a loaded word, or an acquire load.
    let acquire = |l: &Ld| l.sem == Some(LdSem::Acquire);
    let d_acquired = last(0, b, d).and_then(|i| unguarded_ld(&body[i])).is_some_and(|l| acquire(&l));
    let p = Reg::Virt(RegClass::Pred, g.pred);
    let loaded_test = last(0, b, p).is_some_and(|s| match &body[s] {
        Stmt::Glue { glue, guard: None } if matches!(glue.op, GlueOp::Setp(_)) => {
            glue.src.iter().take(2).any(|src| match src {
                Some(Src::Reg(r)) => last(0, s, *r).and_then(|i| unguarded_ld(&body[i])).is_some(),
                _ => false,
            })
        }
        _ => false,
    });
    loaded_test || acquire(&new_load) || d_acquired
}

/// The `ld` form of `s`, if it is an unguarded `ld`.
fn unguarded_ld(s: &Stmt) -> Option<Ld> {
    match s {
        Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) => Some(*l),
        _ => None,
    }
}

/// Whether `s` is an unguarded `mov.b64 {lo, x}, d` (lo d's low word, x not lo).
fn unpacks_low_of(m: &Machine<'_>, s: &Stmt, lo: Reg, d: Reg) -> bool {
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else { return false };
    if mv.shape != MovShape::Unpack(2) {
        return false;
    }
    let (Some(Operand::Vector(parts)), Some(src)) = (operands.first(), operands.get(1)) else { return false };
    let first = parts.first().and_then(|o| m.reg_of(o).ok());
    let second = parts.get(1).and_then(|o| m.reg_of(o).ok());
    first == Some(lo) && second != Some(lo) && m.reg_of(src).ok() == Some(d)
}
