//! The `mbarrier.*` instructions (§9.7.13.15) through [`crate::memory::Protocol`], and the
//! mbarrier operands of the copies that complete on one: an 8-byte aligned object in shared
//! memory, in the destination's CTA for a `.shared::cluster` destination (§9.7.9.25.4.1).
//!
//! An `mbarrier.arrive` (and `arrive_drop`, `expect_tx`, `complete_tx`) on `.shared::cluster`
//! may name another CTA's mbarrier (§9.7.13.15.13; its address from `mapa.shared::cluster`).
//! An arrive with release semantics (the default) and a wait with acquire semantics (the
//! default) that observes its phase order the threads for [`crate::memory::Order`], both ways
//! only when both are `.cluster` scope or in one CTA (PTX ISA 9.0 §8.7, §8.9.4).
//!
//! Invariant: only the wait loop's `test_wait`/`try_wait` runs (`control.rs`), so a wait
//! completes what it waits for; another CTA's mbarrier may be signalled only after a
//! `barrier.cluster.wait` followed its `mbarrier.init` (§9.7.13.4, §9.7.13.15.9).

use super::{Machine, Val};
use crate::isa::operand::Operand;
use crate::isa::types::{OrderSem, Scope, Space};
use crate::memory::{Span, WaitOn};
use crate::memprog::{BufferSpace, MemError};

