//! What changed between two runs of the same forms or campaign (a baseline and a new run):
//! versions (target, ptxdiff, device, driver, each ptxas: every environment entry), options,
//! rows that newly fail (mismatch, rejection, fault, crash, hang), rows fixed, rows whose
//! failure or mismatch count changed, changed allowance usage (a row field `allowance_uses`,
//! compared as raw JSON when the runs record it), rows present in only one run, timing
//! regressions, and findings new or gone (by signature id).
//!
//! Rules:
//! - A timing regression is a row that took more than [`ROW_SLOWER`]`.0` times as long as in
//!   the baseline *and* at least [`ROW_SLOWER`]`.1` seconds longer, or a whole run past
//!   [`RUN_SLOWER`] alike: smaller differences are noise. Rows of a run share the machine with
//!   the other workers' rows, so a row's time varies far more than the run's (two identical
//!   `conform --exhaustive` runs on one H100, 8 workers: rows up to 2.6× and 0.64 s apart,
//!   the runs 35.2 s and 34.1 s).
//! - A finding is new when its id is neither stored in the baseline nor named by any of its
//!   rows; a known finding (counted, not stored) is new when the baseline did not count its
//!   `corpus/known/` entry. [`Changes::new_unknown`] counts the new ones that no `corpus/known/` entry covers:
//!   the only thing that fails a run compared with a baseline.
//!
//! Invariant: comparing a run with itself gives [`Changes::is_empty`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::record::{RunKind, RunRecord};
use crate::conform::Row;
use crate::findings::render::markdown::md_text;
use crate::findings::KnownSet;

/// A row is slower when it took more than `.0` times as long and at least `.1` seconds longer.
pub const ROW_SLOWER: (f64, f64) = (3.0, 2.0);
/// The whole run is slower when it took more than `.0` times as long and at least `.1`
/// seconds longer.
pub const RUN_SLOWER: (f64, f64) = (1.25, 5.0);
/// File names of the comparison written into a run directory.
pub const CHANGES_JSON: &str = "changes.json";
/// See [`CHANGES_JSON`].
pub const CHANGES_MD: &str = "changes.md";

/// One value that differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Changed {
    /// What (an environment key, `target`, an option).
    pub what: String,
    /// In the baseline (empty: absent).
    pub before: String,
    /// In the run (empty: absent).
    pub after: String,
}

/// How a row changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RowChangeKind {
    /// Agreed in the baseline, fails now.
    NewlyFailing,
    /// Failed in the baseline, agrees now.
    Fixed,
    /// Fails in both, differently (failure kind or mismatch count).
    Changed,
    /// Verdict unchanged, allowance usage changed.
    AllowanceUsage,
}

impl RowChangeKind {
    fn label(self) -> &'static str {
        match self {
            RowChangeKind::NewlyFailing => "newly failing",
            RowChangeKind::Fixed => "fixed",
            RowChangeKind::Changed => "changed",
            RowChangeKind::AllowanceUsage => "allowance usage",
        }
    }
}

/// A row that changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowChange {
    /// How.
    pub kind: RowChangeKind,
    /// Opcode.
    pub form: String,
    /// Backend.
    pub backend: String,
    /// The baseline's verdict (or allowance usage).
    pub before: String,
    /// The run's.
    pub after: String,
}

/// A row (or the run, `form` empty) that got slower.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Slower {
    /// Opcode (empty: the whole run).
    pub form: String,
    /// Backend.
    pub backend: String,
    /// Seconds in the baseline.
    pub before: f64,
    /// Seconds now.
    pub after: f64,
}

/// A finding new in the run or gone from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FindingChange {
    /// Signature id.
    pub id: String,
    /// Its title (the signature).
    pub title: String,
    /// Occurrences (in the run that has it).
    pub count: u64,
    /// The `corpus/known/` entry that covers it now, if any.
    pub known: Option<String>,
}

