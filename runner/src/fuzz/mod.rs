//! `ptxdiff fuzz`: differential campaigns over generated programs.
//!
//! Batches of programs are generated from `(seed, batch index)` (so a campaign is resumable
//! and every program reproducible), prepared on all cores (generation, the program oracle,
//! the offline assemblies the backends need) while the previous batch runs on the backends
//! that run programs (from [`crate::backend::Registry`]), then compared word by word. A finding is a disagreement with the oracle, a crash (ptxas, GPU fault, hang)
//! or a rejection of a program the model calls valid. Each raw finding is first triaged
//! cheaply: packaged as it is, and counted as known when its signature (its shape above all)
//! matches `corpus/known/`, or counted under the first finding of its kind when that kind
//! (class, backends, how) was seen [`MINIMIZE_PER_KIND`] times in the campaign; neither is
//! minimized. The rest go to the minimization thread ([`minimize::Minimizer`], its own
//! engine, a bounded queue of [`MINIMIZE_QUEUE`]; a full queue stores the finding unminimized):
//! it reduces the case while it still shows the same class, disagreeing backends and kind of
//! difference ([`minimize::still_shows`]) and triage packages it (signature with shape, case
//! file, finding); the campaign records what it hands back after each batch. The campaign
//! ends when its time is up, also within a batch: a batch still being prepared then is abandoned
//! (its oracle runs and ptxas processes stopped), is not counted, and is the first a resumed
//! campaign runs; queued minimizations whose turn comes after that are stored
//! unminimized (and counted so). At the end the campaign prints the time of every stage (wall
//! and CPU seconds), also kept in `campaign.json`.
//!
//! When a backend assembles at -O3 (`cuda:ptxas-O3`, `ptxas-check`), the preparing threads
//! also disassemble each batch's -O3 module once and check its SASS for reads of registers
//! nothing wrote ([`crate::sass`], [`engine::SASS_LEVEL`]); each flagged kernel is a raw
//! finding of class `unwritten-register` ([`case::Register`]'s [`case::CaseKind::raw_findings`]), triaged like the others
//! (known entries, minimization with the check on). Without nvdisasm the campaign says so once
//! and runs without the check; what the check did is counted in `campaign.json`
//! ([`SassCounts`]) and printed. The same listing gives each kernel's SASS opcode n-grams, the
//! campaign's coverage ([`crate::sass::coverage`]): counters and curve in `campaign.json`
//! ([`State::coverage`]), the n-grams themselves appended per batch to
//! [`crate::sass::coverage::NGRAMS_FILE`] before the state that counts them is written (a
//! resumed campaign keeps the lines of the batches before its `next_batch`). Kernels that added
//! a new opcode (or many new pairs or triples) put their programs in the campaign's coverage
//! [`corpus`] (`corpus.jsonl`, kept like the n-grams), and a share of every batch
//! ([`Options::mutate_share`]) is made by mutating corpus programs ([`generate_mixed`]). Every
//! finding records its program's source ([`crate::findings::Source`]); at the end the campaign
//! prints and stores its [`metrics`].
//!
//! Invariants:
//! - The campaign state (`campaign.json`) is written when the campaign starts and after each
//!   batch whose findings are settled (none still being minimized): it then counts exactly the
//!   batches before its `next_batch` — programs, families, what triage saw of each kind
//!   ([`triage::KindState`]) and the finding store's counts ([`State::checkpoint`]). A resumed
//!   campaign takes back what later batches had recorded ([`crate::findings::FindingStore::rollback`]) and runs
//!   them again, so it ends with the programs and findings of the uninterrupted campaign. It is
//!   checked on load ([`State::parse`]: every counter in range, the field named otherwise).
//!   Every finding is on disk (atomically) before the state that counts it.
//! - A campaign starts only in a missing or empty directory and resumes only where a campaign
//!   is, and holds the directory's lock while it runs ([`lock_run_dir`]); no folder of a run directory may be a symbolic link; ptxdiff deletes only what it
//!   created (its `scratch/` folder, its own temporary files).
//! - Counters saturate, never wrap; a panic while preparing batches is an error, never a
//!   normal summary.
//! - The live status line uses `\r` only on a terminal; elsewhere it is a plain line every
//!   [`PLAIN_STATUS_EVERY`].
//! - With `--shard i/N` the session's batch `b` is the campaign-wide batch `b·N + i − 1`
//!   ([`crate::runs::shard::Shard::global`]): the shards of one seed run disjoint fresh
//!   programs that together are the unsharded campaign's; without a shard, batch `b` is batch
//!   `b`. Each shard keeps its own corpus, so its mutants are its own (with `--mutate-share 0`
//!   the shards together are exactly the unsharded campaign). The shard is part of the
//!   campaign state and must be the same when resuming.
//! - With the adaptive swarm on (`--adapt`, for swarm configurations), batch `b`
//!   is generated with the swarm weights after batch `b − adapt::LAG`, and the read-ahead stays
//!   below that lag ([`adapt`]); the weights and per-switch statistics are part of the campaign
//!   state.
//! - The mutants of batch `b` come from the corpus as it was after batch `b − adapt::LAG`
//!   ([`corpus::Shared::view_for`]), so they too depend only on the seed; the share is part of
//!   the campaign state and a resume keeps it.

