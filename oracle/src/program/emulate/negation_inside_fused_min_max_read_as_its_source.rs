//! df7cd5e3 (corpus/known/fuzz-h200-4803-df7cd5e3-negation-inside-fused-min-min-dropped.toml):
//! ptxas 13.0.88 -O3 and the JIT fuse two `min` (or two `max`) of one type, the outer
//! reading the inner's result, into one three-input `VIMNMX3`; where an operand of the inner is a
//! negation −x of a register x, the fused instruction reads x in its place: the outer's result is
//! min(b, min(a, x)) where §9.7.1.10 / §9.7.1.11 (`min`/`max`) and §9.7.1.7 (`neg`) give
//! min(b, min(a, −x)). 13.5 -O3 (`IADD3 R, RZ, -x` kept) and -O0 right.
//!
//! Evidence (13.0.88 -O3 listings): seed 4803's df7cd5e3 (corpus/findings/fuzz-h200-4803/trace/
//! T19v2.md "df7cd5e3", trace/df7cd5e3/: `ld.global.b16 h0; neg.s16 h1, h0; 8 × min.s16 h1, h0,
//! h1` in a loop, `VIMNMX3.S16x2 R0, R2, R2, R2, PT` first: 0x77fd where the spec gives 0x8803)
//! and its variants: wrong — two mins straight (`v2`, `reduced`), a loop of two trips (`v3`), three
//! mins (`v8`: the first pair fused), `.s32` (`v4`, `v12`), `max` (`v5`, `v15`), other registers
//! (`v10` min(a, min(a, −x)), `v11` min(x, min(a, −x)), `v16` min(b, min(a, −x))), `sub.s16 y, 0,
//! x` (`v13`), the negation also stored (`v20`: the store right, the VIMNMX3 still reads x); right —
//! one min (`v1`), the negation in the outer min (`v14`), an immediate outer operand (`v21`:
//! `IADD3 R9, RZ, -R0` kept), `.u16`/`.u32` (`v7`, `v18`), `not`/`abs`/`sub b, x`/`add x, 5` for the
//! negation (`v6`, `v22`, `v19`, `v17`, `v9`). Seed 5001's 3c82b3dd (corpus/findings/fuzz-h200-5001/
//! trace/T21a.md, trace/3c82b3dd/s50/): the negation a `mul.wide.s16 r, h, -1` of a loaded s8, 6
//! trips of `min.s32 r, z, r` (`VIMNMX3 R9, R0, R3, R0, PT`, R3 = h sign-extended): wrong with 2
//! trips (`v2`), `neg.s32` of a `cvt.s32.s16` (`v3`), `max.s32` (`v5`), a loaded bound (`v7`); right
//! with one trip (`v1`), `min.u32` (`v6`), a multiplier −2 (`v4`).
//!
//! Scope: at the outer — an unguarded `min`/`max` `.s16`/`.s32` with two register operands, one
//! of which holds the result of an unguarded inner `min`/`max` of the same operation and type,
//! itself of two register operands, one of them (at the inner) the result of `neg.sNN x`,
//! `sub.sNN y, 0, x` (an immediate 0 or a moved 0) or `mul.wide.s16 y, x, -1` (read as x
//! sign-extended), x's register holding the same value at the inner and at the outer; or, for
//! `.u16`/`.u32`, the inner's b the result of an unguarded `cnot` of that width (below). A loop's
//! trips pair as the unrolled mins do: the trip that reads the trip after the negation is the
//! outer, in a loop ptxas unrolls whole (a counter moved from an immediate, stepped by an
//! immediate, tested against one); a loaded trip count keeps −x (`s51/v3`, right).
//! Left out: an immediate operand in either min (`v21`, `s51/v2`: right), `.s64`, min of max
//! (`s51/v4`: right), x rewritten between (`s51/v5`: right), the inner's result also stored
//! (`s51/v6`: right, the mins kept apart).
//!
//! A `cnot` is such a negation (seed 6202's 1623a931, corpus/findings/fuzz-h200-6201/trace/T62B.md,
//! trace/1623a931/s62/): ptxas computes `cnot.b16 y, a` as the mask `SEL R0, RZ, 0xffffffff, !P0`
//! negated (`IMAD.MOV R0, RZ, RZ, -R0; PRMT R0, R0, 0x7710, RZ`, -O0 and 13.5), and 13.0.88 -O3
//! fuses a loop of four `min.u16 h0, h1, h0` over it into `VIMNMX3.U16x2 R3, R6, R0, R6, PT` that
//! reads the mask: min(h1, min(h1, 0xffff)) where the spec has min(h1, min(h1, 1)). Wrong alike:
//! two trips (`w2`), two straight mins (`w8`, `w14` another outer register, `w20` the inner read
//! as the outer's a), `max.u16` (`w5`), the half stored (`w3`), `cnot.b32` under `min.u32`/`max.u32`
//! (`w9`, `w21`), the cnot also stored (`w10`: that store right). Right: one trip (`w1`), the cnot
//! the inner's a (`w7`, `w15`: `VIMNMX3.U16x2 R3, R0, R6, R6`, the negation kept), `.s16`/`.s32`
//! (`w4`, `w12`, `w18`), an immediate in the inner (`w23`), a min then a max (`w22`), a loaded trip
//! count (`w11`), `neg.s16` under `min.u16` (`w17`, as `v7`). So the `cnot` form is the inner's b
//! under an unsigned `min`/`max` of the cnot's width, and read as the mask (its value negated); the
//! mask is ptxas's own register, written once, so nothing of the program need hold to the outer.
//!
//! Invariants: changes only the outer's result, only when the deviation is emulated; the inner
//! and the negation keep the spec's values (`v20`).

