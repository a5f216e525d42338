//! Generated programs assemble with the real ptxas: 600 seeded programs for `sm_90a@8.7` in
//! modules of 100 entries at `-O0` and `-O3`, 200 for `sm_100a@8.8` (FP8/FP6/FP4, `.rs`,
//! 256-bit accesses), 300 dense in optimizer-stressing chains and `prefetch` hints, 400 dense
//! in the reach ingredients (new glue, known bits, diamonds, counted loops), one
//! program per target holding every valid glue (op, type) pair with register and immediate
//! operands, and every form of the generator's tables written with the
//! program's register classes (`.b16`/`.b32`/`.b64`/`.pred`) on four targets. A rejection
//! prints the offending line and ptxas's message; a crash of ptxas is a failure too.
//!
//! Without ptxas the tests say so and pass, unless `CI` or `PTXDIFF_REQUIRE_PTXAS` is set (as in
//! `ptxas_validity.rs`).

mod common;

use generator::program::tables::{operand_class, tables};
use generator::program::{check_program, generate_seeded, Config};
use oracle::isa::{OperandKind, Target};
use oracle::program::text::{module, parse_stmt};
use oracle::program::{Glue, GlueOp, GlueType, Launch, Program, Reg, RegClass, Src, Stmt};
use runner::ptxas::Ptxas;

/// Assembles `programs` as one module at each of `opts`; returns one message per failure.
fn assemble(ptxas: &Ptxas, programs: &[Program], opts: &[u8]) -> Vec<String> {
    let text = module(programs);
    let lines: Vec<&str> = text.lines().collect();
    let arch = programs[0].target.name();
    let mut failures = Vec::new();
    for &opt in opts {
        let a = ptxas.assemble(&text, &arch, opt, None).expect("ptxas runs");
        if a.ok {
            continue;
        }
        if a.crashed {
            failures.push(format!("ptxas -O{opt} crashed on a module of {} programs:\n{}", programs.len(), a.output));
            continue;
        }
        let errs = a.error_lines();
        if errs.is_empty() {
            failures.push(format!("ptxas -O{opt} failed:\n{}", a.output));
        }
        for l in errs {
            let program = lines[..l.min(lines.len())]
                .iter()
                .rev()
                .find_map(|s| s.strip_prefix("// ptxdiff-program name="))
                .and_then(|s| s.split_whitespace().next())
                .unwrap_or("?");
            failures.push(format!(
                "-O{opt} {program} line {l}: `{}`: {}",
                lines.get(l - 1).map_or("", |s| s.trim()),
                a.error_at(l).unwrap_or("")
            ));
        }
    }
    failures
}

/// Seeded programs for `target` under `cfg`, assembled `per_module` at a time on all cores.
fn check_seeded(cfg: &Config, target: &str, count: u64, per_module: u64, opts: &[u8]) {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let target: Target = target.parse().unwrap();
    let batches: Vec<Vec<Program>> = (0..count.div_ceil(per_module))
        .map(|b| {
            (b * per_module..((b + 1) * per_module).min(count))
                .map(|s| {
                    let (p, _) = generate_seeded(s, cfg, &target, &format!("s{s}"));
                    check_program(&p).unwrap_or_else(|e| panic!("seed {s}: {e}"));
                    p
                })
                .collect()
        })
        .collect();
    assemble_all(&ptxas, &format!("{target}: {count} programs"), &batches, opts);
}

/// Assembles `batches` (one module each) at each of `opts` on all cores; fails listing every
/// rejection.
fn assemble_all(ptxas: &Ptxas, what: &str, batches: &[Vec<Program>], opts: &[u8]) {
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get()).min(batches.len());
    let failures: Vec<String> = std::thread::scope(|scope| {
        let chunks: Vec<&[Vec<Program>]> = batches.chunks(batches.len().div_ceil(jobs)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || chunk.iter().flat_map(|b| assemble(ptxas, b, opts)).collect::<Vec<String>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker")).collect()
    });
    eprintln!("{what} assembled at {opts:?} ({})", ptxas.version);
    assert!(failures.is_empty(), "{} ptxas failures:\n{}", failures.len(), failures.join("\n"));
}

