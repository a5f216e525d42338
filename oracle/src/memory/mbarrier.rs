//! [`Mbarrier`]: the state of one mbarrier object (PTX ISA §9.7.13.15): the expected arrival
//! count that `init` sets, the pending arrivals of the current phase, the transaction count
//! (tx-count), the number of completed phases, and whether the object is valid (between
//! `init` and `inval`).
//!
//! Rules (§9.7.13.15.1–.2, §9.7.13.15.11–.13): `arrive(n)` lowers the pending count by `n`,
//! `expect_tx(n)` raises tx-count by `n`, `complete_tx(n)` lowers it; the current phase
//! completes exactly when both are 0, which flips the phase parity, resets the pending count to
//! the expected count and tx-count to 0. A wait on a phase succeeds once that phase has
//! completed: `.parity P` asks whether the phase of parity `P` the waiter is in has completed
//! (the current phase's parity differs from `P`), a state token asks whether the phase it was
//! taken in has completed.
//!
//! Invariants: the pending count stays in `1..=expected` between phases; tx-count stays in
//! `-(2^20-1)..=2^20-1`; every violation is an [`MbarrierError`], never a wrap or a panic.
//! The 8 bytes of the object are opaque (the memory layer makes them unknown after `init`).

use thiserror::Error;

/// The largest expected arrival count and the bound of tx-count (§9.7.13.15.1: the count
/// range is `1..=2^20-1`; §9.7.13.15.2: tx-count lies in `-(2^20-1)..=2^20-1`).
pub const MAX_COUNT: i64 = (1 << 20) - 1;

/// A protocol violation on one mbarrier.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MbarrierError {
    /// Used before `init` or after `inval`.
    #[error("mbarrier used while not initialized (before `mbarrier.init` or after `mbarrier.inval`, §9.7.13.15.2)")]
    NotInitialized,
    /// `init` with a count outside `1..=2^20-1`.
    #[error("mbarrier.init count {0} outside 1..=1048575 (§9.7.13.15.1)")]
    BadCount(i64),
    /// More arrivals than the phase still expects.
    #[error("arrive of {count} on a phase with {pending} pending arrivals (§9.7.13.15.13: undefined)")]
    ArriveBeyondPending {
        /// The arrive's count.
        count: i64,
        /// Pending arrivals before it.
        pending: i64,
    },
    /// tx-count leaves its range.
    #[error("tx-count {0} outside -(2^20-1)..=2^20-1 (§9.7.13.15.2)")]
    TxOutOfRange(i64),
    /// `init` of an object that is still valid.
    #[error("mbarrier.init on a valid mbarrier object without mbarrier.inval first (§9.7.13.15.9)")]
    Reinit,
}

/// One mbarrier object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mbarrier {
    expected: i64,
    pending: i64,
    tx: i64,
    /// Completed phases; the current phase's parity is `phases % 2`.
    phases: u64,
    valid: bool,
}

/// What an operation did to the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The phase the operation happened in (the state token `arrive` returns).
    pub phase: u64,
    /// Whether the operation completed that phase.
    pub completed: bool,
}

impl Default for Mbarrier {
    fn default() -> Self {
        Mbarrier::new()
    }
}

impl Mbarrier {
    /// An object not yet initialized.
    pub fn new() -> Mbarrier {
        Mbarrier { expected: 0, pending: 0, tx: 0, phases: 0, valid: false }
    }

    fn valid(&self) -> Result<(), MbarrierError> {
        if self.valid {
            Ok(())
        } else {
            Err(MbarrierError::NotInitialized)
        }
    }

    /// `mbarrier.init … count` (§9.7.13.15.9): phase 0, `count` pending arrivals, tx-count 0.
    pub fn init(&mut self, count: i64) -> Result<(), MbarrierError> {
        if self.valid {
            return Err(MbarrierError::Reinit);
        }
        if !(1..=MAX_COUNT).contains(&count) {
            return Err(MbarrierError::BadCount(count));
        }
        *self = Mbarrier { expected: count, pending: count, tx: 0, phases: 0, valid: true };
        Ok(())
    }

    /// `mbarrier.inval` (§9.7.13.15.10).
    pub fn inval(&mut self) -> Result<(), MbarrierError> {
        self.valid()?;
        self.valid = false;
        Ok(())
    }

    /// Completes the phase if nothing is pending.
    fn settle(&mut self) -> Step {
        let phase = self.phases;
        let completed = self.pending == 0 && self.tx == 0;
        if completed {
            self.phases += 1;
            self.pending = self.expected;
        }
        Step { phase, completed }
    }

    fn add_tx(&mut self, delta: i64) -> Result<(), MbarrierError> {
        let tx = self.tx + delta;
        if !(-MAX_COUNT..=MAX_COUNT).contains(&tx) {
            return Err(MbarrierError::TxOutOfRange(tx));
        }
        self.tx = tx;
        Ok(())
    }

