//! N-8's known 0 widened to the zeros ptxas folds from a zero factor (helper x3, session 49;
//! known entry corpus/known/fuzz-h200-3201-n8-unsigned-below-zero-of-set.toml).
//!
//! Mechanism: N-8 folds an unsigned compare of a `set.{s32,u32}` result with a 0 it knows
//! (`set.gt.s32.u32 d, 0, s` as `s != 0`, `ISETP.GT.U32 P0, PT, s, RZ`, where §9.7.7 makes
//! `0 >u s` never true). ptxas knows the 0 not only of a move or of constant glue but of any
//! result a zero annihilates whatever the other source ([`writes_zero_from_a_zero_factor`]):
//! `mul.lo`/`mul.hi`/`mul.wide` with a 0 factor, `mad.lo`/`mad.hi` with a 0 factor and a 0
//! addend, `and` with 0, `shl`/unsigned `shr` by an immediate of the width or more, the 0
//! an immediate, an unguarded `mov` of 0, or such a result itself (through a chain).
//! Evidence: corpus/findings/fuzz-h200-4801/trace/b698901a/ (`reduced`, `v2_mul_imm0`;
//! s49/ `v1_and_zero`, `v2_mul_hi_zero`, `v3_mad_zero`, `v4_shl_32`, `v5_mul_zero_twice` wrong
//! alike, 13.0.88 -O3 `ISETP.GT.U32 P0, PT, s, RZ`; 13.5 right). Right (left alone): a product
//! of two loaded values that is 0 at run time (`v6_loaded_product`), a multiply by 1
//! (`v7_mul_one`: the compare `ISETP.GT.U32 P0, PT, r0, s`), a `mad` whose loaded addend is 0
//! at run time (`v8_mad_loaded_addend`).
//!
//! Invariants: a condition on the program's statements (the value's producer as the machine
//! recorded it, the statements before it as written); the caller checks the value is 0.

use super::fuzz3701::last_writer;
use super::fuzz3701::reaches_on_every_path;
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, Src};
use crate::program::{Reg, Stmt};

/// How many zero-folding statements a chain may pass through.
const DEPTH: u32 = 3;

/// Whether register `r` of thread `t` holds a result ptxas folds to 0 from a zero factor
/// ([`writes_zero_from_a_zero_factor`]); copies looked through (the machine's producer).
pub(super) fn zero_from_a_zero_factor(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    match m.producer(t, r) {
        Some((Stmt::Glue { glue, guard: None }, o)) => writes_zero_from_a_zero_factor(m, o.stmt, glue, DEPTH),
        _ => false,
    }
}

/// Whether glue `g` at body index `k` writes a 0 whatever its other sources: a multiply with a
/// 0 factor (a `mad` with a 0 addend too), an `and` with 0, a `shl`/unsigned `shr` by an
/// immediate of the width or more. A source is 0 where it is the immediate 0 or its last
/// writer before `k` reaches `k` on every path and is an unguarded move of 0 or such glue
/// (`depth` deep).
fn writes_zero_from_a_zero_factor(m: &Machine<'_>, k: usize, g: &Glue, depth: u32) -> bool {
    let zero = |j: usize| match g.src.get(j).copied().flatten() {
        Some(Src::Imm(v)) => v == 0,
        Some(Src::Reg(x)) => last_writer(m, k, x).is_some_and(|(w, s)| {
            reaches_on_every_path(m, w, k)
                && match s {
                    Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. }) => {
                        matches!(operands.get(1), Some(Operand::Imm(Imm::Int(0))))
                    }
                    Stmt::Glue { glue, guard: None } => {
                        depth > 0 && writes_zero_from_a_zero_factor(m, w, glue, depth - 1)
                    }
                    _ => false,
                }
        }),
        None => false,
    };
    let by_width = || matches!(g.src.get(1).copied().flatten(), Some(Src::Imm(v)) if v >= u64::from(g.ty.bits()));
    match g.op {
        GlueOp::MulLo | GlueOp::MulHi | GlueOp::MulWide | GlueOp::And => zero(0) || zero(1),
        GlueOp::MadLo | GlueOp::MadHi => (zero(0) || zero(1)) && zero(2),
        GlueOp::Shl => by_width(),
        GlueOp::Shr => !g.ty.signed() && by_width(),
        _ => false,
    }
}
