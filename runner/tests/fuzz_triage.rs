//! Cheap triage before minimization, end to end without a GPU: a campaign with a planted oracle
//! bug (`xor` computed as `or`; the worker-process oracle is the correct second opinion) counts
//! its findings as known — and minimizes none of them — when a `--known` entry matches their
//! shape, and minimizes and stores them when none does. Both read the campaign's summary
//! (`campaign.json`: triage counts and stage times).

use std::path::Path;
use std::process::Command;

use runner::findings::FindingsDoc;

fn campaign(run: &Path, known: &Path) -> (std::process::Output, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(["fuzz", "--time", "120s", "--programs", "256", "--batch", "64", "--seed", "3"])
        .args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or", "--known"])
        .arg(known)
        .arg("--out")
        .arg(run)
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
        .output()
        .unwrap();
    let state = std::fs::read_to_string(run.join("campaign.json")).unwrap();
    (out, serde_json::from_str(&state).unwrap())
}

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn count(state: &serde_json::Value, field: &str) -> u64 {
    state["triage"][field].as_u64().unwrap_or_else(|| panic!("no triage.{field} in {state:#}"))
}

#[test]
fn a_finding_of_a_known_shape_is_counted_as_known_and_not_minimized() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known");
    std::fs::create_dir(&known).unwrap();
    std::fs::write(
        known.join("planted-xor.toml"),
        "reason = \"the planted bug: the in-process oracle computes xor as or\"\n\
         evidence = \"runner/tests/fuzz_triage.rs\"\n\
         [signature]\nclass = \"hardware-spec\"\nshape = \"xor.* → …\"\nbackends = [\"oracle-worker\"]\n",
    )
    .unwrap();
    let run = dir.path().join("run");
    let (out, state) = campaign(&run, &known);
    let text = text(&out);
    assert!(out.status.success(), "only known findings: exit status 0\n{text}");
    assert!(count(&state, "known_before_minimization") > 0, "{state:#}\n{text}");
    assert_eq!(count(&state, "known_before_minimization"), count(&state, "raw"), "{state:#}");
    for field in ["queued", "minimized", "minimization_calls"] {
        assert_eq!(count(&state, field), 0, "{field}: {state:#}");
    }
    let doc = FindingsDoc::load(&run).unwrap();
    assert!(doc.findings.is_empty(), "{:#?}", doc.findings);
    let hit = doc.known.iter().find(|k| k.id == "planted-xor").unwrap_or_else(|| panic!("{:#?}", doc.known));
    assert_eq!(hit.count, count(&state, "raw"));
    // The stage breakdown is printed and kept.
    assert!(text.contains("stages (") && text.contains("oracle"), "{text}");
    for stage in ["generation", "oracle", "compare", "triage", "run on oracle-worker"] {
        let t = &state["stages"][stage];
        assert!(t["wall_s"].as_f64().is_some_and(|w| w >= 0.0), "{stage}: {state:#}");
        assert!(t["cpu_s"].as_f64().is_some(), "{stage}: {state:#}");
    }
}

#[test]
fn without_a_known_entry_the_finding_is_minimized_and_stored() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known");
    std::fs::create_dir(&known).unwrap();
    let run = dir.path().join("run");
    let (out, state) = campaign(&run, &known);
    let text = text(&out);
    assert_eq!(out.status.code(), Some(1), "new findings: exit status 1\n{text}");
    assert_eq!(count(&state, "known_before_minimization"), 0, "{state:#}");
    assert!(count(&state, "minimized") > 0 && count(&state, "minimization_calls") > 0, "{state:#}");
    assert_eq!(count(&state, "queued"), count(&state, "minimized") + count(&state, "unminimized_at_end"));
    let doc = FindingsDoc::load(&run).unwrap();
    let f = doc
        .findings
        .iter()
        .find(|f| f.signature.shape.contains("xor."))
        .unwrap_or_else(|| panic!("no finding with xor in its shape:\n{text}\n{:#?}", doc.findings));
    assert!(f.minimized_instructions < f.original_instructions, "{f:#?}");
    // Every raw finding is an occurrence of a stored finding, also those of a kind seen often
    // enough, which wait for the first of their kind while it is being minimized.
    assert!(count(&state, "repeated_kind") > 0, "{state:#}");
    assert_eq!(doc.occurrences() + doc.known_occurrences(), count(&state, "raw"), "{state:#}");
    assert!(state["stages"]["minimization"]["wall_s"].as_f64().is_some_and(|w| w > 0.0), "{state:#}");
}