pub mod adapt;
pub mod ahead;
pub mod assemble;
pub mod async_campaign;
pub mod batch;
pub mod case;
pub mod corpus;
pub mod engine;
pub mod metrics;
pub mod minimize;
pub mod package;
pub mod retriage;
pub mod run_dir;
pub mod triage;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use generator::minimize::Budget;
use generator::program::Config;
use oracle::isa::Target;
use oracle::program::interp::Plant;
use oracle::program::{Program, Stmt};
use oracle::semantics::Allowances;
use serde::{Deserialize, Serialize};

pub use batch::{
    batch_size, generate_batch, generate_batch_timed, generate_batch_with, generate_mixed, mutants_in, program_seed,
    session_batch_size, Mixed,
};
use case::{CaseKind, Register};
use engine::Engine;
pub use run_dir::{lock_run_dir, open_state, open_store};

use crate::atomic_write::write_atomic;
use crate::backend::{Registry, Settings};
use crate::findings::{KnownSet, RunMeta};
use crate::sass::coverage::Coverage;

/// Campaign options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop after this long.
    pub time: Duration,
    /// Stop after this many programs (tests).
    pub max_programs: Option<u64>,
    /// Campaign seed.
    pub seed: u64,
    /// Target.
    pub target: Target,
    /// Backend names (the oracle is always on; empty: the registry's fuzz defaults).
    pub backends: Vec<String>,
    /// `--ptxas` entries (empty: the ptxas found).
    pub ptxas: Vec<crate::backend::PtxasSpec>,
    /// The GPUs (`--devices`).
    pub devices: crate::backend::pool::Devices,
    /// Worker processes per device (`--workers`; `None`: the cores divided by the devices).
    pub workers: Option<usize>,
    /// Preparation threads.
    pub jobs: usize,
    /// Generator configuration.
    pub config: Config,
    /// Run directory.
    pub run_dir: PathBuf,
    /// Known findings directory.
    pub known_dir: PathBuf,
    /// Continue the campaign in `run_dir`.
    pub resume: bool,
    /// Programs per module.
    pub batch: usize,
    /// Minimize new findings.
    pub minimize: bool,
    /// Predicate calls per minimization.
    pub minimize_calls: usize,
    /// Most wall time one minimization takes.
    pub minimize_seconds: std::time::Duration,
    /// Allowances.
    pub allow: Allowances,
    /// A planted oracle bug (tests).
    pub plant: Option<Plant>,
    /// The command line, for the report.
    pub command: String,
    /// Print the live status line.
    pub progress: bool,
    /// Only this shard of the campaign's batches.
    pub shard: Option<crate::runs::shard::Shard>,
    /// Adapt the swarm weights to what finds new signatures ([`adapt`]; swarm
    /// configurations only).
    pub adapt: bool,
    /// The share of each batch made by mutating corpus programs ([`corpus`]; 0 to 1).
    pub mutate_share: f64,
}

/// A prepared batch: its programs ([`Mixed`]) and their oracle and ptxas results.
struct Batch {
    b: u64,
    mixed: Mixed,
    prepared: engine::Prepared,
}

