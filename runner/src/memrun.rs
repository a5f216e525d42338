//! Memory programs on GPU backends: print programs as modules
//! ([`oracle::memprog::ptx::module`]; for the JIT, modules of [`JIT_MODULE_PROGRAMS`]; for a
//! ptxas build, one module per share of the cores, assembled side by side),
//! run one [`MemJob`] per module, one [`MemLaunch`] per program ([`Backend::run_mem`]), and
//! slice each program's read-back buffers out of what comes back ([`run_on`]); compare those bytes with the oracle's
//! ([`oracle_read`], [`compare`]). A program's case file is its `ptxdiff eval` program line
//! ([`crate::program_line`]).
//!
//! Invariants: `run_on` gives one [`GpuResult`] per program, in order, or one environment
//! error for all; a program the assembler rejects or crashes on is that program's
//! [`Failure`], attributed by assembling it alone when the whole module fails; [`compare`]
//! reports exactly the known bytes that differ.

use std::path::PathBuf;
use std::time::Duration;

use oracle::memory::{Byte, Region};
use oracle::memprog::ptx::{module, KernelParam, MemKernel, MemModule};
use oracle::memprog::{MemProgram, StmtError};
use oracle::semantics::Allowances;

use crate::backend::{Backend, Build, Failure};
use crate::worker::protocol::{Executor, JobBuffer, JobParam, MemJob, MemLaunch, MemOutcome, MAX_BUFFER_ALIGN};

/// The GPU's final bytes of each `MemProgram::read` buffer, or why there are none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuResult {
    /// One byte vector per read buffer, in `read` order.
    Bytes(Vec<Vec<u8>>),
    /// A failure worth a finding: rejected by the assembler or the JIT, a fault, a hang.
    Failed(Failure),
    /// The driver refused tensor map parameter `param` (index into the kernel's parameters):
    /// the `CUresult` name.
    EncodeRejected {
        /// Index into the entry's parameters.
        param: usize,
        /// The `CUresult` name.
        error: String,
    },
}

/// A known byte the GPU got differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteDiff {
    /// Index into `MemProgram::read`.
    pub buffer: usize,
    /// Byte offset in the buffer.
    pub offset: u64,
    /// The oracle's byte.
    pub expected: u8,
    /// The GPU's byte (0 where the GPU gave back fewer bytes than the buffer has).
    pub got: u8,
}

/// The memory job (the worker protocol's, the one type a memory job has) of `kernels`, the
/// programs of a module with text `ptx` (and cubin, when assembled): one launch per kernel.
fn mem_job(ptx: &str, cubin: Option<PathBuf>, kernels: &[MemKernel], timeout: Duration) -> MemJob {
    MemJob {
        // The backend that runs the job sets both.
        id: 0,
        executor: Executor::Oracle,
        ptx: ptx.to_string(),
        cubin,
        launches: kernels.iter().map(mem_launch).collect(),
        timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
    }
}

/// The launch of `kernel`: its buffers, parameters, shape and the buffers it reads back.
fn mem_launch(kernel: &MemKernel) -> MemLaunch {
    // No instruction needs more than MAX_BUFFER_ALIGN (the 1024-byte swizzle span is the most),
    // and a worker honours no more.
    let buffers = kernel
        .buffers
        .iter()
        .map(|b| JobBuffer { len: b.len, align: b.align.min(MAX_BUFFER_ALIGN), init: b.init.clone() })
        .collect();
    let params = kernel
        .params
        .iter()
        .map(|p| match p {
            KernelParam::Pointer { buffer, offset } => JobParam::Pointer { buffer: *buffer, offset: *offset },
            KernelParam::TensorMap { buffer, offset, map } => {
                JobParam::TensorMap { buffer: *buffer, offset: *offset, map: map.into() }
            }
        })
        .collect();
    MemLaunch {
        entry: kernel.entry.clone(),
        block: [kernel.threads, 1, 1],
        // The grid is the program's one cluster; the launch attribute repeats the entry's
        // `.reqnctapercluster`.
        grid: [kernel.cluster, 1, 1],
        cluster: [kernel.cluster, 1, 1],
        dynamic_shared: kernel.dynamic_shared,
        buffers,
        params,
        read: read_buffers(kernel),
    }
}

