//! The worker pool (`--devices` × `--workers`) without a GPU, through `oracle-worker`, which
//! runs in the same pool as the GPU backends: a conform run with three workers gives the rows of
//! one worker, in the same order; a program batch split over three workers gives the outputs
//! of one; a planted fault or hang fails only its own row or batch while the other rows
//! complete and the pool goes on; `--devices`/`--workers` reject bad values by name, and
//! `--devices all` on a machine without a GPU says the GPU backend is unavailable. With a GPU,
//! `--devices 0 --workers 2` gives the rows of `--workers 1`.

mod common;

use std::process::Command;
use std::time::Duration;

use oracle::isa::{Form, Target};
use oracle::program::{text, Inputs, Program};
use oracle::semantics::Allowances;
use runner::backend::pool::{split_batch, Devices};
use runner::backend::{Backend, Failed, Failure, ProgramBatch, Registry, Settings, SweepFailure, SweepSpec};
use runner::diff::FailureKind;
use runner::worker::{KernelRun, Planted};

/// The binary, never installing ptxas (tests do not download).
fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.env("PTXDIFF_NO_INSTALL", "1");
    c
}

fn target() -> Target {
    "sm_90".parse().unwrap()
}

/// An `oracle-worker` backend in a pool of `workers` processes.
fn oracle_worker(workers: usize, timeout: Duration) -> Box<dyn Backend> {
    std::env::set_var("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    let registry = Registry::new(Settings {
        ptxas: Vec::new(),
        devices: Devices::default(),
        workers: Some(workers),
        allow: Allowances::all(),
        sweep_timeout: timeout,
    });
    registry.build("oracle-worker").expect("the oracle worker starts")
}

/// `ptxdiff conform ARGS --reports DIR`: its rows (`rows.json`) with the timings (seconds, stages) taken out,
/// and its stdout; the run must not fail to start.
fn conform_rows(args: &[&str]) -> (Vec<serde_json::Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = ptxdiff().arg("conform").args(args).arg("--reports").arg(dir.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    // 1: the rows hold findings (a GPU that disagrees); the rows are still compared.
    let code = out.status.code();
    assert!(matches!(code, Some(0 | 1)), "{args:?}: {code:?} {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let run = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("rows.json")).unwrap()).unwrap();
    let rows = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("seconds");
            r.as_object_mut().unwrap().remove("stages");
            r
        })
        .collect();
    (rows, stdout)
}

#[test]
fn conform_with_three_oracle_workers_gives_the_rows_of_one_in_the_same_order() {
    let args = ["--backends", "oracle-worker", "--target", "sm_90", "--forms", "cvt.r*.f32", "--samples", "2048"];
    let (one, _) = conform_rows(&[&args[..], &["--workers", "1"]].concat());
    let (three, _) = conform_rows(&[&args[..], &["--workers", "3"]].concat());
    assert!(one.len() >= 10, "{} rows", one.len());
    assert_eq!(one, three);
    assert!(one.iter().all(|r| r["device"] == "oracle (CPU)" && r["checked"].as_u64() > Some(0)), "{one:?}");
    let forms: Vec<&str> = one.iter().map(|r| r["form"].as_str().unwrap()).collect();
    let want: Vec<String> =
        runner::conform::select_forms(&target(), Some("cvt.r*.f32")).iter().map(Form::opcode).collect();
    assert_eq!(forms, want, "rows in form order");
}

/// Programs `name0`, `name1`, … (seeded), their module and batch (no cubin: each part gets a
/// module of its own).
fn programs(n: usize, name: impl Fn(usize) -> String) -> (Vec<Program>, Vec<Inputs>, ProgramBatch) {
    let cfg = generator::program::Config::default();
    let (programs, inputs): (Vec<Program>, Vec<Inputs>) =
        (0..n).map(|i| generator::program::generate_seeded(100 + i as u64, &cfg, &target(), &name(i))).unzip();
    let batch = ProgramBatch {
        ptx: text::module(&programs),
        cubin: None,
        kernels: programs
            .iter()
            .zip(&inputs)
            .map(|(p, i)| KernelRun {
                name: p.name.clone(),
                threads: p.threads(),
                inputs: i.0.clone(),
                outputs: p.outputs,
            })
            .collect(),
        timeout: Duration::from_secs(60),
        kernel_timeout: None,
    };
    (programs, inputs, batch)
}

