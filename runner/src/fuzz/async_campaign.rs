//! `ptxdiff fuzz --async`: differential campaigns over protocol-correct asynchronous-copy
//! programs ([`generator::async_programs`]), on the register campaign's machinery
//! ([`super::State`] in `campaign.json`, [`super::open_state`], [`super::ahead::Ahead`],
//! [`crate::runs::shard::Shard`]).
//!
//! Each batch of programs (seeded by `(seed, batch, index)` through [`super::program_seed`],
//! so every program is reproducible; under `--shard i/N` the session's batch `b` is the
//! campaign's batch `b·N + i − 1`) is prepared ahead by two threads: generated and run on the
//! oracle on all cores, then assembled by every ptxas build of the GPU backends
//! ([`crate::memrun::assemble`]: modules per share of the cores, side by side). The main
//! thread runs the batch on every GPU backend at once, one thread each
//! ([`crate::memrun::run_assembled`], [`crate::memrun::run_on`] for the JIT), and compares
//! every program's read-back bytes with the oracle's ([`crate::memrun::compare`]). A raw
//! finding is a byte difference, a fault or hang, an assembler rejection, or a tensor map the
//! driver refuses though the model accepts it. The first [`MINIMIZE_PER_KIND`] new findings
//! of a kind (class, backends, symptom) are minimized ([`generator::async_minimize`], which
//! keeps every candidate protocol-correct) while the same symptom remains on the same backends
//! (within the campaign's time), later ones are counted under the first of them; a finding is
//! stored in the [`FindingStore`] with the case's `ptxdiff eval` program line as its case file
//! and `ptxdiff eval --backend B CASE` as its replay. The signature is built from the
//! asynchronous statements that remain after minimization (the forms of the copies), the
//! tensor map's type and swizzle, and the symptom.
//!
//! Without a GPU (or with `--backends oracle`) the campaign runs the oracle only: every
//! program is still generated, built and run, so the count of programs the oracle calls
//! undefined is still checked, and the summary says that the GPU backends are unavailable.
//!
//! Invariants: a program the oracle refuses is counted as undefined (a generator bug: the
//! summary shows the first few) and never sent to a GPU; a finding is on disk (atomically,
//! through the store) before it is counted; the campaign state, with the kinds seen so far
//! ([`MemoryState`]), is written after each batch's findings, so a campaign killed at any
//! point resumes (`--resume`) at the batch it was in and finds what an uninterrupted one
//! finds; the stage times cover generation, oracle, the ptxas builds ahead, print, each GPU
//! backend, compare and minimization. Not yet as for register programs: minimization runs
//! inline (not on a thread of its own) and the adaptive swarm does not apply.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use generator::async_minimize;
use generator::async_programs::{generate_seeded, AsyncConfig};
use oracle::isa::{Family, Instruction, Target};
use oracle::memory::Region;
use oracle::memprog::{MemProgram, MemSource};
use oracle::semantics::{Allowances, Deviation};

use serde::{Deserialize, Serialize};

use super::engine::{add_stage, measure, StageTime};
use super::{State, MINIMIZE_PER_KIND};
use crate::atomic_write::write_atomic;
use crate::backend::{Backend, BackendKind, Failure, Registry, Selection, Settings};
use crate::findings::{Finding, FindingClass, FindingStore, KnownSet, Recorded, RunMeta, Signature, WordMismatch};
use crate::memrun::{assemble, compare, oracle_read, run_assembled, run_on, AssembledBatch, GpuResult};
use crate::program_line::program_line;

/// Longest wait for one memory job on a GPU before it counts as a hang.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(10);
/// Programs the oracle refused whose errors the summary shows.
const SHOW_UNDEFINED: usize = 3;

/// Options of an async campaign.
#[derive(Clone, Debug)]
pub struct AsyncOptions {
    /// Stop after this long.
    pub time: Duration,
    /// Stop after this many programs.
    pub max_programs: Option<u64>,
    /// Campaign seed.
    pub seed: u64,
    /// Target.
    pub target: Target,
    /// Backend names given (empty: the GPU backends this machine has).
    pub backends: Vec<String>,
    /// Registry settings (ptxas, devices, workers, allowances).
    pub settings: Settings,
    /// Generator configuration.
    pub config: AsyncConfig,
    /// Run directory (new or empty).
    pub run_dir: PathBuf,
    /// Known findings directory.
    pub known_dir: PathBuf,
    /// Programs per batch (one module per batch and backend).
    pub batch: usize,
    /// Minimize new findings.
    pub minimize: bool,
    /// Predicate calls per minimization.
    pub minimize_calls: usize,
    /// The command line, for the report.
    pub command: String,
    /// Print a status line every few seconds.
    pub progress: bool,
    /// Continue the campaign in `run_dir` (its stored configuration, seed and shard).
    pub resume: bool,
    /// Only this shard of the campaign's batches (as for register programs:
    /// [`crate::runs::shard::Shard::global`]).
    pub shard: Option<crate::runs::shard::Shard>,
}

