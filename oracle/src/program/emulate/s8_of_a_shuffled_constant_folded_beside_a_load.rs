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
//! Invariants: queries only; nothing here changes a value.

use super::j_shuffled_constant_folded_beside_a_load::folded_shuffle;
use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, RegClass, Stmt};

/// Whether register `r` of thread `t` holds what an unguarded `cvt.s8.{s32,u32}` (no `.sat`)
/// wrote into a 16-bit register of a 32-bit register a folded shuffle of a constant last wrote
/// ([`folded_shuffle`]).
pub(super) fn s8_of_folded_shuffle(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None }), o)) = m.producer(t, r) else {
        return false;
    };
    let Some(x) = operands.get(1).and_then(|op| m.reg_of(op).ok()) else { return false };
    c.dtype == CvtType::S8
        && matches!(c.atype, CvtType::S32 | CvtType::U32)
        && c.rnd.is_none()
        && !c.sat
        && r.class() == RegClass::B16
        && x.class() == RegClass::B32
        && folded_shuffle(m, o.stmt, x)
}
