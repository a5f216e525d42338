//! Comparisons computed again: ptxas recomputes a guard's predicate instead of keeping it live
//! (`ISETP.GT.AND P0, PT, R11, 0x2a, PT; @!P0 LDG.E R9, …; SHFL.BFLY P0, R4, …; ISETP.GT.AND
//! P0, PT, R11, 0x2a, PT; @!P0 ISETP.EQ.AND P6, PT, R8, R9, PT` with R11 = tid never written
//! again: the second comparison gives P0 its old value back, and `@!P0` reads R9 only where the
//! load wrote it; ptxas 13.0.88 and 13.5 -O3, corpus/findings/fuzz-h200-4003/trace/T7G.md,
//! finding 2c543d4e).
//!
//! A comparison (`ISETP`, `FSETP`, `UISETP`, … with two predicate destinations) run without a
//! guard computes, lane by lane, a function of the registers it reads: the same instruction
//! again (the same mnemonic and modifiers, the same source operands as printed — registers,
//! immediates, constant-bank operands, the predicate it is combined with) on the same register
//! values writes the same predicates. The walk keeps, per such comparison and destination (a
//! [`Record`]), the predicates that hold its value now ([`Record::holders`]) and the bits that
//! were defined under a holder's literal when the holder was written again ([`Record::kept`];
//! `(R9, !P0)` when the `SHFL` writes P0). When the comparison runs again, what was kept is
//! defined under the literal of its new destination, and its new destination is equivalent to
//! the holders it still has (a [`Relations`](super::Relations) fact each way).
//!
//! What "the same register values" means, exactly: any write to a source register ends the
//! record (a partial write, a guarded one, a write of one register of a pair — every register
//! in [`Instr::defs`]); any write to a register forgets what was kept of it (conservatively:
//! even a write under a guard, which leaves the other lanes as they were); a comparison that
//! reads a predicate it writes (`ISETP.NE.AND P0, PT, R0, RZ, P0`) is not recorded, and
//! [`super::rehome`] handles it as a refinement. At a join a record stays only where both paths
//! have it, with the holders both have and the bits both keep ([`meet`]) — a record says what
//! holds of the current register values on each path, so two paths that computed it from
//! different values agree all the same.

use std::sync::Arc;

use super::{compare_join, Bits, Mask, State};
use crate::sass::parse::{Guard, Instr, Reg};

/// The comparisons whose source registers nothing wrote since they ran, sorted by
/// `(key, dest)` (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Recomputes(Vec<Record>);

/// One destination of one comparison, with its sources unwritten since it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    /// The comparison: its mnemonic and source operands as printed (without `.reuse`).
    key: Arc<str>,
    /// Which of its two predicate destinations (0 or 1).
    dest: usize,
    /// The registers it reads (predicates among them); a write to any ends the record.
    sources: Vec<Reg>,
    /// The predicates that hold its value now (sorted).
    holders: Vec<Reg>,
    /// `(r, negated, bits)`: bits of `r` defined wherever the comparison's value holds (or,
    /// `negated`, does not), kept from holders written since (sorted by `(r, negated)`).
    kept: Vec<(Reg, bool, Mask)>,
}

impl Record {
    /// Whether it still tells something: a holder whose guards it will keep, or kept bits.
    fn useful(&self) -> bool {
        !self.holders.is_empty() || !self.kept.is_empty()
    }
}

/// The key and the sources of `ins` if it is a comparison whose result a recompute can give
/// back: unguarded, with two predicate destinations (a `VOTEU` reads the other lanes and is
/// none), reading none of the predicates it writes.
fn comparison(ins: &Instr) -> Option<(Arc<str>, Vec<Reg>)> {
    if ins.guard.is_some() || ins.ndest != 2 || compare_join(ins).is_none() {
        return None;
    }
    let srcs = &ins.operands[2..];
    let mut sources: Vec<Reg> = srcs.iter().flat_map(|o| o.regs.iter().chain(&o.inner)).copied().collect();
    sources.sort_unstable();
    sources.dedup();
    if sources.iter().any(|r| ins.defs.contains(r)) {
        return None;
    }
    let texts: Vec<&str> = srcs.iter().map(|o| o.text.trim().trim_end_matches(".reuse")).collect();
    Some((format!("{} {}", ins.mnemonic, texts.join(", ")).into(), sources))
}

/// Adds `bits` of `r` to `kept` under `negated`.
fn keep(kept: &mut Vec<(Reg, bool, Mask)>, r: Reg, negated: bool, bits: Mask) {
    match kept.binary_search_by(|e| (e.0, e.1).cmp(&(r, negated))) {
        Ok(at) => kept[at].2 |= bits,
        Err(at) => kept.insert(at, (r, negated, bits)),
    }
}

/// Adds `bits` of `r` defined under `g` to `s`'s [`State::cond`] (beyond what is defined
/// everywhere).
fn attach(s: &mut State, r: Reg, g: Guard, bits: Mask) {
    let bits = bits & !s.defined.get(r);
    if bits == 0 {
        return;
    }
    let at = s.cond.partition_point(|e| (e.0, e.1) < (r, g));
    match s.cond.get_mut(at) {
        Some(e) if (e.0, e.1) == (r, g) => e.2 |= bits,
        _ => s.cond.insert(at, (r, g, bits)),
    }
}

