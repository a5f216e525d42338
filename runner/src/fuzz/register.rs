//! The register programs' campaign (`ptxdiff fuzz`): what the one campaign loop
//! ([`super::campaign`]) asks of this kind ([`CampaignKind`] for [`RegisterCampaign`]).
//!
//! Its backends are an [`Engine`]'s (each minimization thread has one of its own, one worker
//! per device). Batches ([`Mixed`]: fresh programs and mutants of the coverage corpus) are
//! prepared ahead by [`read_ahead`] threads: generation, the program
//! oracle, the offline assemblies and the SASS check of the -O3 modules
//! ([`engine::Preparer`]). Running a batch executes it on the worker backends, reads each
//! program's raw findings ([`Register`]'s [`CaseKind::raw_findings`]) for triage, and counts
//! the batch's families, SASS check and coverage, whose new kernels go to the corpus
//! ([`corpus`]). The summary adds the SASS check, the coverage and the campaign metrics
//! ([`metrics`]).
//!
//! Invariants: those of [`super`] (the n-grams and corpus lines of a batch are appended before
//! the state that counts them; the mutants of batch `b` come from the corpus as it was after
//! batch `b − adapt::LAG`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use generator::minimize::Budget;
use oracle::program::{Program, Stmt};
use oracle::semantics::Allowances;

use super::ahead::Ahead;
use super::campaign::{BatchContext, CampaignKind, Ended, Plan, Ran};
use super::case::{CaseKind, Register};
use super::engine::{self, Engine, StageTime};
use super::triage::Triage;
use super::{
    adapt, batch_size, campaign_extra, corpus, generate_mixed, metrics, minimize, now_unix_s, read_ahead, Mixed,
    Options, SassCounts, State, Summary, MINIMIZE_QUEUE, SCRATCH,
};
use crate::backend::{Registry, Settings};
use crate::findings::{FindingStore, KnownSet, RunMeta};
use crate::sass::coverage::Coverage;

/// Runs a campaign of register programs.
pub fn run(o: &Options) -> anyhow::Result<Summary> {
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
        // Filled in once the engine knows which of them run.
        backends: Vec::new(),
        next_batch: 0,
        programs: 0,
        seconds: 0.0,
        families: BTreeMap::new(),
        invalid: 0,
        config: o.config.clone(),
        shard: o.shard,
        triage: super::triage::TriageCounts::default(),
        stages: BTreeMap::new(),
        swarm: None,
        kinds: BTreeMap::new(),
        checkpoint: None,
        memory: None,
        sass: SassCounts::default(),
        coverage: Coverage::default(),
        mutate_share: o.mutate_share,
        corpus: corpus::CorpusCounts::default(),
        metrics: None,
    };
    super::campaign::run(&plan, fresh, |state, known| RegisterCampaign::open(o, state, known))
}

/// A batch the backends have run ([`RegisterCampaign::prepare_ahead`]): its programs
/// ([`Mixed`]), each program's results, and what its preparation measured and checked.
pub struct Batch {
    b: u64,
    mixed: Mixed,
    results: Vec<engine::ProgramResult>,
    /// The preparation's stages, and the time the backends' thread waited for it.
    stages: BTreeMap<String, StageTime>,
    /// The SASS check per module ([`engine::Prepared::sass`]).
    sass: Vec<(String, Result<usize, String>)>,
    /// The checked kernels' n-grams ([`engine::Prepared::coverage`]).
    coverage: Vec<(usize, std::collections::BTreeSet<String>)>,
    /// Why ptxas could not run at all (the batch did not run; [`engine::Prepared::environment`]).
    environment: Option<String>,
}

/// A campaign of register programs as the campaign loop runs it.
pub struct RegisterCampaign<'o> {
    o: &'o Options,
    registry: Registry,
    names: Vec<String>,
    /// Used by the thread that runs the batches on the backends while the loop lasts
    /// ([`RegisterCampaign::prepare_ahead`]), and by the main thread before and after.
    engine: Arc<Mutex<Engine>>,
    /// The engine's allowances (the main thread's copy).
    allow: Allowances,
    /// The engine's emulating oracle, which the main thread runs on each batch the backends
    /// ran ([`Engine::run_prepared`] leaves it out).
    emulator: engine::Emulator,
    scratch: PathBuf,
    corpus: Arc<corpus::Shared>,
    /// Why the SASS check is off though a backend assembles at -O3.
    sass_unavailable: Option<String>,
    /// What the SASS check did this session.
    sass: SassCounts,
    /// SASS n-grams first seen this session.
    coverage_new: u64,
    children_cpu0: f64,
    ptxas_cpu: f64,
}

