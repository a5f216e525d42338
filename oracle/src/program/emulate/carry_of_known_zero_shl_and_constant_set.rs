//! c6d3ed97 (corpus/known/fuzz-h200-5001-c6d3ed97-carry-of-lea-of-known-zero-folded-set.toml):
//! ptxas 13.0.88 -O3 and the JIT fuse `sub.cc.{s32,u32} d, z, K` (or `add.cc`, z either side) of
//! z = `shl.b32 z, y, n` into the carry producer `LEA RZ, P0, y, K', n`, and where z is 0 by
//! known bits (every bit of y that survives the shift known 0) delete it and give the carry's
//! consumer the carry-in PT (`IADD3.X R4, P0, R7, -0x1, RZ, PT, !PT`): a carry, i.e. no borrow,
//! where §9.7.2.3 (sub.cc: 0 − K borrows for K ≠ 0) and §9.7.2.1 (add.cc: 0 + K does not carry)
//! give the opposite, so the `subc`/`addc` reading it is one too high. 13.5 -O3 (`LEA RZ, P0, RZ,
//! 0xa4fc346, 0x10`) and -O0 right. Called from [`carry`](super::carry) (the carry hook).
//!
//! Evidence (13.0.88 / 13.5 -O3 listings): seed 5001's c6d3ed97 (corpus/findings/fuzz-h200-5001/
//! trace/T21b.md "c6d3ed97": a loop of 3 trips, trip 1's `sub.cc` of `shl.b32 (shr.s32 (x >> 31),
//! 16), 16` through a `mov`, the stored half 0xcdc3 for 0xcdc4) and its variants. Wrong
//! (`IADD3.X …, PT`): trace/c6d3ed97/s50/ v3 (the straight form), v4 (`add.cc`/`addc`), v7 (K =
//! 5), v9 (`shl 4`), v10 (y = `ld.u8 >> 8`); s51/ v1 (y two and-masks' 0), v2 (y = `and x,
//! 0xffff0000` shifted by 16: y not 0, z is), v3 (K a moved immediate), v4 (`add.cc K, z`), v5
//! (`sub.cc.u32`), v6 (y = `shr.u32 (x >> 31), 16`). Right: s50/ v1/v11 (no shl: `LEA.HI.SX32`
//! computes the carry), v2 (a moved 0), v5 (z not known 0: `LEA RZ, P0, R0, …`), v6 (and-masks'
//! 0, no shl), v8 (K a loaded register); s51/ v7 (the shl of a moved 0: folded whole). s51/v8
//! (`sub.cc K, z`: `LEA RZ, P0, -R0, K, 0x10` borrows) is wrong in 13.5 too — another slip (the
//! carry of a fused negation of 0), not this one's scope.
//!
//! Scope: an unguarded `sub.cc.{s32,u32}` whose minuend (`add.cc`: either source) is, through
//! copies, an unguarded `shl.b32` by an immediate below 32 whose result is 0 by known bits
//! ([`known_zero`]: [`known_zero_bits32`], and `shr.s32` of a value whose sign bit is known 0)
//! and whose source is no constant ptxas folds ([`folded_constant`]), the other source a
//! constant (an immediate or a folded one) other than 0.
//!
//! Invariants: [`carry`] changes only such a carry flag, only to PT's (sub.cc: no borrow; add.cc:
//! a carry), and only where the shifted value is 0 in the run as well.

use super::fuzz3701::folded_constant;
use super::fuzz3701::last_writer;
use super::mul_chain_zero_word_and_predicate_zero_one::known_zero_bits32;
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::Stmt;
use crate::semantics::{Deviation, Expected};

/// How deep the known bits follow producers.
const DEPTH: u32 = 4;

