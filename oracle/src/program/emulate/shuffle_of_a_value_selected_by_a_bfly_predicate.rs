//! 3702-N7 (corpus/known/fuzz-h200-3702-n7-branch-on-bfly-predicate-taken-as-uniform.toml) at a
//! later shuffle, its one consequence that has words (session 47): ptxas 13.0.88 and 13.5 -O3
//! and the JIT take the predicate `p` of `shfl.sync.bfly d|p, a, b, c` of a constant `a` as
//! warp-uniform. N7's own case branches on `p` (no BSSY/WARPSYNC; words that depend on the
//! schedule, not emulated). Here a value chosen by `p` among constants is then taken as uniform
//! too, and a `shfl.sync` of it is dropped: each lane keeps its own value, where §9.7.9.6 moves
//! the source lane's (`pval = j ≤ maxLane` differs between lanes whenever `c[4:0]` ≠ 0).
//!
//! Evidence: seed 4601's 746b5bde (corpus/findings/fuzz-h200-4601/trace/T17t1.md, trace/746b5bde/;
//! `SHFL.BFLY P0, RZ, RZ, R4, 0x1; SEL R0, RZ, 0xe591cf3d, P0` and no second `SHFL`: threads 14
//! and 15 store their own 0xcf3dcf3d where the spec reads lanes 0 and 1, 0). Its variants
//! (13.0.88 -O3): dropped under `@!p mov` or `selp` by p (`v4_selp`), `@!q mov` of a `mov.pred q, p`
//! copy (`s47/e2_mov_pred_copy`), a second shuffle of any mode (`.bfly`, `.idx` `v5_second_idx`,
//! `.up` `s47/e1_second_up`, `.down` `s47/e3_second_down`), any b of the bfly with `c[4:0]` ≠ 0
//! (v11–v22); kept (right) where the
//! bfly shuffles a loaded value or %tid.x (`v1_src_loaded`, `v6_bfly_src_tid`), where the
//! predicate is `.up`/`.down`'s or a `setp` of %tid.x, and where `c[4:0]` = 0 (v8, v10, v18).
//! Where `p` really is uniform the drop is valid and the own value is the spec's (v12, v16, v21).
//! Session 54 (seed 5402's 24d122cc, corpus/findings/fuzz-h200-5402/trace/T54S.md,
//! trace/24d122cc/): the choice may be a guarded `cvt` of a constant ptxas folds (`@!p0
//! cvt.rni.s32.f32 r2, r1` of a moved 0 over a moved 172; 13.0.88 = 13.5 -O3 `SEL R5, RZ, 0xac,
//! !P0` and no `SHFL.UP`): dropped for `cvt.rzi.u32.f32` (`s54/v4`), `cvt.rn.f32.s32`
//! (`s54/x5_w1`: `FSEL`), `cvt.u16.u32` (`x5_w4`), a cvt of a nonzero moved constant or of an
//! immediate (`x5_w2`, `x5_w3`: `SEL R5, R0, 0xac`); kept (right) for a cvt of a loaded value
//! (`v2_cvt_of_loaded`: `F2I.NTZ; SEL; SHFL.UP`) and for `c[4:0]` = 0 (`v3_clamp_0`).
//! Session 57 (seed 5702's c3be1a58, corpus/findings/fuzz-h200-5702/trace/T57E.md): the choice may
//! be among values ptxas takes as uniform, the shuffle's own result and values computed from it
//! and constants (`uniform_choice.rs`).
//! Session 62 (seed 6201's b7f77768, corpus/findings/fuzz-h200-6201/trace/T62D.md): the choice may
//! be a one-armed `if` by a branch on `p` (`arm.rs`).
//! What stays out: values computed from `p` otherwise (not tried), more than one predicate copy, an
//! if/else by a branch on `p` (wrong in 13.0.88, `trace/b7f77768/s62/v9_if_else`).

mod arm;
mod clamp;
mod copies;
mod uniform_choice;

use super::fuzz3602::writes;
use super::fuzz3701::folded_constant;
use super::origin::ptxas_constant;
use super::shfl_of_a_register_ptxas_knows::shuffles_a_constant;
use crate::isa::operand::{Imm, Operand};
use crate::isa::ShflMode;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// How many producers back a constant operand is looked for ([`folded_constant`]).
const DEPTH: u32 = 3;

