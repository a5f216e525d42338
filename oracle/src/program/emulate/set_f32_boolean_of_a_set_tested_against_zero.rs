//! 3701 C1-N2 (`cvt-of-set-f32-converts-1-beside-xor-of-set`: a `set.<cmp>.f32` word rebuilt
//! from its predicate as the boolean, and a `cvt` from `.u32`/`.s32` to a float converting the
//! NUMBER) under a fifth trigger: the `set.f32` itself tests an integer set's −1/0 word against 0
//! in an order 3201-N8 folds into that set's predicate. Seed 5002's 85d1dc7a
//! (corpus/findings/fuzz-h200-5002/trace/T21d.md, variants in trace/85d1dc7a/s50/).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 -O3 right): `set.ne.s32.s32 r3, r0, 0;
//! set.ge.f32.u32 r3, r3, 0; cvt.rn.bf16.u32 h, r3` is `ISETP.NE.AND P0, PT, R2, RZ; SEL R0, RZ,
//! 0x3f80, P0`: the two sets become one predicate and the bf16 is selected as 1.0 (the
//! conversion of the boolean 1), where §9.7.9.21 converts the word 0x3f800000 = 1065353216
//! (bf16 0x4e7e). Wrong alike: `set.lt.f32.s32` (`v6`), `set.ge.f32.s32` (`v9`), `set.le.f32.u32`
//! with the 0 first (`v10`, a moved 0), `set.lt.f32.u32` (`v11`), `cvt.rn.f32.u32` (`v4`: `FSEL
//! R7, RZ, 1, P0`), `cvt.rn.f16.u32` (`v7`), `cvt.rn.bf16.s32` (`v12`). Right (`IABS; I2FP;
//! I2F.BF16.U32` of the word): `set.eq.f32` of the set against 0 (`v3`), `set.gt.f32.u32` with
//! the set first (`v8`, not N8's order), a set.f32 of a loaded value (`v2`, `v5`).
//!
//! Invariants: this only names a trigger (a condition on the program's statements); the value
//! stays `fuzz3701::cvt`'s (the conversion of 1 where the set.f32 word is non-zero, of 0
//! elsewhere), which consults it.

use super::fuzz3602::writes;
use super::{imm_of, reg_of_glue};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};

/// Whether the `set.<cmp>.f32` at body index `set_at` tests an integer set's word against 0 in
/// 3201-N8's order: `set.{ge,lt}.f32.{s32,u32} d, s, 0` or `set.{le,gt}.f32.{s32,u32} d, 0, s`,
/// `s` last written before it by an unguarded `set.<cmp>.{s32,u32}`, the 0 an immediate or a
/// register last written by an unguarded `mov` of 0.
pub(super) fn tests_a_set_against_zero(m: &Machine<'_>, set_at: usize) -> bool {
    let Some(Stmt::Glue { glue: g, .. }) = m.p.body.get(set_at) else { return false };
    let GlueOp::Set(cmp, SetDst::F32) = g.op else { return false };
    if !matches!(g.ty, GlueType::S32 | GlueType::U32) {
        return false;
    }
    let (at_set, at_zero) = match cmp {
        Cmp::Ge | Cmp::Lt => (0, 1),
        Cmp::Le | Cmp::Gt => (1, 0),
        _ => return false,
    };
    let last_writer = |r: Reg| m.p.body[..set_at].iter().rev().find(|s| writes(s, r));
    let of_set = reg_of_glue(g, at_set).is_some_and(|r| {
        matches!(last_writer(r), Some(Stmt::Glue { guard: None, glue })
            if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)))
    });
    let zero = imm_of(g, at_zero) == Some(0)
        || reg_of_glue(g, at_zero).is_some_and(|r| {
            matches!(last_writer(r), Some(Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }))
                if mv.shape == MovShape::Copy && matches!(operands.get(1), Some(Operand::Imm(Imm::Int(0)))))
        });
    of_set && zero
}
