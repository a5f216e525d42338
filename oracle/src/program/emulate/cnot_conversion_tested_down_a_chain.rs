//! 3501-N3 where the zero test of a `cnot`'s conversion sits further down a chain of
//! float-typed integer-rounding `cvt`s and `mov` copies (helper k2, session 47; known entry
//! corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml). Seed 4003's trigger
//! (`conversions_tested_against_zero::cnot_conversion_tested_against_zero`, ce007cb2) asks for the test among the
//! direct readers of the first float-to-integer `cvt`; seed 4703's 8fe9dbe7, 3b56ff65 and
//! c807f7fa (corpus/findings/fuzz-h200-4703/trace/T18u5.md, trace/8fe9dbe7/, variants
//! trace/8fe9dbe7/s47/) test it later: `cnot.b16 h0; cvt.rzi.u16.bf16 h1, h0; mov.u16 h2, h1;
//! cvt.rmi.s32.bf16 r0, h2; cvt.rmi.s64.f32 d1, r0; cnot.b64 d2, d1`.
//!
//! Mechanism (13.0.88 and 13.5 -O3): `ISETP.EQ.U32.AND P0, PT, R2, RZ, PT; SEL R11, RZ, 0x1, !P0`
//! (h1 = 1 where §9.7.9.21 converts the bf16 bits 0x0001 to 0), `HSETP2.BF16_V2.NEU.AND P0, PT,
//! R11.H0_H0, RZ.H0_H0, PT` (r0 and d1 taken as h2 != 0), `SEL R9, RZ, 0x1, P0` (d2 = 0) and
//! `SEL R7, RZ, 0x3f80, !P0` (`cvt.rn.bf16.f32 h6, r0`: bf16 1.0): ptxas carries "cvt(cnot x) ==
//! 0 ⇔ cnot x == 0" back through every link, so each `cvt` from a float type along the chain
//! converts the number 0/1. A `setp.eq …, 0` as the test is the same (`v5_setp_eq0`); without a
//! test (`v4_no_test`) or with `not.b64` in its place (`v1_not_b64`) every `cvt` converts the bits
//! (`F2I.U16.BF16.TRUNC.NTZ`, `F2I.BF16.FLOOR.NTZ`, `F2I.S64.FLOOR`): right, left alone here.
//!
//! Invariants: a condition on the program's statements (last writers and later readers as
//! written); it changes no value by itself — the caller, `cnot_number_and_range_decided_sets::cnot_converted_as_number`,
//! computes the number's conversion.

use super::conversions_tested_against_zero::zero_tests;
use super::fuzz3701::last_writer;
use super::origin::{read_later, reads_and_overwrites};
use crate::isa::operand::Operand;
use crate::isa::{CvtRnd, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::GlueOp;
use crate::program::{Reg, Stmt};

/// How many links ([`link_operand`]) the chain may pass through, back to the `cnot` and forward
/// to the test (8fe9dbe7 has three: a copy and two `cvt`s).
pub(super) const LINKS: u32 = 4;

/// The source operand of statement `s` when it is a link of the chain: an unguarded
/// float-to-integer `cvt` with an integer rounding (it keeps a number 0/1 the number) or a `mov`
/// copy.
fn link_operand(s: &Stmt) -> Option<&Operand> {
    match s {
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. })
            if c.dtype.is_int() && c.atype.is_scalar_float() && c.rnd.is_some_and(CvtRnd::is_integer) =>
        {
            operands.get(1)
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            operands.get(1)
        }
        _ => None,
    }
}

/// The register the link at body index `k` writes.
fn link_destination(m: &Machine<'_>, k: usize) -> Option<Reg> {
    match &m.p.body[k] {
        s @ Stmt::Isa(Instruction { operands, .. }) if link_operand(s).is_some() => {
            operands.first().and_then(|o| m.reg_of(o).ok())
        }
        _ => None,
    }
}

/// The body index of the chain's first link — a float-to-integer `cvt` whose source's last
/// writer is an unguarded `cnot` — that the link at body index `k` is or reaches back through at
/// most `depth` links.
pub(super) fn first_link(m: &Machine<'_>, k: usize, depth: u32) -> Option<usize> {
    let x = link_operand(&m.p.body[k]).and_then(|o| m.reg_of(o).ok())?;
    let (j, s) = last_writer(m, k, x)?;
    match s {
        Stmt::Glue { glue, guard: None } if glue.op == GlueOp::Cnot => {
            matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::Cvt(_), .. })).then_some(k)
        }
        _ if depth > 0 => first_link(m, j, depth - 1),
        _ => None,
    }
}

/// Whether the value the link at body index `k` writes is tested against zero
/// ([`zero_tests`]) by a reader whose result is read (`r3_dead_cnot`: a dead test is right), or
/// so by a reader of a link reading it, at most `depth` links on.
pub(super) fn tested_down_the_chain(m: &Machine<'_>, k: usize, depth: u32) -> bool {
    let Some(d) = link_destination(m, k) else { return false };
    let live = |j: usize| matches!(&m.p.body[j], Stmt::Glue { glue, .. } if read_later(m, j, glue.dst));
    if zero_tests(m, k, d).into_iter().any(live) {
        return true;
    }
    if depth == 0 {
        return false;
    }
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, d);
        if reads && link_operand(s).is_some() && tested_down_the_chain(m, j, depth - 1) {
            return true;
        }
        if overwrites {
            break;
        }
    }
    false
}

/// Whether the current `cvt` (from a float type, reading register `r`) converts a `cnot`'s 0/1
/// at a link of a chain from a float-to-integer `cvt` of the `cnot` whose value a later `cnot` or
/// `.eq/.ne` compare with 0 tests somewhere down the chain (8fe9dbe7: the `cnot.b64` two `cvt`s
/// and a copy after the first `cvt`): the current `cvt` is the first link, or reads one (a later
/// link, or `cvt.rn.bf16.f32 h6, r0` beside the chain).
pub(super) fn cnot_conversion_tested_down_a_chain(m: &Machine<'_>, r: Reg) -> bool {
    let k = m.stmt;
    let float_cvt =
        |s: &Stmt| matches!(s, Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) if c.atype.is_scalar_float());
    if !m.p.body.get(k).is_some_and(float_cvt) {
        return false;
    }
    let first = if link_operand(&m.p.body[k]).is_some() { first_link(m, k, 0) } else { None };
    let first = first.or_else(|| last_writer(m, k, r).and_then(|(j, _)| first_link(m, j, LINKS)));
    first.is_some_and(|f| tested_down_the_chain(m, f, LINKS))
}
