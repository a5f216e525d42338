//! Which registers hold values derived from a flagged read's undefined bits: a forward walk from
//! every instruction the SASS check flags ([`super::super::Unwritten`], any role) over the
//! kernel's control-flow graph ([`super::super::dataflow::edges`]), so that a store of such a
//! value maps its bytes although the check does not flag it (it counts a flagged instruction's
//! result as defined: one finding, not a cascade).
//!
//! Seed 4101's 1e6e819c: `PRMT R0, R7, 0x7632, R0` leaves R0's upper half never written,
//! `LOP3.LUT P0, RZ, R0, R7, RZ, 0x3c` tests it, the check flags `@P0 LOP3.LUT R0, RZ, R0, RZ,
//! 0x33` (role `guard`), and `STG.E.U8 [R4.64], R0` stores the byte that the undefined
//! predicate chose.
//!
//! Per register, not per bit: a flagged instruction's destinations (general, uniform, predicate,
//! uniform predicate) are derived from it; so is every destination of an instruction that reads
//! a derived register, as a source or as its guard (a derived register carries the flagged reads
//! it comes from, so that a word joins the finding of the read its value comes from). An
//! unguarded instruction that reads no derived register makes its destinations clean; a guarded
//! one leaves them as they were (where its guard fails they keep their old value). At a join a
//! register is derived if it is on some path (a may-analysis: the sets only grow, so the walk
//! ends). A call to a function outside the listing leaves every register clean, like the check.
//!
//! Not followed, so that what they reach maps nothing (the conservative direction: a word not
//! mapped stays a compiler finding and shows): control dependence — a branch or `EXIT` under a
//! derived predicate decides which later instructions run, but registers written in its arms
//! and stores after it are not marked (a derived guard on the instruction itself is followed;
//! ptxas if-converts short arms into such guards) — and memory: a derived value stored to shared
//! or local memory and loaded back is clean.

use std::collections::{BTreeMap, BTreeSet};

use super::super::dataflow::edges::{return_sites, successors};
use super::super::parse::{Function, Instr, Reg};
use super::super::Unwritten;

/// Per derived register, the flagged reads (indices into the reads given to
/// [`undefined_derived`]) whose undefined bits its value comes from.
pub(super) type Derived = BTreeMap<Reg, BTreeSet<usize>>;

/// What each instruction of `f` reads derived (`None`: no path reaches it, or nothing in `f` is
/// flagged) from the flagged reads `reads` of kernel `f`.
pub(super) fn undefined_derived(f: &Function, reads: &[Unwritten]) -> Vec<Option<Derived>> {
    let n = f.instrs.len();
    let mut states: Vec<Option<Derived>> = vec![None; n];
    let seeds: Vec<Vec<usize>> = f
        .instrs
        .iter()
        .map(|ins| reads.iter().enumerate().filter(|(_, u)| flagged_at(u, f, ins)).map(|(k, _)| k).collect())
        .collect();
    if n == 0 || seeds.iter().all(Vec::is_empty) {
        return states;
    }
    let sites = return_sites(f);
    states[0] = Some(Derived::new());
    let mut work: BTreeSet<usize> = BTreeSet::from([0]);
    while let Some(i) = work.pop_first() {
        let Some(before) = &states[i] else { continue };
        let after = transfer(&f.instrs[i], &seeds[i], before);
        let (succ, havoc) = successors(f, i, &sites);
        for s in succ {
            let incoming = if havoc { Derived::new() } else { after.clone() };
            let joined = match &states[s] {
                None => incoming,
                Some(old) => union(old, &incoming),
            };
            if states[s].as_ref() != Some(&joined) {
                states[s] = Some(joined);
                work.insert(s);
            }
        }
    }
    states
}

/// Whether `u` flags instruction `ins` of kernel `f`.
fn flagged_at(u: &Unwritten, f: &Function, ins: &Instr) -> bool {
    u.kernel == f.name && u.offset == ins.offset
}

/// The flagged reads a register derives from, registers at a time: the union of theirs in `d`.
pub(super) fn derived_from<'a>(d: &Derived, regs: impl IntoIterator<Item = &'a Reg>) -> BTreeSet<usize> {
    regs.into_iter().filter_map(|r| d.get(r)).flatten().copied().collect()
}

/// `before` after `ins`, which is flagged by the reads `seeds`.
fn transfer(ins: &Instr, seeds: &[usize], before: &Derived) -> Derived {
    let mut from = derived_from(before, &ins.uses);
    from.extend(seeds.iter().copied());
    let mut after = before.clone();
    for d in &ins.defs {
        match (from.is_empty(), ins.guard.is_some()) {
            (true, true) => {}
            (true, false) => {
                after.remove(d);
            }
            (false, true) => after.entry(*d).or_default().extend(from.iter().copied()),
            (false, false) => {
                after.insert(*d, from.clone());
            }
        }
    }
    after
}

/// The join of two states: a register is derived where it is on either path.
fn union(a: &Derived, b: &Derived) -> Derived {
    let mut out = a.clone();
    for (r, from) in b {
        out.entry(*r).or_default().extend(from.iter().copied());
    }
    out
}
