//! A conform run's results — one [`Row`] per (form, backend) sweep, the [`Report`] of the
//! run — and how they become findings: a disagreement or a failed backend is a [`Finding`]
//! like a fuzz one (same [`Signature`], matched against `corpus/known/`, written through the
//! atomic [`FindingStore`], rendered by the same renderers), with a case file that
//! `ptxdiff replay` runs ([`super::case`]).
//!
//! Signatures, per form: the backends whose results the oracle does not admit, of class
//! `compiler` when another backend's results on the same form were all admitted or the
//! disagreeing backends differ on their first mismatching input, else `hardware-spec`; the input
//! class of that input's first source; how its result differs. A backend that failed (rejected,
//! faulted, crashed, hung) is a finding of its own: `assembler-rejection` or `crash`. Each
//! finding carries the ptxas version verdict of the form's rows (wrong rows against agreeing
//! ones, [`crate::findings::versions`]).
//!
//! A run directory (`reports/<run-id>/`, [`write_run`]) is a findings run — `findings.json`,
//! `findings/`, `cases/`, and the rendered `summary.md`, `index.html`, `junit.xml` — plus
//! `rows.json`, the run's self-describing record: target, environment (device, driver, each
//! ptxas), the options that decide its rows ([`RunOptions`]: forms, exhaustive, samples,
//! allowances off, backends, shard), the ptxdiff version, the start time, the forms that could
//! not run, and every row with its verdict, counts, seconds, the ids of the findings it produced
//! and the `corpus/known/` entries that cover them. Fields added later are
//! `#[serde(default)]`, so older `rows.json` files still load. [`Report::run_rows`] gives the
//! rows as the reports and the terminal summary show them.
//!
//! Invariant: a row's verdict (agree, disagree, not comparable) is [`Row::outcome`], the diff
//! layer's; recording findings never changes it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use generator::sweep::sweep_kernel;
use oracle::isa::{Form, Target};
use oracle::semantics::operands::source_slots;
use oracle::semantics::{Allowances, Expected};
use serde::{Deserialize, Serialize};

use super::async_rows::{is_async_row, record_async_findings};
use super::case::case_text;
use super::row::failure_signature;
use super::row::RowFindings;
pub use super::row::{Recording, Row};
use crate::atomic_write::write_atomic;
use crate::backend::BackendKind;
use crate::diff::program::{decoded, how_bits};
use crate::diff::{FailureKind, Outcome};
use crate::findings::classify::input_class;
use crate::findings::render::{NotRun, RunRows};
use crate::findings::versions;
use crate::findings::{
    render, Finding, FindingClass, FindingStore, FindingsDoc, KnownSet, RunMeta, Signature, StoreError, WordMismatch,
};
use crate::sweep_check::{Checker, Mismatch};

/// The options of a conform run that decide which rows it has and what they check: two runs
/// with equal options (and target) have comparable rows; shards of one run differ only in
/// `shard`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunOptions {
    /// `--forms` glob.
    pub forms: Option<String>,
    /// `--exhaustive`.
    pub exhaustive: bool,
    /// `--samples`.
    pub samples: u64,
    /// Allowances switched off, sorted.
    pub allow_off: Vec<String>,
    /// `--backends` as given (empty: the defaults).
    pub backends: Vec<String>,
    /// `--shard`.
    pub shard: Option<crate::runs::shard::Shard>,
    /// `--no-async`: the asynchronous-copy rows were left out.
    pub no_async: bool,
}

impl RunOptions {
    /// The options with the shard left out: what shards of one run share.
    pub fn unsharded(&self) -> RunOptions {
        RunOptions { shard: None, ..self.clone() }
    }
}