/// The kernel buffers `readback` names, each once, in order of first mention.
fn read_buffers(kernel: &MemKernel) -> Vec<usize> {
    let mut read = Vec::new();
    for &(b, _, _) in &kernel.readback {
        if !read.contains(&b) {
            read.push(b);
        }
    }
    read
}

/// What became of one program, from its job's outcome.
fn result_of(kernel: &MemKernel, outcome: MemOutcome) -> GpuResult {
    match outcome {
        MemOutcome::Done { buffers } => {
            let read = read_buffers(kernel);
            let slices = kernel
                .readback
                .iter()
                .map(|&(b, at, len)| {
                    let got = read.iter().position(|&r| r == b).and_then(|k| buffers.get(k));
                    let bytes = got.map(Vec::as_slice).unwrap_or_default();
                    let start = (at as usize).min(bytes.len());
                    let end = (at.saturating_add(len) as usize).min(bytes.len());
                    bytes[start..end].to_vec()
                })
                .collect();
            GpuResult::Bytes(slices)
        }
        MemOutcome::EncodeRejected { param, error } => GpuResult::EncodeRejected { param, error },
        MemOutcome::Failed(f) => GpuResult::Failed(f),
    }
}

/// What the assembler made of a module: its cubin, or the failure.
fn assemble_one(build: &Build, m: &MemModule, arch: &str, cubin: PathBuf) -> Result<Result<PathBuf, Failure>, String> {
    let asm = build.ptxas.assemble(&m.ptx, arch, build.opt, Some(&cubin)).map_err(|e| e.to_string())?;
    Ok(if asm.ok {
        Ok(cubin)
    } else if asm.crashed {
        let how = if asm.timed_out { "ptxas timeout" } else { crate::ptxas::PTXAS_CRASH };
        Err(Failure::Crash { by: build.label(), how: how.into(), message: asm.output.trim().to_string() })
    } else {
        Err(Failure::Rejected { by: build.label(), message: asm.output.trim().to_string() })
    })
}

/// Programs per module a JIT backend gets: a module is one job, which one worker JIT-compiles
/// and runs ([`crate::backend::pool::Pool::run_mem`]), so small modules spread the compilation
/// over the workers.
pub const JIT_MODULE_PROGRAMS: usize = 4;

/// Runs programs on one backend: prints modules per target (a module has one `.target`;
/// the JIT gets one per [`JIT_MODULE_PROGRAMS`] programs of a target, a ptxas build one per
/// share of the cores, assembled in parallel), sends one MemJob per module; `Err` = environment
/// problem for all. Results come back in the programs' order.
pub fn run_on(
    backend: &mut dyn Backend,
    programs: &[&MemProgram],
    timeout: Duration,
) -> Result<Vec<GpuResult>, String> {
    if let Some(build) = backend.builds().into_iter().next() {
        return run_assembled(backend, &assemble(&build, programs, timeout)?);
    }
    run_jit(backend, programs, timeout)
}

