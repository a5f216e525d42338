//! Known root causes widened to their mechanism after seeds 4102 and 4103's traces (helper z4,
//! session 41): 3501-N2's chain started by a `mul.lo.u64` by 2^k (the step itself widened in
//! `mul_step_unread_shfl_predicate_folded_zero.rs`; [`multiply_chain_cut`]; corpus/findings/fuzz-h200-4102/trace/T9y1.md, 9fdf9221), 6e4d6e41's
//! 32-bit word ptxas knows is 0 by known bits ([`zero_by_known_bits32`]; T9y1.md, c9b123b1), and
//! 3501-N3's 0/1 of any producer that is 0 or 1 by construction from a predicate
//! ([`zero_one_of_a_predicate`]; T9y1.md 87db6a36, T9y2.md 6d0262f6).
//!
//! Invariants: each is a condition on the program's statements (and the chain a machine
//! records); none changes a value by itself — the callers in `origin.rs`, `emulate.rs`,
//! `fuzz3802.rs` and `cnot_number_and_range_decided_sets.rs` do, under their deviation.

use super::fuzz3701::last_writer;
use super::origin::ShlChain;
use super::{imm_of, reg_of_glue, shl_chain_through_constant_adds};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// For 3501-N2: chain `c` (the one add/sub `g` reads, through adds) with its
/// [`ShlChain::constant`] carried through `g`: `g` evaluated with the chain's operand the old
/// constant (the add of the other operand, or of a mad's product).
pub(super) fn with_added_constant(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], c: ShlChain) -> ShlChain {
    let Some((read, x)) = shl_chain_through_constant_adds::chain_and_addend(m, t, g, vals) else { return c };
    let constant = evaluated_with(g, vals, x, read.constant);
    ShlChain { constant, ..c }
}

/// `g`'s result on `vals` (exact) with source `x` replaced by `v`.
fn evaluated_with(g: &Glue, vals: &[Expected], x: usize, v: u64) -> u64 {
    let mut s = [0u64; 4];
    vals.iter().take(4).enumerate().for_each(|(k, val)| s[k] = val.bits as u64);
    s[x] = v;
    g.eval(s, false)
}

/// For 3501-N2 of a chain with a multiply step ([`ShlChain::by_multiply`]) read as source `x`
/// of add/sub `g` (source values `vals`, spec's result `spec`), past the cut: the base
/// times the factors kept up to the cut ([`ShlChain::kept_factor`]; 2^cut for powers of two,
/// c^n for n steps by c, seed 4303's 02990ceb) and the constants added between the steps
/// exact ([`ShlChain::constant`];
/// 9fdf9221, `model.py`: (x0 << 35) + chain(0), the listing keeps 5 steps of the base and adds
/// the whole constant to the high word).
pub(super) fn multiply_chain_cut(
    c: &ShlChain,
    g: &Glue,
    vals: &[Expected],
    x: usize,
    spec: &Expected,
) -> Option<Expected> {
    c.cut.filter(|&cut| cut < c.total && c.base.is_exact() && vals.iter().all(Expected::is_exact))?;
    let kept = (c.base.bits as u64).wrapping_mul(c.kept_factor).wrapping_add(c.constant);
    Some(Expected::exact(u128::from(evaluated_with(g, vals, x, kept)), spec.width))
}

/// The bits of source `i` of glue `g` (at body index `k`) as an immediate or a register an
/// unguarded `mov` of an integer immediate last wrote.
fn constant_bits(m: &Machine<'_>, k: usize, g: &Glue, i: usize) -> Option<u64> {
    imm_of(g, i).or_else(|| match last_writer(m, k, reg_of_glue(g, i)?)? {
        (_, Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. })) => match operands.get(1) {
            Some(Operand::Imm(Imm::Int(v))) => Some(*v as u64),
            _ => None,
        },
        _ => None,
    })
}

/// The bits of the 32-bit value the statement at body index `k` writes that ptxas knows are 0
/// (known bits, §9.7.8.1 and, or, §9.7.8.7 shl/shr, §9.7.9.21 zero extensions), through
/// unguarded statements at most `depth` deep: `and.b32` (a constant mask, or both sources'),
/// `shl.b32`/`shr.{b32,u32}` by a constant below 32, `cvt.{u32,s32}.{u8,u16}` and a scalar
/// `ld.u8`/`ld.u16`, and `mov` copies.
pub(super) fn known_zero_bits32(m: &Machine<'_>, k: usize, depth: u32) -> u32 {
    let of_reg = |r: Reg| match last_writer(m, k, r) {
        Some((j, _)) if depth > 0 => known_zero_bits32(m, j, depth - 1),
        _ => 0,
    };
    match &m.p.body[k] {
        Stmt::Glue { glue: g, guard: None } if g.ty.bits() == 32 => {
            let source = |i: usize| match g.src.get(i).copied().flatten() {
                Some(Src::Reg(r)) => constant_bits(m, k, g, i).map_or_else(|| of_reg(r), |c| !(c as u32)),
                Some(Src::Imm(_)) => constant_bits(m, k, g, i).map_or(0, |c| !(c as u32)),
                None => 0,
            };
            let amount = || constant_bits(m, k, g, 1).filter(|&n| n < 32).map(|n| n as u32);
            match g.op {
                GlueOp::And => source(0) | source(1),
                GlueOp::Shl => amount().map_or(0, |n| (of_source0(m, k, g, depth) << n) | ((1u32 << n) - 1)),
                GlueOp::Shr if g.ty != GlueType::S32 => {
                    amount().map_or(0, |n| (of_source0(m, k, g, depth) >> n) | !(u32::MAX.checked_shr(n).unwrap_or(0)))
                }
                _ => 0,
            }
        }
        Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })
            if matches!(c.dtype, CvtType::U32 | CvtType::S32) && !c.sat =>
        {
            match c.atype {
                CvtType::U8 => 0xFFFF_FF00,
                CvtType::U16 => 0xFFFF_0000,
                _ => 0,
            }
        }
        Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) if l.vec.is_none() => match l.ty {
            crate::isa::types::MemType::U8 => 0xFFFF_FF00,
            crate::isa::types::MemType::U16 => 0xFFFF_0000,
            _ => 0,
        },
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            operands.get(1).and_then(|o| m.reg_of(o).ok()).map_or(0, of_reg)
        }
        _ => 0,
    }
}

