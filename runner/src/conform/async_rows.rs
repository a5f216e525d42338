//! The asynchronous-copy rows of `ptxdiff conform`: every case of
//! [`generator::async_cases`] (and of each dedicated set of [`DEVIATION_SETS`], rows
//! `<opcode> [<set>]`) run on each GPU backend and by the oracle, final memory compared byte
//! for byte; one [`Row`] per (form, backend).
//!
//! The oracle runs every case on all cores (rayon), and every batch of [`BATCH`] programs is
//! assembled by each ptxas build of the GPU backends ([`prepare`]: the CPU side, which `conform`
//! runs on a thread of its own while the sweeps keep the GPU busy); each GPU backend then runs
//! the batches ([`run`]: the assembled modules, or for the JIT one module per batch compiled by
//! the backend, the jobs spread over the backend's workers). A row counts the cases it compared
//! (`checked`), the cases whose known bytes differ (`mismatches`), and gives up to
//! [`EXAMPLES`] of them (the case's index in its row, its label, the first differing byte);
//! a case that faults, hangs, is rejected, or whose tensor map the driver refuses makes the
//! row's failure (the first one, with how many cases failed) and is an example too. Without a
//! GPU the rows are the oracle's (backend `oracle`): every case must run.
//!
//! Findings ([`record_async_findings`]): a row's first mismatching or failing case is
//! regenerated from the row's form and the example's index ([`case_of`]: the generator is a
//! pure function of the target), and its `ptxdiff eval` program line is the case file; the
//! replay is `ptxdiff eval --backend B CASE`. Disagreements are `hardware-spec` (or
//! `compiler` when another GPU backend agrees on the form); failures are the conform classes
//! of [`super::results`]. A dedicated set's disagreements and faults are `hardware-spec` with
//! the set's input class (their known entries under `corpus/known/` match them, e.g.
//! `tma-inner-coordinate-trap.toml` the faults of the inner-coordinate set).
//!
//! Invariant: the rows are in case order (forms in [`generator::async_cases::ASYNC_FAMILIES`]
//! order), each form's rows in backend order, whatever the completion order.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use generator::async_cases::{async_cases, AsyncCase, AsyncSweep, DeviationSet, DEVIATION_SETS};
use oracle::isa::Target;
use oracle::memory::Region;
use oracle::memprog::MemProgram;
use oracle::semantics::Allowances;
use rayon::prelude::*;

use super::row::{failure_signature, Recording, Row, RowFindings};
use crate::backend::{Backend, BackendKind, Build, Failure, MemStages, Need};
use crate::diff::{BackendFailure, FailureKind};
use crate::findings::{Finding, FindingClass, FindingStore, Signature, StoreError};
use crate::glob::glob_match;
use crate::memrun::{assemble, compare, oracle_read, run_assembled_all, run_on, AssembledBatch, GpuResult};
use crate::program_line::program_line;
use crate::sweep_check::Mismatch;

/// The row suffix of a dedicated set: ` [<name>]`.
fn suffix(set: &DeviationSet) -> String {
    format!(" [{}]", set.name)
}

/// The dedicated set a row's form key belongs to, with the form's opcode.
pub fn deviation_set(form: &str) -> Option<(&'static DeviationSet, &str)> {
    DEVIATION_SETS.iter().find_map(|set| form.strip_suffix(suffix(set).as_str()).map(|base| (set, base)))
}

/// Programs per GPU batch (one module).
pub const BATCH: usize = 128;

/// Seconds before a case counts as hung at most (`--timeout` when shorter).
pub const CASE_TIMEOUT_S: u64 = 20;

/// Examples kept per row.
pub const EXAMPLES: usize = 8;

/// The backend name of the rows the oracle alone makes (no GPU).
pub const ORACLE: &str = crate::backend::oracle::NAME;

/// The cases of a run on `target`, forms matching `glob`: the sweep, then each dedicated set
/// (form keys suffixed with ` [<set>]`).
pub fn plan(target: &Target, glob: Option<&str>) -> AsyncSweep {
    let keep = |op: &str| glob.is_none_or(|g| glob_match(g, op));
    let mut sweep = async_cases(target, &keep);
    for set in &DEVIATION_SETS {
        sweep.cases.extend((set.cases)(target).into_iter().filter(|c| keep(&c.form)).map(|mut c| {
            c.form.push_str(&suffix(set));
            c
        }));
    }
    sweep
}

