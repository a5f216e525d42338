//! [`Occupancy`]: the byte ranges a [`Protocol`](super::Protocol) tracks (the writes and reads
//! of pending operations, generic writes, completed bytes), counted and ordered by where they
//! start, so that asking whether a span overlaps one of them visits only ranges that start
//! near it instead of walking every range tracked (a CTA of 1,024 threads with a copy each in
//! flight made every access a walk of 1,024 ranges).
//!
//! Invariants: [`Occupancy::overlaps`] is exact under [`Span::overlaps`] in either direction
//! (which counts an empty span strictly inside a range as overlapping it); a range is removed
//! exactly as often as it was added; the longest range ever added to a region bounds how far
//! before a span a range that overlaps it can start.

use std::collections::BTreeMap;

use super::protocol::Span;

/// Counted ranges (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Occupancy {
    /// (region, start, length) → how many times added and not removed.
    ranges: BTreeMap<(usize, u64, u64), u32>,
    /// Per region, the longest range added since the last [`Occupancy::clear`].
    longest: BTreeMap<usize, u64>,
}

impl Occupancy {
    /// Tracks `s`.
    pub fn add(&mut self, s: &Span) {
        *self.ranges.entry((s.region, s.start, s.len)).or_default() += 1;
        let longest = self.longest.entry(s.region).or_default();
        *longest = (*longest).max(s.len);
    }

    /// Stops tracking `s` (added before; a span never added is ignored).
    pub fn remove(&mut self, s: &Span) {
        if let std::collections::btree_map::Entry::Occupied(mut e) = self.ranges.entry((s.region, s.start, s.len)) {
            *e.get_mut() -= 1;
            if *e.get() == 0 {
                e.remove();
            }
        }
    }

    /// Whether a tracked range shares a byte with `s` ([`Span::overlaps`], either way round).
    pub fn overlaps(&self, s: &Span) -> bool {
        let Some(&longest) = self.longest.get(&s.region) else {
            return false;
        };
        let from = (s.region, s.start.saturating_sub(longest), 0);
        let to = (s.region, s.start.saturating_add(s.len), u64::MAX);
        self.ranges.range(from..=to).any(|(&(region, start, len), _)| {
            let t = Span { region, start, len };
            t.overlaps(s) || s.overlaps(&t)
        })
    }

    /// Tracks nothing.
    pub fn clear(&mut self) {
        self.ranges.clear();
        self.longest.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(region: usize, start: u64, len: u64) -> Span {
        Span { region, start, len }
    }

    #[test]
    fn overlaps_answers_as_a_walk_over_every_range_would() {
        // Small spans in two regions, tracked in pairs: the answer for every query equals the
        // walk's.
        let mut all = Vec::new();
        for region in 0..2 {
            for start in (0..300).step_by(7) {
                for len in [0, 1, 5, 127, 128, 300] {
                    all.push(span(region, start, len));
                }
            }
        }
        for (i, a) in all.iter().enumerate() {
            let b = &all[(i * 31 + 7) % all.len()];
            let mut o = Occupancy::default();
            o.add(a);
            o.add(b);
            for q in &all {
                let walk = [a, b].iter().any(|t| t.overlaps(q) || q.overlaps(t));
                assert_eq!(o.overlaps(q), walk, "{a} and {b} tracked, {q} asked");
            }
        }
    }

    #[test]
    fn ranges_are_counted_and_removed_as_often_as_added() {
        let mut o = Occupancy::default();
        let (a, b) = (span(0, 0, 200), span(0, 100, 10));
        o.add(&a);
        o.add(&a);
        o.add(&b);
        o.remove(&a);
        assert!(o.overlaps(&span(0, 150, 1)), "a was added twice");
        o.remove(&a);
        assert!(o.overlaps(&span(0, 105, 1)), "b is still tracked");
        assert!(!o.overlaps(&span(0, 150, 10)), "a is gone");
        assert!(!o.overlaps(&span(1, 100, 10)), "another region");
        o.remove(&b);
        assert!(!o.overlaps(&span(0, 0, 1000)));
        o.add(&a);
        o.clear();
        assert!(!o.overlaps(&a));
    }
}
