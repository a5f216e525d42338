//! N-7 (`bfe-s32-past-msb-all-ones`, corpus/known/fuzz-h200-3201-n7-bfe-s32-past-msb.toml) widened
//! by seed 6102's 45b70e5a (session 61, helper ld; corpus/findings/fuzz-h200-6102/trace/T61D.md,
//! variants in trace/45b70e5a/s61/): besides the carry writers ([`super::a_through_a_carry_writer`]),
//! two producers of constants ptxas 13.0.88 -O3 has not folded when its local `bfe` fold runs — the
//! 16-bit widening multiplies (`mul.wide`/`mad.wide` `.u16`/`.s16`, §9.7.1.3, §9.7.1.4) and the
//! 64-bit right shifts (`shr.{b64,u64,s64}`, §9.7.8) — so a `bfe.s32` past the msb of a value
//! computed through one is −1, where §9.7.1.19 gives a's sign (0 for these non-negative values).
//!
//! Evidence (13.0.88 -O3 `MOV R7, 0xffffffff` stored; 13.5 -O3 and 13.0.88 -O0 `STG … RZ`): the
//! stored case `mov.b16 h0, 0; mul.wide.u16 r0, h0, 0; bfe.s32 r2, r0, 0x20, 0x7` (`MOV R0, 0xffff`,
//! the s16 half stored); s61/ v1–v5 (`mul.wide.{u16,s16}`, `mad.wide.{u16,s16}`, immediate or moved
//! operands), v6–v8 (an `add.u32`, a `mov` copy, a cvt round trip of the product), x1–x7
//! (`shr.{u64,s64,b64}` of a moved 64-bit 15 by 32, 4, 1 or a moved 1, the low word by
//! `cvt.u32.u64` or an unpack). Right (`STG … RZ`): `mul.lo.{u16,u32}`, `mul.hi.{u16,u32}`,
//! `mad.lo.u32`, `mul.wide.u32` (either word), `shl.b64`, `add.u64`, `shr.u32` (r1–r9, r14–r16).

use crate::program::glue::{Glue, GlueOp};

/// Whether `g` is a producer whose constant result ptxas 13.0.88 -O3 does not know when its local
/// bfe fold runs: a 16-bit `mul.wide`/`mad.wide` or a 64-bit `shr` (module docs).
pub(super) fn late_folded(g: &Glue) -> bool {
    match g.op {
        GlueOp::MulWide | GlueOp::MadWide => g.ty.bits() == 16,
        GlueOp::Shr => g.ty.bits() == 64,
        _ => false,
    }
}
