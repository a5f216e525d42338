//! The minimization stage of a campaign: reduces one case while a predicate holds, and
//! measures itself. It only minimizes — the campaign builds the predicate (what "still the same
//! finding" means, [`still_shows`]) and [`super::package`] packages the result.
//!
//! In a campaign the stage runs off the critical path: a [`Minimizer`] owns a pool of threads
//! (`--minimize-threads`), each with its own runner — its own backends and worker processes:
//! for register programs a [`Reducer`] over an [`Engine`], for memory programs
//! [`super::memory_case::MemReducer`]. The threads take cases ([`Case`]: a register program's
//! [`Job`] or a memory program's [`super::memory_case::MemCase`]) from one shared bounded
//! queue, whichever thread is free first, and hand back packaged findings ([`Done`]); the
//! campaign never waits for them while batches remain. One pool, one queue and one triage
//! ([`super::triage`]) serve both kinds.
//!
//! Invariants:
//! - With minimization off, the case comes back unchanged and no predicate call is made; with
//!   it on, the predicate holds for the returned case (the reducer keeps only candidates it
//!   accepted), unless it did not hold for the starting case: then the case comes back as it
//!   is, marked `reproduced: Some(false)`, and is packaged from its batch's results; a word
//!   difference of a register program is then run alone [`RERUNS`] times more and classed
//!   non-deterministic when a disagreeing backend's words changed between runs
//!   ([`words_seen_to_change`]).
//! - [`Minimizer::submit`] never blocks: a full queue gives the job back.
//! - Every submitted job comes back exactly once as a [`Done`], minimized or — when its turn
//!   comes after the deadline given to [`Minimizer::start`] — packaged as it is, and marked so;
//!   [`Minimizer::finished`] and [`Minimizer::finish`] hand them back in the order they were
//!   submitted, whichever thread finished first (so triage sees what one thread would give).
//! - A register program's reduction past its deadline ends within
//!   [`super::engine::RUN_GRACE`] of it, plus its final run's grace ([`Engine::until`]), however
//!   slow its candidates; no memory program's candidate starts past its deadline (each runs
//!   at most [`super::memory_case::JOB_TIMEOUT`] per backend).
//! - A register word finding's reduce-on step (known after reduction) shares its case's
//!   deadline: it starts only before it and stops at it, so one case takes at most its budget
//!   (`--minimize-time`) plus the grace of its runs; its time is a stage of its own
//!   ([`REDUCE_ON_STAGE`]). Its predicate runs have no SASS check (an nvdisasm run each):
//!   every predicate run of a register case scopes the emulations by its batch's check
//!   ([`Engine::witnessed`]), so an emulation the batch's listing kept out stays out;
//!   the final run of the case reduced on has it, so that an emulation with a `sass_witness`
//!   labels that case known only where its -O3 kernel has the witness.
//! - A register word finding's final run has the SASS check too (the minimizer's predicate runs
//!   check nothing): the minimized finding is packaged from that run, or from its words without
//!   the check where the check gave them to a read; where every word belongs to one
//!   unwritten-register finding ([`stored_undefined`]), that read's finding is its finding
//!   known after all ([`AfterReduction`]; triage counts it known when an entry matches it).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use generator::minimize::{minimize_batched, Budget, Reduced};
use oracle::program::{Inputs, Program};

use oracle::semantics::Allowances;

use super::case::{CaseKind, Register};
use super::engine::{add_stage, measure, thread_cpu_s, Engine, ProgramResult, StageTime, RUN_GRACE};
use super::package::{self, Raw};
use crate::findings::{Finding, FindingClass, KnownSet};

/// A case after the minimization stage, and the stage's cost.
#[derive(Clone, Debug)]
pub struct Minimized {
    /// The case (the starting one when minimization is off).
    pub reduced: Reduced,
    /// Wall seconds the stage took.
    pub seconds: f64,
}

/// Most candidates one predicate run shows the backends (one module, one ptxas process per
/// level, one JIT module load): process start-up is paid once per run, and a wasted candidate
/// after an accepted one costs one kernel.
pub const MAX_BATCH: usize = 16;

/// Most candidates per predicate run for a finding of class `class`: one where a candidate may
/// fault or hang (a fault in a batch costs halving runs and a worker restart each, a hang its
/// batch timeout) or be rejected by ptxas (a rejection's message names its kernel, and the
/// assembler's attribution rounds are bounded), [`MAX_BATCH`] otherwise.
pub fn max_batch(class: FindingClass) -> usize {
    if matches!(class, FindingClass::Crash | FindingClass::AssemblerRejection) {
        1
    } else {
        MAX_BATCH
    }
}

/// Reduces `(program, inputs)` within `budget` while `still` holds, showing it at most
/// `max_batch` candidates a run; `None` leaves the case as it is (minimization off).
pub fn stage(
    program: &Program,
    inputs: &Inputs,
    budget: Option<Budget>,
    max_batch: usize,
    still: impl FnMut(&[(Program, Inputs)]) -> Option<usize>,
) -> Minimized {
    let start = Instant::now();
    let reduced = match budget {
        Some(b) => minimize_batched(program, inputs, b, max_batch, still),
        None => Reduced::unchanged(program, inputs),
    };
    Minimized { reduced, seconds: start.elapsed().as_secs_f64() }
}

