//! N-11 (corpus/known/fuzz-h200-3201-n11-skipped-set-sign-extends.toml) over an old value a
//! `cvt.f32.bf16` wrote: which word the GPU holds for it, where §9.7.9.21 says only "`NaN`
//! input yields unspecified `NaN`" (a child of `emulate/skipped.rs`, asked by `skipped_glue`).
//!
//! - Without `.ftz` ptxas widens by a shift (`SHF.L.U32 …, 0x10` / `IMAD.U32 …, 0x10000`): the
//!   bf16 bits << 16, a NaN's payload kept (seed 4303's 31481867, corpus/findings/fuzz-h200-4303/
//!   trace/T14x5.md). But where ptxas knows the bf16 (an immediate or a folded constant), -O3
//!   folds the cvt of a NaN to the canonical 0x7fffffff (seed 5803, corpus/findings/
//!   fuzz-h200-5803/trace/T58B.md, `72b720bf/s58/y1_no_ftz`: 13.0.88 and 13.5 -O3 store the
//!   folded 0x4f000000 = I2FP(|0x7fffffff|), -O0 `SHF.L.U32` 0x4ac00000 = I2FP(|0xffa00000|)):
//!   both words are admitted then ([`Widened::folded_nan`]).
//! - With `.ftz` ptxas emits `F2F.FTZ.F32.BF16` (every level), whose NaN is the canonical
//!   0x7fffffff, at run time (seed 5803's fff2eec5: a loaded bf16 0xffff, the skipped
//!   `set.ne.f32.s64` stores 0x4f000000 on -O0, -O3 and the JIT) and folded (72b720bf:
//!   `cvt.ftz.f32.bf16` of 0xffa0, 0x4f000000 on every backend; `s58/y4_no_set` folds the cvt
//!   alone to `MOV R7, 0x7fffffff`): no widened word ([`widened`] gives `None`), so the caller's
//!   canonical-NaN rule applies.
//!
//! Invariants: reads the producer only; changes no value by itself.

use crate::isa::operand::Operand;
use crate::isa::{CvtType, Form, Instruction};
use crate::program::emulate::fuzz3701::folded_constant;
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// The word a `cvt.f32.bf16` (no `.ftz`) left in a register, by ptxas's shift.
pub(in crate::program::emulate) struct Widened {
    /// The bf16 bits << 16.
    pub(in crate::program::emulate) word: u32,
    /// Whether ptxas knows the bf16 and it is a NaN: -O3 folds the canonical 0x7fffffff.
    pub(in crate::program::emulate) folded_nan: bool,
}

/// The word the unguarded `cvt.f32.bf16` without `.ftz` that last wrote `r` in thread `t` left
/// (its source exact); `None` for any other producer, `.ftz` among them. The GPU widens by a
/// 16-bit shift, a NaN included, so N-11's skipped `set.<cmp>.f32` reads bf16 bits << 16, not
/// the canonical 0x7fffffff (31481867: 0x7fff → 0x7fff0000, the skipped `set.eq.f32.s16` stores
/// +0.0 on -O0, -O3 and the JIT; its v1 with a `cvt.ftz.f32.f32` old value stores 1.0).
pub(in crate::program::emulate) fn widened(m: &Machine<'_>, t: u32, r: Reg) -> Option<Widened> {
    match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, operands, .. }), origin)
            if c.dtype == CvtType::F32 && c.atype == CvtType::Bf16 && !c.ftz =>
        {
            let a = origin.a.as_ref().filter(|a| a.is_exact())?;
            let bits = (a.bits as u32) & 0xffff;
            let nan = bits & 0x7f80 == 0x7f80 && bits & 0x7f != 0;
            let known = match operands.get(1) {
                Some(Operand::Imm(_)) => true,
                Some(o) => m.reg_of(o).is_ok_and(|s| folded_constant(m, origin.stmt, s, 3)),
                None => false,
            };
            Some(Widened { word: bits << 16, folded_nan: nan && known })
        }
        _ => None,
    }
}
