//! Crash isolation on a real GPU: a kernel that faults and a kernel that hangs are planted;
//! the supervisor must record both (fault, hang), restart the worker each time, and the next
//! real sweep must still run and agree with the oracle. Also checks the worker protocol's
//! answer on a machine without a GPU. Needs a GPU for the planted part; skips cleanly
//! otherwise. The planted kernels are test hooks (feature `test-hooks`, on for the runner's own
//! tests): a `PTXDIFF_BIN` given from outside must be built with `--features test-hooks`.

mod common;

use std::time::Duration;

use oracle::semantics::Allowances;
use runner::backend::default_ptxas;
use runner::worker::{Compiler, Executor, Outcome, Planted, SweepJob, WorkerHandle, WorkerKind};

fn exe() -> std::path::PathBuf {
    std::env::var_os("PTXDIFF_BIN").map_or_else(|| env!("CARGO_BIN_EXE_ptxdiff").into(), Into::into)
}

fn job(id: u64, planted: Option<Planted>, count: u64) -> SweepJob {
    let ptxas = default_ptxas().expect("ptxas (run ci/install-ptxas)");
    SweepJob {
        id,
        form: "cvt.rn.f16.f32".into(),
        target: "sm_90".into(),
        executor: Executor::Cuda(Compiler::Ptxas { path: ptxas.path, version: ptxas.version, opt: 3 }),
        segments: vec![(0, count)],
        allow: Allowances::all(),
        cpu_check: false,
        planted,
    }
}

fn spawn() -> Result<WorkerHandle, String> {
    WorkerHandle::spawn(&exe(), WorkerKind::Gpu { device: 0 })
}

#[test]
fn the_run_survives_a_faulting_and_a_hanging_kernel() {
    let mut w = match spawn() {
        Ok(w) => w,
        Err(why) => {
            assert!(why.contains("unavailable"), "a machine without a GPU must say so: {why}");
            common::skip("no GPU", &why);
            return;
        }
    };
    eprintln!("device: {} (driver {})", w.device, w.driver);
    match w.run(&job(1, Some(Planted::Fault), 1), Duration::from_secs(60)) {
        Outcome::Fault(m) => eprintln!("fault recorded: {m}"),
        Outcome::Crashed { message, .. } => eprintln!("fault recorded as crash: {message}"),
        other => panic!("a null-pointer store must fault, got {other:?}"),
    }
    let mut w = spawn().expect("restart after the fault");
    match w.run(&job(2, Some(Planted::Hang), 1), Duration::from_secs(5)) {
        Outcome::Hung(t) => eprintln!("hang recorded after {} s", t.as_secs()),
        other => panic!("an endless loop must hang, got {other:?}"),
    }
    let mut w = spawn().expect("restart after the hang");
    match w.run(&job(3, None, 1 << 24), Duration::from_secs(120)) {
        Outcome::Done(d) => {
            assert_eq!(d.result.checked, 1 << 24);
            assert_eq!(d.result.mismatches, 0, "{:?}", d.result.examples);
        }
        other => panic!("the sweep after the restarts must run, got {other:?}"),
    }
}
