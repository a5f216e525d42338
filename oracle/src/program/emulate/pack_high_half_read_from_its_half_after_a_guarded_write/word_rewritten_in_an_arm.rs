//! 63f83d6e's mechanism seen from the other side (seed 6001's 3e520b16, helper jb, session 60;
//! `corpus/known/fuzz-h200-5402-63f83d6e-pack-high-half-read-from-its-half-after-a-guarded-write.toml`,
//! corpus/findings/fuzz-h200-6001/trace/T60B.md, variants in trace/3e520b16/s60/), called from
//! the `mov` hook of `emulate.rs` ([`super::super::isa`]) at a `mov.b32`/`mov.b64` unpack ([`unpacked`]).
//!
//! ptxas 13.0.88 and 13.5 -O3 (and the JIT) build a pack `mov.b64 d, {…, p, h, …}` (or `mov.b32
//! w, {p, h}`) of an fp8 pair p as `F2FP.SATFINITE.*.MERGE_C Rw, …, Rh` into another register,
//! keeping h in its own register, and take the element at h's position of a later unpack of the
//! word (after the join of a branch arm that rewrote the word) as h's register: the arm's write of
//! the word is if-converted into a write predicated in place in h's register (`@!P0 PRMT R6, RZ,
//! 0x7610, R6`), so a later read of h after the unpack takes that element's value (`LOP3.LUT R7,
//! R6, R6`: h10 ^ h0 = 0 where §9.7.9.4 leaves h0 untouched, 0x0c). 63f83d6e is the same
//! identification with the arm writing h (the element reads h's new value).
//!
//! Evidence (13.0.88 = 13.5 -O3 listings in trace/3e520b16/ and its s60/): wrong — the case (`mov.b64
//! d0, {0, 0, pair, h0}`, h0 an `ld.global.u8`, `setp.ge.s64` of d0, the arm `mov.b64 d0, 0`, `mov.b64
//! {h7, h8, h9, h10}, d0; xor.b16 h14, h10, h0`), v3 (e5m2x2), v4 (`ld.u16` h), v6 (`mov.b32` pack and
//! unpack), v7 (a predicate not of the word, the word stored whole), v10 (h10 and h0 stored), v11 (the
//! pair at element 0), v13 (`@!p bra`), v15 (h an `xor.b16`), v17 (a non-zero immediate: h takes its
//! element 0x1234), v19 (an `.f16x2` pair). Right — no pair (v1, v2: the element a copy), the word read
//! only by the unpack (v5), the arm a load (v8: h restored), h before the pair (v12), `selp` without a
//! branch (v14), the element at h's position unread (v18). Left out: the word unpacked through
//! `mov.b64 {r1, r2}` then `mov.b32` (v20, wrong), the arm `add.s64` (v9: another mechanism, h read
//! from the stack pointer).
//!
//! Scope (exactly the wrong forms): the statement run is an unguarded `mov.b32 {…}, w` or `mov.b64
//! {…}, d` into halves whose source was last written by an unguarded `mov` of an immediate in the
//! straight arm of one guarded forward branch `@p bra L; …; L:` (the label at or before the unpack),
//! and before the branch by an unguarded pack of halves of the same width with an fp8 pair p
//! (unguarded `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2}`, no `.relu`) at an even element e and a
//! half h ≠ p at e + 1 (h written by anything but a `mov` of an immediate); h unwritten from the pack
//! to the unpack and no element of the unpack; the word read whole after the pack by a live statement
//! other than a `mov`; the unpack's element e + 1 a register read after it; h read after it.
//!
//! Invariants: changes only h, to the value the unpack gives its element e + 1 (the arm's element
//! where the thread ran the arm; h itself elsewhere, where nothing changes and nothing fires), only
//! when the deviation is emulated and the scope holds; it returns its input otherwise.

