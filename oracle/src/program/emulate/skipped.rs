//! What a statement whose guard is false leaves under the emulated deviations: the spec says
//! nothing, ptxas's lowering merges the old value first (N-11's sign extension and
//! conversion of a skipped `set`, A's and B's typing of a skipped `cvt` or `mov`), and every
//! skipped destination stops being a value ptxas knows. Called by the thread interpreter
//! through [`super::skipped_glue`] and [`super::skipped_isa`].

mod bf16_widened;
mod f32_write_over_an_unrecorded_value;

use super::origin::merge_f32;
use super::{
    any_f32_nan, convert, cvt_form, float_cvt_skipped_over_an_unrecorded_value, float_dtype,
    hadd2_sat_pair_with_a_guarded_second_before_a_select, j_packed_constant, known_at_compile_time, merge_c_in_place,
    skipped_integer_copy_and_f2fp_mask, skipped_set_low_half_through_an_add, skipped_set_over_dropped_f32_copy,
    skipped_set_over_saturated_f32,
};
use crate::isa::{CvtType, Form, Instruction, MovShape, MovType};
use crate::num::{BF16, F16};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst};
use crate::program::Stmt;
use crate::semantics::{Allowance, Constraint, Deviation, Expected, Free};

/// What a glue instruction whose guard is false writes under the emulated deviations (`None`:
/// nothing, as the spec says): N-11 extends the destination of `set.<cmp>.{s32,u32}.{u16,s16}`
/// from its low 16 bits — by its sign for `.s32.u16` (seen with bit 15 set), by its sign or
/// with zeros for the other three (seen only with bit 15 clear: 1297e441 of
/// corpus/findings/fuzz-h200-3301/, `set.le.u32.s16`, 0xe9fb3ef5 → 0x00003ef5).
/// A `set.<cmp>.f32.<type>` whose guard is false converts its old value as it converts its −1
/// to 1.0 (corpus/findings/fuzz-h200-3301/, e733b56f: `SEL R0, R2, R0, P1; IABS R0, R0;
/// I2FP.F32.S32 R0, R0`, the merge before the conversion), see [`skipped_set_f32`]; an old
/// value that is any f32 NaN converts as the canonical 0x7fffffff, a half that is any f16 or
/// bf16 NaN as the canonical 0x7fff ([`canonical_half_nans`], seed 4101's 26f4113b).
/// A 16-bit source's skipped set reads only the old word's low 16 bits (`PRMT 0x9910` first),
/// so those alone need be exact (corpus/findings/fuzz-h200-3701/, c2bdc418, trace/TC2.md:
/// an earlier skipped `set.gt.u32.s16` left a word two-valued in its high half).
/// Any skipped glue ends its destination's being a value ptxas knows ([`Origin::known_since`])
/// and B's f32 typing of it ([`Origin::f32_cleared`]), except a
/// skipped `set.<cmp>.f32` whose old value N-11 converts: that makes it f32-typed from there, as
/// a skipped `cvt` to `.f32` does (corpus/findings/fuzz-h200-3701/, a862ac7a, trace/TC1.md:
/// `SEL R2, R2, R0, P0; IABS; I2FP.F32.S32; F2I.U64.TRUNC; SHF.R.U64`, ptxas 13.0.88 and 13.5
/// -O0; -O3 folds it; an integer set's merge is raw).
/// A destination never written before is left alone (the spec's value stands).
pub(in crate::program) fn skipped_glue(m: &mut Machine<'_>, t: u32, g: &Glue) -> Option<Expected> {
    known_at_compile_time::forget(m, t, &[g.dst]);
    let set_f32 = matches!(g.op, GlueOp::Set(_, SetDst::F32));
    if m.allow.emulates(Deviation::F32ShiftAmount) {
        let converted = set_f32 && m.allow.emulates(Deviation::SkippedSetSignExtends);
        let stmt = m.stmt;
        if let Some(o) = m.origins.get_mut(t as usize).and_then(|o| o.get_mut(&g.dst)) {
            merge_f32(o, converted, stmt);
        }
    }
    if !m.allow.emulates(Deviation::SkippedSetSignExtends) {
        return None;
    }
    if set_f32 {
        let old = m.read(t, g.dst).ok()?;
        // An old value that is any f32 NaN (§9.7.9.21 fixes no payload) is the GPU's canonical
        // 0x7fffffff (`FADD.FTZ` of a NaN; corpus/findings/fuzz-h200-3601/, de45dd17: a
        // `cvt.ftz.f32.f32` of 0xffd304ed, then the skipped set stores 1.0 = |sext16(0xffff)|).
        // J's narrowed `add.u16x2` of a constant gives the low half it reads (3f9c3758).
        // A `cvt.f32.bf16` NaN (no `.ftz`) is no canonical NaN: the GPU widens by a shift
        // ([`bf16_widened`], seed 4303's 31481867; `cvt.ftz.f32.bf16` is `F2F.FTZ.F32.BF16`, the
        // canonical NaN, seed 5803's 72b720bf and fff2eec5); nor is a `cvt.f32.f64` one, which keeps the
        // sign and the payload's top bits ([`f64_narrowed_nan`], seed 4403's d081b377).
        let narrowed = if g.ty.bits() == 16 {
            j_packed_constant::narrowed_low_read_by_skipped_set(m, t, g.dst, &old)
        } else {
            None
        };
        // A plain `cvt.f32.f32` of a NaN is dropped at -O3 (its source's bits stay) and an
        // `FADD` at -O0 (the canonical NaN): both words admitted (seed 4402's d1611e55,
        // [`skipped_set_over_dropped_f32_copy`]).
        let kept = skipped_set_over_dropped_f32_copy::kept_nan(m, t, g.dst);
        if let Some(kept) = kept.filter(|_| narrowed.is_none() && any_f32_nan(&old)) {
            let dropped = skipped_set_f32(m, kept, g.ty.bits())?;
            let canonical = skipped_set_f32(m, 0x7fff_ffff, g.ty.bits())?;
            let mut v = Expected::exact(u128::from(dropped), old.width);
            if canonical != dropped {
                v = v.or_value(u128::from(canonical), Allowance::NanPayload);
            }
            return Some(m.fire(Deviation::SkippedSetSignExtends, &old, v));
        }
        // A `cvt.f32.bf16` of a NaN ptxas knows: -O3 folds the canonical NaN (seed 5803's
        // 72b720bf, `skipped/bf16_widened.rs`), -O0 shifts: both admitted below.
        let mut folded_nan = false;
        let word = if let Some(low) = narrowed {
            low
        } else if old.is_exact() {
            old.bits as u32
        } else if let Some(low) = exact_low_half(&old).filter(|_| g.ty.bits() == 16) {
            low
        } else if let Some(w) = bf16_widened::widened(m, t, g.dst) {
            folded_nan = w.folded_nan;
            w.word
        } else if let Some(word) = f64_narrowed_nan(m, t, g.dst) {
            word
        } else if any_f32_nan(&old) {
            0x7fff_ffff
        } else {
            canonical_half_nans(&old)?
        };
        let mut v = Expected::exact(u128::from(skipped_set_f32(m, word, g.ty.bits())?), old.width);
        if folded_nan {
            let canonical = skipped_set_f32(m, 0x7fff_ffff, g.ty.bits())?;
            if u128::from(canonical) != v.bits {
                v = v.or_value(u128::from(canonical), Allowance::NanPayload);
            }
        }
        // Over a `cvt.sat.f32.f32` -O3 drops the `IABS` of a 16-bit source (seed 4602's
        // c98ee331, [`skipped_set_over_saturated_f32`]): the signed low half admitted too.
        if g.ty.bits() == 16 && old.is_exact() && skipped_set_over_saturated_f32::saturated_f32(m, t, g.dst) {
            let signed = skipped_set_over_saturated_f32::signed_low_half(m, word)?;
            if u128::from(signed) != v.bits {
                v = v.or_value(u128::from(signed), Allowance::Undefined);
            }
        }
        return Some(m.fire(Deviation::SkippedSetSignExtends, &old, v));
    }
    let integer_dst = matches!(g.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32));
    if !integer_dst || !matches!(g.ty, GlueType::U16 | GlueType::S16) {
        return None;
    }
    let old = m.read(t, g.dst).ok()?;
    // The low 16 bits alone are read: exact also when an earlier skip of this set left the word
    // two-valued above them (corpus/findings/fuzz-h200-3801/, e0c45d2b, trace/T4D.md: the set in
    // an 8-trip loop, `SEL; PRMT R2, R4, 0x9910` on every trip, 0x4115d2f7 → 0xffffd2f7).
    // So is the low half of an `add`/`sub` of such a word between two skips (seed 4703's bd1942aa,
    // `emulate/skipped_set_low_half_through_an_add.rs`).
    let low = exact_low_half(&old)
        .or_else(|| skipped_set_low_half_through_an_add::low_half(m, t, g.dst))
        .map_or_else(|| old.field(0, 16), |low| Expected::exact(u128::from(low), 16));
    let signed = crate::program::thread::extend(low.clone(), 32, true);
    let v = if matches!(g.op, GlueOp::Set(_, SetDst::S32)) && g.ty == GlueType::U16 {
        signed
    } else {
        let zeros = crate::program::thread::extend(low, 32, false);
        if signed.is_exact() && zeros.is_exact() && signed.bits != zeros.bits {
            zeros.or_value(signed.bits, Allowance::Undefined)
        } else {
            zeros
        }
    };
    Some(m.fire(Deviation::SkippedSetSignExtends, &old, v))
}

