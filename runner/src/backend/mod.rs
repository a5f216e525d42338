//! Backends: everything a result can come from, behind one [`Backend`] trait, and the
//! [`Registry`] that builds them from their names.
//!
//! A backend has a name (`oracle`, `oracle-worker`, `ptxas-check`, `cuda:jit`,
//! `cuda:ptxas-O3`, `cuda:ptxas-13.0-O3`, …), says what it needs ([`Need`]), declares the
//! offline assemblies it runs ([`Build`]; the caller runs each distinct one once per batch,
//! so backends that need the same cubin share it) and runs the workloads that exist:
//! conformance sweeps of forms ([`Backend::sweep`]), batches of fuzz programs
//! ([`Backend::run_programs`]) and memory jobs ([`Backend::run_mem`]: one kernel over global
//! buffers; only GPU backends run them, the others say so as an environment error). A run
//! that goes wrong is classified: a [`Failure`] is worth a finding (a rejection, a ptxas
//! crash, a GPU fault, a hang), a [`Failed::Environment`] is not (the worker could not be
//! restarted; the driver cannot load a cubin of a ptxas newer than itself,
//! [`driver_cannot_load`], which is said once per backend on stderr).
//!
//! The registry resolves ptxas in one place ([`resolve_ptxas`]: the `--ptxas VERSION=PATH`
//! list, else [`default_ptxas`], the only lookup; `--ptxas-matrix` adds every release
//! `ci/install-ptxas-versions` installed, [`ptxas_matrix`]) and asks each backend kind, one line per
//! kind in `KINDS`, for the names it offers and for a backend by name; a backend that cannot
//! run here is a [`BackendError::Unavailable`] that says why. Backends that run in a worker
//! process drive it through a [`WorkerSlot`], which restarts it after a fault, crash or hang;
//! the slots of a backend kind form a [`pool::Pool`] (`--devices` × `--workers` GPU workers,
//! shared by every `cuda:*` backend of a run) that spreads sweeps and program batches over
//! them. Adding a backend is one new file with a
//! [`Kind`] (and its `mod` line) plus one line in `KINDS`.

pub mod cuda;
pub mod oracle;
pub mod oracle_worker;
pub mod pool;
pub mod ptxas_check;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::oracle::isa::{Form, Target};
use ::oracle::semantics::Allowances;
use thiserror::Error;

use crate::diff::sweep::check::Checked;
use crate::diff::{BackendFailure, FailureKind};
use crate::ptxas::Ptxas;
use crate::worker::protocol::{JobBuffer, JobParam, MemJob, MemOutcome};
use crate::worker::{worker_exe, Executor, KernelRun, Outcome, ProgramJob, SweepJob, WorkerHandle, WorkerKind};
use pool::{Devices, Pool};

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

/// A failure worth a finding: one backend on one program or sweep.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Failure {
    /// The assembler or the driver's JIT rejected a program the model calls valid.
    Rejected {
        /// Who rejected it (`ptxas -O3`, `cuda:jit`).
        by: String,
        /// Its message.
        message: String,
    },
    /// A crash: ptxas crashed, the GPU faulted, the worker died or hung.
    Crash {
        /// Where (`ptxas -O0`, `cuda:jit`).
        by: String,
        /// What happened (`CUDA_ERROR_ILLEGAL_ADDRESS`, `hang`, `ptxas crash`).
        how: String,
        /// The message or log.
        message: String,
    },
}

impl Failure {
    /// The backend or assembly that failed.
    pub fn by(&self) -> &str {
        match self {
            Failure::Rejected { by, .. } | Failure::Crash { by, .. } => by,
        }
    }
}

/// Why a run gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failed {
    /// A failure worth a finding.
    Finding(Failure),
    /// The environment: the backend cannot run any more (no worker could be started).
    Environment(String),
}