/// The predicate "running this case on every backend still shows a finding of pre-signature
/// `pre`" (same class, same disagreeing backends, same kind of difference) over a batch of
/// candidates, run together as one module (each under a kernel name of its own; a single
/// candidate keeps its name): the index of the first that still shows it.
pub fn still_shows<'e>(engine: &'e mut Engine, pre: &'e str) -> impl FnMut(&[(Program, Inputs)]) -> Option<usize> + 'e {
    still_shows_where(engine, move |p| p == pre)
}

/// Whether `p` is the pre-signature `pre` of an unexplained finding with the emulations that
/// explain it added ([`Raw::pre_signature`]: `…|emulated:NAMES`).
fn explained_form_of(p: &str, pre: &str) -> bool {
    p.strip_prefix(pre).is_some_and(|rest| rest.starts_with("|emulated:"))
}

/// [`still_shows`] with the pre-signatures it accepts given by `accepts`.
fn still_shows_where<'e>(
    engine: &'e mut Engine,
    accepts: impl Fn(&str) -> bool + 'e,
) -> impl FnMut(&[(Program, Inputs)]) -> Option<usize> + 'e {
    move |cands| {
        let programs: Vec<Program> = if cands.len() == 1 {
            vec![cands[0].0.clone()]
        } else {
            cands
                .iter()
                .enumerate()
                .map(|(j, (p, _))| Program { name: format!("{}_c{j}", p.name), ..p.clone() })
                .collect()
        };
        let inputs: Vec<Inputs> = cands.iter().map(|(_, i)| i.clone()).collect();
        let res = engine.run(&programs, &inputs, "min");
        let allow = &engine.allow;
        programs
            .iter()
            .zip(&res)
            .position(|(p, r)| Register::raw_findings(p, r, allow).iter().any(|x| accepts(&Register::pre_signature(x))))
    }
}

/// Runs alone of a case that did not show its difference again, to tell a non-deterministic
/// one ([`FindingClass::NonDeterministic`]).
pub const RERUNS: usize = 3;

/// The stage of the reduce-on step ([`Job`]'s `reduced_to_known`) in a minimization engine's
/// stage times (`minimization: reduce on …` in a campaign's stage table).
pub const REDUCE_ON_STAGE: &str = "reduce on (known after reduction)";

/// For a word difference that did not show again alone: runs the program alone [`RERUNS`]
/// times more on every backend, and when a disagreeing backend's words change between its runs
/// (the batch's included), gives the words seen, per word that changed (at most eight lines).
/// `None`: the words never changed (or the finding is not a word difference).
pub fn words_seen_to_change(engine: &mut Engine, job: &Job) -> Option<String> {
    job.raw.disagreement.as_ref()?;
    let mut runs: Vec<Vec<crate::diff::program::Observed>> = vec![job.result.observed.clone()];
    for _ in 0..RERUNS {
        let r = engine.run(std::slice::from_ref(&job.program), std::slice::from_ref(&job.inputs), "again");
        runs.push(r.into_iter().next().map(|r| r.observed).unwrap_or_default());
    }
    let per = job.program.outputs.max(1) as usize;
    let mut lines = Vec::new();
    for b in &job.raw.backends {
        let seen: Vec<&[u32]> =
            runs.iter().filter_map(|run| run.iter().find(|o| &o.backend == b)).map(|o| o.words.as_slice()).collect();
        let len = seen.iter().map(|w| w.len()).max().unwrap_or(0);
        for i in 0..len {
            let words: Vec<Option<u32>> = seen.iter().map(|w| w.get(i).copied()).collect();
            if words.iter().all(|w| *w == words[0]) {
                continue;
            }
            let text: Vec<String> =
                words.iter().map(|w| w.map_or("missing".into(), |w| format!("{w:#010x}"))).collect();
            lines.push(format!(
                "thread {} word {}, {b}: {} (the batch's run, then alone)",
                i / per,
                i % per,
                text.join(", ")
            ));
        }
    }
    if lines.is_empty() {
        return None;
    }
    let more = lines.len().saturating_sub(8);
    lines.truncate(8);
    let mut out =
        format!("did not show again alone; the words changed between {} runs:\n{}", runs.len(), lines.join("\n"));
    if more > 0 {
        out.push_str(&format!("\n… and {more} more words"));
    }
    Some(out)
}

/// A raw finding to minimize, with the program that showed it.
#[derive(Clone, Debug)]
pub struct Job {
    /// The campaign batch it came from (the campaign holds its state back to that batch until
    /// the job is done).
    pub batch: u64,
    /// The raw finding.
    pub raw: Raw,
    /// The program as generated.
    pub program: Program,
    /// Its inputs.
    pub inputs: Inputs,
    /// The program's results in its batch (packaging an unminimized case needs no new run).
    pub result: ProgramResult,
    /// Seconds since the campaign started when it was seen.
    pub seen_at: f64,
    /// Where the program came from (the finding records it).
    pub source: Option<crate::findings::Source>,
}

