//! A GPU worker's execution of one [`MemJob`]: the kernels of one module, each over named
//! global buffers of its own.
//!
//! Contract: each launch's buffers are laid out in one device allocation of its own
//! ([`layout`]), each at a base that is a multiple of its `align` (a power of two, at most
//! [`MAX_BUFFER_ALIGN`]), in launch order, and filled with their `init` bytes before anything
//! is launched; parameters are laid out in signature order at their natural alignment
//! (pointers 8, tensor maps 64, raw bytes the alignment of their size); tensor maps are encoded
//! by the driver's own encoders ([`Gpu::encode_tensor_map`]) over the named buffer's base plus
//! offset, and a map the driver refuses skips that launch alone, as
//! [`MemOutcome::EncodeRejected`] naming the parameter and the `CUresult`. The module is loaded
//! once; the launches are queued on the stream in order (one after another, never side by
//! side) with their grid, block, cluster and dynamic shared memory; one synchronisation
//! follows, then the `read` buffers' final bytes come back in `read` order, one outcome per
//! launch. A malformed launch (bad index, offset, alignment or length), a module the JIT or
//! ptxas rejects and a launch the driver refuses fail the whole job; a fault in any kernel is a
//! fault of the job (the worker exits; the supervisor's side runs the launches alone to say
//! which, `MemJob::only`). A kernel that never finishes blocks the worker in the
//! synchronisation, and the supervisor's timeout (`timeout_ms`, counted from the
//! [`Reply::Loaded`](super::protocol::Reply::Loaded) the worker sends once the module is
//! loaded) turns it into a hang.
//! Queuing every launch before one synchronisation matters: each synchronisation of a worker
//! process waits for the GPU to switch to its context, which costs milliseconds when other
//! workers keep the GPU busy (docs/PERFORMANCE.md).

use std::time::Instant;

use super::job_error::{fault, on_gpu, JobError};
use super::protocol::{Compiler, JobBuffer, JobParam, MemDone, MemJob, MemLaunch, MemOutcome, MAX_BUFFER_ALIGN};
use crate::gpu::{DeviceBuffer, Gpu, KernelParams, LaunchConfig, Module};

/// Where a job's buffers lie in its one allocation: byte offsets from a base aligned to
/// [`MAX_BUFFER_ALIGN`], and the bytes the buffers span from that base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Each buffer's offset from the aligned base, in job order.
    pub offsets: Vec<u64>,
    /// The end of the last buffer.
    pub span: u64,
}

/// The layout of `buffers` (see the module docs); an alignment that is not a power of two up
/// to [`MAX_BUFFER_ALIGN`], `init` bytes that are not `len` many, or a size that overflows is
/// an error naming the buffer.
pub fn layout(buffers: &[JobBuffer]) -> Result<Layout, String> {
    let mut offsets = Vec::with_capacity(buffers.len());
    let mut end = 0u64;
    for (i, b) in buffers.iter().enumerate() {
        if !b.align.is_power_of_two() || b.align > MAX_BUFFER_ALIGN {
            return Err(format!("buffer {i}: alignment {} is no power of two up to {MAX_BUFFER_ALIGN}", b.align));
        }
        if b.init.len() as u64 != b.len {
            return Err(format!("buffer {i}: {} initial bytes for a length of {}", b.init.len(), b.len));
        }
        let at = end.checked_next_multiple_of(b.align).ok_or_else(|| format!("buffer {i}: the layout overflows"))?;
        end = at.checked_add(b.len).ok_or_else(|| format!("buffer {i}: the layout overflows"))?;
        offsets.push(at);
    }
    Ok(Layout { offsets, span: end })
}

/// The alignment of a raw-bytes parameter of `len` bytes: its size for 1, 2, 4 and 8, else 1.
pub fn bytes_param_align(len: usize) -> usize {
    match len {
        1 | 2 | 4 | 8 => len,
        _ => 1,
    }
}

/// Checks that every buffer index and offset of `launch`'s parameters and read list names a
/// buffer (an offset may point at the buffer's end, not past it).
fn check_references(launch: &MemLaunch) -> Result<(), String> {
    let buffer = |i: usize, what: &str| {
        launch.buffers.get(i).ok_or_else(|| format!("{what} names buffer {i}; the launch has {}", launch.buffers.len()))
    };
    for (p, param) in launch.params.iter().enumerate() {
        if let JobParam::Pointer { buffer: i, offset } | JobParam::TensorMap { buffer: i, offset, .. } = param {
            let b = buffer(*i, &format!("parameter {p}"))?;
            if *offset > b.len {
                return Err(format!("parameter {p}: offset {offset} past the end of buffer {i} ({} bytes)", b.len));
            }
        }
    }
    for &i in &launch.read {
        buffer(i, "the read list")?;
    }
    Ok(())
}

