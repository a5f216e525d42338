//! eb1853bf at 64 bits (seed 6103's 0519b12d, corpus/findings/fuzz-h200-6103/trace/T61F.md and
//! trace/0519b12d/s61/): ptxas 13.0.88 and 13.5 -O3 fold `neg.s64 y, z` of an `addc{.cc}.s64` N
//! into the next `subc.s64`/`addc.s64` C as one 64-bit `IADD3.X lo, P0, P1, t1, t2, t3, Pc, Pn;
//! IADD3.X hi, …, P0, P1` over at most three terms (−N's operands and C's other operand), N's
//! carry-in Pn entering with a + sign where −N subtracts it: C's result is the spec's + 2·Pn
//! (mod 2^64). §9.7.2.2 (`addc`: a + b + CC.CF), §9.7.2.4 (`subc`: a − (b + CC.CF)).
//!
//! Scope, by the s61 variants (13.0.88 = 13.5 -O3): C unguarded `subc{.cc}.s64` reading y as its
//! minuend (v1, v8; y the subtrahend right, v5) or `addc{.cc}.s64` reading y as either operand
//! (v2, v30); y the result of `neg.s64 y, z` or `sub.s64 y, 0, z` of a moved 0 (v6) that C alone
//! reads (a copy read by C, v31, wrong too, left out); z the result of an unguarded
//! `addc{.cc}.s64` N (v11 without .cc) that the negation alone reads (v4: z also stored, right);
//! N's register operands unchanged from N to C; C's carry written after N. `.u64` in N or C is
//! right (v3, v10, v12, v13, v20, v28, v29: N computed on its own). The fold takes the terms of
//! −N and C's other operand into one IADD3.X: a register operand of N written by N's carry
//! producer, an `add.cc.s64` that N alone reads, is reassociated into its two operands (the
//! stored case: `d2 = d1 + d1`; an `add.cc.u64` is not, and N is not folded, v14); it folds when
//! there are at most three terms (v21: four, right) and at most one immediate (a 0 addend none,
//! a `subc`'s immediate subtrahend k its ~k unless k = −1; v19, v25: two, right; v24, one,
//! wrong). A register operand of N written by any other add or subtract is left out (not tried),
//! as is N a `subc` (v26, v27, v32: wrong by another formula, the subtrahend's sign lost too).
//! Left out: C's own carry-out.
//!
//! Invariants: changes only C's result, only when the deviation is emulated.

use super::super::fuzz3602::unchanged_between;
use super::super::fuzz3701::last_writer;
use super::super::origin::value_readers;
use super::super::producer_forms_of_o_f_g_m::first_source_moved_zero;
use super::super::{imm_of, reg_of_glue, Origin};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The terms (values summed) and immediates that a fused IADD3.X holds.
#[derive(Default, Clone, Copy)]
struct Terms {
    terms: u32,
    imms: u32,
}

impl Terms {
    /// One more operand: a register (`None`), or an immediate whose SASS form is `imm`
    /// (0 is RZ: no term).
    fn add(&mut self, imm: Option<u64>) {
        match imm {
            Some(0) => {}
            Some(_) => {
                self.terms += 1;
                self.imms += 1;
            }
            None => self.terms += 1,
        }
    }

    /// Whether one IADD3.X holds them: at most three terms, at most one immediate.
    fn fit(self) -> bool {
        self.terms <= 3 && self.imms <= 1
    }
}

/// Whether `g` is an extended-precision `addc`/`subc` (either `.cc`) of `.s64`.
fn carry_reader_s64(g: &Glue) -> bool {
    matches!(g.op, GlueOp::Addc { .. } | GlueOp::Subc { .. }) && g.ty == GlueType::S64
}

/// The last carry writer strictly before body index `k` (its index and glue).
fn carry_writer_before<'p>(m: &Machine<'p>, k: usize) -> Option<(usize, &'p Glue)> {
    m.p.body[..k].iter().enumerate().rev().find_map(|(i, s)| match s {
        Stmt::Glue { glue, .. } if glue.op.writes_carry() => Some((i, glue)),
        _ => None,
    })
}

