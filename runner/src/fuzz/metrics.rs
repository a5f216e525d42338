//! Campaign metrics (issue 29 item 7): what a GPU-hour of a register-program campaign bought,
//! printed at the end of every session and stored in `campaign.json` ([`super::State::metrics`]).
//!
//! Each fact lives once: the counts the campaign state already keeps are read from it — known
//! by emulation and by shape ([`super::triage::TriageCounts`]), the SASS coverage and its curve
//! ([`crate::sass::coverage::Coverage`]), the corpus and its mutants
//! ([`super::corpus::CorpusCounts`]) — and [`Metrics`] holds only what is derived from the
//! finding store at the end of a session: findings per class and per source, the findings
//! labelled new (every stored finding but the non-deterministic ones, which are never listed as
//! compiler bugs), the time to the first of them and their rate per GPU-hour.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::State;
use crate::findings::{FindingClass, FindingsDoc};

/// The derived metrics (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Metrics {
    /// Distinct stored findings per class ([`FindingClass::name`]; classes without findings
    /// left out).
    pub findings_by_class: BTreeMap<String, u64>,
    /// Distinct findings labelled new: stored, not non-deterministic.
    pub new_findings: u64,
    /// Campaign seconds (over all sessions) at which the first of them was seen; `None`
    /// without one.
    pub first_new_s: Option<f64>,
    /// GPUs the campaign's GPU backends ran on (0: none ran).
    pub gpus: u64,
    /// GPU-hours: the campaign's seconds times `gpus`.
    pub gpu_hours: f64,
    /// `new_findings` per GPU-hour; `None` without a GPU.
    pub new_per_gpu_hour: Option<f64>,
    /// Distinct findings labelled new per source of their program: `fresh`, `mutation:
    /// EDIT` ([`generator::mutate::Kind::name`]), or `unrecorded` (findings of older builds).
    pub new_by_source: BTreeMap<String, u64>,
}

impl Metrics {
    /// The metrics of a campaign in `state` whose store is `doc`, run on `gpus` GPUs.
    pub fn of(state: &State, doc: &FindingsDoc, gpus: u64) -> Metrics {
        let mut m = Metrics { gpus, ..Metrics::default() };
        for (class, n, _) in doc.by_class() {
            if n > 0 {
                m.findings_by_class.insert(class.name().to_string(), n as u64);
            }
        }
        for f in doc.findings.iter().filter(|f| f.signature.class != FindingClass::NonDeterministic) {
            m.new_findings += 1;
            m.first_new_s = Some(m.first_new_s.map_or(f.first_seen_s, |t: f64| t.min(f.first_seen_s)));
            let source = match &f.source {
                None => "unrecorded".to_string(),
                Some(crate::findings::Source::Fresh { .. }) => "fresh".to_string(),
                Some(crate::findings::Source::Mutation { mutation, .. }) => {
                    format!("mutation: {}", mutation.split_whitespace().next().unwrap_or("?"))
                }
            };
            *m.new_by_source.entry(source).or_default() += 1;
        }
        m.gpu_hours = state.seconds * gpus as f64 / 3600.0;
        m.new_per_gpu_hour = (m.gpu_hours > 0.0).then(|| m.new_findings as f64 / m.gpu_hours);
        m
    }

    /// The summary block: one short line per metric, the counts kept elsewhere in `state`
    /// included.
    pub fn report(&self, state: &State) -> String {
        let mut out = String::from("campaign metrics:\n");
        let classes: Vec<String> = self.findings_by_class.iter().map(|(c, n)| format!("{c} {n}")).collect();
        let classes = if classes.is_empty() { "none".to_string() } else { classes.join(", ") };
        let _ = writeln!(out, "  findings per class: {classes}");
        let t = &state.triage;
        let _ = writeln!(
            out,
            "  known occurrences: {} by emulation, {} by shape; non-deterministic findings: {}",
            t.known_by_emulation,
            t.known_before_minimization,
            self.findings_by_class.get(FindingClass::NonDeterministic.name()).copied().unwrap_or(0)
        );
        let first = self.first_new_s.map_or("none yet".to_string(), |s| format!("{s:.1} s"));
        let rate = match self.new_per_gpu_hour {
            Some(r) => format!("{r:.1} per GPU-hour ({} GPU(s), {:.3} GPU-hours)", self.gpus, self.gpu_hours),
            None => "no GPU ran".to_string(),
        };
        let _ = writeln!(out, "  new findings: {}; first after {first}; {rate}", self.new_findings);
        let sources: Vec<String> = self.new_by_source.iter().map(|(s, n)| format!("{s} {n}")).collect();
        if !sources.is_empty() {
            let _ = writeln!(out, "  new findings per source: {}", sources.join(", "));
        }
        let c = &state.coverage;
        let curve: Vec<String> = c.curve.iter().map(|p| format!("{}:{}", p.programs, p.ngrams)).collect();
        let _ = writeln!(
            out,
            "  SASS coverage: {} n-grams; growth (programs:n-grams) {}",
            c.total,
            if curve.is_empty() { "none".to_string() } else { curve.join(" ") }
        );
        let _ = writeln!(out, "  {}", state.corpus.line());
        out
    }
}

