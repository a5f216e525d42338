//! Known root causes reached through producers and writes their emulations did not cover, as the
//! traces of seed 3702 show them (corpus/findings/fuzz-h200-3702/, `trace/T3B.md`, `trace/T3C.md`):
//! B's f32 typing ended by a skipped integer `mov` copy (d479c2c6, [`skipped_integer_copy`]) and
//! M's dropped immediate mask after the other `F2FP` producers (c77930ea, [`f2fp_masked_by_imm`]).
//! E/I through a same-type integer `cvt` and J's branch-known byte are widened where those
//! emulations live (`scopes_3701_b.rs`, `j_packed_constant.rs`).
//!
//! Invariants: each function changes a record only when its deviation is emulated and the
//! instruction is exactly the one its trace shows; otherwise it leaves the spec's state alone.

use super::origin::merge_f32;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape, MovType};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::Deviation;

/// B: a skipped guarded integer `mov` copy (`@%p0 mov.b32 %r0, %r0`, p0 false) ends the f32
/// typing of its destination, as an executed one does (corpus/findings/fuzz-h200-3702/,
/// d479c2c6, trace/T3C.md: ptxas 13.0.88 -O0 `SEL R4, R4, R4, P0; SHF.L.U64.HI` and -O3
/// `IMAD.U32 R9, R9, 0x10000; SHF.L.U32` shift by the raw bits of the `cvt.rm.f32.bf16` result).
/// A `mov.f32` copy is left to its own rule (it makes the register f32-typed).
pub(super) fn skipped_integer_copy(m: &mut Machine<'_>, t: u32, inst: &Instruction) {
    let integer_copy = matches!(inst.form, Form::Mov(mv)
        if mv.shape == MovShape::Copy && !matches!(mv.ty, MovType::F32 | MovType::F64 | MovType::Pred));
    if !integer_copy || !m.allow.emulates(Deviation::F32ShiftAmount) {
        return;
    }
    let Some(r) = inst.operands.first().and_then(|o| m.reg_of(o).ok()) else { return };
    let stmt = m.stmt;
    if let Some(o) = m.origins.get_mut(t as usize).and_then(|o| o.get_mut(&r)) {
        merge_f32(o, false, stmt);
    }
}

/// M's producers of a value masked by an immediate (`and.b16 h, x, imm`, the mask dropped where
/// h is the low half of a pack): a `cvt` lowered to `F2FP…MERGE_C` into 16 bits, i.e.
/// `cvt.rz.f16.f32` (the first evidence), and, as corpus/findings/fuzz-h200-3702/ c77930ea shows
/// (trace/T3B.md; ptxas 13.0.88 -O3 `F2FP…UNPACK_B_MERGE_C R0; PRMT R5, R0, 0x5410, RZ`, 13.5
/// right), `cvt.rn.f16.f32` (`v4-rn-f16`) and `cvt.rn.satfinite.{e4m3x2,e5m2x2}` of `.f16x2`
/// or `.f32` sources (the finding, `v3-e5m2-f32`). `.relu` is not evidenced and left out.
pub(super) fn f2fp_masked_by_imm(m: &Machine<'_>, t: u32, x: Reg) -> bool {
    let c: Cvt = match m.producer(t, x) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _)) => *c,
        _ => return false,
    };
    let f16 = c.dtype == CvtType::F16 && c.atype == CvtType::F32 && matches!(c.rnd, Some(CvtRnd::Rz | CvtRnd::Rn));
    let fp8x2 = matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
        && matches!(c.atype, CvtType::F16x2 | CvtType::F32)
        && c.rnd == Some(CvtRnd::Rn);
    (f16 || fp8x2) && !c.relu
}