/// The bits of `s.cond` under a literal of one of `holders`, as `(r, negated, bits)`.
fn under(s: &State, holders: &[Reg]) -> Vec<(Reg, bool, Mask)> {
    let mut out = Vec::new();
    for &(r, g, m) in s.cond.iter().filter(|e| holders.contains(&e.1.pred)) {
        keep(&mut out, r, g.negated, m);
    }
    out
}

/// What `ins` does to the records, from the state `s` before it into `next` (the state after
/// it, [`super::rehome`] done): a write ends the records of its sources and moves what was
/// defined under a holder it overwrites to the kept bits; a comparison that runs again defines
/// the kept bits under its destination's literal and makes it equivalent to the other holders.
pub(super) fn step(s: &State, ins: &Instr, next: &mut State) {
    let cmp = comparison(ins);
    if s.recomputes.0.is_empty() && cmp.is_none() {
        return;
    }
    let defs = &ins.defs;
    let mut records = s.recomputes.0.clone();
    records.retain(|rec| !rec.sources.iter().any(|r| defs.contains(r)));
    for rec in &mut records {
        let overwritten: Vec<Reg> = rec.holders.iter().copied().filter(|p| defs.contains(p)).collect();
        if !overwritten.is_empty() {
            rec.holders.retain(|p| !overwritten.contains(p));
            for (r, negated, m) in under(s, &overwritten) {
                keep(&mut rec.kept, r, negated, m);
            }
        }
        rec.kept.retain(|e| !defs.contains(&e.0));
    }
    records.retain(Record::useful);
    if let Some((key, sources)) = cmp {
        for dest in 0..2 {
            let Some(p) = ins.operands[dest].as_guard().filter(|g| !g.negated).map(|g| g.pred) else { continue };
            let at = match records.binary_search_by(|rec| (&*rec.key, rec.dest).cmp(&(&*key, dest))) {
                Ok(at) => at,
                Err(at) => {
                    let fresh = Record {
                        key: key.clone(),
                        dest,
                        sources: sources.clone(),
                        holders: Vec::new(),
                        kept: Vec::new(),
                    };
                    records.insert(at, fresh);
                    at
                }
            };
            let rec = &mut records[at];
            let lit = Guard { pred: p, negated: false };
            for &(r, negated, m) in &rec.kept {
                attach(next, r, if negated { lit.complement() } else { lit }, m);
            }
            for &q in &rec.holders {
                let old = Guard { pred: q, negated: false };
                next.rel.add(lit, old);
                next.rel.add(old, lit);
            }
            if let Err(i) = rec.holders.binary_search(&p) {
                rec.holders.insert(i, p);
            }
        }
    }
    next.recomputes = Recomputes(records);
}

/// The records where the paths of `a` and `b` join (`defined`: what is defined everywhere
/// there): those both have, with the holders both have; the bits kept are those both paths
/// define under the comparison's value — kept, under a holder the other path lacks, or
/// everywhere — beyond `defined`.
pub(super) fn meet(a: &State, b: &State, defined: &Bits) -> Recomputes {
    let mut out = Vec::new();
    for ra in &a.recomputes.0 {
        let Ok(at) = b.recomputes.0.binary_search_by(|rb| (&*rb.key, rb.dest).cmp(&(&*ra.key, ra.dest))) else {
            continue;
        };
        let rb = &b.recomputes.0[at];
        let holders: Vec<Reg> = ra.holders.iter().copied().filter(|p| rb.holders.contains(p)).collect();
        // What one path defines under the value, beyond the holders both keep.
        let view = |s: &State, rec: &Record| {
            let lost: Vec<Reg> = rec.holders.iter().copied().filter(|p| !holders.contains(p)).collect();
            let mut v = rec.kept.clone();
            for (r, negated, m) in under(s, &lost) {
                keep(&mut v, r, negated, m);
            }
            v
        };
        let (va, vb) = (view(a, ra), view(b, rb));
        let mut keys: Vec<(Reg, bool)> = va.iter().chain(&vb).map(|e| (e.0, e.1)).collect();
        keys.sort_unstable();
        keys.dedup();
        let known = |s: &State, v: &[(Reg, bool, Mask)], r: Reg, negated: bool| {
            let kept = v.iter().filter(|e| (e.0, e.1) == (r, negated)).fold(0, |m, e| m | e.2);
            kept | s.defined.get(r)
        };
        let kept: Vec<(Reg, bool, Mask)> = keys
            .into_iter()
            .map(|(r, n)| (r, n, known(a, &va, r, n) & known(b, &vb, r, n) & !defined.get(r)))
            .filter(|e| e.2 != 0)
            .collect();
        let rec = Record { key: ra.key.clone(), dest: ra.dest, sources: ra.sources.clone(), holders, kept };
        if rec.useful() {
            out.push(rec);
        }
    }
    Recomputes(out)
}
