//! The supervisor/worker protocol without a GPU: `ptxdiff worker --oracle` runs jobs on the CPU
//! oracle behind the same JSON-lines protocol. A planted fault (the worker aborts) must be
//! recorded as a crash, a planted hang must be cut off by the timeout, a rejected job must
//! leave the worker usable, and real jobs must agree with the oracle after each restart. The
//! allowances travel with each job: a bad name is an error reply, and switching one off
//! changes what the oracle worker answers. Memory jobs and their replies travel intact (every
//! field and variant round-trips through JSON), a worker without a GPU answers one with a
//! rejection and goes on, and a memory job that never ends is cut off by its own timeout: a
//! hang finding, after which the slot's restarted worker answers the next job.

use std::time::Duration;

use oracle::semantics::Allowances;
use runner::backend::Failure;
use runner::worker::protocol::{parse_request, MemDone};
use runner::worker::{
    Compiler, Executor, JobBuffer, JobParam, KernelRun, MemJob, MemLaunch, MemOutcome, Outcome, Planted, ProgramJob,
    Reply, Request, SweepJob, WireIm2col, WireTensorMap, WorkerHandle, WorkerKind,
};

fn exe() -> std::path::PathBuf {
    env!("CARGO_BIN_EXE_ptxdiff").into()
}

fn job(id: u64, form: &str, planted: Option<Planted>) -> SweepJob {
    SweepJob {
        id,
        form: form.into(),
        target: "sm_90".into(),
        executor: Executor::Oracle,
        segments: vec![(0, 1 << 12), (0x7F80_0000, 1 << 12)],
        allow: Allowances::all(),
        cpu_check: false,
        planted,
    }
}

