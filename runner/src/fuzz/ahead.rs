//! Work prepared ahead of its consumer, in order: `threads` preparing threads claim indices
//! `first, first + 1, …` one at a time, each makes its item and hands it on in index order
//! through a bounded queue.
//!
//! The campaign prepares its batches this way (generation, the oracle, one ptxas process per
//! build): a thread that finishes claims the next index at once, so a slow batch holds up
//! only its own thread, never the others (an earlier design prepared batches in windows and
//! waited for a window's slowest batch before starting the next window).
//!
//! Invariants:
//! - Items arrive in index order with no gap; the first index whose `make` gives `None` ends
//!   the sequence (later items are dropped unsent).
//! - At most `threads + queue` items are claimed and not yet received: a thread holds one
//!   item until its turn, and the queue holds `queue`.
//! - A panic in `make` ends the sequence; [`Ahead::finish`] returns its message. Dropping the
//!   receiver (or [`Ahead::finish`]) stops the threads after the item each is making.
//! - [`Ahead::then`] adds one more stage on a thread of its own (the campaign runs the
//!   backends there): items pass it in order, none is dropped before the sequence ends, a
//!   panic in it ends the sequence as one in `make` does, and [`Ahead::finish`] stops both
//!   stages.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Items made ahead by preparing threads, received in index order.
pub struct Ahead<T> {
    rx: Option<Receiver<T>>,
    stop: Arc<AtomicBool>,
    /// Set by [`Ahead::finish`] or dropping (`stop` also ends a sequence that ran out).
    finished: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    panic: Arc<Mutex<Option<String>>>,
}

/// [`Ahead::recv_until`]'s deadline passed before the next item was ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeUp;

/// Whose turn it is to hand its item on, and whether the sequence has ended.
struct Turn {
    next: u64,
    ended: bool,
}

