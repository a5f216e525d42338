//! When ptxas takes the predicate of `shfl.sync.bfly d|p, a, b, c` of a constant as warp-uniform
//! (3702-N7, corpus/known/fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped.toml), as a
//! question of its `c` (session 58, helper hd; seed 5801's 917157f1,
//! corpus/findings/fuzz-h200-5801/trace/T58D.md, variants in trace/917157f1/s58/).
//!
//! - `c[4:0]` (the clamp, §9.7.9.6) not 0: always (seed 4601's 746b5bde: v11–v22); `c` may be a
//!   register a move of an immediate wrote (917157f1: `shfl.sync.bfly.b32 r0|p0, r0, 13, r0, -1` of
//!   a moved 0; `s58/v10_c_imm1` and `v27_c_imm1_no_dead_load` an immediate 1 alike).
//! - `c[4:0]` = 0: only in a body that loads. 746b5bde's kept c = 0 forms (v8, v10, v18) have no
//!   load; 917157f1 (c = the moved 0, a dead `ld.global.b16` after the shuffles) drops the later
//!   shuffle (13.0.88 = 13.5 -O3: no `SHFL.IDX`), `s58/v25_no_dead_load` keeps it, and 746b5bde's
//!   v18 plus a dead `ld.global.b16` (`s58/v26_746b5bde_v18_dead_load`) drops it; a load before
//!   (`v28`), of 32 bits (`v29`) or live (`v30`) the same. The load-dependence is seed 4703's
//!   (`emulate/j_shuffled_constant_folded_beside_a_load.rs`: a shuffle of a constant folded only in
//!   a body that loads).
//!
//! Invariants: a pure question about the body; a register `c` counts only when the unguarded move
//! of an immediate that last wrote it before the shuffle reaches the shuffle on every path.

use super::super::fuzz3602::writes;
use super::super::fuzz3701::reaches_on_every_path;
use super::super::fuzz3801::is_load;
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::Stmt;

/// Whether ptxas takes the predicate of the bfly shuffle at body index `k`, whose `c` operand is
/// `c`, as warp-uniform (its `a` a constant, which the caller checks).
pub(super) fn predicate_taken_as_uniform(m: &Machine<'_>, k: usize, c: Option<&Operand>) -> bool {
    let clamp = match c {
        Some(Operand::Imm(Imm::Int(v))) => Some(v & 0x1f),
        Some(o) => moved_immediate_before(m, k, o).map(|v| v & 0x1f),
        None => None,
    };
    match clamp {
        Some(0) => m.p.body.iter().any(is_load),
        Some(_) => true,
        None => false,
    }
}

/// The immediate an unguarded `mov` wrote to the register operand `o` last before body index `k`,
/// reaching `k` on every path.
fn moved_immediate_before(m: &Machine<'_>, k: usize, o: &Operand) -> Option<i128> {
    let r = m.reg_of(o).ok()?;
    let (j, s) = m.p.body.get(..k)?.iter().enumerate().rev().find(|(_, s)| writes(s, r))?;
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None }) = s else { return None };
    match operands.get(1) {
        Some(Operand::Imm(Imm::Int(v))) if mv.shape == MovShape::Copy && reaches_on_every_path(m, j, k) => Some(*v),
        _ => None,
    }
}