/// Mutants ([`generator::mutate`], as a campaign's corpus makes them) assemble: three chains
/// of three mutants from each of 200 seeded programs (1,800 mutants), every edit kind among them.
#[test]
fn mutants_assemble_at_o0_and_o3() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let target: Target = "sm_90a@8.7".parse().unwrap();
    let allow = oracle::semantics::Allowances::default();
    let mut mutants = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for s in 0..200u64 {
        let (p0, i0) = generate_seeded(s, &Config::default(), &target, "k");
        for chain in 0..3u64 {
            let (mut p, mut i) = (p0.clone(), i0.clone());
            for step in 0..3u64 {
                let seed = (s << 8) | (chain << 4) | step;
                let Ok(m) = generator::mutate::mutate(&p, &i, seed, &allow, generator::mutate::TRIES) else { continue };
                kinds.extend(m.kinds);
                (p, i) = (m.program, m.inputs);
                mutants.push(Program { name: format!("m{s}_{chain}_{step}"), ..p.clone() });
            }
        }
    }
    assert_eq!(kinds.len(), generator::mutate::Kind::ALL.len(), "{kinds:?}");
    let batches: Vec<Vec<Program>> = mutants.chunks(100).map(<[Program]>::to_vec).collect();
    assemble_all(&ptxas, &format!("{} mutants", mutants.len()), &batches, &[0, 3]);
}

#[test]
fn seeded_programs_assemble_for_sm_90a_at_o0_and_o3() {
    check_seeded(&Config::default(), "sm_90a@8.7", 600, 100, &[0, 3]);
}

/// Programs of the optimizer-stressing chains and `prefetch` hints only (every fold
/// ingredient, no swarm), so each module is dense in them.
#[test]
fn fold_and_prefetch_programs_assemble_at_o0_and_o3() {
    let mut cfg = Config { swarm: false, min_len: 30, max_len: 60, ..Config::default() };
    for (name, on) in cfg.switches_mut() {
        if generator::program::config::FAMILIES.contains(&name) {
            *on = matches!(name, "folds" | "prefetch" | "cvt" | "shared");
        }
    }
    check_seeded(&cfg, "sm_90a@8.7", 200, 100, &[0, 3]);
    check_seeded(&cfg, "sm_100a@8.8", 100, 100, &[3]);
}

/// Programs of global loads with `.L2::cache_hint` and their `createpolicy` policies only (the
/// epilogue's stores draw hinted forms too), so each module is dense in them; the knob puts
/// both in programs.
#[test]
fn cache_hint_programs_assemble_at_o0_and_o3() {
    let mut cfg = Config { swarm: false, min_len: 20, max_len: 40, ..Config::default() };
    for (name, on) in cfg.switches_mut() {
        if generator::program::config::FAMILIES.contains(&name) {
            *on = matches!(name, "ld" | "ld_nc" | "st" | "cvt");
        }
    }
    let target: Target = "sm_90a@8.7".parse().unwrap();
    let text: String = (0..50).map(|s| generate_seeded(s, &cfg, &target, &format!("s{s}")).0.module_text()).collect();
    for (op, needle) in [
        ("createpolicy.fractional", ""),
        ("createpolicy.range.global", ""),
        ("ld.", "L2::cache_hint"),
        ("st.", "L2::cache_hint"),
    ] {
        let found = text.lines().any(|l| l.trim_start().starts_with(op) && l.contains(needle));
        assert!(found, "no `{op}…{needle}` in 50 programs");
    }
    check_seeded(&cfg, "sm_90a@8.7", 200, 100, &[0, 3]);
    check_seeded(&cfg, "sm_100a@8.8", 100, 100, &[3]);
}

/// Programs dense in the reach ingredients: the new glue groups (`glue_*`, glue on two steps of
/// three) and the known-bits, diamond and loop chains, no swarm; each ingredient shows in the
/// first 60 programs.
#[test]
fn reach_programs_assemble_at_o0_and_o3() {
    let mut cfg = Config { swarm: false, min_len: 30, max_len: 60, glue_density: 0.6, ..Config::default() };
    for (name, on) in cfg.switches_mut() {
        if generator::program::config::FAMILIES.contains(&name) {
            *on = matches!(name, "folds" | "prmt" | "cvt" | "shared");
        } else if name.starts_with("fold_") {
            *on = matches!(name, "fold_known_bits" | "fold_diamonds" | "fold_loops");
        }
    }
    let target: Target = "sm_90a@8.7".parse().unwrap();
    let text: String = (0..60).map(|s| generate_seeded(s, &cfg, &target, &format!("s{s}")).0.module_text()).collect();
    for op in [
        "mul.hi.",
        "mul.wide.",
        "mad.",
        "bfe.",
        "bfi.",
        "lop3.",
        "shf.",
        "popc.",
        "clz.",
        "bfind.",
        "brev.",
        "cnot.",
        "set.",
        "slct.",
        "addc.",
        "subc.",
    ] {
        assert!(text.lines().any(|l| l.contains(op)), "no `{op}` in 60 programs");
    }
    assert!(text.contains("\tbra $L"), "no diamond (unconditional bra) in 60 programs");
    check_seeded(&cfg, "sm_90a@8.7", 300, 100, &[0, 3]);
    check_seeded(&cfg, "sm_100a@8.8", 100, 100, &[3]);
}

