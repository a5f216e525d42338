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
//! Seed 6201's f08e3d72 (corpus/findings/fuzz-h200-6201/trace/T62C.md, variants in
//! trace/f08e3d72/s62/): the earlier value may be READ before the set too. `mov.b32 %r0, 0;
//! setp.gt.u32 %p0, %r0, 0; …; set.lt.f32.s64 %r0; …; @%p0 bra L; shl.b64 %d5, %d5, %r0; L:` beside
//! an `xor.b32` of a `set.eq.u32.u64` mask is 13.0.88 and 13.5 -O3 `SEL R9, RZ, 0x1, !P1; SHF.L.U32
//! R9, R0, R9` (shift by 1, the spec's clamp of 0x3f800000 gives 0): that reader reads the earlier
//! writer's value, not the set's. Wrong alike: a loaded earlier value read by the `setp` (`v02`) or
//! by a store (`v07`; 63707241's `s2`). The reader after the set (`v06`, a `setp.gt.u32` against 0 of
//! the set's word) and a loop carrying the set's value back to the reader (`v08`) are wrong too,
//! but they read the set's value: still refused (z1's every-reader-an-amount rule).
//!
//! Invariants: [`overwrites_every_other_writer`] is false unless every other writer lies before
//! the set and no label between the set and the shift lets a path skip the set;
//! [`reads_an_earlier_value`] is false for a reader at or after the set, or one a branch at or
//! after the set can reach again.

use super::fuzz3602::{label_at, writes};
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

/// Whether the statement at body index `i` reads the amount register before the set at body
/// index `k` wrote it, on every path: `i` lies before `k`, and no branch at or after `k` goes
/// back to a label at or before `i` (no loop carries the set's value to it).
pub(super) fn reads_an_earlier_value(m: &Machine<'_>, i: usize, k: usize) -> bool {
    let back_to_it = |s: &Stmt| matches!(s, Stmt::Bra { label, .. } if label_at(m, *label).is_some_and(|l| l <= i));
    i < k && !m.p.body.iter().skip(k).any(back_to_it)
}