/// A whole run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Report {
    /// Run id (directory name).
    pub run_id: String,
    /// Target, with its PTX version (`sm_90@8.7`).
    pub target: String,
    /// Device, driver and tool versions, or why the GPU was unavailable.
    pub environment: Vec<(String, String)>,
    /// Rows.
    pub rows: Vec<Row>,
    /// Total wall seconds.
    pub seconds: f64,
    /// The backends that ran.
    #[serde(default)]
    pub ran: Vec<String>,
    /// The backends that did not run, and why.
    #[serde(default)]
    pub not_run: Vec<(String, String)>,
    /// Whether a GPU backend ran.
    #[serde(default)]
    pub on_gpu: bool,
    /// What the run did differently from what was asked (e.g. `--exhaustive` capped).
    #[serde(default)]
    pub notes: Vec<String>,
    /// The rows are grouped by backend, each backend's rows in form order (the run without a
    /// GPU sweeps backend by backend); otherwise they are in form order, each form's rows in
    /// backend order.
    #[serde(default)]
    pub by_backend: bool,
    /// The options that decide the rows.
    #[serde(default)]
    pub options: RunOptions,
    /// The ptxdiff version that wrote the run.
    #[serde(default)]
    pub ptxdiff_version: String,
    /// When the run started, seconds since the Unix epoch (0 in runs written before it was
    /// recorded).
    #[serde(default)]
    pub started_unix_s: u64,
    /// Forms that could not run at all, and why (asynchronous forms the oracle does not model).
    #[serde(default)]
    pub forms_not_run: Vec<(String, String)>,
}

impl Report {
    /// Rows with mismatches or failures.
    pub fn failing(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.failing())
    }

    /// The rows as the reports show them, with `doc` (the run's findings) telling new findings
    /// from known ones, and the backends and forms that did not run.
    pub fn run_rows(&self, doc: &FindingsDoc) -> RunRows {
        let new: std::collections::BTreeSet<&str> = doc.findings.iter().map(|f| f.id.as_str()).collect();
        let not_run = self.not_run.iter().chain(&self.forms_not_run);
        RunRows {
            rows: self.rows.iter().map(|r| r.line(|id| new.contains(id))).collect(),
            not_run: not_run.map(|(what, why)| NotRun { what: what.clone(), why: why.clone() }).collect(),
        }
    }
}

/// File name of the rows of a run, with their verdicts.
pub const ROWS_JSON: &str = "rows.json";

/// Creates a new run directory `dir/<base>/`, or `dir/<base>-2/`, `-3`, … when that exists
/// (runs started in the same second): created exclusively, so that no run ever writes into
/// another's. Gives the directory and its name.
pub fn create_run_dir(dir: &Path, base: &str) -> std::io::Result<(PathBuf, String)> {
    std::fs::create_dir_all(dir)?;
    for n in 1..=10_000u32 {
        let name = if n == 1 { base.to_string() } else { format!("{base}-{n}") };
        let path = dir.join(&name);
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok((path, name)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::AlreadyExists, format!("{base}-2 … {base}-10000 all exist")))
}

/// A written run: its directory, what recording its findings did, and its rows as the reports
/// show them.
#[derive(Debug)]
pub struct Written {
    /// The run directory.
    pub dir: PathBuf,
    /// What recording did.
    pub rec: Recording,
    /// The rows with their status ([`Report::run_rows`]).
    pub rows: RunRows,
}

/// Writes a new run directory `dir/<run id>/` for `report` (made unique by
/// [`create_run_dir`], which sets `report.run_id`): every failing row recorded as a finding
/// (known ones counted under their `corpus/known/` entry), `rows.json`, and the rendered
/// reports with the run's start (the report's) and end (now).
pub fn write_run(
    dir: &Path,
    report: &mut Report,
    command: &str,
    allow: &Allowances,
    known: KnownSet,
) -> anyhow::Result<Written> {
    use anyhow::Context as _;
    let target: Target = report.target.parse().with_context(|| format!("the run's target `{}`", report.target))?;
    let (out, run_id) = create_run_dir(dir, &report.run_id)
        .with_context(|| format!("creating a run directory {} under {}", report.run_id, dir.display()))?;
    report.run_id = run_id;
    let inputs: u64 = report.rows.iter().map(|r| r.checked).sum();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let meta = RunMeta {
        run_id: report.run_id.clone(),
        kind: "conform".into(),
        started_unix_s: if report.started_unix_s == 0 { now } else { report.started_unix_s },
        ended_unix_s: now,
        command: command.to_string(),
        target: report.target.clone(),
        environment: report.environment.clone(),
        extra: BTreeMap::from([
            ("rows".to_string(), report.rows.len().to_string()),
            ("failing rows".to_string(), report.failing().count().to_string()),
            ("inputs checked".to_string(), inputs.to_string()),
            ("seconds".to_string(), format!("{:.1}", report.seconds)),
        ]),
    };
    let mut store = FindingStore::create(&out, meta, known)?;
    let rec = record_findings(report, &target, allow, &mut store)?;
    let report = &*report;
    let rows = out.join(ROWS_JSON);
    write_atomic(&rows, serde_json::to_string_pretty(report)?)
        .with_context(|| format!("writing {}", rows.display()))?;
    let rows = report.run_rows(store.doc());
    render::write_all(&out, store.doc(), Some(&rows))
        .with_context(|| format!("rendering the reports into {}", out.display()))?;
    Ok(Written { dir: out, rec, rows })
}

