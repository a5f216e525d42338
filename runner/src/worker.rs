//! Crash isolation: GPU work runs in a child process (`ptxdiff worker`), one per GPU, that
//! reads [`Job`]s as JSON lines on stdin and answers with [`Reply`] lines on stdout. A kernel
//! fault poisons the CUDA context, so the worker reports it and exits; a hang is detected by
//! the supervisor's timeout, which kills the worker. Either way the supervisor
//! ([`WorkerHandle`]) records what happened and starts a fresh worker for the next job.
//!
//! The worker compiles the sweep kernel (offline `ptxas` to a cubin, or the driver's JIT with
//! `CUDA_CACHE_DISABLE=1` set by the supervisor), runs it in chunks, copies each chunk to
//! pinned memory and checks it against the oracle on all cores, so only counts and a few
//! mismatches cross the pipe.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use generator::sweep::{sweep_kernel, SweepKernel};
use oracle::isa::{Form, Target};
use oracle::semantics::{Allowance, Allowances};
use serde::{Deserialize, Serialize};

use crate::conform::check::{Checked, Checker};
use crate::gpu::{Gpu, GpuError};
use crate::ptxas::Ptxas;

/// A GPU backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash, PartialOrd, Ord)]
pub enum GpuBackend {
    /// The driver compiles the PTX (`cuModuleLoadDataEx`, optimization level 4).
    Jit,
    /// Offline `ptxas -O0`, loaded as a cubin.
    PtxasO0,
    /// Offline `ptxas -O3`, loaded as a cubin.
    PtxasO3,
}

impl GpuBackend {
    /// Every GPU backend.
    pub const ALL: [GpuBackend; 3] = [GpuBackend::PtxasO0, GpuBackend::PtxasO3, GpuBackend::Jit];
    /// The name `--backends` takes.
    pub fn name(self) -> &'static str {
        match self {
            GpuBackend::Jit => "cuda:jit",
            GpuBackend::PtxasO0 => "cuda:ptxas-O0",
            GpuBackend::PtxasO3 => "cuda:ptxas-O3",
        }
    }
}

/// A planted kernel for the survival test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Planted {
    /// Stores through a null pointer.
    Fault,
    /// Spins forever.
    Hang,
}

/// One unit of GPU work: sweep `form` over some index ranges.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// Caller's id.
    pub id: u64,
    /// The form's opcode.
    pub form: String,
    /// Target name (with `@ptx`).
    pub target: String,
    /// Backend.
    pub backend: GpuBackend,
    /// Index ranges `(first, count)` to sweep.
    pub segments: Vec<(u64, u64)>,
    /// Allowances switched off.
    pub allow_off: Vec<String>,
    /// Run a planted kernel instead (survival test).
    pub planted: Option<Planted>,
}

/// One program of a [`ProgramJob`]: its entry, launch and inputs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KernelRun {
    /// Entry name in the module.
    pub name: String,
    /// Threads of its one CTA.
    pub threads: u32,
    /// Input words, thread 0 first.
    pub inputs: Vec<u32>,
    /// Output words per thread.
    pub outputs: u32,
}

/// Run every program of a module on one backend (`ptxdiff fuzz`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramJob {
    /// Caller's id.
    pub id: u64,
    /// Backend.
    pub backend: GpuBackend,
    /// The module's PTX (compiled by the driver for `cuda:jit`; the oracle worker parses it).
    pub ptx: String,
    /// The cubin assembled by the supervisor (ptxas backends).
    pub cubin: Option<std::path::PathBuf>,
    /// The programs to run, in order.
    pub kernels: Vec<KernelRun>,
}

/// Results of a [`ProgramJob`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ProgramsDone {
    /// The job's id.
    pub id: u64,
    /// Output words of each program (threads × outputs, thread 0 first).
    pub outputs: Vec<Vec<u32>>,
    /// Seconds loading the module (the JIT's compile time for `cuda:jit`).
    pub load_s: f64,
    /// Seconds running and copying.
    pub run_s: f64,
}

