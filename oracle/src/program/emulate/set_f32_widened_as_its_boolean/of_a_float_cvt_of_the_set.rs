//! 3701 C1-N2's 64-bit widening (`set_f32_widened_as_its_boolean`) of a FLOAT conversion of the
//! set's truth: seed 5702's 9d958b9f (corpus/findings/fuzz-h200-5702/trace/T57C.md, variants in
//! `trace/9d958b9f/s57/` with 13.0.88 and 13.5 -O3 listings; helper h3, session 57).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3 identical, the JIT; -O0 right): `set.le.f32.s32 r7;
//! cvt.rni.u64.f32 d1, r7; cvt.rn.f16.s64 h1, d1; and.b64 d2, d1, d1; cvt.u64.u16 d0, h1` is
//! `ISETP.GE.AND P0; SEL R7, RZ, 0x1, !P0` for d0's low word: the set rebuilt from its predicate as
//! the boolean and the widening reading the number 1, where §9.7.9.21 zero-extends the bits of
//! 1.0h (0x3c00). Wrong alike: `or.b64` (`b1`), `xor.b64 d1, d1, d1` (`c4`, 2fb09e8f's trigger),
//! the xor of d1's low word beside the widening's (`b7`, `a6`), an integer set's xor (`c5`; `c7`:
//! `cvt.rn.f16.f32` of the set's word itself), `cvt.s64.s16` (`c1`), `cvt.rn.f32.s64` then
//! `cvt.u64.u32` (`c3`: 1 for 1.0f), the set's word or the high word also stored (`e2`, `e3`).
//! Right: no trigger (`a1`, `a7`: the xor of d1's high word, a known 0; `b2`–`b6`: a copy or an
//! identity with an immediate, `and.b64` with a loaded word; `c8`: a 32-bit `and` of the low word
//! with itself), the float conversion also stored (`e1`: `SEL 0x3c00`), a 32-bit widening (`a8`:
//! `SEL 0x3c00`, the bits), a loaded float or `selp 0x3f800000, 0` for the set (`a5`, `a4`).
//!
//! Invariants: a condition on the program's statements and the value the float conversion holds;
//! `None` (the spec's result stands) unless C1-N2 is emulated and every condition holds.

use super::super::j_branch_known_values::observed_only_by;
use super::super::reg_of_glue;
use super::{last_writer, logic_of_a_predicate_mask};
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// `cvt.{u64,s64}.{u16,s16,u32,s32} d, s` (plain), or an integer [`narrowing`] of a 32- or 64-bit
/// source, with s last written by an unguarded float `cvt`
/// of its width, observed by this widening alone, of the set's truth ([`truth_of_a_set_f32`]), in a
/// program C1-N2's trigger is in ([`triggered`]): 1 where the float is nonzero (the set true), 0
/// where it is zero.
pub(super) fn widened(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz && c.rnd.is_none();
    let widening = matches!(c.dtype, CvtType::U64 | CvtType::S64)
        && matches!(c.atype, CvtType::U16 | CvtType::S16 | CvtType::U32 | CvtType::S32);
    if !m.allow.emulates(d) || !plain || !(widening || narrowing(c)) {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (f, Stmt::Isa(Instruction { form: Form::Cvt(fc), operands, guard: None, .. })) = last_writer(m, m.stmt, s)?
    else {
        return None;
    };
    if !fc.dtype.is_scalar_float() || fc.dtype.bits() != c.atype.bits() || !observed_only_by(m, f, s, m.stmt) {
        return None;
    }
    let source = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    if !truth_of_a_set_f32(m, f, source) || !triggered(m) {
        return None;
    }
    let word = m.read(t, s).ok().filter(Expected::is_exact)?;
    let truth = word.bits & ((1u128 << c.atype.bits()) - 1) != 0;
    Some((d, Expected::exact(u128::from(truth), c.dtype.bits())))
}

/// Whether `c` is an integer narrowing `cvt.<int d>.{u32,s32,u64,s64}` (d narrower than the
/// source) of a 32- or 64-bit float's bits: seed 6102's 9e2ce1b2 (corpus/findings/fuzz-h200-6102/
/// trace/T61A.md, `trace/9e2ce1b2/s61/`; helper la, session 61). `set.ne.f32.s16 r2; cvt.rn.f64.s32
/// d3, r2; cvt.u8.u64 h9, d3` beside C1-N2's xor trigger is `SEL R0, RZ, 0x1, !P0` for h9 (13.0.88
/// and 13.5 -O3): 1 where §9.7.9.21 keeps the low byte of f64 1065353216.0, 0. Wrong alike:
/// `cvt.u16.u64` (`w7`), `cvt.u32.u64` then `cvt.u16.u32` (`w8`), `cvt.rn.f32.s32; cvt.u8.u32`
/// (`w5`), `cvt.rm.f64.u32` (`w10`), the 32-bit narrowing unpacked (`w11`). Right: no trigger
/// (`w1`), an integer set (`w2`), a loaded word (`w3`), the f64's top half also stored (`w9`: materialized
/// as f64 1.0, `FSEL R7, RZ, 1.875`, whose low byte is 0). Not emulated: a `mov.b64` unpack of the
/// f64 in place of the narrowing cvt (`w12`, wrong too).
fn narrowing(c: Cvt) -> bool {
    c.dtype.is_int()
        && matches!(c.atype, CvtType::U32 | CvtType::S32 | CvtType::U64 | CvtType::S64)
        && c.dtype.bits() < c.atype.bits()
}

/// Whether statement `s` is a `set.<cmp>.f32`.
fn is_set_f32(s: &Stmt) -> bool {
    matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)))
}

