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
//! every program's read-back bytes with the oracle's ([`crate::memrun::compare`]), as the
//! memory programs' [`CaseKind`] ([`Memory`], implemented here: raw findings, their kind and
//! signature, the case file) says. A raw finding is a byte difference, a fault or hang, an
//! assembler rejection, or a tensor map the driver refuses though the model accepts it. Raw findings go through the register campaign's
//! triage ([`Triage`]: known entries, the first [`MINIMIZE_PER_KIND`](super::MINIMIZE_PER_KIND)
//! of a kind (class, backends, symptom, known deviation) to the minimization thread, later ones
//! counted under the first) and its minimization thread ([`Minimizer`], with GPU backends of
//! its own), which takes memory programs as [`MemCase`]s: [`generator::async_minimize`] keeps
//! every candidate protocol-correct while the same symptom remains on the same backends
//! (within the campaign's time). A finding is stored in the [`crate::findings::FindingStore`] with the case's
//! `ptxdiff eval` program line as its case file and `ptxdiff eval --backend B CASE` as its
//! replay. The signature is built from the asynchronous statements that remain after
//! minimization (the forms of the copies), the tensor map's type and swizzle, and the symptom.
//! With `--adapt` the swarm weights of the generator's switches ([`AsyncConfig::SWITCHES`])
//! adapt to what finds new signatures ([`super::adapt`], as for register programs).
//!
//! Without a GPU (or with `--backends oracle`) the campaign runs the oracle only: every
//! program is still generated, built and run, so the count of programs the oracle calls
//! undefined is still checked, and the summary says that the GPU backends are unavailable.
//!
//! Invariants: a program the oracle refuses is counted as undefined (a generator bug: the
//! summary shows the first few) and never sent to a GPU; a finding is on disk (atomically,
//! through the store) before it is counted; the campaign state (with triage's kinds and the
//! store's checkpoint) is written after each batch whose findings are settled (none still being
//! minimized), so a campaign killed at any point resumes (`--resume`) at the batch after the
//! last settled one and finds what an uninterrupted one finds; the stage times cover
//! generation, oracle, the ptxas builds ahead, print, each GPU backend, compare, triage and the
//! minimization thread.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use generator::async_minimize;
use generator::async_programs::{generate_seeded, seeded_switches, AsyncConfig};
use oracle::isa::{Family, Instruction, Target};
use oracle::memory::Region;
use oracle::memprog::{MemProgram, MemSource};
use oracle::semantics::{Allowances, Deviation, DeviationScope};

use serde::{Deserialize, Serialize};

use super::case::{CaseKind, Memory};
use super::engine::{add_stage, measure, StageTime};
use super::minimize::{Case, Minimizer, Reduction};
use super::triage::{Triage, TriageCounts};
use super::State;
use crate::atomic_write::write_atomic;
use crate::backend::{Backend, BackendKind, Failure, Registry, Selection, Settings};
use crate::findings::{Finding, FindingClass, KnownSet, RunMeta, Signature, WordMismatch};
use crate::memrun::{assemble, compare, oracle_read, run_assembled, run_on, AssembledBatch, GpuResult};
use crate::program_line::{program_line, program_source};

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
    /// Most wall time one minimization takes.
    pub minimize_seconds: std::time::Duration,
    /// The command line, for the report.
    pub command: String,
    /// Print a status line every few seconds.
    pub progress: bool,
    /// Continue the campaign in `run_dir` (its stored configuration, seed and shard).
    pub resume: bool,
    /// Only this shard of the campaign's batches (as for register programs:
    /// [`crate::runs::shard::Shard::global`]).
    pub shard: Option<crate::runs::shard::Shard>,
    /// Adapt the swarm weights of the generator's switches to what finds new signatures
    /// ([`super::adapt`]; swarm configurations only).
    pub adapt: bool,
}

/// What `campaign.json` holds of a memory-program campaign beside the common state
/// ([`super::State`], which also keeps triage's kinds and counts and the adaptive swarm): its
/// generator configuration and counters over all sessions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryState {
    /// Generator configuration.
    pub config: AsyncConfig,
    /// Programs run on the GPU backends (each counted once per backend).
    pub gpu_runs: u64,
    /// Raw findings by symptom.
    pub symptoms: BTreeMap<String, u64>,
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
    /// What triage did with the raw findings.
    pub triage: TriageCounts,
    /// The adaptive swarm (with `adapt`, once a switch was counted).
    pub swarm: Option<super::adapt::Swarm>,
    /// Why the GPU backends are unavailable (none: they ran).
    pub gpu_unavailable: Option<String>,
    /// The backends that ran programs (the oracle first).
    pub backends: Vec<String>,
    /// Wall and CPU seconds per stage.
    pub stages: BTreeMap<String, StageTime>,
}

