//! 3702-N2 (a `lop3` merged into the operation that reads it) widened after seed 4302's trace
//! (corpus/findings/fuzz-h200-4302/trace/T14x3.md, c7c59b39; helper z2, session 44): the
//! operation may be a 64-bit `xor`/`and` of `mov.b64` packs, which ptxas 13.0.88 -O3 splits
//! into one 32-bit operation per half before merging ([`lop3_chain_of_packs`]; with an outer
//! `xor.b64`, [`xor_of_packed_lop3_chain`]), and the
//! repeated `a` may reach its readers through copies ptxas numbers as one value
//! ([`same_value`]).
//!
//! Invariants: each is a condition on the program's statements and the values a machine
//! records; [`lop3_chain_of_packs`] computes the merged words with `fuzz3702`'s chain and
//! returns `None` (the spec's result stands) where no half is merged or nothing changes.

use super::fuzz3701::last_writer;
use super::fuzz3702::{lop3_chain_of, merged_chain, Lop3Chain};
use super::merge_c_in_place::{same_expression, CSE_DEPTH};
use super::origin::value_readers;
use super::reg_of_glue;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// Where register `r`, read at body index `at`, gets its value once unguarded `mov` copies and
/// `mov` unpacks of a same-shape `mov` pack are looked through (ptxas propagates both: c7c59b39's
/// `v2_b32_copy_reg`; a `mov.b64` copy of the pack and `mov.b64 {e, _}` of `{a, y}`, 13.0.88 -O3,
/// session 44): the register and the index that reads it there. `lone` asks every value on the
/// way to have that one reader.
pub(super) fn through_copies(m: &Machine<'_>, (at, r): (usize, Reg), lone: bool) -> Option<(usize, Reg)> {
    let Some((w, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }))) = last_writer(m, at, r)
    else {
        return Some((at, r));
    };
    if lone && value_readers(m, w, r) != 1 {
        return None;
    }
    let source = operands.get(1).and_then(|o| m.reg_of(o).ok());
    match (mv.shape, source, operands.first()) {
        (MovShape::Copy, Some(s), _) => through_copies(m, (w, s), lone),
        (MovShape::Unpack(n), Some(s), Some(Operand::Vector(items))) => {
            let e = items.iter().position(|o| m.reg_of(o).ok() == Some(r))?;
            let (p, elements) = pack_of(m, (w, s), lone).filter(|(_, x)| x.len() == usize::from(n))?;
            through_copies(m, (p, elements[e]?), lone)
        }
        _ => Some((at, r)),
    }
}

/// The `mov` pack register `r` read at body index `at` holds (through [`through_copies`]): the
/// pack's index and its elements (`None` for an immediate).
pub(super) fn pack_of(m: &Machine<'_>, at_r: (usize, Reg), lone: bool) -> Option<(usize, Vec<Option<Reg>>)> {
    let (at, r) = through_copies(m, at_r, lone)?;
    let (p, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })) = last_writer(m, at, r)? else {
        return None;
    };
    if lone && value_readers(m, p, r) != 1 {
        return None;
    }
    match (mv.shape, operands.get(1)) {
        (MovShape::Pack(_), Some(Operand::Vector(items))) => {
            Some((p, items.iter().map(|o| m.reg_of(o).ok()).collect()))
        }
        _ => None,
    }
}

/// Whether registers `a.1` read at body index `a.0` and `b.1` read at `b.0` hold one value as
/// ptxas numbers values: the same expression ([`same_expression`]) once copies are looked
/// through ([`through_copies`]), or one register with one last writer (none in the body: a
/// value from before it). c7c59b39's `mov.b32 {c0, c0, c0, c0}` twice is one value. One register
/// with one last writer is one value before copies are looked through too: an element of a
/// `mov.b64` unpack of a value that is no pack (a `cvt.rni.s64.f32` result, a 64-bit load), which
/// [`through_copies`] cannot follow (seed 5002's 051c9b8e, T21c.md: `mov.b64 {r8, r9}, d0;
/// lop3.b32 r10, r9, r8, r8, 0xaa; xor.b32 r11, r8, r10`).
pub(super) fn same_value(m: &Machine<'_>, a: (usize, Reg), b: (usize, Reg)) -> bool {
    let writer = |(at, r): (usize, Reg)| last_writer(m, at, r).map(|(w, _)| w);
    if a.1 == b.1 && writer(a) == writer(b) {
        return true;
    }
    match (through_copies(m, a, false), through_copies(m, b, false)) {
        (Some(a), Some(b)) => (a.1 == b.1 && writer(a) == writer(b)) || same_expression(m, a, b, CSE_DEPTH),
        _ => false,
    }
}

