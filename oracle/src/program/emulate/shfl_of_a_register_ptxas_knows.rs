//! 3801-N2 (corpus/known/fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max.toml)
//! through a shuffled register: the `shfl.sync` whose lanes all hold one constant K may read K
//! from a register ptxas knows holds it, not only from an immediate operand.
//!
//! Role: the one condition of [`fuzz3801`](super::fuzz3801)'s scope that says which shuffles
//! ptxas folds to K there ([`shuffles_a_constant`]); the rest of 3801-N2's scope (the `sub`, the
//! `max`/`min` against 0, the load before it) stays in `fuzz3801.rs`.
//!
//! Mechanism (corpus/findings/fuzz-h200-4602/, 25d80a8d and 21c3de6f, trace/T17t3.md; variants in
//! trace/25d80a8d/ and trace/25d80a8d/s46/; ptxas 13.0.88 -O3, 13.5 alike): every lane of a
//! `shfl.sync` of a constant holds it (§9.7.9.6), so ptxas drops the `SHFL` and, the `sub`'s K
//! known, fuses `sub K − x` with `min`/`max` against 0 into `VIADDMNMX R, x, −K, RZ` (x − K). The
//! shuffled value may be an integer immediate (the entry's form), or a register a `mov.b32` of
//! an immediate wrote (25d80a8d: `VIADDMNMX R7, R2, 0xfffffc01, RZ, PT`), a `mov.f32` of float
//! bits (21c3de6f: `VIADDMNMX.U32 R0, R2, 0x9fdff17b, RZ, !PT`; `s46/v11`), a copy of a moved
//! immediate (`s46/v7`), `add`/`xor` glue of constants (`s46/v5`, `s46/v6`) or a shuffle of an
//! immediate (`s46/v10`): every constant [`ptxas_constant`] names.
//!
//! What stays out: a loaded shuffled value (`s46/v8`) and a register a guarded move wrote
//! (`s46/v9`): ptxas keeps the `SHFL` and computes `VIADDMNMX R7, R0, -R7, RZ` (right).

use super::origin::ptxas_constant;
use crate::isa::operand::{Imm, Operand};
use crate::isa::Instruction;
use crate::program::exec::Machine;

/// Whether the `shfl.sync` `shfl` at body index `at` shuffles a constant ptxas knows: its `a`
/// an integer immediate, or a register [`ptxas_constant`] holds before `at`.
pub(super) fn shuffles_a_constant(m: &Machine<'_>, shfl: &Instruction, at: usize) -> bool {
    match shfl.operands.get(1) {
        Some(Operand::Imm(Imm::Int(_))) => true,
        Some(o) => m.reg_of(o).is_ok_and(|r| ptxas_constant(m, at, r).is_some()),
        None => false,
    }
}
