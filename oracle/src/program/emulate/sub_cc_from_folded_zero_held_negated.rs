//! 3701-fc9c9c66 (`xor-of-set-and-cnot-gives-one-minus`) through `sub.cc.u32 d, z, x` from a
//! folded 0 (seed 4603's 11183ca8, corpus/findings/fuzz-h200-4603/trace/T17t5.md, variants in
//! trace/11183ca8/ and its s47/): the `.cc` form of the negated word seed 4402's a22d4fd5 showed
//! (`ptxas_constant_operands::sub_from_folded_zero`).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3, 13.5 the same): `set.gt.s32.s64 r1, 0, d1;
//! mov.b32 r5, 0; sub.cc.u32 r6, r5, r0; xor.b32 r9, r1, r6` is `LOP3.LUT R6, RZ, R0, RZ, 0x33;
//! IADD3 R7, -R0, RZ, RZ; @P0 IADD3 R7, -R6, RZ, RZ`: −(~r0) = r0 + 1 where a true set gives
//! (§9.7.8.3 xor, §9.7.1.2 sub) ~(−r0) = r0 − 1: 1 for r0 = 0, the spec 0xffffffff. The carry
//! out changes nothing: `sub.u32` (`v1_sub_no_cc`) is the same listing, and with the carry read
//! (`v2_carry_read`) the xor word is wrong alike (the carry itself right). Wrong alike (s47,
//! 13.0.88 -O3): the immediate 0 (x1), `add.u32` of a moved 3 and −3 (x4). Right (`@P0 LOP3.LUT
//! R7, RZ, R7, RZ, 0x33` of −x): a shuffled 0 (s47/x2), a moved 5 (s47/x3, `v4_from_5_right`),
//! `sub.cc.s32` (`v5_sub_cc_s32`), as for `sub.u32`/`sub.s32`.
//!
//! Out of scope: `subc`/`subc.cc` (a borrow in; not shown).
//!
//! Invariants: a condition on one glue statement; no value is changed here.

use crate::program::glue::{Glue, GlueOp, GlueType};

/// Whether `glue` is `sub.u32` or `sub.cc.u32`: the forms ptxas holds, from a folded 0, as the
/// negated word of its subtrahend.
pub(super) fn unsigned_sub_u32(glue: &Glue) -> bool {
    matches!(glue.op, GlueOp::Sub | GlueOp::SubCc) && glue.ty == GlueType::U32
}
