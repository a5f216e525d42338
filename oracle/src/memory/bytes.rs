//! [`Region`]: a named buffer of a memory program as a plain array of [`Byte`]s, each known
//! or unknown under the [`Allowance`] that made it so, with hex text in and out (`"??"` for
//! an unknown byte, bytes in address order).
//!
//! Unlike [`Image`](super::Image), a region has no access granularity: asynchronous copies
//! move arbitrary byte ranges, so every byte stands alone.
//!
//! Invariant: a region never grows or shrinks after it is made; every access outside it is a
//! [`RegionError`], never a panic.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use thiserror::Error;

use crate::semantics::Allowance;

/// One byte of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Byte {
    /// Its value.
    Known(u8),
    /// Any value, allowed by this allowance ([`Allowance::Undefined`] for bytes never written).
    Unknown(Allowance),
}

/// An access or a hex text a region cannot take.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RegionError {
    /// Bytes outside the region.
    #[error("bytes {start}..{end} lie outside the {len}-byte region")]
    Outside {
        /// First byte.
        start: u64,
        /// One past the last byte.
        end: u64,
        /// The region's size.
        len: u64,
    },
    /// A hex string that is not pairs of hex digits (or `??`).
    #[error("bad hex at character {at}: expected two hex digits or `??` per byte")]
    Hex {
        /// Character index of the bad pair.
        at: usize,
    },
}

/// A byte array whose bytes are known or unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    bytes: Vec<Byte>,
}

impl Region {
    /// `len` bytes never written: unknown under [`Allowance::Undefined`].
    pub fn unwritten(len: usize) -> Region {
        Region { bytes: vec![Byte::Unknown(Allowance::Undefined); len] }
    }

    /// `len` copies of `value`.
    pub fn filled(len: usize, value: u8) -> Region {
        Region { bytes: vec![Byte::Known(value); len] }
    }

    /// The bytes of `parts`, one after another.
    pub fn concat<'a>(parts: impl IntoIterator<Item = &'a Region>) -> Region {
        Region { bytes: parts.into_iter().flat_map(|r| r.bytes.iter().copied()).collect() }
    }

    /// Known bytes.
    pub fn from_bytes(bytes: &[u8]) -> Region {
        Region { bytes: bytes.iter().map(|&b| Byte::Known(b)).collect() }
    }

    /// Parses hex text: two hex digits per byte, or `??` for a byte unknown under
    /// [`Allowance::Undefined`].
    pub fn from_hex(text: &str) -> Result<Region, RegionError> {
        let chars: Vec<char> = text.chars().collect();
        if !chars.len().is_multiple_of(2) {
            return Err(RegionError::Hex { at: chars.len() - 1 });
        }
        let bytes = chars
            .chunks(2)
            .enumerate()
            .map(|(k, pair)| match pair {
                ['?', '?'] => Ok(Byte::Unknown(Allowance::Undefined)),
                [h, l] => match (h.to_digit(16), l.to_digit(16)) {
                    (Some(h), Some(l)) => Ok(Byte::Known((h * 16 + l) as u8)),
                    _ => Err(RegionError::Hex { at: 2 * k }),
                },
                _ => Err(RegionError::Hex { at: 2 * k }),
            })
            .collect::<Result<_, _>>()?;
        Ok(Region { bytes })
    }

    /// The bytes, each unknown one as `unknown` (what a device buffer that starts as this
    /// region holds, or a GPU's answer that matches it).
    pub fn known_or(&self, unknown: u8) -> Vec<u8> {
        self.bytes
            .iter()
            .map(|b| match b {
                Byte::Known(v) => *v,
                Byte::Unknown(_) => unknown,
            })
            .collect()
    }

    /// The bytes as hex text, `??` for an unknown byte.
    pub fn to_hex(&self) -> String {
        let mut s = String::with_capacity(2 * self.bytes.len());
        for b in &self.bytes {
            match b {
                Byte::Known(v) => {
                    let _ = write!(s, "{v:02x}");
                }
                Byte::Unknown(_) => s.push_str("??"),
            }
        }
        s
    }

    /// The allowances of the unknown bytes.
    pub fn allowances(&self) -> BTreeSet<Allowance> {
        self.bytes
            .iter()
            .filter_map(|b| match b {
                Byte::Unknown(a) => Some(*a),
                Byte::Known(_) => None,
            })
            .collect()
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the region has no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Checks `start..start + len`.
    fn range(&self, start: u64, len: u64) -> Result<std::ops::Range<usize>, RegionError> {
        let end = start.checked_add(len).filter(|&e| e <= self.bytes.len() as u64);
        match end {
            Some(end) => Ok(start as usize..end as usize),
            None => Err(RegionError::Outside { start, end: start.saturating_add(len), len: self.bytes.len() as u64 }),
        }
    }

    /// The `len` bytes at `start`.
    pub fn read(&self, start: u64, len: u64) -> Result<&[Byte], RegionError> {
        let r = self.range(start, len)?;
        Ok(&self.bytes[r])
    }

    /// Writes `bytes` at `start`.
    pub fn write(&mut self, start: u64, bytes: &[Byte]) -> Result<(), RegionError> {
        let r = self.range(start, bytes.len() as u64)?;
        self.bytes[r].copy_from_slice(bytes);
        Ok(())
    }

    /// Makes the `len` bytes at `start` unknown under `allowance`.
    pub fn forget(&mut self, start: u64, len: u64, allowance: Allowance) -> Result<(), RegionError> {
        let r = self.range(start, len)?;
        self.bytes[r].fill(Byte::Unknown(allowance));
        Ok(())
    }

    /// All bytes, in address order.
    pub fn bytes(&self) -> &[Byte] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_with_unknown_bytes() {
        let r = Region::from_hex("01ff??A0").unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r.read(1, 2).unwrap(), &[Byte::Known(0xff), Byte::Unknown(Allowance::Undefined)]);
        assert_eq!(r.to_hex(), "01ff??a0");
        assert_eq!(r.allowances().into_iter().collect::<Vec<_>>(), vec![Allowance::Undefined]);
        assert_eq!(Region::from_hex("0g"), Err(RegionError::Hex { at: 0 }));
        assert_eq!(Region::from_hex("012"), Err(RegionError::Hex { at: 2 }));
        assert_eq!(Region::from_hex("00?1"), Err(RegionError::Hex { at: 2 }));
    }

    #[test]
    fn writes_land_in_place_and_bounds_hold() {
        let mut r = Region::filled(4, 0xa5);
        r.write(1, &[Byte::Known(1), Byte::Known(2)]).unwrap();
        assert_eq!(r.to_hex(), "a50102a5");
        r.forget(3, 1, Allowance::NanPayload).unwrap();
        assert_eq!(r.to_hex(), "a50102??");
        assert!(r.allowances().contains(&Allowance::NanPayload));
        assert!(matches!(r.read(3, 2), Err(RegionError::Outside { start: 3, end: 5, len: 4 })));
        assert!(r.write(u64::MAX, &[Byte::Known(0)]).is_err());
        assert_eq!(Region::unwritten(2).to_hex(), "????");
        assert_eq!(Region::from_bytes(&[7]).to_hex(), "07");
    }
}
