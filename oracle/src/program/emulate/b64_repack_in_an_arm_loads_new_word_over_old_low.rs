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
//! chained through other ops, other loads of the new word (`ld.u16`, vectors); `ld.relaxed`
//! until session 56 (below).
//!
//! Widened (session 56, seed 5501's cb677612, corpus/findings/fuzz-h200-5501/trace/T56B.md,
//! variants trace/cb677612/s56/): lo may be truncated from d (`cvt.u32.u64 lo, d`,
//! [`low_word_truncated`]), and an `ld.relaxed` of the new word or of d triggers as an acquire
//! does ([`relaxed_load`]; d's load seen through one `mov.b64` copy).
//!
//! Widened (session 54, seed 5403's 9121bc6c, corpus/findings/fuzz-h200-5403/trace/T54S.md,
//! variants trace/9121bc6c/s54/ and s54b/, 13.0.88 and 13.5 -O3): a new word COMPUTED in the arm
//! ([`computed_in_arm`]: its last write there an unguarded `add.u32` or `subc.u32` none of whose
//! register sources holds a word of d) is computed into the moving word's register and copied
//! over, in both orientations — `{new, lo}` (high word = new) and the mirror `{hi, new}` with hi
//! d's high word unpacked in the arm (low word = new, 9121bc6c: `@P1 IMAD.X R5; @P1 MOV R4, R5`)
//! — under any branch test (the case's constant test, a loaded test s54/w5, a tid test s54b/x1,
//! x2), no trigger asked. What separates 5103's right s51/v4 (`add.u32 r2, r1, 1`) from s54's
//! wrong w2/w6: v4's new word reads d's other word r1; computed from either word of d (s54b x3,
//! x4, x9) or a moved immediate (x8) it is right. A loaded new word in the mirror is right (s54/w1,
//! s54b/x5) and stays out.
//!
//! Invariants: [`repacked`] changes only the repack's word that should hold the old word, to
//! the new word (as the spec computes it), only when the deviation is emulated and the scope
//! holds; it returns its input otherwise.

use super::arm_sat_f64_low_word_clamped_by_zero_test::arm_of;
use super::fuzz3602::writes;
use crate::isa::operand::Operand;
use crate::isa::{CvtType, Form, Instruction, Ld, LdSem, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, Src};
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
    let [Some(first), Some(second)] = regs[..] else { return results };
    let b32 = |r: Reg| r.class() == RegClass::B32;
    if d.class() != RegClass::B64 || !b32(first) || !b32(second) || first == second || spec.width != 64 {
        return results;
    }
    // `{new, lo}`: the high word becomes new; the mirror `{hi, new}`: the low word becomes new.
    let (from, to) = if in_scope(m, d, first, second) || computed_word_repacked(m, d, first, second, 0) {
        (0, 32)
    } else if computed_word_repacked(m, d, second, first, 1) {
        (32, 0)
    } else {
        return results;
    };
    let mut v = spec.clone();
    v.replace(to, spec.field(from, 32));
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
    // lo: d's low word, unpacked in the arm (or truncated from d, seed 5501), d unwritten since.
    if !old_word_unpacked(m, b, d, lo, 0) && !low_word_truncated(m, b, d, lo) {
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
    loaded_test || acquire(&new_load) || d_acquired || relaxed_load(m, b, d, &new_load)
}