#[test]
fn a_batch_split_over_three_workers_gives_the_outputs_of_one() {
    let (progs, _, batch) = programs(7, |i| format!("p{i}"));
    let parts = split_batch(&batch, 3);
    assert_eq!(parts.len(), 3);
    let names: Vec<&str> = parts.iter().flat_map(|p| p.kernels.iter().map(|k| k.name.as_str())).collect();
    assert_eq!(names, progs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), "kernels in order, each once");
    for part in &parts {
        let inside: Vec<String> = text::parse_module(&part.ptx).unwrap().into_iter().map(|p| p.name).collect();
        let own: Vec<String> = part.kernels.iter().map(|k| k.name.clone()).collect();
        assert_eq!(inside, own, "each part's module holds its own programs only");
    }
    let with_cubin = ProgramBatch { cubin: Some("shared.cubin".into()), ..batch.clone() };
    assert!(split_batch(&with_cubin, 3).iter().all(|p| p.ptx == batch.ptx && p.cubin == with_cubin.cubin));
    assert_eq!(split_batch(&batch, 1).len(), 1);
    assert_eq!(split_batch(&batch, 50).len(), 7, "no more parts than kernels");

    let one = oracle_worker(1, Duration::from_secs(60)).run_programs(&batch).expect("one worker runs the batch");
    let three = oracle_worker(3, Duration::from_secs(60)).run_programs(&batch).expect("three workers run it");
    assert_eq!(one.len(), 7);
    assert_eq!(one, three);
}

