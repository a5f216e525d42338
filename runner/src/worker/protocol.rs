//! The worker protocol: the [`Request`]s the supervisor writes to `ptxdiff worker` as JSON
//! lines and the [`Reply`] lines it answers with.
//!
//! Invariants: every reply to a request carries the request's id (a request that cannot be
//! parsed is answered with [`UNPARSED`]); the allowances travel typed, as the names of those
//! switched off, and are parsed back with `Allowances::from_off` on the worker's side, so a bad
//! name is an error reply, never silently ignored; what runs a job is named by its
//! [`Executor`], so the oracle behind the protocol has its own identity on the wire. A
//! [`MemJob`] (the kernels of one module, each over named global buffers, tensor maps encoded
//! on the worker's side) is answered with a [`MemDone`] holding one [`MemOutcome`] per launch:
//! the read-back bytes or the driver's refusal of a tensor map; its faults, hangs and rejections travel as every other job's do.
//! A [`ProgramJob`] may carry a per-kernel timeout ([`ProgramJob::kernel_timeout_ms`]; a
//! request without it parses, with none): a kernel still running past it is named in a
//! [`Reply::KernelHung`], after which the worker exits.

use std::path::PathBuf;

use oracle::semantics::Allowances;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::gpu::{WireIm2col, WireTensorMap};
use crate::sweep_check::Checked;

/// The id of a [`Reply::Failed`] to a request that could not be parsed.
pub const UNPARSED: u64 = u64::MAX;

/// How a GPU gets the machine code of a PTX module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compiler {
    /// The driver compiles the PTX (`cuModuleLoadDataEx`, optimization level 4).
    Jit,
    /// An offline `ptxas` at `-O{opt}`, loaded as a cubin.
    Ptxas {
        /// The ptxas executable.
        path: PathBuf,
        /// Its version line.
        version: String,
        /// Optimization level.
        opt: u8,
    },
}

/// What runs a job in the worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Executor {
    /// The CPU oracle (a worker started with `--oracle`).
    Oracle,
    /// The worker's GPU, through `compiler`.
    Cuda(Compiler),
}

/// A planted kernel for the supervisor's survival tests (feature `test-hooks`).
#[cfg(feature = "test-hooks")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Planted {
    /// Stores through a null pointer (the oracle worker aborts).
    Fault,
    /// Spins forever (the oracle worker sleeps).
    Hang,
    /// The oracle worker's sweep answers like a GPU whose NaNs are not canonical: wherever the
    /// oracle with every allowance on admits a set of values, it returns the set's
    /// representative with the destination's top (sign) bit flipped. Checked under allowances
    /// that admit any NaN this passes; with `nan-payload` off it does not.
    NonCanonicalNan,
    /// A GPU whose results are wrong in places: the real sweep runs, then a planted kernel
    /// flips the lowest bit of the result of every index divisible by [`FLIP_EVERY`] in
    /// device memory, before the
    /// results are checked (on the GPU or the CPU), so both checking paths see the same
    /// wrong results.
    FlippedBits,
}

/// One result in this many is flipped by [`Planted::FlippedBits`].
#[cfg(feature = "test-hooks")]
pub const FLIP_EVERY: u64 = 4099;

/// One unit of sweep work: sweep `form` over some index ranges. Unknown fields are refused, so
/// a worker built without `test-hooks` rejects a planted job instead of running a real sweep.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepJob {
    /// Caller's id.
    pub id: u64,
    /// The form's opcode.
    pub form: String,
    /// Target name (with `@ptx`).
    pub target: String,
    /// What runs it.
    pub executor: Executor,
    /// Index ranges `(first, count)` to sweep.
    pub segments: Vec<(u64, u64)>,
    /// The allowances in force.
    #[serde(serialize_with = "allow_to_wire", deserialize_with = "allow_from_wire")]
    pub allow: Allowances,
    /// Check every result on the CPU (results copied to the host), not with the GPU's check
    /// kernel: the reference path the GPU path is proven against (`conform --cpu-check`).
    #[serde(default)]
    pub cpu_check: bool,
    /// Run a planted kernel instead (survival tests).
    #[cfg(feature = "test-hooks")]
    #[serde(default)]
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

/// Run every program of a module on one executor (`ptxdiff fuzz`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramJob {
    /// Caller's id.
    pub id: u64,
    /// What runs it.
    pub executor: Executor,
    /// The module's PTX (compiled by the driver for `Compiler::Jit`; the oracle parses it).
    pub ptx: String,
    /// The cubin assembled by the supervisor (`Compiler::Ptxas`).
    pub cubin: Option<PathBuf>,
    /// The programs to run, in order.
    pub kernels: Vec<KernelRun>,
    /// The allowances in force (the oracle's expected bits depend on them).
    #[serde(serialize_with = "allow_to_wire", deserialize_with = "allow_from_wire")]
    pub allow: Allowances,
    /// The longest any one kernel may run, counted from when the kernel before it was seen to
    /// finish (the first: from its launch): past it the worker answers
    /// [`Reply::KernelHung`] naming the kernel, and exits. `None` (a request from before
    /// this field): no limit per kernel, only the supervisor's timeout of the whole job.
    #[serde(default)]
    pub kernel_timeout_ms: Option<u64>,
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