use super::fuzz3602::guard_setp;
use super::mad_hi_links_dropped_as_repeats::loop_of;
use super::origin::{read_later, reads_and_overwrites};
use super::unsigned_loop_exit_counted_signed::{start_before, step_per_trip};
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

use super::producer_forms_of_o_f_g_m::first_source_moved_zero;

const D: Deviation = Deviation::NegationInsideFusedMinMaxReadAsItsSource;

/// What an inner `min`/`max` recorded (in its [`Origin`](super::Origin)): its operand `k` was a
/// negation of a register that then held a value it must still hold at the outer (`held`); the
/// fused `VIMNMX3` reads `read_as`.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::program) struct NegatedOperand {
    /// The inner's operand that held the negation.
    k: usize,
    /// The negated register x and its value at the inner; `None` for a `cnot`'s mask (ptxas's
    /// `SEL` register, written once).
    held: Option<(Reg, Expected)>,
    /// The value the fused instruction reads in place of −x (x, sign-extended for a `mul.wide`;
    /// the mask, −y, for a `cnot` y).
    read_as: u64,
}

/// Whether `g` is a `min`/`max` of the types ptxas fuses this way (signed for a negation, unsigned
/// for a `cnot`: [`negated_operand`]), unguarded, at the running statement.
fn fusable(m: &Machine<'_>, g: &Glue) -> bool {
    matches!(g.op, GlueOp::Min | GlueOp::Max)
        && matches!(g.ty, GlueType::S16 | GlueType::S32 | GlueType::U16 | GlueType::U32)
        && matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. }))
        && reg_of_glue(g, 0).is_some()
        && reg_of_glue(g, 1).is_some()
}

/// At an inner `min`/`max` `g` (thread `t`): the operand that is a negation ptxas folds into
/// the fused instruction, recorded for the outer's [`glue`]; `None` elsewhere.
pub(in crate::program) fn negated_operand(m: &Machine<'_>, t: u32, g: &Glue) -> Option<NegatedOperand> {
    if !m.allow.emulates(D) || !fusable(m, g) {
        return None;
    }
    let signed = g.ty.signed();
    (0..2).find_map(|k| {
        let (Stmt::Glue { guard: None, glue: p }, o) = m.producer(t, reg_of_glue(g, k)?)? else { return None };
        let (x, x_val, read_as) = match (p.op, p.ty) {
            (GlueOp::Neg, ty) if signed && ty == g.ty => {
                let v = o.a.clone()?;
                (reg_of_glue(p, 0)?, v.clone(), v.bits as u64)
            }
            (GlueOp::Sub, ty) if signed && ty == g.ty => {
                let zero = imm_of(p, 0).map_or_else(|| first_source_moved_zero(m, o), |z| z == 0);
                let v = o.b.clone().filter(|_| zero)?;
                (reg_of_glue(p, 1)?, v.clone(), v.bits as u64)
            }
            (GlueOp::MulWide, GlueType::S16)
                if g.ty == GlueType::S32 && imm_of(p, 1).map(|c| c & 0xFFFF) == Some(0xFFFF) =>
            {
                let v = o.a.clone()?;
                let wide = i64::from(v.bits as u16 as i16) as u64 & 0xFFFF_FFFF;
                (reg_of_glue(p, 0)?, v, wide)
            }
            // 1623a931: a `cnot` y as the inner's b, read as its mask −y.
            (GlueOp::Cnot, ty) if !signed && k == 1 && ty.bits() == g.ty.bits() => {
                let y = m.read(t, reg_of_glue(g, k)?).ok().filter(Expected::is_exact)?;
                let mask = (y.bits as u64).wrapping_neg() & ((1u64 << ty.bits()) - 1);
                return Some(NegatedOperand { k, held: None, read_as: mask });
            }
            _ => return None,
        };
        let x_now = m.read(t, x).ok().filter(|now| now.is_exact() && *now == x_val)?;
        Some(NegatedOperand { k, held: Some((x, x_now)), read_as })
    })
}

