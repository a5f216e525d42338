//! `ptxdiff conform` end to end through the binary: on a machine without a GPU it must say so,
//! still run the ptxas-check and oracle backends, write its findings run directory (rows.json,
//! findings.json and the three rendered reports) atomically and exit 0;
//! with a GPU it runs the GPU backend. A bad backend name is a clear error with exit status 2.

use std::process::Command;

fn ptxdiff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
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
        assert!(stdout.contains("ptxas-check-O3") && stdout.contains("oracle"), "{stdout}");
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
    assert!(md.contains("# ptxdiff findings: conform-"), "{md}");
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
    let Ok(ptxas) = runner::backend::default_ptxas() else {
        eprintln!("skipped: no ptxas (run ci/install-ptxas)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let list = format!("13.0={p},13.5={p}", p = ptxas.path.display());
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", "cvt.rn.f16.f32", "--samples", "256", "--ptxas", &list])
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
