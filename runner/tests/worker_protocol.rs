//! The supervisor/worker protocol without a GPU: `ptxdiff worker --oracle` runs jobs on the CPU
//! oracle behind the same JSON-lines protocol. A planted fault (the worker aborts) must be
//! recorded as a crash, a planted hang must be cut off by the timeout, a rejected job must
//! leave the worker usable, and real jobs must agree with the oracle after each restart. The
//! allowances travel with each job: a bad name is an error reply, and switching one off
//! changes what the oracle worker answers.

use std::time::Duration;

use oracle::semantics::Allowances;
use runner::worker::{Executor, KernelRun, Outcome, Planted, ProgramJob, Request, SweepJob, WorkerHandle, WorkerKind};

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
        Outcome::Crashed(m) => assert!(m.contains("exited"), "{m}"),
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
