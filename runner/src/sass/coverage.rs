//! SASS coverage (issue 29 item 4): what ptxas emitted for a kernel, as a set of opcode
//! n-grams. ptxas is closed source, but its output is not: a program whose -O3 kernel holds an
//! n-gram no earlier kernel of the campaign held made the compiler do something new.
//!
//! An n-gram is one instruction's mnemonic with its modifiers (`F2FP.BF16.F32.PACK_AB`; the
//! guard and the operands left out), or two or three adjacent ones in listing (address) order,
//! joined by a space (`LDG.E.64 STS.64`). Only kernels (`.entry`) count, like the check
//! ([`super::check_functions`]). [`Coverage`] is a campaign's running total: the n-grams seen so
//! far and a short curve of (programs, n-grams) points, at most [`CURVE_POINTS`] long.
//!
//! The set itself grows large (about 130,000 n-grams after 4,096 generated programs: the
//! triples of a varied generator are nearly all distinct), so it is not part of the campaign
//! state that is rewritten after every batch: each batch's new n-grams are appended to
//! [`NGRAMS_FILE`] (`BATCH<TAB>NGRAM` lines) before that state is written, and a resumed
//! campaign keeps the lines of the batches its state counts ([`Coverage::load_ngrams`]).
//! In memory the campaign keeps a 64-bit hash of each n-gram ([`Coverage::seen`]), about a fifth
//! of the memory of the strings; the hashes are never stored, only rebuilt from the file's text,
//! so they need not be stable across builds. Two n-grams with one hash (odds about 3·10^-8 at
//! a million n-grams) would count the second as seen.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::parse::Function;

/// The longest n-gram: unigrams, adjacent pairs and triples.
pub const MAX_N: usize = 3;

/// The most points [`Coverage::curve`] keeps; when it would hold more, every second point is
/// dropped (the first and the latest always stay), so the curve spans the whole campaign.
pub const CURVE_POINTS: usize = 64;

/// The file next to `campaign.json` that holds the n-grams seen so far, one per line, each with
/// the batch that first saw it.
pub const NGRAMS_FILE: &str = "coverage-ngrams.tsv";

/// The n-grams of one function's instructions (see the module header).
pub fn ngrams(f: &Function) -> BTreeSet<String> {
    let ops: Vec<&str> = f.instrs.iter().map(|i| i.mnemonic.as_str()).collect();
    let mut out = BTreeSet::new();
    for n in 1..=MAX_N {
        for w in ops.windows(n) {
            out.insert(w.join(" "));
        }
    }
    out
}

/// The n-grams of every kernel of a parsed listing, by kernel name.
pub fn kernels(functions: &[Function]) -> BTreeMap<String, BTreeSet<String>> {
    functions.iter().filter(|f| f.entry).map(|f| (f.name.clone(), ngrams(f))).collect()
}

/// The in-memory key of an n-gram: its 64-bit hash (this build's; never stored).
fn key(gram: &str) -> u64 {
    let mut h = DefaultHasher::new();
    gram.hash(&mut h);
    h.finish()
}

/// One point of the coverage curve: the n-grams seen after so many programs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    /// Programs run so far.
    pub programs: u64,
    /// Distinct n-grams seen so far.
    pub ngrams: u64,
}

/// A campaign's SASS coverage (kept in `campaign.json`, so `--resume` goes on from it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Coverage {
    /// Distinct n-grams seen so far.
    pub total: u64,
    /// Kernels whose n-grams were added.
    pub kernels: u64,
    /// Kernels that added at least one n-gram never seen before them.
    pub novel_kernels: u64,
    /// The growth: (programs, n-grams) after the batches that added n-grams, thinned to at most
    /// [`CURVE_POINTS`].
    pub curve: Vec<Point>,
    /// The hash ([`key`]) of every n-gram seen so far (`total` of them; the n-grams are kept in
    /// [`NGRAMS_FILE`], not in the state).
    #[serde(skip)]
    seen: HashSet<u64>,
    /// The n-grams added since the last [`Coverage::take_fresh`].
    #[serde(skip)]
    fresh: Vec<String>,
}

impl Coverage {
    /// Adds one kernel's n-grams; how many were new.
    pub fn add_kernel(&mut self, grams: &BTreeSet<String>) -> usize {
        self.add_kernel_by_length(grams).iter().sum()
    }

    /// Adds one kernel's n-grams; how many were new of each length (unigrams, pairs, triples).
    pub fn add_kernel_by_length(&mut self, grams: &BTreeSet<String>) -> [usize; MAX_N] {
        let mut new = [0; MAX_N];
        for g in grams {
            if self.seen.insert(key(g)) {
                self.fresh.push(g.clone());
                new[(g.matches(' ').count()).min(MAX_N - 1)] += 1;
            }
        }
        self.total = self.seen.len() as u64;
        self.kernels = self.kernels.saturating_add(1);
        if new.iter().any(|&n| n > 0) {
            self.novel_kernels = self.novel_kernels.saturating_add(1);
        }
        new
    }

