//! 3602-N4 (`s8-round-trip-through-64-sign-extends-32`) widened by helper z5 (session 44) after
//! seed 4303's a3737354 (corpus/findings/fuzz-h200-4303/trace/T14x3.md, trace/a3737354/
//! variants.md): ptxas 13.0.88 -O3 keeps a byte sign extension into a 16-bit register as the
//! byte's 32-bit sign extension, with no 16-bit mask, also when the source is a 16-bit constant
//! ptxas learns only from the known bits or the value range of a loaded value
//! ([`learned_constant_s8`]). 13.5 is right on every listing, and so is a constant plain
//! constant folding gives.
//!
//! What ptxas learns is modelled as known bits ([`Bits`]) over the straight-line statements
//! before the conversion (no label or branch between): an unguarded zero-extending load's high
//! bits, moved immediates, `and`/`or`/`xor`/`not`/`shl`/`shr` by constants, integer `cvt`
//! extensions and truncations, and the predicates (`setp`) and `set`/`selp` results whose
//! compare the known bits decide as intervals (`cnot_number_and_range_decided_sets::decided`); a write guarded by
//! such a predicate is folded away or kept as the predicate says.
//!
//! Invariants: queries only; nothing here changes a value.

use super::cnot_number_and_range_decided_sets::decided;
use super::fuzz3602::{previous_flow, writes};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst, Src};
use crate::program::{PredGuard, Reg, RegClass, Stmt};

/// How many producers deep the known bits are followed.
const DEPTH: u32 = 8;

/// The bits of a value ptxas knows: `zero` and `one` are the bits known 0 and 1; `learned` says
/// the value is known only through a runtime value's known bits or range (not by folding
/// constants, nor by an identity such as `and x, 0`).
#[derive(Clone, Copy, Debug)]
struct Bits {
    zero: u64,
    one: u64,
    learned: bool,
}

impl Bits {
    const UNKNOWN: Bits = Bits { zero: 0, one: 0, learned: false };

    fn constant(v: u64) -> Bits {
        Bits { zero: !v, one: v, learned: false }
    }

    /// Whether every bit of the low `width` is known.
    fn full(self, width: u32) -> bool {
        (self.zero | self.one) & mask(width) == mask(width)
    }

    /// The value extended from its low `width` bits (sign-extended when `signed`), what is known
    /// of the sign bit deciding the high bits.
    fn extended(self, width: u32, signed: bool) -> Bits {
        let (low, high) = (mask(width), !mask(width));
        let sign = 1u64 << (width - 1);
        let (zero, one) = (self.zero & low, self.one & low);
        match (signed, zero & sign != 0, one & sign != 0) {
            (false, ..) | (true, true, _) => Bits { zero: zero | high, one, ..self },
            (true, _, true) => Bits { zero, one: one | high, ..self },
            _ => Bits { zero, one, ..self },
        }
    }

    /// The interval `[lo, hi]` of the values of the low `width` bits (unsigned, or signed with the
    /// sign bit known 0).
    fn interval(self, width: u32, signed: bool) -> Option<(i128, i128)> {
        (!signed || self.zero & (1u64 << (width - 1)) != 0)
            .then(|| (i128::from(self.one & mask(width)), i128::from(!self.zero & mask(width))))
    }
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Whether register `r` of thread `t` holds what an unguarded `cvt.s8.{u8,s8,u16,s16}` or
/// `cvt.s16.s8` (no `.sat`; §9.7.9.21 sign-extends the byte to the 16-bit register) wrote of a
/// 16-bit register whose value ptxas knows only as it learns it ([`Bits::learned`]). a3737354:
/// `setp.gt.u16 p, <ld.b8>, 0xffff; mov.b16 h1, 0xffff; @p and.b16 h1, …; cvt.s8.u8` is
/// `I2F.U32.RM R5, 0xffff` after `shr.u16 8` (spec 0xff); compiled by z5 (13.0.88 -O3, `MOV R0,
/// 0xfff8` for the spec's 0x0ff8 of 0x80): an always-true guard, `@!p`, a `selp` by the predicate,
/// an `ld.u8` or a 32-bit `setp` of one, a `mov` copy before or after the cvt, `cvt.s8.s8`,
/// `cvt.s8.s16`, a range-decided `set` through `cvt.u16.u32` and `or`, known bits alone
/// (`and.b16 <byte>, 0x100` or `shr.u16 <byte>, 8`, then `or 0x80`; `and 0xff00; xor 0x90`).
/// Right: a moved constant (x9), a predicate of constants, folding of constants (`and`, `or`,
/// `add`, `shr` of a moved value), `mul.lo 0` or `and 0` of a load (identities), a guarded write
/// after the cvt.
pub(super) fn learned_constant_s8(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None }), o)) = m.producer(t, r) else {
        return false;
    };
    let byte_extension = matches!(
        (c.dtype, c.atype),
        (CvtType::S8, CvtType::U8 | CvtType::S8 | CvtType::U16 | CvtType::S16) | (CvtType::S16, CvtType::S8)
    );
    let Some(x) = operands.get(1).and_then(|op| m.reg_of(op).ok()) else { return false };
    if !byte_extension || c.sat || x.class() != RegClass::B16 || r.class() != RegClass::B16 {
        return false;
    }
    learned_value16(m, o.stmt, x).is_some()
}

