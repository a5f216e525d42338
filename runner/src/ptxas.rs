//! Finding and running NVIDIA's `ptxas` (the offline PTX assembler), and the lookup and install
//! of the pinned NVIDIA tools in general ([`Tool`]: ptxas here, nvdisasm in [`crate::sass`]).
//!
//! Lookup order of a tool: its environment variable (`PTXAS`, `NVDISASM`), the tool on `PATH`,
//! `$CUDA_HOME/bin/`, `.tools/` under the repository root, the copy of the pinned wheel
//! (`nvidia-cuda-nvcc`, `nvidia-cuda-nvdisasm`) that [`Tool::install`] — and `ci/install-ptxas`
//! without arguments, which looks in the same places first — unpacks into the user's cache
//! (`~/.cache/ptxdiff/`, see [`crate::paths`]), and `/usr/local/cuda/bin/`: one copy per
//! machine. A `PTXAS` that is set is the only candidate ([`Ptxas::find`]): a ptxas is checked on
//! first use ([`Ptxas::at`]: an executable file whose `--version` names a release), and an
//! assembly that exits 0 without a cubin is an error ([`PtxasError::NoCubin`]), never a
//! verdict. [`Tool::install`] runs `ci/install-ptxas` itself (compiled into the binary), so the
//! wheels, their version and the unpacking live in that one script.
//! Diagnostics are parsed from ptxas's `ptxas FILE, line N; error : MESSAGE` lines; the release
//! (`13.5`) from its `--version` line ([`release`]), and releases are ordered numerically
//! ([`compare_versions`]: 12.10 > 12.9).
//!
//! Invariant: no ptxas process can hang ptxdiff. Every run ([`Ptxas::at`]'s `--version`,
//! [`Ptxas::assemble`]) is bounded by [`timeout_for`] (`PTXDIFF_PTXAS_TIMEOUT`, by default
//! [`BASE_TIMEOUT`] and [`PER_LINE`] per line of PTX) and runs in a process group of its own, which is killed whole when the
//! time is up and again when ptxas exits, so a child that holds its output pipe cannot keep
//! ptxdiff waiting either. A timed-out assembly is a crash of that ptxas ([`Assembly::timed_out`]),
//! a timed-out `--version` an error naming the binary. What a run prints is kept up to
//! [`MAX_OUTPUT`] bytes per stream. A run is spawned without forking ptxdiff (a fork of a large,
//! threaded process costs tens of milliseconds): under coreutils' `timeout`, which also ends a
//! ptxas that outlives a killed ptxdiff; only where there is no `timeout` does the child get
//! `PR_SET_PDEATHSIG` instead, at the cost of a fork (`run_bounded`).

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