#[test]
fn seeded_programs_assemble_for_sm_100a() {
    check_seeded(&Config::default(), "sm_100a@8.8", 200, 100, &[3]);
}

/// One program with every glue (op, type) pair `target` takes, each with register sources and,
/// where an immediate is allowed, with edge immediates.
fn glue_program(target: &Target) -> Program {
    let mut body: Vec<Stmt> = [
        "ld.global.b16 %h0, [%in];",
        "ld.global.b16 %h1, [%in+2];",
        "ld.global.b32 %r0, [%in+4];",
        "ld.global.b32 %r1, [%in+8];",
        "ld.global.b64 %d0, [%in+16];",
        "ld.global.b64 %d1, [%in+24];",
        "setp.lt.u32 %p0, %tix, 7;",
    ]
    .iter()
    .enumerate()
    .map(|(i, l)| parse_stmt(i + 1, l).unwrap())
    .collect();
    // Per class of `RegClass::ALL` (no glue writes `.b8`).
    let mut next = [1u32, 0, 2, 2, 2];
    let mut fresh = |c: RegClass| {
        let k = RegClass::ALL.iter().position(|&x| x == c).expect("a class");
        next[k] += 1;
        Reg::Virt(c, next[k])
    };
    let src_reg = |c: RegClass, k: usize| match c {
        RegClass::Pred => Reg::Virt(RegClass::Pred, 0),
        c => Reg::Virt(c, k as u32 % 2),
    };
    let mut pairs = 0;
    for op in GlueOp::all() {
        for ty in GlueType::ALL {
            if !Glue::available(op, ty, target) {
                continue;
            }
            pairs += 1;
            let n = op.arity();
            let regs: Vec<Option<Src>> = (0..4)
                .map(|k| {
                    (k < n).then(|| {
                        if Glue::imm_required(op, k) {
                            Src::Imm(0xE8)
                        } else {
                            Src::Reg(src_reg(Glue::src_class(op, ty, k), k))
                        }
                    })
                })
                .collect();
            let mut shapes = vec![regs.clone()];
            for k in (1..n).filter(|&k| Glue::imm_allowed(op, ty, k) && !Glue::imm_required(op, k)) {
                let bits = Glue::src_class(op, ty, k).bits();
                let all = Glue::imm_max(op, ty, k);
                for v in [0, 1, all, 1 << (bits - 1), (1 << (bits - 1)) - 1, 31, 32, 255] {
                    let mut s = regs.clone();
                    s[k] = Some(Src::Imm(v & all));
                    shapes.push(s);
                }
            }
            if op == GlueOp::Lop3 {
                for lut in [0u64, 0xFF, 0x96, 0x01] {
                    let mut s = regs.clone();
                    s[3] = Some(Src::Imm(lut));
                    shapes.push(s);
                }
            }
            for s in shapes {
                if op.reads_carry() {
                    // The carry flag comes from the instruction right before (§9.7.2).
                    let first = if matches!(op, GlueOp::Addc { .. }) { GlueOp::AddCc } else { GlueOp::SubCc };
                    let a = Src::Reg(src_reg(ty.class(), 0));
                    let b = Src::Reg(src_reg(ty.class(), 1));
                    body.push(Stmt::Glue { guard: None, glue: Glue::new(first, ty, fresh(ty.class()), &[a, b]) });
                }
                let dst = fresh(Glue::dst_class(op, ty));
                let glue = Glue { op, ty, dst, src: [s[0], s[1], s[2], s[3]] };
                assert!(glue.is_valid(), "{glue}");
                body.push(Stmt::Glue { guard: None, glue });
            }
        }
    }
    assert!(pairs > 150, "only {pairs} glue pairs");
    body.push(parse_stmt(0, "st.global.b32 [%out], %r0;").unwrap());
    Program {
        name: "glue".into(),
        target: *target,
        launch: Launch::one_cta(32),
        inputs: 8,
        outputs: 1,
        shared: 0,
        body,
    }
}

