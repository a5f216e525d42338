//! Running programs on every selected backend: the oracle in process, `ptxas` at -O0 and -O3
//! (one module per batch, failures attributed to single programs), and the worker backends
//! (GPU or `oracle-worker`), restarting a worker that faulted, crashed or hung and narrowing
//! the failure down to single programs by halving the batch.
//!
//! The same engine serves whole batches and the minimizer's one-program predicate calls.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use oracle::isa::Target;
use oracle::program::interp::{self, InterpError, Plant, RunOptions};
use oracle::program::{text, Inputs, Program};
use oracle::semantics::{Allowances, Expected};

use super::assemble::{assemble, Assembled};
use super::backend::FuzzBackend;
use super::compare::Observed;
use crate::ptxas::Ptxas;
use crate::worker::{KernelRun, Outcome, ProgramJob, WorkerHandle};

/// A failure of one backend on one program.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// Everything known about one program after a run.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    /// The oracle's expectation per thread (an error means the program broke an invariant).
    pub expected: Result<Vec<Expected>, InterpError>,
    /// Outputs per worker backend.
    pub observed: Vec<Observed>,
    /// Failures.
    pub failures: Vec<Failure>,
}

/// The backends and the processes behind them.
pub struct Engine {
    /// Seconds spent per worker backend (loading, running, copying).
    pub seconds: BTreeMap<String, f64>,
    /// Target.
    pub target: Target,
    /// Selected backends (the oracle is implied).
    pub backends: Vec<FuzzBackend>,
    /// Allowances for the oracle.
    pub allow: Allowances,
    /// A planted oracle bug (tests).
    pub plant: Option<Plant>,
    /// ptxas, when found.
    pub ptxas: Option<Ptxas>,
    /// Where cubins go.
    pub scratch: PathBuf,
    gpu: Option<WorkerHandle>,
    oracle_worker: Option<WorkerHandle>,
    exe: PathBuf,
    /// Per-job timeout for a batch.
    pub timeout: Duration,
    /// Why the GPU backends are unavailable, if they are.
    pub gpu_unavailable: Option<String>,
    /// Device and driver, when a GPU worker started.
    pub device: Option<(String, i32)>,
    serial: u64,
}

fn worker_exe() -> PathBuf {
    std::env::var_os("PTXDIFF_BIN").map(PathBuf::from).or_else(|| std::env::current_exe().ok()).unwrap_or_default()
}

impl Engine {
    /// Starts the workers the backends need. GPU backends that cannot start are dropped, and
    /// `gpu_unavailable` says why.
    pub fn new(
        target: Target,
        mut backends: Vec<FuzzBackend>,
        allow: Allowances,
        plant: Option<Plant>,
        scratch: PathBuf,
    ) -> Engine {
        let exe = worker_exe();
        let ptxas = Ptxas::find().ok();
        let mut gpu_unavailable = None;
        let mut device = None;
        let wants_gpu = backends.iter().any(|b| matches!(b, FuzzBackend::Gpu(_)));
        let gpu = if wants_gpu {
            match WorkerHandle::spawn_with(&exe) {
                Ok(w) => {
                    device = Some((w.device.clone(), w.driver));
                    Some(w)
                }
                Err(e) => {
                    gpu_unavailable = Some(e);
                    None
                }
            }
        } else {
            None
        };
        if gpu.is_none() {
            backends.retain(|b| !matches!(b, FuzzBackend::Gpu(_)));
        }
        if ptxas.is_none() {
            backends.retain(|b| *b != FuzzBackend::PtxasCheck);
        }
        let oracle_worker =
            if backends.contains(&FuzzBackend::OracleWorker) { WorkerHandle::spawn_oracle(&exe).ok() } else { None };
        Engine {
            seconds: BTreeMap::new(),
            target,
            backends,
            allow,
            plant,
            ptxas,
            scratch,
            gpu,
            oracle_worker,
            exe,
            timeout: Duration::from_secs(120),
            gpu_unavailable,
            device,
            serial: 0,
        }
    }

