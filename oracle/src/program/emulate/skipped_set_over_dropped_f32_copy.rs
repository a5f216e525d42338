//! N-11 (corpus/known/fuzz-h200-3201-n11-skipped-set-sign-extends.toml) where the old value its
//! skipped `set.<cmp>.f32` converts was written by a plain `cvt.f32.f32` of a NaN: seed 4402's
//! d1611e55 (corpus/findings/fuzz-h200-4402/trace/T15t2.md, trace/d1611e55/; variants in
//! trace/d1611e55/s45/).
//!
//! The mechanism the listings show: `cvt.f32.f32 d, a` with no modifier (§9.7.9.21: a NaN
//! input gives an unspecified NaN) is an identity to ptxas -O3 (13.0.88 and 13.5), which drops
//! it: the merge reads `a`'s own bits (`SEL R0, R0, 0x7f8762d7, !P0; IABS; I2FP.F32.S32` of a
//! moved sNaN, and of a loaded one the loaded register), so N-11 converts `a`'s word. -O0 keeps
//! the conversion as `FADD R2, -RZ, R2`, the GPU's canonical 0x7fffffff, which is what N-11
//! converts for any other f32 NaN. So the skipped set admits both words: `a`'s bits (-O3, the
//! JIT) and the canonical NaN's (-O0). Not here: `cvt.ftz.f32.f32` (-O3 folds a constant NaN
//! quieted, 0x7fc762d7; -O0 `FADD.FTZ`), `cvt.sat.f32.f32` (0), `cvt.rni.f32.f32` (`FRND`).
//!
//! Invariants: [`kept_nan`] is `Some` only for an unguarded plain `cvt.f32.f32` producer whose
//! recorded source value is an exact f32 NaN.

use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// The word ptxas -O3 leaves in `r` of thread `t` where its value was last written by an
/// unguarded `cvt.f32.f32` (no rounding, `.ftz`, `.sat`) of an exact f32 NaN: the source's
/// own bits (see the module header); `None` elsewhere.
pub(super) fn kept_nan(m: &Machine<'_>, t: u32, r: Reg) -> Option<u32> {
    match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }), origin)
            if c.dtype == CvtType::F32
                && c.atype == CvtType::F32
                && c.rnd.is_none()
                && !c.ftz
                && !c.sat
                && !c.relu
                && !c.satfinite =>
        {
            let a = origin.a.as_ref().filter(|a| a.is_exact() && a.width == 32)?.bits as u32;
            let nan = a & 0x7f80_0000 == 0x7f80_0000 && a & 0x007f_ffff != 0;
            nan.then_some(a)
        }
        _ => None,
    }
}
