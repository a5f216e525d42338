//! The emulations of the two word-level root causes the H200 campaigns of seeds 3901–3903 found
//! (corpus/findings/fuzz-h200-3902/trace/T6E.md, fuzz-h200-3903/trace/T6F.md), called from the
//! glue hook of `emulate.rs` ([`glue`]): 4483ae72 (an `add` of a `cnot.b32` result's funnel
//! shift fused into `LEA.HI` with a negated operand) and fc25f5c6 (a bitwise op of a plain half
//! `cvt` of a `cnot` result and its integer rounding folded with the `cvt` read as the number).
//!
//! Each looks at the producers the machine records ([`Origin`](super::Origin)) and, for the
//! chain behind a `cvt`, at the statements that last wrote its source (unguarded writes only).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction and its producers are of the mechanism its trace shows wrong; it returns `None`
//! (the spec's result stands) otherwise.

use super::cnot_funnel_rotate_in_lea_hi;
use super::fuzz3602::writes;
use super::fuzz3701::folded_constant;
use super::{known_at_compile_time, reg_of_glue, GlueRule};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Cvt, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under the glue deviations of seeds 3901–3903: `Some` (the
/// emulated result, the deviation recorded as fired) where 4483ae72 or fc25f5c6 applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] = &[
        (Deviation::AddOfCnotFunnelShiftNegatedInLeaHi, add_of_cnot_funnel_shift),
        (Deviation::BitwiseOfCnotHalfCvtFoldedAsNumber, bitwise_of_cnot_half_cvt),
    ];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// The value of the constant ptxas folds in source `k` of the glue statement at body index
/// `at`: an immediate, or a register an unguarded move of an immediate last wrote.
fn constant_source(m: &Machine<'_>, at: usize, g: &Glue, k: usize) -> Option<u64> {
    match g.src.get(k).copied().flatten()? {
        Src::Imm(v) => Some(v),
        Src::Reg(r) => {
            let (_, s) = m.p.body[..at].iter().enumerate().rev().find(|(_, s)| writes(s, r))?;
            match s {
                Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. }) => match operands.get(1) {
                    Some(Operand::Imm(Imm::Int(i))) => Some(*i as u64),
                    Some(Operand::Imm(Imm::F32Bits(b))) => Some(u64::from(*b)),
                    _ => None,
                },
                _ => None,
            }
        }
    }
}

