//! Root cause F (corpus/known/fuzz-h200-f-negation-overflow.toml) widened after seed 4101's
//! traces (corpus/findings/fuzz-h200-4101/trace/T8x1.md, ac4a6049 and cd71a421): a narrowing
//! `cvt.sat.{u16,s16,u8,s8}.s32` of a 32-bit negation ([`clamped_negation32`]).
//!
//! Invariants: a query only; it never changes an origin or a value. The value the mechanism
//! computes (the clamp's upper bound) is [`emulate`](super)'s narrowing rule's, through the
//! oracle's own `cvt` semantics.

use super::fuzz3602::writes;
use super::{known_at_compile_time, producer_forms_of_o_f_g_m};
use crate::isa::{Form, MovShape, MovType};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// Whether register `r` of thread `t`, read by the narrowing `cvt.sat.<d>.s32` being run (body
/// index `m.stmt`), holds a 32-bit negation whose clamp ptxas rewrites onto the negated value:
/// `neg.s32 y, x; cvt.sat.u16.s32 h, y` is `IMAD.MOV R0, -R2; ISETP.GT P0, R2, RZ; ISETP.LE P1,
/// R2, -0xffff; SEL R0, R0, RZ, !P0; SEL R7, R0, 0xffff, !P1` (ptxas 13.0.88 and 13.5 -O3, JIT;
/// seed 4101's ac4a6049 and cd71a421, trace/ac4a6049/var/): `x > −lo ? lo : x ≤ −hi ? hi : −x`
/// assumes −x cannot overflow, so x = −2^31 (−x wraps to −2^31, §9.7.1.8) takes the upper bound:
/// 0xffff, 0x7fff, 0xff, 0x7f for `.u16`, `.s16`, `.u8`, `.s8`.
///
/// The negation: `neg.s32`, or `sub.s32 d, z, x` of a moved 0 `z` (`v_sub_moved_zero`; an
/// immediate 0, `v_sub_zero`, the same listing, is no glue form; `sub.u32` is right,
/// `v_sub_u32_zero`: `IADD3; I2I.U16.S32.SAT`).
/// The reader: any chain of unguarded integer `mov` copies between (`v_mov_copy`), a guard on
/// the cvt (`v_neg32_guarded_sat`) or a `bar.sync` between (`v_neg32_bar`) change nothing. Not
/// this mechanism: a negation ptxas knows (`v_moved_min`: folded, 0 stored), and a value that
/// another write on another path joins before the cvt (`v_neg32_branch`: `I2I.S16.S32.SAT` of the
/// join, right), so every write to the chain between the negation and the cvt must be a copy of
/// it. `neg.s64` read by any `cvt.sat.*.s64` is right (`v_neg64_sat_*`). The widening
/// `cvt.sat.{u32,u64}.s32` read the same negation through an unsigned clamp
/// (`ISETP.GT.U32 … −0x80000000`) that keeps −(−2^31): wrong too, for that value only (session
/// 47, `emulate/widening_sat_of_a_negation32_keeps_its_minimum.rs`).
pub(super) fn clamped_negation32(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Glue { glue, .. }, o)) = m.producer(t, r) else { return false };
    let negation = glue.ty == GlueType::S32
        && match glue.op {
            GlueOp::Neg => true,
            GlueOp::Sub => {
                matches!(glue.src[1], Some(Src::Reg(_))) && producer_forms_of_o_f_g_m::first_source_moved_zero(m, o)
            }
            _ => false,
        };
    negation && !known_at_compile_time::known(m, t, r) && only_copies_between(m, r, o.stmt, m.stmt)
}

/// Whether every statement strictly between body indices `from` and `to` that may write `r` is
/// the last such write and an unguarded integer `mov` copy of a register that itself reaches it
/// the same way from `from` (no other write, so no join of another path's value).
fn only_copies_between(m: &Machine<'_>, r: Reg, from: usize, to: usize) -> bool {
    if from >= to {
        return false;
    }
    let writers: Vec<usize> = (from + 1..to).filter(|&k| writes(&m.p.body[k], r)).collect();
    match writers.as_slice() {
        [] => true,
        [k] => match &m.p.body[*k] {
            Stmt::Isa(i) if i.guard.is_none() => match (&i.form, i.operands.get(1)) {
                (Form::Mov(mv), Some(src)) if mv.shape == MovShape::Copy && mv.ty != MovType::F32 => {
                    m.reg_of(src).is_ok_and(|s| only_copies_between(m, s, from, *k))
                }
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}