/// Case `index` of the row of `form` (a row's form key, a set's suffix included) on `target`.
pub fn case_of(target: &Target, form: &str, index: u64) -> Option<AsyncCase> {
    let cases = match deviation_set(form) {
        Some((set, base)) => (set.cases)(target).into_iter().filter(|c| c.form == base).collect(),
        None => async_cases(target, &|op| op == form).cases,
    };
    cases.into_iter().nth(usize::try_from(index).ok()?)
}

/// Whether a row's form is one of the memory-program sweep's: an asynchronous-copy form (or
/// one of a dedicated set), a `tensormap.replace` or `tensormap.cp_fenceproxy` form, or a
/// remote form
/// ([`generator::async_cases::is_remote_form`]).
pub fn is_async_row(form: &str) -> bool {
    let base = deviation_set(form).map_or(form, |(_, base)| base);
    let family = oracle::isa::Family::classify(base);
    family.is_some_and(|f| {
        generator::async_cases::ASYNC_FAMILIES.contains(&f) || generator::async_cases::OBJECT_FAMILIES.contains(&f)
    }) || generator::async_cases::is_remote_form(base)
}

/// Seconds per stage of the asynchronous rows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AsyncStages {
    /// The oracle, all cases (wall).
    pub oracle_s: f64,
    /// Assembling every batch with each ptxas build, ahead (wall; beside the sweeps when the
    /// caller prepares during them).
    pub assemble_s: f64,
    /// Running the batches on the GPU backends, and printing and compiling for those without a
    /// build (the JIT) (wall).
    pub gpu_s: f64,
    /// Comparing bytes.
    pub compare_s: f64,
    /// Inside the GPU backends' workers: module loads, launches, restarts (summed over
    /// workers).
    pub workers: MemStages,
}

/// What the asynchronous part of a run did.
#[derive(Clone, Debug, Default)]
pub struct AsyncRun {
    /// Rows, form by form, each form's rows in backend order.
    pub rows: Vec<Row>,
    /// Forms without cases, and why.
    pub not_run: Vec<(String, String)>,
    /// Cases per row form, in row order.
    pub cases: Vec<(String, usize)>,
    /// Where the time went.
    pub stages: AsyncStages,
}

/// The oracle's view of one case: the program and the regions of its `read` buffers.
type Expected = Result<(MemProgram, Vec<Region>), String>;

/// Builds and runs every case on the oracle.
fn oracle_all(cases: &[AsyncCase], allow: &Allowances) -> Vec<Expected> {
    cases
        .par_iter()
        .map(|c| {
            let p = c.source.build().map_err(|e| e.to_string())?;
            let r = oracle_read(&p, allow).map_err(|e| e.to_string())?;
            Ok((p, r))
        })
        .collect()
}

/// The CPU side of the asynchronous rows, done ahead ([`prepare`]) while the sweeps keep the GPU
/// busy: every case on the oracle, and every GPU batch assembled by each ptxas build of the
/// GPU backends.
pub struct Prepared {
    /// Per case, the oracle's view.
    expected: Vec<Expected>,
    /// Per case, index lists of the GPU batches ([`batches`]).
    batches: Vec<Vec<usize>>,
    /// Per [`Build::label`], each batch assembled (or why not).
    assembled: BTreeMap<String, Vec<Result<AssembledBatch, String>>>,
    /// Wall seconds of the oracle and of the assemblies.
    oracle_s: f64,
    assemble_s: f64,
}

