//! [`Protocol`]: the rules of asynchronous copies in one place — pending asynchronous
//! operations with the bytes they read and write and their completion mechanism, the
//! per-thread async-groups, the mbarrier objects, the proxy fences — and every way a program
//! breaks them, as a [`ProtocolError`] naming its § of the PTX ISA.
//!
//! The protocol tracks *where* bytes move, not their values: each operation carries an effect
//! `E` that the caller applies when [`Protocol`] reports the operation complete (in issue
//! order). Operations complete only through their mechanism:
//! - non-bulk `cp.async` (§9.7.9.25.3): the issuing thread's async-groups —
//!   `cp.async.commit_group` closes the open group, `cp.async.wait_group N` completes all but
//!   the `N` most recent committed groups, `cp.async.wait_all` all of them; and
//!   `cp.async.mbarrier.arrive{.noinc}` (§9.7.9.25.3.4), an arrive-on the mbarrier once every
//!   prior `cp.async` of the thread is complete (without `.noinc` it first raises the pending
//!   count, so it does not count as an expected arrival);
//! - bulk copies and reductions with `.bulk_group` (§9.7.9.25.6): the thread's bulk
//!   async-groups (`wait_group.read` releases only the sources);
//! - copies with `.mbarrier::complete_tx::bytes`: a complete-tx of their bytes on the
//!   mbarrier, which the model performs when a thread waits on that mbarrier (a wait loop:
//!   they complete eventually; the phase then completes or the program hangs).
//!
//! Undefined programs (each a [`ProtocolError`]):
//! - a generic read of bytes a pending operation writes, or an access to bytes whose completion
//!   another thread observed without a `bar.sync` since (§9.7.9.25.1);
//! - a generic write of bytes a pending operation reads or writes (§9.7.9.25.1);
//! - an async-proxy read (bulk and tensor copies, §9.7.9.25.2; non-bulk `cp.async` is not in
//!   the async proxy) of bytes written through the generic proxy without a
//!   `fence.proxy.async` after the write — by the writer, or by the reader after a `bar.sync`
//!   — and, when another thread fenced, a `bar.sync` after its fence;
//! - a generic access to a live mbarrier object (§9.7.13.15: its bytes are opaque);
//! - an mbarrier phase that completes while operations that signal it are still pending, or a
//!   transaction count that the signalling operations overshoot (§9.7.13.15);
//! - a wait whose phase cannot complete: a hang.
//!
//! Invariants: the state changes only through these methods; an operation is pending in
//! exactly one place (its group or its mbarrier); completed effects come back exactly once.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use thiserror::Error;

use super::mbarrier::{Mbarrier, MbarrierError};
use super::occupancy::Occupancy;

/// A byte range of one memory region (the caller's region index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The region.
    pub region: usize,
    /// First byte.
    pub start: u64,
    /// Bytes.
    pub len: u64,
}

impl Span {
    /// Whether the two ranges share a byte.
    pub fn overlaps(&self, o: &Span) -> bool {
        self.region == o.region && self.start < o.start + o.len && o.start < self.start + self.len
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "region {} bytes {}..{}", self.region, self.start, self.start + self.len)
    }
}

/// The proxy an operation accesses memory through (§9.7.9.25.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proxy {
    /// The generic proxy (`ld`, `st`, non-bulk `cp.async`).
    Generic,
    /// The async proxy (bulk and tensor copies and reductions).
    Async,
}

/// How an asynchronous operation's completion is observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The issuing thread's `cp.async` async-groups.
    CpAsyncGroup,
    /// The issuing thread's bulk async-groups.
    BulkGroup,
    /// A complete-tx of `bytes` on the mbarrier at `bar`.
    Mbarrier {
        /// The mbarrier object.
        bar: Span,
        /// The transaction bytes.
        bytes: i64,
    },
}

/// An asynchronous operation as issued.
#[derive(Clone, Debug, PartialEq)]
pub struct AsyncOp<E> {
    /// The issuing thread.
    pub thread: u32,
    /// Its proxy.
    pub proxy: Proxy,
    /// The bytes it reads.
    pub reads: Vec<Span>,
    /// The bytes it writes.
    pub writes: Vec<Span>,
    /// Whether its writes are atomic reductions (two pending reductions may target the same
    /// bytes).
    pub reduction: bool,
    /// Its completion mechanism.
    pub signal: Signal,
    /// What the caller applies when it completes.
    pub effect: E,
}

/// What a wait asks of an mbarrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitOn {
    /// `.parity P`.
    Parity(bool),
    /// A state token from `arrive`.
    Token(u64),
}