/// A job after a minimization thread: the packaged finding and what it cost.
#[derive(Clone, Debug)]
pub struct Done {
    /// The job's batch.
    pub batch: u64,
    /// The raw finding's kind in triage ([`Case::kind_key`]).
    pub pre: String,
    /// The packaged finding.
    pub finding: Finding,
    /// Its case file text.
    pub case: String,
    /// Whether the reducer ran (false: its turn came after the deadline).
    pub minimized: bool,
    /// Predicate calls, counted as a one-candidate-at-a-time reduction makes them.
    pub calls: u64,
    /// Predicate runs (each a run of a batch of candidates on every backend).
    pub runs: u64,
    /// Candidates the validator refused before a predicate call.
    pub refused: u64,
    /// Wall and CPU time of its minimization thread on this job (reduction, final run,
    /// packaging).
    pub time: StageTime,
    /// Which of the minimization threads took it (0, 1, …).
    pub reducer: usize,
    /// The case's mutant family ([`Case::family_key`]): its members that waited are recorded
    /// under this finding.
    pub family: Option<String>,
    /// The finding known after reducing further ([`Reduction::known_after_reduction`]).
    pub known_after_reduction: Option<AfterReduction>,
}

/// Packages `job` as it is, from its own results (no run).
pub fn package_as_is(job: &Job, allow: &Allowances, env: &[(String, String)]) -> (Finding, String) {
    let reduced = Reduced::unchanged(&job.program, &job.inputs);
    let case = package::Case { original: &job.program, reduced: &reduced, result: &job.result };
    let (mut f, text) = package::package(&job.raw, &case, allow, job.seen_at, env);
    f.source = job.source.clone();
    (f, text)
}

/// A case the minimization threads take, of either kind of program the campaign runs: a
/// register program ([`Job`]) or a memory program
/// ([`super::memory_case::MemCase`]): one raw finding of its [`CaseKind`] with the program
/// that showed it. Triage ([`super::triage::Triage`]) and the threads ([`Minimizer`]) see cases
/// only through this; what is said once per kind (the kind of a raw finding, its quick
/// signature) comes from [`Case::Kind`], what a case adds (its results in the batch, the
/// reducer) from the case.
pub trait Case: Send + 'static {
    /// The kind of program ([`CaseKind`]): it says what the case's kind and quick signature
    /// are.
    type Kind: CaseKind;
    /// What a thread reduces with: backends of its own, beside the campaign's (one runner per thread).
    type Runner: Send + 'static;
    /// The campaign batch the case came from.
    fn batch(&self) -> u64;
    /// The raw finding.
    fn raw(&self) -> &<Self::Kind as CaseKind>::Raw;
    /// The program that showed it, as generated.
    fn program(&self) -> &<Self::Kind as CaseKind>::Program;
    /// Its kind: class, disagreeing backends and kind of difference (what must stay the same
    /// while minimizing, and triage's key; [`CaseKind::pre_signature`]).
    fn pre_signature(&self) -> String {
        Self::Kind::pre_signature(self.raw())
    }
    /// Triage's kind of the finding (how many of a kind are minimized before the rest are only
    /// counted under the first): the pre-signature here; a register program adds the
    /// instruction its signature names ([`Job`]'s).
    fn kind_key(&self) -> String {
        self.pre_signature()
    }
    /// Whether an entry of `known` may match its signature as it stands
    /// ([`CaseKind::quick_signature`]; cheap: only then does triage package the case to check).
    fn may_be_known(&self, known: &KnownSet) -> bool {
        known.may_match(&Self::Kind::quick_signature(self.raw(), self.program()))
    }
    /// The case packaged as it is, from its own results (no run): the finding and its case
    /// file text.
    fn package_as_is(&self, allow: &Allowances, env: &[(String, String)]) -> (Finding, String);
    /// The case packaged as it is when the oracle emulating known root causes gives its words
    /// and an entry of `known` naming an emulation that fired covers it (its input class the
    /// emulation's); `None` otherwise, and for kinds of case without emulations.
    fn known_by_emulation(
        &self,
        known: &KnownSet,
        allow: &Allowances,
        env: &[(String, String)],
    ) -> Option<(Finding, String)> {
        let _ = (known, allow, env);
        None
    }
    /// The case's register program, as generated: a crash's kernel that triage checks against
    /// the known crash mechanisms ([`super::known_crash`]); `None` for other kinds of program.
    fn register_program(&self) -> Option<&Program> {
        None
    }
    /// The signatures of the crash findings of the case's program in its batch (every crashing
    /// backend's, this finding's included): what triage knows an optimizing ptxas's crash by
    /// beside another backend's ([`KnownSet::crash_known_beside`]); empty for kinds of case
    /// without them.
    fn crash_siblings(&self) -> Vec<crate::findings::Signature> {
        Vec::new()
    }
    /// Whether the finding carries wrong GPU words its kernel stored from the undefined bits it
    /// reads ([`super::package::Raw::undefined_words`]); `false` for kinds of case without them.
    fn shows_undefined_words(&self) -> bool {
        false
    }
    /// The mutant family the case belongs to: the corpus program it was mutated from (a fresh
    /// program's own name: its mutants are its family), its pre-signature (class, backends,
    /// how: [`Case::pre_signature`]) and the first word that differs. Mutants of one program
    /// that differ in the same word the same way are, as a rule, one trigger of that program
    /// shown by several edits: seed 4703's three 3501-N3 mutants of one parent (stored
    /// unminimized), seed 4803's 98fa0894 and 5ba766bb (35a05e88, one edit, named by two
    /// instructions), seed 4801's fresh cdcda77b and its mutant bf035d4e (3701-N-D). Triage
    /// counts them under the family's first finding ([`super::triage::Triage`]). `None` for
    /// kinds of case without a source.
    fn family_key(&self) -> Option<String> {
        None
    }
    /// Reduces the case on `runner` within `budget` while it shows its finding, and packages
    /// the result. A case that did not show its finding again comes back as it is, marked
    /// `reproduced: Some(false)`.
    fn reduce(&self, runner: &mut Self::Runner, budget: Budget, env: &[(String, String)]) -> Reduction;
}