/// Mismatching inputs of a form put into its case file (one thread each).
const CASE_INPUTS: usize = 8;

/// The ptxas version verdict ([`versions::verdict`]) of a finding of one form's `rows`: the rows
/// `wrong` picks are wrong, the rows that agree are right, the rest took no part.
fn rows_verdict(rows: &[&Row], wrong: impl Fn(&Row) -> bool, env: &[(String, String)]) -> Option<String> {
    let outcomes: Vec<(String, bool)> = rows
        .iter()
        .filter_map(|r| match (wrong(r), r.outcome().agrees()) {
            (true, _) => Some((r.backend.clone(), false)),
            (false, true) => Some((r.backend.clone(), true)),
            (false, false) => None,
        })
        .collect();
    versions::verdict(&outcomes, versions::found_release(env).as_deref())
}

/// Turns the run's failing rows into findings and records them in `store` (the asynchronous
/// rows through [`record_async_findings`]); `target` is the run's, `allow` the allowances its
/// oracle used. Each row's `findings` lists the ids of the
/// findings it is part of (a backend failure: its own row; a disagreement: the disagreeing
/// backends' rows of the form).
pub fn record_findings(
    report: &mut Report,
    target: &Target,
    allow: &Allowances,
    store: &mut FindingStore,
) -> Result<Recording, StoreError> {
    // Rows grouped by form, forms in the order the run swept them.
    let mut by_form: Vec<(&str, Vec<&Row>)> = Vec::new();
    for r in report.rows.iter().filter(|r| !is_async_row(&r.form)) {
        match by_form.iter_mut().find(|(f, _)| *f == r.form) {
            Some((_, rows)) => rows.push(r),
            None => by_form.push((&r.form, vec![r])),
        }
    }
    let mut found = RowFindings::default();
    for (form_name, rows) in &by_form {
        let Ok(form) = Form::parse_opcode(form_name) else { continue };
        for (finding, case) in form_findings(&form, target, allow, rows, &report.environment) {
            found.record(store, form_name, finding, &case)?;
        }
    }
    found.assign(report.rows.iter_mut().filter(|r| !is_async_row(&r.form)));
    let mut rec = found.rec;
    let env = report.environment.clone();
    let a = record_async_findings(&mut report.rows, target, &env, store)?;
    rec.new += a.new;
    rec.duplicates += a.duplicates;
    rec.known += a.known;
    Ok(rec)
}

