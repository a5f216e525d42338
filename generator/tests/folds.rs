//! The optimizer-stressing chains (`folds` family and its `fold_*` ingredients): programs that
//! use them pass the structural checker and the program oracle, are the same per seed, each
//! ingredient alone produces its chain shape, and adaptive swarm weights steer the draws.

use std::collections::BTreeMap;

use generator::program::config::{FAMILIES, KNOBS};
use generator::program::{check_program, generate_seeded, Config};
use oracle::isa::{Form, Operand};
use oracle::program::{interp, GlueOp, Program, Reg, Src, Stmt};
use oracle::semantics::Allowances;

/// The default configuration with every family but `folds` off (and `cvt` and `shared`, which
/// the conversion and narrow-store ingredients need: a disabled family never appears), no
/// swarm, and only the fold ingredient `only` on (every ingredient when `None`).
fn folds_only(only: Option<&str>) -> Config {
    let mut c = Config { swarm: false, min_len: 20, max_len: 40, ..Config::default() };
    let needs_cvt = only.is_none_or(|o| matches!(o, "fold_round_trips" | "fold_sub_words"));
    let needs_shared = only.is_none_or(|o| o == "fold_narrow_stores");
    for (name, on) in c.switches_mut() {
        if FAMILIES.contains(&name) {
            *on = name == "folds" || (name == "cvt" && needs_cvt) || (name == "shared" && needs_shared);
        } else if name.starts_with("fold_") {
            *on = only.is_none_or(|o| o == name);
        }
    }
    c
}

fn glue_of(s: &Stmt) -> Option<&oracle::program::Glue> {
    match s {
        Stmt::Glue { glue, .. } => Some(glue),
        _ => None,
    }
}

fn reads(g: &oracle::program::Glue, r: Reg) -> bool {
    g.src.iter().flatten().any(|s| *s == Src::Reg(r))
}

/// The register an ISA instruction's operand `i` names.
fn isa_reg(s: &Stmt, i: usize) -> Option<Reg> {
    match s {
        Stmt::Isa(inst) => match inst.operands.get(i) {
            Some(Operand::Name(n)) => Reg::parse(n),
            _ => None,
        },
        _ => None,
    }
}

fn cvt_types(s: &Stmt) -> Option<(oracle::isa::CvtType, oracle::isa::CvtType)> {
    match s {
        Stmt::Isa(inst) => match &inst.form {
            Form::Cvt(c) => Some((c.dtype, c.atype)),
            _ => None,
        },
        _ => None,
    }
}

fn is_mask_link(op: GlueOp) -> bool {
    matches!(op, GlueOp::And | GlueOp::Or | GlueOp::Shl | GlueOp::Shr)
}

