//! Running programs on every selected backend: the oracle in process (the reference), each
//! distinct offline assembly the backends declare (one module per batch and [`Build`],
//! failures attributed to single programs), the SASS check of each -O3 module when the engine
//! has one ([`Engine::sass`]: one nvdisasm run per module, on the preparing thread of that
//! assembly, so beside the backends' run of the batch before; its reads of never-written
//! registers are attributed to programs by kernel name, [`ProgramResult::sass`], and so are
//! its kernels' SASS n-grams, [`Prepared::coverage`], and which `sass_witness` globs of the
//! emulated known entries each kernel has, [`SassCheck::witnessed`]) and the
//! backends that run programs (GPU or `oracle-worker`; concurrently, one thread each; each
//! kernel of a batch may run [`KERNEL_TIMEOUT`] before its worker names it as hung: that
//! program fails alone and the batch's others run again), narrowing any other failure down to
//! single programs by halving the batch; then, on every program
//! some backend disagrees on, the oracle emulating the known root causes of [`Engine::emulate`]
//! ([`ProgramResult::emulated`]), so that triage can tell the words they explain (an emulation
//! whose entry names a SASS witness applies to an offline-assembled backend only where that
//! backend's checked kernel has it; without a listing, as for -O0 and the JIT, as before).
//! A minimization engine's runs check nothing: it judges the emulations by its case's batch
//! check instead ([`Engine::witnessed`]), so its predicate labels words as the campaign did.
//!
//! The same engine serves whole batches and the minimizer's one-program predicate calls. A
//! minimization thread's engine may have an end ([`Engine::until`]): no backend batch runs past
//! it, so a reduction past its deadline stops within [`RUN_GRACE`] however slow its candidates.
//!
//! Every stage measures itself ([`StageTime`]: wall seconds, and CPU seconds of the threads
//! that did the work, from `CLOCK_THREAD_CPUTIME_ID` through `libc`): the oracle, each
//! assembly and each SASS check per prepared batch ([`Prepared::stages`]), each backend that
//! runs programs per batch ([`Engine::stages`], `run on NAME`: for `cuda:jit` that is the JIT
//! and the GPU run together, as the worker reports one time for both). Work done in other processes (ptxas,
//! the worker backends) shows in wall time only; [`children_cpu_s`] gives the CPU time of the
//! child processes already waited for (the ptxas and nvdisasm runs).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use oracle::isa::Target;
use oracle::program::interp::{self, InterpError, Plant, RunOptions};
use oracle::program::{text, Inputs, Program};
use oracle::semantics::{Allowances, Deviation, Expected};

use super::assemble::{assemble, Assembled};
pub use crate::backend::Failure;
use crate::backend::{label_suffix, Backend, BackendError, Build, Failed, ProgramBatch, Registry, Role};
use crate::diff::program::Observed;
use crate::findings::Emulations;
use crate::sass::{Checker, Unwritten};
use crate::worker::KernelRun;

/// The optimization level whose SASS the check reads (issue 29: the -O3 cubin, where ptxas
/// drops and merges what -O0 keeps).
pub const SASS_LEVEL: u8 = 3;

/// Wall and CPU seconds spent in one stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StageTime {
    /// Wall-clock seconds (summed over the batches or cases the stage handled).
    pub wall_s: f64,
    /// CPU seconds of the threads of this process that did the stage's work.
    pub cpu_s: f64,
}

impl StageTime {
    /// Adds `other` to this one.
    pub fn add(&mut self, other: StageTime) {
        self.wall_s += other.wall_s;
        self.cpu_s += other.cpu_s;
    }
}

/// Adds `t` to stage `name` of `stages`.
pub fn add_stage(stages: &mut BTreeMap<String, StageTime>, name: &str, t: StageTime) {
    stages.entry(name.to_string()).or_default().add(t);
}

/// CPU seconds the calling thread has used so far (0 where the clock is unavailable).
pub fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `clock_gettime` writes one `timespec` through the valid pointer it is given.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// CPU seconds (user + system) of this process's child processes that have been waited for.
pub fn children_cpu_s() -> f64 {
    // SAFETY: `rusage` is plain data; all-zero bytes are a valid value of it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `getrusage` writes one `rusage` through the valid pointer it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) } != 0 {
        return 0.0;
    }
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    s(ru.ru_utime) + s(ru.ru_stime)
}

/// Runs `f` on this thread and gives its result and its wall and CPU time.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, StageTime) {
    let (wall, cpu) = (Instant::now(), thread_cpu_s());
    let out = f();
    (out, StageTime { wall_s: wall.elapsed().as_secs_f64(), cpu_s: thread_cpu_s() - cpu })
}

/// Everything known about one program after a run.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    /// The oracle's expectation per thread (an error means the program broke an invariant).
    pub expected: Result<Vec<Expected>, InterpError>,
    /// Outputs per worker backend.
    pub observed: Vec<Observed>,
    /// Failures.
    pub failures: Vec<Failure>,
    /// The SASS check of its kernel in each assembly checked ([`SASS_LEVEL`]; empty when the
    /// engine has no checker).
    pub sass: Vec<SassCheck>,
    /// The oracle emulating the engine's known root causes ([`Engine::emulate`]), run when some
    /// backend's words differ from `expected`: per set of backends the same emulations apply
    /// to, the run of them all and its isolation runs ([`emulate`]; empty otherwise, or when it
    /// refused the program).
    pub emulated: Vec<Emulated>,
}

