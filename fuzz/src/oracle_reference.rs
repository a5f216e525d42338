//! The `oracle_reference` target: the oracle's `cvt` semantics agree with the independent
//! rustc_apfloat reference ([`oracle::reference`]) on every form it covers, for any source bits.
//!
//! Input layout (short inputs are padded with zero bytes): bytes 0..2 pick the form (little
//! endian, modulo the number of covered forms, in [`oracle::reference::forms`] order); bytes
//! 2..10 are source `a` and 10..18 source `b`, each masked to the form's source width
//! ([`oracle::reference::source_bits`]), as the `reference_cvt` test feeds them. The comparison
//! is [`oracle::reference::compare`]: exact lanes must be exact and equal, "any NaN" lanes must
//! be any-NaN sets in the oracle.

use std::sync::OnceLock;

use oracle::isa::{Cvt, Form};
use oracle::reference;
use oracle::semantics::cvt::CvtInputs;

/// Bytes of input the target reads (form index, `a`, `b`).
pub const INPUT_BYTES: usize = 18;

/// The forms the reference covers, computed once.
pub fn covered_forms() -> &'static [Cvt] {
    static FORMS: OnceLock<Vec<Cvt>> = OnceLock::new();
    FORMS.get_or_init(|| reference::forms().into_iter().filter(reference::covers).collect())
}

/// Decodes one input into a form and its sources.
pub fn decode(data: &[u8]) -> (Cvt, CvtInputs) {
    let mut b = [0u8; INPUT_BYTES];
    let n = data.len().min(INPUT_BYTES);
    b[..n].copy_from_slice(&data[..n]);
    let forms = covered_forms();
    let c = forms[usize::from(u16::from_le_bytes([b[0], b[1]])) % forms.len()];
    let bits = reference::source_bits(c.atype);
    let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
    let word = |k: usize| u64::from_le_bytes(b[k..k + 8].try_into().expect("8 bytes")) & mask;
    (c, CvtInputs { a: word(2), b: word(10), ..Default::default() })
}

/// The target's property for one input.
pub fn check(data: &[u8]) {
    let (c, x) = decode(data);
    let failures = reference::compare(&c, &x).expect("covered forms have a reference");
    assert!(
        failures.is_empty(),
        "{} disagrees with the reference on a={:#x} b={:#x}:\n{}",
        Form::Cvt(c).opcode(),
        x.a,
        x.b,
        failures.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Edge words that random bytes rarely hit: zeros, all ones, sign bits, infinities and
    /// NaNs of the 16/32/64-bit float formats.
    const EDGES: &[u64] =
        &[0, u64::MAX, 0x8000, 0x7C00, 0x7E01, 0x7F80, 0x8000_0000, 0x7F80_0000, 0x7FC0_0001, 0x7FF0_0000_0000_0000];

    /// A few hundred inputs: random bytes, and random forms on edge words.
    #[test]
    fn oracle_reference_smoke() {
        assert!(covered_forms().len() > 500, "only {} forms covered", covered_forms().len());
        let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
        for i in 0..600 {
            let mut data = rng.bytes(INPUT_BYTES);
            if i % 2 == 1 {
                data[2..10].copy_from_slice(&EDGES[rng.below(EDGES.len())].to_le_bytes());
                data[10..18].copy_from_slice(&EDGES[rng.below(EDGES.len())].to_le_bytes());
            }
            check(&data);
        }
        check(&[]);
    }

    #[test]
    fn decoding_masks_to_the_source_width() {
        let (c, x) = decode(&[0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
        assert_eq!(c, covered_forms()[0]);
        assert_eq!(x.a, u64::MAX >> (64 - reference::source_bits(c.atype)));
    }
}
