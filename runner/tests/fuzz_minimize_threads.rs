//! `ptxdiff fuzz --minimize-threads` end to end without a GPU (the oracle and the worker
//! oracle, a planted oracle bug): three minimization threads store the findings and case files
//! one thread stores (the reducer is deterministic and finished cases are recorded in the order
//! they were queued), `--no-minimize` is not touched by the knob, and a campaign minimizing on
//! three threads killed with SIGKILL loses nothing and resumes.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use runner::findings::FindingsDoc;

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c.env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    c
}

/// A campaign of 192 programs (seed 1, batches of 64) with the planted `xor-as-or` in `run`,
/// with `extra` options; its text. It queues about 50 findings to minimize, fewer than the
/// queue holds, so none is stored unminimized for a full queue however slow the threads.
fn campaign(run: &Path, extra: &[&str]) -> String {
    let out = ptxdiff()
        .args(["fuzz", "--time", "300s", "--programs", "192", "--batch", "64", "--seed", "1"])
        .args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or"])
        .args(extra)
        .arg("--out")
        .arg(run)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "new findings give exit status 1:\n{text}");
    assert!(!text.contains("as the minimizer was busy"), "the queue was full:\n{text}");
    text
}

/// What a campaign stored, without its times: per finding id, its count, instructions before
/// and after minimization and whether it showed again, and its case file.
fn stored(run: &Path) -> BTreeMap<String, (u64, u32, u32, Option<bool>, String)> {
    let doc = FindingsDoc::load(run).unwrap();
    doc.findings
        .iter()
        .map(|f| {
            let case = std::fs::read_to_string(run.join("cases").join(format!("{}.case", f.id))).unwrap_or_default();
            (f.id.clone(), (f.count, f.original_instructions, f.minimized_instructions, f.reproduced, case))
        })
        .collect()
}

#[test]
fn three_threads_store_what_one_thread_stores() {
    let dir = tempfile::tempdir().unwrap();
    let (one, three) = (dir.path().join("one"), dir.path().join("three"));
    let t = Instant::now();
    campaign(&one, &["--minimize-threads", "1"]);
    let t1 = t.elapsed();
    let t = Instant::now();
    let text = campaign(&three, &["--minimize-threads", "3"]);
    let t3 = t.elapsed();
    let (a, b) = (stored(&one), stored(&three));
    assert!(a.values().any(|f| f.2 < f.1), "something was minimized: {a:#?}");
    assert_eq!(a, b, "{text}");
    // The campaign ends once every queued finding is minimized.
    eprintln!("{} findings; campaign with 1 minimization thread {t1:.1?}, with 3 {t3:.1?}", a.len());
}

#[test]
fn the_knob_leaves_a_campaign_without_minimization_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (one, three) = (dir.path().join("one"), dir.path().join("three"));
    campaign(&one, &["--no-minimize"]);
    campaign(&three, &["--no-minimize", "--minimize-threads", "3"]);
    let (a, b) = (stored(&one), stored(&three));
    assert!(!a.is_empty() && a.values().all(|f| f.1 == f.2), "stored as found: {a:#?}");
    assert_eq!(a, b);
}

#[test]
fn a_killed_campaign_minimizing_on_three_threads_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut child = ptxdiff()
        .args(["fuzz", "--time", "300s", "--batch", "64", "--seed", "11", "--minimize-threads", "3"])
        .args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or", "--out"])
        .arg(&run)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let findings = run.join("findings");
    let count = || {
        std::fs::read_dir(&findings)
            .map(|d| d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "json")).count())
            .unwrap_or(0)
    };
    while (count() < 1 || !run.join("campaign.json").is_file()) && t.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    let _ = child.wait();
    assert!(count() >= 1, "no finding written within 120 s");
    let doc = FindingsDoc::load(&run).unwrap();
    for f in &doc.findings {
        assert!(run.join("cases").join(format!("{}.case", f.id)).is_file(), "case of {} missing", f.id);
    }
    let out = ptxdiff()
        .args(["fuzz", "--programs", "128", "--time", "60s", "--minimize-threads", "3", "--resume"])
        .arg(&run)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("seed 11") && matches!(out.status.code(), Some(0 | 1)), "{text}");
    let after = FindingsDoc::load(&run).unwrap();
    assert!(after.findings.len() >= doc.findings.len(), "{text}");
    for f in &after.findings {
        assert!(run.join("cases").join(format!("{}.case", f.id)).is_file(), "case of {} missing", f.id);
    }
}
