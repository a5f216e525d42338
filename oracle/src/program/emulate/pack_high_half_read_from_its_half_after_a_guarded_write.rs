//! 63f83d6e (helper e2, session 55;
//! `corpus/known/fuzz-h200-5402-63f83d6e-pack-high-half-read-from-its-half-after-a-guarded-write.toml`),
//! called from the `mov` hook of `emulate.rs` ([`super::isa`]) at a `mov.b32` unpack
//! ([`unpacked`]): ptxas 13.0.88 and 13.5 -O3 (and the JIT) build `mov.b32 w, {p, h}` of an fp8
//! pair p as `F2FP.SATFINITE.*.MERGE_C Rw, …, Rh` into another register, keep h in its own
//! register, if-convert a later branch arm that writes h into a write predicated in place in
//! that register (`@!P0 PRMT R7, RZ, 0x7610, R7`, `@!P0 LDG.E.U16 R7`, `@!P0 VIADD R7, R7,
//! 0x1`), and then read w's high half, unpacked after the join, from h's register
//! (`LOP3.LUT R9, R7, R0`): the half h holds after the arm, where §9.7.9.4 unpacks the half the
//! pack took (h before the arm).
//!
//! Evidence (corpus/findings/fuzz-h200-5402/, 63f83d6e, trace/T54S.md; trace/63f83d6e/ with its
//! s54/ and s55/ variants (13.0.88 and 13.5 -O3 listings, alike)). Wrong: the case
//! (`mov.b16 h, 0` in the arm of `@p bra L`, h an `ld.s16`, the pair `e4m3x2.f32` of zeros, w also
//! read by `cvt.rn.f16.f32` before the branch), s54 v5 (`ld.u16` h), v10 (e5m2x2), v11 (the arm
//! an `ld.global.u16 h`); s55 w1 (the arm `add.u16 h, h, 1`), w2 (`cvt.u16.u32 h, %tix`), w3 (`@!p
//! bra`), w4 (the pair `e4m3x2.f16x2`: `UNPACK_B_MERGE_C`), w5 (w's other reader a store of w),
//! w6 (that reader after the join), w7 (the unpack of a `mov.b32` copy of w), w8 (the pair of a
//! loaded f32). Right: s54 v9 (no arm), v3 (`@!p mov.b16 h, 0` with no branch: a `SEL` into
//! another register), v4 (the write unguarded), v1, v2 (no fp8 pair: no MERGE_C), v8 (h the low
//! half), v6, v7 (w read only by the unpack, or its other reader dead: the pack folded).
//!
//! Scope (exactly the wrong forms): the statement run is an unguarded `mov.b32 {lo, hi}, w'`
//! whose value's producer (copies looked through) is an unguarded `mov.b32 w, {p, h}` (16-bit
//! p ≠ h) with p last written by an unguarded `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2}` (no
//! `.relu`); between the pack and the unpack h is written only in the straight arm of one
//! guarded forward branch `@p bra L; …; L:` (the label at or before the unpack), once, by an
//! unguarded `mov` of an immediate, `ld`, integer `cvt` or 16-bit glue; and w is read whole
//! by a live statement other than a `mov` (a store, or a writer of a register read later). Left
//! out: the arm a `mov.b16 h, x` of a register loaded before the branch (s55 w9: ptxas sinks x's
//! load into the arm as `@!P0 LDG R7` and schedules the MERGE_C after it, so the whole word takes
//! the new h too — a value this hook, at the unpack, does not give).
//!
//! Invariants: changes only the unpack's high half, to h's present value (the arm's write where
//! its thread ran it, the packed h elsewhere), only when the deviation is emulated and the scope
//! holds; it returns its input otherwise.

pub(super) mod word_rewritten_in_an_arm;

use super::arm_sat_f64_low_word_clamped_by_zero_test::arm_of;
use super::fuzz3602::writes;
use super::origin::{read_later, reads_and_overwrites};
use crate::isa::operand::{Operand, Role};
use crate::isa::{CvtType, Form, Instruction, Mov, MovShape, MovType};
use crate::program::exec::Machine;
use crate::program::glue::GlueType;
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::PackHighHalfReadFromItsHalfAfterAGuardedWrite;

