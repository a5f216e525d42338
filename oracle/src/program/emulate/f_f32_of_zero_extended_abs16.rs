//! Root cause F (corpus/known/fuzz-h200-f-negation-overflow.toml) widened after seed 4102's
//! traces (corpus/findings/fuzz-h200-4102/trace/T9y2.md, 6d10fa02): the f32 conversion of the
//! 32-bit zero extension of an overflowed `abs.s16` ([`f32_of_zero_extended_abs16`]).
//!
//! Invariants: a query only; it never changes an origin or a value. The value the mechanism
//! computes is the oracle's own `cvt` semantics of the 16-bit value read as `.s16`.

use super::{convert, is_min, known_at_compile_time};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The value of the `cvt.<rnd>[.sat].f32.{s32,u32}` `c` being run in thread `t` (source value
/// `a`, in register `r`) when r holds `cvt.{u32,s32}.u16` (§9.7.9.21: zero-extended whatever the
/// destination's signedness) of an `abs.s16` of −32768 ptxas does not fold (mov copies between
/// looked through): ptxas takes the abs as non-negative, so it converts the zero-extended 0x8000
/// as a signed 16-bit value (seed 4102's 6d10fa02, 13.0.88 and 13.5 -O3: `IABS; PRMT 0x7710;
/// I2F.S16; FADD.SAT` gives 0.0 where the spec's 32768.0 saturates to 1.0; `v1_nosat` and
/// `v4_f32u32`, `cvt.rn.f32.u32`, the same `I2F.S16`). Right, and not emulated: `neg.s16`
/// (`LOP3 0xffff; I2FP.F32.S32`), `.f16`/`.f64` destinations, a 64-bit extension (`v7_u64`:
/// `cvt.u64.u16; cvt.rn.f32.s64` is `LOP3 0xffff; I2F.S64`) and `abs.s32` widened (`v8_abs32`).
pub(super) fn f32_of_zero_extended_abs16(m: &Machine<'_>, t: u32, c: Cvt, r: Reg, a: &Expected) -> Option<Expected> {
    if c.dtype != CvtType::F32 || !matches!(c.atype, CvtType::S32 | CvtType::U32) || !is_min(a, 16) {
        return None;
    }
    let (Stmt::Isa(Instruction { form: Form::Cvt(z), operands, .. }), origin) = m.producer(t, r)? else {
        return None;
    };
    let zero_extension = z.atype == CvtType::U16 && matches!(z.dtype, CvtType::U32 | CvtType::S32) && !z.sat;
    let x = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    // The extension's source still holds the abs it read (so ptxas's knowledge of it is asked).
    let of_abs16 = match m.producer(t, x)? {
        (Stmt::Glue { glue, .. }, o) => {
            glue.op == GlueOp::Abs && glue.ty == GlueType::S16 && Some(o.stmt) == origin.a_stmt
        }
        _ => false,
    };
    if !zero_extension || !of_abs16 || known_at_compile_time::known(m, t, x) || a.bits >> 16 != 0 {
        return None;
    }
    convert(m, &Form::Cvt(Cvt { atype: CvtType::S16, ..c }), 0x8000)
}
