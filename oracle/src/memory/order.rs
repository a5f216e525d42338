//! [`Order`]: happens-before between the CTAs of a cluster, as the lockstep memory-program
//! interpreter needs it to call a data race undefined (PTX ISA 9.0 §8, the memory consistency
//! model, is not among the spec excerpts; its section numbers are cited from PTX ISA 9.0).
//!
//! Two generic accesses (`ld`, `st`) by threads of *different CTAs* conflict when they
//! overlap and one is a write; unless one happens before the other (causality order, §8.9.5)
//! or both are morally strong (§8.7: strong, each in the other's scope, the same bytes), they
//! are a data race (§8.7.1) and the program is undefined: [`OrderError::Race`]. A morally strong
//! pair that nothing orders is not a race, but the value read depends on timing, which the
//! lockstep interpreter does not decide: [`OrderError::Timing`].
//!
//! Time is the statement index (`step`): the interpreter runs every thread through statement
//! `i` before statement `i + 1`, so an access at step `a` by a thread is before everything the
//! thread does at a later step (program order). What orders threads (§8.9.4 synchronizes-with):
//! - `bar.sync 0` (§9.7.13.1): every thread of the CTA, both ways;
//! - `barrier.cluster.arrive` (release unless `.relaxed`) and `barrier.cluster.wait` (always
//!   acquire) (§9.7.13.3): everything before the arrive of every thread, to everything after
//!   the wait;
//! - `mbarrier.arrive` with release semantics (the default; not `.relaxed`) and the
//!   `test_wait`/`try_wait` with acquire semantics (the default) that observes the completion of
//!   the phase it arrived in (§9.7.13.15.13, §9.7.13.15.16), when each operation's scope holds
//!   the other thread: the same CTA, or both `.cluster`.
//!
//! Each thread's knowledge is a [`Clock`]: a step per CTA below which every access of every
//! thread of that CTA happens before the thread's present (what barriers give), and a step per
//! thread for what one thread released to it (what mbarrier arrivals give). This is an
//! under-approximation of causality order where it matters (no fence, no release sequence, no
//! strong load observing a strong store adds an edge), so a program this module calls race-free
//! is race-free.
//!
//! Invariants: only pairs of accesses by threads of different CTAs are checked (inside a CTA
//! the interpreter keeps its lockstep rules; with one CTA no access is even remembered); a thread's clock only grows; every access is
//! remembered per byte (the last write and the reads since, one per thread) until a later write
//! replaces it.

use std::collections::{BTreeMap, HashMap};

use thiserror::Error;

use super::protocol::Span;

/// What a thread knows to happen before its present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Per CTA: every access of its threads at a step below this happens before.
    floors: Vec<u64>,
    /// Per thread: its accesses at a step below this happen before.
    threads: BTreeMap<u32, u64>,
}

impl Clock {
    fn new(ctas: usize) -> Clock {
        Clock { floors: vec![0; ctas], threads: BTreeMap::new() }
    }

    /// Whether an access at `step` by `thread` (of CTA `cta`) happens before.
    fn covers(&self, cta: usize, thread: u32, step: u64) -> bool {
        step < self.floors[cta] || self.threads.get(&thread).is_some_and(|&s| step < s)
    }

    /// `self ⊔ other`.
    fn join(&mut self, other: &Clock, per_cta: u32) {
        for (a, b) in self.floors.iter_mut().zip(&other.floors) {
            *a = (*a).max(*b);
        }
        for (&t, &s) in &other.threads {
            let e = self.threads.entry(t).or_insert(0);
            *e = (*e).max(s);
        }
        self.prune(per_cta);
    }

    /// Drops the per-thread steps their CTA's floor already covers.
    fn prune(&mut self, per_cta: u32) {
        let floors = &self.floors;
        self.threads.retain(|&t, s| *s > floors[(t / per_cta) as usize]);
    }
}

/// One remembered access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Access {
    thread: u32,
    step: u64,
    /// Strong with a scope holding every thread of the cluster (`.relaxed`/`.acquire`/
    /// `.release` at `.cluster` or wider, or `.volatile`), over exactly `span`.
    strong: Option<Span>,
}

/// The accesses of one byte that a later access must be ordered after.
#[derive(Clone, Debug, Default)]
struct Cell {
    write: Option<Access>,
    reads: Vec<Access>,
}

/// The releases an mbarrier phase collected: per releasing CTA and whether at `.cluster`
/// scope, the join of the releasers' clocks.
type Releases = BTreeMap<(usize, bool), Clock>;