/// Runs every case of `sweep` on the oracle and assembles its GPU batches with each of `builds`
/// (each module on its share of the cores, [`crate::memrun::assemble`]): what [`run`] needs
/// before it talks to a GPU, so that a caller can do it beside the sweeps.
pub fn prepare(sweep: &AsyncSweep, builds: &[Build], allow: &Allowances, timeout: Duration) -> Prepared {
    let t = Instant::now();
    let expected = oracle_all(&sweep.cases, allow);
    let oracle_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let batches = batches(&sweep.cases, &expected);
    let mut assembled = BTreeMap::new();
    for build in builds {
        let label = build.label();
        if assembled.contains_key(&label) {
            continue;
        }
        let one = |batch: &Vec<usize>| {
            let programs: Vec<&MemProgram> =
                batch.iter().filter_map(|&k| expected[k].as_ref().ok().map(|(p, _)| p)).collect();
            assemble(build, &programs, timeout)
        };
        // A batch of many programs assembles its modules on all cores; the batches of one
        // case (each trapping case) are one ptxas process each, so they go side by side.
        let mut alone: BTreeMap<usize, Result<AssembledBatch, String>> =
            batches.par_iter().enumerate().filter(|(_, b)| b.len() <= 1).map(|(i, b)| (i, one(b))).collect();
        let each = batches.iter().enumerate().map(|(i, b)| alone.remove(&i).unwrap_or_else(|| one(b))).collect();
        assembled.insert(label, each);
    }
    Prepared { expected, batches, assembled, oracle_s, assemble_s: t.elapsed().as_secs_f64() }
}

/// The GPU batches: the cases the oracle ran, [`BATCH`] at a time, then each case of a set that
/// traps ([`DeviationSet::traps`]) as a batch of its own. A trap ends its worker's context: alone,
/// it costs one restart, where inside a module it would also cost the module's restart and a
/// re-run of its other launches one by one (docs/PERFORMANCE.md).
fn batches(cases: &[AsyncCase], expected: &[Expected]) -> Vec<Vec<usize>> {
    let runnable: Vec<usize> = (0..cases.len()).filter(|&k| expected[k].is_ok()).collect();
    let (traps, normal): (Vec<usize>, Vec<usize>) =
        runnable.into_iter().partition(|&k| deviation_set(&cases[k].form).is_some_and(|(set, _)| set.traps));
    let mut batches: Vec<Vec<usize>> = normal.chunks(BATCH).map(<[usize]>::to_vec).collect();
    batches.extend(traps.into_iter().map(|k| vec![k]));
    batches
}

/// A row's failure kind for a backend failure.
fn failure_kind(f: &Failure) -> FailureKind {
    match f {
        Failure::Rejected { .. } => FailureKind::Rejected,
        Failure::Crash { how, .. } if how.contains("hang") => FailureKind::Hang,
        Failure::Crash { how, .. } if how.starts_with("CUDA_ERROR") || how.contains("fault") => FailureKind::Fault,
        Failure::Crash { .. } => FailureKind::Crash,
    }
}

fn failure_text(f: &Failure) -> String {
    match f {
        Failure::Rejected { by, message } => format!("rejected by {by}: {message}"),
        Failure::Crash { by, how, message } => format!("{how} ({by}): {message}"),
    }
}

/// What became of one case on one backend.
enum Verdict {
    /// Every known byte equal.
    Agrees,
    /// The first differing byte: (read index, offset, expected, got), and how many differ.
    Differs { first: (usize, u64, u8, u8), count: usize },
    /// A failure worth a finding.
    Failed(BackendFailure),
    /// The oracle could not run the case (a defect of the generator or the oracle).
    Oracle(String),
    /// The environment stopped the backend.
    Environment(String),
}

