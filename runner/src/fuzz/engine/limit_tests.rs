//! Tests of the batch timeouts ([`super::RunLimit`]): a backend's first run of a batch and the
//! halves of a failed one are timed to what its batches typically take once that is known, so a
//! program that never ends is narrowed down in seconds, not in one whole timeout per halving.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::until_tests::{hanging_engine, programs, Hangs};
use super::{RunLimit, FIRST_RUN_FLOOR, NARROW_FLOOR, ONE_PROGRAM_TIMEOUT};
use crate::backend::Failure;

#[test]
fn the_limits_scale_with_the_typical_batch_and_keep_the_old_ones_before_it_is_known() {
    let max = Duration::from_secs(120);
    let unknown = RunLimit::first(max, None, None);
    assert_eq!((unknown.timeout, unknown.narrowed().timeout), (max, max), "before any batch is timed: as before");
    assert_eq!(unknown.timeout_now(1), Some(ONE_PROGRAM_TIMEOUT));
    let fast = RunLimit::first(max, None, Some(Duration::from_millis(500)));
    assert_eq!((fast.timeout, fast.narrowed().timeout), (FIRST_RUN_FLOOR, NARROW_FLOOR));
    assert_eq!(fast.narrowed().narrowed().timeout, NARROW_FLOOR, "halves of halves alike");
    assert_eq!(fast.narrowed().timeout_now(1), Some(NARROW_FLOOR), "one program: the shorter of the two");
    let slow = RunLimit::first(max, None, Some(Duration::from_secs(10)));
    assert_eq!((slow.timeout, slow.narrowed().timeout), (max, Duration::from_secs(40)), "capped by the timeout");
}

/// Once a backend's batches have been timed, a batch with one program that never ends gets a
/// first run of [`FIRST_RUN_FLOOR`] and halves of [`NARROW_FLOOR`] (not 120 s each): the hang is
/// that program's alone and every other program ran.
#[test]
fn a_hanging_program_is_narrowed_down_with_short_timeouts_once_batches_are_timed() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, _) = hanging_engine(dir.path());
    let timeouts = Arc::new(Mutex::new(Vec::new()));
    engine.backends = vec![Box::new(Hangs { timeouts: timeouts.clone(), only: Some("h5"), ..Hangs::default() })];
    let (p, i) = programs(8);
    // A batch without the hanging program times the backend.
    let clean: Vec<usize> = (0..8).filter(|&k| k != 5).collect();
    let (cp, ci): (Vec<_>, Vec<_>) = clean.iter().map(|&k| (p[k].clone(), i[k].clone())).unzip();
    let first = engine.run(&cp, &ci, "t0");
    assert!(first.iter().all(|r| r.failures.is_empty() && r.observed.len() == 1));
    assert_eq!(timeouts.lock().unwrap().as_slice(), &[Duration::from_secs(120)], "not timed yet: 120 s");
    timeouts.lock().unwrap().clear();
    let results = engine.run(&p, &i, "t1");
    let given = timeouts.lock().unwrap().clone();
    // The whole batch first, then its halves down to the program.
    assert_eq!(given[0], FIRST_RUN_FLOOR, "{given:?}");
    assert!(given.len() > 1 && given[1..].iter().all(|&t| t == NARROW_FLOOR), "{given:?}");
    for (k, r) in results.iter().enumerate() {
        if k == 5 {
            assert!(matches!(&r.failures[..], [Failure::Crash { how, .. }] if how == "hang"), "{:?}", r.failures);
        } else {
            assert!(r.failures.is_empty() && r.observed.len() == 1, "{k}: {:?}", r.failures);
        }
    }
}
