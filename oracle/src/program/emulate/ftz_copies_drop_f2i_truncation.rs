//! 0c8cc6d5 (`ftz-copies-drop-f2i-truncation`; corpus/known/fuzz-h200-4401-0c8cc6d5-ftz-copies-drop-f2i-truncation.toml):
//! ptxas 13.0.88 and 13.5 -O3 (and the JIT) fold two consecutive `cvt.ftz.f32.f32` copies into the
//! float-to-integer conversion that reads them and drop its truncation: `F2I.FTZ.*` without
//! `.TRUNC` rounds to nearest even. Emulated for B's converted 64-bit shift amount (the forms seen
//! on the GPU): corpus/findings/fuzz-h200-4401/ (0c8cc6d5, 55c9b583: trace/T15t1.md, `shl.b64` by
//! the copies of a loaded f32) and fuzz-h200-5801/ (c40dc95f: corpus/findings/fuzz-h200-5802/
//! trace/T58C.md, trace/c40dc95f/s58/ in 5801; `shr.s64` by the copies of a `cvt.pack` word, -O3
//! `F2I.FTZ.S64 R4, R4`: 17.625 → 18, the stored 0x4aaac000, where -O0's `F2I.S64.TRUNC` gives 17).
//! The same in the variants: `shr.u64`/`shr.b64` (`F2I.FTZ.U64`), three copies; right (`.TRUNC`
//! kept): one copy, copies without `.ftz`, one plain and one ftz copy, `.rzi` or `.sat` on a copy.
//!
//! Invariants: a query only; it changes no origin or value.

use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether register `r` of thread `t` holds a bare unguarded `cvt.ftz.f32.f32` (no rounding, no
/// `.sat`) of a value another such `cvt` made (§9.7.9.21: each a copy flushing subnormals).
pub(super) fn two_ftz_copies(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let ftz_copy = |k: usize| {
        matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })
            if c.dtype == CvtType::F32 && c.atype == CvtType::F32 && c.ftz && c.rnd.is_none() && !c.sat
                && !c.relu && !c.satfinite)
    };
    m.producer(t, r).is_some_and(|(_, o)| ftz_copy(o.stmt) && o.a_stmt.is_some_and(ftz_copy))
}
