//! `ptxdiff fuzz --async`: differential campaigns over protocol-correct asynchronous-copy
//! programs ([`generator::async_programs`]), run by the one campaign loop
//! ([`super::campaign`]) as its memory kind ([`MemoryCampaign`]); the cases themselves (symptoms,
//! raw findings, signatures, minimization, replay) are [`super::memory_case`]'s.
//!
//! Each batch of programs (seeded by `(seed, batch, index)` through [`super::program_seed`],
//! so every program is reproducible; under `--shard i/N` the session's batch `b` is the
//! campaign's batch `b·N + i − 1`) is prepared ahead by two threads: generated and run on the
//! oracle on all cores, then assembled by every ptxas build of the GPU backends
//! ([`crate::memrun::assemble`]: modules per share of the cores, side by side). The main
//! thread runs the batch on every GPU backend at once, one thread each
//! ([`crate::memrun::run_assembled`], [`crate::memrun::run_on`] for the JIT), and compares
//! every program's read-back bytes with the oracle's, as the memory programs' [`CaseKind`]
//! ([`Memory`]) says. Raw findings go through the campaign loop's triage (known entries, the
//! first [`MINIMIZE_PER_KIND`](super::MINIMIZE_PER_KIND) of a kind (class, backends, symptom,
//! known deviation) to the minimization threads, later ones counted under the first) and its
//! minimization threads (`--minimize-threads`), which take memory programs as [`MemCase`]s,
//! each with GPU backends of its own ([`MemReducer`]). With `--adapt` the swarm weights of the generator's switches
//! ([`AsyncConfig::SWITCHES`]) adapt to what finds new signatures ([`super::adapt`], as for
//! register programs).
//!
//! Without a GPU (or with `--backends oracle`) the campaign runs the oracle only: every
//! program is still generated, built and run, so the count of programs the oracle calls
//! undefined is still checked, and the summary says that the GPU backends are unavailable.
//!
//! Invariants: a program the oracle refuses is counted as undefined (a generator bug: the
//! summary shows the first few) and never sent to a GPU; the campaign state keeps this kind's
//! generator configuration and counters ([`MemoryState`]), a resumed campaign generates with
//! the stored configuration; the loop's invariants (findings on disk before the state that
//! counts them, resumption at the batch after the last settled one) are [`super::campaign`]'s;
//! the stage times cover generation, oracle, the ptxas builds ahead, print, each GPU backend,
//! compare, triage and the minimization threads.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use generator::async_programs::{generate_seeded, seeded_switches, AsyncConfig};
use oracle::isa::Target;
use oracle::memory::Region;
use oracle::memprog::{MemProgram, MemSource};
use oracle::semantics::Allowances;

use serde::{Deserialize, Serialize};

use super::ahead::Ahead;
use super::campaign::{BatchContext, CampaignKind, Ended, Plan, Ran};
use super::case::{CaseKind, Memory};
use super::engine::{add_stage, measure, StageTime};
use super::minimize::Minimizer;
use super::triage::{Triage, TriageCounts};
use super::State;
use crate::backend::{Backend, Registry, Settings};
use crate::findings::{FindingStore, RunMeta};
pub use crate::fuzz::memory_case::{
    gpu_backends, replay, worker_stages, MemCase, MemReducer, MemResult, Raw, Symptom, JOB_TIMEOUT,
};
use crate::memrun::{assemble, oracle_read, run_assembled, run_on, AssembledBatch, GpuResult};

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
    /// Minimization threads (each with GPU backends of its own; at least 1).
    pub minimize_threads: usize,
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

/// Runs an async campaign on the oracle and the GPU backends of `o` (and, to minimize, GPU
/// backends of their own for each minimization thread: one worker per device).
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
        (0..o.minimize_threads.max(1)).map(|_| Ok(one.build_all(&names)?.backends)).collect::<anyhow::Result<_>>()?
    } else {
        Vec::new()
    };
    run_with(o, sel.backends, reducers, why)
}

