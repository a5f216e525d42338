//! The forms that reach another CTA's shared memory (remote `mbarrier.arrive`, `ld`/`st` on
//! `.shared::cluster`, addresses from `mapa`): what the GPU would be sent assembles with
//! ptxas for sm_90 — every conform case of those forms, and generated programs with the
//! `remote` knob on, which the oracle never calls undefined. Without ptxas these tests skip
//! visibly (common::ptxas_or_skip); running them on a GPU is `ptxdiff conform --forms` and
//! `fuzz --async` (docs/EVAL.md).

mod common;

use generator::async_cases::{async_cases, is_remote_form};
use oracle::memprog::MemProgram;

#[test]
fn every_remote_conform_case_assembles_for_sm_90() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let sweep = async_cases(&target, &|op| is_remote_form(op));
    assert!(sweep.cases.len() > 300, "{} cases", sweep.cases.len());
    let programs: Vec<MemProgram> = sweep.cases.iter().map(|c| c.source.build().unwrap()).collect();
    common::assemble_all(&ptxas, &programs, "sm_90");
}

#[test]
fn generated_programs_with_remote_exchanges_are_defined_and_assemble() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let cfg = generator::async_programs::AsyncConfig {
        multicast: false,
        cluster: false,
        replace: false,
        ..Default::default()
    };
    let programs = common::defined_generated_programs(&cfg, 11, "shared::cluster.", 40);
    common::assemble_all(&ptxas, &programs, "sm_90");
}