/// A case after [`Case::reduce`]: the packaged finding, its case text and the reducer's counts.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The packaged finding.
    pub finding: Finding,
    /// Its case file text.
    pub case: String,
    /// Predicate calls, counted as a one-candidate-at-a-time reduction makes them.
    pub calls: u64,
    /// Predicate runs.
    pub runs: u64,
    /// Candidates refused before a predicate call.
    pub refused: u64,
    /// The finding as its case reduced on past the minimized one gives it, when every word
    /// of it that differs there is explained by emulations ([`Job`]'s `reduced_to_known`): that
    /// finding, its case text and the signatures to match against the known entries (one per
    /// emulation that explains it). Triage counts the finding known when one matches.
    pub known_after_reduction: Option<AfterReduction>,
}

/// A minimized finding reduced on until the emulations of known root causes explain it (or,
/// without reducing on, the unwritten-register finding its minimized kernel's words belong to:
/// [`stored_undefined`]): the
/// minimizer keeps a case's words unexplained while it reduces (so a known cause in the same
/// program is never what is left), which also keeps whatever hides a known cause from its
/// emulation (a copy between producer and consumer, a dead second reader: seeds 3901–3903's
/// traces, T6A–T6G). Reducing the minimized case on, explained or not, shows whether what is
/// left without that context is a known cause's emulated form.
#[derive(Clone, Debug)]
pub struct AfterReduction {
    /// The finding of the case reduced on (its explained raw finding, packaged).
    pub finding: Finding,
    /// Its case file text.
    pub case: String,
    /// Its signature with each explaining emulation's input class
    /// ([`package::with_emulation`]).
    pub signatures: Vec<crate::findings::Signature>,
}

/// The register programs' reducer: a minimization thread's [`Engine`], and the SASS checker
/// it switches on for unwritten-register findings (the other classes do not need it, and it
/// costs an nvdisasm process per predicate run) and for the final runs of word differences.
pub struct Reducer {
    /// The engine (its stage times: `run on NAME`).
    pub engine: Engine,
    checker: Option<crate::sass::Checker>,
}

impl Reducer {
    /// The reducer of `engine` (its SASS check, if any, only for unwritten-register findings).
    pub fn new(mut engine: Engine) -> Reducer {
        let checker = engine.sass.take();
        Reducer { engine, checker }
    }
}

impl Case for Job {
    type Kind = Register;
    type Runner = Reducer;

    fn batch(&self) -> u64 {
        self.batch
    }

    fn raw(&self) -> &Raw {
        &self.raw
    }

    fn shows_undefined_words(&self) -> bool {
        !self.raw.undefined_words.is_empty()
    }

    /// The pre-signature and the instruction the signature as it stands names
    /// ([`CaseKind::quick_signature`]'s form): word differences of different instructions that
    /// share class, backends and kind of difference are kinds apart (a 540 s H200 campaign
    /// counted 188 unexplained `compiler|jit,O3|value` findings under the first three of that
    /// pre-signature, three different root causes, without storing them).
    fn kind_key(&self) -> String {
        let pre = self.pre_signature();
        let form = Register::quick_signature(&self.raw, &self.program).form;
        if form.is_empty() || pre.split('|').any(|part| part == form) {
            pre
        } else {
            format!("{pre}|at {form}")
        }
    }

    fn program(&self) -> &Program {
        &self.program
    }

    fn register_program(&self) -> Option<&Program> {
        Some(&self.program)
    }

    fn crash_siblings(&self) -> Vec<crate::findings::Signature> {
        package::crash_raws(&self.result).iter().map(|raw| Register::quick_signature(raw, &self.program)).collect()
    }

    fn family_key(&self) -> Option<String> {
        let root = match &self.source {
            Some(crate::findings::Source::Mutation { parent, .. }) => parent,
            Some(crate::findings::Source::Fresh { .. }) => &self.program.name,
            None => return None,
        };
        let word = self.raw.disagreement.as_ref().map(|d| format!("word {}", d.first.1)).unwrap_or_default();
        Some(format!("{root}|{}|{word}", self.pre_signature()))
    }

    fn package_as_is(&self, allow: &Allowances, env: &[(String, String)]) -> (Finding, String) {
        package_as_is(self, allow, env)
    }

