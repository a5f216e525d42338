//! `ptxdiff report merge`: one report from several runs of one target and options — the
//! shards of a run (`--shard i/N`), or runs of disjoint forms — written into a new directory
//! like any run: `rows.json` (conform), `findings.json` with `findings/` and `cases/` (through
//! the atomic [`FindingStore`]), and the rendered `summary.md`, `index.html`, `junit.xml`.
//!
//! Invariants:
//! - Rows come out in the unsharded run's order: by form in [`select_forms`] order (each
//!   form's rows in backend order), or, for a run grouped by backend (`Report::by_backend`:
//!   the run without a GPU), by backend in the order the run ran them, then by form. Within
//!   one form and backend the rows keep the order their run wrote them.
//! - Findings are merged by signature id, counts summed (saturating); known-finding counts
//!   likewise.
//! - Runs of another target or other options (shard aside), of both kinds, a run or a shard
//!   given twice, shards of different splits or a row in two runs are refused before anything is
//!   written; missing shards are reported ([`Merged::missing`]) and noted in the report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::record::{RecordError, RunKind, RunRecord};
use super::shard::Shard;
use crate::atomic_write::write_atomic;
use crate::conform::results::{Report, ROWS_JSON};
use crate::conform::{select_forms, Row};
use crate::findings::store::{RunLock, CASES_DIR, FINDINGS_JSON, LOCK_FILE};
use crate::findings::{render, FindingStore, FindingsDoc, KnownHit, KnownSet, RunMeta, StoreError};

/// Why runs could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("report merge: give at least one run")]
    NoRuns,
    /// A run could not be read.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The runs are not parts of one run.
    #[error(
        "cannot merge {first} and {other}: they differ in {what} ({a} vs {b}); merge only runs of one target and options"
    )]
    Mismatch {
        /// What differs.
        what: &'static str,
        /// The first run.
        first: String,
        /// The run that differs.
        other: String,
        /// The first run's value.
        a: String,
        /// The other's.
        b: String,
    },
    /// A shard given twice, or runs of different splits.
    #[error("cannot merge: {0}")]
    Shards(String),
    /// The same row in two runs.
    #[error("cannot merge: row {row} is in both {a} and {b} (overlapping runs; give each shard once)")]
    DuplicateRow {
        /// `form backend`.
        row: String,
        /// One run.
        a: String,
        /// The other.
        b: String,
    },
    /// `--out` holds something.
    #[error("{}: not empty; report merge writes a new run directory: give a new or empty one", .0.display())]
    OutNotEmpty(PathBuf),
    /// Writing failed.
    #[error("writing the merged run into {}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Storing the findings failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a merge wrote.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The merged run directory.
    pub dir: PathBuf,
    /// The merged conform record (`None` for fuzz runs).
    pub report: Option<Report>,
    /// The merged findings.
    pub findings: FindingsDoc,
    /// Shards of the split that no run covered.
    pub missing: Vec<Shard>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MergeError + '_ {
    move |source| MergeError::Io { path: path.to_path_buf(), source }
}

