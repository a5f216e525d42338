//! `ptxdiff fuzz`, `replay` and `minimize` end to end without a GPU: a short campaign on the
//! oracle and ptxas-check; a planted oracle bug found, minimized and reported within seconds
//! (the worker-process oracle is the correct second opinion); a campaign killed with SIGKILL
//! loses nothing it had recorded and resumes.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use runner::findings::{FindingClass, FindingsDoc};

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c
}

#[test]
fn a_short_campaign_without_gpu_runs_oracle_and_ptxas() {
    if common::ptxas_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = ptxdiff()
        .args(["fuzz", "--time", "120s", "--programs", "512", "--batch", "128", "--seed", "7", "--out"])
        .arg(&run)
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("512 programs"), "{text}");
    let doc = FindingsDoc::load(&run).unwrap();
    assert!(out.status.success(), "new findings on a clean run (ptxas rejections?):\n{text}\n{:#?}", doc.findings);
    for f in ["index.html", "summary.md", "junit.xml", "campaign.json"] {
        assert!(run.join(f).is_file(), "{f} missing");
    }
    if std::env::var_os("CUDA_VISIBLE_DEVICES").is_none() && !Path::new("/dev/nvidia0").exists() {
        assert!(text.contains("GPU backend unavailable: "), "{text}");
        assert_eq!(text.matches("unavailable").count(), 1, "said once, not `unavailable: … unavailable`:\n{text}");
        // campaign.json lists the backends that ran, not the GPU ones asked for.
        let state: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
        assert_eq!(state["backends"], serde_json::json!(["oracle", "ptxas-check"]), "{state}");
    }
    // The triage report is short lines, not one line of counters.
    let triage = text.lines().position(|l| l.starts_with("triage")).expect("a triage report");
    assert!(text.lines().skip(triage).take(6).all(|l| l.chars().count() <= 100), "{text}");
}

#[test]
fn bad_allowance_and_backend_names_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        ptxdiff().args(["fuzz", "--programs", "1", "--allow-off", "bogus", "--out"]).arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown allowance `bogus`") && err.contains("nan-payload, cvt-f32-bf16-nan"), "{err}");
    let out = ptxdiff()
        .args(["fuzz", "--programs", "1", "--backends", "cuda:magic", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown backend `cuda:magic`") && err.contains("oracle-worker"), "{err}");
}

#[test]
fn a_planted_oracle_bug_is_found_and_minimized() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let t = Instant::now();
    let out = ptxdiff()
        .args(["fuzz", "--time", "120s", "--programs", "1024", "--batch", "64", "--seed", "1"])
        .args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or", "--out"])
        .arg(&run)
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
        .output()
        .unwrap();
    let secs = t.elapsed().as_secs_f64();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "new findings give exit status 1:\n{text}");
    let doc = FindingsDoc::load(&run).unwrap();
    // The xor finding that minimized furthest: how far one reduces depends on the program
    // around it (a vector load the minimizer cannot split keeps its unpacking `mov`).
    let f = doc
        .findings
        .iter()
        .filter(|f| f.signature.form.starts_with("xor"))
        .min_by_key(|f| f.minimized_instructions)
        .unwrap_or_else(|| panic!("no xor finding:\n{text}\n{:#?}", doc.findings));
    assert_eq!(f.signature.class, FindingClass::HardwareSpec);
    assert_eq!(f.signature.backends, vec!["oracle-worker"]);
    assert!(f.minimized_instructions <= 4 && f.minimized_instructions < f.original_instructions, "{f:#?}");
    eprintln!(
        "planted bug: found and minimized {} → {} instructions; campaign {secs:.1} s",
        f.original_instructions, f.minimized_instructions
    );
    // The reproducer replays (the worker oracle has no planted bug, so it agrees) and parses.
    let case = run.join("cases").join(format!("{}.case", f.id));
    let replay = ptxdiff().arg("replay").arg(&case).args(["--backends", "oracle-worker"]).output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stdout));
    assert!(std::fs::read_to_string(run.join("index.html")).unwrap().contains(&f.id));
}

#[test]
fn a_killed_campaign_loses_nothing_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut child = ptxdiff()
        .args(["fuzz", "--time", "300s", "--batch", "64", "--seed", "11", "--no-minimize"])
        .args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or", "--out"])
        .arg(&run)
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
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
    // A finding on disk and the state of at least one finished batch (written after the batch's
    // findings), so that there is a campaign to resume; under load the two are seconds apart.
    while (count() < 1 || !run.join("campaign.json").is_file()) && t.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    let _ = child.wait();
    let on_disk = count();
    assert!(on_disk >= 1, "no finding written within 120 s");
    let doc = FindingsDoc::load(&run).unwrap();
    assert!(doc.findings.len() >= on_disk, "findings.json lost findings: {} < {on_disk}", doc.findings.len());
    for f in &doc.findings {
        assert!(run.join("cases").join(format!("{}.case", f.id)).is_file(), "case of {} missing", f.id);
    }
    let out = ptxdiff()
        .args(["fuzz", "--programs", "128", "--time", "60s", "--resume"])
        .arg(&run)
        .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("seed 11"), "{text}");
    assert!(FindingsDoc::load(&run).unwrap().findings.len() >= doc.findings.len());
}

