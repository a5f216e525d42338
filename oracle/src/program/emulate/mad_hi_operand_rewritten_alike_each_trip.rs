//! 3801-N1 (corpus/known/fuzz-h200-3801-n1-mad-hi-chain-loses-links.toml) when the loop of a
//! `mad.hi` chain rewrites x or y every trip with the same value: a `mov.b32 %r4, K` (§9.7.9.1)
//! of one immediate, or a `mov` copy of a register the loop never writes, before the link. The
//! value each link reads is the one the link of the trip before read, ptxas hoists the move and
//! the `IMAD.HI` text repeats, so links are dropped as in
//! [`mad_hi_links_dropped_as_repeats`](super::mad_hi_links_dropped_as_repeats), whose
//! `unchanged_since` ORs this in for x and y (acc stays as strict as it was).
//!
//! Evidence (ptxas 13.0.88 -O3, the listing identical to the move hoisted by hand):
//! fuzz-h200-4801's d41ca4e6 (trace/T19v2.md: `mov r3, K1; mov r4, K2` in a loop of 4, 3
//! `IMAD.HI R5, R9, 0x7242f0b4, R4`), fuzz-h200-4802's 2f12064d (T19v2.md: `mov r12, K` in a
//! loop of 7, 4 links), fuzz-h200-4803's 78ee1655 (T19v5.md: `mov r4, K` in a loop of 4, 3
//! links; `v2_loaded_x_copied_in_loop`, x a copy of a loaded word, 3 links), and the s48/
//! variants under corpus/findings/fuzz-h200-4803/trace/78ee1655/s48/.
//!
//! Out (the spec stands): a move after the link in the loop (the first trip reads the value from
//! before the loop), a guarded move, moves of two different sources, a copy of a register the
//! loop writes (a new value each trip: `s48/v7_copy_of_counter`, all links emitted), and loads
//! in the loop (d41ca4e6's `v3_loaded_y_in_loop` is dropped too, but the oracle does not know
//! that memory is the same each trip).

use super::fuzz3602::writes;
use super::fuzz3701::reaches_on_every_path;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether the loop whose body spans body indices `head..bra` (the running link inside it)
/// writes `r` only by copies of one source the loop keeps (every writer the same unguarded `mov`
/// of an immediate or of a register unwritten in the loop), the first of them before the
/// running link on every path: each trip's link reads the same value.
pub(super) fn rewritten_alike(m: &Machine<'_>, r: Reg, head: usize, bra: usize) -> bool {
    let Some(body) = m.p.body.get(head..bra) else {
        return false;
    };
    let mut writers = body.iter().enumerate().filter(|(_, s)| writes(s, r));
    let Some((first, s)) = writers.next() else {
        return false;
    };
    let kept_source = match s {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            match operands.get(1) {
                Some(Operand::Imm(_)) => true,
                Some(o) => m.reg_of(o).is_ok_and(|src| src != r && !body.iter().any(|x| writes(x, src))),
                None => false,
            }
        }
        _ => false,
    };
    kept_source && writers.all(|(_, x)| x == s) && reaches_on_every_path(m, head + first, m.stmt)
}
