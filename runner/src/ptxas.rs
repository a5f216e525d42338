//! Finding and running NVIDIA's `ptxas` (the offline PTX assembler), and the lookup and install
//! of the pinned NVIDIA tools in general ([`Tool`]: ptxas here, nvdisasm in [`crate::sass`]).
//!
//! Lookup order of a tool: its environment variable (`PTXAS`, `NVDISASM`), the tool on `PATH`,
//! `$CUDA_HOME/bin/`, `.tools/` under the repository root, the copy of the pinned wheel
//! (`nvidia-cuda-nvcc`, `nvidia-cuda-nvdisasm`) that [`Tool::install`] — and `ci/install-ptxas`
//! without arguments, which looks in the same places first — unpacks into the user's cache
//! (`~/.cache/ptxdiff/`, see [`crate::paths`]), and `/usr/local/cuda/bin/`: one copy per
//! machine. [`Tool::install`] runs `ci/install-ptxas` itself (compiled into the binary), so the
//! wheels, their version and the unpacking live in that one script.
//! Diagnostics are parsed from ptxas's `ptxas FILE, line N; error : MESSAGE` lines; the release
//! (`13.5`) from its `--version` line ([`release`]), and releases are ordered numerically
//! ([`compare_versions`]: 12.10 > 12.9).

use std::path::{Path, PathBuf};
use std::process::Command;

use thiserror::Error;

/// Errors from locating or running ptxas.
#[derive(Debug, Error)]
pub enum PtxasError {
    /// No ptxas anywhere we looked.
    #[error(
        "ptxas not found: set PTXAS=/path/to/ptxas, put it on PATH, set CUDA_HOME, or run `ci/install-ptxas` \
         (unpacks the pinned nvidia-cuda-nvcc wheel into ~/.cache/ptxdiff/nvcc, where `ptxdiff conform` installs it itself)"
    )]
    NotFound,
    /// Installing ptxas from the pinned wheel failed (no network, no pip, no home).
    #[error(
        "could not install ptxas into {dest}: {why}\n  to go on with ptxas: set PTXAS=/path/to/ptxas, or run \
         `ci/install-ptxas` on a machine with python3, pip and access to PyPI"
    )]
    Install {
        /// Where it was to go.
        dest: String,
        /// What went wrong (the installer's last lines).
        why: String,
    },
    /// The probe harness itself (a module with no forms) does not assemble, so no verdict on
    /// any form could be trusted.
    #[error("the empty probe module does not assemble for {target}; ptxas said:\n{output}")]
    Harness {
        /// The target.
        target: String,
        /// ptxas output.
        output: String,
    },
    /// ptxas exists but could not be started or talked to.
    #[error("running {path}: {source}")]
    Io {
        /// The executable.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// One diagnostic line from ptxas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The 1-based source line it names, if any.
    pub line: Option<usize>,
    /// `error` or `warning` (or `fatal`).
    pub severity: String,
    /// The message text.
    pub message: String,
}

/// The outcome of one assembly.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// Exit status was 0.
    pub ok: bool,
    /// The process was killed by a signal (a crash of the assembler itself).
    pub crashed: bool,
    /// Parsed diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Everything ptxas printed on stderr and stdout.
    pub output: String,
}

impl Assembly {
    /// Lines named by error diagnostics.
    pub fn error_lines(&self) -> Vec<usize> {
        let mut v: Vec<usize> =
            self.diagnostics.iter().filter(|d| d.severity == "error").filter_map(|d| d.line).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// The first error message for `line`.
    pub fn error_at(&self, line: usize) -> Option<&str> {
        self.diagnostics.iter().find(|d| d.severity == "error" && d.line == Some(line)).map(|d| d.message.as_str())
    }
}

/// A located ptxas executable.
#[derive(Clone, Debug)]
pub struct Ptxas {
    /// Path to the executable.
    pub path: PathBuf,
    /// Its version line (`Cuda compilation tools, release 13.5, V13.5.37`).
    pub version: String,
}

/// `ci/install-ptxas`, the one installer of the pinned NVIDIA tools.
const INSTALLER: &str = include_str!("../../ci/install-ptxas");

/// A pinned NVIDIA tool: where it is looked for and how `ci/install-ptxas` installs it.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// The executable's name (`ptxas`).
    pub name: &'static str,
    /// The environment variable naming the executable (`PTXAS`).
    pub env: &'static str,
    /// The folder under `.tools/` and under the cache that holds the unpacked wheel (`nvcc`).
    pub dir: &'static str,
    /// The installer's arguments before DEST (`["--nvdisasm"]`; none for ptxas).
    pub installer_args: &'static [&'static str],
}

/// ptxas, from the `nvidia-cuda-nvcc` wheel.
pub const PTXAS: Tool = Tool { name: "ptxas", env: "PTXAS", dir: "nvcc", installer_args: &[] };

impl Tool {
    /// Where [`Tool::install`] unpacks the wheel: [`Tool::dir`] in the user's cache.
    pub fn cache_install_dir(&self) -> Option<PathBuf> {
        crate::paths::cache_dir().map(|d| d.join(self.dir))
    }

