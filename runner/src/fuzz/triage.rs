//! The campaign's triage of raw findings, of either kind of program ([`super::minimize::Case`]:
//! a register program's [`super::minimize::Job`], a memory program's
//! [`super::memory_case::MemCase`]; [`super::package`] finds and packages register findings):
//! minimization is its own stage ([`super::minimize`]), and the campaign hands triage the
//! results of the final run.
//!
//! The campaign triages cheaply before it minimizes: a raw finding of words the oracle
//! emulating known root causes gives (a register program's
//! [`super::package::Raw::explained`]) is known when an entry naming an emulation that fired
//! covers it ([`super::minimize::Case::known_by_emulation`]); otherwise it is packaged as it is
//! (unminimized, from the batch's own results) and, when that signature — its shape
//! especially — matches `corpus/known/`, counted as known and never minimized
//! ([`TriageCounts`] says how often each way out was taken). A minimized finding whose case,
//! reduced on past the minimized one, differs only in words an entry's emulations give is
//! known after all ([`super::minimize::AfterReduction`]), and so is one whose minimized kernel
//! stores every differing word from a never-written register whose unwritten-register finding
//! an entry names ([`super::minimize::stored_undefined`]).
//!
//! A crash no entry names by key is known when an entry's crash mechanism explains it
//! ([`super::known_crash`]: the SASS check of its kernel at the crashing backend's level, with
//! [`Triage::crash_check`]): checked before minimizing on the program as generated (then never
//! minimized) and again on the minimized case. One ptxas and nvdisasm run per level, for crashes
//! an entry's mechanism admits only (rare), on the triage thread, never in a batch.
//!
//! An optimizing ptxas's crash ("ptxas crash": it names no fault site) is known, before
//! minimizing, by the entry that knows it beside the same program's other crash in its batch
//! ([`KnownSet::crash_known_beside`]: the JIT's at the fault site an entry with
//! `ptxas_crash_beside` names); no tool runs.

use std::collections::BTreeMap;

use oracle::program::text::parse_case;
use oracle::program::Program;
use oracle::semantics::Allowances;

use super::adapt::Outcome as Worth;
use super::case::CaseKind;
use super::engine::StageTime;
use super::known_crash::{program_crash_known_by_sass, CrashCheck};
use super::minimize::{Case, Done, Minimizer};
use super::MINIMIZE_PER_KIND;
use crate::findings::{Finding, FindingClass, FindingStore, KnownSet, Recorded, StoreError};

/// What triage did with the raw findings of a campaign (cumulative over its sessions). A field
/// missing from a saved campaign (written by an older build) reads as 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TriageCounts {
    /// Raw findings seen (every disagreement, crash or rejection of a program).
    pub raw: u64,
    /// Of those, unwritten-register findings whose kernel stored their undefined bits (or a value
    /// derived from them) to wrong GPU words ([`super::package::Raw::undefined_words`]): those words are counted with the read,
    /// not as compiler findings of their own.
    pub stored_undefined: u64,
    /// Counted as known because the oracle emulating a known root cause gives every differing
    /// word ([`oracle::semantics::Deviation`]; the emulation of a `corpus/known/` entry): never
    /// minimized.
    pub known_by_emulation: u64,
    /// Counted as known from their unminimized signature (an entry's shape or form; no
    /// emulation): never minimized.
    pub known_before_minimization: u64,
    /// Of a kind (class, backends, how) already minimized often enough in the campaign:
    /// counted under the first finding of that kind, not minimized.
    pub repeated_kind: u64,
    /// Programs whose mutant family (the same root program, pre-signature and first differing
    /// word: [`super::minimize::Case::family_key`]) was triaged already: counted under the
    /// family's first finding (waiting for its verdict while it is minimized), not minimized.
    pub family_member: u64,
    /// Handed to the minimization threads.
    pub queued: u64,
    /// Minimized (the reducer ran on them).
    pub minimized: u64,
    /// Of those minimized, how many did not show the finding again when run alone (stored as
    /// generated; [`crate::findings::Finding::reproduced`]).
    pub not_reproduced: u64,
    /// Of those minimized, how many were counted known after all: reduced on past the minimized
    /// case, what was left differed only in words the emulations of a known entry give
    /// ([`super::minimize::AfterReduction`]), or the minimized kernel stored every word from a
    /// never-written register a known entry names ([`super::minimize::stored_undefined`]).
    pub known_after_reduction: u64,
    /// Of those not shown again, how many gave other words when run again alone
    /// ([`crate::findings::FindingClass::NonDeterministic`]): never a new compiler bug.
    pub non_deterministic: u64,
    /// Predicate calls the reductions made, counted as one candidate at a time would make them
    /// (the candidates a batch runs after an accepted one come on top).
    pub minimization_calls: u64,
    /// Predicate runs those candidates took (a run shows a batch of candidates to every
    /// backend at once: one module, one ptxas process per level).
    pub minimization_runs: u64,
    /// Candidates the validator refused before a predicate call (runs saved).
    pub minimization_refused: u64,
    /// Stored unminimized because the minimization queue was full.
    pub queue_full: u64,
    /// Stored unminimized because the campaign's time ran out before their turn.
    pub unminimized_at_end: u64,
    /// Stored unminimized because minimization is off (`--no-minimize`).
    pub minimization_off: u64,
    /// Counted as known because a known entry's crash mechanism explains the crash: the SASS
    /// check of its kernel at the crashing backend's level ([`super::known_crash`]), before
    /// minimizing (then never minimized) or on the minimized case.
    pub known_crash_by_sass: u64,
    /// Counted as known because an entry knows an optimizing ptxas's crash ("ptxas crash", no
    /// site) by the program's other crash in its batch (the JIT's at the entry's fault site,
    /// `ptxas_crash_beside`): never minimized.
    pub known_crash_beside: u64,
    /// The wall milliseconds of the longest minimization (a slow case holds up the cases
    /// queued behind it; `--minimize-time` bounds it), and the finding it gave.
    pub minimization_longest_ms: u64,
    /// The id of that finding.
    pub minimization_longest_id: String,
}

