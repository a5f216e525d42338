//! `--baseline FILE|DIR` of `ptxdiff conform` and `ptxdiff fuzz`: the finished run compared
//! with a stored one ([`super::compare`]), the changes printed as short lines and written as
//! `changes.json` and `changes.md` into the run directory, and the exit status they give.
//!
//! Invariant (the documented exit status): with a baseline, a run fails (status 1) only when
//! it has findings that the baseline does not have and that no `corpus/known/` entry covers
//! (with `conform --strict`: that the baseline does not have, known or not); newly failing rows
//! without a new finding, timing regressions and version changes are reported but do not fail
//! it.

use std::path::{Path, PathBuf};

use super::compare::{compare, Changes, KindMismatch};
use super::record::{RecordError, RunKind, RunRecord};
use crate::findings::KnownSet;

/// Why the comparison with a baseline failed.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The baseline or the run could not be read.
    #[error("reading the baseline: {0}")]
    Baseline(#[source] RecordError),
    /// The run just written could not be read back.
    #[error("reading the run back: {0}")]
    Run(#[source] RecordError),
    /// A conform run against a fuzz baseline, or the reverse.
    #[error(transparent)]
    Kind(#[from] KindMismatch),
    /// `changes.json` or `changes.md` could not be written.
    #[error("writing the changes into {}: {source}", dir.display())]
    Write {
        /// The run directory.
        dir: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// Compares the run in `run_dir` with `baseline` (a run directory or a file in one), prints
/// the changes on stdout, writes them into `run_dir`, and gives them.
pub fn check(baseline: &Path, run_dir: &Path, known: &KnownSet) -> Result<Changes, BaselineError> {
    let base = RunRecord::load(baseline).map_err(BaselineError::Baseline)?;
    let run = RunRecord::load(run_dir).map_err(BaselineError::Run)?;
    let changes = compare(&base, &run, known)?;
    for line in changes.lines() {
        println!("{line}");
    }
    changes.write(run_dir, true).map_err(|e| BaselineError::Write { dir: run_dir.to_path_buf(), source: e.into() })?;
    Ok(changes)
}

/// Fails (before the run) when `baseline` is no run of `kind`, so that a long run is not
/// wasted.
pub fn check_exists(baseline: &Path, kind: RunKind) -> Result<(), BaselineError> {
    let base = RunRecord::load(baseline).map_err(BaselineError::Baseline)?;
    if base.kind != kind {
        return Err(BaselineError::Kind(KindMismatch::new(&base, kind, Path::new("this run"))));
    }
    Ok(())
}

/// The exit status of a run compared with a baseline: failure only for new findings that are
/// not known — or, `strict` (`conform --strict`), for any new finding, known or not.
pub fn exit_status(changes: &Changes, strict: bool) -> std::process::ExitCode {
    if changes.new_unknown() > 0 || (strict && !changes.new_findings.is_empty()) {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