/// The `how` of a crash finding of the offline ptxas (a fault or abort; a run past its limit
/// is "ptxas timeout"). It names no fault site.
pub const PTXAS_CRASH: &str = "ptxas crash";

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
    /// `--version` did not finish within the time allowed.
    #[error("{} --version did not finish within {} s; is it a working ptxas? (the limit is PTXDIFF_PTXAS_TIMEOUT)", path.display(), limit.as_secs_f64())]
    Timeout {
        /// The executable.
        path: PathBuf,
        /// The limit it ran past.
        limit: Duration,
    },
    /// The caller cancelled the run (its campaign's time was up).
    #[error("ptxas was stopped: the run's time was up")]
    Cancelled,
    /// `PTXDIFF_PTXAS_TIMEOUT` is not a duration.
    #[error("PTXDIFF_PTXAS_TIMEOUT={0:?} is not a number of seconds > 0 (e.g. 600 or 600s)")]
    BadTimeout(String),
    /// The path does not name an executable file (missing, a folder, not executable).
    #[error("{} is not usable as ptxas: {why}{hint}", path.display())]
    NotExecutable {
        /// The path.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
        /// Where the path came from, when that tells the user what to change.
        hint: String,
    },
    /// `--version` did not name a CUDA release: not a ptxas (or a broken one).
    #[error(
        "{} is not a working ptxas: `--version` printed no `release X.Y` line (it printed {said:?}); \
         point PTXAS or --ptxas at NVIDIA's ptxas",
        path.display()
    )]
    NotPtxas {
        /// The executable.
        path: PathBuf,
        /// The start of what it printed.
        said: String,
    },
    /// ptxas said it assembled the module but wrote no cubin.
    #[error("{} exited 0 but wrote no cubin to {}: not a working ptxas (or the folder is not writable)", path.display(), cubin.display())]
    NoCubin {
        /// The executable.
        path: PathBuf,
        /// Where the cubin was to be.
        cubin: PathBuf,
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
    /// The process was killed by a signal (a crash of the assembler itself), or ran past the
    /// time allowed ([`Assembly::timed_out`]).
    pub crashed: bool,
    /// It ran past [`timeout_for`] and was killed (with its children); `output` says so.
    pub timed_out: bool,
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

/// The time limit of a ptxas run on an empty module (and of `--version`) unless
/// `PTXDIFF_PTXAS_TIMEOUT` says otherwise; [`PER_LINE`] more per line of PTX. Twenty seconds
/// is a hundred times what a default fuzz batch's module costs at -O3 beyond its lines (see
/// [`PER_LINE`]); it was 60 s until a ptxas -O3 hang (seed 5003, session 50) kept a campaign
/// waiting 80 s on one module with the machine idle.
pub const BASE_TIMEOUT: Duration = Duration::from_secs(20);

/// The base of the time limit of one program assembled alone to learn which programs of a
/// module that crashed or ran past [`timeout_for`] are to blame ([`alone_timeout_for`]). One
/// generated program alone takes tens of milliseconds at -O3 (start-up included), so ten
/// seconds marks a program ptxas does not finish in reasonable time without waiting out the
/// module's limit once more for each such program.
pub const ALONE_BASE_TIMEOUT: Duration = Duration::from_secs(10);

/// The time limit's share per line of PTX. Measured on the development machine (2 cores
/// shared with other builds): a fuzz batch of 64 programs of the maximum length (4,096
/// instructions each, about 290,000 lines) took 91 s at -O3, 0.3 ms a line; a default batch
/// (256 programs, about 12,000 lines) 2.5 s. A millisecond a line leaves three times that
/// (the largest batch, 256 programs of 4,096 instructions, gets about 19 minutes), and a
/// default batch (about 20,000 lines on the H200 campaigns of session 50) is killed after
/// about 40 s if ptxas hangs.
pub const PER_LINE: Duration = Duration::from_millis(1);

/// The time one ptxas run on `ptx` may take: `PTXDIFF_PTXAS_TIMEOUT` in seconds (`600`,
/// `600s`, `2.5`) for every run, else [`BASE_TIMEOUT`] plus [`PER_LINE`] per line of `ptx`.
pub fn timeout_for(ptx: &str) -> Result<Duration, PtxasError> {
    limit_from(ptx, BASE_TIMEOUT)
}

/// The time one ptxas run on `ptx`, a single program assembled alone to narrow down a module's
/// crash or hang, may take: `PTXDIFF_PTXAS_TIMEOUT` as in [`timeout_for`] when set, else
/// [`ALONE_BASE_TIMEOUT`] plus [`PER_LINE`] per line of `ptx`.
pub fn alone_timeout_for(ptx: &str) -> Result<Duration, PtxasError> {
    limit_from(ptx, ALONE_BASE_TIMEOUT)
}

/// `PTXDIFF_PTXAS_TIMEOUT` when set, else `base` plus [`PER_LINE`] per line of `ptx`.
fn limit_from(ptx: &str, base: Duration) -> Result<Duration, PtxasError> {
    let Some(v) = std::env::var_os("PTXDIFF_PTXAS_TIMEOUT").filter(|v| !v.is_empty()) else {
        let lines = u32::try_from(ptx.bytes().filter(|&b| b == b'\n').count()).unwrap_or(u32::MAX);
        return Ok(base.saturating_add(PER_LINE.saturating_mul(lines)));
    };
    let text = v.to_string_lossy().into_owned();
    let secs = text.trim().trim_end_matches('s').parse::<f64>().ok().filter(|s| s.is_finite() && *s > 0.0);
    secs.and_then(|s| Duration::try_from_secs_f64(s).ok()).ok_or(PtxasError::BadTimeout(text))
}

/// Bytes of each output stream of a ptxas run kept (the rest is read and dropped, so that a
/// ptxas printing without end cannot fill the memory).
pub const MAX_OUTPUT: usize = 1 << 20;

/// How a bounded run ([`run_bounded`]) ended.
#[derive(Debug)]
pub(crate) enum End {
    /// The process exited.
    Exited(std::process::ExitStatus),
    /// It ran past the time limit and was killed.
    TimedOut,
    /// The caller cancelled it and it was killed.
    Cancelled,
}

/// What a bounded run gave: how it ended, and the output.
pub(crate) struct Bounded {
    /// How it ended.
    pub end: End,
    /// The first bytes of its stdout.
    pub stdout: Vec<u8>,
    /// The first bytes of its stderr.
    pub stderr: Vec<u8>,
}

/// The niceness the NVIDIA tools run at ([`set_tool_niceness`]; 0: ptxdiff's own).
static TOOL_NICENESS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Runs every later ptxas and nvdisasm process of this ptxdiff at `niceness` (0–19, clamped)
/// above ptxdiff's own priority, through coreutils' `nice` in front of the `timeout` wrapper
/// ([`bounded_by_timeout`]; where either is missing the tools run at ptxdiff's priority).
///
/// Why: a campaign's ptxas and nvdisasm runs prepare batches ahead of need, while the worker
/// processes' JIT of the batch running now holds up the main thread; at equal priority the
/// assemblies for later batches take cores from it (`fuzz --tools-nice`, docs/PERFORMANCE.md
/// session 58).
pub fn set_tool_niceness(niceness: u8) {
    TOOL_NICENESS.store(niceness.min(19), std::sync::atomic::Ordering::Relaxed);
}

/// `cmd` run under coreutils' `timeout` (found on `PATH` once) with a limit a second past
/// `limit`, so that a ptxas left behind by a ptxdiff that was killed still ends, and under
/// `nice` at the tools' niceness ([`set_tool_niceness`]) when it is not 0; `None` where there is
/// no `timeout`.
///
/// Why not `PR_SET_PDEATHSIG`: setting it takes code between fork and exec (`pre_exec`), which
/// makes the standard library fork the whole ptxdiff process instead of spawning with
/// `posix_spawn`; a fork copies the page tables of a process of gigabytes and many threads and
/// then faults on every page either side writes until the exec — measured on the development
/// machine, 77.6 ms per spawn from a process of 2 GiB against 0.7 ms without (`posix_spawn`),
/// and in an H200 memory campaign about a fifth of all CPU time went into it.
fn bounded_by_timeout(cmd: &Command, limit: Duration) -> Option<Command> {
    static TIMEOUT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    static NICE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let on_path = |name: &str| {
        std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| is_executable_file(p))
    };
    let timeout = TIMEOUT.get_or_init(|| on_path("timeout").filter(|p| is_coreutils_timeout(p))).as_ref()?;
    let niceness = TOOL_NICENESS.load(std::sync::atomic::Ordering::Relaxed);
    let nice = NICE.get_or_init(|| on_path("nice")).as_ref().filter(|_| niceness > 0).map(|n| (n.as_path(), niceness));
    Some(wrapped_command(cmd, limit, timeout, nice))
}

