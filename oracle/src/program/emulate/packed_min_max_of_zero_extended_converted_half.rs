//! 119d98cf: ptxas 13.0.88 and 13.5 -O3 (and the JIT) drop the zero extension `cvt.{u32,s32}.u16
//! r, h` of a half that `cvt.{rn,rz}{.ftz}.{bf16,f16}.f32 h, x` wrote, where a packed
//! `min`/`max.{u16x2,s16x2}` reads r: the conversion is one `F2FP.<type>.F32.PACK_AB R3, RZ, R0`
//! whose upper half is 0, so ptxas takes r as already extended; register allocation may then move
//! the half into a dead register with a half merge that keeps that register's stale upper half
//! (`PRMT R0, R3, 0x7610, R0`), and the packed op reads all 32 bits (`VIMNMX.U16x2 R8, R0, R0,
//! PT`), where §9.7.9.21 zero-extends and §9.7.1.10/11 take each half
//! (`corpus/known/fuzz-h200-4701-119d98cf-zero-extension-of-converted-half-dropped-at-packed-min.toml`).
//! Whether the merge happens depends on register pressure (x rewritten and live, a second load),
//! so the emulation is set-valued: the result's upper half is any value (the spec's 0 among
//! them), its lower half the spec's. Called from the glue hook of `emulate.rs`.
//!
//! Evidence: corpus/findings/fuzz-h200-4701/ (119d98cf, trace/T18u1.md, trace/119d98cf/ and its
//! s48/; 13.0.88 -O3 listings): wrong with `min`/`max.u16x2` (`reduced`, `x4_max`), `min`/`max.
//! s16x2` (`s48/a_min_s16x2`, `s48/b_max_s16x2`: `VIMNMX.S16x2 R8, R0, R0`), a bf16 or f16
//! result under `.rn`, `.rz` or `.ftz` (`x3_f16_cvt`, `s48/g_rz`, `s48/r_f16_rz`,
//! `s48/u_f16_ftz`: `F2FP….PACK_AB{.RZ} R3, RZ, R0; PRMT R0, R3, 0x7610, R0`), `cvt.s32.u16`
//! (`s48/m_cvt_s32_u16`).
//!
//! Right, kept out: `add.{u16x2,s16x2}` (`x5_add16x2`, `s48/o_add_s16x2`: `VIADD.16x2` of the
//! F2FP register itself), a 32-bit reader (`s48/d_min_u32`, `s48/e_and_b32`, `s48/e2_add_u32`:
//! `F2F.BF16.F32 R8, R0`, one half zero-extended), `.rm`/`.rp` (`s48/j_rm`, `s48/q_rp`:
//! `F2F.BF16.F32.RM`), `.relu`, `.satfinite`, `.sat` (`s48/h_relu`, `s48/n_f16_relu`,
//! `s48/l_satfinite`, `s48/k_f16_sat`: the `LOP3 …, 0xffff` mask kept), an integer or f16 source
//! (`s48/s_f16_of_s32`: `I2F.F16`; `s48/t_bf16_of_f16`: `F2F.BF16.F16`), a loaded half
//! (`x6_loaded_half`), `cvt.s32.s16` (`x8_cvt_s32_s16`: `PRMT 0x9910` kept), a guarded `cvt`
//! (no evidence). The register-pressure conditions are not named: the set admits the spec.
//!
//! Invariants: changes only the upper half of such a packed min/max result, only when the
//! deviation is emulated; the spec's result stands otherwise.

use super::values::reg_of_glue;
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::{Allowance, Constraint, Deviation, Expected, Free};

/// The deviation this file emulates.
const D: Deviation = Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax;

