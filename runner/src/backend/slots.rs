//! A worker process driven from the parent: a [`WorkerSlot`] runs jobs on it and restarts it
//! after a fault, crash or hang; a worker's [`Outcome`] becomes a backend's result or failure
//! ([`program_outcome`], [`sweep_outcome`]; a kernel of a program batch the worker named as
//! hung is that program's failure alone, [`Failed::Programs`], the hang finding a program that
//! timed out alone gives); a cubin the driver cannot load at all is the environment, said once
//! per backend on stderr ([`driver_cannot_load`]).
//!
//! A restart costs a process start and a CUDA context (about 1.3 s on an H200, measured as
//! `MemStages::restart_s`). Workers started ahead as spares were tried and left out: the context
//! creations slowed the other workers' launches more than they saved (docs/PERFORMANCE.md).
//! What memory jobs cost inside the workers is summed per backend ([`MemStages`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ::oracle::semantics::Allowances;

use super::jobs::{spec_segments, Failed, ProgramBatch, Stages, SweepFailure, SweepResult, SweepSpec};
use crate::diff::{BackendFailure, FailureKind};
use crate::sweep_check::Checked;
use crate::worker::protocol::{Failure, MemJob, MemOutcome};
use crate::worker::{Executor, Outcome, ProgramJob, SweepJob, WorkerHandle, WorkerKind};

/// A worker process that is restarted after a fault, crash or hang.
pub struct WorkerSlot {
    exe: PathBuf,
    kind: WorkerKind,
    handle: Option<WorkerHandle>,
    down: Option<String>,
    serial: u64,
    /// Memory jobs' costs by backend name.
    mem: BTreeMap<String, MemStages>,
}

/// What memory jobs cost, summed over jobs: the worker's own timings, the supervisor's wall
/// per job, and the restarts after faults, crashes and hangs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MemStages {
    /// Jobs sent (a job that runs again launch by launch counts each run).
    pub jobs: u64,
    /// Launches in them.
    pub launches: u64,
    /// Seconds the workers spent loading modules (the JIT's compile for `cuda:jit`).
    pub load_s: f64,
    /// Seconds the workers spent on memory, launches, the synchronisation and read-back.
    pub run_s: f64,
    /// Seconds from sending a job to its answer (what the backend waits).
    pub wall_s: f64,
    /// Workers restarted.
    pub restarts: u64,
    /// Seconds waiting for restarted workers.
    pub restart_s: f64,
}

impl MemStages {
    /// Adds `other`'s figures to these.
    pub fn absorb(&mut self, other: &MemStages) {
        self.jobs += other.jobs;
        self.launches += other.launches;
        self.load_s += other.load_s;
        self.run_s += other.run_s;
        self.wall_s += other.wall_s;
        self.restarts += other.restarts;
        self.restart_s += other.restart_s;
    }

    /// What was added to `earlier` to make these figures.
    pub fn since(&self, earlier: &MemStages) -> MemStages {
        MemStages {
            jobs: self.jobs.saturating_sub(earlier.jobs),
            launches: self.launches.saturating_sub(earlier.launches),
            load_s: self.load_s - earlier.load_s,
            run_s: self.run_s - earlier.run_s,
            wall_s: self.wall_s - earlier.wall_s,
            restarts: self.restarts.saturating_sub(earlier.restarts),
            restart_s: self.restart_s - earlier.restart_s,
        }
    }
}

impl WorkerSlot {
    /// Starts a worker; `Err` says why it cannot run.
    pub fn start(exe: &Path, kind: WorkerKind) -> Result<WorkerSlot, String> {
        let handle = WorkerHandle::spawn(exe, kind)?;
        Ok(WorkerSlot {
            exe: exe.to_path_buf(),
            kind,
            handle: Some(handle),
            down: None,
            serial: 0,
            mem: BTreeMap::new(),
        })
    }

    /// The running worker (device, driver and what else it reported when it started).
    pub fn worker(&self) -> Option<&WorkerHandle> {
        self.handle.as_ref()
    }

    /// Why no worker runs any more (its restart failed); `None` while one runs.
    pub fn down(&self) -> Option<&str> {
        self.down.as_deref()
    }

    /// The native target of the worker's device (`90`).
    pub fn sm(&self) -> Option<u16> {
        self.handle.as_ref().map(|h| h.sm)
    }

    /// What memory jobs cost on this slot, by backend name.
    pub fn mem_stages(&self) -> &BTreeMap<String, MemStages> {
        &self.mem
    }