/// The result of one sweep on one backend: one conformance row.
#[derive(Clone, Debug)]
pub struct SweepResult {
    /// The row's backend name (`cuda:ptxas-O3`, `ptxas-check-O0`).
    pub backend: String,
    /// The form's opcode.
    pub form: String,
    /// What the checker found, or the failure as the row states it (`GPU fault: …`,
    /// `ptxas rejected: …`), or the environment that stopped the backend.
    pub outcome: Result<Checked, SweepFailure>,
    /// Wall seconds.
    pub seconds: f64,
    /// The device the sweep ran on (`0: NVIDIA H100 80GB HBM3`; `oracle (CPU)` for the oracle
    /// worker); `None` for backends that run in this process and rows no worker ran.
    pub device: Option<String>,
    /// Where a worker's sweep spent its time (`None` where no worker answered).
    pub stages: Option<Stages>,
}

/// Where one sweep spent its time inside the worker, as its reply says.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stages {
    /// Compiling the kernel under test (ptxas or the JIT), and the check kernel's JIT.
    pub compile_s: f64,
    /// GPU time (kernels, copies) not hidden behind checking.
    pub gpu_s: f64,
    /// Checking on the CPU (the full semantics of suspects and audit samples, or of every
    /// result on the CPU path).
    pub check_s: f64,
    /// Whether the GPU's check kernel compared the results (otherwise the CPU did).
    pub gpu_checked: bool,
}

/// Why a sweep gave no counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SweepFailure {
    /// A failure of the backend on this form (rejection, fault, crash, hang), typed.
    Row(BackendFailure),
    /// The backend cannot run any more (the worker could not be restarted).
    Environment(String),
}

/// One form to sweep: its index ranges follow from its sweep scheme, `exhaustive` and
/// `samples` ([`crate::conform::segments`]).
#[derive(Clone, Debug)]
pub struct SweepSpec {
    /// The form.
    pub form: Form,
    /// The target.
    pub target: Target,
    /// Sweep ≤32-bit domains completely.
    pub exhaustive: bool,
    /// Inputs per sampled form.
    pub samples: u64,
    /// Check every result on the CPU instead of with the GPU's check kernel
    /// (`conform --cpu-check`).
    pub cpu_check: bool,
    /// Run a planted kernel instead (the worker survival tests).
    #[cfg(feature = "test-hooks")]
    pub planted: Option<crate::worker::protocol::Planted>,
}

/// The index ranges `spec` sweeps, or `None` for a form without a sweep kernel.
pub fn spec_segments(spec: &SweepSpec) -> Option<Vec<(u64, u64)>> {
    let k = generator::sweep::sweep_kernel(&spec.form, &spec.target).ok()?;
    Some(crate::conform::segments(k.scheme, spec.exhaustive, spec.samples))
}

/// A batch of programs for one backend: one module, the programs' launches and inputs.
#[derive(Clone, Debug)]
pub struct ProgramBatch {
    /// The module's PTX.
    pub ptx: String,
    /// The cubin of the backend's [`Build`], when it has one.
    pub cubin: Option<PathBuf>,
    /// The programs, in order.
    pub kernels: Vec<KernelRun>,
    /// Longest wait for the batch.
    pub timeout: Duration,
}

/// One memory job for a backend: a kernel over global buffers, its launch and parameters (a
/// [`MemJob`] without the id and executor, which the backend gives it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemSpec {
    /// The module's PTX.
    pub ptx: String,
    /// The cubin of the backend's [`Build`], when it has one.
    pub cubin: Option<PathBuf>,
    /// The entry to launch.
    pub entry: String,
    /// Threads per CTA, per dimension.
    pub block: [u32; 3],
    /// CTAs per grid dimension.
    pub grid: [u32; 3],
    /// CTAs per cluster dimension (`[1, 1, 1]`: no cluster launch).
    pub cluster: [u32; 3],
    /// Dynamic shared memory per CTA, bytes.
    pub dynamic_shared: u32,
    /// The global buffers.
    pub buffers: Vec<JobBuffer>,
    /// The entry's parameters, in signature order.
    pub params: Vec<JobParam>,
    /// Buffers copied back, in this order.
    pub read: Vec<usize>,
    /// Longest wait for the job; past it the worker is killed and the job is a hang.
    pub timeout: Duration,
}

