//! A finished run read back from disk, whichever command wrote it: a conform run (its
//! `rows.json` record, [`Report`], and its `findings.json`) or a fuzz campaign (its
//! `findings.json`, the machine-readable summary with every finding's signature id and count,
//! and `campaign.json`, the seed, shard and counters). A run is named by its directory or by
//! one of those files in it.
//!
//! Invariant: loading never writes; the rows are also kept as raw JSON values, so that fields
//! this build does not know (added by a newer one) can still be compared.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::conform::results::{Report, ROWS_JSON};
use crate::findings::store::FINDINGS_JSON;
use crate::findings::{FindingsDoc, StoreError};

/// File name of a fuzz campaign's state.
pub const CAMPAIGN_JSON: &str = "campaign.json";

/// Which command wrote a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunKind {
    /// `ptxdiff conform` (has `rows.json`).
    Conform,
    /// `ptxdiff fuzz` (has `campaign.json`, no `rows.json`).
    Fuzz,
}

impl RunKind {
    /// `conform` or `fuzz`.
    pub fn name(self) -> &'static str {
        match self {
            RunKind::Conform => "conform",
            RunKind::Fuzz => "fuzz",
        }
    }
}

/// Why a run could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The path holds no run.
    #[error(
        "{}: not a ptxdiff run (give a run directory such as reports/conform-…, or its rows.json or findings.json)",
        path.display()
    )]
    NotARun {
        /// The path given.
        path: PathBuf,
    },
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A file is not what the run should hold.
    #[error("{}: {message} (the file is corrupt or not a ptxdiff run record)", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// The findings could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A run read back.
#[derive(Clone, Debug)]
pub struct RunRecord {
    /// Its directory.
    pub dir: PathBuf,
    /// Which command wrote it.
    pub kind: RunKind,
    /// A conform run's record (`rows.json`).
    pub report: Option<Report>,
    /// The rows of `rows.json` as raw JSON, in the same order as `report.rows`.
    pub raw_rows: Vec<serde_json::Value>,
    /// Its findings (`findings.json`), when the directory has them.
    pub findings: Option<FindingsDoc>,
    /// A fuzz campaign's state (`campaign.json`), as raw JSON.
    pub campaign: Option<serde_json::Value>,
}

fn read_json(path: &Path) -> Result<serde_json::Value, RecordError> {
    let text =
        crate::atomic_write::read_capped(path).map_err(|source| RecordError::Io { path: path.into(), source })?;
    serde_json::from_str(&text).map_err(|e| RecordError::Corrupt { path: path.into(), message: e.to_string() })
}

impl RunRecord {
    /// Reads the run at `path`: a run directory, or a `rows.json`, `findings.json` or
    /// `campaign.json` in one.
    pub fn load(path: &Path) -> Result<RunRecord, RecordError> {
        let dir = if path.is_file() {
            path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        } else if path.is_dir() {
            path.to_path_buf()
        } else {
            return Err(RecordError::NotARun { path: path.into() });
        };
        let rows_path = dir.join(ROWS_JSON);
        let (report, raw_rows) = if rows_path.is_file() {
            let value = read_json(&rows_path)?;
            let raw_rows = value.get("rows").and_then(|r| r.as_array()).cloned().unwrap_or_default();
            let report: Report = serde_json::from_value(value)
                .map_err(|e| RecordError::Corrupt { path: rows_path.clone(), message: e.to_string() })?;
            (Some(report), raw_rows)
        } else {
            (None, Vec::new())
        };
        let findings = if dir.join(FINDINGS_JSON).is_file() || dir.join("findings").is_dir() {
            Some(FindingsDoc::load(&dir)?)
        } else {
            None
        };
        let campaign_path = dir.join(CAMPAIGN_JSON);
        let campaign = if campaign_path.is_file() { Some(read_json(&campaign_path)?) } else { None };
        let kind = match (&report, &campaign, &findings) {
            (Some(_), _, _) => RunKind::Conform,
            (None, Some(_), _) | (None, None, Some(_)) => RunKind::Fuzz,
            (None, None, None) => return Err(RecordError::NotARun { path: path.into() }),
        };
        Ok(RunRecord { dir, kind, report, raw_rows, findings, campaign })
    }

    /// The run id: the record's own, else the directory's name.
    pub fn run_id(&self) -> String {
        let own = match (&self.report, &self.findings) {
            (Some(r), _) if !r.run_id.is_empty() => Some(r.run_id.clone()),
            (_, Some(d)) if !d.run.run_id.is_empty() => Some(d.run.run_id.clone()),
            _ => None,
        };
        own.unwrap_or_else(|| self.dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()))
    }

    /// The target (`sm_90@8.7`; fuzz runs may record it without the PTX version).
    pub fn target(&self) -> String {
        match (&self.report, &self.findings) {
            (Some(r), _) => r.target.clone(),
            (None, Some(d)) => d.run.target.clone(),
            (None, None) => String::new(),
        }
    }

    /// Device, driver and tool versions as the run recorded them.
    pub fn environment(&self) -> Vec<(String, String)> {
        match (&self.report, &self.findings) {
            (Some(r), _) => r.environment.clone(),
            (None, Some(d)) => d.run.environment.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// The ptxdiff version that wrote the run (empty when not recorded).
    pub fn ptxdiff_version(&self) -> String {
        self.report.as_ref().map(|r| r.ptxdiff_version.clone()).unwrap_or_default()
    }

    /// Every finding id the run holds: its stored findings and the ids its rows name (known
    /// findings among them).
    pub fn finding_ids(&self) -> BTreeSet<String> {
        let stored = self.findings.iter().flat_map(|d| d.findings.iter().map(|f| f.id.clone()));
        let rows = self.report.iter().flat_map(|r| r.rows.iter().flat_map(|row| row.findings.iter().cloned()));
        stored.chain(rows).collect()
    }
}
