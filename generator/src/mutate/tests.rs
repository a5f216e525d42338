use std::collections::BTreeMap;

use oracle::program::text::parse_stmt;
use oracle::program::Launch;

use super::*;
use crate::program::{generate_seeded, Config};

fn allow() -> Allowances {
    Allowances::default()
}

fn program(lines: &[&str]) -> Program {
    Program {
        name: "k".into(),
        target: "sm_90a@8.7".parse().unwrap(),
        launch: Launch::one_cta(32),
        inputs: 4,
        outputs: 1,
        shared: 0,
        body: lines.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
    }
}

/// Mutants of 300 generated programs: each passes the checker, runs on the oracle, differs
/// from its parent only in its body, and is the same for the same seed; every kind of edit
/// shows up, and few mutants are dropped.
#[test]
fn mutants_are_valid_defined_deterministic_and_of_every_kind() {
    let target = "sm_90a@8.7".parse().unwrap();
    let cfg = Config::default();
    let mut kinds: BTreeMap<Kind, u32> = BTreeMap::new();
    let mut dropped = 0;
    for s in 0..300u64 {
        let (p, i) = generate_seeded(s, &cfg, &target, "k");
        match mutate(&p, &i, s ^ 0x5eed, &allow(), TRIES) {
            Ok(m) => {
                assert_eq!(check_program(&m.program), Ok(()), "{}\n{}", m.what, m.program.entry_text());
                assert!(interp::run(&m.program, &m.inputs, &allow()).is_ok(), "{}", m.what);
                assert_ne!(m.program.body, p.body, "{}", m.what);
                assert_eq!(
                    (&m.program.launch, m.program.inputs, m.program.outputs, &m.inputs),
                    (&p.launch, p.inputs, p.outputs, &i)
                );
                assert!(m.what.starts_with(m.kinds[0].name()) && m.what.split(" + ").count() == m.kinds.len(), "{m:?}");
                assert!((1..=MAX_EDITS as usize).contains(&m.kinds.len()) && m.tries >= m.kinds.len() as u32, "{m:?}");
                assert_eq!(mutate(&p, &i, s ^ 0x5eed, &allow(), TRIES), Ok(m.clone()), "deterministic");
                for k in &m.kinds {
                    *kinds.entry(*k).or_default() += 1;
                }
            }
            Err(d) => {
                assert_eq!(d.tries, TRIES);
                dropped += 1;
            }
        }
    }
    assert_eq!(kinds.keys().copied().collect::<Vec<_>>(), Kind::ALL.to_vec(), "{kinds:?}");
    let tries: u32 = kinds.values().sum();
    eprintln!("kinds {kinds:?}, {dropped} of 300 dropped ({tries} mutants)");
    assert!(dropped <= 6, "{dropped} of 300 dropped");
}

/// A rounding edit changes the rounding mode and nothing else; a type edit keeps the width.
#[test]
fn rounding_and_type_edits_stay_in_their_group() {
    let p = program(&["ld.global.b32 %r0, [%in];", "cvt.rzi.s32.f32 %r1, %r0;", "st.global.b32 [%out], %r1;"]);
    let i = Inputs(vec![0x3fc0_0000; 128]);
    let mut seen = Vec::new();
    for s in 0..200 {
        let mut r = SplitMix64::new(s);
        if let Some(Stmt::Isa(x)) = requalify(&p, 1, ROUNDING, &mut r) {
            seen.push(x.form.opcode());
        }
        let mut r = SplitMix64::new(s);
        if let Some(Stmt::Isa(x)) = requalify(&p, 1, TYPES, &mut r) {
            let o = x.form.opcode();
            assert!(o.starts_with("cvt.rzi.") && (o.contains("32.") || o.ends_with("32")), "{o}");
        }
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen, ["cvt.rmi.s32.f32", "cvt.rni.s32.f32", "cvt.rpi.s32.f32"]);
    // The whole mutation keeps the case valid whatever it draws.
    for s in 0..50 {
        let m = mutate(&p, &i, s, &allow(), TRIES).unwrap();
        assert_eq!(check_program(&m.program), Ok(()), "{}", m.what);
    }
}

/// A deletion that would leave a register read before it is written is refused by the
/// checker and drawn again; a program with nothing left to edit is dropped after the draws.
#[test]
fn invalid_edits_are_drawn_again_and_a_hopeless_parent_is_dropped() {
    let p = program(&["ld.global.b32 %r0, [%in];", "st.global.b32 [%out], %r0;"]);
    let i = Inputs(vec![7; 128]);
    for s in 0..40 {
        match mutate(&p, &i, s, &allow(), TRIES) {
            Ok(m) => {
                assert_eq!(check_program(&m.program), Ok(()), "{}", m.what);
                // Deleting the load first leaves %r0 read unwritten: never a mutant.
                assert!(!m.what.starts_with("delete 0"), "{}", m.what);
            }
            Err(d) => assert_eq!(d.tries, TRIES),
        }
    }
    let empty = Program { body: Vec::new(), ..p };
    assert_eq!(mutate(&empty, &i, 1, &allow(), 5), Err(Dropped { tries: 5 }));
}
