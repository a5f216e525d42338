//! Where ptxas comes from: the one lookup ([`default_ptxas`]), `--ptxas VERSION=PATH` lists
//! ([`parse_ptxas_specs`], resolved once by [`resolve_ptxas`]), the version matrix of every
//! release `ci/install-ptxas-versions` installed ([`ptxas_matrix`]), and which of them support
//! a target ([`supporting`]).

use std::path::{Path, PathBuf};

use ::oracle::isa::Target;

use crate::ptxas::Ptxas;

/// A located ptxas and the version label it was given (`--ptxas 13.0=PATH`; `None` for the
/// one found).
#[derive(Clone, Debug)]
pub struct PtxasTool {
    /// The label from `--ptxas`.
    pub label: Option<String>,
    /// The executable, or why it cannot be used.
    pub ptxas: Result<Ptxas, String>,
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