    fn restart(&mut self, backend: FuzzBackend) {
        let slot = if backend == FuzzBackend::OracleWorker { &mut self.oracle_worker } else { &mut self.gpu };
        *slot = None;
        let w = if backend == FuzzBackend::OracleWorker {
            WorkerHandle::spawn_oracle(&self.exe)
        } else {
            WorkerHandle::spawn_with(&self.exe)
        };
        *slot = w.ok();
    }

    /// Runs `which` programs on a worker backend; failures narrowed to single programs.
    fn run_worker(
        &mut self,
        backend: FuzzBackend,
        programs: &[Program],
        inputs: &[Inputs],
        which: &[usize],
        cubin: Option<&PathBuf>,
        results: &mut [ProgramResult],
    ) {
        if which.is_empty() {
            return;
        }
        let refs: Vec<Program> = which.iter().map(|&i| programs[i].clone()).collect();
        let ptx = text::module(&refs);
        self.serial += 1;
        let job = ProgramJob {
            id: self.serial,
            backend: backend.worker_backend(),
            ptx,
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
        };
        let timeout = if which.len() == 1 { self.timeout.min(Duration::from_secs(20)) } else { self.timeout };
        let slot = if backend == FuzzBackend::OracleWorker { &mut self.oracle_worker } else { &mut self.gpu };
        let Some(worker) = slot.as_mut() else { return };
        let outcome = worker.run_programs(&job, timeout);
        let name = backend.name().to_string();
        let failure = match outcome {
            Outcome::Programs(done) => {
                for (&i, words) in which.iter().zip(done.outputs) {
                    results[i].observed.push(Observed { backend: name.clone(), words });
                }
                return;
            }
            Outcome::Failed(m) => Failure::Rejected { by: name.clone(), message: m },
            Outcome::Fault(m) => {
                self.restart(backend);
                let how = m.split(": ").last().unwrap_or("fault").to_string();
                Failure::Crash { by: name.clone(), how, message: m }
            }
            Outcome::Crashed(m) => {
                self.restart(backend);
                Failure::Crash { by: name.clone(), how: "worker crash".into(), message: m }
            }
            Outcome::Hung(t) => {
                self.restart(backend);
                Failure::Crash {
                    by: name.clone(),
                    how: "hang".into(),
                    message: format!("no result within {} s", t.as_secs()),
                }
            }
            Outcome::Done(_) => {
                Failure::Crash { by: name.clone(), how: "protocol".into(), message: "sweep reply".into() }
            }
        };
        if which.len() == 1 {
            results[which[0]].failures.push(failure);
            return;
        }
        // A cubin holds every program of the batch; halves re-use it (entries are looked up
        // by name), the JIT compiles each half's own module.
        let (a, b) = which.split_at(which.len() / 2);
        self.run_worker(backend, programs, inputs, a, cubin, results);
        self.run_worker(backend, programs, inputs, b, cubin, results);
    }

    /// What batch preparation needs (shareable with the preparing threads).
    pub fn preparer(&self) -> Preparer {
        Preparer {
            target: self.target,
            backends: self.backends.clone(),
            allow: self.allow.clone(),
            plant: self.plant,
            ptxas: self.ptxas.clone(),
            scratch: self.scratch.clone(),
        }
    }

    /// Runs `programs` on every backend.
    pub fn run(&mut self, programs: &[Program], inputs: &[Inputs], tag: &str) -> Vec<ProgramResult> {
        let prepared = self.preparer().prepare(programs, inputs, tag);
        self.execute(programs, inputs, prepared)
    }

