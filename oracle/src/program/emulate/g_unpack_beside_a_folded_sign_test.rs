//! Root cause G's unpack form (`zero-extended-high-half-read-as-the-value`) widened after
//! session 60's trace (helper jd; corpus/findings/fuzz-h200-6002/trace/T60D.md, e05edb4c, the
//! variants in trace/e05edb4c/s60/): the 64-bit value unpacked may have one more reader, a
//! signed test of its sign that ptxas decides at compile time and deletes.
//!
//! `ld.b8 h0; cvt.u64.u16 d0, h0; setp.ge.s64 p0, d0, 0; mov.b64 {h5, h0, h6, _}, d0` (h5
//! unread) reads h0 as the loaded byte, where §9.7.9.4 gives bits 16..31 of d0, 0 (ptxas
//! 13.0.88 and 13.5 -O3 `LDG.E.U8.STRONG.SYS R2; PRMT R2, R2, 0x5410, R2`, no ISETP: the test
//! is folded true because d0's high word is `RZ`). Wrong alike: `setp.lt.s64 d0, 0` (s60/v13),
//! `setp.le.s64 0, d0` (v19), a moved 0 (v18), the guarded write the predicate gates changing a
//! value (v07). Right (`PRMT R2, R2, 0x7632, R2` beside a kept `ISETP`): a test ptxas keeps —
//! `setp.ge.s64 d0, 5` gating a value (v08), `setp.lt.u64 d0, 65536` (v09), `lt.u64 255`/`256`
//! (v10, v12), `gt.s64 d0, -1` (v11, v14), `lt.u64 2^32` (v15), `ge.u64 0` (v16), `ne.s64 -1`
//! (v17): only the sign test of the 64-bit value (its high word known 0) is folded; the 32-bit
//! `setp.ge.s32 r, 0` of `cvt.u32.u16` is kept (v20: `ISETP.GE R2, RZ`; `PRMT 0x5432`, right).
//! Wrong but not emulated: a kept test whose predicate only gates a write of the value its
//! destination already holds (v06: `setp.ge.s64 d0, 5; @p cvt.u32.u64 r0, d1` of d1 = r0 = 0).
//!
//! Invariants: queries only; they never change an origin or a value.

use super::fuzz3602::writes;
use super::fuzz3701::reaches_on_every_path;
use crate::isa::operand::{Imm, Operand};
use crate::isa::types::MemType;
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// Whether the statement at body index `i` is a sign test of the 64-bit register `r` that
/// ptxas folds because `r` (in thread `t`) is a zero extension whose high word it knows is 0
/// ([`zero_extension_64`]): an unguarded `setp.{ge,lt}.s64 p, r, 0` or `setp.{le,gt}.s64 p, 0,
/// r` (§9.7.3.5; the 0 an immediate or a moved 0, [`moved_zero`]).
pub(super) fn folded_sign_test(m: &Machine<'_>, t: u32, i: usize, r: Reg) -> bool {
    let Some(Stmt::Glue { guard: None, glue }) = m.p.body.get(i) else { return false };
    let GlueOp::Setp(cmp) = glue.op else { return false };
    if glue.ty != GlueType::S64 || glue.src[2].is_some() {
        return false;
    }
    let zero = |s: &Option<Src>| match s {
        Some(Src::Imm(0)) => true,
        Some(Src::Reg(z)) => moved_zero(m, i, *z),
        _ => false,
    };
    let (a, b) = (&glue.src[0], &glue.src[1]);
    let sign_test = (*a == Some(Src::Reg(r)) && zero(b) && matches!(cmp, Cmp::Ge | Cmp::Lt))
        || (*b == Some(Src::Reg(r)) && zero(a) && matches!(cmp, Cmp::Le | Cmp::Gt));
    sign_test && zero_extension_64(m, t, r)
}

/// Whether register `z` holds, before body index `before`, a 0 moved by an unguarded `mov` of
/// the immediate 0 that reaches `before` on every path.
fn moved_zero(m: &Machine<'_>, before: usize, z: Reg) -> bool {
    let Some((k, s)) = m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, z)) else {
        return false;
    };
    let moved = matches!(s, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
        if mv.shape == MovShape::Copy && matches!(operands.get(1), Some(Operand::Imm(Imm::Int(0)))));
    moved && reaches_on_every_path(m, k, before)
}

/// Whether the 64-bit register `r` of thread `t` holds a zero extension ptxas keeps in place
/// with a high word of `RZ`: `cvt.{u64,s64}.u16`, `cvt.{u64,s64}.u8` (§9.7.9.21: an unsigned
/// source zero-extends) or a scalar `ld.{u8,b8,u16,b16}` into it (§9.7.9.8).
fn zero_extension_64(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    if r.class().bits() != 64 {
        return false;
    }
    match m.producer(t, r) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _)) => {
            matches!(c.dtype, CvtType::U64 | CvtType::S64) && matches!(c.atype, CvtType::U16 | CvtType::U8) && !c.sat
        }
        Some((Stmt::Isa(Instruction { form: Form::Ld(l), .. }), _)) => {
            l.vec.is_none() && matches!(l.ty, MemType::U8 | MemType::B8 | MemType::U16 | MemType::B16)
        }
        _ => false,
    }
}