#[test]
fn a_planted_fault_or_hang_fails_only_its_own_row_or_batch() {
    let spec = |opcode: &str, planted: Option<Planted>| SweepSpec {
        form: Form::parse_opcode(opcode).unwrap(),
        target: target(),
        exhaustive: false,
        samples: 1024,
        cpu_check: false,
        planted,
    };
    let forms = ["cvt.rn.f16.f32", "cvt.rz.f16.f32", "cvt.rn.bf16.f32", "cvt.rm.f16.f32", "cvt.rp.f16.f32"];
    let clean: Vec<SweepSpec> = forms.iter().map(|f| spec(f, None)).collect();
    let mut planted = clean.clone();
    planted[1].planted = Some(Planted::Hang);
    planted[3].planted = Some(Planted::Fault);
    let mut pool = oracle_worker(3, Duration::from_secs(3));
    let want = pool.sweep(&clean, &|_| {});
    let got = pool.sweep(&planted, &|_| {});
    assert_eq!(got.len(), forms.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.form, forms[i], "results in spec order");
        match (i, &g.outcome) {
            (1, Err(SweepFailure::Row(f))) => assert_eq!(f.kind, FailureKind::Hang, "{f:?}"),
            (3, Err(SweepFailure::Row(f))) => assert_eq!(f.kind, FailureKind::Crash, "{f:?}"),
            (1 | 3, other) => panic!("row {i}: {other:?}"),
            (_, Ok(c)) => assert_eq!(Some(c), w.outcome.as_ref().ok(), "row {i}"),
            (_, other) => panic!("row {i}: {other:?}"),
        }
    }
    // The pool restarted its workers: a clean sweep gives the clean rows again.
    let again = pool.sweep(&clean, &|_| {});
    assert!(again.iter().zip(&want).all(|(a, w)| a.outcome == w.outcome));

    let (_, _, clean_batch) = programs(6, |i| format!("p{i}"));
    let outputs = pool.run_programs(&clean_batch).expect("clean batch");
    // A fault in a part of two kernels ([4, 5]): the other parts' outputs come back and the
    // part's programs are left to run again (no finding is pinned on either).
    let (_, _, faulty) = programs(6, |i| if i == 4 { "planted_fault_4".into() } else { format!("p{i}") });
    match pool.run_programs(&faulty) {
        Err(Failed::Programs { failed, ran }) => {
            assert!(failed.is_empty(), "{failed:?}");
            assert_eq!(ran.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2, 3], "parts [0,1] [2,3] ran");
            assert!(ran.iter().all(|(k, words)| *words == outputs[*k]));
        }
        other => panic!("a planted fault fails its part: {other:?}"),
    }
    assert_eq!(pool.run_programs(&clean_batch).expect("the pool goes on"), outputs);
    // A fault in a part of one kernel is that program's failure alone.
    let (_, _, clean3) = programs(3, |i| format!("p{i}"));
    let outputs3 = pool.run_programs(&clean3).expect("clean batch of 3");
    let (_, _, faulty3) = programs(3, |i| if i == 1 { "planted_fault_1".into() } else { format!("p{i}") });
    match pool.run_programs(&faulty3) {
        Err(Failed::Programs { failed, ran }) => {
            assert!(matches!(&failed[..], [(1, Failure::Crash { how, .. })] if how == "worker crash"), "{failed:?}");
            assert_eq!(ran, [(0, outputs3[0].clone()), (2, outputs3[2].clone())]);
        }
        other => panic!("a planted fault alone in its part fails its program: {other:?}"),
    }
    // A worker that faults names the faulting site (`worker::crash_site`), and the crash's
    // `how` carries it: here `raise` in libc, as the planted kernel raises SIGSEGV.
    let (_, _, segv) = programs(3, |i| if i == 2 { "planted_segv_2".into() } else { format!("p{i}") });
    match pool.run_programs(&segv) {
        Err(Failed::Programs { failed, .. }) => match &failed[..] {
            [(2, Failure::Crash { how, message, .. })] => {
                assert!(how.starts_with("worker crash at SIGSEGV in ") && how.contains("+0x"), "{how}");
                assert!(message.contains("it faulted: SIGSEGV in "), "{message}");
            }
            other => panic!("{other:?}"),
        },
        other => panic!("a planted SIGSEGV fails its program with its site: {other:?}"),
    }
    assert_eq!(pool.run_programs(&clean_batch).expect("the pool goes on"), outputs);
    // One worker: the batch is one part, and its fault is the batch's finding (the caller
    // narrows it down by halving).
    let mut one = oracle_worker(1, Duration::from_secs(3));
    match one.run_programs(&faulty) {
        Err(Failed::Finding(Failure::Crash { how, .. })) => assert_eq!(how, "worker crash"),
        other => panic!("a planted fault fails a one-part batch: {other:?}"),
    }
}

/// End to end through the engine: a batch of 8 on `oracle-worker` over four workers with a
/// planted fault gives 7 outputs that agree with the oracle and one crash finding for the
/// faulting program, found by running its part's programs again one per worker (the outcome
/// halving gave too; `a_planted_fault_or_hang_fails_only_its_own_row_or_batch` shows the pool
/// keeping the other parts' outputs instead of failing the batch).
#[test]
fn a_campaign_batch_with_a_planted_fault_fails_only_its_program() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = oracle_worker_engine(4, dir.path());
    let (progs, inputs, _) = programs(8, |i| if i == 5 { "planted_fault_5".into() } else { format!("p{i}") });
    let results = engine.run(&progs, &inputs, "t");
    assert_only_one_failed(&progs, &results, 5, "worker crash");
}