    /// `mbarrier.arrive{.expect_tx}` with `count` arrivals and `expect` transaction bytes
    /// (expect-tx first, §9.7.13.15.12); `drop` also lowers the expected count of later phases
    /// (`arrive_drop`).
    pub fn arrive(&mut self, count: i64, expect: i64, drop: bool) -> Result<Step, MbarrierError> {
        self.valid()?;
        if count < 1 || count > self.pending {
            return Err(MbarrierError::ArriveBeyondPending { count, pending: self.pending });
        }
        self.add_tx(expect)?;
        self.pending -= count;
        if drop {
            self.expected -= count;
        }
        Ok(self.settle())
    }

    /// `mbarrier.expect_tx` (§9.7.13.15.11): tx-count rises by `bytes`.
    pub fn expect_tx(&mut self, bytes: i64) -> Result<(), MbarrierError> {
        self.valid()?;
        self.add_tx(bytes)
    }

    /// `mbarrier.complete_tx` (§9.7.13.15.12), also what an asynchronous copy signals when
    /// its bytes have landed: tx-count falls by `bytes`, which may complete the phase.
    pub fn complete_tx(&mut self, bytes: i64) -> Result<Step, MbarrierError> {
        self.valid()?;
        self.add_tx(-bytes)?;
        Ok(self.settle())
    }

    /// Raises the pending count by one (`cp.async.mbarrier.arrive` without `.noinc`,
    /// §9.7.9.25.3.4, increments it when issued so that its own arrive-on is not counted).
    pub fn increment_pending(&mut self) -> Result<(), MbarrierError> {
        self.valid()?;
        if self.pending >= MAX_COUNT {
            return Err(MbarrierError::BadCount(self.pending + 1));
        }
        self.pending += 1;
        Ok(())
    }

    /// Whether the phase of parity `parity` the waiter is in has completed
    /// (`test_wait.parity`/`try_wait.parity`, §9.7.13.15.16).
    pub fn parity_completed(&self, parity: bool) -> Result<bool, MbarrierError> {
        self.valid()?;
        Ok(self.phases % 2 != u64::from(parity))
    }

    /// Whether the phase a state token names has completed (`test_wait`/`try_wait` with a
    /// state operand, §9.7.13.15.16).
    pub fn token_completed(&self, token: u64) -> Result<bool, MbarrierError> {
        self.valid()?;
        Ok(self.phases > token)
    }

    /// Pending arrivals of the current phase.
    pub fn pending(&self) -> i64 {
        self.pending
    }

    /// The current tx-count.
    pub fn tx_count(&self) -> i64 {
        self.tx
    }

    /// Completed phases.
    pub fn phases(&self) -> u64 {
        self.phases
    }

    /// Whether the object is between `init` and `inval`.
    pub fn is_valid(&self) -> bool {
        self.valid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_completes_exactly_when_arrivals_and_bytes_are_done() {
        let mut m = Mbarrier::new();
        assert_eq!(m.arrive(1, 0, false), Err(MbarrierError::NotInitialized));
        m.init(2).unwrap();
        assert!(!m.parity_completed(false).unwrap());
        let s = m.arrive(1, 64, false).unwrap();
        assert_eq!(s, Step { phase: 0, completed: false });
        assert_eq!(m.arrive(1, 0, false).unwrap(), Step { phase: 0, completed: false }, "64 bytes still expected");
        assert!(!m.complete_tx(32).unwrap().completed);
        assert_eq!(m.complete_tx(32).unwrap(), Step { phase: 0, completed: true });
        assert!(m.parity_completed(false).unwrap() && !m.parity_completed(true).unwrap());
        assert!(m.token_completed(0).unwrap() && !m.token_completed(1).unwrap());
        assert_eq!((m.pending(), m.tx_count(), m.phases()), (2, 0, 1));
        // Bytes may land before they are expected: tx-count goes negative meanwhile.
        m.complete_tx(16).unwrap();
        assert_eq!(m.tx_count(), -16);
        m.expect_tx(16).unwrap();
        m.arrive(2, 0, false).unwrap();
        assert_eq!(m.phases(), 2);
    }

    #[test]
    fn violations_are_errors() {
        let mut m = Mbarrier::new();
        assert_eq!(m.init(0), Err(MbarrierError::BadCount(0)));
        assert_eq!(m.init(MAX_COUNT + 1), Err(MbarrierError::BadCount(MAX_COUNT + 1)));
        m.init(1).unwrap();
        assert_eq!(m.init(1), Err(MbarrierError::Reinit));
        assert_eq!(m.arrive(2, 0, false), Err(MbarrierError::ArriveBeyondPending { count: 2, pending: 1 }));
        assert_eq!(m.expect_tx(MAX_COUNT + 1), Err(MbarrierError::TxOutOfRange(MAX_COUNT + 1)));
        assert_eq!(m.complete_tx(MAX_COUNT + 1), Err(MbarrierError::TxOutOfRange(-MAX_COUNT - 1)));
        m.increment_pending().unwrap();
        assert_eq!(m.pending(), 2);
        m.inval().unwrap();
        assert_eq!(m.parity_completed(false), Err(MbarrierError::NotInitialized));
        m.init(3).unwrap();
        assert_eq!(m.arrive(1, 0, true).unwrap().phase, 0);
        m.arrive(2, 0, false).unwrap();
        assert_eq!(m.pending(), 2, "arrive_drop lowered the expected count");
    }
}
