//! 3702-N3 (`join-of-minus-one-and-one-f32-merged`) widened to an arm whose constant is an
//! `addc`/`subc` (session 51, seed 5101's 204fad1e; corpus/findings/fuzz-h200-5101/trace/T22a.md,
//! variants with 13.0.88 and 13.5 -O3 listings in trace/204fad1e/s51/, README.md there).
//!
//! Mechanism: ptxas lowers `addc`/`subc` (§9.7.2.2, §9.7.2.4) to `IADD3.X a, b', RZ, P, !PT`
//! whose carry-in P is the carry of the `add.cc`/`sub.cc` before it (§9.7.2.1, §9.7.2.3; for a
//! subtraction P is "no borrow"). When every operand and the carry producer's operands are
//! constants ptxas knows, it folds the carry; a carry-in of 0 (an `addc` after an `add.cc` that
//! does not carry, a `subc` after a `sub.cc` that borrows) leaves a plain add of constants, which
//! it folds to a constant like any other ([`super::fuzz3701::writes_folded_constant`]), and
//! 3702-N3's join then merges −1 and 1.0f. A carry-in of 1 stays an `IADD3.X …, PT, !PT` that
//! ptxas does not fold, and the compare is kept.
//!
//! Scope: an unguarded `addc`/`subc` (`.cc` or not) whose sources are immediates or folded
//! constants, reading the carry of the last carry writer before it: an unguarded `add.cc` (for
//! `addc`) or `sub.cc` (for `subc`) of immediates or folded constants that runs on every path to
//! it; and the hardware carry-in 0: the flag (as the machine holds it before the reader runs) is
//! 0 for `addc` and 1 (a borrow) for `subc`. Chains (`addc.cc` → `addc`) are left out (no
//! variant).
//!
//! Evidence (13.0.88 -O3 wrong: `HFMA2.MMA R7, -RZ, RZ, 1.875, 0; STG`, or `MOV R7, 0xffffffff;
//! STG`, no compare; 13.5 keeps `ISETP; @!P0 MOV`): the case and `v1_core` (`sub.cc` of two moved
//! constants that borrows, `subc r0, r0, r0` = −1 over an old 1.0f), `v4_imm_subtrahend` (an
//! immediate subtrahend), `v6_carry_before_branch` (the `sub.cc` before the branch),
//! `v11_subc_borrow_other_sources` (`subc 0, 0` = −1), `v9_addc_no_carry` (`addc` of 1.0f with no
//! carry over an old −1). Right (13.0.88 keeps `@!P0 IADD3.X …, PT, !PT`): `v2_addc_minus1_to_1f`
//! and `v12_addc_carry_minus1` (a carry of 1), `v10_subc_no_borrow_minus1` (no borrow), `v5`
//! (no borrow, 0), `v3_loaded_subtrahend` (the carry of a loaded value), `v7_subc_of_loaded_minus`
//! (`subc x, x` of a loaded x), `v8_pair_5_7` (another pair).

use super::fuzz3701::{folded_constant, reaches_on_every_path};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, Src};
use crate::program::Stmt;

/// How deep the sources' constants are followed ([`folded_constant`]).
const DEPTH: u32 = 3;

/// Whether statement `s` at body index `k`, run by thread `t`, is an `addc`/`subc` ptxas folds to
/// a constant: see the module docs.
pub(super) fn folded_carry_reader(m: &Machine<'_>, t: u32, k: usize, s: &Stmt) -> bool {
    let Stmt::Glue { glue, guard: None } = s else { return false };
    if !glue.op.reads_carry() || !constant_sources(m, k, glue.op.arity(), &glue.src) {
        return false;
    }
    let Some((c, Stmt::Glue { glue: producer, guard })) = m.p.body[..k]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, x)| matches!(x, Stmt::Glue { glue, .. } if glue.op.writes_carry()))
    else {
        return false;
    };
    let first_link = matches!(producer.op, GlueOp::AddCc | GlueOp::SubCc);
    if guard.is_some() || !first_link || !glue.op.continues_carry(producer.op) || !reaches_on_every_path(m, c, k) {
        return false;
    }
    if !constant_sources(m, c, producer.op.arity(), &producer.src) {
        return false;
    }
    // The hardware carry-in: an `add.cc`'s carry, a `sub.cc`'s "no borrow" (§9.7.2).
    let Ok(flag) = m.carry(t) else { return false };
    let borrow_flag = matches!(glue.op, GlueOp::Subc { .. });
    flag.is_exact() && (flag.bits == 1) == borrow_flag
}

/// Whether the first `arity` sources of a glue statement at body index `k` are immediates or
/// constants ptxas folds.
fn constant_sources(m: &Machine<'_>, k: usize, arity: usize, src: &[Option<Src>]) -> bool {
    src.iter().take(arity).all(|s| match s {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(r)) => folded_constant(m, k, *r, DEPTH),
        None => false,
    })
}
