//! 6a4d050b: ptxas 13.0.88 and 13.5 -O3 (identical listings) and the JIT fold `setp.{eq,ne}.
//! {u32,s32} p, s, 1` (or a `set.{eq,ne}.<dst>.{u32,s32} d, s, 1` consumer) of a
//! `set.<cmp>.f32.{u64,s64}` result s into the set's own 64-bit test, although a `set.f32` writes
//! 0x3f800000 or 0 (§9.7.7.1), never 1: eq is the set's truth, ne its negation
//! (`corpus/known/fuzz-h200-4203-6a4d050b-setp-one-of-f32-set-of-wide-source-tests-the-set.toml`).
//! Called from the glue hook of `emulate.rs`.
//!
//! Evidence: corpus/findings/fuzz-h200-4203/ (6a4d050b, trace/T12c2.md §B, trace/6a4d050b/:
//! `set.le.f32.u64 r0, 0, d1; setp.ne.s32 p, r0, 1` gives `ISETP.GE.U32.AND P0, PT, R2, RZ;
//! ISETP.LT.U32.OR.EX P0, PT, R3, RZ, !PT, !P0; SEL R7, RZ, K, !P0`; its `w/` sweep wrong for
//! `.u64 .s64 .b64 .f32 .f64` sources, `v8_setne_dst` a set consumer, `v9_moved1` a moved 1);
//! corpus/findings/fuzz-h200-4402/ (c58b70c2, trace/T15t3.md, trace/c58b70c2/s45/:
//! `set.ge.f32.s64 r3, 0, d1; setp.eq.s32 p, r3, 1; @p bra` gives `ISETP.LE.U32.AND P0, PT, R2,
//! RZ; ISETP.GT.OR.EX P0, PT, R3, RZ, !PT, !P0; @P0 MOV R7, RZ`: the branch taken where d1 ≤ 0).
//! The fold's rule is 3701 C3-3's ([`compare_with_one_tests_the_set`]), the producer another:
//! C3-3 folds integer sets and is fixed in 13.5; this one folds `.f32` sets of a 64-bit source
//! and is not.
//!
//! Right (kept out; trace/6a4d050b/ and c58b70c2/s45/, 13.0.88 and 13.5 -O3 alike): a 32- or
//! 16-bit source (`SEL -1; IABS; I2FP`, the compare kept: `r1_u32src`, `r2_u16src`), a compare
//! with 2 or 0x3f800000, `setp.gt.u32 s, 1`, a 16-bit compare of s's low half
//! (`q3_s16_consumer`), a 64-bit compare of s widened (`q4_u64src_setp_u64`), `selp 0x3f800000,
//! 0` in place of the set. The `.b64` and float sources the sweep shows wrong are not glue a
//! `set` takes (`GlueType::op_takes`), so they are not named here.
//!
//! Invariants: changes only the result of such a compare, only when the deviation is emulated;
//! the spec's result stands otherwise.

pub(super) mod arm_copy_reads_the_pinned_one;

use super::fuzz3701::compare_with_one_tests_the_set;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under 6a4d050b: `Some` (the folded result, the deviation
/// recorded as fired) where it applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let d = Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet;
    if !m.allow.emulates(d) {
        return None;
    }
    let seen: &Machine<'_> = m;
    let v = compare_with_one_tests_the_set(seen, t, g, vals, result, |r| of_f32_set_of_wide_source(seen, t, r))?;
    Some(m.fire(d, result, v))
}

/// Whether register `r` of thread `t` holds a `set.<cmp>.f32.{u64,s64}` result (moves looked
/// through).
fn of_f32_set_of_wide_source(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _))
        if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) && matches!(glue.ty, GlueType::U64 | GlueType::S64))
}
