//! Mutation of generated programs (issue 29 item 4): a campaign keeps a corpus of programs that
//! made ptxas emit SASS it had not emitted before, and spends part of every batch on small
//! edits of them, beside fresh generation.
//!
//! A mutant is one to [`MAX_EDITS`] edits, each of one statement ([`Kind`]): insert a glue instruction (a basic
//! operation over registers written before it, into a register written before it, so the
//! value flows on), delete a statement, replace one (a glue operation by another of the same
//! shape, an instruction by a `mov` of one of its sources or of a constant), change a type
//! qualifier (same width: `.s32` ↔ `.u32` ↔ `.b32` ↔ `.f32`; a glue type of the same register
//! class), change a rounding mode (`.rn .rz .rm .rp .rna`, `.rni .rzi .rmi .rpi`), change an
//! immediate (to an edge value of its width, or one bit flipped), and add, negate or drop a
//! guard. The statement rewrites are the minimizer's where it has them
//! ([`crate::minimize`]: statement deletion with its dangling labels, `mov` of a source,
//! opcode rewriting), not copies of them.
//!
//! Invariants: [`mutate`] is a function of the parent, the seed, the target and the allowances
//! (deterministic); a mutant it returns passes the structural checker ([`check_program`]: valid
//! on the target, registers written before read, carry chains, shared memory, convergence) and
//! the program oracle runs it without error (defined: no undefined result under `allow`); it
//! differs from the parent and keeps the parent's launch, memory layout and inputs. An edit the
//! checker refuses is tried again with the next draw, at most `tries` draws; a stack the oracle
//! refuses falls back to its first edit; past that the mutant is dropped ([`Dropped`]), and the
//! caller counts it.

use oracle::isa::operand::{Imm, Operand, Role};
use oracle::isa::Guard;
use oracle::program::text::stmt_line;
use oracle::program::{interp, Glue, GlueOp, GlueType, Inputs, PredGuard, Program, Reg, RegClass, Src, Stmt};
use oracle::semantics::Allowances;

use crate::minimize::{drop_dangling_labels, mov, register_sources, requalified, single_destination};
use crate::program::rng::SplitMix64;
use crate::program::{check_program, policy_registers};
use crate::sweep::mix64;

/// The edits, in the order a draw picks among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A glue instruction inserted.
    Insert,
    /// A statement deleted.
    Delete,
    /// A statement replaced by another.
    Replace,
    /// A type qualifier changed.
    Type,
    /// A rounding mode changed.
    Rounding,
    /// An immediate changed.
    Immediate,
    /// A guard added, negated or dropped.
    Guard,
}

impl Kind {
    /// All edits.
    pub const ALL: [Kind; 7] =
        [Kind::Insert, Kind::Delete, Kind::Replace, Kind::Type, Kind::Rounding, Kind::Immediate, Kind::Guard];

    /// Its name in reports (`insert`, `delete`, …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Insert => "insert",
            Kind::Delete => "delete",
            Kind::Replace => "replace",
            Kind::Type => "type",
            Kind::Rounding => "rounding",
            Kind::Immediate => "immediate",
            Kind::Guard => "guard",
        }
    }
}

/// A valid mutant.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutant {
    /// The mutated program (the parent's name; the caller renames it).
    pub program: Program,
    /// Its inputs (the parent's).
    pub inputs: Inputs,
    /// The edits, in the order applied (1 to [`MAX_EDITS`]).
    pub kinds: Vec<Kind>,
    /// The edits for a person, ` + `-separated: `type 12: cvt.rn.f32.s32 … → cvt.rn.f32.u32 …`.
    pub what: String,
    /// Draws it took over all its edits.
    pub tries: u32,
}

/// No valid mutant within the draws allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// Draws tried.
    pub tries: u32,
}

/// Draws per mutant before it is dropped: an edit fails the checks about one time in two or
/// three (a deleted definition, a type the form has not), so 16 draws nearly always find one.
pub const TRIES: u32 = 16;

/// Most edits stacked in one mutant.
pub const MAX_EDITS: u64 = 4;

