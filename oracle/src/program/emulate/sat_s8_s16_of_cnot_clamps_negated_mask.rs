//! ba4f6f03 (corpus/known/fuzz-h200-4402-ba4f6f03-sat-s8-of-cnot-clamps-negated-mask.toml):
//! `cvt.sat.{s8,s16}.u32` of `cnot.b32` saturates the negated 0/−1 mask with an unsigned bound
//! test, called from the `cvt` hook of `emulate.rs` ([`super::isa`]).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3, and the JIT): ptxas holds `cnot.b32 r, x` as −m with
//! m = (x == 0 ? −1 : 0) and moves the reader's clamp onto m: `ISETP.EQ.U32 P0, R2, RZ; SEL R0,
//! RZ, 0xffffffff, !P0; ISETP.GT.U32 P0, R0, 0x80; IMAD.MOV R0, -R0; SEL R0, R0, 0xffffff80,
//! !P0`. The bound test is unsigned, so cnot = 1 (m = 0xffffffff >u 0x80) gives the type's
//! minimum, where §9.7.7.4 (cnot of 0 is 1) and §9.7.9.21 (`cvt.sat.s8.u32` of 1 is 1) give 1;
//! cnot = 0 (m = 0) is right. Seed 4402's ba4f6f03 (trace corpus/findings/fuzz-h200-4402/
//! trace/T15t2.md, trace/ba4f6f03/: `reduced`, `v8_cnot_s8u32_st32` (a 32-bit destination,
//! `PRMT 0x8880` of 0xffffff80), `v4_cnot_s16` (0x8000, `SEL …, 0xffff8000`)) and seed 4602's
//! 8d93b13f (trace corpus/findings/fuzz-h200-4602/trace/T17t4.md: the identical four lines,
//! byte 0x80).
//!
//! The emulated value is the minimum of the destination type (−128, −32768) where the cnot's
//! value is 1, extended to the register as the `cvt` extends. Out (right in the listings): an
//! explicit `neg.s32` or set + `neg` before the cvt (`v1_neg_u32`, `v5_setne_neg`: `ISETP.GT.U32
//! …, 0x7f`), an `.s32` source (`v2_cnot_s32src`: `I2I.S8.S32.SAT`), `cnot.b16`/`cnot.b64`
//! (`v6`, `v7`: the clamp on −m with 0x7f), `selp 1, 0` (`v9`), a `cnot` of a constant (folded);
//! `cvt.sat.u8.u32` is O's dropped producer (`v3_cnot_u8`).

use super::convert;
use super::fuzz3701::of_cnot_of_register;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// `cvt.sat.{s8,s16}.u32 d, r` (`inst`, `c`, unguarded) with r written by an unguarded
/// `cnot.b32` of a register (`mov` copies looked through) whose value `a` is 1: the minimum of
/// the destination type (`None` elsewhere, cnot = 0 included: right).
pub(super) fn clamped_negated_mask(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    r: Option<Reg>,
    a: &Expected,
) -> Option<Expected> {
    let saturating = c.sat && c.atype == CvtType::U32 && matches!(c.dtype, CvtType::S8 | CvtType::S16);
    if inst.guard.is_some() || !saturating || !(a.is_exact() && a.bits & 0xFFFF_FFFF == 1) {
        return None;
    }
    let r = r?;
    let unguarded = matches!(m.producer(t, r), Some((Stmt::Glue { guard: None, .. }, _)));
    if !(unguarded && of_cnot_of_register(m, t, r)) {
        return None;
    }
    // The minimum, as the `.s32` word −2^(n−1) saturated to the type (§9.7.9.21).
    let minimum: u128 = if c.dtype == CvtType::S8 { 0xFFFF_FF80 } else { 0xFFFF_8000 };
    convert(m, &Form::Cvt(Cvt { atype: CvtType::S32, ..c }), minimum).filter(Expected::is_exact)
}
