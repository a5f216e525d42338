//! The worker pool: every worker process one kind of backend runs in (`--devices` ×
//! `--workers` GPU workers, shared by every `cuda:*` backend; `--workers` oracle workers for
//! `oracle-worker`), each in its own [`WorkerSlot`] that restarts it after a fault, crash or
//! hang.
//!
//! Invariants: work is spread, results are not reordered. [`Pool::sweep_specs`] gives one
//! thread per slot, each pulling the next spec from a shared counter, and returns the results
//! in spec order whatever the completion order; a slot whose worker cannot be restarted takes
//! no more work, and specs no slot ran fail with an environment failure (as one worker's run
//! does). [`Pool::run_batch`] splits a program batch by kernels over the live slots ([`split_batch`]:
//! without a cubin each part carries a module of its own programs, with one every part loads
//! the same cubin) and concatenates the outputs in kernel order; with one slot, or one kernel,
//! the batch goes to one worker unchanged; a kernel a worker names as hung, or a part of one
//! kernel that faults, fails its program alone ([`Failed::Programs`], with the outputs of the
//! parts that ran; a faulting part of several kernels runs again). [`Pool::run_mem`] deals memory jobs (each one module and
//! its launches) from a queue ([`deal`]) that a worker going down hands its unrun jobs back to;
//! a worker loads (JIT-compiles) a job's module once and synchronises once for all its
//! launches; results come back in job order. Workers start in parallel; a pool starts whole or
//! not at all.

use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use oracle::program::text;
use oracle::semantics::Allowances;

use super::slots::MemStages;
use super::{Failed, ProgramBatch, SweepFailure, SweepResult, SweepSpec, WorkerSlot};
use crate::worker::protocol::{MemJob, MemOutcome};
use crate::worker::{Executor, WorkerKind};

/// Worker processes per device `conform` starts unless `--workers` says otherwise: enough that
/// workers compiling (ptxas or the JIT, single-threaded), running on the GPU and checking on
/// the CPU overlap, while few enough contexts share one GPU's memory (each keeps at most about
/// 3 GiB of chunk buffers on the device and 3 GiB pinned on the host). Measured on a 16-core H100 box, `conform --exhaustive` (871
/// rows): 50.6 s with 4 workers, 43.8 s with 8 (docs/PERFORMANCE.md).
pub const CONFORM_WORKERS: usize = 8;

/// Workers per device when `--workers` is not given and the command has no default of its own
/// (fuzz, replay, minimize): the cores shared out over the devices, at least 1.
pub fn per_core_workers(devices: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / devices.max(1)).max(1)
}

/// Which GPUs a run uses (`--devices`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Devices {
    /// Every visible device (none on a machine without a GPU).
    All,
    /// These device ordinals, in order, each once.
    List(Vec<i32>),
}

impl Default for Devices {
    /// Device 0.
    fn default() -> Devices {
        Devices::List(vec![0])
    }
}

impl Devices {
    /// Parses `all` or comma-separated device ordinals (`0,2`); errors name the value.
    pub fn parse(s: &str) -> Result<Devices, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("all") {
            return Ok(Devices::All);
        }
        let mut list: Vec<i32> = Vec::new();
        for part in s.split(',').map(str::trim) {
            let Ok(d) = part.parse::<i32>() else {
                return Err(format!(
                    "`{part}` in `{s}` is no device ordinal: give `all` or ordinals such as `0` or `0,2`"
                ));
            };
            if d < 0 {
                return Err(format!("device `{d}` in `{s}`: ordinals start at 0"));
            }
            if list.contains(&d) {
                return Err(format!("device `{d}` is given twice in `{s}`"));
            }
            list.push(d);
        }
        Ok(Devices::List(list))
    }
}

impl FromStr for Devices {
    type Err = String;

    fn from_str(s: &str) -> Result<Devices, String> {
        Devices::parse(s)
    }
}

/// One worker of the pool and the device it runs on.
struct Member {
    /// The CUDA device ordinal (`None`: an oracle worker).
    ordinal: Option<i32>,
    /// What rows record (`0: NVIDIA H100 80GB HBM3`, `oracle (CPU)`).
    label: String,
    slot: Mutex<WorkerSlot>,
}