/// `cmd` as `[NICE -n N] TIMEOUT --signal=KILL SECS PROGRAM ARGS…` (SECS a second past `limit`;
/// `nice`: the `nice` executable and N), with `cmd`'s environment changes, folder, stdin empty,
/// stdout and stderr piped, and a process group of its own.
fn wrapped_command(cmd: &Command, limit: Duration, timeout: &Path, nice: Option<(&Path, u8)>) -> Command {
    // `timeout 0` waits without a limit; so does a limit beyond any run.
    let secs = limit.saturating_add(Duration::from_secs(1)).as_secs_f64();
    let secs = if secs < 1e7 { format!("{secs:.3}") } else { "0".to_string() };
    let mut wrapped = match nice {
        Some((nice, niceness)) => {
            let mut c = Command::new(nice);
            c.arg("-n").arg(niceness.to_string()).arg(timeout);
            c
        }
        None => Command::new(timeout),
    };
    wrapped.arg("--signal=KILL").arg(secs).arg(cmd.get_program()).args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => wrapped.env(k, v),
            None => wrapped.env_remove(k),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        wrapped.current_dir(dir);
    }
    wrapped.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    wrapped
}

/// Where there is no `timeout`: the child is killed when the ptxdiff thread that started it
/// ends (`PR_SET_PDEATHSIG`; outside ptxdiff's process group a Ctrl-C no longer reaches it).
/// This forks ptxdiff (see [`bounded_by_timeout`] for the cost).
fn die_with_ptxdiff(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: the closure runs in the child between fork and exec and only calls prctl,
        // which is async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Whether `timeout` at `p` is GNU coreutils' (whose `--signal=KILL DURATION COMMAND` syntax
/// the wrapper uses; another `timeout`, BusyBox's say, is not used): its `--version` names
/// coreutils within two seconds.
fn is_coreutils_timeout(p: &Path) -> bool {
    let Ok(mut child) =
        Command::new(p).arg("--version").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()
    else {
        return false;
    };
    let out = child.stdout.take().map(|s| drain(s, 4096));
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let text = out.and_then(|r| r.recv_timeout(Duration::from_secs(1)).ok()).unwrap_or_default();
                return status.success() && String::from_utf8_lossy(&text).contains("coreutils");
            }
            Ok(None) if start.elapsed() < Duration::from_secs(2) => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
}