/// A request to the worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    /// A conformance sweep.
    Sweep(Job),
    /// A batch of fuzz programs.
    Programs(ProgramJob),
}

/// Timings and results of a finished job.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Done {
    /// The job's id.
    pub id: u64,
    /// What the checker found.
    pub result: Checked,
    /// Seconds compiling (ptxas or JIT).
    pub compile_s: f64,
    /// Seconds of kernel time plus copies.
    pub gpu_s: f64,
    /// Seconds checking (overlapped with nothing yet).
    pub check_s: f64,
}

/// What the worker says.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// Started: the device.
    Ready {
        /// Device name.
        device: String,
        /// Driver version.
        driver: i32,
        /// Native target (`90`).
        sm: u16,
    },
    /// A job finished.
    Done(Done),
    /// A program job finished.
    Programs(ProgramsDone),
    /// A job failed without killing the worker (assembler or JIT rejection).
    Failed {
        /// The job's id.
        id: u64,
        /// What failed.
        message: String,
    },
    /// The GPU faulted; the worker exits after saying so.
    Fault {
        /// The job's id.
        id: u64,
        /// The CUDA error.
        message: String,
    },
    /// No GPU here; the worker exits.
    Unavailable {
        /// Why.
        message: String,
    },
}

/// Results per chunk: bounds host memory and lets the checker start early.
const CHUNK: u64 = 1 << 27;

fn reply(out: &mut impl Write, r: &Reply) -> std::io::Result<()> {
    writeln!(out, "{}", serde_json::to_string(r).unwrap_or_default())?;
    out.flush()
}

fn planted_ptx(p: Planted, target: &Target) -> String {
    let body = match p {
        Planted::Fault => "  mov.u64 %rd1, 0;\n  st.global.u32 [%rd1], 1;",
        Planted::Hang => "LOOP:\n  bra.uni LOOP;",
    };
    format!(
        ".version {}\n.target {}\n.address_size 64\n.visible .entry sweep(.param .u64 out, .param .u64 base, .param .u64 n)\n{{\n  .reg .b64 %rd<2>;\n{body}\n  ret;\n}}\n",
        target.ptx,
        target.name()
    )
}

fn compile(gpu: &Gpu, backend: GpuBackend, ptx: &str, target: &Target) -> Result<crate::gpu::Kernel, String> {
    match backend {
        GpuBackend::Jit => gpu.load(ptx.as_bytes(), true, 4).map_err(|e| e.to_string()),
        GpuBackend::PtxasO0 | GpuBackend::PtxasO3 => {
            let ptxas = Ptxas::find().map_err(|e| e.to_string())?;
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let cubin = dir.path().join("sweep.cubin");
            let opt = if backend == GpuBackend::PtxasO0 { 0 } else { 3 };
            let asm = ptxas.assemble(ptx, &target.name(), opt, Some(&cubin)).map_err(|e| e.to_string())?;
            if !asm.ok {
                return Err(format!("ptxas -O{opt} rejected the sweep kernel: {}", asm.output.trim()));
            }
            let image = std::fs::read(&cubin).map_err(|e| e.to_string())?;
            gpu.load(&image, false, 0).map_err(|e| e.to_string())
        }
    }
}

enum JobError {
    Failed(String),
    Fault(String),
}

