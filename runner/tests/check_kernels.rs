//! Every check kernel (`generator::sweep_check`) of every `sm_90` cvt form assembles with the
//! real ptxas, under all allowances and, where the text differs, under none: the text the host
//! side loads is valid PTX for the GPU that runs it. A rejection prints ptxas's message; a crash
//! of ptxas is a failure too.
//!
//! Without ptxas the test says so and passes, unless `CI` or `PTXDIFF_REQUIRE_PTXAS` is set (as
//! in `ptxas_validity.rs`).

mod common;

use generator::sweep_check::check_kernel;
use oracle::isa::{valid_forms, Family, Target};
use oracle::semantics::Allowances;

#[test]
fn every_sm_90_check_kernel_assembles() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let target: Target = "sm_90a@8.7".parse().expect("a target");
    let mut modules: Vec<(String, String)> = Vec::new();
    for (form, _) in valid_forms(&target, Some(Family::Cvt)) {
        let all = check_kernel(&form, &target, &Allowances::all());
        let none = check_kernel(&form, &target, &Allowances::none());
        if let Some(k) = &all {
            modules.push((format!("{} (all allowances)", form.opcode()), k.ptx.clone()));
        }
        if let Some(k) = none.filter(|n| all.as_ref().is_none_or(|a| a.ptx != n.ptx)) {
            modules.push((format!("{} (no allowances)", form.opcode()), k.ptx));
        }
    }
    assert!(modules.len() > 300, "only {} check kernels", modules.len());
    let arch = target.name();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = modules.len().div_ceil(threads);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = modules
            .chunks(per)
            .map(|chunk| {
                let (ptxas, arch) = (&ptxas, &arch);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (name, ptx) in chunk {
                        let a = ptxas.assemble(ptx, arch, 3, None).expect("ptxas runs");
                        if a.crashed || !a.ok {
                            failures.push(format!(
                                "{name}: ptxas {}:\n{}",
                                if a.crashed { "crashed" } else { "rejects it" },
                                a.output
                            ));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("an assembling thread")).collect()
    });
    eprintln!("{} check kernels assembled ({})", modules.len(), ptxas.version);
    assert!(
        failures.is_empty(),
        "{} of {} check kernels fail:\n{}",
        failures.len(),
        modules.len(),
        failures.join("\n")
    );
}
