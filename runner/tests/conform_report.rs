//! What `ptxdiff conform` tells a person and a CI, through the binary, without a GPU: known
//! failing rows one short line each and new failures in full, totals that add up, exit 0 when
//! every failing row is a known finding and 1 for a new one (`--strict`: known ones too); the
//! reports' per-row tables and JUnit test cases; the no-GPU notice before the run, progress
//! lines naming their phase, no GPU stage line without a GPU.
//!
//! Failing rows come from a planted ptxas: a wrapper around the real one (these tests skip
//! without ptxas) that rejects the sweep kernels of `cvt.rn.f16.f32` and `cvt.rz.f16.f32`, so
//! their `ptxas-check` rows fail with assembler rejections; a known-findings folder of the test
//! covers the `rn` one.

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary, never installing ptxas (tests do not download).
fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.env("PTXDIFF_NO_INSTALL", "1");
    c
}

/// Whether this machine has no GPU (the tests of the run without one skip otherwise).
fn no_gpu() -> bool {
    std::env::var_os("CUDA_VISIBLE_DEVICES").is_none() && !Path::new("/dev/nvidia0").exists()
}

/// A scratch folder with the planted ptxas (`ptxas`) and the known findings (`known/`), or
/// `None` (skipped) without a real ptxas or with a GPU.
fn planted() -> Option<tempfile::TempDir> {
    if !no_gpu() {
        common::skip("GPU present", "these tests read the run without a GPU");
        return None;
    }
    let real = common::ptxas_or_skip()?;
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("ptxas");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nsrc=\nfor a in \"$@\"; do case \"$a\" in *.ptx) src=$a;; esac; done\n\
             for r in rn rz; do\n  if [ -n \"$src\" ] && grep -q \"cvt\\.$r\\.f16\\.f32 \" \"$src\"; then\n    \
             echo \"ptxas $src, line 1; error   : Planted rejection of $r\" >&2; exit 255\n  fi\ndone\n\
             exec '{}' \"$@\"\n",
            real.path.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let known = dir.path().join("known");
    std::fs::create_dir(&known).unwrap();
    std::fs::write(
        known.join("planted-rn.toml"),
        "reason = \"the test's planted ptxas rejects cvt.rn.f16.f32\"\nevidence = \"runner/tests/conform_report.rs\"\n\n\
         [signature]\nclass = \"assembler-rejection\"\nform = \"cvt.rn.f16.f32\"\nbackends = [\"ptxas-check*\"]\n",
    )
    .unwrap();
    Some(dir)
}

