//! `ptxdiff report DIR` through the binary: a store made with the library in a temporary
//! directory is re-rendered into summary.md, index.html and junit.xml that contain its
//! findings; a directory that holds no run, or a corrupt findings.json, is an error (exit
//! status 2) naming the file and what to do. A conform run's finding has a case file that
//! `ptxdiff replay` runs, and `ptxdiff report` renders a conform run like a fuzz one.

use std::path::Path;
use std::process::Command;

use runner::findings::{Finding, FindingClass, FindingStore, KnownSet, Recorded, RunMeta, Signature, WordMismatch};

fn ptxdiff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
}

fn make_run(run: &Path) -> (String, String) {
    let known = KnownSet::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")).unwrap();
    let meta = RunMeta { target: "sm_90".into(), command: "ptxdiff fuzz --seed 7".into(), ..RunMeta::default() };
    let mut store = FindingStore::create(run, meta, known).unwrap();

    let mut compiler = Finding::new(
        Signature::new(FindingClass::Compiler, "cvt.rn.satfinite.e4m3x2.f32", "max-norm", ["cuda:ptxas-O3"], "sign"),
        ".version 8.7\n.target sm_90\n// <script>&\"'\n",
    );
    compiler.threads = 1;
    compiler.inputs = vec![0x43e0_0000, 0xff80_0000];
    compiler.mismatches = vec![WordMismatch {
        thread: 0,
        word: 0,
        expected: "0x7e7e".into(),
        actual: [
            ("cuda:ptxas-O0".to_string(), "0x7e7e".to_string()),
            ("cuda:ptxas-O3".to_string(), "0xfefe".to_string()),
        ]
        .into(),
        decoded: "448, 448 → -448, -448".into(),
    }];
    assert_eq!(store.record(compiler.clone(), "case text").unwrap(), Recorded::New);
    assert_eq!(store.record(compiler.clone(), "case text").unwrap(), Recorded::Duplicate);

    let mut crash =
        Finding::new(Signature::new(FindingClass::Crash, "program", "", ["ptxas-check"], "ptxas exit 139"), "");
    crash.message = Some("Segmentation fault (core dumped)".into());
    assert_eq!(store.record(crash.clone(), "crash case").unwrap(), Recorded::New);

    let tf32 = Finding::new(
        Signature::new(FindingClass::HardwareSpec, "cvt.rna.tf32.f32", "nan", ["cuda:jit"], "nan-becomes-inf"),
        "",
    );
    assert_eq!(store.record(tf32, "").unwrap(), Recorded::Known("cvt-rna-tf32-nan".into()));
    (compiler.signature.key(), crash.signature.key())
}

#[test]
fn report_renders_the_three_files() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("fuzz-1");
    let (compiler, crash) = make_run(&run);
    let out = ptxdiff().arg("report").arg(&run).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("2 new finding(s) (3 occurrence(s)), 1 known finding(s) seen (1 occurrence(s))"),
        "{stdout}"
    );

    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    let html = std::fs::read_to_string(run.join("index.html")).unwrap();
    let junit = std::fs::read_to_string(run.join("junit.xml")).unwrap();
    for id in [&compiler, &crash] {
        assert!(md.contains(id.as_str()) && html.contains(id.as_str()) && junit.contains(id.as_str()), "{id}");
        assert!(md.contains(&format!("ptxdiff replay {}", run.join("cases").join(format!("{id}.case")).display())));
    }
    assert!(md.contains("| compiler | 1 | 2 |") && md.contains("| crash | 1 | 1 |"), "{md}");
    assert!(md.contains("cvt-rna-tf32-nan"));
    assert!(html.contains("&lt;script&gt;&amp;&quot;&#39;") && html.matches("<script").count() == 1);
    assert!(html.contains("448, 448 → -448, -448"));
    assert!(junit.starts_with("<?xml"));
    assert!(junit.contains(r#"tests="3" failures="2" errors="0" skipped="1""#), "{junit}");
    assert_eq!(junit.matches("<failure ").count(), 2);
    assert_eq!(junit.matches("<skipped ").count(), 1);

    // Re-rendering is idempotent.
    let out = ptxdiff().arg("report").arg(&run).output().unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(run.join("index.html")).unwrap(), html);
}

