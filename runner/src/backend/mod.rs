//! Backends: everything a result can come from, behind one [`Backend`] trait, and the
//! [`Registry`] that builds them from their names.
//!
//! A backend has a name (`oracle`, `oracle-worker`, `ptxas-check`, `cuda:jit`,
//! `cuda:ptxas-O3`, `cuda:ptxas-13.0-O3`, …) and a [`BackendKind`] (what its results mean: the
//! reference, the oracle behind the worker protocol, an assembler check, a GPU; code asks the
//! kind, never the name), says what it needs ([`Need`]), declares the offline assemblies it
//! runs ([`Build`]; the caller runs each distinct one once per batch, so backends that need
//! the same cubin share it) and runs the workloads that exist ([`jobs`]): conformance sweeps
//! of forms ([`Backend::sweep`]), batches of fuzz programs ([`Backend::run_programs`]) and
//! memory jobs ([`Backend::run_mem`]: the worker protocol's [`MemJob`], passed through; only
//! GPU backends run them, the others say so as an environment error). A run that goes wrong
//! is classified: a [`Failure`] is worth a finding (a rejection, a ptxas crash, a GPU fault, a
//! hang), a [`Failed::Environment`] is not; a hang its worker pins on one kernel of a batch, or
//! a fault of a worker that ran that one kernel alone, is that program's failure alone
//! ([`Failed::Programs`]).
//!
//! The files, one job each: this one (the trait and the kind), [`jobs`] (what a backend is
//! asked to run and what it answers), [`matrix`] (ptxas lookup, `--ptxas` lists and the version
//! matrix), [`slots`] (a worker process driven through a [`WorkerSlot`], restarted after a
//! fault, crash or hang, and worker outcomes as results), [`pool`] (the slots of a backend
//! kind: `--devices` × `--workers` GPU workers shared by every `cuda:*` backend of a run),
//! [`context`] (what backends are built from: settings, resolved ptxas, the GPU pool, a kind's
//! registry entry), [`registry`] (the [`Registry`] that builds backends by name, one line per
//! kind in its `KINDS`), and one file per backend. Adding a backend is one new file with a [`Kind`] (and
//! its `mod` line) plus one line in `KINDS`.
//!
//! Layer: below the diff layer and the commands, above the worker; nothing here calls back
//! into a command module.

pub mod context;
pub mod cuda;
pub mod jobs;
pub mod matrix;
pub mod oracle;
pub mod oracle_worker;
pub mod pool;
pub mod ptxas_check;
pub mod registry;
pub mod slots;

pub use crate::worker::protocol::{Failure, MemJob, MemLaunch, MemOutcome};
pub use context::{Built, Context, Kind, Settings};
pub use jobs::{segments, spec_segments, Build, Failed, ProgramBatch, Stages, SweepFailure, SweepResult, SweepSpec};
pub use matrix::{
    default_ptxas, matrix_dir, parse_ptxas_specs, ptxas_matrix, resolve_ptxas, supporting, supports_target, PtxasSpec,
    PtxasTool,
};
pub use registry::{BackendError, Registry, Selection};
pub use slots::{driver_cannot_load, program_outcome, sweep_job, sweep_outcome, MemStages, WorkerSlot};

/// Something a backend needs from the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// A CUDA GPU (device ordinal).
    Gpu(i32),
    /// A ptxas (its `--ptxas` version label, or `None` for the one found).
    Ptxas(Option<String>),
    /// A worker process (`ptxdiff worker`).
    Worker,
}

/// What kind of source of results a backend is: what its results mean. Read from the backend
/// ([`Backend::kind`]) or the registry ([`Registry::kind_of`]), never from a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendKind {
    /// The in-process oracle: the reference.
    Oracle,
    /// The oracle behind the worker protocol.
    OracleWorker,
    /// ptxas assembling only: rejections and crashes, no results.
    PtxasCheck,
    /// A GPU (through the driver's JIT or an offline ptxas): its results are hardware's.
    Gpu,
}

impl BackendKind {
    /// Whether results of this kind come from a GPU (only those count as hardware).
    pub fn is_gpu(self) -> bool {
        self == BackendKind::Gpu
    }
}

/// What a backend does with a program batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The reference every other result is compared with (the in-process oracle).
    Reference,
    /// Assembles only ([`Backend::builds`]); runs nothing.
    CompileOnly,
    /// Runs programs and returns their outputs.
    Runs,
}

/// A source of results (see the module docs).
pub trait Backend: Send {
    /// The name `--backends` takes.
    fn name(&self) -> String;
    /// What kind of source of results it is (what its results mean), as a type.
    fn kind(&self) -> BackendKind;
    /// What it needs from the machine.
    fn needs(&self) -> Vec<Need>;
    /// What it does with program batches.
    fn role(&self) -> Role;
    /// The offline assemblies it runs (empty for backends that assemble nothing).
    fn builds(&self) -> Vec<Build> {
        Vec::new()
    }
    /// Environment lines for reports (`device`, `driver`, `ptxas`).
    fn environment(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Sweeps `specs` (results in order; a form without a sweep kernel may give none), calling
    /// `tick` with the inputs of each finished spec.
    fn sweep(&mut self, specs: &[SweepSpec], tick: &(dyn Fn(u64) + Sync)) -> Vec<SweepResult>;
    /// Runs a program batch: each program's output words, or what went wrong with the batch.
    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed>;
    /// Runs memory jobs (each one module and its launches), one result per job in order: per
    /// launch, what became of it (read-back bytes, a refused tensor map, or a failure worth a
    /// finding, [`MemOutcome::Failed`]), or `Err` with why the backend ran nothing (the
    /// environment). The backend sets each job's `id` and `executor` as it sends it (whatever
    /// the caller put there). The default is that error for every job: this backend does not
    /// run memory jobs.
    fn run_mem(&mut self, jobs: &[MemJob]) -> Vec<Result<Vec<MemOutcome>, String>> {
        let why = format!("backend `{}` does not run memory jobs", self.name());
        jobs.iter().map(|_| Err(why.clone())).collect()
    }
    /// What this backend's memory jobs have cost so far inside its workers (`None` for a
    /// backend without workers).
    fn mem_stages(&self) -> Option<MemStages> {
        None
    }
}

/// The environment lines of `backends` (device, driver, ptxas versions), each key once.
pub fn environment(backends: &[Box<dyn Backend>]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = Vec::new();
    for (k, v) in backends.iter().flat_map(|b| b.environment()) {
        if !env.iter().any(|(x, _)| *x == k) {
            env.push((k, v));
        }
    }
    env
}

/// `-13.0` for a labelled ptxas, empty for the one found: the part of a backend name that
/// names the ptxas.
pub fn label_suffix(label: Option<&str>) -> String {
    label.map(|l| format!("-{l}")).unwrap_or_default()
}
