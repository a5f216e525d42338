//! G (corpus/known/fuzz-h200-g-shr-s16-by-16.toml) when a shift amount is a value ptxas folds
//! rather than an immediate: ptxas 13.0.88 (and 13.5) -O3 drops `shr.s16 h1, h0, 16` (§9.7.8.8:
//! an amount of 16 clamps, the sign fill) before a half-source `cvt` and converts h0 itself.
//!
//! - The amount 16 in a register ptxas knows ([`shr_s16_by_16`]): seed 4803's f97ff996
//!   (corpus/findings/fuzz-h200-4803/trace/T19v5.md: `mov.s32 %r0, 16; shr.s16 %h1, %h0, %r0;
//!   cvt.bf16.f16`, `F2F.BF16.F16 R7, R2` of the unshifted load as with `v1_imm16`), and
//!   trace/f97ff996/s48/v8_amount_copied_from_moved_16 (a copy of a moved 16, the same listing).
//!   Out: a loaded amount (`s48/v7_loaded_amount_16`: `SHF.R.S32.HI R0, RZ, R7, R0`, right),
//!   amounts other than 16 (`v2_reg15`, `v3_reg17`, `s48/v9_amount_65552`: `SHF … 0x1f`, right).
//! - A shift by 0 between the `shr` and the `cvt` is identity glue ([`shift_by_zero`], for
//!   [`through_identity_of_shr16`](super::producer_forms_of_o_f_g_m::through_identity_of_shr16)):
//!   seed 4801's 0a2a189e (corpus/findings/fuzz-h200-4801/trace/T19v2.md: `shl.b16 %h5, %h1, 0`,
//!   `F2F.BF16.F16 R7, R2`), `v4_shr_u16_by_0`, trace/0a2a189e/s48/v7_shr_s16_by_0 and
//!   `v9_shl_by_moved_0` (the same listing). Out: `v2_shl_by_1` and `s48/v8_shl_by_65536`
//!   (`F2F.BF16.F16 R5, RZ`: the clamped shift's 0, right) — the whole amount must be 0.

use super::known_at_compile_time::known_source;
use super::origin::{ptxas_constant, Origin, PtxasConstant};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::Reg;
use crate::semantics::Expected;

/// Whether glue `g`, which made the origin `o`, is `shr.s16 … 16`: the amount the immediate 16,
/// or a register holding 16 whose writer ptxas folds as a constant where the shift reads it.
pub(super) fn shr_s16_by_16(m: &Machine<'_>, g: &Glue, o: &Origin) -> bool {
    if g.op != GlueOp::Shr || g.ty != GlueType::S16 {
        return false;
    }
    match g.src.get(1).copied().flatten() {
        Some(Src::Imm(amount)) => amount == 16,
        Some(Src::Reg(r)) => {
            o.b.as_ref().is_some_and(|b| b.is_exact() && b.bits == 16)
                && ptxas_constant(m, o.stmt, r) == Some(PtxasConstant::Folded)
        }
        None => false,
    }
}

/// For an unpacked 16-bit `shl`/`shr` of a register by an amount ptxas knows to be 0 (the whole
/// amount: 65536 clamps), the register: the shift is an identity ptxas drops.
pub(super) fn shift_by_zero(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<Reg> {
    let shift = matches!(g.op, GlueOp::Shl | GlueOp::Shr) && g.ty.bits() == 16 && !g.ty.packed();
    match g.src.first().copied().flatten() {
        Some(Src::Reg(r)) if shift && known_source(m, t, g, vals, 1) == Some(0) => Some(r),
        _ => None,
    }
}
