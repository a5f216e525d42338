//! 3501-N3 widened after seed 4303's trace (helper z3, session 44): a sixth context in which
//! ptxas holds a `cnot`'s 0/1 as a select of a predicate and converts its arms as the numbers 0
//! and 1 — a chain of `cnot`s, the last one `.b16` or `.b64` ([`cnot_of_a_cnot`];
//! corpus/findings/fuzz-h200-4303/trace/T14x5.md, 42ff61b7). The caller,
//! `cnot_number_and_range_decided_sets::cnot_converted_as_number`, computes the value.
//!
//! Invariants: a condition on the program's statements (the value's producer as the machine
//! recorded it, the statements before it as written); it changes no value by itself.

use super::fuzz3701::last_writer;
use super::reg_of_glue;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// How many integer `cvt`s and `mov` copies a link of the chain may pass through.
pub(super) const LINK: u32 = 4;

/// Whether register `r` of thread `t` (the source of a `cvt` from a float type) holds, through
/// integer `cvt`s and `mov` copies, a `cnot.{b16,b64}` whose source is itself a `cnot` result of
/// any width, through integer `cvt`s and copies: ptxas folds `cnot(cnot x)` to a select of the
/// predicate `x == 0` and the float `cvt` converts its arms as the numbers 0 and 1 (§9.7.9.21
/// converts the bits 0x0001, a subnormal). 42ff61b7 (T14x5.md: `cnot.b64; cnot.b64;
/// cvt.rm.bf16.f64` is `ISETP.EQ.U32(.EX) P0, x, RZ; SEL R7, RZ, 0x3f80, P0`, bf16 1.0 where
/// the spec's is +0; `v4` `.f32` `FSEL R7, RZ, 1`, `v6` `cnot.b16` twice and `cvt.f32.f16`,
/// `v7` `.rp`, `v8` `cvt.rmi.u32.f64` `SEL R7, RZ, 0x1`, `v5` three registers; 13.0.88 and
/// 13.5 -O3). Session 44, 13.0.88 -O3, the same fold: three and four `cnot.b64`s (the arms of
/// the last), `mov.b64` copies between, the inner `cnot` stored too, an inner `cnot.b32` or
/// `cnot.b16` widened by `cvt.{u64,s64}` (`FSEL R7, RZ, 1, P0`), an outer `cnot.b16` of a
/// narrowed `cnot.b32`/`cnot.b64`, `cvt.f64.f16` (`FSEL R7, RZ, 1.875`), and `cvt.u32.{u16,u64}`
/// between the outer `cnot` and a `cvt` from `.f32` (`SEL R7, RZ, 0x3c00`), `cvt.u16.u64` then
/// `cvt.f32.f16`, a `mov.b64` unpack's low half (the machine's producer of an unpacked half is
/// the `cnot`). Right: one `cnot`
/// (`v1`), an outer `cnot.b32` (`v2`, `v9`, a narrowed inner `cnot.b64`, three `cnot.b32`s, the
/// pair widened to `.f64`: `SEL …, 0xffffffff; IADD3 -R` then `F2F` of the bits), `not` for
/// both or the first (`v3`, `c1`), the outer `cnot.b64` of a `selp 1, 0`, an `and.b64 x, 1` or a widened
/// `set.ne.u32` (the bits converted). 13.5 -O3 the same where tried (three `cnot`s, copies, the
/// widened inner ones, the narrowed outer `.b16`, `.f64`, `cvt.u32.u64`, the unpack; the outer
/// `.b32` and `selp` right). Variants: corpus/findings/fuzz-h200-4303/trace/42ff61b7/z3_*.
/// A loop-carried `cnot x, x` run twice or more is such a chain too
/// (`emulate/cnot_of_itself_run_twice_by_a_loop.rs`, e55c2d82), also read through integer `cvt`s
/// (`emulate/cnot_loop_chain_read_through_integer_cvts.rs`, seed 5103's de634528).
pub(super) fn cnot_of_a_cnot(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    m.producer(t, r).is_some_and(|(_, o)| outer_cnot(m, o.stmt, LINK))
        || super::cnot_of_itself_run_twice_by_a_loop::cnot_of_itself_run_twice(m, t, r)
        || super::cnot_loop_chain_read_through_integer_cvts::loop_cnot_chain_through_integer_cvts(m, t, r)
}

/// Whether the statement at body index `k` is an unguarded `cnot.{b16,b64}` whose source's last
/// writer is a `cnot` ([`a_cnot`]), or reaches such a `cnot` through at most `depth` unguarded
/// integer `cvt`s and `mov` copies.
fn outer_cnot(m: &Machine<'_>, k: usize, depth: u32) -> bool {
    match &m.p.body[k] {
        Stmt::Glue { glue, guard: None }
            if glue.op == GlueOp::Cnot && matches!(glue.ty, GlueType::B16 | GlueType::B64) =>
        {
            reg_of_glue(glue, 0).and_then(|x| last_writer(m, k, x)).is_some_and(|(j, _)| a_cnot(m, j, LINK))
        }
        _ => through_link(m, k, depth, &outer_cnot),
    }
}

/// Whether the unguarded statement at body index `k` is an integer `cvt` or a `mov` copy whose
/// source's last writer satisfies `then` (one `depth` less).
fn through_link(m: &Machine<'_>, k: usize, depth: u32, then: &dyn Fn(&Machine<'_>, usize, u32) -> bool) -> bool {
    depth > 0 && link_source(m, k).is_some_and(|j| then(m, j, depth - 1))
}

/// The source operand of statement `s` when it is a link of a chain: an unguarded integer `cvt`
/// or a `mov` copy (each keeps a 0/1 a 0/1).
pub(super) fn link_operand(s: &Stmt) -> Option<&Operand> {
    match s {
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. })
            if c.dtype.is_int() && c.atype.is_int() =>
        {
            operands.get(1)
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            operands.get(1)
        }
        _ => None,
    }
}

/// The body index of the last writer of the source of the link at body index `k`
/// ([`link_operand`]).
fn link_source(m: &Machine<'_>, k: usize) -> Option<usize> {
    let x = link_operand(&m.p.body[k]).and_then(|o| m.reg_of(o).ok())?;
    last_writer(m, k, x).map(|(j, _)| j)
}

/// The body index of the unguarded `cnot` the statement at body index `k` is, or reaches through
/// at most `depth` links ([`link_operand`]).
pub(super) fn cnot_through_links(m: &Machine<'_>, k: usize, depth: u32) -> Option<usize> {
    match &m.p.body[k] {
        Stmt::Glue { glue, guard: None } if glue.op == GlueOp::Cnot => Some(k),
        _ if depth > 0 => cnot_through_links(m, link_source(m, k)?, depth - 1),
        _ => None,
    }
}

/// Whether the statement at body index `k` is an unguarded `cnot`, or reaches one through at most
/// `depth` unguarded integer `cvt`s and `mov` copies.
fn a_cnot(m: &Machine<'_>, k: usize, depth: u32) -> bool {
    cnot_through_links(m, k, depth).is_some()
}