/// What the oracle emulating known root causes gives for one program, for some backends.
#[derive(Clone, Debug)]
pub struct Emulated {
    /// The backends whose words it is compared with (the runs of one set of backends: all
    /// their emulations together first, then the isolation runs, [`emulate`]).
    pub backends: Vec<String>,
    /// Each thread's output words under the emulations.
    pub expected: Vec<Expected>,
    /// The emulations that changed a value, in triage order.
    pub fired: Vec<Deviation>,
}

/// The oracle emulating, for each of `backends`, the emulations of `emulations` that apply to
/// it: per distinct set (none for a backend no emulation applies to), one run of them all, and
/// — where two or more fired — the isolation runs: each fired emulation alone and all of the
/// set but it. A word is explained when any run of its backend gives it
/// ([`super::package`]): an emulation that fires where ptxas compiled right (its scope is
/// wider than ptxas's decision) changes words the GPU computed by the spec, and in the run of
/// them all it can change a word another emulation explains (seed 3903's 43d72870: M fired on
/// a mask ptxas folds right and spoiled A's word); the isolation runs keep that explanation.
/// `sass`: the program's SASS checks; an emulation whose entry names a `sass_witness` applies
/// to a backend whose assembly's check is among them only when that kernel has the witness
/// ([`SassCheck::witnessed`], [`Emulations::for_backend`]; the 4201 audit's 33bf5631 and
/// 6c26d195: A's "any byte" explained words of -O3 kernels without any `F2I`). A backend
/// without a check there (-O0, the JIT, no nvdisasm) is scoped as before.
pub fn emulate<'a>(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    emulations: &Emulations,
    backends: impl IntoIterator<Item = &'a str>,
    sass: &[SassCheck],
) -> Result<Vec<Emulated>, InterpError> {
    let mut groups: Vec<(Vec<Deviation>, Vec<String>)> = Vec::new();
    for b in backends {
        let witnessed =
            crate::backend::cuda::assembly_of(b).and_then(|by| sass.iter().find(|c| c.by == by)).map(|c| &c.witnessed);
        let ds = emulations.for_backend(b, witnessed);
        if ds.is_empty() || groups.iter().any(|(_, bs)| bs.iter().any(|x| x == b)) {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| *g == ds) {
            Some((_, bs)) => bs.push(b.to_string()),
            None => groups.push((ds, vec![b.to_string()])),
        }
    }
    let mut runs = Vec::new();
    for (ds, backends) in groups {
        let run = |set: Vec<Deviation>| -> Result<Emulated, InterpError> {
            let (expected, fired) = interp::run_emulating(p, inputs, &allow.clone().emulating_all(set))?;
            Ok(Emulated { backends: backends.clone(), expected, fired })
        };
        let all = run(ds.clone())?;
        let fired = all.fired.clone();
        runs.push(all);
        if fired.len() >= 2 {
            for &d in &fired {
                runs.push(run(vec![d])?);
                runs.push(run(ds.iter().copied().filter(|&x| x != d).collect())?);
            }
        }
    }
    Ok(runs)
}

/// `checks`, plus a stand-in check (no reads, no listing, the witnessed globs) for each
/// assembly of `witnessed` that `checks` lacks ([`Engine::witnessed`]).
fn with_stand_ins<'a>(
    checks: &'a [SassCheck],
    witnessed: &BTreeMap<String, BTreeSet<String>>,
) -> std::borrow::Cow<'a, [SassCheck]> {
    let missing: Vec<SassCheck> = witnessed
        .iter()
        .filter(|(by, _)| !checks.iter().any(|c| &c.by == *by))
        .map(|(by, w)| SassCheck { by: by.clone(), reads: Vec::new(), listing: String::new(), witnessed: w.clone() })
        .collect();
    if missing.is_empty() {
        return std::borrow::Cow::Borrowed(checks);
    }
    std::borrow::Cow::Owned(checks.iter().cloned().chain(missing).collect())
}

/// The SASS check of one program's kernel in one assembly.
#[derive(Clone, Debug)]
pub struct SassCheck {
    /// The assembly (`ptxas -O3`, `ptxas-13.0 -O3`).
    pub by: String,
    /// Its reads of never-written registers (none: the kernel is clean).
    pub reads: Vec<Unwritten>,
    /// The kernel's SASS when it has such reads (empty otherwise).
    pub listing: String,
    /// The `sass_witness` globs of the emulated known entries that some instruction of the
    /// kernel matches ([`crate::sass::witness`]): all that is kept of the listing for
    /// [`emulate`] (a few globs at most, so memory stays bounded without knowing yet which
    /// programs will need emulating).
    pub witnessed: BTreeSet<String>,
}