/// For 3702-N2 through a 64-bit operation: the [`Lop3Chain`] of half `k` (0 low, 1 high) of `op`
/// (`OP.b64 d, P, Q` at body index `op_at`, its sources holding `sources`) that ptxas 13.0.88
/// -O3 merges once it splits `op` into one 32-bit operation per half, the chain's inputs read
/// up to body index `at`. Half k is `P[k] OP Q[k]` (either order) of `mov.b64` packs (through
/// copies) whose one element is `l = lop3.b32 a, b, c, L` read by that pack alone, the pack's
/// value by `op` alone, its other element holding `a`'s value ([`same_value`]); every element
/// `l` of the pack faces the same value (one half after value numbering: `{a, a} ^ {l, l}`
/// merged, `{a, b} ^ {l, l}` keeps two LOP3s).
fn half_chain(
    m: &Machine<'_>,
    t: u32,
    op: &Glue,
    op_at: usize,
    sources: [u64; 2],
    k: usize,
    at: usize,
) -> Option<Lop3Chain> {
    [(0usize, 1usize), (1, 0)].into_iter().find_map(|(ia, il)| {
        let (pa, a_elements) = pack_of(m, (op_at, reg_of_glue(op, ia)?), false)?;
        let (pl, l_elements) = pack_of(m, (op_at, reg_of_glue(op, il)?), true)?;
        let (a, l) = (a_elements.get(k).copied()??, l_elements.get(k).copied()??);
        let (j, Stmt::Glue { glue: lop, guard: None }) = last_writer(m, pl, l)? else { return None };
        let lop_a = reg_of_glue(lop, 0)?;
        let one_half = l_elements
            .iter()
            .zip(&a_elements)
            .all(|(li, ai)| *li != Some(l) || ai.is_some_and(|ai| same_value(m, (pa, ai), (pa, a))));
        let lone = lop.op == GlueOp::Lop3 && value_readers(m, j, l) == 1 && one_half;
        if !lone || !same_value(m, (pa, a), (j, lop_a)) {
            return None;
        }
        let a_value = (sources[ia] >> (32 * k)) & 0xFFFF_FFFF;
        lop3_chain_of(m, t, op.op, lop, j, a_value, at)
    })
}

/// The 64-bit word of the halves of `g` ptxas merges, each half's word `merged(k, chain)`, the
/// others `spec`'s; `None` where no half is merged or the word is `spec`'s.
pub(super) fn per_half(spec: &Expected, chain: impl Fn(usize) -> Option<u64>) -> Option<Expected> {
    let bits = spec.bits as u64;
    let (lo, hi) = (chain(0), chain(1));
    if lo.is_none() && hi.is_none() {
        return None;
    }
    let v = lo.unwrap_or(bits & 0xFFFF_FFFF) | (hi.unwrap_or(bits >> 32) << 32);
    (v != bits).then(|| Expected::exact(u128::from(v), spec.width))
}

/// 3702-N2 with no outer xor through a 64-bit operation (T14x3.md, c7c59b39; ptxas 13.0.88 -O3
/// and the JIT, 13.5 right): `xor.b64`/`and.b64 d, P, Q` of `mov.b64` packs, each [`half_chain`]
/// merged as the 32-bit form is (`fuzz3702`'s `lop3_chain_with_no_outer_xor`, x = 0): the
/// traced `{a', a'} ^ {l, l}` with `lop3(a, a, 0, 0xbd)` and a' a second splat of a's byte is
/// `LOP3.LUT R6, a, RZ, RZ, 0x4d` (~a, stored in both halves; the spec gives all ones).
/// Session 44, 13.0.88 -O3: merged in either operand order, under `and` (0xb0, 0xe0), with `c`
/// repeating `a` (0x93), with a copied `a`, a copied pack, an unpacked `a`, a `lop3` reading a
/// copy of `a`; two lop3s `{l, m}` each merged into its half; `{a, b} ^ {l, b}` merged in the
/// low half only. Right (two LOP3s kept): `l` facing two values (`{a, b} ^ {l, l}`, `{a, 0} ^
/// {l, l}`), `l` in both packs (`{a, l} ^ {l, a}`), the pack of `l` read again. An `or` is merged
/// too but never changes the value.
pub(super) fn lop3_chain_of_packs(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Xor | GlueOp::And)
        || g.ty != GlueType::B64
        || !vals.iter().take(2).all(Expected::is_exact)
    {
        return None;
    }
    let sources = [vals[0].bits as u64, vals[1].bits as u64];
    per_half(result, |k| half_chain(m, t, g, m.stmt, sources, k, m.stmt).map(|c| merged_chain(g, 0, c)))
}

/// 3702-N2's outer-xor form through 64-bit operations (session 44, 13.0.88 -O3): `xor.b64 d, x,
/// r` (either order) with `r = OP.b64 P, Q` (OP `xor`, `or` or `and`) of packs is merged per
/// [`half_chain`] as the 32-bit form is (`fuzz3702`'s `xor_of_lop3_chain`): `{x, x} ^ ({a, a} ^
/// {l, l})` with `lop3(a, a, 0, 0xbd)` is `LOP3.LUT R6, x, a, RZ, 0x81` = x ^ (a ^ L(a, x, 0))
/// per half, with a middle `and` 0x7c; a middle `{a, b}` facing `{l, l}` keeps `LOP3 0xdb` and a
/// three-input xor (right).
pub(super) fn xor_of_packed_lop3_chain(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if g.op != GlueOp::Xor || g.ty != GlueType::B64 || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    [(1usize, 0usize), (0, 1)].into_iter().find_map(|(chain, other)| {
        let r = reg_of_glue(g, chain)?;
        let (Stmt::Glue { glue: mid, guard: None }, o) = m.producer(t, r)? else { return None };
        let middle = matches!(mid.op, GlueOp::Xor | GlueOp::Or | GlueOp::And) && mid.ty == GlueType::B64;
        let (a, b) = (o.a.as_ref().filter(|v| v.is_exact())?, o.b.as_ref().filter(|v| v.is_exact())?);
        let sources = [a.bits as u64, b.bits as u64];
        let x = vals[other].bits as u64;
        let word = |k: usize| {
            let c = half_chain(m, t, mid, o.stmt, sources, k, m.stmt)?;
            Some(merged_chain(g, (x >> (32 * k)) & 0xFFFF_FFFF, c))
        };
        middle.then(|| per_half(result, word))?
    })
}
