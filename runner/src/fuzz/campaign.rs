//! The one campaign loop of `ptxdiff fuzz`, for both kinds of program: register programs
//! ([`super::register`]) and memory programs (`fuzz --async`, [`super::async_campaign`]). What
//! the two share is said here once; what differs (how a batch is generated and prepared, run on
//! the backends and compared, what a batch adds beside its findings, the summary) is each
//! kind's [`CampaignKind`].
//!
//! The loop: known findings loaded, the run directory locked ([`super::lock_run_dir`]), the
//! campaign state opened fresh or resumed ([`super::open_state`]), the kind's backends started,
//! the adaptive swarm started from the state ([`adapt`]), the finding store opened and rolled
//! back to the state's checkpoint ([`super::open_store`]), the minimization threads started
//! ([`Minimizer`]), and batches prepared ahead ([`Ahead`]) while the kind runs the current one
//! and hands every raw finding to triage ([`BatchContext::triage`]). After each batch the
//! minimizer's finished cases are recorded, the swarm learns from the batch's outcomes, and the
//! state is written when the batch's findings are settled ([`Triage::settled_state`]). When the
//! time or the programs are up: the preparing threads stopped, the queued minimizations
//! finished within the campaign's time, the stage table, triage report and swarm report printed
//! (with `progress`), the state, the store's run record and the HTML report written.
//!
//! Invariants: those of [`super`] (a finding on disk before the state that counts it; the state
//! written only at settled batches, so a resumed campaign finds what an uninterrupted one
//! finds; a panic while preparing is an error); the kind sees each raw finding's triage in
//! program order within a batch, and every stage time ends up in the state's `stages`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use oracle::semantics::Allowances;

use super::adapt;
use super::ahead::Ahead;
use super::engine::{add_stage, measure, StageTime};
use super::minimize::{Case, Minimizer};
use super::triage::Triage;
use super::{lock_run_dir, open_state, open_store, State, PLAIN_STATUS_EVERY, STATE};
use crate::atomic_write::write_atomic;
use crate::findings::{FindingStore, KnownSet, RunMeta};

/// What the loop needs of a campaign's options, whatever its kind.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Run directory.
    pub run_dir: PathBuf,
    /// Known findings directory.
    pub known_dir: PathBuf,
    /// Stop after this long.
    pub time: Duration,
    /// Stop after this many programs this session.
    pub max_programs: Option<u64>,
    /// Continue the campaign in `run_dir`.
    pub resume: bool,
    /// Adapt the swarm weights (`--adapt`; only where the kind's configuration is a swarm).
    pub adapt: bool,
    /// Print status lines and the end-of-campaign reports on stderr.
    pub progress: bool,
}

/// What one batch gave the loop back: its index and, per program, the swarm switches it was
/// generated with (empty lists when the swarm does not adapt).
pub struct Ran {
    /// The session's batch index.
    pub b: u64,
    /// Per program of the batch, its swarm switches.
    pub switches: Vec<Vec<&'static str>>,
    /// Whether the batch went through triage (a memory batch without GPU backends does not:
    /// then no `triage` stage is counted for it).
    pub triaged: bool,
}

/// What the kind's batch step may use: the campaign state, the stage times, and triage.
pub struct BatchContext<'a, C: Case> {
    /// The campaign state (the kind counts its programs and extras into it).
    pub state: &'a mut State,
    /// This session's stage times.
    pub stages: &'a mut BTreeMap<String, StageTime>,
    tri: &'a mut Triage,
    store: &'a mut FindingStore,
    minimizer: Option<&'a Minimizer<C>>,
    allow: &'a Allowances,
    env: &'a [(String, String)],
    outcomes: Vec<Option<adapt::Outcome>>,
    triaging: StageTime,
    start: Instant,
    prior_s: f64,
}

