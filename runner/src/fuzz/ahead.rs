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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Items made ahead by preparing threads, received in index order.
pub struct Ahead<T> {
    rx: Option<Receiver<T>>,
    stop: Arc<AtomicBool>,
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
        Ahead { rx: Some(rx), stop, threads, panic }
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

    /// Stops the threads, waits for them, and gives the message of a panic in `make`, if any.
    pub fn finish(mut self) -> Result<(), String> {
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
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.rx = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