/// A loaded module and the image it came from: the jobs of one batch name entries of one module,
/// which is loaded (JIT-compiled) once, not once per job.
pub(super) struct LoadedModule {
    /// Whether the image was PTX (JIT) and its bytes.
    key: (bool, Vec<u8>),
    module: Module,
}

/// Runs `job` on `gpu` (see the module docs), reusing `cache` when the job's module is the one
/// loaded last, and calling `loaded` once the module is loaded, before the first launch.
pub(super) fn run_mem(
    gpu: &Gpu,
    cache: &mut Option<LoadedModule>,
    job: &MemJob,
    loaded: &mut dyn FnMut(),
) -> Result<MemDone, JobError> {
    let compiler = on_gpu(&job.executor)?;
    let mut plans = Vec::with_capacity(job.launches.len());
    for (l, launch) in job.launches.iter().enumerate() {
        let in_launch = |e: String| JobError::Failed(format!("launch {l} (`{}`): {e}", launch.entry));
        plans.push(layout(&launch.buffers).map_err(in_launch)?);
        check_references(launch).map_err(in_launch)?;
    }
    let t0 = Instant::now();
    let key = match (compiler, &job.cubin) {
        (Compiler::Jit, _) => (true, job.ptx.as_bytes().to_vec()),
        (Compiler::Ptxas { .. }, Some(path)) => {
            (false, std::fs::read(path).map_err(|e| JobError::Failed(format!("{}: {e}", path.display())))?)
        }
        (Compiler::Ptxas { opt, .. }, None) => {
            return Err(JobError::Failed(format!("a ptxas -O{opt} memory job needs a cubin")))
        }
    };
    if cache.as_ref().is_none_or(|c| c.key != key) {
        *cache = None;
        let module = if key.0 { gpu.load_module(&key.1, true, 4) } else { gpu.load_module(&key.1, false, 0) }
            .map_err(|e| JobError::Failed(e.to_string()))?;
        *cache = Some(LoadedModule { key, module });
    }
    let module = &cache.as_ref().ok_or_else(|| JobError::Failed("module cache".into()))?.module;
    let load_s = t0.elapsed().as_secs_f64();
    loaded();
    let t1 = Instant::now();
    // Every launch's memory and parameters first, then the launches back to back, then one
    // synchronisation (the module docs say why).
    let mut queued = Vec::with_capacity(job.launches.len());
    for (launch, plan) in job.launches.iter().zip(&plans) {
        queued.push(queue(gpu, module, launch, plan)?);
    }
    gpu.synchronize().map_err(fault)?;
    let mut outcomes = Vec::with_capacity(queued.len());
    for ((launch, plan), q) in job.launches.iter().zip(&plans).zip(queued) {
        outcomes.push(match q {
            Queued::Rejected(outcome) => outcome,
            Queued::Launched { memory, skip } => {
                let after = gpu.download_at(&memory, skip, plan.span as usize).map_err(fault)?;
                let buffers = launch
                    .read
                    .iter()
                    .map(|&i| {
                        let at = plan.offsets[i] as usize;
                        after[at..at + launch.buffers[i].len as usize].to_vec()
                    })
                    .collect();
                MemOutcome::Done { buffers }
            }
        });
    }
    Ok(MemDone { id: job.id, outcomes, load_s, run_s: t1.elapsed().as_secs_f64() })
}

/// A launch of a job after [`queue`]: on the stream, with the allocation that holds its buffers
/// (`skip` bytes from its start to the aligned base), or not launched because the driver refused
/// one of its tensor maps.
enum Queued {
    Launched { memory: DeviceBuffer, skip: usize },
    Rejected(MemOutcome),
}

