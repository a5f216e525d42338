//! How a backend failed to produce results ([`BackendFailure`], [`FailureKind`]): the words
//! the worker, the backends, the sweep checker and the diff layer share, so they live below
//! all of them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How a backend failed to produce results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The assembler or the driver's JIT rejected the module.
    Rejected,
    /// The GPU faulted (a `CUresult` error while running).
    Fault,
    /// The worker process died.
    Crash,
    /// No result within the timeout; the worker was killed.
    Hang,
    /// The harness around the backend failed: no kernel could be built for the job, or the
    /// worker answered with something that is not its results.
    Other,
    /// The machine, not the backend, stopped the run (ptxas could not be started, the temp
    /// folder is full, the worker could not be restarted): the row failed, but it is no finding.
    Environment,
    /// The oracle's audit found a fast kernel that disagrees with the full semantics while the
    /// backend agreed with the kernel: the row's verdict cannot be trusted (an oracle bug).
    OracleDefect,
}

/// A backend that produced no results, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendFailure {
    /// What kind of failure.
    pub kind: FailureKind,
    /// The message, log or detail.
    pub message: String,
}

impl BackendFailure {
    /// A failure of `kind` with `message`.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> BackendFailure {
        BackendFailure { kind, message: message.into() }
    }

    /// Whether the backend's process is gone (fault, crash, hang) and must be restarted.
    pub fn kills_worker(&self) -> bool {
        matches!(self.kind, FailureKind::Fault | FailureKind::Crash | FailureKind::Hang)
    }
}

impl fmt::Display for BackendFailure {
    /// `rejected: …`, `GPU fault: …`, `worker crashed: …`, `hang: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            FailureKind::Rejected => write!(f, "rejected: {}", self.message),
            FailureKind::Fault => write!(f, "GPU fault: {}", self.message),
            FailureKind::Crash => write!(f, "worker crashed: {}", self.message),
            FailureKind::Hang => write!(f, "hang: {}", self.message),
            FailureKind::Environment => write!(f, "not run: {}", self.message),
            FailureKind::Other | FailureKind::OracleDefect => f.write_str(&self.message),
        }
    }
}
