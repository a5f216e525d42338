//! `ptxdiff conform`: conformance sweeps of every sweepable form (cvt, cvt.pack, prmt) valid on
//! a target, against the oracle, and the asynchronous-copy rows ([`async_rows`]: every
//! `cp.async*` / `cp.reduce.async*` form's cases, final memory compared byte for byte; off with
//! `--no-async`).
//!
//! The backends come from the [`Registry`] (default: `cuda:ptxas-O3` per ptxas). Each backend
//! sweeps every form in turn (GPU backends in their pool of worker processes, `--devices` ×
//! `--workers`, crash isolated, forms running in parallel); the rows are reported in form
//! order × backend order whatever the completion order; forms
//! whose sources fit in 32 bits are swept over every input, the rest over `--samples` mixed
//! inputs. When none of the asked-for backends can run (no GPU), the run falls back to the
//! backends that need none: `ptxas-check` (every sweep kernel must assemble at each level)
//! and `oracle` (the oracle's own results through the checker, fast kernels cross-checked
//! against the full semantics); the run says which backends were unavailable and why. Backends
//! named explicitly must run: one that is unavailable is an error, as is a `--forms` glob that
//! matches no form. Each row's verdict is the diff layer's three-way outcome; failing rows
//! become findings with replayable case files ([`results`], [`case`]). A run without a GPU says
//! so on stderr before it starts ([`no_gpu_notice`]). Progress goes to stderr: a bar with rate
//! and ETA on a terminal, plain lines naming the phase every few seconds otherwise. With a
//! `--shard i/N` the run sweeps only its share of [`select_forms`] (dealt round-robin,
//! [`crate::runs::shard`]; the asynchronous forms are dealt on after them); `ptxdiff report
//! merge` puts the shards back together.

pub mod async_rows;
pub mod case;
pub mod results;
pub mod row;

use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use generator::sweep::sweep_kernel;
use indicatif::{ProgressBar, ProgressStyle};
use oracle::isa::{Family, Form, Target};

use crate::backend::{
    segments, BackendError, BackendKind, Need, Registry, Selection, SweepFailure, SweepResult, SweepSpec,
};
use crate::diff::{BackendFailure, FailureKind};
use crate::glob::glob_match;
pub use results::{record_findings, Recording, Report, Row};

/// Why a conform run could not start.
#[derive(Debug, thiserror::Error)]
pub enum ConformError {
    /// A backend name is unknown, or a backend asked for by name cannot run here.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// `--forms` matched nothing.
    #[error(
        "no form valid on {target} matches --forms `{glob}` (a glob over opcodes, `*` matches anything, e.g. \
         `cvt.rn.*.f32`); list the forms with `ptxdiff variants --forms --family cvt` (also cvt.pack, prmt)"
    )]
    NoForms {
        /// The glob.
        glob: String,
        /// The target.
        target: String,
    },
}

/// Options of one run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Target, or `None` for the GPU's own (sm_90 without a GPU).
    pub target: Option<Target>,
    /// Only opcodes matching this glob (`*` wildcards).
    pub forms: Option<String>,
    /// Sweep ≤32-bit domains completely (otherwise they are sampled too).
    pub exhaustive: bool,
    /// Inputs per sampled form.
    pub samples: u64,
    /// Backend names (empty: the registry's conform defaults).
    pub backends: Vec<String>,
    /// Check every GPU result on the CPU instead of with the GPU's check kernel.
    pub cpu_check: bool,
    /// Allowances switched off (recorded in the run; the registry's settings apply them).
    pub allow_off: Vec<String>,
    /// Only this shard of the forms.
    pub shard: Option<crate::runs::shard::Shard>,
    /// Leave the asynchronous-copy rows out.
    pub no_async: bool,
    /// Seconds before a memory job counts as hung (asynchronous rows).
    pub mem_timeout: Duration,
}

/// The environment line of a run in which a worker could not be restarted.
const WORKER_DOWN: &str = "worker restart failed";

/// Families `conform` sweeps.
pub const FAMILIES: [Family; 3] = [Family::Cvt, Family::CvtPack, Family::Prmt];

/// The forms of a run, in a stable order.
pub fn select_forms(target: &Target, glob: Option<&str>) -> Vec<Form> {
    FAMILIES
        .iter()
        .flat_map(|f| oracle::isa::valid_forms(target, Some(*f)))
        .map(|(f, _)| f)
        .filter(|f| glob.is_none_or(|g| glob_match(g, &f.opcode())))
        .collect()
}

/// Progress on stderr: an indicatif bar on a terminal; otherwise (CI logs, pipes) a plain line
/// naming the phase (the backend sweeping, or the asynchronous copies) every [`PLAIN_EVERY`]
/// and one at the end, with no `\r` or escape codes. A phase with nothing to do prints nothing.
struct Progress {
    bar: Option<ProgressBar>,
    unit: &'static str,
    phase: Mutex<String>,
    total: u64,
    done: AtomicU64,
    start: Instant,
    last: Mutex<Instant>,
}

