//! 3501-N2 widened after seed 4501's 6275f4b8 (helper x2, session 46;
//! corpus/findings/fuzz-h200-4501/trace/T16t1.md, trace/6275f4b8/ and its variants s46/): when
//! the chain's base is an integer `cvt` to 64 bits of an unsigned source of at most 32 bits
//! (`cvt.{u64,s64}.{u8,u16,u32}`), ptxas does the chain's first shift as the 32 → 64-bit
//! widening itself, and the running amount that cuts the chain is counted from the second shift
//! ([`uncounted_first_shift`], [`ShlChain::uncounted`]).
//!
//! Mechanism (13.0.88 -O3, `ld.global.s8 h0; cvt.s64.u8 d0, h0`, then `shl.b64` by 18, 15, 12,
//! 9, 6, 3 and `add.cc.s64 d1, d0, K`): `LOP3.LUT R0, R2, 0xff; SHF.R.U32.HI R9, RZ, 0xe, R0;
//! IMAD.SHL.U32 R6, R0, 0x40000` (the widening by 18), then 15 and 12 kept and 9 fused into
//! `LEA RZ, P0, R0, 0x31b23fc8, 0x9; LEA.HI.X R9, R0, 0xebaa3929, R9, 0x9, P0`: 15 + 12 + 9 = 36
//! reaches 32 at the fourth shift, so (x << 54) + K, where the plain rule cuts at 18 + 15 = 33
//! (and the spec's x << 63 is 0 for an even x). The same with `cvt.s64.u16` (s46/z1),
//! `cvt.u64.u8` (z3), `cvt.s64.u32` (z2, whose widening is L's `SHF.R.S32.HI`), the sweep's
//! `cvt.u64.{u16,u32}` and `and 0xffffff` before `cvt.u64.u32`; 20 × 4 keeps 60 (z7), 10 × 7
//! 50, 7 × 10 42. Where the count from the second shift reaches no cut every shift is kept,
//! right: 12, 10, 8, 6, 4, 2 (z6), 30 + 3 × 11, 31 × 3, 5 + 30 + 30.
//!
//! What stays out (the plain rule, counted from the first shift): a sign-extending `cvt.u64.s8`
//! (z4: `SHF.R.S32.HI R9, RZ, 0x1f, R2; SHF.L.U64.HI R9, R2, 0x12, R9; LEA …, 0xf`: 33), a
//! `cvt.s64.s32` base, a loaded u64 base and an `and.b64 …, 0xffffffff` base (the sweep: 33);
//! a chain whose first step is a multiply, or that goes through adds of constants (no variant
//! shows them with such a base). `ld.global.u32` into a 64-bit register (z5) behaves as a
//! zero-extended base too, but the program model has no such load.
//!
//! Invariants: a condition on the statement starting a chain and its base's producer; no value
//! is changed here (the cut is applied where the chain is read, `emulate.rs`).

use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// For a `shl.b64` by `k` (below 32) that starts a chain (3501-N2) in thread `t` from the value
/// of register `base`: `k` when that value was made by an integer `cvt` to `.u64`/`.s64` of an
/// unsigned source of at most 32 bits (the first shift done as the widening, not counted toward
/// the cut); 0 otherwise, a multiply step (`shl` false) included.
pub(super) fn uncounted_first_shift(m: &Machine<'_>, t: u32, base: Option<Reg>, k: u64, shl: bool) -> u64 {
    let zero_extended = base.and_then(|r| m.producer(t, r)).is_some_and(|(s, _)| {
        matches!(s, Stmt::Isa(Instruction { form: Form::Cvt(c), .. })
            if matches!(c.dtype, CvtType::U64 | CvtType::S64)
                && matches!(c.atype, CvtType::U8 | CvtType::U16 | CvtType::U32))
    });
    if shl && zero_extended {
        k
    } else {
        0
    }
}
