//! The adaptive swarm: between batches, a campaign moves the generator's swarm keep weights
//! ([`generator::program::Config::swarm_weights`] for register programs,
//! [`generator::async_programs::AsyncConfig::swarm_weights`] for memory programs: either
//! generator's configuration is [`Weighted`]) toward the switches (families and knobs)
//! that were on in programs that produced *new* finding signatures, and away from those whose
//! programs only hit known or already-seen ones; at the end it reports which switches paid off.
//!
//! The rule, per program of a batch in program order ([`Swarm::finish_batch`]):
//! - a program with a new signature raises the weight `w` of every switch it had on by
//!   [`RAISE`]` · (1 − w)`;
//! - a program whose findings were all known or duplicates lowers it by [`LOWER`]` · w`;
//! - a program without findings changes nothing;
//!
//! then weights are clamped to `MIN_KEEP..=MAX_KEEP` of the generator, so no switch is ever
//! starved (the campaign keeps exploring). Switches never touched keep the generator's fair
//! coin.
//!
//! Invariants:
//! - Determinism: the weights batch `b` is generated with are those after batch `b − LAG`
//!   was applied ([`LAG`]; the campaign's first `LAG` batches use the configuration's own
//!   weights), so they depend only on the seed and the sequence of batch outcomes, never on
//!   how far ahead batches were prepared. The preparation thread waits
//!   ([`Shared::config_for`]) until that batch is applied; the campaign keeps its read-ahead
//!   below `LAG`, so the wait is rare and cannot deadlock.
//! - The whole state (statistics, weight history still needed) is serializable and part of
//!   the campaign state, so `--resume` continues with the same weights.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use generator::async_programs::AsyncConfig;
use generator::program::config::{MAX_KEEP, MIN_KEEP};
use generator::program::Config;
use serde::{Deserialize, Serialize};

/// Batches between an outcome and the generation it steers (see the module documentation).
pub const LAG: u64 = 32;

/// Share of its distance to 1 that a program with a new signature adds to the weight of each
/// switch it had on.
pub const RAISE: f64 = 0.2;

/// Share of its weight that a program with only known or duplicate findings takes from each
/// switch it had on.
pub const LOWER: f64 = 0.02;

/// What one program's findings were, for the adaptation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Only findings already in the store or duplicates of this campaign's.
    Duplicate,
    /// Only findings matching `corpus/known/` (or duplicates).
    Known,
    /// At least one new signature.
    New,
}

impl Outcome {
    /// Combines two findings of one program: a new signature wins, then known.
    pub fn merge(slot: &mut Option<Outcome>, o: Outcome) {
        *slot = Some(slot.map_or(o, |s| s.max(o)));
    }
}

/// Per-switch campaign statistics.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SwitchStats {
    /// Programs generated with the switch on.
    pub programs: u64,
    /// Of those, programs with a new signature.
    pub new: u64,
    /// Of those, programs with known findings only.
    pub known: u64,
    /// Of those, programs with duplicate findings only.
    pub duplicates: u64,
}

/// The adaptive swarm's state (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Swarm {
    /// Statistics per switch name.
    pub stats: BTreeMap<String, SwitchStats>,
    /// The current weights (switches absent: the generator's fair coin).
    pub weights: BTreeMap<String, f64>,
    /// The last batch applied (`None`: none yet).
    pub applied: Option<u64>,
    /// Weights after each applied batch still needed by a batch not generated yet.
    pub history: BTreeMap<u64, BTreeMap<String, f64>>,
}

impl Swarm {
    /// A new swarm for a campaign whose next batch is `next` (a resumed campaign that did not
    /// adapt so far: its batches before `next` count as applied, with no weights).
    pub fn starting_at(next: u64) -> Swarm {
        Swarm { applied: next.checked_sub(1), ..Swarm::default() }
    }

