//! [`Image`]: the bytes of one memory region (a global buffer, a CTA's shared memory), each
//! known or unknown, read and written `n` bytes at a time.
//!
//! Representation: one 32-bit [`Expected`] per [`GRANULE`] of 4 bytes. A read or write inside
//! one granule takes or replaces a field of it (other free fields keep their part outside the
//! window, as "any value"); a wider access is whole granules, the value split at granule
//! boundaries on the way in and concatenated on the way out.

use thiserror::Error;

use crate::semantics::{Allowance, Expected};

/// Bytes per granule: the unit within which a free field keeps its constraint.
pub const GRANULE: usize = 4;

/// The widest access in bytes (an [`Expected`] holds at most 128 bits).
const MAX_ACCESS: usize = 16;

/// An access an image cannot serve: outside it, misaligned, or of an unsupported size.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("access of {bytes} bytes at byte {at} of a {len}-byte image: {why}")]
pub struct Misaccess {
    /// First byte.
    pub at: usize,
    /// Bytes accessed.
    pub bytes: usize,
    /// The image's size in bytes.
    pub len: usize,
    /// What is wrong.
    pub why: &'static str,
}

/// A byte-addressed memory region whose bytes are known or unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    granules: Vec<Expected>,
}

impl Image {
    /// Known bytes: `words`, little endian, word 0 at byte 0.
    pub fn from_words(words: &[u32]) -> Image {
        Image { granules: words.iter().map(|&w| Expected::exact(u128::from(w), 32)).collect() }
    }

    /// `granules × 4` zero bytes.
    pub fn zeroed(granules: usize) -> Image {
        Image { granules: vec![Expected::exact(0, 32); granules] }
    }

    /// `granules × 4` bytes of any value, under `allowance`.
    pub fn unknown(granules: usize, allowance: Allowance) -> Image {
        Image { granules: vec![Expected::any(32, allowance); granules] }
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        GRANULE * self.granules.len()
    }

    /// Whether the image has no bytes.
    pub fn is_empty(&self) -> bool {
        self.granules.is_empty()
    }

    /// Checks an access of `bytes` bytes at `at`: 1, 2, 4, 8 or 16 bytes, naturally aligned,
    /// inside the image.
    fn check(&self, at: usize, bytes: usize) -> Result<(), Misaccess> {
        let fail = |why| Err(Misaccess { at, bytes, len: self.len(), why });
        if !bytes.is_power_of_two() || bytes > MAX_ACCESS {
            return fail("the size is not 1, 2, 4, 8 or 16 bytes");
        }
        if !at.is_multiple_of(bytes) {
            return fail("misaligned");
        }
        if at.checked_add(bytes).is_none_or(|end| end > self.len()) {
            return fail("outside the image");
        }
        Ok(())
    }

    /// The `bytes` bytes at `at`, as an [`Expected`] of `8 × bytes` bits (byte `at` in the low
    /// bits).
    pub fn read(&self, at: usize, bytes: usize) -> Result<Expected, Misaccess> {
        self.check(at, bytes)?;
        let bits = 8 * bytes as u32;
        if bytes <= GRANULE {
            return Ok(self.granules[at / GRANULE].field(8 * (at % GRANULE) as u32, bits));
        }
        let mut v = Expected::exact(0, bits);
        for k in 0..bytes / GRANULE {
            v.replace(32 * k as u32, self.granules[at / GRANULE + k].clone());
        }
        Ok(v)
    }

    /// Writes `value` (a whole number of bytes, byte `at` in its low bits) at `at`.
    pub fn write(&mut self, at: usize, value: Expected) -> Result<(), Misaccess> {
        let bytes = value.width as usize / 8;
        if !value.width.is_multiple_of(8) {
            return Err(Misaccess { at, bytes, len: self.len(), why: "the value is not whole bytes" });
        }
        self.check(at, bytes)?;
        if bytes <= GRANULE {
            self.granules[at / GRANULE].replace(8 * (at % GRANULE) as u32, value);
            return Ok(());
        }
        for k in 0..bytes / GRANULE {
            self.granules[at / GRANULE + k] = value.field(32 * k as u32, 32);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::F16;
    use crate::semantics::{Constraint, Free};

    fn nan16() -> Expected {
        let free =
            vec![Free { shift: 0, width: 16, constraint: Constraint::AnyNan(&F16), allowance: Allowance::NanPayload }];
        Expected { bits: 0x7E00, width: 16, free }
    }

    #[test]
    fn reads_give_back_what_was_written_byte_for_byte() {
        let mut m = Image::from_words(&[0x4433_2211, 0x8877_6655]);
        assert_eq!(m.len(), 8);
        assert_eq!(m.read(1, 1).unwrap(), Expected::exact(0x22, 8));
        assert_eq!(m.read(0, 8).unwrap(), Expected::exact(0x8877_6655_4433_2211, 64));
        m.write(2, Expected::exact(0xBEEF, 16)).unwrap();
        assert_eq!(m.read(0, 4).unwrap(), Expected::exact(0xBEEF_2211, 32));
        m.write(0, Expected::exact(0x0102_0304_0506_0708, 64)).unwrap();
        assert_eq!(m.read(4, 2).unwrap(), Expected::exact(0x0304, 16));
    }

    #[test]
    fn unknown_bytes_and_constraints_stay_where_they_were_stored() {
        let mut m = Image::zeroed(4);
        m.write(6, nan16()).unwrap();
        let half = m.read(6, 2).unwrap();
        assert!(half.matches(0xFFFF) && half.matches(0x7C01) && !half.matches(0x7C00), "any f16 NaN");
        let word = m.read(4, 4).unwrap();
        assert!(word.matches(0x7E01_0000) && !word.matches(0x7E01_0001), "the low half stays known zero");
        let shared = Image::unknown(1, Allowance::Undefined);
        assert!(!shared.read(0, 4).unwrap().is_exact());
        // A 16-byte round trip keeps each granule.
        let v = m.read(0, 16).unwrap();
        let mut n = Image::zeroed(4);
        n.write(0, v).unwrap();
        assert_eq!(n, m);
    }

    #[test]
    fn bad_accesses_are_errors() {
        let mut m = Image::zeroed(2);
        for (at, bytes, why) in [(6, 4, "misaligned"), (8, 1, "outside"), (0, 3, "size"), (4, 8, "misaligned")] {
            let e = m.read(at, bytes).unwrap_err();
            assert!(e.to_string().contains(why), "{e} (expected {why})");
        }
        assert!(m.write(8, Expected::exact(0, 8)).is_err());
        assert!(m.write(0, Expected::exact(0, 12)).is_err());
        assert!(m.read(usize::MAX, 1).is_err());
    }
}