fn run_job(gpu: &Gpu, job: &Job) -> Result<Done, JobError> {
    let target: Target = job.target.parse().map_err(|e: oracle::isa::TargetError| JobError::Failed(e.to_string()))?;
    let mut allow = Allowances::all();
    for a in &job.allow_off {
        if let Some(a) = Allowance::from_name(a) {
            allow.disable(a);
        }
    }
    let t0 = Instant::now();
    let (kernel_ptx, sweep) = match job.planted {
        Some(p) => (planted_ptx(p, &target), None),
        None => {
            let form = Form::parse_opcode(&job.form).map_err(|e| JobError::Failed(e.to_string()))?;
            let k: SweepKernel = sweep_kernel(&form, &target).map_err(|e| JobError::Failed(e.to_string()))?;
            (k.ptx.clone(), Some((form, k)))
        }
    };
    let kernel = compile(gpu, job.backend, &kernel_ptx, &target).map_err(JobError::Failed)?;
    let compile_s = t0.elapsed().as_secs_f64();
    let fault =
        |e: GpuError| if e.is_fault() { JobError::Fault(e.to_string()) } else { JobError::Failed(e.to_string()) };
    let Some((form, k)) = sweep else {
        let out = gpu.alloc(4).map_err(fault)?;
        gpu.launch_sweep(&kernel, &out, 0, 1).map_err(fault)?;
        gpu.synchronize().map_err(fault)?;
        return Ok(Done { id: job.id, ..Done::default() });
    };
    let checker = Checker::new(&form, k.scheme, k.out_bytes, allow);
    let largest = job.segments.iter().map(|s| s.1).max().unwrap_or(1);
    let chunk = CHUNK.min(largest.max(1));
    let bytes = (chunk * u64::from(k.out_bytes)) as usize;
    // Two slots: while the CPU checks one chunk, the GPU computes and copies the next.
    let dev = [gpu.alloc(bytes).map_err(fault)?, gpu.alloc(bytes).map_err(fault)?];
    let mut host = [gpu.alloc_pinned(bytes).map_err(fault)?, gpu.alloc_pinned(bytes).map_err(fault)?];
    let pieces: Vec<(u64, u64)> = job
        .segments
        .iter()
        .flat_map(|&(first, count)| {
            (0..count.div_ceil(chunk)).map(move |c| (first + c * chunk, chunk.min(count - c * chunk)))
        })
        .collect();
    let t_all = Instant::now();
    let mut check_s = 0.0;
    let mut result = Checked::default();
    let submit = |slot: usize, (base, n): (u64, u64), host: &mut [crate::gpu::PinnedBuffer; 2]| {
        gpu.launch_sweep(&kernel, &dev[slot], base, n)?;
        gpu.copy_to_host_async(&mut host[slot], &dev[slot], (n * u64::from(k.out_bytes)) as usize)?;
        gpu.record()
    };
    let mut pending = Vec::new();
    if let Some(&p) = pieces.first() {
        pending.push(submit(0, p, &mut host).map_err(fault)?);
    }
    for (idx, &(base, n)) in pieces.iter().enumerate() {
        let slot = idx % 2;
        if let Some(&next) = pieces.get(idx + 1) {
            pending.push(submit(1 - slot, next, &mut host).map_err(fault)?);
        }
        pending.remove(0).wait().map_err(fault)?;
        let t = Instant::now();
        let len = (n * u64::from(k.out_bytes)) as usize;
        let c = checker.check(base, host[slot].as_slice(len));
        check_s += t.elapsed().as_secs_f64();
        result.checked += c.checked;
        result.mismatches += c.mismatches;
        result.absorb_audit(&c);
        for m in c.examples {
            if result.examples.len() < 8 {
                result.examples.push(m);
            }
        }
    }
    // GPU time not hidden behind checking.
    let gpu_s = (t_all.elapsed().as_secs_f64() - check_s).max(0.0);
    Ok(Done { id: job.id, result, compile_s, gpu_s, check_s })
}

