//! F (corpus/known/fuzz-h200-f-negation-overflow.toml) through a 16-bit `cvt` copy (session 59,
//! helper id; seed 5902's 958e24a0, corpus/findings/fuzz-h200-5902/trace/T59D.md, variants in
//! trace/958e24a0/s59/): ptxas 13.0.88 -O3 leaves `neg.s16`/`abs.s16` of −32768 at 32 bits
//! (+32768) and drops a same-width integer `cvt.{s16,u16}.{s16,u16}` without `.sat` (a bit copy,
//! §9.7.9.21) as it drops a `mov.b16`, so F's readers of the 16-bit value read +32768 through it:
//! `neg.s16 h0, h0; cvt.s16.s16 h0, h0; cvt.s32.s16 r0, h0` is `PRMT R0, R2, 0x9910; IADD3 R0, RZ,
//! -R0` with no re-narrowing (0x00008000, the spec 0xffff8000; 13.5 adds `PRMT R0, R0, 0x9910`).
//! Wrong alike: `cvt.u16.u16` (`r3`), `cvt.s16.u16` (`r9`), the copy into another register (`r5`),
//! the readers `cvt.u32.s16` (`r6`), `cvt.s64.s16` (`r7`), `setp.gt.s16` (`r8`), `abs.s16` (`r10`).
//!
//! Invariants: only the producer question of F changes ([`copied_negation16`]); one copy deep.

use super::Machine;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::glue::{GlueOp, GlueType};
use crate::program::Stmt;

/// Whether `s` is a `cvt` ptxas drops as a 16-bit copy: integer `.s16`/`.u16` to `.s16`/`.u16`,
/// no `.sat`.
fn copy16(s: &Stmt) -> bool {
    let sixteen = |t: CvtType| matches!(t, CvtType::S16 | CvtType::U16);
    matches!(s, Stmt::Isa(Instruction { form: Form::Cvt(Cvt { dtype, atype, sat: false, .. }), .. })
        if sixteen(*dtype) && sixteen(*atype))
}

/// Whether the statement `s`, whose first source's value statement `a_stmt` produced, is a 16-bit
/// `cvt` copy of an `abs.s16`/`neg.s16` result.
pub(super) fn copied_negation16(m: &Machine<'_>, s: &Stmt, a_stmt: Option<usize>) -> bool {
    copy16(s)
        && matches!(a_stmt.and_then(|k| m.p.body.get(k)), Some(Stmt::Glue { glue, .. })
            if matches!(glue.op, GlueOp::Abs | GlueOp::Neg) && glue.ty == GlueType::S16)
}