/// Checks that the runs are parts of one run; gives the shards no run covered.
fn check(runs: &[RunRecord]) -> Result<Vec<Shard>, MergeError> {
    let first = runs.first().ok_or(MergeError::NoRuns)?;
    let mismatch = |what, other: &RunRecord, a: String, b: String| MergeError::Mismatch {
        what,
        first: first.dir.display().to_string(),
        other: other.dir.display().to_string(),
        a,
        b,
    };
    let shard_of = |r: &RunRecord| -> Option<Shard> {
        match r.kind {
            RunKind::Conform => r.report.as_ref().and_then(|x| x.options.shard),
            RunKind::Fuzz => r.campaign.as_ref().and_then(|c| serde_json::from_value(c.get("shard")?.clone()).ok()),
        }
    };
    // The same run twice (by any path to it) would double every count of a fuzz run.
    let mut dirs: BTreeMap<PathBuf, &RunRecord> = BTreeMap::new();
    for r in runs {
        let dir = r.dir.canonicalize().unwrap_or_else(|_| r.dir.clone());
        if let Some(other) = dirs.insert(dir, r) {
            return Err(MergeError::Shards(format!(
                "the run {} is given twice (also as {}); give each run once",
                r.dir.display(),
                other.dir.display()
            )));
        }
    }
    for r in &runs[1..] {
        if r.kind != first.kind {
            return Err(mismatch("the kind of run", r, first.kind.name().into(), r.kind.name().into()));
        }
        if r.target() != first.target() {
            return Err(mismatch("the target", r, first.target(), r.target()));
        }
        if let (Some(a), Some(b)) = (&first.report, &r.report) {
            if a.by_backend != b.by_backend {
                let order = |x: bool| if x { "by backend (no GPU)" } else { "by form" }.to_string();
                return Err(mismatch("the row order", r, order(a.by_backend), order(b.by_backend)));
            }
            if a.options.unsharded() != b.options.unsharded() {
                let text =
                    |o: &crate::conform::results::RunOptions| serde_json::to_string(&o.unsharded()).unwrap_or_default();
                return Err(mismatch("the options", r, text(&a.options), text(&b.options)));
            }
        }
    }
    let shards: Vec<(Option<Shard>, &RunRecord)> = runs.iter().map(|r| (shard_of(r), r)).collect();
    let Some(count) = shards.iter().find_map(|(s, _)| s.map(|s| s.count)) else { return Ok(Vec::new()) };
    let mut seen: BTreeMap<u32, &RunRecord> = BTreeMap::new();
    for (s, r) in &shards {
        let Some(s) = s.filter(|s| s.count == count) else {
            return Err(MergeError::Shards(format!(
                "{} is not a shard of a {count}-way split (it has shard {}); merge the shards of one split",
                r.dir.display(),
                s.map_or_else(|| "none".into(), |s| s.to_string())
            )));
        };
        if let Some(other) = seen.insert(s.index, r) {
            return Err(MergeError::Shards(format!(
                "shard {s} is given twice ({} and {})",
                other.dir.display(),
                r.dir.display()
            )));
        }
    }
    Ok((1..=count).filter(|i| !seen.contains_key(i)).map(|index| Shard { index, count }).collect())
}

/// The conform rows of `reports` in the unsharded run's order (see the module invariants).
fn merge_rows(runs: &[RunRecord]) -> Result<Report, MergeError> {
    let reports: Vec<(&Report, &RunRecord)> = runs.iter().filter_map(|r| r.report.as_ref().map(|x| (x, r))).collect();
    let Some(&(first, _)) = reports.first() else { return Ok(Report::default()) };
    let mut merged = Report {
        target: first.target.clone(),
        environment: first.environment.clone(),
        on_gpu: reports.iter().any(|(r, _)| r.on_gpu),
        by_backend: first.by_backend,
        options: first.options.unsharded(),
        ptxdiff_version: first.ptxdiff_version.clone(),
        started_unix_s: reports.iter().map(|(r, _)| r.started_unix_s).filter(|&t| t > 0).min().unwrap_or(0),
        ..Report::default()
    };
    let mut owner: BTreeMap<(String, String), String> = BTreeMap::new();
    for (r, rec) in &reports {
        let here = rec.dir.display().to_string();
        for row in &r.rows {
            if let Some(a) = owner.insert((row.form.clone(), row.backend.clone()), here.clone()) {
                return Err(MergeError::DuplicateRow { row: format!("{} {}", row.form, row.backend), a, b: here });
            }
        }
        merged.rows.extend(r.rows.iter().cloned());
        merged.seconds += r.seconds;
        for b in &r.ran {
            if !merged.ran.contains(b) {
                merged.ran.push(b.clone());
            }
        }
        for (list, from) in [
            (&mut merged.not_run, &r.not_run),
            (&mut merged.forms_not_run, &r.forms_not_run),
            (&mut merged.environment, &r.environment),
        ] {
            for x in from {
                if !list.contains(x) {
                    list.push(x.clone());
                }
            }
        }
        for n in &r.notes {
            if !merged.notes.contains(n) {
                merged.notes.push(n.clone());
            }
        }
    }
    let form_order: BTreeMap<String, usize> = first
        .target
        .parse()
        .ok()
        .map(|t| select_forms(&t, first.options.forms.as_deref()))
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, f)| (f.opcode(), i))
        .collect();
    let form_rank = |r: &Row| form_order.get(&r.form).copied().unwrap_or(usize::MAX);
    // The run-level backend a row belongs to: the longest name in `ran` that the row's
    // backend is or starts with (`ptxas-check` for `ptxas-check-O3`).
    let ran = merged.ran.clone();
    let backend_rank = |r: &Row| {
        ran.iter()
            .enumerate()
            .filter(|(_, b)| r.backend == **b || r.backend.starts_with(&format!("{b}-")))
            .max_by_key(|(_, b)| b.len())
            .map_or(usize::MAX, |(i, _)| i)
    };
    if merged.by_backend {
        merged.rows.sort_by_key(|r| (backend_rank(r), form_rank(r)));
    } else {
        merged.rows.sort_by_key(form_rank);
    }
    Ok(merged)
}

