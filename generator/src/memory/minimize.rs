//! The reducer of memory programs ([`MemSource`]): drops statements (halving chunks down to
//! single statements, as delta debugging does, and every statement that mentions one name),
//! threads and read-back buffers — each candidate repaired by dropping the statements that no
//! longer parse, and tidied of the input registers, tensor maps and buffers nothing names any
//! more — while the case still shows what the caller's predicate looks for.
//!
//! Invariant: every candidate the predicate sees — and so the result — builds
//! ([`MemSource::build`]), runs on the oracle without an error, and leaves no write pending at
//! the end in a read-back buffer of the input that the input left settled: a reduced case never becomes an undefined
//! program (an early read, a missing fence, a wait that hangs) nor drops the wait its copies
//! complete through, because such candidates are discarded before the predicate runs. The result
//! is the input itself when nothing smaller qualifies.

use std::collections::BTreeSet;

use oracle::memprog::MemSource;
use oracle::semantics::{Allowance, Allowances};

/// A reduced case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The smallest case found.
    pub source: MemSource,
    /// Predicate calls made.
    pub calls: usize,
    /// Statements before.
    pub before: usize,
    /// Statements after.
    pub after: usize,
}

/// Whether `src` builds, the oracle runs it without a parse, protocol or undefined-behaviour
/// error (or a hang), and every asynchronous operation that writes a read-back buffer has
/// completed by the end (no byte of one is unknown as [`Allowance::Undefined`], the mark of
/// a write still pending when the program ends).
pub fn protocol_correct(src: &MemSource, allow: &Allowances) -> bool {
    settled(src, allow).is_some_and(|clean| src.read.iter().all(|n| clean.contains(n)))
}

/// The buffers of `src` that end with no byte unknown as [`Allowance::Undefined`] (no write
/// pending at the end, not a live mbarrier), or `None` when `src` does not build or run.
fn settled(src: &MemSource, allow: &Allowances) -> Option<BTreeSet<String>> {
    let p = src.build().ok()?;
    let regions = oracle::memprog::interp::run(&p, allow).ok()?;
    Some(
        p.buffers
            .iter()
            .zip(&regions)
            .filter(|(_, r)| !r.allowances().contains(&Allowance::Undefined))
            .map(|(b, _)| b.name.clone())
            .collect(),
    )
}

/// The identifiers a text mentions.
fn names(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}

/// `src` without the input registers, tensor maps and buffers nothing names (statements,
/// the remaining maps, `read`).
fn tidy(mut src: MemSource) -> MemSource {
    let used: BTreeSet<String> = src.statements.iter().flat_map(|s| names(s)).map(str::to_string).collect();
    src.regs.retain(|n, _| used.contains(n));
    src.tensor_maps.retain(|m| used.contains(&m.name));
    let kept: BTreeSet<String> = used
        .iter()
        .cloned()
        .chain(src.tensor_maps.iter().map(|m| m.global.clone()))
        .chain(src.read.iter().cloned())
        .collect();
    src.buffers.retain(|b| kept.contains(&b.name));
    src
}

/// `src` with the statements that no longer parse once others are gone (a read of a register
/// nothing writes any more, a branch to a dropped label) dropped too, one at a time.
fn repair(mut src: MemSource) -> MemSource {
    use oracle::memprog::MemError;
    for _ in 0..src.statements.len() {
        match src.build() {
            Err(e)
                if e.index < src.statements.len()
                    && matches!(e.error, MemError::UnknownName(_) | MemError::Parse(_)) =>
            {
                src.statements.remove(e.index);
            }
            _ => break,
        }
    }
    src
}

