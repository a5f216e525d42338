//! Scopes of known root causes widened to their mechanisms from the traces of seeds 3901–3903
//! (corpus/findings/fuzz-h200-390{1,2,3}/trace/T6A.md … T6G.md), where the widening needs more
//! than a changed condition at its hook: O's dropped amount producer and its saturating readers,
//! F's 16-bit negation written as a subtraction from 0, G's shift seen through identity glue and
//! M's mask written as a byte conversion.
//!
//! Invariants: every function here only answers a question about a value's producers (no result
//! is changed here); the hooks in `emulate.rs`, `emulate/origin.rs` and `emulate/fuzz3802.rs`
//! decide what the emulated value is.

use super::origin::{moved_immediate, Origin};
use super::skipped_integer_copy_and_f2fp_mask::f2fp_masked_by_imm;
use super::{g_shift_amounts_ptxas_folds, known_at_compile_time, mul_step_unread_shfl_predicate_folded_zero};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// Whether the producer recorded in `o` (a glue statement) read as its first source a value 0
/// that ptxas knows: written by an unguarded `mov` of the integer immediate 0 (copies looked
/// through), or by glue ptxas folds to 0 whatever its register source (`and`/`mul.lo` by 0,
/// `xor`/`sub` of a register with itself: seed 4301's 87a7efec, `emulate/mul_step_unread_shfl_predicate_folded_zero.rs`).
/// The origin records the minuend's value and producer, not whether it was known when read, so
/// only those producers are taken (the forms the traces show).
pub(super) fn first_source_moved_zero(m: &Machine<'_>, o: &Origin) -> bool {
    let zero = o.a.as_ref().is_some_and(|a| a.is_exact() && a.bits == 0);
    let moved = o.a_stmt.is_some_and(|k| {
        let moved_zero = matches!(&m.p.body[k], Stmt::Isa(i @ Instruction { form: Form::Mov(_), .. })
            if known_at_compile_time::moves_known(i) && matches!(i.operands.get(1), Some(Operand::Imm(Imm::Int(_)))));
        moved_zero || mul_step_unread_shfl_predicate_folded_zero::folded_zero(m, k)
    });
    zero && moved
}

/// O's dropped producer (corpus/known/fuzz-h200-3601-o-shift16-by-cnot-amount.toml): whether
/// register `r` of thread `t` holds a value that ptxas 13.0.88 -O3 never computes when only an
/// unsigned clamp reads it, `cnot.b32` of a register (e9e8eb40, and seeds 3801 and 3901) or
/// `sub{.cc}.u32 d, z, x` of a moved 0 `z` and a register `x` (corpus/findings/fuzz-h200-3902/,
/// f860a7e5, trace/T6E.md: `mov.b32 %r9, 0; sub.cc.u32 %r14, %r9, %r2; shr.u16 %h5, %h2, %r14`
/// is `LOP3.LUT R7, R1, 0xffff; SHF.R.U32.HI R7, RZ, R7, R2`, the stack pointer R1 as the
/// amount; `reduced`, `v1` (`sub.u32`) the same). The register operand must not be a moved
/// immediate (ptxas folds it). `sub.s32 d, 0, x`, `neg.s32` and `not.b32` are right (the O
/// entry).
pub(super) fn dropped_amount_producer(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Glue { glue: p, .. }, o)) = m.producer(t, r) else { return false };
    let register = |k: usize| match p.src.get(k).copied().flatten() {
        Some(Src::Reg(x)) => !moved_immediate(m, t, x),
        _ => false,
    };
    let cnot = p.op == GlueOp::Cnot && p.ty == GlueType::B32 && register(0);
    let negation = matches!(p.op, GlueOp::Sub | GlueOp::SubCc)
        && p.ty == GlueType::U32
        && register(1)
        && first_source_moved_zero(m, o);
    cnot || negation
}

/// O through a saturating narrowing (corpus/findings/fuzz-h200-3901/, 1391020a, trace/T6A.md,
/// and 17b9ea5e, trace/T6C.md; ptxas 13.0.88 -O3): `cvt.sat.{u16,u8}.u32` of O's dropped
/// producer ([`dropped_amount_producer`]) reads a register nothing wrote (`STG.E.64 [..], R0` of
/// a never-written R0/R1; `LOP3.LUT R0, R0, 0xff` of the shuffled 0): any value. The unsigned
/// clamp to 16 or 8 bits is the decision a 16-bit shift's amount clamp makes. Right:
/// `cvt.u16.u32` (no `.sat`), `cvt.sat.s16.s32`, `cvt.sat.s8.u32`, `cvt.sat.u8.s32`, `min.u32
/// r, 65535` (the variants of both traces).
pub(super) fn saturating_reader_of_dropped_producer(m: &Machine<'_>, t: u32, c: &Cvt, r: Option<Reg>) -> bool {
    c.sat
        && c.atype == CvtType::U32
        && matches!(c.dtype, CvtType::U16 | CvtType::U8)
        && r.is_some_and(|r| dropped_amount_producer(m, t, r))
}