impl<C: Case> BatchContext<'_, C> {
    /// Seconds since the campaign (over all sessions) started: when a raw finding is seen.
    pub fn seen_at(&self) -> f64 {
        self.prior_s + self.start.elapsed().as_secs_f64()
    }

    /// The store's folder of case files.
    pub fn cases(&self) -> PathBuf {
        self.store.case_path("x").parent().map(std::path::Path::to_path_buf).unwrap_or_default()
    }

    /// Triages one raw finding of the batch's program `program` ([`Triage::raw`]): what it is
    /// worth goes to the adaptive swarm, its time to the `triage` stage.
    pub fn triage(&mut self, program: usize, case: C) -> anyhow::Result<()> {
        let (res, t) = measure(|| self.tri.raw(self.store, self.minimizer, case, self.allow, self.env));
        if self.outcomes.len() <= program {
            self.outcomes.resize(program + 1, None);
        }
        adapt::Outcome::merge(&mut self.outcomes[program], res?);
        self.triaging.add(t);
        Ok(())
    }
}

/// What a session has when it ends, for the kind's summary.
pub struct Ended<'a> {
    /// The campaign state as written.
    pub state: State,
    /// The finding store.
    pub store: &'a FindingStore,
    /// Triage, with this session's counts.
    pub tri: &'a Triage,
    /// This session's stage times.
    pub stages: BTreeMap<String, StageTime>,
    /// Seconds this session.
    pub seconds: f64,
    /// Programs run this session.
    pub programs: u64,
}

/// One kind of campaign: what the loop ([`run`]) asks of register programs and memory programs.
pub trait CampaignKind {
    /// A batch prepared ahead.
    type Batch: Send + 'static;
    /// A raw finding as triage and the minimization threads take it.
    type Case: Case;
    /// What the campaign returns.
    type Summary;
    /// A live status line (`\r` on a terminal, a last line when the campaign ends) rather than
    /// a plain line every [`PLAIN_STATUS_EVERY`].
    const LIVE_STATUS: bool;
    /// The stage name of the minimization threads' time (summed over the threads).
    const MINIMIZATION_STAGE: &'static str;