#[test]
fn supervisor_survives_crashes_and_hangs() {
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    assert_eq!(w.device, "oracle (CPU)");
    match w.run(&job(1, "cvt.rn.f16.f32", None), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!((d.result.checked, d.result.mismatches), (1 << 13, 0)),
        other => panic!("{other:?}"),
    }
    match w.run(&job(2, "cvt.rn.f16.f33", None), Duration::from_secs(60)) {
        Outcome::Failed(m) => assert!(m.contains("f33"), "{m}"),
        other => panic!("a bad form is a rejection, got {other:?}"),
    }
    match w.run(&job(3, "prmt.b32", None), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!(d.result.mismatches, 0),
        other => panic!("the worker goes on after a rejection, got {other:?}"),
    }
    match w.run(&job(4, "cvt.rn.f16.f32", Some(Planted::Fault)), Duration::from_secs(60)) {
        // An abort names no site (`worker::crash_site` reports faults only).
        Outcome::Crashed { message, site: None } => assert!(message.contains("exited"), "{message}"),
        other => panic!("an aborting worker is a crash, got {other:?}"),
    }
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("restart after the crash");
    match w.run(&job(5, "cvt.rn.f16.f32", Some(Planted::Hang)), Duration::from_secs(2)) {
        Outcome::Hung(t) => assert_eq!(t, Duration::from_secs(2)),
        other => panic!("a silent worker is a hang, got {other:?}"),
    }
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("restart after the hang");
    match w.run(&job(6, "cvt.pack.sat.s8.s32.b32", None), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!(d.result.mismatches, 0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bad_allowance_name_is_an_error_reply_and_the_worker_goes_on() {
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    // Written as another process could write it: the names are parsed on the worker's side.
    let line = serde_json::to_string(&Request::Sweep(job(1, "cvt.rn.f16.f32", None))).unwrap();
    let bad = line.replace("\"allow\":[]", "\"allow\":[\"bogus\"]");
    assert_ne!(bad, line);
    match w.exchange_line(&bad, 1, Duration::from_secs(60)) {
        Outcome::Failed(m) => assert!(m.contains("unknown allowance `bogus`") && m.contains("nan-payload"), "{m}"),
        other => panic!("a bad allowance name is a rejection, got {other:?}"),
    }
    match w.run(&job(2, "prmt.b32", None), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!(d.result.mismatches, 0),
        other => panic!("the worker goes on, got {other:?}"),
    }
}

/// A sweep of `cvt.rn.f16.f32` over the NaN inputs whose results are not canonical NaNs (the
/// planted non-canonical-NaN "GPU" of the oracle worker) passes with `nan-payload` on and is
/// flagged, input by input, with it off: `--allow-off` reaches the oracle worker.
#[test]
fn allow_off_nan_payload_changes_the_oracle_workers_verdict() {
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    let nan_job = |id, allow: Allowances| SweepJob {
        segments: vec![(0x7F80_0001, 1 << 12), (0x3F80_0000, 1 << 8)],
        allow,
        ..job(id, "cvt.rn.f16.f32", Some(Planted::NonCanonicalNan))
    };
    match w.run(&nan_job(1, Allowances::all()), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!((d.result.checked, d.result.mismatches), ((1 << 12) + (1 << 8), 0)),
        other => panic!("{other:?}"),
    }
    let strict = Allowances::from_off(["nan-payload"]).unwrap();
    match w.run(&nan_job(2, strict), Duration::from_secs(60)) {
        Outcome::Done(d) => {
            assert_eq!(d.result.mismatches, 1 << 12, "every NaN input flagged, no other: {:?}", d.result.examples);
            assert!(d.result.examples[0].actual.to_ascii_lowercase().contains("ffff"), "{:?}", d.result.examples[0]);
        }
        other => panic!("{other:?}"),
    }
}

/// A program job through the oracle worker: the program oracle's outputs, under the job's
/// allowances; an entry the module lacks is a rejection.
#[test]
fn program_jobs_run_on_the_oracle_worker() {
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    let cfg = generator::program::Config::default();
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let (p, inputs) = generator::program::generate_seeded(5, &cfg, &target, "p0");
    let expected = oracle::program::interp::run(&p, &inputs, &Allowances::all()).unwrap();
    let mut job = ProgramJob {
        id: 1,
        executor: Executor::Oracle,
        ptx: oracle::program::text::module(std::slice::from_ref(&p)),
        cubin: None,
        kernels: vec![KernelRun {
            name: p.name.clone(),
            threads: p.threads(),
            inputs: inputs.0.clone(),
            outputs: p.outputs,
        }],
        allow: Allowances::all(),
        kernel_timeout_ms: None,
    };
    match w.run_programs(&job, Duration::from_secs(60)) {
        Outcome::Programs(d) => {
            let want: Vec<u32> =
                expected.iter().flat_map(|x| (0..p.outputs).map(move |k| (x.bits >> (32 * k)) as u32)).collect();
            assert_eq!(d.outputs, vec![want]);
        }
        other => panic!("{other:?}"),
    }
    job.id = 2;
    job.kernels[0].name = "missing".into();
    match w.run_programs(&job, Duration::from_secs(60)) {
        Outcome::Failed(m) => assert!(m.contains("missing"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// A program job with a planted hang among its kernels: with a per-kernel timeout the worker
/// names that kernel (its index and entry) after about that long and exits, the supervisor
/// kills it; a job without one (as sent before the field existed) is cut off by the job's own
/// timeout, as before.
#[test]
fn a_planted_hang_in_a_program_job_is_named_within_the_kernel_timeout() {
    let cfg = generator::program::Config::default();
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let (p, inputs) = generator::program::generate_seeded(5, &cfg, &target, "p0");
    let run = |name: &str| KernelRun {
        name: name.into(),
        threads: p.threads(),
        inputs: inputs.0.clone(),
        outputs: p.outputs,
    };
    let job = ProgramJob {
        id: 1,
        executor: Executor::Oracle,
        ptx: oracle::program::text::module(std::slice::from_ref(&p)),
        cubin: None,
        kernels: vec![run("p0"), run("planted_hang_1"), run("p0")],
        allow: Allowances::all(),
        kernel_timeout_ms: Some(400),
    };
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    let t = std::time::Instant::now();
    match w.run_programs(&job, Duration::from_secs(60)) {
        Outcome::KernelHung { index, kernel, waited } => {
            assert_eq!((index, kernel.as_str()), (1, "planted_hang_1"));
            assert!(waited >= Duration::from_millis(400), "{waited:?}");
        }
        other => panic!("a named hang, got {other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("restart after the hang");
    let old = ProgramJob { id: 2, kernel_timeout_ms: None, ..job };
    match w.run_programs(&old, Duration::from_secs(2)) {
        Outcome::Hung(t) => assert_eq!(t, Duration::from_secs(2)),
        other => panic!("without a per-kernel timeout the job's own applies, got {other:?}"),
    }
}

/// A memory job using every parameter kind: a pointer, a tiled and an im2col tensor map, raw
/// bytes.
fn mem_job(id: u64, executor: Executor) -> MemJob {
    let tiled = WireTensorMap {
        im2col: None,
        dtype: 6,
        dims: vec![40, 20],
        strides: vec![80],
        box_dims: vec![32, 18],
        element_strides: vec![1, 1],
        interleave: 0,
        swizzle: 2,
        l2_promotion: 1,
        oob_fill: 1,
    };
    let im2col = WireTensorMap {
        im2col: Some(WireIm2col {
            lower_corner: vec![-1, -1],
            upper_corner: vec![1, 0],
            channels_per_pixel: 16,
            pixels_per_column: 64,
        }),
        dtype: 7,
        dims: vec![16, 8, 8, 2],
        strides: vec![64, 512, 4096],
        box_dims: Vec::new(),
        element_strides: vec![1, 1, 1, 1],
        interleave: 0,
        swizzle: 3,
        l2_promotion: 3,
        oob_fill: 0,
    };
    MemJob {
        id,
        executor,
        ptx: ".version 8.0\n.target sm_90\n".into(),
        cubin: Some("/tmp/k.cubin".into()),
        launches: vec![
            MemLaunch {
                entry: "k".into(),
                block: [128, 1, 1],
                grid: [2, 1, 1],
                cluster: [2, 1, 1],
                dynamic_shared: 65536,
                buffers: vec![
                    JobBuffer { len: 4, align: 16, init: vec![1, 2, 3, 0xFF] },
                    JobBuffer { len: 0, align: 4096, init: Vec::new() },
                ],
                params: vec![
                    JobParam::Pointer { buffer: 0, offset: 2 },
                    JobParam::TensorMap { buffer: 0, offset: 0, map: tiled },
                    JobParam::TensorMap { buffer: 1, offset: 0, map: im2col },
                    JobParam::Bytes(vec![0x28, 0, 0, 0]),
                ],
                read: vec![1, 0],
            },
            launch("k2"),
        ],
        timeout_ms: 30_000,
    }
}

/// A launch of `entry` over one 16-byte buffer it reads back.
fn launch(entry: &str) -> MemLaunch {
    MemLaunch {
        entry: entry.into(),
        block: [1, 1, 1],
        grid: [1, 1, 1],
        cluster: [1, 1, 1],
        dynamic_shared: 0,
        buffers: vec![JobBuffer { len: 16, align: 16, init: vec![7; 16] }],
        params: vec![JobParam::Pointer { buffer: 0, offset: 0 }],
        read: vec![0],
    }
}

#[test]
fn memory_jobs_and_their_replies_round_trip_through_json() {
    let ptxas = Compiler::Ptxas { path: "/opt/ptxas".into(), version: "13.5".into(), opt: 3 };
    for job in [mem_job(3, Executor::Cuda(Compiler::Jit)), mem_job(4, Executor::Cuda(ptxas))] {
        let line = serde_json::to_string(&Request::Mem(job.clone())).unwrap();
        match parse_request(&line) {
            Ok(Request::Mem(back)) => assert_eq!(back, job),
            other => panic!("{other:?}"),
        }
        assert_eq!(Request::Mem(job.clone()).id(), job.id);
        // Unknown fields are refused, with the job's id in the answer.
        let extra = line.replacen("\"entry\"", "\"bogus\":1,\"entry\"", 1);
        let (id, why) = parse_request(&extra).unwrap_err();
        assert_eq!(id, job.id);
        assert!(why.contains("bogus"), "{why}");
    }
    let outcomes = [
        MemOutcome::Done { buffers: vec![vec![0xA5; 3], Vec::new()] },
        MemOutcome::EncodeRejected { param: 1, error: "CUDA_ERROR_INVALID_VALUE".into() },
        MemOutcome::Failed(Failure::Rejected { by: "cuda:jit".into(), message: "JIT".into() }),
        MemOutcome::Failed(Failure::Crash { by: "cuda:jit".into(), how: "hang".into(), message: "60 s".into() }),
    ];
    for outcome in outcomes {
        let done = MemDone { id: 9, outcomes: vec![outcome.clone(), outcome], load_s: 0.5, run_s: 0.25 };
        let line = serde_json::to_string(&Reply::Mem(done.clone())).unwrap();
        match serde_json::from_str::<Reply>(&line).unwrap() {
            Reply::Mem(back) => assert_eq!(back, done),
            other => panic!("{other:?}"),
        }
    }
}

/// A worker without a GPU rejects a memory job, whoever is to run it, and goes on.
#[test]
fn the_oracle_worker_rejects_memory_jobs_and_goes_on() {
    let mut w = WorkerHandle::spawn(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    match w.run_mem(&mem_job(1, Executor::Oracle)) {
        Outcome::Failed(m) => assert!(m.contains("GPU worker only"), "{m}"),
        other => panic!("{other:?}"),
    }
    match w.run_mem(&mem_job(2, Executor::Cuda(Compiler::Jit))) {
        Outcome::Failed(m) => assert!(m.contains("no GPU"), "{m}"),
        other => panic!("{other:?}"),
    }
    match w.run(&job(3, "cvt.rn.f16.f32", None), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!(d.result.mismatches, 0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_memory_job_that_never_ends_is_a_hang_and_the_slot_goes_on() {
    use runner::backend::WorkerSlot;
    let mut slot = WorkerSlot::start(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    let job = mem_job(0, Executor::Oracle);
    let spec = |entries: &[&str], ms: u64| MemJob {
        cubin: None,
        launches: entries.iter().map(|e| launch(e)).collect(),
        timeout_ms: ms,
        ..job.clone()
    };
    let t = std::time::Instant::now();
    match slot.run_mem("oracle-worker", Executor::Oracle, &spec(&["planted_hang"], 1500)).as_deref() {
        Ok([MemOutcome::Failed(Failure::Crash { how, by, .. })]) => {
            assert_eq!((how.as_str(), by.as_str()), ("hang", "oracle-worker"))
        }
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(30), "the job's own timeout applies: {:?}", t.elapsed());
    match slot.run_mem("oracle-worker", Executor::Oracle, &spec(&["planted_fault"], 30_000)).as_deref() {
        Ok([MemOutcome::Failed(Failure::Crash { how, .. })]) => assert_eq!(how, "worker crash"),
        other => panic!("{other:?}"),
    }
    match slot.run_mem("oracle-worker", Executor::Oracle, &spec(&["k"], 30_000)).as_deref() {
        Ok([MemOutcome::Failed(Failure::Rejected { message, .. })]) => {
            assert!(message.contains("GPU worker only"), "{message}")
        }
        other => panic!("the restarted worker answers: {other:?}"),
    }
    // Both restarts are counted.
    let stages = slot.mem_stages()["oracle-worker"];
    assert_eq!((stages.jobs, stages.launches, stages.restarts), (3, 3, 2), "{stages:?}");
}

/// A job of several launches that crashes as a whole is run again one launch at a time: the
/// crash is its launch's alone, and every other launch gets its own answer.
#[test]
fn a_crash_in_a_job_of_several_launches_is_attributed_to_its_launch() {
    use runner::backend::WorkerSlot;
    let mut slot = WorkerSlot::start(&exe(), WorkerKind::Oracle).expect("oracle worker starts");
    let job = MemJob {
        cubin: None,
        launches: ["a", "planted_fault", "c"].iter().map(|e| launch(e)).collect(),
        ..mem_job(0, Executor::Oracle)
    };
    let outcomes = slot.run_mem("oracle-worker", Executor::Oracle, &job).expect("the slot runs it");
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
    for (i, o) in outcomes.iter().enumerate() {
        match (i, o) {
            (1, MemOutcome::Failed(Failure::Crash { how, .. })) => assert_eq!(how, "worker crash"),
            (0 | 2, MemOutcome::Failed(Failure::Rejected { message, .. })) => {
                assert!(message.contains("GPU worker only"), "{message}")
            }
            other => panic!("{other:?}"),
        }
    }
}
