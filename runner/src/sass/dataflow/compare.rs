//! Comparisons whose compared values are defined only under a guard: the predicates they write
//! are defined under that guard, and what reads them decides whether that is a finding.
//!
//! ptxas if-converts a diamond into unguarded comparisons of values one arm wrote and selects
//! under that arm's guard (corpus/findings/fuzz-h200-3801/trace/T4A.md, ae81f097; ptxas 13.0.88
//! and 13.5 -O3): `@!UP0 UIADD3 UR5, …; UISETP.LT.U32.AND UP1, UPT, UR5, 0x20, UPT; @!UP0 USEL
//! UR4, UR5, 0x20, !UP1`. The comparison reads UR5 where UP0 holds too, but its result is used
//! only where UP0 does not: no value that depends on the never-written bits is used. So a
//! comparison (`ISETP`, `UISETP`, `FSETP`, … with two predicate destinations) whose register
//! sources are defined under some guard the state knows, though not everywhere, is no finding
//! itself ([`deferred`]); its predicates are defined where that guard holds and undefined
//! elsewhere ([`defs`]), and a read of them outside the guard is flagged where it happens. A
//! comparison whose sources are defined under no guard is flagged as before (and its result
//! counts as defined: one finding, not a cascade).

use super::{compare_join, operand_ctx, slot, whole, Ctx, Def, Instr, State};

/// Whether every register source `ins` compares is defined wherever `ctx` holds (its predicate
/// sources are read as guards are, not here).
fn sources_defined(s: &State, ins: &Instr, ctx: &[super::Guard]) -> bool {
    let first = ins.ndest.min(ins.operands.len());
    ins.operands.iter().enumerate().skip(first).all(|(k, o)| {
        let Some(c) = operand_ctx(ins, k, ctx) else { return true };
        o.regs.iter().filter(|r| slot(**r).1 == 32).all(|&r| s.known(r, &c) == whole(r))
    })
}

/// Whether `ins` is a comparison whose register sources are not defined where its own guard
/// holds but are where one more guard the state knows of them holds too.
pub(super) fn deferred(s: &State, ins: &Instr) -> bool {
    let writes_predicates_only = ins.ndest == 2 && ins.defs.iter().all(|d| slot(*d).1 == 1);
    if compare_join(ins).is_none() || !writes_predicates_only {
        return false;
    }
    let base: Ctx = ins.guard.into_iter().collect();
    if sources_defined(s, ins, &base) {
        return false;
    }
    let first = ins.ndest.min(ins.operands.len());
    let guards = ins.operands[first..].iter().flat_map(|o| &o.regs).flat_map(|&r| s.entries(r).iter().map(|e| e.1));
    guards.into_iter().any(|h| sources_defined(s, ins, &base.iter().copied().chain([h]).collect::<Ctx>()))
}

/// The predicates a [`deferred`] comparison writes, defined where `ctx` (its guard among it)
/// makes its sources defined.
pub(super) fn defs(s: &State, ins: &Instr, ctx: &[super::Guard]) -> Vec<Def> {
    let defined = sources_defined(s, ins, ctx);
    ins.defs.iter().map(|&d| (d, if defined { whole(d) } else { 0 })).collect()
}
