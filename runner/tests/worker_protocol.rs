//! The supervisor/worker protocol without a GPU: `ptxdiff worker --oracle` runs jobs on the CPU
//! oracle behind the same JSON-lines protocol. A planted fault (the worker aborts) must be
//! recorded as a crash, a planted hang must be cut off by the timeout, a rejected job must
//! leave the worker usable, and real jobs must agree with the oracle after each restart.

use std::time::Duration;

use runner::worker::{GpuBackend, Job, Outcome, Planted, WorkerHandle};

fn exe() -> std::path::PathBuf {
    env!("CARGO_BIN_EXE_ptxdiff").into()
}

fn job(id: u64, form: &str, planted: Option<Planted>) -> Job {
    Job {
        id,
        form: form.into(),
        target: "sm_90".into(),
        backend: GpuBackend::PtxasO3,
        segments: vec![(0, 1 << 12), (0x7F80_0000, 1 << 12)],
        allow_off: Vec::new(),
        planted,
    }
}

#[test]
fn supervisor_survives_crashes_and_hangs() {
    let mut w = WorkerHandle::spawn_oracle(&exe()).expect("oracle worker starts");
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
    let mut w = WorkerHandle::spawn_oracle(&exe()).expect("restart after the crash");
    match w.run(&job(5, "cvt.rn.f16.f32", Some(Planted::Hang)), Duration::from_secs(2)) {
        Outcome::Hung(t) => assert_eq!(t, Duration::from_secs(2)),
        other => panic!("a silent worker is a hang, got {other:?}"),
    }
    let mut w = WorkerHandle::spawn_oracle(&exe()).expect("restart after the hang");
    match w.run(&job(6, "cvt.pack.sat.s8.s32.b32", None), Duration::from_secs(60)) {
        Outcome::Done(d) => assert_eq!(d.result.mismatches, 0),
        other => panic!("{other:?}"),
    }
}
