//! 4b68821e (corpus/known/fuzz-h200-4203-4b68821e-f2i-of-f16-bits-read-as-f32-fused-with-source.toml):
//! a truncating float-to-integer `cvt` of the zero-extended bits of a half-precision conversion
//! computed as ONE conversion of the half's f32 source, called from the `cvt` hook of
//! `emulate.rs` ([`super::isa`]).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.<rnd>.{f16,bf16}.f32 h, x;
//! cvt.{u32,s32}.u16 r, h; cvt.rzi{.ftz}.<int>.f32 d, r` is one `F2I.<int>.<rnd>.NTZ d, x`: the
//! narrowing `F2F`, the zero extension and the reading of the half's bits as an f32 (§9.7.9.21:
//! r is a subnormal or small number, so d is 0 for every finite half but NaN/large patterns) are
//! dropped, and the fused `F2I` rounds as the FIRST `cvt` (`.rn` nearest, `.rz` `.TRUNC`, `.rm`
//! `.FLOOR`, `.rp` `.CEIL`) and saturates to the last one's type.
//!
//! Evidence: corpus/findings/fuzz-h200-4203/ (4b68821e, trace/T12c3.md, trace/4b68821e/:
//! `.rz.f16`, `.s16`; wrong also v1_loaded, v2_u32u16, v3_rn (`F2I.S16.NTZ`), v4_s32dst,
//! v8_bf16, v13_s64dst; right v5_f32round, v6_movpack, v7_ld_b16, v10_u64 (`cvt.u64.u16`),
//! v11_f64src, v12_u8dst (`F2IP.U8.F32` of the `F2F`), v14 (a real `cvt.f32.f16`), v15);
//! corpus/findings/fuzz-h200-5101/ (9033ff50: `.rn.bf16`, `cvt.u32.u16`, `.s16`: `F2I.S16.NTZ` of
//! 8.12e8 = 0x7fff; 007db41c: `.s32`: `F2I.NTZ` of −1.31e38 = 0x80000000; trace/T22a.md) and
//! 9033ff50's s51 variants (13.0.88 = 13.5 -O3, trace/9033ff50/s51/README.md): wrong v1 (`.rz`
//! first: `F2I.S16.TRUNC.NTZ`), v2 (`.rm`: `.FLOOR`), v3 (`.rp.f16`: `.CEIL`), v6 (`.u16`
//! destination), v7 (`.u32`), v8 (`.ftz` last); right v4 (`.rni` last) and v5 (`.rmi` last:
//! `F2F` kept, the F2I of its bits), v9 (`.relu` first: `F2FP.RELU` kept).
//!
//! Scope: the three `cvt`s unguarded (`mov` copies looked through by the machine's producer
//! record), the first exactly `cvt.{rn,rz,rm,rp}.{f16,bf16}.f32` (no `.relu`, `.sat`,
//! `.satfinite`, `.ftz`), the middle `cvt.{u32,s32}.u16`, the last `cvt.rzi{.ftz}.{s16,u16,s32,
//! u32,s64}.f32` without `.sat`; `.u8`/`.s8`/`.u64` destinations are out (v12: another lowering;
//! untested). The value is the last `cvt` with the first's rounding, applied to x.
//!
//! The other way round ([`fused_conversion_of_widened_half`]; seed 5601's b97651e9 and 46c959cd,
//! corpus/findings/fuzz-h200-5601/trace/T56D.md, trace/b97651e9/s56/; 13.0.88 = 13.5 -O3):
//! `cvt{.ftz}.f32.f16 r, x` (or `cvt.ftz.f32.bf16`; without `.ftz` that widening is a `SHF.L.U32
//! 0x10`, nothing to fuse: v1, v7 right), `cvt.{s16,u16}.{u32,s32} h, r`, `cvt.rzi.<int>.{f16,bf16}
//! d, h` is one `F2I.<int>.<last's type>` of x (`F2I.FTZ.S64.F16 R2, R0` of the bf16 0xd730: −115
//! where the spec's low 16 bits of the f32 are 0): the widening and the narrowing dropped, x's bits
//! read as the last cvt's source type (v15 `F2I.S64.BF16` of an f16), rounding as the first cvt (a
//! widening has none: to nearest, no `.TRUNC`). Wrong alike: `.s64`, `.u64`, `.s32`, `.u32`,
//! `.s16`, `.u8` destinations (v13, v18, v19, v21, v22), `cvt.u16.u32`/`cvt.s16.s32` middles (v11,
//! v12); right: a last `.rmi`/`.rni` (v9, v10), a `.sat` or 8-bit middle (v16, v17).