impl<T: Send + 'static> Ahead<T> {
    /// Starts `threads` (at least 1) threads making items `first, first + 1, …` with `make`
    /// (`None` ends the sequence); `queue` (at least 1) made items may wait for the receiver.
    pub fn start<F>(first: u64, threads: usize, queue: usize, make: F) -> Ahead<T>
    where
        F: Fn(u64, &AtomicBool) -> Option<T> + Send + Sync + 'static,
    {
        let (tx, rx) = mpsc::sync_channel::<T>(queue.max(1));
        let stop = Arc::new(AtomicBool::new(false));
        let panic = Arc::new(Mutex::new(None));
        let claim = Arc::new(AtomicU64::new(first));
        let turn = Arc::new((Mutex::new(Turn { next: first, ended: false }), Condvar::new()));
        let make = Arc::new(make);
        let threads = (0..threads.max(1))
            .map(|_| {
                let (tx, stop, panic, claim, turn, make) =
                    (tx.clone(), stop.clone(), panic.clone(), claim.clone(), turn.clone(), make.clone());
                std::thread::spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = claim.fetch_add(1, Ordering::Relaxed);
                    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| make(k, &stop)));
                    let item = match made {
                        Ok(item) => item,
                        Err(p) => {
                            let mut slot = panic.lock().unwrap_or_else(|e| e.into_inner());
                            slot.get_or_insert_with(|| super::panic_message(p.as_ref()));
                            None
                        }
                    };
                    let (lock, cv) = &*turn;
                    let mut t = lock.lock().unwrap_or_else(|e| e.into_inner());
                    while t.next != k && !t.ended {
                        t = cv.wait(t).unwrap_or_else(|e| e.into_inner());
                    }
                    // Sending under the lock keeps the order; the receiver never takes this lock.
                    let sent = !t.ended && item.is_some_and(|item| tx.send(item).is_ok());
                    t.ended |= !sent;
                    t.next = k + 1;
                    let ended = t.ended;
                    drop(t);
                    cv.notify_all();
                    if ended {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                })
            })
            .collect();
        Ahead { rx: Some(rx), stop, finished: Arc::new(AtomicBool::new(false)), threads, panic }
    }

    /// The next item in index order; `None` once the sequence has ended.
    pub fn recv(&self) -> Option<T> {
        self.rx.as_ref()?.recv().ok()
    }

    /// [`Ahead::recv`], waiting no later than `deadline` (`None`: as long as it takes):
    /// `Err(TimeUp)` when the deadline passes first (the item stays unreceived; [`Ahead::finish`]
    /// then abandons it).
    pub fn recv_until(&self, deadline: Option<std::time::Instant>) -> Result<Option<T>, TimeUp> {
        let Some(rx) = self.rx.as_ref() else { return Ok(None) };
        let Some(deadline) = deadline else { return Ok(rx.recv().ok()) };
        match rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
            Ok(item) => Ok(Some(item)),
            Err(mpsc::RecvTimeoutError::Disconnected) => Ok(None),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(TimeUp),
        }
    }

    /// The items of this sequence passed through `step` on one more thread, in order: the
    /// sequence of `step`'s results, made while the receiver handles the one before (the
    /// campaign runs batch `k + 1` on the backends while its main thread triages batch `k`).
    /// `step` is given each item and how long the thread waited for it. One result may wait
    /// for the receiver, so at most two more items are in flight than before. A panic in
    /// `step` ends the sequence like one in `make`; [`Ahead::finish`] stops every thread of
    /// both stages (`step` finishes the item it has).
    pub fn then<U: Send + 'static>(mut self, mut step: impl FnMut(T, Duration) -> U + Send + 'static) -> Ahead<U> {
        let (tx, rx) = mpsc::sync_channel::<U>(1);
        let (stop, finished, panic) = (self.stop.clone(), self.finished.clone(), self.panic.clone());
        let upstream = self.rx.take();
        let mut threads = std::mem::take(&mut self.threads);
        let (stop2, finished2, panic2) = (stop.clone(), finished.clone(), panic.clone());
        threads.push(std::thread::spawn(move || {
            let Some(upstream) = upstream else { return };
            loop {
                let waiting = Instant::now();
                // Ends once every preparing thread has stopped (their senders dropped).
                let Ok(item) = upstream.recv() else { return };
                if finished2.load(Ordering::Relaxed) {
                    return;
                }
                let waited = waiting.elapsed();
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| step(item, waited))) {
                    Ok(made) => {
                        if tx.send(made).is_err() {
                            return stop2.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(p) => {
                        let mut slot = panic2.lock().unwrap_or_else(|e| e.into_inner());
                        slot.get_or_insert_with(|| super::panic_message(p.as_ref()));
                        return stop2.store(true, Ordering::Relaxed);
                    }
                }
            }
        }));
        Ahead { rx: Some(rx), stop, finished, threads, panic }
    }

    /// Stops the threads, waits for them, and gives the message of a panic in `make`, if any.
    pub fn finish(mut self) -> Result<(), String> {
        self.finished.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
        // Dropping the receiver wakes a thread blocked on a full queue.
        self.rx = None;
        for t in self.threads.drain(..) {
            if let Err(p) = t.join() {
                return Err(super::panic_message(p.as_ref()));
            }
        }
        match self.panic.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(m) => Err(m),
            None => Ok(()),
        }
    }
}

