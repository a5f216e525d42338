//! 3801-N1's guarded links (corpus/known/fuzz-h200-3801-n1-mad-hi-chain-loses-links.toml): the
//! scope [`mad_hi_links_dropped_as_repeats`](super::mad_hi_links_dropped_as_repeats) widens to
//! for `mad.hi` links under one guard that holds the same value at every link. ptxas 13.0.88 -O3
//! compiles the first as `IMAD.HI` (or `SHF`) + `SEL …, !P0` and the rest as `@!P0 IMAD.HI` links
//! carrying acc in the addend pair's high word, dropping repeated ones as in the unguarded chain
//! (13.5 emits every link).
//!
//! Evidence (seed 5403, corpus/findings/fuzz-h200-5403/trace/T54S.md, trace/a4cbab31/ and
//! trace/965cd327/ with their `s54/` variants, 13.0.88 -O3 / 13.5 -O3 links):
//! - 965cd327: `@!%p1 mad.hi.s32` in a loop of 4, p1 a `setp` of %tid.x before the loop: 2 of 4
//!   (unguarded `v1_unguarded` 3); p1 a `setp` of a loaded word (`v2_guard_loaded`) 2; four
//!   straight guarded links (`v3_guarded_straight`) 2; 13.5 4 in all.
//! - a4cbab31: `@!%p1 mad.hi.u16` in a loop of 7, p1 rewritten each trip by `setp.lt.s64` of two
//!   registers the loop keeps: 3 of 7 (`SHF` + `SEL` + 2 `@!P0 IMAD.HI.U32 …, 0x10000, …`);
//!   `@!p mad.hi.u32` (`v2_u32_guarded`) 3 of 7; 13.5 7. Unguarded `mad.hi.u16`
//!   (`v1_u16_unguarded`) is compiled as `LEA.HI` links, all 7 (right): 16-bit links are in scope
//!   only under a guard.
//!
//! Seed 6201's 7ba41d93 (corpus/findings/fuzz-h200-6201/trace/T62B.md, trace/7ba41d93/ and its
//! `s62/`): `@!%p0 mad.hi.s16` in a loop of 6, p0 a `setp` of %tid.x before the loop, acc a
//! `ld.global.v4.b16` element: 2 of 6 (`PRMT 0x9910` factors, one `IMAD`, 2 `@P0 IMAD.HI R7, R11,
//! 0x10000, R2|R4`; 13.5 6). `.s16` as `.u16`: guarded loops of 3, 4, 8 (`u5b`, `u4`, `u3`) 2, four
//! straight guarded links (`u8`) 2, `@p` (`u7`), a loaded guard (`u9`), acc loaded alone (`u10`)
//! 2 of 6; a loop of 2 (`u5`) 2 of 2; unguarded `.s16` (`u1_unguarded_s16`) `LEA.HI.SX32` links,
//! all 6 (right).
//!
//! The reach: a `mad.hi.{u32,s32}` link, or a `mad.hi.{u16,s16}` link under a guard, whose acc the
//! link before made under the same guard (`@p` or `@!p` of one predicate); the predicate not
//! written from that link to this one (in a loop: anywhere in it), or written there only by one
//! unguarded `setp` whose register sources are not (the same truth each time); acc written there
//! by nothing but the running link (no skipped writer between). Out: guarded `mul.hi` + `add`
//! links, links under different guards or a guard that may change between them (none seen).
//!
//! Invariants: a query; it reads the program and the machine's recorded origins, changes nothing.

use super::fuzz3602::{unchanged_between, writes};
use super::mad_hi_links_dropped_as_repeats::loop_of;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{PredGuard, Reg, RegClass, Stmt};

/// Whether a link `g` under `guard` is of a type 3801-N1 reaches: `.u32`/`.s32` (every form the
/// entry names when unguarded), and `mad.hi` of `.u32`/`.s32`/`.u16`/`.s16` when guarded.
pub(super) fn link_typed_in_scope(g: &Glue, guard: Option<PredGuard>) -> bool {
    match guard {
        None => matches!(g.ty, GlueType::U32 | GlueType::S32),
        Some(_) => {
            g.op == GlueOp::MadHi && matches!(g.ty, GlueType::U32 | GlueType::S32 | GlueType::U16 | GlueType::S16)
        }
    }
}

/// Whether the running link (under `guard`) and the link before it at body index `from` (under
/// `before`) are under one guard of the same truth at both, with nothing else writing `acc`
/// between them; two unguarded links always are.
pub(super) fn one_guard_held(
    m: &Machine<'_>,
    guard: Option<PredGuard>,
    before: Option<PredGuard>,
    from: usize,
    acc: Reg,
) -> bool {
    let Some(g) = guard else {
        return before.is_none();
    };
    if before != Some(g) {
        return false;
    }
    let range = if from < m.stmt {
        if !unchanged_between(m, acc, from, m.stmt) {
            return false;
        }
        from + 1..m.stmt
    } else {
        let Some((head, bra)) = loop_of(m, from) else {
            return false;
        };
        if m.p.body[head..bra].iter().enumerate().any(|(k, s)| head + k != m.stmt && writes(s, acc)) {
            return false;
        }
        head..bra
    };
    let body = &m.p.body[range];
    let p = Reg::Virt(RegClass::Pred, g.pred);
    let mut writers = body.iter().filter(|s| writes(s, p));
    match (writers.next(), writers.next()) {
        (None, _) => true,
        (Some(Stmt::Glue { guard: None, glue }), None) => {
            matches!(glue.op, GlueOp::Setp(_))
                && (0..2).all(|k| reg_of_glue(glue, k).is_none_or(|r| !body.iter().any(|s| writes(s, r))))
        }
        _ => false,
    }
}