/// The word the GPU holds for `e`, a 32-bit word whose only free fields are any f16 or bf16 NaN
/// in a 16-bit half (a packed `cvt.rn.{f16x2,bf16x2}.f32` of a NaN, §9.7.9.21): each such half the
/// canonical 0x7fff (`F2FP.BF16.F32.PACK_AB` of a NaN), the rest `e`'s exact bits. Seed 4101
/// (corpus/findings/fuzz-h200-4101/trace/T8x.md, 26f4113b): the skipped `set.ge.f32.s32` over
/// bf16x2 {NaN, 0} stores 0x4efffe00 = `I2FP.F32.S32(IABS(0x7fff0000))`, every backend.
fn canonical_half_nans(e: &Expected) -> Option<u32> {
    let half_nan = |f: &Free| {
        let float16 = matches!(f.constraint, Constraint::AnyNan(fmt) if fmt.name == BF16.name || fmt.name == F16.name);
        float16 && f.width == 16 && f.shift.is_multiple_of(16)
    };
    let fields = e.width == 32 && !e.free.is_empty() && e.free.iter().all(half_nan);
    fields.then(|| e.free.iter().fold(e.bits as u32, |w, f| (w & !(0xffff << f.shift)) | (0x7fff << f.shift)))
}

/// The low 16 bits of `e` where they are one value: `e` exact, or every value it admits
/// (an `OrValue` alternative, a free field above bit 15) agreeing there.
pub(super) fn exact_low_half(e: &Expected) -> Option<u32> {
    let agrees = |f: &Free| match f.constraint {
        _ if f.shift >= 16 => true,
        Constraint::OrValue(alt) => alt & 0xFFFF == e.bits & 0xFFFF,
        _ => false,
    };
    e.free.iter().all(agrees).then_some(e.bits as u32 & 0xFFFF)
}