/// The carry flag ptxas 13.0.88 -O3 gives `sub.cc`/`add.cc` of a known-zero `shl.b32` and a
/// nonzero constant (the carry-in PT: 0 for `sub.cc`, 1 for `add.cc`), recorded as fired;
/// `None` (the spec's `carry` stands) elsewhere.
pub(super) fn carry(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], carry: &Expected) -> Option<Expected> {
    let d = Deviation::CarryOfKnownZeroShlAndConstantSet;
    if !m.allow.emulates(d) || !matches!(g.ty, GlueType::U32 | GlueType::S32) || !carry.is_exact() {
        return None;
    }
    let shl_sides: &[usize] = match g.op {
        GlueOp::SubCc => &[0],
        GlueOp::AddCc => &[0, 1],
        _ => return None,
    };
    if !matches!(m.p.body.get(m.stmt)?, Stmt::Glue { guard: None, .. }) {
        return None;
    }
    let applies = shl_sides.iter().any(|&i| known_zero_shl(m, t, g, vals, i) && nonzero_constant(m, g, vals, 1 - i));
    if !applies {
        return None;
    }
    let set = Expected::exact(u128::from(g.op == GlueOp::AddCc), carry.width);
    Some(m.fire(d, carry, set))
}

/// Whether source `i` of `g` (value 0 in the run) is, through copies, an unguarded `shl.b32` by
/// an immediate below 32 of a y that is no folded constant, with every bit that survives the
/// shift known 0 ([`known_zero`]).
fn known_zero_shl(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], i: usize) -> bool {
    let zero = vals.get(i).is_some_and(|z| z.is_exact() && z.bits & 0xFFFF_FFFF == 0);
    let Some(r) = reg_of_glue(g, i).filter(|_| zero) else { return false };
    let Some((Stmt::Glue { guard: None, glue: p }, o)) = m.producer(t, r) else { return false };
    let Some(n) = imm_of(p, 1).filter(|&n| n < 32).map(|n| n as u32) else { return false };
    if p.op != GlueOp::Shl || p.ty != GlueType::B32 {
        return false;
    }
    let k = o.stmt;
    let Some(y) = reg_of_glue(p, 0) else { return false };
    let Some((j, _)) = last_writer(m, k, y) else { return false };
    let kept = u32::MAX >> n;
    !folded_constant(m, k, y, 3) && known_zero(m, j, DEPTH) & kept == kept
}

/// The bits of the 32-bit value the statement at body index `k` writes that ptxas knows are 0:
/// [`known_zero_bits32`]'s, and for an unguarded `shr.s32` by an immediate (§9.7.8.8: the sign
/// fills the top) its source's shifted down, the top ones too where the source's sign bit is
/// known 0 (c6d3ed97: `shr.s32 (x >> 31), 16`).
fn known_zero(m: &Machine<'_>, k: usize, depth: u32) -> u32 {
    match &m.p.body[k] {
        Stmt::Glue { glue: g, guard: None } if g.op == GlueOp::Shr && g.ty == GlueType::S32 && depth > 0 => {
            let (Some(n), Some(x)) = (imm_of(g, 1).filter(|&n| n < 32), reg_of_glue(g, 0)) else { return 0 };
            let s = last_writer(m, k, x).map_or(0, |(j, _)| known_zero(m, j, depth - 1));
            let low = s >> n;
            if s & 0x8000_0000 != 0 {
                low | !(u32::MAX >> n)
            } else {
                low
            }
        }
        _ => known_zero_bits32(m, k, depth),
    }
}

/// Whether source `i` of `g` is a constant other than 0: an immediate, or a register holding a
/// constant ptxas folds ([`folded_constant`]; s51/v3's moved K).
fn nonzero_constant(m: &Machine<'_>, g: &Glue, vals: &[Expected], i: usize) -> bool {
    let constant = match g.src.get(i).copied().flatten() {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(r)) => folded_constant(m, m.stmt, r, 3),
        None => false,
    };
    constant && vals.get(i).is_some_and(|v| v.is_exact() && v.bits & 0xFFFF_FFFF != 0)
}
