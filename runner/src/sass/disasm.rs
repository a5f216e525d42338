//! Finding and running NVIDIA's `nvdisasm` on a cubin, bounded in time.
//!
//! nvdisasm comes from the pinned `nvidia-cuda-nvdisasm` wheel of the same release as the pinned
//! ptxas, looked up and installed exactly as ptxas is ([`crate::ptxas::Tool`]: `NVDISASM`, `PATH`,
//! `$CUDA_HOME/bin`, `.tools/nvdisasm/`, the user's cache, `/usr/local/cuda/bin`). Every run is
//! killed after its time limit ([`Nvdisasm::disassemble`]), with whatever it started (its
//! process group: [`crate::ptxas`]'s runner, the one for both tools); its output is read as it
//! comes, so a large listing cannot block it, up to [`MAX_LISTING`] bytes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use thiserror::Error;

use crate::ptxas::Tool;

/// nvdisasm, from the `nvidia-cuda-nvdisasm` wheel.
pub const NVDISASM: Tool = Tool { name: "nvdisasm", env: "NVDISASM", dir: "nvdisasm", installer_args: &["--nvdisasm"] };

/// The time limit of one disassembly unless the caller gives another: nvdisasm takes well under
/// a second for a 256-program module (docs/PERFORMANCE.md).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The most bytes of a listing (or of nvdisasm's stderr) kept: hundreds of times the listing
/// of a 256-program module.
pub const MAX_LISTING: usize = 256 << 20;

/// Errors from locating or running nvdisasm.
#[derive(Debug, Error)]
pub enum DisasmError {
    /// No nvdisasm anywhere we looked.
    #[error(
        "nvdisasm not found: set NVDISASM=/path/to/nvdisasm, put it on PATH, set CUDA_HOME, or run \
         `ci/install-ptxas` (unpacks the pinned nvidia-cuda-nvdisasm wheel into ~/.cache/ptxdiff/nvdisasm)"
    )]
    NotFound,
    /// Installing nvdisasm from the pinned wheel failed.
    #[error(
        "could not install nvdisasm into {dest}: {why}\n  to go on: set NVDISASM=/path/to/nvdisasm, or run \
         `ci/install-ptxas` on a machine with python3, pip and access to PyPI"
    )]
    Install {
        /// Where it was to go.
        dest: String,
        /// What went wrong.
        why: String,
    },
    /// nvdisasm could not be started, or its output not read.
    #[error("running {path}: {source}")]
    Io {
        /// The executable.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// nvdisasm ran past its time limit and was killed.
    #[error("{path} did not finish disassembling {cubin} within {limit:?}; it was killed")]
    Timeout {
        /// The executable.
        path: PathBuf,
        /// The cubin.
        cubin: PathBuf,
        /// The limit.
        limit: Duration,
    },
    /// nvdisasm exited with an error (a cubin it cannot read).
    #[error("{path} failed on {cubin} ({status}): {stderr}")]
    Failed {
        /// The executable.
        path: PathBuf,
        /// The cubin.
        cubin: PathBuf,
        /// Its exit status.
        status: String,
        /// What it printed on stderr.
        stderr: String,
    },
}

/// A located nvdisasm executable.
#[derive(Clone, Debug)]
pub struct Nvdisasm {
    /// Path to the executable.
    pub path: PathBuf,
    /// Its version line (`Cuda compilation tools, release 13.5, V13.5.37`).
    pub version: String,
}

impl Nvdisasm {
    /// Finds nvdisasm (see the module docs) and reads its version.
    pub fn find() -> Result<Nvdisasm, DisasmError> {
        Self::at(&NVDISASM.find().ok_or(DisasmError::NotFound)?)
    }

    /// Installs nvdisasm from the pinned wheel into the user's cache ([`Tool::install`]).
    pub fn install() -> Result<Nvdisasm, DisasmError> {
        let path = NVDISASM.install().map_err(|(dest, why)| DisasmError::Install { dest, why })?;
        Self::at(&path)
    }

    /// Uses the nvdisasm at `path`, reading its version (bounded by [`DEFAULT_TIMEOUT`]).
    pub fn at(path: &Path) -> Result<Nvdisasm, DisasmError> {
        let (status, stdout, stderr) = run_bounded(path, &["--version".as_ref()], DEFAULT_TIMEOUT)
            .map_err(|e| e.into_error(path, Path::new("--version"), DEFAULT_TIMEOUT))?;
        if !status.success() {
            return Err(DisasmError::Failed {
                path: path.to_path_buf(),
                cubin: "--version".into(),
                status: status.to_string(),
                stderr,
            });
        }
        let version = crate::ptxas::release_line(&stdout);
        Ok(Nvdisasm { path: path.to_path_buf(), version })
    }

