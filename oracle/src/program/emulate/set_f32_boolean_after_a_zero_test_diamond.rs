//! 3701 C1-N2's trigger widened after seed 4303's trace (corpus/findings/fuzz-h200-4303/
//! trace/T14x4.md, 67fafce8 and its folder; helper z4, session 44): ptxas -O3 (13.0.88 and 13.5)
//! also rebuilds a `set.<cmp>.f32` result from its predicate as the boolean and converts the
//! number (`SEL R7, RZ, 0x3f80, !P0`: bf16 1.0, where §9.7.9.21 converts the word 0x3f800000)
//! where no logic op reads a set, when the program holds an if-converted test against zero
//! that follows another branch ([`zero_test_diamond_after_a_branch`]).
//!
//! Invariants: this only names a trigger; the values stay those of `fuzz3701::cvt` and
//! `set_f32_widened_as_its_boolean::cvt` (the conversion, or widening, of 1 where the set is true, of 0 where
//! false), which consult it.

use super::fuzz3602::{guard_setp, label_at, writes};
use super::origin::reads_and_overwrites;
use super::{imm_of, reg_of_glue};
use crate::isa::operand::{Imm, Operand, Role};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::GlueType;
use crate::program::{Reg, Stmt};

/// Whether the program holds a conditional forward branch `@[!]p bra L` (body index j) whose
/// predicate an unguarded `setp.<cmp>.{b,u,s}{32,64} p, x, 0` (or `0, x`; the 0 an immediate or
/// a register a `mov` of 0 wrote) wrote, where the statements it skips (straight-line: an
/// if/else diamond, x/b_ifelse, is right) write x, x is read after L, and the setp follows the
/// label of an earlier conditional forward branch whose skipped statements are live
/// ([`live_arm`]): the setp is not in the entry block.
///
/// Evidence (ptxas 13.0.88 -O3 variants of 67fafce8's reduced.ptx, trace/67fafce8/ and
/// trace/67fafce8/x/ — the r0 diamond `setp.ne.s32 r0, -1; @p bra; mov.b32 r0, 0` first, then
/// the zero test): wrong with `setp.{ge,gt,ne,eq}.u64`, `{ge,gt,lt}.s64`, `le.u64 0, x`,
/// `ne.s32`, `ge.s32`, `gt.u32` (a second 32-bit diamond), `@!p bra`, the arm's write a
/// `mov.b64 x, K`, `mov.b64 x, y` or `add.s64 x, x, 1`, another written register beside x, the
/// earlier branch a 64-bit diamond (z9, against 5 too), one around a store (z13) or a longer
/// arm, the set and the cvt before, between or after the two branches; also `cvt.u64.s32` (`SEL
/// R6, RZ, 0x1`) and `cvt.rn.f32.u32` (`FSEL R9, RZ, 1`) of the set. Right: the zero test first
/// and the other branch after it (its setp in the entry block, also a setp hoisted above the
/// earlier branch), only one branch, the arm writing another register than x or storing, the
/// earlier branch's arm dead (a_nonstored_arm), a guarded mov or a selp in place of either branch, an if/else
/// diamond, a compare with −1, 1, 5 or the maximum, and a 16-bit test (`setp.ne.u16`).
pub(super) fn zero_test_diamond_after_a_branch(m: &Machine<'_>) -> bool {
    let body = &m.p.body;
    body.iter().enumerate().any(|(j, s)| {
        let Stmt::Bra { guard: Some(g), label } = *s else { return false };
        let Some((k, setp)) = guard_setp(m, g, j) else { return false };
        let wide = matches!(
            setp.ty,
            GlueType::B32 | GlueType::U32 | GlueType::S32 | GlueType::B64 | GlueType::U64 | GlueType::S64
        );
        let zero = |i: usize| imm_of(setp, i) == Some(0) || reg_of_glue(setp, i).is_some_and(|r| moved_zero(m, k, r));
        let x = match (reg_of_glue(setp, 0), reg_of_glue(setp, 1)) {
            (Some(x), _) if zero(1) => x,
            (_, Some(x)) if zero(0) => x,
            _ => return false,
        };
        let Some(l) = label_at(m, label).filter(|&l| l > j) else { return false };
        let straight = !body[j + 1..l].iter().any(|s| matches!(s, Stmt::Bra { .. } | Stmt::Label(_)));
        let arm_writes_x = straight && body[j + 1..l].iter().any(|s| writes(s, x));
        let x_read_after = body[l + 1..].iter().any(|s| reads_and_overwrites(s, x).0);
        let after_a_branch = body[..k].iter().enumerate().any(|(i, b)| {
            matches!(*b, Stmt::Bra { guard: Some(_), label } if label_at(m, label).is_some_and(|e| i < e && e < k && live_arm(m, i, e)))
        });
        wide && arm_writes_x && x_read_after && after_a_branch
    })
}

/// Whether register `r`, read at body index `k`, was last written by an unguarded `mov` of the
/// immediate 0 (x/b_reg0: `mov.b64 d2, 0; setp.ge.u64 p, d1, d2` is wrong too).
fn moved_zero(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    let last = m.p.body[..k].iter().rev().find(|s| writes(s, r));
    matches!(last, Some(Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. }))
        if matches!(operands.get(1), Some(Operand::Imm(Imm::Int(0)))))
}

/// Whether the statements between a branch (body index `bra`) and its label (`label`) are
/// live: one stores, or writes a register a statement after the label reads (x/
/// a_nonstored_arm: an arm writing a register nothing reads is dropped, and the program is
/// right).
fn live_arm(m: &Machine<'_>, bra: usize, label: usize) -> bool {
    let after = &m.p.body[label + 1..];
    m.p.body[bra + 1..label].iter().any(|s| match s {
        Stmt::Isa(i)
            if i.form
                .operands()
                .iter()
                .zip(&i.operands)
                .any(|(spec, o)| spec.role != Role::Src && matches!(o, Operand::Address { .. })) =>
        {
            true
        }
        _ => written(s).into_iter().any(|r| after.iter().any(|t| reads_and_overwrites(t, r).0)),
    })
}

/// The registers statement `s` writes (as [`writes`] counts them).
fn written(s: &Stmt) -> Vec<Reg> {
    let mut out = Vec::new();
    match s {
        Stmt::Glue { glue, .. } => out.push(glue.dst),
        Stmt::Isa(i) => {
            for (spec, o) in i.form.operands().iter().zip(&i.operands) {
                if spec.role != Role::Src && !matches!(o, Operand::Address { .. }) {
                    crate::program::text::operand_regs(o, &mut out);
                }
            }
        }
        Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => {}
    }
    out
}
