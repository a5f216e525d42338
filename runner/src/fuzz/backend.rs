//! The backends a fuzz campaign compares: the program oracle (the reference, in process), the
//! GPU backends (in the worker process), `ptxas-check` (assemble only, for targets without
//! hardware) and `oracle-worker` (the program oracle behind the worker protocol: a second
//! opinion that needs no GPU, used by tests and by the planted-bug check).

use crate::worker::GpuBackend;

/// A backend of `ptxdiff fuzz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FuzzBackend {
    /// The program oracle (always on: the reference every other result is compared with).
    Oracle,
    /// Assemble at -O0 and -O3, run nothing.
    PtxasCheck,
    /// A GPU backend.
    Gpu(GpuBackend),
    /// The program oracle in the worker process.
    OracleWorker,
}

impl FuzzBackend {
    /// Every name `--backends` takes.
    pub const NAMES: [&'static str; 6] =
        ["oracle", "ptxas-check", "cuda:ptxas-O0", "cuda:ptxas-O3", "cuda:jit", "oracle-worker"];

    /// The default set with a GPU.
    pub fn gpu_defaults() -> Vec<FuzzBackend> {
        vec![
            FuzzBackend::Oracle,
            FuzzBackend::Gpu(GpuBackend::PtxasO0),
            FuzzBackend::Gpu(GpuBackend::PtxasO3),
            FuzzBackend::Gpu(GpuBackend::Jit),
        ]
    }

    /// The name `--backends` takes.
    pub fn name(self) -> &'static str {
        match self {
            FuzzBackend::Oracle => "oracle",
            FuzzBackend::PtxasCheck => "ptxas-check",
            FuzzBackend::Gpu(g) => g.name(),
            FuzzBackend::OracleWorker => "oracle-worker",
        }
    }

    /// Parses a backend name.
    pub fn parse(name: &str) -> Result<FuzzBackend, String> {
        Ok(match name {
            "oracle" => FuzzBackend::Oracle,
            "ptxas-check" => FuzzBackend::PtxasCheck,
            "oracle-worker" => FuzzBackend::OracleWorker,
            other => match GpuBackend::ALL.into_iter().find(|g| g.name() == other) {
                Some(g) => FuzzBackend::Gpu(g),
                None => {
                    return Err(format!("unknown backend `{other}`; valid backends: {}", FuzzBackend::NAMES.join(", ")))
                }
            },
        })
    }

    /// Whether results come back from a worker process.
    pub fn runs_in_worker(self) -> bool {
        matches!(self, FuzzBackend::Gpu(_) | FuzzBackend::OracleWorker)
    }

    /// The optimization level of the cubin it runs, if it runs an offline-assembled one.
    pub fn ptxas_opt(self) -> Option<u8> {
        match self {
            FuzzBackend::Gpu(GpuBackend::PtxasO0) => Some(0),
            FuzzBackend::Gpu(GpuBackend::PtxasO3) => Some(3),
            _ => None,
        }
    }

    /// The worker-protocol backend for it (`oracle-worker` travels as `cuda:jit` to a worker
    /// started with `--oracle`, which ignores it).
    pub fn worker_backend(self) -> GpuBackend {
        match self {
            FuzzBackend::Gpu(g) => g,
            _ => GpuBackend::Jit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for n in FuzzBackend::NAMES {
            assert_eq!(FuzzBackend::parse(n).unwrap().name(), n);
        }
        assert!(FuzzBackend::parse("cuda:ptxas-O2").unwrap_err().contains("valid backends"));
    }
}
