//! The emulation of the word-level root cause the H200 campaign of seed 4003 found
//! (corpus/findings/fuzz-h200-4003/trace/T7F.md, `trace/0c35d334/`), called from the glue hook of
//! `emulate.rs` ([`glue`]): 0c35d334, a `shl.b64` by a constant of 64 or more of a register
//! holding one of two constants a predicate selects, folded into each arm as `c << (k & 63)`.
//!
//! It looks at the statements that last wrote the shifted register (the body branches only
//! forward; a guarded write is a select between its value and the one before it).
//!
//! Invariants: [`glue`] changes a result only when its deviation is emulated and the shift and
//! the writes of its source are of the mechanism the trace shows wrong; it returns `None` (the
//! spec's result stands) otherwise.

use super::fuzz3602::writes;
use super::fuzz3701::{constant, folded_constant, reaches_on_every_path, writes_folded_constant};
use super::GlueRule;
use crate::isa::Instruction;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// How many producers deep a constant arm may be built (as the other callers of
/// [`folded_constant`]).
const ARM_DEPTH: u32 = 3;

/// A glue instruction's result under the glue deviation of seed 4003: `Some` (the emulated
/// result, the deviation recorded as fired) where 0c35d334 applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] = &[(Deviation::ShlB64OfTwoConstantSelectMasked, shl_of_constant_select)];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// 0c35d334 (corpus/findings/fuzz-h200-4003/, trace/T7F.md "NEW", `trace/0c35d334/`; ptxas
/// 13.0.88 and 13.5 -O3 alike, and the JIT): `shl.b64 d, v, k` (§9.7.8.7: the `.u32` amount is
/// clamped to 64, so k ≥ 64 gives 0) with a constant k ≥ 64 (an immediate or a moved
/// immediate) of a register v whose value at the shift is one of two compile-time constants a
/// predicate chooses ([`two_constant_select`]) is folded into the two arms of a `SEL` as
/// `c << (k & 63)`, a host-style masked shift: 0x100 and 64 give each constant unshifted
/// (`SEL R5, R0, 0x2c75e3be, !P0`), 65 gives `c << 1`, 100 `c << 36`, 0xffffffff `c << 63`.
/// Right (not emulated): a single constant, a constant and a loaded value, a loaded value under a
/// guarded `neg`, `shr.u64`, the 32-bit `shl.b32`, k < 64 (40).
fn shl_of_constant_select(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shl || g.ty.bits() != 64 {
        return None;
    }
    let k = constant(m, t, g, vals, 1)? & 0xFFFF_FFFF;
    let Some(Src::Reg(v)) = g.src[0] else {
        return None;
    };
    if k < 64 || !two_constant_select(m, m.stmt, v) {
        return None;
    }
    let value = vals.first().filter(|x| x.is_exact())?.bits as u64;
    Some(Expected::exact(u128::from(value << (k & 63)), result.width))
}

/// Whether register `r` holds, before body index `at`, one of two constants ptxas knows, chosen
/// by a predicate: its last write before `at` (reaching `at` on every path) is
///  - an unguarded `selp` of two constants ([`folded_constant`]s or an immediate second
///    source) — `v_selp` (`SEL R4, R4, 0x4d, P0`), or
///  - a guarded write of a constant (a move of an immediate, glue of constants such as the
///    case's `@!p neg.s64 d, d` of the constant d) over an `r` that was a constant before it —
///    the case and `v_guarded_mov`.
///
/// The two constants are not compared (their values are not at hand here): two equal ones are
/// one constant ptxas shifts right (`v_unguarded_neg`), a form the traces did not show.
fn two_constant_select(m: &Machine<'_>, at: usize, r: Reg) -> bool {
    let Some((k, s)) = m.p.body[..at].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else {
        return false;
    };
    if !reaches_on_every_path(m, k, at) {
        return false;
    }
    let arm = |src: Option<Src>| match src {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(x)) => folded_constant(m, k, x, ARM_DEPTH),
        None => false,
    };
    match s {
        Stmt::Glue { glue, guard: None } if glue.op == GlueOp::Selp => arm(glue.src[0]) && arm(glue.src[1]),
        Stmt::Glue { glue, guard: Some(_) } => {
            let unguarded = Stmt::Glue { glue: *glue, guard: None };
            writes_folded_constant(m, k, &unguarded, ARM_DEPTH) && folded_constant(m, k, r, ARM_DEPTH)
        }
        Stmt::Isa(i @ Instruction { guard: Some(_), .. }) => {
            let unguarded = Stmt::Isa(Instruction { guard: None, ..i.clone() });
            writes_folded_constant(m, k, &unguarded, ARM_DEPTH) && folded_constant(m, k, r, ARM_DEPTH)
        }
        _ => false,
    }
}
