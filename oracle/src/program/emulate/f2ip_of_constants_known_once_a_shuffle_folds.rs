//! 3802 T5A-1 (corpus/known/fuzz-h200-3802-t5a1-pack-of-nan-cvt-and-constant-dropped.toml) where
//! the constants reach the fused `F2IP` through a `shfl.sync` ptxas folds only beside a load.
//!
//! Mechanism: ptxas 13.0.88 -O3 fuses `cvt.{rzi,rni}.{s32,u32}.f32 a, x` and
//! `cvt.pack.sat.{u8,s8}.s32.b32 d, a, a, c` (§9.7.9.21, §9.7.9.22) into one `F2IP` of x and c,
//! and drops it when both x and c are constants (c not `RZ`): no instruction writes d, the
//! store reads whatever its register held (%tid.x from `S2R`, or a constant ptxas left there);
//! 13.5 -O3 stops with ICE C7907. T5A-1's x was a moved NaN (a moved non-NaN is folded by the
//! `cvt` first: `I2IP … -0x80000000`). Here x, or c, is written by a `shfl.sync` of a constant
//! in a body that loads: every lane holds the constant (§9.7.9.6), and ptxas folds such a
//! shuffle only after the fusion ([`folded_shuffle`], J's rule of seed 4703's 4b4a61c5), so x
//! reaches the `F2IP` as a register whatever its value, and a shuffled c is a register (never
//! `RZ`) whatever its low half.
//!
//! Scope: x a [`folded_shuffle`] (any value), or c a [`folded_shuffle`] (any value, the low half
//! 0 included); the rest of T5A-1's rule (`a` = `b`, `.rzi`/`.rni`, a constant c's low half not
//! 0) stays in [`fuzz3802::pack`](super::fuzz3802).
//!
//! Evidence (corpus/findings/fuzz-h200-4901/, 003cb04b, trace/T20.md; variants in
//! trace/003cb04b/v/ and trace/003cb04b/s49/, 13.0.88 and 13.5 -O3). Wrong (no F2IP, 13.5
//! ICE): the stored case (x = c = a shuffle of 0xd3c0b17e, the load dead), x = 1.5 or 0x4f800000
//! (c's low half 0), c = 0x1234 immediate or moved (s49 v1), c a second shuffle of 0x10000
//! (s49 v6), `.idx`/`.up`, `.rni`, `.u32`, `.u8`, the whole word stored, the load after the pack
//! (s49 v10: the constant register stored), a moved NaN x with a shuffled c of 0x10000
//! (s49 v11). Right (the `F2IP` kept): no load (u1, s49 v12), x moved (u2, not NaN), c = 0
//! immediate or moved or 0x10000 immediate (`RZ`: u5, s49 v2, v3), c = %tid.x or a load
//! (s49 v4, v5), a shuffled load (u6), `a` ≠ `b` (u12), `.rmi` (s49 v8: `F2I.FLOOR` kept apart),
//! a guarded shuffle (s49 v9).

use super::j_shuffled_constant_folded_beside_a_load::folded_shuffle;
use crate::isa::operand::Operand;
use crate::isa::Instruction;
use crate::program::exec::Machine;
use crate::program::Stmt;

/// Whether the conversion at body index `at` converts (its source operand) a register a
/// [`folded_shuffle`] wrote: a constant ptxas knows only once the shuffle folds.
pub(super) fn converts_a_folded_shuffle(m: &Machine<'_>, at: usize) -> bool {
    match &m.p.body[at] {
        Stmt::Isa(Instruction { operands, .. }) => {
            operands.get(1).and_then(|x| m.reg_of(x).ok()).is_some_and(|r| folded_shuffle(m, at, r))
        }
        _ => false,
    }
}

/// Whether operand `c` of the statement being run is a register a [`folded_shuffle`] wrote
/// (any value: it reaches the `F2IP` as a register, not `RZ`).
pub(super) fn shuffled_c(m: &Machine<'_>, c: &Operand) -> bool {
    m.reg_of(c).is_ok_and(|r| folded_shuffle(m, m.stmt, r))
}