impl TriageCounts {
    /// Adds `other` to these counts (saturating).
    pub fn add(&mut self, other: &TriageCounts) {
        let pairs = [
            (&mut self.raw, other.raw),
            (&mut self.stored_undefined, other.stored_undefined),
            (&mut self.known_by_emulation, other.known_by_emulation),
            (&mut self.known_before_minimization, other.known_before_minimization),
            (&mut self.known_crash_by_sass, other.known_crash_by_sass),
            (&mut self.known_crash_beside, other.known_crash_beside),
            (&mut self.repeated_kind, other.repeated_kind),
            (&mut self.family_member, other.family_member),
            (&mut self.queued, other.queued),
            (&mut self.minimized, other.minimized),
            (&mut self.known_after_reduction, other.known_after_reduction),
            (&mut self.not_reproduced, other.not_reproduced),
            (&mut self.non_deterministic, other.non_deterministic),
            (&mut self.minimization_calls, other.minimization_calls),
            (&mut self.minimization_runs, other.minimization_runs),
            (&mut self.minimization_refused, other.minimization_refused),
            (&mut self.queue_full, other.queue_full),
            (&mut self.unminimized_at_end, other.unminimized_at_end),
            (&mut self.minimization_off, other.minimization_off),
        ];
        for (a, b) in pairs {
            *a = a.saturating_add(b);
        }
        if other.minimization_longest_ms > self.minimization_longest_ms {
            self.minimization_longest_ms = other.minimization_longest_ms;
            self.minimization_longest_id = other.minimization_longest_id.clone();
        }
    }