/// F's 16-bit negation written as a subtraction (corpus/findings/fuzz-h200-3902/, bcabb8af,
/// trace/T6D.md: `mov.b16 %h3, 0; sub.s16 %h5, %h3, %h4` is `PRMT R0, R0, 0x9910; IADD3 R7, RZ,
/// -R0` as `neg.s16` (`v1_neg_known`) is, ptxas 13.0.88 -O3; 13.5 re-narrows): whether `g` (the
/// producer whose origin is `o`) is `sub.s16 d, z, x` of a moved 0 `z`. `sub.u16` is right
/// (`v3`: `PRMT 0x7710`), as is a loaded minuend (`v2`).
pub(super) fn sub_s16_from_zero(m: &Machine<'_>, g: &Glue, o: &Origin) -> bool {
    g.op == GlueOp::Sub
        && g.ty == GlueType::S16
        && matches!(g.src[1], Some(Src::Reg(_)))
        && first_source_moved_zero(m, o)
}

/// Whether `g` (source values `vals`, thread `t`) is 16-bit glue that gives its register source
/// unchanged, which ptxas drops: `or`/`xor`/`add` with 0 (either operand order), `sub` of 0,
/// `and` with 0xffff, `min`/`max` of one register with itself; the constant an immediate or a
/// value ptxas knows. The register source, if so.
fn identity16(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<Reg> {
    if g.ty.bits() != 16 || g.ty.packed() {
        return None;
    }
    let reg = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    };
    let constant = |k: usize| known_at_compile_time::known_source(m, t, g, vals, k).map(|v| v & 0xFFFF);
    let with = |unit: u64, commutes: bool| {
        let orders: &[(usize, usize)] = if commutes { &[(0, 1), (1, 0)] } else { &[(0, 1)] };
        orders.iter().find_map(|&(x, c)| reg(x).filter(|_| constant(c) == Some(unit)))
    };
    match g.op {
        GlueOp::Or | GlueOp::Xor | GlueOp::Add => with(0, true),
        GlueOp::Sub => with(0, false),
        GlueOp::And => with(0xFFFF, true),
        GlueOp::Min | GlueOp::Max => reg(0).filter(|&x| reg(1) == Some(x)),
        GlueOp::Shl | GlueOp::Shr => g_shift_amounts_ptxas_folds::shift_by_zero(m, t, g, vals),
        _ => None,
    }
}

/// G through identity glue (corpus/findings/fuzz-h200-3901/, 0f02a559, trace/T6B.md: `shr.s16
/// h, h, 16; or.b16 h, h, 0; cvt.f64.bf16 d, h` is `F2F.F64.BF16 R6, R2` of the unshifted load,
/// ptxas 13.0.88 and 13.5 -O3, as without the `or` (`v1_no_or`); `or.b16 h, h, 1` (`v2_or1`) and
/// a shift by 15 are right): the origin the identity glue `g` ([`identity16`]) gives its
/// destination when its source holds a `shr.s16 … 16` result, that shift's origin (so G sees the
/// shift as the producer, through any chain of such glue).
pub(super) fn through_identity_of_shr16(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<Origin> {
    if !m.allow.emulates(Deviation::ShrS16By16ReadsSource) {
        return None;
    }
    let x = identity16(m, t, g, vals)?;
    match m.producer(t, x)? {
        (Stmt::Glue { glue, .. }, o) if g_shift_amounts_ptxas_folds::shr_s16_by_16(m, glue, o) => Some(o.clone()),
        _ => None,
    }
}

/// M with the mask written as a byte conversion (corpus/findings/fuzz-h200-3903/, 97412e12,
/// trace/T6F.md: `cvt.rn.f16.f32` then `cvt.s16.u8` (§9.7.9.21: zero-extends the low byte, a
/// mask by 0xff) as the low half of `mov.b32 {h, K}` is `F2FP.F16.F32.PACK_AB R0, RZ, R2; PRMT
/// R0, R0, 0x5410, RZ` with no `LOP3 0xff`, ptxas 13.0.88 -O3 (13.5 right); `cvt.u16.u8` and
/// `and.b16 0xff` the same listing; a direct 16-bit store keeps the mask): the value the dropped
/// mask leaves, the cvt's source `a` unmasked, where `c` is a plain `cvt.{u16,s16}.u8` of M's
/// producer ([`f2fp_masked_by_imm`]) in register `r`. A truncation to a byte, `cvt.u8.{u8,s8,u16,s16}`
/// (§9.7.9.21: the low byte, zero-extended in the 16-bit register), is the same mask (session 40,
/// corpus/findings/fuzz-h200-4003/, b9524b6f, trace/T7H.md: `cvt.u8.s16` of `cvt.rn.f16.f32` in
/// `st.v2.b16 {h, 0}`, 13.0.88 -O3 `F2FP.F16.F32.PACK_AB; PRMT 0x5410` with no `LOP3 0xff`;
/// `cvt.u8.s8` (v1) and `cvt.u8.u16` (v3) the same; `cvt.s8.s16`, a sign extension, right).
pub(super) fn unmasked_by_byte_cvt(
    m: &Machine<'_>,
    t: u32,
    c: &Cvt,
    r: Option<Reg>,
    a: Option<&Expected>,
) -> Option<Expected> {
    let widening = matches!(c.dtype, CvtType::U16 | CvtType::S16) && c.atype == CvtType::U8;
    let truncation =
        c.dtype == CvtType::U8 && matches!(c.atype, CvtType::U8 | CvtType::S8 | CvtType::U16 | CvtType::S16);
    let byte_mask = (widening || truncation) && !c.sat && c.rnd.is_none();
    let maskable = r.is_some_and(|r| f2fp_masked_by_imm(m, t, r));
    if !(m.allow.emulates(Deviation::F16MaskDropped) && byte_mask && maskable) {
        return None;
    }
    a.filter(|a| a.is_exact()).map(|a| Expected::exact(a.bits & 0xFFFF, 16))
}
