//! Root cause 3602-N2 (corpus/known/fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean.toml)
//! widened after seed 5803's 6699aa1a (corpus/findings/fuzz-h200-5803/trace/T58F.md, variants in
//! trace/6699aa1a/s58/): the `neg.s32` (or `sub` from a moved 0) of an int-to-float
//! `cvt.<frnd>.f32.{s32,u32}` of a `set.<cmp>.f32.<type>` result.
//!
//! Mechanism: ptxas keeps the set's boolean through the conversion of its word and negates that,
//! as for N2's own form. `set.le.f32.s64 r1; cvt.rz.f32.s32 r0, r1; neg.s32 r4, r0; mov.b32 {h12,
//! h13}, r4; xor.b16` is `STG.E.U8 … RZ` (13.0.88 and 13.5 -O3; the spec's 1065353216.0 negated is
//! 0xb1820000, xor 0xb182), the listing of the neg of the set itself (`v1_no_cvt`); `.rn`
//! (`v2_cvt_rn`), `cvt.rz.f32.u32` (`v3_cvt_f32_u32`), `sub.s32` from a moved 0
//! (`v13_sub_of_moved_zero`) the same, and `and.b16` of the halves is `SEL R7, RZ, 0xffffffff,
//! !P0` (`v6_and_reader`: N2's 0xffff). Right: an integer set (`v9_integer_set`), the negation
//! stored whole (`v8`), `add.u16` of the halves (`v7`). Left out: two cvts (`v10`, wrong too),
//! a float-to-int cvt (`v4`: there the spec's 1 is the boolean anyway).
//!
//! Scope: one unguarded cvt, `.f32` from `.s32`/`.u32` with a rounding modifier and no `.sat`,
//! whose source register's producer is the set, the cvt's result unchanged up to the negation.
//! Only the set's truth is asked of the value returned (nonzero: true), and the cvt keeps it
//! (§9.7.9.21: 0 converts to +0.0, a nonzero word to a nonzero float).
//!
//! Invariants: a query only; it never changes an origin or a value.

use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The value of the `set.<cmp>.f32` whose word the register `x` holds converted by an
/// int-to-float cvt, for thread `t`, where x is read by the negation at body index `neg_at`
/// and x's producer is the statement `cvt_at` (the negation's recorded first-source producer).
/// `None` when x was not so made, or was rewritten since.
pub(super) fn set_under_the_cvt(m: &Machine<'_>, t: u32, x: Reg, neg_at: usize, cvt_at: usize) -> Option<Expected> {
    let int_to_float = |c: &Cvt| {
        c.dtype == CvtType::F32 && matches!(c.atype, CvtType::S32 | CvtType::U32) && c.rnd.is_some() && !c.sat
    };
    let Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }) = &m.p.body[cvt_at] else { return None };
    if !int_to_float(c) {
        return None;
    }
    // x's last write is still that cvt, made before the negation.
    let (_, xo) = m.producer(t, x)?;
    let set_at = xo.a_stmt?;
    let is_set_f32 =
        matches!(&m.p.body[set_at], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    (xo.stmt == cvt_at && cvt_at < neg_at && set_at < cvt_at && is_set_f32).then(|| xo.a.clone()).flatten()
}