/// What `campaign.json` holds of a memory-program campaign beside the common state
/// ([`super::State`]): its generator configuration and counters over all sessions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryState {
    /// Generator configuration.
    pub config: AsyncConfig,
    /// Programs run on the GPU backends (each counted once per backend).
    pub gpu_runs: u64,
    /// Raw findings by symptom.
    pub symptoms: BTreeMap<String, u64>,
    /// Findings minimized.
    pub minimized: u64,
    /// Predicate calls the minimizations took.
    pub minimize_calls: u64,
    /// What the campaign did with each kind of finding so far (so that a resumed campaign
    /// counts a kind under the same first finding as an uninterrupted one).
    #[serde(default)]
    pub kinds: Vec<KindRecord>,
}

/// A kind of finding and what the campaign did with it, as stored in [`MemoryState`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindRecord {
    /// Class.
    pub class: FindingClass,
    /// The backends that show it.
    pub backends: Vec<String>,
    /// The symptom.
    pub how: String,
    /// The input class of the known deviation that explains it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deviation: Option<String>,
    /// Findings of the kind minimized.
    pub minimized: u32,
    /// The signature the kind's later findings are counted under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<Signature>,
}

/// The kinds of a stored state as the campaign keeps them (a deviation the model no longer
/// names is dropped with its kind: its findings are then stored anew).
fn kinds_from(records: &[KindRecord]) -> BTreeMap<Kind, KindSeen> {
    records
        .iter()
        .filter_map(|r| {
            let deviation = match &r.deviation {
                None => None,
                Some(name) => Some(Deviation::ALL.into_iter().find(|d| d.input_class() == name)?),
            };
            let kind = (r.class, r.backends.clone(), r.how.clone(), deviation);
            Some((kind, KindSeen { minimized: r.minimized, first: r.first.clone() }))
        })
        .collect()
}

/// [`kinds_from`]'s inverse.
fn kind_records(kinds: &BTreeMap<Kind, KindSeen>) -> Vec<KindRecord> {
    kinds
        .iter()
        .map(|((class, backends, how, deviation), seen)| KindRecord {
            class: *class,
            backends: backends.clone(),
            how: how.clone(),
            deviation: deviation.map(|d| d.input_class().to_string()),
            minimized: seen.minimized,
            first: seen.first.clone(),
        })
        .collect()
}

/// What an async campaign did this session.
#[derive(Clone, Debug, Default)]
pub struct AsyncSummary {
    /// Programs generated and run on the oracle.
    pub programs: u64,
    /// Programs over all sessions of the campaign.
    pub campaign_programs: u64,
    /// Seconds the campaign ran.
    pub seconds: f64,
    /// Programs the oracle refused (must stay 0).
    pub undefined: u64,
    /// The first few of those refusals (program seed and error).
    pub undefined_examples: Vec<String>,
    /// Programs run on the GPU backends (each counted once per backend).
    pub gpu_runs: u64,
    /// Raw findings by symptom (`bytes-differ`, `hang`, a fault's name, `encode-rejected`,
    /// `rejected`).
    pub symptoms: BTreeMap<String, u64>,
    /// New findings stored.
    pub new: u64,
    /// Occurrences of stored findings.
    pub duplicates: u64,
    /// Occurrences of known findings.
    pub known: u64,
    /// Findings minimized and the predicate calls it took.
    pub minimized: (u64, u64),
    /// Why the GPU backends are unavailable (none: they ran).
    pub gpu_unavailable: Option<String>,
    /// The backends that ran programs (the oracle first).
    pub backends: Vec<String>,
    /// Wall and CPU seconds per stage.
    pub stages: BTreeMap<String, StageTime>,
}

