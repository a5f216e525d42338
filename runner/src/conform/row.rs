//! One conformance row ([`Row`]: a form on a backend, its counts, failure and verdict), what
//! recording a run's findings did ([`Recording`]) and a failed row's finding class
//! ([`failure_signature`]): shared by the sweep rows ([`super::results`]) and the
//! asynchronous rows ([`super::async_rows`]).

use serde::{Deserialize, Serialize};

use crate::backend::BackendKind;
use crate::diff::sweep::{outcome, Checked, SweepOutcome};
use crate::diff::{BackendFailure, FailureKind};
use crate::findings::classify::gist;
use crate::findings::FindingClass;
use crate::sweep_check::Mismatch;

/// One (form, backend) sweep.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Row {
    /// Opcode.
    pub form: String,
    /// Backend name.
    pub backend: String,
    /// What kind of backend ran it, for the rows of this run (not in `rows.json`: `None` in
    /// rows read back from disk).
    #[serde(skip)]
    pub kind: Option<BackendKind>,
    /// Inputs checked.
    pub checked: u64,
    /// Inputs whose result the oracle does not admit.
    pub mismatches: u64,
    /// First mismatches.
    pub examples: Vec<Mismatch>,
    /// How the backend failed to produce results (assembler rejection, fault, crash, hang).
    pub failure: Option<BackendFailure>,
    /// Wall seconds.
    pub seconds: f64,
    /// The device it ran on (`0: NVIDIA H100 80GB HBM3`); `None` for backends that run in
    /// this process (and in rows written before devices were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// Where the worker spent the row's time (absent for rows no worker ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<crate::backend::Stages>,
    /// Ids (signature keys) of the findings this row is part of, known ones included.
    #[serde(default)]
    pub findings: Vec<String>,
}

impl Row {
    /// The row's verdict: agree, disagree (with the checker's evidence) or not comparable.
    pub fn outcome(&self) -> SweepOutcome {
        let checked = Checked {
            checked: self.checked,
            mismatches: self.mismatches,
            examples: self.examples.clone(),
            ..Checked::default()
        };
        outcome(&self.backend, &checked, self.failure.as_ref())
    }

    /// Whether the row fails the run (it does not agree).
    pub fn failing(&self) -> bool {
        self.mismatches > 0 || self.failure.is_some()
    }
}

impl Row {
    /// The row's family name (`cvt`, `cvt.pack`, `prmt`, `cp.async.bulk.tensor`, …): the
    /// longest of [`super::FAMILIES`], [`generator::async_cases::ASYNC_FAMILIES`] and
    /// `tensormap.replace` (the sweep's cases through tensor-map objects) that its opcode
    /// starts with.
    pub fn family(&self) -> &'static str {
        super::FAMILIES
            .iter()
            .chain(&generator::async_cases::ASYNC_FAMILIES)
            .chain(&[oracle::isa::Family::TensormapReplace])
            .map(|f| f.name())
            .filter(|n| self.form == *n || self.form.starts_with(&format!("{n}.")))
            .max_by_key(|n| n.len())
            .unwrap_or("other")
    }
}

/// What recording a run's findings did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// New findings.
    pub new: u64,
    /// Findings already stored in this run.
    pub duplicates: u64,
    /// Occurrences of known findings.
    pub known: u64,
}

/// The class and `how` of the failure of a backend of `kind`; `None` for an environment problem, which
/// fails the row but is no finding.
pub fn failure_signature(kind: Option<BackendKind>, f: &BackendFailure) -> Option<(FindingClass, String)> {
    Some(match f.kind {
        FailureKind::Rejected => (FindingClass::AssemblerRejection, gist(&f.message)),
        FailureKind::Fault => (
            FindingClass::Crash,
            f.message
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .find(|w| w.starts_with("CUDA_ERROR"))
                .unwrap_or("GPU fault")
                .to_string(),
        ),
        FailureKind::Crash if kind == Some(BackendKind::PtxasCheck) => (FindingClass::Crash, "ptxas crash".into()),
        FailureKind::Crash => (FindingClass::Crash, "worker crash".into()),
        FailureKind::Hang => (FindingClass::Crash, "hang".into()),
        FailureKind::Other => (FindingClass::Crash, "harness".into()),
        FailureKind::OracleDefect => (FindingClass::OracleDefect, "fast kernel disagrees with the semantics".into()),
        FailureKind::Environment => return None,
    })
}
