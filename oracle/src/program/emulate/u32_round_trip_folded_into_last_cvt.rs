//! 80274cbb (corpus/known/fuzz-h200-4503-80274cbb-u32-round-trip-folded-into-last-conversion.toml):
//! a float → u32 → f32 → u32 conversion chain computed as its LAST conversion of the FIRST
//! source, called from the `cvt` hook of `emulate.rs` ([`super::isa`]).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.<irnd1>.u32.f32 r1, x;
//! cvt.<rnd>.f32.u32 r2, r1; cvt.<irnd2>.u32.f32 r3, r2` is one `F2I.U32.<irnd2>.NTZ r3, x`:
//! ptxas takes `I2F.U32 ∘ F2I.U32` as the identity on x, where §9.7.9.21 rounds x to an integer
//! (and clamps it to [0, 2^32 − 1], which the last conversion repeats: only the first rounding is
//! lost). Seed 4503's 80274cbb (`.rpi`, `.rp`, `.rzi` of 1.82e-26: 0, spec 1; trace
//! corpus/findings/fuzz-h200-4503/trace/T16t5.md, trace/80274cbb/: `.rn` middle, `.rni` last,
//! `.rzi` then `.rpi`, `.rmi` then `.rpi`, the middle result also stored) and seed 4602's
//! d5c92b86 (`.rpi`, `.rn`, `.rmi` of 0.99999994: `F2I.U32.FLOOR.NTZ R0, 0.99999994` = 0, spec
//! 1; trace corpus/findings/fuzz-h200-4602/trace/T17t4.md, variants in trace/d5c92b86/s46/:
//! `.rz`/`.rm` middles, `mov.b32` copies between the steps, `.rni` first, a first `.ftz` dropped
//! with the step, a last `.ftz` kept: `F2I.FTZ.U32.FLOOR.NTZ`).
//!
//! The emulated value is the last `cvt` (its rounding, its `.ftz`) applied to x, the first
//! `cvt`'s source. Out (right in the listings, the chain kept): an `.s32` anywhere (a middle
//! `cvt.rn.f32.s32` of the u32 included: `F2I.U32.CEIL; I2FP.F32.S32; F2I.U32.FLOOR`), `.u64`,
//! `.u16`, an `.f16`/`.f64` middle, an `.f64` source, the round trip without a last conversion,
//! a guarded step (`s46/w9_guarded_middle`: `I2FP.F32.U32; FSEL; F2I.U32.FLOOR`). Not emulated
//! though folded too: a `mov.f32` copy between the steps (`s46/w6_movf32_between`; the copy is its
//! value's producer and does not carry x).

use super::convert;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::Stmt;
use crate::semantics::Expected;

/// Whether `c` is a float-to-`.u32` conversion of an `.f32` (integer rounding), a step at either
/// end of the chain.
fn u32_of_f32(c: &Cvt) -> bool {
    c.dtype == CvtType::U32 && c.atype == CvtType::F32 && c.rnd.is_some_and(CvtRnd::is_integer)
}

/// The unguarded `cvt` statement `k` of the body, if it is one.
fn unguarded_cvt(m: &Machine<'_>, k: usize) -> Option<Cvt> {
    match m.p.body.get(k)? {
        Stmt::Isa(Instruction { guard: None, form: Form::Cvt(c), .. }) => Some(*c),
        _ => None,
    }
}

/// `cvt.<irnd2>.u32.f32 d, r2` (`inst`, `c`) with r2 written by `cvt.<rnd>.f32.u32 r2, r1` and r1
/// by `cvt.<irnd1>.u32.f32 r1, x` (all three unguarded, `mov` copies looked through): `inst`'s
/// conversion of x (`None` elsewhere).
pub(super) fn last_cvt_of_first_source(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<Expected> {
    if inst.guard.is_some() || !u32_of_f32(&c) {
        return None;
    }
    let (_, middle) = m.cvt_producer(t, inst.operands.get(1))?;
    let c0 = unguarded_cvt(m, middle.stmt)?;
    if !(c0.dtype == CvtType::F32 && c0.atype == CvtType::U32) {
        return None;
    }
    let first = unguarded_cvt(m, middle.a_stmt?)?;
    if !u32_of_f32(&first) {
        return None;
    }
    let x = middle.a_a.as_ref().filter(|x| x.is_exact())?;
    convert(m, &inst.form, x.bits & 0xFFFF_FFFF).filter(Expected::is_exact)
}