    fn known_by_emulation(
        &self,
        known: &KnownSet,
        allow: &Allowances,
        env: &[(String, String)],
    ) -> Option<(Finding, String)> {
        if self.raw.explained.is_empty() {
            return None;
        }
        let (finding, case) = package_as_is(self, allow, env);
        let signature = self
            .raw
            .explained
            .iter()
            .map(|&d| package::with_emulation(&finding.signature, d))
            .find(|s| known.matches(s).is_some())?;
        Some((Finding { signature, ..finding }, case))
    }

    /// No run of the reduction ends more than [`RUN_GRACE`] after its deadline, nor the final
    /// run (and the runs alone of a case not shown again) more than that after the deadline or
    /// their start, whichever is later ([`Engine::until`]).
    fn reduce(&self, r: &mut Reducer, budget: Budget, env: &[(String, String)]) -> Reduction {
        let engine = &mut r.engine;
        engine.sass = r.checker.clone().filter(|_| self.raw.class == FindingClass::UnwrittenRegister);
        // The predicate runs check nothing: the emulations are scoped by the batch's check.
        engine.witnessed = self.result.sass.iter().map(|c| (c.by.clone(), c.witnessed.clone())).collect();
        let deadline = budget.deadline_from(Instant::now());
        let after_deadline = |deadline: Option<Instant>| deadline.map(|d| d.max(Instant::now()) + RUN_GRACE);
        engine.until = after_deadline(deadline);
        let pre = self.pre_signature();
        let m = stage(&self.program, &self.inputs, Some(budget), max_batch(self.raw.class), still_shows(engine, &pre));
        let (calls, runs, refused) = (m.reduced.calls as u64, m.reduced.runs as u64, m.reduced.refused as u64);
        engine.until = after_deadline(deadline);
        let mut after = None;
        let (finding, case) = if m.reduced.reproduced == Some(false) {
            // Not shown again alone: the batch's results are the evidence, and runs alone whose
            // words change make it non-deterministic.
            let (mut f, c) = package_as_is(self, &engine.allow, env);
            f.reproduced = Some(false);
            if let Some(seen) = words_seen_to_change(engine, self) {
                f.signature.class = FindingClass::NonDeterministic;
                // The title names the class (seed 6103's a3c91903 was titled `compiler …`).
                f.title = f.signature.to_string();
                f.message = Some(seen);
            }
            (f, c)
        } else {
            let reduced = &m.reduced;
            // A word difference's final run has the SASS check (one nvdisasm run): its
            // predicate runs checked nothing, so the case may have been reduced to a kernel
            // that stores its words from a never-written register ([`stored_undefined`]).
            let unchecked = engine.sass.clone();
            if self.raw.disagreement.is_some() {
                engine.sass = r.checker.clone();
            }
            let result =
                engine.run(std::slice::from_ref(&reduced.program), std::slice::from_ref(&reduced.inputs), "final");
            engine.sass = unchecked;
            let pre = self.raw.pre_signature();
            let shows = |res: &ProgramResult| {
                Register::raw_findings(&reduced.program, res, &engine.allow).iter().any(|x| x.pre_signature() == pre)
            };
            // Where the check gave words of the finding to a read, the words as the predicate
            // saw them (no check) are the minimized finding's.
            let words = ProgramResult { sass: Vec::new(), ..result[0].clone() };
            let shown = if shows(&result[0]) { Some(&result[0]) } else { shows(&words).then_some(&words) };
            if let Some(shown) = shown {
                let case = package::Case { original: &self.program, reduced, result: shown };
                let (mut f, text) = package::package(&self.raw, &case, &engine.allow, self.seen_at, env);
                f.source = self.source.clone();
                if let Some(x) = stored_undefined(&reduced.program, &result[0], &pre, &engine.allow) {
                    // Every word is a read's: its finding is the one known after all when an
                    // entry matches it (no reducing on).
                    let case = package::Case { original: &self.program, reduced, result: &result[0] };
                    let (mut finding, case) = package::package(&x, &case, &engine.allow, self.seen_at, env);
                    finding.source = self.source.clone();
                    after = Some(AfterReduction { signatures: vec![finding.signature.clone()], finding, case });
                } else {
                    // The reduce-on step shares the case's budget (its deadline, not a second
                    // one of its own) and is timed as a stage of its own.
                    let (wall0, cpu0) = (Instant::now(), thread_cpu_s());
                    if deadline.is_none_or(|d| Instant::now() < d) {
                        engine.until = after_deadline(deadline);
                        let shared = Budget { until: deadline, seconds: None, ..budget };
                        after = self.reduced_to_known(engine, r.checker.as_ref(), reduced, shared, env);
                    }
                    let spent = StageTime { wall_s: wall0.elapsed().as_secs_f64(), cpu_s: thread_cpu_s() - cpu0 };
                    add_stage(&mut engine.stages, REDUCE_ON_STAGE, spent);
                }
                (f, text)
            } else {
                // The reduced case's final run no longer shows it (its words changed between
                // runs): the program as generated is stored with its batch's words, which
                // belong to it (the reduced program's threads and words may not hold them;
                // seed 3702's f93796d5 stored threads 33–61 with a 32-thread case).
                package_as_is(self, &engine.allow, env)
            }
        };
        (engine.sass, engine.until) = (None, None);
        engine.witnessed.clear();
        Reduction { finding, case, calls, runs, refused, known_after_reduction: after }
    }
}

