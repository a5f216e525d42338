//! N-11 (corpus/known/fuzz-h200-3201-n11-skipped-set-sign-extends.toml) where an `add`/`sub`
//! of the destination stands between two skips of its `set.<cmp>.{s32,u32}.{s16,u16}`: seed
//! 4703's bd1942aa (corpus/findings/fuzz-h200-4703/trace/T18u5.md, trace/bd1942aa/; variants
//! in trace/bd1942aa/s48/).
//!
//! The mechanism the listings show: in the 2-trip loop `add.u32 r5, r5, r7; @!p0
//! set.ne.s32.s16 r5, h1, h2` (guard false) ptxas 13.0.88 -O3 emits `SEL R8, R9, R8, !P0; PRMT
//! R8, R8, 0x9910, RZ; @P0 VIADD R9, R8, 0x3; PRMT R9, R9, 0x9910, RZ` (13.5 and -O0 alike): N-11's
//! sign extension after each merge, the word sext16(sext16(x+6)+3). The first skip leaves the word
//! two-valued above bit 15 (its zero or its sign extension, [`skipped_glue`](super::skipped_glue));
//! the interpreter's `add` keeps no alternatives, so the second skip saw a free old value and
//! admitted only the zero extension. The low 16 bits of a 32-bit `add`/`sub` are those of its
//! sources' low 16 bits (carries move up only, §9.7.1.1/§9.7.1.2), so where both sources' low
//! halves are one value the skip reads that one low half and extends it either way, as it does over
//! a bare earlier skip (e0c45d2b). Wrong alike: `sub.u32` (s48/v3, `@P0 VIADD R7, R0,
//! 0xfffffffd; PRMT 0x9910`), `add.s32` of an immediate (s48/v4), a `set.ne.u32.u16` (s48/v6).
//! Right (nothing extended): a `.s32` set source (`v2_s32_source_right`: no `PRMT`), the skipped
//! set writing another register (s48/v7).
//!
//! Out of scope: a `shr.u32` between the skips (s48/v5 extends alike, `@P0 SHF.R.U32.HI R7, RZ,
//! 0x1, R0; PRMT R7, R7, 0x9910`, but its low half depends on which extension the first skip
//! made: the two-valued word is not carried through it here); `mul`, logic ops and 64-bit or
//! 16-bit adds (no variant).
//!
//! Invariants: a query on the old value's producer; no value is changed here.

use super::skipped::exact_low_half;
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// The low 16 bits of the value of `r` in thread `t` where it was last written by an unguarded
/// `add`/`sub.{u32,s32}` whose recorded source values each have one low half (an exact value or
/// alternatives agreeing there, [`exact_low_half`]): their sum or difference mod 2^16; `None`
/// elsewhere.
pub(super) fn low_half(m: &Machine<'_>, t: u32, r: Reg) -> Option<u32> {
    let (Stmt::Glue { guard: None, glue }, origin) = m.producer(t, r)? else {
        return None;
    };
    if !matches!(glue.ty, GlueType::U32 | GlueType::S32) {
        return None;
    }
    let a = exact_low_half(origin.a.as_ref()?)?;
    let b = exact_low_half(origin.b.as_ref()?)?;
    match glue.op {
        GlueOp::Add => Some(a.wrapping_add(b) & 0xFFFF),
        GlueOp::Sub => Some(a.wrapping_sub(b) & 0xFFFF),
        _ => None,
    }
}