impl MemSpec {
    /// The protocol job of this spec, as job `id` run by `executor`.
    pub fn job(&self, id: u64, executor: Executor) -> MemJob {
        MemJob {
            id,
            executor,
            ptx: self.ptx.clone(),
            cubin: self.cubin.clone(),
            entry: self.entry.clone(),
            block: self.block,
            grid: self.grid,
            cluster: self.cluster,
            dynamic_shared: self.dynamic_shared,
            buffers: self.buffers.clone(),
            params: self.params.clone(),
            read: self.read.clone(),
            timeout_ms: u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX),
        }
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

/// A located ptxas and the version label it was given (`--ptxas 13.0=PATH`; `None` for the
/// one found).
#[derive(Clone, Debug)]
pub struct PtxasTool {
    /// The label from `--ptxas`.
    pub label: Option<String>,
    /// The executable, or why it cannot be used.
    pub ptxas: Result<Ptxas, String>,
}

/// An offline assembly: which ptxas at which level. Its [`Build::label`] names the failures
/// it finds and keys the cubin the backends that need it share.
#[derive(Clone, Debug)]
pub struct Build {
    /// The ptxas's version label (`None`: the one found).
    pub label: Option<String>,
    /// The ptxas.
    pub ptxas: Ptxas,
    /// Optimization level.
    pub opt: u8,
}

impl Build {
    /// `ptxas -O3`, or `ptxas-13.0 -O3` for a labelled ptxas.
    pub fn label(&self) -> String {
        match &self.label {
            None => format!("ptxas -O{}", self.opt),
            Some(v) => format!("ptxas-{v} -O{}", self.opt),
        }
    }
}

/// A source of results (see the module docs).
pub trait Backend: Send {
    /// The name `--backends` takes.
    fn name(&self) -> String;
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
    /// Runs memory jobs, one result per spec in spec order: what became of the job (read-back
    /// bytes, a refused tensor map, or a failure worth a finding, [`MemOutcome::Failed`]), or
    /// `Err` with why the backend ran nothing (the environment). The default is that error for
    /// every spec: this backend does not run memory jobs.
    fn run_mem(&mut self, specs: &[MemSpec]) -> Vec<Result<MemOutcome, String>> {
        let why = format!("backend `{}` does not run memory jobs", self.name());
        specs.iter().map(|_| Err(why.clone())).collect()
    }
}

/// Why a backend name gives no backend.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BackendError {
    /// No backend has this name.
    #[error("unknown backend `{name}`; valid backends: {valid}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// The backend exists but cannot run on this machine.
    #[error("backend `{name}` unavailable: {why}")]
    Unavailable {
        /// The backend.
        name: String,
        /// Why (no GPU, no ptxas).
        why: String,
    },
}

/// A `--ptxas VERSION=PATH` list entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxasSpec {
    /// The version label (`13.0`).
    pub label: String,
    /// The executable.
    pub path: PathBuf,
}

/// Parses `--ptxas 13.0=/usr/local/cuda/bin/ptxas,13.5=.tools/…/ptxas` entries.
pub fn parse_ptxas_specs(entries: &[String]) -> Result<Vec<PtxasSpec>, String> {
    let mut out: Vec<PtxasSpec> = Vec::new();
    for e in entries.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
        let Some((label, path)) = e.split_once('=') else {
            return Err(format!("--ptxas `{e}`: expected VERSION=PATH (e.g. 13.0=/usr/local/cuda/bin/ptxas)"));
        };
        let label = label.trim();
        if label.is_empty() || !label.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_') {
            return Err(format!("--ptxas `{e}`: the version label may hold only letters, digits, `.` and `_`"));
        }
        if out.iter().any(|s| s.label == label) {
            return Err(format!("--ptxas: version `{label}` given twice"));
        }
        out.push(PtxasSpec { label: label.to_string(), path: PathBuf::from(path.trim()) });
    }
    Ok(out)
}