impl Member {
    fn lock(&self) -> MutexGuard<'_, WorkerSlot> {
        self.slot.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The worker processes of one kind of backend (see the module docs).
pub struct Pool {
    members: Vec<Member>,
}

impl Pool {
    /// `workers` oracle workers (at least one), started in parallel.
    pub fn start_oracle(exe: &Path, workers: usize) -> Result<Pool, String> {
        Pool::start_all(exe, &vec![WorkerKind::Oracle; workers.max(1)], Vec::new())
    }

    /// `workers` GPU workers per device of `devices` (`None`: [`per_core_workers`]), started in
    /// parallel. For [`Devices::All`] a worker on device 0 starts first and says how many
    /// devices there are; `Err` says why no GPU is usable (naming the device that failed).
    pub fn start_gpu(exe: &Path, devices: &Devices, workers: Option<usize>) -> Result<Pool, String> {
        let (ordinals, first) = match devices {
            Devices::List(list) if list.is_empty() => return Err("no device given".into()),
            Devices::List(list) => (list.clone(), Vec::new()),
            Devices::All => {
                let kind = WorkerKind::Gpu { device: 0 };
                let first = WorkerSlot::start(exe, kind)?;
                let count = first.worker().and_then(|w| w.devices).unwrap_or(1).max(1);
                let count = i32::try_from(count).unwrap_or(i32::MAX);
                ((0..count).collect(), vec![(first, kind)])
            }
        };
        let per = workers.unwrap_or_else(|| per_core_workers(ordinals.len())).max(1);
        let kinds: Vec<WorkerKind> = ordinals
            .iter()
            .flat_map(|&device| std::iter::repeat_n(WorkerKind::Gpu { device }, per))
            .skip(first.len())
            .collect();
        Pool::start_all(exe, &kinds, first)
    }

    /// Starts a worker of each of `kinds` in parallel, after the already started `first`
    /// (with its kind). A worker that does not start fails the pool; for a GPU worker on any
    /// device but 0 the error names the device.
    fn start_all(exe: &Path, kinds: &[WorkerKind], first: Vec<(WorkerSlot, WorkerKind)>) -> Result<Pool, String> {
        let started: Vec<Result<WorkerSlot, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = kinds.iter().map(|&k| s.spawn(move || WorkerSlot::start(exe, k))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a worker start panicked".into()))).collect()
        });
        let all = first.into_iter().map(|(s, k)| (Ok(s), k)).chain(started.into_iter().zip(kinds.iter().copied()));
        let mut members = Vec::new();
        for (slot, kind) in all {
            let ordinal = match kind {
                WorkerKind::Gpu { device } => Some(device),
                WorkerKind::Oracle => None,
            };
            let slot = match (slot, ordinal) {
                (Ok(s), _) => s,
                (Err(why), Some(d)) if d != 0 => return Err(format!("device {d}: {why}")),
                (Err(why), _) => return Err(why),
            };
            let name = slot.worker().map_or_else(String::new, |w| w.device.clone());
            let label = match ordinal {
                Some(d) => format!("{d}: {name}"),
                None => name,
            };
            members.push(Member { ordinal, label, slot: Mutex::new(slot) });
        }
        Ok(Pool { members })
    }

    /// Worker processes in the pool.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the pool has no worker (never, once started).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The device ordinals of the pool, each once, in order.
    pub fn ordinals(&self) -> Vec<i32> {
        let mut v: Vec<i32> = Vec::new();
        for d in self.members.iter().filter_map(|m| m.ordinal) {
            if !v.contains(&d) {
                v.push(d);
            }
        }
        v
    }

    /// The native target (`90`) of the first worker's device.
    pub fn sm(&self) -> Option<u16> {
        self.members.first().and_then(|m| m.lock().sm())
    }