fn text_of(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A tiny campaign on the oracle alone in `run`.
fn tiny_campaign(run: &Path) -> std::process::Output {
    ptxdiff()
        .args(["fuzz", "--programs", "1", "--batch", "1", "--seed", "5", "--backends", "oracle", "--out"])
        .arg(run)
        .output()
        .unwrap()
}

#[test]
fn out_refuses_a_non_empty_directory_that_is_not_a_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("mine");
    std::fs::create_dir_all(run.join("scratch")).unwrap();
    std::fs::write(run.join("scratch").join("keep.txt"), "precious").unwrap();
    std::fs::write(run.join("index.html"), "my page").unwrap();
    let out = ptxdiff().args(["fuzz", "--programs", "1", "--backends", "oracle", "--out"]).arg(&run).output().unwrap();
    let text = text_of(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("is not empty and holds no campaign") && text.contains("--resume"), "{text}");
    assert_eq!(std::fs::read_to_string(run.join("scratch").join("keep.txt")).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(run.join("index.html")).unwrap(), "my page");
    assert!(!run.join("campaign.json").exists());

    // A campaign there: --out refuses to start another over it, --resume continues it.
    let run = dir.path().join("campaign");
    let out = tiny_campaign(&run);
    assert!(out.status.success(), "{}", text_of(&out));
    let before = std::fs::read_to_string(run.join("campaign.json")).unwrap();
    let out = tiny_campaign(&run);
    let text = text_of(&out);
    assert!(!out.status.success() && text.contains("already holds a campaign"), "{text}");
    assert_eq!(std::fs::read_to_string(run.join("campaign.json")).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn resume_refuses_linked_folders_and_deletes_no_foreign_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = tiny_campaign(&run);
    assert!(out.status.success(), "{}", text_of(&out));
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("notes.tmp"), "foreign").unwrap();
    std::fs::write(elsewhere.join("a.case.12.tmp"), "foreign too").unwrap();
    std::fs::remove_dir_all(run.join("cases")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, run.join("cases")).unwrap();
    let out =
        ptxdiff().args(["fuzz", "--programs", "1", "--backends", "oracle", "--resume"]).arg(&run).output().unwrap();
    let text = text_of(&out);
    assert!(!out.status.success() && text.contains("symbolic link"), "{text}");
    let names: Vec<_> = std::fs::read_dir(&elsewhere).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");

    // A stray file of another program's naming in a real campaign folder survives a resume.
    std::fs::remove_file(run.join("cases")).unwrap();
    std::fs::create_dir(run.join("cases")).unwrap();
    std::fs::write(run.join("cases").join("notes.tmp"), "mine").unwrap();
    let out =
        ptxdiff().args(["fuzz", "--programs", "1", "--backends", "oracle", "--resume"]).arg(&run).output().unwrap();
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(run.join("cases").join("notes.tmp").is_file());
}

fn no_gpu() -> bool {
    std::env::var_os("CUDA_VISIBLE_DEVICES").is_none() && !Path::new("/dev/nvidia0").exists()
}

