//! The emulation of a root cause the H200 campaign of seed 3801 found
//! (corpus/findings/fuzz-h200-3801/; traces `trace/T4C.md`, `trace/T4D.md`), called from the glue
//! hook of `emulate.rs` ([`glue`]): 3801-N2, `sub K − x` of a shuffled immediate K fused with a
//! following `max`/`min` against 0 into one `VIADDMNMX x, −K, RZ` that computes x − K. K is the
//! `sub`'s minuend as the `sub` read it, also where the `sub` wrote over K's register (seed 5403's
//! 5fd181c4, corpus/findings/fuzz-h200-5403/trace/T54S.md and trace/5fd181c4/s54/).
//!
//! The other root causes of the seed have shape-only entries (corpus/known/fuzz-h200-3801-n*.toml
//! say why): no rule of the PTX gives 3801-N1's link counts, and 3801-N3 and N4 read a register
//! whose value depends on what ran before.
//!
//! Invariants: [`glue`] changes a result only when its deviation is emulated and the instruction,
//! its producers and the program before it are exactly the ones the traces show wrong; it
//! returns `None` (the spec's result stands) otherwise.

use super::origin::Origin;
use super::reg_of_glue;
use super::{min_max_of_shuffled_sub_against_an_unknown_register, shfl_of_a_register_ptxas_knows, GlueRule};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under the glue deviations of seed 3801: `Some` (the emulated
/// result, the deviation recorded as fired) where 3801-N2 applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] =
        &[(Deviation::SubOfShuffledImmediateReversedInMinMax, min_max_of_sub_of_shuffled_immediate)];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// Whether `s` is a load (`ld`, any space; §9.7.9.8).
pub(super) fn is_load(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(Instruction { form: Form::Ld(_), .. }))
}

/// 3801-N2 (06fd6dd5, trace/T4C.md; 6dd16205, trace/T4D.md; ptxas 13.0.88 and 13.5 -O3, and the
/// JIT): `max`/`min` (`.u32`/`.s32`) of `d` and 0 (an immediate, or a register a `mov` of the
/// immediate 0 wrote; or any register ptxas does not know holds a constant,
/// `emulate/min_max_of_shuffled_sub_against_an_unknown_register.rs`), with `d = sub.{u32,s32} K, x` (x a register) and K written by `shfl.sync`
/// of an immediate (any mode: every lane holds the same value, §9.7.9.6, so ptxas folds it to
/// K; or of a register holding a constant ptxas knows, `emulate/shfl_of_a_register_ptxas_knows.rs`),
/// is fused into `VIADDMNMX R, x, −K, RZ`: the subtraction is reversed, the `max`/`min` reads
/// x − K, where §9.7.1.2 (`sub`) and §9.7.1.10/11 (`max`, `min`) give max/min(K − x, 0).
/// Stated at the `max`/`min` as the negation of the `sub`'s result (x − K = −(K − x) mod 2^32),
/// so a loop whose `sub`s alternate x and K − x (06fd6dd5's original: `max` of the third
/// trip's `sub`, `VIADDMNMX R7, R2, 0xfffffffd`) is right too; the `sub` itself and its other
/// readers keep the spec's value (13.0.88 computes them apart: `IADD3 R7, -R2, 0x3`).
/// Wrong: `.up`, `.bfly` (lane an immediate or a moved 0), `.idx`, with or without a predicate
/// destination, `max.u32`/`max.s32`/`min.s32`, 0 first or second. Right: K a `mov` (v_one,
/// v_ld_nobfly: `IADD3 R0, -R2; VIADDMNMX R0, K`), no `max`/`min` (v_nomax), against 5 (v_max5,
/// v_ld_min5), `add` (v_add). Every wrong form has a load before the `max`/`min` (x loaded,
/// 06fd6dd5; a dead `ld.global.b16` between the `sub` and the `min`, 6dd16205), and 6dd16205's
/// forms without a load (v_bfly_min, v_noload, v_orig_sel, v_both: K kept in a register,
/// `VIADDMNMX R, K, −x`) are right: the operand order follows the schedule, so the scope asks
/// for a load before the `max`/`min` in the body. `.down` alike (seed 5001's 3f1783f2). The
/// `sub` may write over its own K register (seed 5403's 5fd181c4, [`k_producer`]).
fn min_max_of_sub_of_shuffled_immediate(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Max | GlueOp::Min)
        || !matches!(g.ty, GlueType::U32 | GlueType::S32)
        || !vals.iter().take(2).all(Expected::is_exact)
        || !m.p.body[..m.stmt].iter().any(is_load)
    {
        return None;
    }
    for (s, z) in [(0usize, 1usize), (1, 0)] {
        if !min_max_of_shuffled_sub_against_an_unknown_register::fused_bound(m, t, g, vals, z, s) {
            continue;
        }
        let Some((Stmt::Glue { glue: sub, .. }, sub_origin)) = reg_of_glue(g, s).and_then(|r| m.producer(t, r)) else {
            continue;
        };
        if sub.op != GlueOp::Sub || !matches!(sub.ty, GlueType::U32 | GlueType::S32) || reg_of_glue(sub, 1).is_none() {
            continue;
        }
        let Some(k_stmt) = reg_of_glue(sub, 0).and_then(|k| k_producer(m, t, sub, sub_origin, k)) else { continue };
        let Stmt::Isa(shfl) = &m.p.body[k_stmt] else { continue };
        let shuffled_immediate = matches!(shfl.form, Form::ShflSync(_))
            && shfl_of_a_register_ptxas_knows::shuffles_a_constant(m, shfl, k_stmt)
            && k_stmt < sub_origin.stmt;
        if !shuffled_immediate {
            continue;
        }
        let mut sources = [vals[0].bits as u64 & 0xFFFF_FFFF, vals[1].bits as u64 & 0xFFFF_FFFF, 0, 0];
        sources[s] = u64::from((sources[s] as u32).wrapping_neg());
        return Some(Expected::exact(u128::from(g.eval(sources, false)), result.width));
    }
    None
}

/// The statement that produced K, the `sub`'s minuend held in register `k`: the register's
/// producer, or, where the `sub` wrote its result over its own minuend (`sub.u32 %r5, %r5, x`:
/// `k` now holds the `sub`), the producer the `sub`'s origin recorded for its first source
/// (`a_stmt`). Seed 5403's 5fd181c4 (corpus/findings/fuzz-h200-5403/trace/T54S.md; variants
/// trace/5fd181c4/s54/): 13.0.88 and 13.5 -O3 give the same `VIADDMNMX.U32 R7, R7, 0x80800001, R0`
/// for the in-place `sub` as for the `sub` (w1) or the shuffle (w2) written to another register.
fn k_producer(m: &Machine<'_>, t: u32, sub: &Glue, sub_origin: &Origin, k: Reg) -> Option<usize> {
    let (_, k_origin) = m.producer(t, k)?;
    if sub.dst == k && k_origin.stmt == sub_origin.stmt {
        sub_origin.a_stmt
    } else {
        Some(k_origin.stmt)
    }
}
