//! 59da91ec: an fp8 pair packed as the low half of a word, around a branch, is built only in the
//! pack's word (ptxas 13.0.88 -O3 and the JIT; 13.5 right): the pair's own 16-bit register never
//! receives it. Called from the ISA hook of `emulate.rs` at the pair's `cvt` ([`cvt`]: the half
//! keeps what its register held) and at the pack right after it ([`packed`]: the pack still gets
//! the pair).
//!
//! Mechanism (corpus/findings/fuzz-h200-4802/, 59da91ec, trace/T19v3.md, variants in
//! trace/59da91ec/ and its s51/; corpus/findings/fuzz-h200-5001/, b1ed167e, trace/T21a.md, variants
//! in trace/b1ed167e/s50/ and x1–x3 in 59da91ec/s51/; 13.0.88 and 13.5 -O3 listings):
//! `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2 h, r` (§9.7.9.21) followed by `mov.b32 w, {h, x}` or
//! `mov.b64 w, {h, …}` (§9.7.9.10) is lowered as one `F2FP.SATFINITE.*.UNPACK_B_MERGE_C` into w's
//! register; h's register is never written with the pair. Two forms:
//! - A (59da91ec): the cvt and the pack are the arm of `@p bra L; cvt; pack; L:`, h held a value
//!   before the cvt and is read after the join (the case: `mov.b16 h0, 2337`; `STG.E.U16 R0` of the
//!   hoisted `0x921`). Every read of h after the cvt but the pack takes h's old value, in the arm
//!   too (s51 w1). Wrong alike: a loaded old h (v4), a loaded pair source (w8), e5m2x2 (v6), the
//!   pack `mov.b64 {h, h1, h1, h1}` (w4), a guard that can fail (w9). Right (not emulated): no
//!   pack (v1), `cvt.rn.f16.f32` (v3), guarded statements (v7), no branch (v8), the pair as the
//!   pack's high half (v9), the pack unread (w2: the pair written to h's register), h never written
//!   before the cvt (w5: `PRMT R0, R6` copies the pair).
//! - B (b1ed167e): the cvt and a `mov.b64 d, {h, …}` pack before `@p bra L; …; L:` whose arm
//!   rewrites d (`mov.b64 d, 0`): every later read of h but the pack takes a register nothing
//!   wrote (`PRMT R0, R0, 0x5410, R0`; 0 at launch) — set-valued, any value — whether or not h
//!   held a value before (x1), before the branch too (x3). Right (not emulated): the arm writing
//!   another register (x2), no branch (s50 v1), a guarded move for the arm (v4), the pair as the
//!   pack's second half (v3), a `mov.b32` pack with a loaded predicate (w7). A read equal to the
//!   pack's word (`{h4, h3}` with h3 0, s50 v2) is CSE'd to it: right, and inside the set.
//!
//! - B inside the pack (seed 5703's 65b4e6cc, corpus/findings/fuzz-h200-5703/trace/T57F.md, variants in
//!   trace/65b4e6cc/s57/): h read again by the 64-bit pack itself, in its high word at element 3
//!   (`mov.b64 d, {h, h1, h, h}`, `{h, h1, h1, h}`), the pack tested by the `setp` of that branch:
//!   the high word's h is `PRMT R0, R0, 0x5410, R0` of the never-written R0 (0 at launch: the GPU's
//!   0x00009880 where the spec gives 0x98800000), the low word the pair. Wrong alike: e4m3x2 (v2), a
//!   guard that can fail (v15). Right (not emulated): h at element 1 too (v3 `{h, h, h1, h1}`, v11),
//!   `{h, h1, h, h1}` (v12: the high word CSE'd to the low), a predicate not of the pack (v13 tid,
//!   v16 a loaded word), no branch (v1), a guarded move (v6). Left out: wrong in 13.5 too with a loaded
//!   h1 (v7), a 32-bit pack (v10), the arm rewriting a copy of the pack (v5).
//!
//! Left out: the pair of two `.f32` (w3 wrong alike in form A: `F2FP…F32.PACK_AB_MERGE_C`), whose
//! pair the pack would have to recompute from two sources.
//!
//! - A through a copy (seed 5801's 55941181, `copied_in_its_arm.rs`): the arm's pair (`.f32` or
//!   `.f16x2`) packed as the low half of any word read later, and a copy or unpack of h made in the
//!   arm into a register that held a value before the branch: that register keeps it.
//!
//! Invariants: only when the deviation is emulated; the cvt's destination changes (to its old
//! value, or any value) and the pack right after it gets the spec's pair in its low half, so the
//! pack's word is the spec's.

mod copied_in_its_arm;

pub(super) use copied_in_its_arm::copied;

use super::arm_sat_f64_low_word_clamped_by_zero_test::arm_of;
use super::fuzz3602::{guard_setp, writes};
use super::origin::{read_later, reads_and_overwrites};
use super::{anything, convert};
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::Src;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::Fp8PairBuiltOnlyInItsPack;

/// The value of the pair's destination at the pair `cvt` being run (`spec`, the spec's pair):
/// h's old value (form A) or any value (form B), where the deviation applies; `None` elsewhere.
pub(super) fn cvt(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    spec: &Expected,
) -> Option<(Deviation, Expected)> {
    if !m.allow.emulates(D) || inst.guard.is_some() || !pair_of_f16x2(&c) {
        return None;
    }
    let h = inst.operands.first().and_then(|o| m.reg_of(o).ok())?;
    match form(m, m.stmt, h)? {
        Form2::A => Some((D, m.read(t, h).ok()?)),
        Form2::B => Some((D, anything(spec.clone()))),
    }
}

