//! The emulation of a root cause seed 4103's campaign found (corpus/findings/fuzz-h200-4103/,
//! trace/T9y4.md, `trace/bfed5396/`), called from the ISA hook of `emulate.rs` at a `mov.b32`
//! unpack ([`unpacked`]): bfed5396, the high half of a 0x7fffffff that a one-armed if rewrote to
//! 0x7fffffff read by ptxas 13.0.88 -O3 (and the JIT) as 0xffff.
//!
//! It looks at the statements that wrote the unpacked register (the body branches only forward):
//! the last one is the arm of a forward branch that jumps over it to a label before the unpack,
//! the one before it a move of the immediate 0x7fffffff that reaches the arm on every path.
//!
//! Session 62 (helper mg; seed 6203's 7c4a3f02): the same half of a 64-bit constant's 0x7fffffff word,
//! unpacked into 16-bit elements in the arm of a one-armed if that rewrites the 64-bit register, is
//! packed as 0xffff by a `mov` pack in the arm ([`repacked_in_an_arm_rewriting_its_word`]).
//!
//! Invariants: [`unpacked`] changes a half only when its deviation is emulated, both paths to
//! the join hold 0x7fffffff (the arm's op evaluated on 0x7fffffff through the oracle's own
//! semantics) and every reader of the half is a 16-bit pack; it returns its input otherwise.

pub(super) mod repacked_in_an_arm_rewriting_its_word;

use super::fuzz3602::writes;
use super::fuzz3701::reaches_on_every_path;
use super::origin::reads_and_overwrites;
use super::{convert, reg_of_glue};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::Src;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The one value both paths of the join must hold (the largest `.s32`): every other constant
/// the trace tried is compiled right (0x7fff1234, 0x7ffffffe, 0x7ffeffff, 0x0000ffff, …).
const JOINED: u64 = 0x7FFF_FFFF;

/// The halves of a `mov.b32 {lo, hi}, w` unpack (`results`, the spec's) under bfed5396
/// (corpus/findings/fuzz-h200-4103/, trace/T9y4.md, `trace/bfed5396/reduced.ptx`: `mov.b32 %r1,
/// 0x7fffffff; setp.ne.s32 %p1, %tix, 23; @!%p1 bra $L0; cvt.sat.u32.s32 %r1, %r1; $L0: mov.b32
/// {%h2, %h1}, %r1; mov.b32 %r12, {%h1, %h1}` is `MOV R7, 0xffffffff` on ptxas 13.0.88 -O3, 13.5
/// `PRMT` of 0x7fff, right): hi is 0xffff where §9.7.9.4 gives 0x7fff. Wrong on 13.0.88 -O3 for
/// the arm ops `cvt.sat.u32.s32`, `cvt.sat.s32.u32`, `max.s32 r, r, 0` (and 5), `min.{s32,u32} r,
/// r, 0x7fffffff`, `and.b32 r, r, 0x7fffffff`, `abs.s32`, for `setp.eq` with `@p bra`, and for the
/// repack `{hi, lo}` (0xffffffff for 0xffff7fff). Right (not emulated): any other constant, an
/// arm ptxas drops as a copy (`mov`), no branch or a predicated arm, an if/else diamond (a second
/// write between the move and the arm), a loaded value, r stored whole or shifted
/// (`shr.u32 r, 16`), hi stored alone (`st_h1_only`): so every reader of hi must be a pack.
pub(super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::JoinedMaxS32HighHalfReadAsAllOnes;
    if !m.allow.emulates(d) || mv.shape != MovShape::Unpack(2) {
        return results;
    }
    let Some(w) = inst.operands.get(1).and_then(|o| m.reg_of(o).ok()).filter(|w| w.class().bits() == 32) else {
        return results;
    };
    let value = m.read(t, w).ok().filter(|v| v.is_exact() && v.bits as u64 & 0xFFFF_FFFF == JOINED);
    if value.is_none() || !joined_over_one_armed_if(m, w) {
        return results;
    }
    let Some((hi, spec)) = results.get(1).cloned() else { return results };
    if !read_only_by_packs(m, hi) {
        return results;
    }
    let v = m.fire(d, &spec, Expected::exact(0xFFFF, spec.width));
    results[1] = (hi, v);
    results
}

