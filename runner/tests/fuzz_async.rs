//! `ptxdiff fuzz --async` end to end without a GPU: a short campaign on the oracle alone runs
//! every generated program, reports 0 programs the oracle calls undefined and writes its
//! report; `--adapt` and `--baseline` apply as for register programs; options that do not apply
//! to async campaigns are errors; and (with a ptxas) the
//! generated programs, printed as one module, assemble for sm_90.

mod common;

use std::path::Path;
use std::process::Command;

use runner::findings::FindingsDoc;

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c
}

fn no_gpu() -> bool {
    std::env::var_os("CUDA_VISIBLE_DEVICES").is_none() && !Path::new("/dev/nvidia0").exists()
}

#[test]
fn an_oracle_only_async_campaign_reports_no_undefined_program() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = ptxdiff()
        // A count, not a time: on a loaded 2-core CI machine 5 s did not finish one batch.
        .args([
            "fuzz",
            "--async",
            "--programs",
            "128",
            "--seed",
            "11",
            "--batch",
            "64",
            "--backends",
            "oracle",
            "--out",
        ])
        .arg(&run)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    assert!(text.contains("; 0 undefined by the oracle;"), "{text}");
    let programs: u64 = text
        .split(" async programs in ")
        .next()
        .and_then(|l| l.rsplit('\n').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    assert_eq!(programs, 128, "two batches ran: {text}");
    assert!(text.contains("backends: oracle\n"), "{text}");
    for stage in ["generation", "oracle"] {
        assert!(text.contains(stage), "stage {stage} missing: {text}");
    }
    let doc = FindingsDoc::load(&run).unwrap();
    assert!(doc.findings.is_empty(), "{:#?}", doc.findings);
    assert!(run.join("index.html").is_file());
}

#[test]
fn without_a_gpu_the_default_backends_fall_back_to_the_oracle() {
    if !no_gpu() {
        common::skip("GPU present", "this test is for a machine without a GPU");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = ptxdiff()
        .args(["fuzz", "--async", "--programs", "20", "--batch", "10", "--seed", "5", "--out"])
        .arg(dir.path().join("run"))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    assert!(text.contains("GPU backend unavailable: ") && text.contains("20 async programs"), "{text}");
    assert_eq!(text.matches("unavailable").count(), 1, "said once:\n{text}");
}

#[test]
fn options_that_do_not_apply_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&["--plant-bug", "xor-as-or"][..], &["--backends", "ptxas-check"]] {
        let out = ptxdiff()
            .args(["fuzz", "--async", "--programs", "1", "--out"])
            .arg(dir.path().join("run"))
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("does not apply to `fuzz --async`") || err.contains("does not run memory programs"),
            "{err}"
        );
    }
}

/// `--adapt` counts the memory generator's switches and prints which paid off; `--baseline`
/// compares a memory campaign with an earlier one (the same seed again: no change, exit 0).
#[test]
fn an_async_campaign_adapts_and_compares_with_a_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = ptxdiff()
            .args(["fuzz", "--async", "--programs", "8", "--batch", "4", "--seed", "5", "--backends", "oracle"])
            .args(extra)
            .arg("--out")
            .arg(dir.path().join(name))
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{name}: {text}");
        text
    };
    let first = run("first", &["--adapt"]);
    assert!(first.contains("adaptive swarm (which switches paid off)") && first.contains("multicast"), "{first}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("first/campaign.json")).unwrap()).unwrap();
    assert_eq!(state["swarm"]["stats"]["bulk"]["programs"].as_u64().map(|n| n <= 8), Some(true), "{state}");
    let base = dir.path().join("first");
    let again = run("again", &["--baseline", base.to_str().unwrap()]);
    assert!(again.contains("no change"), "{again}");
}

