//! The worker's side of the protocol (`ptxdiff worker`): reads [`Request`]s on stdin, runs
//! each on its [`Executor`] and answers one [`Reply`] per request on stdout.
//!
//! A GPU worker opens device `--device N`, compiles the sweep kernel (offline `ptxas` named in
//! the job, or the driver's JIT with `CUDA_CACHE_DISABLE=1` set by the supervisor) and runs it
//! in chunks. Where the form has a check kernel (`generator::sweep_check`: the exhaustive cvt
//! forms with a fast kernel) the GPU compares each chunk with the oracle's integer prediction
//! and only the differing results and the audit sample are copied back and judged on the CPU
//! ([`Checker::check_reported`]); otherwise (or with `cpu_check`, or if the driver refuses the
//! harness's kernels) each chunk is copied to pinned memory and checked on all cores
//! ([`Checker::check`]). Either way only counts and a few mismatches cross the pipe. Buffers
//! and harness modules are kept between jobs. A kernel fault poisons the CUDA
//! context, so the worker reports it ([`Reply::Fault`]) and exits. A program job's kernels are
//! launched one after another, each followed by an event, and waited for in order with the
//! job's per-kernel timeout ([`wait_for_kernels`]): a kernel still running past it is named
//! ([`Reply::KernelHung`]) and the worker exits at once, leaving its memory and modules to
//! the process's end (freeing them would wait for the kernel). A worker started with
//! `--oracle` runs [`Executor::Oracle`] jobs on the CPU oracle instead and needs no GPU (with
//! `test-hooks`, its planted hangs are named the same way).
//! Memory jobs ([`super::memjob`]) run on a GPU worker only.
//! Invariant: the allowances a job carries are the ones its results are checked under.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use generator::sweep::{sweep_kernel, SweepKernel};
use generator::sweep_check::check_kernel;
use oracle::isa::{Form, Target};
use oracle::semantics::Allowances;

use super::harness_kernels::gather_kernel;
use super::job_error::{fault, on_gpu, JobError};
#[cfg(feature = "test-hooks")]
use super::protocol::Planted;
use super::protocol::{
    parse_request, Compiler, Executor, KernelRun, ProgramJob, ProgramsDone, Reply, Request, SweepDone, SweepJob,
};
use crate::gpu::{DeviceBuffer, Function, Gpu, GpuError, KernelParams, Module, PinnedBuffer};
use crate::ptxas::Ptxas;
use crate::sweep_check::{Checked, Checker, AUDIT_SEED};

/// 32-bit words in a 128-byte line: where each program's inputs start in a job's buffer.
const LINE_WORDS: usize = 32;

/// Results per chunk: bounds host memory and lets the checker start early.
const CHUNK: u64 = 1 << 27;

fn reply(out: &mut impl Write, r: &Reply) -> std::io::Result<()> {
    writeln!(out, "{}", serde_json::to_string(r).unwrap_or_default())?;
    out.flush()
}

/// The planted sweep kernel for the GPU (`None`: a hook only the oracle worker has).
#[cfg(feature = "test-hooks")]
fn planted_ptx(p: Planted, target: &Target) -> Option<String> {
    let body = match p {
        Planted::Fault => "  mov.u64 %rd1, 0;\n  st.global.u32 [%rd1], 1;",
        Planted::Hang => "LOOP:\n  bra.uni LOOP;",
        Planted::NonCanonicalNan | Planted::FlippedBits => return None,
    };
    Some(format!(
        ".version {}\n.target {}\n.address_size 64\n.visible .entry sweep(.param .u64 out, .param .u64 base, .param .u64 n)\n{{\n  .reg .b64 %rd<2>;\n{body}\n  ret;\n}}\n",
        target.ptx,
        target.name()
    ))
}

fn compile(gpu: &Gpu, compiler: &Compiler, ptx: &str, target: &Target) -> Result<crate::gpu::Kernel, String> {
    match compiler {
        Compiler::Jit => gpu.load(ptx.as_bytes(), true, 4).map_err(|e| e.to_string()),
        Compiler::Ptxas { path, version, opt } => {
            let ptxas = Ptxas { path: path.clone(), version: version.clone() };
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let cubin = dir.path().join("sweep.cubin");
            let asm = ptxas.assemble(ptx, &target.name(), *opt, Some(&cubin)).map_err(|e| e.to_string())?;
            if !asm.ok {
                return Err(format!("ptxas -O{opt} rejected the sweep kernel: {}", asm.output.trim()));
            }
            let image = std::fs::read(&cubin).map_err(|e| e.to_string())?;
            gpu.load(&image, false, 0).map_err(|e| e.to_string())
        }
    }
}

