//! N-11 (`skipped-set-sign-extends`) over an old value a saturating `cvt.sat.f32.f32` wrote:
//! ptxas -O3 drops N-11's `IABS` (seed 4602's c98ee331, corpus/findings/fuzz-h200-4602/trace/
//! T17t4.md, variants in trace/c98ee331/ and its s47/, GPU replay in trace/c98ee331/gpu/).
//!
//! The mechanism the listings show: `cvt.sat.f32.f32 r1, x; @p set.le.f32.s16 r1, …` with the
//! guard false is, at 13.0.88 -O0, N-11's merge then `PRMT 0x9910; IABS; PRMT 0x7710; I2F.S16`
//! (|sext16(old)|, what [`skipped_set_f32`](super::skipped) computes: 31978.0 = 0x46f9d400 for
//! old 0x3d008316), and at -O3 (13.5 the same; the JIT alike) `FADD.SAT R6, RZ, R2; I2F.S16 R6,
//! R6`: the `PRMT 0x9910; IABS` step is gone, ptxas taking the float's cleared sign bit for bit
//! 15's, so the low half converts signed: −31978.0 = 0xc6f9d400 (the stored word; the replay gives
//! 0x46f9d400 at -O0 and 0xc6f9d400 at -O3 and the JIT). §9.7.9.21's spec keeps the old value (a
//! false guard writes nothing). Dropped alike (13.0.88 -O3): `cvt.ftz.sat.f32.f32` (s47/y1,
//! `FADD.FTZ.SAT`), `cvt.rni.sat.f32.f32` (s47/y2, `FRND; FADD.SAT`), a `.u16` set source (s47/y4),
//! `abs.f32` (`v2_abs_f32`, not in the program model). Kept (the magnitude, N-11's word): no
//! `.sat` (s47/y3 `cvt.rni.f32.f32`; `v1_no_sat` a `mov`), an integer `and` clearing the sign
//! (`v3_and_int`, `v4_and_int_low15`). -O0 keeps `IABS` in every one, so both words are admitted.
//!
//! Out of scope: 32- and 64-bit set sources (a cleared float sign is bit 31's: `IABS` changes
//! nothing there).
//!
//! Invariants: a query on the old value's producer and the signed word; no value is changed here.

use super::{convert, cvt_form};
use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether the value register `r` of thread `t` holds was written by an unguarded
/// `cvt{.rnd}{.ftz}.sat.f32.f32` (ptxas knows its sign bit clear).
pub(super) fn saturated_f32(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }), _))
        if c.sat && c.dtype == CvtType::F32 && c.atype == CvtType::F32)
}

/// The f32 bits of `I2F.S16` of the low half of `old` (no `IABS`): `cvt.rn.f32.s16` (§9.7.9.21).
pub(super) fn signed_low_half(m: &Machine<'_>, old: u32) -> Option<u32> {
    let converted = cvt_form("cvt.rn.f32.s16").and_then(|f| convert(m, &f, u128::from(old & 0xFFFF)))?;
    converted.is_exact().then_some(converted.bits as u32)
}