/// A batch prepared ahead: its index, each program generated and run on the oracle (and the
/// wall time that took), and the programs the oracle ran assembled by each ptxas build of the
/// GPU backends (by [`crate::backend::Build::label`], with the time each took).
pub struct Batch {
    b: u64,
    prepared: Vec<Prepared>,
    made: StageTime,
    assembled: BTreeMap<String, (Result<AssembledBatch, String>, StageTime)>,
}

/// Runs an async campaign on the oracle and `gpus` (`gpu_unavailable`: why there are none);
/// `reducers` are the minimization threads' own instances of the same backends, one set per
/// thread.
///
/// The loop is [`super::campaign::run`]: batches are prepared ahead (generation and the oracle,
/// on all cores, and the ptxas builds) while the previous batch runs on the GPU backends, each
/// backend on a thread of its own; raw findings go through triage and the minimization threads
/// ([`Minimizer`] of [`MemCase`]s); the campaign state (`campaign.json`, [`State`] with
/// [`MemoryState`]) is written after each batch whose findings are settled, so a campaign
/// killed at any point resumes (`--resume`) with the findings of the uninterrupted one, and
/// `--shard i/N` runs every N-th batch. With `adapt` (and a swarm configuration) the swarm
/// weights of the generator's switches adapt as for register programs ([`super::adapt`]).
pub fn run_with(
    o: &AsyncOptions,
    gpus: Vec<Box<dyn Backend>>,
    reducers: Vec<Vec<Box<dyn Backend>>>,
    gpu_unavailable: Option<String>,
) -> anyhow::Result<AsyncSummary> {
    let mut s = AsyncSummary { gpu_unavailable, ..AsyncSummary::default() };
    s.backends =
        std::iter::once(crate::backend::oracle::NAME.to_string()).chain(gpus.iter().map(|b| b.name())).collect();
    let plan = Plan {
        run_dir: o.run_dir.clone(),
        known_dir: o.known_dir.clone(),
        time: o.time,
        max_programs: o.max_programs,
        resume: o.resume,
        adapt: o.adapt,
        progress: o.progress,
    };
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
    super::campaign::run(&plan, fresh, |state, _| {
        let totals = state.memory.clone().unwrap_or_default();
        // A resumed campaign generates with its stored configuration.
        let o = AsyncOptions { config: totals.config.clone(), ..o.clone() };
        Ok(MemoryCampaign { o, gpus, reducers, s, totals })
    })
}

/// A campaign of memory programs as the campaign loop runs it.
pub struct MemoryCampaign {
    /// The options, with the campaign's generator configuration.
    o: AsyncOptions,
    gpus: Vec<Box<dyn Backend>>,
    /// The minimization threads' backends, one set per thread (taken when they start).
    reducers: Vec<Vec<Box<dyn Backend>>>,
    /// This session's counters.
    s: AsyncSummary,
    /// The campaign's counters before this session.
    totals: MemoryState,
}

impl CampaignKind for MemoryCampaign {
    type Batch = Batch;
    type Case = MemCase;
    type Summary = AsyncSummary;
    const LIVE_STATUS: bool = false;
    const MINIMIZATION_STAGE: &'static str = "minimization (its own thread and backends)";

    fn swarm_config(&self) -> bool {
        self.o.config.swarm
    }

    fn environment(&self) -> Vec<(String, String)> {
        let mut env = vec![("mode".to_string(), "async".to_string())];
        env.extend(crate::backend::environment(&self.gpus));
        if let Some(why) = &self.s.gpu_unavailable {
            env.push(("gpu".into(), format!("unavailable: {why}")));
        }
        env.push(("backends".into(), self.s.backends.join(",")));
        env
    }