/// Whether `lo`'s last write between the branch `b` and the statement being run is an unguarded
/// `cvt.u32.u64 lo, d` (§9.7.9.21: d's low word), d unwritten since. Seed 5501's cb677612
/// (corpus/findings/fuzz-h200-5501/trace/T56B.md, variants in trace/cb677612/s56/; ptxas 13.0.88
/// and 13.5 -O3 identical): the case's `cvt.u32.u64 %r1, %d3` and s56/v1's `mov.b64 {%r1, %r2},
/// %d3` compile to the same `LDG.E.STRONG.GPU R4, [+0xc]; MOV R5, R4`.
fn low_word_truncated(m: &Machine<'_>, b: usize, d: Reg, lo: Reg) -> bool {
    let body = &m.p.body;
    let last = |from: usize, to: usize, r: Reg| (from..to).rev().find(|&i| writes(&body[i], r));
    let Some(u) = last(b + 1, m.stmt, lo) else { return false };
    let Stmt::Isa(i @ Instruction { form: Form::Cvt(c), guard: None, .. }) = &body[u] else { return false };
    c.dtype == CvtType::U32
        && c.atype == CvtType::U64
        && i.operands.get(1).and_then(|o| m.reg_of(o).ok()) == Some(d)
        && last(u + 1, m.stmt, d).is_none()
}

/// Seed 5501's trigger (cb677612, trace/cb677612/s56/; 13.0.88 and 13.5 -O3 identical): an
/// `ld.relaxed` (any scope) of the new word in the arm, or of d before the branch (d's last
/// write there, or the load an unguarded `mov.b64 d, d0` copies), keeps the arm a branch and
/// loads the new word over lo as an `ld.acquire` does — v3 (the arm's load relaxed,
/// `LDG.E.STRONG.GPU R4; MOV R5, R4`), v7 (`.relaxed.cta`), v4 (only d's load relaxed, through the
/// copy: `LDG.E R4; MOV R5, R4`), v5 (no copy); right: plain loads under a test of tid (v2,
/// if-converted, `@P0 LDG.E R9` into a fresh register, the copy first), a volatile arm load (v6,
/// the same).
fn relaxed_load(m: &Machine<'_>, b: usize, d: Reg, new_load: &Ld) -> bool {
    let relaxed = |l: &Ld| l.sem == Some(LdSem::Relaxed);
    let body = &m.p.body;
    let last = |to: usize, r: Reg| (0..to).rev().find(|&i| writes(&body[i], r));
    let d_load = last(b, d).and_then(|i| match &body[i] {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            let d0 = operands.get(1).and_then(|o| m.reg_of(o).ok()).filter(|r| r.class() == RegClass::B64)?;
            last(i, d0).and_then(|j| unguarded_ld(&body[j]))
        }
        s => unguarded_ld(s),
    });
    relaxed(new_load) || d_load.is_some_and(|l| relaxed(&l))
}

/// Whether the repack at the statement being run, `mov.b64 d, {…}` with `old` d's word `word` (0
/// low, 1 high) unpacked in the arm and `new` in the other place, is in the straight arm of a
/// guarded forward branch with `new` computed there ([`computed_in_arm`]): `{new, lo}` (word 0) or
/// seed 5403's mirror `{hi, new}` (word 1).
fn computed_word_repacked(m: &Machine<'_>, d: Reg, new: Reg, old: Reg, word: usize) -> bool {
    let Some((b, _)) = arm_of(m, m.stmt) else { return false };
    matches!(&m.p.body[b], Stmt::Bra { guard: Some(_), .. })
        && old_word_unpacked(m, b, d, old, word)
        && computed_in_arm(m, b, d, new)
}

/// Whether `old`'s last write between the branch `b` and the statement being run is an unguarded
/// `mov.b64` unpack of d with `old` its word `word` (0 low, 1 high), d unwritten since.
fn old_word_unpacked(m: &Machine<'_>, b: usize, d: Reg, old: Reg, word: usize) -> bool {
    let body = &m.p.body;
    let last = |from: usize, to: usize, r: Reg| (from..to).rev().find(|&i| writes(&body[i], r));
    let Some(u) = last(b + 1, m.stmt, old) else { return false };
    unpacks_word_of(m, &body[u], old, d, word) && last(u + 1, m.stmt, d).is_none()
}