/// The f32 bits a skipped `set.<cmp>.f32.<type>` leaves from the old word `old` of its
/// destination, `src_bits` the width of its source type: what ptxas's lowering computes after
/// merging the old word in place of the comparison's −1/0 (ptxas 13.0.88 and 13.5, every
/// level). 32- and 64-bit sources: `IABS` then `I2FP.F32.S32` (to nearest; |−2^31| stays
/// −2^31). 16-bit sources (13.5's listing): `PRMT 0x9910` (sign extension from bit 15), `IABS`,
/// `PRMT 0x7710` (the low 16 bits), `I2F.S16`. The conversion is the oracle's own
/// `cvt.rn.f32.s32`/`cvt.rn.f32.s16` (§9.7.9.21), `None` where it gives no exact word.
fn skipped_set_f32(m: &Machine<'_>, old: u32, src_bits: u32) -> Option<u32> {
    let (opcode, magnitude) = if src_bits == 16 {
        ("cvt.rn.f32.s16", u128::from(i32::from(old as u16 as i16).unsigned_abs() as u16))
    } else {
        ("cvt.rn.f32.s32", u128::from((old as i32).wrapping_abs() as u32))
    };
    let converted = cvt_form(opcode).and_then(|f| convert(m, &f, magnitude))?;
    converted.is_exact().then_some(converted.bits as u32)
}