/// The programs grouped by target, targets in order of first appearance: each group's indices
/// into `programs` and its programs (a module has one `.target`).
fn by_target<'p>(programs: &[&'p MemProgram]) -> Vec<(Vec<usize>, Vec<&'p MemProgram>)> {
    let mut groups: Vec<(Vec<usize>, Vec<&'p MemProgram>)> = Vec::new();
    for (i, &p) in programs.iter().enumerate() {
        match groups.iter_mut().find(|(_, g)| g[0].target == p.target) {
            Some((at, g)) => {
                at.push(i);
                g.push(p);
            }
            None => groups.push((vec![i], vec![p])),
        }
    }
    groups
}

/// Prints `programs` as one module per target (the check a campaign makes before a batch goes
/// to the backends, which print their own modules): the bytes of PTX in all, or the first
/// program the printer refuses.
pub fn print_all(programs: &[&MemProgram]) -> Result<usize, oracle::memprog::ptx::PrintError> {
    by_target(programs).into_iter().try_fold(0, |n, (_, group)| Ok(n + module(&group)?.ptx.len()))
}

/// Programs per module a ptxas build assembles: the batch dealt over the machine's cores,
/// since ptxas is single-threaded and costs about the same per instruction whatever the
/// module's size (measured on the H200 box: docs/PERFORMANCE.md), so modules assembled side
/// by side finish a batch in a fraction of the time one module takes.
fn ptxas_module_programs(programs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    programs.div_ceil(cores).max(1)
}

/// What the programs of a ptxas module became: one job for the module, or, for a program the
/// assembler rejects or crashes on, that failure.
#[derive(Clone, Debug)]
pub enum Assembled {
    /// A module the assembler made a cubin of.
    Module {
        /// Its kernels' indices among the batch's programs.
        at: Vec<usize>,
        /// Its kernels, in module order.
        kernels: Vec<MemKernel>,
        /// Its job: one launch per kernel, with the module's cubin.
        job: MemJob,
    },
    /// The assembler rejected or crashed on a program.
    Failed {
        /// The program's index in the batch.
        at: usize,
        /// What the assembler did.
        failure: Failure,
    },
}

/// Programs assembled by one ptxas build, ahead of their run ([`assemble`]): every program of
/// the batch in exactly one [`Assembled`], and the folder that holds the cubins (deleted when
/// this is dropped).
#[derive(Debug)]
pub struct AssembledBatch {
    /// The build's label ([`Build::label`]).
    pub label: String,
    /// How many programs the batch has.
    pub programs: usize,
    /// The modules and failures.
    pub assembled: Vec<Assembled>,
    _dir: std::sync::Arc<tempfile::TempDir>,
}

/// Assembles `programs` (the batch's programs `at`) as one module into `stem.cubin`. When the
/// whole module fails, each program is assembled alone to attribute the failure.
fn assemble_module(
    build: &Build,
    (at, programs): (&[usize], &[&MemProgram]),
    arch: &str,
    stem: &std::path::Path,
    timeout: Duration,
) -> Result<Vec<Assembled>, String> {
    let m = module(programs).map_err(|e| format!("cannot print the memory programs: {e}"))?;
    let job = |at: Vec<usize>, m: MemModule, cubin: PathBuf| Assembled::Module {
        at,
        job: mem_job(&m.ptx, Some(cubin), &m.kernels, timeout),
        kernels: m.kernels,
    };
    match assemble_one(build, &m, arch, stem.with_extension("cubin"))? {
        Ok(cubin) => Ok(vec![job(at.to_vec(), m, cubin)]),
        Err(whole) if programs.len() == 1 => Ok(vec![Assembled::Failed { at: at[0], failure: whole }]),
        Err(_) => programs
            .iter()
            .zip(at)
            .enumerate()
            .map(|(i, (p, &at))| {
                let one = module(&[*p]).map_err(|e| format!("cannot print memory program {i}: {e}"))?;
                let cubin = stem.with_extension(format!("{i}.cubin"));
                Ok(match assemble_one(build, &one, arch, cubin)? {
                    Ok(cubin) => job(vec![at], one, cubin),
                    Err(failure) => Assembled::Failed { at, failure },
                })
            })
            .collect(),
    }
}

/// Assembles `programs` with `build`: a module per target and per share of the cores
/// ([`ptxas_module_programs`]), each on a thread of its own. `Err` = environment problem.
pub fn assemble(build: &Build, programs: &[&MemProgram], timeout: Duration) -> Result<AssembledBatch, String> {
    let dir = tempfile::Builder::new()
        .prefix("ptxdiff-memrun-")
        .tempdir()
        .map_err(|e| format!("cannot make a scratch directory: {e}"))?;
    let mut modules: Vec<(Vec<usize>, Vec<&MemProgram>)> = Vec::new();
    for (at, group) in by_target(programs) {
        let n = ptxas_module_programs(group.len());
        modules.extend(at.chunks(n).zip(group.chunks(n)).map(|(a, g)| (a.to_vec(), g.to_vec())));
    }
    let assembled: Vec<Result<Vec<Assembled>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = modules
            .iter()
            .enumerate()
            .map(|(c, (at, group))| {
                let stem = dir.path().join(format!("m{c}"));
                s.spawn(move || assemble_module(build, (at, group), &group[0].target.name(), &stem, timeout))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let mut all = Vec::new();
    for a in assembled {
        all.extend(a?);
    }
    Ok(AssembledBatch {
        label: build.label(),
        programs: programs.len(),
        assembled: all,
        _dir: std::sync::Arc::new(dir),
    })
}

/// Runs programs that `backend`'s build assembled ahead ([`assemble`]): results in the
/// programs' order; `Err` = environment problem for all.
pub fn run_assembled(backend: &mut dyn Backend, batch: &AssembledBatch) -> Result<Vec<GpuResult>, String> {
    run_assembled_all(backend, &[batch]).map(|mut all| all.pop().unwrap_or_default())
}

/// [`run_assembled`] for several batches at once: every module's job goes to the backend in
/// one call, so its workers never wait for the last job of one batch before the next batch
/// starts. Results per batch, in the programs' order.
pub fn run_assembled_all(
    backend: &mut dyn Backend,
    batches: &[&AssembledBatch],
) -> Result<Vec<Vec<GpuResult>>, String> {
    let offsets: Vec<usize> = batches
        .iter()
        .scan(0, |at, b| {
            let first = *at;
            *at += b.programs;
            Some(first)
        })
        .collect();
    let total = batches.iter().map(|b| b.programs).sum();
    let mut results: Vec<Option<GpuResult>> = vec![None; total];
    let mut shifted: Vec<Vec<usize>> = Vec::new();
    let mut modules = Vec::new();
    for (batch, &first) in batches.iter().zip(&offsets) {
        for a in &batch.assembled {
            match a {
                Assembled::Module { at, kernels, job } => {
                    shifted.push(at.iter().map(|i| first + i).collect());
                    modules.push((kernels.as_slice(), job.clone()));
                }
                Assembled::Failed { at, failure } => {
                    if let Some(r) = results.get_mut(first + at) {
                        *r = Some(GpuResult::Failed(failure.clone()));
                    }
                }
            }
        }
    }
    let modules: Vec<(&[usize], &[MemKernel], MemJob)> =
        shifted.iter().zip(modules).map(|(at, (kernels, job))| (at.as_slice(), kernels, job)).collect();
    finish(backend, &modules, &mut results)?;
    let mut results = results.into_iter();
    batches
        .iter()
        .map(|b| {
            results.by_ref().take(b.programs).map(|r| r.ok_or_else(|| "a program got no result".to_string())).collect()
        })
        .collect()
}

/// [`run_on`] on a backend without a build (the JIT): modules of [`JIT_MODULE_PROGRAMS`]
/// programs of one target, one job each, every target's jobs sent together (so the workers
/// never wait for the last job of one target before the next target's start).
fn run_jit(backend: &mut dyn Backend, programs: &[&MemProgram], timeout: Duration) -> Result<Vec<GpuResult>, String> {
    // The JIT compiles every module a worker loads: modules of a few programs each, so that
    // a program is compiled by the one worker its module's job goes to, and the batch's
    // compilation is spread over the workers.
    let mut chunks = Vec::new();
    for (at, group) in by_target(programs) {
        for (at, chunk) in at.chunks(JIT_MODULE_PROGRAMS).zip(group.chunks(JIT_MODULE_PROGRAMS)) {
            let m = module(chunk).map_err(|e| format!("cannot print the memory programs: {e}"))?;
            chunks.push((at.to_vec(), mem_job(&m.ptx, None, &m.kernels, timeout), m.kernels));
        }
    }
    let modules: Vec<(&[usize], &[MemKernel], MemJob)> =
        chunks.iter().map(|(at, job, kernels)| (at.as_slice(), kernels.as_slice(), job.clone())).collect();
    let mut results: Vec<Option<GpuResult>> = vec![None; programs.len()];
    finish(backend, &modules, &mut results)?;
    results.into_iter().map(|r| r.ok_or_else(|| "a program got no result".to_string())).collect()
}

/// Runs the modules' jobs (each with its kernels and their indices among the programs) and
/// writes each program's result into `results`.
fn finish(
    backend: &mut dyn Backend,
    modules: &[(&[usize], &[MemKernel], MemJob)],
    results: &mut [Option<GpuResult>],
) -> Result<(), String> {
    if modules.is_empty() {
        return Ok(());
    }
    let jobs: Vec<MemJob> = modules.iter().map(|(_, _, job)| job.clone()).collect();
    let outcomes = backend.run_mem(&jobs);
    if outcomes.len() != jobs.len() {
        return Err(format!(
            "backend `{}` gave {} results for {} memory jobs",
            backend.name(),
            outcomes.len(),
            jobs.len()
        ));
    }
    for ((at, kernels, _), outcome) in modules.iter().zip(outcomes) {
        let outcome = outcome?;
        if outcome.len() != kernels.len() {
            return Err(format!(
                "backend `{}` gave {} outcomes for a job of {} launches",
                backend.name(),
                outcome.len(),
                kernels.len()
            ));
        }
        for ((&i, k), o) in at.iter().zip(kernels.iter()).zip(outcome) {
            if let Some(r) = results.get_mut(i) {
                *r = Some(result_of(k, o));
            }
        }
    }
    Ok(())
}

/// Byte comparison of the oracle's regions of the read buffers with the GPU's bytes: every
/// Known byte must be equal, Unknown bytes match anything.
pub fn compare(expected: &[&Region], got: &[Vec<u8>]) -> Vec<ByteDiff> {
    let mut diffs = Vec::new();
    for (buffer, region) in expected.iter().enumerate() {
        let bytes = got.get(buffer).map(Vec::as_slice).unwrap_or_default();
        for (offset, b) in region.bytes().iter().enumerate() {
            if let Byte::Known(e) = *b {
                let g = bytes.get(offset).copied();
                if g != Some(e) {
                    diffs.push(ByteDiff { buffer, offset: offset as u64, expected: e, got: g.unwrap_or(0) });
                }
            }
        }
    }
    diffs
}

/// The oracle's regions of `p.read`, in order.
pub fn oracle_read(p: &MemProgram, allow: &Allowances) -> Result<Vec<Region>, StmtError> {
    let all = oracle::memprog::interp::run(p, allow)?;
    Ok(p.read.iter().filter_map(|&k| all.get(k).cloned()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::memprog::ptx::KernelBuffer;

    /// A "GPU" that launches nothing (each read buffer comes back as it started) and counts
    /// the calls it gets.
    #[derive(Default)]
    struct Counting {
        calls: Vec<usize>,
    }

    impl Backend for Counting {
        fn name(&self) -> String {
            "cuda:counting".into()
        }
        fn kind(&self) -> crate::backend::BackendKind {
            crate::backend::BackendKind::Gpu
        }
        fn needs(&self) -> Vec<crate::backend::Need> {
            Vec::new()
        }
        fn role(&self) -> crate::backend::Role {
            crate::backend::Role::Runs
        }
        fn sweep(
            &mut self,
            _: &[crate::backend::SweepSpec],
            _: &(dyn Fn(u64) + Sync),
        ) -> Vec<crate::backend::SweepResult> {
            Vec::new()
        }
        fn run_programs(&mut self, _: &crate::backend::ProgramBatch) -> Result<Vec<Vec<u32>>, crate::backend::Failed> {
            Err(crate::backend::Failed::Environment("memory jobs only".into()))
        }
        fn run_mem(&mut self, jobs: &[MemJob]) -> Vec<Result<Vec<MemOutcome>, String>> {
            self.calls.push(jobs.len());
            let idle = |l: &crate::backend::MemLaunch| MemOutcome::Done {
                buffers: l.read.iter().map(|&i| l.buffers[i].init.clone()).collect(),
            };
            jobs.iter().map(|j| Ok(j.launches.iter().map(idle).collect())).collect()
        }
    }

    /// Programs of two targets, interleaved, go to a backend without a build (the JIT) in one
    /// call, in modules of one target each, and every result comes back at its program.
    #[test]
    fn the_jit_gets_every_targets_modules_at_once() {
        let program = |k: usize, target: &str| {
            let line = format!(
                r#"{{"program": ["ld.global.b32 v, [src];", "st.global.b32 [dst], v;"], "threads": 1, "target": "{target}",
                    "buffers": {{"src": {{"space": "global", "hex": "000000{k:02x}"}}, "dst": {{"space": "global", "len": 4, "fill": "{k:02x}"}}}},
                    "read": ["dst"]}}"#
            );
            let line: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&line).expect("JSON");
            crate::program_line::program_source(&line).expect("a program line").build().expect("builds")
        };
        let programs: Vec<MemProgram> =
            (0..11).map(|k| program(k, if k % 3 == 0 { "sm_90a" } else { "sm_90" })).collect();
        let refs: Vec<&MemProgram> = programs.iter().collect();
        let mut backend = Counting::default();
        let results = run_on(&mut backend, &refs, Duration::from_secs(1)).expect("runs");
        let modules = 4usize.div_ceil(JIT_MODULE_PROGRAMS) + 7usize.div_ceil(JIT_MODULE_PROGRAMS);
        assert_eq!(backend.calls, [modules], "one call with every module");
        for (k, r) in results.iter().enumerate() {
            let GpuResult::Bytes(b) = r else { panic!("program {k}: {r:?}") };
            assert_eq!(b, &[vec![k as u8; 4]], "program {k}");
        }
    }

    #[test]
    fn compare_reports_exactly_the_known_bytes_that_differ() {
        let a = Region::from_hex("0102??04").unwrap();
        let b = Region::from_hex("aabb").unwrap();
        let got = vec![vec![0x01, 0x99, 0x77, 0x05], vec![0xaa]];
        assert_eq!(
            compare(&[&a, &b], &got),
            vec![
                ByteDiff { buffer: 0, offset: 1, expected: 0x02, got: 0x99 },
                ByteDiff { buffer: 0, offset: 3, expected: 0x04, got: 0x05 },
                ByteDiff { buffer: 1, offset: 1, expected: 0xbb, got: 0 },
            ]
        );
        assert!(compare(&[&a], &[vec![1, 2, 0xff, 4]]).is_empty(), "an unknown byte matches anything");
    }

    #[test]
    fn read_back_buffers_are_sliced_out_of_the_jobs_buffers() {
        let buffer = |len| KernelBuffer { len, align: 16, init: vec![0; len as usize] };
        let kernel = MemKernel {
            entry: "mp0".into(),
            threads: 1,
            cluster: 1,
            dynamic_shared: 0,
            buffers: vec![buffer(4), buffer(4), buffer(48)],
            params: Vec::new(),
            readback: vec![(2, 16, 8), (1, 0, 4), (2, 0, 2)],
        };
        assert_eq!(read_buffers(&kernel), vec![2, 1]);
        let staging: Vec<u8> = (0..48).collect();
        let outcome = MemOutcome::Done { buffers: vec![staging, vec![9, 8, 7, 6]] };
        assert_eq!(
            result_of(&kernel, outcome),
            GpuResult::Bytes(vec![(16..24).collect(), vec![9, 8, 7, 6], vec![0, 1]])
        );
        let refused = MemOutcome::EncodeRejected { param: 3, error: "CUDA_ERROR_INVALID_VALUE".into() };
        assert_eq!(
            result_of(&kernel, refused),
            GpuResult::EncodeRejected { param: 3, error: "CUDA_ERROR_INVALID_VALUE".into() }
        );
    }

    #[test]
    fn a_tensor_map_goes_on_the_wire_as_its_cuda_codes() {
        use crate::gpu::WireTensorMap;
        use oracle::memory::tensor_map::{
            Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType, TensorMap,
        };
        let map = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![-1],
                upper_corner: vec![1],
                channels_per_pixel: 8,
                pixels_per_column: 4,
            },
            dtype: TensorDataType::Float16,
            global_address: 0x1_0000_0100,
            dims: vec![8, 6, 2],
            strides: vec![16, 96],
            box_dims: Vec::new(),
            element_strides: vec![1, 1, 1],
            interleave: Interleave::None,
            swizzle: Swizzle::B64,
            l2_promotion: L2Promotion::B128,
            oob_fill: OobFill::NanRequestZeroFma,
        };
        let w = WireTensorMap::from(&map);
        // cuda.h: CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6, SWIZZLE_64B = 2, L2_PROMOTION_L2_128B = 2,
        // FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1.
        assert_eq!((w.dtype, w.interleave, w.swizzle, w.l2_promotion, w.oob_fill), (6, 0, 2, 2, 1));
        assert_eq!((w.dims, w.strides, w.element_strides), (vec![8, 6, 2], vec![16, 96], vec![1, 1, 1]));
        let i = w.im2col.expect("an im2col map");
        assert_eq!(
            (i.lower_corner, i.upper_corner, i.channels_per_pixel, i.pixels_per_column),
            (vec![-1], vec![1], 8, 4)
        );
    }
}