/// Whether `new`'s last write between the branch `b` and the statement being run is an unguarded
/// `add.u32` or `subc.u32` (or, since session 61, another 32-bit op of [`computing_op`]) none of
/// whose register sources holds a word of d (last written by an
/// unpack of d). Seed 5403 (corpus/findings/fuzz-h200-5403/trace/T54S.md, 9121bc6c; s54 variants
/// and trace/9121bc6c/s54b/): wrong in both orientations under any trigger — `subc.u32` of a moved
/// 0 (9121bc6c, w2, w5 a loaded test, s54b x1/x2 a test of tid), `add.u32` of an arm load (w3,
/// w6), of a load before the branch (x6, x7), of %tid.x (x10); right: new computed from either of
/// d's words (5103's d88aeb3a s51/v4, s54b x3, x4, x9: a fresh register, the copy first), a moved
/// immediate (x8).
fn computed_in_arm(m: &Machine<'_>, b: usize, d: Reg, new: Reg) -> bool {
    let body = &m.p.body;
    let last = |from: usize, to: usize, r: Reg| (from..to).rev().find(|&i| writes(&body[i], r));
    let Some(n) = last(b + 1, m.stmt, new) else { return false };
    let Stmt::Glue { glue, guard: None } = &body[n] else { return false };
    if !computing_op(glue.op, glue.ty) {
        return false;
    }
    let of_d = |r: Reg| last(0, n, r).is_some_and(|i| (0..2).any(|w| unpacks_word_of(m, &body[i], r, d, w)));
    glue.src.iter().take(glue.op.arity()).all(|src| !matches!(src, Some(Src::Reg(r)) if of_d(*r)))
}

/// Whether `op` of type `ty` computes a new word as the evidence shows: seed 5403's `add.u32` and
/// `subc.u32`, and (session 61, seed 6102's 2f0c593b, corpus/findings/fuzz-h200-6101/trace/T61B.md,
/// variants corpus/findings/fuzz-h200-6102/trace/2f0c593b/s61/: 13.0.88 and 13.5 -O3 `VIMNMX R11, R9,
/// …; IMAD.MOV.U32 R10, RZ, RZ, R11`) any 32-bit `min`/`max` (`.s32`, `.u32`), `and`/`or`/`xor`, `sub`,
/// `mul.lo` or `add`: the case's `min.s32` and the c_min_u32, c_max_s32, c_and_b32, c_xor_b32,
/// c_or_b32, c_sub_s32, c_mul_lo, c_min_regs variants are computed into the moving word's register alike.
fn computing_op(op: GlueOp, ty: GlueType) -> bool {
    let word = matches!(ty, GlueType::U32 | GlueType::S32 | GlueType::B32);
    match op {
        GlueOp::Subc { cc: false } => ty == GlueType::U32,
        GlueOp::Add | GlueOp::Sub | GlueOp::MulLo | GlueOp::Min | GlueOp::Max => word,
        GlueOp::And | GlueOp::Or | GlueOp::Xor => word,
        _ => false,
    }
}

/// The `ld` form of `s`, if it is an unguarded `ld`.
fn unguarded_ld(s: &Stmt) -> Option<Ld> {
    match s {
        Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) => Some(*l),
        _ => None,
    }
}

/// Whether `s` is an unguarded `mov.b64 {w0, w1}, d` with `w` its word `word` (0 low, 1 high)
/// and the other word not `w`.
fn unpacks_word_of(m: &Machine<'_>, s: &Stmt, w: Reg, d: Reg, word: usize) -> bool {
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else { return false };
    if mv.shape != MovShape::Unpack(2) {
        return false;
    }
    let (Some(Operand::Vector(parts)), Some(src)) = (operands.first(), operands.get(1)) else { return false };
    let part = |i: usize| parts.get(i).and_then(|o| m.reg_of(o).ok());
    parts.len() == 2 && part(word) == Some(w) && part(1 - word) != Some(w) && m.reg_of(src).ok() == Some(d)
}