/// The backends of a campaign.
pub struct Engine {
    /// Time per stage this engine ran: `run on NAME` per backend that runs programs (loading,
    /// running, copying), plus what the campaign adds.
    pub stages: BTreeMap<String, StageTime>,
    /// Target.
    pub target: Target,
    backends: Vec<Box<dyn Backend>>,
    /// Allowances for the oracle.
    pub allow: Allowances,
    /// A planted oracle bug (tests).
    pub plant: Option<Plant>,
    /// Where cubins go.
    pub scratch: PathBuf,
    /// Per-job timeout for a batch: the most a batch may take; once a backend's batches have
    /// been timed, its first run of a batch gets less (`RunLimit::first`) and the halves of a
    /// failed batch less again (`RunLimit::narrowed`).
    pub timeout: Duration,
    /// Per backend, the typical wall time of a batch it ran through (a moving average of its
    /// successful whole-batch runs): what the timeouts of its next batches scale with.
    typical: BTreeMap<String, Duration>,
    /// No backend batch runs past this (a minimization thread's engine: its reduction's end
    /// plus [`RUN_GRACE`]): each batch's timeout is cut to the time left, a batch that would
    /// start after it does not run, and one that fails once it has passed (the cut timeout may
    /// be why) is neither halved nor counted as a failure; those programs get no outcome on
    /// that backend. `None` (the default): the timeouts as they are.
    pub until: Option<Instant>,
    /// Backends asked for that cannot run here, with why.
    pub unavailable: Vec<(String, String)>,
    /// Why the GPU backends are unavailable, if a GPU was asked for and none is usable.
    pub gpu_unavailable: Option<String>,
    /// The SASS check of each [`SASS_LEVEL`] module (`None`: off, the default).
    pub sass: Option<Checker>,
    /// The known root causes to emulate on every program some backend disagrees on, each for
    /// the backends its entries admit (those `corpus/known/` names,
    /// [`crate::findings::KnownSet::emulation_scopes`]; empty: none, the default).
    pub emulate: Emulations,
    /// Per assembly (`ptxas -O3`), the witnessed globs ([`SassCheck::witnessed`]) that stand in
    /// for a check a run of this engine lacks when [`emulate`] scopes the emulations: a
    /// minimization engine's, from its case's batch run (its predicate runs check nothing), so
    /// that an emulation the batch's listing kept out of a backend stays out of it while the
    /// case is reduced (seed 4501's aa2046a3 and b4024b2c: A, admitted to -O3 without the
    /// listing, explained the -O3 words the campaign kept new, and the cases were stored "not
    /// shown again alone", unminimized). A run's own check comes first. Empty: none, the default.
    pub witnessed: BTreeMap<String, BTreeSet<String>>,
}

impl Engine {
    /// Builds the backends `names` from `registry` (the oracle is implied); backends that
    /// cannot run here are left out and listed in `unavailable`. Unknown names are an error.
    pub fn new(
        registry: &Registry,
        names: &[String],
        target: Target,
        plant: Option<Plant>,
        scratch: PathBuf,
    ) -> Result<Engine, BackendError> {
        let crate::backend::Selection { backends, unavailable } = registry.build_all(names)?;
        Ok(Engine {
            stages: BTreeMap::new(),
            target,
            backends,
            allow: registry.context().settings.allow.clone(),
            plant,
            scratch,
            timeout: Duration::from_secs(120),
            typical: BTreeMap::new(),
            until: None,
            unavailable,
            gpu_unavailable: registry.context().gpu_unavailable(),
            sass: None,
            emulate: Emulations::default(),
            witnessed: BTreeMap::new(),
        })
    }

    /// The tools that check a crash's kernel against the known crash mechanisms
    /// ([`super::known_crash`]): the SASS checker ([`Engine::sass`]) and the unlabelled ptxas
    /// of the offline-assembled backends; `None` without either.
    pub fn crash_check(&self) -> Option<super::known_crash::CrashCheck> {
        let checker = self.sass.clone()?;
        let ptxas = self.backends.iter().flat_map(|b| b.builds()).find(|b| b.label.is_none())?.ptxas;
        Some(super::known_crash::CrashCheck { ptxas, checker })
    }

    /// Whether some backend assembles at [`SASS_LEVEL`]: the modules the SASS check reads.
    pub fn has_sass_level(&self) -> bool {
        self.backends.iter().flat_map(|b| b.builds()).any(|b| b.opt == SASS_LEVEL)
    }

    /// The names of the backends that run.
    pub fn backend_names(&self) -> Vec<String> {
        self.backends.iter().map(|b| b.name()).collect()
    }

    /// Environment lines of the backends (device, driver, ptxas versions).
    pub fn environment(&self) -> Vec<(String, String)> {
        crate::backend::environment(&self.backends)
    }

    /// What batch preparation needs (shareable with the preparing threads).
    pub fn preparer(&self) -> Preparer {
        let mut builds: Vec<Build> = Vec::new();
        for b in self.backends.iter().flat_map(|b| b.builds()) {
            if !builds.iter().any(|x| x.label() == b.label()) {
                builds.push(b);
            }
        }
        builds.sort_by_key(|b| (b.label.clone(), b.opt));
        Preparer {
            target: self.target,
            builds,
            allow: self.allow.clone(),
            plant: self.plant,
            scratch: self.scratch.clone(),
            sass: self.sass.clone(),
            witnesses: self.emulate.sass_witnesses(),
        }
    }

    /// Runs `programs` on every backend.
    pub fn run(&mut self, programs: &[Program], inputs: &[Inputs], tag: &str) -> Vec<ProgramResult> {
        let never = AtomicBool::new(false);
        let Some(prepared) = self.preparer().prepare(programs, inputs, tag, &never) else {
            unreachable!("preparation stops only when asked to")
        };
        self.execute(programs, inputs, prepared)
    }

