//! The validity table proven against the real assembler: every form the model calls valid on
//! sm_80, sm_89, sm_90, sm_90a, sm_100a and sm_120a assembles, and a stratified sample of
//! forms it calls invalid (every distinct rule of every family, ten forms each, and valid forms
//! written with a too-narrow register) is rejected.
//!
//! Without ptxas the test says so and passes, unless `CI` or `PTXDIFF_REQUIRE_PTXAS` is set:
//! then a missing ptxas is a failure, so CI cannot silently skip it.

mod common;

use oracle::isa::Target;
use runner::validity::check_targets;

const TARGETS: [&str; 6] = ["sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120a"];

#[test]
fn validity_table_agrees_with_ptxas_on_six_targets() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let targets: Vec<Target> = TARGETS.iter().map(|t| t.parse().unwrap()).collect();
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let reports = check_targets(&ptxas, &targets, None, 10, jobs).expect("ptxas runs");
    let mut failures = Vec::new();
    for r in &reports {
        eprintln!(
            "{} ({}): {}/{} valid forms assembled, {}/{} invalid forms rejected",
            r.target, ptxas.version, r.valid_accepted, r.valid_checked, r.invalid_rejected, r.invalid_checked
        );
        assert!(r.valid_checked > 0 && r.invalid_checked > 0);
        for d in &r.disagreements {
            failures.push(format!("{} expected {:?}: {}  ({})", d.target, d.expected, d.instruction, d.detail));
        }
    }
    assert!(failures.is_empty(), "{} disagreements with ptxas:\n{}", failures.len(), failures.join("\n"));
}
