//! Root cause F (corpus/known/fuzz-h200-f-negation-overflow.toml) widened after seed 6202's
//! 61e60b91 (session 62, helper mf; corpus/findings/fuzz-h200-6202/trace/T62F.md, variants in
//! trace/61e60b91/s62/): `abs.s16` of a −2^15 ptxas learns from the known bits of a loaded value
//! ([`super::super::s8_round_trip_of_a_learned_constant::learned_value16`]) is folded to the 16-bit
//! wrapped −2^15 held as its 32-bit sign extension 0xffff8000, and the zero extension its 16-bit
//! unsigned readers need is dropped, as for the non-negative value ptxas takes every abs to be.
//!
//! Evidence (ptxas 13.0.88 and 13.5 -O3 fold the whole chain to constants; -O0 right): `ld.u8 h0;
//! and.b16 h1, h0, 0x8000; or.b16 h2, h1, 0x8000; abs.s16 h0, h2; mul.wide.u16 r1, h2, h0` is
//! `MOV R5, 0xc0000000` (0x8000 × 0xffff8000; §9.7.1.3 multiplies the 16-bit values, 0x40000000).
//! Wrong alike: `mad.wide.u16` (v12), `mul.wide.u16` by 3 (v03, 0xfffe8000) or by a loaded half
//! (z7, `IMAD R6, R2, -0x8000`), `mul.hi.u16` (v06, 0xc000), `mad.hi.u16` (z1, 0xc001),
//! `cvt.{u32,s32}.u16` (v09, v15: 0xffff8000), `shr.{u16,b16}` by 4 (v16, z2: 0xf800),
//! `setp.gt.u16` (v17), `setp.eq.b16` (z3), `setp.lt.u16` of a loaded half (z4, `ISETP.GE.U32 …,
//! -0x8000`), `set.gt.u32.u16` (z6), a `shr.u16 h, <byte>, 8` as the learned 0 (v18), a `mov` copy
//! (v26). Right: a moved 0x8000 (v01, v14), `and 0` of a load (an identity: v19, v30), a guarded
//! write deciding the value (v20: ptxas keeps the `SEL`), `neg.s16` (v04, v23), another learned
//! value (v13, v25, y7), `cvt.{u64,s64}.u16` (v21, z5), `cvt.rn.f32.u16` (v22), `add`/`mul.lo`/
//! `not`/a pack of it (v24, v28, y9, v27), `mul.wide.s16`, `mad.wide.s16`, `mul.hi.s16` (v05, z9,
//! z10) and `cvt.s32.s16` (v29: the spec's sign extension).
//!
//! Invariants: queries only; a rule gives a result only for an exact reader of such an abs.

use super::super::s8_round_trip_of_a_learned_constant::learned_value16;
use super::super::{convert, imm_of, reg_of_glue};
use crate::isa::{Cvt, CvtType, Form};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The 32 bits ptxas holds for such an abs: −2^15 sign-extended.
const HELD: u32 = 0xffff_8000;

/// Whether register `r` of thread `t` holds an unguarded `abs.s16` (mov copies looked through) of
/// a −2^15 ptxas learns from known bits alone: no guarded statement between the last label or
/// branch and the abs (v20's guarded write is kept as a `SEL`).
fn held_sign_extended(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Glue { glue, guard: None }, o)) = m.producer(t, r) else { return false };
    let Some(Src::Reg(x)) = glue.src[0] else { return false };
    let floor = super::super::fuzz3602::previous_flow(m, o.stmt).map_or(0, |(f, _)| f + 1);
    let guarded = m.p.body[floor..o.stmt].iter().any(|s| match s {
        Stmt::Glue { guard, .. } => guard.is_some(),
        Stmt::Isa(i) => i.guard.is_some(),
        _ => false,
    });
    glue.op == GlueOp::Abs && glue.ty == GlueType::S16 && !guarded && learned_value16(m, o.stmt, x) == Some(0x8000)
}