/// Allocates and fills `launch`'s buffers (laid out by `plan`), encodes its tensor maps and
/// queues the kernel without waiting for it.
fn queue(gpu: &Gpu, module: &Module, launch: &MemLaunch, plan: &Layout) -> Result<Queued, JobError> {
    let f = module.function(&launch.entry).map_err(|e| JobError::Failed(format!("entry `{}`: {e}", launch.entry)))?;
    let too_big = |what: &str| JobError::Failed(format!("{what} does not fit this host's address space"));
    let span = usize::try_from(plan.span).map_err(|_| too_big("the buffers"))?;
    let room = span.checked_add(MAX_BUFFER_ALIGN as usize).ok_or_else(|| too_big("the buffers"))?;
    let memory = gpu.alloc(room).map_err(fault)?;
    let base = memory.ptr().next_multiple_of(MAX_BUFFER_ALIGN);
    let skip = (base - memory.ptr()) as usize;
    let mut image = vec![0u8; span];
    for (b, &at) in launch.buffers.iter().zip(&plan.offsets) {
        image[at as usize..at as usize + b.init.len()].copy_from_slice(&b.init);
    }
    gpu.upload_at(&memory, skip, &image).map_err(fault)?;
    let address = |buffer: usize, offset: u64| base + plan.offsets[buffer] + offset;
    let mut params = KernelParams::new();
    for (p, param) in launch.params.iter().enumerate() {
        params = match param {
            JobParam::Pointer { buffer, offset } => params.u64(address(*buffer, *offset)),
            JobParam::TensorMap { buffer, offset, map } => {
                match gpu.encode_tensor_map(address(*buffer, *offset), map) {
                    Ok(bytes) => params.aligned(64, &bytes),
                    Err(e) => match e.driver_error_name() {
                        Some(error) => return Ok(Queued::Rejected(MemOutcome::EncodeRejected { param: p, error })),
                        None => return Err(JobError::Failed(format!("parameter {p}: {e}"))),
                    },
                }
            }
            JobParam::Bytes(bytes) => params.aligned(bytes_param_align(bytes.len()), bytes),
        };
    }
    let triple = |[x, y, z]: [u32; 3]| (x, y, z);
    let config = LaunchConfig {
        grid: triple(launch.grid),
        block: triple(launch.block),
        cluster: triple(launch.cluster),
        dynamic_shared_bytes: launch.dynamic_shared,
    };
    // The kernel writes only inside the buffers its parameters name (the job's contract with
    // its author); they all lie inside `memory`, which lives until the job's read-back.
    gpu.launch_with(f, &config, &params).map_err(fault)?;
    Ok(Queued::Launched { memory, skip })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(len: u64, align: u64) -> JobBuffer {
        JobBuffer { len, align, init: vec![0; len as usize] }
    }

    #[test]
    fn buffers_lie_at_multiples_of_their_alignment_in_job_order() {
        let l = layout(&[buffer(3, 1), buffer(8, 8), buffer(1, 4096), buffer(0, 16), buffer(5, 2)]).unwrap();
        assert_eq!(l.offsets, vec![0, 8, 4096, 4112, 4112]);
        assert_eq!(l.span, 4117);
        assert_eq!(layout(&[]).unwrap(), Layout { offsets: vec![], span: 0 });
    }

    #[test]
    fn bad_alignments_and_initial_bytes_are_errors_naming_the_buffer() {
        let e = layout(&[buffer(4, 4), buffer(4, 3)]).unwrap_err();
        assert!(e.starts_with("buffer 1:") && e.contains("power of two"), "{e}");
        assert!(layout(&[buffer(4, 8192)]).unwrap_err().contains("8192"));
        assert!(layout(&[buffer(4, 0)]).is_err());
        let short = JobBuffer { len: 4, align: 4, init: vec![1, 2] };
        assert!(layout(&[short]).unwrap_err().contains("2 initial bytes for a length of 4"));
        let huge = JobBuffer { len: u64::MAX, align: 1, init: Vec::new() };
        assert!(layout(&[huge]).is_err());
    }

    #[test]
    fn raw_parameters_take_the_alignment_of_their_size() {
        assert_eq!([1, 2, 3, 4, 8, 16].map(bytes_param_align), [1, 2, 1, 4, 8, 1]);
    }

    #[test]
    fn references_past_the_buffers_are_errors() {
        let mut launch = MemLaunch {
            entry: "k".into(),
            block: [1, 1, 1],
            grid: [1, 1, 1],
            cluster: [1, 1, 1],
            dynamic_shared: 0,
            buffers: vec![buffer(16, 16)],
            params: vec![JobParam::Pointer { buffer: 0, offset: 16 }],
            read: vec![0],
        };
        assert_eq!(check_references(&launch), Ok(()));
        launch.params[0] = JobParam::Pointer { buffer: 0, offset: 17 };
        assert!(check_references(&launch).unwrap_err().contains("past the end of buffer 0"));
        launch.params[0] = JobParam::Pointer { buffer: 1, offset: 0 };
        assert!(check_references(&launch).unwrap_err().contains("parameter 0 names buffer 1"));
        launch.params.clear();
        launch.read = vec![2];
        assert!(check_references(&launch).unwrap_err().contains("the read list names buffer 2"));
    }
}