/// Builds the rows: per form, per backend, from each case's verdict.
fn rows_of(
    cases: &[AsyncCase],
    backends: &[(String, BackendKind)],
    verdicts: &[Vec<Verdict>],
    expected: &[Expected],
    seconds: &[f64],
) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let mut index_in_form: Vec<u64> = Vec::with_capacity(cases.len());
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for c in cases {
        let n = counts.entry(c.form.as_str()).or_default();
        index_in_form.push(*n);
        *n += 1;
    }
    let mut forms: Vec<&str> = Vec::new();
    for c in cases {
        if forms.last() != Some(&c.form.as_str()) && !forms.contains(&c.form.as_str()) {
            forms.push(&c.form);
        }
    }
    for form in forms {
        for (b, (backend, kind)) in backends.iter().enumerate() {
            let mut row = Row {
                form: form.to_string(),
                backend: backend.clone(),
                kind: Some(*kind),
                seconds: seconds[b],
                ..Row::default()
            };
            let mut failed = 0u64;
            for (k, c) in cases.iter().enumerate().filter(|(_, c)| c.form == form) {
                let index = index_in_form[k];
                let example = |expected: String, actual: String, detail: Vec<(String, String)>| {
                    let mut inputs = vec![("case".to_string(), c.label.clone())];
                    inputs.extend(detail);
                    Mismatch { index, inputs, expected, actual }
                };
                match &verdicts[b][k] {
                    Verdict::Agrees => row.checked += 1,
                    Verdict::Differs { first: (buf, offset, e, g), count } => {
                        row.checked += 1;
                        row.mismatches += 1;
                        if row.examples.len() < EXAMPLES {
                            let name = expected[k]
                                .as_ref()
                                .ok()
                                .and_then(|(p, _)| p.read.get(*buf).map(|&i| p.buffers[i].name.clone()))
                                .unwrap_or_default();
                            row.examples.push(example(
                                format!("{e:#04x}"),
                                format!("{g:#04x}"),
                                vec![
                                    ("buffer".into(), name),
                                    ("offset".into(), offset.to_string()),
                                    ("bytes differing".into(), count.to_string()),
                                ],
                            ));
                        }
                    }
                    Verdict::Failed(f) => {
                        failed += 1;
                        if row.failure.is_none() {
                            row.failure = Some(f.clone());
                        }
                        if row.examples.len() < EXAMPLES {
                            row.examples.push(example("the read buffers".into(), f.to_string(), Vec::new()));
                        }
                    }
                    Verdict::Oracle(why) => {
                        failed += 1;
                        if row.failure.is_none() {
                            row.failure = Some(BackendFailure::new(
                                FailureKind::OracleDefect,
                                format!("the oracle cannot run case {index} ({}): {why}", c.label),
                            ));
                        }
                    }
                    Verdict::Environment(why) => {
                        if row.failure.is_none() {
                            row.failure = Some(BackendFailure::new(FailureKind::Environment, why.clone()));
                        }
                    }
                }
            }
            if let Some(f) = &mut row.failure {
                if failed > 1 {
                    f.message = format!("{} ({failed} cases failed)", f.message);
                }
            }
            rows.push(row);
        }
    }
    rows
}

/// Runs the cases of `sweep` ([`plan`]) on the GPU backends among `backends` (or, when none
/// needs a GPU, on the oracle alone); `tick` is called with the cases each batch finished.
pub fn run(
    sweep: AsyncSweep,
    prepared: Prepared,
    backends: &mut [Box<dyn Backend>],
    timeout: Duration,
    tick: &(dyn Fn(u64) + Sync),
) -> AsyncRun {
    let cases = &sweep.cases;
    let mut stages = AsyncStages { oracle_s: prepared.oracle_s, assemble_s: prepared.assemble_s, ..Default::default() };
    let Prepared { expected, batches, mut assembled, .. } = prepared;
    let expected = &expected;
    let gpu: Vec<usize> =
        (0..backends.len()).filter(|&b| backends[b].needs().iter().any(|n| matches!(n, Need::Gpu(_)))).collect();
    let (names, verdicts, seconds) = if gpu.is_empty() {
        let v: Vec<Verdict> = expected
            .iter()
            .map(|e| match e {
                Ok(_) => Verdict::Agrees,
                Err(why) => Verdict::Oracle(why.clone()),
            })
            .collect();
        tick(cases.len() as u64);
        (vec![(ORACLE.to_string(), BackendKind::Oracle)], vec![v], vec![stages.oracle_s])
    } else {
        let mut names = Vec::new();
        let mut all = Vec::new();
        let mut seconds = Vec::new();
        for &b in &gpu {
            let start = Instant::now();
            let ahead = backends[b].builds().first().and_then(|build| assembled.remove(&build.label()));
            let before = backends[b].mem_stages().unwrap_or_default();
            let (v, compare_s) = run_backend(backends[b].as_mut(), expected, &batches, ahead, timeout, tick);
            stages.compare_s += compare_s;
            if let Some(after) = backends[b].mem_stages() {
                stages.workers.absorb(&after.since(&before));
            }
            seconds.push(start.elapsed().as_secs_f64());
            names.push((backends[b].name(), backends[b].kind()));
            all.push(v);
        }
        stages.gpu_s = seconds.iter().sum::<f64>() - stages.compare_s;
        (names, all, seconds)
    };
    let rows = rows_of(cases, &names, &verdicts, expected, &seconds);
    let mut per_form: Vec<(String, usize)> = Vec::new();
    for c in cases {
        match per_form.iter_mut().find(|(f, _)| *f == c.form) {
            Some((_, n)) => *n += 1,
            None => per_form.push((c.form.clone(), 1)),
        }
    }
    AsyncRun { rows, not_run: sweep.not_run, cases: per_form, stages }
}

