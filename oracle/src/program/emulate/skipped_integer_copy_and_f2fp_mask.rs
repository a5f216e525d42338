//! Known root causes reached through producers and writes their emulations did not cover, as the
//! traces of seed 3702 show them (corpus/findings/fuzz-h200-3702/, `trace/T3B.md`, `trace/T3C.md`):
//! B's f32 typing ended by a skipped integer `mov` copy (d479c2c6, [`skipped_integer_copy`]) and
//! M's dropped immediate mask after the other `F2FP` producers, `.relu` ones included (c77930ea,
//! 4ad93098 of seed 4103, [`f2fp_masked_by_imm`],
//! kept through a subtraction of a known zero, [`unmasked_through_sub_of_zero`]), and M's dropped
//! register mask of an fp8 pair that is the `and`'s first source (seed 6201's 0f100ce6 and
//! d2ca2b15, [`fp8_pair_masked_by_reg`]).
//! E/I through a same-type integer `cvt` and J's branch-known byte are widened where those
//! emulations live (`cvt_producers_seen_through.rs`, `j_packed_constant.rs`).
//!
//! Invariants: each function changes a record only when its deviation is emulated and the
//! instruction is exactly the one its trace shows; otherwise it leaves the spec's state alone.

use super::imm_of;
use super::origin::{merge_f32, Origin};
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape, MovType};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

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
/// or `.f32` sources (the finding, `v3-e5m2-f32`).
/// The mechanism is the `F2FP` result's 16-bit slot, whatever its float type: `cvt.{rn,rz}.bf16.f32`
/// (`F2FP.BF16.F32.PACK_AB`) is M's producer too (session 40, corpus/findings/fuzz-h200-4002/,
/// e31f01ee, trace/T7C.md: `cvt.s16.u8` of it in a pack's low half, 13.0.88 -O3 `F2FP.BF16.F32.PACK_AB
/// R0, RZ, R2; PRMT R0, R0, 0x5410, RZ`, no `LOP3 0xff`; `and.b16 0xff` (v5) the same; 13.5 right).
/// `.relu` makes no difference (corpus/findings/fuzz-h200-4103/, 4ad93098, trace/T10z2.md:
/// `cvt.u8.u16` of `cvt.rn.relu.satfinite.e5m2x2.f32` in `st.v2.b16 {h, _}`, 13.0.88 -O3
/// `F2FP.SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C R9; PRMT R3, R9, 0x5410, R6`, no `LOP3 0xff`;
/// e4m3x2 `.relu` the same; 13.5 right). `.relu` e4m3x2/e5m2x2 of `.f16x2` and `.relu` f16/bf16
/// producers with `and.b16` immediates and each byte `cvt` give the same listing (trace/T11e2.md;
/// tests: `tests/seed_4201_e2.rs`).
/// The sm_100a-only pairs (`.e2m3x2`, `.e3m2x2`, `.ue8m0x2`; 13.0.88 `-arch=sm_100a` drops the mask
/// alike, T11e2.md) are left out: no campaign targets them.
pub(super) fn f2fp_masked_by_imm(m: &Machine<'_>, t: u32, x: Reg) -> bool {
    let c: Cvt = match m.producer(t, x) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _)) => *c,
        _ => return false,
    };
    let f16 = matches!(c.dtype, CvtType::F16 | CvtType::Bf16)
        && c.atype == CvtType::F32
        && matches!(c.rnd, Some(CvtRnd::Rz | CvtRnd::Rn));
    let fp8x2 = matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
        && matches!(c.atype, CvtType::F16x2 | CvtType::F32)
        && c.rnd == Some(CvtRnd::Rn);
    f16 || fp8x2
}

