//! Tests of a hang named by kernel ([`super::KERNEL_TIMEOUT`], `Failed::Programs`): every
//! batch carries the per-kernel timeout, never more than its own; a program whose kernel the
//! backend names as hung fails alone, with the hang finding a program timed out alone gives,
//! and the batch's programs without outputs run again once, without halving.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::until_tests::{hanging_engine, programs, Hangs};
use super::KERNEL_TIMEOUT;
use crate::backend::{Failure, ProgramBatch};

/// An engine over a [`Hangs`] whose batches holding `only` hang (named by kernel when `named`),
/// and the batches it was given.
fn engine_hanging_on(
    dir: &std::path::Path,
    only: &'static str,
    named: bool,
) -> (super::Engine, Arc<Mutex<Vec<ProgramBatch>>>) {
    let (mut engine, timeouts) = hanging_engine(dir);
    let batches = Arc::new(Mutex::new(Vec::new()));
    engine.backends = vec![Box::new(Hangs { timeouts, only: Some(only), named, batches: batches.clone() })];
    (engine, batches)
}

/// The kernel names of each batch given.
fn names(batches: &Mutex<Vec<ProgramBatch>>) -> Vec<Vec<String>> {
    batches.lock().unwrap().iter().map(|b| b.kernels.iter().map(|k| k.name.clone()).collect()).collect()
}

/// A batch of 8 whose kernel `h5` is named as hung: two runs (the batch, then `h6` and `h7`,
/// which did not finish) instead of the batch and its halves; `h5` is a hang, every other
/// program ran. The old engine halved it: 1 + 2 × 3 runs.
#[test]
fn a_named_hang_fails_its_program_alone_and_the_rest_run_again_without_halving() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, batches) = engine_hanging_on(dir.path(), "h5", true);
    let (p, i) = programs(8);
    let results = engine.run(&p, &i, "t");
    let all: Vec<String> = (0..8).map(|k| format!("h{k}")).collect();
    assert_eq!(names(&batches), vec![all, vec!["h6".to_string(), "h7".to_string()]], "no halving");
    for (k, r) in results.iter().enumerate() {
        if k == 5 {
            match &r.failures[..] {
                [Failure::Crash { by, how, message }] => {
                    assert_eq!((by.as_str(), how.as_str()), ("cuda:hangs", "hang"));
                    assert!(message.contains("`h5`"), "{message}");
                }
                other => panic!("{other:?}"),
            }
            assert!(r.observed.is_empty());
        } else {
            assert!(r.failures.is_empty() && r.observed.len() == 1, "{k}: {:?}", r.failures);
        }
    }
}

/// A hang named in the first kernel of a batch leaves all the others to run again, once.
#[test]
fn a_named_hang_of_the_first_kernel_runs_all_the_others_again_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, batches) = engine_hanging_on(dir.path(), "h0", true);
    let (p, i) = programs(4);
    let results = engine.run(&p, &i, "t");
    assert_eq!(names(&batches).iter().map(Vec::len).collect::<Vec<_>>(), [4, 3]);
    assert!(matches!(&results[0].failures[..], [Failure::Crash { how, .. }] if how == "hang"));
    assert!(results[1..].iter().all(|r| r.failures.is_empty() && r.observed.len() == 1));
}

/// Every batch carries [`KERNEL_TIMEOUT`], and never more than its own timeout.
#[test]
fn every_batch_carries_the_kernel_timeout_capped_by_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, batches) = engine_hanging_on(dir.path(), "nowhere", true);
    let (p, i) = programs(3);
    engine.run(&p, &i, "t");
    engine.timeout = Duration::from_secs(2);
    engine.run(&p, &i, "t");
    let given: Vec<(Duration, Option<Duration>)> =
        batches.lock().unwrap().iter().map(|b| (b.timeout, b.kernel_timeout)).collect();
    assert_eq!(
        given,
        [(super::FIRST_RUN_FLOOR, Some(KERNEL_TIMEOUT)), (Duration::from_secs(2), Some(Duration::from_secs(2)))],
        "untimed, 3 programs get their share of 120 s, at least the floor; then the engine's own 2 s"
    );
    assert!(KERNEL_TIMEOUT >= Duration::from_secs(1) && KERNEL_TIMEOUT < super::NARROW_FLOOR);
}

/// A named failure whose indices are out of the batch or repeated settles nothing twice and
/// never loops: what is left runs again, once.
#[test]
fn named_failures_settle_each_program_once() {
    let (p, _) = programs(4);
    let hang = |k: usize| (k, Failure::Crash { by: "b".into(), how: "hang".into(), message: "m".into() });
    let mut out = Vec::new();
    let which = [0, 1, 2, 3];
    let rest = super::settle_named(
        "b",
        &p,
        &which,
        vec![hang(2), hang(2), hang(9)],
        vec![(2, vec![1]), (0, vec![0])],
        &mut out,
    );
    assert_eq!(rest, [1, 3]);
    assert_eq!(out.len(), 2, "program 2 failed once, program 0 ran");
    assert!(matches!(out[0], (2, super::Outcome::Failed(_))) && matches!(out[1], (0, super::Outcome::Ran(_))));
}