/// GPUs the campaign's GPU backends ran on: the devices of the environment's `device` line
/// (`;`-separated) when a `cuda:` backend ran, else 0.
pub fn gpus(backends: &[String], env: &[(String, String)], gpu_unavailable: bool) -> u64 {
    if gpu_unavailable || !backends.iter().any(|b| b.starts_with("cuda")) {
        return 0;
    }
    env.iter().find(|(k, _)| k == "device").map_or(1, |(_, v)| v.split(';').count() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::{Finding, Signature, Source};

    fn finding(class: FindingClass, form: &str, at: f64, source: Option<Source>) -> Finding {
        let sig = Signature::new(class, form, "", Vec::<String>::new(), "wrong");
        Finding { first_seen_s: at, source, ..Finding::new(sig, "") }
    }

    /// Findings per class and per source, the first new one (non-deterministic ones are not
    /// new), and the rate per GPU-hour.
    #[test]
    fn metrics_come_from_the_store_and_the_state() {
        let mut doc = FindingsDoc::new(crate::findings::RunMeta::default());
        let mutation = Source::Mutation { parent: "p3_1".into(), mutation: "delete 4: add.s32 %r1, %r2, 1;".into() };
        doc.findings = vec![
            finding(FindingClass::Compiler, "cvt", 40.0, Some(Source::Fresh { switches: vec!["cvt".into()] })),
            finding(FindingClass::Compiler, "add", 25.0, Some(mutation)),
            finding(FindingClass::NonDeterministic, "prmt", 3.0, None),
        ];
        let mut state: State = serde_json::from_str(
            r#"{"seed":1,"target":"sm_90@8.0","backends":[],"next_batch":0,"programs":0,"seconds":1800.0,
                "families":{},"invalid":0,"config":{}}"#,
        )
        .unwrap();
        state.triage.known_by_emulation = 7;
        let m = Metrics::of(&state, &doc, 2);
        assert_eq!(m.findings_by_class, BTreeMap::from([("compiler".into(), 2), ("non-deterministic".into(), 1)]));
        assert_eq!((m.new_findings, m.first_new_s, m.gpu_hours, m.new_per_gpu_hour), (2, Some(25.0), 1.0, Some(2.0)));
        assert_eq!(m.new_by_source, BTreeMap::from([("fresh".into(), 1), ("mutation: delete".into(), 1)]));
        let r = m.report(&state);
        assert!(r.contains("  findings per class: compiler 2, non-deterministic 1\n"), "{r}");
        assert!(r.contains("7 by emulation, 0 by shape; non-deterministic findings: 1"), "{r}");
        assert!(r.contains("new findings: 2; first after 25.0 s; 2.0 per GPU-hour (2 GPU(s)"), "{r}");
        assert!(r.contains("new findings per source: fresh 1, mutation: delete 1"), "{r}");
        assert_eq!(Metrics::of(&state, &doc, 0).new_per_gpu_hour, None);
        let env = vec![("device".to_string(), "NVIDIA H200 (0); NVIDIA H200 (1)".to_string())];
        assert_eq!(gpus(&["oracle".into(), "cuda:jit".into()], &env, false), 2);
        assert_eq!(gpus(&["oracle".into(), "ptxas-check".into()], &env, false), 0);
        assert_eq!(gpus(&["cuda:jit".into()], &env, true), 0);
    }
}