/// Mutates `(parent, inputs)` with 1 to [`MAX_EDITS`] edits drawn from `seed` (see the module
/// documentation), each the first of at most `tries` draws whose result passes
/// [`check_program`]; the stack must then run on the oracle under `allow` (else its first edit
/// alone must). Stacked edits move a mutant further from its parent, whose SASS the campaign
/// has seen already; the oracle runs once per mutant, not per draw (it costs far more than the
/// checker). Dropped when the first edit finds no valid draw or the oracle refuses both.
pub fn mutate(parent: &Program, inputs: &Inputs, seed: u64, allow: &Allowances, tries: u32) -> Result<Mutant, Dropped> {
    let edits = 1 + SplitMix64::new(seed).next_u64() % MAX_EDITS;
    let mut m =
        Mutant { program: parent.clone(), inputs: inputs.clone(), kinds: Vec::new(), what: String::new(), tries: 0 };
    let mut first = None;
    for e in 0..edits {
        let Some((program, kind, what, t)) = one_edit(&m.program, parent, mix64(seed, e + 1), tries) else {
            m.tries += tries;
            break;
        };
        if !m.what.is_empty() {
            m.what.push_str(" + ");
        }
        m.what.push_str(&what);
        m.program = program;
        m.kinds.push(kind);
        m.tries += t;
        if e == 0 {
            first = Some(m.clone());
        }
    }
    let defined = |m: &Mutant| interp::run(&m.program, inputs, allow).is_ok();
    match first {
        None => Err(Dropped { tries }),
        Some(_) if defined(&m) => Ok(m),
        Some(f) if m.kinds.len() > 1 && defined(&f) => Ok(Mutant { tries: m.tries, ..f }),
        Some(_) => Err(Dropped { tries: m.tries }),
    }
}

/// One edit of `p` that passes the checker and does not give back `parent`: the program, the
/// edit, its description and the draws it took.
fn one_edit(p: &Program, parent: &Program, seed: u64, tries: u32) -> Option<(Program, Kind, String, u32)> {
    for t in 0..tries {
        let mut r = SplitMix64::new(mix64(seed, u64::from(t)));
        let kind = Kind::ALL[pick(&mut r, Kind::ALL.len())];
        let Some((program, what)) = edit(p, kind, &mut r) else { continue };
        if program == *p || program == *parent || check_program(&program).is_err() {
            continue;
        }
        return Some((program, kind, what, t + 1));
    }
    None
}

/// A uniform index below `n` (`n > 0`).
fn pick(r: &mut SplitMix64, n: usize) -> usize {
    (r.next_u64() % n as u64) as usize
}

/// A fair coin.
fn coin(r: &mut SplitMix64) -> bool {
    r.next_u64().is_multiple_of(2)
}

/// The statement as a case file prints it, on one line.
fn line(s: &Stmt) -> String {
    stmt_line(s).trim().to_string()
}

/// Applies one edit of `kind` at a drawn statement; `None` where the drawn statement has
/// nothing to edit that way.
fn edit(p: &Program, kind: Kind, r: &mut SplitMix64) -> Option<(Program, String)> {
    if p.body.is_empty() {
        return None;
    }
    // Rounding modes and immediates are in few statements: drawn among those.
    let eligible: Vec<usize> = match kind {
        Kind::Rounding => (0..p.body.len()).filter(|&k| in_group(&p.body[k], ROUNDING)).collect(),
        Kind::Immediate => (0..p.body.len()).filter(|&k| has_immediate(&p.body[k])).collect(),
        _ => (0..p.body.len()).collect(),
    };
    if eligible.is_empty() {
        return None;
    }
    let k = eligible[pick(r, eligible.len())];
    let before = line(&p.body[k]);
    let mut m = p.clone();
    let what = match kind {
        Kind::Insert => {
            let s = inserted(p, k, r)?;
            let text = line(&s);
            m.body.insert(k, s);
            return Some((m, format!("insert {k}: {text}")));
        }
        Kind::Delete => {
            if !p.body[k].is_instruction() {
                return None;
            }
            m.body.remove(k);
            drop_dangling_labels(&mut m);
            return Some((m, format!("delete {k}: {before}")));
        }
        Kind::Replace => replaced(p, k, r)?,
        Kind::Type => retyped(p, k, r)?,
        Kind::Rounding => requalify(p, k, ROUNDING, r)?,
        Kind::Immediate => immediate(&p.body[k], r)?,
        Kind::Guard => guarded(p, k, r)?,
    };
    m.body[k] = what;
    let after = line(&m.body[k]);
    Some((m, format!("{} {k}: {before} → {after}", kind.name())))
}

