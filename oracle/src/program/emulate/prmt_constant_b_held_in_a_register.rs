//! 3702-N5 (`prmt-sign-of-a-narrowed-reads-zero`) with a constant b (session 47): which moved
//! constants b ptxas 13.0.88 -O3 keeps in a register, so that the narrowing of
//! [`narrowed_prmt`](super::fuzz3702_conversions::narrowed_prmt) happens as for a loaded b.
//!
//! Mechanism: a `PRMT` has one immediate slot. Where the moved constant b is read by the `prmt`
//! alone (or by readers ptxas folds, or by a store), ptxas puts b in that slot and the selector
//! in a register (`PRMT R0, R7, R0, 0xfaa97855`, `UPRMT UR4, UR4, UR5, UR6`): the narrowing,
//! which reads the selector's nibbles, does not happen and the word is right. Where another live
//! integer instruction reads the same constant register as a value it computes with, ptxas
//! keeps b in a register (`IMAD.MOV.U32 R7, RZ, RZ, 0x7092f36a` or `UMOV UR4, 0x7092f36a`) and
//! the selector stays the immediate, so the zero-extending reader gets its narrowed copy
//! `PRMT R7, RZ, 0xfa, R7` (`UPRMT UR4, URZ, 0xfa, UR4`): a dropped, each byte naming the sign
//! of a byte of a is 0 (§9.7.9.7 replicates that sign).
//!
//! Evidence (13.0.88 -O3; 13.5 keeps the whole `PRMT`): seed 4603's 38cbad4d (corpus/findings/
//! fuzz-h200-4603/trace/T17t5.md; a second live `prmt.b32 %r5, 0, %r0, 0x08a9` reads b), seed
//! 4601's 48a9855d (fuzz-h200-4601/trace/T17t2.md; a second live `prmt` reads b as its a and b,
//! its selector the first's result); the variants of trace/38cbad4d/s47/: a second reader that
//! is a `prmt` reading b as its selector or a, or `and.b32`, `add.u32`, `xor.b32`,
//! `mul.lo.u32`, `min.u32`, `shl.b32` (b shifted), `setp.lt.u32` with a loaded register (all
//! narrowed). Right (whole `PRMT`/`UPRMT`): b read by the `prmt` alone (38cbad4d v1, 48a9855d
//! `v0_const_b_alone_right`, `s47/a4`: a loaded), also stored (48a9855d `v1_b_reg_live`,
//! `s47/b1`, `b5`), read by a second `prmt` that is dead (`v2`) or by glue ptxas folds (`add.u32
//! r5, r0, 7`, `setp` of the constant: v3, v1), by `sub.u32` of a loaded value (ptxas adds the
//! negated constant instead, `s47/c_sub`) or by a dead `and` (`s47/c_and_dead`); b a moved 0
//! (RZ: 3702's trace/5bf2de82 v8). Glue readers of other operations or types were not tried
//! and stay out. Session 56 (seed 5601's 3f24325e, corpus/findings/fuzz-h200-5601/trace/T56C.md,
//! variants trace/3f24325e/s56/): a live fp8-pair conversion `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`
//! reading b holds it too (ptxas does not fold it: `F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R0, RZ,
//! R6, RZ` beside `PRMT R6, RZ, 0xb, R6`; `x00`, `x01`, `x09`); a conversion ptxas folds to an
//! immediate (`cvt.rn.f16.f32`, `cvt.rn.bf16x2.f32`: `x10`, `x11`) or a dead one (`x13`) does not.
//! 48a9855d's selector is a moved register the `prmt` overwrites
//! ([`selector_overwritten_by_its_prmt`]: read as the moved immediate).

