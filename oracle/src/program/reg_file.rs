//! One thread's register file in the program oracle: a value per register, looked up by
//! [`Reg`] like a map, stored densely by register class and number.
//!
//! The interpreter reads and writes a register for nearly every operand of every statement of
//! every thread, and a hashed map of `Reg` spent about a third of the oracle's time hashing,
//! inserting and growing (perf, release build, 3,000 generated programs). Registers are
//! numbered from 0 by class (`%r0`, `%r1`, …, [`Reg::Virt`]), so a vector per class indexed by
//! the number holds them with no hashing.
//!
//! Invariants: the file holds at most one value per register; a lookup never allocates; the
//! dense part grows only to numbers below [`DENSE`] (a program naming `%r4000000000` costs one
//! entry in the ordered overflow map, not four billion slots); every other register (the
//! prologue's [`Reg::Special`] ones, numbers from [`DENSE`] on) lives in that overflow map.
//! Nothing iterates over the registers, so no order is promised.

use std::collections::BTreeMap;

use super::{Reg, RegClass};

/// Register numbers below this are stored densely (per class); the generator's programs use a
/// few dozen per class.
pub const DENSE: u32 = 4096;

/// How many register classes there are: [`RegFile`]'s dense vectors.
const CLASSES: usize = 5;

/// The dense vector of a register class (a match, so a new class is a compile error here).
fn class_index(c: RegClass) -> usize {
    match c {
        RegClass::Pred => 0,
        RegClass::B8 => 1,
        RegClass::B16 => 2,
        RegClass::B32 => 3,
        RegClass::B64 => 4,
    }
}

/// A value per register of one thread (see the module header).
#[derive(Clone, Debug)]
pub struct RegFile<V> {
    /// Per class (at [`class_index`]), the value of register `n` at index `n`.
    dense: [Vec<Option<V>>; CLASSES],
    /// Registers outside the dense part.
    overflow: BTreeMap<Reg, V>,
}

impl<V> Default for RegFile<V> {
    fn default() -> Self {
        RegFile { dense: Default::default(), overflow: BTreeMap::new() }
    }
}

/// Where register `r` lives in the dense part: its class's vector and its number.
fn slot(r: &Reg) -> Option<(usize, usize)> {
    match *r {
        Reg::Virt(class, n) if n < DENSE => Some((class_index(class), n as usize)),
        _ => None,
    }
}

impl<V> RegFile<V> {
    /// An empty file.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of `r`, if it was written.
    pub fn get(&self, r: &Reg) -> Option<&V> {
        match slot(r) {
            Some((k, n)) => self.dense[k].get(n)?.as_ref(),
            None => self.overflow.get(r),
        }
    }

    /// The value of `r` to change in place, if it was written.
    pub fn get_mut(&mut self, r: &Reg) -> Option<&mut V> {
        match slot(r) {
            Some((k, n)) => self.dense[k].get_mut(n)?.as_mut(),
            None => self.overflow.get_mut(r),
        }
    }

    /// Whether `r` was written.
    pub fn contains_key(&self, r: &Reg) -> bool {
        self.get(r).is_some()
    }

    /// Sets `r` to `v`; gives the value it replaces.
    pub fn insert(&mut self, r: Reg, v: V) -> Option<V> {
        match slot(&r) {
            Some((k, n)) => {
                let class = &mut self.dense[k];
                if class.len() <= n {
                    class.resize_with(n + 1, || None);
                }
                class[n].replace(v)
            }
            None => self.overflow.insert(r, v),
        }
    }

    /// Forgets `r`; gives the value it held.
    pub fn remove(&mut self, r: &Reg) -> Option<V> {
        match slot(r) {
            Some((k, n)) => self.dense[k].get_mut(n)?.take(),
            None => self.overflow.remove(r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Special;

    const ALL: [RegClass; CLASSES] = [RegClass::Pred, RegClass::B8, RegClass::B16, RegClass::B32, RegClass::B64];

    #[test]
    fn registers_of_each_class_and_number_are_kept_apart() {
        let mut f = RegFile::new();
        for (i, &c) in ALL.iter().enumerate() {
            assert_eq!(f.insert(Reg::Virt(c, 3), i), None);
        }
        assert_eq!(f.insert(Reg::Virt(RegClass::B32, 0), 10), None);
        for (i, &c) in ALL.iter().enumerate() {
            assert_eq!(f.get(&Reg::Virt(c, 3)), Some(&i));
            assert_eq!(f.get(&Reg::Virt(c, 2)), None, "{c:?} 2 was never written");
        }
        assert_eq!(f.get(&Reg::Virt(RegClass::B32, 0)), Some(&10));
        assert_eq!(f.get(&Reg::Virt(RegClass::B64, 0)), None);
    }

    #[test]
    fn insert_replaces_and_remove_forgets() {
        let mut f = RegFile::new();
        let r = Reg::Virt(RegClass::B16, 7);
        assert!(!f.contains_key(&r));
        assert_eq!(f.insert(r, 1), None);
        assert_eq!(f.insert(r, 2), Some(1));
        *f.get_mut(&r).unwrap() += 5;
        assert_eq!(f.get(&r), Some(&7));
        assert_eq!(f.remove(&r), Some(7));
        assert!(!f.contains_key(&r));
        assert_eq!(f.remove(&r), None);
        assert_eq!(f.get_mut(&r), None);
    }

    #[test]
    fn huge_numbers_and_the_prologue_registers_live_in_the_overflow_map() {
        let mut f = RegFile::new();
        let huge = Reg::Virt(RegClass::B32, u32::MAX);
        let edge = Reg::Virt(RegClass::B32, DENSE);
        let special = Reg::Special(Special::Tid);
        f.insert(huge, 1);
        f.insert(edge, 2);
        f.insert(special, 3);
        assert!(f.dense.iter().all(Vec::is_empty), "nothing dense was allocated");
        assert_eq!((f.get(&huge), f.get(&edge), f.get(&special)), (Some(&1), Some(&2), Some(&3)));
        assert_eq!(f.remove(&edge), Some(2));
        assert_eq!(f.get(&edge), None);
        let last_dense = Reg::Virt(RegClass::B32, DENSE - 1);
        f.insert(last_dense, 4);
        assert_eq!(f.dense[class_index(RegClass::B32)].len(), DENSE as usize);
        assert_eq!(f.get(&last_dense), Some(&4));
    }
}
