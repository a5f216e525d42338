//! The coverage corpus of a register-program campaign (issue 29 item 4): programs whose -O3
//! SASS showed the compiler doing something new, kept to be mutated
//! ([`generator::mutate`]) in a share of every later batch ([`super::Options::mutate_share`]).
//!
//! Which programs are kept. "Adds any new n-gram" keeps nearly every program: over 4,096
//! generated programs 4,089 kernels added a new opcode triple (about 6,000 new n-grams per
//! 256-program batch, nearly all triples, since a varied generator's triples are nearly all
//! distinct; docs/PERFORMANCE.md), and pairs do not saturate either (measured, seed 1, batches
//! 40–64 of 64 programs: a kernel adds 4 new pairs and 15 new triples at the median, 18 and 44
//! at the 98th percentile). Unigrams (an opcode with its modifiers) do: 56% of the kernels of
//! the first 8 batches added one, 3.2% of those of batches 40–64. So a program is kept when its
//! kernel adds
//! - a new unigram ([`Tier::Opcode`]): ptxas emitted an instruction it had not emitted in this
//!   campaign, and this program is the campaign's known way to reach it; or
//! - at least [`PAIRS`] new pairs or [`TRIPLES`] new triples ([`Tier::Schedule`]): a schedule
//!   far from everything before it (about the 98th percentile once the campaign is under way).
//!
//! The corpus holds at most [`CAPACITY`] programs. When a new one would pass that, the oldest
//! [`Tier::Schedule`] entry goes (they keep coming, so the newest stay); only when every entry
//! is [`Tier::Opcode`] does the oldest of those go. So the rare reaches are kept as long as
//! possible and the rest of the corpus follows the campaign.
//!
//! Determinism and resumption. What the corpus takes after batch `b` depends only on batch
//! `b`'s programs and the coverage before it, both deterministic per seed; the mutants of
//! batch `b` are drawn from the corpus as it was after batch `b − LAG` ([`super::adapt::LAG`],
//! the adaptive swarm's lag, which the read-ahead stays below): [`Shared::view_for`] waits
//! for that batch, so the view never depends on how far ahead batches were prepared. Each
//! batch's additions and evictions are appended to [`FILE`] (one JSON line each, with the
//! batch) before the campaign state that counts them is written, like the n-grams
//! ([`crate::sass::coverage::NGRAMS_FILE`]); a resumed campaign drops the lines of the batches
//! it runs again and rebuilds the corpus from the rest ([`Corpus::load`]), checked against the
//! state's counters. After a state is written the file is compacted ([`Corpus::compact`]):
//! entries evicted so long ago that no batch not yet run can see them lose their lines (the
//! file is read only when more than [`CAPACITY`] of them are there, not after every batch).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use oracle::program::{text, Inputs, Program};
use serde::{Deserialize, Serialize};

use super::adapt::LAG;
use crate::findings::Source;
use crate::sass::coverage::MAX_N;

/// The file next to `campaign.json` that holds the corpus's history (`{"batch": B, "add": …}`
/// and `{"batch": B, "evict": ID}` lines).
pub const FILE: &str = "corpus.jsonl";

/// Most programs in the corpus.
pub const CAPACITY: usize = 256;

/// New adjacent pairs that make a kernel worth keeping without a new unigram.
pub const PAIRS: usize = 24;

/// New triples that make a kernel worth keeping without a new unigram.
pub const TRIPLES: usize = 48;

/// The share of each batch spent on mutants when `--mutate-share` is not given: a quarter.
/// Measured without a GPU (docs/FUZZING.md), a mutant adds about a third of the new SASS
/// n-grams of a fresh program, so a quarter costs about 5% of the coverage growth, while
/// three quarters of every batch stay fresh; mutants are the near neighbours of the programs
/// that reached rare SASS, where a GPU campaign's `new_by_source` shows what they find.
pub const DEFAULT_SHARE: f64 = 0.25;

/// Why a program was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// It added an opcode with modifiers (a unigram).
    Opcode,
    /// It added at least [`PAIRS`] pairs or [`TRIPLES`] triples.
    Schedule,
}

/// Which tier, if any, a kernel that added `new[n − 1]` new n-grams of each length earns.
pub fn tier(new: [usize; MAX_N]) -> Option<Tier> {
    if new[0] > 0 {
        Some(Tier::Opcode)
    } else if new[1] >= PAIRS || new[2] >= TRIPLES {
        Some(Tier::Schedule)
    } else {
        None
    }
}

