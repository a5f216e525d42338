//! N (`corpus/known/fuzz-h100-n-cvt-u8-s8-of-f16-dropped.toml`) widened by session 47's traces
//! (helper g2), called from the `cvt` hook of `emulate.rs`: a guarded `cvt.u8.{s8,s16} d, a` of a
//! signed 16-bit or byte load `a`, into a `d` holding a `mov` copy of `a`, under a predicate
//! that compares `d` with `a`, is dropped: `d` keeps `a` (its sign-extended upper byte included),
//! where §9.7.9.21 zero-extends a's low byte.
//!
//! Mechanism (N's own trigger, `cvt.rn.satfinite.f16.f32 h0; mov.b16 h1, h0; setp.ne.u16 p1, h0,
//! h1; @!p1 cvt.u8.s8 h1, h0`, with another producer): ptxas knows the compare of a register with
//! its copy, and drops the conversion into the copy. corpus/findings/fuzz-h200-4601/trace/
//! T17t1.md, caae8b2b: `ld.global.s8 h1; mov.b16 h3, h1; setp.gt.u16 p0, h3, h1; mov.pred p1,
//! p0; @!p1 cvt.u8.s8 h3, h1; mov.b32 r6, {h3, h3}` is (13.0.88 and 13.5 -O3) `LDG.E.S8 R2, [+0x35];
//! PRMT R3, R2, 0x5410, R2; STG.E [+0x4], R3` (0xff89ff89; the spec's 0x00890089); its `reduced`
//! (no `mov.pred`), `v4_guard_true_const` (`setp.eq`, `@p`), `v15_cvt_u8_s16` alike; helper g2,
//! 13.0.88 -O3 (trace/caae8b2b/s47/): `y2_setp_ne_n_shape` (`setp.ne.u16 p0, h1, h3; @!p0`) and
//! `y5_ld_s16_source` (`LDG.E.S16 R2; PRMT R3, R2, 0x5410, R2`) alike. Right (`LOP3.LUT R0, R2,
//! 0xff` kept): no guard (`v1_unguarded`, `v9_copy_then_cvt`), a guard from data
//! (`v2_guard_runtime`, `@!P0 LOP3`), d not a copy of a (`v5_old_zero`), a guard of moved
//! constants (`v10_moved_const_pred`), a compare of a with itself (`y1_compare_source_with_itself`),
//! an `ld.u16` source (`v13_ld_u16`), an `xor.b16` source (`y4_xor_source`). Not emulated: d a
//! second identical `ld.s8` (`v12_old_other_load`, wrong alike: ptxas merges the loads); an
//! `ld.u8` source (`y3_ld_u8_source`: dropped too, but the spec's value is the same).
//!
//! Widened (helper t5, session 56; corpus/findings/fuzz-h200-5602/trace/T56E.md, ad8569dd, variants
//! in trace/ad8569dd/s56/; 13.0.88 and 13.5 -O3): the cvt may write `a` itself, in place, under a
//! compare of `a` with its copy (`ld.global.u16 h1; mov.s16 h0, h1; setp.eq.s16 p0, h1, h0; @p0
//! cvt.u8.s8 h1, h1` is `LDG.E.U16 R2; PRMT R3, R2, 0x5410, R2`, [`in_place_under_compare_with_copy`]),
//! and the source may be an `ld.u16`: what decides is that the compare's signedness differs from the
//! load's extension ([`extension_differs`]). Dropped: `ld.u16` under `setp.{eq,le}.s16` (the case,
//! `v11`), into the copy (`v3`), `cvt.u8.s16` (`v6`), `ld.s8`/`ld.s16` under `setp.eq.u16` (`v8`,
//! `v9`; caae8b2b's `.gt.u16`). Kept (right): `ld.s8`/`ld.s16` under `.s16` (`v1`, `v10`), `ld.u16`
//! under `.u16` (`v7`, caae8b2b's `v13_ld_u16`), unguarded (`v2`), a loaded h0 (`v4`), `setp h1, h1`
//! (`v5`).
//!
//! Invariants: decides scope only (the value, `a` as it is, is written by the hook with N's
//! other instance); every statement named is unguarded but the cvt, and `a`, `d` and the
//! predicates are unwritten between their writers and their readers named here.

use super::fuzz3602::unchanged_between;
use super::fuzz3701::last_writer;
use super::fuzz3702_conversions::bare;
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, RegClass, Stmt};

/// How many `mov.pred` copies deep the guard's compare is looked for (caae8b2b has one).
const PRED_COPY_DEPTH: u32 = 4;