    /// What triage did, for a person: a line for the raw findings, then one short line per way
    /// out that was taken (`per_kind`: how many findings of a kind are minimized before the
    /// rest of that kind are only counted); one line when there was nothing to triage.
    pub fn report(&self, per_kind: u32) -> String {
        if self.raw == 0 {
            return "triage: no raw findings (no disagreement, crash or rejection)\n".into();
        }
        let mut out = format!("triage of {} raw findings (disagreements, crashes, rejections):\n", self.raw);
        // Each line: a count (blank for a remark on the line above) and its text.
        let mut lines: Vec<(Option<u64>, String)> = Vec::new();
        let mut line = |n: u64, text: String| {
            if n > 0 {
                lines.push((Some(n), text));
            }
        };
        line(self.known_by_emulation, "known: the emulated root cause gives every differing word".into());
        line(
            self.stored_undefined,
            "unwritten-register reads stored to wrong GPU words (counted with the read)".into(),
        );
        line(self.known_before_minimization, "known already as found (by shape): counted, not minimized".into());
        line(self.known_crash_by_sass, "crashes known by their kernel's SASS (a known crash mechanism)".into());
        line(self.known_crash_beside, "ptxas crashes known by the program's JIT crash at a known site".into());
        line(self.repeated_kind, format!("of a kind minimized {per_kind} times already: counted under it"));
        line(self.family_member, "mutants of a parent whose mutant showed it first: counted under that one".into());
        let redone = if self.not_reproduced > 0 {
            format!("; {} did not show again alone", self.not_reproduced)
        } else {
            String::new()
        };

        line(
            self.minimized,
            format!(
                "minimized ({} candidates in {} runs, {} invalid refused){redone}",
                self.minimization_calls, self.minimization_runs, self.minimization_refused
            ),
        );
        if self.minimized > 0 && self.minimization_longest_ms > 0 {
            lines.push((
                None,
                format!(
                    "the longest took {:.1} s ({})",
                    self.minimization_longest_ms as f64 / 1000.0,
                    self.minimization_longest_id
                ),
            ));
        }
        let mut line = |n: u64, text: String| {
            if n > 0 {
                lines.push((Some(n), text));
            }
        };
        line(self.non_deterministic, "of those, non-deterministic (other words when run again alone)".into());
        line(self.known_after_reduction, "of those, known after all: reduced on, an emulation gives every word".into());
        let reasons: Vec<String> = [
            (self.queue_full, "the minimizer was busy"),
            (self.unminimized_at_end, "the time ran out"),
            (self.minimization_off, "--no-minimize"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{n} as {why}"))
        .collect();
        let unminimized = self.queue_full + self.unminimized_at_end + self.minimization_off;
        line(unminimized, format!("stored unminimized ({})", reasons.join(", ")));
        for (n, text) in lines {
            match n {
                Some(n) => out.push_str(&format!("  {n:>6}  {text}\n")),
                None => out.push_str(&format!("          {text}\n")),
            }
        }
        out
    }
}

/// What triage remembers of one kind of raw finding (class, backends, how) across sessions:
/// how often it was seen and the finding later occurrences count under. A campaign's state
/// carries it ([`super::State::kinds`]), so that a resumed campaign de-duplicates as the
/// uninterrupted one would.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct KindState {
    /// Occurrences seen (saturating).
    pub seen: u32,
    /// The first finding recorded of this kind.
    pub first: Option<Finding>,
}

/// The campaign's triage of raw findings: cheap checks first, the minimization threads for the
/// rest, and the recording of everything in the store (see the module docs).
///
/// Invariant: a job handed to the minimizer is counted in [`Triage::pending`] until its
/// [`Done`] is recorded; occurrences of its kind seen meanwhile, and mutants of its family,
/// wait with it and are recorded as duplicates of the finding it becomes.
#[derive(Default)]
pub struct Triage {
    /// Per kind (pre-signature): occurrences over the campaign, the first finding recorded,
    /// and the occurrences waiting for that first finding.
    kinds: BTreeMap<String, (u32, Option<Finding>, u64)>,
    /// Per mutant family ([`super::minimize::Case::family_key`]) this session: the family's
    /// first finding once recorded, and the members waiting for it. Not carried into a resumed
    /// campaign's state (a resumed session starts its families afresh: at worst one more
    /// finding of a family is minimized).
    families: BTreeMap<String, (Option<Finding>, u64)>,
    /// Jobs with the minimizer, per batch.
    pending: BTreeMap<u64, u64>,
    /// What triage did this session.
    pub counts: TriageCounts,
    /// New findings recorded this session.
    pub new: u64,
    /// Duplicates recorded this session.
    pub duplicates: u64,
    /// Known occurrences recorded this session.
    pub known: u64,
    /// Wall and CPU time of the minimization threads' jobs (summed over the threads).
    pub minimization: StageTime,
    /// The tools that check a crash's kernel against the known crash mechanisms
    /// ([`super::engine::Engine::crash_check`]); `None`: crashes are matched by key only.
    pub crash_check: Option<CrashCheck>,
    /// Crash signatures (by key) a known entry's mechanism explained this session, and the
    /// entry: their further occurrences (a kind's copies, a repeated crash) are that entry's
    /// without another check.
    crash_entries: BTreeMap<String, String>,
}

impl Triage {
    /// Triage that goes on from the kinds a campaign's earlier sessions saw.
    pub fn resumed(kinds: &BTreeMap<String, KindState>) -> Triage {
        let kinds = kinds.iter().map(|(k, s)| (k.clone(), (s.seen, s.first.clone(), 0))).collect();
        Triage { kinds, ..Triage::default() }
    }