/// One corpus program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Sequence number over the campaign (unique; the eviction lines name it).
    pub id: u64,
    /// The program's name as generated (`p12_34`): what mutants name as their parent.
    pub name: String,
    /// The batch that added it.
    pub batch: u64,
    /// Why it was kept.
    pub tier: Tier,
    /// New n-grams it added: unigrams, pairs, triples.
    pub added: [usize; MAX_N],
    /// Where it came from.
    pub source: Source,
    /// The program and its inputs as a case file ([`text::case`]).
    pub case: String,
}

/// A kept program, parsed, and the batch that evicted it (if any).
#[derive(Clone, Debug)]
struct Held {
    entry: Arc<Entry>,
    parsed: Arc<(Program, Inputs)>,
    evicted: Option<u64>,
}

/// One line of [`FILE`].
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    batch: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    add: Option<Entry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    evict: Option<u64>,
}

/// What the corpus and the mutants did over a campaign (in `campaign.json`; a field missing
/// from a campaign saved by an older build reads as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CorpusCounts {
    /// Programs in the corpus now.
    pub size: u64,
    /// Programs ever added (the next entry's id).
    pub added: u64,
    /// Of those, added for a new unigram ([`Tier::Opcode`]).
    pub opcode: u64,
    /// Programs evicted.
    pub evicted: u64,
    /// Mutants run.
    pub mutants: u64,
    /// Mutants dropped (no valid edit within the draws; a fresh program took the place).
    pub dropped: u64,
    /// Edits made per kind ([`generator::mutate::Kind::name`]; a mutant stacks one or more).
    pub edits: BTreeMap<String, u64>,
    /// Mutants that the corpus kept in turn (they added coverage).
    pub kept_mutants: u64,
}

impl CorpusCounts {
    /// The counters by name (for range checks).
    pub fn fields(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = [
            ("size", self.size),
            ("added", self.added),
            ("opcode", self.opcode),
            ("evicted", self.evicted),
            ("mutants", self.mutants),
            ("dropped", self.dropped),
            ("kept_mutants", self.kept_mutants),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        v.extend(self.edits.iter().map(|(k, n)| (format!("edits.{k}"), *n)));
        v
    }

    /// Whether the counters agree with each other (a hand-edited file may not).
    pub fn consistent(&self) -> bool {
        self.size <= CAPACITY as u64
            && self.opcode <= self.added
            && self.evicted.checked_add(self.size) == Some(self.added)
            && self.kept_mutants <= self.added
            && self.edits.values().try_fold(0u64, |a, &n| a.checked_add(n)).is_some_and(|e| e >= self.mutants)
    }

    /// The summary line: `corpus: 211 programs (290 added, 37 of them for a new opcode, 79
    /// evicted); mutants: 1024 run (3 dropped, 12 kept in the corpus)`.
    pub fn line(&self) -> String {
        format!(
            "corpus: {} programs ({} added, {} of them for a new opcode, {} evicted); mutants: {} run ({} dropped, {} kept in the corpus)",
            self.size, self.added, self.opcode, self.evicted, self.mutants, self.dropped, self.kept_mutants
        )
    }
}

/// The corpus (see the module documentation): every entry a batch not yet generated may still
/// see, the last batch applied, the counters.
#[derive(Debug, Default)]
pub struct Corpus {
    held: Vec<Held>,
    applied: Option<u64>,
    /// The batch of every eviction whose lines [`FILE`] still holds (so that
    /// [`Corpus::compact`] reads the file only when it has something to drop).
    evictions_in_file: Vec<u64>,
    /// The counters (the campaign state's `corpus`).
    pub counts: CorpusCounts,
}

/// A program a batch offers to the corpus.
pub struct Offer<'a> {
    /// The program.
    pub program: &'a Program,
    /// Its inputs.
    pub inputs: &'a Inputs,
    /// Where it came from.
    pub source: &'a Source,
    /// The new n-grams its kernel added, by length.
    pub added: [usize; MAX_N],
}

