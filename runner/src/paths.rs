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
    fn the_repository_is_found_from_the_test_executable() {
        // The test executable lies under target/ of this repository, whatever the working
        // directory is.
        let root = repo_root().expect("a repository root");
        assert!(root.join("corpus/known").is_dir(), "{}", root.display());
        assert!(root.join("runner").is_dir(), "{}", root.display());
    }
}