    /// The kinds seen so far, for the campaign's state; `None` while a minimization is pending
    /// (its finding, and the occurrences waiting for it, are not recorded yet).
    pub fn settled_kinds(&self) -> Option<BTreeMap<String, KindState>> {
        if !self.pending.is_empty() {
            return None;
        }
        Some(
            self.kinds
                .iter()
                .map(|(k, (seen, first, _))| (k.clone(), KindState { seen: *seen, first: first.clone() }))
                .collect(),
        )
    }

    /// `state` as a campaign writes it after a batch: the settled kinds, the store's
    /// checkpoint, this session's triage counts and `session_s` seconds added; `None` while a
    /// minimization is pending ([`Triage::settled_kinds`]), so that a written state counts
    /// exactly the batches before its `next_batch`.
    pub fn settled_state(&self, state: &super::State, store: &FindingStore, session_s: f64) -> Option<super::State> {
        let mut snapshot = state.clone();
        snapshot.kinds = self.settled_kinds()?;
        snapshot.checkpoint = Some(store.checkpoint());
        snapshot.triage.add(&self.counts);
        snapshot.seconds += session_s;
        Some(snapshot)
    }

    /// Records `finding` (with its case text) and counts its occurrences by how they were
    /// recorded (a new finding's further occurrences are duplicates).
    fn record(&mut self, store: &mut FindingStore, finding: Finding, case: &str) -> Result<Worth, StoreError> {
        let n = finding.count.max(1);
        if let Some(entry) = self.crash_entries.get(&finding.signature.key()).cloned() {
            self.known = self.known.saturating_add(n);
            store.record_known(&finding, entry)?;
            return Ok(Worth::Known);
        }
        Ok(match store.record(finding, case)? {
            Recorded::New => {
                self.new += 1;
                self.duplicates = self.duplicates.saturating_add(n - 1);
                Worth::New
            }
            Recorded::Duplicate => {
                self.duplicates = self.duplicates.saturating_add(n);
                Worth::Duplicate
            }
            Recorded::Known(_) => {
                self.known = self.known.saturating_add(n);
                Worth::Known
            }
        })
    }

    /// Whether a known entry's crash mechanism explains the crash `finding` of register
    /// program `p` ([`super::known_crash`]; a signature explained before needs no check): then
    /// its signature is remembered with the entry ([`Triage::record`] counts it there) and the
    /// count goes up. `false` without [`Triage::crash_check`], for another class, or where the
    /// check cannot run (the crash is then labelled by key, as before).
    fn crash_known(&mut self, known: &KnownSet, finding: &Finding, p: Option<&Program>) -> bool {
        let Some(check) = self.crash_check.as_ref() else { return false };
        if finding.signature.class != FindingClass::Crash {
            return false;
        }
        let key = finding.signature.key();
        if let std::collections::btree_map::Entry::Vacant(e) = self.crash_entries.entry(key) {
            let Some(p) = p else { return false };
            match program_crash_known_by_sass(known, &finding.signature, p, check) {
                Ok(Some(k)) => e.insert(k.name.clone()),
                _ => return false,
            };
        }
        self.counts.known_crash_by_sass += 1;
        true
    }