/// What a GPU worker keeps between jobs: device and pinned buffers (allocating and pinning
/// gigabytes costs more than a small sweep) and the loaded check and gather modules (one per
/// PTX text). Dropped before the [`Gpu`] whose context they belong to.
#[derive(Default)]
struct Kept {
    /// Results of a chunk, two slots (the CPU path double-buffers).
    results: [Option<DeviceBuffer>; 2],
    /// Host copies of the results (CPU path, and the GPU path's overflow).
    host: [Option<PinnedBuffer>; 2],
    /// The check kernel's suspect offsets, its counter, its audit slots, gathered results.
    suspects: Option<DeviceBuffer>,
    count: Option<DeviceBuffer>,
    audit: Option<DeviceBuffer>,
    gathered: Option<DeviceBuffer>,
    /// Modules by PTX text.
    modules: HashMap<String, Module>,
    /// The module memory jobs used last (a batch's jobs share one module).
    mem_module: Option<super::memjob::LoadedModule>,
}

/// A buffer of at least `bytes` in `slot`, reallocated when too small.
fn device<'a>(gpu: &Gpu, slot: &'a mut Option<DeviceBuffer>, bytes: usize) -> Result<&'a DeviceBuffer, JobError> {
    if slot.as_ref().is_none_or(|b| b.bytes < bytes) {
        *slot = None;
        *slot = Some(gpu.alloc(bytes).map_err(fault)?);
    }
    slot.as_ref().ok_or_else(|| JobError::Failed("device buffer".into()))
}

/// A pinned host buffer of at least `bytes` in `slot`, reallocated when too small.
fn pinned<'a>(gpu: &Gpu, slot: &'a mut Option<PinnedBuffer>, bytes: usize) -> Result<&'a mut PinnedBuffer, JobError> {
    if slot.as_ref().is_none_or(|b| b.bytes < bytes) {
        *slot = None;
        *slot = Some(gpu.alloc_pinned(bytes).map_err(fault)?);
    }
    slot.as_mut().ok_or_else(|| JobError::Failed("pinned buffer".into()))
}

impl Kept {
    /// The module of `ptx`, compiled by the driver's JIT once per worker. These are the
    /// harness's own kernels (check, gather), never the code under test.
    fn module(&mut self, gpu: &Gpu, ptx: &str) -> Result<&Module, JobError> {
        if !self.modules.contains_key(ptx) {
            let m =
                gpu.load_module(ptx.as_bytes(), true, 4).map_err(|e| JobError::Failed(format!("check kernel: {e}")))?;
            self.modules.insert(ptx.to_string(), m);
        }
        self.modules.get(ptx).ok_or_else(|| JobError::Failed("module cache".into()))
    }
}

/// Loaded harness modules a worker keeps before it drops them all (at the start of a job, so
/// never those a job is using): more than one run's check kernels (317 on sm_90, shared by
/// every backend of the run), each a few kilobytes of code.
const MAX_MODULES: usize = 1024;
/// Results per chunk on the GPU path: only suspects and audit samples leave the device.
const GPU_CHUNK: u64 = 1 << 28;
/// The most suspects a chunk reports; more (a badly broken form) and the chunk is copied
/// to the host and checked there.
const SUSPECT_CAP: u32 = 1 << 22;

fn run_sweep(gpu: &Gpu, kept: &mut Kept, job: &SweepJob) -> Result<SweepDone, JobError> {
    let compiler = on_gpu(&job.executor)?;
    let target: Target = job.target.parse().map_err(|e: oracle::isa::TargetError| JobError::Failed(e.to_string()))?;
    let t0 = Instant::now();
    #[cfg(feature = "test-hooks")]
    if let Some(p) = job.planted.filter(|p| *p != Planted::FlippedBits) {
        let ptx = planted_ptx(p, &target)
            .ok_or_else(|| JobError::Failed(format!("the planted {p:?} runs on the oracle worker only")))?;
        let kernel = compile(gpu, compiler, &ptx, &target).map_err(JobError::Failed)?;
        let out = gpu.alloc(4).map_err(fault)?;
        gpu.launch_sweep(&kernel, &out, 0, 1).map_err(fault)?;
        gpu.synchronize().map_err(fault)?;
        return Ok(SweepDone { id: job.id, ..SweepDone::default() });
    }
    let form = Form::parse_opcode(&job.form).map_err(|e| JobError::Failed(e.to_string()))?;
    let k: SweepKernel = sweep_kernel(&form, &target).map_err(|e| JobError::Failed(e.to_string()))?;
    let kernel = compile(gpu, compiler, &k.ptx, &target).map_err(JobError::Failed)?;
    let check = if job.cpu_check { None } else { check_kernel(&form, &target, &job.allow) };
    let checker = Checker::new(&form, k.scheme, k.out_bytes, job.allow.clone()).map_err(JobError::Failed)?;
    let sweep = Sweep { gpu, kernel: &kernel, out_bytes: k.out_bytes, checker: &checker, job };
    if kept.modules.len() >= MAX_MODULES {
        kept.modules.clear();
    }
    // The harness's kernels are JIT-compiled here (counted as compile time). Should the driver
    // refuse one, the CPU checks the results instead: slower, the same verdict, and never a
    // finding against the backend under test (the reply says `gpu_checked: false`).
    let harness =
        check.filter(|ck| kept.module(gpu, &ck.ptx).is_ok() && kept.module(gpu, &gather_kernel(k.out_bytes)).is_ok());
    match harness {
        Some(ck) => sweep.checked_on_gpu(kept, &ck.ptx, t0.elapsed().as_secs_f64()),
        None => sweep.checked_on_cpu(kept, t0.elapsed().as_secs_f64()),
    }
}

