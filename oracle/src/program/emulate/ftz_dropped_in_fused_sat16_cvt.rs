//! 3702-N6 at a saturating 16-bit `cvt` reader: the `.ftz` of `cvt.<irnd>.ftz.{u32,s32}.f32`
//! is dropped when ptxas fuses the conversion into its `cvt.sat.{s16,u16}.{u32,s32}` reader (one
//! `F2I.{S16,U16}` without `.FTZ`), called from the `cvt` rules of
//! `emulate/fuzz3702_conversions.rs`.
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3; corpus/findings/fuzz-h200-4503/, d2270cfc, trace
//! `trace/T16t5.md` and `trace/d2270cfc/s46/`): `cvt.rpi.ftz.u32.f32 r, x; cvt.sat.s16.u32 h, r`
//! is `F2I.S16.CEIL.NTZ R7, R2`, where -O0 has `F2I.FTZ.U32.CEIL.NTZ`: a subnormal x is not
//! flushed (§9.7.9.21: `.ftz` flushes a subnormal input to sign-preserving zero), so `.rpi` of a
//! positive subnormal gives 1 (spec 0) and `.rmi` of a negative one −1 (`v2_rmi_ftz`,
//! `F2I.S16.FLOOR.NTZ`). The same fusion is in `v3_sat_u16` (`F2I.U16.CEIL.NTZ`), `v5_s32_mid`
//! (`cvt.rpi.ftz.s32.f32; cvt.sat.s16.s32`: `F2I.S16.CEIL.NTZ`), `s46/v8_rzi_s32_u16`
//! (`F2I.U16.TRUNC.NTZ`), `s46/v12_rpi_sat_u16_u32_32dst` (a 32-bit destination) and
//! `s46/v7_both_read` (the `.u32` result stored too: the reader still gets its own fused
//! `F2I.S16.CEIL.NTZ`). The emulated value is the fused conversion
//! `cvt.<irnd>.sat.<dtype>.f32` of x without `.ftz`; for `.s16.u32` that is also root cause C's
//! lost lower clamp (`sat_s16_of_u32_cvt_folded`), which the fused conversion contains.
//!
//! It fires only where the flush changes the fused value (a subnormal x under a rounding that
//! moves it off 0); elsewhere C's rule or the spec decides. Right (kept out): a reader without
//! `.sat` (`v6_no_sat_u16_u32`, `s46/v11_rpi_s16_u32_nosat`: `F2I.FTZ.U32.CEIL.NTZ`), an 8-bit
//! reader (`v4_sat_s8`, `s46/v10_rpi_sat_s8_s32`: `F2I.FTZ…` then a clamp), the `.u32` result
//! read alone (`v1_cvt_stored_right`).

use super::convert;
use super::fuzz3702_conversions::{bare, ftz_integer_cvt_of_f32};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::semantics::Expected;

/// The saturating 16-bit readers ptxas fuses with their `cvt.<irnd>.ftz.<atype>.f32` producer
/// (dtype, atype): every one seen as one `F2I.{S16,U16}` without `.FTZ`.
const FUSED_READERS: [(CvtType, CvtType); 4] = [
    (CvtType::S16, CvtType::U32),
    (CvtType::U16, CvtType::U32),
    (CvtType::S16, CvtType::S32),
    (CvtType::U16, CvtType::S32),
];

/// `cvt.sat.{s16,u16}.{u32,s32} h, r` (`c`) with r written by `cvt.<irnd>.ftz.<atype>.f32 r, x`:
/// the fused conversion of x without `.ftz`, where that differs from the fused conversion with
/// it (`None` elsewhere).
pub(super) fn sat16_of_ftz_cvt_fused(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    _: &Expected,
) -> Option<Expected> {
    if !FUSED_READERS.iter().any(|&(d, a)| c == bare(d, a, true)) {
        return None;
    }
    let (c0, origin) = m.cvt_producer(t, inst.operands.get(1))?;
    if !ftz_integer_cvt_of_f32(c0, &[c.atype]) {
        return None;
    }
    let x = origin.a.as_ref().filter(|x| x.is_exact())?.bits & 0xFFFF_FFFF;
    let fused = |ftz: bool| {
        let form = Form::Cvt(Cvt { dtype: c.dtype, sat: true, ftz, ..c0 });
        convert(m, &form, x).filter(Expected::is_exact)
    };
    let unflushed = fused(false)?;
    (fused(true)? != unflushed).then_some(unflushed)
}
