//! 3702-N5 through 64 bits (seed 5802's b5cfdfb6, corpus/findings/fuzz-h200-5802/trace/T58C.md
//! and trace/b5cfdfb6/s58/): a widening of the `prmt` result to 64 bits keeps its low bytes where
//! they were, so ptxas 13.0.88 -O3 narrows the `PRMT` for the 64-bit register's zero-extending
//! readers as for the word's. `prmt.b32 r6, r5, r5, 0x8888; cvt.u64.u32 d3, r6; cvt.u8.s64 h2,
//! d3` is `PRMT R7, RZ, 0x8, R2` (0, spec 0xff; 13.5 `PRMT R7, R2, 0x7778, RZ`), and so are
//! `cvt.s64.s32` (v2), `cvt.u8.u64` (v3), `and.b64 d3, 0xff` (v5), d3 also stored (v6: the cvt's
//! own narrowed copy), a `cvt.u32.u64` back between (v9), `cvt.u32.u16` of d3 (v11, 2 bytes).
//! Right: `cvt.u16.u64` stored (v4), `cvt.s8.s64` (v10).
//! The widening is also the 4-byte link under seed 5801's c8c7cdc4 `cvt.s16.s64` truncation
//! ([`through_64_bits`](super::through_64_bits)).

use crate::isa::{Cvt, CvtType};

/// Whether `c` is a bare integer `cvt` between 32 and 64 bits, `cvt.{u64,s64}.{u32,s32}` or
/// `cvt.{u32,s32}.{u64,s64}` (§9.7.9.21: the low word kept either way).
pub(super) fn keeps_the_word(c: Cvt) -> bool {
    let (w32, w64) = ([CvtType::U32, CvtType::S32], [CvtType::U64, CvtType::S64]);
    let bare = c.rnd.is_none() && !c.ftz && !c.sat && !c.relu && !c.satfinite;
    let widening = w64.contains(&c.dtype) && w32.contains(&c.atype);
    let back = w32.contains(&c.dtype) && w64.contains(&c.atype);
    bare && (widening || back)
}

/// How many low bytes `and.b64` with the mask `imm` zero-extends: 0xff, 0xffff or 0xffffff (1,
/// 2, 3), as `and.b32` does.
pub(super) fn low_bytes_mask(imm: u64) -> Option<u32> {
    match imm {
        0xff => Some(1),
        0xffff => Some(2),
        0xff_ffff => Some(3),
        _ => None,
    }
}