    fn run_meta(&self, env: &[(String, String)]) -> RunMeta {
        let o = &self.o;
        RunMeta {
            run_id: String::new(),
            kind: "fuzz".into(),
            ended_unix_s: 0,
            started_unix_s: super::now_unix_s(),
            command: o.command.clone(),
            target: o.target.to_string(),
            environment: env.to_vec(),
            extra: super::campaign_extra(o.seed, o.shard, &[("mode", "async")]),
        }
    }

    fn allow(&self) -> Allowances {
        self.o.settings.allow.clone()
    }

    /// With backends of its own (never holding up the next batch); none without GPU backends.
    fn minimizer(&mut self, deadline: Instant, env: &[(String, String)]) -> anyhow::Result<Option<Minimizer<MemCase>>> {
        let o = &self.o;
        if !o.minimize || self.gpus.is_empty() {
            return Ok(None);
        }
        let reducers: Vec<MemReducer> = std::mem::take(&mut self.reducers)
            .into_iter()
            .map(|gpus| MemReducer { gpus, allow: o.settings.allow.clone(), deadline })
            .collect();
        let budget = generator::minimize::Budget {
            seconds: Some(o.minimize_seconds),
            ..generator::minimize::Budget::calls(o.minimize_calls)
        };
        let allow = o.settings.allow.clone();
        Ok(Some(Minimizer::start(reducers, budget, super::MINIMIZE_QUEUE, allow, env.to_vec(), deadline)))
    }

    /// Generation and the oracle of the next batches (each on all cores), and the assemblies
    /// of every ptxas build of the GPU backends, while the GPU backends run this one: two
    /// preparing threads and one batch waiting, within half the swarm's lag.
    fn prepare_ahead(&mut self, first: u64, swarm: Arc<super::adapt::Shared>, adapting: bool) -> Ahead<Batch> {
        let producer_opts = self.o.clone();
        // The ptxas builds of the GPU backends, each once: their assemblies are made ahead too.
        let mut builds: Vec<crate::backend::Build> = Vec::new();
        for b in self.gpus.iter().flat_map(|g| g.builds()) {
            if !builds.iter().any(|x| x.label() == b.label()) {
                builds.push(b);
            }
        }
        Ahead::start(first, 2, 1, move |b, stop| {
            let o = &producer_opts;
            let n = super::session_batch_size(o.batch, o.max_programs, first, b);
            if n == 0 {
                return None;
            }
            let cfg = if adapting { swarm.config_for(&o.config, b, stop)? } else { o.config.clone() };
            use rayon::prelude::*;
            let t = Instant::now();
            let prepared: Vec<Prepared> =
                (0..n as u64).into_par_iter().map(|k| prepare(o, &cfg, b, k, adapting)).collect();
            let made = StageTime { wall_s: t.elapsed().as_secs_f64(), cpu_s: 0.0 };
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            let programs: Vec<&MemProgram> =
                prepared.iter().filter_map(|p| p.result.as_ref().ok().map(|r| &r.0)).collect();
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
            Some(Batch { b, prepared, made, assembled })
        })
    }