    /// The executable inside an unpacked wheel.
    fn in_wheel(&self, dir: &Path) -> PathBuf {
        dir.join("nvidia/cu13/bin").join(self.name)
    }

    /// Every place the tool is looked for, in order (see the module docs).
    pub fn candidates(&self) -> Vec<PathBuf> {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(p) = std::env::var_os(self.env).filter(|p| !p.is_empty()) {
            candidates.push(PathBuf::from(p));
        }
        if let Some(path) = std::env::var_os("PATH") {
            candidates.extend(std::env::split_paths(&path).map(|d| d.join(self.name)));
        }
        if let Some(cuda) = std::env::var_os("CUDA_HOME") {
            candidates.push(PathBuf::from(cuda).join("bin").join(self.name));
        }
        if let Some(root) = crate::paths::repo_root() {
            candidates.push(self.in_wheel(&root.join(".tools").join(self.dir)));
        }
        if let Some(cache) = self.cache_install_dir() {
            candidates.push(self.in_wheel(&cache));
        }
        candidates.push(Path::new("/usr/local/cuda/bin").join(self.name));
        candidates
    }

    /// The first candidate that exists.
    pub fn find(&self) -> Option<PathBuf> {
        self.candidates().into_iter().find(|p| p.is_file())
    }

    /// Installs the tool from its pinned wheel into the user's cache (see
    /// [`Tool::cache_install_dir`]) by running `ci/install-ptxas [ARGS] DEST` with `python3` from
    /// `PATH`, and gives the installed executable; or where it was to go and why it failed
    /// (without network access or pip).
    pub fn install(&self) -> Result<PathBuf, (String, String)> {
        let dest =
            self.cache_install_dir().ok_or_else(|| ("~/.cache/ptxdiff".into(), "no HOME to cache it in".into()))?;
        let fail = |why: String| (dest.display().to_string(), why);
        let out = Command::new("bash")
            .arg("-c")
            .arg(INSTALLER)
            .arg("ci/install-ptxas")
            .args(self.installer_args)
            .arg(&dest)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| fail(format!("running bash: {e}")))?;
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = tail[tail.len().saturating_sub(3)..].join("\n    ");
            return Err(fail(format!("the installer failed ({}): {tail}", out.status)));
        }
        Ok(self.in_wheel(&dest))
    }
}

/// Where [`install`] unpacks the ptxas wheel: `nvcc/` in the user's cache.
pub fn cache_install_dir() -> Option<PathBuf> {
    PTXAS.cache_install_dir()
}

/// Installs ptxas from the pinned `nvidia-cuda-nvcc` wheel into the user's cache (see
/// [`cache_install_dir`]) with [`Tool::install`], and gives the installed ptxas. Without network
/// access (or pip) it fails with what to do.
pub fn install() -> Result<Ptxas, PtxasError> {
    let path = PTXAS.install().map_err(|(dest, why)| PtxasError::Install { dest, why })?;
    Ptxas::at(&path)
}

/// The prefix of the temporary folders `assemble` works in: `ptxdiff-ptxas-PID-`, so that a
/// later run can tell its own leftovers from anyone else's files.
fn temp_prefix(pid: u32) -> String {
    format!("ptxdiff-ptxas-{pid}-")
}

/// Removes the temporary folders that a killed ptxdiff process left in `tmp`: only folders
/// named by [`temp_prefix`] whose process is gone (on Linux, no `/proc/PID`); nothing else.
fn remove_stale_temp_dirs(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("ptxdiff-ptxas-")) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        let alive = !cfg!(target_os = "linux") || Path::new("/proc").join(pid.to_string()).exists();
        if !alive && e.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

impl Ptxas {
    /// Finds ptxas (see the module docs for the lookup order) and reads its version.
    pub fn find() -> Result<Ptxas, PtxasError> {
        Self::at(&PTXAS.find().ok_or(PtxasError::NotFound)?)
    }

    /// Its release (`13.5`), read from [`Ptxas::version`].
    pub fn release(&self) -> Option<String> {
        release(&self.version)
    }

    /// Uses the ptxas at `path`.
    pub fn at(path: &Path) -> Result<Ptxas, PtxasError> {
        let out = Command::new(path)
            .arg("--version")
            .output()
            .map_err(|source| PtxasError::Io { path: path.to_path_buf(), source })?;
        let text = String::from_utf8_lossy(&out.stdout);
        let version = text
            .lines()
            .find(|l| l.contains("release"))
            .unwrap_or_else(|| text.lines().last().unwrap_or("unknown"))
            .trim()
            .to_string();
        Ok(Ptxas { path: path.to_path_buf(), version })
    }

