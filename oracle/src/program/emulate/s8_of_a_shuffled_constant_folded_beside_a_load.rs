//! 3602-N4 (`s8-round-trip-through-64-sign-extends-32`) where the byte comes from a 32-bit
//! constant ptxas learns by folding a shuffle: ptxas 13.0.88 -O3 (and the JIT) keep
//! `cvt.s8.{s32,u32} h, r` into a 16-bit register as the byte's 32-bit sign extension, with no
//! 16-bit mask, when r is a `shfl.sync` of a constant that ptxas folds only because the body
//! loads (J's [`folded_shuffle`], seed 4703's 4b4a61c5), so the zero-extending readers of h
//! (`cvt.{u32,s32}.u16`, `shr.{u16,b16}`, … — every reader of
//! [`s8_round_trip`](super::fuzz3602::s8_round_trip)) see the 32-bit extension, where §9.7.9.21
//! sign-extends the byte to h's 16 bits only (and §9.7.9.6 gives every lane the constant).
//!
//! Evidence (corpus/findings/fuzz-h200-5003/, 841bf645, trace/T21e.md "841bf645", variants in
//! trace/841bf645/s50/; 13.0.88 -O3, 13.5 right on every listing): `mov.b32 r0, 0xe863a9be;
//! shfl.sync.up.b32 r2, r0, 15, r0, -1; cvt.s8.s32 h0, r2; cvt.u32.u16 r3, h0; ld.global.b32 (dead);
//! mov.b32 {h3, h4}, r3; add.u16 h5, h3, h4` stores 0xbd (`HFMA2.MMA R0, -RZ, RZ, 0, 1.1265e-05`:
//! 0xffbe + 0xffff), the spec 0xbe. Wrong alike: `cvt.u32.u16` stored (`v1_word_stored`: `MOV R7,
//! 0xffffffbe`, spec 0x0000ffbe), `shr.u16 4` (`v4_shr_u16`: 0xfffb, spec 0x0ffb), `cvt.s8.u32`
//! (`v7`), a `bfly` shuffle (`v8`). Right (kept out): no load in the body (`v2_no_load`: the
//! shuffle kept, `PRMT 0x8880; PRMT 0x7710`), a moved constant (`v3`: `MOV R7, 0xffbe`), a loaded
//! word (`v9`), a 16-bit truncation `cvt.s16.s32` (`v6`, no byte extension). A non-negative byte
//! (`v5`) extends to the same value either way.
//!
//! Widened (helper x6, session 54; corpus/findings/fuzz-h200-5401/, 27046214, trace/T54S.md,
//! variants in trace/27046214/s54/; 13.0.88 -O3, 13.5 right): the byte extension may also be a
//! 16-bit one, `cvt.{u16,s16}.s8` or `cvt.s8.{s16,u16}` (no `.sat`, unguarded) of a 16-bit
//! register an unguarded narrowing of the folded shuffle last wrote — `cvt{.sat}.{s16,u16}.
//! {s32,u32}` or either half of a `mov.b32` unpack ([`narrowed_folded_shuffle`]). 27046214:
//! `cvt.s16.s32 h0, shfl(0x0c63e6cb); cvt.u16.s8 h1, h0; setp.le.u16 p1, h1, ld.u16` is
//! `ISETP.LT.U32 P0, R2, -0x35` (h1 as 0xffffffcb, §9.7.9.21's 0xffcb); wrong alike: `cvt.s16.s8`
//! (`v5`), a `cvt.u32.u16` reader (`v6`, `MOV R9, 0xffffffcb`), the narrowing `cvt.u16.s32`,
//! `cvt.u16.u32`, `cvt.s16.u32` (`v7`–`v9`), a low-half unpack (`v10`), `cvt.s8.s16`, `cvt.s8.u16`
//! (`v11`, `v12`), `cvt.sat.s16.s32`, `cvt.sat.u16.u32` (`v14`, `v15`: -0x1 for 0xffff), a
//! high-half unpack (`v16`). Right (kept out): `cvt.u16.u8` (`v13`: no sign extension), a guarded
//! byte extension (`v18`: `LOP3 0xffff`), a moved constant (`v1`), no load (`v2`).
//!
//! Widened (helper t5, session 56; corpus/findings/fuzz-h200-5602/, c3ac5e22, trace/T56E.md,
//! variants in trace/c3ac5e22/s56/; 13.0.88 -O3, 13.5 right): the word conversion may saturate,
//! `cvt.sat.s8.s32`, and its source may be a `shl.b32` by an immediate of the folded shuffle
//! ([`shifted_folded_shuffle`]). c3ac5e22: `shfl.sync.bfly.b32 r0, 0x6b9c7c7d, …; shl.b32 r1, r0,
//! 8; cvt.sat.s8.s32 h0, r1; ld.global.s8 h1; setp.lt.u16 p0, h1, h0` is `ISETP.GE.U32.AND P0, PT,
//! R0, -0x80` (h0 as 0xffffff80, §9.7.9.21's 0xff80; 13.5 `0xff80`); wrong alike: no `.sat` (`v1`,
//! `-0x6`), `.sat` of the shuffle itself (`v2`). Right (kept out): no load (`v3`), a moved constant
//! (`v4`), `cvt.sat.s16.s32` (`v5`, no byte), a loaded word (`v6`).
//!
//! Invariants: queries only; nothing here changes a value.