/// The 16-bit value ptxas knows 16-bit register `r` holds as body index `before` reads it, when it
/// knows it only as it learns it ([`Bits::learned`]) over the straight-line statements before
/// `before` (no label or branch between).
pub(super) fn learned_value16(m: &Machine<'_>, before: usize, r: Reg) -> Option<u16> {
    let floor = previous_flow(m, before).map_or(0, |(f, _)| f + 1);
    let b = reg_bits(m, floor, before, r, DEPTH);
    (b.full(16) && b.learned).then_some(b.one as u16)
}

/// What ptxas knows of register `r` as body index `before` reads it, from the statements at
/// `floor..before` (straight-line code).
fn reg_bits(m: &Machine<'_>, floor: usize, before: usize, r: Reg, depth: u32) -> Bits {
    let Some(j) = (floor..before).rev().find(|&j| writes(&m.p.body[j], r)) else { return Bits::UNKNOWN };
    if depth == 0 {
        return Bits::UNKNOWN;
    }
    let guard = match &m.p.body[j] {
        Stmt::Glue { guard, .. } => *guard,
        Stmt::Isa(i) => match &i.guard {
            None => None,
            Some(g) => match Reg::parse(&g.pred) {
                Some(Reg::Virt(RegClass::Pred, pred)) => Some(PredGuard { pred, negated: g.negated }),
                _ => return Bits::UNKNOWN,
            },
        },
        _ => return Bits::UNKNOWN,
    };
    let Some(g) = guard else { return stmt_bits(m, floor, j, depth - 1) };
    let Some((holds, learned)) = predicate(m, floor, j, Reg::Virt(RegClass::Pred, g.pred), depth - 1) else {
        return Bits::UNKNOWN;
    };
    let b = if holds != g.negated { stmt_bits(m, floor, j, depth - 1) } else { reg_bits(m, floor, j, r, depth - 1) };
    Bits { learned: b.learned || learned, ..b }
}

/// The outcome ptxas knows of predicate `p` as body index `before` reads it, and whether it
/// learned it ([`Bits::learned`]): an unguarded `setp` whose sources' known bits decide it.
fn predicate(m: &Machine<'_>, floor: usize, before: usize, p: Reg, depth: u32) -> Option<(bool, bool)> {
    let j = (floor..before).rev().find(|&j| writes(&m.p.body[j], p))?;
    match &m.p.body[j] {
        Stmt::Glue { glue: g, guard: None } if matches!(g.op, GlueOp::Setp(_)) => compare(m, floor, j, depth),
        _ => None,
    }
}

/// The outcome of the compare of the unguarded `setp`/`set` at body index `k`, if the known bits
/// of its sources decide it, and whether that is learned (a source not constant, or learned).
fn compare(m: &Machine<'_>, floor: usize, k: usize, depth: u32) -> Option<(bool, bool)> {
    let Stmt::Glue { glue: g, .. } = &m.p.body[k] else { return None };
    let (GlueOp::Setp(cmp) | GlueOp::Set(cmp, _)) = g.op else { return None };
    let (width, signed) = (g.ty.bits(), g.ty.signed());
    let (a, b) = (src_bits(m, floor, k, g.src[0], depth), src_bits(m, floor, k, g.src[1], depth));
    let holds = decided(cmp, a.interval(width, signed)?, b.interval(width, signed)?)?;
    Some((holds, !(a.full(width) && b.full(width)) || a.learned || b.learned))
}

/// What ptxas knows of glue source `s` as body index `k` reads it.
fn src_bits(m: &Machine<'_>, floor: usize, k: usize, s: Option<Src>, depth: u32) -> Bits {
    match s {
        Some(Src::Imm(v)) => Bits::constant(v),
        Some(Src::Reg(r)) => reg_bits(m, floor, k, r, depth),
        None => Bits::UNKNOWN,
    }
}

