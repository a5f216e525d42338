//! 3301-N4's signed clamp (ptxas saturates a `.u32` value it knows is a sign-extended field with
//! signed bounds) reached by a 16-bit shift's amount that an element of an `ld.*.v{2,4}.s8` made,
//! through `mov` copies and extension-keeping integer `cvt`s (`cvt.u32.s8`, `cvt.s32.s8`, …):
//! ptxas 13.0.88 and 13.5 -O3 (and the JIT) lower the amount of `shl.b16`/`shr.{b16,u16}` as
//! `PRMT 0xbbb3/0x9991` (the byte sign-extended), `ISETP.LT …, RZ; ISETP.GT …, 0xffff; SEL; SEL`,
//! so a negative byte shifts by 0 where §9.7.8.7/§9.7.8.8 read the `.u32` amount unsigned (at least
//! 16: `shl.b16`/`shr.u16` give 0). Called by `cnot_number_and_range_decided_sets::shift16_by_byte_bfe`
//! (the `bfe.s32` form of seed 3903's dd8d148c), which computes the shift by 0.
//!
//! Evidence: seed 5001's c4120841 (corpus/findings/fuzz-h200-5001/trace/T21b.md: `ld.shared.v4.s8
//! {h0, h1, h2, h3}; cvt.u32.s8 r0, h3; shr.u16 h5, h1, r0`, 0xfffb >> 0 → byte 0xfb, spec 0) and
//! its variants (trace/c4120841/s50/): wrong — `.v4.s8` with `shr.u16` (v1) and `shl.b16` (v2),
//! `.v2.s8` through `cvt.s32.s8` with `shr.b16` (v3); right — a scalar `ld.s8` (v4: `ISETP.GT.U32`,
//! an unsigned clamp), `cvt.u32.u8` (v5: a zero extension), `shr.s16` (v6: the sign fill either way),
//! a 32-bit shift (v7: no clamp). Scope: the amount register's value a sign-extended element
//! ([`fuzz3702_conversions::sign_extended_field`], four copies or conversions deep), as 3702-N4's
//! and 3301-N4's saturating `cvt` already read it.

use super::cnot_number_and_range_decided_sets::byte_field_bfe;
use super::fuzz3702_conversions::sign_extended_field;
use crate::program::exec::Machine;
use crate::program::Reg;

/// Whether the amount register `r` of thread `t` (read by the running 16-bit shift) holds a
/// field ptxas knows is sign-extended: a byte- or half-aligned `bfe.s32` (3301-N4, dd8d148c) or
/// an element of an `ld.*.v{2,4}.s8` through copies and extension-keeping conversions.
pub(super) fn sign_extended_amount(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    byte_field_bfe(m, t, r) || sign_extended_field(m, m.stmt, r, 4)
}
