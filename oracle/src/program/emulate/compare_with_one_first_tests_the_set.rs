//! 3701 C3-3 (corpus/known/fuzz-h200-3701-c3n3-setp-eq-one-of-set-tests-the-set.toml,
//! [`Deviation::SetpEqOneOfSetTestsTheSet`](crate::semantics::Deviation)) with the 1 as the
//! compare's FIRST operand.
//!
//! Role: the other operand order of [`compare_with_one_tests_the_set`], for C3-3's own rule
//! (`fuzz3701.rs::setp_one_of_set`): the compare is re-read with its two sources swapped and
//! handed to the shared fold, which stays the one place that says what the fold gives.
//!
//! Mechanism (corpus/findings/fuzz-h200-4802/, e66ac96d, trace/T19v3.md, variants in
//! trace/e66ac96d/ and trace/e66ac96d/s48/; ptxas 13.0.88 -O3 and the JIT, 13.5 right):
//! `set.eq.f32.u32 r6, r8(=1), r4` of `set.ge.s32.s32 r4` is `ISETP.GE P0; SEL R0, RZ,
//! 0xffffffff, !P0; IABS; I2FP.F32.S32` — no compare with 1, the set's own truth written as
//! 1.0f — the identical listing to the set-first order (`v1_set_first`). `.eq`/`.ne` compare
//! for (in)equality, symmetric in their operands (§9.7.7.1, §9.7.7.2); ptxas folds either
//! order alike: `v2_setp_one_first` and `w4_setp_eq_imm_one_first` (`SEL R7, RZ, 0x7, P0`),
//! `w4_setp_ne_moved_one_first` (`SEL R7, RZ, 0x7, !P0`), `w4_set_ne_s32_moved_one_first` and
//! `w4_set_eq_s32_imm_one_first` (`SEL R7, RZ, 0xffffffff, ±P0`), the 1 a moved register or an
//! immediate.
//!
//! What stays out (right on 13.0.88 -O3, the compare kept): a first operand other than 1
//! (`v4_compare_two_right` `ISETP.EQ.U32 P0, R0, 0x2`, `w4_minus_one_first_right`
//! `ISETP.EQ.U32 P0, R0, -0x1`), a loaded first operand (`w4_loaded_first_right`
//! `ISETP.EQ.U32 P0, R7, R0`); and everything the set-first rule leaves out (its `of_set`).

use super::fuzz3701::compare_with_one_tests_the_set;
use crate::program::exec::Machine;
use crate::program::glue::Glue;
use crate::program::Reg;
use crate::semantics::Expected;

/// [`compare_with_one_tests_the_set`] of `g` read as `op d, b, a` (its first two sources and
/// their values swapped): C3-3's fold where the 1 is source 0 and the set's result source 1.
/// `None` where the swapped compare is no such fold.
pub(super) fn one_first(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
    of_set: impl Fn(Reg) -> bool,
) -> Option<Expected> {
    let (a, b) = (vals.first()?, vals.get(1)?);
    let mut swapped = *g;
    swapped.src.swap(0, 1);
    let swapped_vals = [b.clone(), a.clone()];
    compare_with_one_tests_the_set(m, t, &swapped, &swapped_vals, result, of_set)
}