/// How often a plain progress line is printed.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

impl Progress {
    fn new(total: u64, unit: &'static str, phase: String) -> Progress {
        let bar = (total > 0 && std::io::stderr().is_terminal()).then(|| {
            let pb = ProgressBar::new(total);
            pb.set_style(
                ProgressStyle::with_template(&format!(
                    "{{elapsed_precise}} [{{bar:40}}] {{human_pos}}/{{human_len}} {unit}  {{per_sec}}  ETA {{eta}}  {{msg}}"
                ))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb.set_message(phase.clone());
            pb
        });
        let now = Instant::now();
        let phase = Mutex::new(phase);
        Progress { bar, unit, phase, total, done: AtomicU64::new(0), start: now, last: Mutex::new(now) }
    }

    fn line(&self, done: u64) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let rate = done as f64 / secs;
        let eta =
            if rate > 0.0 { format!("{:.0} s", self.total.saturating_sub(done) as f64 / rate) } else { "?".into() };
        let phase = self.phase.lock().map(|p| p.clone()).unwrap_or_default();
        format!("conform, {phase}: {done}/{} {} ({rate:.0}/s, {secs:.0} s, ETA {eta})", self.total, self.unit)
    }

    fn inc(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        match &self.bar {
            Some(pb) => pb.inc(n),
            None if self.total == 0 => {}
            None => {
                if let Ok(mut last) = self.last.try_lock() {
                    if last.elapsed() >= PLAIN_EVERY {
                        *last = Instant::now();
                        eprintln!("{}", self.line(done));
                    }
                }
            }
        }
    }

    /// The phase from now on (the backend now sweeping).
    fn phase(&self, m: String) {
        if let Some(pb) = &self.bar {
            pb.set_message(m.clone());
        }
        if let Ok(mut p) = self.phase.lock() {
            *p = m;
        }
    }

    fn finish(&self) {
        match &self.bar {
            Some(pb) => pb.finish_and_clear(),
            None if self.total == 0 => {}
            None => eprintln!("{}", self.line(self.done.load(Ordering::Relaxed))),
        }
    }
}

/// The notes an asynchronous run adds: cases per family, forms not run by reason, stages (the
/// GPU's only when a GPU backend ran, `on_gpu`).
fn async_notes(run: &async_rows::AsyncRun, on_gpu: bool) -> Vec<String> {
    let mut notes = Vec::new();
    let mut per_family: Vec<(&str, usize, usize)> = Vec::new();
    for (form, n) in &run.cases {
        let fam = Row { form: form.clone(), ..Row::default() }.family();
        match per_family.iter_mut().find(|(f, _, _)| *f == fam) {
            Some((_, forms, cases)) => (*forms, *cases) = (*forms + 1, *cases + n),
            None => per_family.push((fam, 1, *n)),
        }
    }
    if !per_family.is_empty() {
        let parts: Vec<String> =
            per_family.iter().map(|(f, forms, cases)| format!("{f} {cases} cases over {forms} rows")).collect();
        notes.push(format!("asynchronous copies: {}", parts.join("; ")));
    }
    let mut reasons: Vec<(&str, usize)> = Vec::new();
    for (_, why) in &run.not_run {
        match reasons.iter_mut().find(|(r, _)| *r == why.as_str()) {
            Some((_, n)) => *n += 1,
            None => reasons.push((why, 1)),
        }
    }
    for (why, n) in reasons {
        notes.push(format!("asynchronous forms not run: {n} ({why})"));
    }
    let s = run.stages;
    notes.push(if on_gpu {
        format!(
            "asynchronous stages: oracle {:.1} s and ptxas {:.1} s (beside the sweeps), GPU (run; the JIT also \
             print and compile) {:.1} s, compare {:.1} s; in the workers (summed over them): {} jobs of {} \
             launches, loads {:.1} s, launches and read-back {:.1} s, {} restarts {:.1} s",
            s.oracle_s,
            s.assemble_s,
            s.gpu_s,
            s.compare_s,
            s.workers.jobs,
            s.workers.launches,
            s.workers.load_s,
            s.workers.run_s,
            s.workers.restarts,
            s.workers.restart_s
        )
    } else {
        format!("asynchronous stages: oracle {:.1} s (no GPU backend ran)", s.oracle_s)
    });
    notes
}

/// What a run without a GPU says before it starts: why no GPU backend runs, which backends
/// run instead, and what that verdict can cover.
pub fn no_gpu_notice(why: &str, instead: &[String]) -> String {
    format!(
        "{why}\nno GPU backend runs: running {} instead (every sweep kernel assembled, the oracle checked \
         against itself); the verdict will say nothing about hardware",
        if instead.is_empty() { "no backend".to_string() } else { instead.join(", ") }
    )
}