/// A planted hang in a batch split over three oracle workers, with a per-kernel timeout: the
/// worker running it names it within about that timeout, so the pool fails that program alone
/// (the hang finding a program timed out alone gives) and hands back the outputs of the parts
/// that ran; its part's other program is left to run again. The pool goes on.
#[test]
fn a_planted_hang_named_by_its_worker_fails_only_its_program() {
    let mut pool = oracle_worker(3, Duration::from_secs(60));
    let (_, _, clean) = programs(6, |i| format!("p{i}"));
    let want = pool.run_programs(&clean).expect("clean batch");
    let (_, _, batch) = programs(6, |i| if i == 4 { "planted_hang_4".into() } else { format!("p{i}") });
    let batch = ProgramBatch { kernel_timeout: Some(Duration::from_millis(500)), ..batch };
    let t = std::time::Instant::now();
    match pool.run_programs(&batch) {
        Err(Failed::Programs { failed, ran }) => {
            assert!(
                matches!(&failed[..], [(4, Failure::Crash { by, how, message })]
                    if by == "oracle-worker" && how == "hang" && message.contains("`planted_hang_4`")),
                "{failed:?}"
            );
            let ran: Vec<(usize, Vec<u32>)> = ran;
            assert_eq!(ran.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2, 3], "parts [0,1] [2,3] ran; 5 did not");
            assert!(ran.iter().all(|(k, words)| *words == want[*k]));
        }
        other => panic!("a named hang fails its program alone: {other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(10), "one short wait, not the 60 s timeout: {:?}", t.elapsed());
    assert_eq!(pool.run_programs(&clean).expect("the pool goes on"), want);
}

/// End to end through the engine: a batch of 8 on `oracle-worker` (one worker) with a planted
/// hang gives 7 outputs and one hang finding in about one [`KERNEL_TIMEOUT`] (one run holding
/// the hang: halving would wait that long once per level, 4 times), the rest agreeing with
/// the oracle.
#[test]
fn a_campaign_batch_with_a_planted_hang_costs_one_kernel_timeout() {
    use runner::fuzz::engine::KERNEL_TIMEOUT;
    let dir = tempfile::tempdir().unwrap();
    let mut engine = oracle_worker_engine(1, dir.path());
    let (progs, inputs, _) = programs(8, |i| if i == 2 { "planted_hang_2".into() } else { format!("p{i}") });
    let t = std::time::Instant::now();
    let results = engine.run(&progs, &inputs, "t");
    let took = t.elapsed();
    assert!(took >= KERNEL_TIMEOUT && took < 2 * KERNEL_TIMEOUT, "{took:?}");
    assert_only_one_failed(&progs, &results, 2, "hang");
}

/// A campaign engine whose one backend is `oracle-worker` over `workers` workers (this test
/// binary's `ptxdiff` as the worker), its scratch in `dir`.
fn oracle_worker_engine(workers: usize, dir: &std::path::Path) -> runner::fuzz::engine::Engine {
    std::env::set_var("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    let registry = Registry::new(Settings {
        ptxas: Vec::new(),
        devices: Devices::default(),
        workers: Some(workers),
        allow: Allowances::all(),
        sweep_timeout: Duration::from_secs(60),
    });
    runner::fuzz::engine::Engine::new(&registry, &["oracle-worker".to_string()], target(), None, dir.to_path_buf())
        .unwrap()
}

/// Program `bad` of `results` has one crash finding of `oracle-worker`, `how`, and no output;
/// every other program ran and agrees with the oracle.
fn assert_only_one_failed(progs: &[Program], results: &[runner::fuzz::engine::ProgramResult], bad: usize, how: &str) {
    for (k, r) in results.iter().enumerate() {
        if k == bad {
            assert!(
                matches!(&r.failures[..], [Failure::Crash { by, how: h, .. }] if by == "oracle-worker" && h == how),
                "{:?}",
                r.failures
            );
            assert!(r.observed.is_empty());
        } else {
            let outputs = progs[k].outputs;
            let expected: Vec<u32> = (r.expected.as_ref().unwrap().iter())
                .flat_map(|e| (0..outputs).map(move |w| (e.bits >> (32 * w)) as u32))
                .collect();
            assert!(r.failures.is_empty(), "{k}: {:?}", r.failures);
            assert_eq!(r.observed.len(), 1, "{k}");
            assert_eq!(r.observed[0].words, expected, "{k}");
        }
    }
}