/// One sweep job on the GPU: the kernel under test, its results' bytes per index, the
/// checker.
struct Sweep<'a> {
    gpu: &'a Gpu,
    kernel: &'a crate::gpu::Kernel,
    out_bytes: u32,
    checker: &'a Checker,
    job: &'a SweepJob,
}

impl Sweep<'_> {
    /// The planted flip kernel's PTX when the job asks for it, loaded into `kept`.
    fn planted_flip(&self, kept: &mut Kept) -> Result<Option<&'static str>, JobError> {
        #[cfg(feature = "test-hooks")]
        if self.job.planted == Some(Planted::FlippedBits) {
            kept.module(self.gpu, super::harness_kernels::FLIP)?;
            return Ok(Some(super::harness_kernels::FLIP));
        }
        let _ = kept;
        Ok(None)
    }

    /// The job's index ranges in chunks of at most `chunk` results.
    fn pieces(&self, chunk: u64) -> Vec<(u64, u64)> {
        self.job
            .segments
            .iter()
            .flat_map(|&(first, count)| {
                (0..count.div_ceil(chunk)).map(move |c| (first + c * chunk, chunk.min(count - c * chunk)))
            })
            .collect()
    }

    fn chunk(&self, most: u64) -> u64 {
        most.min(self.job.segments.iter().map(|s| s.1).max().unwrap_or(1).max(1))
    }

    /// Runs the kernel under test on `(base, n)` into `out`, then `flip` (the planted bit
    /// flips of a survival test), if any.
    fn compute(&self, out: &DeviceBuffer, (base, n): (u64, u64), flip: Option<Function<'_>>) -> Result<(), GpuError> {
        self.gpu.launch_sweep(self.kernel, out, base, n)?;
        #[cfg(feature = "test-hooks")]
        if let Some(f) = flip {
            let every = super::protocol::FLIP_EVERY;
            let params = KernelParams::new().u64(out.ptr()).u64(base).u64(n).u64(every).u64(u64::from(self.out_bytes));
            // `flip` touches one byte of each result below `n` whose index is a multiple of
            // `every`: at most `n / every + 1` of them.
            self.gpu.launch_linear(f, n / every + 2, &params)?;
        }
        #[cfg(not(feature = "test-hooks"))]
        let _ = flip;
        Ok(())
    }

    /// The GPU checks its own results: per chunk, the check kernel compares every result with
    /// the oracle's prediction and reports the differing offsets and the audit sample; only
    /// those cross to the host, where [`Checker::check_reported`] judges them with the full
    /// semantics. A chunk with more than [`SUSPECT_CAP`] suspects is checked on the CPU.
    fn checked_on_gpu(&self, kept: &mut Kept, check_ptx: &str, compile_s: f64) -> Result<SweepDone, JobError> {
        let (gpu, b) = (self.gpu, u64::from(self.out_bytes));
        let chunk = self.chunk(GPU_CHUNK);
        let w = self.checker.audit_window();
        let slots = chunk / w + 2;
        // Both modules are loaded (`run_sweep`); the flip kernel is loaded here.
        let gather_ptx = gather_kernel(self.out_bytes);
        let flip = self.planted_flip(kept)?;
        let Kept { results, host, suspects, count, audit, gathered, modules, .. } = kept;
        let flip = flip.and_then(|ptx| modules.get(ptx)?.function("flip").ok());
        let check = modules.get(check_ptx).and_then(|m| m.function("check").ok());
        let gather = modules.get(&gather_ptx).and_then(|m| m.function("gather").ok());
        let (Some(check), Some(gather)) = (check, gather) else {
            return Err(JobError::Failed("the check or gather entry is missing".into()));
        };
        let out = device(gpu, &mut results[0], (chunk * b) as usize)?;
        let suspects = device(gpu, suspects, 4 * SUSPECT_CAP as usize)?;
        let count = device(gpu, count, 4)?;
        let audit = device(gpu, audit, (8 * slots) as usize)?;
        let t_all = Instant::now();
        let (mut check_s, mut result) = (0.0, Checked::default());
        for (base, n) in self.pieces(chunk) {
            self.compute(out, (base, n), flip).map_err(fault)?;
            gpu.zero(count).map_err(fault)?;
            let params = KernelParams::new()
                .u64(out.ptr())
                .u64(base)
                .u64(n)
                .u64(suspects.ptr())
                .u64(count.ptr())
                .u32(SUSPECT_CAP)
                .u64(audit.ptr())
                .u64(w)
                .u64(AUDIT_SEED);
            // `check` writes at most `cap` offsets, one counter and the audit slots of
            // `base..base + n` (at most `chunk / w + 2`), all sized above.
            gpu.launch_linear(check, n, &params).map_err(fault)?;
            let raw = gpu.download(count, 4).map_err(fault)?;
            let found = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
            if found > SUSPECT_CAP {
                let len = (n * b) as usize;
                let h = pinned(gpu, &mut host[0], len)?;
                gpu.copy_to_host(h, out, len).map_err(fault)?;
                let t = Instant::now();
                result.absorb(self.checker.check(base, h.as_slice(len)));
                check_s += t.elapsed().as_secs_f64();
                continue;
            }
            let mut reported = Vec::with_capacity(found as usize);
            if found > 0 {
                let g = device(gpu, gathered, 8 * found as usize)?;
                // `gather` reads `found` offsets below `n` and writes `found` words of 8 bytes.
                let params = KernelParams::new().u64(out.ptr()).u64(suspects.ptr()).u64(u64::from(found)).u64(g.ptr());
                gpu.launch_linear(gather, u64::from(found), &params).map_err(fault)?;
                let offsets = gpu.download(suspects, 4 * found as usize).map_err(fault)?;
                let values = gpu.download(g, 8 * found as usize).map_err(fault)?;
                for (o, v) in offsets.chunks_exact(4).zip(values.chunks_exact(8)) {
                    let j = u32::from_le_bytes([o[0], o[1], o[2], o[3]]);
                    let v = u64::from_le_bytes([v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]]);
                    reported.push((base + u64::from(j), u128::from(v)));
                }
            }
            let first_slot = base / w;
            let used = (base + n).div_ceil(w) - first_slot;
            let raw = gpu.download(audit, (8 * used) as usize).map_err(fault)?;
            let sampled: Vec<(u64, u128)> = self
                .checker
                .audit_picks(base, n)
                .map(|i| {
                    let at = (8 * (i / w - first_slot)) as usize;
                    let mut v = [0u8; 8];
                    v.copy_from_slice(&raw[at..at + 8]);
                    (i, u128::from(u64::from_le_bytes(v)))
                })
                .collect();
            let t = Instant::now();
            result.absorb(self.checker.check_reported(n, &reported, &sampled));
            check_s += t.elapsed().as_secs_f64();
        }
        let gpu_s = (t_all.elapsed().as_secs_f64() - check_s).max(0.0);
        Ok(SweepDone { id: self.job.id, result, compile_s, gpu_s, check_s, gpu_checked: true })
    }

    /// Every result is copied to the host and checked there, chunk by chunk: while the CPU
    /// checks one chunk, the GPU computes and copies the next.
    fn checked_on_cpu(&self, kept: &mut Kept, compile_s: f64) -> Result<SweepDone, JobError> {
        let gpu = self.gpu;
        let b = u64::from(self.out_bytes);
        let chunk = self.chunk(CHUNK);
        let bytes = (chunk * b) as usize;
        let flip = self.planted_flip(kept)?;
        let Kept { results, host, modules, .. } = kept;
        let flip = flip.and_then(|ptx| modules.get(ptx)?.function("flip").ok());
        let [r0, r1] = results;
        let dev = [device(gpu, r0, bytes)?, device(gpu, r1, bytes)?];
        let [h0, h1] = host;
        let mut host = [pinned(gpu, h0, bytes)?, pinned(gpu, h1, bytes)?];
        let pieces = self.pieces(chunk);
        let t_all = Instant::now();
        let mut check_s = 0.0;
        let mut result = Checked::default();
        let submit = |slot: usize, (base, n): (u64, u64), host: &mut [&mut PinnedBuffer; 2]| {
            self.compute(dev[slot], (base, n), flip)?;
            gpu.copy_to_host_async(host[slot], dev[slot], (n * b) as usize)?;
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
            let len = (n * b) as usize;
            result.absorb(self.checker.check(base, host[slot].as_slice(len)));
            check_s += t.elapsed().as_secs_f64();
        }
        // GPU time not hidden behind checking.
        let gpu_s = (t_all.elapsed().as_secs_f64() - check_s).max(0.0);
        Ok(SweepDone { id: self.job.id, result, compile_s, gpu_s, check_s, gpu_checked: false })
    }
}