#[test]
fn bad_directories_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out = ptxdiff().arg("report").arg(tmp.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a findings run directory") && err.contains("ptxdiff fuzz"), "{err}");

    std::fs::write(tmp.path().join("findings.json"), "{\"format\": 1,\n\"findings\": [\n{\"id\": 3}]}").unwrap();
    let out = ptxdiff().arg("report").arg(tmp.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:3:", tmp.path().join("findings.json").display())), "{err}");
    assert!(err.contains("corrupt"), "{err}");
}

/// A conform mismatch recorded through the library: its case file replays through the binary
/// (the oracle and the oracle-worker agree on it: the oracle's expectation is one the worker
/// reproduces), and the conform run re-renders like any findings run.
#[test]
fn a_conform_finding_replays_and_renders() {
    use runner::conform::results::{write_run, Report, Row};
    use runner::sweep_check::Mismatch;
    let tmp = tempfile::tempdir().unwrap();
    let row = |backend: &str| Row {
        form: "cvt.rna.tf32.f32".into(),
        backend: backend.into(),
        kind: Some(runner::backend::BackendKind::Gpu),
        checked: 1 << 32,
        mismatches: 1,
        examples: vec![Mismatch {
            index: 0x7F80_0001,
            inputs: vec![("a".into(), "0x7f800001".into())],
            expected: "any NaN".into(),
            actual: "0x7f800000".into(),
        }],
        failure: None,
        seconds: 1.0,
        device: None,
        stages: None,
        findings: vec![],
        known: vec![],
    };
    let mut report = Report {
        run_id: "conform-1".into(),
        target: "sm_90@8.7".into(),
        environment: vec![("device".into(), "test".into())],
        rows: vec![row("cuda:jit"), row("cuda:ptxas-O3")],
        seconds: 2.0,
        ran: vec!["cuda:jit".into(), "cuda:ptxas-O3".into()],
        not_run: vec![],
        on_gpu: true,
        ..Report::default()
    };
    let allow = oracle::semantics::Allowances::all();
    let written = write_run(tmp.path(), &mut report, "ptxdiff conform", &allow, KnownSet::empty()).unwrap();
    let (run, rec) = (written.dir, written.rec);
    assert_eq!(rec.new, 1);
    let doc = runner::findings::FindingsDoc::load(&run).unwrap();
    let case = run.join("cases").join(format!("{}.case", doc.findings[0].id));
    let out = ptxdiff().args(["replay", "--backends", "oracle-worker"]).arg(&case).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("every backend agrees with the oracle"), "{stdout}");
    let out = ptxdiff().arg("report").arg(&run).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(md.contains("cvt.rna.tf32.f32") && md.contains("nan-becomes-inf"), "{md}");
}

/// Counts at the top of the range saturate: two findings counted 2^64-1 times each are
/// reported as 2^64-1 occurrences, not as a wrapped sum.
#[test]
fn huge_counts_saturate_in_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("fuzz-max");
    let mut store = FindingStore::create(&run, RunMeta::default(), KnownSet::empty()).unwrap();
    for how in ["sign", "bits"] {
        let mut f =
            Finding::new(Signature::new(FindingClass::Compiler, "cvt.rn.f16.f32", "normal", ["cuda:jit"], how), "");
        f.count = u64::MAX;
        assert_eq!(store.record(f, "case").unwrap(), Recorded::New);
    }
    let out = ptxdiff().arg("report").arg(&run).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("2 new finding(s) ({} occurrence(s))", u64::MAX)), "{stdout}");
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(md.contains(&format!("| compiler | 2 | {} |", u64::MAX)), "{md}");
}
