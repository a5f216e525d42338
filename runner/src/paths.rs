//! Where ptxdiff's own files are, independent of the working directory: the repository root
//! (for `corpus/known/`, `reports/` and `.tools/`) and the user's cache directory (for the ptxas
//! that `conform` installs on first run).
//!
//! The repository is `PTXDIFF_ROOT` when set; else the first folder holding `corpus/known`
//! above the running executable (so `target/release/ptxdiff` and a copy in the repository's
//! `bin/` both find it); else the repository this binary was built from, if it still exists.
//! The cache is `PTXDIFF_CACHE` when set, else `$XDG_CACHE_HOME/ptxdiff`, else
//! `$HOME/.cache/ptxdiff`.

use std::path::{Path, PathBuf};

/// The repository root, if one can be found (see the module docs).
pub fn repo_root() -> Option<PathBuf> {
    if let Some(root) = std::env::var_os("PTXDIFF_ROOT") {
        return Some(PathBuf::from(root));
    }
    let is_repo = |d: &Path| d.join("corpus").join("known").is_dir();
    if let Ok(exe) = std::env::current_exe() {
        let exe = exe.canonicalize().unwrap_or(exe);
        if let Some(found) = exe.ancestors().skip(1).find(|d| is_repo(d)) {
            return Some(found.to_path_buf());
        }
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    is_repo(&built).then(|| built.canonicalize().unwrap_or(built))
}

/// An error naming the variable when `PTXDIFF_ROOT` or `PTXDIFF_KNOWN` is set to a path that is
/// not an existing folder: a typo there would otherwise mean "no known findings" (every known
/// bug reported as new) or a new, empty repository root created on the fly.
pub fn check_environment() -> Result<(), String> {
    check_environment_from(|k| std::env::var_os(k))
}

/// [`check_environment`] with the environment read through `var`.
pub fn check_environment_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Result<(), String> {
    for (name, what) in [
        ("PTXDIFF_ROOT", "the folder holding corpus/ (a checkout of ptxdiff, or the copy carried with the binary)"),
        ("PTXDIFF_KNOWN", "the folder of known findings, e.g. corpus/known"),
    ] {
        let Some(v) = var(name).filter(|v| !v.is_empty()) else { continue };
        let path = PathBuf::from(&v);
        if !path.is_dir() {
            return Err(format!("{name}={} is not an existing folder; set it to {what}, or unset it", path.display()));
        }
    }
    Ok(())
}

/// The folder of the user's cached tools (see the module docs), if a home can be found.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_from(|k| std::env::var_os(k))
}

/// [`cache_dir`] with the environment read through `var`: the one statement of the rule, which
/// `ci/install-ptxas` repeats in shell (runner/tests/install_ptxas.rs checks that they agree).
pub fn cache_dir_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let nonempty = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    nonempty("PTXDIFF_CACHE")
        .or_else(|| nonempty("XDG_CACHE_HOME").map(|d| d.join("ptxdiff")))
        .or_else(|| nonempty("HOME").map(|d| d.join(".cache").join("ptxdiff")))
}

/// A default path for an option: the environment variable `var` when set, else `rel` under the
/// repository root, else `rel` in the working directory.
pub fn default_under_repo(var: &str, rel: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        return PathBuf::from(p);
    }
    repo_root().map_or_else(|| PathBuf::from(rel), |r| r.join(rel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_or_known_folder_that_does_not_exist_is_an_error_naming_the_variable() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        let env = |k: &'static str, v: &Path| {
            let v = v.as_os_str().to_owned();
            move |name: &str| (name == k).then(|| v.clone())
        };
        for var in ["PTXDIFF_ROOT", "PTXDIFF_KNOWN"] {
            let e = check_environment_from(env(var, &missing)).unwrap_err();
            assert!(e.contains(var) && e.contains("nope"), "{e}");
            assert!(check_environment_from(env(var, dir.path())).is_ok());
        }
        assert!(check_environment_from(|_| None).is_ok());
    }

    #[test]
    fn the_repository_is_found_from_the_test_executable() {
        // The test executable lies under target/ of this repository, whatever the working
        // directory is.
        let root = repo_root().expect("a repository root");
        assert!(root.join("corpus/known").is_dir(), "{}", root.display());
        assert!(root.join("runner").is_dir(), "{}", root.display());
    }
}
