//! 3702-N3 (`join-of-minus-one-and-one-f32-merged`) widened after seed 4202's trace (helper
//! u2, session 44; corpus/findings/fuzz-h200-4202/trace/T12b4.md, 2b94552e, and the variants
//! and 13.0.88 -O3 listings of `trace/2b94552e/s44/`): the old value before the one-armed `if`
//! may be a `shfl.sync` of a constant ([`shuffled_constant`]), which ptxas folds (every lane
//! holds the same value, §9.7.9.6), when the arm's write is a compare of a value from memory
//! with itself ([`self_compare_of_loaded`]). The caller is `fuzz3702.rs`'s `merged_at_join`.
//!
//! Invariants: both are conditions on the program's statements; neither changes a value by
//! itself.

use super::fuzz3701::last_writer;
use super::fuzz3701::{folded_constant, reaches_on_every_path};
use super::mul_step_unread_shfl_predicate_folded_zero::predicate_destination_unread;
use super::reg_of_glue;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, Src};
use crate::program::{Reg, Stmt};

/// How many copies or shuffles deep [`shuffled_constant`] and [`self_compare_of_loaded`] look.
const DEPTH: u32 = 3;

/// Whether register `r` holds before body index `before` a `shfl.sync` (any mode) of a constant
/// ptxas folds, or an unguarded `mov` copy of one; its write reaching `before` on every path.
/// The shuffle: unguarded, its predicate destination absent or read by nothing, its `a` and
/// `membermask` an immediate or a constant ptxas folds ([`folded_constant`], or such a shuffle),
/// its `b` and `c` anything. 13.0.88 -O3 (`trace/2b94552e/s44/`) stores the old 1.0f alone for
/// `.idx` (the stored case, `s03` without `|p`), `.bfly` (`var/v14`), `.up` (`s01`), `.down`
/// (`s02`), a lane from %tid.x or a loaded lane and clamp (`s05`, `s06`), a moved membermask or
/// 0xffff (`s18`, `s14`), `a` an immediate, a copy, a `cvt` of a moved 1, a shuffle (`s08`,
/// `s09`, `s13`, `s10`), a copy of the shuffle (`s19`). Right (`SHFL` kept): the predicate
/// destination read (`s04`), a loaded or %tid.x membermask (`s07`, `s20`), a loaded `a`
/// (`var/v13`).
pub(super) fn shuffled_constant(m: &Machine<'_>, before: usize, r: Reg, depth: u32) -> bool {
    let Some((k, s)) = last_writer(m, before, r) else { return false };
    if !reaches_on_every_path(m, k, before) {
        return false;
    }
    let Stmt::Isa(inst) = s else { return false };
    match inst {
        Instruction { form: Form::Mov(mv), operands, guard: None, .. } if mv.shape == MovShape::Copy => {
            depth > 0
                && operands.get(1).is_some_and(|o| m.reg_of(o).is_ok_and(|x| shuffled_constant(m, k, x, depth - 1)))
        }
        Instruction { form: Form::ShflSync(sh), guard: None, .. } => {
            let known = |name: &str| match named_operand(inst, name) {
                Some(Operand::Imm(_)) => true,
                Some(o) => m.reg_of(o).is_ok_and(|x| {
                    folded_constant(m, k, x, DEPTH) || (depth > 0 && shuffled_constant(m, k, x, depth - 1))
                }),
                None => false,
            };
            (!sh.pred_dst || predicate_destination_unread(m, inst)) && known("a") && known("membermask")
        }
        _ => false,
    }
}

/// Operand `name` of `inst` (as its form names them, §9.7.9.6 for `shfl.sync`).
fn named_operand<'i>(inst: &'i Instruction, name: &str) -> Option<&'i Operand> {
    inst.form.operands().iter().zip(&inst.operands).find(|(spec, _)| spec.name == name).map(|(_, o)| o)
}

/// Whether statement `s` at body index `k` (the arm's write) is an unguarded `set` of a register
/// with itself, or a `selp` of two constants (immediates or [`folded_constant`]s) by a `setp` of
/// one, the register a load's result or glue of one (at most [`DEPTH`] deep). With a shuffled
/// old value 13.0.88 -O3 drops such an arm (the stored `set.le.s32.s32 r8, r8` of a load in the
/// arm, `s28` `set.ge.u32.u32`, `s12c` `set.le.f32.s32` under an old shuffled −1, `s24`/`s24b`
/// `setp.le; selp -1, 0`, `s29` the load before the branch, `s30` an `add` of the load; §9.7.7.1
/// and §9.7.7.2: an integer x compared with itself is known), and keeps every other arm it folds
/// (`@!P0 MOV`):
/// a move of −1 or 1.0f, a copy of one, a `cvt` of a moved 1, a `set` of moved constants, a
/// compare with itself of a moved value, of %tid.x or of an `add` of it (`s21`, `s12`, `s23`,
/// `s26`, `s25`, `s22`, `s32`, `s27`, `s31`).
pub(super) fn self_compare_of_loaded(m: &Machine<'_>, k: usize, s: &Stmt) -> bool {
    let Stmt::Glue { glue, guard: None } = s else { return false };
    match glue.op {
        GlueOp::Set(..) => self_compared(m, k, glue.src[0], glue.src[1]),
        GlueOp::Selp => {
            let constant = |i: usize| match glue.src.get(i) {
                Some(Some(Src::Imm(_))) => true,
                Some(Some(Src::Reg(r))) => folded_constant(m, k, *r, DEPTH),
                _ => false,
            };
            let Some(p) = reg_of_glue(glue, 2) else { return false };
            let by_self_setp = last_writer(m, k, p).is_some_and(|(j, w)| {
                matches!(w, Stmt::Glue { glue: g, guard: None }
                    if matches!(g.op, GlueOp::Setp(_)) && self_compared(m, j, g.src[0], g.src[1]))
            });
            constant(0) && constant(1) && by_self_setp
        }
        _ => false,
    }
}

/// Whether a compare at body index `k` of sources `a` and `b` compares one loaded register with
/// itself.
fn self_compared(m: &Machine<'_>, k: usize, a: Option<Src>, b: Option<Src>) -> bool {
    matches!((a, b), (Some(Src::Reg(x)), Some(Src::Reg(y))) if x == y && from_load(m, k, x, DEPTH))
}

/// Whether register `r` holds before body index `before` a value a load wrote, or unguarded glue
/// with a source that holds one (at most `depth` deep).
fn from_load(m: &Machine<'_>, before: usize, r: Reg, depth: u32) -> bool {
    match last_writer(m, before, r) {
        Some((_, Stmt::Isa(Instruction { form: Form::Ld(_), .. }))) => true,
        Some((j, Stmt::Glue { glue, guard: None })) => {
            depth > 0
                && glue
                    .src
                    .iter()
                    .take(glue.op.arity())
                    .any(|x| matches!(x, Some(Src::Reg(y)) if from_load(m, j, *y, depth - 1)))
        }
        _ => false,
    }
}