use super::fuzz3602::writes;
use super::fuzz3701::reaches_on_every_path;
use super::j_branch_known_values::{dead, observed, readers};
use super::origin::ptxas_constant;
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// Whether ptxas keeps the constant b of the `prmt` at body index `k` in a register: `b` holds
/// a nonzero immediate its producer, an unguarded `mov` of that immediate into `b` itself before
/// `k`, wrote, and a statement other than `k` that reads that value is a holding reader ([`holds`]).
pub(super) fn constant_b_held_in_a_register(m: &Machine<'_>, t: u32, k: usize, b: Reg) -> bool {
    let Some((Stmt::Isa(mv @ Instruction { form: Form::Mov(_), guard: None, .. }), origin)) = m.producer(t, b) else {
        return false;
    };
    let j = origin.stmt;
    if j >= k || mv.operands.first().and_then(|o| m.reg_of(o).ok()) != Some(b) {
        return false;
    }
    let Some(imm @ Operand::Imm(_)) = mv.operands.get(1) else { return false };
    let nonzero = m.source(t, imm, 32).ok().is_some_and(|v| v.is_exact() && v.bits != 0);
    nonzero && readers(m, j, b).into_iter().any(|i| i != k && holds(m, i, b))
}

/// Whether the statement at body index `i`, a reader of `b`, makes ptxas hold `b` in a register:
/// a `prmt.b32` (any operand; ptxas does not fold a `prmt`) whose result is observed, or live
/// unguarded 32-bit glue of the operations the variants show (`and`, `add`, `xor`, `mul.lo`,
/// `min`, `shl`, `setp`) reading `b` beside a register ptxas does not know as a constant, or an
/// unguarded fp8-pair conversion of it whose result is observed ([`fp8_pair_conversion`]).
fn holds(m: &Machine<'_>, i: usize, b: Reg) -> bool {
    match &m.p.body[i] {
        Stmt::Isa(p @ Instruction { form: Form::Prmt(_), guard: None, .. }) => {
            p.operands.first().and_then(|o| m.reg_of(o).ok()).is_some_and(|d| observed(m, i, d))
        }
        Stmt::Glue { glue, guard: None } => computes_with(glue, b) && !dead(m, i) && beside_a_variable(m, i, glue, b),
        Stmt::Isa(c @ Instruction { form: Form::Cvt(cvt), guard: None, .. }) => {
            fp8_pair_conversion(cvt)
                && c.operands.first().and_then(|o| m.reg_of(o).ok()).is_some_and(|d| observed(m, i, d))
        }
        _ => false,
    }
}

/// Whether `c` converts to an fp8 pair (`.e4m3x2`/`.e5m2x2`) from `.f32`: ptxas 13.0.88 -O3 emits
/// an `F2FP…PACK_AB_MERGE_C` reading the constant's register rather than folding it (3f24325e's
/// `x00`, `x09`).
fn fp8_pair_conversion(c: &Cvt) -> bool {
    c.dtype.is_f8x2() && c.atype == CvtType::F32
}

/// Whether glue `g` is one of the 32-bit operations seen to keep a constant source `b` in a
/// register, `b` one of its sources.
fn computes_with(g: &Glue, b: Reg) -> bool {
    let op = matches!(g.op, GlueOp::And | GlueOp::Add | GlueOp::Xor | GlueOp::MulLo | GlueOp::Min | GlueOp::Shl)
        || matches!(g.op, GlueOp::Setp(_));
    op && matches!(g.ty, GlueType::B32 | GlueType::U32) && g.src.contains(&Some(Src::Reg(b)))
}

/// Whether some other register source of glue `g` at body index `i` is no constant ptxas knows
/// (a constant one is folded with `b`: `add.u32 r5, r0, 7`, right).
fn beside_a_variable(m: &Machine<'_>, i: usize, g: &Glue, b: Reg) -> bool {
    g.src.iter().flatten().any(|s| match *s {
        Src::Reg(r) => r != b && ptxas_constant(m, i, r).is_none(),
        _ => false,
    })
}

/// The immediate the selector register `x` of the `prmt` at body index `k` held there where the
/// `prmt` overwrites it (`prmt.b32 %r0, %r1, %r1, %r0`, 48a9855d; its `v3_selector_moved_reg`
/// gives the listing of the immediate selector): the operand of `x`'s last writer before `k`, an
/// unguarded `mov` of an immediate that reaches `k` on every path.
pub(super) fn selector_overwritten_by_its_prmt<'p>(m: &Machine<'p>, k: usize, x: Reg) -> Option<&'p Operand> {
    let j = m.p.body.get(..k)?.iter().rposition(|s| writes(s, x))?;
    let Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. }) = &m.p.body[j] else { return None };
    let imm = operands.get(1).filter(|o| matches!(o, Operand::Imm(_)))?;
    reaches_on_every_path(m, j, k).then_some(imm)
}
