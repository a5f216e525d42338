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
//! - C (seed 5802's 21acc633, corpus/findings/fuzz-h200-5802/trace/T58G.md, variants in
//!   trace/21acc633/s58/): the cvt and a 32- or 64-bit pack right after it, not in an arm, and a
//!   later arm `@p bra L; …; L:` that rewrites h itself (not the pack): h's own register is written
//!   only in that arm (`F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, R0, R0, R7; @!P0 F2F.FTZ.BF16.F32
//!   R9, R7`; `STG.E.U16 … R9`), so every read of h on the path that skips the arm — before the
//!   branch too (m11) — takes a register nothing wrote: any value. ptxas 13.0.88 and 13.5 -O3
//!   alike. Here the pair of two `.f32` (m1, the case) is wrong like `.f16x2` (m2), e5m2x2 (m6),
//!   `.relu` (m14), an old h (m13), an arm writing h by a `mov` (m10), the pack unread (m8: still
//!   merged, not emulated: the pack's word read later is required); the pack's word keeps the spec's
//!   pair. Right (not emulated): no pack (m3), the arm writing another register (m4), a guarded
//!   statement for the arm (m5), the pair as the pack's high half (m7), `cvt.rn.f16.f32` (m9), no
//!   branch (m12).
//!
//! Left out: the pair of two `.f32` in forms A and B (w3 wrong alike in form A:
//! `F2FP…F32.PACK_AB_MERGE_C`), whose pair the pack would have to recompute from two sources.
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
    if !m.allow.emulates(D) || inst.guard.is_some() || !fp8_pair(&c) {
        return None;
    }
    let h = inst.operands.first().and_then(|o| m.reg_of(o).ok())?;
    match form(m, m.stmt, h, &c)? {
        Form2::A => Some((D, m.read(t, h).ok()?)),
        Form2::B | Form2::C => Some((D, anything(spec.clone()))),
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
    if !fp8_pair(c) {
        return results;
    }
    let Some(f) = form(m, k, h, c) else { return results };
    let Some((_, o)) = m.producer(t, h).filter(|(_, o)| o.stmt == k) else { return results };
    // Form C: h holds the spec's pair as the bits of its set-valued result ([`anything`]), the
    // pair of two `.f32` included.
    let p = match f {
        Form2::C => m.read(t, h).ok().map(|e| Expected::exact(e.bits, 16)),
        _ => o.a.as_ref().filter(|a| a.is_exact()).and_then(|a| convert(m, &pair.form, a.bits)),
    };
    let Some(p) = p else {
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
    /// The cvt and its pack come before an arm that rewrites h itself: h reads a register written
    /// only in that arm (21acc633).
    C,
}

/// Whether `c` is `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f16x2,f32}` (form C's pairs).
fn fp8_pair(c: &Cvt) -> bool {
    matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
        && matches!(c.atype, CvtType::F16x2 | CvtType::F32)
        && c.rnd == Some(CvtRnd::Rn)
        && c.satfinite
}

/// Whether `c` is `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2` (no `.relu`: forms A and B).
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
fn form(m: &Machine<'_>, k: usize, h: Reg, c: &Cvt) -> Option<Form2> {
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
    let in_arm = arm_of(m, k).filter(|&(_, j)| j > k + 1);
    let strict = pair_of_f16x2(c);
    if !strict {
        return (in_arm.is_none() && !inner && arm_rewrites_half(m, k + 1, h)).then_some(Form2::C);
    }
    if let Some((b, j)) = in_arm {
        let written_before = body[..b].iter().any(|s| writes(s, h));
        return (!inner && written_before && read_later(m, j, h)).then_some(Form2::A);
    }
    if form_b(m, k, h, w, bits, inner) {
        return Some(Form2::B);
    }
    (!inner && arm_rewrites_half(m, k + 1, h)).then_some(Form2::C)
}

/// Form B: whether the pack (64 bits, word `w`) is followed, as the next label or branch, by `@p bra
/// L` whose arm rewrites `w`, and `h` is read again after the pack (or, `inner`, the branch tests
/// the pack).
fn form_b(m: &Machine<'_>, k: usize, h: Reg, w: Reg, bits: u32, inner: bool) -> bool {
    let body = &m.p.body;
    let flow = |x: &(usize, &Stmt)| matches!(x.1, Stmt::Label(_) | Stmt::Bra { .. });
    let Some((b, head)) = body.iter().enumerate().skip(k + 2).find(flow) else { return false };
    let Stmt::Bra { guard: Some(guard), label } = head else { return false };
    let Some((j, _)) = body.iter().enumerate().skip(b + 1).find(|(_, s)| **s == Stmt::Label(*label)) else {
        return false;
    };
    let rewritten = body[b + 1..j].iter().any(|s| reads_and_overwrites(s, w).1);
    // 65b4e6cc: the branch tests the pack (v13, v16: a predicate of another value is right).
    let tested = || guard_setp(m, *guard, b).is_some_and(|(i, g)| i > k + 1 && g.src.contains(&Some(Src::Reg(w))));
    let read_again = if inner { tested() } else { read_later(m, k + 1, h) };
    bits == 64 && rewritten && read_again
}

/// Form C (21acc633): whether, after the pack at body index `p`, an arm `@g bra L; …; L:` writes
/// `h`, and some statement after the pack reads `h` on the path that skips that arm (scanning on
/// past a write of `h` inside an open arm, up to an unguarded write of `h` outside every arm).
fn arm_rewrites_half(m: &Machine<'_>, p: usize, h: Reg) -> bool {
    let body = &m.p.body;
    let mut open: Vec<u32> = Vec::new();
    let (mut rewritten, mut read) = (false, false);
    for s in &body[p + 1..] {
        match s {
            Stmt::Bra { guard: Some(_), label } => open.push(*label),
            Stmt::Label(l) => open.retain(|x| x != l),
            _ => {}
        }
        let (reads, overwrites) = reads_and_overwrites(s, h);
        read |= reads;
        if writes(s, h) && !open.is_empty() {
            rewritten = true;
        } else if overwrites {
            break;
        }
    }
    rewritten && read
}

/// Whether the 64-bit pack's elements `elems` name `h` again at element 3 but not at element 1
/// (65b4e6cc's `{h, h1, h, h}`, s57 v4's `{h, h1, h1, h}`; right: v3's `{h, h, h1, h1}`, v12's `{h,
/// h1, h, h1}`, whose high word ptxas takes from the low).
fn in_high_word(m: &Machine<'_>, elems: &[Operand], h: Reg) -> bool {
    let at = |j: usize| elems.get(j).and_then(|o| m.reg_of(o).ok()) == Some(h);
    elems.len() == 4 && at(3) && !at(1)
}
