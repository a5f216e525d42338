//! The supervisor's side of the protocol: [`WorkerHandle`] starts `ptxdiff worker` (on a GPU
//! `--device N`, or `--oracle`), sends one request at a time and waits for its reply with a
//! timeout. A fault makes the worker exit after saying so; so does a kernel of a program job
//! that outruns the job's per-kernel timeout, which the worker names ([`Outcome::KernelHung`]);
//! any other hang is cut off by the job's timeout, which kills the worker; either way the
//! handle is dead afterwards and the caller starts a fresh one for the next job.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::protocol::{
    Compiler, Executor, MemDone, MemJob, ProgramJob, ProgramsDone, Reply, Request, SweepDone, SweepJob, UNPARSED,
};

/// How long a worker may take to JIT-compile a memory job's module, on top of the job's own
/// timeout (which counts from the worker's [`Reply::Loaded`]): the driver takes seconds for a
/// large module while the other workers compile theirs. Measured on an H100: with the load
/// inside a 10 s job timeout, 127 of 1,024 `fuzz --async` programs were reported as hangs on
/// `cuda:jit` and none on the ptxas backends (docs/PERFORMANCE.md).
pub const MODULE_LOAD_TIMEOUT: Duration = Duration::from_secs(60);

/// Which kind of worker to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerKind {
    /// A GPU worker on this CUDA device ordinal.
    Gpu {
        /// The device ordinal (`--device`).
        device: i32,
    },
    /// The CPU oracle behind the protocol (`--oracle`).
    Oracle,
}

/// What became of a job, seen from the supervisor.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A sweep finished.
    Done(SweepDone),
    /// A program job finished.
    Programs(ProgramsDone),
    /// A memory job finished (ran, or the driver refused a tensor map).
    Mem(MemDone),
    /// Rejected (ptxas or JIT error, bad request).
    Failed(String),
    /// The GPU faulted (the worker exited).
    Fault(String),
    /// The worker died without a word (signal, panic): what the supervisor saw, and the
    /// faulting site its signal handler named (`SIGSEGV in libnvidia-ptxjitcompiler.so.580.159.04+0x4f2a10`,
    /// `super::crash_site`), if it named one.
    Crashed {
        /// What happened (`the worker exited (signal: 11 (SIGSEGV)) while running the job`).
        message: String,
        /// The faulting site.
        site: Option<String>,
    },
    /// No reply within the timeout; the worker was killed.
    Hung(Duration),
    /// The worker named the kernel of a program job that did not finish within the job's
    /// per-kernel timeout ([`Reply::KernelHung`]); the worker was killed.
    KernelHung {
        /// The kernel's index in the job.
        index: usize,
        /// Its entry name.
        kernel: String,
        /// How long it was waited for.
        waited: Duration,
    },
}

/// A running worker process.
pub struct WorkerHandle {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The device the worker reported.
    pub device: String,
    /// The CUDA API version the driver supports (13000 for 13.0).
    pub driver: i32,
    /// Native sm.
    pub sm: u16,
    /// The installed driver's version (`580.159.04`), when the worker could read it.
    pub driver_version: Option<String>,
    /// CUDA devices the worker sees (`None` for the oracle worker).
    pub devices: Option<u32>,
}

/// The driver's setting of hardware work queues per CUDA context (default 8).
const CONNECTIONS: &str = "CUDA_DEVICE_MAX_CONNECTIONS";

/// The command that starts a worker of `kind`: the driver's JIT disk cache off and, unless the
/// user set it (`connections_set`), one hardware work queue per context. A worker drives one
/// stream, so a second queue serves nothing, while creating a context's queues is the part of a
/// start the driver does one process at a time: on an H200, 8 workers started together were
/// ready after 1.0 s with the default and 0.47 s with one queue, and the conform rows whose
/// cases trap (45 worker restarts) took 13.3 s instead of 6.6 s (docs/PERFORMANCE.md).
fn worker_command(exe: &Path, kind: WorkerKind, connections_set: bool) -> Command {
    let mut cmd = Command::new(exe);
    cmd.arg("worker").env("CUDA_CACHE_DISABLE", "1");
    match kind {
        WorkerKind::Gpu { device } => {
            cmd.args(["--device", &device.to_string()]);
            if !connections_set {
                cmd.env(CONNECTIONS, "1");
            }
        }
        WorkerKind::Oracle => {
            cmd.arg("--oracle");
        }
    }
    cmd
}

/// The `ptxdiff` executable that serves as the worker: `$PTXDIFF_BIN`, else this executable.
pub fn worker_exe() -> Result<PathBuf, String> {
    match std::env::var_os("PTXDIFF_BIN") {
        Some(p) => Ok(PathBuf::from(p)),
        None => std::env::current_exe().map_err(|e| format!("cannot find ptxdiff's own executable: {e}")),
    }
}

impl WorkerHandle {
    /// Starts `EXE worker` of `kind`; `Err` carries why it cannot run (for a GPU worker: why no
    /// GPU is usable).
    pub fn spawn(exe: &Path, kind: WorkerKind) -> Result<WorkerHandle, String> {
        let mut child = worker_command(exe, kind, std::env::var_os(CONNECTIONS).is_some())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the worker process: {e}"))?;
        let stdin = child.stdin.take().ok_or("worker has no stdin")?;
        let stdout = child.stdout.take().ok_or("worker has no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let Ok(first) = rx.recv_timeout(Duration::from_secs(60)) else {
            // A worker stuck in start-up (e.g. in cuInit) must not outlive the supervisor.
            let _ = child.kill();
            let _ = child.wait();
            return Err("the worker did not start within 60 s".to_string());
        };
        match serde_json::from_str::<Reply>(&first) {
            Ok(Reply::Ready { device, driver, sm, driver_version, devices }) => {
                Ok(WorkerHandle { child, stdin, lines: rx, device, driver, sm, driver_version, devices })
            }
            Ok(Reply::Unavailable { message }) => {
                let _ = child.wait();
                Err(message)
            }
            _ => {
                let _ = child.kill();
                Err(format!("unexpected first line from the worker: {first}"))
            }
        }
    }