/// The pack right after a pair `cvt` this deviation changed (`results`, its word read from the
/// changed half): the word with the spec's pair in its low half, its other fields as read (any
/// value where they name h again, 65b4e6cc's high word).
pub(super) fn packed(m: &Machine<'_>, t: u32, mv: &Mov, mut results: Vec<(Reg, Expected)>) -> Vec<(Reg, Expected)> {
    if !m.allow.emulates(D) || !matches!(mv.shape, MovShape::Pack(_)) || m.stmt == 0 {
        return results;
    }
    let k = m.stmt - 1;
    let Stmt::Isa(pair @ Instruction { form: Form::Cvt(c), guard: None, .. }) = &m.p.body[k] else {
        return results;
    };
    let Some(h) = pair.operands.first().and_then(|o| m.reg_of(o).ok()) else { return results };
    if !pair_of_f16x2(c) || form(m, k, h).is_none() {
        return results;
    }
    let Some((_, o)) = m.producer(t, h).filter(|(_, o)| o.stmt == k) else { return results };
    let Some(p) = o.a.as_ref().filter(|a| a.is_exact()).and_then(|a| convert(m, &pair.form, a.bits)) else {
        return results;
    };
    let Some((w, mut word)) = results.first().cloned() else { return results };
    if !p.is_exact() {
        return results;
    }
    word.replace(0, Expected::exact(p.bits & 0xFFFF, 16));
    results[0] = (w, word);
    results
}

/// The two forms the variants show wrong.
enum Form2 {
    /// The cvt and its pack are an arm: h keeps its old value.
    A,
    /// The cvt and its 64-bit pack come before an arm that rewrites the pack: h reads an unwritten
    /// register.
    B,
}

/// Whether `c` is `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2` (no `.relu`).
fn pair_of_f16x2(c: &Cvt) -> bool {
    matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
        && c.atype == CvtType::F16x2
        && c.rnd == Some(CvtRnd::Rn)
        && c.satfinite
        && !c.relu
}

/// The form the pair `cvt` at body index `k` writing `h` is in, if any (module docs): the next
/// statement an unguarded `mov` pack with `h` its first element and no other, whose word is read
/// later; then form A (both in one arm, `h` written before `k` and read after the join) or form B
/// (a 64-bit pack, the next label or branch after it `@p bra L` whose arm writes the pack's word,
/// `h` read again after the pack). Or form B with `h` also the pack's element 3, not element 1
/// ([`in_high_word`], 65b4e6cc), the branch's predicate a `setp` of the pack's word.
fn form(m: &Machine<'_>, k: usize, h: Reg) -> Option<Form2> {
    let body = &m.p.body;
    let (w, bits, inner) = match body.get(k + 1)? {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
            if matches!(mv.shape, MovShape::Pack(_)) =>
        {
            let Some(Operand::Vector(elems)) = operands.get(1) else { return None };
            let first = elems.first().and_then(|o| m.reg_of(o).ok()) == Some(h);
            let others = elems.iter().skip(1).all(|o| m.reg_of(o).ok() != Some(h));
            let inner = !others && in_high_word(m, elems, h);
            let w = operands.first().and_then(|o| m.reg_of(o).ok())?;
            (first && (others || inner)).then_some((w, w.class().bits(), inner))?
        }
        _ => return None,
    };
    if !read_later(m, k + 1, w) {
        return None;
    }
    if let Some((b, j)) = arm_of(m, k).filter(|&(_, j)| j > k + 1) {
        let written_before = body[..b].iter().any(|s| writes(s, h));
        return (!inner && written_before && read_later(m, j, h)).then_some(Form2::A);
    }
    let flow = |x: &(usize, &Stmt)| matches!(x.1, Stmt::Label(_) | Stmt::Bra { .. });
    let (b, head) = body.iter().enumerate().skip(k + 2).find(flow)?;
    let Stmt::Bra { guard: Some(guard), label } = head else { return None };
    let (j, _) = body.iter().enumerate().skip(b + 1).find(|(_, s)| **s == Stmt::Label(*label))?;
    let rewritten = body[b + 1..j].iter().any(|s| reads_and_overwrites(s, w).1);
    // 65b4e6cc: the branch tests the pack (v13, v16: a predicate of another value is right).
    let tested = || guard_setp(m, *guard, b).is_some_and(|(i, g)| i > k + 1 && g.src.contains(&Some(Src::Reg(w))));
    let read_again = if inner { tested() } else { read_later(m, k + 1, h) };
    (bits == 64 && rewritten && read_again).then_some(Form2::B)
}

/// Whether the 64-bit pack's elements `elems` name `h` again at element 3 but not at element 1
/// (65b4e6cc's `{h, h1, h, h}`, s57 v4's `{h, h1, h1, h}`; right: v3's `{h, h, h1, h1}`, v12's `{h,
/// h1, h, h1}`, whose high word ptxas takes from the low).
fn in_high_word(m: &Machine<'_>, elems: &[Operand], h: Reg) -> bool {
    let at = |j: usize| elems.get(j).and_then(|o| m.reg_of(o).ok()) == Some(h);
    elems.len() == 4 && at(3) && !at(1)
}