use super::super::arm_sat_f64_low_word_clamped_by_zero_test::arm_of;
use super::super::fuzz3602::unchanged_between;
use super::super::fuzz3701::last_writer;
use super::super::origin::read_later;
use super::{pair_before, read_whole_live};
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, Mov, MovShape, MovType};
use crate::program::exec::Machine;
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::PackHighHalfReadFromItsHalfAfterAGuardedWrite;

/// The unpack `inst` (`mv`) being run in thread `t` (`results`, the spec's elements): h, the half
/// packed beside the pair, takes the element at its position where the module's scope holds.
pub(in super::super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let n = match (mv.shape, mv.ty) {
        (MovShape::Unpack(2), MovType::B32) => 2,
        (MovShape::Unpack(4), MovType::B64) => 4,
        _ => return results,
    };
    if !m.allow.emulates(D) || inst.guard.is_some() {
        return results;
    }
    let (Some(Operand::Vector(parts)), Some(src)) = (inst.operands.first(), inst.operands.get(1)) else {
        return results;
    };
    let Ok(w) = m.reg_of(src) else { return results };
    let parts: Vec<Option<Reg>> = parts.iter().map(|o| m.reg_of(o).ok()).collect();
    if parts.len() != n || w.class().bits() != 16 * n as u32 {
        return results;
    }
    let Some((e, h)) = half_beside_pair_under_a_word_arm(m, w, &parts) else { return results };
    let Some(x) = parts[e + 1] else { return results };
    let Some(v) = results.iter().find(|(r, _)| *r == x).map(|(_, v)| v.clone()) else { return results };
    let Ok(old) = m.read(t, h) else { return results };
    if !v.is_exact() {
        return results;
    }
    let to = m.fire(D, &old, v);
    results.push((h, to));
    results
}

/// The pair's element e and h, where the unpack being run (of `w` into `parts`) fits the module's
/// scope.
fn half_beside_pair_under_a_word_arm(m: &Machine<'_>, w: Reg, parts: &[Option<Reg>]) -> Option<(usize, Reg)> {
    let k = m.stmt;
    // The arm's write of the word: an unguarded `mov` of an immediate in a straight arm.
    let (a, arm_write) = last_writer(m, k, w)?;
    let immediate = matches!(arm_write, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
        if mv.shape == MovShape::Copy && matches!(operands.get(1), Some(Operand::Imm(_))));
    let (b, label) = arm_of(m, a)?;
    if !immediate || label > k {
        return None;
    }
    // The pack before the branch.
    let (pack, pack_stmt) = last_writer(m, a, w)?;
    let Stmt::Isa(Instruction { form: Form::Mov(pm), operands, guard: None, .. }) = pack_stmt else { return None };
    if pm.shape != MovShape::Pack(parts.len() as u8) || pack >= b {
        return None;
    }
    let Some(Operand::Vector(items)) = operands.get(1) else { return None };
    let items: Vec<Option<Reg>> = items.iter().map(|o| m.reg_of(o).ok()).collect();
    if !read_whole_live(m, pack, w) {
        return None;
    }
    (0..items.len().saturating_sub(1)).step_by(2).find_map(|e| {
        let (p, h) = (items[e]?, items[e + 1]?);
        let x = parts.get(e + 1).copied().flatten()?;
        let sixteen = p.class() == RegClass::B16 && h.class() == RegClass::B16;
        let fits = sixteen
            && p != h
            && x != h
            && !parts.contains(&Some(h))
            && pair_before(m, pack, p)
            && written_not_as_immediate(m, pack, h)
            && unchanged_between(m, h, pack, k)
            && read_later(m, k, x)
            && read_later(m, k, h);
        fits.then_some((e, h))
    })
}

/// Whether `h`, read at body index `pack`, has a writer before it that is no `mov` of an immediate
/// (a constant h is no register ptxas keeps: no listing shows one).
fn written_not_as_immediate(m: &Machine<'_>, pack: usize, h: Reg) -> bool {
    match last_writer(m, pack, h) {
        Some((_, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }))) => {
            !(mv.shape == MovShape::Copy && matches!(operands.get(1), Some(Operand::Imm(_))))
        }
        Some(_) => true,
        None => false,
    }
}
