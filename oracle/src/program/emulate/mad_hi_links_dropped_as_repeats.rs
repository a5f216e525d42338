//! 3801-N1 (corpus/known/fuzz-h200-3801-n1-mad-hi-chain-loses-links.toml): ptxas 13.0.88 -O3 and
//! the JIT compile a chain of links `acc = acc + hi(x·y)` — `mad.hi.{u32,s32} acc, x, y, acc`
//! (§9.7.1.4; guarded, also `.u16`/`.s16`), or `add.{u32,s32} acc, acc, h` of one `mul.hi.{u32,s32} h, x, y` (§9.7.1.3) — into
//! `IMAD.HI d, x, y, R` links that carry acc in the high word of the 64-bit addend pair R+1:R
//! (R = 0). A link whose text repeats the one before it (`IMAD.HI.U32 R7, R0, R9, R6` four
//! times in 13.5's listing of fuzz-h200-3801/trace/2cbe4566/v_ld_n8, once in 13.0.88's) is
//! dropped: the pass misses that the pair's high register, the link's own destination, is a
//! source. Which links repeat follows the register pairs ptxas gives the addends, not the PTX
//! (the toml lists the counts: 8 links give 5, 3 or 2), so the result is set-valued: acc +
//! k·hi(x·y) for some k from 1 (every link after the first dropped) to the chain's length (the
//! spec). Called from [`glue`](super::glue) at each link after the first; the chain's value
//! carries the set ([`Constraint::LessSteps`]) from link to link.
//!
//! Evidence (13.0.88 -O3 listings): fuzz-h200-3801's 3a0d32f5 (a count-down loop of 8, 3 links)
//! and 2cbe4566 (a loop of 7 constants' links, 4), their straight chains and loops (trace/3a0d32f5/,
//! trace/2cbe4566/); fuzz-h200-3802's 2414f1e4 (a loop of 4, 3); fuzz-h200-4101's 6ab8329e
//! (`mul.hi.u32` + `add.s32` in a loop of 8, 5); fuzz-h200-4703's 7b1e7594 (a loop of 8
//! `mad.hi.s32` over a `cvt.pack` acc, 2: `IMAD.HI R9, R5, R4, R8; IMAD.HI R4, R5, R4, R8`) and
//! its `s48/` variants.
//!
//! Out (the spec stands): the first link (its acc made elsewhere: an `IMAD.HI` of another
//! addend), links whose x, y differ from the link before (another text), `mad.lo`, `mul.hi` +
//! `add` of another product or of a 16/64-bit type, x, y or h written between two links (another
//! `IMAD.HI` operand: `s48/v9_loop8_x_stepped`, `v10_loop8_mul_hi_of_stepped_y`; x or y moved
//! from the same value each trip of a loop counts as kept:
//! [`mad_hi_operand_rewritten_alike_each_trip`](super::mad_hi_operand_rewritten_alike_each_trip)),
//! an instruction on acc between the links (`v5_loop8_add_between`), links alternating two products
//! (`v3_loop8_alternating_y`), links under another guard than the link before or a guard that may
//! change between them, and `.u16`/`.s16` links unguarded (`LEA.HI`, `LEA.HI.SX32`: right). 13.5 and -O0 emit every
//! link: the entry's backends scope those out.
//!
//! Guarded `mad.hi` links (seed 5403's a4cbab31, `.u16`, and 965cd327, `.s32`; trace/T54S.md and
//! the `s54/` variants; seed 6201's 7ba41d93, `.s16`, trace/T62B.md): in scope under one guard of
//! the same truth at every link, `.u16`/`.s16` links only guarded — [`mad_hi_links_under_one_guard`](super::mad_hi_links_under_one_guard) decides.
//!
//! Invariants: changes only a link's result, to the spec's value with the set below it, only
//! when the deviation is emulated; an acc whose set is not this chain's gives `None`.

use super::fuzz3602::{label_at, unchanged_between, writes};
use super::mad_hi_links_of_mul_hi_and_add_cc_in_a_loop::{link_add, recomputed_alike};
use super::mad_hi_links_under_one_guard::{link_typed_in_scope, one_guard_held};
use super::mad_hi_operand_reloaded_alike_each_trip::reloaded_alike;
use super::mad_hi_operand_rewritten_alike_each_trip::rewritten_alike;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{PredGuard, Reg, Stmt};
use crate::semantics::{Allowance, Constraint, Expected, Free};

/// 3801-N1: a link of a `mad.hi` chain after its first, as the set acc + k·hi for k from 1 to
/// the links so far; `None` (the spec stands) elsewhere.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let Some(Stmt::Glue { guard, .. }) = m.p.body.get(m.stmt) else {
        return None;
    };
    // Guarded `mad.hi` links (16-bit ones only guarded) of seed 5403: `emulate/mad_hi_links_under_one_guard.rs`.
    if !link_typed_in_scope(g, *guard) {
        return None;
    }
    let width = result.width;
    let mask = (1u128 << width) - 1;
    let (acc, step) = match g.op {
        GlueOp::MadHi => (vals.get(2)?, mad_hi_step(m, t, g, vals, *guard)? & mask),
        GlueOp::Add | GlueOp::AddCc => (0..2).find_map(|k| add_step(m, t, g, vals, k))?,
        _ => return None,
    };
    let count = match acc.free.as_slice() {
        [] => 0,
        [Free { shift: 0, width: w, constraint: Constraint::LessSteps { step: s, count }, .. }]
            if *s == step && *w == width =>
        {
            *count
        }
        _ => return None,
    };
    let bits = (acc.bits + step) & mask;
    let constraint = Constraint::LessSteps { step, count: count.checked_add(1)? };
    Some(Expected { bits, width, free: vec![Free { shift: 0, width, constraint, allowance: Allowance::Undefined }] })
}