/// The verdict of one case from the oracle's regions of its read buffers and a GPU result.
fn verdict(regions: &[Region], r: GpuResult) -> Verdict {
    match r {
        GpuResult::Bytes(got) => {
            let refs: Vec<&Region> = regions.iter().collect();
            let diffs = compare(&refs, &got);
            match diffs.first() {
                None => Verdict::Agrees,
                Some(d) => Verdict::Differs { first: (d.buffer, d.offset, d.expected, d.got), count: diffs.len() },
            }
        }
        GpuResult::Failed(f) => Verdict::Failed(BackendFailure::new(failure_kind(&f), failure_text(&f))),
        GpuResult::EncodeRejected { param, error } => Verdict::Failed(BackendFailure::new(
            FailureKind::Rejected,
            format!("the driver refused tensor map parameter {param}: {error}"),
        )),
    }
}

/// The verdicts of every case on one GPU backend, and the seconds spent comparing: each batch
/// run as assembled ahead (`ahead`, [`prepare`]) or, for a backend without a build (the JIT),
/// compiled by the backend itself ([`run_on`]).
fn run_backend(
    backend: &mut dyn Backend,
    expected: &[Expected],
    batches: &[Vec<usize>],
    ahead: Option<Vec<Result<AssembledBatch, String>>>,
    timeout: Duration,
    tick: &(dyn Fn(u64) + Sync),
) -> (Vec<Verdict>, f64) {
    let mut verdicts: Vec<Option<Verdict>> = (0..expected.len()).map(|_| None).collect();
    for (k, e) in expected.iter().enumerate() {
        if let Err(why) = e {
            verdicts[k] = Some(Verdict::Oracle(why.clone()));
        }
    }
    // Batches assembled ahead go to the backend together (its workers never wait for a
    // batch's last job); the JIT compiles and runs batch by batch.
    let outcomes: Vec<Result<Vec<GpuResult>, String>> = match ahead {
        Some(ahead) => {
            let ok: Vec<&AssembledBatch> = ahead.iter().filter_map(|a| a.as_ref().ok()).collect();
            let mut ran = match run_assembled_all(backend, &ok) {
                Ok(all) => all.into_iter().map(Ok).collect::<Vec<_>>().into_iter(),
                Err(why) => vec![Err(why); ok.len()].into_iter(),
            };
            let outcomes = ahead
                .iter()
                .map(|a| match a {
                    Ok(_) => ran.next().unwrap_or_else(|| Err("the batch was not run".into())),
                    Err(e) => Err(e.clone()),
                })
                .collect();
            outcomes
        }
        None => batches
            .iter()
            .map(|batch| {
                let programs: Vec<&MemProgram> =
                    batch.iter().filter_map(|&k| expected[k].as_ref().ok().map(|(p, _)| p)).collect();
                run_on(backend, &programs, timeout)
            })
            .collect(),
    };
    let mut compare_s = 0.0;
    for (batch, outcome) in batches.iter().zip(outcomes) {
        match outcome {
            Err(why) => {
                for &k in batch {
                    verdicts[k] = Some(Verdict::Environment(why.clone()));
                }
            }
            Ok(results) => {
                let t = Instant::now();
                for (&k, r) in batch.iter().zip(results) {
                    let Ok((_, regions)) = &expected[k] else { continue };
                    verdicts[k] = Some(verdict(regions, r));
                }
                compare_s += t.elapsed().as_secs_f64();
            }
        }
        tick(batch.len() as u64);
    }
    let verdicts = verdicts
        .into_iter()
        .map(|v| v.unwrap_or_else(|| Verdict::Environment("the case was not run".into())))
        .collect();
    (verdicts, compare_s)
}

