//! 3301-N4 (a sign-extended field ptxas knows is clamped with signed bounds) through the amount
//! of a 16-bit shift, the field an element of a `.v2/.v4.s8` load and not a byte-field `bfe.s32`
//! (seed 5002's 0ffca718, corpus/findings/fuzz-h200-5002/trace/T21c.md, trace/0ffca718/s50/;
//! helper t3, session 50).
//!
//! Mechanism: ptxas clamps the `.u32` amount of `shl.b16`/`shr.{b16,u16}` to [0, 0xffff]
//! (§9.7.8.7: amounts above the width clear the value; `cvt.u32.s16` of the element,
//! §9.7.9.21, sign-extends it to 0xffffff86) with the signed bounds it uses for any register it
//! knows holds a sign-extended byte (`PRMT R0, R2, 0x9991, RZ; ISETP.LT …, RZ; ISETP.GT …,
//! 0xffff; SEL; SEL; SHF.L.U32`): a negative element shifts by 0, the shifted value itself
//! where the spec gives 0. The same signed clamp as the byte-field `bfe.s32` amount
//! (`cnot_number_and_range_decided_sets::shift16_by_byte_bfe`, seed 3903's dd8d148c) and as
//! 3301-N4's saturating `cvt` of a `.v4.s8` element (seed 4002's a1b4d60b).
//!
//! Scope: the amount register a sign-extended field of
//! [`fuzz3702_conversions::sign_extended_field`] (an unguarded `.v2/.v4.s8` element or aligned
//! `bfe.s32`, through at most four `mov` copies or extension-keeping integer `cvt`s, each the
//! last writer on every path), the shift `shl.b16`, `shr.b16` or `shr.u16`, the amount's bit 31
//! set. Evidence (13.0.88 and 13.5 -O3 listings in trace/0ffca718/s50/): wrong — v1 (the case:
//! `.v2.s8` into a b16, `cvt.u32.s16`, `shl.b16`), v3 (`.v4.s8`, `shr.u16`), v7 (the element
//! loaded straight into a b32), v8 (`cvt.s32.s16` then a `mov` copy, a loaded shifted value);
//! right — v2 (a scalar `ld.s8`: `ISETP.GT.U32`, unsigned), v4 (`cvt.u32.u16` zero-extends the
//! 16 bits: `SGXT` then an unsigned clamp), v5 (`shr.s16`: clamped to [−0x8000, 0x7fff] and
//! sign-extended, the spec's), v6 (`shl.b32`: no clamp).

use super::cnot_number_and_range_decided_sets::shift16_clamped_signed;
use super::fuzz3702_conversions::sign_extended_field;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::semantics::Expected;

/// The word ptxas 13.0.88 -O3 (and 13.5, and the JIT) computes for 16-bit shift `g` at the
/// machine's statement whose amount is a sign-extended field (see the module header), `None`
/// (the spec's result stands) outside that scope or where the signed clamp agrees with the spec.
pub(super) fn shift16_by_sign_extended_field(
    m: &Machine<'_>,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let unsigned16 = match g.op {
        GlueOp::Shl => g.ty == GlueType::B16,
        GlueOp::Shr => matches!(g.ty, GlueType::B16 | GlueType::U16),
        _ => false,
    };
    if !unsigned16 || !reg_of_glue(g, 1).is_some_and(|r| sign_extended_field(m, m.stmt, r, 4)) {
        return None;
    }
    shift16_clamped_signed(g, vals, result).filter(|w| w != result)
}
