//! One conformance row ([`Row`]: a form on a backend, its counts, failure and verdict), how it
//! stands once its findings are recorded ([`Row::status`]: agrees, known findings only, a new
//! finding, failed without one), the recording of a run's findings onto its rows
//! ([`RowFindings`], [`Recording`]) and a failed row's finding class ([`failure_signature`]):
//! shared by the sweep rows ([`super::results`]) and the asynchronous rows
//! ([`super::async_rows`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::backend::BackendKind;
use crate::diff::sweep::{outcome, Checked, SweepOutcome};
use crate::diff::{BackendFailure, FailureKind};
use crate::findings::classify::gist;
use crate::findings::render::{RowLine, RowStatus};
use crate::findings::{Finding, FindingClass, FindingStore, Recorded, StoreError};
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
    /// Names of the `corpus/known/` entries that cover findings of this row (sorted, each
    /// once; empty in rows written before they were recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<String>,
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

    /// Whether the row fails (it does not agree).
    pub fn failing(&self) -> bool {
        self.mismatches > 0 || self.failure.is_some()
    }

    /// How the row stands, `is_new` telling which of its finding ids are new findings of the
    /// run (stored, not covered by `corpus/known/`): a failing row with a new finding is
    /// [`RowStatus::New`]; one whose findings are all known, [`RowStatus::Known`]; one without
    /// any finding (the environment stopped it), [`RowStatus::Failed`].
    pub fn status(&self, is_new: impl Fn(&str) -> bool) -> RowStatus {
        if !self.failing() {
            RowStatus::Agrees
        } else if self.findings.iter().any(|id| is_new(id)) {
            RowStatus::New
        } else if self.findings.is_empty() {
            RowStatus::Failed
        } else {
            RowStatus::Known
        }
    }

    /// The verdict in words: `agree`, `N of M mismatching`, or the failure's first line.
    pub fn verdict_text(&self) -> String {
        let first_line = |f: &BackendFailure| f.to_string().lines().next().unwrap_or("").chars().take(120).collect();
        match (&self.failure, self.mismatches) {
            (Some(f), 0) => first_line(f),
            (Some(f), n) => format!("{n} of {} mismatching; {}", self.checked, first_line(f)),
            (None, 0) => "agree".into(),
            (None, n) => format!("{n} of {} mismatching", self.checked),
        }
    }

    /// The row as the reports show it ([`RowLine`]); `is_new` as for [`Row::status`].
    pub fn line(&self, is_new: impl Fn(&str) -> bool) -> RowLine {
        let status = self.status(&is_new);
        let mut new: Vec<String> = self.findings.iter().filter(|id| is_new(id)).cloned().collect();
        new.dedup();
        RowLine {
            family: self.family().to_string(),
            form: self.form.clone(),
            backend: self.backend.clone(),
            inputs: self.checked,
            seconds: self.seconds,
            verdict: self.verdict_text(),
            status,
            new,
            known: self.known.clone(),
        }
    }
}

impl Row {
    /// The row's family name (`cvt`, `cvt.pack`, `prmt`, `cp.async.bulk.tensor`, …): the
    /// longest of [`super::FAMILIES`], [`generator::async_cases::ASYNC_FAMILIES`],
    /// `tensormap.replace` and `tensormap.cp_fenceproxy` (the sweep's cases through tensor-map
    /// objects) and `mbarrier`, `ld`,
    /// `st` and `mapa` (the remote forms' cases) that its opcode starts with.
    pub fn family(&self) -> &'static str {
        use oracle::isa::Family;
        super::FAMILIES
            .iter()
            .chain(&generator::async_cases::ASYNC_FAMILIES)
            .chain(&generator::async_cases::OBJECT_FAMILIES)
            .chain(&[Family::Mbarrier, Family::Ld, Family::St, Family::Mapa])
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

/// The findings of a run's rows as they are recorded: which rows (form, backend) each is part
/// of — a finding is part of the rows of its form on the backends its signature names — and
/// what the store did with it.
#[derive(Debug, Default)]
pub struct RowFindings {
    ids: BTreeMap<(String, String), Vec<String>>,
    known: BTreeMap<(String, String), Vec<String>>,
    /// What recording did, so far.
    pub rec: Recording,
}

impl RowFindings {
    /// Records `finding` (of form `form`, with its case text) in `store`.
    pub fn record(
        &mut self,
        store: &mut FindingStore,
        form: &str,
        finding: Finding,
        case: &str,
    ) -> Result<(), StoreError> {
        let key = finding.signature.key();
        let backends = finding.signature.backends.clone();
        let recorded = store.record(finding, case)?;
        for b in backends {
            let row = (form.to_string(), b);
            self.ids.entry(row.clone()).or_default().push(key.clone());
            if let Recorded::Known(name) = &recorded {
                self.known.entry(row).or_default().push(name.clone());
            }
        }
        match recorded {
            Recorded::New => self.rec.new += 1,
            Recorded::Duplicate => self.rec.duplicates += 1,
            Recorded::Known(_) => self.rec.known += 1,
        }
        Ok(())
    }

    /// Sets `findings` and `known` of each of `rows` from what was recorded.
    pub fn assign<'a>(&mut self, rows: impl IntoIterator<Item = &'a mut Row>) {
        for r in rows {
            let row = (r.form.clone(), r.backend.clone());
            r.findings = self.ids.remove(&row).unwrap_or_default();
            let mut known = self.known.remove(&row).unwrap_or_default();
            known.sort();
            known.dedup();
            r.known = known;
        }
    }
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
        FailureKind::Crash if kind == Some(BackendKind::PtxasCheck) => {
            (FindingClass::Crash, crate::ptxas::PTXAS_CRASH.into())
        }
        FailureKind::Crash => (FindingClass::Crash, "worker crash".into()),
        FailureKind::Hang => (FindingClass::Crash, "hang".into()),
        FailureKind::Other => (FindingClass::Crash, "harness".into()),
        FailureKind::OracleDefect => (FindingClass::OracleDefect, "fast kernel disagrees with the semantics".into()),
        FailureKind::Environment => return None,
    })
}