/// M's fp8 pair masked by a register: `and.b16 h, p, x` with p a `cvt.rn{.relu}.satfinite.{e4m3x2,
/// e5m2x2}.{f32,f16x2}` result ([`f2fp_masked_by_imm`]'s pair producers) as the FIRST source (`k` = 0)
/// and x a register (glue `g`), where h is a pack's low half, loses its `LOP3 0xc0` as an immediate
/// mask does. Seed 6201 (session 62, helper ma; corpus/findings/fuzz-h200-6201/trace/T62A.md,
/// variants in trace/0f100ce6/s62/; 13.0.88 -O3 and the JIT, 13.5 right): 0f100ce6's
/// `ld.global.s16` mask in `st.global.v2.b16 {h, 0}` is `F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0;
/// PRMT R0, R0, 0x5410, RZ` with no load and no `LOP3` (0xa300 stored for 0), d2ca2b15's `ld.global.u8`
/// mask in `mov.b64 {h, 0, 0, 0}` the same. Wrong alike: e5m2x2 (v01), an `.f16x2` source (v02),
/// `.relu` (v06), a `mov.b32` pack (v08), an `ld.u16` mask (v09), a loaded pair source (v12), a
/// `cvt.u16.u32`, unpacked half, `add.u16`, `not.b16`, `shl.b16`, other pair, shared or `.v2`
/// element mask (v15-v18, v20, v21, v23, v25), word 1 of a `mov.b64` (v26). Right: the pair as the
/// second source (v03, v22: `LOP3.LUT R7, R2, R7, RZ, 0xc0`), a mask ptxas fuses into a three-input
/// `LOP3` (an `and`/`or`/`xor` glue result: v10 `xor.b16 x, y, 0x5a5a` is `LOP3 … 0x60`, v24 `and.b16`
/// of two loads `0x80`), a high half (v04), a 16-bit store (v05), `or`/`xor` in place of the `and`
/// (v07, v13), a plain `cvt.rn.f16.f32` (v11).
pub(super) fn fp8_pair_masked_by_reg(m: &Machine<'_>, t: u32, g: &Glue, k: usize) -> bool {
    let reg = |j: usize| match g.src.get(j).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    };
    let (Some(p), Some(x)) = (reg(0), reg(1)) else { return false };
    let pair = matches!(m.producer(t, p), Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _))
        if matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2))
        && f2fp_masked_by_imm(m, t, p);
    let fused = matches!(m.producer(t, x), Some((Stmt::Glue { glue, .. }, _))
        if matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor));
    k == 0 && g.op == GlueOp::And && g.ty == GlueType::B16 && pair && !fused
}

/// M's unmasked value through `sub.s16 d, x, z` where z is `shl.b16 z, y, k` by an immediate
/// k ≥ 16, which is 0 (§9.7.8.7: shift amounts greater than the register width clamp to it):
/// ptxas folds the subtraction away, so d is x and keeps the value M's dropped mask left in x
/// (corpus/findings/fuzz-h200-3702/, c77930ea, trace/T3B.md: the stored case's `and.b16 %h5,
/// %h0, 0x40; shl.b16 %h6, %h0, 0x3f; sub.s16 %h7, %h5, %h6` stored as the low half of
/// `st.v2.s16 {%h7, %h10}` is `F2FP…UNPACK_B_MERGE_C R0; PRMT R5, R0, 0x5410, RZ` on ptxas 13.0.88
/// -O3, no `LOP3`). `source` is x's origin.
pub(super) fn unmasked_through_sub_of_zero(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    source: Option<&Origin>,
) -> Option<Expected> {
    if !m.allow.emulates(Deviation::F16MaskDropped) || g.op != GlueOp::Sub || g.ty != GlueType::S16 {
        return None;
    }
    let Some(Src::Reg(z)) = g.src.get(1).copied().flatten() else { return None };
    let zero = match m.producer(t, z) {
        Some((Stmt::Glue { glue, guard: None }, _)) => {
            glue.op == GlueOp::Shl && glue.ty == GlueType::B16 && imm_of(glue, 1).is_some_and(|k| k >= 16)
        }
        _ => false,
    };
    source.filter(|_| zero).and_then(|s| s.unmasked.clone())
}