    /// The SASS listing of every function in `cubin` (`nvdisasm -c`: code sections only), or an
    /// error if nvdisasm fails or runs longer than `limit` (then it is killed). `-ndf` skips
    /// nvdisasm's own dataflow analysis, which `-c` does not print, and makes the run 10–15 %
    /// cheaper (docs/PERFORMANCE.md, session 43) — but that analysis is what names an indirect
    /// branch's targets (`BRX R6 -0xe0 (*"BRANCH_TARGETS .L_x_8,.L_x_9"*)`, a jump table): without
    /// them the check takes every label as a target, and a path the kernel never takes skips
    /// writes (seed 4703's six unwritten-register false alarms,
    /// corpus/findings/fuzz-h200-4703/trace/T18u3.md). So a listing with an indirect branch whose
    /// targets are not named ([`lacks_branch_targets`]) is made again without `-ndf`.
    pub fn disassemble(&self, cubin: &Path, limit: Duration) -> Result<String, DisasmError> {
        self.disassemble_measured(cubin, limit).map(|(listing, _)| listing)
    }

    /// [`Nvdisasm::disassemble`], with the wall time of the second run where the listing was made
    /// again without `-ndf` (`None`: the first run's listing served), for the campaign's stage
    /// table.
    pub fn disassemble_measured(
        &self,
        cubin: &Path,
        limit: Duration,
    ) -> Result<(String, Option<Duration>), DisasmError> {
        let fast = self.run(cubin, limit, true)?;
        if !lacks_branch_targets(&fast) {
            return Ok((fast, None));
        }
        let start = std::time::Instant::now();
        let listing = self.run(cubin, limit, false)?;
        Ok((listing, Some(start.elapsed())))
    }

    /// One `nvdisasm -c` run, with `-ndf` where `no_dataflow`.
    fn run(&self, cubin: &Path, limit: Duration, no_dataflow: bool) -> Result<String, DisasmError> {
        let mut args: Vec<&std::ffi::OsStr> = vec!["-c".as_ref()];
        if no_dataflow {
            args.push("-ndf".as_ref());
        }
        args.push(cubin.as_os_str());
        let (status, stdout, stderr) =
            run_bounded(&self.path, &args, limit).map_err(|e| e.into_error(&self.path, cubin, limit))?;
        if !status.success() {
            return Err(DisasmError::Failed {
                path: self.path.clone(),
                cubin: cubin.to_path_buf(),
                status: status.to_string(),
                stderr: stderr.trim().to_string(),
            });
        }
        Ok(stdout)
    }
}

/// Whether a listing has an indirect branch (`BRX`, `JMX`) without nvdisasm's list of its
/// targets (`-ndf` leaves the list out).
pub fn lacks_branch_targets(listing: &str) -> bool {
    listing.lines().any(|l| {
        let indirect = l.split_whitespace().any(|w| w.split('.').next().is_some_and(|op| op == "BRX" || op == "JMX"));
        indirect && !l.contains("BRANCH_TARGETS")
    })
}

/// Why [`run_bounded`] gave no output.
enum RunError {
    Io(std::io::Error),
    Timeout,
}

impl RunError {
    fn into_error(self, path: &Path, cubin: &Path, limit: Duration) -> DisasmError {
        match self {
            RunError::Io(source) => DisasmError::Io { path: path.to_path_buf(), source },
            RunError::Timeout => DisasmError::Timeout { path: path.to_path_buf(), cubin: cubin.to_path_buf(), limit },
        }
    }
}