impl<'o> RegisterCampaign<'o> {
    /// The campaign of `o` on `state` (fresh or resumed: its n-grams and corpus loaded), its
    /// engine started with the emulations of `known`.
    fn open(o: &'o Options, state: &mut State, known: &KnownSet) -> anyhow::Result<RegisterCampaign<'o>> {
        if o.resume {
            state.coverage.load_ngrams(&o.run_dir, state.next_batch).map_err(anyhow::Error::msg)?;
            if state.mutate_share != o.mutate_share {
                bail!(
                    "{}: the campaign runs with --mutate-share {}; resume with that (or without --mutate-share)",
                    o.run_dir.join(super::STATE).display(),
                    state.mutate_share
                );
            }
        }
        let loaded = if o.resume {
            corpus::Corpus::load(&o.run_dir, state.next_batch, &state.corpus).map_err(anyhow::Error::msg)?
        } else {
            corpus::Corpus::default()
        };
        let corpus = Arc::new(corpus::Shared::new(loaded));
        let registry = Registry::new(Settings {
            ptxas: o.ptxas.clone(),
            devices: o.devices.clone(),
            workers: o.workers,
            allow: o.allow.clone(),
            sweep_timeout: Duration::from_secs(120),
        });
        let names = if o.backends.is_empty() { registry.fuzz_defaults() } else { o.backends.clone() };
        let scratch = o.run_dir.join(SCRATCH);
        std::fs::create_dir_all(&scratch)?;
        let mut engine = Engine::new(&registry, &names, o.target, o.plant, scratch.clone())?;
        engine::require_available(!o.backends.is_empty(), &engine)?;
        // The root causes corpus/known/ states as semantics: emulated on every differing program,
        // each for the backends its entries admit.
        engine.emulate = known.emulation_scopes();
        for b in engine.backend_names() {
            if !state.backends.contains(&b) {
                state.backends.push(b);
            }
        }
        let sass_unavailable = start_sass_check(&mut engine, o.progress);
        Ok(RegisterCampaign {
            o,
            registry,
            names,
            allow: engine.allow.clone(),
            emulator: engine.emulator(),
            engine: Arc::new(Mutex::new(engine)),
            scratch,
            corpus,
            sass_unavailable,
            sass: SassCounts::default(),
            coverage_new: 0,
            children_cpu0: engine::children_cpu_s(),
            ptxas_cpu: 0.0,
        })
    }
}

impl RegisterCampaign<'_> {
    /// The engine (the backends' thread holds it only while it runs a batch).
    fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl CampaignKind for RegisterCampaign<'_> {
    type Batch = Batch;
    type Case = minimize::Job;
    type Summary = Summary;
    const LIVE_STATUS: bool = true;
    const MINIMIZATION_STAGE: &'static str = "minimization";

    fn swarm_config(&self) -> bool {
        self.o.config.swarm
    }

    fn crash_check(&self) -> Option<super::known_crash::CrashCheck> {
        self.engine().crash_check()
    }

    fn environment(&self) -> Vec<(String, String)> {
        let engine = &*self.engine();
        let mut env = vec![("target".to_string(), self.o.target.to_string())];
        env.extend(engine.environment());
        if let Some(c) = &engine.sass {
            env.push(("nvdisasm".into(), c.nvdisasm.version.clone()));
        }
        if let Some(why) = &engine.gpu_unavailable {
            env.push(("gpu".into(), format!("unavailable: {why}")));
        }
        env.push(("backends".into(), engine.backend_names().join(",")));
        env
    }

    fn run_meta(&self, env: &[(String, String)]) -> RunMeta {
        let o = self.o;
        // The target has its own field; the findings' environment keeps it.
        let findings_env: Vec<(String, String)> = env.iter().filter(|(k, _)| k != "target").cloned().collect();
        RunMeta {
            run_id: String::new(),
            kind: "fuzz".into(),
            ended_unix_s: 0,
            started_unix_s: now_unix_s(),
            command: o.command.clone(),
            target: o.target.to_string(),
            environment: findings_env,
            extra: campaign_extra(o.seed, o.shard, &[]),
        }
    }

    fn allow(&self) -> Allowances {
        self.allow.clone()
    }

