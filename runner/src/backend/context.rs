//! What backends are built from: the [`Settings`] of a run, the [`Context`] (the ptxas
//! executables resolved once, the worker executable and the GPU pool every `cuda:*` backend
//! shares) and a backend kind's registry entry ([`Kind`]). Below the registry and the
//! backends, which both use it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::oracle::semantics::Allowances;

use super::matrix::{resolve_ptxas, PtxasSpec, PtxasTool};
use super::pool::{Devices, Pool};
use super::{Backend, BackendKind};
use crate::ptxas::Ptxas;
use crate::worker::worker_exe;

/// Settings every backend is built with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `--ptxas` entries (empty: the ptxas found).
    pub ptxas: Vec<PtxasSpec>,
    /// The GPUs (`--devices`).
    pub devices: Devices,
    /// Worker processes per device, and of `oracle-worker` (`--workers`; `None`:
    /// [`super::pool::per_core_workers`] for GPU workers, one oracle worker).
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

/// A backend built by its kind, or why it cannot run here.
pub type Built = Result<Box<dyn Backend>, String>;

/// One backend kind's registry entry: its [`BackendKind`], the names it offers in a context and
/// how to build one by name (`None`: not a name of this kind).
pub struct Kind {
    /// What its backends are.
    pub kind: BackendKind,
    /// Every name this kind offers.
    pub names: fn(&Context) -> Vec<String>,
    /// Builds the backend `name`, or says why it cannot run here.
    pub build: fn(&str, &Context) -> Option<Built>,
}
