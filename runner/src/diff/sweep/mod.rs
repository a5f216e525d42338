//! A conform sweep's comparison as a three-way [`Outcome`]: the checker's verdict on one
//! (form, backend) range ([`Checked`]: inputs compared, mismatches, the first ones) or the
//! backend's failure to produce results.
//!
//! Invariant: a failed backend is [`NotComparable`] even when the checker saw some results
//! before it failed; mismatches are a disagreement only from a backend that finished.

pub use crate::sweep_check::{Checked, Mismatch};

use super::{BackendFailure, NotComparable, Outcome};

/// The outcome of one (form, backend) sweep; the evidence of a disagreement is the checker's
/// count and first mismatches.
pub type SweepOutcome = Outcome<Checked>;

/// The outcome of a sweep on `backend`: not comparable when it failed, else a disagreement when
/// the checker found mismatches, else agreement.
pub fn outcome(backend: &str, checked: &Checked, failure: Option<&BackendFailure>) -> SweepOutcome {
    match failure {
        Some(f) => Outcome::NotComparable(NotComparable::BackendFailed { backend: backend.into(), failure: f.clone() }),
        None if checked.mismatches > 0 => Outcome::Disagree(checked.clone()),
        None => Outcome::Agree,
    }
}

#[cfg(test)]
mod tests {
    use super::super::FailureKind;
    use super::*;

    #[test]
    fn three_ways() {
        let clean = Checked { checked: 10, ..Checked::default() };
        let bad = Checked {
            checked: 10,
            mismatches: 1,
            examples: vec![Mismatch { index: 3, inputs: vec![], expected: "0x1".into(), actual: "0x2".into() }],
            ..Checked::default()
        };
        assert_eq!(outcome("cuda:jit", &clean, None), Outcome::Agree);
        assert_eq!(outcome("cuda:jit", &bad, None), Outcome::Disagree(bad.clone()));
        // A failed backend is not a disagreement, even with mismatches counted before it failed.
        let hang = BackendFailure::new(FailureKind::Hang, "no result within 5 s");
        for c in [&clean, &bad] {
            assert_eq!(
                outcome("cuda:jit", c, Some(&hang)),
                Outcome::NotComparable(NotComparable::BackendFailed {
                    backend: "cuda:jit".into(),
                    failure: hang.clone()
                })
            );
        }
    }
}
