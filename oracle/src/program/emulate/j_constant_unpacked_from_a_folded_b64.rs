//! J's "narrowed" rule (corpus/known/fuzz-h100-j-branch-constant-splat.toml,
//! [`Deviation::AddU16x2OfConstantsNarrowedDropsOne`](crate::semantics::Deviation)) where a
//! constant addend is a word of a 64-bit constant unpacked by `mov.b64 {lo, hi}, d`.
//!
//! Role: one more condition of [`j_packed_constant`](super::j_packed_constant)'s
//! `narrowed_half_read_at` that says when an addend counts as a constant ptxas folds into the
//! narrowed `VIADD.16x2` ([`folded_unpack`]); the rule itself (a zero constant kept as `RZ`,
//! the other dropped; else the second kept) stays there.
//!
//! Mechanism (corpus/findings/fuzz-h200-4802/, 8a55bf3e, trace/T19v3.md, variants in
//! trace/8a55bf3e/ and trace/8a55bf3e/s48/; ptxas 13.0.88 -O3 and the JIT, 13.5 right): a word
//! of an unpacked 64-bit constant is the constant's bits (§9.7.9.4 `mov` unpack), known to ptxas:
//! `mov.s64 d0, 0x9e8d1511_299a5f91; mov.b64 {r0, r1}, d0; add.s16x2 r3, r0, r2(=0)` read as
//! its high half is `VIADD.16x2 R0, RZ, 0x0` (0, the spec 0x299a), the identical listing to
//! the moved b32 `v1_mov_b32_constant`. Alike: the high word r1 (`w4_high_word_of_unpack`, 0
//! where the spec gives 0x9e8d), the unpacked word second (`w4_unpacked_second`), the low
//! half read (`w4_low_half_read`), the 64-bit constant itself folded (`add.s64` of the moved
//! one, `w4_unpack_of_folded_add`), and both addends nonzero (`w4_both_nonzero`, r2 =
//! 0x00030005: `HFMA2.MMA R0 = 3; VIADD.16x2 R0, R0, 0x0`, the unpacked word dropped, 3
//! where the spec gives 0x299d).
//!
//! What stays out: an unpack of a loaded 64-bit word (`w4_unpack_of_loaded_right`:
//! `VIADD.16x2 R0, R2, RZ`, the loaded half kept — J's one-constant case, the spec's value),
//! the sum read whole (`v3_sum_read_whole_right`: `VIADD.16x2 R5, RZ, 0x299a5f91`, J reads one
//! half only), a guarded unpack or one that does not reach the add on every path.

use super::fuzz3602::writes;
use super::fuzz3701::{folded_constant, reaches_on_every_path};
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether 32-bit register `r`, read at body index `before`, was last written (on every path)
/// by an unguarded `mov.b64 {lo, hi}, d` of a 64-bit register d holding a [`folded_constant`]
/// (at most `depth` producers deep).
pub(super) fn folded_unpack(m: &Machine<'_>, before: usize, r: Reg, depth: u32) -> bool {
    let body = &m.p.body;
    let Some((k, s)) = body[..before.min(body.len())].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else {
        return false;
    };
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else {
        return false;
    };
    let Some(d) = operands.get(1).filter(|_| mv.shape == MovShape::Unpack(2)).and_then(|o| m.reg_of(o).ok()) else {
        return false;
    };
    let element = matches!(operands.first(), Some(Operand::Vector(_)));
    element
        && r.class().bits() == 32
        && d.class().bits() == 64
        && depth > 0
        && reaches_on_every_path(m, k, before)
        && folded_constant(m, k, d, depth - 1)
}