/// Everything that changed from a baseline to a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Changes {
    /// The baseline's run id.
    pub baseline: String,
    /// The run's id.
    pub run: String,
    /// Versions and environment.
    pub versions: Vec<Changed>,
    /// Options that decide the rows (conform).
    pub options: Vec<Changed>,
    /// Rows whose verdict or allowance usage changed, in the run's row order.
    pub rows: Vec<RowChange>,
    /// Rows only the baseline has (`form backend`).
    pub only_in_baseline: Vec<String>,
    /// Rows only the run has.
    pub only_in_run: Vec<String>,
    /// Timing regressions.
    pub slower: Vec<Slower>,
    /// Findings the baseline does not have.
    pub new_findings: Vec<FindingChange>,
    /// Findings of the baseline that the run does not have.
    pub gone_findings: Vec<FindingChange>,
}

/// Why two runs cannot be compared.
#[derive(Debug, thiserror::Error)]
#[error("cannot compare a {a} run ({a_dir}) with a {b} run ({b_dir}): compare conform with conform, fuzz with fuzz")]
pub struct KindMismatch {
    a: &'static str,
    a_dir: String,
    b: &'static str,
    b_dir: String,
}

impl KindMismatch {
    /// `a` (the baseline) is not of `kind`, the kind of the run at `b`.
    pub fn new(a: &RunRecord, kind: RunKind, b: &std::path::Path) -> KindMismatch {
        KindMismatch {
            a: a.kind.name(),
            a_dir: a.dir.display().to_string(),
            b: kind.name(),
            b_dir: b.display().to_string(),
        }
    }
}

fn slower((ratio, seconds): (f64, f64), before: f64, after: f64) -> bool {
    after > before * ratio && after - before >= seconds
}

/// Compares `run` with `baseline`; `known` decides which new findings are known.
pub fn compare(baseline: &RunRecord, run: &RunRecord, known: &KnownSet) -> Result<Changes, KindMismatch> {
    if baseline.kind != run.kind {
        return Err(KindMismatch::new(baseline, run.kind, &run.dir));
    }
    let mut c = Changes { baseline: baseline.run_id(), run: run.run_id(), ..Changes::default() };
    c.versions = differing(
        [("target".to_string(), baseline.target()), ("ptxdiff".to_string(), baseline.ptxdiff_version())]
            .into_iter()
            .chain(baseline.environment()),
        [("target".to_string(), run.target()), ("ptxdiff".to_string(), run.ptxdiff_version())]
            .into_iter()
            .chain(run.environment()),
    );
    if let (Some(a), Some(b)) = (&baseline.report, &run.report) {
        let opts = |r: &crate::conform::Report| -> Vec<(String, String)> {
            match serde_json::to_value(&r.options) {
                Ok(serde_json::Value::Object(m)) => m.into_iter().map(|(k, v)| (k, v.to_string())).collect(),
                _ => Vec::new(),
            }
        };
        c.options = differing(opts(a), opts(b));
        compare_rows(&mut c, baseline, run);
        if slower(RUN_SLOWER, a.seconds, b.seconds) {
            c.slower.push(Slower { form: String::new(), backend: String::new(), before: a.seconds, after: b.seconds });
        }
    }
    if baseline.kind == RunKind::Fuzz {
        let opt = |r: &RunRecord, k: &str| {
            r.campaign.as_ref().and_then(|c| c.get(k)).map_or_else(String::new, |v| v.to_string())
        };
        for k in ["seed", "shard", "config"] {
            let (before, after) = (opt(baseline, k), opt(run, k));
            if before != after {
                c.options.push(Changed { what: k.into(), before, after });
            }
        }
    }
    let (ids_a, ids_b) = (baseline.finding_ids(), run.finding_ids());
    let findings = |r: &RunRecord| r.findings.iter().flat_map(|d| d.findings.clone()).collect::<Vec<_>>();
    for f in findings(run) {
        if !ids_a.contains(&f.id) {
            let known = known.matches(&f.signature).map(|k| k.name.clone());
            c.new_findings.push(FindingChange { id: f.id, title: f.title, count: f.count, known });
        }
    }
    for f in findings(baseline) {
        if !ids_b.contains(&f.id) {
            c.gone_findings.push(FindingChange { id: f.id, title: f.title, count: f.count, known: None });
        }
    }
    // Known findings are not stored, only counted per `corpus/known/` entry.
    let hits = |r: &RunRecord| r.findings.iter().flat_map(|d| d.known.clone()).collect::<Vec<_>>();
    let (hits_a, hits_b) = (hits(baseline), hits(run));
    let as_change = |h: &crate::findings::KnownHit| FindingChange {
        id: h.id.clone(),
        title: h.signatures.keys().next().cloned().unwrap_or_else(|| h.id.clone()),
        count: h.count,
        known: Some(h.id.clone()),
    };
    c.new_findings.extend(hits_b.iter().filter(|h| !hits_a.iter().any(|a| a.id == h.id)).map(as_change));
    c.gone_findings.extend(hits_a.iter().filter(|h| !hits_b.iter().any(|b| b.id == h.id)).map(as_change));
    Ok(c)
}

