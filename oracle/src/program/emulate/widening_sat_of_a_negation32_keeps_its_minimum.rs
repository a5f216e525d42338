//! Root cause F (corpus/known/fuzz-h200-f-negation-overflow.toml) widened after seed 4701's
//! 72d92e64 (corpus/findings/fuzz-h200-4701/trace/T18u1.md; variants in
//! trace/72d92e64/s47/): a widening or same-width `cvt.sat.{u32,u64}.s32` of a 32-bit negation
//! of −2^31 keeps the negated value, 0x80000000 (zero-extended to `.u64`).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3, JIT): `neg.s32 y, x; cvt.sat.u64.s32 d, y` is
//! `IADD3 R0, RZ, -R2; ISETP.GT.U32.AND P0, PT, R0, -0x80000000; SEL R7, R0, RZ, !P0`: the
//! clamp of an `.s32` to [0, ∞) is done as `y >u 2^31 → 0`, the clamp of the mathematical −x ∈
//! [−(2^31−1), +2^31] — ptxas assumes −x cannot overflow. For x = −2^31, −x wraps to 0x80000000
//! (§9.7.1.8 `neg`), is not >u 0x80000000 and is kept, where §9.7.9.21 `.sat` gives 0. Every
//! other x is clamped right. The value is the one of F's `abs.s32` widening rule (+2^31 as a
//! `.u32`), so [`emulate`](super)'s rule computes it for both producers. Session 41 read this
//! very listing as right (seed 4101's trace/ac4a6049/var/v_neg32_sat_u64 and v_neg32_sat_u32 are
//! the same three instructions): it is right for every x but −2^31.
//!
//! Scope: the negation and the reader chain between are [`clamped_negation32`]'s (the narrowing
//! rule's): `neg.s32` (orig, `w1_neg_sat_u64_whole`, `v1_sat_u32` of the trace), `sub.s32` from
//! a moved 0 (`w2_sub_moved_zero_sat_u32`), through `mov` copies (`w3_neg_mov_copy_sat_u64`).
//! Right and left out: `cvt.u64.s32` without `.sat` (`r1_neg_u64_no_sat`: `SHF.R.S32.HI`, the
//! sign extension), a value another path's write joins before the cvt
//! (`r3_neg_branch_join_sat_u64`: `ISETP.LT.AND P0, PT, R0, RZ; SEL`), `sub.u32` from a moved 0
//! (`r4_sub_u32_zero_sat_u64`: `ISETP.LT`), `neg.s64` read by `cvt.sat.u64.s64`
//! (`r5_neg64_sat_u64`: `ISETP.GE/LT` on the high word), no negation (`v4_ld_direct_no_neg`).
//! (`cvt.sat.s64.s32` is no legal PTX: ptxas rejects `.sat` there.)
//!
//! Invariants: a query only; it never changes an origin or a value.

use super::f_clamped_negation32::clamped_negation32;
use crate::program::exec::Machine;
use crate::program::Reg;

/// Whether register `r` of thread `t`, read by the `cvt.sat.{u32,u64}.s32` being run (body index
/// `m.stmt`; [`emulate`](super)'s widening rule checks the cvt), holds a 32-bit negation whose
/// unsigned clamp keeps the wrapped −(−2^31): the negation and the copies between as the
/// narrowing rule's ([`clamped_negation32`]), which the variants show the same.
pub(super) fn negation_kept_by_unsigned_clamp(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    clamped_negation32(m, t, r)
}
