//! 3501-N3 (a 0/1 ptxas holds as a predicate select, converted as the number it counts) under a
//! fourth trigger, after seed 4201's 6c26d195 (corpus/findings/fuzz-h200-4201/trace/T13t1.md,
//! trace/6c26d195/; helper t1, session 43): the truth of a `set.<cmp>.f32` made a 0/1 by a
//! float-to-integer `cvt`, and a live `setp` that tests the set's word (or the 0/1) against 0
//! ([`set_truth_converted_as_number`]).
//!
//! Invariants: a condition on the program's statements and the value the mechanism computes
//! through the oracle's own conversions; `None` unless the deviation is emulated and every
//! condition holds. The caller (`emulate.rs`, a `cvt`'s hook) changes the value.

use super::fuzz3602::writes;
use super::fuzz3701::last_writer;
use super::origin::{read_later, reads_and_overwrites};
use super::set_truth_through_a_float_cvt_zero_tested;
use super::{convert, imm_of, one_in};
use crate::isa::{Cvt, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// How many float-involving `cvt`s (or copies) a chain may pass from the 0/1 to the `cvt` run.
const CHAIN: u32 = 3;

/// Whether ptxas folds `cvt` `c` of a predicate's 0/1 arm by the arm's number: a conversion
/// with a float side, not an integer-to-integer one (`v27_chain_u32_u16` keeps the bits: the
/// spec's own value) and not `cvt.f32.bf16` (`v28_f32_bf16`: `IMAD.U32 R7, R0, 0x10000`, the
/// exact widening of the bits, right).
pub(super) fn folded_by_number(c: &Cvt) -> bool {
    let float_side = c.atype.is_scalar_float() || c.dtype.is_scalar_float();
    let scalar = c.atype.is_scalar() && c.dtype.is_scalar();
    float_side && scalar && !(c.atype == CvtType::Bf16 && c.dtype == CvtType::F32)
}

/// The register a `cvt` or `mov` copy at body index `k` reads.
fn source_reg(m: &Machine<'_>, k: usize) -> Option<Reg> {
    match &m.p.body[k] {
        Stmt::Isa(Instruction { operands, .. }) => operands.get(1).and_then(|o| m.reg_of(o).ok()),
        _ => None,
    }
}

/// For the statement at body index `k`, which writes (at most `depth` float-involving `cvt`s
/// or copies after it) the 0/1 of a `set.<cmp>.f32`'s truth: the body indices of the set and
/// of the float-to-integer `cvt` that made its 1.0/0.0 the integer 1/0.
fn truth_of_a_set(m: &Machine<'_>, k: usize, depth: u32) -> Option<(usize, usize)> {
    // Or a float-to-float `cvt` of the set's word (seed 4602's 18173692).
    if let Some(found) = set_truth_through_a_float_cvt_zero_tested::float_cvt_of_a_set(m, k) {
        return Some(found);
    }
    let from_source = |k: usize| source_reg(m, k).and_then(|r| last_writer(m, k, r));
    match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) if c.dtype.is_int() && c.atype == CvtType::F32 => {
            let (j, s) = from_source(k)?;
            matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32))).then_some((j, k))
        }
        Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) if folded_by_number(c) && depth > 0 => {
            truth_of_a_set(m, from_source(k)?.0, depth - 1)
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) if mv.shape == MovShape::Copy && depth > 0 => {
            truth_of_a_set(m, from_source(k)?.0, depth - 1)
        }
        _ => None,
    }
}