/// What one backend did with one program, as a finding would describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Symptom {
    class: FindingClass,
    /// `bytes-differ`, `hang`, `CUDA_ERROR_…`, `encode-rejected CUDA_ERROR_…`, `rejected`.
    how: String,
    /// The first differing read-back buffer (byte differences).
    buffer: Option<String>,
    /// The log or message.
    message: Option<String>,
    /// The known hardware deviation that explains every differing byte (the oracle emulating
    /// it gives the GPU's bytes), if one does.
    deviation: Option<Deviation>,
}

/// One raw finding: a program and the backends that show one symptom.
#[derive(Clone, Debug)]
struct Raw {
    source: MemSource,
    symptom: Symptom,
    backends: Vec<String>,
    mismatches: Vec<WordMismatch>,
}

/// The symptom of `result` against the oracle's `expected` read-back bytes of `p` (under
/// `allow`), if any; byte differences that the oracle emulating a known hardware deviation
/// reproduces exactly name that deviation.
fn symptom(
    p: &MemProgram,
    expected: &[Region],
    result: &GpuResult,
    backend: &str,
    allow: &Allowances,
) -> (Option<Symptom>, Vec<WordMismatch>) {
    match result {
        GpuResult::Bytes(got) => {
            let refs: Vec<&Region> = expected.iter().collect();
            let diffs = compare(&refs, got);
            let Some(first) = diffs.first() else { return (None, Vec::new()) };
            let name = |k: usize| p.read.get(k).map_or_else(|| format!("#{k}"), |&b| p.buffers[b].name.clone());
            let mismatches = diffs
                .iter()
                .take(8)
                .map(|d| WordMismatch {
                    thread: 0,
                    word: d.offset as u32,
                    expected: format!("{:#04x}", d.expected),
                    actual: BTreeMap::from([(backend.to_string(), format!("{:#04x}", d.got))]),
                    decoded: format!("{} byte {}", name(d.buffer), d.offset),
                })
                .collect();
            let buffer = name(first.buffer);
            let message =
                format!("{} known bytes differ; the first in `{buffer}` at byte {}", diffs.len(), first.offset);
            let deviation = Deviation::ALL.into_iter().find(|&d| {
                oracle_read(p, &allow.clone().emulating(d))
                    .is_ok_and(|e| compare(&e.iter().collect::<Vec<_>>(), got).is_empty())
            });
            let message = match deviation {
                Some(d) => format!(
                    "{message}; the oracle emulating the known deviation `{}` ({}) gives the GPU's bytes",
                    d.input_class(),
                    d.evidence()
                ),
                None => message,
            };
            let s = Symptom {
                class: FindingClass::HardwareSpec,
                how: "bytes-differ".into(),
                buffer: Some(buffer),
                message: Some(message),
                deviation,
            };
            (Some(s), mismatches)
        }
        GpuResult::Failed(Failure::Crash { how, message, .. }) => (
            Some(Symptom {
                class: FindingClass::Crash,
                how: how.clone(),
                buffer: None,
                message: Some(message.clone()),
                deviation: None,
            }),
            Vec::new(),
        ),
        GpuResult::Failed(Failure::Rejected { message, .. }) => (
            Some(Symptom {
                class: FindingClass::AssemblerRejection,
                how: "rejected".into(),
                buffer: None,
                message: Some(message.clone()),
                deviation: None,
            }),
            Vec::new(),
        ),
        GpuResult::EncodeRejected { param, error } => (
            Some(Symptom {
                class: FindingClass::HardwareSpec,
                how: format!("encode-rejected {error}"),
                buffer: None,
                message: Some(format!("the driver refused tensor map parameter {param}: {error}")),
                deviation: None,
            }),
            Vec::new(),
        ),
    }
}

