//! d438d526 (corpus/known/fuzz-h200-4202-d438d526-mul-lo-s64-by-max-s32-pair-folded-away.toml):
//! ptxas 13.0.88 -O3 and the JIT compose a 64-bit multiple of a base x from its steps and, where
//! a 64-bit add/sub of a nonzero immediate c reads it, compute x·C' ± c with the composed
//! multiplier C folded to its low word (C' = 1 for C = (2^31 − 1)^2 = 0x3fffffff_00000001 or
//! 1 + 2^32), so the terms that only reach the high word are dropped (§9.7.1.3 `mul.lo`,
//! §9.7.1.7 `shl`, §9.7.1.1 `add` keep them). Two forms, each as narrow as the variants show:
//!
//! - A run of `mul.lo.{s64,u64} d, d, f` by one immediate f, each reading the one before (a loop
//!   or straight-line; adds/subs of immediates between are kept exact), f a sign-extended 32-bit
//!   value of 32-bit order k (f^k ≡ 1 mod 2^32; k = 2 for ±0x7fffffff, 4 for ±0x3fffffff, 8 for
//!   0x60000001): each group of k multiplies is folded to 1, a run of n is x·f^(n mod k) (64-bit),
//!   plus the constants (seed 5902's f1a84be0, corpus/findings/fuzz-h200-5902/trace/T59D.md,
//!   trace/f1a84be0/s59/: four by 0x3fffffff then `add.s64 −1` is x − 1).
//! - x + ((x << a) << b …), two or more `shl.b64` by immediates of x totalling 32 to 63, added
//!   (either order) to the same value x, then doubled by `add d, s, s` or not: x (2x), plus c.
//!
//! Evidence (13.0.88 -O3 listings, `IADD3 R6, P0, R2, ±c; IADD3.X R7, R3, …` = x ± c):
//! fuzz-h200-4202's d438d526 (trace/T12b1.md, trace/d438d526/: the loop of 6, `v1`…`v8`,
//! `w1`…`w7`, `sweep/` counts 2–8), fuzz-h200-4802's f2bfc325 (trace/T19v4.md, trace/f2bfc325/
//! and its s49/: `v1_five_trips` keeps one multiply, `s49/v1_neg_pair`, `v2_add_between`,
//! `v3_sub_then_add`) and 289df626 (trace/289df626/: the case, `v4_shl2_30`, `v7_store64`,
//! `v9_total33`, `v10_sub5`, `v11_sum_doubled`, `v14_shl16_16`, and its s49/:
//! `v1_shl_1_1_30`, `v2_chain_first`, `v3_shl_20_20`, `v4_sub_cc`).
//!
//! - x << k by a chain of `shl.b64` by immediates totalling k (1 ≤ k < 32), then `mul.lo.{u64,s64}`
//!   by constants (an immediate, either order, or a moved immediate; one or more) whose product F
//!   is ≡ 1 (mod 2^(32−k)) with F·2^k ≥ 2^32: the multiplier F·2^k has the low word 2^k, and an
//!   add/sub of a nonzero immediate reading it gives (x << k) ± c (seed 5901's 8e473ac1,
//!   corpus/findings/fuzz-h200-5901/trace/T59C.md and trace/8e473ac1/s59/: `shl 31; mul.lo 3;
//!   sub.cc K1` is `IADD3 R4, P1, R0, -K1.lo` of x << 31, the borrow the exact product's; 5 or −3
//!   by 31, 5 by 30, 9 by 29, 17 by 28, 0x10001 by 16, 0x10000001 by 4, 3 twice, 16 + 15 then 3:
//!   `LEA …, k`). Right, left to the spec: 7 or 6 by 30 (the low word 0xc0000000, 2^31: not 2^k),
//!   0x10003 by 16, the multiply before the shift, a shift of 32 or more, no add or an add of a
//!   register or of 0 (`v2`, `v6`–`v10`, `v12`, `v14`, `w4`, `w6`, `w8`, `w9`, `w12`, `w13`, `w15`).
//!
//! Out (right at 13.0.88 -O3, the spec stands): one multiply; the run read by no add/sub, by an
//! add of 0 or of a register (`w2`, `w3`, `w5`, f2bfc325's `v2_no_sub`); other multipliers
//! not sign-extended 32-bit or runs shorter than their order (2^31 + 1, 2^32 − 1, a pair of
//! 2^30 − 1, 0xfffffffe, 3 then its inverse: `x1`…`x5`; f1a84be0's `s59/v1`, `v2`, `v8`, `v13`,
//! `v19`, `v21`, `v22`),
//! `s49/r1_fffffffe_pair`); 0x7fffffff and −0x7fffffff mixed (`s49/r2_mixed_signs`); a shift of
//! the run before the last multiply or after it (`s49/r3_shl_between`); the run added to x
//! (`s49/r4_pair_plus_base`); a single `shl.b64 …, 32`, `mul.lo` by 2 then a shift
//! (`s49/r5_mul2_shl31_base`), a total below 32, a chain without its base or added to another
//! value, a subtraction of the base, an extra term (289df626's `v1`, `v2`, `v3`, `v5`, `v6`,
//! `v15`, `v16`). (A `shl.b64` before one multiply, `s49/w1_shl31_then_mul`, not claimed before
//! seed 5901, is the third form.)
//!
//! Invariants: the [`Affine`] a register carries always describes the value the oracle holds
//! (the folded one after a fire); only an add/sub of a nonzero immediate changes a result.