/// The findings of the asynchronous rows of a run (rows of other forms are left alone),
/// recorded in `store`; each row's `findings` lists the ids of the findings it is part of.
pub fn record_async_findings(
    rows: &mut [Row],
    target: &Target,
    env: &[(String, String)],
    store: &mut FindingStore,
) -> Result<Recording, StoreError> {
    let mut forms: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| is_async_row(&r.form)) {
        if !forms.contains(&r.form) {
            forms.push(r.form.clone());
        }
    }
    let mut found = RowFindings::default();
    for form in &forms {
        let of_form: Vec<&Row> = rows.iter().filter(|r| &r.form == form).collect();
        for (finding, case) in form_findings(form, target, env, &of_form, store) {
            found.record(store, form, finding, &case)?;
        }
    }
    found.assign(rows.iter_mut().filter(|r| is_async_row(&r.form)));
    Ok(found.rec)
}

/// A case of a row: the run's target, the row's form key, the case's index in the row.
#[derive(Clone, Copy)]
struct CaseRef<'a> {
    target: &'a Target,
    form: &'a str,
    index: u64,
}

/// A finding of case `at` with `sig`, its message and the backend its replay names, and the
/// case file (the eval program line).
fn finding_for(
    at: CaseRef<'_>,
    sig: Signature,
    message: String,
    backend: &str,
    env: &[(String, String)],
    store: &FindingStore,
) -> (Finding, String) {
    let CaseRef { target, form, index } = at;
    let case = case_of(target, form, index);
    let (ptx, text, n) = match &case {
        Some(c) => {
            let line = program_line(&c.source).to_string();
            let ptx = c
                .source
                .build()
                .ok()
                .and_then(|p| oracle::memprog::ptx::module(&[&p]).ok().map(|m| m.ptx))
                .unwrap_or_default();
            (ptx, format!("{line}\n"), c.source.statements.len() as u32)
        }
        None => (String::new(), format!("{{\"error\": \"no case {index} of {form}\"}}\n"), 0),
    };
    let mut f = Finding::new(sig, ptx);
    (f.original_instructions, f.minimized_instructions, f.threads) = (n, n, 1);
    f.message = Some(match &case {
        Some(c) => format!("case {index} of {form}: {}\n{message}", c.label),
        None => message,
    });
    f.environment = env.to_vec();
    f.replay = format!("ptxdiff eval --backend {backend} {}", store.case_path(&f.signature.key()).display());
    (f, text)
}