/// The most asynchronous operations in flight in one CTA. Every access and every operation
/// issued is checked against those in flight, so this bound (with
/// [`crate::memprog::MAX_THREAD_STATEMENTS`], which bounds the completions and generic writes
/// also kept) bounds the interpreter's work: 1,024 threads × 200 `cp.async` groups in flight
/// took over 500 s before it; reaching this bound takes seconds. Generated programs
/// have had over 4,096 in flight (1,024 threads, a few copies each), so it is 8 times that.
pub const MAX_TRACKED: usize = 32768;

/// A protocol violation: the program is undefined (or hangs), or beyond what the interpreter
/// tracks ([`ProtocolError::TooMany`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ProtocolError {
    /// More than [`MAX_TRACKED`] operations in flight (a limit of ptxdiff, not of the
    /// hardware).
    #[error("more than {MAX_TRACKED} {what} at once in one CTA, the most ptxdiff tracks; wait for them sooner")]
    TooMany {
        /// What there were too many of.
        what: &'static str,
    },
    /// A generic read of bytes a pending operation writes.
    #[error("undefined (§9.7.9.25.1): generic read of {span} while an asynchronous operation writing them is pending; wait for its completion mechanism first")]
    ReadWhilePending {
        /// The bytes read.
        span: Span,
    },
    /// An asynchronous read of bytes a pending operation writes.
    #[error(
        "undefined (§9.7.9.25.1): asynchronous read of {span} while an asynchronous operation writing them is pending"
    )]
    AsyncReadWhilePending {
        /// The bytes read.
        span: Span,
    },
    /// A write to bytes a pending operation reads or writes.
    #[error("undefined (§9.7.9.25.1): write of {span} while a pending asynchronous operation reads or writes them")]
    WriteWhilePending {
        /// The bytes written.
        span: Span,
    },
    /// An async-proxy read of generic writes without `fence.proxy.async`.
    #[error("undefined (§9.7.9.25.2): async-proxy read of {span} written by thread {writer} through the generic proxy without a fence.proxy.async after the write")]
    MissingProxyFence {
        /// The bytes.
        span: Span,
        /// The thread that wrote them.
        writer: u32,
    },
    /// An access to bytes another thread wrote or fenced, with no `bar.sync` since.
    #[error("undefined (§9.7.13.1): thread {reader} accesses {span}, which thread {other} wrote, fenced or completed, without a bar.sync in between")]
    MissingBarrier {
        /// The bytes.
        span: Span,
        /// The reading thread.
        reader: u32,
        /// The thread whose write, fence or wait the reader is not ordered after.
        other: u32,
    },
    /// A generic access to a live mbarrier object.
    #[error("undefined (§9.7.13.15): generic access to {span}, which overlaps a live mbarrier object (only mbarrier instructions may access it)")]
    MbarrierAccess {
        /// The bytes accessed.
        span: Span,
    },
    /// An mbarrier rule broken.
    #[error("mbarrier at {bar}: {error}")]
    Mbarrier {
        /// The object.
        bar: Span,
        /// The rule.
        error: MbarrierError,
    },
    /// A phase completing while operations that signal it are pending, or bytes overshooting
    /// the transaction count.
    #[error("undefined (§9.7.13.15): mbarrier at {bar}: {detail}; the expected transaction count must equal the bytes of the operations that signal the phase")]
    TxMismatch {
        /// The object.
        bar: Span,
        /// What happened.
        detail: String,
    },
    /// A wait whose phase never completes.
    #[error("hang: waiting on the mbarrier at {bar}, whose phase never completes ({pending} pending arrivals, tx-count {tx} after every operation that signals it has landed)")]
    Hang {
        /// The object.
        bar: Span,
        /// Pending arrivals.
        pending: i64,
        /// tx-count.
        tx: i64,
    },
    /// A wait or completion on an address that holds no mbarrier object.
    #[error("mbarrier operation on {bar}, where no mbarrier.init ran (§9.7.13.15.9)")]
    NoMbarrier {
        /// The address.
        bar: Span,
    },
}

#[derive(Clone, Debug)]
struct Pending<E> {
    op: AsyncOp<E>,
    /// `cp.async.bulk.wait_group.read` released its sources.
    reads_done: bool,
}

/// A `cp.async.mbarrier.arrive`: arrive-on `bar` once the `after` operations are complete.
#[derive(Clone, Debug)]
struct ArriveOn {
    bar: Span,
    after: Vec<u64>,
}

#[derive(Clone, Debug, Default)]
struct Groups {
    open: Vec<u64>,
    committed: VecDeque<Vec<u64>>,
}

#[derive(Clone, Debug, Default)]
struct ThreadState {
    cp_async: Groups,
    bulk: Groups,
}