    /// Runs a sweep, waiting at most `timeout`. After `Fault`, `Crashed` or `Hung` this handle
    /// is dead: spawn a new one.
    pub fn run(&mut self, job: &SweepJob, timeout: Duration) -> Outcome {
        self.exchange(&Request::Sweep(job.clone()), job.id, timeout)
    }

    /// Runs a program job, as [`WorkerHandle::run`].
    pub fn run_programs(&mut self, job: &ProgramJob, timeout: Duration) -> Outcome {
        self.exchange(&Request::Programs(job.clone()), job.id, timeout)
    }

    /// Runs a memory job, as [`WorkerHandle::run`]: the worker has [`MODULE_LOAD_TIMEOUT`] to
    /// load a JIT job's module (none beyond the job's own for a cubin), then the job's
    /// `timeout_ms` from its [`Reply::Loaded`] for the launches and copies; a kernel that never
    /// finishes (an mbarrier wait that never completes) is [`Outcome::Hung`] and the worker is
    /// killed.
    pub fn run_mem(&mut self, job: &MemJob) -> Outcome {
        let run = Duration::from_millis(job.timeout_ms);
        let load = if job.executor == Executor::Cuda(Compiler::Jit) { MODULE_LOAD_TIMEOUT } else { Duration::ZERO };
        let line = serde_json::to_string(&Request::Mem(job.clone())).unwrap_or_default();
        self.wait_for(&line, job.id, load.saturating_add(run), Some(run))
    }

    fn exchange(&mut self, request: &Request, id: u64, timeout: Duration) -> Outcome {
        self.exchange_line(&serde_json::to_string(request).unwrap_or_default(), id, timeout)
    }

    /// Sends one request line as it stands (as any other process could write it) and waits
    /// for the reply to job `id`, as [`WorkerHandle::run`].
    pub fn exchange_line(&mut self, line: &str, id: u64, timeout: Duration) -> Outcome {
        self.wait_for(line, id, timeout, None)
    }

    /// [`WorkerHandle::exchange_line`], where a [`Reply::Loaded`] for the job restarts the
    /// clock with `after_load` as the timeout (when given).
    fn wait_for(&mut self, line: &str, id: u64, mut timeout: Duration, after_load: Option<Duration>) -> Outcome {
        if writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).is_err() {
            return Outcome::Crashed { message: "the worker's stdin is closed".into(), site: None };
        }
        let mut start = Instant::now();
        let mut site = None;
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(l) => match serde_json::from_str::<Reply>(&l) {
                    Ok(Reply::Done(d)) if d.id == id => return Outcome::Done(d),
                    Ok(Reply::Programs(d)) if d.id == id => return Outcome::Programs(d),
                    Ok(Reply::Mem(d)) if d.id == id => return Outcome::Mem(d),
                    Ok(Reply::CrashSite { signal, module, offset }) => {
                        site = Some(format!("{} in {module}+0x{offset:x}", super::crash_site::signal_name(signal)));
                    }
                    Ok(Reply::Loaded { id: i }) if i == id => {
                        if let Some(run) = after_load {
                            (start, timeout) = (Instant::now(), run);
                        }
                    }
                    Ok(Reply::Failed { id: i, message }) if i == id || i == UNPARSED => {
                        return Outcome::Failed(message)
                    }
                    Ok(Reply::Fault { id: i, message }) if i == id => {
                        // The worker ends after a fault; killing it bounds the wait if its
                        // poisoned context hangs on the way out.
                        self.kill();
                        return Outcome::Fault(message);
                    }
                    Ok(Reply::KernelHung { id: i, index, kernel, waited_ms }) if i == id => {
                        // Its kernel still runs: the context ends with the process.
                        self.kill();
                        return Outcome::KernelHung { index, kernel, waited: Duration::from_millis(waited_ms) };
                    }
                    _ => continue,
                },
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Outcome::Hung(timeout);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
                    let mut message = format!("the worker exited ({status}) while running the job");
                    if let Some(s) = &site {
                        message.push_str(&format!("; it faulted: {s}"));
                    }
                    return Outcome::Crashed { message, site };
                }
            }
        }
    }
}

impl WorkerHandle {
    /// Kills the worker and waits for it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(cmd: &Command, key: &str) -> Option<String> {
        cmd.get_envs().find(|(k, _)| *k == key).and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
    }

    #[test]
    fn a_gpu_worker_gets_one_work_queue_unless_the_user_chose() {
        let gpu = worker_command(Path::new("ptxdiff"), WorkerKind::Gpu { device: 1 }, false);
        assert_eq!(env_of(&gpu, CONNECTIONS).as_deref(), Some("1"));
        assert_eq!(env_of(&gpu, "CUDA_CACHE_DISABLE").as_deref(), Some("1"));
        let args: Vec<_> = gpu.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(args, ["worker", "--device", "1"]);
        let chosen = worker_command(Path::new("ptxdiff"), WorkerKind::Gpu { device: 0 }, true);
        assert_eq!(env_of(&chosen, CONNECTIONS), None, "the user's own setting is inherited as it is");
        let oracle = worker_command(Path::new("ptxdiff"), WorkerKind::Oracle, false);
        assert_eq!(env_of(&oracle, CONNECTIONS), None);
    }
}
