//! B (corpus/known/fuzz-h200-b-f32-shift-amount.toml) across a block boundary, widened after
//! session 43's trace of d78a59b7 (corpus/findings/fuzz-h200-4301/trace/T14x1.md, folder
//! trace/d78a59b7/; session 44's variants in trace/d78a59b7/z1/).
//!
//! The mechanism the listings show (ptxas 13.0.88 and 13.5 -O3, every variant alike): in a
//! program where ptxas lowers the logic of booleans with predicates (a live `and`/`or`/`xor`/`not`
//! reading a 0/−1 mask, [`boolean_logic_on_a_mask`]), a `set.<cmp>.f32` result is rebuilt from its
//! predicate where it is read. When every reader is the amount of a 64-bit shift, the rebuilt
//! 1.0/0.0 is converted there as B converts any f32 amount, and the pair folds to `SEL R0, RZ,
//! 0x1, !P0; SHF.R.U64 … R0` (shift by 1 or 0), whatever lies between the set and the shift: a
//! label, a never-taken back edge ptxas deletes (d78a59b7), a live loop, an unused label, a `bra`
//! to the next statement, a forward branch, `bar.sync`. A reader of another kind (a store, an
//! `add.f32`) keeps one `FSEL R7, RZ, 1, !P0` and the shift across the boundary reads its raw
//! bits; without the trigger the set is `SEL; IABS; I2FP.F32.S32` and the shift reads that raw.
//! Not rebuilt (raw across a boundary with the trigger too): `ld.f32`, `cvt.rn.f32.s32` and
//! `selp.f32 1.0, 0.0` amounts, a guarded `set.f32` (two writers).
//!
//! Invariants: [`set_f32_rebuilt_at_its_shifts`] only widens where B is decided (the value is
//! still B's conversion of the amount); it is false unless the producer, its readers and the
//! trigger are exactly as above.

use super::fuzz3602::writes;
use super::fuzz3701::last_writer;
use super::j_branch_known_values::{dead, observed};
use super::{imm_of, reg_of_glue};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};

/// Whether the f32 amount `r` of the 64-bit shift being run, typed at body index `k`
/// ([`f32_typed`](super::origin::f32_typed)), is a `set.<cmp>.f32` ptxas rebuilds and converts at
/// the shift across any boundary between (see the module header): `k` is the unguarded set, the
/// only statement writing `r` or the only one reaching the shift
/// ([`super::set_f32_overwrites_earlier_writers`]), before the shift; every live reader of `r`
/// (but one reading an earlier writer's value before the set) reads it as the amount of a 64-bit
/// `shl`/`shr` (or tests it against 0); the program lowers
/// boolean logic with predicates, or a live test of the set's word against 0 reads it
/// ([`super::set_f32_zero_tested`]).
pub(super) fn set_f32_rebuilt_at_its_shifts(m: &Machine<'_>, r: Reg, k: usize) -> bool {
    let set_f32 = matches!(&m.p.body.get(k), Some(Stmt::Glue { guard: None, glue })
        if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) && glue.dst == r);
    // Or the writer that reaches the shift, earlier writes overwritten (seed 4402's 63707241:
    // `emulate/set_f32_overwrites_earlier_writers.rs`).
    let only_writer = m.p.body.iter().enumerate().all(|(i, s)| i == k || !writes(s, r))
        || super::set_f32_overwrites_earlier_writers::overwrites_every_other_writer(m, r, k);
    let shift_amount = |s: &Stmt| {
        matches!(s, Stmt::Glue { glue, .. }
            if matches!(glue.op, GlueOp::Shl | GlueOp::Shr)
                && glue.ty.bits() == 64
                && glue.src[1] == Some(Src::Reg(r))
                && glue.src[0] != Some(Src::Reg(r)))
    };
    // A test of the set's word against 0 is read from the rebuilt predicate too, and is itself
    // the trigger (seed 4501's ac502846: `emulate/set_f32_zero_tested.rs`). The set reading
    // the register's earlier value (ac502846's `set.ne.f32.u32 %r1, %r0, %r1` of a copy) does not
    // read its own result.
    let zero_test = |i: usize| super::set_f32_zero_tested::zero_test(m, i, r);
    // A reader of an earlier writer's value before the set reads no value of the set's (seed
    // 6201's f08e3d72: `emulate/set_f32_overwrites_earlier_writers.rs`).
    let earlier = |i: usize| super::set_f32_overwrites_earlier_writers::reads_an_earlier_value(m, i, k);
    let read_only_as_amounts = m.p.body.iter().enumerate().all(|(i, s)| {
        let reads = i != k && super::origin::reads_and_overwrites(s, r).0;
        !reads || shift_amount(s) || zero_test(i) || (i > k && dead(m, i)) || earlier(i)
    });
    let trigger = boolean_logic_on_a_mask(m) || super::set_f32_zero_tested::live_zero_test_after(m, r, k);
    set_f32 && k < m.stmt && only_writer && read_only_as_amounts && trigger
}