/// The signature of a (minimized) case: the forms of its asynchronous statements, the type
/// and swizzle of its tensor map, the backends and the symptom; the shape names the first
/// differing buffer and the value instructions (`cvt`, `prmt`) between the copy and it.
fn signature(src: &MemSource, symptom: &Symptom, backends: &[String]) -> Signature {
    let mut forms = BTreeSet::new();
    let mut values = BTreeSet::new();
    for s in &src.statements {
        let body = match s.trim().strip_prefix('@') {
            Some(guarded) => guarded.split_once(char::is_whitespace).map_or("", |(_, b)| b),
            None => s.trim(),
        };
        let Ok(inst) = body.trim().parse::<Instruction>() else { continue };
        let f = inst.form.family();
        let asynchronous = matches!(
            f,
            Family::CpAsync
                | Family::CpAsyncBulk
                | Family::CpAsyncBulkTensor
                | Family::CpReduceAsyncBulk
                | Family::CpReduceAsyncBulkTensor
                | Family::CpAsyncBulkPrefetch
                | Family::CpAsyncBulkPrefetchTensor
        );
        if asynchronous && symptom.deviation.is_none_or(|d| d.concerns(&inst.form.opcode())) {
            forms.insert(inst.form.opcode());
        } else if matches!(f, Family::Cvt | Family::CvtPack | Family::Prmt) {
            values.insert(inst.form.opcode());
        }
    }
    let form = if forms.is_empty() { "program".to_string() } else { forms.into_iter().collect::<Vec<_>>().join(" + ") };
    let uses_map = src.statements.iter().any(|s| s.contains(".tensor"));
    let input_class = match (symptom.deviation, src.tensor_maps.first()) {
        (Some(d), _) => d.input_class().to_string(),
        (None, Some(m)) if uses_map => format!("{}/{}", m.map.dtype.name(), m.map.swizzle.name()),
        _ => String::new(),
    };
    let sig = Signature::new(symptom.class, form, input_class, backends.iter().cloned(), symptom.how.clone());
    match &symptom.buffer {
        Some(b) => {
            let mut shape = vec![b.clone()];
            shape.extend(values);
            sig.with_shape(shape.join(" ← "))
        }
        None => sig,
    }
}

/// The GPU backends of the campaign: those named (or the registry's defaults) that run memory
/// programs, built; the rest with why they cannot run.
fn gpu_backends(registry: &Registry, names: &[String]) -> anyhow::Result<Selection> {
    let oracle = crate::backend::oracle::NAME;
    let explicit = !names.is_empty();
    let names: Vec<String> = if explicit {
        if let Some(n) = names.iter().find(|n| *n != oracle && registry.kind_of(n) != Some(BackendKind::Gpu)) {
            bail!(
                "backend `{n}` does not run memory programs; `fuzz --async` takes the oracle and the cuda:* backends"
            );
        }
        names.iter().filter(|n| *n != oracle).cloned().collect()
    } else {
        registry.fuzz_defaults().into_iter().filter(|n| registry.kind_of(n) == Some(BackendKind::Gpu)).collect()
    };
    let sel = registry.build_all(&names)?;
    if explicit && !sel.unavailable.is_empty() {
        let why: Vec<String> = sel.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect();
        bail!("requested backend(s) unavailable on this machine: {} (leave them out of --backends)", why.join("; "));
    }
    Ok(sel)
}

/// A generated program and what the oracle made of it.
struct Prepared {
    source: MemSource,
    /// The program and its read-back regions, or the oracle's refusal.
    result: Result<(MemProgram, Vec<Region>), String>,
    generation: StageTime,
    oracle: StageTime,
}

/// Generates program `k` of the session's batch `b` (under a shard, the campaign-wide batch
/// it stands for) and runs it on the oracle.
fn prepare(o: &AsyncOptions, b: u64, k: u64) -> Prepared {
    let b = o.shard.map_or(b, |s| s.global(b));
    let seed = super::program_seed(o.seed, b, k);
    let (source, generation) = measure(|| generate_seeded(seed, &o.config, &o.target));
    let (result, oracle) = measure(|| {
        let p = source.build().map_err(|e| format!("seed {seed}: {e}"))?;
        let r = oracle_read(&p, &o.settings.allow).map_err(|e| format!("seed {seed}: {e}"))?;
        Ok((p, r))
    });
    Prepared { source, result, generation, oracle }
}

/// Runs one case on one backend: the symptom it shows, if any.
fn rerun(backend: &mut dyn Backend, src: &MemSource, allow: &Allowances) -> Option<Symptom> {
    let p = src.build().ok()?;
    let expected = oracle_read(&p, allow).ok()?;
    let r = run_on(backend, &[&p], JOB_TIMEOUT).ok()?.into_iter().next()?;
    symptom(&p, &expected, &r, &backend.name(), allow).0
}

/// Runs an async campaign on the oracle and the GPU backends of `o`.
pub fn run(o: &AsyncOptions) -> anyhow::Result<AsyncSummary> {
    generator::async_programs::supported(&o.target).map_err(|e| anyhow::anyhow!("fuzz --async: {e}"))?;
    let registry = Registry::new(o.settings.clone());
    let sel = gpu_backends(&registry, &o.backends)?;
    let why = registry.context().gpu_unavailable().or_else(|| {
        (sel.backends.is_empty() && !sel.unavailable.is_empty())
            .then(|| sel.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect::<Vec<_>>().join("; "))
    });
    run_with(o, sel.backends, why)
}

