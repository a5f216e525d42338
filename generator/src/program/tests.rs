//! Generator properties over many seeds: determinism, print∘parse identity, the structural
//! validator, output coverage, family coverage, configuration obedience, and robustness to
//! exhausted byte streams and odd configurations.

use std::collections::BTreeMap;

use arbitrary::Unstructured;

use oracle::isa::{Family, Form, Operand, Target};
use oracle::program::text::{case, module, parse_case, parse_module};
use oracle::program::{Inputs, Program, Special, Stmt};

use super::*;

fn targets() -> Vec<Target> {
    FUZZ_TARGETS.iter().map(|t| t.parse().unwrap()).collect()
}

fn seeded(seed: u64, cfg: &Config, t: &Target) -> (Program, Inputs) {
    generate_seeded(seed, cfg, t, &format!("p{seed}"))
}

/// Bytes of the output slot each statement stores, counted per byte.
fn output_coverage(p: &Program) -> Vec<u32> {
    let mut cover = vec![0; 4 * p.outputs as usize];
    for s in &p.body {
        let Stmt::Isa(i) = s else { continue };
        let Form::St(_) = &i.form else { continue };
        let Operand::Address { base: Some(b), offset, .. } = &i.operands[0] else { continue };
        if b != "%out" {
            continue;
        }
        let size = match i.form.operands()[1].kind {
            oracle::isa::OperandKind::Reg(t) => t.bits() / 8,
            oracle::isa::OperandKind::Vector(t, n) => t.bits() / 8 * u32::from(n),
            _ => 0,
        };
        for k in *offset as u32..*offset as u32 + size {
            cover[k as usize] += 1;
        }
    }
    cover
}

#[test]
fn same_seed_gives_the_same_program_and_seeds_differ() {
    let t: Target = "sm_90a@8.7".parse().unwrap();
    let cfg = Config::default();
    let mut texts = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let (a, ia) = seeded(seed, &cfg, &t);
        let (b, ib) = seeded(seed, &cfg, &t);
        assert_eq!(case(&a, &ia), case(&b, &ib), "seed {seed}");
        texts.insert(a.module_text().replace(&format!("p{seed}"), "p"));
    }
    assert!(texts.len() >= 199, "only {} distinct programs of 200", texts.len());
}

#[test]
fn print_then_parse_is_the_identity() {
    let cfg = Config::default();
    let mut n = 0;
    for (k, t) in targets().iter().enumerate() {
        for batch in 0..5u64 {
            let pairs: Vec<(Program, Inputs)> =
                (0..100u64).map(|i| seeded(10_000 * k as u64 + 100 * batch + i, &cfg, t)).collect();
            let programs: Vec<Program> = pairs.iter().map(|(p, _)| p.clone()).collect();
            let text = module(&programs);
            assert_eq!(parse_module(&text).unwrap(), programs, "{t} batch {batch}");
            for (p, i) in &pairs {
                assert_eq!(parse_case(&case(p, i)).unwrap(), (p.clone(), i.clone()));
                n += 1;
            }
        }
    }
    assert!(n >= 2000);
}

#[test]
fn generated_programs_pass_the_validator_and_store_every_output_byte_once() {
    let cfg = Config::default();
    for t in targets() {
        for seed in 0..1500 {
            let (p, inputs) = seeded(seed, &cfg, &t);
            if let Err(e) = check_program(&p) {
                panic!("{t} seed {seed}: {e}\n{}", case(&p, &inputs));
            }
            assert_eq!(inputs.0.len(), (p.threads() * p.inputs) as usize);
            let cover = output_coverage(&p);
            assert!(
                cover.iter().all(|&c| c == 1),
                "{t} seed {seed}: output bytes stored {cover:?}\n{}",
                p.module_text()
            );
        }
    }
}