/// A data race, or an unordered pair of strong accesses.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OrderError {
    /// Two conflicting accesses of different CTAs that nothing orders (§8.7.1).
    #[error("{what} of {span} by thread {thread} (CTA {cta}) races with the {other_what} by thread {other} (CTA {other_cta}) at statement {other_step} (PTX ISA 9.0 §8.7.1: a data race); order them by barrier.cluster or mbarrier release/acquire at .cluster scope")]
    Race {
        /// This access: `"a write"` or `"a read"`.
        what: &'static str,
        /// Its bytes.
        span: Span,
        /// Its thread.
        thread: u32,
        /// Its CTA.
        cta: usize,
        /// The earlier access: `"write"` or `"read"`.
        other_what: &'static str,
        /// Its thread.
        other: u32,
        /// Its CTA.
        other_cta: usize,
        /// Its statement.
        other_step: u64,
    },
    /// Two conflicting strong accesses of different CTAs that nothing orders: not a race
    /// (§8.7), but which value is read depends on timing.
    #[error("{span}: strong accesses by thread {thread} (CTA {cta}) and thread {other} (CTA {other_cta}, statement {other_step}) that nothing orders (PTX ISA 9.0 §8.7: no race, but the value depends on timing, which the lockstep model does not decide)")]
    Timing {
        /// The bytes.
        span: Span,
        /// This access's thread.
        thread: u32,
        /// Its CTA.
        cta: usize,
        /// The earlier access's thread.
        other: u32,
        /// Its CTA.
        other_cta: usize,
        /// Its statement.
        other_step: u64,
    },
}

/// Happens-before between the threads of a cluster and the accesses it orders.
#[derive(Clone, Debug)]
pub struct Order {
    per_cta: u32,
    clocks: Vec<Clock>,
    cells: HashMap<(usize, u64), Cell>,
    /// The clock `barrier.cluster.arrive` released (none after a `.relaxed` arrive).
    cluster_release: Option<Clock>,
    /// Per mbarrier object and phase: the releases of the arrivals in that phase.
    releases: BTreeMap<(Span, u64), Releases>,
}

impl Order {
    /// `ctas` CTAs of `per_cta` threads each, nothing ordered yet.
    pub fn new(ctas: u32, per_cta: u32) -> Order {
        let per_cta = per_cta.max(1);
        Order {
            per_cta,
            clocks: vec![Clock::new(ctas.max(1) as usize); (ctas.max(1) * per_cta) as usize],
            cells: HashMap::new(),
            cluster_release: None,
            releases: BTreeMap::new(),
        }
    }

    fn cta(&self, thread: u32) -> usize {
        (thread / self.per_cta) as usize
    }

    /// Whether the access `a` happens before `thread`'s present.
    fn before(&self, a: &Access, thread: u32) -> bool {
        a.thread == thread || self.clocks[thread as usize].covers(self.cta(a.thread), a.thread, a.step)
    }

    /// `Err` unless the earlier access `a` is ordered before `thread`'s access of `span`
    /// (only across CTAs).
    fn check(&self, a: &Access, now: &Access, span: Span, writes: bool, a_writes: bool) -> Result<(), OrderError> {
        let (cta, other_cta) = (self.cta(now.thread), self.cta(a.thread));
        if cta == other_cta || self.before(a, now.thread) {
            return Ok(());
        }
        if now.strong.is_some() && now.strong == a.strong {
            return Err(OrderError::Timing {
                span,
                thread: now.thread,
                cta,
                other: a.thread,
                other_cta,
                other_step: a.step,
            });
        }
        Err(OrderError::Race {
            what: if writes { "a write" } else { "a read" },
            span,
            thread: now.thread,
            cta,
            other_what: if a_writes { "write" } else { "read" },
            other: a.thread,
            other_cta,
            other_step: a.step,
        })
    }

    /// Whether there are several CTAs (with one, nothing is checked or remembered).
    fn cluster(&self) -> bool {
        self.clocks.len() > self.per_cta as usize
    }

    /// A generic read of `span` by `thread` at `step`; `strong`: a strong access whose scope
    /// holds the whole cluster.
    pub fn read(&mut self, thread: u32, step: u64, span: Span, strong: bool) -> Result<(), OrderError> {
        if !self.cluster() {
            return Ok(());
        }
        let now = Access { thread, step, strong: strong.then_some(span) };
        for at in span.start..span.start + span.len {
            if let Some(w) = self.cells.get(&(span.region, at)).and_then(|c| c.write) {
                self.check(&w, &now, span, false, true)?;
            }
        }
        for at in span.start..span.start + span.len {
            let cell = self.cells.entry((span.region, at)).or_default();
            match cell.reads.iter_mut().find(|r| r.thread == thread) {
                Some(r) => *r = now,
                None => cell.reads.push(now),
            }
        }
        Ok(())
    }