    /// Assembles `ptx` for `arch` (`sm_90a`) at optimization level `opt`, writing the cubin to
    /// `cubin` (or discarding it).
    pub fn assemble(&self, ptx: &str, arch: &str, opt: u8, cubin: Option<&Path>) -> Result<Assembly, PtxasError> {
        let io = |source| PtxasError::Io { path: self.path.clone(), source };
        static SWEEP: std::sync::Once = std::sync::Once::new();
        SWEEP.call_once(|| remove_stale_temp_dirs(&std::env::temp_dir()));
        let dir = tempfile::Builder::new().prefix(&temp_prefix(std::process::id())).tempdir().map_err(io)?;
        let src = dir.path().join("probe.ptx");
        std::fs::write(&src, ptx).map_err(io)?;
        let default_out = dir.path().join("probe.cubin");
        let out_path = cubin.unwrap_or(&default_out);
        let out = Command::new(&self.path)
            .arg(format!("-arch={arch}"))
            .arg(format!("-O{opt}"))
            .arg(&src)
            .arg("-o")
            .arg(out_path)
            .output()
            .map_err(io)?;
        let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
        output.push_str(&String::from_utf8_lossy(&out.stdout));
        let crashed = out.status.code().is_none();
        Ok(Assembly { ok: out.status.success(), crashed, diagnostics: parse_diagnostics(&output), output })
    }
}

/// The release in a `ptxas --version` line (`Cuda compilation tools, release 13.5, V13.5.37`
/// gives `13.5`), if it names one.
pub fn release(version_line: &str) -> Option<String> {
    let rest = &version_line[version_line.find("release ")? + "release ".len()..];
    let r: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let r = r.trim_end_matches('.');
    (!r.is_empty()).then(|| r.to_string())
}

/// Orders version labels numerically, part by part (`12.9` < `12.10` < `13.0`); a part that is
/// not a number sorts after the numbers, as text, so every label has a place.
pub fn compare_versions(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |v: &str| -> Vec<(u8, u64, String)> {
        v.split(['.', '_'])
            .map(|p| match p.parse::<u64>() {
                Ok(n) => (0, n, String::new()),
                Err(_) => (1, 0, p.to_string()),
            })
            .collect()
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// Parses `ptxas FILE, line N; error   : MESSAGE` and `ptxas fatal   : MESSAGE` lines.
pub fn parse_diagnostics(output: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for l in output.lines() {
        let Some(rest) = l.strip_prefix("ptxas") else {
            continue;
        };
        let (line, rest) = match rest.find(", line ") {
            Some(i) => {
                let after = &rest[i + 7..];
                let end = after.find(';').unwrap_or(after.len());
                (after[..end].trim().parse().ok(), after.get(end + 1..).unwrap_or(""))
            }
            None => (None, rest),
        };
        let Some((sev, msg)) = rest.split_once(':') else {
            continue;
        };
        let severity = sev.trim().to_string();
        if !matches!(severity.as_str(), "error" | "warning" | "fatal") {
            continue;
        }
        out.push(Diagnostic { line, severity, message: msg.trim().to_string() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_runs_temporary_folder_is_removed_by_the_next_run() {
        let tmp = tempfile::tempdir().unwrap();
        // A pid above Linux's maximum (2^22) cannot be alive.
        let stale = tmp.path().join(format!("{}abc", temp_prefix(4_194_400)));
        let live = tmp.path().join(format!("{}abc", temp_prefix(std::process::id())));
        let foreign = tmp.path().join("ptxdiff-ptxas-notapid-abc");
        for d in [&stale, &live, &foreign] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("probe.ptx"), "x").unwrap();
        }
        remove_stale_temp_dirs(tmp.path());
        assert!(!stale.exists() || !cfg!(target_os = "linux"), "a dead process's folder goes");
        assert!(live.exists() && foreign.exists(), "a live process's and a foreign folder stay");
    }

    #[test]
    fn releases_are_read_and_ordered_numerically() {
        assert_eq!(release("Cuda compilation tools, release 13.5, V13.5.37").as_deref(), Some("13.5"));
        assert_eq!(release("Cuda compilation tools, release 12.10, V12.10.1").as_deref(), Some("12.10"));
        assert_eq!(release("ptxas: NVIDIA (R) Ptx optimizing assembler"), None);
        let mut v = vec!["13.0", "12.10", "12.9", "dev", "12.4", "13.5"];
        v.sort_by(|a, b| compare_versions(a, b));
        assert_eq!(v, ["12.4", "12.9", "12.10", "13.0", "13.5", "dev"]);
    }

    #[test]
    fn diagnostics_are_parsed() {
        let d = parse_diagnostics(
            "ptxas /tmp/a.ptx, line 10; error   : Illegal rounding modifier for instruction 'cvt'\n\
             ptxas /tmp/a.ptx, line 12; warning : Instruction 'shfl' without '.sync' is deprecated\n\
             ptxas fatal   : Ptx assembly aborted due to errors\n",
        );
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].line, Some(10));
        assert_eq!(d[0].severity, "error");
        assert_eq!(d[0].message, "Illegal rounding modifier for instruction 'cvt'");
        assert_eq!(d[1].severity, "warning");
        assert_eq!(
            d[2],
            Diagnostic { line: None, severity: "fatal".into(), message: "Ptx assembly aborted due to errors".into() }
        );
    }
}