/// Indices into a protocol's generic writes, by region.
type Unfenced = BTreeMap<usize, Vec<usize>>;

/// A generic-proxy write not yet published to the async proxy.
#[derive(Clone, Debug)]
struct GenericWrite {
    span: Span,
    writer: u32,
    /// A `bar.sync` since the write.
    ordered: bool,
    /// The thread whose `fence.proxy.async` covers it.
    fenced_by: Option<u32>,
}

/// Bytes whose completion one thread observed through its own async-groups (visible to it;
/// to the others after a `bar.sync`).
#[derive(Clone, Debug)]
struct Completed {
    span: Span,
    observer: u32,
}

/// The asynchronous state of one CTA.
#[derive(Clone, Debug)]
pub struct Protocol<E> {
    next_id: u64,
    /// By id: issue order.
    pending: BTreeMap<u64, Pending<E>>,
    arrive_ons: Vec<ArriveOn>,
    threads: BTreeMap<u32, ThreadState>,
    generic_writes: Vec<GenericWrite>,
    completed: Vec<Completed>,
    mbarriers: BTreeMap<Span, Mbarrier>,
    /// Where the ranges above lie ([`Occupancy`]): the writes of pending operations (plain
    /// and reductions apart: pending reductions may share bytes), their reads not yet
    /// released, the generic writes and the completed bytes.
    pending_writes: Occupancy,
    pending_reductions: Occupancy,
    pending_reads: Occupancy,
    generic_occupied: Occupancy,
    completed_occupied: Occupancy,
    /// Indices into `generic_writes` of those not yet fenced, by region: per writer while no
    /// `bar.sync` has ordered them, and the ordered ones (a fence covers a thread's own writes
    /// and every ordered one, in its regions).
    unfenced_own: BTreeMap<u32, Unfenced>,
    unfenced_ordered: Unfenced,
}

impl<E> Default for Protocol<E> {
    fn default() -> Self {
        Protocol::new()
    }
}

impl<E> Protocol<E> {
    /// Nothing pending, no mbarrier.
    pub fn new() -> Protocol<E> {
        Protocol {
            next_id: 0,
            pending: BTreeMap::new(),
            arrive_ons: Vec::new(),
            threads: BTreeMap::new(),
            generic_writes: Vec::new(),
            completed: Vec::new(),
            mbarriers: BTreeMap::new(),
            pending_writes: Occupancy::default(),
            pending_reductions: Occupancy::default(),
            pending_reads: Occupancy::default(),
            generic_occupied: Occupancy::default(),
            completed_occupied: Occupancy::default(),
            unfenced_own: BTreeMap::new(),
            unfenced_ordered: Unfenced::new(),
        }
    }

    fn live_mbarrier(&self, span: &Span) -> bool {
        self.mbarriers.iter().any(|(at, m)| m.is_valid() && at.overlaps(span))
    }

    /// Whether a pending operation writes bytes of `span`.
    fn pending_written(&self, span: &Span) -> bool {
        self.pending_writes.overlaps(span) || self.pending_reductions.overlaps(span)
    }

    fn check_visible(&self, thread: u32, span: &Span) -> Result<(), ProtocolError> {
        if !self.completed_occupied.overlaps(span) {
            return Ok(());
        }
        if let Some(c) = self.completed.iter().find(|c| c.observer != thread && c.span.overlaps(span)) {
            return Err(ProtocolError::MissingBarrier { span: *span, reader: thread, other: c.observer });
        }
        Ok(())
    }

    /// A generic-proxy read by `thread` (`ld`).
    pub fn generic_read(&self, thread: u32, span: Span) -> Result<(), ProtocolError> {
        if self.live_mbarrier(&span) {
            return Err(ProtocolError::MbarrierAccess { span });
        }
        if self.pending_written(&span) {
            return Err(ProtocolError::ReadWhilePending { span });
        }
        self.check_visible(thread, &span)
    }

    fn check_write(&self, span: &Span, reduction: bool) -> Result<(), ProtocolError> {
        // Reads not yet released and plain writes conflict; pending reductions only with a
        // write that is not a reduction itself.
        let conflict = self.pending_reads.overlaps(span)
            || self.pending_writes.overlaps(span)
            || (!reduction && self.pending_reductions.overlaps(span));
        if conflict {
            return Err(ProtocolError::WriteWhilePending { span: *span });
        }
        Ok(())
    }