/// Merges `runs` into the new run directory `out` (missing or empty); `command` is recorded.
pub fn merge(runs: &[RunRecord], out: &Path, command: &str) -> Result<Merged, MergeError> {
    let missing = check(runs)?;
    let mut report = match runs[0].kind {
        RunKind::Conform => Some(merge_rows(runs)?),
        RunKind::Fuzz => None,
    };
    let empty = || !std::fs::read_dir(out).is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.file_name() != LOCK_FILE)));
    if !empty() {
        return Err(MergeError::OutNotEmpty(out.to_path_buf()));
    }
    std::fs::create_dir_all(out).map_err(io(out))?;
    // Under the lock, nobody else is writing it; it must still be empty.
    let _lock = RunLock::acquire(out)?;
    if !empty() {
        return Err(MergeError::OutNotEmpty(out.to_path_buf()));
    }
    let run_id = out.file_name().map_or_else(|| "merged".into(), |n| n.to_string_lossy().into_owned());
    let sources: Vec<String> = runs.iter().map(|r| r.dir.display().to_string()).collect();
    let missing_note = (!missing.is_empty()).then(|| {
        let m: Vec<String> = missing.iter().map(Shard::to_string).collect();
        format!("shards missing from the merge: {}", m.join(", "))
    });
    let mut extra = BTreeMap::from([("merged from".to_string(), sources.join(", "))]);
    if let Some(r) = report.as_mut() {
        r.run_id = run_id.clone();
        r.notes.extend(missing_note.clone());
        extra.insert("rows".into(), r.rows.len().to_string());
        extra.insert("failing rows".into(), r.failing().count().to_string());
        extra.insert("inputs checked".into(), r.rows.iter().map(|x| x.checked).sum::<u64>().to_string());
    }
    if let Some(n) = &missing_note {
        extra.insert("note".into(), n.clone());
    }
    let docs: Vec<(&FindingsDoc, &RunRecord)> =
        runs.iter().filter_map(|r| r.findings.as_ref().map(|d| (d, r))).collect();
    let first_meta = docs.first().map(|(d, _)| d.run.clone()).unwrap_or_default();
    let meta = RunMeta {
        run_id: run_id.clone(),
        kind: runs[0].kind.name().to_string(),
        started_unix_s: docs.iter().map(|(d, _)| d.run.started_unix_s).filter(|&t| t > 0).min().unwrap_or(0),
        ended_unix_s: docs.iter().map(|(d, _)| d.run.ended_unix_s).max().unwrap_or(0),
        command: command.to_string(),
        target: runs[0].target(),
        environment: report.as_ref().map_or(first_meta.environment, |r| r.environment.clone()),
        extra,
    };
    let mut store = FindingStore::create(out, meta, KnownSet::empty())?;
    let mut known: Vec<KnownHit> = Vec::new();
    for (doc, rec) in &docs {
        for f in &doc.findings {
            // The case file is named by the signature's key, recomputed here rather than taken
            // from the stored id, so no id from a file can point outside `cases/`.
            let case_path = rec.dir.join(CASES_DIR).join(format!("{}.case", f.signature.key()));
            let case = crate::atomic_write::read_capped(&case_path)
                .unwrap_or_else(|_| format!("// no case file in {}\n", rec.dir.display()));
            let mut f = f.clone();
            f.replay = String::new();
            store.record(f, &case)?;
        }
        for h in &doc.known {
            match known.iter_mut().find(|k| k.id == h.id) {
                Some(k) => {
                    k.count = k.count.saturating_add(h.count);
                    for (sig, n) in &h.signatures {
                        let c = k.signatures.entry(sig.clone()).or_default();
                        *c = c.saturating_add(*n);
                    }
                }
                None => known.push(h.clone()),
            }
        }
    }
    let mut findings = store.doc().clone();
    findings.known = known;
    let json = out.join(FINDINGS_JSON);
    let text = serde_json::to_string_pretty(&findings).map_err(StoreError::from)?;
    write_atomic(&json, text).map_err(io(&json))?;
    if let Some(r) = &report {
        let rows = out.join(ROWS_JSON);
        let text = serde_json::to_string_pretty(r).map_err(StoreError::from)?;
        write_atomic(&rows, text).map_err(io(&rows))?;
    }
    let rows = report.as_ref().map(|r| r.run_rows(&findings));
    render::write_all(out, &findings, rows.as_ref()).map_err(io(out))?;
    Ok(Merged { dir: out.to_path_buf(), report: report.take(), findings, missing })
}
