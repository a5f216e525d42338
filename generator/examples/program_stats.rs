//! Generation speed and what programs contain: `N` seeded programs (default 10 000) for a target
//! (default `sm_90a@8.7`) on one core, then the instructions per family, the distinct forms
//! used, the share of guarded instructions, the share of programs that use each reach
//! ingredient (the `glue_*` groups, counted loops, diamonds, `prmt` with an immediate selector,
//! `bfe` with a constant field), and what the program oracle says of them (every program must
//! run: no undefined or unsupported one).
//!
//! `cargo run --release -p ptxdiff-generator --example program_stats -- [N] [TARGET] [--speed]`
//! (`--speed` stops after timing, e.g. to measure CPU time with `perf stat`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use generator::program::{generate_seeded, Config};
use oracle::isa::{Form, Operand, Target};
use oracle::program::{interp, GlueOp, Program, Src, Stmt};
use oracle::semantics::Allowances;

/// The reach ingredients program `p` uses, by name.
fn reach(p: &Program) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    let label_at = |l: u32| p.body.iter().position(|s| *s == Stmt::Label(l));
    for (k, s) in p.body.iter().enumerate() {
        match s {
            Stmt::Glue { glue, .. } => {
                let group = match glue.op {
                    GlueOp::MulHi | GlueOp::MulWide | GlueOp::MadLo | GlueOp::MadHi | GlueOp::MadWide => "glue_mul",
                    GlueOp::Set(..) | GlueOp::Slct => "glue_select",
                    GlueOp::AddCc | GlueOp::Addc { .. } | GlueOp::SubCc | GlueOp::Subc { .. } => "glue_carry",
                    op if op.is_basic() => continue,
                    _ => "glue_bits",
                };
                out.insert(group);
                if glue.op == GlueOp::Bfe && matches!(glue.src, [_, Some(Src::Imm(_)), Some(Src::Imm(_)), _]) {
                    out.insert("bfe with a constant field");
                }
            }
            Stmt::Bra { guard, label } => match label_at(*label) {
                Some(at) if at < k => {
                    out.insert("counted loop");
                }
                _ if guard.is_none() => {
                    out.insert("if/else diamond");
                }
                _ => {}
            },
            Stmt::Isa(i) if matches!(i.form, Form::Prmt(_)) && matches!(i.operands.get(3), Some(Operand::Imm(_))) => {
                out.insert("prmt with an immediate selector");
            }
            _ => {}
        }
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let target: Target =
        args.next().unwrap_or_else(|| "sm_90a@8.7".into()).parse().expect("a target such as sm_90a@8.7");
    let cfg = Config::default();
    // Build the target's tables before timing (once per process).
    let _ = generate_seeded(u64::MAX, &cfg, &target, "warm");
    let start = Instant::now();
    let cases: Vec<_> = (0..n).map(|s| generate_seeded(s, &cfg, &target, "p")).collect();
    let secs = start.elapsed().as_secs_f64();
    println!("{n} programs for {target}@{} in {secs:.2} s: {:.0} programs/s on one core", target.ptx, n as f64 / secs);
    if args.next().as_deref() == Some("--speed") {
        return;
    }
    let programs: Vec<&Program> = cases.iter().map(|(p, _)| p).collect();

    let mut per: BTreeMap<String, u64> = BTreeMap::new();
    let mut forms: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let (mut total, mut guarded) = (0u64, 0u64);
    for p in programs.iter().copied() {
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

    let mut used: BTreeMap<&str, u64> = BTreeMap::new();
    for p in programs.iter().copied() {
        for r in reach(p) {
            *used.entry(r).or_default() += 1;
        }
    }
    println!("{:<34} {:>9}", "programs using", "share");
    for (k, c) in used {
        println!("{k:<34} {:>8.1}%", 100.0 * c as f64 / n as f64);
    }
    let (mut ok, mut failed) = (0u64, Vec::new());
    for (s, (p, inputs)) in cases.iter().enumerate() {
        match interp::run(p, inputs, &Allowances::all()) {
            Ok(_) => ok += 1,
            Err(e) => failed.push(format!("seed {s}: {e}")),
        }
    }
    println!("program oracle: {ok} of {n} programs run ({} refused)", failed.len());
    for f in failed.iter().take(5) {
        println!("  {f}");
    }
}
