//! 3801-N2 (corpus/known/fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max.toml)
//! against a register bound: the `max`/`min` that ptxas fuses with `sub K − x` (K a shuffled
//! constant) into one `VIADDMNMX R, x, −K, c` may take as `c` any register whose value ptxas does
//! not know, not only 0.
//!
//! Role: the one condition of [`fuzz3801`](super::fuzz3801)'s scope that says which other
//! operand of the `max`/`min` the fused instruction reads as its bound ([`fused_bound`]); the
//! rest of 3801-N2's scope (the shuffle of a constant, the `sub`, the load before) stays in
//! `fuzz3801.rs` and `shfl_of_a_register_ptxas_knows.rs`.
//!
//! Mechanism (seed 5001's 3f1783f2, corpus/findings/fuzz-h200-5001/trace/T21a.md, variants in
//! trace/3f1783f2/s50/; ptxas 13.0.88 and 13.5 -O3 alike, and the JIT): `shfl.sync.down` of the
//! immediate K = 0x5a051646 (every lane holds K, §9.7.9.6), `sub.u32 d, K, x` (x loaded) and
//! `min.u32 d, y` (y a loaded word) is `VIADDMNMX.U32 R7, R7, 0xa5fae9ba, R0, PT`:
//! min(x − K, y) where §9.7.1.2 (`sub`) and §9.7.1.11 (`min`) give min(K − x, y). Wrong alike:
//! the bound first (`v5`), `max.u32` (`v3`), `min.s32` (`v4`), `.idx` (`v7`), another loaded word
//! (`v8`), `%tid.x` (`v9`: `VIADDMNMX.U32 R7, R2, 0xa5fae9ba, R7`), 0 (`v2`, the entry's form).
//! Right: an immediate bound 5 (`v1`) or a moved 5 (`v11`): `IADD3 R9, -R2; VIADDMNMX.U32 R7, R9,
//! R0, 0x5` (K kept in R0 and added right); K a `mov` (`v6`), a loaded shuffled value (`v10`),
//! `add` in place of the `sub` (`v12`). So the bound is 0 or a register that no
//! [`ptxas_constant`] names.

use super::origin::{moved_immediate, ptxas_constant};
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::Glue;
use crate::semantics::Expected;

/// Whether operand `k` of the `max`/`min` `g` (thread `t`, values `vals`) is a bound that
/// 3801-N2's fused `VIADDMNMX` reads as its `c`: 0 (an immediate, or a register a `mov` of the
/// immediate 0 wrote: the entry's form), or a register other than the one carrying the `sub`
/// (operand `s`) whose value ptxas does not know before the `max`/`min` (`s50/v3`–`v9`).
pub(super) fn fused_bound(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], k: usize, s: usize) -> bool {
    match (imm_of(g, k), reg_of_glue(g, k)) {
        (Some(v), _) => v & 0xFFFF_FFFF == 0,
        (None, Some(r)) => {
            (moved_immediate(m, t, r) && vals[k].bits as u32 == 0)
                || (reg_of_glue(g, s) != Some(r) && ptxas_constant(m, m.stmt, r).is_none())
        }
        _ => false,
    }
}