/// The kernels of one module over named global buffers, each launched once: the generic launch
/// memory programs and async conformance cases need. The one description of a memory job:
/// callers build it (`memrun`: one job per printed module, one [`MemLaunch`] per program),
/// backends pass it through ([`crate::backend::Backend::run_mem`]) setting its `id` and
/// `executor`, the worker runs it (the module loaded once, every launch queued, one
/// synchronisation: `worker::memjob`). Shared-memory results are copied to a global buffer by
/// the kernel itself (the printer's job), so a job only knows global buffers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemJob {
    /// The job's id on the wire: set by the backend that sends it (a caller's value is
    /// replaced).
    pub id: u64,
    /// What runs it (the driver's JIT, or the cubin of an offline ptxas): set by the backend
    /// that runs it (a caller's value is replaced).
    pub executor: Executor,
    /// The module's PTX (compiled by the driver for `Compiler::Jit`).
    pub ptx: String,
    /// The cubin assembled by the supervisor (`Compiler::Ptxas`).
    pub cubin: Option<PathBuf>,
    /// The kernels to launch, one after another in this order, each over its own buffers.
    pub launches: Vec<MemLaunch>,
    /// The longest the supervisor waits for the reply once the module is loaded (every
    /// launch and the copies; the load has a limit of its own,
    /// `worker::supervisor::MODULE_LOAD_TIMEOUT` for the JIT); past it the worker is killed and
    /// the job is a hang.
    pub timeout_ms: u64,
}

impl MemJob {
    /// The job of launch `index` alone (the same module, id, executor and timeout): how a
    /// fault, crash or hang of a job of several launches is attributed to its launch.
    pub fn only(&self, index: usize) -> MemJob {
        MemJob {
            id: self.id,
            executor: self.executor.clone(),
            ptx: self.ptx.clone(),
            cubin: self.cubin.clone(),
            launches: self.launches.get(index).cloned().into_iter().collect(),
            timeout_ms: self.timeout_ms,
        }
    }
}

/// One kernel launch of a [`MemJob`]: an entry of the job's module over global buffers of its
/// own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemLaunch {
    /// The entry to launch.
    pub entry: String,
    /// Threads per CTA, per dimension.
    pub block: [u32; 3],
    /// CTAs per grid dimension.
    pub grid: [u32; 3],
    /// CTAs per cluster dimension; `[1, 1, 1]` launches without the cluster attribute.
    pub cluster: [u32; 3],
    /// Dynamic shared memory per CTA, bytes.
    pub dynamic_shared: u32,
    /// The global buffers, each allocated with its base a multiple of its `align`.
    pub buffers: Vec<JobBuffer>,
    /// The entry's parameters, in `.entry` signature order.
    pub params: Vec<JobParam>,
    /// Indices into `buffers` copied back after the kernel, in this order.
    pub read: Vec<usize>,
}

/// One global buffer of a [`MemLaunch`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobBuffer {
    /// Size in bytes.
    pub len: u64,
    /// Its base is a multiple of this (a power of two, at most [`MAX_BUFFER_ALIGN`]).
    pub align: u64,
    /// Its initial bytes (`len` of them).
    pub init: Vec<u8>,
}

/// The largest [`JobBuffer::align`] a worker honours.
pub const MAX_BUFFER_ALIGN: u64 = 4096;

/// One kernel parameter of a [`MemLaunch`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JobParam {
    /// A `.u64` global pointer: buffer base + offset.
    Pointer {
        /// Index into [`MemLaunch::buffers`].
        buffer: usize,
        /// Bytes past the buffer's base (at most its length).
        offset: u64,
    },
    /// A `.param .align 64 .b8 [128]` tensor map encoded on the host by the driver
    /// (cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col) over buffer base + offset.
    TensorMap {
        /// Index into [`MemLaunch::buffers`]: the tensor's global memory.
        buffer: usize,
        /// Bytes past the buffer's base where the tensor starts (its `globalAddress`).
        offset: u64,
        /// The encode arguments.
        map: WireTensorMap,
    },
    /// Raw bytes (scalars), at the alignment of their size (1, 2, 4 or 8; 1 for any other).
    Bytes(Vec<u8>),
}

