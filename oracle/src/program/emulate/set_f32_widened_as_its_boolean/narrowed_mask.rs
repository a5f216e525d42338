//! 3701 C1-N2's predicate-mask trigger ([`super::logic_of_a_predicate_mask`]) through a 16-bit
//! narrowing of the integer set: seed 6101's 04f8f106 (corpus/findings/fuzz-h200-6101/trace/T61A.md,
//! variants in `trace/04f8f106/s61/` with 13.0.88 and 13.5 -O3 listings; helper la, session 61).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3 identical, the JIT; -O0 right): `set.lt.u32.u64 r2;
//! cvt.s16.u32 h7, r2; xor.b16 h29, h25, h7` is `@P0 LOP3.LUT R7, RZ, R7, RZ, 0x33` — the 16-bit
//! narrowing of the set's −1/0 is still the predicate mask — and beside it the widened set.f32
//! (`set.lt.f32.u32 r4; cvt.u64.u32 d0, r4`) is `SEL R9, RZ, 0x1, !P1`, as with the `mov.b32` half
//! of the set (`v2`). Wrong alike: `cvt.u16.u32` (`v4`), `cvt.s16.s32` (`v12`), a `.s32` set (`v5`),
//! `and.b16` (`v9`), the narrowed half also stored (`v11`). Right: the cvt of a loaded word (`v3`),
//! no logic op (`v1`), a BYTE narrowing `cvt.s8.u32` (`v8`: ptxas sign-extends it, `PRMT 0x8880`,
//! and xors the number).
//!
//! Invariants: a condition on the program's statements only; it widens the trigger, never a value.

use super::super::fuzz3701::last_writer;
use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether register `r`, read at body index `k`, was last written by an unguarded plain
/// `cvt.{u16,s16}.{u32,s32}` of a register a statement `is_set` accepts last wrote (before the cvt).
pub(super) fn narrowed_set(m: &Machine<'_>, k: usize, r: Reg, is_set: &dyn Fn(&Stmt) -> bool) -> bool {
    let Some((u, Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }))) = last_writer(m, k, r)
    else {
        return false;
    };
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz && c.rnd.is_none();
    plain
        && matches!(c.dtype, CvtType::U16 | CvtType::S16)
        && matches!(c.atype, CvtType::U32 | CvtType::S32)
        && operands
            .get(1)
            .and_then(|o| m.reg_of(o).ok())
            .and_then(|w| last_writer(m, u, w))
            .is_some_and(|(_, s)| is_set(s))
}
