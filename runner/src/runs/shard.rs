//! `--shard i/N`: a disjoint, deterministic split of a run into `N` parts that together cover
//! it. Item `k` (0-based, in the run's own order) belongs to shard `k mod N + 1`, so the shards
//! of one run are disjoint, their union is the whole run, and consecutive items (conform forms
//! of similar cost, fuzz batches) are dealt round-robin so that the shards' costs balance.
//!
//! Invariant: `1 ≤ index ≤ count`; [`Shard::from_str`] refuses anything else and names the
//! value it got.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One part `index` (1-based) of `count`. Read back from a run record through the same checks
/// as `--shard` (a hand-edited record cannot hold `0/3` or a billion shards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ShardFields")]
pub struct Shard {
    /// Which part, 1-based.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: u32 = 4096;

/// A [`Shard`] as stored, before its checks.
#[derive(Deserialize)]
struct ShardFields {
    index: u32,
    count: u32,
}

impl TryFrom<ShardFields> for Shard {
    type Error = ShardError;

    fn try_from(f: ShardFields) -> Result<Shard, ShardError> {
        format!("{}/{}", f.index, f.count).parse()
    }
}

/// Why a `--shard` value was refused.
#[derive(Debug, thiserror::Error)]
#[error("--shard `{value}`: {why} (expected i/N with 1 ≤ i ≤ N, e.g. 1/3)")]
pub struct ShardError {
    /// The value given.
    pub value: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl Shard {
    /// Whether item `k` (0-based, in the run's order) is in this shard.
    pub fn contains(&self, k: u64) -> bool {
        k % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// The items of `all` in this shard, in their order.
    pub fn select<T>(&self, all: Vec<T>) -> Vec<T> {
        all.into_iter().enumerate().filter(|(k, _)| self.contains(*k as u64)).map(|(_, x)| x).collect()
    }

    /// The run-wide index of this shard's `local`-th item (0-based): its items are
    /// `index - 1`, `index - 1 + count`, …
    pub fn global(&self, local: u64) -> u64 {
        local.saturating_mul(u64::from(self.count)).saturating_add(u64::from(self.index - 1))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let err = |why| ShardError { value: s.to_string(), why };
        let (i, n) = s.trim().split_once('/').ok_or_else(|| err("no `/`"))?;
        let index: u32 = i.trim().parse().map_err(|_| err("i is not a whole number"))?;
        let count: u32 = n.trim().parse().map_err(|_| err("N is not a whole number"))?;
        if count == 0 {
            return Err(err("N must be at least 1"));
        }
        if count > MAX_SHARDS {
            return Err(err("N must be at most 4096"));
        }
        if index == 0 || index > count {
            return Err(err("i must lie between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_disjoint_and_cover() {
        for n in 1..=5u32 {
            let shards: Vec<Shard> = (1..=n).map(|i| format!("{i}/{n}").parse().unwrap()).collect();
            let all: Vec<u32> = (0..23).collect();
            let mut seen: Vec<u32> = shards.iter().flat_map(|s| s.select(all.clone())).collect();
            seen.sort_unstable();
            assert_eq!(seen, all, "{n} shards cover every item exactly once");
            for s in &shards {
                for local in 0..10 {
                    assert!(s.contains(s.global(local)), "{s}: local {local}");
                }
            }
        }
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s.select((0..7).collect()), [1, 4]);
        assert_eq!(s.to_string(), "2/3");
    }

    #[test]
    fn stored_shards_are_checked_like_given_ones() {
        let ok: Shard = serde_json::from_str(r#"{"index": 2, "count": 3}"#).unwrap();
        assert_eq!(ok, Shard { index: 2, count: 3 });
        for bad in
            [r#"{"index": 0, "count": 3}"#, r#"{"index": 4, "count": 3}"#, r#"{"index": 1, "count": 4294967295}"#]
        {
            assert!(serde_json::from_str::<Shard>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_values_name_themselves() {
        for bad in ["0/3", "4/3", "a/b", "3", "1/0", "-1/3", "1/3/4", ""] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains(&format!("`{bad}`")), "{bad}: {e}");
        }
    }
}