/// The one ptxas found (see [`crate::ptxas`] for the lookup order): the one place that looks
/// for ptxas.
pub fn default_ptxas() -> Result<Ptxas, String> {
    Ptxas::find().map_err(|e| e.to_string())
}

/// The ptxas executables of a run: the `--ptxas` list, or (when it is empty) the one ptxas
/// found.
pub fn resolve_ptxas(specs: &[PtxasSpec]) -> Vec<PtxasTool> {
    if specs.is_empty() {
        return vec![PtxasTool { label: None, ptxas: default_ptxas() }];
    }
    specs
        .iter()
        .map(|s| PtxasTool {
            label: Some(s.label.clone()),
            ptxas: if s.path.is_file() {
                Ptxas::at(&s.path).map_err(|e| e.to_string())
            } else {
                Err(format!("{}: no such file", s.path.display()))
            },
        })
        .collect()
}

/// Where `ci/install-ptxas-versions` puts each release's ptxas (`<release>/ptxas`): `.tools/ptxas/`
/// under the repository root ([`crate::paths::repo_root`], so `PTXDIFF_ROOT` moves it).
pub fn matrix_dir() -> Option<PathBuf> {
    crate::paths::repo_root().map(|r| r.join(".tools").join("ptxas"))
}

/// The ptxas version matrix (`--ptxas-matrix`): the `explicit` `--ptxas` entries, every
/// `<dir>/<LABEL>/ptxas` (labelled by its folder, which the installer names by release; folders
/// whose name is no label are skipped), and the ptxas found the usual way ([`default_ptxas`])
/// labelled by its release (`found` when its version line names none) unless that label or
/// that very file is in already; ordered by version ([`crate::ptxas::compare_versions`]). `Err`
/// when that leaves no ptxas at all.
pub fn ptxas_matrix(explicit: &[PtxasSpec], dir: Option<&Path>) -> Result<Vec<PtxasSpec>, String> {
    let mut out: Vec<PtxasSpec> = explicit.to_vec();
    let same_file = |a: &Path, b: &Path| a.canonicalize().ok().is_some_and(|x| b.canonicalize().ok() == Some(x));
    if let Some(entries) = dir.and_then(|d| std::fs::read_dir(d).ok()) {
        for e in entries.flatten() {
            let Some(label) = e.file_name().to_str().map(str::to_string) else { continue };
            let path = e.path().join("ptxas");
            let is_label = parse_ptxas_specs(&[format!("{label}=x")]).is_ok();
            if path.is_file() && is_label && !out.iter().any(|x| x.label == label) {
                out.push(PtxasSpec { label, path });
            }
        }
    }
    if let Ok(p) = default_ptxas() {
        let label = p.release().unwrap_or_else(|| "found".into());
        if !out.iter().any(|x| x.label == label || same_file(&x.path, &p.path)) {
            out.push(PtxasSpec { label, path: p.path });
        }
    }
    if out.is_empty() {
        return Err(format!(
            "--ptxas-matrix: no ptxas under {} and none found otherwise; run ci/install-ptxas-versions",
            dir.map_or_else(|| ".tools/ptxas".into(), |d| d.display().to_string())
        ));
    }
    out.sort_by(|a, b| crate::ptxas::compare_versions(&a.label, &b.label));
    Ok(out)
}

/// Whether `ptxas` assembles modules for `target` at all (an empty module with the target's
/// header: its PTX ISA version and architecture); `Err` with what it said. An older release
/// rejects every program of a newer PTX ISA version (`Unsupported .version 9.0`): that is the
/// limit of the release, not a finding.
pub fn supports_target(ptxas: &Ptxas, target: &Target) -> Result<(), String> {
    let header = ::oracle::program::text::module_header(target);
    match ptxas.assemble(&header, &target.name(), 0, None) {
        Ok(a) if a.ok => Ok(()),
        Ok(a) => Err(a.diagnostics.first().map_or_else(|| a.output.trim().to_string(), |d| d.message.clone())),
        Err(e) => Err(e.to_string()),
    }
}

