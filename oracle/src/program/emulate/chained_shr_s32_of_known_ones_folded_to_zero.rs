//! 1c2ac943 (corpus/known/fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero.toml):
//! ptxas 13.0.88 -O3 and the JIT fold two chained arithmetic right shifts by immediates,
//! `shr.s32 y, x, a; shr.s32 d, y, b`, of an x whose top n bits ptxas knows to be ones to 0
//! (`STG … RZ`: no load, no shift) when a + b ≥ 32 and n + a ≤ 4, where §9.7.8.8 (shr: amounts
//! above the width clamp to it, `.s32` fills with the sign) gives −1: the combining fold loses the
//! sign fill once the combined amount reaches 32. 13.5 -O3 and -O0 right. Called from
//! [`glue`](super::glue) (a glue hook).
//!
//! Evidence (13.0.88 -O3 listings): seed 4203's 1c2ac943 (`or.b32 r3, x, 0xffc00000; shl.b32 r4,
//! r3, 8; shr.s32 r5, r4, 1; shr.s32 r6, r5, 63`) and its sweep over `or.b32 x, C; shr.s32 a;
//! shr.s32 b` (fuzz-h200-4203/trace/1c2ac943/sweep.130.O3.txt: 0 exactly when a + b ≥ 32 and
//! n + a ≤ 4, n the leading ones of C); seed 5001's b9401452 (corpus/findings/fuzz-h200-5001/
//! trace/T21b.md: `or.b32 0xc0000000; shr.s32 1; shr.s32 63`, both words 0, spec 0xffffffff) and its
//! variants (trace/b9401452/s50/): wrong — v1 (n 2, a 1), v2 (n 2, a 2, b 30), v4 (n 1, a 3, b 29),
//! v7 (1c2ac943's shl between: n 10 − 8 = 2); right — v3 (n 2, a 3), v5 (a + b = 31), v6 (n 4),
//! v8 (b a register: the shifts kept); 1c2ac943's v1_no_shr1 (one shift), v4_no_or (no known
//! ones), the 16- and 64-bit forms (w9, w10).
//!
//! Scope: the known leading ones n of x are those of an `or.b32` with an immediate (either order),
//! less k through a `shl.b32` by an immediate k (while some remain); both shifts unguarded `.s32`
//! by immediates (a ≥ 1). Left out: other sources of known ones (1c2ac943's w11, an `add.s32 x, 0`
//! between the shifts, wrong too) and a sign known only by range (right).
//!
//! The fold is one reader of a wrong fact ptxas 13.0.88 holds about y = `shr.s32 y, x, a` (n + a
//! ≤ 4): y non-negative. Session 56 (helper t3; seed 5601's 958b8f4e, corpus/findings/
//! fuzz-h200-5601/trace/T56C.md, variants trace/958b8f4e/s56/): `or.b32 d, y, K` with K's sign bit
//! set and its other bits known ones of y is made an add ([`or_with_the_sign_bit`]): `LEA.HI.SX32
//! R7, R0, 0x80000000, 0x1f` (y + 2^31) for `or.b32 x, 0xc0000000; shr.s32 1; or.b32 0x80000000`,
//! the sign flipped (0x60000000, spec 0xe0000000); wrong exactly when n + a ≤ 4 (w01–w08), also for
//! `or 0xc0000000` (w16, bit 30 a known one); right for `or 0x80000001` (w18: bit 0 unknown, `LOP3`
//! kept), no known ones (w19), a loaded operand (w20); 13.5 right. Seen wrong, not emulated: other
//! readers of the same fact, `shr.u32 y, 31` (w17: 0) and `setp.lt.s32 y, 0` (w12: false).
//!
//! Session 57 (helper h2; seeds 5702's f9ec76ad and 5703's 5ff8f0a0, corpus/findings/
//! fuzz-h200-5702/trace/T57B.md): the fact is y ranged as the logical shift `shr.u32 x, a` (top a
//! bits 0, the next n bits 1); more readers in [`logical_shift_readers`]: an `and.b32` with an
//! immediate inside y's known ones folded to it less its top a bits, a `setp` with an immediate
//! decided from that range, and (session 62, seed 6202's 9980fb38) an `or.b32` with an immediate
//! setting every other bit, folded to a constant whose top a bits are K's.
//!
//! Invariants: [`glue`] changes only a `shr.s32` result, only to 0, and only where the spec's is
//! −1 (x negative as its known ones say); [`or_with_the_sign_bit`] only an `or.b32` result, only
//! its sign bit, from 1 to 0.