fn run_program_job(gpu: &Gpu, job: &ProgramJob) -> Result<ProgramsDone, JobError> {
    let fault =
        |e: GpuError| if e.is_fault() { JobError::Fault(e.to_string()) } else { JobError::Failed(e.to_string()) };
    let t0 = Instant::now();
    let modules = match (job.backend, &job.cubin) {
        (GpuBackend::Jit, _) => jit_in_parallel(gpu, &job.ptx)?,
        (_, Some(path)) => {
            let image = std::fs::read(path).map_err(|e| JobError::Failed(format!("{}: {e}", path.display())))?;
            vec![gpu.load_module(&image, false, 0).map_err(|e| JobError::Failed(e.to_string()))?]
        }
        (b, None) => return Err(JobError::Failed(format!("{} needs a cubin", b.name()))),
    };
    let load_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let in_words: usize = job.kernels.iter().map(|k| k.inputs.len()).sum();
    let out_words: Vec<usize> = job.kernels.iter().map(|k| (k.threads * k.outputs) as usize).collect();
    let input = gpu.alloc(4 * in_words.max(1)).map_err(fault)?;
    let output = gpu.alloc(4 * out_words.iter().sum::<usize>().max(1)).map_err(fault)?;
    let bytes: Vec<u8> = job.kernels.iter().flat_map(|k| k.inputs.iter().flat_map(|w| w.to_le_bytes())).collect();
    gpu.upload(&input, &bytes).map_err(fault)?;
    gpu.zero(&output).map_err(fault)?;
    let (mut ioff, mut ooff) = (0, 0);
    for (k, &ow) in job.kernels.iter().zip(&out_words) {
        let f = modules
            .iter()
            .find_map(|m| m.function(&k.name).ok())
            .ok_or_else(|| JobError::Failed(format!("no entry `{}` in the loaded modules", k.name)))?;
        gpu.launch_program(f, k.threads, (&input, 4 * ioff), (&output, 4 * ooff)).map_err(fault)?;
        ioff += k.inputs.len();
        ooff += ow;
    }
    let raw = gpu.download(&output, 4 * ooff).map_err(fault)?;
    let words: Vec<u32> = raw.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut outputs = Vec::new();
    let mut at = 0;
    for ow in out_words {
        outputs.push(words[at..at + ow].to_vec());
        at += ow;
    }
    Ok(ProgramsDone { id: job.id, outputs, load_s, run_s: t1.elapsed().as_secs_f64() })
}

/// The driver's JIT on a module of programs, split into one module per core and compiled
/// concurrently (the JIT is single-threaded per module; each part is still a whole module of
/// whole programs, so nothing about what is compiled changes).
fn jit_in_parallel(gpu: &Gpu, ptx: &str) -> Result<Vec<crate::gpu::Module>, JobError> {
    use oracle::program::text;
    let programs = text::parse_module(ptx).map_err(|e| JobError::Failed(format!("module: {e}")))?;
    let parts = std::thread::available_parallelism().map_or(4, |n| n.get()).min(programs.len().max(1));
    let chunk = programs.len().div_ceil(parts).max(1);
    let texts: Vec<String> = programs.chunks(chunk).map(text::module).collect();
    let loaded: Vec<Result<crate::gpu::Module, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = texts
            .iter()
            .map(|t| s.spawn(move || gpu.load_module(t.as_bytes(), true, 4).map_err(|e| e.to_string())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("JIT thread panicked".into()))).collect()
    });
    loaded.into_iter().collect::<Result<Vec<_>, _>>().map_err(JobError::Failed)
}

