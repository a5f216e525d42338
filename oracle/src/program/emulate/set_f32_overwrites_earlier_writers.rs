//! B's rebuilt `set.f32` amount across a boundary ([`super::b_set_f32_rebuilt_at_its_shifts`]) where another,
//! earlier statement also writes the amount register: seed 4402's 63707241
//! (corpus/findings/fuzz-h200-4402/trace/T15t2.md, trace/63707241/; variants in
//! trace/63707241/s45/).
//!
//! The mechanism the listings show (ptxas 13.0.88 and 13.5 -O3): what decides is the writer that
//! reaches the shift, not the number of writers in the program. A write of the amount register
//! before the unguarded `set.<cmp>.f32` (an element of `ld.global.v4.f32`, a scalar `ld`, a `mov`
//! of an immediate; also a label and branch before the set) is overwritten by it, and the
//! listing is z1's (`SEL R7, RZ, 0x1, !P0; SHF.R.S64 … R7`), as without it. Right (the raw
//! `FSEL R9, RZ, 1, !P0` shifted by its bits): a branch that skips the set to a label before the
//! shift, so the earlier write reaches the shift too; a guarded set (z1's "two writers").
//!
//! Invariants: [`overwrites_every_other_writer`] is false unless every other writer lies before
//! the set and no label between the set and the shift lets a path skip the set.

use super::fuzz3602::writes;
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether the set at body index `k` is the only writer of `r` that reaches the shift being
/// run (`m.stmt`): every other statement writing `r` comes before `k`, and no label lies
/// between `k` and the shift (the body's only entries into that range past `k`).
pub(super) fn overwrites_every_other_writer(m: &Machine<'_>, r: Reg, k: usize) -> bool {
    let Some(between) = m.p.body.get(k + 1..m.stmt) else { return false };
    let entered_past_the_set = between.iter().any(|s| matches!(s, Stmt::Label(_)));
    let others_before = m.p.body.iter().enumerate().all(|(i, s)| i <= k || !writes(s, r));
    !entered_past_the_set && others_before
}
