//! The adaptive swarm end to end without a GPU: a campaign with a planted oracle bug (the
//! worker-process oracle is the correct second opinion) records per switch what its programs
//! found, moves the weights within bounds, prints which switches paid off, and `--resume`
//! restores the weights: a campaign run in two sessions generates the same programs as one
//! run in a single session.

use std::path::Path;
use std::process::Command;

use generator::program::config::{MAX_KEEP, MIN_KEEP};
use runner::fuzz::adapt::{Swarm, LAG};

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c.env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    c
}

/// Programs per batch: small, so that a short campaign runs past the adaptation lag.
const BATCH: u64 = 8;

fn campaign(run: &Path, programs: u64, resume: bool) -> String {
    let mut c = ptxdiff();
    c.args(["fuzz", "--time", "300s", "--programs", &programs.to_string(), "--batch", &BATCH.to_string()]);
    c.args(["--no-minimize", "--adapt", "--jobs", "2"]);
    // Backends and the planted bug are options of the session, not of the campaign state.
    c.args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or"]);
    if resume {
        c.arg("--resume").arg(run);
    } else {
        c.args(["--seed", "5", "--out"]).arg(run);
    }
    let out = c.output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(matches!(out.status.code(), Some(0 | 1)), "campaign failed:\n{text}");
    text
}

fn swarm_of(run: &Path) -> Swarm {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
    serde_json::from_value(v["swarm"].clone()).unwrap()
}

#[test]
fn a_campaign_adapts_reports_and_resumes_with_the_same_weights() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let total = (LAG + 8) * BATCH;
    let text = campaign(&whole, total, false);
    assert!(text.contains("adaptive swarm (which switches paid off)"), "{text}");
    let s = swarm_of(&whole);
    // The planted `xor` bug is in glue, which nearly every program has: new signatures first,
    // then duplicates, counted per switch.
    assert!(s.stats.values().any(|k| k.new > 0), "{s:#?}");
    assert!(s.stats.values().any(|k| k.duplicates > 0), "{s:#?}");
    assert!(s.stats.values().all(|k| k.new + k.known + k.duplicates <= k.programs));
    assert!(!s.weights.is_empty());
    assert!(s.weights.values().all(|w| (MIN_KEEP..=MAX_KEEP).contains(w)), "{:?}", s.weights);
    assert_eq!(s.applied, Some(total / BATCH - 1));

    // The same campaign in two sessions, split at batch S = LAG − 4. Every batch of the
    // campaign (all below S + LAG) is generated with weights from outcomes of batches before S,
    // which both runs share, so the programs — and with them each switch's program count —
    // must be the same if `--resume` restored the weights. (Outcomes after the split may
    // differ: the campaign de-duplicates raw findings per session.)
    let split = dir.path().join("split");
    campaign(&split, (LAG - 4) * BATCH, false);
    assert!(!swarm_of(&split).weights.is_empty(), "nothing adapted before the split");
    campaign(&split, 12 * BATCH, true);
    let r = swarm_of(&split);
    assert_eq!(r.applied, s.applied);
    let programs = |s: &Swarm| s.stats.iter().map(|(k, v)| (k.clone(), v.programs)).collect::<Vec<_>>();
    assert_eq!(programs(&r), programs(&s), "the resumed session generated other programs");
}
