//! The coverage corpus and its mutants in `ptxdiff fuzz`, end to end without a GPU (the oracle,
//! ptxas-check for the -O3 SASS, and the oracle worker with planted bugs): a campaign resumed
//! mid-way, prepared by another number of threads, ends with the corpus, counters and findings
//! of the uninterrupted one; a planted bug
//! in an instruction only mutants build is found by a mutant, and the finding says so; every
//! mutant assembles; the campaign metrics are in `campaign.json`. Skipped (visibly) without
//! ptxas or nvdisasm, unless `CI` or `PTXDIFF_REQUIRE_PTXAS` is set.

mod common;

use std::path::Path;
use std::process::Command;

use runner::findings::{FindingClass, FindingsDoc, Source};

/// `ptxdiff fuzz` with batches of 16, no minimization, the known folder `known` and `more`
/// (seed, backends, `--out`/`--resume`), with `plant` in the oracle worker.
fn fuzz(known: &Path, more: &[&str], plant: Option<&str>) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
        .args(["fuzz", "--time", "300s", "--batch", "16", "--no-minimize", "--known"])
        .arg(known)
        .args(more);
    if let Some(p) = plant {
        c.env("PTXDIFF_PLANT_WORKER", p);
    }
    let out = c.output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(matches!(out.status.code(), Some(0 | 1)), "{text}");
    text
}

fn state(run: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap()
}

/// The campaign's findings, none of them an assembler rejection (a mutant ptxas refuses would
/// be one).
fn findings(run: &Path, text: &str) -> FindingsDoc {
    let doc = FindingsDoc::load(run).unwrap();
    let rejected: Vec<_> =
        doc.findings.iter().filter(|f| f.signature.class == FindingClass::AssemblerRejection).collect();
    assert!(rejected.is_empty(), "every mutant assembles: {rejected:#?}\n{text}");
    doc
}

#[test]
fn a_resumed_campaign_restores_the_corpus_of_the_uninterrupted_one() {
    if common::sass_tools_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known");
    std::fs::create_dir(&known).unwrap();
    let common = ["--seed", "7", "--backends", "oracle,ptxas-check", "--mutate-share", "0.5"];
    let whole = dir.path().join("whole");
    let args = |programs: &'static str, flag: &'static str, run: &Path| {
        let mut v: Vec<String> = common.iter().map(|s| s.to_string()).collect();
        v.extend(["--programs".into(), programs.into(), flag.into(), run.display().to_string()]);
        v
    };
    let a = args("800", "--out", &whole);
    let text = fuzz(&known, &a.iter().map(String::as_str).collect::<Vec<_>>(), None);
    let parts = dir.path().join("parts");
    // Interrupted after 40 batches (mutants start at batch 32), then resumed; one preparing
    // thread instead of one per core (the mutants do not depend on the read-ahead).
    let mut b = args("640", "--out", &parts);
    b.extend(["--jobs".to_string(), "1".to_string()]);
    fuzz(&known, &b.iter().map(String::as_str).collect::<Vec<_>>(), None);
    let r = args("160", "--resume", &parts);
    let r: Vec<String> = r.into_iter().filter(|s| s != "--mutate-share" && s != "0.5").collect();
    let resumed = fuzz(&known, &r.iter().map(String::as_str).collect::<Vec<_>>(), None);
    let (sw, sp) = (state(&whole), state(&parts));
    let corpus = &sw["corpus"];
    assert!(corpus["mutants"].as_u64().unwrap() > 0 && corpus["added"].as_u64().unwrap() > 0, "{sw:#}\n{text}");
    assert_eq!(corpus, &sp["corpus"], "{resumed}");
    assert_eq!(sw["mutate_share"], 0.5);
    assert_eq!((&sw["coverage"]["total"], &sw["programs"]), (&sp["coverage"]["total"], &sp["programs"]));
    let file = |run: &Path| std::fs::read_to_string(run.join("corpus.jsonl")).unwrap();
    assert_eq!(file(&whole), file(&parts), "the corpus file of the resumed campaign is the uninterrupted one's");
    let ids = |d: &FindingsDoc| {
        let mut v: Vec<(String, Option<Source>)> =
            d.findings.iter().map(|f| (f.id.clone(), f.source.clone())).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(ids(&findings(&whole, &text)), ids(&findings(&parts, &resumed)));
    // A different share cannot resume the campaign.
    let out = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .args(["fuzz", "--resume"])
        .arg(&parts)
        .args(["--programs", "16", "--mutate-share", "0.1", "--backends", "oracle,ptxas-check"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--mutate-share 0.5"), "{err}");
}

#[test]
fn a_bug_only_mutants_reach_is_found_by_a_mutant_and_the_metrics_say_so() {
    if common::sass_tools_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known");
    std::fs::create_dir(&known).unwrap();
    // Fresh programs never build `mul.hi` (its glue group is off); mutants replace glue by it.
    let config = dir.path().join("no-mul.toml");
    std::fs::write(&config, "glue_mul = false\n").unwrap();
    let run = dir.path().join("run");
    let args = ["--seed", "7", "--programs", "1024", "--backends", "oracle,oracle-worker,ptxas-check"];
    let mut more: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    more.extend(["--mutate-share".into(), "1".into(), "--config".into(), config.display().to_string()]);
    more.extend(["--out".into(), run.display().to_string()]);
    let text = fuzz(&known, &more.iter().map(String::as_str).collect::<Vec<_>>(), Some("mul-hi-as-lo"));
    let doc = findings(&run, &text);
    let mul: Vec<_> = doc.findings.iter().filter(|f| f.signature.shape.contains("mul.hi")).collect();
    assert!(!mul.is_empty(), "the planted mul.hi bug is found:\n{text}");
    for f in &mul {
        match &f.source {
            Some(Source::Mutation { parent, mutation }) => {
                assert!(parent.starts_with('p') && mutation.contains("mul.hi"), "{parent}: {mutation}")
            }
            other => panic!("a mul.hi finding from {other:?}: only mutants build mul.hi"),
        }
    }
    let s = state(&run);
    assert_eq!(s["invalid"], 0, "every mutant is defined on the oracle");
    let m = &s["metrics"];
    for key in ["findings_by_class", "new_findings", "first_new_s", "gpus", "gpu_hours", "new_by_source"] {
        assert!(m.get(key).is_some(), "metrics.{key} in {m:#}");
    }
    assert_eq!((m["gpus"].as_u64(), m["new_per_gpu_hour"].as_f64()), (Some(0), None), "no GPU ran");
    let by_source = m["new_by_source"].as_object().unwrap();
    assert!(by_source.keys().any(|k| k.starts_with("mutation: ")), "{m:#}");
    assert!(m["new_findings"].as_u64().unwrap() >= mul.len() as u64, "{m:#}");
    assert!(s["corpus"]["mutants"].as_u64().unwrap() > 0 && s["coverage"]["total"].as_u64().unwrap() > 0, "{s:#}");
    for line in ["campaign metrics:", "new findings per source: ", "mutation: ", "corpus: ", "SASS coverage: "] {
        assert!(text.contains(line), "`{line}` in the summary:\n{text}");
    }
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(md.contains("- source: mutation of p"), "the report names the source:\n{md}");
}