/// Runs `exe ARGS` for at most `limit` ([`crate::ptxas::run_bounded`]: killed with its process
/// group): its status, stdout and stderr.
fn run_bounded(
    exe: &Path,
    args: &[&std::ffi::OsStr],
    limit: Duration,
) -> Result<(std::process::ExitStatus, String, String), RunError> {
    use crate::ptxas::End;
    let b = crate::ptxas::run_bounded(Command::new(exe).args(args), limit, None, MAX_LISTING).map_err(RunError::Io)?;
    let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    match b.end {
        End::Exited(status) => Ok((status, text(b.stdout), text(b.stderr))),
        End::TimedOut | End::Cancelled => Err(RunError::Timeout),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_past_its_limit_is_killed_and_named() {
        let start = std::time::Instant::now();
        let r = run_bounded(Path::new("sleep"), &["5".as_ref()], Duration::from_millis(100));
        assert!(matches!(r, Err(RunError::Timeout)), "sleep 5 is cut at 100 ms");
        assert!(start.elapsed() < Duration::from_secs(3), "killed, not waited for: {:?}", start.elapsed());
        let e = RunError::Timeout.into_error(Path::new("nvdisasm"), Path::new("a.cubin"), Duration::from_secs(1));
        assert!(e.to_string().contains("a.cubin") && e.to_string().contains("killed"), "{e}");
    }

    #[test]
    fn output_and_status_come_back() {
        let Ok((status, out, err)) =
            run_bounded(Path::new("sh"), &["-c".as_ref(), "echo out; echo err >&2; exit 3".as_ref()], DEFAULT_TIMEOUT)
        else {
            panic!("sh runs")
        };
        assert_eq!((status.code(), out.as_str(), err.as_str()), (Some(3), "out\n", "err\n"));
    }

    /// Issue 28 (the nvdisasm half): a tool that exits but leaves a child holding its output
    /// pipe does not hold up the run; the child is killed with the tool's process group.
    #[test]
    fn a_child_holding_the_pipe_neither_blocks_nor_survives() {
        let start = std::time::Instant::now();
        let Ok((status, out, _)) =
            run_bounded(Path::new("sh"), &["-c".as_ref(), "sleep 1000 & echo listing".as_ref()], DEFAULT_TIMEOUT)
        else {
            panic!("sh runs")
        };
        assert_eq!((status.code(), out.as_str()), (Some(0), "listing\n"));
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    }

    /// Seed 4703's e70412f7 reduced (trace/e70412f7/): ptxas 13.0.88 -O3 makes a jump table;
    /// `-ndf` leaves out its targets, nvdisasm's dataflow pass names them.
    #[test]
    fn an_indirect_branch_without_its_targets_is_seen() {
        let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200-4703/trace/e70412f7/");
        let read = |f: &str| std::fs::read_to_string(format!("{trace}{f}")).unwrap();
        assert!(lacks_branch_targets(&read("reduced.130.O3.sass")));
        assert!(!lacks_branch_targets(&read("reduced.130.O3.df.sass")));
        assert!(lacks_branch_targets("/*0010*/ @P0 JMX R4 ;") && lacks_branch_targets("/*0010*/ BRX.U R6 -0xe0 ;"));
        assert!(!lacks_branch_targets("/*0010*/ BRA `(.L_x_1) ;\n/*0020*/ EXIT ;"));
    }

    /// A listing with target-less indirect branches is made again without `-ndf`; one without
    /// them is not (a stand-in nvdisasm that prints which way it was run).
    #[test]
    fn the_listing_is_made_again_with_the_dataflow_pass_where_targets_lack() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("nvdisasm");
        let script = "#!/bin/sh\ncase \"$2\" in -ndf) echo \"/*0010*/ BRX R6 -0xe0 ; $BODY\" ;; \
            *) echo '/*0010*/ BRX R6 -0xe0 (*\"BRANCH_TARGETS .L_x_1\"*);' ;; esac\n";
        std::fs::write(&fake, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let tool = Nvdisasm { path: fake, version: "test".into() };
        let (listing, again) = tool.disassemble_measured(Path::new("x.cubin"), DEFAULT_TIMEOUT).unwrap();
        assert!(listing.contains("BRANCH_TARGETS") && again.is_some(), "{listing} {again:?}");
        // A listing whose indirect branch names its targets is the first run's, not timed again.
        let named = dir.path().join("named");
        std::fs::write(
            &named,
            "#!/bin/sh
echo '/*0010*/ BRX R6 -0xe0 (*\"BRANCH_TARGETS .L_x_1\"*);'\n",
        )
        .unwrap();
        std::fs::set_permissions(&named, std::fs::Permissions::from_mode(0o755)).unwrap();
        let tool = Nvdisasm { path: named, version: "test".into() };
        let (listing, again) = tool.disassemble_measured(Path::new("x.cubin"), DEFAULT_TIMEOUT).unwrap();
        assert!(listing.contains("BRANCH_TARGETS") && again.is_none(), "{listing} {again:?}");
    }

    #[test]
    fn a_failing_disassembly_names_the_cubin() {
        // `false` stands in for an nvdisasm that fails, whatever it is given.
        let tool = Nvdisasm { path: "false".into(), version: "test".into() };
        let e = tool.disassemble(Path::new("missing.cubin"), DEFAULT_TIMEOUT).unwrap_err();
        assert!(matches!(e, DisasmError::Failed { .. }) && e.to_string().contains("missing.cubin"), "{e}");
    }
}
