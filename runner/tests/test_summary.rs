//! Honest test totals: `ci/test-summary` (ci/test's last line) counts a test that recorded a
//! skip (runner/tests/common's `skip`: no GPU, no ptxas) as skipped with its reason, not as
//! passed, and still fails on a failure; every test file that skips goes through `skip`, so no
//! skip can hide among the passes.

mod common;

use std::path::Path;
use std::process::Output;

/// A `cargo test` log of two test binaries, as cargo prints it.
const LOG: &str = "\
   Compiling ptxdiff v0.1.0 (/repo/runner)
     Running unittests src/lib.rs (/repo/target/debug/deps/runner-0123456789abcdef)

running 3 tests
test a::one ... ok
test a::two ... ok
test a::three ... ignored, needs a GPU

test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

     Running tests/gpu_check.rs (/repo/target/debug/deps/gpu_check-fedcba9876543210)

running 2 tests
test the_gpu_check_reaches_the_cpu_check_verdict ... ok
test the_gpu_check_of_a_planted_flip ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

     Running tests/worker_pool.rs (/repo/target/debug/deps/worker_pool-00aa11bb22cc33dd)

running 2 tests
test two_workers_on_device_0_give_the_rows_of_one ... ok
test a_planted_fault_fails_its_own_row ... FAILED

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
";

fn summarize(log: &str, skips: &[(&str, &str, &str, &str)]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let (log_path, skip_path) = (dir.path().join("log"), dir.path().join("skips"));
    std::fs::write(&log_path, log).unwrap();
    for (krate, test, reason, detail) in skips {
        common::record_skip(&skip_path, krate, test, reason, detail).unwrap();
    }
    std::process::Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/test-summary"))
        .arg(&log_path)
        .arg(&skip_path)
        .output()
        .unwrap()
}

const NO_GPU: &str = "GPU backend unavailable: libcuda.so.1 (the NVIDIA driver) is not installed";

#[test]
fn skipped_tests_are_counted_as_skipped_with_their_reason() {
    let log = LOG.replace("a_planted_fault_fails_its_own_row ... FAILED", "a_planted_fault_fails_its_own_row ... ok");
    let log = log.replace("FAILED. 1 passed; 1 failed", "ok. 2 passed; 0 failed");
    let skips = [
        ("gpu_check", "the_gpu_check_reaches_the_cpu_check_verdict", "no GPU", NO_GPU),
        ("gpu_check", "the_gpu_check_reaches_the_cpu_check_verdict", "no GPU", NO_GPU),
        ("worker_pool", "two_workers_on_device_0_give_the_rows_of_one", "no GPU", NO_GPU),
        ("runner", "a::two", "no ptxas", "ptxas not found"),
        // Another binary's test of the same name is not this one.
        ("gpu_memjob", "the_gpu_check_of_a_planted_flip", "no GPU", NO_GPU),
    ];
    let out = summarize(&log, &skips);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let last = stdout.lines().last().unwrap();
    assert_eq!(last, "tests: 3 passed, 0 failed, 4 skipped (no ptxas: 1, no GPU: 2, ignored: 1)");
    assert!(
        stdout.contains(&format!("skipped: gpu_check::the_gpu_check_reaches_the_cpu_check_verdict (no GPU: {NO_GPU})")),
        "{stdout}"
    );
    assert_eq!(stdout.lines().filter(|l| l.starts_with("skipped: ")).count(), 3, "{stdout}");
}

#[test]
fn a_failure_still_fails_and_a_skip_never_hides_it() {
    // The failed test recorded a skip for part of it: it stays a failure.
    let skips = [("worker_pool", "a_planted_fault_fails_its_own_row", "no GPU", NO_GPU)];
    let out = summarize(LOG, &skips);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(stdout.lines().last().unwrap(), "tests: 5 passed, 1 failed, 1 skipped (ignored: 1)");
    // Without the skip log (a run outside ci/test) nothing is moved.
    let out = summarize("test result: ok. 7 passed; 0 failed; 0 ignored; 0 measured\n", &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "tests: 7 passed, 0 failed, 0 skipped");
    // A log without any result (the build failed) is no green run.
    let out = summarize("error[E0425]: cannot find value `x`\n", &[]);
    assert_eq!(out.status.code(), Some(1));
}

/// Every skip in the runner's test files goes through `common::skip` (or `ptxas_or_skip`): a
/// skip that only prints a line would count as a pass.
#[test]
fn every_test_skip_is_recorded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut bare = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let l = line.to_ascii_lowercase();
            if l.contains("eprintln!(\"skip") || l.contains("println!(\"skip") {
                bare.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(bare.is_empty(), "skips that ci/test would count as passes (use common::skip):\n{}", bare.join("\n"));
}

#[test]
fn a_skip_line_is_one_line_of_four_fields() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("skips");
    common::record_skip(&log, "gpu_check", "t", "no GPU", "line one\nline\ttwo").unwrap();
    common::record_skip(&log, "gpu_check", "u", "no GPU", "").unwrap();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "gpu_check\tt\tno GPU\tline one line two\ngpu_check\tu\tno GPU\t\n"
    );
}
