//! The emulations of the root causes the H200 campaign of seed 3701 found
//! (corpus/findings/fuzz-h200-3701/; traces `trace/TC1.md` … `trace/TC4.md`), called from the
//! hooks of `emulate.rs` ([`glue`], [`pack`]): 3701-N-A (`cvt.pack` of `.u32` float conversions
//! fused signed), C1-N4 (`bfi.b32` by a constant length of 32 or more) and C3-2 (`shl.b64` of a
//! product by 64 or more).
//!
//! Each looks at the producers the machine records ([`Origin`](super::Origin)); a constant
//! operand is an immediate or a register a move of an immediate wrote (ptxas folds it).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction and its producers are exactly the ones its trace shows wrong; it returns `None`
//! (the spec's result stands) otherwise.

use super::convert;
use super::origin::moved_immediate;
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtPack, CvtRnd, CvtType, Form, Instruction, PackType};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{cvt_pack, Deviation, Expected};

/// A glue instruction's result under the glue deviations of seed 3701: `Some` (the emulated
/// result, the deviation recorded as fired) where C1-N4 or C3-2 applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let found = [
        (Deviation::BfiConstantLengthTakenMod32, bfi_length_mod_32 as Rule),
        (Deviation::ShlB64OfProductByConstantDropped, shl_of_product_dropped),
    ]
    .into_iter()
    .filter(|(d, _)| m.allow.emulates(*d))
    .find_map(|(d, rule)| rule(m, t, g, vals, result).map(|v| (d, v)))?;
    let (d, v) = found;
    Some(m.fire(d, result, v))
}

/// One glue rule: the emulated result where it applies.
type Rule = fn(&Machine<'_>, u32, &Glue, &[Expected], &Expected) -> Option<Expected>;

/// The register source `k` of `g`, if it is one.
fn reg(g: &Glue, k: usize) -> Option<Reg> {
    match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    }
}

/// The immediate source `k` of `g`, if it is one.
fn imm(g: &Glue, k: usize) -> Option<u64> {
    match g.src.get(k).copied().flatten() {
        Some(Src::Imm(v)) => Some(v),
        _ => None,
    }
}

/// The value of source `k` of `g` when it is a constant: an immediate, or a register a move of
/// an immediate wrote (its value `vals[k]`).
fn constant(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], k: usize) -> Option<u64> {
    imm(g, k).or_else(|| {
        let moved = reg(g, k).is_some_and(|r| moved_immediate(m, t, r));
        vals.get(k).filter(|v| moved && v.is_exact()).map(|v| v.bits as u64)
    })
}

/// C1-N4: `bfi.b32 d, a, b, pos, len` with an immediate `pos` and a constant `len` whose low
/// 8 bits (§9.7.1.20) are 32 or more inserts a field of `len mod 32` bits.
fn bfi_length_mod_32(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Bfi || g.ty != GlueType::B32 || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let pos = imm(g, 2)?;
    let len = constant(m, t, g, vals, 3)? & 0xff;
    if len < 32 {
        return None;
    }
    let v = g.eval([vals[0].bits as u64, vals[1].bits as u64, pos, len % 32], false);
    Some(Expected::exact(u128::from(v), result.width))
}

/// C3-2: `shl.b64 d, p, k` with a constant k ≥ 64 (its `.u32` bits) and p written by
/// `mul.lo.s64` or `mad.lo.s64` by immediates, or `mul.wide.u32` by an immediate, gives p
/// unshifted.
fn shl_of_product_dropped(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shl || g.ty.bits() != 64 || constant(m, t, g, vals, 1)? & 0xFFFF_FFFF < 64 {
        return None;
    }
    let by_immediate = match m.producer(t, reg(g, 0)?)? {
        (Stmt::Glue { glue: p, .. }, _) => match p.op {
            GlueOp::MulLo => p.ty == GlueType::S64 && imm(p, 1).is_some(),
            GlueOp::MadLo => p.ty == GlueType::S64 && imm(p, 1).is_some() && imm(p, 2).is_some(),
            GlueOp::MulWide => p.ty == GlueType::U32 && imm(p, 1).is_some(),
            _ => false,
        },
        _ => false,
    };
    let product = vals.first().filter(|p| by_immediate && p.is_exact())?;
    Some(Expected::exact(product.bits & 0xFFFF_FFFF_FFFF_FFFF, result.width))
}

/// The f32 source and rounding of the float conversion a `cvt.pack` operand `o` of thread `t`
/// comes from, for 3701-N-A: a register written by `cvt.{rni,rzi}{.sat}.u32.f32`, or by
/// `cvt.u32.u32` of one.
fn u32_float_cvt_source(m: &Machine<'_>, t: u32, o: &Operand) -> Option<(Cvt, Expected)> {
    let float_u32 = |c: &Cvt| {
        c.dtype == CvtType::U32 && c.atype == CvtType::F32 && matches!(c.rnd, Some(CvtRnd::Rni | CvtRnd::Rzi))
    };
    let r = m.reg_of(o).ok()?;
    match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), origin) if float_u32(c) => Some((*c, origin.a.clone()?)),
        (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), origin)
            if c.dtype == CvtType::U32 && c.atype == CvtType::U32 && c.rnd.is_none() =>
        {
            let first = match &m.p.body[origin.a_stmt?] {
                Stmt::Isa(Instruction { form: Form::Cvt(c0), .. }) if float_u32(c0) => *c0,
                _ => return None,
            };
            Some((first, origin.a_a.clone()?))
        }
        _ => None,
    }
}

/// 3701-N-A: `cvt.pack.sat.{s8,u8}.s32.b32 d, a, b, c` with both a and b written by
/// `cvt.{rni,rzi}{.sat}.u32.f32` of the same rounding (through a `cvt.u32.u32` too) packs the
/// signed conversion of each float (`F2IP.S8.F32`: the `.u32` clamp lost): the low 16 bits of
/// `d` are the pack of `cvt.<rnd>.s32.f32` of the two floats. `results` (the spec's) changed.
pub(super) fn pack(
    m: &mut Machine<'_>,
    t: u32,
    p: &CvtPack,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::PackOfU32CvtFusedSigned;
    if !m.allow.emulates(d) || !matches!(p.convert, PackType::S8 | PackType::U8) || !p.with_c {
        return results;
    }
    let [(dst, spec)] = results.as_slice() else { return results };
    let source = |k: usize| inst.operands.get(k).and_then(|o| u32_float_cvt_source(m, t, o));
    let (Some((ca, xa)), Some((cb, xb))) = (source(1), source(2)) else { return results };
    if ca.rnd != cb.rnd {
        return results;
    }
    let signed = |c: Cvt, x: &Expected| {
        let f = Form::Cvt(Cvt { dtype: CvtType::S32, sat: false, ..c });
        x.is_exact().then(|| convert(m, &f, x.bits & 0xFFFF_FFFF)).flatten().filter(Expected::is_exact)
    };
    let (Some(sa), Some(sb)) = (signed(ca, &xa), signed(cb, &xb)) else { return results };
    let low = cvt_pack::eval(p, sa.bits as u32, sb.bits as u32, 0).field(0, 16);
    let (dst, from) = (*dst, spec.clone());
    let mut to = from.clone();
    to.replace(0, low);
    vec![(dst, m.fire(d, &from, to))]
}