#[test]
fn long_programs_without_swarm_pass_the_validator() {
    let cfg = Config {
        swarm: false,
        min_len: 100,
        max_len: 300,
        divergence_rate: 0.2,
        predication_rate: 0.3,
        ..Config::default()
    };
    for t in targets() {
        for seed in 0..100 {
            let (p, _) = seeded(seed, &cfg, &t);
            assert!(p.instruction_count() >= 100);
            check_program(&p).unwrap_or_else(|e| panic!("{t} seed {seed}: {e}\n{}", p.module_text()));
        }
    }
}

#[test]
fn exhausted_and_tiny_byte_streams_give_valid_programs() {
    let t: Target = "sm_100a@8.8".parse().unwrap();
    for bytes in [vec![], vec![0xFF; 3], vec![0; 64], vec![0xFF; 64], (0..=255).collect::<Vec<u8>>()] {
        for cfg in [Config::default(), Config { swarm: false, ..Config::default() }] {
            let (p, i) = generate(&mut Unstructured::new(&bytes), &cfg, &t, "tiny").unwrap();
            check_program(&p).unwrap_or_else(|e| panic!("{e}\n{}", p.module_text()));
            assert_eq!(i.0.len(), (p.threads() * p.inputs) as usize);
        }
    }
}

#[test]
fn odd_configurations_still_give_valid_programs() {
    let t: Target = "sm_90a@8.7".parse().unwrap();
    let configs = [
        Config { min_len: 0, max_len: 0, ..Config::default() },
        Config { threads: vec![], input_words: vec![], outputs: vec![], ..Config::default() },
        Config { glue_density: 1.0, swarm: false, ..Config::default() },
        Config { divergence_rate: 1.0, predication_rate: 1.0, swarm: false, max_depth: 8, ..Config::default() },
        Config { immediate_rate: 1.0, edge_rate: 1.0, swarm: false, ..Config::default() },
        Config {
            cvt: false,
            cvt_pack: false,
            prmt: false,
            shfl: false,
            mov: false,
            ld: false,
            ld_nc: false,
            st: false,
            shared: false,
            ..Config::default()
        },
        Config { input_words: vec![4], outputs: vec![1], threads: vec![1024], swarm: false, ..Config::default() },
        Config { shared_words: 64, swarm: false, glue_density: 0.0, ..Config::default() },
    ];
    for (k, cfg) in configs.iter().enumerate() {
        for seed in 0..100 {
            let (p, _) = seeded(seed, cfg, &t);
            check_program(&p).unwrap_or_else(|e| panic!("config {k} seed {seed}: {e}\n{}", p.module_text()));
        }
    }
}

/// What a program contains, by category.
fn census(p: &Program, out: &mut BTreeMap<String, u32>) {
    let mut add = |k: &str| *out.entry(k.to_string()).or_default() += 1;
    for s in &p.body {
        match s {
            Stmt::Isa(i) => {
                let f = i.form.family();
                let shared = i
                    .operands
                    .iter()
                    .any(|o| matches!(o, Operand::Address { base: Some(b), .. } if b.starts_with("%sh")));
                add(&format!("{}{}", f.name(), if shared { ".shared" } else { "" }));
                if i.guard.is_some() {
                    add("guarded isa");
                }
                if i.operands.iter().any(|o| matches!(o, Operand::Vector(v) if v.contains(&Operand::Sink))) {
                    add("sink");
                }
                if i.operands.iter().any(|o| matches!(o, Operand::Address { base: Some(b), .. } if b == "%shn")) {
                    add("neighbour load");
                }
                if i.form.opcode().starts_with("cvt.rs") {
                    add("cvt.rs");
                }
                if i.operands.iter().any(|o| o.to_string().contains("%c")) {
                    add(".b8 register");
                    if f == oracle::isa::Family::Cvt && i.form.opcode().contains("bf16") {
                        add("cvt bf16 ↔ 8-bit");
                    }
                    if i.form.opcode().contains("e2m1x2") {
                        add("e2m1x2");
                    }
                }
                if i.form.opcode().contains("L2::cache_hint") {
                    add("cache hint");
                }
                if f == oracle::isa::Family::Createpolicy {
                    add("createpolicy");
                }
                if i.operands.iter().any(|o| matches!(o, Operand::Vector(v) if v.len() == 8))
                    || i.form.opcode().contains(".v4.b64")
                {
                    add("32-byte access");
                }
            }
            Stmt::Glue { guard, glue } => {
                add("glue");
                if guard.is_some() {
                    add("guarded glue");
                }
                if glue
                    .src
                    .iter()
                    .flatten()
                    .any(|s| *s == oracle::program::Src::Reg(oracle::program::Reg::Special(Special::Tid)))
                {
                    add("%tix");
                }
            }
            Stmt::Bra { .. } => add("bra"),
            Stmt::Bar => add("bar"),
            Stmt::Label(_) => {}
        }
    }
}