    /// `--minimize-threads` threads, each with an engine of its own (one worker per device is
    /// plenty for single cases).
    fn minimizer(
        &mut self,
        deadline: Instant,
        env: &[(String, String)],
    ) -> anyhow::Result<Option<minimize::Minimizer<minimize::Job>>> {
        let o = self.o;
        if !o.minimize {
            return Ok(None);
        }
        let reg = Registry::new(Settings { workers: Some(1), ..self.registry.context().settings.clone() });
        let mut reducers = Vec::new();
        for i in 0..o.minimize_threads.max(1) {
            // A scratch folder each: the threads' cubins are named alike (`min-O3-0.cubin`).
            let scratch = self.scratch.join(format!("minimizer-{i}"));
            std::fs::create_dir_all(&scratch)?;
            let mut e = Engine::new(&reg, &self.names, o.target, o.plant, scratch)?;
            let main = self.engine();
            e.sass = main.sass.clone();
            e.emulate = main.emulate.clone();
            reducers.push(minimize::Reducer::new(e));
        }
        let budget = Budget { seconds: Some(o.minimize_seconds), ..Budget::calls(o.minimize_calls) };
        let allow = self.allow.clone();
        Ok(Some(minimize::Minimizer::start(reducers, budget, MINIMIZE_QUEUE, allow, env.to_vec(), deadline)))
    }

    /// Generation, the oracle and ptxas by several threads at once, since each ptxas process is
    /// single-threaded, then the worker backends on one more thread ([`Ahead::then`]), so that
    /// the backends run batch `k + 1` while the main thread triages batch `k` (before, the
    /// workers idled while it did: seed 5803's main thread spent 143 of 400 s outside the
    /// backends' runs); read-ahead stays below the adaptive swarm's lag (see [`adapt`]).
    fn prepare_ahead(&mut self, first: u64, swarm: Arc<adapt::Shared>, adapting: bool) -> Ahead<Batch> {
        let (threads, queue) = read_ahead(self.o.jobs);
        let producer_opts = self.o.clone();
        let preparer = self.engine().preparer();
        let engine = self.engine.clone();
        let corpus = self.corpus.clone();
        Ahead::start(first, threads, queue, move |k, stop| {
            let n = batch_size(&producer_opts, first, k);
            if n == 0 {
                return None;
            }
            let cfg =
                if adapting { swarm.config_for(&producer_opts.config, k, stop)? } else { producer_opts.config.clone() };
            let parents = if producer_opts.mutate_share > 0.0 { corpus.view_for(k, stop)? } else { Vec::new() };
            let mixed = generate_mixed(&producer_opts, &cfg, k, n, &parents);
            let mut prepared = preparer.prepare(&mixed.programs, &mixed.inputs, &format!("b{k}"), stop)?;
            engine::add_stage(&mut prepared.stages, "generation", mixed.generation);
            if !mixed.edits.is_empty() || mixed.dropped > 0 {
                engine::add_stage(&mut prepared.stages, "mutation", mixed.mutation);
            }
            Some((k, mixed, prepared))
        })
        .then(move |(b, mixed, mut prepared): (u64, Mixed, engine::Prepared), waited| {
            let mut stages = std::mem::take(&mut prepared.stages);
            let waited = StageTime { wall_s: waited.as_secs_f64(), cpu_s: 0.0 };
            engine::add_stage(&mut stages, "waiting for preparation", waited);
            let sass = std::mem::take(&mut prepared.sass);
            let coverage = std::mem::take(&mut prepared.coverage);
            let environment = prepared.environment.clone();
            let results = match environment {
                Some(_) => Vec::new(),
                None => {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    engine.run_prepared(&mixed.programs, &mixed.inputs, prepared)
                }
            };
            Batch { b, mixed, results, stages, sass, coverage, environment }
        })
    }