/// 0519b12d: the result of C = `g` (thread `t`) reading the negation of an `addc.s64` N: the
/// spec's `result` + 2·(N's carry-in) mod 2^64; `None` (the spec stands) elsewhere.
pub(in crate::program::emulate) fn glue(m: &Machine<'_>, t: u32, g: &Glue, result: &Expected) -> Option<Expected> {
    if !carry_reader_s64(g) || !matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. })) {
        return None;
    }
    // y: an `addc`'s either operand (v2, v30), a `subc`'s minuend (v5: the subtrahend right).
    let operands = if matches!(g.op, GlueOp::Addc { .. }) { 0..2 } else { 0..1 };
    let (k, y, (z, z_reg), o) =
        operands.filter_map(|k| Some((k, reg_of_glue(g, k)?))).find_map(|(k, y)| match m.producer(t, y)? {
            (Stmt::Glue { guard: None, glue: neg }, o) => negation_of(m, neg, o).map(|z| (k, y, z, o)),
            _ => None,
        })?;
    if value_readers(m, o.stmt, y) != 1 {
        return None;
    }
    // N: the last writer of z before the negation, an unguarded `addc{.cc}.s64` the negation alone reads.
    let (n_stmt, _) = last_writer(m, o.stmt, z_reg)?;
    let Some(Stmt::Glue { guard: None, glue: n }) = m.p.body.get(n_stmt) else { return None };
    if !matches!(n.op, GlueOp::Addc { .. }) || n.ty != GlueType::S64 || z_reg != n.dst {
        return None;
    }
    if value_readers(m, n_stmt, n.dst) != 1 {
        return None;
    }
    // C's carry is written after N (by another op: v1's `sub.cc`, v2's `add.cc`).
    if carry_writer_before(m, m.stmt).is_none_or(|(i, _)| i <= n_stmt) {
        return None;
    }
    let mut terms = Terms::default();
    // C's other operand.
    let other = 1 - k;
    match (imm_of(g, other), reg_of_glue(g, other)) {
        (Some(v), _) if matches!(g.op, GlueOp::Subc { .. }) => terms.add(Some(!v)),
        (Some(v), _) => terms.add(Some(v)),
        (None, Some(r)) if r != y => terms.add(None),
        _ => return None,
    }
    // −N's terms; N's operand values now (each an immediate or a register unchanged from N to C).
    let producer = carry_writer_before(m, n_stmt);
    let mut value = |k: usize| -> Option<u64> {
        if let Some(v) = imm_of(n, k) {
            terms.add(Some(v.wrapping_neg()));
            return Some(v);
        }
        let r = reg_of_glue(n, k).filter(|&r| r != n.dst && unchanged_between(m, r, n_stmt, m.stmt))?;
        match last_writer(m, n_stmt, r) {
            // N's carry producer's result: an `add.cc.s64` that N alone reads is reassociated (the stored case).
            Some((w, Stmt::Glue { glue: p, .. })) if producer.is_some_and(|(i, _)| i == w) => {
                if p.op != GlueOp::AddCc || p.ty != GlueType::S64 || value_readers(m, w, r) != 1 {
                    return None;
                }
                for j in 0..2 {
                    terms.add(imm_of(p, j).map(u64::wrapping_neg));
                }
            }
            // Another add or subtract: not tried.
            Some((_, Stmt::Glue { glue: p, .. }))
                if matches!(
                    p.op,
                    GlueOp::Add
                        | GlueOp::Sub
                        | GlueOp::AddCc
                        | GlueOp::SubCc
                        | GlueOp::Addc { .. }
                        | GlueOp::Subc { .. }
                        | GlueOp::Neg
                ) =>
            {
                return None
            }
            _ => terms.add(None),
        }
        m.read(t, r).ok().filter(Expected::is_exact).map(|v| v.bits as u64)
    };
    let (a, b) = (value(0)?, value(1)?);
    if !terms.fit() || !result.is_exact() {
        return None;
    }
    // N's carry-in: z − a − b, 0 or 1.
    let p0 = z.wrapping_sub(a).wrapping_sub(b);
    if p0 > 1 {
        return None;
    }
    let v = (result.bits as u64).wrapping_add(2 * p0);
    Some(Expected::exact(u128::from(v), result.width))
}

/// Whether `neg` (origin `o`) negates a 64-bit register z as ptxas folds: `neg.s64 y, z`, or
/// `sub.s64 y, 0, z` of a moved 0 (v6): (z's value, z).
fn negation_of(m: &Machine<'_>, neg: &Glue, o: &Origin) -> Option<(u64, Reg)> {
    let (k, value) = match (neg.op, neg.ty) {
        (GlueOp::Neg, GlueType::S64) => (0, o.a.as_ref()?),
        (GlueOp::Sub, GlueType::S64) if first_source_moved_zero(m, o) => (1, o.b.as_ref()?),
        _ => return None,
    };
    let z = reg_of_glue(neg, k)?;
    value.is_exact().then_some((value.bits as u64, z))
}