use super::origin::moved_immediate;
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};
use crate::semantics::{Deviation, Expected};

/// The largest 32-bit multiplicative order of a factor whose runs are tracked (the evidence
/// reaches 8; an odd factor's order mod 2^32 is a power of two up to 2^30).
const MAX_ORDER: u32 = 64;

/// The order k of a factor `f` whose runs ptxas folds (seed 5902's f1a84be0,
/// corpus/findings/fuzz-h200-5902/trace/T59D.md, trace/f1a84be0/s59/): a sign-extended 32-bit
/// immediate (−2^31 ≤ f < 2^31 as an `i64`: 0xffffffff and 0x80000001 zero-extended keep their
/// multiplies, `v13`, `v21`; so does a high word, `v22`) whose k-th power is 1 mod 2^32
/// (F^k ≡ 1), k ≥ 2 and at most [`MAX_ORDER`]. ±0x7fffffff have k = 2 (d438d526), ±0x3fffffff,
/// ±0x40000001 k = 4 (`v3`, `v11`, `v12`, `v23`), 0x1fffffff, 0x5fffffff, 0x60000001 k = 8
/// (`v9`, `v18`, `v20`); 3 (k = 2^30) is out (`v17`).
fn order(f: u64) -> Option<u32> {
    let signed = f as i64;
    if !(i64::from(i32::MIN)..=i64::from(i32::MAX)).contains(&signed) || f & 1 == 0 {
        return None;
    }
    let mut p = f as u32;
    for k in 1..=MAX_ORDER {
        if p == 1 {
            return (k >= 2).then_some(k);
        }
        p = p.wrapping_mul(f as u32);
    }
    None
}

/// How a tracked value was composed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::program) enum Steps {
    /// A run of multiplies by `f` (adds of immediates between them allowed), `n` of them since
    /// the last whole group of f's [`order`] (what ptxas keeps).
    Run { f: u64, n: u32 },
    /// `count` `shl.b64` by immediates totalling `total`.
    Shifts { count: u32, total: u32 },
    /// A shift chain of 32 to 63 added to its base, then doubled once or not (`doubled`).
    Summed { doubled: bool },
    /// A shift chain totalling `shift` (1 to 31) multiplied by constants (seed 5901's 8e473ac1).
    Scaled { shift: u32 },
}

/// A 64-bit value base·coeff + constant (mod 2^64) made by [`Steps`] from `base`, and what
/// ptxas uses for `coeff` when an add/sub of an immediate reads it (`folded`).
#[derive(Clone, Debug, PartialEq)]
pub(in crate::program) struct Affine {
    base: u64,
    /// The producer of the base's register (the base-add checks its other operand is it).
    base_stmt: Option<usize>,
    coeff: u64,
    folded: u64,
    constant: u64,
    steps: Steps,
}

impl Affine {
    fn value(&self, coeff: u64) -> u64 {
        self.base.wrapping_mul(coeff).wrapping_add(self.constant)
    }
}

/// The exact 64-bit value of source `k`.
fn exact(vals: &[Expected], k: usize) -> Option<u64> {
    vals.get(k).filter(|v| v.is_exact()).map(|v| v.bits as u64)
}