/// Reduces `src` while `still` holds, with at most `budget` predicate calls; candidates that
/// do not run on the oracle under `allow`, or leave a write pending in a read-back buffer of
/// `src` where `src` did not, are skipped without a call.
pub fn minimize(
    src: &MemSource,
    allow: &Allowances,
    budget: usize,
    mut still: impl FnMut(&MemSource) -> bool,
) -> Reduced {
    let before = src.statements.len();
    let mut cur = src.clone();
    let mut calls = 0;
    // The read-back buffers the input leaves settled must stay settled while they exist.
    let clean: BTreeSet<String> =
        settled(src, allow).unwrap_or_default().into_iter().filter(|n| src.read.contains(n)).collect();
    let mut attempt = |cand: MemSource, calls: &mut usize| -> Option<MemSource> {
        let cand = tidy(repair(cand));
        if *calls >= budget {
            return None;
        }
        let still_clean = settled(&cand, allow)
            .is_some_and(|c| cand.buffers.iter().all(|b| !clean.contains(&b.name) || c.contains(&b.name)));
        if !still_clean {
            return None;
        }
        *calls += 1;
        still(&cand).then_some(cand)
    };
    loop {
        let mut progress = false;
        for t in [1, 32] {
            if t < cur.threads {
                if let Some(c) = attempt(MemSource { threads: t, ..cur.clone() }, &mut calls) {
                    cur = c;
                    progress = true;
                    break;
                }
            }
        }
        let mut chunk = (cur.statements.len() / 2).max(1);
        loop {
            let mut i = 0;
            while i < cur.statements.len() {
                let mut cand = cur.clone();
                let end = (i + chunk).min(cand.statements.len());
                cand.statements.drain(i..end);
                match attempt(cand, &mut calls) {
                    Some(c) => {
                        cur = c;
                        progress = true;
                    }
                    None => i += chunk,
                }
            }
            if chunk == 1 {
                break;
            }
            chunk /= 2;
        }
        // Everything that mentions one name (a register, a buffer, a label) at once.
        let mentioned: BTreeSet<String> = cur.statements.iter().flat_map(|s| names(s)).map(str::to_string).collect();
        for n in mentioned {
            let mut cand = cur.clone();
            cand.statements.retain(|s| !names(s).any(|w| w == n));
            if cand.statements.len() < cur.statements.len() {
                if let Some(c) = attempt(cand, &mut calls) {
                    cur = c;
                    progress = true;
                }
            }
        }
        for j in (0..cur.read.len()).rev() {
            if cur.read.len() > 1 {
                let mut cand = cur.clone();
                cand.read.remove(j);
                if let Some(c) = attempt(cand, &mut calls) {
                    cur = c;
                    progress = true;
                }
            }
        }
        if !progress || calls >= budget {
            break;
        }
    }
    let after = cur.statements.len();
    Reduced { source: cur, calls, before, after }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{generate_seeded, AsyncConfig};

    /// A planted difference — "the case has this reduction" — is reduced to a small case that
    /// still has it and is still protocol-correct.
    #[test]
    fn a_planted_difference_reduces_to_a_small_protocol_correct_case() {
        let target = "sm_90".parse().expect("a target");
        let allow = Allowances::all();
        let cfg = AsyncConfig { swarm: false, ..AsyncConfig::default() };
        let (seed, src) = (0..200u64)
            .map(|s| (s, generate_seeded(s, &cfg, &target)))
            .find(|(_, p)| p.threads > 1 && p.statements.iter().any(|s| s.starts_with("cp.reduce.async.bulk.global")))
            .expect("a program with a bulk reduction");
        let planted =
            src.statements.iter().find(|s| s.starts_with("cp.reduce.async.bulk.global")).cloned().expect("found");
        let r = minimize(&src, &allow, 2000, |c| c.statements.contains(&planted));
        assert!(r.source.statements.contains(&planted), "seed {seed}");
        assert!(protocol_correct(&r.source, &allow), "seed {seed}: {:?}", r.source.statements);
        assert_eq!(r.source.threads, 1, "{:?}", r.source.statements);
        // The reduction needs only the staging buffer's bulk group around it (and the
        // `createpolicy` of its cache hint, if it has one).
        let most = if planted.contains(".L2::cache_hint") { 5 } else { 4 };
        assert!(r.after <= most && r.after < r.before / 4, "{} → {}: {:#?}", r.before, r.after, r.source.statements);
        let names: Vec<&str> = r.source.buffers.iter().map(|b| b.name.as_str()).collect();
        assert!(names.contains(&"red") && names.contains(&"stage") && names.len() <= 3, "{names:?}");
    }

    /// A planted difference in a tensor load keeps the map, its coordinates and the wait.
    #[test]
    fn a_tensor_load_keeps_its_protocol() {
        let target = "sm_90".parse().expect("a target");
        let allow = Allowances::all();
        let cfg = AsyncConfig { swarm: false, ..AsyncConfig::default() };
        let load = |s: &String| s.starts_with("cp.async.bulk.tensor") && s.contains(".shared::cluster.global.");
        let src = (0..200u64)
            .map(|s| generate_seeded(s, &cfg, &target))
            .find(|p| p.statements.iter().any(load))
            .expect("a program with a tensor load");
        let planted = src.statements.iter().find(|s| load(s)).cloned().expect("found");
        let r = minimize(&src, &allow, 2000, |c| c.statements.contains(&planted));
        assert!(protocol_correct(&r.source, &allow));
        let text = r.source.statements.join("\n");
        assert!(text.contains("mbarrier.init") && text.contains("expect_tx") && text.contains("try_wait"), "{text}");
        assert!(r.source.tensor_maps.iter().any(|m| m.name == "tmap"), "{:?}", r.source.tensor_maps);
        assert!(r.after < r.before, "{text}");
    }

    /// Nothing qualifies: the case comes back as it was.
    #[test]
    fn without_a_smaller_case_the_input_comes_back() {
        let target = "sm_90".parse().expect("a target");
        let src = generate_seeded(7, &AsyncConfig::default(), &target);
        let r = minimize(&src, &Allowances::all(), 100, |_| false);
        assert_eq!(r.source, src);
    }
}