/// A glue instruction's result under 119d98cf: `Some` (the result with any upper half, the
/// deviation recorded as fired) where a packed min/max reads a dropped zero extension.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, result: &Expected) -> Option<Expected> {
    if !m.allow.emulates(D)
        || !matches!(g.op, GlueOp::Min | GlueOp::Max)
        || !matches!(g.ty, GlueType::U16x2 | GlueType::S16x2)
        || !result.is_exact()
    {
        return None;
    }
    let seen: &Machine<'_> = m;
    let dropped = (0..2).any(|k| {
        reg_of_glue(g, k).is_some_and(|r| dropped_extension(seen, t, r) || sign_extension_of_merged_load(seen, t, r))
    });
    if !dropped {
        return None;
    }
    let mut v = result.clone();
    v.free.push(Free { shift: 16, width: 16, constraint: Constraint::Any, allowance: Allowance::Undefined });
    Some(m.fire(D, result, v))
}

/// Whether register `r` of thread `t` holds an unguarded `cvt.{u32,s32}.u16` (moves looked
/// through) of a half an unguarded [`paired_f32_conversion`] wrote.
fn dropped_extension(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    match m.producer(t, r) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }), o)) => {
            matches!(c.dtype, CvtType::U32 | CvtType::S32)
                && c.atype == CvtType::U16
                && o.a_stmt.is_some_and(|k| paired_f32_conversion(m.p.body.get(k)))
        }
        _ => false,
    }
}

/// Whether `s` is an unguarded `cvt.{rn,rz}{.ftz}.{bf16,f16}.f32` with no `.sat`, `.relu` or
/// `.satfinite`: the conversion ptxas does as `F2FP.<type>.F32.PACK_AB{.RZ} R, RZ, x`.
fn paired_f32_conversion(s: Option<&Stmt>) -> bool {
    match s {
        Some(Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })) => {
            matches!(c.dtype, CvtType::Bf16 | CvtType::F16)
                && c.atype == CvtType::F32
                && matches!(c.rnd, Some(CvtRnd::Rn | CvtRnd::Rz))
                && !c.sat
                && !c.relu
                && !c.satfinite
        }
        _ => false,
    }
}

/// Whether register `r` of thread `t` holds an unguarded `cvt.{s32,u32}.s16` (moves looked through)
/// of a half an unguarded scalar `ld.s16` wrote, where another unguarded scalar 16-bit load reads
/// the other half of the same aligned word from the same base: seed 5602's fd85a600
/// (corpus/findings/fuzz-h200-5602/trace/T56F.md, trace/fd85a600/s56/; 13.0.88 and 13.5 -O3). ptxas
/// takes the cvt as the `ld.s16`'s own sign extension, merges the two loads into one `LDG.E` and
/// extracts the half into a register over an upper half nothing wrote (`PRMT R0, R11, 0x7632, R0`),
/// which the packed op then reads (`PRMT R3, R0, 0x7632, R3; VIMNMX.S16x2 R3, R3, RZ`): the
/// 119d98cf slip with a loaded half. The neighbour load not adjacent (`g4_unmerged_load`:
/// `LDG.E.S16` keeps the sign bits) is right; where ptxas keeps the loads apart anyway (`f4`) the
/// set admits the spec; a lone load (`f1`: the min's lower half stored for its upper, G's slip) is
/// not this one and left alone.
fn sign_extension_of_merged_load(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }), o)) = m.producer(t, r) else {
        return false;
    };
    if c.atype != CvtType::S16 || !matches!(c.dtype, CvtType::S32 | CvtType::U32) || c.sat {
        return false;
    }
    let Some(Stmt::Isa(Instruction { form: Form::Ld(l), operands, guard: None, .. })) =
        o.a_stmt.and_then(|k| m.p.body.get(k))
    else {
        return false;
    };
    let Some(Operand::Address { base: Some(base), offset, .. }) = operands.get(1) else {
        return false;
    };
    if l.vec.is_some() || l.ty != MemType::S16 || offset % 2 != 0 {
        return false;
    }
    let (space, base, other) = (l.space, base.clone(), offset ^ 2);
    m.p.body.iter().any(|s| match s {
        Stmt::Isa(Instruction { form: Form::Ld(n), operands, guard: None, .. }) => {
            n.vec.is_none()
                && n.space == space
                && matches!(n.ty, MemType::S16 | MemType::U16 | MemType::B16)
                && matches!(operands.get(1), Some(Operand::Address { base: Some(b), offset: k, .. }) if *b == base && *k == other)
        }
        _ => false,
    })
}