/// 4483ae72 (corpus/findings/fuzz-h200-3903/, trace/T6F.md, `trace/4483ae72/`): `add.{s32,u32}
/// d, x, s` (§9.7.1.1; either operand order) with `s = shf.l.{wrap,clamp}.b32 s, c, 0, n`
/// (§9.7.8.7: c >> (32 − n), a constant high word 0 and a constant n whose effective amount is
/// 1–31) of `c = cnot.b32` (§9.7.8.5) of a value ptxas does not know is fused by ptxas 13.0.88
/// -O3 and the JIT into `LEA.HI d, -R0, x, RZ, n` with R0 = −c (cnot's `SEL R0, RZ,
/// 0xffffffff, !P0`): meant x + ((−R0) >> (32 − n)), it computes x − (R0 >> (32 − n)), so c = 1
/// gives x − (0xffffffff >> (32 − n)) (0xffffff02 for x = 1, n = 8: the GPU's 0xff02 half),
/// where the spec gives x. 13.5 is right. Scope (variants compiled with 13.0.88 -O3, session 40):
/// the stored case and `reduced`, `.clamp` (v6), n = 16 (v7) and 31, a loaded x (v3), `add.u32`
/// with the operands swapped and a `mov` copy of c between all give the negated `LEA.HI`; a
/// `shr.u32` (v1), `shf.r` of `{c:0}`, a `sub`, and a `cnot.b16` widened by `cvt.u32.u16` are
/// right (no negated operand). A rotate of c (`shf.{l,r} s, c, c, n`: seed 4502's 5b50d443,
/// [`cnot_funnel_rotate_in_lea_hi`]) is `LEA.HI d, -R0, x, R_c, n'` and gives x − ((c << n') |
/// (R0 >> (32 − n'))); a constant high word K the same with K shifted in (seed 5803's 674386b1,
/// [`cnot_funnel_rotate_in_lea_hi::constant_high_word_amount`]); a loaded one (compiled the same)
/// is out of scope: the GPU's value for it was not observed. In place of the cnot, `sub.{u32,cc.u32} c, 0, x` of a folded 0
/// (seed 5401's 3ab5bc1e: `IADD3 R9, -R2, RZ, RZ; LEA.HI R6, -R2, R9, RZ, 0x10`, R2 = x = −c;
/// [`cnot_funnel_rotate_in_lea_hi::of_sub_from_folded_zero`]).
fn add_of_cnot_funnel_shift(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if g.op != GlueOp::Add
        || !matches!(g.ty, GlueType::S32 | GlueType::U32)
        || !vals.iter().take(2).all(Expected::is_exact)
    {
        return None;
    }
    (0..2).find_map(|k| {
        let r = reg_of_glue(g, k)?;
        let (Stmt::Glue { glue: shf, guard: None }, o) = m.producer(t, r)? else { return None };
        let GlueOp::Shf { left, wrap } = shf.op else { return None };
        // ptxas folds a shift of a value it knows.
        if known_at_compile_time::known(m, t, r) {
            return None;
        }
        let n = constant_source(m, o.stmt, shf, 2)? & 0xFFFF_FFFF;
        let n = if wrap { n & 31 } else { n.min(32) };
        // `shf.l` of {0:c}, or a rotate of c whose high word c is shifted into the `LEA.HI` too
        // (seed 4502's 5b50d443: `emulate/cnot_funnel_rotate_in_lea_hi.rs`).
        // Or a constant high word K shifted in alike (seed 5803's 674386b1).
        let (n, constant_hi) = match cnot_funnel_rotate_in_lea_hi::rotate_amount(shf, n) {
            Some(n) => (u64::from(n), None),
            None => {
                let k = constant_source(m, o.stmt, shf, 1)?;
                let (n, k) = cnot_funnel_rotate_in_lea_hi::constant_high_word_amount(left, n, k)?;
                (u64::from(n), Some(k))
            }
        };
        let of_cnot = o.a_stmt.is_some_and(|c| match &m.p.body[c] {
            Stmt::Glue { glue, .. } if glue.op == GlueOp::Cnot && glue.ty == GlueType::B32 => {
                reg_of_glue(glue, 0).is_some_and(|x| !folded_constant(m, c, x, 3))
            }
            // Or `sub.u32 c, 0, x`, which ptxas holds as −x alike (seed 5401's 3ab5bc1e).
            _ => cnot_funnel_rotate_in_lea_hi::of_sub_from_folded_zero(m, t, shf, c),
        });
        let c = o.a.as_ref().filter(|c| c.is_exact())?.bits as u32;
        if !of_cnot || !(1..32).contains(&n) {
            return None;
        }
        let (r0, hi) = (c.wrapping_neg(), constant_hi.unwrap_or(c));
        let x = vals[1 - k].bits as u32;
        Some(Expected::exact(u128::from(x.wrapping_sub((hi << n) | (r0 >> (32 - n)))), result.width))
    })
}

/// Whether `c` is a plain half `cvt.{f16.f16,bf16.bf16}` (no rounding or other modifier).
fn plain_half_cvt(c: &Cvt) -> bool {
    matches!(c.dtype, CvtType::F16 | CvtType::Bf16)
        && c.atype == c.dtype
        && c.rnd.is_none()
        && !c.ftz
        && !c.sat
        && !c.relu
        && !c.satfinite
}

/// Whether the unguarded statement at body index `k` writes a `cnot`'s 0/1 (§9.7.8.5): `cnot.b16`
/// of a value that is no constant ptxas folds, a plain half `cvt` of such a value, or an integer
/// `cvt` to 16 bits of `cnot.b32`, `mov` copies between; at most `depth` steps back.
fn holds_cnot(m: &Machine<'_>, k: usize, depth: u32) -> bool {
    let source = |o: Option<&Operand>| {
        let r = o.and_then(|o| m.reg_of(o).ok());
        r.and_then(|r| m.p.body[..k].iter().enumerate().rev().find(|(_, s)| writes(s, r)).map(|(j, _)| j))
    };
    match &m.p.body[k] {
        Stmt::Glue { glue, guard: None }
            if glue.op == GlueOp::Cnot && matches!(glue.ty, GlueType::B16 | GlueType::B32) =>
        {
            reg_of_glue(glue, 0).is_some_and(|x| !folded_constant(m, k, x, 3))
        }
        _ if depth == 0 => false,
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }) => {
            let narrowing = matches!(c.dtype, CvtType::U16 | CvtType::S16)
                && matches!(c.atype, CvtType::U32 | CvtType::S32)
                && c.rnd.is_none()
                && !c.sat;
            (plain_half_cvt(c) || narrowing) && source(operands.get(1)).is_some_and(|j| holds_cnot(m, j, depth - 1))
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            source(operands.get(1)).is_some_and(|j| holds_cnot(m, j, depth - 1))
        }
        _ => false,
    }
}