    /// A generic write of `span` by `thread` at `step` (see [`Order::read`]).
    pub fn write(&mut self, thread: u32, step: u64, span: Span, strong: bool) -> Result<(), OrderError> {
        if !self.cluster() {
            return Ok(());
        }
        let now = Access { thread, step, strong: strong.then_some(span) };
        for at in span.start..span.start + span.len {
            if let Some(c) = self.cells.get(&(span.region, at)) {
                if let Some(w) = &c.write {
                    self.check(w, &now, span, true, true)?;
                }
                for r in &c.reads {
                    self.check(r, &now, span, true, false)?;
                }
            }
        }
        for at in span.start..span.start + span.len {
            self.cells.insert((span.region, at), Cell { write: Some(now), reads: Vec::new() });
        }
        Ok(())
    }

    /// `bar.sync 0` at `step` in every CTA: each CTA's threads learn what any of them knew,
    /// and every access of the CTA before `step`.
    pub fn bar(&mut self, step: u64) {
        let per = self.per_cta as usize;
        for cta in 0..self.clocks.len() / per {
            let mut j = self.clocks[cta * per].clone();
            for c in &self.clocks[cta * per + 1..(cta + 1) * per] {
                j.join(c, self.per_cta);
            }
            j.floors[cta] = j.floors[cta].max(step);
            j.prune(self.per_cta);
            for c in &mut self.clocks[cta * per..(cta + 1) * per] {
                *c = j.clone();
            }
        }
    }

    /// `barrier.cluster.arrive` of every thread at `step`: with release semantics, what every
    /// thread knows and every access before `step`, for the next wait.
    pub fn cluster_arrive(&mut self, step: u64, release: bool) {
        self.cluster_release = release.then(|| {
            let mut j = self.clocks[0].clone();
            for c in &self.clocks[1..] {
                j.join(c, self.per_cta);
            }
            j.floors.iter_mut().for_each(|f| *f = (*f).max(step));
            j.threads.clear();
            j
        });
    }

    /// `barrier.cluster.wait` of every thread (acquire): each learns what the arrive released.
    pub fn cluster_wait(&mut self) {
        if let Some(r) = self.cluster_release.take() {
            for c in &mut self.clocks {
                c.join(&r, self.per_cta);
            }
        }
    }

    /// An `mbarrier.arrive` with release semantics by `thread` at `step` on `bar`, counted in
    /// `phase`; `cluster`: its scope is `.cluster`.
    pub fn release(&mut self, thread: u32, step: u64, bar: Span, phase: u64, cluster: bool) {
        let mut c = self.clocks[thread as usize].clone();
        let e = c.threads.entry(thread).or_insert(0);
        *e = (*e).max(step);
        let key = (self.cta(thread), cluster);
        let per = self.per_cta;
        let releases = self.releases.entry((bar, phase)).or_default();
        match releases.get_mut(&key) {
            Some(j) => j.join(&c, per),
            None => {
                releases.insert(key, c);
            }
        }
    }

