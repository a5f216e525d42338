//! 3701-N-D (`corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`,
//! `emulate/merge_c_in_place.rs`) widened after seed 4401's traces
//! (corpus/findings/fuzz-h200-4401/trace/T15t1.md; helper v3, session 44; variants and 13.0.88
//! -O3 listings in trace/3fdf8ff2/s44v/ and trace/42bfc506/s44v/).
//!
//! - A guarded `mov.b64` pack of four halves ([`if_converted_pack`], 3fdf8ff2: `@!p mov.b64 d,
//!   {p, h4, h1, h4}`): ptxas if-converts it, builds the pair in h's register in place in every
//!   thread (`F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R8, RZ, RZ, R8`) and selects each word
//!   (`SEL R5, R8, R4, P0`). Where the guard holds, a later element naming h is the pair
//!   (`PRMT R9, R9, 0x5410, R8`; s44v `g3_elem2` at element 2, `g5_xor_half` for an `xor.b16`
//!   h); in every thread a later read of h is the pair (`g1`, `g2`, `g6`: `STG.E.U16 [+8], R9`
//!   outside the selects). Right, kept out: a guarded `mov.b32` pack (v3_guarded_b32, `g7`,
//!   `g8`: `@P0 PRMT R9, R0, 0x5410, R7` of a pair built from `RZ`), a guarded `st.v4`
//!   (`g4`: the pair built from `RZ`), a `mov.b64` unpack of the guarded pack's result (`g9`:
//!   `PRMT R0, R6, 0x7632` of the selected word reads h).
//! - A register written AFTER an unguarded destroying pack by the same expression as h
//!   ([`later_duplicate_pack`], [`later_duplicate_glue`]; 42bfc506: `mov.b16 h5, {c0, c0}` after
//!   `mov.b32 r1, {p, h3}` of `h3 = {c0, c0}` is `STG.E.S8 [+2], R7` of the merged `R7`): ptxas
//!   numbers it as h and reads h's register, the pair. s44v: `d1_glue_dup_after` (`xor.b16`),
//!   `d4_mul_dup_after` (`mul.lo.u16`), `d5_glue_dup_swapped` (`xor.b16 h5, 0x55, h1` after
//!   `xor.b16 h3, h1, 0x55`), `d2_b64_pack_dup_after` (a `mov.b64` pack), `d3_st_v2_dup_after`
//!   (a `st.v2.b16` pack) alike. Right: another expression (`v3_after_other_order`, `{c0, c1}`).
//!
//! Invariants: a register changes only to the pair (§9.7.9.4 packs the pair's 16 bits as given)
//! when every statement named is of the form above, with h's register, the pair's and the
//! duplicate's sources unwritten and no label or branch between the pack and the duplicate.

use super::fuzz3602::{next_flow, unchanged_between};
use super::fuzz3701::last_writer;
use super::merge_c_in_place::{destroying_pack, same_expression, CSE_DEPTH};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// Whether the statement at body index `k` is a guarded `mov.b64` pack of four halves, which
/// ptxas 13.0.88 and 13.5 -O3 if-convert with the pair merged in place (module docs).
pub(super) fn if_converted_pack(m: &Machine<'_>, k: usize) -> bool {
    let Some(Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: Some(_), .. })) = m.p.body.get(k) else {
        return false;
    };
    let dst = operands.first().and_then(|o| m.reg_of(o).ok());
    mv.shape == MovShape::Pack(4) && dst.is_some_and(|d| d.class().bits() == 64)
}

/// The spec's `results` of the unguarded `mov` pack being run in thread `t`, its destination
/// the pair where ptxas numbers it as the h of an earlier destroying pack ([`pair_of_h`]).
pub(super) fn later_duplicate_pack(
    m: &mut Machine<'_>,
    t: u32,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    if let [(r, e)] = results.as_mut_slice() {
        if let Some(pair) = pair_of_h(m, t, *r) {
            let from = e.clone();
            *e = m.fire(Deviation::MergeCInPlaceDestroysLiveHalf, &from, pair);
        }
    }
    results
}

/// The value unguarded glue `g` being run in thread `t` writes (`result`, the spec's): the pair
/// where ptxas numbers its destination as the h of an earlier destroying pack ([`pair_of_h`]).
pub(super) fn later_duplicate_glue(m: &mut Machine<'_>, t: u32, g: &Glue, result: &Expected) -> Option<Expected> {
    if !matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. })) {
        return None;
    }
    let pair = pair_of_h(m, t, g.dst)?;
    Some(m.fire(Deviation::MergeCInPlaceDestroysLiveHalf, result, pair))
}

/// The pair (in thread `t`) of the latest unguarded destroying pack before the statement being
/// run whose h computes the same expression as `r`, written by that statement: h and the pair
/// unwritten since the pack, no label or branch between.
fn pair_of_h(m: &Machine<'_>, t: u32, r: Reg) -> Option<Expected> {
    if !m.allow.emulates(Deviation::MergeCInPlaceDestroysLiveHalf) || r.class().bits() != 16 {
        return None;
    }
    let j = m.stmt;
    let (k, p, h) = (0..j).rev().find_map(|k| destroying_pack(m, k, false).map(|(_, p, h)| (k, p, h)))?;
    let straight = next_flow(m, k).is_none_or(|(f, _)| f > j);
    let kept = unchanged_between(m, h, k, j) && unchanged_between(m, p, k, j);
    let numbered = r != h && r.class() == h.class() && numbered_as(m, (j + 1, r), (k, h));
    (straight && kept && numbered).then(|| m.read(t, p).ok()).flatten()
}

/// Whether `a.1` read at `a.0` and `b.1` read at `b.0` are one value to ptxas: the same
/// expression ([`same_expression`]), or unguarded glue of one commutative operation and type
/// whose two sources are the same expressions swapped (42bfc506's `d5_glue_dup_swapped`).
fn numbered_as(m: &Machine<'_>, a: (usize, Reg), b: (usize, Reg)) -> bool {
    if same_expression(m, a, b, CSE_DEPTH) {
        return true;
    }
    let (Some((wa, Stmt::Glue { glue: ga, guard: None })), Some((wb, Stmt::Glue { glue: gb, guard: None }))) =
        (last_writer(m, a.0, a.1), last_writer(m, b.0, b.1))
    else {
        return false;
    };
    let commutative =
        matches!(ga.op, GlueOp::Add | GlueOp::MulLo | GlueOp::MulHi | GlueOp::And | GlueOp::Or | GlueOp::Xor);
    let same = |x: &Option<Src>, y: &Option<Src>| match (x, y) {
        (Some(Src::Reg(x)), Some(Src::Reg(y))) => same_expression(m, (wa, *x), (wb, *y), CSE_DEPTH - 1),
        (x, y) => x == y,
    };
    commutative
        && ga.op == gb.op
        && ga.ty == gb.ty
        && same(&ga.src[0], &gb.src[1])
        && same(&ga.src[1], &gb.src[0])
        && ga.src[2..].iter().all(Option::is_none)
        && gb.src[2..].iter().all(Option::is_none)
}