/// `conform` of `forms` with the planted ptxas and known findings; its output and run folder.
fn run(dir: &Path, forms: &str, extra: &[&str]) -> (Output, PathBuf) {
    let reports = dir.join(format!("reports-{}", extra.join("")));
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--samples", "256", "--no-async", "--forms", forms, "--known"])
        .arg(dir.join("known"))
        .arg("--reports")
        .arg(&reports)
        .args(extra)
        .env("PTXAS", dir.join("ptxas"))
        .output()
        .unwrap();
    let run = std::fs::read_dir(&reports).map(|mut d| d.next().unwrap().unwrap().path()).unwrap_or_default();
    (out, run)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Known failing rows: one line each, at most 120 columns, and exit 0; new ones: the full
/// table and exit 1; the totals add up.
#[test]
fn known_failures_are_one_line_each_and_only_new_ones_fail_the_run() {
    let Some(dir) = planted() else { return };
    let (out, _) = run(dir.path(), "cvt.{rn,rz}.f16.f32", &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "a new finding fails the run: {text}");
    let known: Vec<&str> = text.lines().filter(|l| l.contains("known: planted-rn")).collect();
    assert_eq!(known.len(), 2, "{text}");
    for l in &known {
        assert!(l.chars().count() <= 120, "{l}");
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(words[0], "cvt.rn.f16.f32", "{l}");
        assert!(words[1].starts_with("ptxas-check-O"), "{l}");
    }
    let new = &text[text.find("new failures:").expect("a new-failures table")..];
    assert!(new.contains("cvt.rz.f16.f32") && new.contains("Planted rejection of rz"), "{new}");
    assert!(!new.contains("cvt.rn.f16.f32"), "known rows are not shown in full: {new}");
    assert!(text.contains("6 rows: 2 agree, 2 known, 2 new, 0 failed without a finding;"), "{text}");
    assert!(text.contains("│ total  │"), "{text}");

    // Only the known finding: exit 0; --strict: 1.
    let (out, _) = run(dir.path(), "cvt.rn.f16.f32", &[]);
    assert_eq!(out.status.code(), Some(0), "known findings only: {}", stdout(&out));
    assert!(!stdout(&out).contains("new failures:"), "{}", stdout(&out));
    let (out, _) = run(dir.path(), "cvt.rn.f16.f32", &["--strict"]);
    assert_eq!(out.status.code(), Some(1), "--strict fails on known findings: {}", stdout(&out));
}

/// The reports: a per-row table with the finding of each row, JUnit with a test case per row.
#[test]
fn the_reports_have_every_row() {
    let Some(dir) = planted() else { return };
    let (out, run) = run(dir.path(), "cvt.{rn,rz}.f16.f32", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(md.starts_with("# ptxdiff conform: conform-"), "{md}");
    assert!(md.contains("- started: 20") && md.contains(" UTC\n") && !md.contains("unix s"), "{md}");
    assert!(md.contains("| `cvt` | `cvt.rn.f16.f32` | ptxas-check-O3 | 0 | "), "{md}");
    assert!(md.contains("| known: planted-rn |"), "{md}");
    assert!(md.contains("| `cvt` | `cvt.rz.f16.f32` | oracle | 256 | agree |  |"), "{md}");
    assert!(md.contains("| `cuda:ptxas-O3` | GPU backend unavailable"), "{md}");
    let html = std::fs::read_to_string(run.join("index.html")).unwrap();
    assert_eq!(html.matches("<tr class=\"").count(), 6, "{html}");
    let junit = std::fs::read_to_string(run.join("junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let suite = doc.root_element();
    assert_eq!(suite.attribute("tests"), Some("7"), "6 rows and the GPU backend not run: {junit}");
    assert_eq!(suite.attribute("failures"), Some("2"), "{junit}");
    assert_eq!(suite.attribute("skipped"), Some("1"), "{junit}");
    let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 7);
    let known = cases.iter().filter(|c| c.descendants().any(|p| p.attribute("name") == Some("known"))).count();
    assert_eq!(known, 2, "{junit}");
    // `ptxdiff report RUN` renders the same tables again.
    std::fs::remove_file(run.join("summary.md")).unwrap();
    let again = ptxdiff().arg("report").arg(&run).output().unwrap();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(std::fs::read_to_string(run.join("summary.md")).unwrap(), md);
}

/// Without a GPU the run says so before it starts; the progress lines name their phase; no
/// GPU stage is reported; the family table has the tensormap.replace and
/// tensormap.cp_fenceproxy rows, and adds up.
#[test]
fn without_a_gpu_the_notice_comes_first_and_the_totals_add_up() {
    if !no_gpu() {
        common::skip("GPU present", "this test reads the run without a GPU");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--samples", "256", "--forms", "{tensormap,cvt.rn.f16.f32}*"])
        .arg("--reports")
        .arg(dir.path())
        .output()
        .unwrap();
    let (text, err) = (stdout(&out), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "{text}{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(first.contains("unavailable"), "the reason first: {err}");
    let notice = err.find("no GPU backend runs: running").expect("the notice");
    let progress = err.find("conform, ").expect("progress lines");
    assert!(notice < progress, "{err}");
    for l in err.lines().filter(|l| l.starts_with("conform")) {
        let phase = l.strip_prefix("conform, ").and_then(|r| r.split(':').next()).unwrap_or("");
        assert!(["ptxas-check", "oracle", "asynchronous copies"].contains(&phase), "{l}");
        assert!(!l.contains(": 0/0 "), "{l}");
    }
    assert!(!text.contains("GPU (print, compile, run)"), "{text}");
    // The family column is as wide as its longest name (`tensormap.cp_fenceproxy`).
    for family in ["tensormap.replace", "tensormap.cp_fenceproxy"] {
        let row = |l: &&str| l.starts_with(&format!("│ {family} ")) && l.contains("│ oracle ");
        assert!(text.lines().any(|l| row(&l)), "no {family} row:\n{text}");
    }
    let total = text.lines().find(|l| l.starts_with("│ total")).expect("a total line");
    let rows: usize = text.split(" rows: ").next().unwrap().rsplit('\n').next().unwrap().parse().unwrap();
    assert!(total.contains(&format!("│ {rows} ")), "{total} vs {rows} rows");
}

/// `conform --help` says what conform runs today (the asynchronous copies too), the exit
/// status with known findings, and `--strict`.
#[test]
fn the_help_is_current() {
    let out = ptxdiff().args(["conform", "--help"]).output().unwrap();
    let help = stdout(&out);
    assert!(out.status.success(), "{help}");
    assert!(!help.contains("every cvt, cvt.pack and prmt form valid"), "{help}");
    for want in ["asynchronous copies", "tensormap.replace", "known findings only", "--strict", "junit.xml"] {
        assert!(help.contains(want), "`{want}` missing:\n{help}");
    }
}
