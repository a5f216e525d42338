//! 3702-N2 (a `lop3` merged into the operation that reads it) where every input of the `lop3`
//! is one constant ptxas folds (seed 4502's d288306a, corpus/findings/fuzz-h200-4502/trace/
//! T16t4.md, variants `trace/d288306a/` and `trace/d288306a/s46/`; helper x1, session 46).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 and -O0 right): `r0 = mov K; l = lop3(r0, r0,
//! r0, L); OP(r0, l)`. Constant propagation first writes the `lop3`'s `b` and OP's operand as the
//! immediate K, keeping `a` and `c` in the register (13.5's `LOP3.LUT R0, R0, K, R0, 0x98`), so
//! the merge sees `lop3(x, y, x)`, 37cc5597's form (`lop3_merged_by_its_b_or_c.rs`), and reads `c` as 0:
//! d = K OP L(K, K, 0) (`LOP3.LUT R5, R0, 0x3f800000, RZ, 0x54` for 0x98 under `xor`: K where
//! §9.7.8.6 gives 0). As a [`Lop3Chain`](super::fuzz3702::Lop3Chain) that is the `b` kept (K) and
//! the `c` bound to x (0 with no outer xor): `FreedInput::C(a)`, where a loaded `a` is
//! `FreedInput::B(0)` (ec047aa1, `v1_loaded`, `v3_loaded_lut30`: a OP L(a, 0, 0)).
//! Evidence (13.0.88 -O3): the case (0x98/xor), `v2_lut65`, `v10_lut96`, `v7_small_imm`, `v4_and`
//! (0x30: 0, the spec's), `v5_or`, `v8_swapped`, `v11_movu32` (a copy of the move), `s46/
//! s2_glue_constant` (K an `add` of a moved constant: folded alike), `s46/s3_and_lut30_moved`;
//! an outer xor `x ^ (K ^ lop3(K, K, K, 0x98))` is `LOP3.LUT R7, x, K, K, 0xfe` = x ^ (K OP
//! L(K, K, x)) (`s46/s1_outer_xor_loaded_x`), the same binding; a second reader of `l` does not
//! keep two LOP3s (`v9_two_readers`, `s46/s4_two_readers_moved`: merged `0x54` for OP and a
//! second LOP3 for the store), unlike a loaded `a`.
//! What stays out: a constant known only through a shuffle (not compiled), a loaded `a` (the
//! `B(0)` binding), `lop3`s whose inputs are not all one value.
//!
//! Invariants: a condition on the program's statements only (ptxas's folded constants,
//! [`ptxas_constant`], and the value numbering of [`same_value`]); it decides a binding and
//! computes no word.

use super::lop3_merged_through_b64_packs::same_value;
use super::origin::{ptxas_constant, PtxasConstant};
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};

/// Whether `lop` (a `lop3` at body index `k`) reads one constant ptxas folds in all three inputs:
/// its `a` a [`PtxasConstant::Folded`] register where the `lop3` reads it, its `b` and `c` that
/// value ([`same_value`]).
pub(super) fn lop3_of_one_folded_constant(m: &Machine<'_>, lop: &Glue, k: usize) -> bool {
    let Some(a) = reg_of_glue(lop, 0) else { return false };
    let repeats = |j: usize| reg_of_glue(lop, j).is_some_and(|r| same_value(m, (k, r), (k, a)));
    lop.op == GlueOp::Lop3 && repeats(1) && repeats(2) && ptxas_constant(m, k, a) == Some(PtxasConstant::Folded)
}
