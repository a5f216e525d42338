//! Lists the cvt forms `conform --exhaustive` sweeps over every input on a target (default
//! `sm_90a@8.7`), grouped by (source type, destination type), with whether each has a fast
//! kernel. `cargo run --release -p ptxdiff --example fast_coverage [TARGET] [-v]`; `-v` also
//! prints every form without one.

use std::collections::BTreeMap;

use generator::sweep::{sweep_kernel, Scheme};
use oracle::isa::{Family, Form, Target};
use oracle::semantics::Allowances;
use runner::sweep_check::Checker;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let target: Target =
        args.iter().find(|a| !a.starts_with('-')).map_or("sm_90a@8.7", String::as_str).parse().expect("a target");
    // (atype, dtype) → (forms, forms with a fast kernel, forms without).
    let mut groups: BTreeMap<(String, String), (usize, usize, Vec<String>)> = BTreeMap::new();
    for (form, _) in oracle::isa::valid_forms(&target, Some(Family::Cvt)) {
        let Form::Cvt(c) = &form else { continue };
        let Ok(k) = sweep_kernel(&form, &target) else { continue };
        if !matches!(k.scheme, Scheme::Exhaustive { .. }) {
            continue;
        }
        let sources = if c.two_f32_sources() { "x2" } else { "" };
        let key = (format!("{}{sources}", c.atype), c.dtype.to_string());
        let g = groups.entry(key).or_default();
        g.0 += 1;
        if Checker::new(&form, k.scheme, k.out_bytes, Allowances::all()).is_ok_and(|c| c.has_fast()) {
            g.1 += 1;
        } else {
            g.2.push(form.opcode());
        }
    }
    let (mut all, mut fast) = (0, 0);
    println!("{:<10} {:<10} {:>6} {:>6}", "source", "dest", "forms", "fast");
    for ((a, d), (n, f, without)) in &groups {
        println!("{a:<10} {d:<10} {n:>6} {f:>6}");
        if verbose {
            for o in without {
                println!("    {o}");
            }
        }
        all += n;
        fast += f;
    }
    println!("{} exhaustive cvt forms on {}, {fast} with a fast kernel", all, target.name());
}
