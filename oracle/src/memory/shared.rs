//! [`Shared`]: a CTA's shared memory, with what a `bar.sync` orders.
//!
//! Every store stamps its bytes with the current barrier epoch; [`Shared::barrier`] starts a
//! new epoch. A byte stored in the current epoch is not yet ordered before another thread's
//! read (§9.7.13.1 `bar.sync`: memory accesses before the barrier are performed relative to
//! all threads participating in it), which [`Shared::unordered`] reports; the reading side
//! decides whether the reader is another thread.
//!
//! Invariant: bytes never stored are "any value" under [`Allowance::Undefined`] and carry no
//! stamp.

use super::{Image, Misaccess, GRANULE};
use crate::semantics::{Allowance, Expected};

/// A CTA's shared memory.
#[derive(Clone, Debug)]
pub struct Shared {
    image: Image,
    /// The barrier epoch of each byte's last store.
    stored: Vec<Option<u32>>,
    /// Barriers passed so far.
    epoch: u32,
}

impl Shared {
    /// `granules × 4` bytes, none stored yet.
    pub fn new(granules: usize) -> Shared {
        Shared {
            image: Image::unknown(granules, Allowance::Undefined),
            stored: vec![None; GRANULE * granules],
            epoch: 0,
        }
    }

    /// The bytes as they are now.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// Stores `value` at `at` (see [`Image::write`]) in the current epoch.
    pub fn store(&mut self, at: usize, value: Expected) -> Result<(), Misaccess> {
        let bytes = value.width as usize / 8;
        self.image.write(at, value)?;
        self.stored[at..at + bytes].fill(Some(self.epoch));
        Ok(())
    }

    /// A `bar.sync` of the whole CTA: every store so far is ordered before what follows.
    pub fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// The first byte of `at..at + bytes` whose last store no barrier has ordered yet.
    pub fn unordered(&self, at: usize, bytes: usize) -> Option<usize> {
        (at..at + bytes).find(|&b| self.stored.get(b).copied().flatten().is_some_and(|e| e >= self.epoch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_barrier_orders_the_stores_before_it() {
        let mut s = Shared::new(2);
        assert!(!s.image().read(0, 4).unwrap().is_exact(), "never stored: any value");
        assert_eq!(s.unordered(0, 8), None);
        s.store(4, Expected::exact(0xAB, 8)).unwrap();
        s.store(6, Expected::exact(0xCDEF, 16)).unwrap();
        assert_eq!(s.unordered(0, 8), Some(4));
        assert_eq!(s.unordered(5, 1), None);
        s.barrier();
        assert_eq!(s.unordered(0, 8), None);
        s.store(0, Expected::exact(1, 32)).unwrap();
        assert_eq!(s.unordered(0, 8), Some(0));
        assert_eq!(s.image().read(4, 4).unwrap().field(16, 16), Expected::exact(0xCDEF, 16));
        assert!(s.store(7, Expected::exact(0, 16)).is_err());
    }
}