/// Whether the body holds the chain shape of ingredient `name`.
fn has_shape(p: &Program, name: &str) -> bool {
    let b = &p.body;
    let w2 = b.windows(2);
    let w3 = b.windows(3);
    match name {
        // Two mask/shift links, the second reading the first's result through an immediate.
        "fold_masks" => w2.into_iter().any(|w| match (glue_of(&w[0]), glue_of(&w[1])) {
            (Some(a), Some(c)) => {
                is_mask_link(a.op)
                    && is_mask_link(c.op)
                    && reads(c, a.dst)
                    && matches!(a.src[1], Some(Src::Imm(_)))
                    && matches!(c.src[1], Some(Src::Imm(_)))
            }
            _ => false,
        }),
        // setp → selp on its predicate → a rewrite of the select guarded by the same predicate.
        "fold_selects" => w3.into_iter().any(|w| match (glue_of(&w[0]), &w[1], &w[2]) {
            (Some(s), Stmt::Glue { glue: sel, guard: None }, Stmt::Glue { glue: g, guard: Some(pg) }) => {
                matches!(s.op, GlueOp::Setp(_))
                    && sel.op == GlueOp::Selp
                    && reads(sel, s.dst)
                    && g.dst == sel.dst
                    && s.dst == Reg::Virt(oracle::program::RegClass::Pred, pg.pred)
            }
            _ => false,
        }),
        // setp on data → @p bra → one or two glue rewrites → the label.
        "fold_if_conversion" => b.windows(4).any(|w| match (glue_of(&w[0]), &w[1], glue_of(&w[2])) {
            (Some(s), Stmt::Bra { guard: Some(g), label }, Some(_)) => {
                matches!(s.op, GlueOp::Setp(_))
                    && s.dst == Reg::Virt(oracle::program::RegClass::Pred, g.pred)
                    && (w[3] == Stmt::Label(*label) || (glue_of(&w[3]).is_some() && b.contains(&Stmt::Label(*label))))
            }
            _ => false,
        }),
        // cvt.a.b then cvt.b.a of its result.
        "fold_round_trips" => w2.into_iter().any(|w| match (cvt_types(&w[0]), cvt_types(&w[1])) {
            (Some((d0, a0)), Some((d1, a1))) => {
                d0 == a1 && a0 == d1 && isa_reg(&w[0], 0).is_some() && isa_reg(&w[0], 0) == isa_reg(&w[1], 1)
            }
            _ => false,
        }),
        // A 16-bit glue result widened by cvt to 32 bits.
        "fold_sub_words" => w2.into_iter().any(|w| match (glue_of(&w[0]), cvt_types(&w[1])) {
            (Some(g), Some((d, _))) => g.ty.bits() == 16 && d.bits() == 32 && isa_reg(&w[1], 1) == Some(g.dst),
            _ => false,
        }),
        // and(v, m), shift/rotate/bfe(v, k), join(and, second path).
        "fold_two_paths" => w3.into_iter().any(|w| match (glue_of(&w[0]), glue_of(&w[1]), glue_of(&w[2])) {
            (Some(a), Some(s), Some(j)) => {
                a.op == GlueOp::And
                    && matches!(s.op, GlueOp::Shl | GlueOp::Shr | GlueOp::Shf { .. } | GlueOp::Bfe)
                    && a.src[0] == s.src[0]
                    && reads(j, a.dst)
                    && reads(j, s.dst)
            }
            _ => false,
        }),
        // A narrow shared store of a register, its load back, and an add of both.
        "fold_narrow_stores" => w3.into_iter().any(|w| match (&w[0], &w[1], glue_of(&w[2])) {
            (Stmt::Isa(st), Stmt::Isa(ld), Some(add)) => {
                let narrow = |o: &str| o.ends_with("8") || o.ends_with("16");
                st.form.opcode().starts_with("st.shared")
                    && ld.form.opcode().starts_with("ld.shared")
                    && narrow(&st.form.opcode())
                    && st.operands[0] == ld.operands[1]
                    && isa_reg(&w[1], 0).is_some_and(|r| reads(add, r))
                    && isa_reg(&w[0], 1).is_some_and(|r| reads(add, r))
            }
            _ => false,
        }),
        // A known-bits producer (a mask or shift by an immediate, `bfe` of a constant field,
        // `prmt` with an immediate selector, an integer `cvt` from 8 or 16 bits) read within
        // three statements by a known-bits consumer.
        "fold_known_bits" => b.iter().enumerate().any(|(k, s)| {
            let Some(d) = known_bits_producer(s) else { return false };
            b.iter().skip(k + 1).take(3).any(|c| known_bits_consumer(c, d))
        }),
        // `@p bra ELSE`, a then arm, `bra JOIN`, `ELSE:`, an else arm, `JOIN:`.
        "fold_diamonds" => b.iter().enumerate().any(|(k, s)| {
            let Stmt::Bra { guard: None, label: join } = s else { return false };
            let Some(Stmt::Label(els)) = b.get(k + 1) else { return false };
            b[..k].iter().any(|x| matches!(x, Stmt::Bra { guard: Some(_), label } if label == els))
                && b[k + 2..].contains(&Stmt::Label(*join))
        }),
        // A backward `@p bra` to a label before it, the loop body updating a register from
        // itself.
        "fold_loops" => b.iter().enumerate().any(|(k, s)| {
            let Stmt::Bra { guard: Some(_), label } = s else { return false };
            let Some(head) = b[..k].iter().position(|x| *x == Stmt::Label(*label)) else { return false };
            b[head..k].iter().filter_map(glue_of).any(|g| reads(g, g.dst))
        }),
        _ => false,
    }
}