/// The entries of `specs` whose ptxas assembles modules for `target` ([`supports_target`]),
/// and `(label, why)` for the rest (a missing executable stays in: its backends say why they
/// cannot run).
pub fn supporting(specs: Vec<PtxasSpec>, target: &Target) -> (Vec<PtxasSpec>, Vec<(String, String)>) {
    let mut left_out = Vec::new();
    let kept = specs
        .into_iter()
        .filter(|s| match Ptxas::at(&s.path).map_err(|e| e.to_string()).and_then(|p| supports_target(&p, target)) {
            Err(why) if s.path.is_file() => {
                left_out.push((s.label.clone(), why));
                false
            }
            _ => true,
        })
        .collect();
    (kept, left_out)
}

/// Settings every backend is built with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `--ptxas` entries (empty: the ptxas found).
    pub ptxas: Vec<PtxasSpec>,
    /// The GPUs (`--devices`).
    pub devices: Devices,
    /// Worker processes per device, and of `oracle-worker` (`--workers`; `None`:
    /// [`pool::per_core_workers`] for GPU workers, one oracle worker).
    pub workers: Option<usize>,
    /// The allowances results are checked under.
    pub allow: Allowances,
    /// Longest wait for one sweep job.
    pub sweep_timeout: Duration,
}

/// What backends are built from: the settings, the resolved ptxas executables, the worker
/// executable and the pool of GPU workers every `cuda:*` backend shares.
pub struct Context {
    /// The settings.
    pub settings: Settings,
    /// The ptxas executables, in `--ptxas` order.
    pub ptxas: Vec<PtxasTool>,
    exe: Result<PathBuf, String>,
    gpu: Mutex<Option<Result<Arc<Pool>, String>>>,
}

impl Context {
    /// Resolves ptxas and the worker executable.
    pub fn new(settings: Settings) -> Context {
        let ptxas = resolve_ptxas(&settings.ptxas);
        Context { settings, ptxas, exe: worker_exe(), gpu: Mutex::new(None) }
    }

    /// The worker executable.
    pub fn exe(&self) -> Result<&Path, String> {
        self.exe.as_deref().map_err(Clone::clone)
    }

    /// The GPU workers of `--devices` × `--workers`, started (in parallel) on first use and
    /// shared by every `cuda:*` backend; `Err` says why no GPU is usable.
    pub fn gpu_pool(&self) -> Result<Arc<Pool>, String> {
        let mut g = self.gpu.lock().unwrap_or_else(|p| p.into_inner());
        if g.is_none() {
            let (devices, workers) = (&self.settings.devices, self.settings.workers);
            *g = Some(self.exe().and_then(|exe| Pool::start_gpu(exe, devices, workers)).map(Arc::new));
        }
        g.clone().unwrap_or_else(|| Err("no GPU worker".into()))
    }

    /// Why no GPU is usable, when a GPU backend was asked for and its worker did not start.
    pub fn gpu_unavailable(&self) -> Option<String> {
        self.gpu.lock().unwrap_or_else(|p| p.into_inner()).as_ref().and_then(|r| r.as_ref().err().cloned())
    }

    /// The ptxas labelled `label`, or why it is unavailable.
    pub fn ptxas(&self, label: Option<&str>) -> Result<Ptxas, String> {
        self.ptxas
            .iter()
            .find(|t| t.label.as_deref() == label)
            .map_or_else(|| Err("no such ptxas".into()), |t| t.ptxas.clone())
    }