/// The known zero bits of source 0 of glue `g` at body index `k` (a register's, one level down).
fn of_source0(m: &Machine<'_>, k: usize, g: &Glue, depth: u32) -> u32 {
    match (reg_of_glue(g, 0), depth) {
        (Some(r), 1..) => last_writer(m, k, r).map_or(0, |(j, _)| known_zero_bits32(m, j, depth - 1)),
        _ => 0,
    }
}

/// For 6e4d6e41: whether the statement at body index `k` writes a 32-bit word ptxas knows is 0
/// by known bits ([`known_zero_bits32`]) but not as one folded constant: every bit known 0, and
/// no single constant operand of it makes it 0 alone (`and.b32 x, 3; and.b32 ·, 0xffffff80`,
/// c9b123b1 and `v6_and_and_e4m3`: `UNPACK_B R5, 0x20`, 13.0.88 and 13.5 -O3; a moved 0,
/// `v3_moved_zero`, is `RZ`, and a word not all known 0 — `and 0xffff`, `and 3`, `shr.u32 16`,
/// `and 3; shl 3` — keeps the `R0.H1` read: right).
pub(super) fn zero_by_known_bits32(m: &Machine<'_>, k: usize) -> bool {
    let Stmt::Glue { glue: g, guard: None } = &m.p.body[k] else { return false };
    let alone_zero = (0..g.op.arity()).any(|i| match (g.op, constant_bits(m, k, g, i)) {
        (GlueOp::And, Some(c)) => c as u32 == 0,
        (GlueOp::Shl | GlueOp::Shr, Some(n)) => i == 1 && n >= 32,
        _ => false,
    });
    !alone_zero && known_zero_bits32(m, k, 4) == u32::MAX
}

/// For 3501-N3: whether the statement at body index `k` writes 0 or 1 by construction from a
/// predicate (ptxas holds it as a `SEL …, RZ, 0x1` of one), at most `depth` deep: a `cnot`
/// of any width, `selp` of the constants 1 and 0 (immediates or moved; either order), `neg` of an integer `set`
/// (−1/0), a float-to-integer `cvt` of a `set.<cmp>.f32` (1.0/0.0) or of a `cnot`, or an integer `cvt` or a
/// `mov` copy of such (T9y2.md 6d0262f6: `cvt.rmi.s16.f32` of `set.ne.f32`, `v9_selp_int`,
/// `v13_set_s32_first` `set.ne.s32; neg.s32; cvt.u16.u32`, `v5_s32mid`, `v10_u32_f32`; T9y1.md
/// 87db6a36: `cnot.b64`, `v3` `cnot.b32` widened by `cvt.u64.u32`).
fn zero_one_statement(m: &Machine<'_>, k: usize, depth: u32) -> bool {
    let source = |r: Option<Reg>, pred: &dyn Fn(usize, &Stmt) -> bool| {
        r.and_then(|r| last_writer(m, k, r)).is_some_and(|(j, s)| pred(j, s))
    };
    let deeper = |j: usize, _: &Stmt| depth > 0 && zero_one_statement(m, j, depth - 1);
    let integer_set = |_: usize, s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)));
    let float_set =
        |_: usize, s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    match &m.p.body[k] {
        Stmt::Glue { glue: g, .. } => match g.op {
            GlueOp::Cnot => true,
            GlueOp::Selp => {
                let mask = if g.ty.bits() >= 64 { u64::MAX } else { (1u64 << g.ty.bits()) - 1 };
                let (a, b) = (constant_bits(m, k, g, 0).map(|v| v & mask), constant_bits(m, k, g, 1).map(|v| v & mask));
                matches!((a, b), (Some(1), Some(0)) | (Some(0), Some(1)))
            }
            GlueOp::Neg => source(reg_of_glue(g, 0), &integer_set),
            _ => false,
        },
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. }) if c.dtype.is_int() => {
            let r = operands.get(1).and_then(|o| m.reg_of(o).ok());
            if c.atype.is_scalar_float() {
                // Or of a `cnot` (seed 4501's db13d0ac, `emulate/cnot_number_through_later_cvts.rs`).
                source(r, &float_set) || super::cnot_number_through_later_cvts::float_to_integer_cvt_of_a_cnot(m, k)
            } else {
                source(r, &deeper)
            }
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }) if mv.shape == MovShape::Copy => {
            source(operands.get(1).and_then(|o| m.reg_of(o).ok()), &deeper)
        }
        _ => false,
    }
}

/// For 3501-N3: whether register `r` of thread `t` holds a 0/1 ptxas makes from a predicate
/// ([`zero_one_statement`]), the value its producer (copies looked through) wrote.
pub(super) fn zero_one_of_a_predicate(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    m.producer(t, r).is_some_and(|(_, o)| zero_one_statement(m, o.stmt, 3))
}