impl Corpus {
    /// The corpus of a campaign whose next batch is `next` with the state's `counts`: empty for
    /// a new campaign; for a resumed one rebuilt from `dir`'s [`FILE`], whose lines of batches
    /// at or after `next` are dropped (from the file too), and checked against `counts`.
    pub fn load(dir: &Path, next: u64, counts: &CorpusCounts) -> Result<Corpus, String> {
        let mut c = Corpus { applied: next.checked_sub(1), counts: counts.clone(), ..Corpus::default() };
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut kept = String::new();
        for (i, l) in text.lines().enumerate() {
            let at = || format!("{}:{}", path.display(), i + 1);
            let line: Line = serde_json::from_str(l).map_err(|e| format!("{}: not a corpus line: {e}", at()))?;
            if line.batch >= next {
                continue;
            }
            kept.push_str(l);
            kept.push('\n');
            match (line.add, line.evict) {
                (Some(entry), None) => {
                    let parsed = text::parse_case(&entry.case)
                        .map_err(|e| format!("{}: corpus entry {} does not parse: {e}", at(), entry.id))?;
                    c.held.push(Held { entry: Arc::new(entry), parsed: Arc::new(parsed), evicted: None });
                }
                (None, Some(id)) => {
                    let h = c.held.iter_mut().find(|h| h.entry.id == id && h.evicted.is_none());
                    h.ok_or_else(|| format!("{}: evicts entry {id}, which is not in the corpus", at()))?.evicted =
                        Some(line.batch);
                    c.evictions_in_file.push(line.batch);
                }
                _ => return Err(format!("{}: a corpus line adds one entry or evicts one", at())),
            }
        }
        let live = c.live().count() as u64;
        if live != counts.size || c.held.iter().any(|h| h.entry.id >= counts.added) {
            return Err(format!(
                "{}: {live} programs in the batches before {next}, but campaign.json counts corpus.size = {} of corpus.added = {}; the files do not belong together: restore them or start a new run directory",
                path.display(),
                counts.size,
                counts.added
            ));
        }
        if kept.len() != text.len() {
            crate::atomic_write::write_atomic(&path, &kept).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(c)
    }

    fn live(&self) -> impl Iterator<Item = &Held> {
        self.held.iter().filter(|h| h.evicted.is_none())
    }

    /// The programs batch `b` mutates: the corpus after batch `b − LAG`, in id order; `None`
    /// while that batch is not applied; empty for the first [`LAG`] batches.
    pub fn view_for(&self, b: u64) -> Option<Vec<Parent>> {
        let Some(at) = b.checked_sub(LAG) else { return Some(Vec::new()) };
        if self.applied.is_none_or(|a| a < at) {
            return None;
        }
        Some(
            self.held
                .iter()
                .filter(|h| h.entry.batch <= at && h.evicted.is_none_or(|e| e > at))
                .map(|h| Parent { name: h.entry.name.clone(), parsed: h.parsed.clone() })
                .collect(),
        )
    }

    /// Applies batch `b` (batches in order): keeps each offer that earns a [`tier`], evicting
    /// past [`CAPACITY`], and returns the lines to append to [`FILE`]. `mutants`, `dropped` and
    /// `edits` are what the batch's mutation did.
    pub fn finish_batch(&mut self, b: u64, offers: &[Offer], dropped: u64, edits: &[Vec<&str>]) -> String {
        let mut out = String::new();
        let line = |l: &Line| serde_json::to_string(l).expect("a corpus line serializes") + "\n";
        for o in offers {
            let Some(tier) = tier(o.added) else { continue };
            let entry = Entry {
                id: self.counts.added,
                name: o.program.name.clone(),
                batch: b,
                tier,
                added: o.added,
                source: o.source.clone(),
                case: text::case(o.program, o.inputs),
            };
            out.push_str(&line(&Line { batch: b, add: Some(entry.clone()), evict: None }));
            let parsed = Arc::new((o.program.clone(), o.inputs.clone()));
            self.held.push(Held { entry: Arc::new(entry), parsed, evicted: None });
            self.counts.added += 1;
            self.counts.size += 1;
            self.counts.opcode += u64::from(tier == Tier::Opcode);
            self.counts.kept_mutants += u64::from(matches!(o.source, Source::Mutation { .. }));
            if self.counts.size > CAPACITY as u64 {
                let oldest = |t: Tier| self.held.iter().position(|h| h.evicted.is_none() && h.entry.tier == t);
                let k = oldest(Tier::Schedule).or_else(|| oldest(Tier::Opcode)).expect("a full corpus has entries");
                self.held[k].evicted = Some(b);
                self.evictions_in_file.push(b);
                self.counts.size -= 1;
                self.counts.evicted += 1;
                out.push_str(&line(&Line { batch: b, add: None, evict: Some(self.held[k].entry.id) }));
            }
        }
        self.counts.mutants += edits.len() as u64;
        self.counts.dropped += dropped;
        for e in edits.iter().flatten() {
            *self.counts.edits.entry((*e).to_string()).or_default() += 1;
        }
        self.applied = Some(b);
        // Entries evicted where no batch after `b` can see them (a view at `k > b` sees an
        // entry evicted at `e` only if `e > k − LAG`).
        let gone = (b + 1).saturating_sub(LAG);
        self.held.retain(|h| h.evicted.is_none_or(|e| e > gone));
        out
    }

    /// Appends `lines` ([`Corpus::finish_batch`]) to `dir`'s [`FILE`].
    pub fn append(dir: &Path, lines: &str) -> std::io::Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        std::fs::OpenOptions::new().create(true).append(true).open(dir.join(FILE))?.write_all(lines.as_bytes())
    }