use super::fuzz3602::writes;
use super::j_shuffled_constant_folded_beside_a_load::folded_shuffle;
use crate::isa::operand::Operand;
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, Src};
use crate::program::{Reg, RegClass, Stmt};

/// Whether register `r` of thread `t` holds what an unguarded `cvt.s8.{s32,u32}` (no `.sat`)
/// wrote into a 16-bit register of a 32-bit register a folded shuffle of a constant last wrote
/// ([`folded_shuffle`]), or what an unguarded 16-bit byte sign extension (`cvt.{u16,s16}.s8`,
/// `cvt.s8.{s16,u16}`, no `.sat`) wrote of a 16-bit narrowing of such a shuffle
/// ([`narrowed_folded_shuffle`]; seed 5401's 27046214).
pub(super) fn s8_of_folded_shuffle(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None }), o)) = m.producer(t, r) else {
        return false;
    };
    let Some(x) = operands.get(1).and_then(|op| m.reg_of(op).ok()) else { return false };
    // `.sat` only on `cvt.sat.s8.s32` (seed 5602's c3ac5e22).
    let saturated_word = c.sat && c.dtype == CvtType::S8 && c.atype == CvtType::S32;
    if c.rnd.is_some() || (c.sat && !saturated_word) || r.class() != RegClass::B16 {
        return false;
    }
    let of_word = c.dtype == CvtType::S8 && matches!(c.atype, CvtType::S32 | CvtType::U32);
    let of_half = (c.atype == CvtType::S8 && matches!(c.dtype, CvtType::U16 | CvtType::S16))
        || (c.dtype == CvtType::S8 && matches!(c.atype, CvtType::S16 | CvtType::U16));
    match x.class() {
        RegClass::B32 => of_word && (folded_shuffle(m, o.stmt, x) || shifted_folded_shuffle(m, o.stmt, x)),
        RegClass::B16 => of_half && narrowed_folded_shuffle(m, o.stmt, x),
        _ => false,
    }
}

/// Whether 16-bit register `h`, read at body index `before`, was last written by an unguarded
/// narrowing of a 32-bit register a folded shuffle of a constant last wrote ([`folded_shuffle`]):
/// `cvt{.sat}.{s16,u16}.{s32,u32}` (no rounding) or a `mov.b32 {lo, hi}` unpack with `h` either
/// half (27046214's `v0`, `v7`–`v10`, `v14`–`v16`).
fn narrowed_folded_shuffle(m: &Machine<'_>, before: usize, h: Reg) -> bool {
    let body = &m.p.body;
    let last = body[..before.min(body.len())].iter().enumerate().rev().find(|(_, s)| writes(s, h));
    let Some((at, Stmt::Isa(Instruction { form, operands, guard: None }))) = last else { return false };
    let word = match form {
        Form::Cvt(c)
            if c.rnd.is_none()
                && matches!(c.dtype, CvtType::S16 | CvtType::U16)
                && matches!(c.atype, CvtType::S32 | CvtType::U32) =>
        {
            operands.get(1)
        }
        Form::Mov(mv) if mv.shape == MovShape::Unpack(2) && mv.ty.bits() == 32 => match operands.first() {
            Some(Operand::Vector(items)) if items.iter().any(|o| m.reg_of(o).ok() == Some(h)) => operands.get(1),
            _ => None,
        },
        _ => None,
    };
    let Some(w) = word.and_then(|op| m.reg_of(op).ok()) else { return false };
    w.class() == RegClass::B32 && folded_shuffle(m, at, w)
}

/// Whether 32-bit register `w`, read at body index `before`, was last written by an unguarded
/// `shl.b32 w, x, K` (K an immediate) of a register `x` a folded shuffle of a constant last wrote
/// ([`folded_shuffle`]): ptxas folds the shift with the shuffle (seed 5602's c3ac5e22, `v1`).
fn shifted_folded_shuffle(m: &Machine<'_>, before: usize, w: Reg) -> bool {
    let body = &m.p.body;
    let last = body[..before.min(body.len())].iter().enumerate().rev().find(|(_, s)| writes(s, w));
    let Some((at, Stmt::Glue { glue, guard: None })) = last else { return false };
    match (glue.op, glue.ty, glue.src[0], glue.src[1]) {
        (GlueOp::Shl, GlueType::B32, Some(Src::Reg(x)), Some(Src::Imm(_))) => {
            x.class() == RegClass::B32 && folded_shuffle(m, at, x)
        }
        _ => false,
    }
}