mod logical_shift_readers;

pub(super) use logical_shift_readers::{
    and_inside_the_known_ones, compare_with_an_immediate, or_covering_the_unknown_bits,
};

use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// How far [`known_leading_ones`] follows `shl` producers back.
const DEPTH: u32 = 4;

/// The value ptxas 13.0.88 -O3 gives `shr.s32 d, y, b` of y = `shr.s32 y, x, a` (immediates)
/// where x has n known leading ones, a + b ≥ 32 and n + a ≤ 4: 0; `None` (the spec stands) elsewhere.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, _vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shr || g.ty != GlueType::S32 {
        return None;
    }
    let b = imm_of(g, 1)?;
    let (Stmt::Glue { guard: None, glue: first }, _) = m.producer(t, reg_of_glue(g, 0)?)? else { return None };
    if first.op != GlueOp::Shr || first.ty != GlueType::S32 {
        return None;
    }
    let a = imm_of(first, 1).filter(|&a| (1..32).contains(&a))?;
    let n = known_leading_ones(m, t, reg_of_glue(first, 0)?, DEPTH)?;
    let folded = a.saturating_add(b) >= 32 && u64::from(n) + a <= 4;
    (folded && result.is_exact() && result.bits & 0xFFFF_FFFF == 0xFFFF_FFFF).then(|| Expected::exact(0, result.width))
}

/// The value ptxas 13.0.88 -O3 gives `or.b32 d, y, K` (K an immediate, either order) of y =
/// `shr.s32 y, x, a` (an immediate a ≥ 1) where x has n known leading ones, n + a ≤ 4, K's bit 31
/// is set and its other bits are among y's n + a known leading ones: y + 2^31 (the `or` made an
/// add, y taken as non-negative; §9.7.8 gives y | K = y, as y's top n + a bits are ones);
/// `None` (the spec stands) elsewhere.
pub(super) fn or_with_the_sign_bit(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if g.op != GlueOp::Or || g.ty != GlueType::B32 {
        return None;
    }
    let (at, k) = (0..2).find_map(|i| Some((1 - i, imm_of(g, i)? as u32)))?;
    let (Stmt::Glue { guard: None, glue: shr }, _) = m.producer(t, reg_of_glue(g, at)?)? else { return None };
    if shr.op != GlueOp::Shr || shr.ty != GlueType::S32 {
        return None;
    }
    let a = imm_of(shr, 1).filter(|&a| (1..32).contains(&a))? as u32;
    let n = known_leading_ones(m, t, reg_of_glue(shr, 0)?, DEPTH)?;
    let known = (n + a <= 4).then_some(n + a)?;
    let ones = !(u32::MAX >> known);
    let in_scope = k & 0x8000_0000 != 0 && k & !ones == 0;
    let y = vals.get(at).filter(|v| v.is_exact())?.bits as u32;
    (in_scope && result.is_exact()).then(|| Expected::exact(u128::from(y.wrapping_add(0x8000_0000)), result.width))
}

/// The leading ones ptxas knows register `r` of thread `t` holds (at least one): an unguarded
/// `or.b32` with an immediate (its leading ones), or a `shl.b32` by an immediate k of such a value
/// (k fewer), `depth` producers deep.
fn known_leading_ones(m: &Machine<'_>, t: u32, r: Reg, depth: u32) -> Option<u32> {
    let (Stmt::Glue { guard: None, glue: p }, _) = m.producer(t, r)? else { return None };
    let n = match (p.op, p.ty) {
        (GlueOp::Or, GlueType::B32) => (0..2).find_map(|k| imm_of(p, k)).map(|c| (c as u32).leading_ones())?,
        (GlueOp::Shl, GlueType::B32) if depth > 0 => {
            let k = imm_of(p, 1).filter(|&k| k < 32)?;
            known_leading_ones(m, t, reg_of_glue(p, 0)?, depth - 1)?.checked_sub(k as u32)?
        }
        _ => return None,
    };
    (n >= 1).then_some(n)
}
