//! 3702-N5's narrowed `PRMT` (`prmt-sign-of-a-narrowed-reads-zero`, corpus/known/
//! fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero.toml) reached through 64-bit links
//! (session 58, helper hd; corpus/findings/fuzz-h200-5801/trace/T58D.md): ptxas 13.0.88 -O3 sees
//! through a 64-bit round trip of the `prmt.b32` result as through the 32-bit links of
//! [`reaching_prmt`](super::reaching_prmt), so the zero-extending reader still gets its narrowed copy.
//! - a widening `cvt.{u64,s64}.{u32,s32}` truncated by `cvt.{u16,s16}.{u64,s64}` (2 bytes): seed
//!   5801's c8c7cdc4 (`cvt.s64.s32 d0, r1; cvt.s16.s64 h3, d0; mul.hi.u16`, `PRMT R0, RZ, 0x7a,
//!   R2`, the listing of `cvt.s16.s32` (`s58/v1_no_s64`); `.u64.u32`/`.u16.u64` (`v2_u64`) the same);
//! - a 16-bit element of `mov.b64 {h0, h1, h2, h3}, d` holding a word's low half (h0 or h2) where
//!   `d` was packed by `mov.b64 d, {e0, e1}` from the `prmt` (2 bytes): seed 5802's 2f7d1698
//!   (`mov.b64 d3, {r3, r0}; mov.b64 {h17, …}, d3; mul.lo.u16 h21, h17, h18`, `PRMT R0, RZ, 0xe9,
//!   R2`, the listing of `mov.b32 {h17, h18}, r3` (`s58/v1_b32_unpack`); r3 the high word, h19
//!   (`v2_high_word`) the same);
//! - the low word e0 of a `mov.b64 d, {e0, e1}` pack of the `prmt` read as `d` by a truncation
//!   `cvt.{u16,s16}.{u64,s64}` or by the zero-extending reader itself (2 or the reader's bytes):
//!   seed 6202's 6a0d8362 (corpus/findings/fuzz-h200-6201/trace/T62E.md, variants in
//!   fuzz-h200-6202/trace/6a0d8362/s62/: `mov.b64 d3, {r0, r0}; cvt.u16.u64 h6, d3; cvt.u64.u8 d5,
//!   h6` is `PRMT R0, RZ, 0xb, R2`, the listing of `cvt.u16.u32 h6, r0` (`x1`); e1 loaded (`x2`),
//!   `cvt.s16.s64` (`x3`), `cvt.u8.u64 h6, d3` (`x4`), d3 also stored (`x6`), `and.b64 d5, d3, 0xff`
//!   (`x9`), `cvt.u32.u16` (`x10`, 2 bytes) the same; right: `cvt.s64.s8` (`x5`), an index nibble
//!   (`x7`), the `prmt` as e1 (`x8`: e0 is read)).
//!
//! The widening of the first is a 4-byte `cvt` link of [`wide_or_back`](super::wide_or_back), the
//! truncation ([`is_truncation_from_64`]) the walk's one truncation to 16 bits; both are checked
//! against the producers the machine recorded as every `cvt` link is.
//!
//! Invariants: pure questions about the body; a link is taken only unguarded (the caller's rule),
//! and a pack only right after a 64-bit unpack, with no `cvt` link beside them, or where the
//! 64-bit register it writes is read (its low word, e0), with no `cvt` link between it and the `prmt`.

use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtType, Instruction};
use crate::program::exec::Machine;
use crate::program::Reg;

use super::super::fuzz3702_conversions::bare;

/// Whether `c` is a bare `cvt.{u16,s16}.{u64,s64}` (the low half of a 64-bit register, §9.7.9.21).
pub(super) fn is_truncation_from_64(c: Cvt) -> bool {
    [CvtType::U16, CvtType::S16].iter().any(|&d| [CvtType::U64, CvtType::S64].iter().any(|&a| c == bare(d, a, false)))
}

/// For `mov.b64 {h0, h1, h2, h3}, d` (`i`) writing the 16-bit `reg`: the word of `d` whose low
/// half `reg` is (h0: 0, h2: 1), with `d`; `None` for a high half or `reg` named twice.
pub(super) fn low_half_element(m: &Machine<'_>, i: &Instruction, reg: Reg) -> Option<(usize, Reg)> {
    let Some(Operand::Vector(items)) = i.operands.first() else { return None };
    let d = m.reg_of(i.operands.get(1)?).ok().filter(|d| d.class().bits() == 64)?;
    if reg.class().bits() != 16 || items.len() != 4 {
        return None;
    }
    let named: Vec<usize> = (0..4).filter(|&n| items.get(n).and_then(|o| m.reg_of(o).ok()) == Some(reg)).collect();
    match named.as_slice() {
        [n] if n % 2 == 0 => Some((n / 2, d)),
        _ => None,
    }
}

/// For `mov.b64 d, {e0, e1}` (`i`): the 32-bit register packed as word `word`.
pub(super) fn packed_word(m: &Machine<'_>, i: &Instruction, word: usize) -> Option<Reg> {
    let Some(Operand::Vector(items)) = i.operands.get(1) else { return None };
    let e = m.reg_of(items.get(word)?).ok()?;
    (items.len() == 2 && e.class().bits() == 32).then_some(e)
}