#[test]
fn every_family_and_feature_appears() {
    let cfg = Config::default();
    let mut seen = BTreeMap::new();
    for t in ["sm_90a@8.7", "sm_100a@8.8"] {
        let t: Target = t.parse().unwrap();
        for seed in 0..600 {
            census(&seeded(seed, &cfg, &t).0, &mut seen);
        }
    }
    for k in [
        "cvt",
        "cvt.pack",
        "prmt",
        "shfl.sync",
        "mov",
        "ld",
        "ld.global.nc",
        "st",
        "ld.shared",
        "st.shared",
        "bar",
        "bra",
        "glue",
        "guarded isa",
        "guarded glue",
        "sink",
        "neighbour load",
        "cvt.rs",
        "32-byte access",
        "%tix",
        "prefetch",
        ".b8 register",
        "cvt bf16 ↔ 8-bit",
        "e2m1x2",
        "cache hint",
        "createpolicy",
        "applypriority",
        "discard",
    ] {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "never generated: {k} (seen {seen:?})");
    }
}

#[test]
fn disabled_families_and_knobs_never_appear() {
    let t: Target = "sm_100a@8.8".parse().unwrap();
    let cfg = Config { cvt: false, shfl: false, vectors: false, memory_ordering: false, ..Config::default() };
    for seed in 0..300 {
        let (p, _) = seeded(seed, &cfg, &t);
        for s in &p.body {
            if let Stmt::Isa(i) = s {
                let f = i.form.family();
                assert!(f != Family::Cvt && f != Family::ShflSync, "seed {seed}: {i}");
                let op = i.form.opcode();
                if matches!(f, Family::Ld | Family::St | Family::LdGlobalNc) {
                    for q in [".v2.", ".v4.", ".v8.", ".volatile", ".relaxed", ".acquire", ".release"] {
                        assert!(!op.contains(q), "seed {seed}: {i}");
                    }
                }
            }
        }
    }
}

#[test]
fn fuzz_entry_point_smoke() {
    let mut r = rng::SplitMix64::new(42);
    for i in 0..300 {
        let len = (r.next_u64() % 600) as usize;
        let mut data = r.bytes(len);
        if i % 7 == 0 {
            data.iter_mut().for_each(|b| *b &= 0x0F);
        }
        fuzz_one(&data).unwrap_or_else(|e| panic!("input {i}: {e}"));
    }
}

#[test]
fn seeded_programs_rarely_exhaust_their_bytes() {
    // A generous SEEDED_BYTES keeps seeded programs fully random.
    let t: Target = "sm_90a@8.7".parse().unwrap();
    let cfg = Config { max_len: 200, ..Config::default() };
    for seed in 0..50 {
        let bytes = rng::SplitMix64::new(seed).bytes(SEEDED_BYTES);
        let mut u = Unstructured::new(&bytes);
        generate(&mut u, &cfg, &t, "x").unwrap();
        assert!(u.len() > SEEDED_BYTES / 4, "seed {seed}: {} bytes left", u.len());
    }
}

#[test]
fn entry_names_are_identifiers() {
    assert_eq!(entry_name("seed-1"), "seed_1");
    assert_eq!(entry_name("7up"), "k7up");
    assert_eq!(entry_name(""), "k");
}