/// Whether the `cvt` `inst` (`c`), the statement being run, is one ptxas drops (module docs).
pub(super) fn dropped(m: &Machine<'_>, inst: &Instruction, c: Cvt) -> bool {
    let k = m.stmt;
    let to_u8 = [CvtType::S8, CvtType::S16].into_iter().any(|from| c == bare(CvtType::U8, from, false));
    let Some(guard) = inst.guard.as_ref() else { return false };
    let (Some(Ok(d)), Some(Ok(a))) =
        (inst.operands.first().map(|o| m.reg_of(o)), inst.operands.get(1).map(|o| m.reg_of(o)))
    else {
        return false;
    };
    let Ok(p) = m.reg_of(&Operand::Name(guard.pred.clone())) else { return false };
    let compare = if d != a {
        copy_of(m, k, d, a).and_then(|w| compare_of(m, k, p, d, a, w))
    } else {
        in_place_under_compare_with_copy(m, k, p, a)
    };
    to_u8
        && d.class() == RegClass::B16
        && a.class() == RegClass::B16
        && compare.is_some_and(|ty| extension_differs(m, k, a, ty))
}

/// The type of the compare guarding an in-place `cvt.u8 a, a` at body index `k` (ad8569dd): the
/// predicate `p` is, through `mov.pred` copies, a 16-bit `setp` of `a` and a register `c` whose
/// last writer before `k` is an unguarded `mov` copy of `a` (both unchanged since), made after it.
fn in_place_under_compare_with_copy(m: &Machine<'_>, k: usize, p: Reg, a: Reg) -> Option<GlueType> {
    let (_, glue) = setp_of(m, k, p)?;
    let other = match [glue.src[0], glue.src[1]] {
        [Some(Src::Reg(x)), Some(Src::Reg(y))] if x == a && y != a => y,
        [Some(Src::Reg(x)), Some(Src::Reg(y))] if y == a && x != a => x,
        _ => return None,
    };
    let copy = copy_of(m, k, other, a)?;
    compare_of(m, k, p, other, a, copy)
}

/// Whether the extension of `a`'s last writer before body index `k`, an unguarded scalar load,
/// differs from the signedness of the 16-bit compare of type `ty`: `ld.s8`/`ld.s16` (signed)
/// under `.u16`/`.b16`, or `ld.u16` (unsigned) under `.s16` (module docs).
fn extension_differs(m: &Machine<'_>, k: usize, a: Reg, ty: GlueType) -> bool {
    let Some((_, Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }))) = last_writer(m, k, a) else {
        return false;
    };
    let signed_compare = ty == GlueType::S16;
    l.vec.is_none()
        && match l.ty {
            MemType::S8 | MemType::S16 => !signed_compare,
            MemType::U16 => signed_compare,
            _ => false,
        }
}

/// The body index of `d`'s last writer before `k` when it is an unguarded `mov` copy of `a`,
/// with `a` unwritten since.
fn copy_of(m: &Machine<'_>, k: usize, d: Reg, a: Reg) -> Option<usize> {
    let (w, s) = last_writer(m, k, d)?;
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else { return None };
    let copies_a = mv.shape == MovShape::Copy && operands.get(1).and_then(|o| m.reg_of(o).ok()) == Some(a);
    (copies_a && unchanged_between(m, a, w, k)).then_some(w)
}

/// The type of the compare predicate `p` read at body index `k` is, through unguarded `mov.pred`
/// copies, when it is an unguarded 16-bit `setp` of `d` and `a` (either order) written after
/// `d`'s copy at `copy`.
fn compare_of(m: &Machine<'_>, k: usize, p: Reg, d: Reg, a: Reg, copy: usize) -> Option<GlueType> {
    let (w, glue) = setp_of(m, k, p)?;
    let sixteen = matches!(glue.ty, GlueType::B16 | GlueType::U16 | GlueType::S16);
    let regs = [glue.src[0], glue.src[1]];
    let of_d_and_a = regs == [Some(Src::Reg(d)), Some(Src::Reg(a))] || regs == [Some(Src::Reg(a)), Some(Src::Reg(d))];
    (sixteen && of_d_and_a && w > copy).then_some(glue.ty)
}

/// The unguarded `setp` (with its body index) predicate `p` read at body index `k` is, through
/// unguarded `mov.pred` copies.
fn setp_of<'m>(m: &'m Machine<'_>, k: usize, p: Reg) -> Option<(usize, &'m Glue)> {
    let (mut at, mut p) = (k, p);
    for _ in 0..PRED_COPY_DEPTH {
        match last_writer(m, at, p)? {
            (w, Stmt::Glue { glue, guard: None }) if matches!(glue.op, GlueOp::Setp(_)) => return Some((w, glue)),
            (w, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }))
                if mv.shape == MovShape::Copy =>
            {
                let src = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
                if src.class() != RegClass::Pred {
                    return None;
                }
                (at, p) = (w, src);
            }
            _ => return None,
        }
    }
    None
}
