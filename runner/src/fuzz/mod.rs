//! `ptxdiff fuzz`: differential campaigns over generated programs.
//!
//! One campaign loop ([`campaign::run`]) runs both kinds of program: register programs
//! ([`register::RegisterCampaign`], described below) and memory programs (`fuzz --async`,
//! [`async_campaign`]); each kind says what differs through [`campaign::CampaignKind`]. This
//! module holds the options, the campaign state (`campaign.json`) and the summary.
//!
//! Batches of programs are generated from `(seed, batch index)` (so a campaign is resumable
//! and every program reproducible), prepared on all cores (generation, the program oracle,
//! the offline assemblies the backends need) while the previous batch runs on the backends
//! that run programs (from [`crate::backend::Registry`]), then compared word by word. A finding is a disagreement with the oracle, a crash (ptxas, GPU fault, hang)
//! or a rejection of a program the model calls valid. Each raw finding is first triaged
//! cheaply: packaged as it is, and counted as known when its signature (its shape above all)
//! matches `corpus/known/` (a crash also when an entry's crash mechanism explains it: its
//! kernel's SASS at the crashing level, [`known_crash`]), or counted under the first finding of its kind when that kind
//! (class, backends, how) was seen [`MINIMIZE_PER_KIND`] times in the campaign, or under the
//! first of its mutant family (the same root program — a mutant's parent, or the fresh program
//! itself —, class, backends, how and first differing word: [`minimize::Case::family_key`];
//! after that one's verdict); none of these is
//! minimized. The rest go to the minimization threads ([`minimize::Minimizer`]:
//! [`Options::minimize_threads`] of them, default [`MINIMIZE_THREADS`], each with its own
//! engine, sharing one bounded queue of [`MINIMIZE_QUEUE`]; a full queue stores the finding
//! unminimized): each reduces the case while it still shows the same class, disagreeing backends and kind of
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
pub mod campaign;
pub mod case;
pub mod corpus;
pub mod engine;
pub mod known_crash;
pub mod memory_case;
pub mod metrics;
pub mod minimize;
pub mod package;
pub mod register;
pub mod retriage;
pub mod run_dir;
pub mod triage;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use generator::program::Config;
use oracle::isa::Target;
use oracle::program::interp::Plant;
use oracle::semantics::Allowances;
use serde::{Deserialize, Serialize};

pub use batch::{
    batch_size, generate_batch, generate_batch_timed, generate_batch_with, generate_mixed, mutants_in, program_seed,
    session_batch_size, Mixed,
};
pub use register::run;
pub use run_dir::{lock_run_dir, open_state, open_store};

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
    /// Minimization threads ([`MINIMIZE_THREADS`] by default; at least 1).
    pub minimize_threads: usize,
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
/// Findings that may wait for the minimization threads; more are stored unminimized.
pub const MINIMIZE_QUEUE: usize = 64;
/// Minimization threads of a campaign by default (`--minimize-threads`), each with backends
/// and worker processes of its own. Three: one thread reduced only 14 findings of a 540 s H200
/// campaign while 63 were stored unminimized (seed 3701, docs/PERFORMANCE.md), and the same
/// cases reduced six at a time afterwards on that GPU went 40 in 96 s; on the 16-core H200 box
/// the campaign itself keeps about 14 cores busy (87–92 %), and a predicate run is small (one
/// module of at most 16 candidates: a ptxas process per level, a JIT compile, a kernel or so
/// per backend, ~0.33 s), so three threads take about the two cores left, not the
/// campaign's. (Not measured on the H200 yet. On a loaded 2-core VM, 60 s with the planted
/// `xor-as-or`: one thread minimized 52 and stored 98 unminimized at 65 programs/s, three
/// minimized 118 and stored 21 at 52 programs/s.)
pub const MINIMIZE_THREADS: usize = 3;

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

#[cfg(test)]
mod tests;