impl<T> Drop for Ahead<T> {
    /// Stops the threads, unless the receiver has moved on to a later stage ([`Ahead::then`]).
    fn drop(&mut self) {
        if self.rx.take().is_some() {
            self.finished.store(true, Ordering::Relaxed);
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_arrive_in_order_however_long_each_takes() {
        // Item k takes longer the smaller k is: later items finish first.
        let a = Ahead::start(5, 4, 2, |k, _| {
            std::thread::sleep(Duration::from_millis(40u64.saturating_sub(k * 2)));
            (k < 20).then_some(k * 10)
        });
        let got: Vec<u64> = std::iter::from_fn(|| a.recv()).collect();
        assert_eq!(got, (5..20).map(|k| k * 10).collect::<Vec<_>>());
        assert!(a.finish().is_ok());
    }

    #[test]
    fn a_panic_ends_the_sequence_and_is_reported() {
        let a = Ahead::start(0, 3, 1, |k, _| {
            assert!(k != 4, "batch {k} exploded");
            Some(k)
        });
        let got: Vec<u64> = std::iter::from_fn(|| a.recv()).collect();
        assert_eq!(got, vec![0, 1, 2, 3]);
        assert_eq!(a.finish().unwrap_err(), "batch 4 exploded");
    }

    #[test]
    fn recv_until_gives_up_at_the_deadline_and_finish_stops_a_slow_item() {
        let a = Ahead::start(0, 1, 1, |k, stop| {
            // Item 1 takes "forever" unless stopped.
            while k == 1 && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            Some(k)
        });
        let far = std::time::Instant::now() + Duration::from_secs(60);
        assert_eq!(a.recv_until(Some(far)), Ok(Some(0)));
        let soon = std::time::Instant::now() + Duration::from_millis(50);
        assert_eq!(a.recv_until(Some(soon)), Err(TimeUp));
        assert!(a.finish().is_ok());
    }

    #[test]
    fn a_later_stage_keeps_the_order_and_works_beside_the_receiver() {
        let started = Arc::new(AtomicU64::new(0));
        let s = started.clone();
        let a = Ahead::start(0, 3, 1, |k, _| (k < 12).then_some(k)).then(move |k, _| {
            s.fetch_add(1, Ordering::Relaxed);
            k * 3
        });
        let mut got = Vec::new();
        while let Some(x) = a.recv() {
            if x == 0 {
                // While the receiver still holds item 0, the step goes on with item 1.
                let t = std::time::Instant::now();
                while started.load(Ordering::Relaxed) < 2 && t.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                assert!(started.load(Ordering::Relaxed) >= 2, "the step waited for the receiver");
            }
            got.push(x);
        }
        assert_eq!(got, (0..12).map(|k| k * 3).collect::<Vec<_>>());
        assert_eq!(started.load(Ordering::Relaxed), 12);
        assert!(a.finish().is_ok());
    }

    #[test]
    fn a_panic_in_a_later_stage_ends_the_sequence_and_finish_stops_both_stages() {
        let made = Arc::new(AtomicU64::new(0));
        let m = made.clone();
        let a = Ahead::start(0, 2, 1, move |k, _| {
            m.fetch_add(1, Ordering::Relaxed);
            Some(k)
        })
        .then(|k, _| {
            assert!(k != 3, "step {k} exploded");
            k
        });
        let got: Vec<u64> = std::iter::from_fn(|| a.recv()).collect();
        assert_eq!(got, vec![0, 1, 2]);
        assert_eq!(a.finish().unwrap_err(), "step 3 exploded");
        let after = made.load(Ordering::Relaxed);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(made.load(Ordering::Relaxed), after, "the preparing threads stopped");
    }

    #[test]
    fn finish_stops_a_later_stage_waiting_on_a_slow_item() {
        let a = Ahead::start(0, 1, 1, |k, stop| {
            while k == 1 && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            Some(k)
        })
        .then(|k, _| k + 100);
        assert_eq!(a.recv(), Some(100));
        let soon = std::time::Instant::now() + Duration::from_millis(50);
        assert_eq!(a.recv_until(Some(soon)), Err(TimeUp));
        assert!(a.finish().is_ok());
    }

    #[test]
    fn claimed_items_stay_bounded_and_finish_stops_the_threads() {
        let made = Arc::new(AtomicU64::new(0));
        let m = made.clone();
        let a = Ahead::start(0, 3, 2, move |k, _| {
            m.fetch_add(1, Ordering::Relaxed);
            Some(k)
        });
        assert_eq!(a.recv(), Some(0));
        std::thread::sleep(Duration::from_millis(100));
        // One received, two queued, three held by the threads (each waiting for its turn or
        // blocked on the full queue).
        assert!(made.load(Ordering::Relaxed) <= 1 + 2 + 3, "{}", made.load(Ordering::Relaxed));
        assert!(a.finish().is_ok());
    }
}