    /// Triages one raw finding of `job`: known (from the unminimized signature) or of a kind
    /// minimized often enough → counted, not minimized; otherwise to `minimizer` (`None`:
    /// minimization off → stored as it is), and stored as it is when its queue is full.
    /// Returns what the finding is worth to the adaptive swarm, decided now (so adaptation
    /// never waits for the minimizer): what recording it said, or for a finding handed to the
    /// minimizer, [`Worth::New`] for the first of its kind this session and
    /// [`Worth::Duplicate`] otherwise.
    pub fn raw<C: Case>(
        &mut self,
        store: &mut FindingStore,
        minimizer: Option<&Minimizer<C>>,
        job: C,
        allow: &Allowances,
        env: &[(String, String)],
    ) -> Result<Worth, StoreError> {
        self.counts.raw += 1;
        if job.shows_undefined_words() {
            self.counts.stored_undefined += 1;
        }
        let pre = job.kind_key();
        // Words the oracle emulating a known root cause gives: known if an entry names an
        // emulation that fired (and its class and backends admit the finding).
        if let Some((finding, case)) = job.known_by_emulation(store.known(), allow, env) {
            self.counts.known_by_emulation += 1;
            return self.record(store, finding, &case);
        }
        // A crash an entry's mechanism explains (its kernel's SASS; crashes only).
        if self.crash_check.is_some() && C::Kind::quick_signature(job.raw(), job.program()).class == FindingClass::Crash
        {
            let (finding, case) = job.package_as_is(allow, env);
            if self.crash_known(store.known(), &finding, job.register_program()) {
                return self.record(store, finding, &case);
            }
        }
        // An optimizing ptxas's crash an entry knows by the program's other crash in this batch
        // (the JIT's at a known fault site: `ptxas_crash_beside`).
        let quick = C::Kind::quick_signature(job.raw(), job.program());
        if quick.class == FindingClass::Crash {
            let siblings = job.crash_siblings();
            if store.known().crash_known_beside(&quick, &siblings).is_some() {
                let (finding, case) = job.package_as_is(allow, env);
                if let Some(k) = store.known().crash_known_beside(&finding.signature, &siblings) {
                    self.crash_entries.insert(finding.signature.key(), k.name.clone());
                    self.counts.known_crash_beside += 1;
                    return self.record(store, finding, &case);
                }
            }
        }
        // The input class needs a run of the oracle: only when an entry could match otherwise.
        let mut packaged_early = None;
        if job.may_be_known(store.known()) {
            let (finding, case) = job.package_as_is(allow, env);
            if store.known().matches(&finding.signature).is_some() {
                self.counts.known_before_minimization += 1;
                return self.record(store, finding, &case);
            }
            packaged_early = Some((finding, case));
        }
        let packaged =
            |packaged: Option<(Finding, String)>, job: &C| packaged.unwrap_or_else(|| job.package_as_is(allow, env));
        // A mutant of a family triaged already: its first finding's verdict is this one's.
        let family = job.family_key();
        if let Some((first, waiting)) = family.as_ref().and_then(|f| self.families.get_mut(f)) {
            self.counts.family_member += 1;
            match first.clone() {
                Some(first) => return self.record(store, Finding { count: 1, ..first }, ""),
                None => {
                    *waiting += 1;
                    return Ok(Worth::Duplicate);
                }
            }
        }
        let kind = self.kinds.entry(pre.clone()).or_default();
        kind.0 = kind.0.saturating_add(1);
        if kind.0 > MINIMIZE_PER_KIND {
            self.counts.repeated_kind += 1;
            match &kind.1 {
                Some(first) => {
                    let again = Finding { count: 1, ..first.clone() };
                    return self.record(store, again, "");
                }
                None => {
                    kind.2 += 1;
                    return Ok(Worth::Duplicate);
                }
            }
        }
        let Some(m) = minimizer else {
            self.counts.minimization_off += 1;
            let (finding, case) = packaged(packaged_early, &job);
            return self.first_of_kind(store, pre, family, finding, &case);
        };
        let batch = job.batch();
        let first = kind.0 == 1;
        match m.submit(Box::new(job)) {
            Ok(()) => {
                self.counts.queued += 1;
                *self.pending.entry(batch).or_default() += 1;
                if let Some(family) = family {
                    self.families.insert(family, (None, 0));
                }
                Ok(if first { Worth::New } else { Worth::Duplicate })
            }
            Err(job) => {
                self.counts.queue_full += 1;
                let (finding, case) = packaged(packaged_early, &job);
                self.first_of_kind(store, pre, family, finding, &case)
            }
        }
    }

    /// Records a finding; the first of its kind becomes the one later occurrences count under,
    /// and the first of its mutant family (`family`) the one its later members count under.
    fn first_of_kind(
        &mut self,
        store: &mut FindingStore,
        pre: String,
        family: Option<String>,
        finding: Finding,
        case: &str,
    ) -> Result<Worth, StoreError> {
        let kind = self.kinds.entry(pre).or_default();
        if kind.1.is_none() {
            kind.1 = Some(finding.clone());
        }
        if let Some(family) = family {
            self.families.insert(family, (Some(finding.clone()), 0));
        }
        self.record(store, finding, case)
    }

