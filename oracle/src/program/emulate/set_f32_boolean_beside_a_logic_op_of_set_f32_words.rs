//! 3701 C1-N2 (corpus/known/fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set.toml:
//! ptxas rebuilds a set.f32 from its predicate as the boolean and converts the number 1) under a
//! sixth trigger: an `and`/`xor.b32` that reads the float `cvt`'s own result beside another
//! set.f32-derived word — a `set.<cmp>.f32` result, or a float `cvt.<frnd>.<float>.{s32,u32}` of
//! one. ptxas takes both sources as booleans (0 / 1.0) and does the logic on predicates
//! (`ISETP.LE.XOR P0; FSEL R7, RZ, 1, !P0`), so the cvt is the conversion of 1 (1.0), where
//! §9.7.9.21 converts the word 0x3f800000 (1065353216 → 0x4e7e0000); §9.7.7.1 set.f32 writes
//! 1.0f/0.0f.
//!
//! Evidence (seed 5103's 15219630, session 51; corpus/findings/fuzz-h200-5103/trace/T22c.md,
//! variants in trace/15219630/s51/, 13.0.88 and 13.5 -O3 identical): `set.le.f32.s16 r4; set.lt.f32.s32
//! r6; cvt.rn.f32.s32 r9, r6; xor.b32 r18, r4, r9` is `ISETP.GT P0; ISETP.LE.XOR P0, R0, RZ, P0;
//! FSEL R7, RZ, 1, !P0` (0 where the spec's is 0x71fe0000). Wrong alike: `and.b32` (v3), the cvt
//! also stored (v4: the cvt itself `FSEL 1`), both sources cvts of sets (v5). Right: the xor's
//! other source a loaded word (v1: `I2FP.F32.S32` of the word), the cvt not read by the logic op
//! (v2).
//!
//! Scope: [`logic_op_of_the_cvt_and_a_set_f32_word`], consulted by `fuzz3701::cvt` as one of its
//! triggers. Invariants: a condition on the program's statements as written; changes no value.

use super::fuzz3701::last_writer;
use super::reg_of_glue;
use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};

/// Whether some `and.b32`/`xor.b32` of the body reads, as one source, register `d` last written
/// (before it) by the float `cvt` at body index `k`, and as the other a register last written by
/// a `set.<cmp>.f32` or by a float `cvt` from `.{s32,u32}` of a `set.<cmp>.f32` result.
pub(super) fn logic_op_of_the_cvt_and_a_set_f32_word(m: &Machine<'_>, k: usize, d: Reg) -> bool {
    m.p.body.iter().enumerate().skip(k + 1).any(|(j, s)| match s {
        Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::And | GlueOp::Xor) && glue.ty == GlueType::B32 => {
            let (Some(a), Some(b)) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1)) else { return false };
            let the_cvt = |r: Reg| r == d && last_writer(m, j, r).is_some_and(|(w, _)| w == k);
            (the_cvt(a) && set_f32_word(m, j, b)) || (the_cvt(b) && set_f32_word(m, j, a))
        }
        _ => false,
    })
}

/// Whether `r`, read at body index `j`, was last written by a `set.<cmp>.f32` or by a float `cvt`
/// from `.{s32,u32}` whose source a `set.<cmp>.f32` last wrote.
fn set_f32_word(m: &Machine<'_>, j: usize, r: Reg) -> bool {
    let is_set_f32 = |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    match last_writer(m, j, r) {
        Some((_, s)) if is_set_f32(s) => true,
        Some((u, Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. })))
            if c.dtype.is_scalar_float() && matches!(c.atype, CvtType::S32 | CvtType::U32) =>
        {
            let src = operands.get(1).and_then(|o| m.reg_of(o).ok());
            src.and_then(|w| last_writer(m, u, w)).is_some_and(|(_, s)| is_set_f32(s))
        }
        _ => false,
    }
}
