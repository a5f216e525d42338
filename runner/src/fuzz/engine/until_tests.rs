//! Tests of [`super::Engine::until`]: a minimization engine's batches never run past it, and an
//! engine without it runs and halves a hanging batch as before.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oracle::program::text::parse_case;
use oracle::program::{Inputs, Program};

use super::{Emulations, Engine};
use crate::backend::{Backend, BackendKind, Failed, Failure, ProgramBatch, Role};

/// A backend that records each timeout it was given (and, in `batches`, each batch). Without
/// `only`, every batch hangs: it waits out the batch's timeout, then reports a hang. With
/// `only`, a batch holding that program reports a hang at once (the timeout recorded, not
/// spent) and every other batch runs (zero words); with `named` too, the hang is reported as a
/// GPU worker that sees that kernel running past the batch's per-kernel timeout reports it
/// ([`Failed::Programs`]: that program failed, the kernels before it ran, those after it did
/// not finish).
#[derive(Default)]
pub(super) struct Hangs {
    pub(super) timeouts: Arc<Mutex<Vec<Duration>>>,
    pub(super) only: Option<&'static str>,
    pub(super) named: bool,
    pub(super) batches: Arc<Mutex<Vec<ProgramBatch>>>,
}

impl Backend for Hangs {
    fn name(&self) -> String {
        "cuda:hangs".into()
    }
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }
    fn needs(&self) -> Vec<crate::backend::Need> {
        Vec::new()
    }
    fn role(&self) -> Role {
        Role::Runs
    }
    fn sweep(&mut self, _: &[crate::backend::SweepSpec], _: &(dyn Fn(u64) + Sync)) -> Vec<crate::backend::SweepResult> {
        Vec::new()
    }
    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        self.timeouts.lock().unwrap().push(batch.timeout);
        self.batches.lock().unwrap().push(batch.clone());
        let words = |k: &crate::worker::KernelRun| vec![0; (k.threads * k.outputs) as usize];
        match self.only {
            None => std::thread::sleep(batch.timeout),
            Some(name) => match batch.kernels.iter().position(|k| k.name == name) {
                Some(at) if self.named => {
                    let waited = batch.kernel_timeout.unwrap_or(batch.timeout).as_secs();
                    let message = format!("no result within {waited} s: kernel `{name}` did not finish");
                    let hang = Failure::Crash { by: self.name(), how: "hang".into(), message };
                    let ran = batch.kernels[..at].iter().map(words).enumerate().collect();
                    return Err(Failed::Programs { failed: vec![(at, hang)], ran });
                }
                Some(_) => {}
                None => return Ok(batch.kernels.iter().map(words).collect()),
            },
        }
        Err(Failed::Finding(Failure::Crash { by: self.name(), how: "hang".into(), message: "timed out".into() }))
    }
}

/// An engine over [`Hangs`] alone (the oracle in process gives the expectations), and the
/// timeouts its batches got.
pub(super) fn hanging_engine(scratch: &std::path::Path) -> (Engine, Arc<Mutex<Vec<Duration>>>) {
    let timeouts = Arc::new(Mutex::new(Vec::new()));
    let engine = Engine {
        stages: Default::default(),
        target: "sm_90".parse().unwrap(),
        backends: vec![Box::new(Hangs { timeouts: timeouts.clone(), ..Hangs::default() })],
        allow: oracle::semantics::Allowances::all(),
        plant: None,
        scratch: scratch.to_path_buf(),
        timeout: Duration::from_secs(120),
        typical: Default::default(),
        until: None,
        unavailable: Vec::new(),
        gpu_unavailable: None,
        sass: None,
        emulate: Emulations::default(),
        witnessed: Default::default(),
    };
    (engine, timeouts)
}

/// `n` small programs, each under a name of its own.
pub(super) fn programs(n: usize) -> (Vec<Program>, Vec<Inputs>) {
    let inputs: String = (0..32).map(|t| format!("// t{t}: 00000001 00000000 00000000 00000000\n")).collect();
    (0..n)
        .map(|i| {
            parse_case(&format!(
                "// ptxdiff-program name=h{i} target=sm_90@8.7 threads=32 inputs=4 outputs=1 shared=0\n\
                 // begin body\nld.global.b32 %r1, [%in];\nst.global.b32 [%out], %r1;\n// end body\n\
                 // ptxdiff-inputs\n{inputs}"
            ))
            .unwrap()
        })
        .unzip()
}

