//! B's rebuilt `set.f32` amount across a boundary ([`super::b_set_f32_rebuilt_at_its_shifts`]) where the trigger
//! is a live test of the set's own word against 0, not boolean logic on a mask: seed 4501's
//! ac502846 (corpus/findings/fuzz-h200-4501/trace/T16t1.md, trace/ac502846/; variants in
//! trace/ac502846/ and trace/ac502846/s46/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3, 13.5 the same): a live `set`/`setp`
//! `.eq`/`.ne` (§9.7.7.1, §9.7.7.2) of the `set.<cmp>.f32` word against the constant 0 (an
//! immediate or a moved 0, either operand) makes ptxas hold the set as its predicate (`ISETP.NE.U32
//! P0, PT, R0, 0x3f800000`) and rebuild it at each reader: the zero test becomes `SEL R9, RZ,
//! 0xffffffff, P0` and the 64-bit shift's amount `SEL R11, RZ, 0x1, !P0; SHF.R.S64 R7, R6, R11,
//! R7` (the 1.0 converted to 1, as B converts any f32 amount) across a guarded load or a forward
//! branch. Seen wrong: the case (`set.eq.s32.s32 r2, 0, r1`), `setp.eq.s32` + `selp` (v3),
//! `set.ne.u32.s32 r2, r1, 0` (v8), the test after the shift (v7), `setp.ne.u32 p, 0, r1`
//! (s46/w3), a `shl.b64` (s46/w4), a moved 0 (s46/w7). Right (the raw `IABS; I2FP.F32.S32` or
//! `FSEL R9, RZ, 1, !P0` shifted by its bits): no test (v1), a test against 5 (v4), the set also
//! stored (v5, s46/w2 with the test too), the test dead (s46/w1), `set.lt` against 0 (s46/w6).
//! Not emulated although wrong: the test as an f32 compare with 0.0 (s46/w5, not glue).
//!
//! Invariants: only widens z1's scope (the value is still B's conversion of the amount); a zero
//! test is unguarded glue of a 32-bit integer type reading the register once.

use super::b_set_f32_rebuilt_at_its_shifts::constant;
use super::j_branch_known_values::observed;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// Whether the statement at body index `i` tests register `r` against 0: unguarded
/// `set.{eq,ne}` or `setp.{eq,ne}` of type `.b32`/`.u32`/`.s32` whose one source is `r` and
/// whose other is the constant 0 ptxas folds.
pub(super) fn zero_test(m: &Machine<'_>, i: usize, r: Reg) -> bool {
    let Some(Stmt::Glue { guard: None, glue }) = m.p.body.get(i) else { return false };
    let eq_or_ne = matches!(glue.op, GlueOp::Set(Cmp::Eq | Cmp::Ne, _) | GlueOp::Setp(Cmp::Eq | Cmp::Ne));
    if !eq_or_ne || !matches!(glue.ty, GlueType::B32 | GlueType::U32 | GlueType::S32) {
        return false;
    }
    let zero = |k: usize| constant(m, i, glue, k).is_some_and(|v| v & 0xFFFF_FFFF == 0);
    match (glue.src[0], glue.src[1]) {
        (Some(Src::Reg(a)), _) if a == r => reg_of_glue(glue, 1) != Some(r) && zero(1),
        (_, Some(Src::Reg(b))) if b == r => zero(0),
        _ => false,
    }
}

/// Whether a live [`zero_test`] of `r` after body index `k` (the set that wrote it) reads the
/// value: the trigger that makes ptxas rebuild the set at its readers.
pub(super) fn live_zero_test_after(m: &Machine<'_>, r: Reg, k: usize) -> bool {
    m.p.body
        .iter()
        .enumerate()
        .skip(k + 1)
        .any(|(i, s)| zero_test(m, i, r) && matches!(s, Stmt::Glue { glue, .. } if observed(m, i, glue.dst)))
}