    fn run_batch(
        &mut self,
        batch: Batch,
        waited: StageTime,
        cx: &mut BatchContext<'_, MemCase>,
    ) -> anyhow::Result<Ran> {
        let Batch { b, prepared, made, assembled } = batch;
        let (o, s, gpus) = (&self.o, &mut self.s, &mut self.gpus);
        for (label, (_, t)) in &assembled {
            add_stage(cx.stages, &format!("{label} (ahead, wall of a preparing thread)"), *t);
        }
        add_stage(cx.stages, "waiting for preparation", waited);
        let n = prepared.len() as u64;
        let (gen_cpu, ora_cpu): (f64, f64) = prepared
            .iter()
            .map(|p| (p.generation.cpu_s, p.oracle.cpu_s))
            .fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
        let share = gen_cpu / (gen_cpu + ora_cpu).max(1e-12);
        add_stage(cx.stages, "generation", StageTime { wall_s: made.wall_s * share, cpu_s: gen_cpu });
        add_stage(cx.stages, "oracle", StageTime { wall_s: made.wall_s * (1.0 - share), cpu_s: ora_cpu });
        let switches: Vec<Vec<&'static str>> = prepared.iter().map(|p| p.switches.clone()).collect();
        // Each runnable program with its index in the batch.
        let mut runnable: Vec<(usize, MemSource, MemProgram, Vec<Region>)> = Vec::new();
        for (k, prep) in prepared.into_iter().enumerate() {
            match prep.result {
                Ok((p, r)) => runnable.push((k, prep.source, p, r)),
                Err(e) => {
                    s.undefined += 1;
                    cx.state.invalid = cx.state.invalid.saturating_add(1);
                    if s.undefined_examples.len() < SHOW_UNDEFINED {
                        eprintln!(
                            "warning: the oracle refused a generated async program ({e}); this is a generator bug"
                        );
                        s.undefined_examples.push(e);
                    }
                }
            }
        }
        let triaged = !gpus.is_empty() && !runnable.is_empty();
        if triaged {
            let programs: Vec<&MemProgram> = runnable.iter().map(|(_, _, p, _)| p).collect();
            let (printed, t) = measure(|| crate::memrun::print_all(&programs));
            add_stage(cx.stages, "print", t);
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
                add_stage(cx.stages, &format!("GPU: run on {name}"), t);
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
            add_stage(cx.stages, "compare", StageTime { wall_s: wall.wall_s, cpu_s });
            let cases = cx.cases();
            // One raw finding per program and symptom, with every backend that shows it.
            for ((at, ..), (raws, _)) in ran.iter().zip(compared) {
                for raw in raws {
                    *s.symptoms.entry(raw.symptom.how.clone()).or_default() += 1;
                    let case = MemCase { batch: b, raw, seen_at: cx.seen_at(), cases: cases.clone() };
                    cx.triage(*at, case)?;
                }
            }
        }
        s.programs += n;
        cx.state.programs = cx.state.programs.saturating_add(n);
        Ok(Ran { b, switches, triaged })
    }

    fn checkpoint(&mut self, snapshot: &mut State) {
        snapshot.memory = Some(session_totals(&self.totals, &self.s));
    }

    fn status_line(&self, _: &State, start: Instant, _: u64, tri: &Triage) -> String {
        let s = &self.s;
        format!(
            "{:>6.0} s  {} async programs ({:.0}/s)  undefined {}  findings: {} new, {} dup, {} known",
            start.elapsed().as_secs_f64(),
            s.programs,
            s.programs as f64 / start.elapsed().as_secs_f64().max(1e-9),
            s.undefined,
            tri.new,
            tri.duplicates,
            tri.known
        )
    }

    fn session_stages(&mut self, stages: &mut BTreeMap<String, StageTime>) {
        for g in &self.gpus {
            if let Some(m) = g.mem_stages() {
                for (name, t) in worker_stages(&g.name(), &m) {
                    add_stage(stages, &name, t);
                }
            }
        }
    }

    fn close(&mut self, state: &mut State, _: &FindingStore, _: &[(String, String)], _: bool) {
        self.totals = session_totals(&self.totals, &self.s);
        state.memory = Some(self.totals.clone());
    }

    fn meta_extra(&self, state: &State) -> Vec<(String, String)> {
        vec![("undefined".into(), state.invalid.to_string())]
    }

    fn summary(self, ended: Ended<'_>) -> AsyncSummary {
        let Ended { state, tri, stages, seconds, .. } = ended;
        let mut s = self.s;
        s.seconds = seconds;
        (s.new, s.duplicates, s.known) = (tri.new, tri.duplicates, tri.known);
        s.minimized = (tri.counts.minimized, tri.counts.minimization_calls);
        s.triage = tri.counts.clone();
        s.campaign_programs = state.programs;
        s.swarm = state.swarm.filter(|sw| !sw.stats.is_empty());
        s.stages = stages;
        s
    }
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

#[cfg(test)]
mod tests;