    /// Applies batch `b`'s outcomes: `switches[k]` are the switches program `k` had on and
    /// `outcomes[k]` what its findings were (`None`: no finding). Batches must come in order.
    pub fn finish_batch(&mut self, b: u64, switches: &[Vec<&'static str>], outcomes: &[Option<Outcome>]) {
        for (on, outcome) in switches.iter().zip(outcomes) {
            for name in on {
                let s = self.stats.entry((*name).to_string()).or_default();
                s.programs = s.programs.saturating_add(1);
                if outcome.is_none() {
                    continue;
                }
                let w = self.weights.entry((*name).to_string()).or_insert(0.5);
                match outcome {
                    Some(Outcome::New) => {
                        s.new = s.new.saturating_add(1);
                        *w += RAISE * (1.0 - *w);
                    }
                    Some(Outcome::Known) => {
                        s.known = s.known.saturating_add(1);
                        *w -= LOWER * *w;
                    }
                    Some(Outcome::Duplicate) => {
                        s.duplicates = s.duplicates.saturating_add(1);
                        *w -= LOWER * *w;
                    }
                    None => {}
                }
                *w = w.clamp(MIN_KEEP, MAX_KEEP);
            }
        }
        self.applied = Some(b);
        self.history.insert(b, self.weights.clone());
    }

    /// The weights batch `b` is generated with, once batch `b − LAG` is applied; `None` while
    /// it is not. The campaign's first [`LAG`] batches have none (the configuration's own).
    pub fn weights_for(&self, b: u64) -> Option<BTreeMap<String, f64>> {
        let Some(from) = b.checked_sub(LAG) else { return Some(BTreeMap::new()) };
        if self.applied.is_none_or(|a| a < from) {
            return None;
        }
        self.history.range(..=from).next_back().map(|(_, w)| w.clone()).or(Some(BTreeMap::new()))
    }

    /// Drops history no batch at or after `next` needs (keeping the entry it starts from).
    pub fn prune(&mut self, next: u64) {
        let keep_from = next.saturating_sub(LAG);
        let Some(&base) = self.history.range(..keep_from).next_back().map(|(k, _)| k) else { return };
        self.history = self.history.split_off(&base);
    }

    /// The report of which switches paid off: per switch, programs with it on, programs with
    /// new signatures, known and duplicate hits, and the final weight; best payers first.
    pub fn report(&self) -> String {
        let mut rows: Vec<(&String, &SwitchStats)> = self.stats.iter().collect();
        rows.sort_by(|a, b| b.1.new.cmp(&a.1.new).then(a.1.known.cmp(&b.1.known)).then(a.0.cmp(b.0)));
        let mut out = format!(
            "{:<22} {:>10} {:>6} {:>8} {:>10} {:>7}\n",
            "switch", "programs", "new", "known", "duplicate", "weight"
        );
        for (name, s) in rows {
            let w = self.weights.get(name).copied().unwrap_or(0.5);
            out.push_str(&format!(
                "{name:<22} {:>10} {:>6} {:>8} {:>10} {w:>7.3}\n",
                s.programs, s.new, s.known, s.duplicates
            ));
        }
        out
    }
}

/// A generator configuration the swarm steers: its switches' keep weights can be set.
pub trait Weighted: Clone {
    /// Sets the keep weights of the switches `w` names (the others keep theirs).
    fn add_weights(&mut self, w: BTreeMap<String, f64>);
}

impl Weighted for Config {
    fn add_weights(&mut self, w: BTreeMap<String, f64>) {
        self.swarm_weights.extend(w);
    }
}

impl Weighted for AsyncConfig {
    fn add_weights(&mut self, w: BTreeMap<String, f64>) {
        self.swarm_weights.extend(w);
    }
}

/// The swarm shared between the campaign (which applies outcomes) and the preparation thread
/// (which generates with the weights).
pub struct Shared {
    swarm: Mutex<Swarm>,
    applied: Condvar,
}

impl Shared {
    /// Shares `swarm` (a new one, or one restored from the campaign state).
    pub fn new(swarm: Swarm) -> Shared {
        Shared { swarm: Mutex::new(swarm), applied: Condvar::new() }
    }