/// The unpack `mov.b32 {lo, hi}, w'` being run (`results`, the spec's halves): hi read from h's
/// register as it is now, where the module's scope holds.
pub(super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    if !m.allow.emulates(D) || mv.shape != MovShape::Unpack(2) || mv.ty != MovType::B32 || inst.guard.is_some() {
        return results;
    }
    let Some(Operand::Vector(parts)) = inst.operands.first() else { return results };
    let (Some(hi), Some(src)) = (parts.get(1).and_then(|o| m.reg_of(o).ok()), inst.operands.get(1)) else {
        return results;
    };
    if parts.first().and_then(|o| m.reg_of(o).ok()) == Some(hi) {
        return results;
    }
    let Some(pack) = m.reg_of(src).ok().and_then(|w| m.producer(t, w)).map(|(_, o)| o.stmt) else {
        return results;
    };
    let Some(h) = half_written_in_an_arm(m, pack, m.stmt) else { return results };
    let Some(i) = results.iter().position(|(r, _)| *r == hi) else { return results };
    let Ok(now) = m.read(t, h) else { return results };
    if !now.is_exact() {
        return results;
    }
    let spec = results[i].1.clone();
    let v = m.fire(D, &spec, Expected::exact(now.bits & 0xFFFF, spec.width));
    results[i] = (hi, v);
    results
}

/// h of the pack `mov.b32 w, {p, h}` at body index `pack`, when the pack, its pair, its whole
/// readers and the writes of h before the unpack at body index `k` fit the module's scope.
fn half_written_in_an_arm(m: &Machine<'_>, pack: usize, k: usize) -> Option<Reg> {
    let body = &m.p.body;
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = body.get(pack)? else {
        return None;
    };
    if mv.shape != MovShape::Pack(2) || mv.ty != MovType::B32 || pack >= k {
        return None;
    }
    let Some(Operand::Vector(elems)) = operands.get(1) else { return None };
    let (p, h) = (m.reg_of(elems.first()?).ok()?, m.reg_of(elems.get(1)?).ok()?);
    let w = m.reg_of(operands.first()?).ok()?;
    if p == h || p.class() != RegClass::B16 || h.class() != RegClass::B16 {
        return None;
    }
    // p: an fp8 pair (`F2FP…MERGE_C` takes h as its C).
    let pair = pair_before(m, pack, p);
    // h: written between the pack and the unpack once, in the straight arm of a forward branch.
    let h_writes: Vec<usize> = (pack + 1..k).filter(|&j| writes(&body[j], h)).collect();
    let [a] = h_writes[..] else { return None };
    let in_arm = arm_of(m, a).is_some_and(|(b, j)| b > pack && j <= k);
    (pair && in_arm && arm_write(&body[a]) && read_whole_live(m, pack, w)).then_some(h)
}

/// Whether `s` is an arm's write of h the evidence shows predicated in place: an unguarded `mov`
/// of an immediate, `ld`, integer `cvt` or 16-bit glue.
fn arm_write(s: &Stmt) -> bool {
    match s {
        Stmt::Glue { glue, guard: None } => matches!(glue.ty, GlueType::B16 | GlueType::U16 | GlueType::S16),
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) => {
            mv.shape == MovShape::Copy && matches!(operands.get(1), Some(Operand::Imm(_)))
        }
        Stmt::Isa(Instruction { form: Form::Ld(_), guard: None, .. }) => true,
        Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }) => c.dtype.is_int() && c.atype.is_int(),
        _ => false,
    }
}

/// Whether a statement after body index `pack` (before `w` is overwritten) reads the pack's word
/// `w` whole and is live: not a `mov`, and a store or a writer of a register read after it.
fn read_whole_live(m: &Machine<'_>, pack: usize, w: Reg) -> bool {
    for (j, s) in m.p.body.iter().enumerate().skip(pack + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, w);
        let live = reads
            && match s {
                Stmt::Isa(Instruction { form: Form::Mov(_), .. }) => false,
                Stmt::Isa(Instruction { form: Form::St(_), .. }) => true,
                Stmt::Isa(i) => i
                    .form
                    .operands()
                    .iter()
                    .zip(&i.operands)
                    .any(|(spec, o)| spec.role != Role::Src && m.reg_of(o).is_ok_and(|r| read_later(m, j, r))),
                Stmt::Glue { glue, .. } => read_later(m, j, glue.dst),
                _ => false,
            };
        if live {
            return true;
        }
        if overwrites {
            return false;
        }
    }
    false
}

/// Whether `p`, read at body index `pack`, was last written by an unguarded
/// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2}` (no `.relu`): the pair `F2FP…MERGE_C` builds
/// beside h (this module's and [`word_rewritten_in_an_arm`]'s scope).
fn pair_before(m: &Machine<'_>, pack: usize, p: Reg) -> bool {
    let Some(pw) = m.p.body[..pack].iter().rposition(|s| writes(s, p)) else { return false };
    matches!(&m.p.body[pw], Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })
        if matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
            && matches!(c.atype, CvtType::F32 | CvtType::F16x2)
            && c.satfinite
            && !c.relu)
}
