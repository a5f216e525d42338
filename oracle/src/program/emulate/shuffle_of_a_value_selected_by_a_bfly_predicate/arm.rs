//! 3702-N7's dropped shuffle (`shuffle-of-bfly-predicate-choice-dropped`,
//! corpus/known/fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped.toml) with the choice
//! written as a one-armed `if` on the bfly's predicate in place of a guard (session 62, helper md;
//! seed 6201's b7f77768, corpus/findings/fuzz-h200-6201/trace/T62D.md, variants in
//! trace/b7f77768/s62/): `shfl.sync.bfly.b32 r0|p0, r0(= 2), 25, r0, -1; @!p0 bra L; mov.b32 r0, 0;
//! L: …; shfl.sync.idx.b32 r9, r0, r13(= 0), r9, -1` is 13.0.88 = 13.5 -O3 `SHFL.BFLY P0, R0, R6,
//! 0x19, 0x2; @P0 PRMT R0, RZ, 0x7610, R0` (the arm if-converted under the predicate, as the guarded
//! form `@p0 mov` is, `v1_guarded_mov`) and no `SHFL.IDX`: lanes 24, 25 and 27 keep their own 0
//! where §9.7.9.6 reads lane 0's 2.
//!
//! Dropped alike: `@p0 bra` (`v2_bra_on_p0`), an arm of two statements (`v7_arm_two_stmts`), an arm
//! `add` of the bfly's result (`v8_arm_add_of_result`), an arm that also loads another register
//! (`v12_arm_also_other_write`), the later shuffle's `b`, `c` immediates (`v13_second_idx_imm`), the
//! head a branch around a branch (`v14_branch_around_a_branch`), the bfly's `c` an immediate 0 in
//! this loading body (`v10_bfly_clamp_imm0`, `clamp.rs`). Kept (right): the arm loads the value
//! (`v3_arm_loaded`) or moves %tid.x (`v4_arm_mov_tid`), the bfly shuffles a loaded word
//! (`v5_bfly_src_loaded`), the branch is on a `setp` of %tid.x (`v6_branch_on_setp_tid`), the first
//! shuffle is `.up` (`v11_first_up`). Left out (wrong in 13.0.88, not taken here): an if/else whose
//! two arms write the register (`v9_if_else`: `@P0 PRMT …; @!P0 PRMT …`, no `SHFL.IDX`).
//!
//! Invariants: a pure question about the body; the arm is the fall-through of `@p bra L` (or of a
//! branch around a branch), holds no label or branch, and ends at `L` before the shuffle; the
//! value the arm leaves and the value the register holds at the head are both values ptxas takes
//! as uniform ([`uniform`]).

use super::super::one_armed_if_by_branch_around_a_branch::branch_around_a_branch;
use super::uniform_choice::{uniform, DEPTH};
use crate::program::exec::Machine;
use crate::program::{Reg, RegClass, Stmt};

/// The predicate of the branch heading the one-armed `if` whose arm holds the statement at body
/// index `j`, the last writer of register `a` before the shuffle being run: where the arm ends
/// before that shuffle and both `a`'s value after `j` and its value at the head are uniform to
/// ptxas, the arm chooses between them by that predicate as a guarded write would.
pub(super) fn chosen_by(m: &Machine<'_>, j: usize, a: Reg) -> Option<Reg> {
    let body = &m.p.body;
    let flow = |s: &Stmt| matches!(s, Stmt::Label(_) | Stmt::Bra { .. });
    let b = body.get(..j)?.iter().rposition(flow)?;
    // The head: `@p bra L;` right before the arm, or a branch around a branch.
    let (head, join) = match body[b] {
        Stmt::Bra { guard: Some(_), label } => (b, label),
        _ => branch_around_a_branch(body, b)?,
    };
    let Stmt::Bra { guard: Some(g), .. } = body[head] else { return None };
    let end = j + 1 + body.get(j + 1..)?.iter().position(flow)?;
    if body[end] != Stmt::Label(join) || end >= m.stmt {
        return None;
    }
    (uniform(m, j + 1, a, DEPTH) && uniform(m, head, a, DEPTH)).then_some(Reg::Virt(RegClass::Pred, g.pred))
}
