//! 1a937110 (`mul-hi-by-one-of-loaded-half-read-as-low-half`) where ptxas knows the factor 1, the
//! addend 0 or the guard of the `mul.hi`/`mad.hi` only by folding: values known at compile time
//! ([`known`]: moves of immediates and unguarded glue of such values, a counted loop unrolled)
//! count as the immediates the entry's emulation
//! (`emulate/mul_hi_by_one_of_loaded_half_read_as_low_half.rs`) asks for, and a guard predicate
//! known at compile time (true where the `mad.hi` ran) as no guard. ptxas 13.0.88 and 13.5 -O3
//! then fold `mad.hi.u16 d, 1, x, 0` of a loaded half x into x, and the `cvt.f16.f16` reader
//! converts x's low 16 bits where §9.7.1.4 gives 0 (the high half of a product below 2^16).
//!
//! Evidence (corpus/findings/fuzz-h200-5003/, ccde7de9, trace/T21e.md "ccde7de9", variants in
//! trace/ccde7de9/s50/; 13.0.88 and 13.5 -O3 alike): `min.u16 h0, <moved>, 0; mul.lo.s16 h2, h0,
//! h0; setp.lt.u16 p0, h0, h0; L: or.b16 h2, h2, 1; ld.u16 h4; @!p0 mad.hi.u16 h4, h2, h4, h0; …
//! @p1 bra L; cvt.f16.f16 h5, h4` is `LDG.E.U16 R0; HADD2 R0, R0.H0_H0, -RZ.H0_H0` (the stored
//! byte the loaded half's). Wrong alike: no loop and no guard (`v1_folded_one_no_loop`), the
//! folded guard alone (`v2_folded_guard`), the loop alone (`v4_loop_unguarded`). Right (kept out):
//! a guard ptxas cannot decide (`v3_runtime_guard`: `SEL R0, R2, RZ, !P0`, the multiply kept as
//! 0), `or.b16 1` of a loaded half (`v6`: `IMAD; HADD2 R0.H1_H1`), a folded factor 2 (`v7`).
//!
//! Invariants: queries only; nothing here changes a value.

use super::fuzz3602::writes;
use super::known_at_compile_time::known;
use super::origin::reads_and_overwrites;
use crate::program::exec::Machine;
use crate::program::{PredGuard, Reg, RegClass};

/// Whether register `r`, read by the statement at body index `k` (before the running one), holds
/// in thread `t` a value known at compile time that nothing wrote between `k` and the running
/// statement.
pub(super) fn known_since(m: &Machine<'_>, t: u32, k: usize, r: Reg) -> bool {
    known(m, t, r) && m.p.body.get(k + 1..m.stmt).is_some_and(|between| !between.iter().any(|s| writes(s, r)))
}

/// Whether the guard of the statement at body index `k` (that ran in thread `t`) is a predicate
/// known at compile time ([`known_since`]); no guard is one.
pub(super) fn known_guard(m: &Machine<'_>, t: u32, k: usize, guard: Option<&PredGuard>) -> bool {
    guard.is_none_or(|g| known_since(m, t, k, Reg::Virt(RegClass::Pred, g.pred)))
}

/// Whether the value the load at body index `ld` wrote to register `r` is read by the guarded
/// `mul.hi`/`mad.hi` at body index `k` alone, its guard known true: nothing between reads `r`,
/// and the guarded write ends the value as an unguarded one would (`value_readers` counts the
/// statements after a guarded write as the load's readers too).
pub(super) fn read_only_by_the_known_guarded(m: &Machine<'_>, ld: usize, k: usize, r: Reg) -> bool {
    ld < k && !m.p.body[ld + 1..k].iter().any(|s| reads_and_overwrites(s, r).0)
}
