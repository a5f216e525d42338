//! Runs over time and over machines, end to end through the binary and without a GPU: the
//! shards `--shard 1/3`, `2/3`, `3/3` of a conform run are disjoint, cover it, and merge
//! (`ptxdiff report merge`) into the unsharded run's rows and verdicts; a run compared with
//! itself (`--baseline`, `report diff`) is "no change" and exits 0; planted changes (a new
//! mismatch, a fixed row, a removed row, another ptxas, a slower row, a new finding) are
//! reported, and only a new finding that is not known gives exit status 1; bad `--shard`
//! values and runs that do not belong together are clear errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use runner::conform::results::{write_run, Report, Row};
use runner::findings::KnownSet;
use runner::sweep_check::Mismatch;
use serde_json::Value;

/// The binary, never installing ptxas, with the repository's known findings.
fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.env("PTXDIFF_NO_INSTALL", "1");
    c.env("PTXDIFF_KNOWN", concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/known"));
    c
}

fn text(out: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Forms of the small runs here (18 on sm_90), inputs per form.
const FORMS: &str = "cvt.rn.*.f32";
const SAMPLES: &str = "256";

/// A conform run of [`FORMS`] with the default backends (without a GPU: ptxas-check when a
/// ptxas is found, and the oracle) into a new folder under `root`; gives its run directory.
fn conform(root: &Path, name: &str, extra: &[&str]) -> (PathBuf, Output) {
    let reports = root.join(name);
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", FORMS, "--samples", SAMPLES, "--reports"])
        .arg(&reports)
        .args(extra)
        .output()
        .unwrap();
    let run = std::fs::read_dir(&reports).ok().and_then(|mut d| d.next()).map(|e| e.unwrap().path());
    (run.unwrap_or(reports), out)
}

fn rows(run: &Path) -> Vec<Value> {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(run.join("rows.json")).unwrap()).unwrap();
    doc["rows"].as_array().unwrap().clone()
}

/// A row without its timing.
fn timeless(mut r: Value) -> Value {
    r.as_object_mut().unwrap().remove("seconds");
    r.as_object_mut().unwrap().remove("stages");
    r
}

