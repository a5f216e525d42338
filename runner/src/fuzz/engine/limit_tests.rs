//! Tests of the batch timeouts ([`super::RunLimit`]): a backend's first run of a batch and the
//! halves of a failed one are timed to what its batches typically take once that is known, so a
//! program that never ends is narrowed down in seconds, not in one whole timeout per halving.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::until_tests::{hanging_engine, programs, Hangs};
use super::{RunLimit, FIRST_RUN_FLOOR, NARROW_FLOOR, ONE_PROGRAM_TIMEOUT, UNTIMED_BATCH};
use crate::backend::Failure;

#[test]
fn the_limits_scale_with_the_typical_batch_and_keep_the_old_ones_before_it_is_known() {
    let max = Duration::from_secs(120);
    let unknown = RunLimit::first(max, None, None, UNTIMED_BATCH);
    let halves = |l: RunLimit, hung| l.narrowed(UNTIMED_BATCH / 2, UNTIMED_BATCH, hung).timeout;
    assert_eq!((unknown.timeout, halves(unknown, false)), (max, max), "before any batch is timed: as before");
    assert_eq!(halves(unknown, true), max / 2, "untimed, the halves of a batch that hung get their share");
    assert_eq!(unknown.timeout_now(1), Some(ONE_PROGRAM_TIMEOUT));
    let fast = RunLimit::first(max, None, Some(Duration::from_millis(500)), UNTIMED_BATCH);
    assert_eq!((fast.timeout, halves(fast, false)), (FIRST_RUN_FLOOR, NARROW_FLOOR));
    let quarter = fast.narrowed(64, 128, true);
    assert_eq!(quarter.narrowed(32, 64, true).timeout, NARROW_FLOOR, "halves of halves alike");
    assert_eq!(quarter.timeout_now(1), Some(NARROW_FLOOR), "one program: the shorter of the two");
    let slow = RunLimit::first(max, None, Some(Duration::from_secs(10)), UNTIMED_BATCH);
    assert_eq!((slow.timeout, halves(slow, true)), (max, Duration::from_secs(40)), "capped by the timeout");
}

/// Untimed (a `replay`, a campaign's first batch), a small batch gets its share of the timeout
/// (at least [`FIRST_RUN_FLOOR`]) and the halves of one that hung their share of its limit (at
/// least [`NARROW_FLOOR`]); a batch that failed otherwise keeps its limit for its halves.
#[test]
fn untimed_limits_follow_the_batch_size() {
    let max = Duration::from_secs(120);
    assert_eq!(RunLimit::first(max, None, None, 36).timeout, FIRST_RUN_FLOOR, "36 of 256: 16.9 s, the floor");
    assert_eq!(RunLimit::first(max, None, None, 128).timeout, max / 2);
    assert_eq!(RunLimit::first(max, None, None, 1000).timeout, max, "never past the timeout");
    let whole = RunLimit::first(max, None, None, 128);
    assert_eq!(whole.narrowed(64, 128, true).timeout, max / 4);
    assert_eq!(whole.narrowed(64, 128, false).timeout, max / 2, "a crash says nothing of the time a half needs");
    assert_eq!(whole.narrowed(1, 128, true).timeout, NARROW_FLOOR);
}

/// Untimed, a batch of 36 whose program 5 hangs is narrowed with shrinking limits: the whole
/// batch [`FIRST_RUN_FLOOR`], then each half that holds the hang its share, down to
/// [`NARROW_FLOOR`] — not 120 s per halving (session 50's `replay` on the GPU).
#[test]
fn an_untimed_hanging_batch_is_narrowed_with_shrinking_limits() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, _) = hanging_engine(dir.path());
    let timeouts = Arc::new(Mutex::new(Vec::new()));
    let batches = Arc::new(Mutex::new(Vec::new()));
    engine.backends = vec![Box::new(Hangs {
        timeouts: timeouts.clone(),
        only: Some("h5"),
        batches: batches.clone(),
        ..Hangs::default()
    })];
    let (p, i) = programs(36);
    let results = engine.run(&p, &i, "t");
    let holding: Vec<(usize, Duration)> = {
        let (b, t) = (batches.lock().unwrap(), timeouts.lock().unwrap());
        let holds = |b: &crate::backend::ProgramBatch| b.kernels.iter().any(|k| k.name == "h5");
        b.iter().zip(t.iter()).filter(|(b, _)| holds(b)).map(|(b, &t)| (b.kernels.len(), t)).collect()
    };
    let s = Duration::from_secs;
    assert_eq!(
        holding,
        vec![(36, s(30)), (18, s(15)), (9, NARROW_FLOOR), (5, NARROW_FLOOR), (2, NARROW_FLOOR), (1, NARROW_FLOOR)]
    );
    for (k, r) in results.iter().enumerate() {
        if k == 5 {
            assert!(matches!(&r.failures[..], [Failure::Crash { how, .. }] if how == "hang"), "{:?}", r.failures);
        } else {
            assert!(r.failures.is_empty() && r.observed.len() == 1, "{k}: {:?}", r.failures);
        }
    }
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
    assert_eq!(
        timeouts.lock().unwrap().as_slice(),
        &[FIRST_RUN_FLOOR],
        "not timed yet: 7 programs' share of 120 s, the floor"
    );
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
