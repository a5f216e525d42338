//! 3702-N3's one-armed `if` written as a branch around a branch: `@p bra A; bra B; A: arm; B:`.
//!
//! Role: the head of the one-armed `if` that [`merged_at_join`](super::fuzz3702) accepts besides
//! `@p bra L; arm; L:`. The guarded branch jumps to the arm, the unconditional branch right after
//! it jumps over the arm to the join, so the arm runs under the guard where the plain form runs
//! it under the inverted guard; the arm and its join are the same.
//!
//! Mechanism (seed 4501, 038a8b84, corpus/findings/fuzz-h200-4501/trace/T16t1.md; variants and
//! 13.0.88 -O3 listings in trace/038a8b84/s45/): ptxas 13.0.88 -O3 makes the branch around a
//! branch the one-armed `if` it is and merges the join of 1.0f and −1 as in the plain form
//! (`HFMA2.MMA R7, -RZ, RZ, 1.875, 0; STG [+0xc], R7`, no compare), for either guard polarity
//! (`w1_guard_not_inverted`) and either order of the two constants (`w2_swapped_old_m1_arm_1f`:
//! `MOV R7, 0xffffffff; STG`), the arm a `set` of constants too (`w6_arm_set`).
//!
//! What stays out (right in 13.0.88 -O3, or not shown): another pair (`r3_pair_5_7`, `@P0 MOV R7,
//! 0x7`), an if/else (`r4_two_armed_if`: a write before `bra B`, `SEL R7, R0, 0xffffffff, !P0`),
//! the register read in the arm (`r5_read_in_arm`); the unconditional branch jumping past a later
//! label (`x7_bra_past_join`, wrong in 13.0.88 but another join: not accepted here).
//!
//! Invariant: the three statements must be adjacent, exactly in this order, and the two targets
//! distinct; anything else is no head (`None`).

use crate::program::Stmt;

/// For the label at body index `at` (the nearest label or branch before an arm): where the arm
/// is entered by `@p bra A; bra B; A:` (`A` the label at `at`, `B` another label), the body index
/// of the guarded branch and the join label `B`.
pub(super) fn branch_around_a_branch(body: &[Stmt], at: usize) -> Option<(usize, u32)> {
    let head = at.checked_sub(2)?;
    match body.get(head..=at)? {
        [Stmt::Bra { guard: Some(_), label: a }, Stmt::Bra { guard: None, label: b }, Stmt::Label(l)]
            if a == l && b != l =>
        {
            Some((head, *b))
        }
        _ => None,
    }
}
