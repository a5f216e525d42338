//! A (corpus/known/fuzz-h200-a-narrow-store-converts.toml: ptxas converts, `F2I.U8…`, at an
//! 8-bit store of a register a float `cvt` writes on some path) where the float `cvt` is skipped
//! by its guard and the register's old value has no recorded producer: a half unpacked from the
//! prologue's `%tix` (`mov.b32 {h0, h1}, %tix`), whose origin the machine does not keep.
//! ptxas selects between the cvt's result and the old value and converts the selection at the
//! store whatever it holds (§9.7.9.11 st and §9.7.9.21 cvt: the spec stores the low 8 bits).
//!
//! Evidence (seed 5103's 5a40f4d8, session 51; corpus/findings/fuzz-h200-5103/trace/T22c.md,
//! variants in trace/5a40f4d8/s51/): `mov.b32 {h0, h1}, %tix; setp.lt.u32 p0, %tix, 0x38;
//! @!p0 cvt.f16.f16 h0, h1; st.global.u8 [out+7], h0` is 13.0.88 -O3 `SEL R0, R0, R7, P0;
//! F2I.U8.F16.TRUNC.NTZ R5, R0` (and -O0 `SEL; F2I.U8.F16.TRUNC.NTZ`): tid's bits as f16, 0,
//! where the spec stores tid. Wrong alike: the old value unpacked from a loaded word (v2, which
//! the machine records), the guard true in half the threads (v4), `cvt.u16.u32` of tid (v5).
//! Right: no cvt (v1), a guarded integer cvt (v3), a write after the cvt (v6). 13.5 -O3 stores
//! the byte (`@!P0 PRMT R5, R7, 0x7610, R5`).
//!
//! Scope: called by `emulate/skipped.rs` for a skipped float `cvt` while A is emulated, only where
//! the destination has no recorded origin; it records one (the register's last writer in the
//! body, [`last_writer`]) marked `float_merged`, so `emulate/stored.rs` converts the byte as for a
//! recorded old value. A register no statement of the body wrote is left alone.
//! Invariants: changes no value; records an origin only while A is emulated.

use super::fuzz3701::last_writer;
use super::origin::Origin;
use crate::program::exec::Machine;
use crate::program::Reg;

/// Records, for register `r` of thread `t` (the destination of the skipped float `cvt` being
/// run) that has no recorded origin, its last writer before the `cvt` as its producer, marked as
/// merged with a float `cvt`'s result.
pub(super) fn mark_unrecorded_old_value(m: &mut Machine<'_>, t: u32, r: Reg) {
    let recorded = m.origins.get(t as usize).is_some_and(|o| o.contains_key(&r));
    let Some((w, _)) = last_writer(m, m.stmt, r).filter(|_| !recorded) else { return };
    if let Some(o) = m.origins.get_mut(t as usize) {
        o.insert(r, Origin { float_merged: true, ..Origin::written(w, None, None) });
    }
}