/// Whether register `r`, read at body index `k`, holds the set's truth as a float cvt reads it: a
/// `set.<cmp>.f32` word (`c7`) or an unguarded float-to-integer `cvt.<irnd>.<int>.f32` of one
/// (the case's `cvt.rni.u64.f32`, `c3`), `bits` wide when given.
fn truth_of_a_set_f32_of(m: &Machine<'_>, k: usize, r: Reg, bits: Option<u32>) -> bool {
    match last_writer(m, k, r) {
        Some((_, s)) if is_set_f32(s) => bits.is_none_or(|b| b == 32),
        Some((j, Stmt::Isa(Instruction { form: Form::Cvt(ic), operands, guard: None, .. }))) => {
            ic.dtype.is_int()
                && ic.atype == CvtType::F32
                && bits.is_none_or(|b| b == ic.dtype.bits())
                && operands
                    .get(1)
                    .and_then(|o| m.reg_of(o).ok())
                    .and_then(|w| last_writer(m, j, w))
                    .is_some_and(|(_, s)| is_set_f32(s))
        }
        _ => false,
    }
}

/// [`truth_of_a_set_f32_of`] of any width.
fn truth_of_a_set_f32(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    truth_of_a_set_f32_of(m, k, r, None)
}

/// C1-N2's trigger for this widening: a logic op of a predicate mask
/// ([`logic_of_a_predicate_mask`], `c5`, `c7`), a 64-bit `and`/`or`/`xor` of the 64-bit integer
/// cvt of a set.f32 with itself (the case, `b1`, `b9`, `c4`: 2fb09e8f's `xor.b64 d1, d1, d1`), or a
/// 32-bit `xor` reading the low word a `mov.b64` unpack took of that cvt (`b7`; its high word, a
/// known 0, is no trigger: `a7`). An identity with an immediate (`b4`: `xor.b64 d2, d1, 0`) or a
/// logic op with a loaded word (`b3`) is none.
fn triggered(m: &Machine<'_>) -> bool {
    let wide = |k: usize, r: Reg| truth_of_a_set_f32_of(m, k, r, Some(64));
    let low_word = |k: usize, r: Reg| {
        let Some((u, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }))) = last_writer(m, k, r)
        else {
            return false;
        };
        let first = matches!(operands.first(), Some(Operand::Vector(items))
            if items.first().and_then(|o| m.reg_of(o).ok()) == Some(r));
        let source = operands.get(1).and_then(|o| m.reg_of(o).ok());
        mv.shape == MovShape::Unpack(2) && first && source.is_some_and(|w| wide(u, w))
    };
    let self_logic = m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor) => {
            let (a, b) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1));
            match glue.ty {
                GlueType::B64 => a.is_some() && a == b && a.is_some_and(|r| wide(k, r)),
                GlueType::B32 => glue.op == GlueOp::Xor && [a, b].into_iter().flatten().any(|r| low_word(k, r)),
                _ => false,
            }
        }
        _ => false,
    });
    self_logic || logic_of_a_predicate_mask(m)
}
