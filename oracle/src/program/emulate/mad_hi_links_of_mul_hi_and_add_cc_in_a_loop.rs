//! 3801-N1's `mul.hi` + `add` links (fuzz-h200-4101's 6ab8329e form) in two more shapes ptxas
//! 13.0.88 -O3 fuses into the same `IMAD.HI d, x, y, R` links (acc in the high word of the addend
//! pair), losing repeated links as the plain chain does: the add written `add.cc` whose carry-out
//! no `addc`/`subc` reads between the links (ptxas drops the dead carry; `add.cc` computes the same
//! sum, §9.7.2.1), and the `mul.hi h, x, y` inside the loop before the add, recomputing the same h
//! each trip (x and y not written in the loop, or moved alike each trip:
//! [`rewritten_alike`](super::mad_hi_operand_rewritten_alike_each_trip::rewritten_alike)).
//! Consulted by [`mad_hi_links_dropped_as_repeats`](super::mad_hi_links_dropped_as_repeats)'s
//! add form for the link, the acc's producer and h.
//!
//! Evidence: seed 5001's e60617f3 (corpus/findings/fuzz-h200-5001/trace/T21b.md: a loop of 8
//! `mul.hi.s32 r2, r5, r1; add.cc.u32 r6, r6, r2`, 5 `IMAD.HI` at 13.0.88 -O3, 8 at 13.5: the GPU
//! word 5·hi, the spec 8·hi) and its variants (trace/e60617f3/s50/): wrong — a loaded x (v1), an
//! `addc` after the loop (v3: the links as v1's), `add.u32` with the mul.hi in the loop (v5); right
//! — an `addc` in the loop reading each carry (v4: 8 `IMAD.HI …, P<n>` links, the carry kept).
//! Scope: an `add.cc` counts as a link's add when no `addc`/`subc` lies in the loop around the
//! links (the link before in an earlier trip) or, for a straight chain, anywhere after its first
//! link; h recomputed counts only in a loop, its one writer there the `mul.hi` before the link.

use super::fuzz3602::writes;
use super::mad_hi_links_dropped_as_repeats::loop_of;
use super::mad_hi_operand_rewritten_alike_each_trip::rewritten_alike;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};
use crate::program::{Reg, Stmt};

/// Whether `op` (of a link or of the acc's producer at body index `from`, the running statement
/// `m.stmt` the later link) is an add of a `mul.hi` chain: `add`, or `add.cc` whose carry no
/// `addc`/`subc` between the links reads.
pub(super) fn link_add(m: &Machine<'_>, op: GlueOp, from: usize) -> bool {
    match op {
        GlueOp::Add => true,
        GlueOp::AddCc => carry_unread(m, from),
        _ => false,
    }
}

/// Whether no `addc`/`subc` (a reader of CC.CF) lies in the loop around the links (the link at
/// `from` at or after the running one: an earlier trip's) or after the first link `from`.
fn carry_unread(m: &Machine<'_>, from: usize) -> bool {
    let span = if from < m.stmt { Some((from, m.p.body.len() - 1)) } else { loop_of(m, from) };
    span.is_some_and(|(lo, hi)| {
        !m.p.body[lo..=hi].iter().any(
            |s| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Addc { .. } | GlueOp::Subc { .. })),
        )
    })
}

/// Whether h, read by the running link and by the link before in an earlier trip (at body index
/// `from`, at or after the running one), is recomputed alike each trip: its only writer in the loop
/// is `product` (the unguarded `mul.hi` at body index `at`, before the running link), whose x and
/// y the loop does not write or moves alike.
pub(super) fn recomputed_alike(m: &Machine<'_>, h: Reg, product: &Glue, at: usize, from: usize) -> bool {
    if from < m.stmt || at >= m.stmt {
        return false;
    }
    let Some((head, bra)) = loop_of(m, from) else { return false };
    let Some(body) = m.p.body.get(head..bra) else { return false };
    let only_writer =
        (head..bra).contains(&at) && body.iter().enumerate().filter(|(_, s)| writes(s, h)).all(|(i, _)| head + i == at);
    let kept = (0..2).all(|k| {
        reg_of_glue(product, k)
            .is_none_or(|r| r != h && (!body.iter().any(|s| writes(s, r)) || rewritten_alike(m, r, head, bra)))
    });
    only_writer && kept
}