/// For register `r` of thread `t` holding `y` = a plain half `cvt` of a `cnot`'s 0/1
/// ([`holds_cnot`]) or an integer rounding `cvt.{rni,rzi,rmi,rpi}` of such a `y` of the same
/// type: the body index of y's `cvt`, y's type and whether the `cnot` gave 1 (y's bits not 0).
fn cnot_half(m: &Machine<'_>, t: u32, r: Reg) -> Option<(usize, CvtType, bool)> {
    let (Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }), o) = m.producer(t, r)? else {
        return None;
    };
    let one = o.a.as_ref().filter(|a| a.is_exact())?.bits & 0xFFFF != 0;
    if plain_half_cvt(c) {
        return holds_cnot(m, o.stmt, 4).then_some((o.stmt, c.dtype, one));
    }
    let rounding = c.rnd.is_some_and(|x| x.is_integer()) && c.atype == c.dtype && !c.sat && !c.ftz;
    let y = o.a_stmt.filter(|&k| match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Cvt(y), .. }) => plain_half_cvt(y) && y.dtype == c.dtype,
        _ => false,
    })?;
    (rounding && holds_cnot(m, y, 4)).then_some((y, c.dtype, one))
}

/// fc25f5c6 (corpus/findings/fuzz-h200-3902/, trace/T6E.md, `trace/fc25f5c6/`): `xor.b16 d, r,
/// y` (§9.7.8.3) with `y = cvt.f16.f16` of `cnot.b16` of a loaded byte and `r =
/// cvt.rpi.f16.f16 r, y` is folded by ptxas 13.0.88 and 13.5 -O3 and the JIT to 0 (`STG …
/// RZ`), where the spec gives 0x3c01 for a cnot of 1 (y the f16 bits 0x0001, whose ceiling is
/// 1.0). ptxas folds the bitwise op per value of the cnot, converting its 1 as the number 1.0
/// (0x3c00), the kin of 3501-N3: `or.b16`/`and.b16` of the same pair give `SEL R7, RZ, 0x3c00,
/// !P0` (0x3c00 where the spec gives 0x3c01 and 0). Scope (variants compiled with 13.0.88 -O3,
/// session 40): `.rpi`, `.rmi` (v10), `.rni`, `.rzi`, the operands swapped, `.bf16` (0x3f80), two
/// plain `cvt`s chained and a `cnot.b32` narrowed by `cvt.u16.u32` all fold; each source is y or
/// an integer rounding of it. Right: no plain `cvt` (v3), a `selp` 1/0 (v9), `and.b16 x, 1`
/// (v11) or a loaded value (v6) in place of the cnot, and `sub.s16`/`setp.eq` consumers (v7, v8).
fn bitwise_of_cnot_half_cvt(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    _vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::And | GlueOp::Or | GlueOp::Xor) || g.ty != GlueType::B16 {
        return None;
    }
    let (y0, ty0, one) = cnot_half(m, t, reg_of_glue(g, 0)?)?;
    let (y1, ty1, _) = cnot_half(m, t, reg_of_glue(g, 1)?)?;
    if y0 != y1 || ty0 != ty1 {
        return None;
    }
    // The number 1.0 (or 0.0) and each integer rounding of it.
    let number = match (one, ty0) {
        (false, _) => 0,
        (true, CvtType::F16) => 0x3c00,
        (true, _) => 0x3f80,
    };
    Some(Expected::exact(u128::from(g.eval([number, number, 0, 0], false)), result.width))
}