/// The findings of one form's rows, with their case texts.
fn form_findings(
    form: &Form,
    target: &Target,
    allow: &Allowances,
    rows: &[&Row],
    env: &[(String, String)],
) -> Vec<(Finding, String)> {
    let kernel = sweep_kernel(form, target).ok();
    let case_of = |indices: &[u64]| match &kernel {
        Some(k) => case_text(form, target, k.scheme, indices),
        None => Err("the form has no sweep kernel".to_string()),
    };
    let finish = |sig: Signature, indices: &[u64], message: String| {
        let (ptx, n, inputs, threads, text) = match case_of(indices) {
            Ok((p, i, text)) => (p.module_text(), p.instruction_count() as u32, i.0, p.threads(), text),
            Err(why) => (String::new(), 0, Vec::new(), 0, format!("// no case: {why}\n")),
        };
        let mut f = Finding::new(sig, ptx);
        (f.original_instructions, f.minimized_instructions, f.inputs, f.threads) = (n, n, inputs, threads);
        f.message = Some(message);
        f.environment = env.to_vec();
        (f, text)
    };
    let mut out = Vec::new();
    for r in rows {
        if let Outcome::NotComparable(_) = r.outcome() {
            let Some(fail) = &r.failure else { continue };
            let Some((class, how)) = failure_signature(r.kind, fail) else { continue };
            let sig = Signature::new(class, form.opcode(), "", [r.backend.clone()], how);
            let (mut f, text) = finish(sig, &[0], fail.to_string().chars().take(4000).collect());
            let failed = |r: &Row| r.failure.as_ref().is_some_and(|x| failure_signature(r.kind, x).is_some());
            f.versions = rows_verdict(rows, failed, env);
            out.push((f, text));
        }
    }
    // A row with an oracle defect is not comparable as a whole, but its mismatches (the defect's
    // inputs among them: the backend differs there from the full semantics) are still reported.
    let defective = |r: &Row| r.failure.as_ref().is_some_and(|f| f.kind == FailureKind::OracleDefect);
    let disagreeing: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|r| r.outcome().disagreement().is_some() || (defective(r) && r.mismatches > 0))
        .collect();
    let Some(first_row) = disagreeing.first() else { return out };
    let Some(first) = first_row.examples.first() else { return out };
    // Only GPU rows count as hardware that agrees: the oracle's own rows always agree.
    let agreeing =
        rows.iter().any(|r| r.kind.is_some_and(BackendKind::is_gpu) && r.checked > 0 && r.outcome().agrees());
    let actual_at = |r: &Row, index: u64| r.examples.iter().find(|m| m.index == index).map(|m| m.actual.clone());
    let split = disagreeing.iter().any(|r| actual_at(r, first.index).is_some_and(|a| a != first.actual));
    let class = if agreeing || split { FindingClass::Compiler } else { FindingClass::HardwareSpec };
    let Some(k) = &kernel else { return out };
    let Ok(checker) = Checker::new(form, k.scheme, k.out_bytes, allow.clone()) else { return out };
    let parse_hex = |s: &str| u128::from_str_radix(s.trim_start_matches("0x"), 16).unwrap_or(0);
    let expected = checker.expected(first.index);
    let how = how_bits(&expected, parse_hex(&first.actual));
    let slots = source_slots(form);
    let names: Vec<String> = slots.iter().map(|s| s.name.clone()).collect();
    let source = generator::sweep::sweep_inputs(k.scheme, &names, first.index);
    let input = match (slots.first(), source.first()) {
        (Some(s), Some((_, v))) => {
            let width = s.width.min(64);
            input_class(Some(form), &Expected::exact(*v & ((1u128 << width) - 1), width))
        }
        _ => String::new(),
    };
    let sig = Signature::new(class, form.opcode(), input, disagreeing.iter().map(|r| r.backend.clone()), how);
    let examples: Vec<&Mismatch> = first_row.examples.iter().take(CASE_INPUTS).collect();
    let indices: Vec<u64> = examples.iter().map(|m| m.index).collect();
    let message = disagreeing
        .iter()
        .map(|r| format!("{}: {} of {} inputs not admitted by the oracle", r.backend, r.mismatches, r.checked))
        .collect::<Vec<_>>()
        .join("\n");
    let (mut f, text) = finish(sig, &indices, message);
    f.versions = rows_verdict(rows, |r| disagreeing.iter().any(|d| std::ptr::eq(*d, r)), env);
    f.mismatches = examples
        .iter()
        .enumerate()
        .map(|(t, m)| {
            let e = checker.expected(m.index);
            let actual: BTreeMap<String, String> =
                disagreeing.iter().filter_map(|r| actual_at(r, m.index).map(|a| (r.backend.clone(), a))).collect();
            WordMismatch {
                thread: t as u32,
                word: 0,
                expected: e.to_string(),
                actual,
                decoded: if e.width <= 32 { decoded(&e, parse_hex(&m.actual) as u32) } else { String::new() },
            }
        })
        .collect();
    out.push((f, text));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::program::{compare_result, Observed};
    use crate::failure::BackendFailure;
    use oracle::program::interp;
    use oracle::program::text::parse_case;

    const TF32: &str = "cvt.rna.tf32.f32";
    /// f32 NaNs whose payload lies only in the 13 bits tf32 drops, and what the GPU gives.
    const NANS: [(u64, &str); 2] = [(0x7F80_0001, "0x7f800000"), (0xFF80_1000, "0x7f800000")];

    fn row(form: &str, backend: &str, mismatches: &[(u64, &str)]) -> Row {
        // The kinds of the fixtures' backend names, as the registry gives them.
        let kind = match backend {
            "oracle" => BackendKind::Oracle,
            "oracle-worker" => BackendKind::OracleWorker,
            b if b.starts_with("ptxas-check") => BackendKind::PtxasCheck,
            _ => BackendKind::Gpu,
        };
        Row {
            form: form.into(),
            backend: backend.into(),
            kind: Some(kind),
            checked: 1 << 32,
            mismatches: mismatches.len() as u64,
            examples: mismatches
                .iter()
                .map(|&(index, actual)| Mismatch {
                    index,
                    inputs: vec![("a".into(), format!("{index:#x}"))],
                    expected: "any NaN".into(),
                    actual: actual.into(),
                })
                .collect(),
            device: None,
            stages: None,
            failure: None,
            seconds: 1.0,
            findings: vec![],
            known: vec![],
        }
    }

    fn report(rows: Vec<Row>) -> Report {
        Report { run_id: "conform-1".into(), target: "sm_90@8.7".into(), rows, seconds: 2.0, ..Report::default() }
    }

    fn known() -> KnownSet {
        KnownSet::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")).unwrap()
    }

    /// A conform mismatch becomes a stored finding whose case file reproduces it: the oracle run
    /// on the case expects what the sweep's oracle expected, the GPU's words on it are the same
    /// disagreement (same backends and `how`), and the oracle's own words agree.
    #[test]
    fn a_mismatch_is_a_finding_with_a_replayable_case() {
        let tmp = tempfile::tempdir().unwrap();
        let rows =
            vec![row(TF32, "cuda:jit", &NANS), row(TF32, "cuda:ptxas-O3", &NANS), row("prmt.b32", "cuda:jit", &[])];
        let mut r = report(rows);
        let Written { dir, rec, rows } =
            write_run(tmp.path(), &mut r, "ptxdiff conform", &Allowances::all(), KnownSet::empty()).unwrap();
        assert_eq!(rec, Recording { new: 1, duplicates: 0, known: 0 });
        let status: Vec<render::RowStatus> = rows.rows.iter().map(|x| x.status).collect();
        assert_eq!(status, [render::RowStatus::New, render::RowStatus::New, render::RowStatus::Agrees]);
        let doc = FindingsDoc::load(&dir).unwrap();
        assert_eq!(doc.findings.len(), 1);
        let f = &doc.findings[0];
        let ids: Vec<&[String]> = r.rows.iter().map(|x| x.findings.as_slice()).collect();
        assert_eq!(ids, [std::slice::from_ref(&f.id), std::slice::from_ref(&f.id), &[]], "each row names its findings");
        let stored: Report = serde_json::from_str(&std::fs::read_to_string(dir.join(ROWS_JSON)).unwrap()).unwrap();
        assert_eq!(stored.rows[1].findings, std::slice::from_ref(&f.id));
        assert_eq!(
            f.signature,
            Signature::new(FindingClass::HardwareSpec, TF32, "nan", ["cuda:jit", "cuda:ptxas-O3"], "nan-becomes-inf")
        );
        assert_eq!(f.mismatches.len(), 2);
        assert_eq!(f.mismatches[0].actual.len(), 2);
        for file in ["summary.md", "index.html", "junit.xml", ROWS_JSON] {
            assert!(dir.join(file).is_file(), "{file}");
        }
        let case = std::fs::read_to_string(dir.join("cases").join(format!("{}.case", f.id))).unwrap();
        assert!(f.replay.ends_with(&format!("{}.case", f.id)), "{}", f.replay);
        let (p, i) = parse_case(&case).unwrap();
        assert_eq!(i.thread(&p, 0)[0], 0x7F80_0001);
        assert_eq!(i.thread(&p, 1)[0], 0xFF80_1000);
        let expected = interp::run(&p, &i, &Allowances::all()).map_err(|e| e.to_string());
        let gpu = |b: &str| Observed { backend: b.into(), words: vec![0x7F80_0000; p.threads() as usize] };
        let d = compare_result(p.outputs, &expected, &[gpu("cuda:jit"), gpu("cuda:ptxas-O3")]);
        let d = d.disagreement().expect("the case shows the disagreement");
        assert_eq!((d.split, d.how.as_str()), (false, "nan-becomes-inf"));
        assert_eq!(d.backends, f.signature.backends);
        let own: Vec<u32> = expected.as_ref().unwrap().iter().map(|e| e.bits as u32).collect();
        assert!(
            compare_result(p.outputs, &expected, &[Observed { backend: "oracle-worker".into(), words: own }]).agrees()
        );
    }

    /// The known tf32 finding (`corpus/known/cvt-rna-tf32-nan.toml`) covers the conform tf32 NaN
    /// mismatches, with and without `.satfinite`, on any CUDA backend.
    #[test]
    fn the_known_tf32_finding_covers_conform_mismatches() {
        let tmp = tempfile::tempdir().unwrap();
        let sat = "cvt.rna.satfinite.tf32.f32";
        let rows = vec![
            row(TF32, "cuda:jit", &NANS),
            row(sat, "cuda:ptxas-O0", &[(0x7F80_0001, "0x7f7fe000")]),
            row(sat, "cuda:jit", &[(0x7F80_0001, "0x7f7fe000")]),
        ];
        let mut r = report(rows);
        let Written { dir, rec, rows } =
            write_run(tmp.path(), &mut r, "ptxdiff conform", &Allowances::all(), known()).unwrap();
        assert_eq!(rec, Recording { new: 0, duplicates: 0, known: 2 });
        // Each row names the known entry, and stands as known, in rows.json and the reports.
        assert!(r.rows.iter().all(|x| x.known == ["cvt-rna-tf32-nan"]), "{:?}", r.rows);
        assert!(rows.rows.iter().all(|x| x.status == render::RowStatus::Known && x.new.is_empty()), "{rows:?}");
        let stored: Report = serde_json::from_str(&std::fs::read_to_string(dir.join(ROWS_JSON)).unwrap()).unwrap();
        assert_eq!(stored.rows[0].known, ["cvt-rna-tf32-nan"]);
        let doc = FindingsDoc::load(&dir).unwrap();
        assert!(doc.findings.is_empty());
        assert_eq!((doc.known[0].id.as_str(), doc.known[0].count), ("cvt-rna-tf32-nan", 2));
    }

    /// A row the machine stopped (ptxas could not be started) fails but is no finding; a ptxas
    /// crash under ptxas-check is called one.
    #[test]
    fn environment_failures_are_no_findings() {
        let tmp = tempfile::tempdir().unwrap();
        let mut env = row("prmt.b32", "ptxas-check-O0", &[]);
        env.failure = Some(BackendFailure::new(FailureKind::Environment, "No space left on device"));
        let mut crash = row("prmt.b32", "ptxas-check-O3", &[]);
        crash.failure = Some(BackendFailure::new(FailureKind::Crash, "ptxas crashed: Segmentation fault"));
        let mut r = report(vec![env, crash]);
        assert_eq!(r.failing().count(), 2);
        let Written { dir, rec, rows } =
            write_run(tmp.path(), &mut r, "ptxdiff conform", &Allowances::all(), known()).unwrap();
        assert_eq!(rec.new, 1);
        let status: Vec<render::RowStatus> = rows.rows.iter().map(|x| x.status).collect();
        assert_eq!(status, [render::RowStatus::Failed, render::RowStatus::New], "no finding: failed, not known");
        let doc = FindingsDoc::load(&dir).unwrap();
        assert_eq!(doc.findings[0].signature.to_string(), "crash prmt.b32 ptxas-check-O3: ptxas crash");
    }

    /// An oracle defect in a row is a finding of its own and does not hide the row's mismatches.
    #[test]
    fn an_oracle_defect_does_not_hide_the_rows_mismatches() {
        let tmp = tempfile::tempdir().unwrap();
        let mut r = row(TF32, "cuda:ptxas-O3", &NANS);
        r.failure =
            Some(BackendFailure::new(FailureKind::OracleDefect, "oracle defect: fast kernel of … at input a=0x1"));
        let Written { dir, rec, .. } =
            write_run(tmp.path(), &mut report(vec![r]), "ptxdiff conform", &Allowances::all(), known()).unwrap();
        assert_eq!(rec, Recording { new: 1, duplicates: 0, known: 1 });
        let doc = FindingsDoc::load(&dir).unwrap();
        assert_eq!(doc.findings[0].signature.class, FindingClass::OracleDefect);
    }

    /// The oracle's own rows (`--backends oracle,cuda:…`) always agree; they must not turn a
    /// hardware-spec finding into a compiler one.
    #[test]
    fn the_oracles_own_rows_are_not_hardware_that_agrees() {
        let tmp = tempfile::tempdir().unwrap();
        let rows = vec![row(TF32, "oracle", &[]), row(TF32, "oracle-worker", &[]), row(TF32, "cuda:ptxas-O3", &NANS)];
        let Written { rec, .. } =
            write_run(tmp.path(), &mut report(rows), "ptxdiff conform", &Allowances::all(), known()).unwrap();
        assert_eq!(rec, Recording { new: 0, duplicates: 0, known: 1 }, "hardware-spec, hence the known tf32 finding");
    }

    /// A backend that agrees on a form while another does not makes the finding a compiler one;
    /// a backend that failed is a finding of its own, never a disagreement.
    #[test]
    fn classes_and_failures() {
        let tmp = tempfile::tempdir().unwrap();
        let mut hung = row("cvt.rn.f16.f32", "cuda:jit", &[(5, "0x1")]);
        hung.failure = Some(BackendFailure::new(FailureKind::Hang, "no result within 5 s; worker killed"));
        let mut rejected = row("prmt.b32", "ptxas-check-O3", &[]);
        rejected.failure = Some(BackendFailure::new(
            FailureKind::Rejected,
            "ptxas /tmp/a.ptx, line 9; error   : Unknown modifier '.x'",
        ));
        let rows = vec![row(TF32, "cuda:jit", &[]), row(TF32, "cuda:ptxas-O3", &NANS), hung, rejected];
        assert!(matches!(rows[2].outcome(), Outcome::NotComparable(_)));
        let Written { dir, rec, .. } =
            write_run(tmp.path(), &mut report(rows), "ptxdiff conform", &Allowances::all(), known()).unwrap();
        assert_eq!(rec.new, 3);
        let sigs: Vec<String> =
            FindingsDoc::load(&dir).unwrap().findings.iter().map(|f| f.signature.to_string()).collect();
        assert_eq!(
            sigs,
            [
                "compiler cvt.rna.tf32.f32 [nan] cuda:ptxas-O3: nan-becomes-inf",
                "crash cvt.rn.f16.f32 cuda:jit: hang",
                "assembler-rejection prmt.b32 ptxas-check-O3: Unknown modifier '.x'",
            ]
        );
    }

    /// Defect 4: runs with the same second-resolution id get distinct directories, and an
    /// existing run directory is never written into.
    #[test]
    fn run_directories_are_unique_and_never_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut first = report(vec![row("cvt.rn.f16.f32", "oracle", &[])]);
        let mut second = first.clone();
        let Written { dir: a, .. } =
            write_run(tmp.path(), &mut first, "c", &Allowances::all(), KnownSet::empty()).unwrap();
        let Written { dir: b, .. } =
            write_run(tmp.path(), &mut second, "c", &Allowances::all(), KnownSet::empty()).unwrap();
        assert_ne!(a, b);
        assert_eq!(first.run_id, "conform-1");
        assert_eq!(second.run_id, "conform-1-2");
        assert!(b.ends_with("conform-1-2"), "{}", b.display());
        let doc = crate::findings::FindingsDoc::load(&b).unwrap();
        assert_eq!(doc.run.run_id, "conform-1-2");
        std::fs::create_dir(tmp.path().join("conform-1-3")).unwrap();
        std::fs::write(tmp.path().join("conform-1-3/mine.txt"), "user data").unwrap();
        let (c, _) = create_run_dir(tmp.path(), "conform-1").unwrap();
        assert!(c.ends_with("conform-1-4"), "{}", c.display());
        assert_eq!(std::fs::read_dir(tmp.path().join("conform-1-3")).unwrap().count(), 1);
    }

    #[test]
    fn rows_know_their_family() {
        assert_eq!(row("cvt.rn.f16.f32", "oracle", &[]).family(), "cvt");
        assert_eq!(row("cvt.pack.sat.u8.s32.b32", "oracle", &[]).family(), "cvt.pack");
        assert_eq!(row("prmt.b32.f4e", "oracle", &[]).family(), "prmt");
    }
}