/// Whether `s` is an instruction with an opcode part of one of `groups`.
fn in_group(s: &Stmt, groups: &[&[&str]]) -> bool {
    matches!(s, Stmt::Isa(i) if i.form.opcode().split('.').skip(1).any(|q| groups.iter().any(|g| g.contains(&q))))
}

/// Whether `s` has an immediate operand.
fn has_immediate(s: &Stmt) -> bool {
    match s {
        Stmt::Glue { glue, .. } => glue.src.iter().any(|x| matches!(x, Some(Src::Imm(_)))),
        Stmt::Isa(i) => {
            !i.form.opcode().starts_with("createpolicy") && i.operands.iter().any(|o| matches!(o, Operand::Imm(_)))
        }
        _ => false,
    }
}

/// The registers statements before `k` write unguarded (so written at `k` on every thread
/// that reaches it, but for branches: the checker has the last word), cache policies left out
/// (no value: [`policy_registers`]).
fn written_before(p: &Program, k: usize) -> Vec<Reg> {
    let policies = policy_registers(p);
    let mut out = Vec::new();
    for s in &p.body[..k] {
        match s {
            Stmt::Glue { guard: None, glue } => out.push(glue.dst),
            Stmt::Isa(inst) if inst.guard.is_none() => {
                for (spec, o) in inst.form.operands().iter().zip(&inst.operands) {
                    if spec.role != Role::Dst {
                        continue;
                    }
                    let names: Vec<&Operand> = match o {
                        Operand::Vector(items) => items.iter().collect(),
                        o => vec![o],
                    };
                    out.extend(names.into_iter().filter_map(|o| match o {
                        Operand::Name(n) => Reg::parse(n),
                        _ => None,
                    }));
                }
            }
            _ => {}
        }
    }
    out.retain(|r| !policies.contains(r));
    out.sort();
    out.dedup();
    out
}

/// The basic glue operations an insertion draws (two sources, same class as the destination).
const INSERTED: [GlueOp; 9] = [
    GlueOp::Add,
    GlueOp::Sub,
    GlueOp::Xor,
    GlueOp::And,
    GlueOp::Or,
    GlueOp::Shl,
    GlueOp::Shr,
    GlueOp::Min,
    GlueOp::Max,
];

/// A glue instruction for position `k`: a basic operation of a register written before `k`
/// and another register or an immediate, into a register written before `k`.
fn inserted(p: &Program, k: usize, r: &mut SplitMix64) -> Option<Stmt> {
    let regs: Vec<Reg> = written_before(p, k)
        .into_iter()
        .filter(|x| matches!(x, Reg::Virt(RegClass::B32 | RegClass::B64 | RegClass::B16, _)))
        .collect();
    if regs.is_empty() {
        return None;
    }
    let dst = regs[pick(r, regs.len())];
    let same: Vec<Reg> = regs.iter().copied().filter(|x| x.class() == dst.class()).collect();
    let op = INSERTED[pick(r, INSERTED.len())];
    let types: Vec<GlueType> = GlueType::ALL
        .into_iter()
        .filter(|&t| !matches!(t, GlueType::U16x2 | GlueType::S16x2))
        .filter(|&t| Glue::dst_class(op, t) == dst.class() && Glue::available(op, t, &p.target))
        .collect();
    if types.is_empty() {
        return None;
    }
    let ty = types[pick(r, types.len())];
    let a = Src::Reg(same[pick(r, same.len())]);
    let second: Vec<Reg> = regs.iter().copied().filter(|x| x.class() == Glue::src_class(op, ty, 1)).collect();
    let b = if second.is_empty() || (coin(r) && Glue::imm_allowed(op, ty, 1)) {
        Src::Imm(edge_value(r, 0, imm_bits(op, ty, 1)))
    } else {
        Src::Reg(second[pick(r, second.len())])
    };
    let glue = Glue::new(op, ty, dst, &[a, b]);
    glue.is_valid().then_some(Stmt::Glue { guard: None, glue })
}

