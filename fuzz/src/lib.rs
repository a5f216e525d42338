//! Library code behind the cargo-fuzz targets, so that the same checks run as smoke tests under
//! `cargo test` without libFuzzer. Each `fuzz_targets/<name>.rs` is a few lines that call the
//! function of the module of the same name; each module has a `#[test]` that feeds it a few
//! hundred deterministic pseudo-random inputs.
//!
//! Targets:
//! - [`parse`]: arbitrary text never panics the instruction parser nor the program parser
//!   (modules and cases), and whatever parses prints canonically and parses back to the same
//!   value (print∘parse is the identity).
//! - [`oracle_reference`]: the oracle's `cvt` semantics agree with the rustc_apfloat reference
//!   model (`oracle::reference`) on every form it covers.
//! - [`generate`]: every program the generator builds from the bytes is valid for its target,
//!   prints and parses back to itself, and runs on the program oracle without error.
//! - [`minimize`]: the reducer keeps a predicate picked from the bytes, never grows the
//!   program, and leaves a case the oracle runs.
//! - [`memory_generate`]: every memory program (asynchronous copies) the generator builds from
//!   the bytes builds, runs on the memory interpreter without being called undefined, and
//!   prints as PTX; generation ends on any input.
//! - [`memory_line`]: arbitrary statement text in a memory program never panics the parser,
//!   the register typer or the interpreter; every refusal is a message naming the statement.
//! - [`tensor_map`]: tensor-map encode rules, loads and `tensormap.replace` never panic; a load
//!   never lays out more than shared memory holds.

pub mod generate;
pub mod memory_generate;
pub mod memory_line;
pub mod minimize;
pub mod oracle_reference;
pub mod parse;
pub mod tensor_map;

/// The deterministic pseudo-random source of the smoke tests (xorshift64).
#[cfg(test)]
pub(crate) struct Rng(u64);

#[cfg(test)]
impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// `n` pseudo-random bytes.
    pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}