    /// Runs a prepared batch on the backends that run programs ([`Engine::run_prepared`]),
    /// then the emulating oracle on the programs some backend disagrees on
    /// ([`Emulator::emulate_differing`], timed as [`EMULATION_STAGE`]).
    pub fn execute(&mut self, programs: &[Program], inputs: &[Inputs], prepared: Prepared) -> Vec<ProgramResult> {
        let mut results = self.run_prepared(programs, inputs, prepared);
        let t = self.emulator().emulate_differing(programs, inputs, &mut results);
        add_stage(&mut self.stages, EMULATION_STAGE, t);
        results
    }

    /// What [`Emulator::emulate_differing`] needs of this engine.
    pub fn emulator(&self) -> Emulator {
        Emulator { allow: self.allow.clone(), emulations: self.emulate.clone(), witnessed: self.witnessed.clone() }
    }

    /// Runs a prepared batch on the backends that run programs, each on its own thread (the
    /// JIT compiling while the cubins run); results in backend order, without the emulating
    /// oracle ([`ProgramResult::emulated`] empty: [`Engine::execute`] adds it).
    pub fn run_prepared(&mut self, programs: &[Program], inputs: &[Inputs], prepared: Prepared) -> Vec<ProgramResult> {
        let Prepared { mut results, cubins, valid, environment, .. } = prepared;
        if let Some(why) = environment {
            // A campaign stops before this (see `Prepared::environment`); a replay shows it.
            for &i in &valid {
                results[i].failures.push(Failure::Crash {
                    by: "ptxas".into(),
                    how: "ptxas could not run".into(),
                    message: why.clone(),
                });
            }
        }
        let (timeout, until, typical) = (self.timeout, self.until, &self.typical);
        let runs: Vec<BackendRun> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .backends
                .iter_mut()
                .filter(|b| b.role() == Role::Runs)
                .filter_map(|backend| {
                    let (which, cubin) = match backend.builds().first() {
                        Some(build) => {
                            let a = cubins.get(&build.label())?;
                            (a.accepted.clone(), a.cubin.clone())
                        }
                        None => (valid.clone(), None),
                    };
                    let limit = RunLimit::first(timeout, until, typical.get(&backend.name()).copied(), which.len());
                    Some(s.spawn(move || {
                        let mut out = Vec::new();
                        let ((), t) = measure(|| {
                            run_on(backend.as_mut(), limit, programs, inputs, &which, cubin.as_ref(), &mut out)
                        });
                        let whole = out.len() == which.len() && out.iter().all(|(_, o)| matches!(o, Outcome::Ran(_)));
                        (backend.name(), out, t, whole)
                    }))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        });
        for (name, out, t, whole) in runs {
            if whole {
                // Only a batch that ran through in one piece says what a batch takes.
                let d = Duration::from_secs_f64(t.wall_s);
                let avg = self.typical.get(&name).map_or(d, |&a| a.mul_f64(0.8) + d.mul_f64(0.2));
                self.typical.insert(name.clone(), avg);
            }
            for (i, outcome) in out {
                match outcome {
                    Outcome::Ran(words) => results[i].observed.push(Observed { backend: name.clone(), words }),
                    Outcome::Failed(f) => results[i].failures.push(f),
                }
            }
            add_stage(&mut self.stages, &format!("run on {name}"), t);
        }
        for a in cubins.values() {
            if let Some(c) = &a.cubin {
                let _ = std::fs::remove_file(c);
            }
        }
        results
    }
}

/// The stage of [`Emulator::emulate_differing`]: wall time only, as its work runs on every
/// core (rayon) and the calling thread's CPU says little.
pub const EMULATION_STAGE: &str = "emulating known root causes (wall only)";

/// The emulating oracle of an engine ([`Engine::emulator`]): its allowances, the emulations of
/// [`Engine::emulate`] and the stand-in witnesses of [`Engine::witnessed`]. A campaign's main
/// thread runs it on each batch while the engine runs the next.
#[derive(Clone, Debug)]
pub struct Emulator {
    allow: Allowances,
    emulations: Emulations,
    witnessed: BTreeMap<String, BTreeSet<String>>,
}

impl Emulator {
    /// Runs the oracle emulating the known root causes on every program whose words some
    /// backend gives differently from the oracle (all cores; [`ProgramResult::emulated`]), so
    /// that triage can tell which differing words they explain; gives its time (wall only).
    pub fn emulate_differing(
        &self,
        programs: &[Program],
        inputs: &[Inputs],
        results: &mut [ProgramResult],
    ) -> StageTime {
        use rayon::prelude::*;
        let start = Instant::now();
        if self.emulations.is_empty() {
            return StageTime::default();
        }
        let (allow, emulations, witnessed) = (&self.allow, &self.emulations, &self.witnessed);
        results.par_iter_mut().enumerate().for_each(|(i, r)| {
            let differs = r.expected.as_ref().is_ok_and(|e| {
                crate::diff::program::compare(programs[i].outputs, e, &r.observed).disagreement().is_some()
            });
            if differs {
                let backends = r.observed.iter().map(|o| o.backend.as_str());
                let checks = with_stand_ins(&r.sass, witnessed);
                r.emulated =
                    emulate(&programs[i], &inputs[i], allow, emulations, backends, &checks).unwrap_or_default();
            }
        });
        StageTime { wall_s: start.elapsed().as_secs_f64(), cpu_s: 0.0 }
    }
}

/// One backend's run of a batch: its name, what it did with each program it ran, its time, and
/// whether every program ran in one piece (no failure, no halving).
type BackendRun = (String, Vec<(usize, Outcome)>, StageTime, bool);