    /// Applies batch `b`'s outcomes ([`Swarm::finish_batch`]) and wakes the preparation
    /// thread.
    pub fn finish_batch(&self, b: u64, switches: &[Vec<&'static str>], outcomes: &[Option<Outcome>]) {
        let mut s = self.swarm.lock().unwrap_or_else(|e| e.into_inner());
        s.finish_batch(b, switches, outcomes);
        self.applied.notify_all();
    }

    /// `base` with the weights of batch `b`, waiting until they are known; `None` when `stop`
    /// says the campaign is over first.
    pub fn config_for<C: Weighted>(&self, base: &C, b: u64, stop: &std::sync::atomic::AtomicBool) -> Option<C> {
        let mut s = self.swarm.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(w) = s.weights_for(b) {
                let mut c = base.clone();
                c.add_weights(w);
                return Some(c);
            }
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            s = self.applied.wait_timeout(s, Duration::from_millis(50)).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// A copy of the state with the history pruned to what batches from `next` need.
    pub fn snapshot(&self, next: u64) -> Swarm {
        let mut s = self.swarm.lock().unwrap_or_else(|e| e.into_inner()).clone();
        s.prune(next);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(outcomes: &[(u64, Vec<&'static str>, Option<Outcome>)]) -> Swarm {
        let mut s = Swarm::default();
        for (b, on, o) in outcomes {
            s.finish_batch(*b, std::slice::from_ref(on), &[*o]);
        }
        s
    }

    #[test]
    fn new_signatures_raise_and_known_hits_lower_never_to_zero() {
        let mut seq = vec![(0, vec!["fold_masks", "cvt"], Some(Outcome::New))];
        for b in 1..2000 {
            seq.push((b, vec!["cvt", "prmt"], Some(Outcome::Known)));
        }
        let s = run(&seq);
        // One new signature: fold_masks up from the fair coin, and it stays there.
        assert!((s.weights["fold_masks"] - (0.5 + RAISE * 0.5)).abs() < 1e-12);
        // Thousands of known hits: prmt and cvt down to the floor, never below it.
        assert_eq!(s.weights["prmt"], MIN_KEEP);
        assert_eq!(s.weights["cvt"], MIN_KEEP);
        assert_eq!(s.stats["cvt"], SwitchStats { programs: 2000, new: 1, known: 1999, duplicates: 0 });
        // Many new signatures: up to the ceiling, never to 1.
        let s = run(&(0..100).map(|b| (b, vec!["shfl"], Some(Outcome::New))).collect::<Vec<_>>());
        assert_eq!(s.weights["shfl"], MAX_KEEP);
        // Programs without findings move nothing.
        let s = run(&[(0, vec!["mov"], None)]);
        assert_eq!(s.weights.get("mov").copied().unwrap_or(0.5), 0.5);
        assert_eq!(s.stats["mov"].programs, 1);
    }

    #[test]
    fn a_new_signature_outweighs_known_ones_in_the_same_program() {
        let mut slot = None;
        Outcome::merge(&mut slot, Outcome::Known);
        Outcome::merge(&mut slot, Outcome::New);
        Outcome::merge(&mut slot, Outcome::Duplicate);
        assert_eq!(slot, Some(Outcome::New));
    }

    #[test]
    fn weights_come_lag_batches_late_and_survive_a_round_trip() {
        let shared = Shared::new(Swarm::default());
        let stop = std::sync::atomic::AtomicBool::new(false);
        let base = Config::default();
        for b in 0..LAG {
            // Not steered yet.
            assert!(shared.config_for(&base, b, &stop).unwrap().swarm_weights.is_empty());
        }
        shared.finish_batch(0, &[vec!["folds"]], &[Some(Outcome::New)]);
        let steered = shared.config_for(&base, LAG, &stop).unwrap();
        assert!(steered.swarm_weights["folds"] > 0.5);
        // Batch LAG + 1 needs batch 1's outcomes: with `stop` set it gives up instead of waiting.
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(shared.config_for(&base, LAG + 1, &stop).is_none());
        // A resumed session continues with the same weights.
        let saved = serde_json::to_string(&shared.snapshot(1)).unwrap();
        let back: Swarm = serde_json::from_str(&saved).unwrap();
        let resumed = Shared::new(back);
        stop.store(false, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(resumed.config_for(&base, LAG, &stop).unwrap(), steered);
        // A campaign that starts adapting late (resumed without a swarm) does not wait for
        // outcomes it will never see.
        assert_eq!(Swarm::starting_at(100).weights_for(99 + LAG), Some(BTreeMap::new()));
        assert_eq!(Swarm::starting_at(0).weights_for(LAG), None);
    }
}