fn row(r: SweepResult, kind: BackendKind) -> Row {
    let mut row = Row {
        form: r.form,
        backend: r.backend,
        kind: Some(kind),
        checked: 0,
        mismatches: 0,
        examples: Vec::new(),
        failure: None,
        seconds: r.seconds,
        device: r.device,
        stages: r.stages,
        findings: Vec::new(),
        known: Vec::new(),
    };
    match r.outcome {
        Ok(c) => {
            row.checked = c.checked;
            row.mismatches = c.mismatches;
            row.failure = c.failure();
            row.examples = c.examples;
        }
        Err(SweepFailure::Row(f)) => row.failure = Some(f),
        Err(SweepFailure::Environment(why)) => row.failure = Some(BackendFailure::new(FailureKind::Environment, why)),
    }
    row
}

/// Runs the sweeps on the backends `registry` builds; `run_id` names the report. Unknown
/// backend names, an explicitly named backend that cannot run and a `--forms` glob that
/// matches nothing are errors.
pub fn run(o: &Options, registry: &Registry, run_id: &str) -> Result<Report, ConformError> {
    let start = Instant::now();
    let started_unix_s = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let mut env = Vec::new();
    let explicit = !o.backends.is_empty();
    let names = if explicit { o.backends.clone() } else { registry.conform_defaults() };
    let Selection { mut backends, unavailable } = registry.build_all(&names)?;
    if let (true, Some((name, why))) = (explicit, unavailable.first()) {
        return Err(BackendError::Unavailable { name: name.clone(), why: why.clone() }.into());
    }
    let fallback = backends.is_empty();
    let mut not_run = unavailable.clone();
    if fallback {
        let why = unavailable.first().map_or_else(|| "no backend selected".to_string(), |(_, w)| w.clone());
        let cpu = registry.build_all(&registry.without_gpu())?;
        // Said before the run, not only in the summary after it.
        let names: Vec<String> = cpu.backends.iter().map(|b| b.name()).collect();
        eprintln!("{}", no_gpu_notice(&why, &names));
        env.push(("GPU backends".into(), why));
        backends = cpu.backends;
        not_run.extend(cpu.unavailable.iter().cloned());
        env.extend(cpu.unavailable.into_iter().map(|(n, w)| (n, format!("unavailable: {w}"))));
    } else {
        env.extend(unavailable.into_iter().map(|(n, w)| (n, format!("unavailable: {w}"))));
    }
    let on_gpu = backends.iter().any(|b| b.needs().iter().any(|n| matches!(n, Need::Gpu(_))));
    let target = o.target.unwrap_or_else(|| {
        let sm = if on_gpu { registry.context().gpu_pool().ok().and_then(|p| p.sm()) } else { None };
        format!("sm_{}", sm.unwrap_or(90)).parse().unwrap_or_else(|_| "sm_90".parse().expect("sm_90 is known"))
    });
    env.extend(crate::backend::environment(&backends));
    let forms = select_forms(&target, o.forms.as_deref());
    let forms_total = forms.len();
    // The asynchronous cases; with a shard, their forms are dealt on after the sweep forms.
    let async_plan = (!o.no_async)
        .then(|| async_rows::plan(&target, o.forms.as_deref()))
        .filter(|p| !p.cases.is_empty())
        .map(|mut p| {
            if let Some(s) = o.shard {
                let mut forms: Vec<String> = Vec::new();
                for c in &p.cases {
                    if !forms.contains(&c.form) {
                        forms.push(c.form.clone());
                    }
                }
                let mine =
                    |f: &str| forms.iter().position(|x| x == f).is_some_and(|k| s.contains((forms_total + k) as u64));
                p.cases.retain(|c| mine(&c.form));
            }
            p
        });
    if let (true, None, Some(glob)) = (forms.is_empty(), &async_plan, &o.forms) {
        return Err(ConformError::NoForms { glob: glob.clone(), target: target.name() });
    }
    let forms = match o.shard {
        Some(s) => s.select(forms),
        None => forms,
    };
    let mut notes = Vec::new();
    if o.exhaustive && backends.iter().any(|b| b.name() == crate::backend::oracle::NAME) {
        notes.push(format!(
            "--exhaustive: the oracle backend checks at most {} inputs per form (spread over the domain); \
             exhaustive sweeps need a GPU backend",
            crate::backend::oracle::ORACLE_SAMPLES
        ));
    }
    let ran: Vec<String> = backends.iter().map(|b| b.name()).collect();
    let spec = |f: &Form| SweepSpec {
        form: f.clone(),
        target,
        exhaustive: o.exhaustive,
        samples: o.samples,
        cpu_check: o.cpu_check,
        #[cfg(feature = "test-hooks")]
        planted: None,
    };
    let mut rows = Vec::new();
    let mut forms_not_run = Vec::new();
    // The CPU side of the asynchronous rows (their oracle and every ptxas assembly of the GPU
    // backends' builds) runs on a thread of its own while the sweeps keep the GPU busy.
    let allow = registry.context().settings.allow.clone();
    let gpu_builds: Vec<crate::backend::Build> = backends
        .iter()
        .filter(|b| b.needs().iter().any(|n| matches!(n, Need::Gpu(_))))
        .flat_map(|b| b.builds())
        .collect();
    let async_plan = async_plan.filter(|p| !p.cases.is_empty());
    let prepared = std::thread::scope(|scope| {
        let ahead = async_plan
            .as_ref()
            .map(|plan| scope.spawn(|| async_rows::prepare(plan, &gpu_builds, &allow, o.mem_timeout)));
        if fallback {
            // Backend by backend: the CPU backends spread a whole run over all cores.
            let specs: Vec<SweepSpec> = forms.iter().map(spec).collect();
            for b in &mut backends {
                // A backend ticks once per row: one per form and build (ptxas-check: per level).
                let pb = Progress::new((specs.len() * b.builds().len().max(1)) as u64, "sweeps", b.name());
                let kind = b.kind();
                rows.extend(b.sweep(&specs, &|_| pb.inc(1)).into_iter().map(|r| row(r, kind)));
                pb.finish();
            }
        } else {
            // Backend by backend, each spreading the forms over its workers; the rows are then
            // laid out form by form, each on every backend in turn. A form no worker could run (its
            // worker could not be restarted, and no other was left) is a row failed by the
            // environment — never a finding — and the run names the cause once; every row that
            // did run is kept.
            let plan: Vec<(SweepSpec, u64)> = forms
                .iter()
                .filter_map(|f| {
                    let k = sweep_kernel(f, &target).ok()?;
                    Some((spec(f), segments(k.scheme, o.exhaustive, o.samples).iter().map(|s| s.1).sum()))
                })
                .collect();
            let specs: Vec<SweepSpec> = plan.iter().map(|(s, _)| s.clone()).collect();
            let total = plan.iter().map(|(_, n)| n).sum::<u64>() * backends.len() as u64;
            let pb = Progress::new(total, "inputs", backends.first().map(|b| b.name()).unwrap_or_default());
            let mut by_backend: Vec<(BackendKind, std::iter::Peekable<std::vec::IntoIter<SweepResult>>)> = Vec::new();
            for b in &mut backends {
                pb.phase(b.name());
                by_backend.push((b.kind(), b.sweep(&specs, &|n| pb.inc(n)).into_iter().peekable()));
            }
            for s in &specs {
                let opcode = s.form.opcode();
                for (kind, results) in &mut by_backend {
                    while let Some(r) = results.next_if(|r| r.form == opcode) {
                        if let Err(SweepFailure::Environment(why)) = &r.outcome {
                            if !env.iter().any(|(k, _)| k == WORKER_DOWN) {
                                env.push((WORKER_DOWN.into(), why.clone()));
                            }
                        }
                        rows.push(row(r, *kind));
                    }
                }
            }
            pb.finish();
        }
        ahead.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    // The asynchronous rows: after the sweeps, form by form (the shard's share of the forms).
    if let (Some(plan), Some(prepared)) = (async_plan, prepared) {
        let gpus = backends.iter().filter(|b| b.needs().iter().any(|n| matches!(n, Need::Gpu(_)))).count().max(1);
        let pb = Progress::new(plan.cases.len() as u64 * gpus as u64, "cases", "asynchronous copies".into());
        let run = async_rows::run(plan, prepared, &mut backends, o.mem_timeout, &|n| pb.inc(n));
        pb.finish();
        notes.extend(async_notes(&run, on_gpu));
        forms_not_run.extend(run.not_run);
        rows.extend(run.rows);
    }
    Ok(Report {
        run_id: run_id.into(),
        target: format!("{}@{}", target.name(), target.ptx),
        environment: env,
        rows,
        seconds: start.elapsed().as_secs_f64(),
        ran,
        not_run,
        on_gpu,
        notes,
        by_backend: fallback,
        options: results::RunOptions {
            forms: o.forms.clone(),
            exhaustive: o.exhaustive,
            samples: o.samples,
            allow_off: {
                let mut off = o.allow_off.clone();
                off.sort();
                off.dedup();
                off
            },
            backends: o.backends.clone(),
            shard: o.shard,
            no_async: o.no_async,
        },
        ptxdiff_version: env!("CARGO_PKG_VERSION").to_string(),
        started_unix_s,
        forms_not_run,
    })
}
