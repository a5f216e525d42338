//! 3701-C3-3 (`setp-eq-one-of-set-tests-the-set`) where the 1 is a loop counter ptxas knows once it
//! unrolls the loop whole (a child of `emulate/fuzz3701.rs`, asked by its `setp_one_of_set`), after
//! seed 5603's c5084be2 (corpus/findings/fuzz-h200-5603/, trace/T56G.md, `trace/c5084be2/` and its
//! `s56/`): `mov.u32 i, 4; L: set.ne.u32.u32 s, s, i; sub.u32 i, i, 1; setp.ne.u32 p, i, 0; @p bra L`
//! is 13.0.88 -O3 three compares, the last `ISETP.EQ.U32 P0, R0, 0x2; SEL R0, RZ, 0xffffffff, !P0`:
//! trip 4's `set.ne s, s, 1` (i = 1) folded into trip 3's set, s = 0 where §9.7.7.1 gives −1 — the
//! listing of the loop written out with immediates (`s56/v2_written_out`, the entry's own form). Wrong
//! alike: s loaded (`v5`), two trips (`v6`); right: no trip with i = 1 (`v3`), a loaded trip count
//! (`v4`: the loop stays rolled and compares with the running counter); 13.5 right.
//!
//! Invariants: [`counter_one`] changes nothing itself; it returns the fold of
//! `compare_with_one_tests_the_set` only where source 1 is the counter of the loop around the
//! running statement that ptxas unrolls whole and holds 1 in this trip.

use super::super::negation_inside_fused_min_max_read_as_its_source::unrolled_loop_counter;
use super::super::reg_of_glue;
use super::set_compared_with_one;
use crate::program::exec::Machine;
use crate::program::glue::Glue;
use crate::program::Reg;
use crate::semantics::Expected;

/// C3-3's fold of `g` (a `set`/`setp` `.{eq,ne}` of a set result `vals[0]` against source 1) where
/// source 1 is the counter of the unrolled loop around it ([`unrolled_loop_counter`]) holding 1
/// now; `None` otherwise.
pub(super) fn counter_one(
    m: &Machine<'_>,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
    of_set: impl Fn(Reg) -> bool,
) -> Option<Expected> {
    reg_of_glue(g, 1).filter(|&i| unrolled_loop_counter(m) == Some(i))?;
    vals.get(1).filter(|v| v.is_exact() && v.bits & 0xFFFF_FFFF == 1)?;
    set_compared_with_one(g, vals, result, of_set)
}
