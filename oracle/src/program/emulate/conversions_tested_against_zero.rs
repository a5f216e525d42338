//! Known root causes widened to their mechanisms after the traces of seeds 4002 and 4003
//! (corpus/findings/fuzz-h200-400{2,3}/trace/T7C.md, T7H.md): 3301-N3's 16-bit truncation of a
//! `set.f32` read by a compare with a known 0 ([`truncated_set_compared_with_zero`]) and
//! 3501-N3's `cnot` whose float conversion is converted to an integer and tested against zero
//! ([`cnot_conversion_tested_against_zero`]).
//!
//! Invariants: nothing here changes a value unless its deviation is emulated; each function names
//! the one value the mechanism computes (through the oracle's own semantics), `None` elsewhere.

use super::fuzz3602::writes;
use super::origin::{moved_immediate, reads_and_overwrites};
use super::{imm_of, reg_of_glue};
use crate::isa::{CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// How many float-to-float `cvt`s [`cnot_conversion_tested_against_zero`] follows.
pub(super) const CVT_CHAIN: usize = 3;

/// 3301-N3's truncation form read by a 16-bit compare with a known 0 (corpus/findings/
/// fuzz-h200-4002/, d4a6b86d, trace/T7C.md): `set.le.f32.s64 r2; cvt.s16.s32 h2, r2; mov.b16 h0,
/// 0; set.ge.u32.s16 r4, h0, h2` is `SEL R7, RZ, 0xffffffff, P0` (ptxas 13.0.88 and 13.5 -O3):
/// ptxas models the truncation `cvt.{s16,u16}.{s32,u32}` of a set.f32 as the set's 1/0 (as in
/// the `SEL; IABS; PRMT 0x7710` of dced936c) and folds the zero test through the set's truth,
/// where §9.7.9.21 truncates the word 0x3f800000 to 0. `setp` the same (v6). A compare with
/// anything but a constant 0 (v7: with 1; v1: a loaded value) materializes the truncation
/// (right). The result: `g` evaluated with the truncated operand replaced by 1 or 0.
pub(super) fn truncated_set_compared_with_zero(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Set(..) | GlueOp::Setp(_)) || g.ty.bits() != 16 || vals.len() < 2 {
        return None;
    }
    let zero = |k: usize| {
        imm_of(g, k).is_some_and(|v| v & 0xFFFF == 0)
            || (reg_of_glue(g, k).is_some_and(|r| moved_immediate(m, t, r))
                && vals[k].is_exact()
                && vals[k].bits & 0xFFFF == 0)
    };
    let truth = |k: usize| {
        let (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), o) = m.producer(t, reg_of_glue(g, k)?)? else {
            return None;
        };
        let truncation =
            matches!(c.dtype, CvtType::S16 | CvtType::U16) && matches!(c.atype, CvtType::S32 | CvtType::U32);
        let of_set_f32 = o.a_stmt.is_some_and(
            |s| matches!(&m.p.body[s], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32))),
        );
        let word = o.a.as_ref().filter(|w| w.is_exact())?;
        (truncation && c.rnd.is_none() && !c.sat && of_set_f32).then(|| u64::from(word.bits & 0xFFFF_FFFF != 0))
    };
    let (at, number) = [(0usize, 1usize), (1, 0)].into_iter().find_map(|(at, other)| {
        let number = truth(at)?;
        zero(other).then_some((at, number))
    })?;
    let mut srcs = [0u64; 4];
    for (k, v) in vals.iter().take(4).enumerate() {
        srcs[k] = v.bits as u64;
    }
    srcs[at] = number;
    Some(Expected::exact(u128::from(g.eval(srcs, false)), result.width))
}

/// Whether the `cvt` at body index `k` (from a float type, reading a `cnot`) leads, through at
/// most [`CVT_CHAIN`] float-to-float `cvt`s, to an integer-rounding float-to-integer `cvt` whose
/// result a `cnot` or a `setp.{eq,ne}`/`set.{eq,ne}` with an immediate 0 tests (3501-N3's
/// trigger without a set: corpus/findings/fuzz-h200-4003/, ce007cb2, trace/T7H.md: `cnot.b16
/// h2, h1; cvt.f32.f16 r1, h2; cvt.rmi.u64.f32 d0, r1; cnot.b64 d2, d0` is `ISETP.EQ.U32 P0, R0,
/// RZ; SEL R5, RZ, 0x1, P0`, ptxas 13.0.88 and 13.5 -O3; v12 `cnot.b32; cvt.rmi.u32.f32;
/// cnot.b32`, v10 `setp.eq …, 0` the same). ptxas propagates the predicate "cvt(cnot x) == 0 ⇔
/// cnot x == 0", true of the numbers 0/1, not of their bits read as a float. Without the outer
/// test (v0–v3, v6, v7) the conversion is kept (right).
pub(super) fn cnot_conversion_tested_against_zero(m: &Machine<'_>, k: usize) -> bool {
    let mut at = k;
    for _ in 0..=CVT_CHAIN {
        let Some(Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. })) = m.p.body.get(at) else {
            return false;
        };
        if !c.atype.is_scalar_float() {
            return false;
        }
        let Some(d) = operands.first().and_then(|o| m.reg_of(o).ok()) else { return false };
        if c.dtype.is_int() {
            return c.rnd.is_some_and(CvtRnd::is_integer) && tested_against_zero(m, at, d);
        }
        if !c.dtype.is_scalar_float() {
            return false;
        }
        // The next float-to-float or float-to-integer `cvt` reading `d` before it is overwritten.
        let next = m.p.body.iter().enumerate().skip(at + 1).find(|(_, s)| {
            let (reads, _) = reads_and_overwrites(s, d);
            reads || writes(s, d)
        });
        match next {
            Some((j, Stmt::Isa(Instruction { form: Form::Cvt(_), .. }))) if reads_and_overwrites(&m.p.body[j], d).0 => {
                at = j;
            }
            _ => return false,
        }
    }
    false
}

/// Whether some reader of `d` (written at body index `k`, until overwritten) tests it against
/// zero: a `cnot`, or a `set`/`setp` `.eq`/`.ne` with an immediate 0.
pub(super) fn tested_against_zero(m: &Machine<'_>, k: usize, d: Reg) -> bool {
    !zero_tests(m, k, d).is_empty()
}

/// The body indices of the readers of `d` (written at body index `k`, until overwritten) that
/// test it against zero ([`tested_against_zero`]).
pub(super) fn zero_tests(m: &Machine<'_>, k: usize, d: Reg) -> Vec<usize> {
    let mut tests = Vec::new();
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, d);
        if reads {
            if let Stmt::Glue { glue, .. } = s {
                let zero_test = match glue.op {
                    GlueOp::Cnot => true,
                    GlueOp::Set(Cmp::Eq | Cmp::Ne, _) | GlueOp::Setp(Cmp::Eq | Cmp::Ne) => {
                        let other = if glue.src.first().copied().flatten() == Some(Src::Reg(d)) { 1 } else { 0 };
                        imm_of(glue, other) == Some(0)
                    }
                    _ => false,
                };
                if zero_test {
                    tests.push(j);
                }
            }
        }
        if overwrites {
            break;
        }
    }
    tests
}
