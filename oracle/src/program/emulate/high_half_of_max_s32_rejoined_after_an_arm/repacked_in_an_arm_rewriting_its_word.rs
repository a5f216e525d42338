//! bfed5396's wrong half (the 0x7fff high half of a 0x7fffffff word read by ptxas 13.0.88 -O3 and the
//! JIT as 0xffff when a pack reads it across a one-armed if) where the word is one of a 64-bit constant
//! unpacked into 16-bit elements in the arm, and the arm rewrites that 64-bit register (seed 6203's
//! 7c4a3f02, helper mg, session 62; trace corpus/findings/fuzz-h200-6202/trace/T62G.md, variants in
//! corpus/findings/fuzz-h200-6203/trace/7c4a3f02/s62/ with 13.0.88 and 13.5 -O3 listings). Called from the `mov` hooks
//! ([`super::super::movement_hooks`]) at every `mov` pack.
//!
//! The case: `mov.s64 d1, 0x7ffffffffffffffe; setp.gt.s64 p0, d0, 0; @p0 bra L0; mov.b64 {_, h3, h4,
//! h0}, d1; mov.b64 d1, {h3, h3, h4, h0}; L0: mov.b64 {r7, r8}, d1; st r8` is 13.0.88 -O3 `@!P0 MOV R9,
//! 0xffffffff` (h0 = 0x7fff, §9.7.9.4, packed as 0xffff; 13.5 right, -O0 right). Wrong alike: h0
//! splat into all four elements (v04), the low word 0x7fffffff (v11, v26), both words (v16), a
//! `tid`-tested branch (v20), an element of the pack loaded (v18: `PRMT R0, R0, 0x5410, R6` with R6 =
//! 0xffff), another statement between (v25), a 32-bit pack of h0 after or before the rewrite (v22,
//! v24), the arm's rewrite of d1 by a `mov` of an immediate or an `add` with a 32-bit pack of h0 (v29,
//! v30), h0 also stored alone (v23: the pack wrong, the store right). Right: no branch (v03), the
//! unpack before the branch (v05), the pack after the join (v06, v17), a predicated arm (v07), a
//! 32-bit pack and no rewrite of d1 (v08, v10), another constant (v12, 0x7ffeffff), a loaded d1
//! (v13), an if/else diamond (v14), h0 stored alone (v15), the pack into another register with no
//! rewrite (v19), the low half of a 0x7fffffff word (v27, 0xffff7fff). Seen wrong, not emulated: the
//! word unpacked by `mov.b64 {r1, r2}` and `mov.b32 {h4, h0}, r2` (v31).
//!
//! Invariants: changes only a `mov` pack's 16-bit elements, only to 0xffff, only where the element's
//! register was last written by an unguarded `mov.b64` four-way unpack in the arm of a forward branch
//! (no other branch or label in it) of a 64-bit register last written before the branch by an
//! unguarded `mov` of an immediate whose word there is 0x7fffffff, the element the word's high half,
//! and the arm writes that register again (unguarded) after the unpack; otherwise `results` come back
//! as given.

use super::super::fuzz3602::writes;
use super::super::fuzz3701::{last_writer, reaches_on_every_path};
use super::JOINED;
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The destinations of the `mov` pack `inst` (`mv`, results `results`: the spec's) with each element
/// the module docs name packed as 0xffff.
pub(in crate::program::emulate) fn packed(
    m: &mut Machine<'_>,
    _t: u32,
    mv: &Mov,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::JoinedMaxS32HighHalfReadAsAllOnes;
    let [(dst, spec)] = results.as_slice() else { return results };
    let n = match (mv.shape, dst.class().bits()) {
        (MovShape::Pack(2), 32) => 2,
        (MovShape::Pack(4), 64) => 4,
        _ => return results,
    };
    if !m.allow.emulates(d) {
        return results;
    }
    let Some(Operand::Vector(items)) = inst.operands.get(1) else { return results };
    let (dst, from) = (*dst, spec.clone());
    let mut to = from.clone();
    for (k, o) in items.iter().enumerate().take(n) {
        let Ok(h) = m.reg_of(o) else { continue };
        if h.class().bits() == 16 && high_half_of_a_rewritten_max_s32_word(m, h) {
            to.replace(16 * k as u32, Expected::exact(0xFFFF, 16));
        }
    }
    vec![(dst, m.fire(d, &from, to))]
}

/// Whether the 16-bit register `h`, read by the statement being run, is the module docs' element:
/// the high half of a 0x7fffffff word of a moved 64-bit immediate, unpacked in a one-armed if's arm
/// that rewrites the 64-bit register, the statement being run inside that arm.
fn high_half_of_a_rewritten_max_s32_word(m: &Machine<'_>, h: Reg) -> bool {
    let Some((u, Stmt::Isa(Instruction { form: Form::Mov(un), operands, guard: None, .. }))) =
        last_writer(m, m.stmt, h)
    else {
        return false;
    };
    if un.shape != MovShape::Unpack(4) {
        return false;
    }
    let (Some(Operand::Vector(elements)), Some(src)) = (operands.first(), operands.get(1)) else { return false };
    let Some(w) = m.reg_of(src).ok().filter(|w| w.class().bits() == 64) else { return false };
    let Some(j) = elements.iter().position(|e| m.reg_of(e).ok() == Some(h)).filter(|j| j % 2 == 1) else {
        return false;
    };
    let Some((k0, moved)) = last_writer(m, u, w) else { return false };
    let word_is_joined = matches!(moved, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
        if mv.shape == MovShape::Copy
            && matches!(operands.get(1), Some(Operand::Imm(Imm::Int(c))) if (*c as u64 >> (32 * (j / 2))) & 0xFFFF_FFFF == JOINED));
    word_is_joined && reaches_on_every_path(m, k0, u) && in_a_rewriting_arm(m, k0, u, w)
}

/// Whether body indices `u` (the unpack) and the statement being run lie in the arm of a forward
/// branch after `k0` (the move) — a guarded `bra` whose label comes after the statement being run,
/// with no other branch or label from the branch to its label — and an unguarded statement after `u`
/// in that arm writes `w` again.
fn in_a_rewriting_arm(m: &Machine<'_>, k0: usize, u: usize, w: Reg) -> bool {
    let body = &m.p.body;
    let Some((b, label)) = body[k0 + 1..u].iter().enumerate().rev().find_map(|(i, s)| match s {
        Stmt::Bra { guard: Some(_), label } => Some((k0 + 1 + i, *label)),
        _ => None,
    }) else {
        return false;
    };
    let Some(l) = body.iter().position(|s| matches!(s, Stmt::Label(x) if *x == label)) else { return false };
    // A backward label (a loop's) is no forward branch's arm.
    if !(b < u && u < m.stmt && m.stmt < l) {
        return false;
    }
    let straight = !body[b + 1..l].iter().any(|s| matches!(s, Stmt::Bra { .. } | Stmt::Label(_)));
    let unguarded = |s: &Stmt| match s {
        Stmt::Glue { guard, .. } => guard.is_none(),
        Stmt::Isa(i) => i.guard.is_none(),
        _ => false,
    };
    let rewritten = body[u + 1..l].iter().any(|s| writes(s, w) && unguarded(s));
    straight && rewritten
}
