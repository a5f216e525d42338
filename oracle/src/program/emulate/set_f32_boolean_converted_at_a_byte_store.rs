//! 3701 C1-N2 (`cvt-of-set-f32-converts-1-beside-xor-of-set`: a float `cvt` of a
//! `set.<cmp>.f32` result converts the set's boolean, 1, not its word 0x3f800000) where the
//! `cvt`'s register is stored by an 8-bit store, so A's implicit float-to-byte conversion
//! follows (seed 5002's 11a06fef, corpus/findings/fuzz-h200-5002/trace/T21c.md,
//! trace/11a06fef/s50/; helper t3, session 50). The store hook ([`super::stored`]).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT): `set.ne.f32.s16 r7, h8, h5; cvt.rn.f16.s32
//! h13, r7; st.global.b8 [out+14], h13` in a program C1-N2 triggers in (an xor of an integer
//! set's halves) is `ISETP.NE.AND P0; SEL R7, RZ, 0x1, !P0; STG.E.U8`: the set rebuilt from its
//! predicate as the number 1, converted to f16 1.0 (C1-N2's `SEL 0x3c00` for a 16-bit store),
//! and A's `F2I.U8.F16.TRUNC` of that constant folded to 1, where §9.7.9.21 converts the integer
//! 0x3f800000 to +inf (0x7c00) and §9.7.9.11 (`st`) stores its low byte, 0. No `F2I` is left, so A's
//! `sass_witness` keeps A off the -O3 kernel and C1-N2's 0x3c00 alone gives the byte 0. ptxas 13.5
//! -O3 emits no `F2I` before byte stores (`SEL R7, RZ, 0x3c00; STG.E.U8`): C1-N2 alone, whose
//! low byte 0 is the spec's by chance.
//!
//! Scope: each element of an 8-bit store (`.b8/.u8/.s8`, any vector) whose register a plain
//! `cvt.<frnd>.{f16,bf16,f32,f64}.{s32,u32}` of a `set.<cmp>.f32` result wrote (the set's word
//! as recorded at the `cvt`), in a program that holds C1-N2's compile-time trigger
//! ([`fuzz3701::xor_reads_an_integer_set`] or
//! [`set_f32_boolean_after_a_zero_test_diamond::zero_test_diamond_after_a_branch`]); the byte
//! is the number 0/1 of the set's truth. Evidence (trace/11a06fef/s50/, 13.0.88 and 13.5 -O3):
//! wrong — v1 (the core: `.f16.s32`, `st.b8`, `SEL R7, RZ, 0x1`), v4 (`cvt.rn.f32.s32`), v5 (`set.ne.f32.u32`,
//! `cvt.rn.f16.u32`, `st.u8`); right — v2 (no xor trigger: the word converted, `I2F.F16` of
//! 0x3f800000 then `F2I.U8.F16.TRUNC`, A's 0xff), v3 (a 16-bit store: `SEL 0x3c00`, C1-N2's
//! word, emulated at the `cvt`), v6 (an integer `set.u32`: `I2F.F16; F2I.U8`, A's).
//!
//! Invariants: queries only; the byte is derived from the set word recorded as the `cvt`'s
//! source.

use super::fuzz3701::xor_reads_an_integer_set;
use super::set_f32_boolean_after_a_zero_test_diamond::zero_test_diamond_after_a_branch;
use crate::isa::operand::Operand;
use crate::isa::{CvtRnd, CvtType};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, SetDst};
use crate::program::Stmt;
use crate::semantics::Expected;

/// For the element `o` of an 8-bit store in thread `t`: where its register holds a float `cvt`
/// of a `set.<cmp>.f32` result in a program with C1-N2's trigger, the byte ptxas 13.0.88 -O3
/// stores (1 where the set is true, 0 where false); `None` otherwise.
pub(super) fn boolean_byte(m: &Machine<'_>, t: u32, o: &Operand) -> Option<Expected> {
    let (c, origin) = m.cvt_producer(t, Some(o))?;
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz;
    let int_to_float = matches!(c.atype, CvtType::S32 | CvtType::U32)
        && matches!(c.dtype, CvtType::F16 | CvtType::Bf16 | CvtType::F32 | CvtType::F64)
        && c.rnd.is_some_and(CvtRnd::is_frnd);
    let set_f32 = |k: usize| matches!(m.p.body.get(k), Some(Stmt::Glue { glue, .. }) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    if !(plain && int_to_float && origin.a_stmt.is_some_and(set_f32)) {
        return None;
    }
    if !(xor_reads_an_integer_set(m) || zero_test_diamond_after_a_branch(m)) {
        return None;
    }
    let word = origin.a.as_ref().filter(|w| w.is_exact())?;
    Some(Expected::exact(u128::from(word.bits & 0xFFFF_FFFF != 0), 8))
}