    /// A fresh job id.
    pub fn next_id(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    /// Runs a sweep job; after a dead outcome the worker is restarted. `Err`: no worker runs.
    pub fn sweep(&mut self, job: &SweepJob, timeout: Duration) -> Result<Outcome, String> {
        let w = self.live()?;
        let o = w.run(job, timeout);
        self.after(&o);
        Ok(o)
    }

    /// Runs a program job, as [`WorkerSlot::sweep`].
    pub fn programs(&mut self, job: &ProgramJob, timeout: Duration) -> Result<Outcome, String> {
        let w = self.live()?;
        let o = w.run_programs(job, timeout);
        self.after(&o);
        Ok(o)
    }

    /// Sweeps `spec` on this worker as backend `name` (one job, run by `executor` under
    /// `allow`), calling `tick` with its inputs when it is done: the sweep of one form on
    /// every backend that runs in a worker. `None` for a form without a sweep kernel.
    pub fn sweep_spec(
        &mut self,
        name: &str,
        executor: &Executor,
        allow: &Allowances,
        timeout: Duration,
        spec: &SweepSpec,
        tick: &(dyn Fn(u64) + Sync),
    ) -> Option<SweepResult> {
        let segs = spec_segments(spec)?;
        let t = std::time::Instant::now();
        let job = sweep_job(self.next_id(), spec, segs.clone(), executor.clone(), allow);
        let reply = self.sweep(&job, timeout);
        let stages = match &reply {
            Ok(Outcome::Done(d)) => {
                Some(Stages { compile_s: d.compile_s, gpu_s: d.gpu_s, check_s: d.check_s, gpu_checked: d.gpu_checked })
            }
            _ => None,
        };
        let cubin = matches!(executor, Executor::Cuda(crate::worker::Compiler::Ptxas { .. }));
        let outcome = match reply {
            Ok(Outcome::Failed(m)) if cubin && driver_cannot_load(&m) => {
                // A row not run (no finding), not a stop of the whole run.
                Err(SweepFailure::Row(BackendFailure::new(FailureKind::Environment, cubin_unloadable(name, &m))))
            }
            reply => sweep_outcome(reply),
        };
        tick(segs.iter().map(|x| x.1).sum());
        Some(SweepResult {
            backend: name.into(),
            form: spec.form.opcode(),
            outcome,
            seconds: t.elapsed().as_secs_f64(),
            device: None,
            stages,
        })
    }

    /// Runs a program batch on this worker as backend `name` (`executor`, `allow`): the
    /// program runs of every backend that runs in a worker.
    pub fn run_batch(
        &mut self,
        name: &str,
        executor: Executor,
        allow: &Allowances,
        batch: &ProgramBatch,
    ) -> Result<Vec<Vec<u32>>, Failed> {
        let job = ProgramJob {
            id: self.next_id(),
            executor,
            ptx: batch.ptx.clone(),
            cubin: batch.cubin.clone(),
            kernels: batch.kernels.clone(),
            allow: allow.clone(),
            kernel_timeout_ms: batch
                .kernel_timeout
                .map(|t| u64::try_from(t.min(batch.timeout).as_millis()).unwrap_or(u64::MAX)),
        };
        match self.programs(&job, batch.timeout) {
            Ok(Outcome::Failed(m)) if batch.cubin.is_some() && driver_cannot_load(&m) => {
                Err(Failed::Environment(cubin_unloadable(name, &m)))
            }
            Ok(Outcome::KernelHung { index, .. }) if index >= batch.kernels.len() => {
                let message = format!("the worker named kernel {index} of {} as hung", batch.kernels.len());
                Err(Failed::Finding(Failure::Crash { by: name.to_string(), how: "protocol".into(), message }))
            }
            Ok(hung @ Outcome::KernelHung { index, .. }) => {
                Err(Failed::Programs { failed: vec![(index, failure(name, hung))], ran: Vec::new() })
            }
            Ok(outcome) => program_outcome(name, outcome),
            Err(why) => Err(Failed::Environment(why)),
        }
    }

    /// Runs memory job `job` on this worker as backend `name` (`executor`): one outcome per
    /// launch, a failure worth a finding being [`MemOutcome::Failed`]; `Err` when no worker
    /// runs, or the driver cannot load the backend's cubins at all ([`driver_cannot_load`]).
    /// The worker is restarted after a fault, crash or hang. A job of several launches that
    /// fails as a whole (a fault, crash, hang or rejection) is run again one launch at a time,
    /// so each launch gets its own outcome and a fault is its kernel's alone.
    pub fn run_mem(&mut self, name: &str, executor: Executor, job: &MemJob) -> Result<Vec<MemOutcome>, String> {
        let job = MemJob { id: self.next_id(), executor, ..job.clone() };
        let w = self.live()?;
        let t = Instant::now();
        let o = w.run_mem(&job);
        let wall_s = t.elapsed().as_secs_f64();
        let (restarts, restart_s) = self.after(&o);
        let stages = self.mem.entry(name.to_string()).or_default();
        let (load_s, run_s) = match &o {
            Outcome::Mem(d) => (d.load_s, d.run_s),
            _ => (0.0, 0.0),
        };
        stages.absorb(&MemStages {
            jobs: 1,
            launches: job.launches.len() as u64,
            load_s,
            run_s,
            wall_s,
            restarts,
            restart_s,
        });
        match o {
            Outcome::Mem(done) if done.outcomes.len() == job.launches.len() => Ok(done.outcomes),
            Outcome::Mem(done) => Ok(vec![
                MemOutcome::Failed(Failure::Crash {
                    by: name.to_string(),
                    how: "protocol".into(),
                    message: format!(
                        "the worker answered {} outcomes for {} launches",
                        done.outcomes.len(),
                        job.launches.len()
                    ),
                });
                job.launches.len()
            ]),
            Outcome::Failed(m) if job.cubin.is_some() && driver_cannot_load(&m) => Err(cubin_unloadable(name, &m)),
            _ if job.launches.len() > 1 => {
                let mut outcomes = Vec::with_capacity(job.launches.len());
                for l in 0..job.launches.len() {
                    let alone = job.only(l);
                    outcomes.extend(self.run_mem(name, alone.executor.clone(), &alone)?);
                }
                Ok(outcomes)
            }
            other => Ok(vec![MemOutcome::Failed(failure(name, other)); job.launches.len()]),
        }
    }

    fn live(&mut self) -> Result<&mut WorkerHandle, String> {
        match (&mut self.handle, &self.down) {
            (Some(h), _) => Ok(h),
            (None, Some(why)) => Err(why.clone()),
            (None, None) => Err("no worker".into()),
        }
    }

    /// After a dead outcome, a fresh worker. Gives the restarts made (0 or 1) and the seconds
    /// they took.
    fn after(&mut self, o: &Outcome) -> (u64, f64) {
        if !matches!(o, Outcome::Fault(_) | Outcome::Crashed { .. } | Outcome::Hung(_) | Outcome::KernelHung { .. }) {
            return (0, 0.0);
        }
        let t = Instant::now();
        self.handle = None;
        match WorkerHandle::spawn(&self.exe, self.kind) {
            Ok(h) => self.handle = Some(h),
            Err(e) => self.down = Some(e),
        }
        (1, t.elapsed().as_secs_f64())
    }
}

/// The driver's answers to a cubin it cannot load at all (one made by a newer ptxas than the
/// driver supports), as opposed to one it loads and runs.
const UNLOADABLE: [&str; 3] =
    ["CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "CUDA_ERROR_NO_BINARY_FOR_GPU", "CUDA_ERROR_INVALID_IMAGE"];

/// Whether a failed program job's message says the driver cannot load the cubin at all.
pub fn driver_cannot_load(message: &str) -> bool {
    UNLOADABLE.iter().any(|e| message.contains(e))
}

/// The environment failure of backend `name` whose cubins the driver cannot load (`message`:
/// the driver's answer): no finding, since the driver, not the program, is the limit. Printed
/// on stderr the first time for each backend of the process, so a campaign says it once.
fn cubin_unloadable(name: &str, message: &str) -> String {
    static TOLD: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let why = format!(
        "the driver cannot load {name}'s cubins (a ptxas newer than the driver?); its programs are not run, \
         which is no finding: {}",
        message.lines().next().unwrap_or(message)
    );
    let mut told = TOLD.lock().unwrap_or_else(|p| p.into_inner());
    if !told.iter().any(|n| n == name) {
        told.push(name.to_string());
        eprintln!("{why}");
    }
    why
}

/// A worker program job's outcome: the outputs, or the failure as a finding (`by`: the
/// backend's name).
pub fn program_outcome(by: &str, outcome: Outcome) -> Result<Vec<Vec<u32>>, Failed> {
    match outcome {
        Outcome::Programs(done) => Ok(done.outputs),
        other => Err(Failed::Finding(failure(by, other))),
    }
}

/// The failure worth a finding that a worker's outcome other than the expected reply is
/// (`by`: the backend's name): a rejection, a fault, a crash, a hang, or a reply of the wrong
/// kind (`protocol`).
fn failure(by: &str, outcome: Outcome) -> Failure {
    let by = by.to_string();
    match outcome {
        Outcome::Failed(m) => Failure::Rejected { by, message: m },
        Outcome::Fault(m) => {
            let how = m.split(": ").last().unwrap_or("fault").to_string();
            Failure::Crash { by, how, message: m }
        }
        // The site makes the signature: one faulting instruction, one crash (`worker::crash_site`).
        Outcome::Crashed { message, site } => {
            let how = site.map_or_else(|| "worker crash".to_string(), |s| format!("worker crash at {s}"));
            Failure::Crash { by, how, message }
        }
        Outcome::Hung(t) => {
            Failure::Crash { by, how: "hang".into(), message: format!("no result within {} s", t.as_secs()) }
        }
        // The finding a program that timed out alone is (the same class, backend and `how`,
        // so the same signature), with the kernel the worker named.
        Outcome::KernelHung { kernel, waited, .. } => Failure::Crash {
            by,
            how: "hang".into(),
            message: format!("no result within {} s: kernel `{kernel}` did not finish", waited.as_secs()),
        },
        Outcome::Done(_) => Failure::Crash { by, how: "protocol".into(), message: "sweep reply".into() },
        Outcome::Programs(_) => Failure::Crash { by, how: "protocol".into(), message: "program reply".into() },
        Outcome::Mem(_) => Failure::Crash { by, how: "protocol".into(), message: "memory job reply".into() },
    }
}

/// A worker sweep outcome as a conformance row's counts or failure text.
pub fn sweep_outcome(outcome: Result<Outcome, String>) -> Result<Checked, SweepFailure> {
    match outcome {
        Err(why) => Err(SweepFailure::Environment(why)),
        Ok(Outcome::Done(d)) => Ok(d.result),
        Ok(Outcome::Failed(m)) => Err(SweepFailure::Row(BackendFailure::new(FailureKind::Rejected, m))),
        Ok(Outcome::Fault(m)) => Err(SweepFailure::Row(BackendFailure::new(FailureKind::Fault, m))),
        Ok(Outcome::Programs(_)) => Err(SweepFailure::Row(BackendFailure::new(
            FailureKind::Other,
            "the worker answered a sweep with program results",
        ))),
        Ok(Outcome::Mem(_)) => Err(SweepFailure::Row(BackendFailure::new(
            FailureKind::Other,
            "the worker answered a sweep with a memory job's results",
        ))),
        Ok(Outcome::Crashed { message, .. }) => {
            Err(SweepFailure::Row(BackendFailure::new(FailureKind::Crash, message)))
        }
        Ok(Outcome::Hung(t)) => Err(SweepFailure::Row(BackendFailure::new(
            FailureKind::Hang,
            format!("no result within {} s; worker killed", t.as_secs()),
        ))),
        Ok(Outcome::KernelHung { kernel, waited, .. }) => Err(SweepFailure::Row(BackendFailure::new(
            FailureKind::Hang,
            format!("kernel `{kernel}` did not finish within {} s; worker killed", waited.as_secs()),
        ))),
    }
}

/// A protocol sweep job for `spec` over `segments`.
pub fn sweep_job(
    id: u64,
    spec: &SweepSpec,
    segments: Vec<(u64, u64)>,
    executor: crate::worker::Executor,
    allow: &Allowances,
) -> SweepJob {
    SweepJob {
        id,
        form: spec.form.opcode(),
        target: format!("{}@{}", spec.target.name(), spec.target.ptx),
        executor,
        segments,
        allow: allow.clone(),
        cpu_check: spec.cpu_check,
        #[cfg(feature = "test-hooks")]
        planted: spec.planted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cubin_the_driver_cannot_load_is_the_environment() {
        assert!(driver_cannot_load("driver JIT failed (CUDA_ERROR_UNSUPPORTED_PTX_VERSION): "));
        assert!(driver_cannot_load("driver JIT failed (CUDA_ERROR_NO_BINARY_FOR_GPU): "));
        assert!(!driver_cannot_load("driver JIT failed (CUDA_ERROR_INVALID_PTX): ptxas application ptx input"));
        let why = cubin_unloadable("cuda:ptxas-13.5-O3", "driver JIT failed (CUDA_ERROR_INVALID_IMAGE): \nlog");
        assert!(why.contains("cuda:ptxas-13.5-O3") && why.contains("no finding") && !why.contains("log"), "{why}");
    }
}