/// What ptxas knows of the value the single-destination statement at body index `k` writes (its
/// guard aside).
fn stmt_bits(m: &Machine<'_>, floor: usize, k: usize, depth: u32) -> Bits {
    match &m.p.body[k] {
        // Packed `.{u,s}16x2` operations work per half: not modelled.
        Stmt::Glue { glue: g, .. } if !matches!(g.ty, GlueType::U16x2 | GlueType::S16x2) => {
            let src = |i: usize| src_bits(m, floor, k, g.src[i], depth);
            let width = g.ty.bits();
            let amount = || match g.src[1] {
                Some(Src::Imm(n)) if n < u64::from(width) => Some(n as u32),
                _ => None,
            };
            match g.op {
                GlueOp::And => combined(src(0), src(1), width, |a, b| (a.zero | b.zero, a.one & b.one)),
                GlueOp::Or => combined(src(0), src(1), width, |a, b| (a.zero & b.zero, a.one | b.one)),
                GlueOp::Xor => combined(src(0), src(1), width, |a, b| {
                    ((a.zero & b.zero) | (a.one & b.one), (a.one & b.zero) | (a.zero & b.one))
                }),
                GlueOp::Not => Bits { zero: src(0).one, one: src(0).zero, ..src(0) },
                GlueOp::Shl => amount().map_or(Bits::UNKNOWN, |n| {
                    let a = src(0);
                    shifted(a, width, (a.zero << n) | mask(n), a.one << n)
                }),
                GlueOp::Shr if !g.ty.signed() => amount().map_or(Bits::UNKNOWN, |n| {
                    let (a, low) = (src(0), mask(width));
                    shifted(a, width, ((a.zero & low) >> n) | !(low >> n), (a.one & low) >> n)
                }),
                GlueOp::Selp => match g.src[2] {
                    Some(Src::Reg(p)) => predicate(m, floor, k, p, depth).map_or(Bits::UNKNOWN, |(holds, learned)| {
                        let b = src(if holds { 0 } else { 1 });
                        Bits { learned: b.learned || learned, ..b }
                    }),
                    _ => Bits::UNKNOWN,
                },
                GlueOp::Set(_, SetDst::U32 | SetDst::S32) => {
                    compare(m, floor, k, depth).map_or(Bits::UNKNOWN, |(holds, learned)| Bits {
                        learned,
                        ..Bits::constant(if holds { u64::from(u32::MAX) } else { 0 })
                    })
                }
                _ => Bits::UNKNOWN,
            }
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }) if mv.shape == MovShape::Copy => {
            match operands.get(1) {
                Some(Operand::Imm(Imm::Int(v))) => Bits::constant(*v as u64),
                Some(op) => m.reg_of(op).map_or(Bits::UNKNOWN, |x| reg_bits(m, floor, k, x, depth)),
                None => Bits::UNKNOWN,
            }
        }
        // §9.7.9.8: `.u` and `.b` loads zero-extend to the register.
        Stmt::Isa(Instruction { form: Form::Ld(l), .. }) if l.vec.is_none() => loaded(l.ty),
        Stmt::Isa(Instruction { form: Form::LdGlobalNc(l), .. }) if l.vec.is_none() => loaded(l.ty),
        // §9.7.9.21: an integer conversion extends from `.atype`, then from `.dtype`.
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. })
            if c.dtype.is_int() && c.atype.is_int() && !c.sat =>
        {
            let x = operands.get(1).and_then(|op| m.reg_of(op).ok());
            let a = x.map_or(Bits::UNKNOWN, |x| reg_bits(m, floor, k, x, depth));
            a.extended(c.atype.bits(), c.atype.is_signed_int()).extended(c.dtype.bits(), c.dtype.is_signed_int())
        }
        _ => Bits::UNKNOWN,
    }
}

/// What ptxas knows of a scalar load of `ty`: a zero-extending byte or half's high bits.
fn loaded(ty: crate::isa::types::MemType) -> Bits {
    use crate::isa::types::MemType;
    match ty {
        MemType::U8 | MemType::B8 => Bits { zero: !0xFF, ..Bits::UNKNOWN },
        MemType::U16 | MemType::B16 => Bits { zero: !0xFFFF, ..Bits::UNKNOWN },
        _ => Bits::UNKNOWN,
    }
}

/// A bitwise operation's known bits (`op` of the sources' bits), learned when the result is
/// fully known but not from its constant sources alone (`and x, 0` is an identity), or when a
/// fully known source was learned.
fn combined(a: Bits, b: Bits, width: u32, op: impl Fn(Bits, Bits) -> (u64, u64)) -> Bits {
    let (zero, one) = op(a, b);
    let full = Bits { zero, one, learned: false }.full(width);
    let alone = |x: Bits| if x.full(width) { x } else { Bits::UNKNOWN };
    let (z, o) = op(alone(a), alone(b));
    let identity = Bits { zero: z, one: o, learned: false }.full(width);
    let from_learned = (a.full(width) && a.learned) || (b.full(width) && b.learned);
    Bits { zero, one, learned: full && (!identity || from_learned) }
}

/// A shift by a constant of `a` to known bits `zero`, `one`: learned when the result is fully
/// known though `a` is not (`shr.u16 <byte>, 8`), or `a` was learned.
fn shifted(a: Bits, width: u32, zero: u64, one: u64) -> Bits {
    let full = Bits { zero, one, learned: false }.full(width);
    Bits { zero, one, learned: full && (!a.full(width) || a.learned) }
}
