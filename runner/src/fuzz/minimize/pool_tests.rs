//! Tests of [`super::Minimizer`]'s pool: with several threads every submitted job comes back
//! exactly once, in submission order, the threads share the work, and `submit` never blocks.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use generator::minimize::Budget;
use oracle::program::text::parse_case;
use oracle::program::Program;
use oracle::semantics::Allowances;

use super::{package_as_is, Case, Engine, Job, Minimizer, Reduction};
use crate::findings::Finding;
use crate::fuzz::case::{CaseKind, Register};
use crate::fuzz::package::Raw;

/// A case that takes `sleep` to reduce (it is only packaged); its thread's runner counts the
/// cases that thread reduced.
#[derive(Debug)]
struct Slow {
    job: Job,
    sleep: Duration,
}

impl Case for Slow {
    type Kind = Register;
    type Runner = u64;

    fn batch(&self) -> u64 {
        self.job.batch
    }
    fn raw(&self) -> &Raw {
        &self.job.raw
    }
    fn program(&self) -> &Program {
        &self.job.program
    }
    fn package_as_is(&self, allow: &Allowances, env: &[(String, String)]) -> (Finding, String) {
        package_as_is(&self.job, allow, env)
    }
    fn reduce(&self, reduced: &mut u64, _: Budget, env: &[(String, String)]) -> Reduction {
        std::thread::sleep(self.sleep);
        *reduced += 1;
        let (finding, case) = package_as_is(&self.job, &Allowances::all(), env);
        Reduction { finding, case, calls: 1, runs: 1, refused: 0, known_after_reduction: None }
    }
}

/// A job of batch 0: a crash on a four-instruction case (the oracle gives its expectation).
fn job() -> Job {
    use crate::backend::{pool::Devices, Registry, Settings};
    let inputs: String = (0..32).map(|t| format!("// t{t}: 00000001 00000000 00000000 00000000\n")).collect();
    let (p, i) = parse_case(&format!(
        "// ptxdiff-program name=m target=sm_90@8.7 threads=32 inputs=4 outputs=1 shared=0\n// begin body\n\
         ld.global.b32 %r1, [%in];\nxor.b32 %r2, %r1, 7;\nst.global.b32 [%out], %r2;\n// end body\n\
         // ptxdiff-inputs\n{inputs}"
    ))
    .unwrap();
    let registry = Registry::new(Settings {
        ptxas: Vec::new(),
        devices: Devices::List(vec![0]),
        workers: Some(1),
        allow: Allowances::all(),
        sweep_timeout: Duration::from_secs(10),
    });
    let dir = tempfile::tempdir().unwrap();
    let mut engine = Engine::new(&registry, &["oracle".to_string()], p.target, None, dir.path().into()).unwrap();
    let mut result = engine.run(std::slice::from_ref(&p), std::slice::from_ref(&i), "t").remove(0);
    result.failures.push(crate::backend::Failure::Crash {
        by: "cuda:jit".into(),
        how: "hang".into(),
        message: "".into(),
    });
    let raw = Register::raw_findings(&p, &result, &engine.allow).remove(0);
    Job { batch: 0, raw, program: p, inputs: i, result, seen_at: 0.0, source: None }
}

/// `n` slow cases of batches 0, 1, …, each taking `sleep` (the first `first`).
fn slow_cases(n: u64, sleep: Duration, first: Duration) -> Vec<Slow> {
    let job = job();
    (0..n).map(|b| Slow { job: Job { batch: b, ..job.clone() }, sleep: if b == 0 { first } else { sleep } }).collect()
}

/// A pool of `threads` threads (runners counting their cases), its queue `queue`, reducing
/// until `deadline`.
fn pool(threads: usize, queue: usize, deadline: Instant) -> Minimizer<Slow> {
    Minimizer::start(vec![0; threads], Budget::calls(10), queue, Allowances::all(), Vec::new(), deadline)
}

#[test]
fn three_threads_give_every_job_back_once_in_order_and_share_the_work() {
    let sleep = Duration::from_millis(150);
    let start = Instant::now();
    let m = pool(3, 16, start + Duration::from_secs(3600));
    for c in slow_cases(9, sleep, sleep) {
        assert!(m.submit(Box::new(c)).is_ok());
    }
    let (done, runners) = m.finish().unwrap();
    let took = start.elapsed();
    assert_eq!(done.iter().map(|d| d.batch).collect::<Vec<_>>(), (0..9).collect::<Vec<_>>());
    assert!(done.iter().all(|d| d.minimized && d.calls == 1));
    assert_eq!((runners.len(), runners.iter().sum::<u64>()), (3, 9));
    let threads: BTreeSet<usize> = done.iter().map(|d| d.reducer).collect();
    assert!(threads.len() >= 2 && runners.iter().filter(|&&n| n > 0).count() >= 2, "{threads:?} {runners:?}");
    // One thread would take 9 × 150 ms.
    assert!(took < sleep * 9 * 4 / 5, "{took:?}");
}

/// A job finished before an earlier one is held back until that one is done.
#[test]
fn a_job_finished_early_waits_for_the_earlier_ones() {
    let m = pool(3, 16, Instant::now() + Duration::from_secs(3600));
    for c in slow_cases(3, Duration::ZERO, Duration::from_millis(600)) {
        m.submit(Box::new(c)).unwrap();
    }
    std::thread::sleep(Duration::from_millis(250));
    assert!(m.finished().is_empty(), "jobs 1 and 2 are done, job 0 is not");
    let (done, _) = m.finish().unwrap();
    assert_eq!(done.iter().map(|d| d.batch).collect::<Vec<_>>(), vec![0, 1, 2]);
}

/// After the deadline every thread packages its jobs as they are; each comes back once.
#[test]
fn past_the_deadline_every_job_comes_back_unminimized() {
    let m = pool(3, 16, Instant::now());
    for c in slow_cases(7, Duration::from_secs(60), Duration::from_secs(60)) {
        m.submit(Box::new(c)).unwrap();
    }
    let (done, runners) = m.finish().unwrap();
    assert_eq!(done.iter().map(|d| d.batch).collect::<Vec<_>>(), (0..7).collect::<Vec<_>>());
    assert!(done.iter().all(|d| !d.minimized && d.calls == 0));
    assert_eq!(runners.iter().sum::<u64>(), 0);
}

/// `submit` never blocks: with the one thread busy and the queue full, a job is given back at
/// once; without threads every job is.
#[test]
fn submit_never_blocks_and_gives_back_what_does_not_fit() {
    let m = pool(1, 1, Instant::now() + Duration::from_secs(3600));
    let t = Instant::now();
    let given_back = slow_cases(4, Duration::from_millis(300), Duration::from_millis(300))
        .into_iter()
        .filter_map(|c| m.submit(Box::new(c)).err())
        .count();
    assert!(t.elapsed() < Duration::from_millis(200), "{:?}", t.elapsed());
    assert!((2..=3).contains(&given_back), "{given_back}");
    let (done, _) = m.finish().unwrap();
    assert_eq!(done.len(), 4 - given_back);

    let none = pool(0, 16, Instant::now() + Duration::from_secs(3600));
    assert!(none.submit(Box::new(slow_cases(1, Duration::ZERO, Duration::ZERO).remove(0))).is_err());
    assert!(none.finish().unwrap().0.is_empty());
}