    /// Rewrites `dir`'s [`FILE`] without the entries evicted at or before `next − LAG`, where a
    /// campaign state with `next_batch = next` was just written (a campaign resumed from it or a
    /// later one never sees them), once there are more than [`CAPACITY`] of them; the file is
    /// read only then.
    pub fn compact(&mut self, dir: &Path, next: u64) -> Result<(), String> {
        let horizon = next.saturating_sub(LAG);
        if self.evictions_in_file.iter().filter(|&&e| e <= horizon).count() <= CAPACITY {
            return Ok(());
        }
        let path = dir.join(FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let lines: Vec<(&str, Line)> = text
            .lines()
            .map(|l| serde_json::from_str(l).map(|x| (l, x)).map_err(|e| format!("{}: {e}", path.display())))
            .collect::<Result<_, _>>()?;
        let gone: std::collections::BTreeSet<u64> =
            lines.iter().filter(|(_, x)| x.batch <= horizon).filter_map(|(_, x)| x.evict).collect();
        let mut kept = String::new();
        for (l, x) in &lines {
            let id = x.evict.or(x.add.as_ref().map(|e| e.id));
            if id.is_none_or(|id| !gone.contains(&id)) {
                kept.push_str(l);
                kept.push('\n');
            }
        }
        crate::atomic_write::write_atomic(&path, &kept).map_err(|e| format!("{}: {e}", path.display()))?;
        self.evictions_in_file.retain(|&e| e > horizon);
        Ok(())
    }
}

/// A corpus program a batch may mutate.
#[derive(Clone, Debug)]
pub struct Parent {
    /// Its name as generated.
    pub name: String,
    /// The program and its inputs.
    pub parsed: Arc<(Program, Inputs)>,
}

/// The corpus shared between the campaign (which applies batches) and the preparing threads
/// (which mutate from it), as the adaptive swarm is ([`super::adapt::Shared`]).
pub struct Shared {
    corpus: Mutex<Corpus>,
    applied: Condvar,
}

impl Shared {
    /// Shares `corpus`.
    pub fn new(corpus: Corpus) -> Shared {
        Shared { corpus: Mutex::new(corpus), applied: Condvar::new() }
    }

    /// Runs `f` on the corpus and wakes the preparing threads (after a batch is applied).
    pub fn update<T>(&self, f: impl FnOnce(&mut Corpus) -> T) -> T {
        let out = f(&mut self.corpus.lock().unwrap_or_else(|p| p.into_inner()));
        self.applied.notify_all();
        out
    }

    /// The programs batch `b` mutates ([`Corpus::view_for`]), waiting until the batch it
    /// depends on is applied; `None` when `stop` is set meanwhile (the campaign is ending).
    pub fn view_for(&self, b: u64, stop: &std::sync::atomic::AtomicBool) -> Option<Vec<Parent>> {
        let mut c = self.corpus.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(v) = c.view_for(b) {
                return Some(v);
            }
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            c = self.applied.wait_timeout(c, Duration::from_millis(50)).unwrap_or_else(|p| p.into_inner()).0;
        }
    }
}

#[cfg(test)]
mod tests;
