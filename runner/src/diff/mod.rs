//! The diff layer: what backends produced, compared with what the oracle admits, below the
//! worker and the commands. Both pipelines use it: `fuzz` compares a program's output words
//! ([`program`]), `conform` a sweep row's results ([`sweep`]).
//!
//! Every comparison ends in one three-way [`Outcome`]:
//! - [`Outcome::Agree`]: every backend that produced results produced what the oracle admits;
//! - [`Outcome::Disagree`]: some did not, with the evidence (which backends, how, the first
//!   mismatches);
//! - [`Outcome::NotComparable`]: there was nothing to compare — a backend failed (rejected,
//!   crashed, faulted, hung) or the oracle refused the program — with the reason.
//!
//! Invariant: a failure is never a disagreement. A backend that produced no results is
//! [`NotComparable`], whatever the oracle expected; what a failure means on its own (a crash,
//! an assembler rejection) is the findings layer's business, not the comparison's.

pub mod program;
pub mod sweep;

pub use crate::failure::{BackendFailure, FailureKind};

use std::fmt;

use serde::{Deserialize, Serialize};

/// The result of comparing backends with the oracle; `E` is the evidence of a disagreement.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome<E> {
    /// Every result is admitted by the oracle.
    Agree,
    /// Some results are not, and this shows which and how.
    Disagree(E),
    /// Nothing could be compared, for this reason.
    NotComparable(NotComparable),
}

impl<E> Outcome<E> {
    /// The evidence, when the backends disagree with the oracle.
    pub fn disagreement(&self) -> Option<&E> {
        match self {
            Outcome::Disagree(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the backends agree with the oracle.
    pub fn agrees(&self) -> bool {
        matches!(self, Outcome::Agree)
    }
}

/// Why nothing could be compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotComparable {
    /// A backend produced no results.
    BackendFailed {
        /// The backend.
        backend: String,
        /// How it failed.
        failure: BackendFailure,
    },
    /// No backend produced results (each failure is reported on its own).
    NoResults,
    /// The oracle refused the program (it breaks an invariant of the program model).
    OracleRefused(String),
}

impl fmt::Display for NotComparable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotComparable::BackendFailed { backend, failure } => write!(f, "{backend}: {failure}"),
            NotComparable::NoResults => f.write_str("no backend produced results"),
            NotComparable::OracleRefused(why) => write!(f, "the oracle refuses the program: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_read_as_before() {
        let cases = [
            (FailureKind::Rejected, "rejected: m"),
            (FailureKind::Fault, "GPU fault: m"),
            (FailureKind::Crash, "worker crashed: m"),
            (FailureKind::Hang, "hang: m"),
            (FailureKind::Other, "m"),
        ];
        for (kind, text) in cases {
            let f = BackendFailure::new(kind, "m");
            assert_eq!(f.to_string(), text);
            assert_eq!(f.kills_worker(), !matches!(kind, FailureKind::Rejected | FailureKind::Other));
        }
        let n = NotComparable::BackendFailed {
            backend: "cuda:jit".into(),
            failure: BackendFailure::new(FailureKind::Hang, "5 s"),
        };
        assert_eq!(n.to_string(), "cuda:jit: hang: 5 s");
        let o: Outcome<()> = Outcome::NotComparable(n);
        assert!(!o.agrees() && o.disagreement().is_none());
    }
}