/// The unwritten-register finding that every word of a minimized word difference belongs to:
/// run without the SASS check, `result` (the final run of program `p`, with the check) shows
/// the finding of pre-signature `pre`; with it, no word difference is left unexplained and exactly one
/// unwritten-register finding carries differing words (stored from a never-written register,
/// or from a value derived from one: [`package`]'s [`Raw::undefined_words`]). `None` otherwise:
/// a word left unexplained keeps the finding, and words of several reads are not one cause.
///
/// The campaign's predicate runs check no SASS, and the program as generated may store the
/// same wrong value from a register that holds something else (seed 4301's 3042780d: ptxas
/// 13.0.88 -O3 never copies the pair into the register a skipped guarded load targets; the
/// generated kernel's register held another variable, the minimized one's is never written,
/// N-5); the minimized kernel shows it as the SASS check's finding, as an offline retriage of
/// the stored case does.
pub fn stored_undefined(p: &Program, result: &ProgramResult, pre: &str, allow: &Allowances) -> Option<Raw> {
    let words = ProgramResult { sass: Vec::new(), ..result.clone() };
    if !Register::raw_findings(p, &words, allow).iter().any(|x| x.pre_signature() == pre) {
        return None;
    }
    let raws = Register::raw_findings(p, result, allow);
    // Any unexplained word left (its kind may differ from `pre`'s once words are gone).
    if raws.iter().any(|x| x.disagreement.is_some() && x.explained.is_empty()) {
        return None;
    }
    let mut stored =
        raws.into_iter().filter(|x| x.class == FindingClass::UnwrittenRegister && !x.undefined_words.is_empty());
    match (stored.next(), stored.next()) {
        (Some(x), None) => Some(x),
        _ => None,
    }
}

impl Job {
    /// The minimized case `from` of this word difference reduced on while it shows the
    /// difference explained or not ([`AfterReduction`]); `Some` when what is left differs only
    /// in words the emulations explain. `None` for other classes, without emulations, and when
    /// the reduced-on case still has an unexplained word of the finding's kind. The final run
    /// of the reduced-on case has the SASS check (`checker`, one nvdisasm run), so that an
    /// emulation whose entry names a `sass_witness` explains its -O3 words only where that
    /// kernel has the witness, as in the campaign's triage (seed 4201's 33bf5631 and 6c26d195
    /// were reduced on to cases A's "any byte" explained without an `F2I` in the listing).
    fn reduced_to_known(
        &self,
        engine: &mut Engine,
        checker: Option<&crate::sass::Checker>,
        from: &Reduced,
        budget: Budget,
        env: &[(String, String)],
    ) -> Option<AfterReduction> {
        if self.raw.disagreement.is_none() || engine.emulate.is_empty() {
            return None;
        }
        let pre = self.pre_signature();
        let accepts = |p: &str| p == pre || explained_form_of(p, &pre);
        let batch = max_batch(self.raw.class);
        let m = stage(&from.program, &from.inputs, Some(budget), batch, still_shows_where(engine, accepts));
        if m.reduced.reproduced == Some(false) {
            return None;
        }
        let on = &m.reduced;
        let unchecked = std::mem::replace(&mut engine.sass, checker.cloned());
        let result = engine.run(std::slice::from_ref(&on.program), std::slice::from_ref(&on.inputs), "final");
        engine.sass = unchecked;
        let raws = Register::raw_findings(&on.program, &result[0], &engine.allow);
        if raws.iter().any(|x| x.pre_signature() == pre) {
            return None;
        }
        let x = raws.iter().find(|x| explained_form_of(&x.pre_signature(), &pre))?;
        let case = package::Case { original: &self.program, reduced: on, result: &result[0] };
        let (mut finding, case) = package::package(x, &case, &engine.allow, self.seen_at, env);
        finding.source = self.source.clone();
        let signatures = x.explained.iter().map(|&d| package::with_emulation(&finding.signature, d)).collect();
        Some(AfterReduction { finding, case, signatures })
    }
}

/// The minimization threads of a campaign (see the module docs), for cases of kind `C`.
pub struct Minimizer<C: Case> {
    /// Cases with their submission number.
    jobs: SyncSender<(u64, Box<C>)>,
    done: Receiver<(u64, Done)>,
    threads: Vec<JoinHandle<C::Runner>>,
    /// The submission number of the next case queued.
    submitted: Cell<u64>,
    /// The submission number of the next case handed back.
    handed: Cell<u64>,
    /// Cases finished before one submitted earlier: held until it is handed back.
    early: RefCell<BTreeMap<u64, Done>>,
}