/// Resumable campaign state (`campaign.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// Seed.
    pub seed: u64,
    /// Target name with PTX version.
    pub target: String,
    /// The backends that ran, over all sessions (not those asked for that could not run here).
    pub backends: Vec<String>,
    /// Next batch to run.
    pub next_batch: u64,
    /// Programs run so far.
    pub programs: u64,
    /// Seconds spent so far.
    pub seconds: f64,
    /// Instructions run per family.
    pub families: BTreeMap<String, u64>,
    /// Programs the oracle refused (generator bugs; should stay 0).
    pub invalid: u64,
    /// Generator configuration.
    pub config: Config,
    /// The shard of the batches this campaign runs (none: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::runs::shard::Shard>,
    /// What triage did with the raw findings, over all sessions.
    #[serde(default)]
    pub triage: triage::TriageCounts,
    /// Wall and CPU seconds per stage, over all sessions.
    #[serde(default)]
    pub stages: BTreeMap<String, engine::StageTime>,
    /// The adaptive swarm (weights, their history, which switches paid off); none when the
    /// campaign does not adapt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swarm: Option<adapt::Swarm>,
    /// What triage saw of each kind of raw finding over the campaign ([`triage::KindState`]),
    /// so that a resumed campaign de-duplicates as the uninterrupted one would.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kinds: BTreeMap<String, triage::KindState>,
    /// The finding store's counts when this state was written: a resumed campaign first
    /// takes back what the batches it runs again had recorded ([`crate::findings::FindingStore::rollback`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<crate::findings::store::Checkpoint>,
    /// A campaign over memory programs (`fuzz --async`): its generator configuration and
    /// counters (then `config` is unused and `invalid` counts the programs the oracle
    /// refused); none for register programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<async_campaign::MemoryState>,
    /// What the SASS check did, over all sessions.
    #[serde(default)]
    pub sass: SassCounts,
    /// The SASS coverage so far: every opcode n-gram of the checked -O3 kernels and its growth
    /// ([`crate::sass::coverage`]); empty without the SASS check.
    #[serde(default, skip_serializing_if = "Coverage::is_empty")]
    pub coverage: Coverage,
    /// The share of each batch made by mutating corpus programs (`--mutate-share`; a resumed
    /// campaign keeps it).
    #[serde(default = "default_share")]
    pub mutate_share: f64,
    /// The coverage corpus and its mutants ([`corpus`]; the programs are in [`corpus::FILE`]).
    #[serde(default)]
    pub corpus: corpus::CorpusCounts,
    /// The campaign metrics as of the end of the last session ([`metrics::Metrics`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<metrics::Metrics>,
}

fn default_share() -> f64 {
    corpus::DEFAULT_SHARE
}

/// What the SASS check did in a campaign (cumulative; a field missing from a campaign saved
/// by an older build reads as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SassCounts {
    /// -O3 modules disassembled and checked (one per batch and -O3 assembly).
    pub modules: u64,
    /// Kernels checked in them.
    pub kernels: u64,
    /// Raw `unwritten-register` findings: per kernel, one per SASS instruction and what it reads
    /// unwritten.
    pub flagged: u64,
    /// Modules the check could not read (nvdisasm failed or timed out, a listing line the
    /// parser does not know).
    pub failed: u64,
}

impl SassCounts {
    /// Adds `o` (saturating).
    pub fn add(&mut self, o: &SassCounts) {
        for (a, b) in [
            (&mut self.modules, o.modules),
            (&mut self.kernels, o.kernels),
            (&mut self.flagged, o.flagged),
            (&mut self.failed, o.failed),
        ] {
            *a = a.saturating_add(b);
        }
    }

    /// The counters by name (for range checks and reports).
    fn fields(&self) -> [(&'static str, u64); 4] {
        [("modules", self.modules), ("kernels", self.kernels), ("flagged", self.flagged), ("failed", self.failed)]
    }
}

/// What a campaign did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Final state.
    pub state: State,
    /// New findings this session.
    pub new: u64,
    /// Duplicates of stored findings.
    pub duplicates: u64,
    /// Occurrences of known findings.
    pub known: u64,
    /// Findings in the store.
    pub stored: usize,
    /// Why the GPU backends were unavailable.
    pub gpu_unavailable: Option<String>,
    /// Backends that ran.
    pub backends: Vec<String>,
    /// Seconds this session.
    pub seconds: f64,
    /// Programs run this session.
    pub programs: u64,
    /// What triage did this session.
    pub triage: triage::TriageCounts,
    /// Wall and CPU seconds per stage this session.
    pub stages: BTreeMap<String, engine::StageTime>,
    /// What the SASS check did this session.
    pub sass: SassCounts,
    /// Why the SASS check did not run (no nvdisasm), when a backend assembles at -O3.
    pub sass_unavailable: Option<String>,
    /// Distinct `unwritten-register` findings in the store.
    pub unwritten_stored: usize,
    /// SASS n-grams first seen this session ([`State::coverage`] has the total).
    pub coverage_new: u64,
    /// The campaign metrics (also in [`State::metrics`]).
    pub metrics: metrics::Metrics,
}