    /// Runs a prepared batch on the worker backends.
    pub fn execute(&mut self, programs: &[Program], inputs: &[Inputs], prepared: Prepared) -> Vec<ProgramResult> {
        let Prepared { mut results, cubins, valid } = prepared;
        for backend in self.backends.clone() {
            if !backend.runs_in_worker() {
                continue;
            }
            let (which, cubin) = match backend.ptxas_opt() {
                Some(opt) => match cubins.get(&opt) {
                    Some(a) => (a.accepted.clone(), a.cubin.clone()),
                    None => continue,
                },
                None => (valid.clone(), None),
            };
            let t = std::time::Instant::now();
            self.run_worker(backend, programs, inputs, &which, cubin.as_ref(), &mut results);
            *self.seconds.entry(backend.name().to_string()).or_default() += t.elapsed().as_secs_f64();
        }
        for a in cubins.values() {
            if let Some(c) = &a.cubin {
                let _ = std::fs::remove_file(c);
            }
        }
        results
    }
}

/// A batch after the oracle and ptxas, before the worker backends.
#[derive(Debug)]
pub struct Prepared {
    /// Per program: the oracle's expectation and the assembler's failures so far.
    pub results: Vec<ProgramResult>,
    /// Assembly per optimization level.
    pub cubins: BTreeMap<u8, Assembled>,
    /// Programs the oracle accepts.
    pub valid: Vec<usize>,
}

/// The CPU side of a batch: the program oracle and ptxas (no worker processes).
#[derive(Clone, Debug)]
pub struct Preparer {
    target: Target,
    backends: Vec<FuzzBackend>,
    allow: Allowances,
    plant: Option<Plant>,
    ptxas: Option<Ptxas>,
    scratch: PathBuf,
}

impl Preparer {
    /// Runs the oracle on every program (all cores) and assembles the batch at -O0 and -O3
    /// when a backend needs it.
    pub fn prepare(&self, programs: &[Program], inputs: &[Inputs], tag: &str) -> Prepared {
        let expected: Vec<Result<Vec<Expected>, InterpError>> = {
            use rayon::prelude::*;
            let (allow, plant) = (&self.allow, self.plant);
            programs
                .par_iter()
                .zip(inputs.par_iter())
                .map(|(p, i)| {
                    interp::run_with(p, i, allow, RunOptions { plant, ..RunOptions::default() }).map(|(o, _)| o)
                })
                .collect()
        };
        let mut results: Vec<ProgramResult> = expected
            .into_iter()
            .map(|e| ProgramResult { expected: e, observed: Vec::new(), failures: Vec::new() })
            .collect();
        let valid: Vec<usize> = (0..programs.len()).filter(|&i| results[i].expected.is_ok()).collect();
        let needs_ptxas = self.backends.iter().any(|b| b.ptxas_opt().is_some() || *b == FuzzBackend::PtxasCheck);
        let mut cubins: BTreeMap<u8, Assembled> = BTreeMap::new();
        if let (true, Some(ptxas)) = (needs_ptxas, &self.ptxas) {
            let arch = self.target.name();
            let dir = &self.scratch;
            let (o0, o3) = rayon::join(
                || assemble(ptxas, programs, &valid, &arch, 0, dir, tag),
                || assemble(ptxas, programs, &valid, &arch, 3, dir, tag),
            );
            for (opt, r) in [(0u8, o0), (3u8, o3)] {
                match r {
                    Ok(a) => {
                        for (i, m) in &a.rejected {
                            results[*i]
                                .failures
                                .push(Failure::Rejected { by: format!("ptxas -O{opt}"), message: m.clone() });
                        }
                        for (i, m) in &a.crashed {
                            results[*i].failures.push(Failure::Crash {
                                by: format!("ptxas -O{opt}"),
                                how: "ptxas crash".into(),
                                message: m.clone(),
                            });
                        }
                        cubins.insert(opt, a);
                    }
                    Err(e) => {
                        for &i in &valid {
                            results[i].failures.push(Failure::Crash {
                                by: format!("ptxas -O{opt}"),
                                how: "ptxas could not run".into(),
                                message: e.to_string(),
                            });
                        }
                    }
                }
            }
        }
        Prepared { results, cubins, valid }
    }
}