use super::convert;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::Stmt;
use crate::semantics::Expected;

/// The unguarded `cvt` statement `k` of the body, if it is one.
fn unguarded_cvt(m: &Machine<'_>, k: usize) -> Option<Cvt> {
    match m.p.body.get(k)? {
        Stmt::Isa(Instruction { guard: None, form: Form::Cvt(c), .. }) => Some(*c),
        _ => None,
    }
}

/// The integer rounding the fused `F2I` takes from the first `cvt`'s float rounding.
fn integer_rounding(first: &Cvt) -> Option<CvtRnd> {
    let plain = !first.sat && !first.satfinite && !first.relu && !first.ftz;
    let half = matches!(first.dtype, CvtType::F16 | CvtType::Bf16) && first.atype == CvtType::F32;
    if !(plain && half) {
        return None;
    }
    match first.rnd? {
        CvtRnd::Rn => Some(CvtRnd::Rni),
        CvtRnd::Rz => Some(CvtRnd::Rzi),
        CvtRnd::Rm => Some(CvtRnd::Rmi),
        CvtRnd::Rp => Some(CvtRnd::Rpi),
        _ => None,
    }
}

/// `cvt.rzi.<int>.f32 d, r` (`inst`, `c`) with r written by `cvt.{u32,s32}.u16 r, h` and h by
/// `cvt.<rnd>.{f16,bf16}.f32 h, x`: `inst`'s conversion of x with the first `cvt`'s rounding
/// (`None` elsewhere).
pub(super) fn fused_conversion_of_source(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<Expected> {
    if matches!(c.atype, CvtType::F16 | CvtType::Bf16) {
        return fused_conversion_of_widened_half(m, t, inst, c);
    }
    let last = c.atype == CvtType::F32
        && c.rnd == Some(CvtRnd::Rzi)
        && !c.sat
        && matches!(c.dtype, CvtType::S16 | CvtType::U16 | CvtType::S32 | CvtType::U32 | CvtType::S64);
    if inst.guard.is_some() || !last {
        return None;
    }
    let (_, middle) = m.cvt_producer(t, inst.operands.get(1))?;
    let c0 = unguarded_cvt(m, middle.stmt)?;
    let widening = c0.atype == CvtType::U16 && matches!(c0.dtype, CvtType::U32 | CvtType::S32) && c0.rnd.is_none();
    if !widening || c0.sat {
        return None;
    }
    let rnd = integer_rounding(&unguarded_cvt(m, middle.a_stmt?)?)?;
    let x = middle.a_a.as_ref().filter(|x| x.is_exact())?;
    let fused = Form::Cvt(Cvt { rnd: Some(rnd), ..c });
    convert(m, &fused, x.bits & 0xFFFF_FFFF).filter(Expected::is_exact)
}

/// `cvt.rzi.<int>.{f16,bf16} d, h` (`inst`, `c`) with h written by `cvt.{s16,u16}.{u32,s32} h, r`
/// and r by `cvt{.ftz}.f32.f16 r, x` or `cvt.ftz.f32.bf16 r, x`: `inst`'s conversion of x's bits,
/// to nearest (`None` elsewhere).
fn fused_conversion_of_widened_half(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<Expected> {
    if inst.guard.is_some() || c.rnd != Some(CvtRnd::Rzi) || c.sat || !c.dtype.is_int() {
        return None;
    }
    let (_, middle) = m.cvt_producer(t, inst.operands.get(1))?;
    let c0 = unguarded_cvt(m, middle.stmt)?;
    let narrowing = matches!(c0.atype, CvtType::U32 | CvtType::S32) && matches!(c0.dtype, CvtType::U16 | CvtType::S16);
    if !narrowing || c0.sat || c0.rnd.is_some() {
        return None;
    }
    let first = unguarded_cvt(m, middle.a_stmt?)?;
    let shifted = first.atype == CvtType::Bf16 && !first.ftz;
    let widening = first.dtype == CvtType::F32 && matches!(first.atype, CvtType::F16 | CvtType::Bf16) && !shifted;
    if !widening || first.sat || first.relu || first.rnd.is_some() {
        return None;
    }
    let x = middle.a_a.as_ref().filter(|x| x.is_exact())?;
    let fused = Form::Cvt(Cvt { rnd: Some(CvtRnd::Rni), ..c });
    convert(m, &fused, x.bits & 0xFFFF).filter(Expected::is_exact)
}