/// Whether a live `and`/`or`/`xor` `.{b16,b32}` of two different registers, or a live
/// `not.{b16,b32}`, reads a 0/−1 mask ([`mask`]): ptxas then lowers boolean logic with
/// predicates (d78a59b7's `xor.b16` of the halves of a `set.gt.s32.s32`; `and`, `or`, `not` of
/// a half, `xor.b32`/`and.b32` of the set and a loaded word, `or.b32` of two sets, a `selp.b32
/// -1, 0` or `0, -1`, a `mov` copy, a `cvt.u16.u32` of the set: the same listing). Not: the op
/// dead (raw), an immediate other source (`xor.b16 h, 5`, `and.b32 r, 2`: folded into the
/// `SEL`), a half with itself, `add`/`sub`, halves of a loaded word, a `selp 1, 0` or `7, 0`, a
/// `set.f32`, `and.pred`, a 64-bit `xor` of the set packed twice.
fn boolean_logic_on_a_mask(m: &Machine<'_>) -> bool {
    m.p.body.iter().enumerate().any(|(i, s)| match s {
        Stmt::Glue { glue, .. } if matches!(glue.ty, GlueType::B16 | GlueType::B32) && observed(m, i, glue.dst) => {
            match glue.op {
                GlueOp::And | GlueOp::Or | GlueOp::Xor => match (reg_of_glue(glue, 0), reg_of_glue(glue, 1)) {
                    (Some(a), Some(b)) if a != b => mask(m, i, a, 0) || mask(m, i, b, 0),
                    _ => false,
                },
                GlueOp::Not => reg_of_glue(glue, 0).is_some_and(|a| mask(m, i, a, 0)),
                _ => false,
            }
        }
        _ => false,
    })
}

/// Source `k` of the glue at body index `at` as the constant ptxas folds it: an immediate, or a
/// register last written by an unguarded `mov` of one (`selp` takes no immediate first source).
pub(super) fn constant(m: &Machine<'_>, at: usize, glue: &Glue, k: usize) -> Option<u64> {
    imm_of(glue, k).or_else(|| match last_writer(m, at, reg_of_glue(glue, k)?)? {
        (_, Stmt::Isa(Instruction { guard: None, form: Form::Mov(_), operands, .. })) => match operands.get(1) {
            Some(Operand::Imm(Imm::Int(v))) => Some(*v as u64),
            _ => None,
        },
        _ => None,
    })
}

/// Whether register `r`, read at body index `at`, was last written unguarded by a 0/−1 mask: a
/// `set.<cmp>.{u32,s32}`, a `selp.{b,u,s}{16,32}` of the constants −1 and 0 (either order), or
/// a `mov` copy, a `mov.b32` unpack (a half of the word) or an integer `cvt` to 16 or 32 bits
/// that does not widen (a truncation keeps a mask a mask) of one.
fn mask(m: &Machine<'_>, at: usize, r: Reg, depth: usize) -> bool {
    let Some((u, w)) = last_writer(m, at, r) else { return false };
    let from =
        |o: Option<&Operand>| depth < 8 && o.and_then(|o| m.reg_of(o).ok()).is_some_and(|s| mask(m, u, s, depth + 1));
    match w {
        Stmt::Glue { guard: None, glue } => match glue.op {
            GlueOp::Set(_, dst) => matches!(dst, SetDst::U32 | SetDst::S32),
            GlueOp::Selp if matches!(glue.ty.bits(), 16 | 32) => {
                let ones = (1u64 << glue.ty.bits()) - 1;
                let arm = |k: usize| constant(m, u, glue, k).map(|v| v & ones);
                let arms = (arm(0), arm(1));
                arms == (Some(ones), Some(0)) || arms == (Some(0), Some(ones))
            }
            _ => false,
        },
        Stmt::Isa(Instruction { guard: None, form, operands, .. }) => match form {
            Form::Mov(mv) => match mv.shape {
                MovShape::Copy => from(operands.get(1)),
                MovShape::Unpack(2) => mv.ty.bits() == 32 && from(operands.get(1)),
                _ => false,
            },
            Form::Cvt(c) => {
                let narrow = |t: CvtType| matches!(t, CvtType::U16 | CvtType::S16 | CvtType::U32 | CvtType::S32);
                narrow(c.dtype)
                    && narrow(c.atype)
                    && c.dtype.bits() <= c.atype.bits()
                    && !c.sat
                    && from(operands.get(1))
            }
            _ => false,
        },
        _ => false,
    }
}