    /// Whether the generator configuration is a swarm one (the swarm may adapt).
    fn swarm_config(&self) -> bool;
    /// The environment the findings and the run record name (backends, versions).
    fn environment(&self) -> Vec<(String, String)>;
    /// The run record of a new campaign (`env`: [`CampaignKind::environment`]).
    fn run_meta(&self, env: &[(String, String)]) -> RunMeta;
    /// The allowances the comparison and triage use.
    fn allow(&self) -> Allowances;
    /// The tools triage checks a crash's kernel with against the known crash mechanisms
    /// ([`super::known_crash`]); `None` (the default): crashes are matched by key only.
    fn crash_check(&self) -> Option<super::known_crash::CrashCheck> {
        None
    }
    /// The minimization threads (none: minimization off), their reductions ending by
    /// `deadline`.
    fn minimizer(
        &mut self,
        deadline: Instant,
        env: &[(String, String)],
    ) -> anyhow::Result<Option<Minimizer<Self::Case>>>;
    /// Starts the threads that prepare the session's batches `first, first + 1, …` ahead
    /// (generated with the weights of `swarm` where `adapting`).
    fn prepare_ahead(&mut self, first: u64, swarm: Arc<adapt::Shared>, adapting: bool) -> Ahead<Self::Batch>;
    /// Runs a prepared batch on the backends (`waited`: how long the loop waited for it),
    /// compares, and hands each raw finding to [`BatchContext::triage`]; counts the batch's
    /// programs and extras into the state.
    fn run_batch(
        &mut self,
        batch: Self::Batch,
        waited: StageTime,
        cx: &mut BatchContext<'_, Self::Case>,
    ) -> anyhow::Result<Ran>;
    /// Adds the session's extras to a state about to be written at a settled batch.
    fn checkpoint(&mut self, snapshot: &mut State);
    /// After a settled batch's state is written.
    fn checkpointed(&mut self, _snapshot: &State) -> anyhow::Result<()> {
        Ok(())
    }
    /// The status line.
    fn status_line(&self, state: &State, start: Instant, s0: u64, tri: &Triage) -> String;
    /// The preparing threads have ended.
    fn preparation_done(&mut self) {}
    /// A minimization thread has ended (called once per thread): what its runner has to add
    /// to `stages`.
    fn minimizer_done(&mut self, _runner: <Self::Case as Case>::Runner, _stages: &mut BTreeMap<String, StageTime>) {}
    /// The kind's own stage times of the session (its backends).
    fn session_stages(&mut self, stages: &mut BTreeMap<String, StageTime>);
    /// The last changes to the state before it is written at the campaign's end (`env`:
    /// [`CampaignKind::environment`]).
    fn close(&mut self, state: &mut State, store: &FindingStore, env: &[(String, String)], progress: bool);
    /// More fields of the run record's extras at the end (beside programs and duration).
    fn meta_extra(&self, _state: &State) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The campaign's summary.
    fn summary(self, ended: Ended<'_>) -> Self::Summary;
}

/// The known findings of `dir` (none when it is missing).
fn load_known(dir: &std::path::Path) -> anyhow::Result<KnownSet> {
    if dir.is_dir() {
        KnownSet::load(dir).with_context(|| format!("loading known findings from {}", dir.display()))
    } else {
        Ok(KnownSet::empty())
    }
}

/// Runs a campaign of the kind `open` starts: `fresh` is the state of a new campaign; `open`
/// takes the opened state (fresh or resumed) and the known findings and returns the kind with
/// its backends started.
pub fn run<K: CampaignKind>(
    plan: &Plan,
    fresh: State,
    open: impl FnOnce(&mut State, &KnownSet) -> anyhow::Result<K>,
) -> anyhow::Result<K::Summary> {
    let known = load_known(&plan.known_dir)?;
    let _lock = lock_run_dir(&plan.run_dir, plan.resume)?;
    let state_path = plan.run_dir.join(STATE);
    let mut state = open_state(&state_path, plan.resume, fresh)?;
    let mut kind = open(&mut state, &known)?;
    let adapting = plan.adapt && kind.swarm_config();
    if adapting && state.swarm.is_none() {
        state.swarm = Some(adapt::Swarm::starting_at(state.next_batch));
    }
    let swarm = Arc::new(adapt::Shared::new(state.swarm.clone().unwrap_or_default()));
    if !plan.resume && state.swarm.is_some() {
        // With the swarm's starting weights.
        write_atomic(&state_path, &serde_json::to_string_pretty(&state)?)?;
    }
    let env = kind.environment();
    let mut store = open_store(plan.resume, &plan.run_dir, known, || kind.run_meta(&env))?;
    // What the batches run again had recorded before the last session ended is taken back.
    if let Some(c) = state.checkpoint.as_ref().filter(|_| plan.resume) {
        store.rollback(c)?;
    }
    let allow = kind.allow();
    let start = Instant::now();
    // Campaign seconds before this session: findings are timed from the campaign's start.
    let prior_s = state.seconds;
    let s0 = state.programs;
    let mut tri = Triage::resumed(&state.kinds);
    tri.crash_check = kind.crash_check();
    let mut stages: BTreeMap<String, StageTime> = BTreeMap::new();
    let minimizer = kind.minimizer(start + plan.time, &env)?;
    let producer = kind.prepare_ahead(state.next_batch, swarm.clone(), adapting);
    let mut last_status = Instant::now();
    let tty = K::LIVE_STATUS && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let done =
        |state: &State| start.elapsed() >= plan.time || plan.max_programs.is_some_and(|m| state.programs - s0 >= m);
    while !done(&state) {
        let t_wait = Instant::now();
        // The time is up while a batch is still being prepared: it is abandoned (its ptxas
        // processes killed), not counted, and run again by `--resume`.
        let Ok(Some(batch)) = producer.recv_until(start.checked_add(plan.time)) else {
            break;
        };
        let waited = StageTime { wall_s: t_wait.elapsed().as_secs_f64(), cpu_s: 0.0 };
        let mut cx = BatchContext {
            state: &mut state,
            stages: &mut stages,
            tri: &mut tri,
            store: &mut store,
            minimizer: minimizer.as_ref(),
            allow: &allow,
            env: &env,
            outcomes: Vec::new(),
            triaging: StageTime::default(),
            start,
            prior_s,
        };
        let ran = kind.run_batch(batch, waited, &mut cx)?;
        let (mut outcomes, mut triaging) = (cx.outcomes, cx.triaging);
        if ran.triaged {
            // What the minimizer finished meanwhile (it never holds up the next batch).
            for d in minimizer.iter().flat_map(Minimizer::finished) {
                let (res, t) = measure(|| tri.done(&mut store, d));
                res?;
                triaging.add(t);
            }
            add_stage(&mut stages, "triage", triaging);
        }
        let b = ran.b;
        state.next_batch = b + 1;
        if adapting {
            outcomes.resize(ran.switches.len(), None);
            swarm.finish_batch(b, &ran.switches, &outcomes);
            state.swarm = Some(swarm.snapshot(state.next_batch));
        }
        // Written only where nothing is being minimized: then it counts exactly the batches
        // before `next_batch` (programs, kinds, the store's counts), and a resumed campaign
        // takes back whatever later batches recorded and runs them again.
        // The batch's known hits and duplicates on disk before its checkpoint.
        store.flush()?;
        if let Some(mut snapshot) = tri.settled_state(&state, &store, start.elapsed().as_secs_f64()) {
            kind.checkpoint(&mut snapshot);
            write_atomic(&state_path, &serde_json::to_string_pretty(&snapshot)?)?;
            kind.checkpointed(&snapshot)?;
        }
        let every = if tty { Duration::from_millis(500) } else { PLAIN_STATUS_EVERY };
        if plan.progress && last_status.elapsed() >= every {
            let line = kind.status_line(&state, start, s0, &tri);
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
            last_status = Instant::now();
        }
    }
    // A panic while preparing batches ends the campaign early: it is an error, not a summary.
    producer.finish().map_err(super::preparation_failed)?;
    kind.preparation_done();
    // Queued minimizations finish within the campaign's time; later ones are stored as they are.
    if let Some(m) = minimizer {
        let (finished, runners) = m.finish()?;
        for d in finished {
            let (res, t) = measure(|| tri.done(&mut store, d));
            res?;
            add_stage(&mut stages, "triage", t);
        }
        for runner in runners {
            kind.minimizer_done(runner, &mut stages);
        }
    }
    add_stage(&mut stages, K::MINIMIZATION_STAGE, tri.minimization);
    kind.session_stages(&mut stages);
    if plan.progress && K::LIVE_STATUS {
        let line = kind.status_line(&state, start, s0, &tri);
        if tty {
            eprintln!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if plan.progress {
        eprintln!("{}", super::stage_table(&stages, seconds));
        eprint!("{}", tri.counts.report(super::MINIMIZE_PER_KIND));
        if let Some(s) = state.swarm.as_ref().filter(|s| !s.stats.is_empty()) {
            eprint!("adaptive swarm (which switches paid off):\n{}", s.report());
        }
    }
    state.seconds += seconds;
    state.triage.add(&tri.counts);
    if let Some(kinds) = tri.settled_kinds() {
        state.kinds = kinds;
        state.checkpoint = Some(store.checkpoint());
    }
    for (name, t) in &stages {
        add_stage(&mut state.stages, name, *t);
    }
    kind.close(&mut state, &store, &env, plan.progress);
    write_atomic(&state_path, &serde_json::to_string_pretty(&state)?)?;
    store.flush()?;
    let extra = kind.meta_extra(&state);
    store.update_meta(|m| {
        m.extra.insert("programs".into(), state.programs.to_string());
        m.extra.extend(extra);
        m.extra.insert("duration (s)".into(), format!("{:.1}", state.seconds));
    })?;
    crate::findings::render::write_all(&plan.run_dir, store.doc(), None)?;
    let programs = state.programs - s0;
    Ok(kind.summary(Ended { state, store: &store, tri: &tri, stages, seconds, programs }))
}
