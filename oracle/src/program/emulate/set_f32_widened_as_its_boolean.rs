//! 3701 C1-N2 widened to the integer widening of a set.f32 result after seed 4203's trace
//! (corpus/findings/fuzz-h200-4203/trace/T12c2.md §A; d6a9319f, 06aff9fd, 6ec845c6; helper v2,
//! session 42): where a logic op of a predicate-made −1/0 is in the program, ptxas -O3 (13.0.88
//! and 13.5) rebuilds a `set.<cmp>.f32` result from its predicate as the boolean (`SEL R0, RZ,
//! 0x1, !P0`) and widens that number, where §9.7.9.21 widens the word 0x3f800000; so does an
//! if-converted test against zero after another branch (`set_f32_boolean_after_a_zero_test_diamond.rs`).
//!
//! Invariants: nothing here changes a value unless 3701 C1-N2's deviation is emulated; the
//! function names the one value the mechanism computes, `None` elsewhere.

use super::fuzz3602::writes;
use super::fuzz3701::last_writer;
use super::fuzz3701::set_or_unpack_of_set;
use super::set_f32_boolean_after_a_zero_test_diamond;
use super::set_f32_boolean_beside_a_zero_test_split_into_an_arm;
use super::{imm_of, reg_of_glue};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

mod beside_a_zero_test_of_its_word;
mod narrowed_mask;
mod of_a_float_cvt_of_the_set;

/// 3701 C1-N2 through a 64-bit widening: `cvt.{u64,s64}.{s32,u32} d, s` of a `set.<cmp>.f32.<any
/// type>` result s, in a program [`logic_of_a_predicate_mask`] triggers, is 1 where the set is
/// true and 0 where false (`SEL R0, RZ, 0x1, !P0`; 13.0.88 and 13.5 -O3 identical). Evidence
/// (trace/d6a9319f/NOTE.txt and `w/`): all four cvt types wrong with `xor`/`and`/`or.b32`
/// (`w/cvt_*`, v11); `.f32` set source (v15); the logic op need not touch the widened value
/// (v13: `cvt.u64.s32` stored as is, an unrelated `set.ge.u32.u32; xor.b32` beside it, word 1);
/// every reader sees the 0/1 (a store, a 32-bit set of the low word, `setp.ge.u64` against K,
/// v9). Right: no logic op (v2, `w/*_NONE`), `add` in its place, an xor with an immediate (t4),
/// of a loaded word (v10), of the set.f32 word itself (t6), `xor.b64` of a widened set (t2), and
/// `cvt.u32.s32` (v12: `FSEL R, RZ, 1`, 1.0f). The if-converted test against zero after another
/// branch triggers it too ([`set_f32_boolean_after_a_zero_test_diamond::zero_test_diamond_after_a_branch`]; seed 4303's
/// 67fafce8 folder, x/a_b_cvtu64: `SEL R6, RZ, 0x1, !P2`), and so does a zero test split into a
/// branch arm, the set's word read by the cvt alone (seed 4901's 55b28c51, v/v17 `SEL R6, RZ, 0x1`;
/// [`set_f32_boolean_beside_a_zero_test_split_into_an_arm::triggers_for`]). The widening of a float
/// cvt of the set's truth (seed 5702's 9d958b9f): [`of_a_float_cvt_of_the_set`].
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    // The widening of a float cvt of the set's truth (seed 5702's 9d958b9f).
    if let found @ Some(_) = of_a_float_cvt_of_the_set::widened(m, t, inst, c) {
        return found;
    }
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz && c.rnd.is_none();
    if !m.allow.emulates(d)
        || !matches!(c.atype, CvtType::S32 | CvtType::U32)
        || !matches!(c.dtype, CvtType::U64 | CvtType::S64)
        || !plain
    {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let set_at = match m.producer(t, s) {
        Some((Stmt::Glue { glue, .. }, o)) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => Some(o.stmt),
        _ => None,
    };
    let of_set_f32 = set_at.is_some();
    let triggered = || {
        logic_of_a_predicate_mask(m)
            || set_f32_boolean_after_a_zero_test_diamond::zero_test_diamond_after_a_branch(m)
            || set_at.is_some_and(|k| set_f32_boolean_beside_a_zero_test_split_into_an_arm::triggers_for(m, k, s))
    };
    if !of_set_f32 || !triggered() {
        return None;
    }
    let word = m.read(t, s).ok().filter(Expected::is_exact)?;
    Some((d, Expected::exact(u128::from(word.bits & 0xFFFF_FFFF != 0), 64)))
}

