//! 3701-N-D (corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml) where the
//! half h beside the pair is an unguarded 16-bit `mov` copy of a computed half, or a computed
//! half whose non-constant source ptxas does not fold: an integer-to-f16 `cvt` of a constant (a
//! child of `emulate/merge_c_in_place.rs`, asked by its `pair_and_half`).
//!
//! Evidence (seed 5701's c5e2088f, session 57, helper h4; corpus/findings/fuzz-h200-5701/
//! trace/T57D.md, variants in trace/c5e2088f/s57/): `cvt.rn.f16.s32 h0, r0` (r0 a moved
//! 0x3f800001), `not.b16 h0, h0`, `mov.b16 h1, h0`, the e4m3x2 pair into h0, `mov.b64 d1, {h0,
//! h1, h2, h0}`, `mov.b32 r5, {h1, h1}` is 13.0.88 and 13.5 -O3 `I2F.F16 R0, 0x3f800001; LOP3.LUT
//! R0, RZ, R0, RZ, 0x33; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R7, R7, R0; PRMT R5, R0,
//! 0x5410, R0`: ptxas coalesces the copy with the `not`'s fresh register and builds the pair
//! there in place, so the later read of h1 takes the pair (0x3838 where the spec has 0x83ff).
//! Wrong alike: the copy of an `xor.b16`/`not.b16` of a loaded half (x2, x5), of the `not` of
//! an I2F.F16 of a loaded word (x10), the pair in another register (x3), a `mov.b32` pack (x8);
//! `not.b16 h1, h0` without the copy (x1), of `cvt.rn.f16.{s32,u32}` of a moved 5 too (x11,
//! x12: `I2F.F16 R0, 0x5`, the conversion kept). Right: a copy of a loaded half (x4: the pair
//! built in R6) or of the I2F.F16 result itself (x7, no ALU), a `not` of a moved constant (x6)
//! or of a `cvt.rn.f16.f32` of one (x13): both folded.
//!
//! Invariants: pure predicates; [`copied`] and [`unfolded_int_to_f16_half`] only widen which
//! writers of h `pair_and_half` accepts.

use super::{alu_half, computed_half, last_writer};
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, Src};
use crate::program::{Reg, Stmt};

/// Whether `s` (at body index `w`, h's last writer) is an unguarded `mov` copy of a 16-bit
/// register last written by unguarded glue computing a half 3701-N-D builds the pair in place
/// of ([`computed_half`], [`unfolded_int_to_f16_half`]).
pub(super) fn copied(m: &Machine<'_>, w: usize, s: &Stmt) -> bool {
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else { return false };
    let source = operands.get(1).filter(|_| mv.shape == MovShape::Copy).and_then(|o| m.reg_of(o).ok());
    let Some(source) = source.filter(|r| r.class().bits() == 16) else { return false };
    matches!(last_writer(m, w, source), Some((v, Stmt::Glue { glue, guard: None }))
        if computed_half(m, v, glue) || unfolded_int_to_f16_half(m, v, glue))
}

/// Whether glue `g` (at body index `w`) has a 3701-N-D ALU form ([`alu_half`]) and a register
/// source last written by an unguarded `cvt.<rnd>.f16.{s32,u32}`, which ptxas keeps as
/// `I2F.F16` even of a constant (`I2F.F16 R0, 0x3f800001`, `I2F.F16.U32 R0, 0x5`), or by an
/// unguarded half-to-half float `cvt{.<rnd>}.{f16,bf16}.{f16,bf16}`, which ptxas keeps of a
/// constant too (seed 5803's 8704908d, corpus/findings/fuzz-h200-5801/trace/T58E.md, variants in
/// corpus/findings/fuzz-h200-5803/trace/8704908d/s58/: `mov.s16 h0, 19164; cvt.bf16.bf16 h1, h0;
/// sub.u16 h1, h0, h1` is `HFMA2.BF16_V2 R3, -RZ, RZ, …; …; VIADD R7, R7, 0x4adc;
/// F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R0, R7`, 13.0.88 and 13.5 -O3; `cvt.f16.f16`
/// (`HADD2`), `cvt.bf16.f16` (`F2F.BF16.F16`), `cvt.rzi.f16.f16` (`FRND.F16.TRUNC`) alike; right,
/// folded to `IMAD.MOV.U32 R9, RZ, RZ, 0x…`: `cvt.rn.{f16,bf16}.f32`, `cvt.u16.u32` of constants).
pub(super) fn unfolded_int_to_f16_half(m: &Machine<'_>, w: usize, g: &Glue) -> bool {
    alu_half(g) && g.src.iter().flatten().any(|s| matches!(s, Src::Reg(r) if unfolded_cvt(m, w, *r)))
}

/// Whether `r`, read at body index `before`, was last written by an unguarded
/// `cvt.<rnd>.f16.{s32,u32}` or `cvt{.<rnd>}.{f16,bf16}.{f16,bf16}`.
fn unfolded_cvt(m: &Machine<'_>, before: usize, r: Reg) -> bool {
    let half = |t: CvtType| matches!(t, CvtType::F16 | CvtType::Bf16);
    matches!(last_writer(m, before, r), Some((_, Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })))
        if (c.dtype == CvtType::F16 && matches!(c.atype, CvtType::S32 | CvtType::U32))
            || (half(c.dtype) && half(c.atype)))
}