/// What one backend did with one program, as a finding would describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symptom {
    /// The finding class.
    pub class: FindingClass,
    /// `bytes-differ`, `hang`, `CUDA_ERROR_…`, `encode-rejected CUDA_ERROR_…`, `rejected`.
    pub how: String,
    /// The first differing read-back buffer (byte differences).
    pub buffer: Option<String>,
    /// The log or message.
    pub message: Option<String>,
    /// The known hardware deviation that explains every differing byte (the oracle emulating
    /// it gives the GPU's bytes), if one does.
    pub deviation: Option<Deviation>,
}

/// One raw finding of a memory program ([`Memory`]'s [`CaseKind::Raw`]): the program and the
/// backends that show one symptom.
#[derive(Clone, Debug)]
pub struct Raw {
    /// The program as generated.
    pub source: MemSource,
    /// What the backends show.
    pub symptom: Symptom,
    /// The backends that show it.
    pub backends: Vec<String>,
    /// The first differing bytes (of the first backend).
    pub mismatches: Vec<WordMismatch>,
}

/// What running one memory program gave ([`Memory`]'s [`CaseKind::Result`]): the program
/// built, the oracle's read-back regions, and each GPU backend's result (in the campaign's
/// order of backends).
#[derive(Clone, Debug)]
pub struct MemResult {
    /// The program built from its source.
    pub program: MemProgram,
    /// The oracle's read-back regions.
    pub expected: Vec<Region>,
    /// Each GPU backend that ran it, with its result.
    pub observed: Vec<(String, GpuResult)>,
}

impl CaseKind for Memory {
    type Program = MemSource;
    type Case = MemSource;
    type Result = MemResult;
    type Raw = Raw;

    /// Each backend's symptom against the oracle's bytes ([`symptom`]; a byte difference the
    /// oracle emulating a known deviation under `allow` reproduces names it), grouped: one raw
    /// finding per symptom, with every backend that shows it; byte differences that only some
    /// of the backends that ran show are a compiler bug, whatever the oracle says.
    fn raw_findings(source: &MemSource, result: &MemResult, allow: &Allowances) -> Vec<Raw> {
        let found = result
            .observed
            .iter()
            .filter_map(|(name, r)| match symptom(&result.program, &result.expected, r, name, allow) {
                (Some(sym), m) => Some((name.clone(), sym, m)),
                (None, _) => None,
            })
            .collect();
        group(source, found, result.observed.len())
    }

    /// Class, backends, symptom and the known deviation that explains the bytes, if one does.
    fn pre_signature(r: &Raw) -> String {
        let deviation = r.symptom.deviation.map_or("", |d| d.input_class());
        format!("{}|{}|{}|{deviation}", r.symptom.class.name(), r.backends.join(","), r.symptom.how)
    }

    /// The whole signature ([`signature`]): a memory program's needs no run.
    fn quick_signature(raw: &Raw, source: &MemSource) -> Signature {
        signature(source, &raw.symptom, &raw.backends)
    }

    fn describe(raw: &Raw) -> String {
        let buffer = raw.symptom.buffer.as_deref().map(|b| format!(" in `{b}`")).unwrap_or_default();
        let sym = &raw.symptom;
        let mut lines = vec![format!("{} [{}] {}{buffer}", sym.class.name(), raw.backends.join(","), sym.how)];
        if let Some(m) = &sym.message {
            lines.push(format!("  {}", m.lines().take(5).collect::<Vec<_>>().join("\n  ")));
        }
        for m in &raw.mismatches {
            lines.push(format!("  {}: expected {}; got {:?}", m.decoded, m.expected, m.actual));
        }
        lines.join("\n")
    }

    fn write_case(source: &MemSource) -> String {
        format!("{}\n", program_line(source))
    }

    fn read_case(text: &str) -> Result<MemSource, String> {
        let line: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text.trim())
            .map_err(|e| format!("not a `ptxdiff eval` program line (one JSON object): {e}"))?;
        program_source(&line)
    }
}