/// Whether a `setp.{eq,ne}` with an immediate 0 (either side), or a `setp.gt` of it against a
/// right-hand 0, reads the value statement `k` wrote (before it is overwritten), and a later
/// statement reads that predicate (a `selp`, a guard). ptxas then holds the set as its
/// predicate: `setp.gt.s32 p2, r1, 0` of the set's word (the trace), `setp.ne.s32` (`v23`),
/// `setp.eq.s32` (`v3x_setp_eq_s32_0`), `setp.ne.s16` of the 0/1 (`v24`), a guard
/// (`v34_guard_p2`). Right: a dead predicate (`v22`), a loaded other source (`v25`),
/// `setp.lt …, 0` (always false, `v3x_setp_lt_s32_0`), `setp.ne …, 1` (`v3x_setp_ne_s32_1`).
fn tested_against_zero_by_a_live_setp(m: &Machine<'_>, k: usize) -> bool {
    let Some(d) = written_reg(m, k) else { return false };
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, d);
        if let (true, Stmt::Glue { glue, .. }) = (reads, s) {
            let at = if glue.src.first().copied().flatten() == Some(Src::Reg(d)) { 0 } else { 1 };
            let zero_test = match glue.op {
                GlueOp::Setp(Cmp::Eq | Cmp::Ne) => imm_of(glue, 1 - at) == Some(0),
                GlueOp::Setp(Cmp::Gt) => at == 0 && imm_of(glue, 1) == Some(0),
                _ => false,
            };
            if zero_test && read_later(m, j, glue.dst) {
                return true;
            }
        }
        if overwrites {
            break;
        }
    }
    false
}

/// The register the statement at body index `k` writes (a glue's destination, an
/// instruction's first operand).
fn written_reg(m: &Machine<'_>, k: usize) -> Option<Reg> {
    match &m.p.body[k] {
        Stmt::Glue { glue, .. } => Some(glue.dst),
        Stmt::Isa(Instruction { operands, .. }) => {
            operands.first().and_then(|o| m.reg_of(o).ok()).filter(|&r| writes(&m.p.body[k], r))
        }
        _ => None,
    }
}

/// 3501-N3's fourth trigger (seed 4201's 6c26d195, T13t1.md): a float-to-integer `cvt` of a
/// `set.<cmp>.f32` result makes its 1.0/0.0 the integer 1/0, and a live `setp` tests the set's
/// word or that 0/1 against 0 ([`tested_against_zero_by_a_live_setp`]); ptxas then holds the 0/1
/// as a select of the set's predicate and folds each `cvt` with a float side reading it
/// ([`folded_by_number`]), through up to [`CHAIN`] such `cvt`s, by the number: the arm 1 is
/// 1 in every type (`cvt.rpi.s16.f32; cvt.f16.bf16; cvt.rp.bf16.s16` is `SEL R0, RZ, 0x3f80,
/// !P0`, bf16 1.0, where §9.7.9.21 reads the bits 0x0001 as a bf16 subnormal, +0 in f16, and
/// gives bf16 +0; `v15` `cvt.f16.bf16` alone 0x3c00; `v26` `cvt.rn.f32.s16` after it `FSEL R7,
/// RZ, 1`; `v30` `cvt.rzi.s32.f16` 1; `v35` `cvt.f32.f16` 1.0f; `v36` a 32-bit 0/1 and
/// `cvt.rn.f16.f32` 0x3c00). ptxas 13.0.88 and 13.5 -O3; -O0 right. Right: no live zero test
/// (`v22`, k1's `v3`, `v9`), a `selp 1, 0` of a loaded value's predicate (k1's `v14`), a moved or
/// loaded 1 (k1's `v12`, `v1`). `c` is the `cvt` run (body index `m.stmt`), `r` its source,
/// `a` its value; the result: `c` of the number 1 (or 0) in its source type.
pub(super) fn set_truth_converted_as_number(m: &Machine<'_>, c: &Cvt, r: Reg, a: &Expected) -> Option<Expected> {
    if !m.allow.emulates(Deviation::CnotOfSetCvtConvertedAsNumber) || !a.is_exact() || !folded_by_number(c) {
        return None;
    }
    let (writer, _) = last_writer(m, m.stmt, r)?;
    let (set, zero_one) = truth_of_a_set(m, writer, CHAIN)?;
    let tested = tested_against_zero_by_a_live_setp(m, set)
        || tested_against_zero_by_a_live_setp(m, zero_one)
        || set_truth_through_a_float_cvt_zero_tested::tested_by_a_live_set(m, set, zero_one);
    if !tested {
        return None;
    }
    let one = one_in(c.atype).unwrap_or(1);
    let truth = a.bits & ((1u128 << c.atype.bits()) - 1) != 0;
    let form = Form::Cvt(*c);
    convert(m, &form, if truth { one } else { 0 })
}
