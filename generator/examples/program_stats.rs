//! Generation speed and what programs contain: `N` seeded programs (default 10 000) for a target
//! (default `sm_90a@8.7`) on one core, then the instructions per family, the distinct forms
//! used, and the share of guarded instructions.
//!
//! `cargo run --release -p ptxdiff-generator --example program_stats -- [N] [TARGET]`

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use generator::program::{generate_seeded, Config};
use oracle::isa::{Operand, Target};
use oracle::program::Stmt;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let target: Target =
        args.next().unwrap_or_else(|| "sm_90a@8.7".into()).parse().expect("a target such as sm_90a@8.7");
    let cfg = Config::default();
    // Build the target's tables before timing (once per process).
    let _ = generate_seeded(u64::MAX, &cfg, &target, "warm");
    let start = Instant::now();
    let programs: Vec<_> = (0..n).map(|s| generate_seeded(s, &cfg, &target, "p").0).collect();
    let secs = start.elapsed().as_secs_f64();
    println!("{n} programs for {target}@{} in {secs:.2} s: {:.0} programs/s on one core", target.ptx, n as f64 / secs);

    let mut per: BTreeMap<String, u64> = BTreeMap::new();
    let mut forms: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let (mut total, mut guarded) = (0u64, 0u64);
    for p in &programs {
        for s in &p.body {
            let key = match s {
                Stmt::Isa(i) => {
                    guarded += u64::from(i.guard.is_some());
                    let shared = i
                        .operands
                        .iter()
                        .any(|o| matches!(o, Operand::Address { base: Some(b), .. } if b.starts_with("%sh")));
                    let k = format!("{}{}", i.form.family().name(), if shared { " (shared)" } else { "" });
                    forms.entry(k.clone()).or_default().insert(i.form.opcode());
                    k
                }
                Stmt::Glue { guard, glue } => {
                    guarded += u64::from(guard.is_some());
                    forms.entry("glue".into()).or_default().insert(glue.opcode());
                    "glue".into()
                }
                Stmt::Bra { .. } => "bra".into(),
                Stmt::Bar => "bar.sync".into(),
                Stmt::Label(_) => continue,
            };
            total += 1;
            *per.entry(key).or_default() += 1;
        }
    }
    println!(
        "{total} instructions ({:.1} per program), {:.1}% guarded",
        total as f64 / n as f64,
        100.0 * guarded as f64 / total as f64
    );
    println!("{:<22} {:>9} {:>7} {:>8}", "family", "count", "share", "forms");
    let mut rows: Vec<_> = per.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (k, c) in rows {
        let f = forms.get(&k).map_or(0, |s| s.len());
        println!("{k:<22} {c:>9} {:>6.1}% {f:>8}", 100.0 * c as f64 / total as f64);
    }
}