#[test]
fn nonsense_options_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh");
    for (opt, value) in [("--jobs", "0"), ("--batch", "0"), ("--programs", "0")] {
        let out = ptxdiff().args(["fuzz", opt, value, "--out"]).arg(&fresh).output().unwrap();
        let text = text_of(&out);
        assert_eq!(out.status.code(), Some(2), "{opt} {value}: {text}");
        assert!(text.contains("must be at least 1"), "{text}");
    }
    let out = ptxdiff()
        .args(["fuzz", "--programs", "1", "--backends", "oracle", "--known", "/nonexistent/known", "--out"])
        .arg(&fresh)
        .output()
        .unwrap();
    let text = text_of(&out);
    assert!(!out.status.success() && text.contains("--known /nonexistent/known: no such directory"), "{text}");
    assert!(!fresh.exists(), "nothing written on a refused command line");

    // Options fixed by a campaign conflict with --resume when they differ.
    let run = dir.path().join("run");
    assert!(tiny_campaign(&run).status.success());
    let resume = |extra: &[&str]| {
        ptxdiff()
            .args(["fuzz", "--programs", "1", "--backends", "oracle"])
            .args(extra)
            .arg("--resume")
            .arg(&run)
            .output()
            .unwrap()
    };
    let out = resume(&["--seed", "6"]);
    assert!(!out.status.success() && text_of(&out).contains("--seed 6 conflicts"), "{}", text_of(&out));
    let other = dir.path().join("other");
    let out = resume(&["--out", other.to_str().unwrap()]);
    assert!(!out.status.success() && text_of(&out).contains("conflicts with --resume"), "{}", text_of(&out));
    let out = resume(&["--seed", "5"]);
    assert!(out.status.success(), "the campaign's own seed agrees: {}", text_of(&out));
    assert!(!String::from_utf8_lossy(&out.stderr).contains(['\r', '\x1b']), "no \\r or escapes off a terminal");

    // An out-of-range counter in campaign.json is rejected on load, the field named.
    let state = std::fs::read_to_string(run.join("campaign.json")).unwrap();
    let at = state.find("\"next_batch\": ").unwrap() + "\"next_batch\": ".len();
    let end = at + state[at..].find(',').unwrap();
    std::fs::write(run.join("campaign.json"), format!("{}18446744073709551615{}", &state[..at], &state[end..]))
        .unwrap();
    let out = resume(&[]);
    let text = text_of(&out);
    assert!(!out.status.success() && text.contains("field `next_batch`"), "{text}");

    if no_gpu() {
        // An explicitly requested backend that cannot run is an error, for fuzz and replay.
        let out = ptxdiff()
            .args(["fuzz", "--programs", "1", "--backends", "cuda:jit", "--out"])
            .arg(&fresh)
            .output()
            .unwrap();
        let text = text_of(&out);
        assert!(!out.status.success() && text.contains("unavailable") && text.contains("cuda:jit"), "{text}");
        let out =
            ptxdiff().arg("replay").arg(common::a_case(dir.path())).args(["--backends", "cuda:jit"]).output().unwrap();
        let text = text_of(&out);
        assert!(!out.status.success() && text.contains("unavailable") && !text.contains("agrees"), "{text}");
    }
}

#[test]
fn replay_bounds_header_sizes_and_names_the_oracle_once() {
    let dir = tempfile::tempdir().unwrap();
    let case = common::a_case(dir.path());
    let out = ptxdiff().arg("replay").arg(&case).args(["--backends", "oracle,oracle-worker"]).output().unwrap();
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    let line = text.lines().find(|l| l.starts_with("backends: ")).unwrap();
    assert_eq!(line, "backends: oracle, oracle-worker");
    let out = ptxdiff().arg("replay").arg(&case).args(["--backends", "oracle"]).output().unwrap();
    let text = text_of(&out);
    assert!(text.contains("nothing was compared") && !text.contains("agrees"), "{text}");

    let body = std::fs::read_to_string(&case).unwrap();
    let at = body.find(" shared=").unwrap();
    let end = at + body[at + 1..].find(|c: char| c.is_whitespace()).unwrap() + 1;
    for shared in ["shared=4000000000", "shared=100000000"] {
        std::fs::write(&case, format!("{}{shared}{}", &body[..at + 1], &body[end..])).unwrap();
        let t = Instant::now();
        let out = ptxdiff().arg("replay").arg(&case).args(["--backends", "oracle"]).output().unwrap();
        let text = text_of(&out);
        assert!(!out.status.success() && text.contains("at most 232448 bytes"), "{text}");
        assert!(t.elapsed() < Duration::from_secs(20), "{shared}: not fast");
    }
}

#[test]
fn programs_counts_exactly_and_the_summary_says_what_ran() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    // The default batch is 256 programs; --programs 1 still runs one.
    let out = ptxdiff()
        .args(["fuzz", "--programs", "1", "--seed", "5", "--backends", "oracle", "--out"])
        .arg(&run)
        .output()
        .unwrap();
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\n1 programs in "), "{text}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
    assert_eq!(state["programs"], 1, "{state}");
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert_eq!(md.matches("- target:").count(), 1, "{md}");
    assert!(md.contains("- programs: 1") && md.contains("- duration (s): "), "{md}");

    // A resumed session's rate is its own programs over its own time.
    let out =
        ptxdiff().args(["fuzz", "--programs", "2", "--backends", "oracle", "--resume"]).arg(&run).output().unwrap();
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\n2 programs in ") && text.contains("campaign: 3 programs"), "{text}");
}

/// `minimize` and `replay` leave no scratch folder behind, also when they stop with an error
/// ("nothing to minimize").
#[test]
fn replay_and_minimize_leave_no_scratch_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let case = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/shift-clamp/shift64.case"));
    for args in [&["minimize"][..], &["replay"][..]] {
        let out = ptxdiff()
            .args(args)
            .arg(case)
            .args(["--backends", "oracle-worker"])
            .env("TMPDIR", tmp.path())
            .env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"))
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(left.is_empty(), "{args:?} left {left:?} in the temp folder:\n{text}");
    }
}