    /// Environment lines: `device` (each device's label, `; `-separated), `driver` (the
    /// installed driver's version, else the CUDA API version labelled as such) and `cuda` (the
    /// CUDA API version the driver supports).
    pub fn environment(&self) -> Vec<(String, String)> {
        let mut labels: Vec<&str> = Vec::new();
        for m in &self.members {
            if !labels.contains(&m.label.as_str()) {
                labels.push(&m.label);
            }
        }
        let mut v = vec![("device".to_string(), labels.join("; "))];
        let first = self.members.first().map(|m| {
            let s = m.lock();
            s.worker().map(|w| (w.driver, w.driver_version.clone()))
        });
        if let Some(Some((api, version))) = first {
            let cuda = format!("{}.{}", api / 1000, (api % 1000) / 10);
            let driver =
                version.unwrap_or_else(|| format!("{cuda} (CUDA API version; the driver's own is unreadable)"));
            v.push(("driver".into(), driver));
            v.push(("cuda".into(), cuda));
        }
        v
    }

    /// What memory jobs of backend `name` cost, summed over the pool's slots.
    pub fn mem_stages(&self, name: &str) -> MemStages {
        let mut all = MemStages::default();
        for m in &self.members {
            if let Some(s) = m.lock().mem_stages().get(name) {
                all.absorb(s);
            }
        }
        all
    }

    /// Why the pool can run nothing more, when every worker is down.
    fn down(&self) -> Option<String> {
        let mut why = None;
        for m in &self.members {
            match m.lock().down() {
                Some(w) => why = Some(w.to_string()),
                None => return None,
            }
        }
        why.or_else(|| Some("no worker".into()))
    }