/// The findings of one form's rows with their case texts.
fn form_findings(
    form: &str,
    target: &Target,
    env: &[(String, String)],
    rows: &[&Row],
    store: &FindingStore,
) -> Vec<(Finding, String)> {
    let set = deviation_set(form);
    let base = set.map_or(form, |(_, base)| base);
    let mut out = Vec::new();
    // Failures: one finding per failing row.
    for r in rows {
        let Some(fail) = &r.failure else { continue };
        let (class, how, input) = if let Some((set, _)) = set.filter(|_| fail.kind == FailureKind::Fault) {
            let how = fail
                .message
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .find(|w| w.starts_with("CUDA_ERROR"))
                .unwrap_or("GPU fault")
                .to_string();
            (FindingClass::HardwareSpec, how, set.input_class)
        } else {
            match failure_signature(r.kind, fail) {
                Some((class, how)) => (class, how, ""),
                None => continue,
            }
        };
        // The first failing case: the first example without a differing byte.
        let index = r.examples.iter().find(|m| !m.inputs.iter().any(|(k, _)| k == "buffer")).map_or(0, |m| m.index);
        let sig = Signature::new(class, base, input, [r.backend.clone()], how);
        let message = fail.to_string().chars().take(4000).collect();
        out.push(finding_for(CaseRef { target, form, index }, sig, message, &r.backend, env, store));
    }
    // Disagreements: one finding for the rows whose bytes differ.
    let differing: Vec<&Row> = rows.iter().copied().filter(|r| r.mismatches > 0).collect();
    let Some(first_row) = differing.first() else { return out };
    let Some(first) = first_row.examples.iter().find(|m| m.inputs.iter().any(|(k, _)| k == "buffer")) else {
        return out;
    };
    let agreeing =
        rows.iter().any(|r| r.kind.is_some_and(BackendKind::is_gpu) && r.checked > 0 && r.outcome().agrees());
    let class = if agreeing && set.is_none() { FindingClass::Compiler } else { FindingClass::HardwareSpec };
    let buffer = first.inputs.iter().find(|(k, _)| k == "buffer").map_or("", |(_, v)| v.as_str());
    let sig = Signature::new(
        class,
        base,
        set.map_or("", |(set, _)| set.input_class),
        differing.iter().map(|r| r.backend.clone()),
        format!("bytes-differ-in-{buffer}"),
    );
    let message = differing
        .iter()
        .map(|r| format!("{}: {} of {} cases differ from the oracle", r.backend, r.mismatches, r.checked))
        .collect::<Vec<_>>()
        .join("\n");
    let (mut f, text) =
        finding_for(CaseRef { target, form, index: first.index }, sig, message, &first_row.backend, env, store);
    f.mismatches = first_row
        .examples
        .iter()
        .filter(|m| m.inputs.iter().any(|(k, _)| k == "buffer"))
        .map(|m| crate::findings::WordMismatch {
            thread: 0,
            word: m.inputs.iter().find(|(k, _)| k == "offset").and_then(|(_, v)| v.parse().ok()).unwrap_or(0),
            expected: m.expected.clone(),
            actual: BTreeMap::from([(first_row.backend.clone(), m.actual.clone())]),
            decoded: format!("case {}: {}", m.index, m.inputs.first().map_or("", |(_, l)| l.as_str())),
        })
        .collect();
    out.push((f, text));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::results::{write_run, Report, Written};
    use crate::findings::{FindingsDoc, KnownSet};

    fn target() -> Target {
        "sm_90".parse().unwrap()
    }

    /// The cases of a set that traps run one per batch (one fault, one restart); the cases of
    /// the main sweep and of a set that does not trap share batches.
    #[test]
    fn each_case_of_a_trapping_set_is_a_batch_of_its_own() {
        let t = target();
        let sweep = plan(&t, Some("cp.reduce.async.bulk.tensor.1d.global.shared::cta.{and,add}.tile.bulk_group"));
        let trapping = |k: usize| deviation_set(&sweep.cases[k].form).is_some_and(|(set, _)| set.traps);
        assert!((0..sweep.cases.len()).any(trapping), "the int64 bitwise set has cases here");
        assert!((0..sweep.cases.len()).filter(|&k| !trapping(k)).count() > 1);
        let expected = oracle_all(&sweep.cases, &Allowances::all());
        let batches = batches(&sweep.cases, &expected);
        let mut seen: Vec<usize> = batches.concat();
        seen.sort_unstable();
        let runnable: Vec<usize> = (0..sweep.cases.len()).filter(|&k| expected[k].is_ok()).collect();
        assert_eq!(seen, runnable, "every runnable case in exactly one batch");
        for b in &batches {
            if b.iter().any(|&k| trapping(k)) {
                assert_eq!(b.len(), 1, "a trapping case shares its batch: {b:?}");
            }
        }
        assert!(batches.iter().any(|b| b.len() > 1), "the other cases share batches");
    }

    /// A planted difference (one byte of one case's bulk store) and a fault in the
    /// inner-coordinate set: the first is a new finding whose case file `ptxdiff eval` reads
    /// back, giving the oracle's bytes; the second is the known trap finding.
    #[test]
    fn a_byte_difference_is_a_finding_with_an_eval_case() {
        let t = target();
        let allow = Allowances::all();
        let form = "cp.async.bulk.global.shared::cta.bulk_group";
        let mut sweep = plan(&t, Some(form));
        let traps = plan(&t, Some("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"));
        let trap_cases: Vec<AsyncCase> = traps.cases.into_iter().filter(|c| deviation_set(&c.form).is_some()).collect();
        assert!(!trap_cases.is_empty());
        sweep.cases.extend(trap_cases);
        let cases = &sweep.cases;
        let expected = oracle_all(cases, &allow);
        assert!(expected.iter().all(Result::is_ok));
        let planted = 5usize;
        let mut verdicts = Vec::new();
        let mut dst_at = 0;
        for (k, e) in expected.iter().enumerate() {
            let (p, regions) = e.as_ref().unwrap();
            if deviation_set(&cases[k].form).is_some() {
                verdicts.push(verdict(
                    regions,
                    GpuResult::Failed(Failure::Crash {
                        by: "cuda:jit".into(),
                        how: "CUDA_ERROR_ILLEGAL_INSTRUCTION".into(),
                        message: "unspecified launch failure".into(),
                    }),
                ));
                continue;
            }
            let mut got: Vec<Vec<u8>> = regions.iter().map(|r| r.known_or(0)).collect();
            if k == planted {
                let dst = p.read.iter().position(|&i| p.buffers[i].name == "dst").unwrap();
                dst_at = dst;
                got[dst][3] ^= 0xFF;
            }
            verdicts.push(verdict(regions, GpuResult::Bytes(got)));
        }
        let rows = rows_of(cases, &[("cuda:jit".to_string(), BackendKind::Gpu)], &[verdicts], &expected, &[1.0]);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].form.as_str(), rows[0].mismatches, rows[0].examples[0].index), (form, 1, planted as u64));
        assert!(rows[1].failure.is_some());
        let mut report = Report {
            run_id: "conform-async".into(),
            target: format!("{}@{}", t.name(), t.ptx),
            rows,
            ..Report::default()
        };
        let tmp = tempfile::tempdir().unwrap();
        let known = KnownSet::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")).unwrap();
        let Written { dir, rec, .. } = write_run(tmp.path(), &mut report, "ptxdiff conform", &allow, known).unwrap();
        assert_eq!((rec.new, rec.known), (1, 1), "{rec:?}");
        let doc = FindingsDoc::load(&dir).unwrap();
        assert_eq!(doc.known[0].id, "tma-inner-coordinate-trap");
        let f = &doc.findings[0];
        assert_eq!(f.signature.form, form);
        assert_eq!(f.signature.class, FindingClass::HardwareSpec);
        assert!(f.replay.starts_with("ptxdiff eval --backend cuda:jit "), "{}", f.replay);
        assert!(f.ptx.contains(".entry"), "the printed module");
        assert_eq!(report.rows[0].findings, vec![f.id.clone()]);
        assert!(report.rows[0].known.is_empty());
        let trap = report.rows.iter().find(|r| !r.known.is_empty()).expect("the trap row names its known entry");
        assert_eq!(trap.known, ["tma-inner-coordinate-trap"]);
        // The case file is the eval line of the planted case: eval gives the oracle's bytes.
        let case = std::fs::read_to_string(dir.join("cases").join(format!("{}.case", f.id))).unwrap();
        let mut out = Vec::new();
        crate::eval::run(case.as_bytes(), &mut out, &allow).unwrap();
        let answer: serde_json::Value = serde_json::from_str(String::from_utf8(out).unwrap().trim()).unwrap();
        let (p, regions) = expected[planted].as_ref().unwrap();
        let name = &p.buffers[p.read[dst_at]].name;
        assert_eq!(answer[name.as_str()], serde_json::json!(regions[dst_at].to_hex()), "{answer}");
    }

    /// Without a GPU backend the rows are the oracle's: every case runs.
    #[test]
    fn without_a_gpu_the_oracle_runs_every_case() {
        let sweep = plan(&target(), Some("cp.async.bulk.prefetch.L2.global*"));
        let n = sweep.cases.len() as u64;
        assert!(n > 0);
        let prepared = prepare(&sweep, &[], &Allowances::all(), Duration::from_secs(1));
        let run = run(sweep, prepared, &mut [], Duration::from_secs(1), &|_| {});
        assert!(run.rows.iter().all(|r| r.backend == ORACLE && r.failure.is_none()));
        assert_eq!(run.rows.iter().map(|r| r.checked).sum::<u64>(), n);
    }

    #[test]
    fn rows_of_the_trap_set_are_async_rows_of_their_family() {
        let form =
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [inner-coordinate traps]"
                .to_string();
        assert!(is_async_row(&form));
        assert!(!is_async_row("cvt.rn.f16.f32"));
        assert_eq!(Row { form, ..Row::default() }.family(), "cp.async.bulk.tensor");
        assert!(case_of(&target(), "cp.async.ca.shared.global", 3).is_some());
    }
}
