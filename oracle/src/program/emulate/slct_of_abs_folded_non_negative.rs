//! F (corpus/known/fuzz-h200-f-negation-overflow.toml) where the consumer of the overflowed
//! `abs.s32` is a `slct`: seed 4402's 2bec5b10 (corpus/findings/fuzz-h200-4402/trace/T15t3.md,
//! variants in trace/2bec5b10/var/ and trace/2bec5b10/s45/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3; 13.5 -O3 and -O0 are right):
//! `slct.<dtype>.s32 d, a, b, c` (§9.7.7.7: d = c ≥ 0 ? a : b) whose `c` is `abs.s32` (mov
//! copies looked through) is folded to `d = a`: ptxas takes `abs(x) ≥ 0` as always true, so
//! c = |−2^31| = −2^31 selects `a` where the spec selects `b` (`STG.E.U8 … RZ` for
//! `slct.s16.s32 h, 0, 237, |x|`; loaded `a`/`b` the same, `STG.E.U16 … R3` of `a`'s load, `b`
//! never loaded). Every destination type but `.s32` (`.s16`, `.u16`, `.b16`, `.u32`, `.b32`,
//! `.s64`, `.u64`, `.f32`), immediates or registers, the abs also stored. Right, so not
//! emulated: `slct.s32.s32` of a loaded abs source (any operands: `IABS; ISETP.GE; SEL`),
//! `neg.s32` and `sub.s32` from 0 (`IADD3 -R; ISETP.GE; SEL`), `slct.*.f32` (`FSETP.GE` of the
//! bits). `slct.s32.s32` of `abs.s32` of a moved −2^31 (s45/x8: 13.0.88 stores `a`) is ptxas's
//! constant `c` tested as an f32 (−0.0 ≥ 0.0), the entry `slct-s32-by-min-immediate-selects-a`
//! (emulate.rs), not this.
//!
//! Invariants: [`glue`] only changes a `slct` result, only where `c`'s value is the overflowed
//! `abs.s32` of −2^31, and gives `a`'s value exactly.

use super::is_min;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::Stmt;
use crate::semantics::Expected;

/// The value ptxas 13.0.88 -O3 gives `slct.<dtype>.s32 d, a, b, c` (`dtype` not `.s32`) whose
/// selector `c` holds `abs.s32` of −2^31 in thread `t`: `a` (see the module header); `None`
/// elsewhere. `vals` are the source values, `result` the spec's.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Slct || g.ty == GlueType::S32 {
        return None;
    }
    let Some(Src::Reg(c)) = g.src[2] else { return None };
    let abs32 = matches!(m.producer(t, c), Some((Stmt::Glue { glue, .. }, _))
        if glue.op == GlueOp::Abs && glue.ty == GlueType::S32);
    let a = vals.first().filter(|a| a.width == result.width)?;
    (abs32 && vals.get(2).is_some_and(|v| is_min(v, 32))).then(|| a.clone())
}
