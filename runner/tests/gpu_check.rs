//! The GPU checking its own results (the check kernel of `generator::sweep_check`) reaches the
//! same verdict as the CPU checking every result: the same counts, mismatches, examples,
//! audit figures and allowance uses, on right results and on results a planted kernel
//! corrupts in device memory (`Planted::FlippedBits`, feature `test-hooks`), for forms of
//! every result width and for a form the GPU cannot check (which takes the CPU path both
//! times). Needs a GPU; skips cleanly otherwise.

mod common;

use std::time::Duration;

use oracle::semantics::Allowances;
use runner::backend::default_ptxas;
use runner::worker::{Compiler, Executor, Outcome, Planted, SweepDone, SweepJob, WorkerHandle, WorkerKind};

fn exe() -> std::path::PathBuf {
    std::env::var_os("PTXDIFF_BIN").map_or_else(|| env!("CARGO_BIN_EXE_ptxdiff").into(), Into::into)
}

fn run(
    w: &mut WorkerHandle,
    id: u64,
    form: &str,
    segments: &[(u64, u64)],
    cpu_check: bool,
    planted: bool,
) -> SweepDone {
    let ptxas = default_ptxas().expect("ptxas (run ci/install-ptxas)");
    let job = SweepJob {
        id,
        form: form.into(),
        target: "sm_90".into(),
        executor: Executor::Cuda(Compiler::Ptxas { path: ptxas.path, version: ptxas.version, opt: 3 }),
        segments: segments.to_vec(),
        allow: Allowances::all(),
        cpu_check,
        planted: planted.then_some(Planted::FlippedBits),
    };
    match w.run(&job, Duration::from_secs(300)) {
        Outcome::Done(d) => d,
        other => panic!("{form}: {other:?}"),
    }
}

#[test]
fn the_gpu_check_reaches_the_cpu_check_verdict() {
    let mut w = match WorkerHandle::spawn(&exe(), WorkerKind::Gpu { device: 0 }) {
        Ok(w) => w,
        Err(why) => {
            common::skip("no GPU", &why);
            return;
        }
    };
    let forms: [(&str, Vec<(u64, u64)>); 6] = [
        ("cvt.rn.f16.f32", vec![(0, 1 << 32)]),
        ("cvt.f32.f32", vec![(0x7F00_0000, 1 << 26)]),
        ("cvt.rzi.s64.f32", vec![(0x4F00_0000, 1 << 26)]),
        ("cvt.rn.satfinite.e4m3x2.f16x2", vec![(0, 1 << 28)]),
        ("cvt.sat.u8.s32", vec![(0xFFFF_0000, 1 << 20), (0, 1 << 20)]),
        ("cvt.rn.f32.f64", vec![(0, 1 << 22)]),
    ];
    let mut id = 0;
    for (form, segments) in &forms {
        for planted in [false, true] {
            id += 2;
            let gpu = run(&mut w, id, form, segments, false, planted);
            let cpu = run(&mut w, id + 1, form, segments, true, planted);
            eprintln!(
                "{form} planted={planted}: {} checked, {} mismatches, {} audited; GPU path {:.3} s (gpu_checked {}), CPU path {:.3} s",
                gpu.result.checked,
                gpu.result.mismatches,
                gpu.result.audited,
                gpu.gpu_s + gpu.check_s,
                gpu.gpu_checked,
                cpu.gpu_s + cpu.check_s
            );
            assert_eq!(gpu.result, cpu.result, "{form} planted={planted}");
            assert!(!cpu.gpu_checked);
            assert_eq!(gpu.gpu_checked, *form != "cvt.rn.f32.f64", "{form}: which path ran");
            if planted {
                assert!(gpu.result.mismatches > 0, "{form}: the flipped bits must show");
            } else {
                assert_eq!(gpu.result.mismatches, 0, "{form}: {:?}", gpu.result.examples);
            }
        }
    }
}