/// Whether `p` is a regular file someone may execute.
fn is_executable_file(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Kills the process group `pgid` (the child and whatever it started) with SIGKILL.
fn kill_group(pgid: u32) {
    if let Ok(pgid) = libc::pid_t::try_from(pgid) {
        // SAFETY: killpg only sends a signal; the group is the child's own (it was started as
        // the leader of a new group and has not been reaped yet, so its id is not reused).
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

/// Waits until the child `pid` has exited, without reaping it (so that its process group id
/// stays reserved until [`kill_group`] has run).
fn wait_unreaped(pid: u32) -> std::io::Result<()> {
    let pid: libc::id_t = pid;
    loop {
        // SAFETY: waitid writes only into `info`, a zeroed siginfo_t owned here; WNOWAIT leaves
        // the child to `Child::wait`.
        let r = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT)
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reads `stream` to its end on a thread of its own, keeping the first `max` bytes.
fn drain(mut stream: impl std::io::Read + Send + 'static, max: usize) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            let room = max.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        let _ = tx.send(kept);
    });
    rx
}

/// Runs `cmd` (stdin empty, stdout and stderr captured) in a process group of its own for at
/// most `limit` (and until `cancel`, if given, is set); then, or as soon as the process exits,
/// kills its whole group, so that neither the process nor a child holding its pipes can outlast
/// the call (see the module docs). Keeps the first `max_output` bytes of each stream. The one
/// runner of the NVIDIA tools (ptxas here, nvdisasm in [`crate::sass`]).
pub(crate) fn run_bounded(
    cmd: &mut Command,
    limit: Duration,
    cancel: Option<&AtomicBool>,
    max_output: usize,
) -> std::io::Result<Bounded> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    let mut bounded = bounded_by_timeout(cmd, limit);
    let cmd = match bounded.as_mut() {
        Some(wrapped) => wrapped,
        None => {
            die_with_ptxdiff(cmd);
            cmd
        }
    };
    let mut child = cmd.spawn()?;
    let pid = child.id();
    let out = child.stdout.take().map(|s| drain(s, max_output));
    let err = child.stderr.take().map(|s| drain(s, max_output));
    let start = Instant::now();
    // A thread waits for the exit; this one for that, the limit or the cancellation.
    let (tx, exited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(wait_unreaped(pid));
    });
    let stopped = loop {
        let left = limit.saturating_sub(start.elapsed());
        if left.is_zero() {
            break Some(End::TimedOut);
        }
        match exited.recv_timeout(left.min(Duration::from_millis(50))) {
            Ok(Ok(())) => break None,
            Ok(Err(e)) => {
                kill_group(pid);
                let _ = child.wait();
                return Err(e);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    break Some(End::Cancelled);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                kill_group(pid);
                let _ = child.wait();
                return Err(std::io::Error::other("the thread waiting for ptxas ended"));
            }
        }
    };
    kill_group(pid);
    let status = child.wait()?;
    // The group is gone, so the pipes close; a process that left the group (setsid) and keeps
    // them open loses its output to us after a second rather than hanging the call.
    let grace = Duration::from_secs(1);
    let take = |rx: Option<std::sync::mpsc::Receiver<Vec<u8>>>| {
        rx.and_then(|r| r.recv_timeout(grace).ok()).unwrap_or_default()
    };
    Ok(Bounded { end: stopped.unwrap_or(End::Exited(status)), stdout: take(out), stderr: take(err) })
}

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
    /// Finds ptxas (see the module docs for the lookup order) and reads its version. A `PTXAS`
    /// that is set is the only candidate: when it is not a working ptxas that is an error
    /// naming it, never a silent fall back to another ptxas.
    pub fn find() -> Result<Ptxas, PtxasError> {
        if let Some(p) = std::env::var_os(PTXAS.env).filter(|p| !p.is_empty()) {
            return Self::at(Path::new(&p)).map_err(|e| match e {
                PtxasError::NotExecutable { path, why, .. } => {
                    PtxasError::NotExecutable { path, why, hint: " (from the environment variable PTXAS)".into() }
                }
                e => e,
            });
        }
        Self::at(&PTXAS.find().ok_or(PtxasError::NotFound)?)
    }

    /// Its release (`13.5`), read from [`Ptxas::version`].
    pub fn release(&self) -> Option<String> {
        release(&self.version)
    }

    /// Uses the ptxas at `path`, checked on first use: an executable file whose `--version`
    /// names a CUDA release.
    pub fn at(path: &Path) -> Result<Ptxas, PtxasError> {
        check_executable(path)?;
        let limit = timeout_for("")?;
        let out = run_bounded(Command::new(path).arg("--version"), limit, None, MAX_OUTPUT)
            .map_err(|source| PtxasError::Io { path: path.to_path_buf(), source })?;
        if !matches!(out.end, End::Exited(_)) {
            return Err(PtxasError::Timeout { path: path.to_path_buf(), limit });
        }
        let said = String::from_utf8_lossy(&out.stdout);
        let version = release_line(&said);
        if release(&version).is_none() {
            let said: String = said.trim().chars().take(120).collect();
            return Err(PtxasError::NotPtxas { path: path.to_path_buf(), said });
        }
        Ok(Ptxas { path: path.to_path_buf(), version })
    }

    /// Assembles `ptx` for `arch` (`sm_90a`) at optimization level `opt`, writing the cubin to
    /// `cubin` (or discarding it), within [`timeout_for`] the module.
    pub fn assemble(&self, ptx: &str, arch: &str, opt: u8, cubin: Option<&Path>) -> Result<Assembly, PtxasError> {
        self.assemble_within(ptx, arch, opt, cubin, timeout_for(ptx)?, None)
    }

    /// [`Ptxas::assemble`] within `limit`: past it ptxas and its children are killed and the
    /// assembly is a crash that says so ([`Assembly::timed_out`]). Once `cancel` is set, ptxas
    /// is killed too and the result is [`PtxasError::Cancelled`] (no verdict).
    pub fn assemble_within(
        &self,
        ptx: &str,
        arch: &str,
        opt: u8,
        cubin: Option<&Path>,
        limit: Duration,
        cancel: Option<&AtomicBool>,
    ) -> Result<Assembly, PtxasError> {
        let io = |source| PtxasError::Io { path: self.path.clone(), source };
        static SWEEP: std::sync::Once = std::sync::Once::new();
        SWEEP.call_once(|| remove_stale_temp_dirs(&std::env::temp_dir()));
        let dir = tempfile::Builder::new().prefix(&temp_prefix(std::process::id())).tempdir().map_err(io)?;
        let src = dir.path().join("probe.ptx");
        std::fs::write(&src, ptx).map_err(io)?;
        let default_out = dir.path().join("probe.cubin");
        let out_path = cubin.unwrap_or(&default_out);
        let mut cmd = Command::new(&self.path);
        cmd.arg(format!("-arch={arch}")).arg(format!("-O{opt}")).arg(&src).arg("-o").arg(out_path);
        let out = run_bounded(&mut cmd, limit, cancel, MAX_OUTPUT).map_err(io)?;
        let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
        output.push_str(&String::from_utf8_lossy(&out.stdout));
        let status = match out.end {
            End::Exited(status) => status,
            End::Cancelled => return Err(PtxasError::Cancelled),
            End::TimedOut => {
                output.push_str(&format!(
                    "\nptxdiff: {} did not finish within {} s and was killed (the limit is PTXDIFF_PTXAS_TIMEOUT)",
                    self.path.display(),
                    limit.as_secs_f64()
                ));
                return Ok(Assembly { ok: false, crashed: true, timed_out: true, diagnostics: Vec::new(), output });
            }
        };
        let crashed = status.code().is_none();
        if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
            // A crash may print nothing: say what happened.
            output.push_str(&format!("\nptxdiff: {} was killed by signal {signal}", self.path.display()));
        }
        if status.success() && std::fs::metadata(out_path).map_or(true, |m| m.len() == 0) {
            return Err(PtxasError::NoCubin { path: self.path.clone(), cubin: out_path.to_path_buf() });
        }
        Ok(Assembly {
            ok: status.success(),
            crashed,
            timed_out: false,
            diagnostics: parse_diagnostics(&output),
            output,
        })
    }
}