    /// A generic-proxy write by `thread` (`st`).
    pub fn generic_write(&mut self, thread: u32, span: Span) -> Result<(), ProtocolError> {
        if self.live_mbarrier(&span) {
            return Err(ProtocolError::MbarrierAccess { span });
        }
        self.check_write(&span, false)?;
        self.check_visible(thread, &span)?;
        let unfenced = self.unfenced_own.entry(thread).or_default();
        unfenced.entry(span.region).or_default().push(self.generic_writes.len());
        self.generic_occupied.add(&span);
        self.generic_writes.push(GenericWrite { span, writer: thread, ordered: false, fenced_by: None });
        Ok(())
    }

    /// `fence.proxy.async{.space}` by `thread`: publishes its own generic writes, and those a
    /// `bar.sync` ordered before it, to its async-proxy operations — in every region, or
    /// only in `regions` (the regions of the fence's state space).
    pub fn fence_proxy_async(&mut self, thread: u32, regions: Option<&[usize]>) {
        let writes = &mut self.generic_writes;
        let mut fence = |unfenced: &mut Unfenced| {
            let covered: Vec<usize> = match regions {
                None => unfenced.keys().copied().collect(),
                Some(r) => r.iter().copied().filter(|k| unfenced.contains_key(k)).collect(),
            };
            for region in covered {
                for i in unfenced.remove(&region).unwrap_or_default() {
                    writes[i].fenced_by = Some(thread);
                }
            }
        };
        fence(&mut self.unfenced_ordered);
        if let Some(own) = self.unfenced_own.get_mut(&thread) {
            fence(own);
        }
    }

    /// `bar.sync` of the whole CTA.
    pub fn barrier(&mut self) {
        self.generic_writes.retain_mut(|w| {
            w.ordered = true;
            w.fenced_by.is_none()
        });
        self.generic_occupied.clear();
        for w in &self.generic_writes {
            self.generic_occupied.add(&w.span);
        }
        self.unfenced_own.clear();
        self.unfenced_ordered.clear();
        for (i, w) in self.generic_writes.iter().enumerate() {
            self.unfenced_ordered.entry(w.span.region).or_default().push(i);
        }
        self.completed.clear();
        self.completed_occupied.clear();
    }

