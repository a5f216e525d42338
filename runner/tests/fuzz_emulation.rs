//! Known root causes as emulations, end to end without a GPU: campaigns whose `oracle-worker`
//! has planted compiler bugs (`PTXDIFF_PLANT_WORKER`, `runner::worker::planted`; `test-hooks`
//! builds). A planted bug equal to a known emulation is counted known, whatever chain its
//! programs build around it; planted together with a bug no emulation explains, the other bug
//! is still found and stored; a backend whose words change from run to run is classed
//! non-deterministic, never a compiler bug. Each reads the campaign's `campaign.json` and
//! `findings.json`.

use std::path::Path;
use std::process::Command;

use runner::findings::{FindingClass, FindingsDoc};

/// Runs a campaign of 512 programs on the oracle and the oracle worker with `plant`, the known
/// entries of `known`.
fn campaign(run: &Path, known: &Path, plant: &str) -> (String, serde_json::Value, FindingsDoc) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(["fuzz", "--time", "150s", "--programs", "512", "--batch", "64", "--seed", "5"])
        .args(["--backends", "oracle,oracle-worker", "--known"])
        .arg(known)
        .arg("--out")
        .arg(run)
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
        .env("PTXDIFF_PLANT_WORKER", plant)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let state = std::fs::read_to_string(run.join("campaign.json")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text, serde_json::from_str(&state).unwrap(), FindingsDoc::load(run).unwrap())
}

fn count(state: &serde_json::Value, field: &str) -> u64 {
    state["triage"][field].as_u64().unwrap_or_else(|| panic!("no triage.{field} in {state:#}"))
}

/// A known-entries folder with one entry naming `emulation` for the oracle worker.
fn known_dir(dir: &Path, emulation: &str) -> std::path::PathBuf {
    let known = dir.join("known");
    std::fs::create_dir_all(&known).unwrap();
    std::fs::write(
        known.join("planted.toml"),
        format!(
            "reason = \"the planted compiler bug of the oracle worker\"\nevidence = \"runner/tests/fuzz_emulation.rs\"\n\
             emulation = \"{emulation}\"\n[signature]\nclass = [\"compiler\", \"hardware-spec\"]\nbackends = [\"oracle-worker\"]\n"
        ),
    )
    .unwrap();
    known
}

#[test]
fn a_planted_bug_equal_to_a_known_emulation_is_known_whatever_its_chain() {
    let dir = tempfile::tempdir().unwrap();
    let known = known_dir(dir.path(), "narrow-store-of-float-cvt");
    let run = dir.path().join("run");
    let (text, state, doc) = campaign(&run, &known, "narrow-store-of-float-cvt");
    let raw = count(&state, "raw");
    assert!(raw > 0, "the planted bug shows\n{text}");
    assert_eq!(count(&state, "known_by_emulation"), raw, "{state:#}\n{text}");
    assert!(doc.findings.is_empty(), "{:#?}", doc.findings);
    let hit = doc.known.iter().find(|k| k.id == "planted").unwrap_or_else(|| panic!("{:#?}", doc.known));
    assert_eq!(hit.count, raw);
    // Whatever the chain: the occurrences have several shapes (signatures).
    assert!(hit.signatures.len() >= 2, "{:#?}", hit.signatures);
    assert!(text.contains("known: the emulated root cause gives every differing word"), "{text}");
}

#[test]
fn a_known_emulation_beside_another_bug_leaves_the_other_bug_new() {
    let dir = tempfile::tempdir().unwrap();
    let known = known_dir(dir.path(), "narrow-store-of-float-cvt");
    let run = dir.path().join("run");
    let (text, state, doc) = campaign(&run, &known, "narrow-store-of-float-cvt,xor-as-or");
    assert!(count(&state, "known_by_emulation") > 0, "{state:#}\n{text}");
    let xor = doc.findings.iter().filter(|f| f.signature.form.starts_with("xor")).count();
    assert!(xor > 0, "the xor bug is new: {:#?}\n{text}", doc.findings);
    // No stored finding is one the emulation explains.
    assert!(doc.findings.iter().all(|f| f.signature.input_class != "narrow-store-of-float-cvt"), "{:#?}", doc.findings);
    // The minimized xor findings were reduced on (known after reduction?) in a stage of its own.
    assert!(text.contains("minimization: reduce on (known after reduction)"), "{text}");
}

#[test]
fn a_non_deterministic_backend_is_classed_non_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let known = known_dir(dir.path(), "narrow-store-of-float-cvt");
    let run = dir.path().join("run");
    let (text, state, doc) = campaign(&run, &known, "flaky");
    assert!(count(&state, "non_deterministic") > 0, "{state:#}\n{text}");
    assert!(!doc.findings.is_empty(), "{text}");
    for f in &doc.findings {
        assert_eq!(f.signature.class, FindingClass::NonDeterministic, "{f:#?}");
        assert!(f.title.starts_with("non-deterministic "), "{}", f.title);
        assert_eq!(f.reproduced, Some(false));
        let m = f.message.as_deref().unwrap_or_default();
        assert!(m.contains("the words changed between 4 runs") && m.contains("oracle-worker: 0x"), "{m}");
    }
    assert!(text.contains("non-deterministic"), "{text}");
    words_belong_to_their_cases(&doc);
}

/// Every stored finding's differing words are of its case's threads: a case whose reduced
/// program no longer shows the finding in its final run is stored as generated, with the
/// words that program gave (seed 3702's f93796d5 had stored threads 33–61 of a 32-thread case).
fn words_belong_to_their_cases(doc: &FindingsDoc) {
    for f in &doc.findings {
        assert!(f.mismatches.iter().all(|m| m.thread < f.threads), "{f:#?}");
    }
}

#[test]
fn replay_emulates_the_known_root_causes_as_a_campaign_does() {
    // A campaign without the entry stores the planted bug's findings as new; a replay of one
    // with the entry among the known findings (PTXDIFF_KNOWN) says that the emulation gives
    // every differing word, and without it does not (the minimizer of `ptxdiff minimize` runs
    // the same engine, so it keeps what the known causes leave unexplained).
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let known = known_dir(dir.path(), "narrow-store-of-float-cvt");
    let run = dir.path().join("run");
    let (text, _, doc) = campaign(&run, &empty, "narrow-store-of-float-cvt");
    let stored = doc.findings.first().unwrap_or_else(|| panic!("no finding stored\n{text}"));
    words_belong_to_their_cases(&doc);
    let case = run.join("cases").join(format!("{}.case", stored.id));
    let replay = |known: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(["replay", "--backends", "oracle,oracle-worker"])
            .arg(&case)
            .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
            .env("PTXDIFF_PLANT_WORKER", "narrow-store-of-float-cvt")
            .env("PTXDIFF_KNOWN", known)
            .output()
            .unwrap();
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    let with = replay(&known);
    assert!(with.contains("emulating the known root cause narrow-store-of-float-cvt"), "{with}");
    let without = replay(&empty);
    assert!(!without.contains("emulating the known root cause"), "{without}");
    assert!(without.contains("oracle-worker"), "{without}");
}