    fn run_batch(
        &mut self,
        batch: Batch,
        waited: StageTime,
        cx: &mut BatchContext<'_, minimize::Job>,
    ) -> anyhow::Result<Ran> {
        let Batch { b, mixed, mut results, stages, sass, coverage: covered, environment } = batch;
        let Mixed { programs, inputs, sources, switches, edits, dropped, .. } = mixed;
        if let Some(why) = &environment {
            bail!(
                "batch {b}: {why}\n  this is a problem of this machine (TMPDIR, disk, the ptxas binary), not a finding; \
                 fix it and go on with --resume"
            );
        }
        engine::add_stage(cx.stages, "waiting for the backends", waited);
        for (name, t) in &stages {
            engine::add_stage(cx.stages, name, *t);
        }
        count_sass(&sass, b, &mut self.sass, self.o.progress);
        let t = self.emulator.emulate_differing(&programs, &inputs, &mut results);
        engine::add_stage(cx.stages, engine::EMULATION_STAGE, t);
        let mut compare = StageTime::default();
        for (k, r) in results.iter().enumerate() {
            if let Err(e) = &r.expected {
                cx.state.invalid = cx.state.invalid.saturating_add(1);
                if cx.state.invalid <= 3 {
                    eprintln!(
                        "warning: the oracle refused generated program {} ({e}); this is a generator bug",
                        programs[k].name
                    );
                }
                continue;
            }
            let (raws, t) = engine::measure(|| Register::raw_findings(&programs[k], r, &self.allow));
            compare.add(t);
            for raw in raws {
                if raw.class == crate::findings::FindingClass::UnwrittenRegister {
                    self.sass.flagged = self.sass.flagged.saturating_add(1);
                }
                let job = minimize::Job {
                    batch: b,
                    raw,
                    program: programs[k].clone(),
                    inputs: inputs[k].clone(),
                    result: r.clone(),
                    seen_at: cx.seen_at(),
                    source: Some(sources[k].clone()),
                };
                cx.triage(k, job)?;
            }
        }
        engine::add_stage(cx.stages, "compare", compare);
        let state = &mut *cx.state;
        family_counts(&programs, &mut state.families);
        state.programs = state.programs.saturating_add(programs.len() as u64);
        let coverage_new = &mut self.coverage_new;
        let (lines, t) = engine::measure(|| {
            let mut offers = Vec::new();
            for (i, grams) in &covered {
                let added = state.coverage.add_kernel_by_length(grams);
                *coverage_new = coverage_new.saturating_add(added.iter().sum::<usize>() as u64);
                offers.push(corpus::Offer { program: &programs[*i], inputs: &inputs[*i], source: &sources[*i], added });
            }
            if !covered.is_empty() {
                state.coverage.point(state.programs);
            }
            self.corpus.update(|c| {
                let lines = c.finish_batch(b, &offers, dropped, &edits);
                state.corpus = c.counts.clone();
                lines
            })
        });
        let run_dir = &self.o.run_dir;
        corpus::Corpus::append(run_dir, &lines)
            .with_context(|| format!("appending to {}", run_dir.join(corpus::FILE).display()))?;
        let (written, t2) = engine::measure(|| Coverage::append(run_dir, b, &state.coverage.take_fresh()));
        written
            .with_context(|| format!("appending to {}", run_dir.join(crate::sass::coverage::NGRAMS_FILE).display()))?;
        engine::add_stage(cx.stages, "coverage", t);
        engine::add_stage(cx.stages, "coverage", t2);
        Ok(Ran { b, switches, triaged: true })
    }

    fn checkpoint(&mut self, snapshot: &mut State) {
        snapshot.sass.add(&self.sass);
    }

    fn checkpointed(&mut self, snapshot: &State) -> anyhow::Result<()> {
        self.corpus.update(|c| c.compact(&self.o.run_dir, snapshot.next_batch)).map_err(anyhow::Error::msg)
    }

    fn status_line(&self, state: &State, start: Instant, s0: u64, tri: &Triage) -> String {
        status_line(state, start, s0, tri.new, tri.duplicates, tri.known)
    }

    /// The child processes waited for so far are the ptxas runs (the worker processes are
    /// waited for when their engines are dropped, after this).
    fn preparation_done(&mut self) {
        self.ptxas_cpu = engine::children_cpu_s() - self.children_cpu0;
    }

    fn minimizer_done(&mut self, reducer: minimize::Reducer, stages: &mut BTreeMap<String, StageTime>) {
        for (name, t) in reducer.engine.stages {
            engine::add_stage(stages, &format!("minimization: {name}"), t);
        }
    }

    fn session_stages(&mut self, stages: &mut BTreeMap<String, StageTime>) {
        for (name, t) in &self.engine().stages {
            engine::add_stage(stages, name, *t);
        }
        engine::add_stage(
            stages,
            "ptxas processes (CPU of all builds)",
            StageTime { wall_s: 0.0, cpu_s: self.ptxas_cpu },
        );
    }