    /// Sweeps `specs` as backend `name` (jobs run by `executor` under `allow`), spread over the
    /// pool; results in spec order, each recording its worker's device (see the module docs).
    pub fn sweep_specs(
        &self,
        name: &str,
        executor: &Executor,
        allow: &Allowances,
        timeout: Duration,
        specs: &[SweepSpec],
        tick: &(dyn Fn(u64) + Sync),
    ) -> Vec<SweepResult> {
        // The largest sweeps first, so that no long one starts last and leaves the other workers
        // idle; the results keep the specs' order.
        let inputs = |s: &SweepSpec| super::spec_segments(s).map_or(0, |v| v.iter().map(|x| x.1).sum::<u64>());
        let mut order: Vec<usize> = (0..specs.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(inputs(&specs[i])));
        let next = AtomicUsize::new(0);
        let ran: Vec<Vec<(usize, Option<SweepResult>)>> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .members
                .iter()
                .map(|m| {
                    let (next, order) = (&next, &order);
                    s.spawn(move || {
                        let mut mine = Vec::new();
                        loop {
                            let mut slot = m.lock();
                            if slot.down().is_some() {
                                break;
                            }
                            let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                            let spec = &specs[i];
                            let r = slot.sweep_spec(name, executor, allow, timeout, spec, tick);
                            mine.push((i, r.map(|r| SweepResult { device: Some(m.label.clone()), ..r })));
                        }
                        mine
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        let mut by_spec: Vec<Option<Option<SweepResult>>> = vec![None; specs.len()];
        for (i, r) in ran.into_iter().flatten() {
            by_spec[i] = Some(r);
        }
        let why = self.down().unwrap_or_else(|| "no worker ran the sweep".into());
        by_spec
            .into_iter()
            .zip(specs)
            .filter_map(|(r, spec)| match r {
                Some(r) => r,
                None => {
                    let inputs = super::spec_segments(spec)?.iter().map(|x| x.1).sum();
                    tick(inputs);
                    Some(SweepResult {
                        backend: name.into(),
                        form: spec.form.opcode(),
                        outcome: Err(SweepFailure::Environment(why.clone())),
                        seconds: 0.0,
                        device: None,
                        stages: None,
                    })
                }
            })
            .collect()
    }

    /// Runs a program batch as backend `name` (`executor`, `allow`), split by kernels over the
    /// live workers; outputs in kernel order. A failing part fails the batch, which keeps the
    /// outputs of the parts that ran and names the programs that failed alone ([`merge_parts`]);
    /// a failing part's worker is restarted and the other parts' workers are untouched.
    pub fn run_batch(
        &self,
        name: &str,
        executor: Executor,
        allow: &Allowances,
        batch: &ProgramBatch,
    ) -> Result<Vec<Vec<u32>>, Failed> {
        let live: Vec<&Member> = self.members.iter().filter(|m| m.lock().down().is_none()).collect();
        let Some(one) = live.first() else {
            return Err(Failed::Environment(self.down().unwrap_or_else(|| "no worker".into())));
        };
        let parts = split_batch(batch, live.len());
        if parts.len() == 1 {
            return one.lock().run_batch(name, executor, allow, batch);
        }
        let results: Vec<Result<Vec<Vec<u32>>, Failed>> = std::thread::scope(|s| {
            let handles: Vec<_> = parts
                .iter()
                .zip(&live)
                .map(|(part, m)| {
                    let executor = executor.clone();
                    s.spawn(move || m.lock().run_batch(name, executor, allow, part))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err(Failed::Environment("a pool thread panicked".into()))))
                .collect()
        });
        merge_parts(parts.iter().map(|p| p.kernels.len()).zip(results))
    }

    /// Runs memory jobs `jobs` as backend `name` (`executor`), spread over the pool: per job,
    /// one outcome per launch, in job order. Each job (one module and its launches) goes to one
    /// worker ([`deal`], one job per group), which loads (for the JIT: compiles) the module once
    /// and synchronises once for all its launches; a worker that goes down puts its unrun jobs
    /// back for the live ones. Jobs no worker ran (every worker down) get the reason as their
    /// environment error.
    pub fn run_mem(&self, name: &str, executor: &Executor, jobs: &[MemJob]) -> Vec<Result<Vec<MemOutcome>, String>> {
        let slots: Vec<&Mutex<WorkerSlot>> = self.members.iter().map(|m| &m.slot).collect();
        let groups = (0..jobs.len()).map(|i| i..i + 1).collect();
        let ran = deal(&slots, groups, jobs.len(), |slot, i, _| {
            if slot.down().is_some() {
                return None;
            }
            Some((slot.run_mem(name, executor.clone(), &jobs[i]), true))
        });
        let why = self.down().unwrap_or_else(|| "no worker ran the memory job".into());
        ran.into_iter().map(|r| r.unwrap_or_else(|| Err(why.clone()))).collect()
    }
}

/// Runs jobs `0..jobs`, cut into `groups`, on `slots` (one thread per slot): each thread locks
/// its slot, takes the next group from a shared queue and runs its jobs in order with the slot
/// locked for the whole group (`run(slot, job, loads)`, `loads` true for the first job of the group and after
/// a job that left the module unloaded; it gives the result and whether the module is loaded
/// after it). `run` giving `None` says the slot is down: the rest of the group goes back to the
/// front of the queue for the other slots, and the slot takes no more. Results by job; `None`
/// for the jobs no slot ran.
pub fn deal<S: Send, R: Send>(
    slots: &[&Mutex<S>],
    groups: Vec<std::ops::Range<usize>>,
    jobs: usize,
    run: impl Fn(&mut S, usize, bool) -> Option<(R, bool)> + Sync,
) -> Vec<Option<R>> {
    let queue = Mutex::new(std::collections::VecDeque::from(groups));
    let ran: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = slots
            .iter()
            .map(|&slot| {
                let (queue, run) = (&queue, &run);
                s.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        // The slot first, then a group: a group is never held by a thread
                        // waiting for its slot (busy with another backend's job) while another
                        // slot is free to run it.
                        let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
                        let Some(range) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                            break;
                        };
                        let mut loads = true;
                        for i in range.clone() {
                            match run(&mut held, i, loads) {
                                Some((r, loaded)) => {
                                    loads = !loaded;
                                    mine.push((i, r));
                                }
                                None => {
                                    queue.lock().unwrap_or_else(|e| e.into_inner()).push_front(i..range.end);
                                    return mine;
                                }
                            }
                        }
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    let mut by_job: Vec<Option<R>> = (0..jobs).map(|_| None).collect();
    for (i, r) in ran.into_iter().flatten() {
        if let Some(slot) = by_job.get_mut(i) {
            *slot = Some(r);
        }
    }
    by_job
}

/// The result of a batch from its parts' results (each with its number of kernels, in kernel
/// order): the outputs in kernel order when every part ran; else the first environment
/// failure; else the programs that failed alone ([`Failed::Programs`], indices into the batch:
/// kernels the workers named as hung, and the program of a one-kernel part that failed — a GPU
/// fault or a worker crash there is that program's) with the outputs of the parts that ran,
/// leaving the programs of a failed part of several kernels to run again (in parts of one
/// kernel each, the next time round); else, when no part ran and none failed alone, the first
/// finding of a whole part (the caller narrows it down by halving).
///
/// Why: a fault in one part used to fail the whole batch, whose parts all ran again in halves —
/// eight failing runs, each restarting a worker, to find one program in 256; seed 5802's 33
/// -O0 faults of one known kind took its `run on cuda:ptxas-O0` stage from ≈ 85 s to 129 s
/// (docs/PERFORMANCE.md, session 58).
fn merge_parts(
    parts: impl IntoIterator<Item = (usize, Result<Vec<Vec<u32>>, Failed>)>,
) -> Result<Vec<Vec<u32>>, Failed> {
    let mut outputs: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut failed: Vec<(usize, crate::worker::protocol::Failure)> = Vec::new();
    let (mut environment, mut whole, mut at) = (None, None, 0);
    for (kernels, r) in parts {
        match r {
            Ok(o) => outputs.extend(o.into_iter().enumerate().map(|(k, w)| (at + k, w))),
            Err(Failed::Finding(f)) if kernels == 1 => failed.push((at, f)),
            Err(Failed::Finding(f)) => whole = whole.or(Some(f)),
            Err(e @ Failed::Environment(_)) => environment = environment.or(Some(e)),
            Err(Failed::Programs { failed: f, ran }) => {
                failed.extend(f.into_iter().map(|(k, x)| (at + k, x)));
                outputs.extend(ran.into_iter().map(|(k, w)| (at + k, w)));
            }
        }
        at += kernels;
    }
    match (environment, whole) {
        (Some(e), _) => Err(e),
        (None, Some(f)) if failed.is_empty() && outputs.is_empty() => Err(Failed::Finding(f)),
        (None, None) if failed.is_empty() => Ok(outputs.into_iter().map(|(_, w)| w).collect()),
        _ => Err(Failed::Programs { failed, ran: outputs }),
    }
}

/// `batch` split by kernels into at most `parts` batches of consecutive kernels (as even as
/// can be), in kernel order. Without a cubin (the JIT, the oracle worker) each part's module
/// holds only its own programs, cut from the batch's module as whole programs; with a cubin
/// every part keeps the whole module and loads the same cubin. One part, or a module that does
/// not parse (the worker reports it), leaves the batch whole.
pub fn split_batch(batch: &ProgramBatch, parts: usize) -> Vec<ProgramBatch> {
    let parts = parts.min(batch.kernels.len());
    if parts <= 1 {
        return vec![batch.clone()];
    }
    let programs = match &batch.cubin {
        Some(_) => None,
        None => match text::parse_module(&batch.ptx) {
            Ok(p) => Some(p),
            Err(_) => return vec![batch.clone()],
        },
    };
    let chunk = batch.kernels.len().div_ceil(parts);
    batch
        .kernels
        .chunks(chunk)
        .map(|kernels| {
            let ptx = match &programs {
                None => batch.ptx.clone(),
                Some(all) => {
                    let mine: Vec<_> =
                        all.iter().filter(|p| kernels.iter().any(|k| k.name == p.name)).cloned().collect();
                    text::module(&mine)
                }
            };
            ProgramBatch { ptx, kernels: kernels.to_vec(), ..batch.clone() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::Failure;

    #[test]
    fn devices_parse_all_lists_and_reject_bad_values_by_name() {
        assert_eq!(Devices::parse("all"), Ok(Devices::All));
        assert_eq!(Devices::parse(" ALL "), Ok(Devices::All));
        assert_eq!(Devices::parse("0"), Ok(Devices::List(vec![0])));
        assert_eq!(Devices::parse("0,2"), Ok(Devices::List(vec![0, 2])));
        assert_eq!(Devices::parse(" 3 , 1 "), Ok(Devices::List(vec![3, 1])));
        assert_eq!(Devices::default(), Devices::List(vec![0]));
        for (bad, names) in
            [("gpu0", "`gpu0`"), ("", "``"), ("0,,2", "``"), ("-1", "`-1`"), ("1,1", "`1`"), ("0,x", "`x`")]
        {
            let e = Devices::parse(bad).unwrap_err();
            assert!(e.contains(names), "{bad:?}: {e}");
        }
    }

    /// A stand-in for a worker: what it ran (backend, job, whether it loaded the module) and
    /// after how many jobs it goes down.
    #[derive(Default)]
    struct Fake {
        log: Vec<(char, usize, bool)>,
        down_after: Option<usize>,
    }

    fn fake_run(backend: char) -> impl Fn(&mut Fake, usize, bool) -> Option<(usize, bool)> + Sync {
        move |w, i, loads| {
            if w.down_after.is_some_and(|n| w.log.len() >= n) {
                return None;
            }
            w.log.push((backend, i, loads));
            // Long enough that another backend's thread waits for the slot meanwhile.
            std::thread::sleep(Duration::from_millis(2));
            Some((i * 10, true))
        }
    }

    /// Two backends sharing the workers (as the three `cuda:*` backends of a memory campaign
    /// do) never interleave their jobs inside a group: a worker runs a module's jobs back to
    /// back, so it loads (JIT-compiles) that module once, on the group's first job.
    #[test]
    fn a_group_runs_back_to_back_on_one_worker_whoever_else_shares_it() {
        let workers: Vec<Mutex<Fake>> = (0..3).map(|_| Mutex::new(Fake::default())).collect();
        let slots: Vec<&Mutex<Fake>> = workers.iter().collect();
        // Modules of 4 jobs, 24 jobs per backend.
        let groups = || (0..6).map(|g| g * 4..g * 4 + 4).collect::<Vec<_>>();
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| deal(&slots, groups(), 24, fake_run('a')));
            let b = s.spawn(|| deal(&slots, groups(), 24, fake_run('b')));
            (a.join().unwrap(), b.join().unwrap())
        });
        for r in [a, b] {
            assert_eq!(r, (0..24).map(|i| Some(i * 10)).collect::<Vec<_>>(), "every job once, in job order");
        }
        for w in &workers {
            let log = &w.lock().unwrap().log;
            for run in log.chunks(4) {
                let (backend, first, _) = run[0];
                assert_eq!(first % 4, 0, "{log:?}");
                let want: Vec<(char, usize, bool)> = (0..4).map(|k| (backend, first + k, k == 0)).collect();
                assert_eq!(run, want.as_slice(), "a group interleaved with another: {log:?}");
            }
        }
    }

    /// A worker that goes down inside a group gives the rest back: another worker runs it,
    /// loading the module again, and no job is lost or run twice.
    #[test]
    fn a_worker_going_down_gives_the_rest_of_its_group_back() {
        let workers = [Mutex::new(Fake { down_after: Some(2), ..Fake::default() }), Mutex::new(Fake::default())];
        let slots: Vec<&Mutex<Fake>> = workers.iter().collect();
        // The healthy worker waits (within reason) until the other went down, so that the other
        // surely took a group.
        let gone = std::sync::atomic::AtomicBool::new(false);
        let r = deal(&slots, vec![0..5, 5..10], 10, |w, i, loads| {
            if w.down_after.is_some_and(|n| w.log.len() >= n) {
                gone.store(true, Ordering::SeqCst);
                return None;
            }
            let t = std::time::Instant::now();
            while w.down_after.is_none() && !gone.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(1));
            }
            w.log.push(('a', i, loads));
            Some((i * 10, true))
        });
        assert_eq!(r, (0..10).map(|i| Some(i * 10)).collect::<Vec<_>>());
        let logs: Vec<Vec<(char, usize, bool)>> = workers.iter().map(|w| w.lock().unwrap().log.clone()).collect();
        assert_eq!(logs[0].len(), 2, "{logs:?}");
        let mut all: Vec<usize> = logs.iter().flatten().map(|x| x.1).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        // Where the second worker took over the group, its first job there loads the module.
        let taken = logs[1].iter().position(|x| x.1 == logs[0][1].1 + 1).expect("the rest ran on the other worker");
        assert!(logs[1][taken].2, "{logs:?}");
        // Every worker down: the jobs nobody ran come back as `None`.
        let down = [Mutex::new(Fake { down_after: Some(0), ..Fake::default() })];
        let r = deal(&down.iter().collect::<Vec<_>>(), std::iter::once(0..3).collect(), 3, fake_run('a'));
        assert_eq!(r, vec![None, None, None]);
    }

    /// A slot busy with another backend's work takes no group meanwhile: the other slots run
    /// every group, and the busy one's thread finds the queue empty once it is free.
    #[test]
    fn a_busy_slot_holds_no_group_while_another_slot_is_free() {
        let workers: Vec<Mutex<Fake>> = (0..2).map(|_| Mutex::new(Fake::default())).collect();
        let slots: Vec<&Mutex<Fake>> = workers.iter().collect();
        let ran = std::sync::atomic::AtomicUsize::new(0);
        let busy = workers[0].lock().unwrap();
        let r = std::thread::scope(|s| {
            let dealt = s.spawn(|| {
                deal(&slots, vec![0..1, 1..2, 2..3], 3, |w, i, loads| {
                    w.log.push(('a', i, loads));
                    ran.fetch_add(1, Ordering::SeqCst);
                    Some((i, true))
                })
            });
            // Another backend's job holds slot 0 until the free slot ran every group (or a
            // generous while, so that the old order fails instead of hanging).
            let t = std::time::Instant::now();
            while ran.load(Ordering::SeqCst) < 3 && t.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(1));
            }
            drop(busy);
            dealt.join().unwrap()
        });
        assert_eq!(r, vec![Some(0), Some(1), Some(2)]);
        assert!(
            workers[0].lock().unwrap().log.is_empty(),
            "the busy slot took a group: {:?}",
            workers[0].lock().unwrap().log
        );
        assert_eq!(workers[1].lock().unwrap().log.len(), 3);
    }

    /// Parts whose workers named hung kernels merge into one [`Failed::Programs`] with indices
    /// into the whole batch and the outputs of every part that ran; the environment outranks
    /// it; parts that all ran concatenate.
    #[test]
    fn named_hangs_of_parts_merge_with_batch_indices() {
        let hang = |m: &str| Failure::Crash { by: "b".into(), how: "hang".into(), message: m.into() };
        let named = |k: usize, ran: Vec<(usize, Vec<u32>)>| Err(Failed::Programs { failed: vec![(k, hang("x"))], ran });
        let parts = vec![(2, Ok(vec![vec![0], vec![1]])), (2, named(1, vec![(0, vec![2])])), (3, named(0, Vec::new()))];
        match merge_parts(parts) {
            Err(Failed::Programs { failed, ran }) => {
                assert_eq!(failed.iter().map(|f| f.0).collect::<Vec<_>>(), [3, 4]);
                assert_eq!(ran, [(0, vec![0]), (1, vec![1]), (2, vec![2])]);
            }
            other => panic!("{other:?}"),
        }
        // A part of one kernel that failed is that program's failure; a failed part of several
        // leaves its programs to run again, and only when nothing else ran or failed alone is
        // it the batch's finding (to be narrowed down by halving).
        let whole = || Err(Failed::Finding(hang("whole")));
        match merge_parts(vec![(1, named(0, Vec::new())), (1, whole())]) {
            Err(Failed::Programs { failed, ran }) => {
                assert_eq!(failed.iter().map(|f| f.0).collect::<Vec<_>>(), [0, 1]);
                assert!(ran.is_empty());
            }
            other => panic!("{other:?}"),
        }
        match merge_parts(vec![(2, Ok(vec![vec![0], vec![1]])), (3, whole())]) {
            Err(Failed::Programs { failed, ran }) => {
                assert!(failed.is_empty());
                assert_eq!(ran, [(0, vec![0]), (1, vec![1])]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(merge_parts(vec![(2, whole()), (3, whole())]), Err(Failed::Finding(_))));
        let env = Err(Failed::Environment("gone".into()));
        assert!(matches!(merge_parts(vec![(1, named(0, Vec::new())), (1, env)]), Err(Failed::Environment(_))));
        assert_eq!(
            merge_parts(vec![(1, Ok(vec![vec![7]])), (1, Ok(vec![vec![8]]))]).ok(),
            Some(vec![vec![7], vec![8]])
        );
    }

    #[test]
    fn per_core_workers_is_at_least_one() {
        assert!(per_core_workers(1) >= 1);
        assert_eq!(per_core_workers(1 << 20), 1);
        assert!(per_core_workers(0) >= 1);
    }
}