/// Statement `k` replaced: a glue operation by another one of the same arity and classes; an
/// instruction with one destination by a `mov` of one of its same-class sources or of an edge
/// constant.
fn replaced(p: &Program, k: usize, r: &mut SplitMix64) -> Option<Stmt> {
    let s = &p.body[k];
    if let Stmt::Glue { guard, glue } = s {
        if glue.op.reads_carry() || glue.op.writes_carry() {
            return None;
        }
        let ops: Vec<GlueOp> = GlueOp::all()
            .into_iter()
            .filter(|&op| op != glue.op && op.arity() == glue.op.arity() && !op.reads_carry() && !op.writes_carry())
            .filter(|&op| Glue::available(op, glue.ty, &p.target))
            .filter(|&op| Glue { op, ..*glue }.is_valid())
            .collect();
        if !ops.is_empty() {
            let op = ops[pick(r, ops.len())];
            return Some(Stmt::Glue { guard: *guard, glue: Glue { op, ..*glue } });
        }
    }
    let dst = single_destination(s)?;
    let policies = policy_registers(p);
    let sources: Vec<Reg> = register_sources(s)
        .into_iter()
        .filter(|x| x.class() == dst.class() && *x != dst && !policies.contains(x))
        .collect();
    if !sources.is_empty() && coin(r) {
        return Some(mov(dst, &sources[pick(r, sources.len())].to_string()));
    }
    Some(mov(dst, &format!("{:#x}", edge_value(r, 0, dst.class().bits()))))
}

/// Type qualifiers of one width: an instruction's type may become another of its group.
const TYPES: &[&[&str]] = &[
    &["u8", "s8", "b8"],
    &["u16", "s16", "b16", "f16", "bf16"],
    &["u32", "s32", "b32", "f32"],
    &["u64", "s64", "b64", "f64"],
];

/// Rounding modifiers: floating-point results, then integer results of float sources (§9.7.3,
/// §9.7.9.21).
const ROUNDING: &[&[&str]] = &[&["rn", "rz", "rm", "rp", "rna"], &["rni", "rzi", "rmi", "rpi"]];

/// Statement `k` with another type: a glue type of the same class, or an instruction's type
/// qualifier of the same width ([`TYPES`]).
fn retyped(p: &Program, k: usize, r: &mut SplitMix64) -> Option<Stmt> {
    if let Stmt::Glue { guard, glue } = &p.body[k] {
        let types: Vec<GlueType> = GlueType::ALL
            .into_iter()
            .filter(|&t| t != glue.ty && t.class() == glue.ty.class() && Glue::available(glue.op, t, &p.target))
            .filter(|&ty| Glue { ty, ..*glue }.is_valid())
            .collect();
        if types.is_empty() {
            return None;
        }
        let ty = types[pick(r, types.len())];
        return Some(Stmt::Glue { guard: *guard, glue: Glue { ty, ..*glue } });
    }
    requalify(p, k, TYPES, r)
}

/// Instruction `k` with one opcode part of a group of `groups` replaced by another member of
/// its group (the rewritten instruction must parse and be valid on the target).
fn requalify(p: &Program, k: usize, groups: &[&[&str]], r: &mut SplitMix64) -> Option<Stmt> {
    let Stmt::Isa(inst) = &p.body[k] else { return None };
    let opcode = inst.form.opcode();
    let parts: Vec<&str> = opcode.split('.').collect();
    let slots: Vec<(usize, &[&str])> = parts
        .iter()
        .enumerate()
        .skip(1)
        .filter_map(|(j, q)| groups.iter().find(|g| g.contains(q)).map(|g| (j, *g)))
        .collect();
    if slots.is_empty() {
        return None;
    }
    let (j, group) = slots[pick(r, slots.len())];
    let others: Vec<&str> = group.iter().copied().filter(|q| *q != parts[j]).collect();
    let mut new = parts.clone();
    new[j] = others[pick(r, others.len())];
    requalified(inst, &new, false, p).map(Stmt::Isa)
}

/// The width of the immediates glue source `k` takes ([`Glue::imm_max`]).
fn imm_bits(op: GlueOp, ty: GlueType, k: usize) -> u32 {
    64 - Glue::imm_max(op, ty, k).leading_zeros()
}