/// The producer of `r`'s value in thread `t` when it is an unguarded glue statement.
fn glue_producer<'a>(m: &'a Machine<'_>, t: u32, r: Reg) -> Option<(&'a Glue, &'a super::Origin)> {
    match m.producer(t, r)? {
        (Stmt::Glue { guard: None, glue }, o) => Some((glue, o)),
        _ => None,
    }
}

/// For `mad.hi d, x, y, c` (under `guard`) whose `c` a `mad.hi` of the same type and operands
/// made under one guard held with it, x and y not written since (the same `IMAD.HI` text on the
/// same values): hi(x·y), the step of each link.
fn mad_hi_step(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], guard: Option<PredGuard>) -> Option<u128> {
    let acc = reg_of_glue(g, 2)?;
    let (p, o) = match m.producer(t, acc)? {
        (Stmt::Glue { guard: before, glue }, o) if one_guard_held(m, guard, *before, o.stmt, acc) => (glue, o),
        _ => return None,
    };
    let (x, y) = (vals.first().filter(|v| v.is_exact())?, vals.get(1).filter(|v| v.is_exact())?);
    let same = p.op == GlueOp::MadHi && p.ty == g.ty && p.src[..2] == g.src[..2];
    // Or reloaded each trip by a load ptxas hoists (seed 5901's 6879f321): `emulate/mad_hi_operand_reloaded_alike_each_trip.rs`.
    let alike = |r| {
        o.stmt >= m.stmt
            && loop_of(m, o.stmt).is_some_and(|(h, b)| rewritten_alike(m, r, h, b) || reloaded_alike(m, r, h, b))
    };
    let kept = (0..2).all(|k| reg_of_glue(g, k).is_none_or(|r| unchanged_since(m, r, o.stmt) || alike(r)));
    (same && kept).then(|| u128::from(g.eval([x.bits as u64, y.bits as u64, 0, 0], false) & 0xFFFF_FFFF))
}

/// For `add{.cc} d, a, b` whose source `1 − k` is acc and `k` a 32-bit `mul.hi` result h, where acc
/// was made by a 32-bit `add` reading the same register h, not written since: (acc's value, h).
fn add_step<'a>(m: &Machine<'_>, t: u32, g: &Glue, vals: &'a [Expected], k: usize) -> Option<(&'a Expected, u128)> {
    let (h, acc) = (reg_of_glue(g, k)?, reg_of_glue(g, 1 - k)?);
    let (product, po) = glue_producer(m, t, h)?;
    let value = vals.get(k).filter(|v| v.is_exact())?;
    let (p, o) = glue_producer(m, t, acc)?;
    let word = |ty: GlueType| matches!(ty, GlueType::U32 | GlueType::S32);
    let reads_h = (0..2).any(|j| reg_of_glue(p, j) == Some(h));
    // `add.cc` links whose carry nothing reads, h recomputed alike in the loop (seed 5001's e60617f3): `emulate/mad_hi_links_of_mul_hi_and_add_cc_in_a_loop.rs`.
    let adds = link_add(m, g.op, o.stmt) && link_add(m, p.op, o.stmt);
    let chained = product.op == GlueOp::MulHi && word(product.ty) && adds && word(p.ty) && reads_h;
    let acc_value = vals.get(1 - k)?;
    let kept_h = unchanged_since(m, h, o.stmt) || recomputed_alike(m, h, product, po.stmt, o.stmt);
    (chained && kept_h).then_some((acc_value, value.bits & 0xFFFF_FFFF))
}

/// Whether no statement on the way from the link at body index `from` to the one running may
/// write `r`: none between them, or — the link before in a loop's earlier trip (`from` at or
/// after the running one) — none in the loop (from the label of the back edge at or after
/// `from` to that edge).
fn unchanged_since(m: &Machine<'_>, r: Reg, from: usize) -> bool {
    let to = m.stmt;
    if from < to {
        return unchanged_between(m, r, from, to);
    }
    loop_of(m, from).is_some_and(|(head, bra)| !m.p.body[head..bra].iter().any(|s| writes(s, r)))
}

/// The loop around the running statement that the link at body index `from` (at or after it)
/// sits in: (the label of the first back edge at or after `from` that jumps to or before the
/// running statement, that edge).
pub(super) fn loop_of(m: &Machine<'_>, from: usize) -> Option<(usize, usize)> {
    m.p.body.iter().enumerate().skip(from).find_map(|(k, s)| match s {
        Stmt::Bra { label, .. } => label_at(m, *label).filter(|&head| head <= m.stmt).map(|head| (head, k)),
        _ => None,
    })
}