/// What one backend did with one program.
enum Outcome {
    Ran(Vec<u32>),
    Failed(Failure),
}

/// How long a minimization run may outlast its reduction's deadline ([`Engine::until`] is set
/// that far past it): a predicate run started just before the deadline still has this long,
/// enough for a batch of small candidates (a predicate run takes ~0.33 s on an H200), while a
/// run that takes minutes no longer holds the campaign's end (seed 3702's end waited ~65 s on
/// one reduction whose every run went through an emulation that ran to the oracle's statement
/// limit — since bounded by `oracle::program::interp::EMULATION_MAX_STEPS` — and a candidate
/// that hangs on a GPU would hold it up to the batch timeout and its halving).
pub const RUN_GRACE: Duration = Duration::from_secs(5);

/// Most time one kernel of a batch may run, from when the kernel before it finished, before
/// its worker names it as hung ([`ProgramBatch::kernel_timeout`]; never more than the batch's
/// timeout): the hang is then that program's alone, found in one such wait instead of by
/// halving the batch, and the batch's other programs run again. A program's kernel (one CTA,
/// a bounded body) runs for microseconds; what else a kernel waits for is the other contexts
/// on its GPU (a campaign's 16 workers and the minimization threads' own, time-sliced by the
/// driver, milliseconds per slice), and the worker starts the clock only once the kernel
/// before it has been seen to finish, so a worker kept off the CPU loses no time of its
/// kernel. A kernel of another context that never ends takes its time slices, not the GPU:
/// seed 4103's -O0 batches ran while its -O3 and JIT kernels hung (H200, docs/PERFORMANCE.md
/// "Session 41"). 5 s is over a thousand time-slicing rounds of that many contexts, so a
/// kernel named is one that does not end, while a hang costs 5 s and a worker restart instead
/// of halving (about 190 s of idle GPU in seed 4103's campaign).
pub const KERNEL_TIMEOUT: Duration = Duration::from_secs(5);

/// Most time one program alone may run (a batch of several has [`Engine::timeout`]).
const ONE_PROGRAM_TIMEOUT: Duration = Duration::from_secs(20);

/// A backend's first run of a batch may take this many times its typical batch (the moving
/// average of [`Engine::typical`]), and never less than [`FIRST_RUN_FLOOR`].
const FIRST_RUN_FACTOR: f64 = 20.0;
/// The least time a backend's first run of a batch is given once its batches have been timed.
const FIRST_RUN_FLOOR: Duration = Duration::from_secs(30);
/// The halves of a failed batch may take this many times the backend's typical batch (a half
/// does at most the work of the whole), never less than [`NARROW_FLOOR`].
const NARROW_FACTOR: f64 = 4.0;
/// The least time a half of a failed batch is given.
const NARROW_FLOOR: Duration = Duration::from_secs(10);
/// The batch [`Engine::timeout`] is meant for, before a backend's batches have been timed: the
/// campaign's default `--batch`. A smaller untimed batch gets its share of the timeout.
const UNTIMED_BATCH: usize = 256;

/// How long a backend's batch may run: [`Engine::timeout`] ([`ONE_PROGRAM_TIMEOUT`] at most
/// for one program), and never past [`Engine::until`]. Once the backend's batches have been
/// timed (`typical`), a first run gets [`FIRST_RUN_FACTOR`] times a typical batch (at least
/// [`FIRST_RUN_FLOOR`]) and the halves of a failed batch [`NARROW_FACTOR`] times (at least
/// [`NARROW_FLOOR`]): a program that never ends (a loop ptxas miscompiled) is narrowed down in
/// about one first timeout and one short one per halving — seed 4103's campaign (H200,
/// 2026-11-30) stood still for over 5 minutes on one such batch when every halving waited the
/// whole 120 s. Before a backend's batches have been timed (the first batch of a campaign, every
/// batch of a `replay`), a first run gets [`Engine::timeout`] in proportion to the batch's share
/// of [`UNTIMED_BATCH`] programs (at least [`FIRST_RUN_FLOOR`]), and the halves of a batch that
/// hung their share of its timeout (at least [`NARROW_FLOOR`]): session 50's `replay` of 36
/// cases, one of which the driver JIT never finishes compiling, waited 120 s per halving.
#[derive(Clone, Copy, Debug)]
struct RunLimit {
    timeout: Duration,
    until: Option<Instant>,
    /// The timeout of the halves of a batch that failed (`None`: the same as the batch's).
    narrow: Option<Duration>,
}

impl RunLimit {
    /// The limit of a backend's run of a batch of `programs`: at most `timeout`, scaled to its
    /// `typical` batch when known (else to the batch's share of [`UNTIMED_BATCH`]), never past
    /// `until`.
    fn first(timeout: Duration, until: Option<Instant>, typical: Option<Duration>, programs: usize) -> RunLimit {
        let scaled = |factor: f64, floor: Duration| typical.map(|t| t.mul_f64(factor).max(floor).min(timeout));
        let untimed = || share(timeout, programs, UNTIMED_BATCH).max(FIRST_RUN_FLOOR).min(timeout);
        RunLimit {
            timeout: scaled(FIRST_RUN_FACTOR, FIRST_RUN_FLOOR).unwrap_or_else(untimed),
            until,
            narrow: scaled(NARROW_FACTOR, NARROW_FLOOR),
        }
    }

