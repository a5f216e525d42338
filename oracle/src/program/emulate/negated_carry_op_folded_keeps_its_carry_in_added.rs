//! eb1853bf (corpus/known/fuzz-h200-4803-eb1853bf-neg-of-subc-into-addc-adds-the-borrow.toml):
//! ptxas 13.0.88 and 13.5 -O3 and the JIT fold the negation of an extended-precision op N
//! (`subc`, `addc`) into the next `addc`/`subc` C that reads it: `neg.s32 y, z` of N's result z
//! is distributed over N's addends into C's one `IADD3.X …, P1, P0`, and N's carry-in P0 (the
//! SASS carry N reads: 1 − borrow for a `subc`, the carry for an `addc`) enters that IADD3.X
//! with a + sign where −N subtracts it: C's result is the spec's + 2·P0 (mod 2^32). §9.7.2.2
//! (`addc`: a + b + CC.CF), §9.7.2.4 (`subc`: a − (b + CC.CF), CC.CF the borrow), §9.7.1.7 (`neg`).
//!
//! Evidence (13.0.88 and 13.5 -O3 listings alike): seed 4803's eb1853bf (corpus/findings/
//! fuzz-h200-4803/trace/T19v5.md "eb1853bf", trace/eb1853bf/: `sub.cc r1, r0, 0; subc.cc r3, r0,
//! r2; neg.s32 r4, r3; add.cc r6, r0, 0x80000; addc r7, r4, 0` is `IADD3.X R6, −r0, RZ, r2 + 1,
//! P1, P0`: 2 where the spec gives 0, inputs 0) and its variants: wrong — `reduced`, `v4` (a
//! `subc` without `.cc`), `v5` (a loaded subtrahend in the `sub.cc`), `v8` (all `.u32`), `v9` (an
//! `addc` with a register addend); right — `v1` (the negation stored, no addc), `v2` (a plain `add`
//! after the neg), `v3` (the addc of the subc, no neg), `v7` (a plain `sub` for N: no carry-in).
//! Seed 5002's 3fdedd5c (corpus/findings/fuzz-h200-5002/trace/T21c.md, trace/3fdedd5c/s50/): the
//! mirror, N an `addc` negated in place, C a `subc` (`v1`, the case: 5 where the spec gives 3) or
//! an `addc` (`v3`); a `subc` N into a `subc` C (`v9`); other registers (`v7`): wrong; right — a
//! plain `sub`/`add` for C (`v2`, `v8`), the negation also stored (`v4`), no negation (`v6`).
//!
//! Scope: C an unguarded `addc{.cc}`/`subc{.cc}` `.u32`/`.s32` reading y as an `addc`'s either
//! operand (`s51/v1`: the second, wrong) or a `subc`'s minuend (`s51/v5`: the subtrahend, right);
//! y the result of an unguarded `neg.s32 y, z` or `sub.s32 y, 0, z` of a moved 0 (`s51/v2`, wrong;
//! `sub.u32` right: `s51/v4`, 3fdedd5c's `v5`) that C alone reads (`v1`, 3fdedd5c's `v4`: right
//! when anything else reads it); z the result of an unguarded `subc{.cc}`/`addc{.cc}` `.u32`/`.s32`
//! N (its last writer before the negation) that the negation alone reads (`s51/v3`: z also stored
//! keeps N, right), N's register operands (not z) unchanged from N to C, so that N's carry-in is
//! recovered from its operands and result. Left out: C's own carry-out.
//!
//! Invariants: changes only C's result, only when the deviation is emulated.

mod wide;

use super::fuzz3602::unchanged_between;
use super::fuzz3701::last_writer;
use super::origin::value_readers;
use super::producer_forms_of_o_f_g_m::first_source_moved_zero;
use super::{imm_of, reg_of_glue, Origin};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// Whether `g` is an extended-precision `addc`/`subc` (either `.cc`) of 32 bits.
fn carry_reader32(g: &Glue) -> bool {
    matches!(g.op, GlueOp::Addc { .. } | GlueOp::Subc { .. }) && matches!(g.ty, GlueType::U32 | GlueType::S32)
}