#[test]
fn sharded_runs_merge_into_the_unsharded_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, out) = conform(tmp.path(), "whole", &[]);
    assert!(out.status.success(), "{}", text(&out));
    let whole_rows = rows(&whole);
    assert!(whole_rows.len() >= 18, "{}", whole_rows.len());
    let mut shards = Vec::new();
    for i in 1..=3 {
        let (run, out) = conform(tmp.path(), &format!("shard{i}"), &["--shard", &format!("{i}/3")]);
        assert!(out.status.success(), "{}", text(&out));
        shards.push(run);
    }
    // Disjoint and covering: every form in exactly one shard, dealt round-robin.
    let forms = |rs: &[Value]| {
        let mut f: Vec<String> = rs.iter().map(|r| r["form"].as_str().unwrap().to_string()).collect();
        f.dedup();
        f
    };
    let mut per_shard: Vec<Vec<String>> = shards.iter().map(|s| forms(&rows(s))).collect();
    for f in &mut per_shard {
        f.sort();
        f.dedup();
    }
    let mut all: Vec<String> = per_shard.concat();
    all.sort();
    let mut expected = forms(&whole_rows);
    expected.sort();
    expected.dedup();
    assert_eq!(all, expected, "the shards' forms are the run's, each once");
    let sizes: Vec<usize> = per_shard.iter().map(Vec::len).collect();
    assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "round-robin: {sizes:?}");

    let merged = tmp.path().join("merged");
    let out = ptxdiff().args(["report", "merge"]).args(&shards).arg("--out").arg(&merged).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let merged_rows = rows(&merged);
    assert_eq!(
        merged_rows.into_iter().map(timeless).collect::<Vec<_>>(),
        whole_rows.into_iter().map(timeless).collect::<Vec<_>>(),
        "the merged rows are the unsharded run's, in its order, with the same verdicts"
    );
    for f in ["findings.json", "summary.md", "index.html", "junit.xml"] {
        assert!(merged.join(f).is_file(), "{f}");
    }
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(merged.join("rows.json")).unwrap()).unwrap();
    assert!(doc["options"]["shard"].is_null(), "{}", doc["options"]);

    // A shard given twice, a missing shard, and a run of another target.
    let again = tmp.path().join("again");
    let out =
        ptxdiff().args(["report", "merge"]).arg(&shards[0]).arg(&shards[0]).arg("--out").arg(&again).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("is given twice (also as"), "the same run twice: {}", text(&out));
    let copy = tmp.path().join("copy-of-shard-1");
    assert!(std::process::Command::new("cp").arg("-r").arg(&shards[0]).arg(&copy).status().unwrap().success());
    let out = ptxdiff().args(["report", "merge"]).arg(&shards[0]).arg(&copy).arg("--out").arg(&again).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("shard 1/3 is given twice"), "{}", text(&out));
    let out = ptxdiff().args(["report", "merge"]).args(&shards[..2]).arg("--out").arg(&again).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("shards missing from the merge: 3/3"), "{}", text(&out));
    let sm89 = tmp.path().join("sm89");
    let out = ptxdiff()
        .args(["conform", "--target", "sm_89", "--forms", FORMS, "--samples", SAMPLES, "--shard", "3/3", "--reports"])
        .arg(&sm89)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let other = std::fs::read_dir(&sm89).unwrap().next().unwrap().unwrap().path();
    std::fs::remove_dir_all(&again).unwrap();
    let out =
        ptxdiff().args(["report", "merge"]).args(&shards[..2]).arg(&other).arg("--out").arg(&again).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("they differ in the target"), "{}", text(&out));
    let (other, _) = conform(tmp.path(), "more", &["--allow-off", "nan-payload", "--shard", "3/3"]);
    let out =
        ptxdiff().args(["report", "merge"]).args(&shards[..2]).arg(&other).arg("--out").arg(&again).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("they differ in the options"), "{}", text(&out));
}

#[test]
fn a_run_compared_with_itself_is_no_change() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, out) = conform(tmp.path(), "base", &["--backends", "oracle"]);
    assert!(out.status.success(), "{}", text(&out));
    let reports = tmp.path().join("next");
    let out = ptxdiff()
        .args(["conform", "--target", "sm_90", "--forms", FORMS, "--samples", SAMPLES, "--backends", "oracle"])
        .arg("--reports")
        .arg(&reports)
        .arg("--baseline")
        .arg(base.join("rows.json"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no change"), "{}", text(&out));
    let run = std::fs::read_dir(&reports).unwrap().next().unwrap().unwrap().path();
    let md = std::fs::read_to_string(run.join("changes.md")).unwrap();
    assert!(md.contains("No change."), "{md}");
    let changes: Value = serde_json::from_str(&std::fs::read_to_string(run.join("changes.json")).unwrap()).unwrap();
    assert_eq!(changes["rows"], Value::Array(vec![]), "{changes}");

    let out = ptxdiff().args(["report", "diff"]).arg(&base).arg(&run).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no change"), "{}", text(&out));

    // The baseline edited: a row that mismatched there (fixed now), a row it lacks, another
    // ptxas. Reported, but no new finding: exit 0.
    let edited = tmp.path().join("edited");
    std::fs::create_dir(&edited).unwrap();
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(base.join("rows.json")).unwrap()).unwrap();
    let rows = doc["rows"].as_array_mut().unwrap();
    let fixed = rows[0]["form"].as_str().unwrap().to_string();
    rows[0]["mismatches"] = 3.into();
    let removed = rows.pop().unwrap()["form"].as_str().unwrap().to_string();
    doc["environment"] = serde_json::json!([["ptxas", "Cuda compilation tools, release 12.8, V12.8.93"]]);
    std::fs::write(edited.join("rows.json"), serde_json::to_string(&doc).unwrap()).unwrap();
    let out = ptxdiff().args(["report", "diff"]).arg(edited.join("rows.json")).arg(&run).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", text(&out));
    assert!(stdout.contains(&format!("fixed  {fixed} oracle: 3 of 256 mismatching → agree")), "{stdout}");
    assert!(stdout.contains(&format!("only in this run  {removed} oracle")), "{stdout}");
    assert!(stdout.contains("version  ptxas: Cuda compilation tools, release 12.8, V12.8.93 → (none)"), "{stdout}");
}

