//! `ptxdiff conform` end to end through the binary: on a machine without a GPU it must say so,
//! still run the ptxas-check and oracle backends, write its findings run directory (rows.json,
//! findings.json and the three rendered reports) atomically and exit 0;
//! with a GPU it runs the GPU backend. A bad backend name is a clear error with exit status 2.
//! The first run installs ptxas itself (tested here only with the installation switched off or
//! failing: tests never download), the output is a compact summary whose last lines say what
//! ran and what the verdict covers, paths do not depend on the working directory, and bad
//! options are errors.

mod common;

use std::process::Command;

/// The binary, never installing ptxas (tests do not download).
fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.env("PTXDIFF_NO_INSTALL", "1");
    c
}

#[test]
fn conform_runs_and_writes_reports() {
    let dir = tempfile::tempdir().unwrap();
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", "cvt.rn.*.f32", "--samples", "4096", "--reports"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let gpu = !stdout.contains("GPU backend unavailable");
    if !gpu {
        assert!(stdout.contains("backends run: ptxas-check, oracle"), "{stdout}");
    }
    let run = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("rows.json")).unwrap()).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert!(rows.len() >= 10, "{} rows", rows.len());
    assert!(rows.iter().all(|r| r["failure"].is_null() && r["mismatches"] == 0), "{rows:?}");
    assert!(rows.iter().any(|r| r["form"] == "cvt.rn.f16.f32"), "{rows:?}");
    let doc = runner::findings::FindingsDoc::load(&run).unwrap();
    assert!(doc.findings.is_empty(), "{:?}", doc.findings);
    assert_eq!(doc.run.extra["rows"], rows.len().to_string());
    let junit = std::fs::read_to_string(run.join("junit.xml")).unwrap();
    assert!(junit.starts_with("<?xml") && junit.contains(r#"failures="0""#), "{junit}");
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(md.contains("# ptxdiff conform: conform-"), "{md}");
    assert!(run.join("index.html").is_file());
    assert!(!std::fs::read_dir(&run).unwrap().any(|e| e.unwrap().path().extension().is_some_and(|x| x == "tmp")));
}

#[test]
fn bad_options_are_clear_errors() {
    let out = ptxdiff().args(["conform", "--backends", "cuda:magic"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown backend `cuda:magic`"));
    let out = ptxdiff().args(["conform", "--target", "sm_42"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown target"));
    let out = ptxdiff().args(["conform", "--allow-off", "bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown allowance `bogus`") && err.contains("nan-payload, cvt-f32-bf16-nan"), "{err}");
    let out = ptxdiff().args(["conform", "--ptxas", "13.0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("VERSION=PATH"));
}

/// `--ptxas VERSION=PATH` makes each ptxas a backend of its own: without a GPU, the fallback
/// runs `ptxas-check-VERSION` per version, side by side.
#[test]
fn several_ptxas_versions_run_side_by_side() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let list = format!("13.0={p},13.5={p}", p = ptxas.path.display());
    let out = ptxdiff()
        .args(["conform", "--verbose", "--target", "sm_90", "--forms", "cvt.rn.f16.f32", "--samples", "256"])
        .args(["--ptxas", &list])
        .arg("--reports")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    if stdout.contains("GPU backend unavailable") {
        for b in ["ptxas-check-13.0-O0", "ptxas-check-13.0-O3", "ptxas-check-13.5-O0", "ptxas-check-13.5-O3"] {
            assert!(stdout.contains(b), "{b} missing:\n{stdout}");
        }
    } else {
        assert!(stdout.contains("cuda:ptxas-13.0-O3") && stdout.contains("cuda:ptxas-13.5-O3"), "{stdout}");
    }
}

/// A small conform run (`cvt.rn.f16.f32`, 256 inputs) into `reports`.
fn small(reports: &std::path::Path) -> Command {
    let mut c = ptxdiff();
    c.args(["conform", "--target", "sm_90", "--forms", "cvt.rn.f16.f32", "--samples", "256", "--reports"]).arg(reports);
    c
}

/// A machine where no ptxas can be found: an empty repository root and cache, a `PATH` of the
/// system folders plus `fake/python3` (which fails like pip without network and leaves a mark
/// that it ran).
fn without_ptxas(c: &mut Command, tmp: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let fake = tmp.join("fake");
    std::fs::create_dir_all(&fake).unwrap();
    let python = fake.join("python3");
    let mark = tmp.join("python-ran");
    std::fs::write(
        &python,
        format!(
            "#!/bin/sh\ntouch {}\necho 'ERROR: Could not find a version (no network)' >&2\nexit 1\n",
            mark.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(tmp.join("root/corpus/known")).unwrap();
    c.env("PATH", format!("{}:/usr/bin:/bin", fake.display()))
        .env("PTXDIFF_ROOT", tmp.join("root"))
        .env("PTXDIFF_CACHE", tmp.join("cache"))
        .env_remove("PTXAS")
        .env_remove("CUDA_HOME")
        .env_remove("PTXDIFF_NO_INSTALL");
    mark
}

/// First run without ptxas: it tries to install the pinned wheel (saying so on one line), and
/// when that fails (no network) says what to do and goes on; the switch and the environment
/// variable turn the installation off. No test downloads anything.
#[test]
fn first_run_without_ptxas_installs_it_or_says_what_to_do() {
    if std::path::Path::new("/usr/bin/ptxas").exists() || std::path::Path::new("/usr/local/cuda/bin/ptxas").exists() {
        common::skip("system ptxas", "a ptxas in /usr/bin or /usr/local/cuda cannot be hidden from the run");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut c = small(&tmp.path().join("r"));
    let mark = without_ptxas(&mut c, tmp.path());
    let out = c.output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(mark.exists(), "the installer did not run:\n{stderr}");
    assert!(stderr.contains("no ptxas found: installing the pinned nvidia-cuda-nvcc wheel"), "{stderr}");
    assert!(stderr.contains(&tmp.path().join("cache/nvcc").display().to_string()), "{stderr}");
    assert!(stderr.contains("could not install ptxas") && stderr.contains("set PTXAS="), "{stderr}");
    assert!(stderr.contains("no network"), "the installer's own message is quoted:\n{stderr}");
    assert!(stdout.contains("\nptxas: none\n"), "{stdout}");
    assert!(stdout.contains("without ptxas this checks only the oracle against itself"), "{stdout}");

    for off in ["--no-install-ptxas", "PTXDIFF_NO_INSTALL"] {
        let tmp = tempfile::tempdir().unwrap();
        let mut c = small(&tmp.path().join("r"));
        let mark = without_ptxas(&mut c, tmp.path());
        if off.starts_with("--") {
            c.arg(off);
        } else {
            c.env(off, "1");
        }
        let out = c.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(!mark.exists(), "{off}: the installer ran:\n{stderr}");
        assert!(stderr.contains("no ptxas found; not installing one"), "{off}: {stderr}");
    }
}

/// The default output is compact (per family, totals, report path), its last lines say what ran,
/// what did not and what the verdict covers, and progress on a non-terminal is plain lines;
/// `--verbose` prints every row.
#[test]
fn compact_output_ends_with_what_ran_and_what_the_verdict_covers() {
    let tmp = tempfile::tempdir().unwrap();
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", "cvt.rn.*.f32", "--samples", "256", "--reports"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("cvt.rn.f16.f32"), "rows are printed only with --verbose:\n{stdout}");
    assert!(stdout.contains("│ family") && stdout.contains("│ total") && stdout.contains("failed"), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let tail = lines[lines.len().saturating_sub(7)..].join("\n");
    for want in ["inputs checked", "report: ", "device: ", "ptxas: ", "backends run: ", "the verdict covers: "] {
        assert!(tail.contains(want), "`{want}` not among the last lines:\n{tail}");
    }
    assert!(lines.last().unwrap().starts_with("the verdict covers: "), "{stdout}");
    if stdout.contains("device: no GPU") {
        assert!(tail.contains("not run: cuda:ptxas-O3"), "{tail}");
        assert!(tail.contains("it says nothing about hardware"), "{tail}");
    }
    assert!(stderr.contains("conform, ") && stderr.contains("/s"), "plain progress lines:\n{stderr}");
    assert!(!stderr.contains('\r') && !stderr.contains('\x1b'), "escape codes in a log:\n{stderr:?}");

    let out = ptxdiff()
        .args(["conform", "--verbose", "--target", "sm_90", "--forms", "cvt.rn.f16.f32", "--samples", "256"])
        .arg("--reports")
        .arg(tmp.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("cvt.rn.f16.f32"), "{stdout}");
}

/// `corpus/known` and `reports/` are the repository's, whatever the working directory; a
/// `--known` path that does not exist is an error.
#[test]
fn paths_do_not_depend_on_the_working_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    std::fs::create_dir_all(root.join("corpus/known")).unwrap();
    let cwd = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = ptxdiff()
        .current_dir(&cwd)
        .env("PTXDIFF_ROOT", &root)
        .env_remove("PTXDIFF_REPORTS")
        .env_remove("PTXDIFF_KNOWN")
        .args(["conform", "--target", "sm_90", "--forms", "cvt.rn.f16.f32", "--samples", "256"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_dir(root.join("reports")).unwrap().count(), 1, "{stdout}");
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0, "nothing is written to the working directory");

    let out = small(tmp.path()).args(["--known", "/nonexistent/known"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--known /nonexistent/known: no such directory"));
}

/// Defect 4: runs started in the same second get their own run directories.
#[test]
fn runs_started_together_get_their_own_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..3)
        .map(|_| {
            small(tmp.path())
                .args(["--backends", "oracle"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let runs: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(runs.len(), 3, "{runs:?}");
    for run in runs {
        let doc = runner::findings::FindingsDoc::load(&run).unwrap();
        assert_eq!(doc.run.run_id, run.file_name().unwrap().to_string_lossy(), "{}", run.display());
    }
}

/// Defect 6 (conform): nonsense is an error, not a run that checks nothing.
#[test]
fn nonsense_options_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    for glob in ["[", "zzz*", ""] {
        let out = ptxdiff()
            .args(["conform", "--target", "sm_90", "--forms", glob, "--reports"])
            .arg(tmp.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--forms `{glob}`: {err}");
        assert!(
            err.contains("no form valid on sm_90 matches") && err.contains("ptxdiff variants --forms --family cvt"),
            "{err}"
        );
    }
    for (opt, v) in [("--samples", "0"), ("--jobs", "0")] {
        let out = ptxdiff().args(["conform", "--forms", "cvt.rn.f16.f32", opt, v]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{opt} {v}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(opt), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0, "no run directory for a refused run");
    // An explicitly requested backend that cannot run is an error, not a silent fallback.
    let out = small(tmp.path()).args(["--backends", "cuda:jit"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("unavailable") {
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("backend `cuda:jit` unavailable"), "{err}");
    }
    // --exhaustive on the oracle backend says what it does.
    let out = small(tmp.path()).args(["--exhaustive", "--backends", "oracle"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("note: --exhaustive: the oracle backend checks at most 65536 inputs per form"), "{stdout}");
}

/// `ptxdiff variants | head`: a closed pipe ends the listing quietly.
#[test]
fn variants_into_a_closed_pipe_exits_quietly() {
    let mut child = ptxdiff()
        .args(["variants", "--forms", "--target", "sm_100a"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}

/// `ptxdiff variants` prints the per-family counts by default (a screenful, not 119,009 lines);
/// `--forms` lists every form, one line each, not padded to the longest template.
#[test]
fn variants_prints_counts_by_default_and_forms_on_request() {
    let out = ptxdiff().args(["variants", "--target", "sm_90"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() < 200, "{} lines", text.lines().count());
    assert!(text.contains("Forms valid on sm_90") && text.contains("│ total"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
    let out = ptxdiff().args(["variants", "--target", "sm_90", "--forms", "--family", "prmt"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let forms: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert!(forms.len() > 5 && forms.iter().all(|l| l.contains("prmt.b32") && !l.ends_with(' ')), "{text}");
    let out = ptxdiff().args(["variants", "--forms", "--format", "json", "--family", "prmt"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["forms"].as_array().unwrap().len(), forms.len());
    let out = ptxdiff().args(["variants", "--format", "json", "--family", "prmt"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["forms"].as_array().unwrap().is_empty() && doc["counts"]["prmt"].as_u64() == Some(forms.len() as u64));
}