/// eb1853bf: the result of C = `g` (thread `t`) reading the negation of an `addc`/`subc` N: the spec's `result` + 2·(N's SASS carry-in); `None` (the spec stands) elsewhere.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, _vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.ty == GlueType::S64 {
        // 0519b12d: the same fold at 64 bits (`wide.rs`).
        return wide::glue(m, t, g, result);
    }
    if !carry_reader32(g) || !matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. })) {
        return None;
    }
    // y: an `addc`'s either operand (`s51/v1`), a `subc`'s minuend (`s51/v5`: the subtrahend right).
    let operands = if matches!(g.op, GlueOp::Addc { .. }) { 0..2 } else { 0..1 };
    let (y, neg, o) = operands.filter_map(|k| reg_of_glue(g, k)).find_map(|y| match m.producer(t, y)? {
        (Stmt::Glue { guard: None, glue: neg }, o) => negation_of(m, neg, o).map(|z| (y, z, o)),
        _ => None,
    })?;
    if value_readers(m, o.stmt, y) != 1 {
        return None;
    }
    let (z, z_reg) = neg;
    // N: the last writer of z before the negation (straight code: the body branches forward only).
    let (n_stmt, _) = last_writer(m, o.stmt, z_reg)?;
    let Some(Stmt::Glue { guard: None, glue: n }) = m.p.body.get(n_stmt) else { return None };
    if !carry_reader32(n) || z_reg != n.dst || value_readers(m, n_stmt, n.dst) != 1 {
        return None;
    }
    // N's operands now, each an immediate or a register (not N's own destination) unchanged from N to C.
    let operand = |k: usize| -> Option<u64> {
        if let Some(v) = imm_of(n, k) {
            return Some(v & 0xFFFF_FFFF);
        }
        let r = reg_of_glue(n, k).filter(|&r| r != n.dst && unchanged_between(m, r, n_stmt, m.stmt))?;
        m.read(t, r).ok().filter(Expected::is_exact).map(|v| v.bits as u64 & 0xFFFF_FFFF)
    };
    let (a, b) = (operand(0)?, operand(1)?);
    // N's SASS carry-in: an addc's carry (z − a − b), a subc's 1 − borrow (borrow = a − b − z).
    let p0 = match n.op {
        GlueOp::Addc { .. } => z.wrapping_sub(a).wrapping_sub(b) & 0xFFFF_FFFF,
        _ => match a.wrapping_sub(b).wrapping_sub(z) & 0xFFFF_FFFF {
            borrow @ 0..=1 => 1 - borrow,
            _ => return None,
        },
    };
    if p0 > 1 || !result.is_exact() {
        return None;
    }
    let v = (result.bits as u64).wrapping_add(2 * p0) & 0xFFFF_FFFF;
    Some(Expected::exact(u128::from(v), result.width))
}

/// Whether `neg` (origin `o`) negates a 32-bit register z the way ptxas folds: `neg.s32 y, z`, or
/// `sub.s32 y, 0, z` of a moved 0 (`s51/v2`; `sub.u32` is right, `s51/v4`): (z's value, z).
fn negation_of(m: &Machine<'_>, neg: &Glue, o: &Origin) -> Option<(u64, Reg)> {
    let (k, value) = match (neg.op, neg.ty) {
        (GlueOp::Neg, GlueType::S32) => (0, o.a.as_ref()?),
        (GlueOp::Sub, GlueType::S32) if first_source_moved_zero(m, o) => (1, o.b.as_ref()?),
        _ => return None,
    };
    let z = reg_of_glue(neg, k)?;
    value.is_exact().then_some((value.bits as u64 & 0xFFFF_FFFF, z))
}