/// Whether some `and`/`or`/`xor.{b16,b32}` of the program reads, beside another register, a
/// predicate-made −1/0 (a `set.<cmp>.{u32,s32}` result, a half a `mov.b32` unpack took of one,
/// or a `selp -1, 0` mask, [`selp_mask_at`], or a 16-bit `cvt` narrowing of a set,
/// [`narrowed_mask::narrowed_set`], seed 6101's 04f8f106), or a `not.{b16,b32}` reads one (T12c2.md §A: reduced.ptx `xor.b32`
/// of a set and a packed load, v11 `and.b32`, `w/` `or.b32`, t1 `xor.b16` of a half, t3 and v9
/// `xor.b32` of a `selp.b32 -1, 0` mask, t5 `not.b32` of a set; all `SEL R, RZ, 0x1`).
pub(super) fn logic_of_a_predicate_mask(m: &Machine<'_>) -> bool {
    let is_set =
        |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::U32 | SetDst::S32)));
    let of_mask = |k: usize, r: Option<Reg>| {
        r.is_some_and(|r| {
            set_or_unpack_of_set(m, k, r, &is_set)
                || selp_mask_at(m, k, r)
                || narrowed_mask::narrowed_set(m, k, r, &is_set)
        })
    };
    m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, .. } if matches!(glue.ty, GlueType::B16 | GlueType::B32) => {
            let (a, b) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1));
            match glue.op {
                GlueOp::And | GlueOp::Or | GlueOp::Xor => {
                    a.is_some() && b.is_some() && (of_mask(k, a) || of_mask(k, b))
                }
                GlueOp::Not => of_mask(k, a),
                _ => false,
            }
        }
        _ => false,
    })
}

/// Whether register `r`, read at body index `k`, was last written by `selp.{b,u,s}{16,32} r, x, 0,
/// p` whose `x` a move of all ones (−1 at the selp's width) last wrote: the program text's
/// `selp -1, 0` mask (a glue `selp` takes its first source as a register).
fn selp_mask_at(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    let Some((u, Stmt::Glue { glue, .. })) = last_writer(m, k, r) else { return false };
    let bits = glue.ty.bits();
    if glue.op != GlueOp::Selp || bits > 32 || imm_of(glue, 1) != Some(0) {
        return false;
    }
    let ones = (1i128 << bits) - 1;
    let all_ones = |v: i128| v == -1 || v & ones == ones;
    reg_of_glue(glue, 0).and_then(|x| last_writer(m, u, x)).is_some_and(|(_, w)| {
        matches!(w, Stmt::Isa(Instruction { form: Form::Mov(_), operands, .. })
            if matches!(operands.get(1), Some(Operand::Imm(Imm::Int(v))) if all_ones(*v)))
    })
}

