//! End-to-end CPU cost of checking an exhaustive sweep: [`Checker::check`] over `2^LOG2`
//! results of each form (default 2^28), the "GPU results" being the oracle's own expected bits
//! from the full semantics (so every fast prediction must agree and nothing is a mismatch).
//! Prints, per form, the wall seconds and checks/s of the check on all cores, the CPU seconds
//! the check took scaled to a 2^32-input form (all threads together, from /proc/self/stat, so
//! other load on the machine inflates it less than wall time), and the rate of computing the
//! same results through the full semantics (what a form without a fast kernel costs). The check
//! includes the audit of fast predictions (`audited`: results re-checked by the full semantics).
//!
//!     cargo run --release -p ptxdiff --example check_throughput -- [--log2 N] [--repeat R] FORM...
//!
//! `--repeat R` checks the same results R times (figures per check), for profiling.

use std::time::Instant;

use generator::sweep::sweep_kernel;
use oracle::isa::{Form, Target};
use oracle::semantics::Allowances;
use rayon::prelude::*;
use runner::sweep_check::Checker;

/// CPU seconds of this process so far (user + system, all threads; Linux), or 0.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name (which ends with ')'): utime and stime are the 12th and
    // 13th, in clock ticks of 1/100 s.
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<f64> = rest.split_whitespace().skip(11).take(2).filter_map(|v| v.parse().ok()).collect();
    f.iter().sum::<f64>() / 100.0
}

/// Results per call of `check`, as the worker's chunks (`CHUNK` in `worker/serve.rs`).
const CHUNK: u64 = 1 << 27;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut option = |name: &str, default: u32| match args.iter().position(|a| a == name) {
        Some(k) => {
            let v = args[k + 1].parse().unwrap_or_else(|_| panic!("{name} takes a number"));
            args.drain(k..k + 2);
            v
        }
        None => default,
    };
    let log2 = option("--log2", 28);
    let repeat = option("--repeat", 1).max(1);
    let target: Target = "sm_90a@8.7".parse().expect("target");
    let cores = rayon::current_num_threads();
    let n = 1u64 << log2;
    println!("{n} results per form, {cores} threads");
    println!(
        "{:<28} {:>5} {:>9} {:>12} {:>12} {:>12} {:>12} {:>9}",
        "form", "fast", "check s", "checks/s", "per core", "CPU s/2^32", "semantics/s", "audited"
    );
    for opcode in &args {
        let form = Form::parse_opcode(opcode).unwrap_or_else(|e| panic!("{opcode}: {e}"));
        let k = sweep_kernel(&form, &target).unwrap_or_else(|e| panic!("{opcode}: {e}"));
        let checker = Checker::new(&form, k.scheme, k.out_bytes, Allowances::all()).unwrap_or_else(|e| panic!("{e}"));
        let b = k.out_bytes as usize;
        // Synthetic results from the full semantics (timed: the cost without a fast kernel).
        let t = Instant::now();
        let mut bytes = vec![0u8; n as usize * b];
        bytes.par_chunks_mut(b << 12).enumerate().for_each(|(c, out)| {
            for (j, r) in out.chunks_exact_mut(b).enumerate() {
                let i = ((c as u64) << 12) + j as u64;
                r.copy_from_slice(&checker.expected(i).bits.to_le_bytes()[..b]);
            }
        });
        let semantics = n as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        let cpu = cpu_seconds();
        let (mut mismatches, mut audited) = (0, 0);
        for _ in 0..repeat {
            for base in (0..n).step_by(CHUNK as usize) {
                let len = CHUNK.min(n - base) as usize;
                let c = checker.check(base, &bytes[base as usize * b..(base as usize + len) * b]);
                mismatches += c.mismatches;
                audited += c.audited;
            }
        }
        let s = t.elapsed().as_secs_f64() / f64::from(repeat);
        let cpu = (cpu_seconds() - cpu) / f64::from(repeat) * (1u64 << 32) as f64 / n as f64;
        assert_eq!(mismatches, 0, "{opcode}: the oracle disagrees with itself");
        let rate = n as f64 / s;
        println!(
            "{opcode:<28} {:>5} {s:>9.3} {:>12.3e} {:>12.3e} {cpu:>12.2} {semantics:>12.3e} {:>9}",
            checker.has_fast(),
            rate,
            rate / cores as f64,
            audited / u64::from(repeat)
        );
    }
}