const STATE: &str = "campaign.json";
/// Largest batch index a stored campaign may resume at (far beyond any real campaign; leaves
/// room for the batch arithmetic so that it can never overflow).
pub const MAX_NEXT_BATCH: u64 = 1 << 40;
/// Largest counter a stored campaign may hold (2^53: exact as a JSON number everywhere, and
/// far from overflow when a session adds to it).
pub const MAX_COUNTER: u64 = 1 << 53;
/// Largest number of seconds a stored campaign may hold (about 31,000 years).
pub const MAX_SECONDS: f64 = 1e12;

impl State {
    /// Reads `campaign.json` text and checks every counter against its limit, naming the field
    /// that is out of range (a hand-edited or corrupt file would otherwise overflow later).
    pub fn parse(text: &str, path: &std::path::Path) -> anyhow::Result<State> {
        let s: State = serde_json::from_str(text)
            .with_context(|| format!("{}: corrupt campaign state; start a new run directory", path.display()))?;
        let bad = |field: &str, value: String, limit: String| {
            anyhow::anyhow!(
                "{}: field `{field}` = {value} is out of range (at most {limit}); the file is corrupt: restore it or start a new run directory",
                path.display()
            )
        };
        if s.next_batch > MAX_NEXT_BATCH {
            return Err(bad("next_batch", s.next_batch.to_string(), MAX_NEXT_BATCH.to_string()));
        }
        for (field, v) in [("programs", s.programs), ("invalid", s.invalid)] {
            if v > MAX_COUNTER {
                return Err(bad(field, v.to_string(), MAX_COUNTER.to_string()));
            }
        }
        if s.invalid > s.programs {
            return Err(bad("invalid", s.invalid.to_string(), format!("`programs` ({})", s.programs)));
        }
        if let Some((k, v)) = s.families.iter().find(|(_, v)| **v > MAX_COUNTER) {
            return Err(bad(&format!("families.{k}"), v.to_string(), MAX_COUNTER.to_string()));
        }
        if let Some((k, v)) = s.sass.fields().into_iter().find(|(_, v)| *v > MAX_COUNTER) {
            return Err(bad(&format!("sass.{k}"), v.to_string(), MAX_COUNTER.to_string()));
        }
        if let Some((k, v)) = s.coverage.fields().into_iter().find(|(_, v)| *v > MAX_COUNTER) {
            return Err(bad(&format!("coverage.{k}"), v.to_string(), MAX_COUNTER.to_string()));
        }
        if let Some((k, v)) = s.corpus.fields().into_iter().find(|(_, v)| *v > MAX_COUNTER) {
            return Err(bad(&format!("corpus.{k}"), v.to_string(), MAX_COUNTER.to_string()));
        }
        if !s.corpus.consistent() {
            return Err(bad(
                "corpus.size",
                s.corpus.size.to_string(),
                format!(
                    "{} and corpus.added − corpus.evicted, with at least as many edits as mutants",
                    corpus::CAPACITY
                ),
            ));
        }
        if !(0.0..=1.0).contains(&s.mutate_share) {
            return Err(bad("mutate_share", s.mutate_share.to_string(), "1 (and at least 0)".into()));
        }
        if !s.coverage.consistent() {
            return Err(bad(
                "coverage.novel_kernels",
                s.coverage.novel_kernels.to_string(),
                "coverage.kernels, with a curve that never falls nor passes coverage.total".into(),
            ));
        }
        if !(0.0..=MAX_SECONDS).contains(&s.seconds) {
            return Err(bad("seconds", s.seconds.to_string(), format!("{MAX_SECONDS:e}")));
        }
        if let Some(m) = &s.memory {
            let counters = std::iter::once(("gpu_runs".to_string(), m.gpu_runs));
            let symptoms = m.symptoms.iter().map(|(k, v)| (format!("symptoms.{k}"), *v));
            if let Some((field, v)) = counters.chain(symptoms).find(|(_, v)| *v > MAX_COUNTER) {
                return Err(bad(&format!("memory.{field}"), v.to_string(), MAX_COUNTER.to_string()));
            }
        }
        if let Some(sw) = &s.swarm {
            if let Some(b) = sw.applied.filter(|&b| b > MAX_NEXT_BATCH) {
                return Err(bad("swarm.applied", b.to_string(), MAX_NEXT_BATCH.to_string()));
            }
            for (k, st) in &sw.stats {
                if let Some(v) = [st.programs, st.new, st.known, st.duplicates].into_iter().find(|&v| v > MAX_COUNTER) {
                    return Err(bad(&format!("swarm.stats.{k}"), v.to_string(), MAX_COUNTER.to_string()));
                }
            }
            let weights = sw.weights.iter().chain(sw.history.values().flatten());
            if let Some((k, w)) = weights.into_iter().find(|(_, w)| !(0.0..=1.0).contains(*w)) {
                return Err(bad(&format!("swarm.weights.{k}"), w.to_string(), "1 (and at least 0)".into()));
            }
        }
        Ok(s)
    }
}