/// A row of `form` on `backend` with `mismatches` (index, actual) over 2^32 inputs.
fn row(form: &str, backend: &str, mismatches: &[(u64, &str)], seconds: f64) -> Row {
    Row {
        form: form.into(),
        backend: backend.into(),
        checked: 1 << 32,
        mismatches: mismatches.len() as u64,
        examples: mismatches
            .iter()
            .map(|&(index, actual)| Mismatch {
                index,
                inputs: vec![("a".into(), format!("{index:#x}"))],
                expected: "0x0".into(),
                actual: actual.into(),
            })
            .collect(),
        seconds,
        ..Row::default()
    }
}

/// Writes a GPU conform run of `rows` with ptxas `ptxas` under `root`; gives its directory.
fn gpu_run(root: &Path, rows: Vec<Row>, ptxas: &str) -> PathBuf {
    let mut report = Report {
        run_id: "conform-1".into(),
        target: "sm_90@8.7".into(),
        environment: vec![("device".into(), "NVIDIA H100".into()), ("ptxas".into(), ptxas.into())],
        rows,
        seconds: 10.0,
        ran: vec!["cuda:ptxas-O3".into()],
        on_gpu: true,
        ..Report::default()
    };
    let allow = oracle::semantics::Allowances::all();
    let known = KnownSet::load(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/known"))).unwrap();
    write_run(root, &mut report, "ptxdiff conform", &allow, known).unwrap().dir
}

#[test]
fn planted_changes_are_reported_and_only_new_unknown_findings_fail() {
    let tmp = tempfile::tempdir().unwrap();
    const F16: &str = "cvt.rn.f16.f32";
    const TF32: &str = "cvt.rna.tf32.f32";
    const B: &str = "cuda:ptxas-O3";
    let base = gpu_run(
        &tmp.path().join("a"),
        vec![
            row(F16, B, &[], 1.0),
            row(TF32, B, &[], 1.0),
            row("prmt.b32", B, &[], 1.0),
            row("cvt.rz.f16.f32", B, &[], 1.0),
        ],
        "V13.0.88",
    );
    // The tf32 NaN mismatch is a known finding; the f16 one is not.
    let next = gpu_run(
        &tmp.path().join("b"),
        vec![
            row(F16, B, &[(0x3F80_0000, "0x3c01")], 1.0),
            row(TF32, B, &[(0x7F80_0001, "0x7f800000")], 1.0),
            row("prmt.b32", B, &[], 4.0),
        ],
        "V13.5.37",
    );
    let out = ptxdiff()
        .args(["report", "diff"])
        .arg(&base)
        .arg(&next)
        .arg("--out")
        .arg(tmp.path().join("c"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(1), "a new finding that is not known:\n{}", text(&out));
    for line in [
        "version  ptxas: V13.0.88 → V13.5.37",
        "newly failing  cvt.rn.f16.f32 cuda:ptxas-O3: agree → 1 of 4294967296 mismatching",
        "newly failing  cvt.rna.tf32.f32 cuda:ptxas-O3: agree → 1 of 4294967296 mismatching",
        "only in the baseline  cvt.rz.f16.f32 cuda:ptxas-O3",
        "slower  prmt.b32 cuda:ptxas-O3: 1.00 s → 4.00 s",
        "new finding  hardware-spec cvt.rn.f16.f32",
        "(known: cvt-rna-tf32-nan)",
    ] {
        assert!(stdout.contains(line), "`{line}` missing:\n{stdout}");
    }
    let changes: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("c/changes.json")).unwrap()).unwrap();
    assert_eq!(changes["new_findings"].as_array().unwrap().len(), 2, "{changes}");
    assert!(std::fs::read_to_string(tmp.path().join("c/changes.md")).unwrap().contains("## New findings"));

    // The other way round: fixed rows and a gone finding, nothing new: exit 0.
    let out = ptxdiff().args(["report", "diff"]).arg(&next).arg(&base).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", text(&out));
    assert!(stdout.contains("fixed  cvt.rn.f16.f32 cuda:ptxas-O3: 1 of 4294967296 mismatching → agree"), "{stdout}");
    assert!(stdout.contains("gone finding  hardware-spec cvt.rn.f16.f32"), "{stdout}");

    // A fuzz run is not compared with a conform run.
    let fuzz = tmp.path().join("fuzz");
    std::fs::create_dir(&fuzz).unwrap();
    std::fs::write(fuzz.join("campaign.json"), "{}").unwrap();
    let out = ptxdiff().args(["report", "diff"]).arg(&base).arg(&fuzz).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cannot compare a conform run"), "{}", text(&out));
}