/// Past `until` a hanging batch of 16 ends at `until` (not after its 120 s timeout, nor its
/// halving), and its programs get no outcome: no hang is counted that the cut timeout caused.
#[test]
fn no_batch_runs_past_until_and_a_cut_hang_counts_for_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, timeouts) = hanging_engine(dir.path());
    let (p, i) = programs(16);
    let start = Instant::now();
    engine.until = Some(start + Duration::from_millis(300));
    let results = engine.run(&p, &i, "t");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(3), "{took:?}");
    let given = timeouts.lock().unwrap().clone();
    assert!(given.len() == 1 && given[0] <= Duration::from_millis(300), "one batch, cut: {given:?}");
    assert!(results.iter().all(|r| r.failures.is_empty() && r.observed.is_empty()), "{results:?}");
    // Once `until` has passed, nothing runs at all.
    let results = engine.run(&p[..1], &i[..1], "t");
    assert_eq!(timeouts.lock().unwrap().len(), 1);
    assert!(results[0].failures.is_empty());
}

/// Without `until` the timeouts are as before (20 s at most for one program) and a hanging
/// batch is halved down to its programs, each a hang.
#[test]
fn without_until_a_hanging_batch_is_halved_into_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, timeouts) = hanging_engine(dir.path());
    engine.timeout = Duration::from_millis(40);
    let (p, i) = programs(2);
    let results = engine.run(&p, &i, "t");
    assert_eq!(timeouts.lock().unwrap().as_slice(), &[Duration::from_millis(40); 3], "the batch, then each half");
    for r in &results {
        assert!(matches!(&r.failures[..], [Failure::Crash { how, .. }] if how == "hang"), "{:?}", r.failures);
    }
    let limit = super::RunLimit::first(Duration::from_secs(120), None, None, super::UNTIMED_BATCH);
    assert_eq!(limit.timeout_now(1), Some(super::ONE_PROGRAM_TIMEOUT));
    assert_eq!(limit.timeout_now(2), Some(Duration::from_secs(120)));
}

/// A minimization whose candidates hang stops within [`super::RUN_GRACE`] of its own time
/// bound (here 0.3 s): its first run, of the case alone, would otherwise wait out the 20 s
/// timeout of one program. The case comes back as it is, not shown again.
#[test]
fn a_reduction_of_hanging_candidates_ends_within_the_grace() {
    use crate::fuzz::case::{CaseKind, Register};
    use crate::fuzz::minimize::{Job, Minimizer, Reducer};
    use generator::minimize::Budget;

    let dir = tempfile::tempdir().unwrap();
    let (mut engine, timeouts) = hanging_engine(dir.path());
    let (p, i) = programs(1);
    // The case's batch result: the expectation, and the hang it showed.
    engine.until = Some(Instant::now());
    let mut result = engine.run(&p, &i, "t").remove(0);
    engine.until = None;
    result.failures.push(Failure::Crash { by: "cuda:hangs".into(), how: "hang".into(), message: "timed out".into() });
    let raw = Register::raw_findings(&p[0], &result, &engine.allow).remove(0);
    let job = Job { batch: 1, raw, program: p[0].clone(), inputs: i[0].clone(), result, seen_at: 0.0, source: None };
    let allow = engine.allow.clone();
    let own = Budget { seconds: Some(Duration::from_millis(300)), ..Budget::calls(400) };
    let far = Instant::now() + Duration::from_secs(3600);
    let start = Instant::now();
    let m = Minimizer::start(vec![Reducer::new(engine)], own, 4, allow, Vec::new(), far);
    m.submit(Box::new(job)).unwrap();
    let (done, _) = m.finish().unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_millis(300) + super::RUN_GRACE + Duration::from_secs(2), "{took:?}");
    assert_eq!(done.len(), 1);
    assert!(done[0].minimized && done[0].finding.reproduced == Some(false), "{:?}", done[0].finding);
    let given = timeouts.lock().unwrap().clone();
    assert!(given.iter().all(|t| *t <= Duration::from_millis(300) + super::RUN_GRACE), "{given:?}");
}
