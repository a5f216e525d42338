//! Which values ptxas knows at compile time through an integer `cvt` ([`Origin::known_since`],
//! decided for every other writer in `emulate/known_at_compile_time.rs`): an unguarded integer-to-integer
//! `cvt` without `.sat` of a known value is known, and known in its block when its source is.
//!
//! Mechanism (3201-N7, corpus/findings/fuzz-h200-4703/, 08e15a19, trace/T18u4.md and
//! trace/08e15a19/s47/): `mov.b64 %d0, 0xf581e018afb4b858; cvt.s32.u64 %r0, %d0;
//! bfe.s32 %r1, %tix, %r0, %r0` is folded by 13.0.88 -O3 to −1 exactly as `mov.b32 %r0,
//! 0xafb4b858` is (`HFMA2.MMA R0, -RZ, RZ, 0, 1.5139e-05` = 0x00fe for the halves' sum; the
//! trace's `v1_mov_b32_start_in_scope` gives the identical listing); so do `cvt.u32.u64`
//! (`v3`), `cvt.s32.s16` of a moved 16-bit value (`v5`) and a chain `cvt.u16.u64; cvt.s32.u16`
//! (`s47/w1_two_cvts_of_moved64`).
//!
//! What stays out (right in 13.0.88 -O3): a guarded `cvt` (`s47/w2_guarded_cvt_start_right`:
//! `SEL R0, R2, 0xafb4b858, P0` then `SHF.R.S32.HI; SGXT`), a `cvt` of a loaded value
//! (`s47/w3_cvt_of_loaded_right`); float conversions and `.sat` are not shown and stay unknown.
//!
//! Invariant: only the known flags are recorded (no value changes).

use super::{known_at_compile_time, n7_known_within_one_block, Origin};
use crate::isa::{Cvt, Instruction};
use crate::program::exec::Machine;
use crate::program::Reg;

/// Marks `o`, the origin the `cvt` `inst` (`c`, source register `src`) gives its destination in
/// thread `t`, known (and known locally) as its source is, when the conversion is an unguarded
/// integer-to-integer one without `.sat`.
pub(super) fn mark_known(m: &Machine<'_>, t: u32, inst: &Instruction, c: &Cvt, src: Option<Reg>, o: &mut Origin) {
    let integer = c.dtype.is_int() && c.atype.is_int() && !c.sat && c.rnd.is_none();
    let Some(r) = src.filter(|_| integer && inst.guard.is_none()) else { return };
    if known_at_compile_time::known(m, t, r) {
        o.known_since = Some(m.joins);
        o.local_block = n7_known_within_one_block::known_locally(m, t, r).then_some(m.blocks);
    }
}
