//! L widened after seed 4503's 99b131f4 (helper x2, session 46;
//! corpus/findings/fuzz-h200-4503/trace/T16t5.md, trace/99b131f4/ and its variants s46/): the
//! `shl.b64 d, x, k` of a `cvt.s64.u32` result that ptxas sign-extends may take its amount `k`
//! from a register whose value ptxas knows — a counted loop's counter (the loop unrolled) or a
//! moved immediate — not only from an immediate ([`amount`]).
//!
//! Mechanism (13.0.88 -O3, 13.5 the same; `cvt.s64.u32 d0, r12`, then a two-trip loop `shl.b64
//! d0, d0, r20` with r20 = 0, 3): the loop is unrolled and the two shifts are one shift by 3 of
//! the sign-extended word, `SHF.R.S32.HI R7, RZ, 0x1f, R2; SHF.L.U32 R6, R2, 0x3, RZ;
//! SHF.L.U64.HI R7, R2, 0x3, R7`, as for the immediate twin (`w7_imm_twin_0_3_6`, `v5_two_imm_shl`).
//! The first trip's shift is the one that reads the `cvt`, so the emulation sign-extends there
//! and the later trips shift the extended value. s46 (13.0.88 -O3), sign-extended like their
//! immediate twins: one trip by 3 (`w1`, `SHF.R.S32.HI R7, RZ, 0x1d`), two (`w2`), three
//! (`w3`: 0, 3, 6), eight (`w4`: 0 … 7, the generator's most, = `w8` unrolled by immediates),
//! 31 then 0 on a signed bound (`w11`, `SHF.R.S32.HI R7, RZ, 0x1`), a moved amount
//! (T16t5's `v2_moved_amount`); amounts of 0 in loops of 16 and 40 trips (`w9`, `w10`: unrolled,
//! `SHF.R.S32.HI R7, RZ, 0x1f`). Amounts reaching 32 (`w5`: 0 then 32) shift the high word
//! out (x << 32, the same either way).
//!
//! What stays out: a loaded amount (`r2`, T16t5's `v3`: `SHF.L.U64.HI R7, R0, R9, RZ`, zero
//! high word) and a counter of a loop bounded by a loaded value (`r1`: the loop kept, shifts
//! by registers). Not told apart: `w6` (31 then 0, `sub` then `setp.eq.u32 … 0`) is a loop
//! ptxas 13.0.88 keeps (`UMOV UR4, 0x1f` … `@!P0 BRA`, zero-extended, right) although its
//! counter counts as known ([`known_at_compile_time`]'s fact, which 3501-N2 shares): the emulation
//! fires there.
//!
//! Invariants: a condition on the amount operand only; the value is changed in `emulate.rs`'s
//! L rule, which decides the producer.

use super::known_at_compile_time;
use crate::program::exec::Machine;
use crate::program::glue::Glue;
use crate::semantics::Expected;

/// The amount of the 64-bit shift `g` of thread `t` (source values `vals`) when ptxas knows
/// it: an immediate, or a register holding a value known at compile time (the low 32 bits,
/// §9.7.8.8 reads the amount as `.u32`).
pub(super) fn amount(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<u64> {
    known_at_compile_time::known_source(m, t, g, vals, 1).map(|k| k & 0xFFFF_FFFF)
}