/// F's 16-bit unsigned readers of such an abs at 32 bits: `mul.wide`/`mad.wide`/`mul.hi`/`mad.hi`
/// `.u16` (the `IMAD` product of 0xffff8000 and the other factor's 16 bits), `shr.{u16,b16}` by an
/// immediate below 16, and `setp`/`set` `.u16` (an `ISETP.U32` of 0xffff8000; the oracle's
/// programs have no `.b16` compare, z3); the `.s16` multiplies keep the spec's value.
pub(in crate::program::emulate) fn glue(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let held = |k: usize| reg_of_glue(g, k).is_some_and(|r| held_sign_extended(m, t, r));
    if !(held(0) || held(1)) || !vals.iter().take(g.op.arity()).all(Expected::is_exact) {
        return None;
    }
    let wide = |k: usize| if held(k) { HELD } else { vals[k].bits as u32 & 0xFFFF };
    let third = || vals.get(2).map_or(0, |c| c.bits as u32);
    let bits = match (g.op, g.ty) {
        (GlueOp::MulWide | GlueOp::MadWide | GlueOp::MulHi | GlueOp::MadHi, GlueType::U16) => {
            let product = wide(0).wrapping_mul(wide(1));
            match g.op {
                GlueOp::MulWide => u64::from(product),
                GlueOp::MadWide => u64::from(product.wrapping_add(third())),
                GlueOp::MulHi => u64::from(product >> 16),
                _ => u64::from((product >> 16).wrapping_add(third()) & 0xFFFF),
            }
        }
        // The held value is the `.s16` sign extension the spec reads: right (v05, z9, z10), and
        // not the +2^15 of [`super::glue`]'s run-time abs (434a41d1), which this rule keeps off.
        (GlueOp::MulWide | GlueOp::MadWide | GlueOp::MulHi | GlueOp::MadHi, GlueType::S16) => {
            return Some(result.clone())
        }
        (GlueOp::Shr, GlueType::U16 | GlueType::B16) if held(0) => {
            let n = imm_of(g, 1).filter(|&n| n < 16)?;
            u64::from((HELD >> n) & 0xFFFF)
        }
        (GlueOp::Setp(_) | GlueOp::Set(..), GlueType::U16) => {
            let at_32 = Glue { ty: GlueType::U32, ..*g };
            at_32.eval([u64::from(wide(0)), u64::from(wide(1)), u64::from(third()), 0], false)
        }
        _ => return None,
    };
    Some(Expected::exact(u128::from(bits), result.width))
}

/// F's `cvt.{u32,s32}.u16` `c` of such an abs in register `r`: the held 0xffff8000, as the `.s16`
/// conversion gives it (`cvt.{u64,s64}.u16` and float destinations are right).
///
/// Its `cvt.<rnd>.f32.u16` converts the spec's +32768.0 (v22, 13.0.88 and 13.5 `MOV R5,
/// 0x47000000`) and its widening `cvt.{s32,u32,s64}.s16` (no `.sat`) the spec's sign extension
/// (v29, z11, z12: 0xffff8000, 0xffffffffffff8000): given here, they keep off F's rules of a
/// run-time abs (9b4a3a32's signed `I2F`, 5fe30520's unwrapped +2^15).
pub(in crate::program::emulate) fn cvt(m: &Machine<'_>, t: u32, c: Cvt, r: Reg) -> Option<Expected> {
    let atype = match (c.atype, c.dtype) {
        (CvtType::U16, CvtType::U32 | CvtType::S32) => CvtType::S16,
        (CvtType::U16, CvtType::F32) => CvtType::U16,
        (CvtType::S16, CvtType::U32 | CvtType::S32 | CvtType::S64) if !c.sat => CvtType::S16,
        _ => return None,
    };
    if !held_sign_extended(m, t, r) {
        return None;
    }
    convert(m, &Form::Cvt(Cvt { atype, ..c }), 0x8000)
}