    /// Issues an asynchronous operation; it joins the thread's open group or waits for its
    /// mbarrier.
    pub fn issue(&mut self, op: AsyncOp<E>) -> Result<(), ProtocolError> {
        for r in &op.reads {
            if self.pending_written(r) {
                return Err(ProtocolError::AsyncReadWhilePending { span: *r });
            }
            self.check_visible(op.thread, r)?;
            if op.proxy == Proxy::Async && self.generic_occupied.overlaps(r) {
                if let Some(w) = self.generic_writes.iter().find(|w| w.span.overlaps(r)) {
                    match w.fenced_by {
                        None => return Err(ProtocolError::MissingProxyFence { span: *r, writer: w.writer }),
                        Some(f) if f != op.thread => {
                            return Err(ProtocolError::MissingBarrier { span: *r, reader: op.thread, other: f })
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        for w in &op.writes {
            if self.live_mbarrier(w) {
                return Err(ProtocolError::MbarrierAccess { span: *w });
            }
            self.check_write(w, op.reduction)?;
        }
        if let Signal::Mbarrier { bar, .. } = op.signal {
            self.mbarrier(bar)?;
        }
        if self.pending.len() >= MAX_TRACKED {
            return Err(ProtocolError::TooMany { what: "asynchronous operations in flight" });
        }
        let id = self.next_id;
        self.next_id += 1;
        let ts = self.threads.entry(op.thread).or_default();
        match op.signal {
            Signal::CpAsyncGroup => ts.cp_async.open.push(id),
            Signal::BulkGroup => ts.bulk.open.push(id),
            Signal::Mbarrier { .. } => {}
        }
        let writes = if op.reduction { &mut self.pending_reductions } else { &mut self.pending_writes };
        for w in &op.writes {
            writes.add(w);
        }
        for r in &op.reads {
            self.pending_reads.add(r);
        }
        self.pending.insert(id, Pending { op, reads_done: false });
        Ok(())
    }

    /// Takes the pending operations with these ids out, in issue order, and records their
    /// writes as observed by `observer` (`None`: by every thread, as an mbarrier phase is
    /// observed by every thread that waits on it).
    fn complete(&mut self, ids: &[u64], observer: Option<u32>) -> Vec<E> {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        let done: Vec<Pending<E>> = ids.iter().filter_map(|id| self.pending.remove(id)).collect();
        let mut effects = Vec::with_capacity(done.len());
        for p in done {
            let writes = if p.op.reduction { &mut self.pending_reductions } else { &mut self.pending_writes };
            for w in &p.op.writes {
                writes.remove(w);
            }
            if !p.reads_done {
                for r in &p.op.reads {
                    self.pending_reads.remove(r);
                }
            }
            if let Some(observer) = observer {
                for &span in &p.op.writes {
                    // The same bytes seen again by the same thread add nothing.
                    if !self.completed.iter().rev().take(8).any(|c| c.span == span && c.observer == observer) {
                        self.completed_occupied.add(&span);
                        self.completed.push(Completed { span, observer });
                    }
                }
            }
            effects.push(p.op.effect);
        }
        effects
    }

    /// `cp.async.commit_group` (§9.7.9.25.3.2) or `cp.async.bulk.commit_group` (§9.7.9.25.6.1).
    pub fn commit_group(&mut self, thread: u32, bulk: bool) {
        let ts = self.threads.entry(thread).or_default();
        let g = if bulk { &mut ts.bulk } else { &mut ts.cp_async };
        let open = std::mem::take(&mut g.open);
        g.committed.push_back(open);
    }

    /// `cp.async.wait_group n` (§9.7.9.25.3.3) or `cp.async.bulk.wait_group{.read} n`
    /// (§9.7.9.25.6.2): the effects of the operations it completes, in issue order.
    pub fn wait_group(&mut self, thread: u32, bulk: bool, n: usize, read_only: bool) -> Vec<E> {
        let ts = self.threads.entry(thread).or_default();
        let g = if bulk { &mut ts.bulk } else { &mut ts.cp_async };
        let older = g.committed.len().saturating_sub(n);
        if read_only {
            for id in g.committed.iter().take(older).flatten() {
                if let Some(p) = self.pending.get_mut(id).filter(|p| !p.reads_done) {
                    p.reads_done = true;
                    for r in &p.op.reads {
                        self.pending_reads.remove(r);
                    }
                }
            }
            return Vec::new();
        }
        let ids: Vec<u64> = g.committed.drain(..older).flatten().collect();
        self.complete(&ids, Some(thread))
    }

    /// `cp.async.wait_all` (§9.7.9.25.3.3): commit, then wait for every group.
    pub fn wait_all(&mut self, thread: u32) -> Vec<E> {
        self.commit_group(thread, false);
        self.wait_group(thread, false, 0, false)
    }

    fn mbarrier(&mut self, bar: Span) -> Result<&mut Mbarrier, ProtocolError> {
        match self.mbarriers.get_mut(&bar) {
            Some(m) if m.is_valid() => Ok(m),
            Some(_) => Err(ProtocolError::Mbarrier { bar, error: MbarrierError::NotInitialized }),
            None => Err(ProtocolError::NoMbarrier { bar }),
        }
    }

    /// Whether an operation still pending signals `bar`.
    fn signalled(&self, bar: Span) -> bool {
        self.pending.values().any(|p| matches!(p.op.signal, Signal::Mbarrier { bar: b, .. } if b == bar))
            || self.arrive_ons.iter().any(|a| a.bar == bar)
    }

    /// A phase of `bar` completed: an error if something still signals it.
    fn phase_done(&self, bar: Span, completed: bool) -> Result<(), ProtocolError> {
        if completed && self.signalled(bar) {
            return Err(ProtocolError::TxMismatch {
                bar,
                detail: "the phase completes while asynchronous operations that signal it are still pending".into(),
            });
        }
        Ok(())
    }

    /// `mbarrier.init` of the 8 bytes at `bar` with `count` (§9.7.13.15.9); a generic write
    /// of the object, which becomes opaque.
    pub fn mbarrier_init(&mut self, thread: u32, bar: Span, count: i64) -> Result<(), ProtocolError> {
        self.check_write(&bar, false)?;
        self.check_visible(thread, &bar)?;
        let m = self.mbarriers.entry(bar).or_default();
        m.init(count).map_err(|error| ProtocolError::Mbarrier { bar, error })
    }

    /// `mbarrier.inval` (§9.7.13.15.10).
    pub fn mbarrier_inval(&mut self, bar: Span) -> Result<(), ProtocolError> {
        if self.signalled(bar) {
            return Err(ProtocolError::TxMismatch {
                bar,
                detail: "mbarrier.inval while asynchronous operations that signal it are pending".into(),
            });
        }
        self.mbarrier(bar)?.inval().map_err(|error| ProtocolError::Mbarrier { bar, error })
    }

    /// `mbarrier.arrive{.expect_tx}{_drop}` with `count` arrivals and `expect` bytes; the
    /// state token (the phase it arrived in).
    pub fn mbarrier_arrive(&mut self, bar: Span, count: i64, expect: i64, drop: bool) -> Result<u64, ProtocolError> {
        let step =
            self.mbarrier(bar)?.arrive(count, expect, drop).map_err(|error| ProtocolError::Mbarrier { bar, error })?;
        self.phase_done(bar, step.completed)?;
        Ok(step.phase)
    }

    /// `mbarrier.expect_tx` (§9.7.13.15.11).
    pub fn mbarrier_expect_tx(&mut self, bar: Span, bytes: i64) -> Result<(), ProtocolError> {
        self.mbarrier(bar)?.expect_tx(bytes).map_err(|error| ProtocolError::Mbarrier { bar, error })
    }

    /// `mbarrier.complete_tx` (§9.7.13.15.12).
    pub fn mbarrier_complete_tx(&mut self, bar: Span, bytes: i64) -> Result<(), ProtocolError> {
        let step = self.mbarrier(bar)?.complete_tx(bytes).map_err(|error| ProtocolError::Mbarrier { bar, error })?;
        self.phase_done(bar, step.completed)
    }

    /// `cp.async.mbarrier.arrive{.noinc}` by `thread` (§9.7.9.25.3.4).
    pub fn cp_async_arrive(&mut self, thread: u32, bar: Span, noinc: bool) -> Result<(), ProtocolError> {
        let m = self.mbarrier(bar)?;
        if !noinc {
            m.increment_pending().map_err(|error| ProtocolError::Mbarrier { bar, error })?;
        }
        let after = self
            .pending
            .iter()
            .filter(|(_, p)| p.op.thread == thread && p.op.signal == Signal::CpAsyncGroup)
            .map(|(&id, _)| id)
            .collect();
        self.arrive_ons.push(ArriveOn { bar, after });
        Ok(())
    }

    /// A thread waits on `bar` until the phase `on` names completes (the `try_wait` loop):
    /// every operation that signals `bar` completes first (they complete eventually). The
    /// effects of the operations this completes, in issue order; an error when the phase
    /// cannot complete (a hang) or completes wrongly.
    pub fn mbarrier_wait(&mut self, bar: Span, on: WaitOn) -> Result<Vec<E>, ProtocolError> {
        if self.wait_done(bar, on)? {
            // Operations still pending signal a later phase.
            return Ok(Vec::new());
        }
        let mut effects = Vec::new();
        // Arrive-ons first: their cp.asyncs land, then they arrive.
        let arrive_ons: Vec<ArriveOn> = {
            let (mine, rest): (Vec<_>, Vec<_>) =
                std::mem::take(&mut self.arrive_ons).into_iter().partition(|a| a.bar == bar);
            self.arrive_ons = rest;
            mine
        };
        for a in arrive_ons {
            effects.extend(self.complete(&a.after, None));
            for ts in self.threads.values_mut() {
                for g in ts.cp_async.committed.iter_mut().chain(std::iter::once(&mut ts.cp_async.open)) {
                    g.retain(|id| !a.after.contains(id));
                }
            }
            let step =
                self.mbarrier(bar)?.arrive(1, 0, false).map_err(|error| ProtocolError::Mbarrier { bar, error })?;
            self.phase_done(bar, step.completed)?;
        }
        while let Some((id, bytes)) = self.pending.iter().find_map(|(&id, p)| match p.op.signal {
            Signal::Mbarrier { bar: b, bytes } if b == bar => Some((id, bytes)),
            _ => None,
        }) {
            effects.extend(self.complete(&[id], None));
            let m = self.mbarrier(bar)?;
            let (pending, tx) = (m.pending(), m.tx_count());
            if pending == 0 && tx > 0 && tx < bytes {
                return Err(ProtocolError::TxMismatch {
                    bar,
                    detail: format!("{bytes} bytes land on a phase that expects only {tx} more"),
                });
            }
            let step = m.complete_tx(bytes).map_err(|error| ProtocolError::Mbarrier { bar, error })?;
            self.phase_done(bar, step.completed)?;
        }
        if self.wait_done(bar, on)? {
            // The phase's bytes are visible to every thread that waits on it.
            return Ok(effects);
        }
        let m = self.mbarrier(bar)?;
        let (pending, tx) = (m.pending(), m.tx_count());
        if pending == 0 && tx < 0 {
            return Err(ProtocolError::TxMismatch {
                bar,
                detail: format!("the operations that signal it land {} bytes more than expected", -tx),
            });
        }
        Err(ProtocolError::Hang { bar, pending, tx })
    }

    /// Whether the phase `on` names has completed.
    fn wait_done(&mut self, bar: Span, on: WaitOn) -> Result<bool, ProtocolError> {
        let m = self.mbarrier(bar)?;
        match on {
            WaitOn::Parity(p) => m.parity_completed(p),
            WaitOn::Token(t) => m.token_completed(t),
        }
        .map_err(|error| ProtocolError::Mbarrier { bar, error })
    }

    /// The bytes that operations still pending may write (read back as unknown at the end).
    pub fn pending_writes(&self) -> Vec<Span> {
        self.pending.values().flat_map(|p| p.op.writes.iter().copied()).collect()
    }

    /// The phases `bar` has completed (`None`: no mbarrier was initialised there).
    pub fn phases(&self, bar: Span) -> Option<u64> {
        self.mbarriers.get(&bar).map(Mbarrier::phases)
    }

    /// The live mbarrier objects.
    pub fn live_mbarriers(&self) -> Vec<Span> {
        self.mbarriers.iter().filter(|(_, m)| m.is_valid()).map(|(s, _)| *s).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(region: usize, start: u64, len: u64) -> Span {
        Span { region, start, len }
    }

    fn copy(thread: u32, src: Span, dst: Span, proxy: Proxy, signal: Signal, tag: u32) -> AsyncOp<u32> {
        AsyncOp { thread, proxy, reads: vec![src], writes: vec![dst], reduction: false, signal, effect: tag }
    }

    /// Issue 28: 1,024 threads × 200 `cp.async` groups in flight ran for over 500 s (every
    /// access checked against every operation in flight). Past [`MAX_TRACKED`] operations in
    /// flight it is an error, reached at once.
    #[test]
    fn operations_in_flight_are_bounded() {
        let mut p: Protocol<u32> = Protocol::new();
        let mut result = Ok(());
        let mut issued = 0u32;
        'outer: for _group in 0..200 {
            for thread in 0..1024u32 {
                let at = u64::from(issued) * 4;
                result = p.issue(copy(
                    thread,
                    span(0, at % 4096, 4),
                    span(1, at, 4),
                    Proxy::Generic,
                    Signal::CpAsyncGroup,
                    issued,
                ));
                if result.is_err() {
                    break 'outer;
                }
                issued += 1;
            }
        }
        assert_eq!(issued as usize, MAX_TRACKED);
        let e = result.unwrap_err();
        assert_eq!(e, ProtocolError::TooMany { what: "asynchronous operations in flight" });
        assert!(e.to_string().contains("more than 32768 asynchronous operations in flight"), "{e}");
        // Completing them frees the room.
        for thread in 0..1024 {
            p.wait_all(thread);
        }
        assert!(p.pending_writes().is_empty());
        p.barrier();
        assert!(p.issue(copy(0, span(0, 0, 4), span(1, 0, 4), Proxy::Generic, Signal::CpAsyncGroup, 0)).is_ok());
    }

    #[test]
    fn cp_async_groups_complete_oldest_first() {
        let mut p = Protocol::new();
        let (g, s) = (0, 1);
        p.issue(copy(0, span(g, 0, 16), span(s, 0, 16), Proxy::Generic, Signal::CpAsyncGroup, 1)).unwrap();
        p.commit_group(0, false);
        p.issue(copy(0, span(g, 16, 16), span(s, 16, 16), Proxy::Generic, Signal::CpAsyncGroup, 2)).unwrap();
        p.commit_group(0, false);
        assert_eq!(p.generic_read(0, span(s, 4, 4)), Err(ProtocolError::ReadWhilePending { span: span(s, 4, 4) }));
        assert_eq!(p.wait_group(0, false, 1, false), vec![1]);
        p.generic_read(0, span(s, 0, 16)).unwrap();
        assert!(p.generic_read(0, span(s, 16, 1)).is_err(), "the newer group is still pending");
        assert!(matches!(p.generic_read(1, span(s, 0, 4)), Err(ProtocolError::MissingBarrier { other: 0, .. })));
        p.barrier();
        p.generic_read(1, span(s, 0, 4)).unwrap();
        assert_eq!(p.generic_write(0, span(g, 20, 4)), Err(ProtocolError::WriteWhilePending { span: span(g, 20, 4) }));
        assert_eq!(p.wait_all(0), vec![2]);
        assert!(p.pending_writes().is_empty());
    }

    #[test]
    fn async_reads_need_a_proxy_fence_after_generic_writes() {
        let mut p = Protocol::new();
        p.generic_write(0, span(1, 0, 4)).unwrap();
        let store = |t| copy(t, span(1, 0, 16), span(0, 0, 16), Proxy::Async, Signal::BulkGroup, 7);
        assert!(matches!(p.issue(store(0)), Err(ProtocolError::MissingProxyFence { writer: 0, .. })));
        // Non-bulk cp.async reads through the generic proxy: no fence needed.
        p.issue(copy(0, span(1, 0, 4), span(2, 0, 4), Proxy::Generic, Signal::CpAsyncGroup, 0)).unwrap();
        assert_eq!(p.wait_all(0), vec![0]);
        p.fence_proxy_async(0, None);
        assert!(matches!(p.issue(store(1)), Err(ProtocolError::MissingBarrier { reader: 1, other: 0, .. })));
        p.issue(store(0)).unwrap();
        p.commit_group(0, true);
        assert_eq!(p.wait_group(0, true, 0, true), Vec::<u32>::new(), ".read completes nothing");
        p.generic_write(0, span(1, 0, 4)).unwrap();
        assert_eq!(p.pending_writes(), vec![span(0, 0, 16)]);
        assert_eq!(p.wait_group(0, true, 0, false), vec![7]);
        // Writes, barrier, then the reader fences: published to the reader.
        p.generic_write(3, span(4, 0, 4)).unwrap();
        p.barrier();
        p.fence_proxy_async(5, Some(&[4]));
        p.issue(copy(5, span(4, 0, 4), span(0, 0, 4), Proxy::Async, Signal::BulkGroup, 8)).unwrap();
    }

    #[test]
    fn mbarrier_copies_complete_the_phase_or_hang() {
        let bar = span(1, 64, 8);
        let mut p = Protocol::new();
        let load =
            |tag| copy(0, span(0, 0, 32), span(1, 0, 32), Proxy::Async, Signal::Mbarrier { bar, bytes: 32 }, tag);
        assert_eq!(p.issue(load(0)), Err(ProtocolError::NoMbarrier { bar }));
        p.mbarrier_init(0, bar, 1).unwrap();
        assert_eq!(p.generic_read(0, span(1, 60, 8)), Err(ProtocolError::MbarrierAccess { span: span(1, 60, 8) }));
        assert_eq!(p.mbarrier_arrive(bar, 1, 32, false).unwrap(), 0);
        p.issue(load(1)).unwrap();
        assert!(p.generic_read(0, span(1, 0, 4)).is_err());
        assert_eq!(p.mbarrier_wait(bar, WaitOn::Parity(false)).unwrap(), vec![1]);
        p.generic_read(0, span(1, 0, 32)).unwrap();
        // Too few bytes expected: the second copy overshoots.
        p.mbarrier_arrive(bar, 1, 16, false).unwrap();
        p.issue(load(2)).unwrap();
        assert!(matches!(p.mbarrier_wait(bar, WaitOn::Token(1)), Err(ProtocolError::TxMismatch { .. })));

        // Too many bytes expected: a hang.
        let mut p = Protocol::new();
        p.mbarrier_init(0, bar, 1).unwrap();
        p.mbarrier_arrive(bar, 1, 64, false).unwrap();
        p.issue(load(3)).unwrap();
        assert_eq!(p.mbarrier_wait(bar, WaitOn::Parity(false)), Err(ProtocolError::Hang { bar, pending: 0, tx: 32 }));

        // An arrive without expect_tx completes the phase under a pending copy.
        let mut p = Protocol::new();
        p.mbarrier_init(0, bar, 1).unwrap();
        p.issue(load(4)).unwrap();
        assert!(matches!(p.mbarrier_arrive(bar, 1, 0, false), Err(ProtocolError::TxMismatch { .. })));
    }

    #[test]
    fn cp_async_arrive_on_lands_the_threads_copies() {
        let bar = span(1, 64, 8);
        for noinc in [false, true] {
            let mut p = Protocol::new();
            p.mbarrier_init(0, bar, if noinc { 2 } else { 1 }).unwrap();
            p.issue(copy(0, span(0, 0, 4), span(1, 0, 4), Proxy::Generic, Signal::CpAsyncGroup, 9)).unwrap();
            p.cp_async_arrive(0, bar, noinc).unwrap();
            p.mbarrier_arrive(bar, 1, 0, false).unwrap();
            assert_eq!(p.mbarrier_wait(bar, WaitOn::Parity(false)).unwrap(), vec![9], "noinc {noinc}");
            assert!(p.wait_all(0).is_empty());
        }
        let mut p: Protocol<u32> = Protocol::new();
        p.mbarrier_init(0, bar, 1).unwrap();
        p.cp_async_arrive(0, bar, false).unwrap();
        assert_eq!(p.mbarrier_wait(bar, WaitOn::Parity(false)), Err(ProtocolError::Hang { bar, pending: 1, tx: 0 }));
        p.mbarrier_inval(bar).unwrap();
        p.generic_write(0, bar).unwrap();
    }
}
