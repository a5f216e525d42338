//! print∘parse is the identity: exhaustively for every candidate form of every family (legal or
//! not), and as a property over instructions with random operands and guards.

use oracle::isa::operand::{Imm, OperandKind};
use oracle::isa::{symbol_name, Family, Form, Guard, Instruction, Operand};
use proptest::prelude::*;

/// Operands of the right shape for `form`, with names/values drawn from `pick`.
fn operands_for(form: &Form, pick: &mut impl FnMut(u32) -> u32) -> Vec<Operand> {
    let name = |pick: &mut dyn FnMut(u32) -> u32| format!("%r{}", pick(1000));
    form.operands()
        .iter()
        .map(|s| match s.kind {
            OperandKind::Reg(_) | OperandKind::RegOneOf(_) | OperandKind::Pred => Operand::Name(name(pick)),
            OperandKind::SpecialReg(_) => Operand::Name(["%tid.x", "%ctaid.y", "%clock"][pick(3) as usize].to_string()),
            OperandKind::RegOrImm(_) => {
                if pick(2) == 0 {
                    Operand::Name(name(pick))
                } else {
                    Operand::Imm(Imm::Int(i128::from(pick(1 << 20))))
                }
            }
            OperandKind::Imm(v) => Operand::Imm(Imm::Int(i128::from(v))),
            OperandKind::Vector(_, n) => {
                let mut items: Vec<Operand> = (0..n).map(|_| Operand::Name(name(pick))).collect();
                if n > 1 && pick(3) == 0 {
                    items[pick(u32::from(n) - 1) as usize + 1] = Operand::Sink;
                }
                Operand::Vector(items)
            }
            OperandKind::RegWithPred(_) => Operand::WithPred(Box::new(Operand::Name(name(pick))), name(pick)),
            OperandKind::Addr(kind) => {
                let unified = kind == oracle::isa::operand::AddrKind::GlobalUnified;
                let base = if pick(4) == 0 && !unified { None } else { Some(name(pick)) };
                let offset = i64::from(pick(512)) - 256;
                Operand::Address { base, offset, unified }
            }
            OperandKind::TensorRef(n) => Operand::TensorRef {
                map: Box::new(Operand::Name(name(pick))),
                coords: (0..n).map(|_| Operand::Name(name(pick))).collect(),
            },
            OperandKind::Sink => Operand::Sink,
            OperandKind::Symbol(k) => {
                let sym = symbol_name(k).to_string();
                if pick(2) == 0 {
                    Operand::Name(sym)
                } else {
                    Operand::NameOffset(sym, i64::from(pick(64)))
                }
            }
        })
        .collect()
}

/// `parsed` with `cp.async`'s fourth operand settled by the type `original`'s operand list
/// declares for it: untyped, a register there parses as ignore-src, and its type decides
/// (§9.7.9.25.3.1), as the memory programs settle it from the register's declaration.
fn settled(parsed: Form, original: &Form, ops: &[Operand]) -> Form {
    match (&parsed, original.operands().get(3)) {
        (Form::CpAsync(c), Some(spec))
            if matches!(ops.get(3), Some(Operand::Name(_))) && spec.role == oracle::isa::operand::Role::Src =>
        {
            Form::CpAsync(c.with_src_register(spec.kind == oracle::isa::operand::OperandKind::Pred))
        }
        _ => parsed,
    }
}

#[test]
fn every_candidate_form_round_trips_through_its_opcode() {
    let mut seed = 1u32;
    let mut pick = |n: u32| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 8) % n.max(1)
    };
    let mut total = 0usize;
    for fam in Family::ALL {
        for form in fam.candidates() {
            let ops = operands_for(&form, &mut pick);
            let opcode = form.opcode();
            assert_eq!(Family::classify(&opcode), Some(*fam), "{opcode}");
            let back = settled(Form::parse(&opcode, &ops).unwrap_or_else(|e| panic!("{opcode}: {e}")), &form, &ops);
            assert_eq!(back, form, "{opcode}");
            assert_eq!(back.opcode(), opcode);
            total += 1;
        }
    }
    assert!(total > 10_000, "only {total} candidate forms");
}

fn valid_forms() -> Vec<Form> {
    let target = "sm_100a".parse().unwrap();
    oracle::isa::valid_forms(&target, None).into_iter().map(|(f, _)| f).collect()
}

proptest! {
    #[test]
    fn instructions_round_trip(index in any::<usize>(), seeds in prop::collection::vec(any::<u32>(), 64), guard in any::<Option<(bool, u8)>>()) {
        thread_local!(static FORMS: Vec<Form> = valid_forms());
        let form = FORMS.with(|f| f[index % f.len()].clone());
        let mut i = 0;
        let mut pick = |n: u32| { i += 1; seeds[i % seeds.len()] % n.max(1) };
        let operands = operands_for(&form, &mut pick);
        let guard = guard.map(|(negated, p)| Guard { negated, pred: format!("%p{p}") });
        let instr = Instruction { guard, form, operands };
        let text = instr.to_string();
        let mut back: Instruction = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        back.form = settled(back.form, &instr.form, &instr.operands);
        prop_assert_eq!(&back, &instr, "{}", text);
        prop_assert_eq!(back.to_string(), text);
    }
}

#[test]
fn bad_instructions_get_precise_errors() {
    for (text, needle) in [
        ("frobnicate.b32 %r1, %r2;", "not an instruction of §9.7.9"),
        ("cvt.rn.f16 %h1, %f1;", "missing source type"),
        ("cvt.rn.f16.f32.bogus %h1, %f1;", "unexpected or repeated qualifier(s) .bogus"),
        ("cvt.rn.f16.f32 %h1;", "expects 2 operand(s)"),
        ("cvt.rn.f16.f32 %h1, [%f1];", "operand `a`"),
        ("cvt.rn..f16.f32 %h1, %f1;", "empty qualifier"),
        ("@ cvt.rn.f16.f32 %h1, %f1;", "guard"),
        ("cvt.rn.f16.f32 %h1, {%f1;", "unbalanced"),
    ] {
        let err = text.parse::<Instruction>().unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
    }
}

/// `ptxdiff variants` lists each valid form as its template: two different forms must never
/// print the same line (symbols show their kind, form-deciding immediates their value,
/// `.unified` its suffix).
#[test]
fn templates_of_valid_forms_are_distinct() {
    for target in ["sm_90a", "sm_100a"] {
        let target: oracle::isa::Target = target.parse().unwrap();
        let forms = oracle::isa::valid_forms(&target, None);
        let mut seen = std::collections::HashMap::new();
        for (f, _) in &forms {
            if let Some(other) = seen.insert(f.template(), f.clone()) {
                panic!("{} and {:?} both print as `{}`", f.opcode(), other, f.template());
            }
        }
    }
}
