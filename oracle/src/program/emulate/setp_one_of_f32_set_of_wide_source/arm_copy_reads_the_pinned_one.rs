//! 6a4d050b's fold (`setp_one_of_f32_set_of_wide_source`) with the arm the compare guards copying
//! the set's register: seed 6101's 5636968d (corpus/findings/fuzz-h200-6101/trace/T61C.md, variants
//! in `trace/5636968d/s61/` with 13.0.88 and 13.5 -O3 listings; helper lc, session 61).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3 identical, the JIT; -O0 right): after `set.ge.f32.s64
//! r1, 0, d8; setp.ne.s32 p2, r1, 1`, the arm run where !p2 (`@!p2 bra L2; bra L3; L2: mov.b32
//! r6, r1; L3:` in the case, `@p2 bra L3; mov.b32 r6, r1; L3:` in `a4_store32`) is one where r1 ==
//! 1 by the PTX, so ptxas takes r1 there as the immediate 1 (`IMAD.MOV.U32 R6, RZ, RZ, 0x1; …
//! ISETP.LE.U32; ISETP.GT.OR.EX P0; @!P0 PRMT R0, R6, 0x7610, R0`, `a4`: `@!P0 MOV R7, 0x1`); the
//! fold runs the arm where the set is true, and the copy writes 1 where §9.7.7.1 writes
//! 0x3f800000 (and the spec never runs the arm). Wrong alike: `a3_arm_add` (`add.s32 r6, r1, 6`
//! gives 7; not emulated here: only a copy). Right: `setp.ne s, 2` (`a2`, the compare kept); the
//! eq form `setp.eq p, s, 1; @p bra L2` (`a1`: the fold, but the arm copies `SEL 0x3f800000`, the
//! word); s read after the join (`a6`: the word); a 32-bit source (`a5`, no fold).
//!
//! Invariants: a condition on the program's statements; changes only such a copy's result, only
//! when 6a4d050b's deviation is emulated (and so only where the fold ran the arm).

use super::of_f32_set_of_wide_source;
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, Mov, MovShape};
use crate::program::emulate::fuzz3602::writes;
use crate::program::emulate::fuzz3701::reaches_on_every_path;
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, GlueType, Src};
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// The results of the `mov` `inst` (`mv`) in thread `t`: an unguarded copy `mov x, s` of a
/// `set.<cmp>.f32.{u64,s64}` result s in an arm a `setp.ne.{u32,s32} p, s, 1` runs only where
/// s == 1 ([`pinned_to_one`]) writes 1.
pub(in crate::program::emulate) fn copied(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet;
    if !m.allow.emulates(d) || mv.shape != MovShape::Copy || inst.guard.is_some() {
        return results;
    }
    let [(dst, spec)] = results.as_slice() else { return results };
    let Some(s) = inst.operands.get(1).and_then(|o| m.reg_of(o).ok()) else { return results };
    if s.class() != RegClass::B32 || !of_f32_set_of_wide_source(m, t, s) || !pinned_to_one(m, m.stmt, s) {
        return results;
    }
    let (dst, spec) = (*dst, spec.clone());
    let v = m.fire(d, &spec, Expected::exact(1, dst.class().bits()));
    vec![(dst, v)]
}

/// Whether the statement at body index `at` lies in a straight arm that runs only where the
/// head's `setp.ne.{u32,s32} p, s, 1` is false: `@p bra L; …at…; L:` or `@!p bra L2; bra L3;
/// L2: …at…; L3:` (L2 targeted by that branch alone), the setp reaching the branch on every
/// path, p unwritten between them and s unwritten from the setp to `at`.
fn pinned_to_one(m: &Machine<'_>, at: usize, s: Reg) -> bool {
    let body = &m.p.body;
    let Some(j) = body[..at].iter().rposition(|x| matches!(x, Stmt::Label(_) | Stmt::Bra { .. })) else {
        return false;
    };
    let after = |l: u32| body[at + 1..].contains(&Stmt::Label(l));
    let head = match &body[j] {
        Stmt::Bra { guard: Some(g), label } if !g.negated && after(*label) => Some((j, g.pred)),
        Stmt::Label(l2) if j >= 2 => match (&body[j - 2], &body[j - 1]) {
            (Stmt::Bra { guard: Some(g), label }, Stmt::Bra { guard: None, label: l3 })
                if g.negated
                    && label == l2
                    && after(*l3)
                    && body.iter().filter(|x| matches!(x, Stmt::Bra { label, .. } if label == l2)).count() == 1 =>
            {
                Some((j - 2, g.pred))
            }
            _ => None,
        },
        _ => None,
    };
    let Some((bra, pred)) = head else { return false };
    let p = Reg::Virt(RegClass::Pred, pred);
    let Some(k) = body[..bra].iter().rposition(|x| writes(x, p)) else { return false };
    let Stmt::Glue { glue, guard: None } = &body[k] else { return false };
    if glue.op != GlueOp::Setp(Cmp::Ne) || !matches!(glue.ty, GlueType::U32 | GlueType::S32) {
        return false;
    }
    let one = |i: usize| match glue.src[i] {
        Some(Src::Imm(v)) => v & 0xFFFF_FFFF == 1,
        Some(Src::Reg(r)) => moved_one(m, k, r),
        None => false,
    };
    let compares_s = (glue.src[0] == Some(Src::Reg(s)) && one(1)) || (one(0) && glue.src[1] == Some(Src::Reg(s)));
    compares_s && reaches_on_every_path(m, k, bra) && !body[k + 1..at].iter().any(|x| writes(x, s))
}

/// Whether register `r`, read at body index `k`, was last written by an unguarded move of the
/// immediate 1.
fn moved_one(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    m.p.body[..k].iter().rev().find(|x| writes(x, r)).is_some_and(|w| {
        matches!(w, Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. })
            if matches!(operands.get(1), Some(Operand::Imm(Imm::Int(1)))))
    })
}