fn run_programs(gpu: &Gpu, job: &ProgramJob) -> Result<ProgramsDone, JobError> {
    let compiler = on_gpu(&job.executor)?;
    let t0 = Instant::now();
    let modules = match (compiler, &job.cubin) {
        (Compiler::Jit, _) => vec![jit_module(gpu, &job.ptx)?],
        (Compiler::Ptxas { .. }, Some(path)) => {
            let image = std::fs::read(path).map_err(|e| JobError::Failed(format!("{}: {e}", path.display())))?;
            vec![gpu.load_module(&image, false, 0).map_err(|e| JobError::Failed(e.to_string()))?]
        }
        (Compiler::Ptxas { opt, .. }, None) => {
            return Err(JobError::Failed(format!("a ptxas -O{opt} program job needs a cubin")))
        }
    };
    let load_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    // Each kernel's inputs start on a 128-byte line (the program launch contract: `p_in` is
    // 128-byte aligned for `applypriority`/`discard`; the allocation itself is aligned more).
    let in_slot = |k: &KernelRun| k.inputs.len().next_multiple_of(LINE_WORDS);
    let in_words: usize = job.kernels.iter().map(in_slot).sum();
    let out_words: Vec<usize> = job.kernels.iter().map(|k| (k.threads * k.outputs) as usize).collect();
    let input = gpu.alloc(4 * in_words.max(1)).map_err(fault)?;
    let output = gpu.alloc(4 * out_words.iter().sum::<usize>().max(1)).map_err(fault)?;
    let mut bytes = vec![0u8; 4 * in_words];
    let mut at = 0;
    for k in &job.kernels {
        for (w, v) in k.inputs.iter().enumerate() {
            bytes[4 * (at + w)..4 * (at + w + 1)].copy_from_slice(&v.to_le_bytes());
        }
        at += in_slot(k);
    }
    gpu.upload(&input, &bytes).map_err(fault)?;
    gpu.zero(&output).map_err(fault)?;
    // Every entry is looked up before the first launch: with the driver's lazy loading a
    // lookup loads the kernel, which may wait for the context, so a lookup behind a kernel
    // that never ends would never return.
    let functions = (job.kernels.iter())
        .map(|k| {
            (modules.iter().find_map(|m| m.function(&k.name).ok()))
                .ok_or_else(|| JobError::Failed(format!("no entry `{}` in the loaded modules", k.name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (mut ioff, mut ooff) = (0, 0);
    let mut finished = Vec::with_capacity(job.kernels.len());
    for ((k, &ow), &f) in job.kernels.iter().zip(&out_words).zip(&functions) {
        gpu.launch_program(f, k.threads, (&input, 4 * ioff), (&output, 4 * ooff)).map_err(fault)?;
        if job.kernel_timeout_ms.is_some() {
            finished.push(gpu.record().map_err(fault)?);
        }
        ioff += in_slot(k);
        ooff += ow;
    }
    if let Err(e) = wait_for_kernels(job, &finished) {
        if matches!(e, JobError::KernelHung { .. }) {
            // Freeing device memory or unloading a module waits for the running kernel,
            // which never ends: the process ends with them instead.
            std::mem::forget((input, output, modules));
        }
        return Err(e);
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

/// The first pause between two looks at whether a kernel has finished
/// ([`wait_for_kernels`]); each look that finds it running doubles it, up to
/// [`KERNEL_POLL_MAX`]. A program's kernel takes microseconds, so most first looks find it
/// done; the doubling keeps a worker waiting for a long kernel off the cores.
const KERNEL_POLL_FIRST: Duration = Duration::from_micros(10);
/// The longest pause between two looks at a running kernel: what a job may end later than
/// its last kernel (a job of a batch takes tens of milliseconds or more).
const KERNEL_POLL_MAX: Duration = Duration::from_millis(1);

/// Waits for the kernels of `job` in launch order, `finished[i]` recorded after kernel `i`'s
/// launch: each may run the job's [`ProgramJob::kernel_timeout_ms`] from when the one before
/// it was seen to finish (the first, from now: every launch is queued). A kernel still
/// running past it is [`JobError::KernelHung`]; a fault is a fault, as in any other wait.
/// Without a per-kernel timeout (`finished` is empty then) there is nothing to wait for here:
/// the download waits for every kernel.
fn wait_for_kernels(job: &ProgramJob, finished: &[crate::gpu::Event]) -> Result<(), JobError> {
    let Some(limit) = job.kernel_timeout_ms.map(Duration::from_millis) else {
        return Ok(());
    };
    let mut since = Instant::now();
    let mut pause = KERNEL_POLL_FIRST;
    for (index, event) in finished.iter().enumerate() {
        // The clock is read before the event is asked: a worker kept off the CPU between the
        // two still finds a kernel that finished meanwhile done, never names it.
        loop {
            let now = Instant::now();
            if event.is_done().map_err(fault)? {
                break;
            }
            if now.duration_since(since) >= limit {
                return Err(kernel_hung(job, index, now.duration_since(since)));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(KERNEL_POLL_MAX);
        }
        since = Instant::now();
        pause = KERNEL_POLL_FIRST;
    }
    Ok(())
}

/// Kernel `index` of `job` is still running after `waited`.
fn kernel_hung(job: &ProgramJob, index: usize, waited: Duration) -> JobError {
    let kernel = job.kernels.get(index).map_or_else(String::new, |k| k.name.clone());
    JobError::KernelHung { index, kernel, waited_ms: u64::try_from(waited.as_millis()).unwrap_or(u64::MAX) }
}

/// The driver's JIT on the job's module, as one module. The pool already splits a batch over
/// the worker processes (one context each), which is where the JIT scales; splitting a part
/// again over threads of one process cost CPU and gained nothing: on the H200 (default
/// backends, `fuzz --time 45s --seed 4200`, two runs each) one module per part ran 463–478
/// programs/s at 29.9–30.6 CPU-ms per program, one module per core of the part 335–352
/// programs/s at 38.8–40.0 (docs/PERFORMANCE.md, session 42).
fn jit_module(gpu: &Gpu, ptx: &str) -> Result<crate::gpu::Module, JobError> {
    gpu.load_module(ptx.as_bytes(), true, 4).map_err(|e| JobError::Failed(e.to_string()))
}

/// A program job run by the program oracle (`ptxdiff worker --oracle`) under the job's
/// allowances. With `test-hooks`, entries named `planted_fault…`/`planted_segv…`/`planted_hang…`
/// abort, raise `SIGSEGV` (for `super::crash_site`) or hang, for the supervisor's tests, the first of them in kernel order as a GPU would meet
/// it: a planted hang in a job with a per-kernel timeout is waited for that long and named
/// ([`JobError::KernelHung`], as [`wait_for_kernels`] names a GPU's), without one it sleeps
/// for good; and the bugs `super::planted` reads from the environment are planted.
fn run_programs_on_oracle(job: &ProgramJob) -> Result<ProgramsDone, JobError> {
    let t = Instant::now();
    #[cfg(feature = "test-hooks")]
    for (index, k) in job.kernels.iter().enumerate() {
        if k.name.starts_with("planted_fault") {
            std::process::abort();
        }
        if k.name.starts_with("planted_segv") {
            // SAFETY: raising a signal; the crash-site handler reports it and the process dies.
            unsafe { libc::raise(libc::SIGSEGV) };
        }
        if k.name.starts_with("planted_hang") {
            let Some(limit) = job.kernel_timeout_ms.map(Duration::from_millis) else {
                loop {
                    std::thread::sleep(Duration::from_secs(3600));
                }
            };
            let since = Instant::now();
            std::thread::sleep(limit);
            return Err(kernel_hung(job, index, since.elapsed()));
        }
    }
    #[cfg(feature = "test-hooks")]
    if let Some(plant) = super::planted::WorkerPlant::from_env().map_err(JobError::Failed)? {
        let mut outputs =
            outputs_by(&job.ptx, &job.kernels, |p, i| plant.run(p, i, &job.allow)).map_err(JobError::Failed)?;
        plant.perturb(&mut outputs);
        return Ok(ProgramsDone { id: job.id, outputs, load_s: 0.0, run_s: t.elapsed().as_secs_f64() });
    }
    let outputs = oracle_outputs(&job.ptx, &job.kernels, &job.allow).map_err(JobError::Failed)?;
    Ok(ProgramsDone { id: job.id, outputs, load_s: 0.0, run_s: t.elapsed().as_secs_f64() })
}

/// A memory job for the oracle: refused, since memory jobs run on a GPU worker only. With
/// `test-hooks`, a launch of an entry named `planted_fault…`/`planted_hang…` aborts or hangs
/// first, for the supervisor's tests of memory jobs.
fn refuse_mem_on_oracle(job: &super::protocol::MemJob) -> Result<Reply, JobError> {
    #[cfg(feature = "test-hooks")]
    {
        if job.launches.iter().any(|l| l.entry.starts_with("planted_fault")) {
            std::process::abort();
        }
        if job.launches.iter().any(|l| l.entry.starts_with("planted_hang")) {
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }
    let _ = job;
    Err(JobError::Failed("memory jobs run on a GPU worker only".into()))
}

/// The program oracle's outputs for `kernels` of the module `ptx` under `allow`: each the
/// oracle's expected bits (one admissible value where the result is a set), threads × outputs
/// words, thread 0 first.
pub fn oracle_outputs(ptx: &str, kernels: &[KernelRun], allow: &Allowances) -> Result<Vec<Vec<u32>>, String> {
    outputs_by(ptx, kernels, |p, i| oracle::program::interp::run(p, i, allow))
}

/// The outputs `run` gives for `kernels` of the module `ptx` (as [`oracle_outputs`] does with
/// the oracle itself).
fn outputs_by(
    ptx: &str,
    kernels: &[KernelRun],
    run: impl Fn(
        &oracle::program::Program,
        &oracle::program::Inputs,
    ) -> Result<Vec<oracle::semantics::Expected>, oracle::program::interp::InterpError>,
) -> Result<Vec<Vec<u32>>, String> {
    use oracle::program::{text, Inputs};
    let programs = text::parse_module(ptx).map_err(|e| format!("module: {e}"))?;
    let mut outputs = Vec::new();
    for k in kernels {
        let p =
            programs.iter().find(|p| p.name == k.name).ok_or_else(|| format!("no entry `{}` in the module", k.name))?;
        let e = run(p, &Inputs(k.inputs.clone())).map_err(|e| format!("{}: {e}", k.name))?;
        outputs.push(e.iter().flat_map(|x| (0..p.outputs).map(move |w| (x.bits >> (32 * w)) as u32)).collect());
    }
    Ok(outputs)
}

/// A sweep run by the CPU oracle instead of a GPU (`ptxdiff worker --oracle`): the same
/// protocol, so CI exercises the supervisor, restarts and timeouts without a GPU. With
/// `test-hooks`, planted faults abort the process and planted hangs sleep.
fn run_sweep_on_oracle(job: &SweepJob) -> Result<SweepDone, JobError> {
    #[cfg(feature = "test-hooks")]
    match job.planted {
        Some(Planted::Fault) => std::process::abort(),
        Some(Planted::Hang) => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        Some(Planted::FlippedBits) => {
            return Err(JobError::Failed("the planted FlippedBits runs on a GPU worker only".into()))
        }
        Some(Planted::NonCanonicalNan) | None => {}
    }
    let target: Target = job.target.parse().map_err(|e: oracle::isa::TargetError| JobError::Failed(e.to_string()))?;
    let form = Form::parse_opcode(&job.form).map_err(|e| JobError::Failed(e.to_string()))?;
    let k = sweep_kernel(&form, &target).map_err(|e| JobError::Failed(e.to_string()))?;
    let t = Instant::now();
    #[cfg(feature = "test-hooks")]
    let result = if job.planted == Some(Planted::NonCanonicalNan) {
        let free = Checker::new(&form, k.scheme, k.out_bytes, Allowances::all()).map_err(JobError::Failed)?;
        let top = 1u128 << (8 * k.out_bytes - 1);
        let gpu = |i: u64| {
            let e = free.expected(i);
            if e.is_exact() {
                e.bits
            } else {
                e.bits ^ top
            }
        };
        let checker = Checker::new(&form, k.scheme, k.out_bytes, job.allow.clone()).map_err(JobError::Failed)?;
        check_bytes(&checker, k.out_bytes, &job.segments, gpu)
    } else {
        oracle_sweep(&form, &k, &job.segments, &job.allow).map_err(JobError::Failed)?
    };
    #[cfg(not(feature = "test-hooks"))]
    let result = oracle_sweep(&form, &k, &job.segments, &job.allow).map_err(JobError::Failed)?;
    let check_s = t.elapsed().as_secs_f64();
    Ok(SweepDone { id: job.id, result, compile_s: 0.0, gpu_s: 0.0, check_s, gpu_checked: false })
}

/// The oracle's own expected results over `segments`, encoded as a backend returns them,
/// through the sweep checker (which exercises the fast kernels against the full semantics);
/// `Err` for a form the checker has no semantics for.
pub fn oracle_sweep(
    form: &Form,
    k: &SweepKernel,
    segments: &[(u64, u64)],
    allow: &Allowances,
) -> Result<Checked, String> {
    let checker = Checker::new(form, k.scheme, k.out_bytes, allow.clone())?;
    Ok(check_bytes(&checker, k.out_bytes, segments, |i| checker.expected(i).bits))
}

/// Checks the results `result(i)` gives for every index of `segments`, encoded as a backend
/// returns them (`out_bytes` each).
fn check_bytes(checker: &Checker, out_bytes: u32, segments: &[(u64, u64)], result: impl Fn(u64) -> u128) -> Checked {
    let mut out = Checked::default();
    for &(first, count) in segments {
        let bytes: Vec<u8> =
            (first..first + count).flat_map(|i| result(i).to_le_bytes()[..out_bytes as usize].to_vec()).collect();
        out.absorb(checker.check(first, &bytes));
    }
    out
}

/// The worker's main loop (`ptxdiff worker`): returns when stdin closes or after a fault.
/// With `oracle`, no GPU is opened and only [`Executor::Oracle`] jobs run; otherwise device
/// `device` is opened and [`Executor::Cuda`] jobs run on it.
pub fn serve(device: i32, oracle: bool) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let gpu = if oracle {
        super::crash_site::install();
        let ready =
            Reply::Ready { device: "oracle (CPU)".into(), driver: 0, sm: 90, driver_version: None, devices: None };
        reply(&mut out, &ready)?;
        None
    } else {
        match Gpu::open(device) {
            Ok(g) => {
                let ready = Reply::Ready {
                    device: g.name.clone(),
                    driver: g.driver,
                    sm: g.sm(),
                    driver_version: super::protocol::installed_driver_version(),
                    devices: cudarc::driver::result::device::get_count().ok().and_then(|n| u32::try_from(n).ok()),
                };
                reply(&mut out, &ready)?;
                // After the driver started, so that its own handlers (if any) come first.
                super::crash_site::install();
                Some(g)
            }
            Err(e) => return reply(&mut out, &Reply::Unavailable { message: e.to_string() }),
        }
    };
    // Declared after `gpu`, so dropped before it: buffers and modules belong to its context.
    let mut kept = Kept::default();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request = match parse_request(&line) {
            Ok(r) => r,
            Err((id, message)) => {
                reply(&mut out, &Reply::Failed { id, message })?;
                continue;
            }
        };
        let id = request.id();
        let result = match (&request, &gpu) {
            (Request::Sweep(job), _) if job.executor == Executor::Oracle => run_sweep_on_oracle(job).map(Reply::Done),
            (Request::Programs(job), _) if job.executor == Executor::Oracle => {
                run_programs_on_oracle(job).map(Reply::Programs)
            }
            (Request::Mem(job), _) if job.executor == Executor::Oracle => refuse_mem_on_oracle(job),
            (_, None) => Err(JobError::Failed("this worker has no GPU (started with --oracle)".into())),
            (Request::Sweep(job), Some(gpu)) => run_sweep(gpu, &mut kept, job).map(Reply::Done),
            (Request::Programs(job), Some(gpu)) => run_programs(gpu, job).map(Reply::Programs),
            (Request::Mem(job), Some(gpu)) => {
                // The supervisor counts the job's timeout from this line: a slow JIT compile
                // is not a hang. A closed stdout ends the worker at the next reply anyway.
                let mut loaded = || {
                    let _ = reply(&mut out, &Reply::Loaded { id });
                };
                super::memjob::run_mem(gpu, &mut kept.mem_module, job, &mut loaded).map(Reply::Mem)
            }
        };
        match result {
            Ok(r) => reply(&mut out, &r)?,
            Err(JobError::Failed(message)) => reply(&mut out, &Reply::Failed { id, message })?,
            Err(JobError::Fault(message)) => {
                reply(&mut out, &Reply::Fault { id, message })?;
                return Ok(());
            }
            Err(JobError::KernelHung { index, kernel, waited_ms }) => {
                // The kernel still runs: dropping the context, its memory and modules would
                // wait for it, and so could the driver's exit handlers. The process ends now,
                // whether or not the reply got out (the supervisor's timeout covers that).
                let _ = reply(&mut out, &Reply::KernelHung { id, index, kernel, waited_ms });
                // SAFETY: `_exit` ends the process without running exit handlers or
                // destructors; nothing of this process is needed any more.
                unsafe { libc::_exit(0) }
            }
        }
    }
    Ok(())
}
