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
}