    /// A wait with acquire semantics by `thread` that observed the completion of `phase` of
    /// `bar`; `cluster`: its scope is `.cluster`. It learns the releases whose scope and its
    /// own hold each other's thread.
    pub fn acquire(&mut self, thread: u32, bar: Span, phase: u64, cluster: bool) {
        let cta = self.cta(thread);
        let Some(releases) = self.releases.get(&(bar, phase)) else { return };
        let mut learnt = Vec::new();
        for (&(from, rel_cluster), c) in releases {
            if from == cta || (rel_cluster && cluster) {
                learnt.push(c.clone());
            }
        }
        for c in learnt {
            self.clocks[thread as usize].join(&c, self.per_cta);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: u64, len: u64) -> Span {
        Span { region: 0, start, len }
    }

    /// Two CTAs of two threads: threads 0, 1 in CTA 0 and 2, 3 in CTA 1.
    fn order() -> Order {
        Order::new(2, 2)
    }

    #[test]
    fn unordered_conflicts_across_ctas_are_races_and_same_cta_ones_are_not_checked() {
        let mut o = order();
        o.write(0, 1, span(0, 4), false).unwrap();
        // Thread 1 is in CTA 0: not checked here.
        o.read(1, 2, span(0, 4), false).unwrap();
        let e = o.read(2, 3, span(2, 2), false).unwrap_err();
        assert!(matches!(e, OrderError::Race { thread: 2, other: 0, other_step: 1, .. }), "{e:?}");
        assert!(e.to_string().contains("§8.7.1"), "{e}");
        // Read-read is no conflict; a write after another CTA's read is.
        let mut o = order();
        o.read(0, 1, span(0, 4), false).unwrap();
        o.read(3, 2, span(0, 4), false).unwrap();
        let e = o.write(2, 3, span(3, 1), false).unwrap_err();
        assert!(matches!(e, OrderError::Race { what: "a write", other_what: "read", .. }), "{e:?}");
        // Disjoint bytes do not conflict.
        let mut o = order();
        o.write(0, 1, span(0, 4), false).unwrap();
        o.write(2, 2, span(4, 4), false).unwrap();
    }

    #[test]
    fn a_cluster_barrier_orders_only_with_release() {
        let mut o = order();
        o.write(0, 1, span(0, 4), false).unwrap();
        o.cluster_arrive(2, true);
        o.cluster_wait();
        o.read(3, 4, span(0, 4), false).unwrap();
        // The read came after the barrier: CTA 0's next write races with it.
        o.write(1, 5, span(0, 4), false).unwrap_err();
        let mut o = order();
        o.write(0, 1, span(0, 4), false).unwrap();
        o.cluster_arrive(2, false);
        o.cluster_wait();
        o.read(3, 4, span(0, 4), false).unwrap_err();
        // An access after the arrive is not released by it.
        let mut o = order();
        o.cluster_arrive(2, true);
        o.write(0, 3, span(0, 4), false).unwrap();
        o.cluster_wait();
        o.read(3, 4, span(0, 4), false).unwrap_err();
    }

    #[test]
    fn mbarrier_release_acquire_orders_the_releasers_at_cluster_scope() {
        let bar = Span { region: 9, start: 0, len: 8 };
        let mut o = order();
        o.write(2, 1, span(0, 4), false).unwrap();
        o.write(3, 1, span(4, 4), false).unwrap();
        // Only thread 2 releases, at .cluster scope; thread 0 acquires at .cluster scope.
        o.release(2, 2, bar, 0, true);
        o.acquire(0, bar, 0, true);
        o.read(0, 3, span(0, 4), false).unwrap();
        o.read(0, 3, span(4, 4), false).unwrap_err();
        // Thread 1 did not wait; a .cta acquire learns nothing from another CTA.
        o.read(1, 3, span(0, 4), false).unwrap_err();
        let mut o = order();
        o.write(2, 1, span(0, 4), false).unwrap();
        o.release(2, 2, bar, 0, true);
        o.acquire(0, bar, 0, false);
        o.read(0, 3, span(0, 4), false).unwrap_err();
        // A .cta release is not seen by another CTA; another phase's release neither.
        let mut o = order();
        o.write(2, 1, span(0, 4), false).unwrap();
        o.release(2, 2, bar, 0, false);
        o.release(2, 2, bar, 1, true);
        o.acquire(0, bar, 0, true);
        o.read(0, 3, span(0, 4), false).unwrap_err();
    }

    #[test]
    fn a_cta_barrier_carries_what_one_thread_acquired_to_its_ctas_threads() {
        let bar = Span { region: 9, start: 0, len: 8 };
        let mut o = order();
        o.write(2, 1, span(0, 4), false).unwrap();
        o.write(3, 1, span(4, 4), false).unwrap();
        o.bar(2);
        o.release(2, 3, bar, 0, true);
        o.acquire(0, bar, 0, true);
        o.bar(5);
        // Thread 1 learnt through thread 0; thread 3's write was before the barrier thread 2 released after.
        o.read(1, 6, span(0, 8), false).unwrap();
        // A write after the release is not ordered.
        o.write(3, 7, span(8, 4), false).unwrap();
        o.read(1, 8, span(8, 4), false).unwrap_err();
    }

    #[test]
    fn one_cta_remembers_nothing() {
        let mut o = Order::new(1, 4);
        o.write(0, 1, span(0, 4), false).unwrap();
        o.read(3, 2, span(0, 4), false).unwrap();
        assert!(o.cells.is_empty());
    }

    #[test]
    fn unordered_strong_pairs_are_timing_not_races() {
        let mut o = order();
        o.write(0, 1, span(0, 4), true).unwrap();
        let e = o.read(2, 2, span(0, 4), true).unwrap_err();
        assert!(matches!(e, OrderError::Timing { .. }), "{e:?}");
        // A weak access against a strong one, or strong ones over different bytes, race.
        let mut o = order();
        o.write(0, 1, span(0, 4), true).unwrap();
        assert!(matches!(o.read(2, 2, span(0, 2), true), Err(OrderError::Race { .. })));
        assert!(matches!(o.read(3, 2, span(0, 4), false), Err(OrderError::Race { .. })));
    }
}
