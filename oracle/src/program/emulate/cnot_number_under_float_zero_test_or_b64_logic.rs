//! 3501-N3 widened after seeds 4202 and 4203's traces (helper w4, session 43): two more
//! contexts in which ptxas holds a `cnot`'s 0/1 as a select of a predicate and converts its arms
//! as the numbers 0 and 1 (the caller, `cnot_number_and_range_decided_sets::cnot_converted_as_number`, computes the
//! value): a float-to-float conversion of it whose float result is itself tested against zero
//! ([`float_conversion_tested_against_zero`]; corpus/findings/fuzz-h200-4202/trace/T12b2.md,
//! 06b614f9) and a program with 64-bit boolean logic of `cnot` results
//! ([`logic_b64_of_cnot_results`]; corpus/findings/fuzz-h200-4203/trace/T12c5.md, 7cb7444f, and
//! T12c3.md, 7ea011df). Session 56 (helper t3): the zero test may be an ordered compare that
//! tells +0 from the converted 1.0 ([`ordered_zero_test`]; seed 5601's d8a4dedd).
//!
//! Invariants: both are conditions on the program's statements; neither changes a value by
//! itself.

use super::conversions_tested_against_zero::{tested_against_zero, CVT_CHAIN};
use super::fuzz3602::writes;
use super::j_branch_known_values::{observed, readers};
use super::values::one_in;
use super::{imm_of, reg_of_glue};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// Whether the `cvt` at body index `k`, reading register `r`, converts a `cnot` result (through
/// integer `cvt`s and copies; not a `selp 1, 0`: `x13`, `v20` right) in one of this file's two
/// contexts.
pub(super) fn cnot_converted_in_a_boolean_program(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    of_a_cnot(m, k, r, false, 4) && (float_conversion_tested_against_zero(m, k) || logic_b64_of_cnot_results(m))
}

/// Whether the `cvt` at body index `k` (reading a `cnot`) is a float-to-float conversion that
/// leads, through at most [`CVT_CHAIN`] more such `cvt`s (none `.ftz`), to a float result a
/// `cnot` or a `set`/`setp` `.{eq,ne}` with an immediate 0 tests (06b614f9, T12b2.md: `cnot.b16
/// c, x; cvt.f16.bf16 f, c; cnot.b16 d, f` is `ISETP.EQ.U32 P0, x, RZ; SEL R7, RZ, 0x1, P0`,
/// 13.0.88 and 13.5 -O3, where §9.7.9.21 takes bf16 0x0001 to f16 0; `v1_f16_f32` `cnot.b32;
/// cvt.rn.f16.f32`, `v3_setp` `setp.eq.b16 …, 0`, and session 43's `set.eq.u32.b16 …, 0` and
/// `cvt.f64.f32; cvt.rn.f32.f64; cvt.rn.f16.f32` the same). ptxas propagates "cvt(cnot x) == 0 ⇔
/// cnot x == 0" (seed 4003's trigger, `conversions_tested_against_zero`) with no integer rounding between.
/// Right: `cvt.ftz.f32.f32` (`v2_ftz`, `FADD.FTZ` kept), no outer test (`v4_noouter`).
fn float_conversion_tested_against_zero(m: &Machine<'_>, k: usize) -> bool {
    let mut at = k;
    for _ in 0..=CVT_CHAIN {
        let Some(Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. })) = m.p.body.get(at) else {
            return false;
        };
        if !c.atype.is_scalar_float() || !c.dtype.is_scalar_float() || c.ftz {
            return false;
        }
        let Some(d) = operands.first().and_then(|o| m.reg_of(o).ok()) else { return false };
        if tested_against_zero(m, at, d) || one_in(c.dtype).is_some_and(|one| ordered_zero_test(m, at, d, one)) {
            return true;
        }
        // The next `cvt` reading `d` before it is overwritten, and nothing else first.
        let next = m.p.body.iter().enumerate().skip(at + 1).find(|(_, s)| {
            let (reads, _) = super::origin::reads_and_overwrites(s, d);
            reads || writes(s, d)
        });
        match next {
            Some((j, Stmt::Isa(Instruction { form: Form::Cvt(_), .. }))) => at = j,
            _ => return false,
        }
    }
    false
}