impl<C: Case> Minimizer<C> {
    /// Starts one thread per runner of `runners` (each reduces on its own); at most `queue`
    /// cases wait for the first free thread; each is reduced within `budget` when its turn
    /// comes before `deadline` (and stops at it, keeping what it has), packaged as it is
    /// (under `allow`) after it. No runners: every case is refused ([`Minimizer::submit`]).
    pub fn start(
        runners: Vec<C::Runner>,
        budget: Budget,
        queue: usize,
        allow: Allowances,
        env: Vec<(String, String)>,
        deadline: Instant,
    ) -> Minimizer<C> {
        let (jobs, rx) = mpsc::sync_channel::<(u64, Box<C>)>(if runners.is_empty() { 0 } else { queue.max(1) });
        let rx = Arc::new(Mutex::new(rx));
        let (tx, done) = mpsc::channel::<(u64, Done)>();
        let threads = runners
            .into_iter()
            .enumerate()
            .map(|(reducer, mut runner)| {
                let (rx, tx, allow, env) = (rx.clone(), tx.clone(), allow.clone(), env.clone());
                std::thread::spawn(move || {
                    loop {
                        // One thread at a time waits on the queue; the lock is let go once it
                        // has a case (a poisoned lock only says another thread panicked).
                        let next = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
                        let Ok((n, job)) = next else { break };
                        let d = reduce_one(&*job, &mut runner, reducer, budget, &allow, &env, deadline);
                        if tx.send((n, d)).is_err() {
                            break;
                        }
                    }
                    runner
                })
            })
            .collect();
        Minimizer {
            jobs,
            done,
            threads,
            submitted: Cell::new(0),
            handed: Cell::new(0),
            early: RefCell::new(BTreeMap::new()),
        }
    }

    /// Queues `job`; gives it back at once when the queue is full (or no thread runs).
    pub fn submit(&self, job: Box<C>) -> Result<(), Box<C>> {
        let n = self.submitted.get();
        match self.jobs.try_send((n, job)) {
            Ok(()) => {
                self.submitted.set(n + 1);
                Ok(())
            }
            Err(TrySendError::Full((_, job)) | TrySendError::Disconnected((_, job))) => Err(job),
        }
    }

    /// The jobs finished so far, in the order they were submitted: one finished before an
    /// earlier one still being reduced waits for it (triage records a kind's findings in the
    /// order one thread would).
    pub fn finished(&self) -> Vec<Done> {
        let mut early = self.early.borrow_mut();
        early.extend(self.done.try_iter());
        let mut out = Vec::new();
        while let Some(d) = early.remove(&self.handed.get()) {
            out.push(d);
            self.handed.set(self.handed.get() + 1);
        }
        out
    }

    /// Closes the queue, lets the threads finish what is queued (reducing only the jobs whose
    /// turn comes before the deadline) and gives every remaining [`Done`] (in submission order)
    /// and the threads' runners back (for their stage times). A panic of a thread is an error
    /// with its message.
    pub fn finish(self) -> anyhow::Result<(Vec<Done>, Vec<C::Runner>)> {
        let Minimizer { jobs, done, threads, early, .. } = self;
        drop(jobs);
        let mut runners = Vec::with_capacity(threads.len());
        let mut failed = None;
        for t in threads {
            match t.join() {
                Ok(r) => runners.push(r),
                Err(p) => failed = failed.or(Some(super::panic_message(p.as_ref()))),
            }
        }
        if let Some(why) = failed {
            anyhow::bail!("a minimization thread failed: {why}");
        }
        let mut all = early.into_inner();
        all.extend(done.try_iter());
        Ok((all.into_values().collect(), runners))
    }
}

