//! B (corpus/known/fuzz-h200-b-f32-shift-amount.toml: a skipped `cvt` to `.f32` or `mov.f32`
//! makes the old value f32-typed whatever wrote it) where the old value has no recorded origin:
//! an integer copy of the prologue's `%tix` (a child of `emulate/skipped.rs`, asked by its
//! `skipped_isa` while B is emulated).
//!
//! Evidence (seed 5702's e9fc9a48, session 57, helper h4; traced in
//! corpus/findings/fuzz-h200-5701/trace/T57D.md, variants in
//! corpus/findings/fuzz-h200-5702/trace/e9fc9a48/s57/): `mov.s32 r1, %tix; @!p0 cvt.rz.f32.s32
//! r1, r0; shr.u64 d1, d0, r1` with p0 true is 13.0.88 and 13.5 -O3 `F2I.U64.TRUNC R2, R9;
//! SHF.R.U64 R0, R3, R2, RZ` (-O0 `FSEL R2, R2, R0, P0; F2I.U64.TRUNC`): tid's bits as an f32, a
//! subnormal, shift by 0 where §9.7.8.8 shifts by tid. The same: `mov.b32 r1, %tix` (y4), a
//! run-time guard (y1, y2), a skipped `mov.f32` (y7). Right: no skipped write (y6), a branch
//! around an unguarded cvt (y8: a label between, B's boundary).
//!
//! The machine keeps no origin for a copy of a prologue register, so the skipped write had
//! nothing to mark f32-typed. Scope: [`mark`] records one (the register's last writer in the
//! body) where none is recorded; `skipped_isa` then marks it f32-typed as for a recorded old
//! value. A register no statement of the body wrote is left alone.
//! Invariants: changes no value; records an origin only while B is emulated.

use crate::program::emulate::fuzz3701::last_writer;
use crate::program::emulate::origin::Origin;
use crate::program::exec::Machine;
use crate::program::Reg;
use crate::semantics::Deviation;

/// Records, for register `r` of thread `t` (the destination of the skipped `cvt` to `.f32` or
/// `mov.f32` being run) that has no recorded origin, its last writer before it as its producer.
pub(super) fn mark(m: &mut Machine<'_>, t: u32, r: Reg) {
    if !m.allow.emulates(Deviation::F32ShiftAmount) {
        return;
    }
    let recorded = m.origins.get(t as usize).is_some_and(|o| o.contains_key(&r));
    let Some((w, _)) = last_writer(m, m.stmt, r).filter(|_| !recorded) else { return };
    if let Some(o) = m.origins.get_mut(t as usize) {
        o.insert(r, Origin::written(w, None, None));
    }
}