/// The symptom of `result` (of backend `backend`) against the oracle's `expected` read-back
/// bytes of `p` (under `allow`), if any; byte differences that the oracle emulating a known hardware deviation
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
            let deviation = Deviation::of(DeviationScope::Memory).find(|&d| {
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

/// The GPU backends of the campaign (or of a replay): those named (or the registry's
/// defaults) that run memory programs, built; the rest with why they cannot run. A named
/// backend that does not run memory programs, or is unavailable here, is an error.
pub fn gpu_backends(registry: &Registry, names: &[String]) -> anyhow::Result<Selection> {
    let oracle = crate::backend::oracle::NAME;
    let explicit = !names.is_empty();
    let names: Vec<String> = if explicit {
        if let Some(n) = names.iter().find(|n| *n != oracle && registry.kind_of(n) != Some(BackendKind::Gpu)) {
            bail!("backend `{n}` does not run memory programs (they run on the oracle and the cuda:* backends)");
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
    /// The swarm switches it was generated with (only when the swarm adapts).
    switches: Vec<&'static str>,
    generation: StageTime,
    oracle: StageTime,
}

/// Generates program `k` of the session's batch `b` (under a shard, the campaign-wide batch
/// it stands for) with `cfg` and runs it on the oracle; `switches`: say which swarm switches
/// it was generated with.
fn prepare(o: &AsyncOptions, cfg: &AsyncConfig, b: u64, k: u64, switches: bool) -> Prepared {
    let b = o.shard.map_or(b, |s| s.global(b));
    let seed = super::program_seed(o.seed, b, k);
    let (source, generation) = measure(|| generate_seeded(seed, cfg, &o.target));
    let (result, oracle) = measure(|| {
        let p = source.build().map_err(|e| format!("seed {seed}: {e}"))?;
        let r = oracle_read(&p, &o.settings.allow).map_err(|e| format!("seed {seed}: {e}"))?;
        Ok((p, r))
    });
    let switches = if switches { seeded_switches(seed, cfg) } else { Vec::new() };
    Prepared { source, result, switches, generation, oracle }
}

/// Runs memory case `source` on the oracle and on each of `gpus` (`ptxdiff replay` of a memory
/// case): its raw findings ([`Memory`]'s), none when every backend agrees with the oracle.
/// A program that does not build, or that the oracle refuses, is an error, as is a backend
/// that cannot run it (an environment error, not a finding).
pub fn replay(source: &MemSource, gpus: &mut [Box<dyn Backend>], allow: &Allowances) -> anyhow::Result<Vec<Raw>> {
    let program = source.build().map_err(|e| anyhow::anyhow!("the program does not build: {e}"))?;
    let expected = oracle_read(&program, allow).map_err(|e| anyhow::anyhow!("the oracle refuses this program: {e}"))?;
    let mut observed = Vec::with_capacity(gpus.len());
    for g in gpus.iter_mut() {
        let name = g.name();
        let r = run_on(g.as_mut(), &[&program], JOB_TIMEOUT).map_err(|e| anyhow::anyhow!("backend {name}: {e}"))?;
        let r = r.into_iter().next().ok_or_else(|| anyhow::anyhow!("backend {name} gave no result"))?;
        observed.push((name, r));
    }
    Ok(Memory::raw_findings(source, &MemResult { program, expected, observed }, allow))
}

/// Runs one case on one backend: the symptom it shows, if any.
fn rerun(backend: &mut dyn Backend, src: &MemSource, allow: &Allowances) -> Option<Symptom> {
    let p = src.build().ok()?;
    let expected = oracle_read(&p, allow).ok()?;
    let r = run_on(backend, &[&p], JOB_TIMEOUT).ok()?.into_iter().next()?;
    symptom(&p, &expected, &r, &backend.name(), allow).0
}

/// Runs an async campaign on the oracle and the GPU backends of `o` (and, to minimize, GPU
/// backends of their own for the minimization thread: one worker per device).
pub fn run(o: &AsyncOptions) -> anyhow::Result<AsyncSummary> {
    generator::async_programs::supported(&o.target).map_err(|e| anyhow::anyhow!("fuzz --async: {e}"))?;
    let registry = Registry::new(o.settings.clone());
    let sel = gpu_backends(&registry, &o.backends)?;
    let why = registry.context().gpu_unavailable().or_else(|| {
        (sel.backends.is_empty() && !sel.unavailable.is_empty())
            .then(|| sel.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect::<Vec<_>>().join("; "))
    });
    let reducers = if o.minimize && !sel.backends.is_empty() {
        let names: Vec<String> = sel.backends.iter().map(|b| b.name()).collect();
        let one = Registry::new(Settings { workers: Some(1), ..o.settings.clone() });
        one.build_all(&names)?.backends
    } else {
        Vec::new()
    };
    run_with(o, sel.backends, reducers, why)
}

/// A batch prepared ahead: its index, each program generated and run on the oracle (and the
/// wall time that took), and the programs the oracle ran assembled by each ptxas build of the
/// GPU backends (by [`crate::backend::Build::label`], with the time each took).
type Batch = (u64, Vec<Prepared>, StageTime, BTreeMap<String, (Result<AssembledBatch, String>, StageTime)>);

/// Runs an async campaign on the oracle and `gpus` (`gpu_unavailable`: why there are none);
/// `reducers` are the minimization thread's own instances of the same backends.
///
/// The loop is the register campaign's ([`super::run`]): batches are prepared ahead
/// (generation and the oracle, on all cores, and the ptxas builds) while the previous batch
/// runs on the GPU backends, each backend on a thread of its own; raw findings go through the
/// register campaign's triage and minimization thread ([`Triage`], [`Minimizer`] of
/// [`MemCase`]s); the campaign state (`campaign.json`, [`State`] with [`MemoryState`]) is
/// written after each batch whose findings are settled, so a campaign killed at any point
/// resumes (`--resume`) with the findings of the uninterrupted one, and `--shard i/N` runs
/// every N-th batch. With `adapt` (and a swarm configuration) the swarm weights of the
/// generator's switches adapt as for register programs ([`super::adapt`]).
pub fn run_with(
    o: &AsyncOptions,
    mut gpus: Vec<Box<dyn Backend>>,
    reducers: Vec<Box<dyn Backend>>,
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
        triage: TriageCounts::default(),
        stages: BTreeMap::new(),
        swarm: None,
        kinds: BTreeMap::new(),
        checkpoint: None,
        memory: Some(MemoryState { config: o.config.clone(), ..MemoryState::default() }),
        sass: super::SassCounts::default(),
        coverage: Default::default(),
        // Memory programs are not mutated.
        mutate_share: 0.0,
        corpus: Default::default(),
        metrics: None,
    };
    let mut state = super::open_state(&state_path, o.resume, fresh)?;
    let mut totals = state.memory.clone().unwrap_or_default();
    // A resumed campaign generates with its stored configuration.
    let o = &AsyncOptions { config: totals.config.clone(), ..o.clone() };
    let adapting = o.adapt && o.config.swarm;
    if adapting && state.swarm.is_none() {
        state.swarm = Some(super::adapt::Swarm::starting_at(state.next_batch));
    }
    let swarm = std::sync::Arc::new(super::adapt::Shared::new(state.swarm.clone().unwrap_or_default()));
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
    // Campaign seconds before this session: findings are timed from the campaign's start.
    let prior_s = state.seconds;
    let s0 = state.programs;
    let mut last_status = Instant::now();
    let mut tri = Triage::resumed(&state.kinds);
    let cases = store.case_path("x").parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    // The minimization thread, with backends of its own (never holding up the next batch).
    let minimizer: Option<Minimizer<MemCase>> = (o.minimize && !gpus.is_empty()).then(|| {
        let reducer = MemReducer { gpus: reducers, allow: o.settings.allow.clone(), deadline: start + o.time };
        let budget = generator::minimize::Budget {
            seconds: Some(o.minimize_seconds),
            ..generator::minimize::Budget::calls(o.minimize_calls)
        };
        Minimizer::start(reducer, budget, super::MINIMIZE_QUEUE, o.settings.allow.clone(), env.clone(), start + o.time)
    });
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
    let swarm2 = swarm.clone();
    // Two preparing threads and one batch waiting: within half the swarm's lag.
    let producer: super::ahead::Ahead<Batch> = super::ahead::Ahead::start(first, 2, 1, move |b, stop| {
        let o = &producer_opts;
        let n = super::session_batch_size(o.batch, o.max_programs, first, b);
        if n == 0 {
            return None;
        }
        let cfg = if adapting { swarm2.config_for(&o.config, b, stop)? } else { o.config.clone() };
        use rayon::prelude::*;
        let t = Instant::now();
        let prepared: Vec<Prepared> = (0..n as u64).into_par_iter().map(|k| prepare(o, &cfg, b, k, adapting)).collect();
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
        let switches: Vec<Vec<&'static str>> = prepared.iter().map(|p| p.switches.clone()).collect();
        let mut outcomes: Vec<Option<super::adapt::Outcome>> = vec![None; prepared.len()];
        // Each runnable program with its index in the batch.
        let mut runnable: Vec<(usize, MemSource, MemProgram, Vec<Region>)> = Vec::new();
        for (k, prep) in prepared.into_iter().enumerate() {
            match prep.result {
                Ok((p, r)) => runnable.push((k, prep.source, p, r)),
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
            let programs: Vec<&MemProgram> = runnable.iter().map(|(_, _, p, _)| p).collect();
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
            // Each program's results: its program, the oracle's bytes and every backend's result.
            let mut observed: Vec<Vec<(String, GpuResult)>> = vec![Vec::with_capacity(runs.len()); runnable.len()];
            for (name, results, t) in runs {
                add_stage(&mut s.stages, &format!("GPU: run on {name}"), t);
                let results = results.map_err(|e| anyhow::anyhow!("backend {name}: {e}"))?;
                s.gpu_runs += results.len() as u64;
                for (per, r) in observed.iter_mut().zip(results) {
                    per.push((name.clone(), r));
                }
            }
            let ran: Vec<(usize, MemSource, MemResult)> = runnable
                .into_iter()
                .zip(observed)
                .map(|((k, source, program, expected), observed)| {
                    (k, source, MemResult { program, expected, observed })
                })
                .collect();
            // Every program's raw findings ([`Memory`]'s: its results against the oracle's
            // bytes), the programs side by side (a difference runs the oracle again, emulating
            // the known deviations): the batch's critical path waits for this.
            let (compared, wall) = measure(|| {
                use rayon::prelude::*;
                ran.par_iter()
                    .map(|(_, source, result)| {
                        let (raws, t) = measure(|| Memory::raw_findings(source, result, &o.settings.allow));
                        (raws, t.cpu_s)
                    })
                    .collect::<Vec<_>>()
            });
            let cpu_s = compared.iter().map(|(_, c)| c).sum();
            add_stage(&mut s.stages, "compare", StageTime { wall_s: wall.wall_s, cpu_s });
            let mut triaging = StageTime::default();
            // One raw finding per program and symptom, with every backend that shows it.
            for ((at, ..), (raws, _)) in ran.iter().zip(compared) {
                for raw in raws {
                    *s.symptoms.entry(raw.symptom.how.clone()).or_default() += 1;
                    let case = MemCase {
                        batch: b,
                        raw,
                        seen_at: prior_s + start.elapsed().as_secs_f64(),
                        cases: cases.clone(),
                    };
                    let (worth, t) = measure(|| tri.raw(&mut store, minimizer.as_ref(), case, &o.settings.allow, &env));
                    super::adapt::Outcome::merge(&mut outcomes[*at], worth?);
                    triaging.add(t);
                }
            }
            // What the minimizer finished meanwhile (it never holds up the next batch).
            for d in minimizer.iter().flat_map(Minimizer::finished) {
                let (res, t) = measure(|| tri.done(&mut store, d));
                res?;
                triaging.add(t);
            }
            add_stage(&mut s.stages, "triage", triaging);
        }
        s.programs += n;
        state.programs = state.programs.saturating_add(n);
        state.next_batch = b + 1;
        if adapting {
            swarm.finish_batch(b, &switches, &outcomes);
            state.swarm = Some(swarm.snapshot(state.next_batch));
        }
        // Written only where nothing is being minimized: then it counts exactly the batches
        // before `next_batch` (programs, kinds, the store's counts), and a resumed campaign
        // takes back whatever later batches recorded and runs them again.
        // The batch's known hits and duplicates on disk before its checkpoint.
        store.flush()?;
        if let Some(mut snapshot) = tri.settled_state(&state, &store, start.elapsed().as_secs_f64()) {
            snapshot.memory = Some(session_totals(&totals, &s));
            write_atomic(&state_path, &serde_json::to_string_pretty(&snapshot)?)?;
        }
        if o.progress && last_status.elapsed() >= super::PLAIN_STATUS_EVERY {
            eprintln!(
                "{:>6.0} s  {} async programs ({:.0}/s)  undefined {}  findings: {} new, {} dup, {} known",
                start.elapsed().as_secs_f64(),
                s.programs,
                s.programs as f64 / start.elapsed().as_secs_f64().max(1e-9),
                s.undefined,
                tri.new,
                tri.duplicates,
                tri.known
            );
            last_status = Instant::now();
        }
    }
    // A panic while preparing batches ends the campaign early: it is an error, not a summary.
    producer.finish().map_err(super::preparation_failed)?;
    // Queued minimizations finish within the campaign's time; later ones are stored as they are.
    if let Some(m) = minimizer {
        let (finished, _) = m.finish()?;
        for d in finished {
            let (res, t) = measure(|| tri.done(&mut store, d));
            res?;
            add_stage(&mut s.stages, "triage", t);
        }
    }
    add_stage(&mut s.stages, "minimization (its own thread and backends)", tri.minimization);
    for g in &gpus {
        if let Some(m) = g.mem_stages() {
            for (name, t) in worker_stages(&g.name(), &m) {
                add_stage(&mut s.stages, &name, t);
            }
        }
    }
    s.seconds = start.elapsed().as_secs_f64();
    (s.new, s.duplicates, s.known) = (tri.new, tri.duplicates, tri.known);
    s.minimized = (tri.counts.minimized, tri.counts.minimization_calls);
    s.triage = tri.counts.clone();
    totals = session_totals(&totals, &s);
    state.seconds += s.seconds;
    for (name, t) in &s.stages {
        add_stage(&mut state.stages, name, *t);
    }
    state.triage.add(&tri.counts);
    if let Some(kinds) = tri.settled_kinds() {
        state.kinds = kinds;
        state.checkpoint = Some(store.checkpoint());
    }
    state.memory = Some(totals);
    write_atomic(&state_path, &serde_json::to_string_pretty(&state)?)?;
    s.campaign_programs = state.programs;
    s.swarm = state.swarm.clone().filter(|sw| !sw.stats.is_empty());
    store.flush()?;
    store.update_meta(|m| {
        m.extra.insert("programs".into(), state.programs.to_string());
        m.extra.insert("undefined".into(), state.invalid.to_string());
        m.extra.insert("duration (s)".into(), format!("{:.1}", state.seconds));
    })?;
    crate::findings::render::write_all(&o.run_dir, store.doc(), None)?;
    Ok(s)
}

/// The raw findings of one program (`source`) from what each backend showed (`found`: the
/// backend, its symptom and the differing bytes), `ran` GPU backends having run it: one per
/// symptom, with every backend that shows it; byte differences that only some of the backends
/// show are a compiler bug, whatever the oracle says.
fn group(source: &MemSource, found: Vec<(String, Symptom, Vec<WordMismatch>)>, ran: usize) -> Vec<Raw> {
    let mut groups: Vec<Raw> = Vec::new();
    for (name, sym, m) in found {
        match groups
            .iter_mut()
            .find(|r| r.symptom.how == sym.how && r.symptom.class == sym.class && r.symptom.deviation == sym.deviation)
        {
            Some(r) => r.backends.push(name),
            None => groups.push(Raw { source: source.clone(), symptom: sym, backends: vec![name], mismatches: m }),
        }
    }
    for r in &mut groups {
        if r.symptom.class == FindingClass::HardwareSpec && r.backends.len() < ran && r.symptom.how == "bytes-differ" {
            r.symptom.class = FindingClass::Compiler;
        }
    }
    groups
}

/// The campaign's counters before this session (`before`) plus this session's (`s`).
fn session_totals(before: &MemoryState, s: &AsyncSummary) -> MemoryState {
    let mut t = before.clone();
    t.gpu_runs = t.gpu_runs.saturating_add(s.gpu_runs);
    for (k, v) in &s.symptoms {
        let n = t.symptoms.entry(k.clone()).or_default();
        *n = n.saturating_add(*v);
    }
    t
}

/// A memory program's raw finding as triage and the minimization thread take it ([`Case`]).
#[derive(Clone, Debug)]
pub struct MemCase {
    batch: u64,
    raw: Raw,
    /// Seconds since the campaign started when it was seen.
    seen_at: f64,
    /// The store's folder of case files (the replay command names the case's).
    cases: PathBuf,
}

/// The minimization thread's side of memory programs: GPU backends of its own, the
/// allowances, and the campaign's end (past it every candidate fails, so a reduction stops).
pub struct MemReducer {
    gpus: Vec<Box<dyn Backend>>,
    allow: Allowances,
    deadline: Instant,
}

impl MemCase {
    /// The case packaged with `source` (the generated program, or what minimization left of
    /// it): its signature from the statements that remain, its `ptxdiff eval` program line.
    fn package(&self, source: &MemSource, env: &[(String, String)]) -> (Finding, String) {
        let raw = &self.raw;
        let sig = Memory::quick_signature(raw, source);
        let ptx = source
            .build()
            .ok()
            .and_then(|p| oracle::memprog::ptx::module(&[&p]).ok())
            .map_or_else(String::new, |m| m.ptx);
        let mut f = Finding::new(sig, ptx);
        f.original_instructions = raw.source.statements.len() as u32;
        f.minimized_instructions = source.statements.len() as u32;
        f.threads = source.threads;
        f.message = raw.symptom.message.clone();
        f.environment = env.to_vec();
        f.first_seen_s = self.seen_at;
        f.mismatches = raw.mismatches.clone();
        f.replay = format!(
            "ptxdiff eval --backend {} {}",
            raw.backends[0],
            self.cases.join(format!("{}.case", f.id)).display()
        );
        (f, Memory::write_case(source))
    }
}

impl Case for MemCase {
    type Kind = Memory;
    type Runner = MemReducer;

    fn batch(&self) -> u64 {
        self.batch
    }

    fn raw(&self) -> &Raw {
        &self.raw
    }

    fn program(&self) -> &MemSource {
        &self.raw.source
    }

    fn package_as_is(&self, _: &Allowances, env: &[(String, String)]) -> (Finding, String) {
        self.package(&self.raw.source, env)
    }

    /// Reduces the program ([`async_minimize`], which keeps every candidate protocol-correct)
    /// while it shows the same symptom on the same backends (the same first differing buffer
    /// for byte differences).
    fn reduce(&self, r: &mut MemReducer, budget: generator::minimize::Budget, env: &[(String, String)]) -> Reduction {
        let raw = &self.raw;
        // The campaign's end, or this case's own bound (`--minimize-seconds`) if earlier.
        let deadline = budget.deadline_from(Instant::now()).map_or(r.deadline, |d| d.min(r.deadline));
        let allow = &r.allow;
        let gpus = &mut r.gpus;
        // Without its own instance of every backend that showed the finding the thread cannot
        // check a candidate: none is accepted.
        let present = raw.backends.iter().all(|b| gpus.iter().any(|g| &g.name() == b));
        let red = async_minimize::minimize(&raw.source, allow, budget.calls, |cand| {
            present
                && Instant::now() < deadline
                && gpus.iter_mut().filter(|g| raw.backends.contains(&g.name())).all(|g| {
                    rerun(g.as_mut(), cand, allow).is_some_and(|sym| {
                        sym.class == raw.symptom.class
                            && sym.how == raw.symptom.how
                            && sym.deviation == raw.symptom.deviation
                            && (sym.buffer == raw.symptom.buffer || raw.symptom.buffer.is_none())
                    })
                })
        });
        let (finding, case) = self.package(&red.source, env);
        let calls = red.calls as u64;
        Reduction { finding, case, calls, runs: calls, refused: 0 }
    }
}

/// The stage lines of a backend's memory jobs inside its workers (summed over the workers, so
/// more than the session's wall where workers run side by side): the module loads (the JIT's
/// compile), the launches with their memory and read-back, and the restarts after faults.
pub fn worker_stages(backend: &str, m: &crate::backend::MemStages) -> Vec<(String, StageTime)> {
    let at = |wall_s| StageTime { wall_s, cpu_s: 0.0 };
    vec![
        (format!("workers: load modules for {backend}"), at(m.load_s)),
        (format!("workers: launch and read back for {backend}"), at(m.run_s)),
        (format!("workers: restarts for {backend}"), at(m.restart_s)),
    ]
}

#[cfg(test)]
mod tests;