/// One case through a minimization thread (`reducer`: which): reduced on `runner` within
/// `budget` and by `deadline` when its turn comes before `deadline`, packaged as it is after.
fn reduce_one<C: Case>(
    job: &C,
    runner: &mut C::Runner,
    reducer: usize,
    budget: Budget,
    allow: &Allowances,
    env: &[(String, String)],
    deadline: Instant,
) -> Done {
    let past = Instant::now() >= deadline;
    let pre = job.kind_key();
    let family = job.family_key();
    let (r, time) = measure(|| {
        if past {
            let (finding, case) = job.package_as_is(allow, env);
            return Reduction { finding, case, calls: 0, runs: 0, refused: 0, known_after_reduction: None };
        }
        // A reduction under way at the campaign's end stops there with what it has.
        job.reduce(runner, Budget { until: Some(deadline), ..budget }, env)
    });
    let Reduction { finding, case, calls, runs, refused, known_after_reduction } = r;
    Done {
        batch: job.batch(),
        pre,
        finding,
        case,
        minimized: !past,
        calls,
        runs,
        refused,
        time,
        reducer,
        family,
        known_after_reduction,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use oracle::program::text::parse_case;

    /// A four-instruction case, written as a case file.
    fn case() -> (Program, Inputs) {
        let inputs: String = (0..32).map(|t| format!("// t{t}: 00000001 00000000 00000000 00000000\n")).collect();
        parse_case(&format!(
            "// ptxdiff-program name=m target=sm_90@8.7 threads=32 inputs=4 outputs=1 shared=0\n// begin body\n\
             ld.global.b32 %r1, [%in];\nxor.b32 %r2, %r1, 7;\nadd.u32 %r3, %r2, %r1;\nst.global.b32 [%out], %r3;\n\
             // end body\n// ptxdiff-inputs\n{inputs}"
        ))
        .unwrap()
    }

    /// A minimizer over the in-process oracle only, and a job whose raw finding is a crash the
    /// oracle never reproduces (so the reducer keeps the case as it is).
    pub(in crate::fuzz) fn oracle_minimizer(scratch: &std::path::Path, deadline: Instant) -> (Minimizer<Job>, Job) {
        use crate::backend::{pool::Devices, Registry, Settings};
        let registry = Registry::new(Settings {
            ptxas: Vec::new(),
            devices: Devices::List(vec![0]),
            workers: Some(1),
            allow: oracle::semantics::Allowances::all(),
            sweep_timeout: std::time::Duration::from_secs(10),
        });
        let (p, i) = case();
        let mut engine =
            Engine::new(&registry, &["oracle".to_string()], p.target, None, scratch.to_path_buf()).unwrap();
        let mut result = engine.run(std::slice::from_ref(&p), std::slice::from_ref(&i), "t").remove(0);
        result.failures.push(crate::backend::Failure::Crash {
            by: "cuda:jit".into(),
            how: "hang".into(),
            message: "timed out".into(),
        });
        let raw = Register::raw_findings(&p, &result, &engine.allow).remove(0);
        let job = Job { batch: 7, raw, program: p, inputs: i, result, seen_at: 1.0, source: None };
        let allow = engine.allow.clone();
        (Minimizer::start(vec![Reducer::new(engine)], Budget::calls(20), 4, allow, Vec::new(), deadline), job)
    }

    /// Two findings alike but for the instruction their signature names are two kinds in
    /// triage (the first three of each are minimized), one pre-signature while minimizing.
    #[test]
    fn findings_of_different_instructions_are_different_kinds() {
        let dir = tempfile::tempdir().unwrap();
        let (_m, job) = oracle_minimizer(dir.path(), Instant::now());
        let mut other = job.clone();
        let text = oracle::program::text::case(&job.program, &job.inputs).replace("add.u32", "sub.u32");
        (other.program, other.inputs) = parse_case(&text).unwrap();
        assert_eq!(job.pre_signature(), other.pre_signature());
        let (a, b) = (job.kind_key(), other.kind_key());
        assert!(a != b && a.starts_with(&job.pre_signature()) && b.starts_with(&job.pre_signature()), "{a} / {b}");
        assert_eq!(job.kind_key(), job.clone().kind_key(), "a function of the case");
    }

    #[test]
    fn queued_jobs_are_minimized_before_the_deadline_and_packaged_as_is_after() {
        let dir = tempfile::tempdir().unwrap();
        let (m, job) = oracle_minimizer(dir.path(), Instant::now() + std::time::Duration::from_secs(3600));
        m.submit(Box::new(job.clone())).unwrap();
        let (done, _) = m.finish().unwrap();
        assert_eq!(done.len(), 1);
        assert!(done[0].minimized && done[0].calls > 0, "{:?}", done[0].calls);
        assert_eq!((done[0].batch, done[0].pre.clone()), (7, job.kind_key()));
        assert!(job.kind_key().starts_with("crash|cuda:jit|hang"), "{}", job.kind_key());

        let (m, job) = oracle_minimizer(dir.path(), Instant::now());
        m.submit(Box::new(job.clone())).unwrap();
        m.submit(Box::new(job)).unwrap();
        let (done, _) = m.finish().unwrap();
        assert_eq!(done.len(), 2, "every job comes back");
        for d in &done {
            assert!(!d.minimized && d.calls == 0);
            assert_eq!(d.finding.signature.class, crate::findings::FindingClass::Crash);
            assert_eq!(d.finding.minimized_instructions, d.finding.original_instructions);
        }
    }

    #[test]
    fn off_is_unchanged_and_calls_nothing() {
        let (p, i) = case();
        let m = stage(&p, &i, None, MAX_BATCH, |_| panic!("no predicate call with minimization off"));
        assert_eq!((m.reduced.program, m.reduced.inputs, m.reduced.calls), (p, i, 0));
    }

    #[test]
    fn on_reduces_while_the_predicate_holds() {
        let (p, i) = case();
        // "Still shows": the program still has an `xor`.
        let has_xor =
            |c: &Program, _: &Inputs| c.body.iter().any(|s| oracle::program::text::stmt_line(s).contains("xor"));
        let m = stage(&p, &i, Some(Budget::calls(500)), 4, |cands| cands.iter().position(|(c, i)| has_xor(c, i)));
        assert!(has_xor(&m.reduced.program, &m.reduced.inputs));
        assert!(m.reduced.after < p.instruction_count(), "{}", m.reduced.program.module_text());
        assert!(m.reduced.calls > 0 && m.seconds >= 0.0);
    }

    /// A case's own time bound (`--minimize-time`) stops its reduction with what it has, even
    /// with calls left: here nothing beyond the starting case.
    #[test]
    fn a_case_past_its_own_time_keeps_what_it_has() {
        let (p, i) = case();
        let has_xor =
            |c: &Program, _: &Inputs| c.body.iter().any(|s| oracle::program::text::stmt_line(s).contains("xor"));
        let bounded = Budget { seconds: Some(std::time::Duration::ZERO), ..Budget::calls(500) };
        let m = stage(&p, &i, Some(bounded), 4, |cands| cands.iter().position(|(c, i)| has_xor(c, i)));
        assert_eq!((m.reduced.calls, m.reduced.after), (1, p.instruction_count()));
    }
}

#[cfg(test)]
mod pool_tests;
#[cfg(test)]
mod stored_undefined_tests;