/// A memory-program campaign resumes like a register one: `fuzz --resume DIR` continues it (no
/// `--async` needed: the campaign's kind is in its state) with its seed, counting every program
/// once; a shard runs; and a register campaign cannot be resumed as a memory one.
#[test]
fn an_async_campaign_resumes_from_its_state_and_runs_shards() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let text = |out: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    let out = ptxdiff()
        .args(["fuzz", "--async", "--programs", "20", "--batch", "10", "--seed", "5", "--backends", "oracle", "--out"])
        .arg(&run)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = ptxdiff().args(["fuzz", "--programs", "10", "--resume"]).arg(&run).output().unwrap();
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("fuzz --async: seed 5") && t.contains("10 async programs in"), "{t}");
    assert!(t.contains("campaign: 30 async programs over all sessions"), "{t}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
    assert_eq!((state["programs"].as_u64(), state["next_batch"].as_u64()), (Some(30), Some(3)), "{state}");
    assert!(state["memory"]["config"].is_object(), "{state}");
    let out = ptxdiff()
        .args(["fuzz", "--async", "--programs", "10", "--batch", "5", "--seed", "5", "--backends", "oracle"])
        .args(["--shard", "2/3", "--out"])
        .arg(dir.path().join("shard"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    // A register campaign's directory resumed as a memory one: refused by name.
    let reg = dir.path().join("reg");
    let out = ptxdiff()
        .args(["fuzz", "--programs", "1", "--batch", "1", "--seed", "5", "--backends", "oracle", "--out"])
        .arg(&reg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = ptxdiff().args(["fuzz", "--async", "--programs", "1", "--resume"]).arg(&reg).output().unwrap();
    let t = text(&out);
    assert!(!out.status.success() && t.contains("fuzzes register programs"), "{t}");
}

/// What the GPU campaign sends to ptxas: generated programs printed as one module per target
/// (sm_90, and sm_90a for those with a tensor-map object) assemble without an error (a
/// rejection would be a finding of every campaign).
#[test]
fn generated_async_programs_assemble_for_sm_90() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let cfg = generator::async_programs::AsyncConfig::default();
    // 300 programs for sm_90 and at least 12 for sm_90a (the one-CTA programs with a
    // tensor-map object: about one seed in fifty since the cluster knobs draw clusters).
    let mut programs: Vec<oracle::memprog::MemProgram> = Vec::new();
    let count = |ps: &[oracle::memprog::MemProgram], arch: &str| ps.iter().filter(|p| p.target.name() == arch).count();
    for s in 0..2000u64 {
        let src = generator::async_programs::generate_seeded(runner::fuzz::program_seed(9, 0, s), &cfg, &target);
        let p = src.build().unwrap();
        let arch = p.target.name();
        if count(&programs, &arch) < if arch == "sm_90" { 300 } else { 20 } {
            programs.push(p);
        }
        if count(&programs, "sm_90") >= 300 && count(&programs, "sm_90a") >= 20 {
            break;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    for arch in ["sm_90", "sm_90a"] {
        let refs: Vec<&oracle::memprog::MemProgram> = programs.iter().filter(|p| p.target.name() == arch).collect();
        assert!(refs.len() > 10, "{arch}: {} programs", refs.len());
        let m = oracle::memprog::ptx::module(&refs).unwrap();
        let asm = ptxas.assemble(&m.ptx, arch, 3, Some(&dir.path().join(format!("{arch}.cubin")))).unwrap();
        assert!(asm.ok, "{arch}: {}", asm.output.lines().take(20).collect::<Vec<_>>().join("\n"));
    }
}

/// `ptxdiff replay` takes a memory case (an eval program line, as `fuzz --async` stores it) as it
/// takes a register one: without a GPU only the oracle runs (exit 0, said so); a backend that
/// does not run memory programs is an error, as is a line that is not a program.
#[test]
fn replay_takes_a_memory_case() {
    let case = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/reduce-add-f32-subnormals/edge-pairs.case");
    let text = |out: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    if no_gpu() {
        let out = ptxdiff().args(["replay", case]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let t = text(&out);
        assert!(t.contains("backends: oracle\n") && t.contains("only the oracle ran"), "{t}");
    } else {
        common::skip("GPU present", "the replay without a GPU runs the oracle only");
    }
    let out = ptxdiff().args(["replay", case, "--backends", "ptxas-check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("does not run memory programs"), "{}", text(&out));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.case");
    std::fs::write(&bad, "{\"program\": 3}\n").unwrap();
    let out = ptxdiff().arg("replay").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("not a ptxdiff case file"), "{}", text(&out));
}