/// An edge value of a `bits`-wide operand (0, 1, powers of two and their neighbours, the
/// signed extremes, all ones), or `old` with one bit flipped.
fn edge_value(r: &mut SplitMix64, old: u64, bits: u32) -> u64 {
    let bits = bits.clamp(1, 64);
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let top = 1u64 << (bits - 1);
    let b = (r.next_u64() % u64::from(bits)) as u32;
    let choices = [0, 1, 2, u64::from(bits - 1), u64::from(bits), top - 1, top, mask, 1u64 << b, (1u64 << b) - 1];
    let v = match r.next_u64() % (choices.len() as u64 + 1) {
        i if (i as usize) < choices.len() => choices[i as usize],
        _ => old ^ (1u64 << b),
    };
    v & mask
}

/// Statement `s` with one of its immediates changed ([`edge_value`]; a float immediate to
/// another of its width's bit patterns).
fn immediate(s: &Stmt, r: &mut SplitMix64) -> Option<Stmt> {
    match s {
        Stmt::Glue { guard, glue } => {
            let at: Vec<usize> = (0..4).filter(|&j| matches!(glue.src[j], Some(Src::Imm(_)))).collect();
            if at.is_empty() {
                return None;
            }
            let j = at[pick(r, at.len())];
            let Some(Src::Imm(old)) = glue.src[j] else { return None };
            let mut g = *glue;
            g.src[j] = Some(Src::Imm(edge_value(r, old, imm_bits(glue.op, glue.ty, j))));
            g.is_valid().then_some(Stmt::Glue { guard: *guard, glue: g })
        }
        // `createpolicy`'s immediates are a fraction in (0, 1] and a primary size at most the
        // total size (ptxas 13 rejects others, §9.7.9.18): not edited.
        Stmt::Isa(inst) if inst.form.opcode().starts_with("createpolicy") => None,
        Stmt::Isa(inst) => {
            let at: Vec<usize> =
                (0..inst.operands.len()).filter(|&j| matches!(inst.operands[j], Operand::Imm(_))).collect();
            if at.is_empty() {
                return None;
            }
            let j = at[pick(r, at.len())];
            let mut i = inst.clone();
            i.operands[j] = Operand::Imm(match inst.operands[j] {
                Operand::Imm(Imm::Int(v)) => Imm::Int(i128::from(edge_value(r, v as u64, 32) as u32 as i32)),
                Operand::Imm(Imm::F32Bits(v)) => Imm::F32Bits(edge_value(r, u64::from(v), 32) as u32),
                Operand::Imm(Imm::F64Bits(v)) => Imm::F64Bits(edge_value(r, v, 64)),
                _ => return None,
            });
            Some(Stmt::Isa(i))
        }
        _ => None,
    }
}

/// Statement `k` with its guard dropped or negated, or, unguarded, guarded by a predicate
/// written before it.
fn guarded(p: &Program, k: usize, r: &mut SplitMix64) -> Option<Stmt> {
    let preds: Vec<u32> = written_before(p, k)
        .into_iter()
        .filter_map(|x| match x {
            Reg::Virt(RegClass::Pred, n) => Some(n),
            _ => None,
        })
        .collect();
    let drawn = |r: &mut SplitMix64| (!preds.is_empty()).then(|| (preds[pick(r, preds.len())], coin(r)));
    let mut s = p.body[k].clone();
    match &mut s {
        Stmt::Glue { guard, .. } => match guard {
            Some(g) if coin(r) => g.negated = !g.negated,
            Some(_) => *guard = None,
            None => {
                let (pred, negated) = drawn(r)?;
                *guard = Some(PredGuard { pred, negated });
            }
        },
        Stmt::Isa(inst) => match &mut inst.guard {
            Some(g) if coin(r) => g.negated = !g.negated,
            Some(_) => inst.guard = None,
            None => {
                let (pred, negated) = drawn(r)?;
                inst.guard = Some(Guard { negated, pred: Reg::Virt(RegClass::Pred, pred).to_string() });
            }
        },
        _ => return None,
    }
    Some(s)
}

#[cfg(test)]
mod tests;
