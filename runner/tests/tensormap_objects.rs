//! Tensor-map objects in shared memory (§9.7.9.26 `.shared::cta`) and `tensormap.cp_fenceproxy`
//! (§9.7.13.16): what the GPU would be sent assembles with ptxas — every conform case of
//! `tensormap.replace` (sm_90a) and `tensormap.cp_fenceproxy` (sm_90), and generated programs
//! with the `shared_tensormap` knob, which the oracle never calls undefined. Without ptxas they
//! skip visibly (common::ptxas_or_skip); running the cases on a GPU is
//! `ptxdiff conform --forms 'tensormap.replace*shared::cta*'` and
//! `--forms 'tensormap.cp_fenceproxy*'` (docs/COMMANDS.md).

mod common;

use generator::async_cases::async_cases;
use oracle::memprog::MemProgram;

#[test]
fn every_tensor_map_object_conform_case_assembles() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let sweep = async_cases(&target, &|op| op.starts_with("tensormap."));
    let mut by_arch: std::collections::BTreeMap<String, Vec<MemProgram>> = Default::default();
    for c in &sweep.cases {
        by_arch.entry(c.source.target.name()).or_default().push(c.source.build().unwrap());
    }
    let shared = sweep.cases.iter().filter(|c| c.form.contains(".shared::cta.b1024")).count();
    let cp = sweep.cases.iter().filter(|c| c.form.starts_with("tensormap.cp_fenceproxy")).count();
    assert!(shared >= 28 && cp == 16, "{shared} shared-object replace cases, {cp} cp_fenceproxy cases");
    assert_eq!(by_arch.keys().map(String::as_str).collect::<Vec<_>>(), ["sm_90", "sm_90a"]);
    for (arch, programs) in &by_arch {
        common::assemble_all(&ptxas, programs, arch);
    }
}

/// Generated programs with the `shared_tensormap` knob (one CTA, so `replace` runs) that copy
/// the object through shared memory run on the oracle, defined, and assemble for sm_90a.
#[test]
fn generated_programs_with_shared_objects_are_defined_and_assemble() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let cfg = generator::async_programs::AsyncConfig {
        multicast: false,
        cluster: false,
        remote: false,
        swarm: false,
        shared_tensormap: true,
        ..Default::default()
    };
    let programs = common::defined_generated_programs(&cfg, 12, "tensormap.cp_fenceproxy", 15);
    common::assemble_all(&ptxas, &programs, "sm_90a");
}
