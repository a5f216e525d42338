//! The [`Registry`]: builds backends from their names, one line per backend kind in `KINDS`,
//! over a [`Context`]; a backend that cannot run here is a [`BackendError::Unavailable`] that
//! says why.

use thiserror::Error;

use super::context::{Context, Kind, Settings};
use super::{cuda, oracle, oracle_worker, ptxas_check, Backend, BackendKind};

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

/// The backends of a run: those that can run here, and the rest with why they cannot.
pub struct Selection {
    /// Backends that run.
    pub backends: Vec<Box<dyn Backend>>,
    /// `(name, why)` of those that cannot run here.
    pub unavailable: Vec<(String, String)>,
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

    /// The kind of the backend `name` (`None`: no backend has this name), without building it.
    pub fn kind_of(&self, name: &str) -> Option<BackendKind> {
        KINDS.iter().find(|k| (k.names)(&self.ctx).iter().any(|n| n == name)).map(|k| k.kind)
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
    use std::time::Duration;

    use ::oracle::semantics::Allowances;

    use super::*;
    use crate::backend::matrix::{parse_ptxas_specs, PtxasSpec};
    use crate::backend::pool::Devices;

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
    fn kinds_are_the_registry_entries() {
        let r = registry(Vec::new());
        assert_eq!(r.kind_of("cuda:jit"), Some(BackendKind::Gpu));
        assert_eq!(r.kind_of("cuda:ptxas-O0"), Some(BackendKind::Gpu));
        assert_eq!(r.kind_of("ptxas-check"), Some(BackendKind::PtxasCheck));
        assert_eq!(r.kind_of("oracle-worker"), Some(BackendKind::OracleWorker));
        assert_eq!(r.kind_of("oracle"), Some(BackendKind::Oracle));
        assert_eq!(r.kind_of("cuda:nothing"), None);
        assert_eq!(r.build("oracle").unwrap().kind(), BackendKind::Oracle);
    }
}
