//! `cuda:*`: CUDA GPUs, in the worker processes of the run's devices (`--devices` ×
//! `--workers`), given the machine code through a [`Compiler`]: the driver's JIT (`cuda:jit`)
//! or an offline ptxas at one optimization level (`cuda:ptxas-O3`; `cuda:ptxas-13.0-O3` for a
//! `--ptxas` version). Every `cuda:*` backend of a run shares the one [`Pool`] of GPU
//! workers: sweeps are spread over it form by form, program batches split by kernels, memory
//! jobs spread job by job (a `cuda:ptxas-*` backend needs each job's cubin); a
//! worker is restarted after a fault, crash or hang.

use std::sync::Arc;
use std::time::Duration;

use oracle::semantics::Allowances;

use super::pool::Pool;
use super::{
    label_suffix, Backend, BackendKind, Build, Built, Context, Failed, Kind, Need, ProgramBatch, Role, SweepResult,
    SweepSpec,
};
use crate::ptxas::Ptxas;
use crate::worker::protocol::{MemJob, MemOutcome};
use crate::worker::Executor;

/// The JIT backend's name.
pub const JIT: &str = "cuda:jit";

/// The optimization levels the offline-assembled backends offer.
pub const LEVELS: [u8; 2] = [0, 3];

/// `cuda:ptxas-O{opt}`, or `cuda:ptxas-13.0-O{opt}` for a labelled ptxas.
pub fn ptxas_name(label: Option<&str>, opt: u8) -> String {
    format!("cuda:ptxas{}-O{opt}", label_suffix(label))
}

/// The assembly ([`Build::label`]: `ptxas -O3`, `ptxas-13.0 -O3`) whose cubin the
/// offline-assembled backend `name` runs (the inverse of [`ptxas_name`]); `None` for another
/// backend (the JIT assembles nothing offline).
pub fn assembly_of(name: &str) -> Option<String> {
    ptxas_build_of(name).map(|(label, opt)| format!("ptxas{label} -O{opt}"))
}

/// The label suffix (`""`, or `-13.0` for a labelled ptxas) and the level of the
/// offline-assembled backend `name` (`cuda:ptxas-13.0-O3`: `("-13.0", 3)`); `None` for another
/// backend.
pub fn ptxas_build_of(name: &str) -> Option<(&str, u8)> {
    let (label, opt) = name.strip_prefix("cuda:ptxas")?.rsplit_once("-O")?;
    let opt: u8 = opt.parse().ok()?;
    (label.is_empty() || label.starts_with('-')).then_some((label, opt))
}

/// The offline-assembled backends of the ptxas labelled `label`, one per level.
pub fn ptxas_names(label: Option<&str>) -> Vec<String> {
    LEVELS.iter().map(|&opt| ptxas_name(label, opt)).collect()
}

/// How the GPU gets its machine code.
#[derive(Clone, Debug)]
pub enum Compiler {
    /// The driver's JIT.
    Jit,
    /// An offline ptxas.
    Ptxas {
        /// Its `--ptxas` version label (`None`: the one found).
        label: Option<String>,
        /// The executable and its version.
        ptxas: Ptxas,
        /// Optimization level.
        opt: u8,
    },
}

/// The registry's entry.
pub const KIND: Kind = Kind {
    kind: BackendKind::Gpu,
    names: |ctx| {
        let mut v: Vec<String> = ctx.ptxas_labels().iter().flat_map(|l| ptxas_names(l.as_deref())).collect();
        v.push(JIT.to_string());
        v
    },
    build: |name, ctx: &Context| {
        let wanted = if name == JIT {
            None
        } else {
            let found = ctx
                .ptxas_labels()
                .into_iter()
                .flat_map(|l| LEVELS.map(|opt| (l.clone(), opt)))
                .find(|(l, opt)| ptxas_name(l.as_deref(), *opt) == name)?;
            Some(found)
        };
        Some(build(name, wanted, ctx))
    },
};

fn build(name: &str, ptxas: Option<(Option<String>, u8)>, ctx: &Context) -> Built {
    let pool = ctx.gpu_pool()?;
    let compiler = match ptxas {
        None => Compiler::Jit,
        Some((label, opt)) => Compiler::Ptxas { ptxas: ctx.ptxas(label.as_deref())?, label, opt },
    };
    Ok(Box::new(Cuda {
        name: name.to_string(),
        compiler,
        pool,
        allow: ctx.settings.allow.clone(),
        timeout: ctx.settings.sweep_timeout,
    }))
}

/// A GPU backend.
pub struct Cuda {
    name: String,
    compiler: Compiler,
    pool: Arc<Pool>,
    allow: Allowances,
    timeout: Duration,
}

impl Cuda {
    fn executor(&self) -> Executor {
        Executor::Cuda(match &self.compiler {
            Compiler::Jit => crate::worker::Compiler::Jit,
            Compiler::Ptxas { ptxas, opt, .. } => {
                crate::worker::Compiler::Ptxas { path: ptxas.path.clone(), version: ptxas.version.clone(), opt: *opt }
            }
        })
    }
}

impl Backend for Cuda {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn needs(&self) -> Vec<Need> {
        let mut v: Vec<Need> = self.pool.ordinals().into_iter().map(Need::Gpu).collect();
        v.push(Need::Worker);
        if let Compiler::Ptxas { label, .. } = &self.compiler {
            v.push(Need::Ptxas(label.clone()));
        }
        v
    }

    fn role(&self) -> Role {
        Role::Runs
    }

    fn builds(&self) -> Vec<Build> {
        match &self.compiler {
            Compiler::Jit => Vec::new(),
            Compiler::Ptxas { label, ptxas, opt } => {
                vec![Build { label: label.clone(), ptxas: ptxas.clone(), opt: *opt }]
            }
        }
    }

    fn environment(&self) -> Vec<(String, String)> {
        let mut v = self.pool.environment();
        if let Compiler::Ptxas { label, ptxas, .. } = &self.compiler {
            v.push((format!("ptxas{}", label_suffix(label.as_deref())), ptxas.version.clone()));
        }
        v
    }

    fn sweep(&mut self, specs: &[SweepSpec], tick: &(dyn Fn(u64) + Sync)) -> Vec<SweepResult> {
        let executor = self.executor();
        self.pool.sweep_specs(&self.name, &executor, &self.allow, self.timeout, specs, tick)
    }

    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        let executor = self.executor();
        self.pool.run_batch(&self.name, executor, &self.allow, batch)
    }

    fn run_mem(&mut self, jobs: &[MemJob]) -> Vec<Result<Vec<MemOutcome>, String>> {
        let executor = self.executor();
        if let Compiler::Ptxas { .. } = &self.compiler {
            if jobs.iter().any(|s| s.cubin.is_none()) {
                // The caller's omission, not the backend's failure: no job is sent.
                let why = format!("{} runs memory jobs from the cubin of its build; a job came without one", self.name);
                return jobs.iter().map(|_| Err(why.clone())).collect();
            }
        }
        self.pool.run_mem(&self.name, &executor, jobs)
    }

    fn mem_stages(&self) -> Option<super::MemStages> {
        Some(self.pool.mem_stages(&self.name))
    }
}