/// A batch prepared ahead: its index, each program generated and run on the oracle (and the
/// wall time that took), and the programs the oracle ran assembled by each ptxas build of the
/// GPU backends (by [`crate::backend::Build::label`], with the time each took).
type Batch = (u64, Vec<Prepared>, StageTime, BTreeMap<String, (Result<AssembledBatch, String>, StageTime)>);

/// Runs an async campaign on the oracle and `gpus` (`gpu_unavailable`: why there are none).
///
/// The loop is the register campaign's ([`super::run`]): batches are prepared ahead
/// (generation and the oracle, on all cores) while the previous batch runs on the GPU
/// backends, each backend on a thread of its own; the campaign state (`campaign.json`,
/// [`State`] with [`MemoryState`]) is written after each batch's findings, so a campaign killed
/// at any point resumes at the batch it was in (`--resume`) and `--shard i/N` runs every
/// N-th batch.
pub fn run_with(
    o: &AsyncOptions,
    mut gpus: Vec<Box<dyn Backend>>,
    gpu_unavailable: Option<String>,
) -> anyhow::Result<AsyncSummary> {
    let known = if o.known_dir.is_dir() {
        KnownSet::load(&o.known_dir)
            .with_context(|| format!("loading known findings from {}", o.known_dir.display()))?
    } else {
        KnownSet::empty()
    };
    let _lock = super::lock_run_dir(&o.run_dir, o.resume)?;
    let mut s = AsyncSummary { gpu_unavailable, ..AsyncSummary::default() };
    s.backends =
        std::iter::once(crate::backend::oracle::NAME.to_string()).chain(gpus.iter().map(|b| b.name())).collect();
    let state_path = o.run_dir.join(super::STATE);
    let fresh = State {
        seed: o.seed,
        target: format!("{}@{}", o.target, o.target.ptx),
        backends: s.backends.clone(),
        next_batch: 0,
        programs: 0,
        seconds: 0.0,
        families: BTreeMap::new(),
        invalid: 0,
        config: generator::program::Config::default(),
        shard: o.shard,
        triage: super::triage::TriageCounts::default(),
        stages: BTreeMap::new(),
        swarm: None,
        kinds: BTreeMap::new(),
        checkpoint: None,
        memory: Some(MemoryState { config: o.config.clone(), ..MemoryState::default() }),
        sass: super::SassCounts::default(),
    };
    let mut state = super::open_state(&state_path, o.resume, fresh)?;
    let mut totals = state.memory.clone().unwrap_or_default();
    // A resumed campaign generates with its stored configuration.
    let o = &AsyncOptions { config: totals.config.clone(), ..o.clone() };
    let mut env = vec![("mode".to_string(), "async".to_string())];
    env.extend(crate::backend::environment(&gpus));
    if let Some(why) = &s.gpu_unavailable {
        env.push(("gpu".into(), format!("unavailable: {why}")));
    }
    env.push(("backends".into(), s.backends.join(",")));
    let mut store = super::open_store(o.resume, &o.run_dir, known, || RunMeta {
        run_id: String::new(),
        kind: "fuzz".into(),
        ended_unix_s: 0,
        started_unix_s: super::now_unix_s(),
        command: o.command.clone(),
        target: o.target.to_string(),
        environment: env.clone(),
        extra: super::campaign_extra(o.seed, o.shard, &[("mode", "async")]),
    })?;
    // What the batches run again had recorded before the last session ended is taken back.
    if let Some(c) = state.checkpoint.as_ref().filter(|_| o.resume) {
        store.rollback(c)?;
    }
    let start = Instant::now();
    let s0 = state.programs;
    let mut last_status = Instant::now();
    let mut minimized_kinds = kinds_from(&totals.kinds);
    // Generation and the oracle of the next batches (each on all cores) while the GPU
    // backends run this one.
    let first = state.next_batch;
    let producer_opts = o.clone();
    // The ptxas builds of the GPU backends, each once: their assemblies are made ahead too.
    let mut builds: Vec<crate::backend::Build> = Vec::new();
    for b in gpus.iter().flat_map(|g| g.builds()) {
        if !builds.iter().any(|x| x.label() == b.label()) {
            builds.push(b);
        }
    }
    let producer: super::ahead::Ahead<Batch> = super::ahead::Ahead::start(first, 2, 1, move |b, stop| {
        let o = &producer_opts;
        let n = super::session_batch_size(o.batch, o.max_programs, first, b);
        if n == 0 {
            return None;
        }
        use rayon::prelude::*;
        let t = Instant::now();
        let prepared: Vec<Prepared> = (0..n as u64).into_par_iter().map(|k| prepare(o, b, k)).collect();
        let made = StageTime { wall_s: t.elapsed().as_secs_f64(), cpu_s: 0.0 };
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let programs: Vec<&MemProgram> = prepared.iter().filter_map(|p| p.result.as_ref().ok().map(|r| &r.0)).collect();
        let assembled = std::thread::scope(|s| {
            let handles: Vec<_> = builds
                .iter()
                .map(|build| {
                    let programs = &programs;
                    s.spawn(move || {
                        let t = Instant::now();
                        let a = assemble(build, programs, JOB_TIMEOUT);
                        (build.label(), (a, StageTime { wall_s: t.elapsed().as_secs_f64(), cpu_s: 0.0 }))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        });
        Some((b, prepared, made, assembled))
    });
    let done = |state: &State| start.elapsed() >= o.time || o.max_programs.is_some_and(|m| state.programs - s0 >= m);
    while !done(&state) {
        let t_wait = Instant::now();
        // The time is up while a batch is still being prepared: it is not counted, and a
        // resumed campaign runs it.
        let Ok(Some((b, prepared, made, assembled))) = producer.recv_until(start.checked_add(o.time)) else {
            break;
        };
        for (label, (_, t)) in &assembled {
            add_stage(&mut s.stages, &format!("{label} (ahead, wall of a preparing thread)"), *t);
        }
        add_stage(
            &mut s.stages,
            "waiting for preparation",
            StageTime { wall_s: t_wait.elapsed().as_secs_f64(), cpu_s: 0.0 },
        );
        let n = prepared.len() as u64;
        let (gen_cpu, ora_cpu): (f64, f64) = prepared
            .iter()
            .map(|p| (p.generation.cpu_s, p.oracle.cpu_s))
            .fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
        let share = gen_cpu / (gen_cpu + ora_cpu).max(1e-12);
        add_stage(&mut s.stages, "generation", StageTime { wall_s: made.wall_s * share, cpu_s: gen_cpu });
        add_stage(&mut s.stages, "oracle", StageTime { wall_s: made.wall_s * (1.0 - share), cpu_s: ora_cpu });
        let mut runnable: Vec<(MemSource, MemProgram, Vec<Region>)> = Vec::new();
        for prep in prepared {
            match prep.result {
                Ok((p, r)) => runnable.push((prep.source, p, r)),
                Err(e) => {
                    s.undefined += 1;
                    state.invalid = state.invalid.saturating_add(1);
                    if s.undefined_examples.len() < SHOW_UNDEFINED {
                        eprintln!(
                            "warning: the oracle refused a generated async program ({e}); this is a generator bug"
                        );
                        s.undefined_examples.push(e);
                    }
                }
            }
        }
        if !gpus.is_empty() && !runnable.is_empty() {
            let programs: Vec<&MemProgram> = runnable.iter().map(|(_, p, _)| p).collect();
            let (printed, t) = measure(|| crate::memrun::print_all(&programs));
            add_stage(&mut s.stages, "print", t);
            if let Err(e) = printed {
                bail!("cannot print generated async programs as PTX ({e}): a ptxdiff bug");
            }
            // Every backend on a thread of its own (the ptxas builds assemble while the JIT
            // compiles; the workers are shared).
            let runs: Vec<(String, Result<Vec<GpuResult>, String>, StageTime)> = std::thread::scope(|scope| {
                let handles: Vec<_> = gpus
                    .iter_mut()
                    .map(|g| {
                        let programs = &programs;
                        let ahead = g.builds().first().and_then(|b| assembled.get(&b.label()));
                        scope.spawn(move || {
                            let (r, t) = measure(|| match ahead {
                                Some((Ok(batch), _)) => run_assembled(g.as_mut(), batch),
                                Some((Err(e), _)) => Err(e.clone()),
                                None => run_on(g.as_mut(), programs, JOB_TIMEOUT),
                            });
                            (g.name(), r, t)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
            });
            let mut raws: Vec<Raw> = Vec::new();
            let mut per_program: Vec<Vec<(String, Symptom, Vec<WordMismatch>)>> = vec![Vec::new(); runnable.len()];
            for (name, results, t) in runs {
                add_stage(&mut s.stages, &format!("GPU: run on {name}"), t);
                let results = results.map_err(|e| anyhow::anyhow!("backend {name}: {e}"))?;
                s.gpu_runs += results.len() as u64;
                let (_, t) = measure(|| {
                    for (k, r) in results.iter().enumerate() {
                        let (_, p, expected) = &runnable[k];
                        if let (Some(sym), m) = symptom(p, expected, r, &name, &o.settings.allow) {
                            per_program[k].push((name.clone(), sym, m));
                        }
                    }
                });
                add_stage(&mut s.stages, "compare", t);
            }
            // One raw finding per program and symptom, with every backend that shows it.
            for (k, found) in per_program.into_iter().enumerate() {
                let mut groups: Vec<Raw> = Vec::new();
                for (name, sym, m) in found {
                    match groups.iter_mut().find(|r| {
                        r.symptom.how == sym.how && r.symptom.class == sym.class && r.symptom.deviation == sym.deviation
                    }) {
                        Some(r) => r.backends.push(name),
                        None => groups.push(Raw {
                            source: runnable[k].0.clone(),
                            symptom: sym,
                            backends: vec![name],
                            mismatches: m,
                        }),
                    }
                }
                // Compiled variants that disagree with each other: a compiler bug, whatever
                // the oracle says.
                let ran = gpus.len();
                for r in &mut groups {
                    if r.symptom.class == FindingClass::HardwareSpec
                        && r.backends.len() < ran
                        && r.symptom.how == "bytes-differ"
                    {
                        r.symptom.class = FindingClass::Compiler;
                    }
                }
                raws.extend(groups);
            }
            for raw in raws {
                *s.symptoms.entry(raw.symptom.how.clone()).or_default() += 1;
                record(o, &mut s, &mut store, &mut gpus, &mut minimized_kinds, raw, start)?;
            }
        }
        s.programs += n;
        state.programs = state.programs.saturating_add(n);
        state.next_batch = b + 1;
        let mut snapshot = state.clone();
        snapshot.seconds += start.elapsed().as_secs_f64();
        snapshot.memory = Some(session_totals(&totals, &s, &minimized_kinds));
        snapshot.checkpoint = Some(store.checkpoint());
        write_atomic(&state_path, &serde_json::to_string_pretty(&snapshot)?)?;
        if o.progress && last_status.elapsed() >= super::PLAIN_STATUS_EVERY {
            eprintln!(
                "{:>6.0} s  {} async programs ({:.0}/s)  undefined {}  findings: {} new, {} dup, {} known",
                start.elapsed().as_secs_f64(),
                s.programs,
                s.programs as f64 / start.elapsed().as_secs_f64().max(1e-9),
                s.undefined,
                s.new,
                s.duplicates,
                s.known
            );
            last_status = Instant::now();
        }
    }
    // A panic while preparing batches ends the campaign early: it is an error, not a summary.
    producer.finish().map_err(super::preparation_failed)?;
    s.seconds = start.elapsed().as_secs_f64();
    totals = session_totals(&totals, &s, &minimized_kinds);
    state.seconds += s.seconds;
    for (name, t) in &s.stages {
        add_stage(&mut state.stages, name, *t);
    }
    state.memory = Some(totals);
    state.checkpoint = Some(store.checkpoint());
    write_atomic(&state_path, &serde_json::to_string_pretty(&state)?)?;
    s.campaign_programs = state.programs;
    store.update_meta(|m| {
        m.extra.insert("programs".into(), state.programs.to_string());
        m.extra.insert("undefined".into(), state.invalid.to_string());
        m.extra.insert("duration (s)".into(), format!("{:.1}", state.seconds));
    })?;
    crate::findings::render::write_all(&o.run_dir, store.doc(), None)?;
    Ok(s)
}

/// The campaign's counters before this session (`before`) plus this session's (`s`), and the
/// kinds seen so far.
fn session_totals(before: &MemoryState, s: &AsyncSummary, kinds: &BTreeMap<Kind, KindSeen>) -> MemoryState {
    let mut t = before.clone();
    t.kinds = kind_records(kinds);
    t.gpu_runs = t.gpu_runs.saturating_add(s.gpu_runs);
    for (k, v) in &s.symptoms {
        let n = t.symptoms.entry(k.clone()).or_default();
        *n = n.saturating_add(*v);
    }
    t.minimized = t.minimized.saturating_add(s.minimized.0);
    t.minimize_calls = t.minimize_calls.saturating_add(s.minimized.1);
    t
}

/// A kind of finding: class, backends, symptom, and the known deviation that explains it.
type Kind = (FindingClass, Vec<String>, String, Option<Deviation>);

/// What the campaign did with a kind so far: minimizations, and the signature of the first
/// finding of the kind that was minimized.
#[derive(Default)]
struct KindSeen {
    minimized: u32,
    first: Option<Signature>,
}

/// Minimizes and stores one raw finding; once [`MINIMIZE_PER_KIND`] findings of its kind were
/// minimized (without minimization: once one is stored), a further new one is counted under
/// the first of them instead (unminimized cases would each have a signature of their own).
fn record(
    o: &AsyncOptions,
    s: &mut AsyncSummary,
    store: &mut FindingStore,
    gpus: &mut [Box<dyn Backend>],
    kinds: &mut BTreeMap<Kind, KindSeen>,
    raw: Raw,
    start: Instant,
) -> anyhow::Result<()> {
    let kind = (raw.symptom.class, raw.backends.clone(), raw.symptom.how.clone(), raw.symptom.deviation);
    let seen = kinds.entry(kind).or_default();
    let before = raw.source.statements.len();
    let pre = signature(&raw.source, &raw.symptom, &raw.backends);
    let mut source = raw.source.clone();
    let new = store.classify(&pre) == Recorded::New;
    let enough = !o.minimize || seen.minimized >= MINIMIZE_PER_KIND;
    if let (true, Some(first)) = (new && enough, &seen.first) {
        match store.record(Finding::new(first.clone(), ""), "")? {
            Recorded::Known(_) => s.known += 1,
            _ => s.duplicates += 1,
        }
        return Ok(());
    }
    let minimizing = o.minimize && new && seen.minimized < MINIMIZE_PER_KIND;
    if minimizing {
        seen.minimized += 1;
        let (red, t) = measure(|| {
            let allow = &o.settings.allow;
            let deadline = start + o.time;
            async_minimize::minimize(&raw.source, allow, o.minimize_calls, |cand| {
                // Past the campaign's time every candidate fails, so the reduction stops.
                Instant::now() < deadline
                    && gpus.iter_mut().filter(|g| raw.backends.contains(&g.name())).all(|g| {
                        rerun(g.as_mut(), cand, allow).is_some_and(|sym| {
                            sym.class == raw.symptom.class
                                && sym.how == raw.symptom.how
                                && sym.deviation == raw.symptom.deviation
                                && (sym.buffer == raw.symptom.buffer || raw.symptom.buffer.is_none())
                        })
                    })
            })
        });
        add_stage(&mut s.stages, "minimize", t);
        s.minimized.0 += 1;
        s.minimized.1 += red.calls as u64;
        source = red.source;
    }
    let sig = signature(&source, &raw.symptom, &raw.backends);
    // A known signature never stands for its kind: new findings are not hidden under it.
    if (minimizing || !o.minimize) && seen.first.is_none() && !matches!(store.classify(&sig), Recorded::Known(_)) {
        seen.first = Some(sig.clone());
    }
    let ptx =
        source.build().ok().and_then(|p| oracle::memprog::ptx::module(&[&p]).ok()).map_or_else(String::new, |m| m.ptx);
    let mut f = Finding::new(sig, ptx);
    f.original_instructions = before as u32;
    f.minimized_instructions = source.statements.len() as u32;
    f.threads = source.threads;
    f.message = raw.symptom.message.clone();
    f.environment = store.doc().run.environment.clone();
    f.first_seen_s = start.elapsed().as_secs_f64();
    f.mismatches = raw.mismatches.clone();
    let id = f.id.clone();
    f.replay = format!("ptxdiff eval --backend {} {}", raw.backends[0], store.case_path(&id).display());
    let case = format!("{}\n", program_line(&source));
    match store.record(f, &case)? {
        Recorded::New => s.new += 1,
        Recorded::Duplicate => s.duplicates += 1,
        Recorded::Known(_) => s.known += 1,
    }
    Ok(())
}

#[cfg(test)]
mod tests;
