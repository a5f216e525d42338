//! What a backend is asked to run and what it answers: sweeps of forms ([`SweepSpec`] →
//! [`SweepResult`], over the index ranges of [`segments`]), program batches ([`ProgramBatch`]),
//! offline assemblies ([`Build`]) and the ways a run gives no result ([`Failed`],
//! [`SweepFailure`]). Memory jobs are the worker protocol's [`MemJob`](crate::worker::protocol::MemJob),
//! passed through as they are.

use std::path::PathBuf;
use std::time::Duration;

use ::oracle::isa::{Form, Target};
use generator::sweep::Scheme;

use crate::diff::BackendFailure;
use crate::ptxas::Ptxas;
use crate::sweep_check::Checked;
use crate::worker::protocol::Failure;
use crate::worker::KernelRun;

/// Why a run gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failed {
    /// A failure worth a finding.
    Finding(Failure),
    /// The environment: the backend cannot run any more (no worker could be started).
    Environment(String),
    /// Failures of single programs of the batch, each named by the worker that ran it (a
    /// kernel that did not finish within [`ProgramBatch::kernel_timeout`]) or failing alone in
    /// a part of one kernel, and the outputs of the programs that ran; by index into
    /// [`ProgramBatch::kernels`]. The two lists are never both empty. The programs in neither
    /// list have no outputs (their worker was stopped with a kernel running, before reading any
    /// back, or their part of several kernels failed): the caller runs them again.
    Programs {
        /// The programs that failed, each with its failure.
        failed: Vec<(usize, Failure)>,
        /// The programs that ran, each with its output words.
        ran: Vec<(usize, Vec<u32>)>,
    },
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
/// `samples` ([`segments`]).
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
    Some(segments(k.scheme, spec.exhaustive, spec.samples))
}

/// Slices of a sampled exhaustive-scheme domain: spread evenly so that every sign and
/// exponent range is sampled, not just the smallest indices.
const SPREAD: u64 = 256;

/// The index ranges a form's sweep covers: the whole domain when `exhaustive` (or when it
/// holds at most `samples` inputs), else `samples` inputs.
pub fn segments(scheme: Scheme, exhaustive: bool, samples: u64) -> Vec<(u64, u64)> {
    match scheme {
        Scheme::Exhaustive { bits } if exhaustive || (1u64 << bits) <= samples => vec![(0, 1u64 << bits)],
        Scheme::Exhaustive { bits } => {
            let domain = 1u64 << bits;
            let per = (samples / SPREAD).max(1);
            (0..SPREAD).map(|k| (k * (domain / SPREAD), per)).collect()
        }
        Scheme::Sampled => vec![(0, samples)],
    }
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
    /// Longest wait for any one of its kernels, counted from when the one before it finished
    /// (at most `timeout`): a kernel still running past it is named as hung
    /// ([`Failed::Programs`]). `None`: only the batch's timeout.
    pub kernel_timeout: Option<Duration>,
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