/// How often the status line is printed when stderr is not a terminal (CI logs).
pub const PLAIN_STATUS_EVERY: Duration = Duration::from_secs(10);

/// Sub-folder of a run directory that holds one session's temporary files.
const SCRATCH: &str = "scratch";

/// Seconds since the Unix epoch (0 on a clock before it).
pub fn now_unix_s() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The run record's extra fields of a campaign: its seed, `more`, and its shard.
pub fn campaign_extra(
    seed: u64,
    shard: Option<crate::runs::shard::Shard>,
    more: &[(&str, &str)],
) -> BTreeMap<String, String> {
    std::iter::once(("seed".to_string(), seed.to_string()))
        .chain(more.iter().map(|(k, v)| (k.to_string(), v.to_string())))
        .chain(shard.map(|s| ("shard".to_string(), s.to_string())))
        .collect()
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// A panic while preparing batches, as the campaign's error.
fn preparation_failed(message: String) -> anyhow::Error {
    anyhow::anyhow!("preparing batches failed: {message} (a ptxdiff bug: please report it with the command line)")
}

/// Threads preparing batches ahead and batches that may wait prepared, for `jobs` threads:
/// every thread keeps a ptxas process or two busy, and everything claimed ahead stays within
/// half the adaptive swarm's lag ([`adapt::LAG`]).
pub fn read_ahead(jobs: usize) -> (usize, usize) {
    let queue = 2;
    let threads = jobs.clamp(1, (adapt::LAG / 2) as usize - queue);
    (threads, queue)
}

/// New findings of one kind (class, backends, how) minimized per session; later ones are
/// counted under the first.
pub const MINIMIZE_PER_KIND: u32 = 3;
/// Findings that may wait for the minimization thread; more are stored unminimized.
pub const MINIMIZE_QUEUE: usize = 64;

/// The stage breakdown printed at the end of a campaign: wall and CPU seconds per stage, the
/// stages' share of the session's `seconds`.
pub fn stage_table(stages: &BTreeMap<String, engine::StageTime>, seconds: f64) -> String {
    let mut out = format!("stages ({seconds:.1} s session; stages overlap: preparation runs beside the backends):\n");
    out.push_str(&format!("  {:<40} {:>10} {:>10}\n", "stage", "wall s", "CPU s"));
    for (name, t) in stages {
        out.push_str(&format!("  {name:<40} {:>10.2} {:>10.2}\n", t.wall_s, t.cpu_s));
    }
    out.truncate(out.trim_end().len());
    out
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

/// Runs a campaign.
pub fn run(o: &Options) -> anyhow::Result<Summary> {
    let known = if o.known_dir.is_dir() {
        KnownSet::load(&o.known_dir)
            .with_context(|| format!("loading known findings from {}", o.known_dir.display()))?
    } else {
        KnownSet::empty()
    };
    let _lock = lock_run_dir(&o.run_dir, o.resume)?;
    let state_path = o.run_dir.join(STATE);
    let registry = Registry::new(Settings {
        ptxas: o.ptxas.clone(),
        devices: o.devices.clone(),
        workers: o.workers,
        allow: o.allow.clone(),
        sweep_timeout: Duration::from_secs(120),
    });
    let names = if o.backends.is_empty() { registry.fuzz_defaults() } else { o.backends.clone() };
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
        triage: triage::TriageCounts::default(),
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
    let mut state = open_state(&state_path, o.resume, fresh)?;
    if o.resume {
        state.coverage.load_ngrams(&o.run_dir, state.next_batch).map_err(anyhow::Error::msg)?;
        if state.mutate_share != o.mutate_share {
            bail!(
                "{}: the campaign runs with --mutate-share {}; resume with that (or without --mutate-share)",
                state_path.display(),
                state.mutate_share
            );
        }
    }
    let loaded = if o.resume {
        corpus::Corpus::load(&o.run_dir, state.next_batch, &state.corpus).map_err(anyhow::Error::msg)?
    } else {
        corpus::Corpus::default()
    };
    let corpus = std::sync::Arc::new(corpus::Shared::new(loaded));
    // Campaign seconds before this session: findings are timed from the campaign's start.
    let prior_s = state.seconds;
    let adapting = o.adapt && o.config.swarm;
    if adapting && state.swarm.is_none() {
        state.swarm = Some(adapt::Swarm::starting_at(state.next_batch));
    }
    let swarm = std::sync::Arc::new(adapt::Shared::new(state.swarm.clone().unwrap_or_default()));
    if !o.resume && state.swarm.is_some() {
        // With the swarm's starting weights.
        write_atomic(&state_path, &serde_json::to_string_pretty(&state)?)?;
    }
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
    let mut env = vec![("target".to_string(), o.target.to_string())];
    env.extend(engine.environment());
    if let Some(c) = &engine.sass {
        env.push(("nvdisasm".into(), c.nvdisasm.version.clone()));
    }
    if let Some(why) = &engine.gpu_unavailable {
        env.push(("gpu".into(), format!("unavailable: {why}")));
    }
    env.push(("backends".into(), engine.backend_names().join(",")));
    // The target has its own field; the findings' environment keeps it.
    let findings_env: Vec<(String, String)> = env.iter().filter(|(k, _)| k != "target").cloned().collect();
    let mut store = open_store(o.resume, &o.run_dir, known, || RunMeta {
        run_id: String::new(),
        kind: "fuzz".into(),
        ended_unix_s: 0,
        started_unix_s: now_unix_s(),
        command: o.command.clone(),
        target: o.target.to_string(),
        environment: findings_env,
        extra: campaign_extra(o.seed, o.shard, &[]),
    })?;

    // What the batches run again had recorded before the last session ended is taken back.
    if let Some(c) = state.checkpoint.as_ref().filter(|_| o.resume) {
        store.rollback(c)?;
    }
    let start = Instant::now();
    let s0 = state.programs;
    let mut tri = triage::Triage::resumed(&state.kinds);
    let mut stages: BTreeMap<String, engine::StageTime> = BTreeMap::new();
    let children_cpu0 = engine::children_cpu_s();
    // The minimizer runs its own engine (one worker per device is plenty for single cases).
    let minimizer = if o.minimize {
        let reg = Registry::new(Settings { workers: Some(1), ..registry.context().settings.clone() });
        let mut e = Engine::new(&reg, &names, o.target, o.plant, scratch.clone())?;
        e.sass = engine.sass.clone();
        e.emulate = engine.emulate.clone();
        let budget = Budget { seconds: Some(o.minimize_seconds), ..Budget::calls(o.minimize_calls) };
        let allow = e.allow.clone();
        Some(minimize::Minimizer::start(
            minimize::Reducer::new(e),
            budget,
            MINIMIZE_QUEUE,
            allow,
            env.clone(),
            start + o.time,
        ))
    } else {
        None
    };
    // Batches are prepared ahead (generation, oracle, ptxas) by several threads at once,
    // since each ptxas process is single-threaded, while the main thread runs the worker
    // backends; they arrive in order ([`ahead`]). Read-ahead stays below the adaptive swarm's
    // lag (see `adapt`).
    let (threads, queue) = read_ahead(o.jobs);
    let producer_opts = o.clone();
    let preparer = engine.preparer();
    let first = state.next_batch;
    let swarm2 = swarm.clone();
    let corpus2 = corpus.clone();
    let producer: ahead::Ahead<Batch> = ahead::Ahead::start(first, threads, queue, move |k, stop| {
        let n = batch_size(&producer_opts, first, k);
        if n == 0 {
            return None;
        }
        let cfg =
            if adapting { swarm2.config_for(&producer_opts.config, k, stop)? } else { producer_opts.config.clone() };
        let parents = if producer_opts.mutate_share > 0.0 { corpus2.view_for(k, stop)? } else { Vec::new() };
        let mixed = generate_mixed(&producer_opts, &cfg, k, n, &parents);
        let mut prepared = preparer.prepare(&mixed.programs, &mixed.inputs, &format!("b{k}"), stop)?;
        engine::add_stage(&mut prepared.stages, "generation", mixed.generation);
        if !mixed.edits.is_empty() || mixed.dropped > 0 {
            engine::add_stage(&mut prepared.stages, "mutation", mixed.mutation);
        }
        Some(Batch { b: k, mixed, prepared })
    });
    let mut last_status = Instant::now();
    let mut sass = SassCounts::default();
    let mut coverage_new = 0u64;
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let done = |state: &State| start.elapsed() >= o.time || o.max_programs.is_some_and(|m| state.programs - s0 >= m);
    while !done(&state) {
        let t_wait = Instant::now();
        // The time is up while a batch is still being prepared: it is abandoned (its ptxas
        // processes killed), not counted, and run again by `--resume`.
        let Ok(Some(Batch { b, mixed, mut prepared })) = producer.recv_until(start.checked_add(o.time)) else {
            break;
        };
        let Mixed { programs, inputs, sources, switches, edits, dropped, .. } = mixed;
        let mut outcomes: Vec<Option<adapt::Outcome>> = vec![None; programs.len()];
        if let Some(why) = &prepared.environment {
            bail!(
                "batch {b}: {why}\n  this is a problem of this machine (TMPDIR, disk, the ptxas binary), not a finding; \
                 fix it and go on with --resume"
            );
        }
        let waited = engine::StageTime { wall_s: t_wait.elapsed().as_secs_f64(), cpu_s: 0.0 };
        engine::add_stage(&mut stages, "waiting for preparation", waited);
        for (name, t) in &prepared.stages {
            engine::add_stage(&mut stages, name, *t);
        }
        count_sass(&prepared.sass, b, &mut sass, o.progress);
        let covered = std::mem::take(&mut prepared.coverage);
        let results = engine.execute(&programs, &inputs, prepared);
        let (mut compare, mut triaging) = (engine::StageTime::default(), engine::StageTime::default());
        for (k, r) in results.iter().enumerate() {
            if let Err(e) = &r.expected {
                state.invalid = state.invalid.saturating_add(1);
                if state.invalid <= 3 {
                    eprintln!(
                        "warning: the oracle refused generated program {} ({e}); this is a generator bug",
                        programs[k].name
                    );
                }
                continue;
            }
            let (raws, t) = engine::measure(|| Register::raw_findings(&programs[k], r, &engine.allow));
            compare.add(t);
            for raw in raws {
                if raw.class == crate::findings::FindingClass::UnwrittenRegister {
                    sass.flagged = sass.flagged.saturating_add(1);
                }
                let job = minimize::Job {
                    batch: b,
                    raw,
                    program: programs[k].clone(),
                    inputs: inputs[k].clone(),
                    result: r.clone(),
                    seen_at: prior_s + start.elapsed().as_secs_f64(),
                    source: Some(sources[k].clone()),
                };
                let (res, t) = engine::measure(|| tri.raw(&mut store, minimizer.as_ref(), job, &engine.allow, &env));
                adapt::Outcome::merge(&mut outcomes[k], res?);
                triaging.add(t);
            }
        }
        // What the minimizer finished meanwhile (it never holds up the next batch).
        for d in minimizer.iter().flat_map(minimize::Minimizer::finished) {
            let (res, t) = engine::measure(|| tri.done(&mut store, d));
            res?;
            triaging.add(t);
        }
        engine::add_stage(&mut stages, "compare", compare);
        engine::add_stage(&mut stages, "triage", triaging);
        family_counts(&programs, &mut state.families);
        state.programs = state.programs.saturating_add(programs.len() as u64);
        let (lines, t) = engine::measure(|| {
            let mut offers = Vec::new();
            for (i, grams) in &covered {
                let added = state.coverage.add_kernel_by_length(grams);
                coverage_new = coverage_new.saturating_add(added.iter().sum::<usize>() as u64);
                offers.push(corpus::Offer { program: &programs[*i], inputs: &inputs[*i], source: &sources[*i], added });
            }
            if !covered.is_empty() {
                state.coverage.point(state.programs);
            }
            corpus.update(|c| {
                let lines = c.finish_batch(b, &offers, dropped, &edits);
                state.corpus = c.counts.clone();
                lines
            })
        });
        corpus::Corpus::append(&o.run_dir, &lines)
            .with_context(|| format!("appending to {}", o.run_dir.join(corpus::FILE).display()))?;
        let (written, t2) =
            engine::measure(|| crate::sass::coverage::Coverage::append(&o.run_dir, b, &state.coverage.take_fresh()));
        written.with_context(|| {
            format!("appending to {}", o.run_dir.join(crate::sass::coverage::NGRAMS_FILE).display())
        })?;
        engine::add_stage(&mut stages, "coverage", t);
        engine::add_stage(&mut stages, "coverage", t2);
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
            snapshot.sass.add(&sass);
            write_atomic(&state_path, &serde_json::to_string_pretty(&snapshot)?)?;
            corpus.update(|c| c.compact(&o.run_dir, snapshot.next_batch)).map_err(anyhow::Error::msg)?;
        }
        if o.progress && last_status.elapsed() >= if tty { Duration::from_millis(500) } else { PLAIN_STATUS_EVERY } {
            let line = status_line(&state, start, s0, tri.new, tri.duplicates, tri.known);
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
            last_status = Instant::now();
        }
    }
    // A panic while preparing batches ends the campaign early: it is an error, not a summary.
    producer.finish().map_err(preparation_failed)?;
    // The child processes waited for so far are the ptxas runs (the worker processes are
    // waited for when their engines are dropped, after this).
    let ptxas_cpu = engine::children_cpu_s() - children_cpu0;
    // Queued minimizations finish within the campaign's time; later ones are stored as they are.
    if let Some(m) = minimizer {
        let (done, reducer) = m.finish()?;
        let min_stages = reducer.engine.stages;
        for d in done {
            let (res, t) = engine::measure(|| tri.done(&mut store, d));
            res?;
            engine::add_stage(&mut stages, "triage", t);
        }
        for (name, t) in min_stages {
            engine::add_stage(&mut stages, &format!("minimization: {name}"), t);
        }
    }
    engine::add_stage(&mut stages, "minimization", tri.minimization);
    for (name, t) in &engine.stages {
        engine::add_stage(&mut stages, name, *t);
    }
    engine::add_stage(
        &mut stages,
        "ptxas processes (CPU of all builds)",
        engine::StageTime { wall_s: 0.0, cpu_s: ptxas_cpu },
    );
    if o.progress {
        let line = status_line(&state, start, s0, tri.new, tri.duplicates, tri.known);
        if tty {
            eprintln!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if o.progress {
        eprintln!("{}", stage_table(&stages, seconds));
        eprint!("{}", tri.counts.report(MINIMIZE_PER_KIND));
        if let Some(s) = state.swarm.as_ref().filter(|s| !s.stats.is_empty()) {
            eprint!("adaptive swarm (which switches paid off):\n{}", s.report());
        }
    }
    state.sass.add(&sass);
    state.seconds += seconds;
    state.triage.add(&tri.counts);
    if let Some(kinds) = tri.settled_kinds() {
        state.kinds = kinds;
        state.checkpoint = Some(store.checkpoint());
    }
    for (name, t) in &stages {
        engine::add_stage(&mut state.stages, name, *t);
    }
    let gpus = metrics::gpus(&engine.backend_names(), &env, engine.gpu_unavailable.is_some());
    let m = metrics::Metrics::of(&state, store.doc(), gpus);
    state.metrics = Some(m.clone());
    if o.progress {
        eprint!("{}", m.report(&state));
    }
    write_atomic(&state_path, &serde_json::to_string_pretty(&state)?)?;
    let _ = std::fs::remove_dir_all(&scratch);
    store.flush()?;
    store.update_meta(|m| {
        m.extra.insert("programs".into(), state.programs.to_string());
        m.extra.insert("duration (s)".into(), format!("{:.1}", state.seconds));
    })?;
    crate::findings::render::write_all(&o.run_dir, store.doc(), None)?;
    let unwritten_stored = store
        .doc()
        .by_class()
        .iter()
        .find(|(c, ..)| *c == crate::findings::FindingClass::UnwrittenRegister)
        .map_or(0, |&(_, n, _)| n);
    Ok(Summary {
        programs: state.programs - s0,
        stored: store.doc().findings.len(),
        sass,
        sass_unavailable,
        unwritten_stored,
        coverage_new,
        metrics: m,
        state,
        new: tri.new,
        duplicates: tri.duplicates,
        known: tri.known,
        triage: tri.counts.clone(),
        stages,
        gpu_unavailable: engine.gpu_unavailable.clone(),
        backends: engine.backend_names(),
        seconds,
    })
}

#[cfg(test)]
mod tests;
