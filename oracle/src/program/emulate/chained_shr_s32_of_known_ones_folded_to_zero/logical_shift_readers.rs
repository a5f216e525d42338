//! 1c2ac943's wrong fact read by an `and.b32` with an immediate and by a `setp` with an immediate
//! (session 57, helper h2; corpus/findings/fuzz-h200-5702/trace/T57B.md): ptxas 13.0.88 -O3 holds
//! y = `shr.s32 y, x, a` (an immediate a ≥ 1) of an x with n known leading ones, n + a ≤ 4, as the
//! logical shift `shr.u32 x, a` of an x in [ones(n), 0xffffffff]: y's top a bits known 0, the next
//! n bits known 1, y in [ones(n) >> a, 0xffffffff >> a]. §9.7.8 fills with the sign: y's top n + a
//! bits are ones, y is negative. 13.5 -O3 and -O0 right. Called from the glue hooks (see
//! [`super::super::glue_hooks`]).
//!
//! Evidence (13.0.88 -O3 listings): seed 5702's f9ec76ad (`or.b32 0xe0000000; shr.s32 1; and.b32
//! 0x80000000` stored as `STG.E.64 RZ`: 0, spec 0x80000000) and its variants (trace/f9ec76ad/s57/):
//! the `and` with a K inside y's n + a known leading ones is the constant K & (0xffffffff >> a) —
//! v09 0x40000000 for `0xc0000000`, v20 (n 2, a 2) 0 for `0xc0000000`, v21 0x30000000, v22
//! 0x10000000; right: n + a = 5 (v04, v06, v08), a K bit past the known ones (v10, v12, v18, v23:
//! `LOP3` kept with K), a loaded K (v15), no `or` (v14). Seed 5703's 5ff8f0a0 (`or.b32
//! 0xe6cbf576; shr.s32 1; setp.ge.s32 y, 3; selp y, -1`: y stored, spec −1) and its variants
//! (corpus/findings/fuzz-h200-5703/trace/5ff8f0a0/s57/, boundary.130.O3.txt): every compare with
//! an immediate K is folded as y > K where K < lo and as y < K where K > hi (lo, hi the range
//! above), kept from lo to hi; wrong: u01–u03, u05, u07, u09–u11, u16, u20, u23–u27, u34, u38,
//! u39, u41 (`lt.u32`), u44; right: n + a = 5 (u04, u06, u08), K in [lo, hi] (u13–u15, u30–u33,
//! u43, u45), a loaded K (u22), no `or` (u21), and the min/max forms `selp y, K, (setp y, K)` that
//! become a computed `VIMNMX` (u12, u35, u40).
//!
//! The immediate is the last source: the oracle's text takes no immediate first (`v13`, `u27`,
//! `u38`, 13.0.88 -O3 wrong alike, are outside its language, as is `u39`'s `selp` of two immediates).
//!
//! Session 62 (helper mg; seed 6202's 9980fb38, corpus/findings/fuzz-h200-6202/trace/T62G.md, variants
//! trace/9980fb38/s62/): an `or.b32` with an immediate K that sets every bit below y's n + a known
//! leading ones makes every bit of the result known, so ptxas folds it to the constant K | (ones(n + a)
//! & (0xffffffff >> a)), y's top a bits taken as 0 ([`or_covering_the_unknown_bits`]): `or.b32 x,
//! 0x80000000; shr.s32 y, 1; or.b32 d, y, 0x7fffffff` is 13.0.88 -O3 `MOV R4, 0x7fffffff` (spec
//! 0xffffffff). Wrong alike: v02 (K 0x3fffffff), v05 (n 2, a 2: 0x3fffffff), v10/v11 (n 3, a 1),
//! v12/v13 (n 1, a 3: 0x1fffffff), v15 (a 32-bit store), v16 (K 0x8fffffff, n 2, a 2: 0xbfffffff),
//! v17, v18 (the `or` guarded: `SEL R6, R0, 0x7fffffff, P0`), v19 (a `shl.b32` between); right: a
//! bit below the known ones unset in K (v03, v06: `LOP3` kept), n + a = 5 (v04, v14), K's top a bits
//! set (v07: −1 either way), a loaded K (v08), no `or` (v09), an `xor` (v20); 13.5 right.
//!
//! Invariants: [`and_inside_the_known_ones`] changes only an `and.b32` result, only by clearing
//! its top a bits; [`or_covering_the_unknown_bits`] only an `or.b32` result, only by clearing
//! some of its top a bits; [`compare_with_an_immediate`] only a `setp.<cmp>.{s32,u32}` predicate,
//! only where y's wrong range decides it; each gives `None` where the value would be the spec's.