/// 3604-N2 through a byte reader (corpus/findings/fuzz-h200-4203/trace/T12c4.md, 16cd6583,
/// `16cd6583/variants.md`): `cvt.{u8,s8}.{u32,s32} d, s` of a `set.<cmp>.f32` result s that an
/// unguarded `setp.<cmp>.{u32,s32}` compares with 0 ([`compared_with_zero_32`]) reads the set
/// rebuilt from its predicate as the integer 0/1 (`SEL R0, RZ, 0x1, !P0`, 13.0.88 and 13.5 -O3),
/// where §9.7.9.21 truncates 0x3f800000 to the byte 0. Wrong: `setp.eq.s32` of a moved 0
/// (reduced.ptx), `setp.ne.u32 s, 0` (v8), `setp.gt.s32` (v13), `cvt.s8.s32` (v10), a `.s32`
/// set source (v15), the compare feeding a `selp` (v3, v4). Right: no compare (v1, v2), a
/// compare with 5 (v14), a 16- or 32-bit reader (v6, v9, v12: `FSEL R, RZ, 1`, 1.0f), an
/// integer set (v5). `st.u8` of the word (v11) is wrong on 13.0.88 only and not emulated. A
/// 64-bit widening `cvt.{u64,s64}` of the set is 1 likewise where a live compare tests its word
/// against 0 (seed 6101's dfda7034, [`beside_a_zero_test_of_its_word`]).
pub(super) fn compared_with_zero(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::WidenedSetF32ComparedWithZeroIs0Or1;
    // The byte reader (16cd6583) or the 64-bit widening beside a live zero test of the word
    // ([`beside_a_zero_test_of_its_word`], dfda7034): the result's width and the test it needs.
    let (width, tested): (u32, ZeroTest) = match c.dtype {
        CvtType::U8 | CvtType::S8 => (8, compared_with_zero_32),
        CvtType::U64 | CvtType::S64 => (64, beside_a_zero_test_of_its_word::zero_tested_live),
        _ => return None,
    };
    if !m.allow.emulates(d) {
        return None;
    }
    let (s, set_at) = plain_cvt_of_set_f32(m, t, inst, c)?;
    if !tested(m, set_at, s) {
        return None;
    }
    let word = m.read(t, s).ok().filter(Expected::is_exact)?;
    Some((d, Expected::exact(u128::from(word.bits & 0xFFFF_FFFF != 0), width)))
}

/// Whether a 3604-N2 reader's set word is compared with 0 after body index `k` (before `r` is
/// written again).
type ZeroTest = fn(&Machine<'_>, usize, Reg) -> bool;

/// The source `s` of a plain `cvt.<any>.{u32,s32} d, s` (no saturation, rounding or flush) whose
/// last writer is a `set.<cmp>.f32` result, with the body index of that set: 3604-N2's operand
/// ([`compared_with_zero`]).
fn plain_cvt_of_set_f32(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Reg, usize)> {
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz && c.rnd.is_none();
    if !plain || !matches!(c.atype, CvtType::S32 | CvtType::U32) {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    match m.producer(t, s) {
        Some((Stmt::Glue { glue, .. }, o)) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => Some((s, o.stmt)),
        _ => None,
    }
}

/// Whether `glue`, at body index `j`, has `r` as one operand and 0 as the other: an immediate,
/// or a register a move of the immediate 0 last wrote (that move unguarded where
/// `unguarded_move`).
fn compares_with_zero(
    m: &Machine<'_>,
    j: usize,
    glue: &crate::program::glue::Glue,
    r: Reg,
    unguarded_move: bool,
) -> bool {
    let zero = |i: usize| {
        imm_of(glue, i) == Some(0)
            || reg_of_glue(glue, i).and_then(|x| last_writer(m, j, x)).is_some_and(|(_, w)| {
                matches!(w, Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard, .. })
                    if matches!(operands.get(1), Some(Operand::Imm(Imm::Int(0)))) && (guard.is_none() || !unguarded_move))
            })
    };
    (reg_of_glue(glue, 0) == Some(r) && zero(1)) || (zero(0) && reg_of_glue(glue, 1) == Some(r))
}

/// Whether, after body index `k` and before `r` is written again, an unguarded
/// `setp.<cmp>.{u32,s32,b32}` compares register `r` with 0: an immediate, or a register a
/// move of the immediate 0 last wrote.
fn compared_with_zero_32(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        if let Stmt::Glue { glue, guard: None, .. } = s {
            if matches!(glue.op, GlueOp::Setp(_))
                && matches!(glue.ty, GlueType::U32 | GlueType::S32 | GlueType::B32)
                && compares_with_zero(m, j, glue, r, false)
            {
                return true;
            }
        }
        if writes(s, r) {
            return false;
        }
    }
    false
}
