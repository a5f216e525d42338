//! 3602-N4 (`s8-round-trip-through-64-sign-extends-32`) widened by helper v3 after seeds 4201–4203
//! (corpus/findings/fuzz-h200-4201/trace/T12a2.md f3426d51, fuzz-h200-4202/trace/T12b3.md 03ee4476,
//! fuzz-h200-4203/trace/T12c5.md 70cc8774): ptxas 13.0.88 -O3 keeps `cvt.s8.{s64,u64}` into a
//! 16-bit register as the byte's 32-bit sign extension, with no 16-bit mask, where it knows the
//! 64-bit source (13.5 right in every listing).
//!
//! - [`folded_constant_64`]: a second kind of source ptxas knows: a 64-bit bit operation of
//!   constants it folds (`bfe.{u64,s64}`, `shr.{u64,b64,s64}`, `and/or/xor.b64` of immediates or
//!   of registers a `mov` of an immediate last wrote). 13.0.88 -O3 folds such a program to
//!   `MOV R7, 0xffffffdb` (f3426d51) or `MOV R0, 0xfff0` (03ee4476). A direct `mov.b64` of the
//!   immediate, a `mov` copy of it, `add.s64` or `shl.b64` of an immediate, an operand loaded from
//!   memory and 32-bit sources are right (variants.md / VARIANTS.md of both findings).
//! - [`compare16_of_s8_round_trip`]: a reader the entry lacked: a 16-bit unsigned or bitwise
//!   compare (`setp`/`set.{u32,s32}` of `.u16`/`.b16`) compares all 32 bits (`ISETP.GT.U32 R6,
//!   0xffff` of 0xffffff8a, 70cc8774; lt, le, gt, ge, eq, ne all `ISETP.*.U32` of the extension).
//!   The signed `setp.le.s16` is right (r4).
//!
//! Invariants: each function only narrows to the forms named; it returns `false`/`None` (the
//! spec's result stands) otherwise.

use super::fuzz3602::{s8_round_trip, writes};
use super::reg_of_glue;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::Stmt;
use crate::semantics::Expected;

/// Whether body statement `k` is a 64-bit bit operation of constants ptxas 13.0.88 -O3 folds
/// before narrowing its low byte: `bfe.{u64,s64}`, `shr.{u64,b64,s64}` (f3426d51's v1, v12,
/// v13, and shr.b64/.s64 compiled by helper v3: `MOV R7, 0xffffffdb` alike) or
/// `{and,or,xor}.b64` (f3426d51's v19, 03ee4476's reduced, r13, r14, r15, r16), unguarded, every
/// source an immediate or a register whose last writer before `k` is an unguarded `mov` of an
/// immediate (`mov.f64` too: f3426d51's `mov.f64 %d0, 0d6BC4…`).
pub(super) fn folded_constant_64(m: &Machine<'_>, k: usize) -> bool {
    let Some(Stmt::Glue { glue: g, guard: None }) = m.p.body.get(k) else { return false };
    let folded_op = match g.op {
        GlueOp::Bfe => matches!(g.ty, GlueType::U64 | GlueType::S64),
        GlueOp::Shr => matches!(g.ty, GlueType::U64 | GlueType::B64 | GlueType::S64),
        GlueOp::And | GlueOp::Or | GlueOp::Xor => g.ty == GlueType::B64,
        _ => false,
    };
    let constant = |s: &Src| match *s {
        Src::Imm(_) => true,
        Src::Reg(r) => matches!(
            m.p.body[..k].iter().rev().find(|s| writes(s, r)),
            Some(Stmt::Isa(Instruction { form: Form::Mov(_), guard: None, operands, .. }))
                if matches!(operands.get(1), Some(Operand::Imm(_)))
        ),
    };
    folded_op && g.src.iter().flatten().all(constant)
}

/// 70cc8774: `setp.<cmp>.{u16,b16} p, a, b` or `set.<cmp>.{u32,s32}.{u16,b16} d, a, b` with a
/// round trip ([`s8_round_trip`]) as either operand (or both) compares as `.u32`: the round trip
/// reads as its byte's 32-bit sign extension, the other operand as its 16 bits (an immediate or
/// a zero-extended load in the listings). §9.7.7.1/§9.7.7.2 compare the 16-bit values.
pub(super) fn compare16_of_s8_round_trip(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let cmp = match g.op {
        GlueOp::Setp(c) | GlueOp::Set(c, SetDst::U32 | SetDst::S32) => c,
        _ => return None,
    };
    if !matches!(g.ty, GlueType::U16 | GlueType::B16) {
        return None;
    }
    let extended = |k: usize| reg_of_glue(g, k).is_some_and(|r| s8_round_trip(m, t, r));
    if !extended(0) && !extended(1) {
        return None;
    }
    let operand = |k: usize| {
        let half = vals.get(k).filter(|v| v.is_exact())?.bits as u32 & 0xFFFF;
        Some(if extended(k) { half as u8 as i8 as i32 as u32 } else { half })
    };
    let holds = cmp.holds(operand(0)?.cmp(&operand(1)?));
    let bits = match (g.op, holds) {
        (_, false) => 0,
        (GlueOp::Setp(_), true) => 1,
        (_, true) => 0xFFFF_FFFF,
    };
    Some(Expected::exact(bits, result.width))
}