#[test]
fn every_glue_pair_assembles_with_registers_and_immediates() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let mut failures = Vec::new();
    for t in ["sm_90a@8.7", "sm_80", "sm_100a@8.8"] {
        let target: Target = t.parse().unwrap();
        let p = glue_program(&target);
        check_program(&p).unwrap_or_else(|e| panic!("{t}: {e}"));
        failures.extend(assemble(&ptxas, &[p], &[0, 3]).into_iter().map(|f| format!("{t}: {f}")));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The gate that keeps packed glue off older targets is real: sm_80 rejects it.
    let sm80: Target = "sm_80".parse().unwrap();
    let mut p = glue_program(&sm80);
    p.body.insert(7, parse_stmt(0, "min.u16x2 %r9, %r0, %r1;").unwrap());
    assert!(!assemble(&ptxas, &[p], &[3]).is_empty(), "ptxas accepted min.u16x2 on sm_80");
}

/// Every form the generator may emit, one line each, with registers of the program's classes.
#[test]
fn every_table_form_assembles_with_program_registers() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let mut failures = Vec::new();
    for t in ["sm_90a@8.7", "sm_100a@8.8", "sm_80", "sm_120a@8.7"] {
        let target: Target = t.parse().unwrap();
        let tb = tables(&target);
        let mut text = format!(
            ".version {}\n.target {}\n.address_size 64\n.visible .entry k()\n{{\n\t.reg .pred %p<8>;\n\t.reg .b8 %c<8>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %d<8>;\n",
            target.ptx,
            target.name()
        );
        let forms = tb
            .cvt
            .iter()
            .chain(&tb.cvt_pack)
            .chain(&tb.prmt)
            .chain(&tb.shfl)
            .chain(&tb.mov)
            .map(|e| &e.form)
            .chain(
                tb.ld_global
                    .iter()
                    .chain(&tb.ld_nc)
                    .chain(&tb.ld_shared)
                    .chain(&tb.st_global)
                    .chain(&tb.st_shared)
                    .map(|m| &m.form),
            )
            .chain(tb.createpolicy.iter().map(|e| &e.form));
        let mut n = 0;
        for form in forms {
            let mut k = 0;
            let mut reg = |t| {
                k += 1;
                let c = operand_class(form, t).expect("table forms have register classes");
                format!("%{}{}", c.prefix(), k % 7)
            };
            let ops: Vec<String> = form
                .operands()
                .iter()
                .map(|s| match s.kind {
                    OperandKind::Reg(t) | OperandKind::RegOrImm(t) => reg(t),
                    OperandKind::Vector(t, n) => {
                        format!("{{{}}}", (0..n).map(|_| reg(t)).collect::<Vec<_>>().join(", "))
                    }
                    OperandKind::RegWithPred(t) => format!("{}|%p7", reg(t)),
                    OperandKind::Addr(_) => "[%d7]".to_string(),
                    k => panic!("{}: unexpected operand kind {k:?}", form.opcode()),
                })
                .collect();
            text.push_str(&format!("\t{} {};\n", form.opcode(), ops.join(", ")));
            n += 1;
        }
        text.push_str("\tret;\n}\n");
        let a = ptxas.assemble(&text, &target.name(), 0, None).expect("ptxas runs");
        eprintln!("{t}: {n} forms, ptxas {}", if a.ok { "accepts all" } else { "rejects some" });
        let lines: Vec<&str> = text.lines().collect();
        if a.crashed {
            failures.push(format!("{t}: ptxas crashed: {}", a.output));
        }
        for l in a.error_lines() {
            failures.push(format!("{t}: `{}`: {}", lines[l - 1].trim(), a.error_at(l).unwrap_or("")));
        }
        if !a.ok && a.error_lines().is_empty() && !a.crashed {
            failures.push(format!("{t}: {}", a.output));
        }
    }
    assert!(failures.is_empty(), "{} forms rejected:\n{}", failures.len(), failures.join("\n"));
}