    /// The limit of a half of `whole` programs (`half` of them) of a batch that failed under
    /// this one, `hung` if it ran past its timeout: scaled to the typical batch when known;
    /// untimed, a hung batch's halves get their share of its timeout; else the same.
    fn narrowed(self, half: usize, whole: usize, hung: bool) -> RunLimit {
        let timeout = match self.narrow {
            Some(n) => n.min(self.timeout),
            None if hung => share(self.timeout, half, whole).max(NARROW_FLOOR).min(self.timeout),
            None => self.timeout,
        };
        RunLimit { timeout, ..self }
    }

    /// The timeout of a batch of `programs` starting now; `None`: `until` has passed.
    fn timeout_now(&self, programs: usize) -> Option<Duration> {
        let t = if programs == 1 { self.timeout.min(ONE_PROGRAM_TIMEOUT) } else { self.timeout };
        match self.until {
            None => Some(t),
            Some(until) => {
                let left = until.saturating_duration_since(Instant::now());
                (!left.is_zero()).then(|| t.min(left))
            }
        }
    }

    /// Whether `until` has passed.
    fn passed(&self) -> bool {
        self.until.is_some_and(|until| Instant::now() >= until)
    }
}

/// `part` of `whole` of `time` (all of it when `whole` is 0).
fn share(time: Duration, part: usize, whole: usize) -> Duration {
    if whole == 0 {
        return time;
    }
    time.mul_f64(part as f64 / whole as f64)
}

/// Runs `which` programs on `backend`, adding what each did to `out`. A program the backend
/// names as failed alone ([`Failed::Programs`]: its kernel hung, or faulted in a worker part of
/// its own) fails alone, the outputs of the others that ran are kept, and the programs that did
/// not run to their end run again without it; other failures are narrowed to single programs by
/// halving (an environment failure leaves the programs without outputs, and so does a batch
/// past `limit`'s end: [`Engine::until`]).
fn run_on(
    backend: &mut dyn Backend,
    limit: RunLimit,
    programs: &[Program],
    inputs: &[Inputs],
    which: &[usize],
    cubin: Option<&PathBuf>,
    out: &mut Vec<(usize, Outcome)>,
) {
    if which.is_empty() {
        return;
    }
    let Some(timeout) = limit.timeout_now(which.len()) else {
        return;
    };
    let refs: Vec<Program> = which.iter().map(|&i| programs[i].clone()).collect();
    let batch = ProgramBatch {
        ptx: text::module(&refs),
        cubin: cubin.cloned(),
        kernels: which
            .iter()
            .map(|&i| KernelRun {
                name: programs[i].name.clone(),
                threads: programs[i].threads(),
                inputs: inputs[i].0.clone(),
                outputs: programs[i].outputs,
            })
            .collect(),
        timeout,
        kernel_timeout: Some(KERNEL_TIMEOUT.min(timeout)),
    };
    let failure = match backend.run_programs(&batch) {
        Ok(outputs) => {
            out.extend(which.iter().zip(outputs).map(|(&i, words)| (i, Outcome::Ran(words))));
            return;
        }
        Err(Failed::Environment(_)) => return,
        Err(Failed::Finding(f)) => f,
        Err(Failed::Programs { failed, ran }) => {
            // Past `until` the per-kernel timeout may have been cut too: only what ran counts.
            let failed = if limit.passed() { Vec::new() } else { failed };
            let rest = settle_named(backend.name().as_str(), programs, which, failed, ran, out);
            // Each round settles at least one program, so this ends.
            if rest.len() < which.len() && !limit.passed() {
                run_on(backend, limit, programs, inputs, &rest, cubin, out);
            }
            return;
        }
    };
    if limit.passed() {
        // Perhaps the cut timeout: it says nothing about the programs.
        return;
    }
    if which.len() == 1 {
        out.push((which[0], Outcome::Failed(failure)));
        return;
    }
    // A cubin holds every program of the batch; halves re-use it (entries are looked up by
    // name), the JIT compiles each half's own module.
    let (x, y) = which.split_at(which.len() / 2);
    let hung = matches!(&failure, Failure::Crash { how, .. } if how == "hang");
    run_on(backend, limit.narrowed(x.len(), which.len(), hung), programs, inputs, x, cubin, out);
    run_on(backend, limit.narrowed(y.len(), which.len(), hung), programs, inputs, y, cubin, out);
}

/// Adds to `out` the programs of `which` (indices into `programs`) that a backend named as
/// failed ([`Failed::Programs`]: a kernel its worker saw running past [`KERNEL_TIMEOUT`], or
/// one that faulted in a worker part of its own) and those it ran, saying on stderr which
/// kernel failed and how (a campaign's log shows it); gives the others, which have no outputs
/// (their worker was stopped, or their part failed) and are to run again.
fn settle_named(
    backend: &str,
    programs: &[Program],
    which: &[usize],
    failed: Vec<(usize, Failure)>,
    ran: Vec<(usize, Vec<u32>)>,
    out: &mut Vec<(usize, Outcome)>,
) -> Vec<usize> {
    let mut settled = vec![false; which.len()];
    for (k, f) in failed {
        if let Some(s) = settled.get_mut(k).filter(|s| !**s) {
            *s = true;
            let how = match &f {
                Failure::Crash { how, message, .. } => format!("{how}: {message}"),
                Failure::Rejected { message, .. } => format!("rejected: {message}"),
            };
            eprintln!(
                "{backend}: `{}` (kernel {} of a batch of {}) failed alone ({how}); the batch's programs without \
                 outputs run again",
                programs[which[k]].name,
                k + 1,
                which.len(),
            );
            out.push((which[k], Outcome::Failed(f)));
        }
    }
    for (k, words) in ran {
        if let Some(s) = settled.get_mut(k).filter(|s| !**s) {
            *s = true;
            out.push((which[k], Outcome::Ran(words)));
        }
    }
    which.iter().zip(settled).filter(|(_, s)| !s).map(|(&i, _)| i).collect()
}