/// `ptxdiff replay` of several cases runs them as one batch: with the corpus's hang-check cases
/// and a planted hang among them on `oracle-worker`, the log names the hung program and the
/// others agree, in about one kernel timeout.
#[test]
fn a_replay_of_a_case_set_names_the_planted_hang_and_runs_the_rest() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let clean = |k: usize| root.join(format!("corpus/hang-check/hc{k}.case"));
    let text = std::fs::read_to_string(clean(0)).unwrap().replace("name=hc0", "name=planted_hang_x");
    let planted = dir.path().join("planted.case");
    std::fs::write(&planted, text).unwrap();
    let t = std::time::Instant::now();
    let out = ptxdiff()
        .arg("replay")
        .args([clean(0), clean(1), planted.clone(), clean(2), clean(3)])
        .args(["--backends", "oracle-worker"])
        .env("PTXDIFF_ROOT", &root)
        .output()
        .unwrap();
    let took = t.elapsed();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("oracle-worker: `planted_hang_x` (kernel 3 of a batch of 5) failed alone (hang: "),
        "{stderr}"
    );
    let hang = format!("{}: crash [oracle-worker] hang", planted.display());
    assert!(stdout.contains(&hang), "{stdout}");
    assert_eq!(stdout.matches("every backend agrees with the oracle").count(), 4, "{stdout}");
    assert!(took < 2 * runner::fuzz::engine::KERNEL_TIMEOUT + Duration::from_secs(5), "{took:?}");
}

#[test]
fn bad_devices_and_workers_are_errors_naming_the_value() {
    for (args, names) in [
        (&["--devices", "gpu1"][..], "gpu1"),
        (&["--devices", "0,-2"][..], "-2"),
        (&["--devices", "1,1"][..], "`1`"),
        (&["--workers", "0"][..], "--workers"),
        (&["--devices", "0", "--device", "1"][..], "--device"),
    ] {
        let out = ptxdiff().args(["conform", "--backends", "oracle"]).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(names), "{args:?}: {err}");
    }
    let out = ptxdiff().args(["fuzz", "--devices", "zero"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("zero"));
}

/// Whether this machine has a usable GPU 0 (a GPU worker starts on it), or why not.
fn gpu() -> Result<(), String> {
    runner::worker::WorkerHandle::spawn(
        env!("CARGO_BIN_EXE_ptxdiff").as_ref(),
        runner::worker::WorkerKind::Gpu { device: 0 },
    )
    .map(drop)
}

/// Without a GPU, `--devices all` finds none and the run says the GPU backend is unavailable
/// (and falls back to the CPU backends); with one, it runs on every device.
#[test]
fn devices_all_without_a_gpu_reports_the_gpu_backend_unavailable() {
    let args = ["--devices", "all", "--target", "sm_90", "--forms", "cvt.rn.f16.f32", "--samples", "256"];
    if gpu().is_ok() {
        let (rows, _) = conform_rows(&[&args[..], &["--backends", "cuda:jit"]].concat());
        assert!(rows.iter().all(|r| r["device"].as_str().is_some_and(|d| d.contains(": "))), "{rows:?}");
        return;
    }
    let (rows, stdout) = conform_rows(&args);
    assert!(stdout.contains("GPU backend unavailable"), "{stdout}");
    assert!(!rows.is_empty() && rows.iter().all(|r| r.get("device").is_none()), "{rows:?}");
}

/// On a GPU: two workers on device 0 give the rows of one (skips without a GPU).
#[test]
fn two_workers_on_device_0_give_the_rows_of_one() {
    if let Err(why) = gpu() {
        common::skip("no GPU", &why);
        return;
    }
    let args = ["--backends", "cuda:jit", "--devices", "0", "--target", "sm_90", "--forms", "cvt.r*.f16.f32"];
    let (one, _) = conform_rows(&[&args[..], &["--samples", "65536", "--workers", "1"]].concat());
    let (two, _) = conform_rows(&[&args[..], &["--samples", "65536", "--workers", "2"]].concat());
    assert!(one.len() >= 4, "{one:?}");
    assert_eq!(one, two);
    assert!(one.iter().all(|r| r["device"].as_str().is_some_and(|d| d.starts_with("0: "))), "{one:?}");
}