/// Entries whose values differ (keys in first-seen order; the first value of a repeated key).
fn differing(
    a: impl IntoIterator<Item = (String, String)>,
    b: impl IntoIterator<Item = (String, String)>,
) -> Vec<Changed> {
    let mut order = Vec::new();
    let mut map: BTreeMap<String, (Option<String>, Option<String>)> = BTreeMap::new();
    for (side, entries) in [(0, a.into_iter().collect::<Vec<_>>()), (1, b.into_iter().collect())] {
        for (k, v) in entries {
            let e = map.entry(k.clone()).or_insert_with(|| {
                order.push(k);
                (None, None)
            });
            let slot = if side == 0 { &mut e.0 } else { &mut e.1 };
            slot.get_or_insert(v);
        }
    }
    order
        .into_iter()
        .filter_map(|k| {
            let (a, b) = map.remove(&k)?;
            (a != b).then(|| Changed { what: k, before: a.unwrap_or_default(), after: b.unwrap_or_default() })
        })
        .collect()
}

fn compare_rows(c: &mut Changes, baseline: &RunRecord, run: &RunRecord) {
    let (Some(a), Some(b)) = (&baseline.report, &run.report) else { return };
    let key = |r: &Row| (r.form.clone(), r.backend.clone());
    let allowance = |raw: &[serde_json::Value], i: usize| {
        raw.get(i).and_then(|v| v.get("allowance_uses")).filter(|v| !v.is_null()).map(|v| v.to_string())
    };
    let before: BTreeMap<(String, String), (usize, &Row)> =
        a.rows.iter().enumerate().map(|(i, r)| (key(r), (i, r))).collect();
    let mut seen = std::collections::BTreeSet::new();
    for (j, rb) in b.rows.iter().enumerate() {
        let k = key(rb);
        seen.insert(k.clone());
        let Some(&(i, ra)) = before.get(&k) else {
            c.only_in_run.push(format!("{} {}", rb.form, rb.backend));
            continue;
        };
        let (va, vb) = (ra.verdict_text(), rb.verdict_text());
        let kind = match (ra.failing(), rb.failing()) {
            (false, true) => Some(RowChangeKind::NewlyFailing),
            (true, false) => Some(RowChangeKind::Fixed),
            (true, true) if va != vb => Some(RowChangeKind::Changed),
            _ => None,
        };
        let change =
            |kind, before, after| RowChange { kind, form: rb.form.clone(), backend: rb.backend.clone(), before, after };
        if let Some(kind) = kind {
            c.rows.push(change(kind, va, vb));
        } else {
            let (ua, ub) = (allowance(&baseline.raw_rows, i), allowance(&run.raw_rows, j));
            if ua != ub {
                c.rows.push(change(
                    RowChangeKind::AllowanceUsage,
                    ua.unwrap_or_else(|| "none".into()),
                    ub.unwrap_or_else(|| "none".into()),
                ));
            }
        }
        if slower(ROW_SLOWER, ra.seconds, rb.seconds) {
            c.slower.push(Slower {
                form: rb.form.clone(),
                backend: rb.backend.clone(),
                before: ra.seconds,
                after: rb.seconds,
            });
        }
    }
    c.only_in_baseline =
        a.rows.iter().filter(|r| !seen.contains(&key(r))).map(|r| format!("{} {}", r.form, r.backend)).collect();
}

