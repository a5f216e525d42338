//! Crash isolation: GPU work runs in a child process (`ptxdiff worker --device N`), one per
//! GPU, speaking a JSON-lines protocol ([`protocol`]) on stdin/stdout. The worker side
//! ([`serve`](mod@serve)) runs jobs and reports faults; the supervisor side ([`supervisor`]) sends jobs,
//! enforces the timeout and records what became of each job, so the caller can start a fresh
//! worker after a fault, crash or hang. `ptxdiff worker --oracle` is the CPU oracle behind the
//! same protocol (the `oracle-worker` backend; CI exercises the supervisor with it).
//! [`harness_kernels`] holds the worker's own small kernels (gathering suspects, the planted
//! bit flips), which never contain code under test. [`memjob`] runs a memory job (one kernel
//! over global buffers, tensor maps encoded by the driver) on a GPU worker. `planted`
//! (`test-hooks` builds) makes the oracle worker a backend with planted compiler bugs.

pub mod crash_site;
mod harness_kernels;
mod job_error;
pub mod memjob;
#[cfg(feature = "test-hooks")]
pub mod planted;
pub mod protocol;
mod serve;
pub mod supervisor;

#[cfg(feature = "test-hooks")]
pub use protocol::Planted;
pub use protocol::{
    Compiler, Executor, JobBuffer, JobParam, KernelRun, MemDone, MemJob, MemLaunch, MemOutcome, ProgramJob,
    ProgramsDone, Reply, Request, SweepDone, SweepJob, WireIm2col, WireTensorMap,
};
pub use serve::{oracle_outputs, oracle_sweep, serve};
pub use supervisor::{worker_exe, Outcome, WorkerHandle, WorkerKind};
