//! `ptxdiff conform` over the asynchronous-copy forms through the binary, without a GPU: the
//! `--forms` glob selects async forms, the rows are the oracle's and every case of the
//! generator ran; `--no-async` leaves them out (a glob that then matches nothing is an error).

use std::process::Command;

/// The binary, never installing ptxas (tests do not download).
fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.env("PTXDIFF_NO_INSTALL", "1");
    c
}

fn rows_of(dir: &std::path::Path) -> Vec<serde_json::Value> {
    let run = std::fs::read_dir(dir).unwrap().next().unwrap().unwrap().path();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("rows.json")).unwrap()).unwrap();
    report["rows"].as_array().unwrap().clone()
}

#[test]
fn async_rows_run_every_case_on_the_oracle() {
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let glob = "cp.async.ca.shared.global*";
    let plan = runner::conform::async_rows::plan(&target, Some(glob));
    assert!(plan.cases.len() > 100, "{} cases", plan.cases.len());
    let dir = tempfile::tempdir().unwrap();
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", glob, "--backends", "oracle", "--reports"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let rows = rows_of(dir.path());
    let mut forms: Vec<&str> = plan.cases.iter().map(|c| c.form.as_str()).collect();
    forms.dedup();
    assert_eq!(rows.len(), forms.len(), "one row per form: {rows:?}");
    for (r, form) in rows.iter().zip(&forms) {
        assert_eq!((r["form"].as_str(), r["backend"].as_str()), (Some(*form), Some("oracle")));
        assert!(r["failure"].is_null() && r["mismatches"] == 0, "{r}");
        let n = plan.cases.iter().filter(|c| c.form == *form).count() as u64;
        assert_eq!(r["checked"].as_u64(), Some(n), "every case of {form} ran");
    }
    assert!(stdout.contains("cp.async"), "the family summary names the async family: {stdout}");
    assert!(stdout.contains("asynchronous stages"), "{stdout}");
}

#[test]
fn no_async_leaves_the_async_rows_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", "cp.async.bulk.prefetch*", "--no-async"])
        .args(["--backends", "oracle", "--reports"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no form valid on sm_90 matches --forms"));
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", "cp.async.bulk.prefetch*", "--backends", "oracle"])
        .arg("--reports")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = rows_of(dir.path());
    assert!(!rows.is_empty() && rows.iter().all(|r| r["form"].as_str().unwrap().starts_with("cp.async.bulk.prefetch")));
}