/// The destination of a known-bits producer.
fn known_bits_producer(s: &Stmt) -> Option<Reg> {
    match s {
        Stmt::Glue { glue: g, .. } => {
            let imm = |k: usize| matches!(g.src[k], Some(Src::Imm(_)));
            let ok = match g.op {
                GlueOp::And | GlueOp::Or | GlueOp::Shl | GlueOp::Shr => imm(1),
                GlueOp::Bfe => imm(1) && imm(2),
                _ => false,
            };
            ok.then_some(g.dst)
        }
        Stmt::Isa(i) => match &i.form {
            Form::Prmt(_) if matches!(i.operands.get(3), Some(Operand::Imm(_))) => isa_reg(s, 0),
            Form::Cvt(c) if c.atype.is_int() && c.dtype.is_int() && c.atype.bits() <= 16 && c.dtype.bits() >= 32 => {
                isa_reg(s, 0)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether `s` consumes `d` as a known-bits consumer: a mask, an extension (`bfe` from bit 0,
/// `shl`), a comparison, a select, a conversion.
fn known_bits_consumer(s: &Stmt, d: Reg) -> bool {
    match s {
        Stmt::Glue { glue: g, .. } => {
            reads(g, d)
                && matches!(
                    g.op,
                    GlueOp::And | GlueOp::Shl | GlueOp::Bfe | GlueOp::Setp(_) | GlueOp::Selp | GlueOp::Slct
                )
        }
        Stmt::Isa(i) => matches!(i.form, Form::Cvt(_)) && isa_reg(s, 1) == Some(d),
        _ => false,
    }
}

const TARGETS: [&str; 2] = ["sm_90a@8.7", "sm_100a@8.8"];

#[test]
fn each_ingredient_alone_produces_its_shape() {
    for name in KNOBS.iter().filter(|k| k.starts_with("fold_")) {
        let cfg = folds_only(Some(name));
        let t = "sm_90a@8.7".parse().unwrap();
        let hits = (0..200).filter(|&seed| has_shape(&generate_seeded(seed, &cfg, &t, "f").0, name)).count();
        assert!(hits > 0, "{name} alone never produced its chain in 200 programs");
        // Not a rare accident: at least one program in ten has the chain.
        assert!(hits >= 20, "{name}: only {hits} of 200 programs have the chain");
    }
}

#[test]
fn fold_programs_pass_the_checker_and_the_oracle() {
    let allow = Allowances::all();
    for (i, cfg) in [folds_only(None), Config::default()].into_iter().enumerate() {
        for t in TARGETS {
            let t = t.parse().unwrap();
            for seed in 0..150 {
                let (p, inputs) = generate_seeded(seed, &cfg, &t, "f");
                if let Err(e) = check_program(&p) {
                    panic!("config {i}, seed {seed}: {e}\n{}", p.module_text());
                }
                if let Err(e) = interp::run(&p, &inputs, &allow) {
                    panic!("config {i}, seed {seed}: the oracle refused it: {e}\n{}", p.module_text());
                }
            }
        }
    }
}

#[test]
fn fold_programs_are_the_same_per_seed() {
    let cfg = folds_only(None);
    let t = "sm_90a@8.7".parse().unwrap();
    for seed in 0..20 {
        let a = generate_seeded(seed, &cfg, &t, "f");
        let b = generate_seeded(seed, &cfg, &t, "f");
        assert_eq!(a, b, "seed {seed}");
    }
    assert_ne!(generate_seeded(1, &cfg, &t, "f"), generate_seeded(2, &cfg, &t, "f"));
}

/// Counts, over `n` seeded swarm draws, how often each switch stays on.
fn switch_counts(cfg: &Config, n: u64) -> BTreeMap<&'static str, u32> {
    let mut on = BTreeMap::new();
    for seed in 0..n {
        let bytes = generator::program::rng::SplitMix64::new(seed).bytes(256);
        let drawn = cfg.swarm(&mut arbitrary::Unstructured::new(&bytes)).unwrap();
        for name in drawn.switches_on() {
            *on.entry(name).or_default() += 1;
        }
    }
    on
}

#[test]
fn swarm_weights_steer_the_draws_and_never_starve_a_switch() {
    let mut cfg = Config::default();
    cfg.swarm_weights.insert("fold_masks".into(), 1.0);
    cfg.swarm_weights.insert("fold_selects".into(), 0.0);
    cfg.swarm_weights.insert("no_such_knob".into(), 0.7);
    assert!(!cfg.sanitized().swarm_weights.contains_key("no_such_knob"));
    let on = switch_counts(&cfg, 2000);
    let (masks, selects, coin) = (on["fold_masks"], on["fold_selects"], on["fold_two_paths"]);
    assert!(masks > 1800, "fold_masks kept {masks} of 2000");
    assert!(selects > 0 && selects < 200, "fold_selects kept {selects} of 2000");
    assert!((800..1200).contains(&coin), "fold_two_paths kept {coin} of 2000");
    // A switch the configuration turns off stays off whatever its weight.
    cfg.fold_masks = false;
    assert!(!switch_counts(&cfg, 200).contains_key("fold_masks"));
}