/// Whether a live unguarded `set`/`setp` compares `d` (the float conversion the `cvt` at body
/// index `k` wrote) with an immediate 0 and tells +0 from `one`, the number 1.0 in `d`'s type
/// (the arm ptxas puts for the `cnot`'s 1): ptxas folds any such test through "cvt(cnot x) == 0
/// ⇔ cnot x == 0", not only `.eq`/`.ne`. Seed 5601's d8a4dedd (corpus/findings/fuzz-h200-5601/
/// trace/T56C.md, variants trace/d8a4dedd/s56/): `cnot.b32 c, x; cvt.rn.bf16.f32 h, c;
/// setp.gt.u16 p, h, 0; selp.b16 s, h, 0xe000, p` is `ISETP.EQ.U32 P0, x, RZ; SEL R0, RZ, 0x3f80,
/// !P0; ISETP.GT.U32 P0, R0, RZ` (13.0.88 and 13.5 -O3), where §9.7.9.21 rounds the bits 2^-149 to
/// +0; wrong alike `setp.gt.s16`, `setp.le.u16`, `setp.lt.u16 0, h`, `set.gt.u32.u16`, `.f16`
/// (`v3`–`v5`, `v9`, `v10`). Right (the bits converted): a compare with 1 (`v6`, `v11`), with a
/// loaded 0 (`v13`), one false for both values (`v12`, `setp.lt.s16 h, 0`), a dead one (`v8`).
fn ordered_zero_test(m: &Machine<'_>, k: usize, d: Reg, one: u128) -> bool {
    readers(m, k, d).into_iter().any(|j| match &m.p.body[j] {
        Stmt::Glue { glue, guard: None } if matches!(glue.op, GlueOp::Set(..) | GlueOp::Setp(_)) => {
            tells_zero_from(glue, d, one) && observed(m, j, glue.dst)
        }
        _ => false,
    })
}

/// Whether compare glue `g` reads register `d` against an immediate 0 (either side) and its
/// result differs between `d` = 0 and `d` = `one`.
fn tells_zero_from(g: &Glue, d: Reg, one: u128) -> bool {
    let Some(at) = (0..2).find(|&i| g.src[i] == Some(Src::Reg(d))) else { return false };
    if imm_of(g, 1 - at) != Some(0) {
        return false;
    }
    let with = |x: u64| {
        let mut srcs = [0u64; 4];
        srcs[at] = x;
        g.eval(srcs, false)
    };
    u64::try_from(one).is_ok_and(|one| with(0) != with(one))
}

/// Whether some `and.b64`/`or.b64` of the program with a live result reads two `cnot` results
/// (the same or two, through integer `cvt`s and copies), or one register twice that holds a
/// `cnot`'s value converted by float `cvt`s: ptxas then lowers the program's `cnot`s as
/// predicates, each of them, and converts each one's 0/1 as the number (7cb7444f, T12c5.md:
/// `cnot.b64 d0; cvt.rm.f32.f64 r0, d0; and.b64 d1, d0, d0` is `FSEL R7, RZ, 1, !P0`; `or.b64`,
/// two cnots, `.f16` the same; 7ea011df, T12c3.md: `cnot.b64; cvt.rmi.f64.f64 d0; and.b64 d1,
/// d0, d0` is `FSEL R0, RZ, 1.875, !P0`, `v21` with `cvt.rm.f32.f64; cvt.u64.u32` between the
/// same; 13.0.88 and 13.5 -O3; session 43: the self-`and.b64` of another `cnot.b64`, or of a
/// `cnot.b32` widened by `cvt.u64.u32`, makes the `cvt` of the first one `FSEL … 1.875` too).
/// Right: the `and` dead (`x12`), with a loaded register or an immediate (`x4`, `x11`, `v10`), a
/// self-`and` of a loaded value (`v11`), `.b32`/`.b16` (`x8`, `v13`, `v19`), `xor` (folded to
/// 0, `v18`), a `selp 1, 0` in place of the `cnot` (`x13`, `v20`), the float conversion `and`ed
/// with the `cnot` itself (session 43: `FRND.F64.FLOOR` kept).
fn logic_b64_of_cnot_results(m: &Machine<'_>) -> bool {
    m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::And | GlueOp::Or) && glue.ty == GlueType::B64 => {
            let (Some(a), Some(b)) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1)) else { return false };
            let of_cnots = of_a_cnot(m, k, a, false, 4) && of_a_cnot(m, k, b, false, 4);
            let converted_twice = a == b && of_a_cnot(m, k, a, true, 4);
            (of_cnots || converted_twice) && observed(m, k, glue.dst)
        }
        _ => false,
    })
}

/// Whether register `r`, read at body index `k`, holds a `cnot` result (or an `and`/`or` of two)
/// through at most `depth` `mov` copies and `cvt`s: integer ones only, or float ones too where
/// `through_float`.
fn of_a_cnot(m: &Machine<'_>, k: usize, r: Reg, through_float: bool, depth: u32) -> bool {
    let Some((j, s)) = m.p.body[..k].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else { return false };
    let deeper = |o: Option<&crate::isa::operand::Operand>| {
        depth > 0 && o.and_then(|o| m.reg_of(o).ok()).is_some_and(|x| of_a_cnot(m, j, x, through_float, depth - 1))
    };
    match s {
        // An `and`/`or` of two of them is 0/1 alike (7ea011df's `v16_and_of_cnot`).
        Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::And | GlueOp::Or) => {
            let of = |i: usize| reg_of_glue(glue, i).is_some_and(|x| depth > 0 && of_a_cnot(m, j, x, false, depth - 1));
            of(0) && of(1)
        }
        Stmt::Glue { glue, .. } => glue.op == GlueOp::Cnot,
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. }) => {
            (through_float || (c.dtype.is_int() && c.atype.is_int())) && deeper(operands.get(1))
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }) if mv.shape == MovShape::Copy => {
            deeper(operands.get(1))
        }
        _ => false,
    }
}
