//! Root cause F (corpus/known/fuzz-h200-f-negation-overflow.toml) widened after seed 5602's
//! trace (corpus/findings/fuzz-h200-5602/trace/T56F.md, 7b7273cd): the f32 conversion of a sign
//! extension of an overflowed `abs.s16`/`abs.s32` ([`f32_of_sign_extended_abs`]); and the dispatch
//! of F's conversions of an extended abs ([`f32_of_extended_abs`]).
//!
//! Invariants: a query only; it never changes an origin or a value. The value the mechanism
//! computes is the oracle's own `cvt` semantics of the abs's value read as signed.

use super::{convert, f_f32_of_zero_extended_abs16, is_min, known_at_compile_time};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// F's f32 conversion of an extended abs: of a zero extension of `abs.s16` read as `.s32`/`.u32`
/// (seed 4102's 6d10fa02, [`f_f32_of_zero_extended_abs16`]) or of a sign extension of an abs read as
/// an integer ([`f32_of_sign_extended_abs`]); and F's one integer cvt of an abs asked here, the
/// `cvt.{u32,s32}.u16` of an `abs.s16` of a learned −2^15 (seed 6202's 61e60b91,
/// [`known_at_compile_time::f_abs16_of_a_learned_minimum::cvt`]).
pub(super) fn f32_of_extended_abs(m: &Machine<'_>, t: u32, c: Cvt, r: Reg, a: &Expected) -> Option<Expected> {
    f_f32_of_zero_extended_abs16::f32_of_zero_extended_abs16(m, t, c, r, a)
        .or_else(|| f32_of_sign_extended_abs(m, t, c, r, a))
        .or_else(|| known_at_compile_time::f_abs16_of_a_learned_minimum::cvt(m, t, c, r))
}

/// The value of the `cvt.<rnd>[.sat].f32.{u32,u64,s32,s64}` `c` being run in thread `t` (source
/// value `a`, in register `r`) when r holds an unguarded sign extension `cvt.{s32,u32,s64,u64}.s16`
/// of an `abs.s16`, or `cvt.{s64,u64}.s32` of an `abs.s32`, of the minimum ptxas does not fold (mov
/// copies looked through). §9.7.9.21 sign-extends (−2^15 is 2^64 − 2^15 as `.u64`, 0x5f800000);
/// ptxas computes the abs at 32 bits without the wrap and, for an f32 destination only, re-narrows
/// it and converts it as signed (seed 5602's 7b7273cd, 13.0.88 and 13.5 -O3: `IABS; PRMT 0x7710;
/// I2F.S16`, −32768.0; s56 w1 `cvt.s32.s16` + `.u32`, w2 `cvt.u64.s16`, w6/w10 `.rz`/`.rm`, w9
/// `.sat` (`FADD.SAT`: 0.0), w7 `abs.s32` + `cvt.s64.s32` (`I2FP.F32.S32`) the same; w8's `.s64`
/// source the same `I2F.S16`, the spec's value there). So the +2^15 an earlier F rule gives the
/// extension (5fe30520: `SHF.R.S32.HI` of the unwrapped `IABS`, what `.f16`/`.bf16`/`.f64`
/// destinations convert: s56 w3, w4, w11 `I2F.*.U64`) is read by its low bits alone here. Not
/// emulated here: `neg.s16` (w5: `IMAD.MOV -R0; SHF.R.S32.HI; I2F.U64`, +2^15, the earlier rule's).
pub(super) fn f32_of_sign_extended_abs(m: &Machine<'_>, t: u32, c: Cvt, r: Reg, a: &Expected) -> Option<Expected> {
    if c.dtype != CvtType::F32 || !matches!(c.atype, CvtType::U32 | CvtType::U64 | CvtType::S32 | CvtType::S64) {
        return None;
    }
    let (Stmt::Isa(Instruction { form: Form::Cvt(z), operands, guard: None, .. }), origin) = m.producer(t, r)? else {
        return None;
    };
    let (abs_ty, signed, bits) = match (z.atype, z.dtype) {
        (CvtType::S16, CvtType::S32 | CvtType::U32 | CvtType::S64 | CvtType::U64) => (GlueType::S16, CvtType::S16, 16),
        (CvtType::S32, CvtType::S64 | CvtType::U64) => (GlueType::S32, CvtType::S32, 32),
        _ => return None,
    };
    if z.sat || !is_min(a, bits) {
        return None;
    }
    let x = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    // The extension's source still holds the abs it read (so ptxas's knowledge of it is asked).
    let of_abs = match m.producer(t, x)? {
        (Stmt::Glue { glue, .. }, o) => glue.op == GlueOp::Abs && glue.ty == abs_ty && Some(o.stmt) == origin.a_stmt,
        _ => false,
    };
    if !of_abs || known_at_compile_time::known(m, t, x) {
        return None;
    }
    convert(m, &Form::Cvt(Cvt { atype: signed, ..c }), 1u128 << (bits - 1))
}
