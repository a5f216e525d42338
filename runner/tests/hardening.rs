//! The probes of issue 28 ("Hardening II") that go through the binary, each a case that hung,
//! blew up or clobbered a file before: a ptxas that hangs (or leaves a child holding its pipe),
//! `fuzz --time` inside a slow batch, absurd `--workers`/`--jobs`/`--batch`, `replay
//! /dev/urandom`, a closed stdout, output paths that are no regular file or already exist, and
//! two runs on one folder. No GPU is needed; each command runs under a deadline, so a
//! regression fails the test instead of hanging it.

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c.env("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    c
}

fn text_of(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Runs `cmd` to its end, failing the test (after killing it) if it takes longer than `limit`.
fn within(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > limit {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!("hung: still running after {limit:?}:\n{}", text_of(&out));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// A fake ptxas in `dir`: answers `--version` like ptxas 13.0 and runs `assemble` (shell text)
/// for anything else.
fn fake_ptxas(dir: &Path, assemble: &str) -> PathBuf {
    let path = dir.join("ptxas");
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n{assemble}\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Issue 28: a ptxas that hangs, or that leaves a child holding its pipe, hung `replay` and
/// `fuzz` forever. Now it is a crash finding that names the limit (`PTXDIFF_PTXAS_TIMEOUT`).
#[test]
fn a_hung_ptxas_is_a_finding_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let case = common::a_case(dir.path());
    let hung_dir = dir.path().join("hung");
    let holder_dir = dir.path().join("holder");
    std::fs::create_dir_all(&hung_dir).unwrap();
    std::fs::create_dir_all(&holder_dir).unwrap();
    let hung = fake_ptxas(&hung_dir, "sleep 1000");
    let holder = fake_ptxas(&holder_dir, "sleep 1000 &\necho 'ptxas fatal   : gave up'; exit 1");

    let out = within(
        ptxdiff()
            .arg("replay")
            .arg(&case)
            .args(["--backends", "ptxas-check"])
            .env("PTXAS", &hung)
            .env("PTXDIFF_PTXAS_TIMEOUT", "1"),
        Duration::from_secs(120),
    );
    let text = text_of(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("crash") && text.contains("did not finish within 1 s"), "{text}");

    let out = within(
        ptxdiff().arg("replay").arg(&case).args(["--backends", "ptxas-check"]).env("PTXAS", &holder),
        Duration::from_secs(120),
    );
    let text = text_of(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("gave up"), "{text}");

    // A campaign: every program of the module is a crash finding of the timed-out ptxas.
    let run = dir.path().join("run");
    let out = within(
        ptxdiff()
            .args(["fuzz", "--programs", "4", "--batch", "4", "--seed", "3", "--no-minimize", "--time", "300s"])
            .args(["--backends", "oracle,ptxas-check", "--out"])
            .arg(&run)
            .env("PTXAS", &hung)
            .env("PTXDIFF_PTXAS_TIMEOUT", "1"),
        Duration::from_secs(120),
    );
    let text = text_of(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let doc = runner::findings::FindingsDoc::load(&run).unwrap();
    assert!(!doc.findings.is_empty(), "{text}");
    for f in &doc.findings {
        assert!(f.message.as_deref().unwrap_or("").contains("did not finish within 1 s"), "{f:#?}");
    }
}

/// Issue 28: `fuzz --time` was checked between batches only, so a batch whose ptxas took
/// minutes (programs of the maximum length) kept the campaign going long past its time. Now
/// the time ends the batch being prepared: its ptxas is killed, it is not counted, and a
/// resumed campaign runs it.
#[test]
fn fuzz_time_ends_a_batch_still_being_prepared() {
    let dir = tempfile::tempdir().unwrap();
    let slow = fake_ptxas(dir.path(), "sleep 1000");
    let run = dir.path().join("run");
    let t = Instant::now();
    let out = within(
        ptxdiff()
            .args(["fuzz", "--time", "2s", "--batch", "8", "--seed", "4", "--no-minimize"])
            .args(["--backends", "oracle,ptxas-check", "--out"])
            .arg(&run)
            .env("PTXAS", &slow),
        Duration::from_secs(50),
    );
    let text = text_of(&out);
    assert!(t.elapsed() < Duration::from_secs(45), "{:?}", t.elapsed());
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("0 programs in"), "{text}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
    assert_eq!((state["next_batch"].as_u64(), state["programs"].as_u64()), (Some(0), Some(0)), "{state}");
    // The abandoned batch is the first one a resumed campaign runs.
    let out = within(
        ptxdiff().args(["fuzz", "--programs", "8", "--backends", "oracle", "--resume"]).arg(&run),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text_of(&out));
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
    assert_eq!((state["next_batch"].as_u64(), state["programs"].as_u64()), (Some(1), Some(8)), "{state}");
}

/// Issue 28: `--workers 100000` panicked, `--jobs 100000` took 67 s to fail and
/// `--batch 100000000` aborted on a 16 GB allocation. Now each is an error before anything
/// starts.
#[test]
fn absurd_counts_are_errors_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh");
    for (cmd, opt, value, needle) in [
        ("fuzz", "--workers", "100000", "at most"),
        ("fuzz", "--jobs", "100000", "at most"),
        ("fuzz", "--batch", "100000000", "at most 4096"),
        ("conform", "--jobs", "100000", "at most"),
        ("validity", "--jobs", "100000", "at most"),
    ] {
        let mut c = ptxdiff();
        c.args([cmd, opt, value]);
        if cmd == "fuzz" {
            c.arg("--out").arg(&fresh);
        }
        let out = within(&mut c, Duration::from_secs(20));
        let text = text_of(&out);
        assert_eq!(out.status.code(), Some(2), "{cmd} {opt} {value}: {text}");
        assert!(text.contains(needle) && text.contains(opt) && !text.contains("panicked"), "{text}");
    }
    assert!(!fresh.exists());
}

/// Issue 28: `replay /dev/urandom` read forever.
#[test]
fn replay_of_an_endless_file_is_an_error() {
    let out = within(ptxdiff().args(["replay", "/dev/urandom", "--backends", "oracle"]), Duration::from_secs(60));
    let text = text_of(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("/dev/urandom") && text.contains("larger than 64 MiB"), "{text}");
}

/// Issue 28: `ptxdiff allowances | head -1` panicked on the broken pipe.
#[test]
fn a_closed_stdout_ends_quietly() {
    for args in [&["allowances"][..], &["variants", "--counts"][..], &["explain", "cvt.rn.f16.f32", "1.5"][..]] {
        let mut child = ptxdiff().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take()); // the reader is gone before the first line
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

/// Issue 28: `report diff --out DIR` overwrote the user's `changes.md`; `minimize` wrote
/// through FIFOs, device nodes and links and over `CASE.min.case`.
#[test]
fn outputs_never_replace_what_is_no_regular_file_or_exists() {
    let dir = tempfile::tempdir().unwrap();
    // Two runs to compare: tiny campaigns on the oracle.
    let runs: Vec<PathBuf> = (0..2)
        .map(|k| {
            let run = dir.path().join(format!("run{k}"));
            let out = within(
                ptxdiff()
                    .args(["fuzz", "--programs", "1", "--batch", "1", "--seed", "5", "--backends", "oracle", "--out"])
                    .arg(&run),
                Duration::from_secs(120),
            );
            assert!(out.status.success(), "{}", text_of(&out));
            run
        })
        .collect();
    let out_dir = dir.path().join("changes");
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::write(out_dir.join("changes.md"), "my notes").unwrap();
    let diff = |force: bool| {
        let mut c = ptxdiff();
        c.args(["report", "diff"]).arg(&runs[0]).arg(&runs[1]).arg("--out").arg(&out_dir);
        if force {
            c.arg("--force");
        }
        within(&mut c, Duration::from_secs(60))
    };
    let out = diff(false);
    let text = text_of(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("changes.md: already exists") && text.contains("--force"), "{text}");
    assert_eq!(std::fs::read_to_string(out_dir.join("changes.md")).unwrap(), "my notes");
    assert!(!out_dir.join("changes.json").exists(), "nothing written when one file is refused");
    let out = diff(true);
    assert!(out.status.success(), "{}", text_of(&out));
    assert_ne!(std::fs::read_to_string(out_dir.join("changes.md")).unwrap(), "my notes");

    // minimize refuses before it works: an existing CASE.min.case, a link, a device node.
    let case = common::a_case(dir.path());
    std::fs::write(case.with_extension("min.case"), "mine").unwrap();
    let link = dir.path().join("link.case");
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), &link).unwrap();
    for (out_arg, needle) in
        [(None, "already exists"), (Some(link.clone()), "a symbolic link"), (Some("/dev/null".into()), "a device node")]
    {
        let mut c = ptxdiff();
        c.arg("minimize").arg(&case).args(["--backends", "oracle-worker"]);
        if let Some(o) = &out_arg {
            c.arg("--out").arg(o).arg("--force");
        }
        let out = within(&mut c, Duration::from_secs(60));
        let text = text_of(&out);
        assert_eq!(out.status.code(), Some(2), "{out_arg:?}: {text}");
        assert!(text.contains(needle), "{out_arg:?}: {text}");
    }
    assert_eq!(std::fs::read_to_string(case.with_extension("min.case")).unwrap(), "mine");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
}

/// Issue 28: two `fuzz --out D` started together both ran and mixed their findings; two
/// `--resume D` at once, the second died on ENOENT. Now the second is refused while the first
/// holds the folder, naming the folder and the holder's pid.
#[test]
fn a_second_run_on_a_folder_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let slow = fake_ptxas(dir.path(), "sleep 1000");
    let run = dir.path().join("run");
    let mut first = ptxdiff()
        .args(["fuzz", "--time", "60s", "--batch", "4", "--seed", "4", "--backends", "oracle,ptxas-check", "--out"])
        .arg(&run)
        .env("PTXAS", &slow)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !run.join("campaign.json").is_file() && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    for extra in [&["--out"][..], &["--resume"][..]] {
        let out = within(
            ptxdiff().args(["fuzz", "--programs", "1", "--seed", "4", "--backends", "oracle"]).args(extra).arg(&run),
            Duration::from_secs(60),
        );
        let text = text_of(&out);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {text}");
        assert!(
            text.contains(&format!("{} is in use by another ptxdiff run (process {})", run.display(), first.id())),
            "{extra:?}: {text}"
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
    // The lock dies with its holder (kill -9): the campaign resumes.
    let out = within(
        ptxdiff().args(["fuzz", "--programs", "1", "--backends", "oracle", "--resume"]).arg(&run),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text_of(&out));
}

/// Ids with their counts.
type Counts = Vec<(String, u64)>;

/// Findings by id with their counts, and known entries with theirs.
fn counts(run: &Path) -> (Counts, Counts) {
    let doc = runner::findings::FindingsDoc::load(run).unwrap();
    let mut f: Counts = doc.findings.iter().map(|f| (f.id.clone(), f.count)).collect();
    let mut k: Counts = doc.known.iter().map(|k| (k.id.clone(), k.count)).collect();
    f.sort();
    k.sort();
    (f, k)
}

fn programs_of(run: &Path) -> u64 {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("campaign.json")).unwrap()).unwrap();
    state["programs"].as_u64().unwrap()
}

/// Issue 28: after `kill -9` and `--resume` (same seed and total, `--no-minimize`) a campaign
/// had 6 or 10 findings where the uninterrupted one had 4 (de-duplication state was per
/// session), and the batches run again were counted twice in `programs`. Now the resumed
/// campaign ends with exactly the uninterrupted one's findings, counts and programs. The
/// planted oracle bug (the worker oracle has none) gives findings without a GPU.
#[test]
fn a_killed_and_resumed_campaign_equals_the_uninterrupted_one() {
    const TOTAL: u64 = 1024;
    let dir = tempfile::tempdir().unwrap();
    let campaign = |run: &Path, programs: u64, resume: bool| {
        let mut c = ptxdiff();
        c.args(["fuzz", "--time", "600s", "--batch", "32", "--seed", "11", "--no-minimize"])
            .args(["--backends", "oracle,oracle-worker", "--plant-bug", "xor-as-or", "--programs"])
            .arg(programs.to_string())
            .arg(if resume { "--resume" } else { "--out" })
            .arg(run);
        c
    };
    let whole = dir.path().join("whole");
    let out = within(&mut campaign(&whole, TOTAL, false), Duration::from_secs(300));
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    let expected = counts(&whole);
    assert!(expected.0.len() >= 2, "the planted bug gives findings: {expected:?}");
    assert_eq!(programs_of(&whole), TOTAL);

    // Killed in the middle (SIGKILL) once a few batches are counted, then resumed for the rest.
    let cut = dir.path().join("cut");
    let mut child = campaign(&cut, TOTAL, false).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let t = Instant::now();
    let counted = |run: &Path| std::fs::read_to_string(run.join("campaign.json")).ok().map_or(0, |_| programs_of(run));
    while counted(&cut) < 3 * 32 && t.elapsed() < Duration::from_secs(240) && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = programs_of(&cut);
    assert!(done < TOTAL, "killed before the end ({done} programs counted)");
    let out = within(&mut campaign(&cut, TOTAL - done, true), Duration::from_secs(300));
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert_eq!(programs_of(&cut), TOTAL, "each program counted once");
    assert_eq!(counts(&cut), expected, "resumed = uninterrupted");
}

/// Issue 28 item 3: nonsense that was accepted. A `PTXAS` printing garbage, naming a folder or
/// a file that is not executable, a ptxas writing no cubin, a `--ptxas` path that does not
/// exist, `PTXDIFF_KNOWN`/`PTXDIFF_ROOT` naming no folder and a PTX ISA version newer than the
/// model: each is now an error (exit 2) naming what is wrong, never a run that "agrees".
#[test]
fn nonsense_settings_are_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let case = common::a_case(dir.path());
    let garbage_dir = dir.path().join("garbage");
    std::fs::create_dir_all(&garbage_dir).unwrap();
    let garbage = garbage_dir.join("ptxas");
    std::fs::write(&garbage, "#!/bin/sh\necho 'hello world'\nexit 0\n").unwrap();
    std::fs::set_permissions(&garbage, std::fs::Permissions::from_mode(0o755)).unwrap();
    let not_executable = dir.path().join("plain-file");
    std::fs::write(&not_executable, "#!/bin/sh\n").unwrap();
    let no_cubin_dir = dir.path().join("no-cubin");
    std::fs::create_dir_all(&no_cubin_dir).unwrap();
    let no_cubin = fake_ptxas(&no_cubin_dir, "exit 0");

    let expect_error = |cmd: &mut Command, wants: &[&str]| {
        let out = within(cmd, Duration::from_secs(120));
        let text = text_of(&out);
        assert_eq!(out.status.code(), Some(2), "{text}");
        for w in wants {
            assert!(text.contains(w), "`{w}` missing: {text}");
        }
    };
    let replay = || {
        let mut c = ptxdiff();
        c.arg("replay").arg(&case).args(["--backends", "ptxas-check"]);
        c
    };
    expect_error(replay().env("PTXAS", &garbage), &["is not a working ptxas", "hello world"]);
    expect_error(replay().env("PTXAS", &garbage_dir), &["not a file", "PTXAS"]);
    expect_error(replay().env("PTXAS", &not_executable), &["not executable", "PTXAS"]);
    let run = dir.path().join("run");
    expect_error(
        ptxdiff()
            .args(["fuzz", "--programs", "4", "--batch", "4", "--seed", "3", "--no-minimize"])
            .args(["--backends", "oracle,ptxas-check", "--out"])
            .arg(&run)
            .env("PTXAS", &no_cubin),
        &["wrote no cubin", "not a finding"],
    );
    assert!(runner::findings::FindingsDoc::load(&run).map_or(true, |d| d.findings.is_empty()));
    expect_error(
        ptxdiff().args(["fuzz", "--programs", "4", "--backends", "oracle", "--ptxas", "13.5=/no/such/ptxas"]),
        &["--ptxas 13.5=/no/such/ptxas", "/no/such/ptxas"],
    );
    let missing = dir.path().join("missing");
    for var in ["PTXDIFF_KNOWN", "PTXDIFF_ROOT"] {
        expect_error(replay().env(var, &missing), &[var, "not an existing folder"]);
        assert!(!missing.exists(), "{var} created {}", missing.display());
    }
    expect_error(
        ptxdiff().args(["fuzz", "--programs", "4", "--backends", "oracle", "--target", "sm_90@99.9"]),
        &["99.9", "newer than the ISA model"],
    );
    // `--reports FILE` failed only after the whole sweep; now before it starts.
    let t = Instant::now();
    expect_error(
        ptxdiff().args(["conform", "--backends", "oracle", "--forms", "cvt*", "--reports"]).arg(&not_executable),
        &["--reports", "not a directory"],
    );
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}