/// Whether the `shfl.sync` `inst` being run is dropped (each lane keeps its own `a`; `warp.rs`
/// calls it as `emulate::shuffle_dropped`): emulating
/// 3702-N7, a shuffle of any mode whose `a` register was last written, unguarded or under
/// the predicate `p`, as a choice by `p` between constants ([`chosen_by`]), `p` the predicate of
/// a `shfl.sync.bfly` of a constant with an immediate `c` whose `c[4:0]` is not 0, or a copy of
/// one ([`bfly_predicate_of_a_constant`]).
pub(in crate::program) fn dropped(m: &Machine<'_>, inst: &Instruction) -> bool {
    if !matches!(inst.form, Form::ShflSync(_)) || !m.allow.emulates(Deviation::ShuffleOfBflyPredicateChoiceDropped) {
        return false;
    }
    let Some(a) = inst.operands.get(1).and_then(|o| m.reg_of(o).ok()) else { return false };
    let Some(j) = m.p.body.get(..m.stmt).and_then(|b| b.iter().rposition(|s| writes(s, a))) else { return false };
    // A copy of the choice shuffled (seed 5801's 917157f1, `copies.rs`).
    let (j, a) = copies::through_copies(m, j, a);
    // Or a choice among values ptxas takes as uniform, not only constants (seed 5702's c3be1a58,
    // `uniform_choice.rs`).
    // Or a choice written as a one-armed `if` on the predicate (seed 6201's b7f77768, `arm.rs`).
    chosen_by(m, j, a)
        .or_else(|| uniform_choice::chosen_by(m, j, a))
        .or_else(|| arm::chosen_by(m, j, a))
        .is_some_and(|p| bfly_predicate_of_a_constant(m, j, p))
}

/// The predicate by which the statement at body index `j` chooses register `a`'s value between
/// constants: `@p mov a, K` or `@!p mov a, K` over a constant `a` ([`folded_constant`]), the same
/// with `cvt` of an immediate or of a folded constant in place of the `mov`, or `selp a, K1, K2,
/// p` of constants.
fn chosen_by(m: &Machine<'_>, j: usize, a: Reg) -> Option<Reg> {
    match &m.p.body[j] {
        Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: Some(g) }) => {
            let p = m.reg_of(&Operand::Name(g.pred.clone())).ok()?;
            let immediate = matches!(operands.get(1), Some(Operand::Imm(Imm::Int(_))));
            (immediate && folded_constant(m, j, a, DEPTH)).then_some(p)
        }
        // A guarded `cvt` of a constant ptxas folds (an immediate or a [`folded_constant`]) is a
        // guarded write of a constant too (seed 5402's 24d122cc).
        Stmt::Isa(Instruction { form: Form::Cvt(_), operands, guard: Some(g) }) => {
            let p = m.reg_of(&Operand::Name(g.pred.clone())).ok()?;
            let known = match operands.get(1) {
                Some(Operand::Imm(_)) => true,
                Some(o) => m.reg_of(o).is_ok_and(|r| folded_constant(m, j, r, DEPTH)),
                None => false,
            };
            (known && folded_constant(m, j, a, DEPTH)).then_some(p)
        }
        Stmt::Glue { glue, guard: None } if glue.op == GlueOp::Selp => {
            let constant = |s: Option<Src>| match s {
                Some(Src::Imm(_)) => true,
                Some(Src::Reg(r)) => ptxas_constant(m, j, r).is_some(),
                None => false,
            };
            let Some(Src::Reg(p)) = glue.src[2] else { return None };
            (constant(glue.src[0]) && constant(glue.src[1])).then_some(p)
        }
        _ => None,
    }
}

/// Whether predicate `p`, read at body index `at`, was last written there (directly or through
/// one `mov.pred` copy) by an unguarded `shfl.sync.bfly d|p, a, b, c, mask` of a constant `a` ([`shuffles_a_constant`]) whose
/// `c` ptxas knows: `c[4:0]` (the clamp, §9.7.9.6) not 0, or 0 in a body that loads
/// ([`clamp::predicate_taken_as_uniform`], seed 5801's 917157f1).
fn bfly_predicate_of_a_constant(m: &Machine<'_>, at: usize, p: Reg) -> bool {
    let Some(mut k) = m.p.body[..at].iter().rposition(|s| writes(s, p)) else { return false };
    let mut p = p;
    // One unguarded `mov.pred p, q` copy looked through (`s47/e2_mov_pred_copy`).
    if let Stmt::Isa(Instruction { form: Form::Mov(mv), guard: None, operands }) = &m.p.body[k] {
        let Some(q) = operands.get(1).and_then(|o| m.reg_of(o).ok()).filter(|_| mv.shape == MovShape::Copy) else {
            return false;
        };
        let Some(j) = m.p.body[..k].iter().rposition(|s| writes(s, q)) else { return false };
        (k, p) = (j, q);
    }
    let Stmt::Isa(shfl @ Instruction { form: Form::ShflSync(s), guard: None, operands }) = &m.p.body[k] else {
        return false;
    };
    // `c[4:0]` not 0, `c` an immediate or a moved one; or 0 in a body that loads (`clamp.rs`).
    let uniform = clamp::predicate_taken_as_uniform(m, k, operands.get(3));
    let names_p = matches!(operands.first(), Some(Operand::WithPred(_, q)) if m.reg_of(&Operand::Name(q.clone())).ok() == Some(p));
    s.mode == ShflMode::Bfly && names_p && uniform && shuffles_a_constant(m, shfl, k)
}

/// A lane's result of a dropped shuffle ([`dropped`]): its own value `own` in place of the
/// spec's, the deviation recorded as fired where they differ.
pub(in crate::program) fn keeps_own(m: &mut Machine<'_>, spec: &Expected, own: Expected) -> Expected {
    m.fire(Deviation::ShuffleOfBflyPredicateChoiceDropped, spec, own)
}