    /// Records a job the minimizer finished, then the occurrences of its kind and the members of
    /// its mutant family that waited for it.
    pub fn done(&mut self, store: &mut FindingStore, d: Done) -> Result<(), StoreError> {
        if let Some(n) = self.pending.get_mut(&d.batch) {
            *n -= 1;
            if *n == 0 {
                self.pending.remove(&d.batch);
            }
        }
        if d.minimized {
            self.counts.minimized += 1;
            if d.finding.reproduced == Some(false) {
                self.counts.not_reproduced += 1;
            }
            if d.finding.signature.class == FindingClass::NonDeterministic {
                self.counts.non_deterministic += 1;
            }
        } else {
            self.counts.unminimized_at_end += 1;
        }
        self.counts.minimization_calls += d.calls;
        self.counts.minimization_runs += d.runs;
        self.counts.minimization_refused += d.refused;
        self.minimization.add(d.time);
        let ms = (d.time.wall_s * 1000.0).round() as u64;
        if d.minimized && ms > self.counts.minimization_longest_ms {
            self.counts.minimization_longest_ms = ms;
            self.counts.minimization_longest_id = d.finding.id.clone();
        }
        // Reduced on, an entry's emulations explain it: known (both cases kept for a person).
        let mut recorded = (d.finding, d.case);
        if let Some(after) = d.known_after_reduction {
            if let Some(signature) = after.signatures.into_iter().find(|s| store.known().matches(s).is_some()) {
                self.counts.known_after_reduction += 1;
                let entry = store.known().matches(&signature).map(|k| k.name.clone()).unwrap_or_default();
                store.keep_known_case(&entry, &signature.key(), &after.case, &recorded.1)?;
                recorded = (Finding { signature, ..after.finding }, after.case);
            }
        }
        // A minimized crash an entry's mechanism explains (its case's kernel's SASS).
        // [`Triage::record`] then counts it, and the occurrences that waited, under the entry.
        if recorded.0.signature.class == FindingClass::Crash && self.crash_check.is_some() {
            let p = parse_case(&recorded.1).ok().map(|(p, _)| p);
            self.crash_known(store.known(), &recorded.0, p.as_ref());
        }
        let kind = self.kinds.entry(d.pre.clone()).or_default();
        // The kind's representative: the first finding, replaced by the first one that showed
        // again when run alone (a minimized case) if the first did not.
        if kind.1.as_ref().is_none_or(|r| r.reproduced == Some(false) && recorded.0.reproduced == Some(true)) {
            kind.1 = Some(recorded.0.clone());
        }
        let waiting = std::mem::take(&mut kind.2);
        let first = kind.1.clone();
        // The family's members that waited take this finding's verdict.
        let members = d.family.map_or(0, |f| {
            let family = self.families.entry(f).or_default();
            family.0 = Some(recorded.0.clone());
            std::mem::take(&mut family.1)
        });
        let verdict = recorded.0.clone();
        self.record(store, recorded.0, &recorded.1)?;
        if let (Some(first), true) = (first, waiting > 0) {
            self.record(store, Finding { count: waiting, ..first }, "")?;
        }
        if members > 0 {
            self.record(store, Finding { count: members, ..verdict }, "")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod family_tests;

#[cfg(test)]
mod crash_beside_tests;

#[cfg(test)]
mod tests {
    use super::TriageCounts;

    /// A minimized finding that, reduced on, an entry's emulation explains is recorded known
    /// (and counted so); one whose reduced-on signatures match no entry is recorded as
    /// minimized, new.
    #[test]
    fn a_finding_known_after_reduction_is_recorded_known() {
        use super::super::engine::StageTime;
        use super::super::minimize::{AfterReduction, Done};
        use super::Triage;
        use crate::findings::{Finding, FindingClass, FindingStore, KnownSet, RunMeta, Signature};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known");
        let dir = tempfile::tempdir().unwrap();
        let mut store = FindingStore::create(dir.path(), RunMeta::default(), KnownSet::load(&root).unwrap()).unwrap();
        let o3 = ["cuda:ptxas-O3"];
        let minimized = Finding::new(Signature::new(FindingClass::Compiler, "cvt.u16.u32", "int", o3, "value"), "");
        let sig = |input: &str| Signature::new(FindingClass::Compiler, "shl.b64", input, o3, "value");
        let done = |signatures: Vec<Signature>| Done {
            batch: 0,
            pre: "compiler|cuda:ptxas-O3|value".into(),
            finding: minimized.clone(),
            case: "minimized".into(),
            minimized: true,
            calls: 1,
            runs: 1,
            refused: 0,
            time: StageTime::default(),
            reducer: 0,
            family: None,
            known_after_reduction: Some(AfterReduction {
                finding: Finding::new(sig("int"), ""),
                case: "reduced on".into(),
                signatures,
            }),
        };
        let mut tri = Triage::default();
        tri.done(&mut store, done(vec![sig("no-such-emulation"), sig("cvt-s64-u32-sign-extends")])).unwrap();
        assert_eq!((tri.known, tri.new, tri.counts.known_after_reduction), (1, 0, 1));
        let kept = dir.path().join("known-cases").join(format!("{}.case", sig("cvt-s64-u32-sign-extends").key()));
        let text = std::fs::read_to_string(&kept).unwrap();
        assert!(text.starts_with("// ptxdiff: counted known (fuzz-h100-l-cvt-s64-u32-sign-extends)"), "{text}");
        assert!(text.ends_with("reduced on"), "{text}");
        let minimized = std::fs::read_to_string(kept.with_extension("minimized.case")).unwrap();
        assert!(minimized.ends_with("\nminimized"), "{minimized}");
        tri.done(&mut store, done(vec![sig("no-such-emulation")])).unwrap();
        assert_eq!((tri.known, tri.new, tri.counts.known_after_reduction), (1, 1, 1));
        assert_eq!(store.doc().findings[0].signature.form, "cvt.u16.u32");
    }

    /// A campaign saved by a build without a newer count still resumes.
    #[test]
    fn counts_saved_without_a_newer_field_read_it_as_zero() {
        let c: TriageCounts = serde_json::from_str(r#"{"raw": 3, "minimized": 1}"#).unwrap();
        assert_eq!((c.raw, c.minimized, c.not_reproduced), (3, 1, 0));
    }

    /// The triage report is a few short lines a person reads, not one line of counters.
    #[test]
    fn the_triage_report_is_short_lines() {
        assert_eq!(
            TriageCounts::default().report(3),
            "triage: no raw findings (no disagreement, crash or rejection)\n"
        );
        let c = TriageCounts {
            raw: 14,
            stored_undefined: 1,
            known_by_emulation: 2,
            known_before_minimization: 3,
            known_crash_by_sass: 2,
            known_crash_beside: 1,
            repeated_kind: 4,
            family_member: 2,
            queued: 5,
            minimized: 4,
            not_reproduced: 1,
            non_deterministic: 1,
            known_after_reduction: 1,
            minimization_calls: 120,
            minimization_runs: 40,
            minimization_refused: 2,
            queue_full: 1,
            unminimized_at_end: 0,
            minimization_off: 0,
            minimization_longest_ms: 61_234,
            minimization_longest_id: "5c073d59e12bcc4e".into(),
        };
        let r = c.report(3);
        assert!(r.lines().all(|l| l.chars().count() <= 100), "{r}");
        assert_eq!(
            r,
            "triage of 14 raw findings (disagreements, crashes, rejections):\n\
             \x20      2  known: the emulated root cause gives every differing word\n\
             \x20      1  unwritten-register reads stored to wrong GPU words (counted with the read)\n\
             \x20      3  known already as found (by shape): counted, not minimized\n\
             \x20      2  crashes known by their kernel's SASS (a known crash mechanism)\n\
             \x20      1  ptxas crashes known by the program's JIT crash at a known site\n\
             \x20      4  of a kind minimized 3 times already: counted under it\n\
             \x20      2  mutants of a parent whose mutant showed it first: counted under that one\n\
             \x20      4  minimized (120 candidates in 40 runs, 2 invalid refused); 1 did not show again alone\n\
             \x20         the longest took 61.2 s (5c073d59e12bcc4e)\n\
             \x20      1  of those, non-deterministic (other words when run again alone)\n\
             \x20      1  of those, known after all: reduced on, an emulation gives every word\n\
             \x20      1  stored unminimized (1 as the minimizer was busy)\n"
        );
    }
}