/// A batch after the oracle and ptxas, before the backends that run programs.
#[derive(Debug)]
pub struct Prepared {
    /// Per program: the oracle's expectation and the assembler's failures so far.
    pub results: Vec<ProgramResult>,
    /// Assembly per [`Build::label`].
    pub cubins: BTreeMap<String, Assembled>,
    /// Programs the oracle accepts.
    pub valid: Vec<usize>,
    /// Time of the preparation stages: `oracle`, `ptxas LABEL` per assembly, `SASS check
    /// LABEL` per module checked and, within it, `SASS coverage LABEL (part of its check)` and
    /// `SASS nvdisasm again without -ndf LABEL (part of its check)` (listings with a jump table).
    pub stages: BTreeMap<String, StageTime>,
    /// Per module checked: the assembly and the kernels checked, or why the check failed.
    pub sass: Vec<(String, Result<usize, String>)>,
    /// The SASS coverage of the checked modules: per program (by index) whose kernel was
    /// disassembled, its kernel's opcode n-grams ([`crate::sass::coverage`]; the union over
    /// the [`SASS_LEVEL`] assemblies), in program order.
    pub coverage: Vec<(usize, BTreeSet<String>)>,
    /// A build that could not run ptxas at all (no temporary folder, ptxas gone, no cubin
    /// written): an environment problem that says nothing about the programs, so the campaign
    /// stops with it instead of filing a finding per program.
    pub environment: Option<String>,
}

/// The CPU side of a batch: the program oracle and the offline assemblies (no worker
/// processes).
#[derive(Clone, Debug)]
pub struct Preparer {
    target: Target,
    builds: Vec<Build>,
    allow: Allowances,
    plant: Option<Plant>,
    scratch: PathBuf,
    sass: Option<Checker>,
    /// The `sass_witness` globs of the emulated known entries ([`SassCheck::witnessed`]).
    witnesses: Vec<String>,
}