/// An error unless `path` is an executable regular file (following links).
pub(crate) fn check_executable(path: &Path) -> Result<(), PtxasError> {
    use std::os::unix::fs::PermissionsExt as _;
    let bad = |why: String| PtxasError::NotExecutable { path: path.to_path_buf(), why, hint: String::new() };
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if !meta.is_file() {
        return Err(bad("it is not a file".into()));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(bad("it is not executable (chmod +x it)".into()));
    }
    Ok(())
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

/// The line of an NVIDIA tool's `--version` output that names its release ("Cuda compilation
/// tools, release 13.0, V13.0.88"), else its last line, else "unknown".
pub fn release_line(text: &str) -> String {
    text.lines()
        .find(|l| l.contains("release"))
        .unwrap_or_else(|| text.lines().last().unwrap_or("unknown"))
        .trim()
        .to_string()
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

    /// A fake ptxas in `dir`: answers `--version` like ptxas 13.0, and runs `assemble` (shell
    /// text) for anything else.
    fn fake_ptxas(dir: &Path, assemble: &str) -> Ptxas {
        use std::os::unix::fs::PermissionsExt as _;
        let path = dir.join("ptxas");
        let script = format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n{assemble}\n"
        );
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Ptxas::at(&path).unwrap()
    }

    /// Issue 28: a ptxas that hangs, or that exits but leaves a child holding its output pipe,
    /// hung every command that assembles. Now the run ends at the limit (the hang) or when ptxas
    /// exits (the child), and its whole process group is killed.
    #[test]
    fn a_hung_ptxas_and_a_child_holding_its_pipe_are_killed_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("child.pid");
        let hung = fake_ptxas(dir.path(), "sleep 1000");
        let t = Instant::now();
        let a = hung.assemble_within("", "sm_90", 3, None, Duration::from_millis(300), None).unwrap();
        assert!(a.timed_out && a.crashed && !a.ok, "{a:?}");
        assert!(a.output.contains("did not finish within 0.3 s") && a.output.contains("ptxas"), "{}", a.output);
        assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());

        let dir2 = tempfile::tempdir().unwrap();
        let holder =
            fake_ptxas(dir2.path(), &format!("sleep 1000 & echo $! > {}; echo partial; exit 1", pid_file.display()));
        let a = holder.assemble_within("", "sm_90", 3, None, Duration::from_secs(600), None).unwrap();
        assert!(!a.timed_out && !a.ok && a.output.contains("partial"), "{a:?}");
        // The child was killed with its group.
        let pid = std::fs::read_to_string(&pid_file).unwrap().trim().to_string();
        let gone = |pid: &str| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            stat.is_empty() || stat.split(' ').nth(2) == Some("Z")
        };
        let t = Instant::now();
        while !gone(&pid) && t.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!cfg!(target_os = "linux") || gone(&pid), "the child {pid} outlived ptxas");
    }

    #[test]
    fn a_ptxas_hanging_on_version_is_an_error_naming_it_and_the_limit_is_read_from_the_environment() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ptxas");
        std::fs::write(&path, "#!/bin/sh\nsleep 1000\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out =
            run_bounded(Command::new(&path).arg("--version"), Duration::from_millis(200), None, MAX_OUTPUT).unwrap();
        assert!(matches!(out.end, End::TimedOut), "{:?}", out.end);
        // A cancelled run ends at once, whatever the limit.
        let stop = AtomicBool::new(true);
        let t = Instant::now();
        let out = run_bounded(Command::new(&path).arg("x"), Duration::from_secs(600), Some(&stop), MAX_OUTPUT).unwrap();
        assert!(matches!(out.end, End::Cancelled) && t.elapsed() < Duration::from_secs(30), "{:?}", out.end);
        let e = PtxasError::Timeout { path: path.clone(), limit: Duration::from_millis(200) }.to_string();
        assert!(e.contains(&path.display().to_string()) && e.contains("PTXDIFF_PTXAS_TIMEOUT"), "{e}");
        // The default limit grows with the module.
        if std::env::var_os("PTXDIFF_PTXAS_TIMEOUT").is_none() {
            assert_eq!(timeout_for("").unwrap(), BASE_TIMEOUT);
            assert_eq!(timeout_for(&"x\n".repeat(1000)).unwrap(), BASE_TIMEOUT + Duration::from_secs(1));
            assert_eq!(alone_timeout_for(&"x\n".repeat(1000)).unwrap(), ALONE_BASE_TIMEOUT + Duration::from_secs(1));
            assert!(ALONE_BASE_TIMEOUT < BASE_TIMEOUT);
        }
        assert!(PtxasError::BadTimeout("x".into()).to_string().contains("PTXDIFF_PTXAS_TIMEOUT=\"x\""));
    }

    /// A run is spawned without forking ptxdiff: under `timeout` (where it is on `PATH`) with a
    /// limit a second past the run's, its program, arguments, environment and folder kept;
    /// exit codes and signals pass through.
    #[test]
    fn runs_go_through_timeout_with_the_command_as_given() {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "echo \"$PTXDIFF_T\" $(pwd); exit 3"]).env("PTXDIFF_T", "x").current_dir("/");
        if let Some(w) = bounded_by_timeout(&cmd, Duration::from_secs(2)) {
            let args: Vec<_> = w.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
            assert_eq!(args[..3], ["--signal=KILL", "3.000", "/bin/sh"], "{args:?}");
            assert!(w.get_program().to_string_lossy().ends_with("timeout"));
            let forever = bounded_by_timeout(&cmd, Duration::MAX).unwrap();
            assert_eq!(forever.get_args().nth(1).unwrap(), "0", "no limit beyond any run");
        } else {
            eprintln!("no `timeout` on PATH: runs fork ptxdiff (PR_SET_PDEATHSIG)");
        }
        let out = run_bounded(&mut cmd, Duration::from_secs(20), None, MAX_OUTPUT).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "x /\n");
        assert!(matches!(out.end, End::Exited(s) if s.code() == Some(3)));
        let mut segv = Command::new("/bin/sh");
        segv.args(["-c", "kill -SEGV $$"]);
        let out = run_bounded(&mut segv, Duration::from_secs(20), None, MAX_OUTPUT).unwrap();
        use std::os::unix::process::ExitStatusExt as _;
        assert!(matches!(out.end, End::Exited(s) if s.signal() == Some(libc::SIGSEGV)), "a crash stays a crash");
    }

    /// With a niceness, the tool runs under `nice` in front of `timeout`, at that niceness
    /// above ptxdiff's own (the child's `nice` without arguments prints its niceness).
    #[test]
    fn a_niced_tool_runs_at_its_niceness_under_timeout() {
        let find = |name: &str| {
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .map(|d| d.join(name))
                .find(|p| is_executable_file(p))
        };
        let (Some(timeout), Some(nice)) = (find("timeout").filter(|p| is_coreutils_timeout(p)), find("nice")) else {
            eprintln!("no coreutils `timeout` or `nice` on PATH: tools run at ptxdiff's priority");
            return;
        };
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "nice"]);
        let run = |mut w: Command| {
            let out = w.output().unwrap();
            String::from_utf8_lossy(&out.stdout).trim().parse::<u8>().unwrap()
        };
        let own = run(wrapped_command(&cmd, Duration::from_secs(5), &timeout, None));
        let w = wrapped_command(&cmd, Duration::from_secs(5), &timeout, Some((&nice, 7)));
        let args: Vec<_> = w.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(args[..5], ["-n", "7", &*timeout.to_string_lossy(), "--signal=KILL", "6.000"], "{args:?}");
        assert_eq!(run(w), (own + 7).min(19));
    }

    /// Only coreutils' `timeout` wraps runs: one that does not say so, or hangs, is not used.
    #[test]
    fn a_timeout_that_is_not_coreutils_is_not_used() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in [("busybox", "echo 'BusyBox v1.36'"), ("hangs", "exec sleep 1000")] {
            let path = dir.path().join(name);
            std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            let t = Instant::now();
            assert!(!is_coreutils_timeout(&path), "{name}");
            assert!(t.elapsed() < Duration::from_secs(10), "{name} took {:?}", t.elapsed());
        }
        if let Some(found) = bounded_by_timeout(&Command::new("x"), Duration::from_secs(1)) {
            assert!(is_coreutils_timeout(Path::new(found.get_program())));
        }
    }

    /// Issue 28: a segfaulting ptxas printed nothing, and `validity` said "ptxas said:" and
    /// nothing more.
    #[test]
    fn a_ptxas_killed_by_a_signal_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let a = fake_ptxas(dir.path(), "kill -SEGV $$").assemble("", "sm_90", 3, None).unwrap();
        assert!(a.crashed && !a.ok && a.output.contains("killed by signal 11"), "{a:?}");
    }

    #[test]
    fn output_past_the_cap_is_dropped_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let chatty = fake_ptxas(dir.path(), "head -c 5000000 /dev/zero | tr '\\0' x; exit 1");
        let a = chatty.assemble_within("", "sm_90", 3, None, Duration::from_secs(600), None).unwrap();
        assert!(!a.ok && a.output.len() <= 2 * MAX_OUTPUT, "{}", a.output.len());
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