use super::super::j_branch_known_values::readers;
use super::super::{imm_of, reg_of_glue};
use super::{known_leading_ones, DEPTH};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The known leading ones n of x and the amount a where register `r` of thread `t` holds y =
/// `shr.s32 y, x, a` (unguarded, an immediate 1 ≤ a < 32) and n + a ≤ 4: what ptxas ranges as the
/// logical shift.
fn shift_of_known_ones(m: &Machine<'_>, t: u32, r: Reg) -> Option<(u32, u32)> {
    let (Stmt::Glue { guard: None, glue: shr }, _) = m.producer(t, r)? else { return None };
    if shr.op != GlueOp::Shr || shr.ty != GlueType::S32 {
        return None;
    }
    let a = imm_of(shr, 1).filter(|&a| (1..32).contains(&a))? as u32;
    let n = known_leading_ones(m, t, reg_of_glue(shr, 0)?, DEPTH)?;
    (n + a <= 4).then_some((n, a))
}

/// The top `k` bits of a word (k ≤ 32).
fn ones(k: u32) -> u32 {
    !u32::MAX.checked_shr(k).unwrap_or(0)
}

/// The value ptxas 13.0.88 -O3 gives `and.b32 d, y, K` (K an immediate) of a y
/// [`shift_of_known_ones`] names where K lies inside y's n + a known leading ones and has a bit
/// among the top a: K & (0xffffffff >> a) (y's top a bits taken as 0), where §9.7.8 gives K;
/// `None` (the spec stands) elsewhere.
pub(in crate::program::emulate) fn and_inside_the_known_ones(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    _vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if g.op != GlueOp::And || g.ty != GlueType::B32 {
        return None;
    }
    let k = imm_of(g, 1)? as u32;
    let (n, a) = shift_of_known_ones(m, t, reg_of_glue(g, 0)?)?;
    let low = u32::MAX >> a;
    let in_scope = k & !ones(n + a) == 0 && k & !low != 0;
    (in_scope && result.is_exact()).then(|| Expected::exact(u128::from(k & low), result.width))
}

/// The value ptxas 13.0.88 -O3 gives `or.b32 d, y, K` (K an immediate) of a y
/// [`shift_of_known_ones`] names where K sets every bit below y's n + a known leading ones: the
/// constant K | (ones(n + a) & (0xffffffff >> a)) (every bit known, y's top a bits taken as 0), where
/// §9.7.8 gives K | ones(n + a) = 0xffffffff; `None` (the spec stands) elsewhere and where K's top a
/// bits are all set (the two agree).
pub(in crate::program::emulate) fn or_covering_the_unknown_bits(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    _vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if g.op != GlueOp::Or || g.ty != GlueType::B32 {
        return None;
    }
    let k = imm_of(g, 1)? as u32;
    let (n, a) = shift_of_known_ones(m, t, reg_of_glue(g, 0)?)?;
    let known = ones(n + a);
    let folded = k | (known & (u32::MAX >> a));
    let in_scope = k | known == u32::MAX;
    let folded = Expected::exact(u128::from(folded), result.width);
    (in_scope && result.is_exact() && folded != *result).then_some(folded)
}

/// The predicate ptxas 13.0.88 -O3 gives `setp.<cmp>.{s32,u32} p, y, K` (K an immediate) of a y
/// [`shift_of_known_ones`] names, from y's wrong range [lo, hi] = [ones(n) >> a,
/// 0xffffffff >> a]: y > K where K < lo, y < K where K > hi (as the compare's type orders them);
/// `None` (the spec stands) where K lies in [lo, hi], where a `selp` reading p picks between y and
/// K (a min or max ptxas computes) and where the fold agrees with the spec.
pub(in crate::program::emulate) fn compare_with_an_immediate(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    _vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let GlueOp::Setp(cmp) = g.op else { return None };
    let signed = match g.ty {
        GlueType::S32 => true,
        GlueType::U32 => false,
        _ => return None,
    };
    let k = imm_of(g, 1)? as u32;
    let y = reg_of_glue(g, 0)?;
    let (n, a) = shift_of_known_ones(m, t, y)?;
    let (lo, hi) = (ones(n) >> a, u32::MAX >> a);
    let key = |v: u32| if signed { i64::from(v as i32) } else { i64::from(v) };
    let ord = if key(k) < key(lo) {
        std::cmp::Ordering::Greater
    } else if key(k) > key(hi) {
        std::cmp::Ordering::Less
    } else {
        return None;
    };
    let folded = Expected::exact(u128::from(cmp.holds(ord)), result.width);
    let min_or_max = readers(m, m.stmt, g.dst).into_iter().any(|i| {
        matches!(&m.p.body[i], Stmt::Glue { glue: s, .. } if s.op == GlueOp::Selp
            && s.src[2] == Some(Src::Reg(g.dst))
            && s.src[0] == Some(Src::Reg(y))
            && imm_of(s, 1).is_some_and(|c| c as u32 == k))
    });
    (result.is_exact() && !min_or_max && folded != *result).then_some(folded)
}