#[test]
fn bad_shard_values_are_clean_errors() {
    for bad in ["0/3", "4/3", "a/b"] {
        for cmd in [&["conform", "--backends", "oracle"][..], &["fuzz", "--programs", "1"][..]] {
            let out = ptxdiff().args(cmd).args(["--shard", bad]).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{cmd:?} {bad}: {}", text(&out));
            assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("`{bad}`")), "{}", text(&out));
        }
    }
    let out = ptxdiff().args(["conform", "--backends", "oracle", "--baseline", "/nonexistent/run"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("not a ptxdiff run"), "{}", text(&out));
    let fuzz = tempfile::tempdir().unwrap();
    std::fs::write(fuzz.path().join("campaign.json"), "{}").unwrap();
    let out = ptxdiff().args(["conform", "--backends", "oracle", "--baseline"]).arg(fuzz.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cannot compare a fuzz run"), "{}", text(&out));
}

/// Fuzz shards of one seed run the unsharded campaign's programs; the second run of a seed
/// compared with the first is "no change".
#[test]
fn fuzz_shards_and_baseline() {
    let tmp = tempfile::tempdir().unwrap();
    let fuzz = |name: &str, extra: &[&str]| {
        let dir = tmp.path().join(name);
        let out = ptxdiff()
            .args(["fuzz", "--backends", "oracle", "--seed", "5", "--batch", "4", "--programs", "8", "--out"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", text(&out));
        (dir, out)
    };
    let (first, _) = fuzz("first", &[]);
    let (_, out) = fuzz("again", &["--baseline", first.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no change"), "{}", text(&out));
    let (shard, _) = fuzz("shard", &["--shard", "2/2"]);
    let state: Value = serde_json::from_str(&std::fs::read_to_string(shard.join("campaign.json")).unwrap()).unwrap();
    assert_eq!(state["shard"], serde_json::json!({"index": 2, "count": 2}));
    let out =
        ptxdiff().args(["fuzz", "--resume"]).arg(&shard).args(["--seed", "5", "--programs", "4"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("resume with that"), "{}", text(&out));
    let merged = tmp.path().join("merged");
    let out = ptxdiff().args(["report", "merge"]).arg(&shard).arg("--out").arg(&merged).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "shard 1/2 is missing: {}", text(&out));
    assert!(merged.join("findings.json").is_file());
    // Issue 28: a run given twice (here by two paths) doubled every count; now it is refused.
    let twice = tmp.path().join("twice");
    let out = ptxdiff()
        .args(["report", "merge"])
        .arg(&first)
        .arg(tmp.path().join(".").join("first"))
        .arg("--out")
        .arg(&twice)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("given twice"), "{}", text(&out));
    assert!(!twice.join("findings.json").exists());
}
