//! 3702-N3 (`join-of-minus-one-and-one-f32-merged`) widened after seed 5402's 8ad6cef7 (helper
//! x5, session 54; corpus/findings/fuzz-h200-5402/trace/T54S.md, trace/8ad6cef7/ and its
//! `s54/` variants with 13.0.88 and 13.5 -O3 listings): the arm's writes may read, or be, a
//! `mov.b64 {lo, hi}, d` unpack of a 64-bit constant ptxas folds
//! ([`folded_unpack`](super::j_constant_unpacked_from_a_folded_b64::folded_unpack); §9.7.9.4: a
//! word of it is the constant's bits). The stored case: `mov.b64 d0, 0; mov.b32 r3, 1.0f; @p3
//! bra L4; mov.b64 {r1, r3}, d0; set.le.s32.u32 r3, r3, 0; L4: st r3` — 13.0.88 -O3 stores the
//! old 1.0f in every thread (`HFMA2.MMA R7, -RZ, RZ, 1.875, 0; STG`), where the arm gives −1;
//! 13.5 keeps the arm (`@P0 MOV R5, 0xffffffff`). The same 13.0.88 listing for the low word
//! unpacked (`s54/v3_unpack_low_word`), the moved 0 in place of the unpack (`v1`, N3's d82eb12b
//! form), d an `xor.b64` of two moved constants (`s54/x5_w1_unpack_of_xor`) and a nonzero high
//! word (`x5_w2_high_word_1`, `set.le … 1`); right (`@P0 ISETP; @P0 SEL`): d loaded
//! (`v2_unpack_of_loaded`). The caller is `fuzz3702.rs`'s `merged_at_join`.
//!
//! What stays out: a `.b16` unpack into four halves read through a `cvt` (`x5_w3_unpack4_b16`,
//! wrong alike but not needed by a finding), a guarded unpack.
//!
//! Invariants: both are conditions on the program's statements; neither changes a value by
//! itself.

use super::fuzz3701::folded_constant;
use super::j_constant_unpacked_from_a_folded_b64::folded_unpack;
use crate::program::exec::Machine;
use crate::program::glue::Src;
use crate::program::{Reg, Stmt};

/// Whether statement `s` at body index `k` is unguarded glue reading no carry whose every
/// source is an immediate, a [`folded_constant`] or a word of a [`folded_unpack`] (and at least
/// one such word), at most `depth` producers deep.
pub(super) fn glue_of_an_unpacked_constant(m: &Machine<'_>, k: usize, s: &Stmt, depth: u32) -> bool {
    let Stmt::Glue { glue, guard: None } = s else { return false };
    let srcs = || glue.src.iter().take(glue.op.arity());
    let unpacked = |r: Reg| folded_unpack(m, k, r, depth);
    !glue.op.reads_carry()
        && srcs().any(|src| matches!(src, Some(Src::Reg(r)) if unpacked(*r)))
        && srcs().all(|src| match src {
            Some(Src::Imm(_)) => true,
            Some(Src::Reg(r)) => unpacked(*r) || folded_constant(m, k, *r, depth),
            None => false,
        })
}

/// Whether the statement at body index `k` is an unguarded `mov.b64 {lo, hi}, d` of a folded
/// 64-bit constant that writes `r` (an earlier write of the arm, [`folded_unpack`]).
pub(super) fn unpack_of_a_folded_constant(m: &Machine<'_>, k: usize, r: Reg, depth: u32) -> bool {
    folded_unpack(m, k + 1, r, depth)
}