/// A program job run by the program oracle (`ptxdiff worker --oracle`): each output is the
/// oracle's expected bits (one admissible value where the result is a set). Entries named
/// `planted_fault…`/`planted_hang…` abort or hang, for the supervisor's tests.
fn run_program_job_oracle(job: &ProgramJob) -> Result<ProgramsDone, JobError> {
    use oracle::program::{interp, text, Inputs};
    let t = Instant::now();
    let programs = text::parse_module(&job.ptx).map_err(|e| JobError::Failed(format!("module: {e}")))?;
    let mut outputs = Vec::new();
    for k in &job.kernels {
        if k.name.starts_with("planted_fault") {
            std::process::abort();
        }
        if k.name.starts_with("planted_hang") {
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
        let p = programs
            .iter()
            .find(|p| p.name == k.name)
            .ok_or_else(|| JobError::Failed(format!("no entry `{}` in the module", k.name)))?;
        let e = interp::run(p, &Inputs(k.inputs.clone()), &Allowances::all())
            .map_err(|e| JobError::Failed(format!("{}: {e}", k.name)))?;
        outputs.push(e.iter().flat_map(|x| (0..p.outputs).map(move |w| (x.bits >> (32 * w)) as u32)).collect());
    }
    Ok(ProgramsDone { id: job.id, outputs, load_s: 0.0, run_s: t.elapsed().as_secs_f64() })
}

/// A job run by the CPU oracle instead of a GPU (`ptxdiff worker --oracle`): the same
/// protocol, so CI exercises the supervisor, restarts and timeouts without a GPU. Planted
/// faults abort the process; planted hangs sleep.
fn run_oracle_job(job: &Job) -> Result<Done, JobError> {
    match job.planted {
        Some(Planted::Fault) => std::process::abort(),
        Some(Planted::Hang) => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        None => {}
    }
    let target: Target = job.target.parse().map_err(|e: oracle::isa::TargetError| JobError::Failed(e.to_string()))?;
    let form = Form::parse_opcode(&job.form).map_err(|e| JobError::Failed(e.to_string()))?;
    let k = sweep_kernel(&form, &target).map_err(|e| JobError::Failed(e.to_string()))?;
    let mut allow = Allowances::all();
    for a in job.allow_off.iter().filter_map(|a| Allowance::from_name(a)) {
        allow.disable(a);
    }
    let checker = Checker::new(&form, k.scheme, k.out_bytes, allow);
    let t = Instant::now();
    let mut result = Checked::default();
    for &(first, count) in &job.segments {
        let bytes: Vec<u8> = (first..first + count)
            .flat_map(|i| checker.expected(i).bits.to_le_bytes()[..k.out_bytes as usize].to_vec())
            .collect();
        let c = checker.check(first, &bytes);
        result.checked += c.checked;
        result.mismatches += c.mismatches;
        result.absorb_audit(&c);
        result.examples.extend(c.examples);
    }
    Ok(Done { id: job.id, result, compile_s: 0.0, gpu_s: 0.0, check_s: t.elapsed().as_secs_f64() })
}

/// The worker's main loop (`ptxdiff worker`): returns when stdin closes or after a fault.
/// With `oracle`, jobs run on the CPU oracle ([`run_oracle_job`]) and no GPU is needed.
pub fn serve(device: i32, oracle: bool) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if oracle {
        reply(&mut out, &Reply::Ready { device: "oracle (CPU)".into(), driver: 0, sm: 90 })?;
        for line in std::io::stdin().lock().lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let r = match serde_json::from_str::<Request>(&line) {
                Ok(Request::Sweep(job)) => match run_oracle_job(&job) {
                    Ok(done) => Reply::Done(done),
                    Err(JobError::Failed(message) | JobError::Fault(message)) => Reply::Failed { id: job.id, message },
                },
                Ok(Request::Programs(job)) => match run_program_job_oracle(&job) {
                    Ok(done) => Reply::Programs(done),
                    Err(JobError::Failed(message) | JobError::Fault(message)) => Reply::Failed { id: job.id, message },
                },
                Err(e) => Reply::Failed { id: u64::MAX, message: format!("bad job: {e}") },
            };
            reply(&mut out, &r)?;
        }
        return Ok(());
    }
    let gpu = match Gpu::open(device) {
        Ok(g) => g,
        Err(e) => return reply(&mut out, &Reply::Unavailable { message: e.to_string() }),
    };
    reply(&mut out, &Reply::Ready { device: gpu.name.clone(), driver: gpu.driver, sm: gpu.sm() })?;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request: Request = match serde_json::from_str(&line) {
            Ok(j) => j,
            Err(e) => {
                reply(&mut out, &Reply::Failed { id: u64::MAX, message: format!("bad job: {e}") })?;
                continue;
            }
        };
        let (id, result) = match &request {
            Request::Sweep(job) => (job.id, run_job(&gpu, job).map(Reply::Done)),
            Request::Programs(job) => (job.id, run_program_job(&gpu, job).map(Reply::Programs)),
        };
        match result {
            Ok(r) => reply(&mut out, &r)?,
            Err(JobError::Failed(message)) => reply(&mut out, &Reply::Failed { id, message })?,
            Err(JobError::Fault(message)) => {
                reply(&mut out, &Reply::Fault { id, message })?;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// What became of a job, seen from the supervisor.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Finished.
    Done(Done),
    /// A program job finished.
    Programs(ProgramsDone),
    /// Rejected (ptxas or JIT error).
    Failed(String),
    /// The GPU faulted (the worker exited).
    Fault(String),
    /// The worker died without a word (signal, panic).
    Crashed(String),
    /// No reply within the timeout; the worker was killed.
    Hung(Duration),
}

/// A running worker process.
pub struct WorkerHandle {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The device the worker reported.
    pub device: String,
    /// Driver version.
    pub driver: i32,
    /// Native sm.
    pub sm: u16,
}

impl WorkerHandle {
    /// Starts `ptxdiff worker` (this executable, or `$PTXDIFF_BIN`); `Err` carries why no GPU
    /// is usable.
    pub fn spawn() -> Result<WorkerHandle, String> {
        let exe = match std::env::var_os("PTXDIFF_BIN") {
            Some(p) => std::path::PathBuf::from(p),
            None => std::env::current_exe().map_err(|e| format!("cannot find ptxdiff's own executable: {e}"))?,
        };
        Self::spawn_with(&exe)
    }

    /// Starts `EXE worker`.
    pub fn spawn_with(exe: &std::path::Path) -> Result<WorkerHandle, String> {
        Self::start(exe, &[])
    }

    /// Starts `EXE worker --oracle`: the CPU oracle behind the same protocol.
    pub fn spawn_oracle(exe: &std::path::Path) -> Result<WorkerHandle, String> {
        Self::start(exe, &["--oracle"])
    }

    fn start(exe: &std::path::Path, extra: &[&str]) -> Result<WorkerHandle, String> {
        let mut child = Command::new(exe)
            .arg("worker")
            .args(extra)
            .env("CUDA_CACHE_DISABLE", "1")
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
        let first =
            rx.recv_timeout(Duration::from_secs(60)).map_err(|_| "the worker did not start within 60 s".to_string())?;
        match serde_json::from_str::<Reply>(&first) {
            Ok(Reply::Ready { device, driver, sm }) => Ok(WorkerHandle { child, stdin, lines: rx, device, driver, sm }),
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

    /// Runs `job`, waiting at most `timeout`. After `Fault`, `Crashed` or `Hung` this handle
    /// is dead: spawn a new one.
    pub fn run(&mut self, job: &Job, timeout: Duration) -> Outcome {
        self.exchange(&Request::Sweep(job.clone()), job.id, timeout)
    }

    /// Runs a program job, as [`WorkerHandle::run`].
    pub fn run_programs(&mut self, job: &ProgramJob, timeout: Duration) -> Outcome {
        self.exchange(&Request::Programs(job.clone()), job.id, timeout)
    }

    fn exchange(&mut self, request: &Request, id: u64, timeout: Duration) -> Outcome {
        let line = serde_json::to_string(request).unwrap_or_default();
        if writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).is_err() {
            return Outcome::Crashed("the worker's stdin is closed".into());
        }
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(l) => match serde_json::from_str::<Reply>(&l) {
                    Ok(Reply::Done(d)) if d.id == id => return Outcome::Done(d),
                    Ok(Reply::Programs(d)) if d.id == id => return Outcome::Programs(d),
                    Ok(Reply::Failed { id: i, message }) if i == id => return Outcome::Failed(message),
                    Ok(Reply::Fault { id: i, message }) if i == id => {
                        let _ = self.child.wait();
                        return Outcome::Fault(message);
                    }
                    _ => continue,
                },
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Outcome::Hung(timeout);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
                    return Outcome::Crashed(format!("the worker exited ({status}) while running the job"));
                }
            }
        }
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