/// Whether register `w` reaches the statement being run as 0x7fffffff on both paths of a
/// one-armed if: its last write before it (index `k`) is an unguarded op of `w` that is no copy
/// and gives 0x7fffffff of 0x7fffffff ([`arm_keeps_joined`]), a forward branch before `k` jumps
/// to a label between `k` and here, and the write before `k` (with no other write between) is
/// an unguarded `mov` of the immediate 0x7fffffff that reaches `k` on every path.
fn joined_over_one_armed_if(m: &Machine<'_>, w: Reg) -> bool {
    let body = &m.p.body[..m.stmt];
    let Some(k) = body.iter().rposition(|s| writes(s, w)) else { return false };
    let Some(k0) = body[..k].iter().rposition(|s| writes(s, w)) else { return false };
    let moved = matches!(&body[k0], Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
        if mv.shape == MovShape::Copy
            && matches!(operands.get(1), Some(Operand::Imm(Imm::Int(i))) if *i as u64 & 0xFFFF_FFFF == JOINED));
    let label_after = |l: &u32| body[k + 1..].iter().any(|s| matches!(s, Stmt::Label(x) if x == l));
    let skipped = body[k0 + 1..k].iter().any(|s| matches!(s, Stmt::Bra { label, .. } if label_after(label)));
    moved
        && skipped
        && reaches_on_every_path(m, k0, k)
        && !reaches_on_every_path(m, k, m.stmt)
        && arm_keeps_joined(m, &body[k], w)
}

/// Whether statement `s` (the arm) is an unguarded op ptxas evaluates on `w` ([`arm_value`])
/// that gives 0x7fffffff of 0x7fffffff, and not one ptxas drops as a copy ([`dropped_copy`]).
fn arm_keeps_joined(m: &Machine<'_>, s: &Stmt, w: Reg) -> bool {
    arm_value(m, s, w, JOINED) == Some(JOINED) && !dropped_copy(m, s, w)
}

/// Whether the arm `s` is an identity ptxas drops before it folds (compiled right, T9y4.md "an
/// arm ptxas simplifies away": `cvt.u32.s32`, `add r, r, 0`, `max r, r, r`): it gives `w` back
/// for every probe and is a `cvt` or glue with no immediate but 0 or all ones. An identity by a
/// larger immediate is evaluated, not dropped: `min.s32 r, r, 0x7fffffff` is wrong.
fn dropped_copy(m: &Machine<'_>, s: &Stmt, w: Reg) -> bool {
    let identity = IDENTITY_PROBES.iter().all(|&x| arm_value(m, s, w, x) == Some(x));
    let trivial = match s {
        Stmt::Glue { glue, .. } => glue
            .src
            .iter()
            .take(glue.op.arity())
            .all(|src| !matches!(src, Some(Src::Imm(i)) if *i != 0 && *i & 0xFFFF_FFFF != 0xFFFF_FFFF)),
        _ => true,
    };
    identity && trivial
}

/// Values an identity op gives back unchanged and the evidenced arms do not all keep.
const IDENTITY_PROBES: [u64; 3] = [0x8000_0000, 0xFFFF_FFFF, 0x1234_5678];

/// The low 32 bits statement `s` writes to `w` when `w` holds `x`, where `s` is an unguarded op
/// whose sources are `w` (one at least) or immediates (glue through
/// [`Glue::eval`](crate::program::glue::Glue), no carry) or a `cvt` of `w` (the oracle's own
/// conversion); `None` for any other statement.
fn arm_value(m: &Machine<'_>, s: &Stmt, w: Reg, x: u64) -> Option<u64> {
    let v = match s {
        Stmt::Glue { glue, guard: None } if !glue.op.reads_carry() && glue.dst == w => {
            let mut srcs = [0u64; 4];
            for (k, src) in glue.src.iter().take(glue.op.arity()).enumerate() {
                srcs[k] = match src {
                    Some(Src::Reg(r)) if *r == w => x,
                    Some(Src::Imm(i)) => *i,
                    _ => return None,
                };
            }
            (0..glue.op.arity()).any(|k| reg_of_glue(glue, k) == Some(w)).then(|| glue.eval(srcs, false))?
        }
        Stmt::Isa(i @ Instruction { form: Form::Cvt(_), guard: None, .. })
            if i.operands.iter().take(2).map(|o| m.reg_of(o).ok()).all(|r| r == Some(w)) =>
        {
            convert(m, &i.form, u128::from(x)).filter(Expected::is_exact).map(|e| e.bits as u64)?
        }
        _ => return None,
    };
    Some(v & 0xFFFF_FFFF)
}

/// Whether every statement that reads `h` after the one being run (until an unguarded
/// overwrite) is a `mov` pack (`mov.b32 d, {…}`), and one does.
fn read_only_by_packs(m: &Machine<'_>, h: Reg) -> bool {
    let mut packs = 0;
    for s in &m.p.body[m.stmt + 1..] {
        let (reads, overwrites) = reads_and_overwrites(s, h);
        if reads {
            match s {
                Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) if matches!(mv.shape, MovShape::Pack(_)) => {
                    packs += 1
                }
                _ => return false,
            }
        }
        if overwrites {
            break;
        }
    }
    packs > 0
}
