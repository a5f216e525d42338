//! Randomness sources: the byte stream libFuzzer or a seed provides ([`Unstructured`]) and a
//! fixed PRNG (SplitMix64, Steele, Lea & Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014) for seeded runs and for input words.
//!
//! Invariant: both are infallible behind [`Rng`] (an exhausted byte stream reads as zeros, as
//! `Unstructured` itself does), and SplitMix64 is pure integer arithmetic, so a seed gives the
//! same bytes on every machine.

use arbitrary::Unstructured;

/// SplitMix64: a 64-bit state advanced by the golden-ratio increment and finalized.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `n` bytes of output, little-endian words.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(n + 8);
        while out.len() < n {
            out.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        out.truncate(n);
        out
    }
}

/// What the value pools draw from.
pub trait Rng {
    /// 64 random bits.
    fn bits(&mut self) -> u64;
    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64;
    /// `true` with probability `p`/1000.
    fn permille(&mut self, p: u32) -> bool {
        self.below(1000) < u64::from(p)
    }
    /// One element of a non-empty slice.
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

impl Rng for SplitMix64 {
    fn bits(&mut self) -> u64 {
        self.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        // Lemire's multiply-shift; the bias (< n / 2^64) is irrelevant here.
        ((u128::from(self.next_u64()) * u128::from(n.max(1))) >> 64) as u64
    }
}

impl Rng for Unstructured<'_> {
    fn bits(&mut self) -> u64 {
        self.arbitrary::<u64>().unwrap_or(0)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.int_in_range(0..=n.max(1) - 1).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs for seed 0 from the reference implementation (Vigna, splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_even_when_exhausted() {
        let mut u = Unstructured::new(&[0xFF, 0xFF]);
        for _ in 0..10 {
            assert!(u.below(7) < 7);
        }
        let mut r = SplitMix64::new(1);
        assert!((0..1000).all(|_| r.below(3) < 3));
    }
}