/// The affine form register source `k` of `g` carries in thread `t`.
fn carried<'a>(m: &'a Machine<'_>, t: u32, g: &Glue, k: usize) -> Option<&'a Affine> {
    m.origins.get(t as usize)?.get(&reg_of_glue(g, k)?)?.affine.as_ref()
}

/// Whether register source `k` of `g` was last written, in thread `t`, by a 64-bit `mul.lo` by
/// a factor with an [`order`].
fn written_by_a_factor_multiply(m: &Machine<'_>, t: u32, g: &Glue, k: usize) -> bool {
    let Some(stmt) = reg_of_glue(g, k).and_then(|r| m.origins.get(t as usize)?.get(&r)).map(|o| o.stmt) else {
        return false;
    };
    matches!(m.p.body.get(stmt), Some(crate::program::Stmt::Glue { glue: w, .. })
        if w.op == GlueOp::MulLo && w.ty.bits() == 64 && imm_of(w, 1).and_then(order).is_some())
}

/// The constant factor of a 64-bit `mul.lo` `g` and the index of the register it multiplies,
/// where that register carries a `shl.b64` chain of 1 to 31 or a [`Steps::Scaled`] one: the
/// factor an immediate (either order) or a register a move of an immediate wrote (`w17`).
fn scaled_operand(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<(u64, usize)> {
    let constant = |k: usize| {
        imm_of(g, k).or_else(|| reg_of_glue(g, k).filter(|&r| moved_immediate(m, t, r)).and_then(|_| exact(vals, k)))
    };
    [(1, 0), (0, 1)].into_iter().find_map(|(c, x)| {
        let f = constant(c)?;
        let steps = carried(m, t, g, x)?.steps;
        let chain = matches!(steps, Steps::Shifts { total, .. } if (1..32).contains(&total))
            || matches!(steps, Steps::Scaled { .. });
        chain.then_some((f, x))
    })
}

/// The immediate of a 64-bit add/sub `g` and the index of the register it adds to (an add's
/// either order), the immediate nonzero; `sub` gives it negated.
fn added_immediate(g: &Glue) -> Option<(u64, usize)> {
    let sub = match g.op {
        GlueOp::Add | GlueOp::AddCc => false,
        GlueOp::Sub | GlueOp::SubCc => true,
        _ => return None,
    };
    if g.ty.bits() != 64 {
        return None;
    }
    let (c, x) = match (imm_of(g, 1), imm_of(g, 0)) {
        (Some(c), None) => (c, 0),
        (None, Some(c)) if !sub => (c, 1),
        _ => return None,
    };
    (c != 0 && reg_of_glue(g, x).is_some()).then(|| (if sub { c.wrapping_neg() } else { c }, x))
}

/// The affine form `g` (source values `vals`) gives its destination in thread `t`, when the
/// deviation is emulated (see the module docs); `None` ends tracking.
pub(in crate::program) fn affine(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<Affine> {
    if !m.allow.emulates(Deviation::MultiplierChainFoldedToItsLowWord) || g.ty.bits() != 64 {
        return None;
    }
    let fresh = |k: usize, coeff: u64, steps: Steps| {
        let base_stmt = m.origins.get(t as usize)?.get(&reg_of_glue(g, k)?).map(|o| o.stmt);
        Some(Affine { base: exact(vals, k)?, base_stmt, coeff, folded: coeff, constant: 0, steps })
    };
    match g.op {
        GlueOp::MulLo if scaled_operand(m, t, g, vals).is_some() => {
            let (f, x) = scaled_operand(m, t, g, vals)?;
            let a = carried(m, t, g, x)?;
            let shift = match a.steps {
                Steps::Shifts { total, .. } | Steps::Scaled { shift: total } => total,
                _ => return None,
            };
            let coeff = a.coeff.wrapping_mul(f);
            // ptxas uses the multiplier's low word only where that is the chain's own 2^k
            // (7 or 6 by 30 are kept: `w9`, `w15`).
            let folded = if coeff & 0xffff_ffff == 1 << shift { 1 << shift } else { coeff };
            Some(Affine { coeff, folded, steps: Steps::Scaled { shift }, ..a.clone() })
        }
        GlueOp::MulLo => {
            let (f, x) = (imm_of(g, 1).filter(|&f| order(f).is_some())?, 0);
            match carried(m, t, g, x) {
                Some(a @ Affine { steps: Steps::Run { f: same, n }, .. }) if *same == f => {
                    // Each group of k multiplies (F^k ≡ 1 mod 2^32) folded to 1: x·F^(n mod k).
                    let n = (n + 1) % order(f)?;
                    let folded = (0..n).fold(1u64, |p, _| p.wrapping_mul(f));
                    let (coeff, constant) = (a.coeff.wrapping_mul(f), a.constant.wrapping_mul(f));
                    Some(Affine { coeff, folded, constant, steps: Steps::Run { f, n }, ..a.clone() })
                }
                // A run starts only on a base no multiply by either factor wrote: a chain of
                // mixed signs is out of scope (`s49/r2_mixed_signs` is right), not restarted.
                _ if written_by_a_factor_multiply(m, t, g, x) => None,
                _ => fresh(x, f, Steps::Run { f, n: 1 }),
            }
        }
        GlueOp::Shl => {
            let k = u32::try_from(imm_of(g, 1)?).ok().filter(|k| (1..32).contains(k))?;
            match carried(m, t, g, 0) {
                Some(a @ Affine { steps: Steps::Shifts { count, total }, .. }) if total + k < 64 => {
                    let (coeff, steps) = (a.coeff << k, Steps::Shifts { count: count + 1, total: total + k });
                    Some(Affine { coeff, folded: coeff, steps, ..a.clone() })
                }
                _ => fresh(0, 1 << k, Steps::Shifts { count: 1, total: k }),
            }
        }
        GlueOp::Add if reg_of_glue(g, 0).is_some() && reg_of_glue(g, 1).is_some() => {
            let (r0, r1) = (reg_of_glue(g, 0), reg_of_glue(g, 1));
            if r0 == r1 {
                // `add d, s, s` of a summed chain doubles it (289df626's `v11_sum_doubled`).
                // Once: the evidence doubles a sum once.
                let a = carried(m, t, g, 0).filter(|a| a.steps == Steps::Summed { doubled: false })?;
                let (coeff, folded) = (a.coeff.wrapping_mul(2), a.folded.wrapping_mul(2));
                let (constant, steps) = (a.constant.wrapping_mul(2), Steps::Summed { doubled: true });
                return Some(Affine { coeff, folded, constant, steps, ..a.clone() });
            }
            [(0, 1), (1, 0)].into_iter().find_map(|(c, b)| {
                let a = carried(m, t, g, c)?;
                let Steps::Shifts { count, total } = a.steps else { return None };
                let base_stmt = m.origins.get(t as usize)?.get(&reg_of_glue(g, b)?).map(|o| o.stmt);
                let same_base = exact(vals, b) == Some(a.base) && base_stmt == a.base_stmt;
                (count >= 2 && total >= 32 && a.constant == 0 && same_base).then(|| Affine {
                    coeff: a.coeff.wrapping_add(1),
                    folded: 1,
                    steps: Steps::Summed { doubled: false },
                    ..a.clone()
                })
            })
        }
        _ => {
            let (c, x) = added_immediate(g)?;
            let a = carried(m, t, g, x)?;
            let constant = a.constant.wrapping_add(c);
            let steps = match a.steps {
                Steps::Run { f, n } => Steps::Run { f, n },
                Steps::Summed { doubled } => Steps::Summed { doubled },
                // The add is the fold's reader: the evidence reads it once (an add of 5 then a
                // sub of K is one `LEA` of both constants, `w22`: the same value either way).
                Steps::Shifts { .. } | Steps::Scaled { .. } => return None,
            };
            Some(Affine { coeff: a.folded, constant, steps, ..a.clone() })
        }
    }
}

/// d438d526: the result of a 64-bit add/sub of a nonzero immediate reading a composed multiple
/// whose folded multiplier differs from its own: base·folded + the constants; `None` elsewhere.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let (c, x) = added_immediate(g)?;
    let a = carried(m, t, g, x)?;
    let held = exact(vals, x).filter(|&v| v == a.value(a.coeff))?;
    if a.folded == a.coeff || matches!(a.steps, Steps::Shifts { .. }) {
        return None;
    }
    let folded = a.value(a.folded).wrapping_add(c);
    (folded != held.wrapping_add(c)).then_some(())?;
    Some(Expected::exact(u128::from(folded), result.width))
}