impl Machine<'_> {
    /// The mbarrier of a `.shared::cluster` destination in region `dst`: an 8-byte object in
    /// the same CTA's shared memory (§9.7.9.12, §9.7.9.25.4.1).
    pub(super) fn dst_mbarrier(&self, t: u32, o: &Operand, dst: usize) -> Result<Span, MemError> {
        let (b, off) = self.cluster_address(t, o, Some(BufferSpace::Shared))?;
        if b / self.nbuf != dst / self.nbuf {
            return Err(MemError::Undefined(format!(
                "the mbarrier `{o}` is in CTA {}, the destination in CTA {} (§9.7.9.25.4.1: they must be in the same CTA)",
                b / self.nbuf,
                dst / self.nbuf
            )));
        }
        self.span(b, off, 8, 8, "§9.7.13.15: an 8-byte aligned mbarrier object")
    }

    /// That thread `t` may signal the mbarrier `bar` of another CTA: its initialisation was
    /// followed by a `barrier.cluster.wait` (the hardware CTAs do not run in lockstep: only a
    /// cluster barrier after `mbarrier.init` and `fence.mbarrier_init.release.cluster` makes the
    /// object initialised for another CTA's copies, §9.7.13.4 and §9.7.13.15.9).
    pub(super) fn remote_ready(&self, t: u32, bar: Span) -> Result<(), MemError> {
        let cta = (bar.region / self.nbuf) as u32;
        if cta == self.cta(t) {
            return Ok(());
        }
        match self.init_epoch.get(&(bar.region, bar.start)) {
            Some(&e) if e < self.cluster_waits => Ok(()),
            _ => Err(MemError::Undefined(format!(
                "CTA {} signals the mbarrier of CTA {cta} with no barrier.cluster.wait between that mbarrier's init and this operation (§9.7.13.4, §9.7.13.15.9: the init must be made visible to the cluster first)",
                self.cta(t)
            ))),
        }
    }

    /// The 8-byte mbarrier object an address operand names.
    pub(super) fn bar(&self, t: u32, o: &Operand) -> Result<Span, MemError> {
        let (b, off) = self.address(t, o, Some(BufferSpace::Shared))?;
        self.span(b, off, 8, 8, "§9.7.13.15: an 8-byte aligned mbarrier object")
    }

    /// The `mbarrier.*` instructions (§9.7.13.15).
    pub(super) fn mbarrier(&mut self, t: u32, mb: &crate::isa::Mbarrier, ops: &[Operand]) -> Result<(), MemError> {
        use crate::isa::MbarrierOp::*;
        let addr_at = usize::from(!matches!(mb.op, Init | Inval | ExpectTx | CompleteTx));
        // §9.7.13.15.13: a `.shared::cluster` address may name another CTA's mbarrier (an
        // address from `mapa.shared::cluster`); only arrives and tx-count changes take one.
        let bar = if mb.space == Some(Space::SharedCluster) {
            let (b, off) = self.cluster_address(t, &ops[addr_at], Some(BufferSpace::Shared))?;
            let bar = self.span(b, off, 8, 8, "§9.7.13.15: an 8-byte aligned mbarrier object")?;
            self.remote_ready(t, bar)?;
            bar
        } else if mb.space.is_none() {
            // Generic addressing: a generic address (or a buffer's name) of this CTA's shared
            // memory.
            let (b, off) = self.address(t, &ops[addr_at], None)?;
            if self.buffer(b).space != BufferSpace::Shared {
                return Err(MemError::Undefined(format!(
                    "the mbarrier `{}` is not in shared memory (§9.7.13.15)",
                    ops[addr_at]
                )));
            }
            self.span(b, off, 8, 8, "§9.7.13.15: an 8-byte aligned mbarrier object")?
        } else {
            self.bar(t, &ops[addr_at])?
        };
        let release = mb.sem != Some(OrderSem::Relaxed);
        let cluster_scope = mb.scope == Some(Scope::Cluster);
        let set_state = |m: &mut Self, token: u64| match &ops[0] {
            Operand::Name(n) => m.set(t, n, Val::Bits(token)),
            _ => Ok(()),
        };
        match mb.op {
            Init => {
                let count = self.known(t, &ops[1])? as i64;
                self.protocol.mbarrier_init(t, bar, count)?;
                self.init_epoch.insert((bar.region, bar.start), self.cluster_waits);
            }
            Inval => self.protocol.mbarrier_inval(bar)?,
            ExpectTx => self.protocol.mbarrier_expect_tx(bar, self.known(t, &ops[1])? as i64)?,
            CompleteTx => self.protocol.mbarrier_complete_tx(bar, self.known(t, &ops[1])? as i64)?,
            Arrive | ArriveDrop | ArriveExpectTx | ArriveDropExpectTx => {
                let drop = matches!(mb.op, ArriveDrop | ArriveDropExpectTx);
                let (count, expect) = match mb.op {
                    ArriveExpectTx | ArriveDropExpectTx => (1, self.known(t, &ops[2])? as i64),
                    _ if mb.count => (self.known(t, &ops[2])? as i64, 0),
                    _ => (1, 0),
                };
                let token = self.protocol.mbarrier_arrive(bar, count, expect, drop)?;
                if release {
                    self.order.release(t, self.step, bar, token, cluster_scope);
                }
                set_state(self, token)?;
            }
            TestWait | TryWait | TestWaitParity | TryWaitParity => {
                let on = match mb.op {
                    TestWaitParity | TryWaitParity => WaitOn::Parity(self.known(t, &ops[2])? & 1 == 1),
                    _ => WaitOn::Token(self.known(t, &ops[2])?),
                };
                let effects = self.protocol.mbarrier_wait(bar, on)?;
                self.apply(effects)?;
                // The phase the wait observed complete: the token's, or the last completed
                // phase of that parity (§9.7.13.15.16); an acquire learns its releases.
                let done = self.protocol.phases(bar).unwrap_or(0);
                let observed = match on {
                    WaitOn::Token(phase) => Some(phase),
                    WaitOn::Parity(p) => (0..done).rev().find(|k| (k % 2 == 1) == p),
                };
                if let (true, Some(phase)) = (release, observed) {
                    self.order.acquire(t, bar, phase, cluster_scope);
                }
                if let Operand::Name(p) = &ops[0] {
                    self.set(t, p, Val::Bits(1))?;
                }
            }
            ArriveNoComplete | ArriveDropNoComplete | PendingCount => {
                return Err(MemError::Unsupported(format!("mbarrier.{:?} (§9.7.13.15)", mb.op)))
            }
        }
        Ok(())
    }
}
