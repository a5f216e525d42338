//! How a job on a worker goes wrong ([`JobError`]): shared by the worker's sweep and program
//! jobs ([`serve`](mod@super::serve)) and its memory jobs ([`super::memjob`]).

use super::protocol::{Compiler, Executor};
use crate::gpu::GpuError;

/// Why a job gave no reply of its own: a failure (the worker goes on), or a fault or a named
/// hung kernel (it exits).
pub(super) enum JobError {
    /// The job failed; the worker goes on.
    Failed(String),
    /// The GPU faulted; the worker reports it and exits.
    Fault(String),
    /// Kernel `index` of a program job (entry `kernel`) did not finish within the job's
    /// per-kernel timeout (waited `waited_ms`); the worker reports it and exits.
    KernelHung {
        /// Its index in the job.
        index: usize,
        /// Its entry name.
        kernel: String,
        /// Milliseconds it was waited for.
        waited_ms: u64,
    },
}

/// The compiler of a GPU job; an oracle job sent to a GPU worker is a failure.
pub(super) fn on_gpu(executor: &Executor) -> Result<&Compiler, JobError> {
    match executor {
        Executor::Cuda(c) => Ok(c),
        Executor::Oracle => Err(JobError::Failed("an oracle job sent to a GPU worker".into())),
    }
}

/// A GPU error as a job error: a fault (the context is poisoned) or a failure.
pub(super) fn fault(e: GpuError) -> JobError {
    if e.is_fault() {
        JobError::Fault(e.to_string())
    } else {
        JobError::Failed(e.to_string())
    }
}