/// A failure worth a finding: one backend on one program or sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failure {
    /// The assembler or the driver's JIT rejected a program the model calls valid.
    Rejected {
        /// Who rejected it (`ptxas -O3`, `cuda:jit`).
        by: String,
        /// Its message.
        message: String,
    },
    /// A crash: ptxas crashed, the GPU faulted, the worker died or hung.
    Crash {
        /// Where (`ptxas -O0`, `cuda:jit`).
        by: String,
        /// What happened (`CUDA_ERROR_ILLEGAL_ADDRESS`, `hang`, `ptxas crash`).
        how: String,
        /// The message or log.
        message: String,
    },
}

impl Failure {
    /// The backend or assembly that failed.
    pub fn by(&self) -> &str {
        match self {
            Failure::Rejected { by, .. } | Failure::Crash { by, .. } => by,
        }
    }
}

/// What became of one [`MemLaunch`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MemOutcome {
    /// The kernel ran: the [`MemLaunch::read`] buffers' final bytes, in that order.
    Done {
        /// One byte vector per read buffer.
        buffers: Vec<Vec<u8>>,
    },
    /// The driver refused to encode a tensor map, so this kernel was not launched.
    EncodeRejected {
        /// Index into [`MemLaunch::params`] of the refused map.
        param: usize,
        /// The `CUresult` name (`CUDA_ERROR_INVALID_VALUE`).
        error: String,
    },
    /// The job failed as a program job can: rejected by the assembler or the JIT, a GPU fault,
    /// a worker crash or a hang. Never sent by a worker (its failures travel as
    /// [`Reply::Failed`] and [`Reply::Fault`]); the backend builds it from the supervisor's
    /// outcome.
    Failed(Failure),
}

/// The reply to a [`MemJob`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemDone {
    /// The job's id.
    pub id: u64,
    /// What became of each launch, in the job's order.
    pub outcomes: Vec<MemOutcome>,
    /// Seconds loading the module (the JIT's compile time for `cuda:jit`).
    pub load_s: f64,
    /// Seconds encoding, copying, running and reading back.
    pub run_s: f64,
}

/// A request to the worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    /// A conformance sweep.
    Sweep(SweepJob),
    /// A batch of fuzz programs.
    Programs(ProgramJob),
    /// The kernels of one module over global buffers.
    Mem(MemJob),
}

impl Request {
    /// The request's id.
    pub fn id(&self) -> u64 {
        match self {
            Request::Sweep(j) => j.id,
            Request::Programs(j) => j.id,
            Request::Mem(j) => j.id,
        }
    }
}

/// Timings and results of a finished sweep.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SweepDone {
    /// The job's id.
    pub id: u64,
    /// What the checker found.
    pub result: Checked,
    /// Seconds compiling (ptxas or JIT).
    pub compile_s: f64,
    /// Seconds of kernel time plus copies.
    pub gpu_s: f64,
    /// Seconds checking.
    pub check_s: f64,
    /// Whether the GPU's check kernel compared the results (otherwise the CPU did).
    #[serde(default)]
    pub gpu_checked: bool,
}

/// What the worker says.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// Started: the device.
    Ready {
        /// Device name.
        device: String,
        /// The CUDA API version the driver supports (`cuDriverGetVersion`: 13000 for 13.0).
        driver: i32,
        /// Native target (`90`).
        sm: u16,
        /// The installed driver's own version (`580.159.04`; [`installed_driver_version`]),
        /// when it can be read.
        #[serde(default)]
        driver_version: Option<String>,
        /// CUDA devices visible to the worker (`None` for the oracle worker).
        #[serde(default)]
        devices: Option<u32>,
    },
    /// A sweep finished.
    Done(SweepDone),
    /// A program job finished.
    Programs(ProgramsDone),
    /// A memory job's module is loaded (for the JIT: compiled); its launches follow. Not an
    /// answer: the supervisor measures the job's own timeout from here.
    Loaded {
        /// The job's id.
        id: u64,
    },
    /// A memory job finished (ran, or a tensor map was refused).
    Mem(MemDone),
    /// A job failed without killing the worker (assembler or JIT rejection, bad request).
    Failed {
        /// The job's id ([`UNPARSED`] when the request could not be read).
        id: u64,
        /// What failed.
        message: String,
    },
    /// A kernel of a program job did not finish within the job's
    /// [`ProgramJob::kernel_timeout_ms`]; the worker exits after saying so (a context with a
    /// running kernel cannot be used again). The kernels before it finished, those after it
    /// may not have run.
    KernelHung {
        /// The job's id.
        id: u64,
        /// The kernel's index in [`ProgramJob::kernels`].
        index: usize,
        /// Its entry name.
        kernel: String,
        /// Milliseconds it was waited for.
        waited_ms: u64,
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
    /// The worker faulted and is about to die of `signal`: the faulting instruction's module
    /// (file name) and offset in it — for a fault in the C library, its caller's
    /// (`super::crash_site`). Written by its signal handler.
    CrashSite {
        /// The signal (`11`: `SIGSEGV`).
        signal: i32,
        /// The shared object holding the faulting instruction (`libnvidia-ptxjitcompiler.so.580.159.04`),
        /// `?` where none does.
        module: String,
        /// The instruction's offset in it (its absolute address for `?`).
        offset: u64,
    },
}