impl Preparer {
    /// Runs the oracle on every program (all cores) and the batch's assemblies (each distinct
    /// [`Build`] the backends declare, concurrently, one thread each), then on the thread of
    /// each [`SASS_LEVEL`] assembly the SASS check of its module. `None` once `stop` is set:
    /// the oracle runs no further program, the running ptxas processes are killed and no SASS
    /// check starts (the campaign's time is up; the batch is abandoned).
    pub fn prepare(&self, programs: &[Program], inputs: &[Inputs], tag: &str, stop: &AtomicBool) -> Option<Prepared> {
        use rayon::prelude::*;
        let mut stages = BTreeMap::new();
        let oracle_start = Instant::now();
        let (expected, oracle_cpu): (Vec<Result<Vec<Expected>, InterpError>>, Vec<f64>) = {
            let (allow, plant) = (&self.allow, self.plant);
            let each: Option<Vec<_>> = programs
                .par_iter()
                .zip(inputs.par_iter())
                .map(|(p, i)| {
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let (r, t) = measure(|| {
                        interp::run_with(p, i, allow, RunOptions { plant, ..RunOptions::default() }).map(|(o, _)| o)
                    });
                    Some((r, t.cpu_s))
                })
                .collect();
            each?.into_iter().unzip()
        };
        let oracle = StageTime { wall_s: oracle_start.elapsed().as_secs_f64(), cpu_s: oracle_cpu.iter().sum() };
        add_stage(&mut stages, "oracle", oracle);
        let mut results: Vec<ProgramResult> = expected
            .into_iter()
            .map(|e| ProgramResult {
                expected: e,
                observed: Vec::new(),
                failures: Vec::new(),
                sass: Vec::new(),
                emulated: Vec::new(),
            })
            .collect();
        let valid: Vec<usize> = (0..programs.len()).filter(|&i| results[i].expected.is_ok()).collect();
        let arch = self.target.name();
        let dir = &self.scratch;
        // One thread per build, each waiting for its ptxas process (not rayon's threads,
        // which the oracle of the batches prepared beside this one needs).
        type Built = (String, std::io::Result<Assembled>, StageTime, Option<((SassOutcome, ModuleTimes), StageTime)>);
        let assembled: Vec<Built> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .builds
                .iter()
                .map(|b| {
                    let (arch, valid) = (&arch, &valid);
                    s.spawn(move || {
                        let tag = format!("{tag}{}", label_suffix(b.label.as_deref()));
                        let (r, t) =
                            measure(|| assemble(&b.ptxas, programs, valid, arch, b.opt, dir, &tag, Some(stop)));
                        let checked = match (&self.sass, &r) {
                            (Some(checker), Ok(Assembled { cubin: Some(cubin), .. }))
                                if b.opt == SASS_LEVEL && !stop.load(Ordering::Relaxed) =>
                            {
                                Some(measure(|| check_module(checker, cubin, &self.witnesses)))
                            }
                            _ => None,
                        };
                        (b.label(), r, t, checked)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        });
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut cubins: BTreeMap<String, Assembled> = BTreeMap::new();
        let mut sass = Vec::new();
        let mut coverage: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
        let mut environment = None;
        for (by, r, t, checked) in assembled {
            add_stage(&mut stages, &by, t);
            if let (Some(((outcome, times), t)), Ok(a)) = (checked, &r) {
                add_stage(&mut stages, &format!("SASS check {by}"), t);
                add_stage(&mut stages, &format!("SASS coverage {by} (part of its check)"), times.grams);
                if let Some(again) = times.again {
                    add_stage(
                        &mut stages,
                        &format!("SASS nvdisasm again without -ndf {by} (part of its check)"),
                        again,
                    );
                }
                sass.push((by.clone(), attribute_sass(&by, outcome, programs, a, &mut results, &mut coverage)));
            }
            match r {
                Ok(a) => {
                    for (i, m) in &a.rejected {
                        results[*i].failures.push(Failure::Rejected { by: by.clone(), message: m.clone() });
                    }
                    for c in &a.crashed {
                        results[c.index].failures.push(Failure::Crash {
                            by: by.clone(),
                            how: if c.timed_out { "ptxas timeout" } else { crate::ptxas::PTXAS_CRASH }.into(),
                            message: c.output.clone(),
                        });
                    }
                    cubins.insert(by, a);
                }
                Err(e) => {
                    environment.get_or_insert(format!("{by}: ptxas could not run: {e}"));
                }
            }
        }
        let coverage = coverage.into_iter().collect();
        Some(Prepared { results, cubins, valid, stages, sass, coverage, environment })
    }
}

/// What the SASS check of one module gave: the listing, its flagged reads, each kernel's
/// n-grams and each kernel's witnessed globs (only kernels with some), or why not.
type SassOutcome = Result<ModuleSass, String>;

/// The SASS of one checked module (see [`SassOutcome`]).
type ModuleSass = (String, Vec<Unwritten>, BTreeMap<String, BTreeSet<String>>, BTreeMap<String, BTreeSet<String>>);

/// Disassembles and checks one module, reads its kernels' SASS n-grams and which of the
/// `witnesses` globs each kernel has: the outcome and the [`ModuleTimes`] shown apart (the
/// n-grams' time and nvdisasm's second run, both part of the check's own time).
fn check_module(checker: &Checker, cubin: &std::path::Path, witnesses: &[String]) -> (SassOutcome, ModuleTimes) {
    let crate::sass::Parsed { listing, functions, again } = match checker.disassemble_parsed(cubin) {
        Ok(parsed) => parsed,
        Err(e) => return (Err(e.to_string()), ModuleTimes::default()),
    };
    let again = again.map(|d| StageTime { wall_s: d.as_secs_f64(), cpu_s: 0.0 });
    let found = crate::sass::check_functions(&functions);
    let (grams, t) = measure(|| crate::sass::coverage::kernels(&functions));
    let witnessed = functions
        .iter()
        .filter(|f| f.entry)
        .map(|f| (f.name.clone(), crate::sass::witnessed(f, witnesses)))
        .filter(|(_, w)| !w.is_empty())
        .collect();
    (Ok((listing, found, grams, witnessed)), ModuleTimes { grams: t, again })
}

/// Parts of one module's check time shown as stages of their own: the n-grams, and nvdisasm's
/// second run where the listing was made again without `-ndf` (wall only: the run is a child
/// process, whose CPU is in the table's processes row).
#[derive(Clone, Copy, Debug, Default)]
struct ModuleTimes {
    grams: StageTime,
    again: Option<StageTime>,
}

/// Gives every program of assembly `a` (by `by`) its [`SassCheck`] from the module's
/// `outcome`, and its kernel's n-grams to `coverage`: the kernels checked, or why the check
/// failed.
fn attribute_sass(
    by: &str,
    outcome: SassOutcome,
    programs: &[Program],
    a: &Assembled,
    results: &mut [ProgramResult],
    coverage: &mut BTreeMap<usize, BTreeSet<String>>,
) -> Result<usize, String> {
    let (listing, found, mut grams, mut witnessed) = outcome?;
    for &i in &a.accepted {
        let name = &programs[i].name;
        if let Some(g) = grams.remove(name) {
            coverage.entry(i).or_default().extend(g);
        }
        let reads: Vec<Unwritten> = found.iter().filter(|u| &u.kernel == name).cloned().collect();
        let listing = if reads.is_empty() {
            String::new()
        } else {
            crate::sass::function_listing(&listing, name).unwrap_or_default().to_string()
        };
        let witnessed = witnessed.remove(name).unwrap_or_default();
        results[i].sass.push(SassCheck { by: by.to_string(), reads, listing, witnessed });
    }
    Ok(a.accepted.len())
}

/// Fails when a backend named explicitly on the command line cannot run here (an
/// unavailable backend in the defaults is only left out, with a notice).
pub fn require_available(explicit: bool, engine: &Engine) -> anyhow::Result<()> {
    if explicit && !engine.unavailable.is_empty() {
        let why: Vec<String> = engine.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect();
        anyhow::bail!(
            "requested backend(s) unavailable on this machine: {} (leave them out of --backends, or omit --backends to run all that this machine has)",
            why.join("; ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod kernel_hang_tests;
#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod until_tests;
#[cfg(test)]
mod witness_stand_in_tests;