impl Changes {
    /// Nothing changed.
    pub fn is_empty(&self) -> bool {
        self.versions.is_empty()
            && self.options.is_empty()
            && self.rows.is_empty()
            && self.only_in_baseline.is_empty()
            && self.only_in_run.is_empty()
            && self.slower.is_empty()
            && self.new_findings.is_empty()
            && self.gone_findings.is_empty()
    }

    /// New findings that no known entry covers: what fails a run compared with a baseline.
    pub fn new_unknown(&self) -> usize {
        self.new_findings.iter().filter(|f| f.known.is_none()).count()
    }

    /// Short lines for the terminal: one per change, or `no change`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("changes since the baseline {} (this run: {}):", self.baseline, self.run)];
        if self.is_empty() {
            out.push("  no change".into());
            return out;
        }
        let absent = |s: &str| if s.is_empty() { "(none)".to_string() } else { s.to_string() };
        for v in &self.versions {
            out.push(format!("  version  {}: {} → {}", v.what, absent(&v.before), absent(&v.after)));
        }
        for v in &self.options {
            out.push(format!("  option   {}: {} → {}", v.what, absent(&v.before), absent(&v.after)));
        }
        for r in &self.rows {
            out.push(format!("  {}  {} {}: {} → {}", r.kind.label(), r.form, r.backend, r.before, r.after));
        }
        for r in &self.only_in_baseline {
            out.push(format!("  only in the baseline  {r}"));
        }
        for r in &self.only_in_run {
            out.push(format!("  only in this run  {r}"));
        }
        for s in &self.slower {
            let what =
                if s.form.is_empty() { "the whole run".to_string() } else { format!("{} {}", s.form, s.backend) };
            out.push(format!("  slower  {what}: {:.2} s → {:.2} s", s.before, s.after));
        }
        for f in &self.new_findings {
            let known = f.known.as_ref().map_or_else(String::new, |k| format!(" (known: {k})"));
            out.push(format!("  new finding  {} ×{}{known}", f.title, f.count));
        }
        for f in &self.gone_findings {
            let known = f.known.as_ref().map_or_else(String::new, |k| format!(" (known: {k})"));
            out.push(format!("  gone finding  {}{known}", f.title));
        }
        out
    }

    /// `changes.md`: the same as [`lines`](Self::lines), as a Markdown document.
    pub fn markdown(&self) -> String {
        let mut md = format!("# Changes: {} → {}\n\n", md_text(&self.baseline), md_text(&self.run));
        if self.is_empty() {
            md.push_str("No change.\n");
            return md;
        }
        let _ = writeln!(md, "New findings not known: {}\n", self.new_unknown());
        let table = |md: &mut String, title: &str, head: &str, rows: Vec<Vec<String>>| {
            if rows.is_empty() {
                return;
            }
            let cols = head.split('|').count();
            let _ = writeln!(md, "## {title}\n\n| {head} |\n|{}", "---|".repeat(cols));
            for r in rows {
                let cells: Vec<String> = r.iter().map(|c| md_text(c)).collect();
                let _ = writeln!(md, "| {} |", cells.join(" | "));
            }
            md.push('\n');
        };
        let changed =
            |v: &[Changed]| v.iter().map(|c| vec![c.what.clone(), c.before.clone(), c.after.clone()]).collect();
        table(&mut md, "Versions", "what | baseline | this run", changed(&self.versions));
        table(&mut md, "Options", "option | baseline | this run", changed(&self.options));
        let rows = self
            .rows
            .iter()
            .map(|r| vec![r.kind.label().into(), r.form.clone(), r.backend.clone(), r.before.clone(), r.after.clone()])
            .collect();
        table(&mut md, "Rows", "change | form | backend | baseline | this run", rows);
        let only = self
            .only_in_baseline
            .iter()
            .map(|r| vec!["baseline".into(), r.clone()])
            .chain(self.only_in_run.iter().map(|r| vec!["this run".into(), r.clone()]))
            .collect();
        table(&mut md, "Rows in one run only", "run | row", only);
        let slow = self
            .slower
            .iter()
            .map(|s| {
                let what = if s.form.is_empty() { "the whole run".into() } else { format!("{} {}", s.form, s.backend) };
                vec![what, format!("{:.2}", s.before), format!("{:.2}", s.after)]
            })
            .collect();
        table(&mut md, "Slower", "row | baseline s | this run s", slow);
        let findings = |v: &[FindingChange]| {
            v.iter().map(|f| vec![f.title.clone(), f.count.to_string(), f.known.clone().unwrap_or_default()]).collect()
        };
        table(&mut md, "New findings", "finding | count | known as", findings(&self.new_findings));
        table(&mut md, "Gone findings", "finding | count | known as", findings(&self.gone_findings));
        md
    }

    /// Writes `changes.json` and `changes.md` into `dir`, atomically; an existing one of
    /// them only with `overwrite` (a run's own, or `--force`), and never one that is no
    /// regular file ([`crate::atomic_write::write_new`]). Neither is written if either is
    /// refused.
    pub fn write(&self, dir: &std::path::Path, overwrite: bool) -> Result<(), crate::atomic_write::WriteError> {
        use crate::atomic_write::{check_output, write_new, WriteError};
        let (json, md) = (dir.join(CHANGES_JSON), dir.join(CHANGES_MD));
        check_output(&json, overwrite)?;
        check_output(&md, overwrite)?;
        let text =
            serde_json::to_string_pretty(self).map_err(|e| WriteError::Io { path: json.clone(), source: e.into() })?;
        write_new(&json, text, overwrite)?;
        write_new(&md, self.markdown(), overwrite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timing_rule_ignores_noise() {
        assert!(slower(ROW_SLOWER, 1.0, 3.1) && slower(ROW_SLOWER, 10.0, 30.1));
        assert!(!slower(ROW_SLOWER, 1.0, 2.9), "under 3×");
        assert!(!slower(ROW_SLOWER, 0.4, 1.04), "2.6× and 0.64 s: noise measured between identical runs");
        assert!(!slower(ROW_SLOWER, 0.1, 1.5), "15× but under 2 s");
        assert!(slower(RUN_SLOWER, 35.0, 45.0) && !slower(RUN_SLOWER, 35.2, 34.1) && !slower(RUN_SLOWER, 10.0, 14.0));
        assert!(!slower(ROW_SLOWER, 2.0, 1.0));
    }

    #[test]
    fn differing_entries_keep_their_order() {
        let kv = |v: &[(&str, &str)]| v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let d = differing(
            kv(&[("device", "H100"), ("ptxas", "13.0"), ("driver", "580"), ("ptxas", "ignored")]),
            kv(&[("driver", "580"), ("ptxas", "13.5"), ("cuda:jit", "on")]),
        );
        let got: Vec<(&str, &str, &str)> =
            d.iter().map(|c| (c.what.as_str(), c.before.as_str(), c.after.as_str())).collect();
        assert_eq!(got, [("device", "H100", ""), ("ptxas", "13.0", "13.5"), ("cuda:jit", "", "on")]);
    }
}