/// df7cd5e3: the outer `min`/`max` `g` (thread `t`, source values `vals`) of an inner one that
/// recorded a [`NegatedOperand`]: op(b, op(a, x)) for op(b, op(a, −x)); `None` (the spec stands)
/// elsewhere.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if !fusable(m, g) || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    (0..2).find_map(|k| {
        let (Stmt::Glue { guard: None, glue: inner }, o) = m.producer(t, reg_of_glue(g, k)?)? else { return None };
        let n = o.negated_operand.as_ref().filter(|_| inner.op == g.op && inner.ty == g.ty)?;
        if (o.stmt == m.stmt && !unrolled_counted_loop(m)) || !read_by_the_outer_alone(m, o.stmt, g, reg_of_glue(g, k)?)
        {
            return None;
        }
        if n.held.as_ref().is_some_and(|(x, then)| m.read(t, *x).ok().as_ref() != Some(then)) {
            return None;
        }
        let other_inner = if n.k == 0 { o.b.as_ref()? } else { o.a.as_ref()? };
        if !other_inner.is_exact() {
            return None;
        }
        let fused_inner = inner.eval([other_inner.bits as u64, n.read_as, 0, 0], false);
        let v = g.eval([vals[1 - k].bits as u64, fused_inner, 0, 0], false);
        Some(Expected::exact(u128::from(v), result.width))
    })
}

/// Whether the loop around the running statement (a `min`/`max` that reads its own last trip's
/// result) is one ptxas unrolls whole: its back edge guarded by a `setp` of a counter against an
/// immediate, the counter moved from an immediate before the loop and stepped by an immediate in
/// it (the stored cases' loops; `s51/v3`: a loaded trip count keeps −x, right).
fn unrolled_counted_loop(m: &Machine<'_>) -> bool {
    unrolled_loop_counter(m).is_some()
}

/// The counter of the loop around the running statement where ptxas unrolls it whole (as
/// [`unrolled_counted_loop`] decides): the register the back edge's `setp` compares with an
/// immediate. Every trip's value of it is a constant to ptxas (3701-C3-3's 1 in seed 5603's
/// c5084be2, `emulate/fuzz3701/compare_with_one_an_unrolled_counter.rs`).
pub(super) fn unrolled_loop_counter(m: &Machine<'_>) -> Option<Reg> {
    let (head, bra) = loop_of(m, m.stmt)?;
    let Some(Stmt::Bra { guard: Some(guard), .. }) = m.p.body.get(bra) else { return None };
    let (_, setp) = guard_setp(m, *guard, bra)?;
    let i = reg_of_glue(setp, 0).filter(|_| imm_of(setp, 1).is_some())?;
    (step_per_trip(&m.p.body[head..bra], i).is_some() && start_before(&m.p.body[..head], i).is_some()).then_some(i)
}

/// Whether the inner's result `d` (written at body index `inner`) is read by the outer `g` (the
/// running statement) alone: no statement between reads it (in a loop, none of the loop's
/// others), nor one after the outer where the outer does not overwrite it (`s51/v6`: the inner
/// also stored keeps the two mins apart, right).
fn read_by_the_outer_alone(m: &Machine<'_>, inner: usize, g: &Glue, d: Reg) -> bool {
    let between: Vec<&Stmt> = if inner < m.stmt {
        m.p.body[inner + 1..m.stmt].iter().collect()
    } else {
        let Some((head, bra)) = loop_of(m, m.stmt) else { return false };
        m.p.body[head..=bra].iter().enumerate().filter(|&(k, _)| head + k != m.stmt).map(|(_, s)| s).collect()
    };
    !between.iter().any(|s| reads_and_overwrites(s, d).0) && (g.dst == d || !read_later(m, m.stmt, d))
}
