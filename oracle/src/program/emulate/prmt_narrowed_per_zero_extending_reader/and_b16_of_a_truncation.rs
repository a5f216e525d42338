//! 3702-N5 (`prmt-sign-of-a-narrowed-reads-zero`) at one more zero-extending reader (a child of
//! `emulate/prmt_narrowed_per_zero_extending_reader.rs`, whose glue reader asks [`bytes`]), after seed
//! 5603's 20120274 (corpus/findings/fuzz-h200-5603/, trace/T56G.md, `trace/20120274/` and its `s56/`):
//! `and.b16 h4, h3, 0xffff` (or `0xff`) where h3 is a bare `cvt.{u16,s16}.{u32,s32}` truncation of the
//! `prmt.b32` result. ptxas 13.0.88 -O3 takes that mask of the truncated half as a zero extension of
//! its low bytes and folds it into a narrowed `PRMT` (`prmt r5, a, b, 0xaa1afc9c; cvt.u16.s32 h3, r5;
//! and.b16 h4, h3, 0xffff` is `PRMT R7, RZ, 0x9c, R2`: byte 1, the sign of a's byte 1, 0x00 where
//! §9.7.9.7 gives 0xff; 13.5 keeps the whole `PRMT` and a `LOP3 0xffff`). Wrong alike: a moved 0xffff
//! (`s56/u6`), the result widened by `cvt.u32.u16` (`u5`); `and.b16 0xff` is narrowed to one byte
//! (`u2`, `PRMT R7, RZ, 0xc, R2`). Right (the whole `PRMT`): another mask (`u3` 0xff00, `u7` 0x7fff),
//! `or.b16 0` (`u8`) and `and.b16 0xffff` of the low half of a `mov.b32` unpack with no `cvt` (`u4`):
//! so the `and.b16` is a reader only of a truncation.
//!
//! Invariants: [`bytes`] is a condition on the program's statements and the producers the machine
//! records; it changes no value (the caller narrows the source as for every other reader).

use super::super::fuzz3602::writes;
use super::super::fuzz3701::constant;
use super::super::reg_of_glue;
use super::is_truncation_to_16;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// How many low bytes of source `j` of `g` (values `vals`) an `and.b16` zero-extends for 3702-N5:
/// 2 for the mask 0xffff, 1 for 0xff (an immediate or a moved one, the other source), where source
/// `j`'s last writer before the running statement is an unguarded bare `cvt.{u16,s16}.{u32,s32}`;
/// `None` otherwise.
pub(super) fn bytes(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], j: usize) -> Option<u32> {
    if g.op != GlueOp::And || g.ty != GlueType::B16 || j > 1 {
        return None;
    }
    let n = match constant(m, t, g, vals, 1 - j)? & 0xFFFF {
        0xFFFF => 2,
        0xFF => 1,
        _ => return None,
    };
    let h = reg_of_glue(g, j)?;
    let k = m.p.body.get(..m.stmt)?.iter().rposition(|s| writes(s, h))?;
    let truncated = matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })
        if is_truncation_to_16(*c));
    truncated.then_some(n)
}
