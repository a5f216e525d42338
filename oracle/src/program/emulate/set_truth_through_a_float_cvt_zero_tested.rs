//! 3501-N3 (`cnot-of-set-cvt-converted-as-number`) under seed 4201's trigger (a live test
//! against 0, `set_truth_made_number_by_a_cvt`) where the set's 1.0/0.0 first goes through a float-to-FLOAT
//! `cvt` rather than a float-to-integer one, and where the zero test may be a `set` as well as a
//! `setp`: seed 4602's 18173692 (corpus/findings/fuzz-h200-4602/trace/T17t3.md, variants in
//! trace/18173692/ and its s46/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3, 13.5 the same): `set.ge.f32.s64 r2;
//! cvt.rz.bf16.f32 h4, r2; set.eq.f32.s16 r2, h4, 0; cvt.bf16.f16 h4, h4` is `ISETP.GE P0; SEL
//! R0, RZ, 0x3f80, !P0`: ptxas holds the bf16 1.0/0.0 as a select of the set's predicate and
//! folds the next `cvt` by the number (f16 1.0 → bf16 0x3f80), where §9.7.9.21 reads the bits
//! 0x3f80 as f16 1.875 (bf16 0x3ff0). Wrong alike: `setp.eq.s16` + `selp` (`v3`), `cvt.f32.f16`
//! (`v8`, 1.0f), a `.u32` set source (`v10`), `set.ne.u32.s16` as the test (s46/x1), the set's
//! own word tested (s46/x2), `cvt.rn.f16.f32` then `cvt.f16.bf16` (s46/x3, 0x3c00), a `setp.ne`
//! guard (s46/x4). Right: no zero test (`v1`), a dead one (`v2`), a test against 5 (`v4`),
//! `set.lt` (s46/x5), a loaded f32 or a `selp 0x3f800000, 0` in place of the set (`v5`, `v6`),
//! `cvt.f32.bf16` (`v7`, the exact widening), and the float cvt's value also stored (s46/x6:
//! `F2F.BF16.F16 R11, R7` of the bits). Not emulated: C1-N2's xor trigger with no zero test
//! (`v9`, wrong too), another root cause's trigger.
//!
//! Invariants: queries only; the value is `set_truth_made_number_by_a_cvt`'s (the oracle's own conversion of
//! the number 1 or 0 in the run `cvt`'s source type).

use super::fuzz3701::last_writer;
use super::j_branch_known_values::{dead, readers};
use super::origin::{read_later, reads_and_overwrites};
use super::{imm_of, reg_of_glue};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, SetDst};
use crate::program::{Reg, Stmt};

/// The unguarded float-to-float `cvt.{f16,bf16}.f32` at body index `k`, with its destination.
fn narrowing_float_cvt(m: &Machine<'_>, k: usize) -> Option<(Cvt, Reg)> {
    match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. })
            if c.atype == CvtType::F32 && matches!(c.dtype, CvtType::F16 | CvtType::Bf16) && !c.sat =>
        {
            Some((*c, operands.first().and_then(|o| m.reg_of(o).ok())?))
        }
        _ => None,
    }
}

/// Whether the glue at body index `j` tests register `r` against an immediate 0 with
/// `set.{eq,ne}` (any destination type), its result read later.
fn live_set_zero_test(m: &Machine<'_>, j: usize, r: Reg) -> bool {
    let Stmt::Glue { glue, guard: None } = &m.p.body[j] else { return false };
    let with_zero = (reg_of_glue(glue, 0) == Some(r) && imm_of(glue, 1) == Some(0))
        || (imm_of(glue, 0) == Some(0) && reg_of_glue(glue, 1) == Some(r));
    matches!(glue.op, GlueOp::Set(Cmp::Eq | Cmp::Ne, _)) && with_zero && read_later(m, j, glue.dst)
}

/// For the statement at body index `k`: where it is an unguarded `cvt.{f16,bf16}.f32` of a
/// `set.<cmp>.f32` word (the set the last writer of its source) whose value only zero tests
/// (`set`/`setp`) and `cvt`s read (dead readers ignored), the body indices of the set and of `k`
/// (the statement that holds the set's truth, as `set_truth_made_number_by_a_cvt`'s float-to-integer `cvt` does).
pub(super) fn float_cvt_of_a_set(m: &Machine<'_>, k: usize) -> Option<(usize, usize)> {
    let (_, d) = narrowing_float_cvt(m, k)?;
    let Stmt::Isa(Instruction { operands, .. }) = &m.p.body[k] else { return None };
    let source = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (set, s) = last_writer(m, k, source)?;
    if !matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32))) {
        return None;
    }
    let tested_or_converted = |i: usize| {
        dead(m, i)
            || matches!(&m.p.body[i], Stmt::Isa(Instruction { form: Form::Cvt(_), .. }))
            || matches!(&m.p.body[i], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(..) | GlueOp::Setp(..)))
    };
    readers(m, k, d).into_iter().all(tested_or_converted).then_some((set, k))
}

/// Whether, where `zero_one` is such a float `cvt` ([`float_cvt_of_a_set`]), a live `set.{eq,ne}`
/// against 0 reads the value `set` or `zero_one` wrote (`set_truth_made_number_by_a_cvt` takes `setp` tests).
pub(super) fn tested_by_a_live_set(m: &Machine<'_>, set: usize, zero_one: usize) -> bool {
    if narrowing_float_cvt(m, zero_one).is_none() {
        return false;
    }
    [set, zero_one].into_iter().any(|k| {
        let d = match &m.p.body[k] {
            Stmt::Glue { glue, .. } => glue.dst,
            Stmt::Isa(Instruction { operands, .. }) => match operands.first().and_then(|o| m.reg_of(o).ok()) {
                Some(d) => d,
                None => return false,
            },
            _ => return false,
        };
        let mut tested = false;
        for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
            let (reads, overwrites) = reads_and_overwrites(s, d);
            tested |= reads && live_set_zero_test(m, j, d);
            if overwrites || tested {
                break;
            }
        }
        tested
    })
}