    /// Records the curve after a batch: a point when the total grew since the last point (or
    /// there is none yet), the latest point moved forward otherwise; then thins the curve to
    /// [`CURVE_POINTS`].
    pub fn point(&mut self, programs: u64) {
        let p = Point { programs, ngrams: self.total };
        let n = self.curve.len();
        // A plateau is two points, its start and its latest end; the end moves forward.
        if n >= 2 && self.curve[n - 1].ngrams == p.ngrams && self.curve[n - 2].ngrams == p.ngrams {
            self.curve[n - 1].programs = programs;
        } else {
            self.curve.push(p);
        }
        if self.curve.len() > CURVE_POINTS {
            let latest = *self.curve.last().expect("not empty");
            let mut kept: Vec<Point> = self.curve.iter().copied().step_by(2).collect();
            if kept.last() != Some(&latest) {
                kept.push(latest);
            }
            self.curve = kept;
        }
    }

    /// Nothing was covered yet (every field as in a new campaign).
    pub fn is_empty(&self) -> bool {
        *self == Coverage::default()
    }

    /// The counters by name (for range checks).
    pub fn fields(&self) -> [(&'static str, u64); 3] {
        [("total", self.total), ("kernels", self.kernels), ("novel_kernels", self.novel_kernels)]
    }

    /// Whether the stored counters agree with each other (a hand-edited file may not): no more
    /// novel kernels than kernels, a curve that never falls and ends at most at `total`.
    pub fn consistent(&self) -> bool {
        self.novel_kernels <= self.kernels
            && self.curve.windows(2).all(|w| w[0].programs <= w[1].programs && w[0].ngrams <= w[1].ngrams)
            && self.curve.last().is_none_or(|p| p.ngrams <= self.total)
    }

    /// Whether `gram` was seen (up to hash collisions, see the module header).
    pub fn seen(&self, gram: &str) -> bool {
        self.seen.contains(&key(gram))
    }

    /// The n-grams added since the last call, in the order they were first seen.
    pub fn take_fresh(&mut self) -> Vec<String> {
        std::mem::take(&mut self.fresh)
    }

    /// Appends `grams`, first seen in batch `batch`, to the [`NGRAMS_FILE`] of `dir`.
    pub fn append(dir: &Path, batch: u64, grams: &[String]) -> std::io::Result<()> {
        if grams.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        for g in grams {
            text.push_str(&format!("{batch}\t{g}\n"));
        }
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(dir.join(NGRAMS_FILE))?;
        f.write_all(text.as_bytes())
    }

    /// Reads the n-grams of the batches before `next_batch` from the [`NGRAMS_FILE`] of `dir`
    /// (a resumed campaign: later lines belong to batches it runs again and are dropped from
    /// the file), checking that they are the `total` the state counts.
    pub fn load_ngrams(&mut self, dir: &Path, next_batch: u64) -> Result<(), String> {
        let path = dir.join(NGRAMS_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let (mut kept, mut set) = (String::new(), HashSet::new());
        for (i, line) in text.lines().enumerate() {
            let bad = || format!("{}:{}: `{line}` is no `BATCH<TAB>NGRAM` line", path.display(), i + 1);
            let (b, g) = line.split_once('\t').ok_or_else(bad)?;
            let b: u64 = b.parse().map_err(|_| bad())?;
            if b < next_batch && set.insert(key(g)) {
                kept.push_str(line);
                kept.push('\n');
            }
        }
        if set.len() as u64 != self.total {
            return Err(format!(
                "{}: {} n-grams of the batches before {next_batch}, but campaign.json counts coverage.total = {}; the files do not belong together: restore them or start a new run directory",
                path.display(),
                set.len(),
                self.total
            ));
        }
        if kept.len() != text.len() {
            crate::atomic_write::write_atomic(&path, &kept).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        self.seen = set;
        self.fresh.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::super::parse::parse_listing;
    use super::*;

    #[test]
    fn a_kernels_ngrams_are_its_mnemonics_alone_in_pairs_and_in_triples() {
        let text = fixtures::kernel("k", fixtures::CREATEPOLICY_O3);
        let f = &parse_listing(&text).unwrap()[0];
        let g = ngrams(f);
        for want in
            ["IMAD.WIDE.U32", "LDG.E.64", "STS.64 NOP CCTL.IVALL", "CCTL.IVALL STG.E", "S2UR UMOV IMAD.WIDE.U32"]
        {
            assert!(g.contains(want), "{want}: {g:?}");
        }
        // Operands, non-adjacent mnemonics and quadruples are not n-grams.
        for not in ["LDC R1", "S2UR UMOV ULEA", "STG.E desc[UR6][R4.64], R2", "NOP CCTL.IVALL STG.E EXIT"] {
            assert!(!g.contains(not), "{not}: {g:?}");
        }
        // 18 instructions: 16 distinct mnemonics (LDC.64 and IMAD.WIDE.U32 twice), 17 distinct
        // pairs, 16 distinct triples.
        assert_eq!(f.instrs.len(), 18);
        assert_eq!(g.len(), 16 + 17 + 16);
    }

    #[test]
    fn guards_and_operands_are_stripped_and_device_functions_left_out() {
        let k = fixtures::kernel("k", "/*0000*/ @!P0 IADD3 R1, R2, R3, RZ ;\n/*0010*/ @P1 EXIT ;\n/*0020*/ EXIT ;\n");
        let device =
            ".section .text.f,\"ax\",@progbits\nf:\n/*0000*/ FADD R2, R4, R5 ;\n/*0010*/ RET.REL.NODEC R20 `(f) ;\n";
        let by = kernels(&parse_listing(&format!("{k}{device}")).unwrap());
        assert_eq!(by.keys().collect::<Vec<_>>(), ["k"]);
        let got: Vec<&str> = by["k"].iter().map(String::as_str).collect();
        assert_eq!(got, ["EXIT", "EXIT EXIT", "IADD3", "IADD3 EXIT", "IADD3 EXIT EXIT"]);
    }

    #[test]
    fn coverage_counts_new_ngrams_and_kernels_that_added_some() {
        let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
        let mut c = Coverage::default();
        assert_eq!(c.add_kernel(&set(&["A", "B", "A B"])), 3);
        assert_eq!(c.add_kernel(&set(&["A", "B"])), 0);
        assert_eq!(c.add_kernel_by_length(&set(&["A", "C", "A C", "X Y Z", "A B"])), [1, 1, 1]);
        assert_eq!((c.total, c.kernels, c.novel_kernels), (6, 3, 2));
        assert_eq!(c.take_fresh(), ["A", "A B", "B", "A C", "C", "X Y Z"]);
        assert!(c.take_fresh().is_empty());
        assert!(c.consistent());
        c.novel_kernels = 4;
        assert!(!c.consistent());
    }

    #[test]
    fn the_ngrams_file_keeps_the_batches_the_state_counts() {
        let dir = tempfile::tempdir().unwrap();
        Coverage::append(dir.path(), 0, &["A".into(), "A B".into()]).unwrap();
        Coverage::append(dir.path(), 1, &["C".into()]).unwrap();
        Coverage::append(dir.path(), 2, &["D".into()]).unwrap();
        // The state was written after batch 1: batch 2 runs again, its line goes.
        let mut c = Coverage { total: 3, ..Coverage::default() };
        c.load_ngrams(dir.path(), 2).unwrap();
        assert!(["A", "A B", "C"].iter().all(|g| c.seen(g)) && !c.seen("D"));
        assert_eq!(c.add_kernel(&BTreeSet::from(["C".to_string(), "D".to_string()])), 1);
        let text = std::fs::read_to_string(dir.path().join(NGRAMS_FILE)).unwrap();
        assert_eq!(text, "0\tA\n0\tA B\n1\tC\n");
        // A state that counts other n-grams than the file holds is refused, naming both.
        let e = Coverage { total: 4, ..Coverage::default() }.load_ngrams(dir.path(), 2).unwrap_err();
        assert!(e.contains(NGRAMS_FILE) && e.contains("3 n-grams") && e.contains("coverage.total = 4"), "{e}");
        std::fs::write(dir.path().join(NGRAMS_FILE), "zero\tA\n").unwrap();
        let e = Coverage::default().load_ngrams(dir.path(), 2).unwrap_err();
        assert!(e.contains(":1: `zero\tA`"), "{e}");
        // No file: a campaign that never had coverage.
        assert!(Coverage::default().load_ngrams(&dir.path().join("none"), 5).is_ok());
    }

    #[test]
    fn the_curve_keeps_growth_points_and_stays_short() {
        let mut c = Coverage::default();
        let mut programs = 0;
        for b in 0..1000u64 {
            programs += 256;
            if b % 3 == 0 {
                c.add_kernel(&BTreeSet::from([format!("OP{b}")]));
            }
            c.point(programs);
            assert!(c.curve.len() <= CURVE_POINTS, "batch {b}");
            assert!(c.consistent(), "batch {b}: {:?}", c.curve);
        }
        assert_eq!(c.curve.first(), Some(&Point { programs: 256, ngrams: 1 }));
        assert_eq!(c.curve.last().map(|p| p.ngrams), Some(c.total));
        // Without growth the latest point moves forward instead of adding points.
        let mut flat = Coverage::default();
        flat.add_kernel(&BTreeSet::from(["A".to_string()]));
        for p in 1..=10 {
            flat.point(p);
        }
        assert_eq!(flat.curve, [Point { programs: 1, ngrams: 1 }, Point { programs: 10, ngrams: 1 }]);
    }
}