    /// The session's SASS counts and the campaign metrics (printed with `progress`).
    fn close(&mut self, state: &mut State, store: &FindingStore, env: &[(String, String)], progress: bool) {
        state.sass.add(&self.sass);
        let engine = self.engine();
        let gpus = metrics::gpus(&engine.backend_names(), env, engine.gpu_unavailable.is_some());
        let m = metrics::Metrics::of(state, store.doc(), gpus);
        state.metrics = Some(m.clone());
        if progress {
            eprint!("{}", m.report(state));
        }
    }

    fn summary(self, ended: Ended<'_>) -> Summary {
        let _ = std::fs::remove_dir_all(&self.scratch);
        let (gpu_unavailable, backends) = {
            let engine = self.engine();
            (engine.gpu_unavailable.clone(), engine.backend_names())
        };
        let Ended { state, store, tri, stages, seconds, programs } = ended;
        let unwritten_stored = store
            .doc()
            .by_class()
            .iter()
            .find(|(c, ..)| *c == crate::findings::FindingClass::UnwrittenRegister)
            .map_or(0, |&(_, n, _)| n);
        Summary {
            programs,
            stored: store.doc().findings.len(),
            sass: self.sass,
            sass_unavailable: self.sass_unavailable,
            unwritten_stored,
            coverage_new: self.coverage_new,
            // Set by `close`.
            metrics: state.metrics.clone().unwrap_or_default(),
            state,
            new: tri.new,
            duplicates: tri.duplicates,
            known: tri.known,
            triage: tri.counts.clone(),
            stages,
            gpu_unavailable,
            backends,
            seconds,
        }
    }
}

fn family_counts(ps: &[Program], into: &mut BTreeMap<String, u64>) {
    for p in ps {
        for s in &p.body {
            let name = match s {
                Stmt::Isa(i) => i.form.family().name().to_string(),
                Stmt::Glue { .. } => "glue".to_string(),
                Stmt::Bra { .. } => "bra".to_string(),
                Stmt::Bar => "bar.sync".to_string(),
                Stmt::Label(_) => continue,
            };
            let n = into.entry(name).or_default();
            *n = n.saturating_add(1);
        }
    }
}

fn status_line(state: &State, start: Instant, s0: u64, new: u64, dup: u64, known: u64) -> String {
    let el = start.elapsed().as_secs_f64();
    let rate = (state.programs - s0) as f64 / el.max(1e-9);
    let mut fams: Vec<(&String, &u64)> = state.families.iter().filter(|(k, _)| *k != "glue").collect();
    fams.sort_by(|a, b| b.1.cmp(a.1));
    let top: Vec<String> = fams.iter().take(6).map(|(k, v)| format!("{k} {v}")).collect();
    format!(
        "{:>6.0} s  {} programs ({rate:.0}/s)  findings: {new} new, {dup} dup, {known} known  | {}",
        el,
        state.programs,
        top.join(", ")
    )
}

/// Gives `engine` the SASS check when some backend assembles at -O3 and nvdisasm is found;
/// otherwise says why not (once, on stderr with `progress`) and gives the reason. No -O3
/// assembly: no check, no reason.
fn start_sass_check(engine: &mut Engine, progress: bool) -> Option<String> {
    if !engine.has_sass_level() {
        return None;
    }
    match crate::sass::Checker::find() {
        Ok(c) => {
            engine.sass = Some(c);
            None
        }
        Err(e) => {
            if progress {
                eprintln!("SASS check off (no reads of never-written registers are looked for): {e}");
            }
            Some(e.to_string())
        }
    }
}

/// Most warnings about modules the SASS check could not read that a session prints.
const SASS_WARNINGS: u64 = 3;

/// Counts what the SASS check of batch `b` did ([`engine::Prepared::sass`]), warning on
/// stderr (with `progress`, at most [`SASS_WARNINGS`] times) when it could not read a module.
fn count_sass(checked: &[(String, Result<usize, String>)], b: u64, into: &mut SassCounts, progress: bool) {
    for (by, r) in checked {
        into.modules = into.modules.saturating_add(1);
        match r {
            Ok(n) => into.kernels = into.kernels.saturating_add(*n as u64),
            Err(e) => {
                into.failed = into.failed.saturating_add(1);
                if progress && into.failed <= SASS_WARNINGS {
                    eprintln!("warning: the SASS check of batch {b} ({by}) failed, the batch goes on unchecked: {e}");
                }
            }
        }
    }
}