/// What a §9.7.9 instruction whose guard is false leaves under the emulated deviations: its
/// registers keep their values (§11.2), but A marks the destination of a float `cvt` as
/// float-merged ([`Origin::float_merged`]), and B that of a `cvt` to `.f32`/`.tf32` as f32-typed
/// ([`Origin::f32_merged`]: `FSEL R4, R4, R3, P0; F2I.U64.TRUNC R4, R4` before the shift at -O0,
/// ptxas 13.5, corpus/findings/fuzz-h200-3501/, ec8d0db0). ptxas computes the cvt, selects between its result
/// and the old value by the guard (`SEL R0, R0, R2, P0`), and an 8-bit store of the selected
/// register converts it whatever the guard (`F2I.U8.F16.TRUNC.NTZ` after the `SEL` at -O0,
/// the folded `F2I.U8.F16.TRUNC.NTZ R5, -0.066` of the old value at -O3; ptxas 13.0.88,
/// corpus/findings/fuzz-h200-3301/, 4a9df7fd and a4cd0d1f). A `mov.f32` copy whose guard is
/// false makes its destination f32-typed for B as a skipped `cvt` to `.f32` does (-O0 `FSEL R4,
/// R4, R3, P0; F2I.U64.TRUNC R4, R4`, -O3 `@P0 PRMT R6, …; F2I.U64.TRUNC R6, R6`, ptxas 13.0.88
/// and 13.5; corpus/findings/fuzz-h200-3602/, 9ab5ce60; a skipped `mov.b32` is `SEL`, raw: it
/// ends the f32 typing, `emulate/skipped_integer_copy_and_f2fp_mask.rs`, fuzz-h200-3702 d479c2c6). A
/// register with no recorded producer is left alone. Every skipped instruction's destinations
/// stop being values ptxas knows ([`Origin::known_since`]).
pub(in crate::program) fn skipped_isa(m: &mut Machine<'_>, t: u32, inst: &Instruction) {
    known_at_compile_time::forget_skipped_isa(m, t, inst);
    // 3701-N-D's if-converted guarded pack (seed 4401's 3fdf8ff2): `emulate/merge_c_in_place.rs`.
    merge_c_in_place::skipped(m, t, inst);
    // 3801-N3's pair at a guarded second `.sat` cvt S, S skipped:
    // `emulate/hadd2_sat_pair_with_a_guarded_second_before_a_select.rs`.
    hadd2_sat_pair_with_a_guarded_second_before_a_select::skipped(m, t, inst);
    let c = match inst.form {
        Form::Cvt(c) => c,
        Form::Mov(mv) if mv.ty == MovType::F32 && mv.shape == MovShape::Copy => {
            if m.allow.emulates(Deviation::F32ShiftAmount) {
                let Some(r) = inst.operands.first().and_then(|o| m.reg_of(o).ok()) else { return };
                // An old value with no recorded origin (a copy of `%tix`): seed 5702's e9fc9a48.
                f32_write_over_an_unrecorded_value::mark(m, t, r);
                let stmt = m.stmt;
                if let Some(o) = m.origins.get_mut(t as usize).and_then(|o| o.get_mut(&r)) {
                    merge_f32(o, true, stmt);
                }
            }
            return;
        }
        Form::Mov(mv) if mv.shape == MovShape::Copy => {
            skipped_integer_copy_and_f2fp_mask::skipped_integer_copy(m, t, inst);
            return;
        }
        _ => return,
    };
    let a = m.allow.emulates(Deviation::NarrowStoreOfFloatCvt) && float_dtype(c.dtype);
    let b = m.allow.emulates(Deviation::F32ShiftAmount);
    if !a && !b {
        return;
    }
    let Some(r) = inst.operands.first().and_then(|o| m.reg_of(o).ok()) else { return };
    if a {
        // An old value with no recorded producer (a half of `%tix`): seed 5103's 5a40f4d8.
        float_cvt_skipped_over_an_unrecorded_value::mark_unrecorded_old_value(m, t, r);
    }
    if b && matches!(c.dtype, CvtType::F32 | CvtType::Tf32) {
        // B's typing of an old value with no recorded origin (a copy of `%tix`): seed 5702's e9fc9a48.
        f32_write_over_an_unrecorded_value::mark(m, t, r);
    }
    let stmt = m.stmt;
    if let Some(o) = m.origins.get_mut(t as usize).and_then(|o| o.get_mut(&r)) {
        o.float_merged |= a;
        if b {
            merge_f32(o, matches!(c.dtype, CvtType::F32 | CvtType::Tf32), stmt);
        }
    }
}

/// The word a `cvt.f32.f64` (no `.sat`) last wrote to `r` in thread `t` where its source is an
/// exact f64 NaN: the GPU's `F2F.F32.F64` keeps the sign and the payload's top 23 bits, quiet
/// (sign | 0x7fc00000 | mantissa >> 29), a NaN §9.7.9.21 leaves unspecified. So N-11's skipped
/// `set.<cmp>.f32` reads that word, not the canonical 0x7fffffff: seed 4403's d081b377
/// (corpus/findings/fuzz-h200-4403/trace/T15t4.md, trace/d081b377/): f64 0xffffffffffffffff
/// narrows to 0xffffffff, |−1| = 1.0 stored on -O0, -O3 and the JIT (13.0.88 and 13.5 -O3 fold
/// its variants v1, v2, v5 to the same rule).
fn f64_narrowed_nan(m: &Machine<'_>, t: u32, r: crate::program::Reg) -> Option<u32> {
    match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }), origin)
            if c.dtype == CvtType::F32 && c.atype == CvtType::F64 && !c.sat =>
        {
            let bits = origin.a.as_ref().filter(|a| a.is_exact())?.bits as u64;
            let mantissa = bits & ((1 << 52) - 1);
            if (bits >> 52) & 0x7ff != 0x7ff || mantissa == 0 {
                return None;
            }
            Some((((bits >> 63) as u32) << 31) | 0x7fc0_0000 | (mantissa >> 29) as u32)
        }
        _ => None,
    }
}