    /// The version labels (`None`: the one found), in `--ptxas` order.
    pub fn ptxas_labels(&self) -> Vec<Option<String>> {
        self.ptxas.iter().map(|t| t.label.clone()).collect()
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

/// A worker process that is restarted after a fault, crash or hang.
pub struct WorkerSlot {
    exe: PathBuf,
    kind: WorkerKind,
    handle: Option<WorkerHandle>,
    down: Option<String>,
    serial: u64,
}

impl WorkerSlot {
    /// Starts a worker; `Err` says why it cannot run.
    pub fn start(exe: &Path, kind: WorkerKind) -> Result<WorkerSlot, String> {
        let handle = WorkerHandle::spawn(exe, kind)?;
        Ok(WorkerSlot { exe: exe.to_path_buf(), kind, handle: Some(handle), down: None, serial: 0 })
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
        };
        match self.programs(&job, batch.timeout) {
            Ok(Outcome::Failed(m)) if batch.cubin.is_some() && driver_cannot_load(&m) => {
                Err(Failed::Environment(cubin_unloadable(name, &m)))
            }
            Ok(outcome) => program_outcome(name, outcome),
            Err(why) => Err(Failed::Environment(why)),
        }
    }

    /// Runs memory job `spec` on this worker as backend `name` (`executor`): a failure worth a
    /// finding is [`MemOutcome::Failed`]; `Err` when no worker runs, or the driver cannot load
    /// the backend's cubins at all ([`driver_cannot_load`]). The worker is restarted after a
    /// fault, crash or hang.
    pub fn run_mem(&mut self, name: &str, executor: Executor, spec: &MemSpec) -> Result<MemOutcome, String> {
        let job = spec.job(self.next_id(), executor);
        let w = self.live()?;
        let o = w.run_mem(&job);
        self.after(&o);
        match o {
            Outcome::Mem(done) => Ok(done.outcome),
            Outcome::Failed(m) if spec.cubin.is_some() && driver_cannot_load(&m) => Err(cubin_unloadable(name, &m)),
            other => Ok(MemOutcome::Failed(failure(name, other))),
        }
    }

    fn live(&mut self) -> Result<&mut WorkerHandle, String> {
        match (&mut self.handle, &self.down) {
            (Some(h), _) => Ok(h),
            (None, Some(why)) => Err(why.clone()),
            (None, None) => Err("no worker".into()),
        }
    }

    fn after(&mut self, o: &Outcome) {
        if matches!(o, Outcome::Fault(_) | Outcome::Crashed(_) | Outcome::Hung(_)) {
            self.handle = None;
            match WorkerHandle::spawn(&self.exe, self.kind) {
                Ok(h) => self.handle = Some(h),
                Err(e) => self.down = Some(e),
            }
        }
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
        Outcome::Crashed(m) => Failure::Crash { by, how: "worker crash".into(), message: m },
        Outcome::Hung(t) => {
            Failure::Crash { by, how: "hang".into(), message: format!("no result within {} s", t.as_secs()) }
        }
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
        Ok(Outcome::Crashed(m)) => Err(SweepFailure::Row(BackendFailure::new(FailureKind::Crash, m))),
        Ok(Outcome::Hung(t)) => Err(SweepFailure::Row(BackendFailure::new(
            FailureKind::Hang,
            format!("no result within {} s; worker killed", t.as_secs()),
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

/// A backend built by its kind, or why it cannot run here.
pub type Built = Result<Box<dyn Backend>, String>;

/// The backends of a run: those that can run here, and the rest with why they cannot.
pub struct Selection {
    /// Backends that run.
    pub backends: Vec<Box<dyn Backend>>,
    /// `(name, why)` of those that cannot run here.
    pub unavailable: Vec<(String, String)>,
}

/// One backend kind: the names it offers in a context and how to build one by name
/// (`None`: not a name of this kind).
pub struct Kind {
    /// Every name this kind offers.
    pub names: fn(&Context) -> Vec<String>,
    /// Builds the backend `name`, or says why it cannot run here.
    pub build: fn(&str, &Context) -> Option<Built>,
}

/// Every backend kind, one line each.
const KINDS: [Kind; 4] = [oracle::KIND, oracle_worker::KIND, ptxas_check::KIND, cuda::KIND];

/// Builds backends from their names (see the module docs).
pub struct Registry {
    ctx: Context,
}

impl Registry {
    /// A registry over `settings` (resolves ptxas once).
    pub fn new(settings: Settings) -> Registry {
        Registry { ctx: Context::new(settings) }
    }

    /// The context backends are built from.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// Every backend name, in a fixed order.
    pub fn names(&self) -> Vec<String> {
        KINDS.iter().flat_map(|k| (k.names)(&self.ctx)).collect()
    }

    /// Checks that every name is a backend name.
    pub fn check_names(&self, names: &[String]) -> Result<(), BackendError> {
        let all = self.names();
        match names.iter().find(|n| !all.contains(n)) {
            Some(n) => Err(BackendError::Unknown { name: n.clone(), valid: all.join(", ") }),
            None => Ok(()),
        }
    }

    /// Builds the backend `name`.
    pub fn build(&self, name: &str) -> Result<Box<dyn Backend>, BackendError> {
        self.check_names(&[name.to_string()])?;
        for k in &KINDS {
            if let Some(r) = (k.build)(name, &self.ctx) {
                return r.map_err(|why| BackendError::Unavailable { name: name.into(), why });
            }
        }
        Err(BackendError::Unknown { name: name.into(), valid: self.names().join(", ") })
    }

    /// Builds every backend of `names` that can run here; the rest with why they cannot.
    /// Unknown names are an error.
    pub fn build_all(&self, names: &[String]) -> Result<Selection, BackendError> {
        self.check_names(names)?;
        let mut s = Selection { backends: Vec::new(), unavailable: Vec::new() };
        for n in names {
            match self.build(n) {
                Ok(b) => s.backends.push(b),
                Err(BackendError::Unavailable { name, why }) => s.unavailable.push((name, why)),
                Err(e) => return Err(e),
            }
        }
        Ok(s)
    }

    /// The default backends of `fuzz`: the oracle, every GPU backend (per ptxas: -O0 and -O3;
    /// then the JIT) and `ptxas-check` per ptxas.
    pub fn fuzz_defaults(&self) -> Vec<String> {
        let labels = self.ctx.ptxas_labels();
        let mut v = vec![oracle::NAME.to_string()];
        for l in &labels {
            v.extend(cuda::ptxas_names(l.as_deref()));
        }
        v.push(cuda::JIT.to_string());
        v.extend(labels.iter().map(|l| ptxas_check::name(l.as_deref())));
        v
    }

    /// The default backends of `conform`: `cuda:ptxas-O3` per ptxas.
    pub fn conform_defaults(&self) -> Vec<String> {
        self.ctx.ptxas_labels().iter().map(|l| cuda::ptxas_name(l.as_deref(), 3)).collect()
    }

    /// What `conform` and `fuzz` run when no GPU is usable: `ptxas-check` per ptxas and the
    /// oracle.
    pub fn without_gpu(&self) -> Vec<String> {
        let mut v: Vec<String> = self.ctx.ptxas_labels().iter().map(|l| ptxas_check::name(l.as_deref())).collect();
        v.push(oracle::NAME.to_string());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(ptxas: Vec<PtxasSpec>) -> Registry {
        Registry::new(Settings {
            ptxas,
            devices: Devices::default(),
            workers: None,
            allow: Allowances::all(),
            sweep_timeout: Duration::from_secs(1),
        })
    }

    #[test]
    fn names_are_known_and_unknown_ones_list_the_valid_ones() {
        let r = registry(Vec::new());
        let names = r.names();
        for n in ["oracle", "oracle-worker", "ptxas-check", "cuda:jit", "cuda:ptxas-O0", "cuda:ptxas-O3"] {
            assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
        }
        let e = r.build("cuda:ptxas-O2").err().unwrap().to_string();
        assert!(e.contains("unknown backend `cuda:ptxas-O2`") && e.contains("cuda:jit"), "{e}");
        assert_eq!(
            r.fuzz_defaults(),
            ["oracle", "cuda:ptxas-O0", "cuda:ptxas-O3", "cuda:jit", "ptxas-check"].map(String::from)
        );
        assert_eq!(r.conform_defaults(), ["cuda:ptxas-O3"]);
        assert!(r.build("oracle").is_ok());
    }

    #[test]
    fn several_ptxas_versions_are_backends_side_by_side() {
        let specs = parse_ptxas_specs(&["13.0=/nonexistent/ptxas".into(), "13.5=/also/missing".into()]).unwrap();
        let r = registry(specs);
        let names = r.names();
        for n in ["cuda:ptxas-13.0-O3", "cuda:ptxas-13.5-O0", "ptxas-check-13.0", "ptxas-check-13.5"] {
            assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
        }
        assert!(!names.iter().any(|x| x == "cuda:ptxas-O3"), "{names:?}");
        match r.build("ptxas-check-13.5") {
            Err(BackendError::Unavailable { why, .. }) => assert!(why.contains("/also/missing"), "{why}"),
            other => panic!("a missing ptxas makes its backends unavailable, got {:?}", other.map(|b| b.name())),
        }
        assert_eq!(r.conform_defaults(), ["cuda:ptxas-13.0-O3", "cuda:ptxas-13.5-O3"]);
        assert!(parse_ptxas_specs(&["13.0".into()]).unwrap_err().contains("VERSION=PATH"));
        assert!(parse_ptxas_specs(&["1 3=/x".into()]).is_err());
        assert!(parse_ptxas_specs(&["13.0=/x".into(), "13.0=/y".into()]).unwrap_err().contains("twice"));
    }

    #[test]
    fn the_matrix_is_every_installed_release_in_version_order() {
        let dir = tempfile::tempdir().unwrap();
        for v in ["12.10", "12.9", "not a label", ".install-13.0.x"] {
            std::fs::create_dir_all(dir.path().join(v)).unwrap();
            std::fs::write(dir.path().join(v).join("ptxas"), "").unwrap();
        }
        std::fs::create_dir_all(dir.path().join("13.1")).unwrap(); // no ptxas inside
        let explicit = parse_ptxas_specs(&["12.9=/elsewhere/ptxas".into()]).unwrap();
        let m = ptxas_matrix(&explicit, Some(dir.path())).unwrap();
        let labels: Vec<&str> = m.iter().map(|s| s.label.as_str()).collect();
        // The explicit 12.9 wins over the folder of that name; the ptxas found (if any) joins.
        assert_eq!(m[0], explicit[0], "{m:?}");
        assert_eq!(labels[1], "12.10", "{labels:?}");
        assert!(!labels.iter().any(|l| l.contains(' ') || l.starts_with('.') || *l == "13.1"), "{labels:?}");
        let mut sorted = labels.clone();
        sorted.sort_by(|a, b| crate::ptxas::compare_versions(a, b));
        assert_eq!(labels, sorted);
        if default_ptxas().is_err() {
            assert_eq!(labels, ["12.9", "12.10"]);
            assert!(ptxas_matrix(&[], None).unwrap_err().contains("ci/install-ptxas-versions"));
        }
    }

    #[test]
    fn a_cubin_the_driver_cannot_load_is_the_environment() {
        assert!(driver_cannot_load("driver JIT failed (CUDA_ERROR_UNSUPPORTED_PTX_VERSION): "));
        assert!(driver_cannot_load("driver JIT failed (CUDA_ERROR_NO_BINARY_FOR_GPU): "));
        assert!(!driver_cannot_load("driver JIT failed (CUDA_ERROR_INVALID_PTX): ptxas application ptx input"));
        let why = cubin_unloadable("cuda:ptxas-13.5-O3", "driver JIT failed (CUDA_ERROR_INVALID_IMAGE): \nlog");
        assert!(why.contains("cuda:ptxas-13.5-O3") && why.contains("no finding") && !why.contains("log"), "{why}");
    }
}