/// The installed NVIDIA driver's version (`580.159.04`) as `/proc/driver/nvidia/version`
/// states it (Linux); `None` elsewhere or when it cannot be read. What a GPU worker reports in
/// [`Reply::Ready`].
pub fn installed_driver_version() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    driver_version_in(&text)
}

/// The version in the first line of `/proc/driver/nvidia/version` (`NVRM version: NVIDIA UNIX
/// x86_64 Kernel Module  580.159.04  Tue …`): its first word made of digits and dots, with a dot.
fn driver_version_in(text: &str) -> Option<String> {
    let first = text.lines().next()?;
    let after = first.split_once("Kernel Module").map_or(first, |(_, rest)| rest);
    after
        .split_whitespace()
        .find(|w| w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .map(str::to_string)
}

fn allow_to_wire<S: Serializer>(a: &Allowances, s: S) -> Result<S::Ok, S::Error> {
    a.off_names().serialize(s)
}

fn allow_from_wire<'de, D: Deserializer<'de>>(d: D) -> Result<Allowances, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    Allowances::from_off(&names).map_err(serde::de::Error::custom)
}

/// Parses a request line; a request that cannot be read gives the id it carries (if any is
/// readable) and why, so the reply reaches the job that sent it.
pub fn parse_request(line: &str) -> Result<Request, (u64, String)> {
    serde_json::from_str::<Request>(line).map_err(|e| {
        let id = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.as_object().and_then(|o| o.values().next().and_then(|j| j["id"].as_u64())))
            .unwrap_or(UNPARSED);
        (id, format!("bad job: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowances_travel_typed_and_bad_names_are_errors_with_the_job_id() {
        let job = ProgramJob {
            id: 7,
            executor: Executor::Oracle,
            ptx: String::new(),
            cubin: None,
            kernels: Vec::new(),
            allow: Allowances::from_off(["nan-payload"]).unwrap(),
            kernel_timeout_ms: Some(5000),
        };
        let line = serde_json::to_string(&Request::Programs(job.clone())).unwrap();
        assert!(line.contains("[\"nan-payload\"]"), "{line}");
        match parse_request(&line) {
            Ok(Request::Programs(j)) => assert_eq!((j.allow, j.kernel_timeout_ms), (job.allow.clone(), Some(5000))),
            other => panic!("{other:?}"),
        }
        let bad = line.replace("nan-payload", "bogus");
        let (id, why) = parse_request(&bad).unwrap_err();
        assert_eq!(id, 7);
        assert!(why.contains("unknown allowance `bogus`") && why.contains("nan-payload"), "{why}");
        assert_eq!(parse_request("not json").unwrap_err().0, UNPARSED);
    }

    #[test]
    fn the_driver_version_is_read_from_the_proc_line() {
        let proc = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Tue Oct 28 12:00:00 UTC 2025\n\
                    GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
        assert_eq!(driver_version_in(proc).as_deref(), Some("580.159.04"));
        let open = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.57.08  Release Build\n";
        assert_eq!(driver_version_in(open).as_deref(), Some("575.57.08"));
        assert_eq!(driver_version_in("garbage"), None);
        assert_eq!(driver_version_in(""), None);
    }

    /// A program job from before the per-kernel timeout still parses, without one; a kernel's
    /// hang travels with its index and name.
    #[test]
    fn a_program_job_without_a_kernel_timeout_parses_and_a_kernel_hang_round_trips() {
        let old = r#"{"Programs":{"id":3,"executor":"Oracle","ptx":"","cubin":null,"kernels":[],"allow":[]}}"#;
        match parse_request(old) {
            Ok(Request::Programs(j)) => assert_eq!((j.id, j.kernel_timeout_ms), (3, None)),
            other => panic!("{other:?}"),
        }
        let hung = Reply::KernelHung { id: 3, index: 5, kernel: "p194_185".into(), waited_ms: 5000 };
        let line = serde_json::to_string(&hung).unwrap();
        match serde_json::from_str::<Reply>(&line).unwrap() {
            Reply::KernelHung { id: 3, index: 5, kernel, waited_ms: 5000 } => assert_eq!(kernel, "p194_185"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_ready_line_without_the_new_fields_still_parses() {
        let r: Reply = serde_json::from_str(r#"{"Ready":{"device":"oracle (CPU)","driver":0,"sm":90}}"#).unwrap();
        assert!(matches!(r, Reply::Ready { driver_version: None, devices: None, .. }), "{r:?}");
    }
}
