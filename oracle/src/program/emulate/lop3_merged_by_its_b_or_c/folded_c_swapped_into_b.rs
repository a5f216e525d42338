//! The `lop3(x, x, y)` form of [`op_of_lop3_of_its_b_or_c`](super::op_of_lop3_of_its_b_or_c) with
//! y a constant ptxas folds (seed 6103's d08c2cc6, corpus/findings/fuzz-h200-6103/trace/T61G.md,
//! variants trace/d08c2cc6/s61/; helper lg, session 61). ptxas writes the constant into the
//! LOP3's `b` slot first, `b` and `c` swapped (13.5's `LOP3.LUT R0, x, K, x, 0xac` for
//! `lop3(x, x, K, 0xca)`), which makes it the `lop3(x, y, x)` form, whose merge reads the repeated
//! `c` as 0: in PTX terms d = y OP L(x, 0, y), the `lop3`'s `b` read as 0 — not its `a`, as with a
//! register y (e6f0c29f; `v07` here: `LOP3.LUT R7, y, RZ, x, 0x48`). The case: `xor(y, lop3(x, x,
//! y, 0xca))` is 13.0.88 -O3 `LOP3.LUT R5, R0, 0xb133e9df, RZ, 0x60` = x & y (spec x & ~y). The
//! binding fits all ten merged listings of a moved-constant y (`v01`, `v02`, `v06`, seven tables
//! `v08_lut_*`, `v10` and, `v11` or, `v12` swapped, `v13` the lop3 stored too, `v18` a copy of the
//! move). Right: x itself a constant ptxas folds before the merge (`v03` a moved −1, `v04`
//! `bfind.u32` of a moved 0, `v16` `not` of `popc.b64`: two LOP3s); a 64-bit bit-field result of a
//! constant (`bfind.{s64,u64}`: `v01`, `v06`, `v15`) is folded only after the merge (the 64-bit
//! bit-field boundary of `n7_known_within_one_block.rs`).
//! x a constant and y a register is right too, the repeated x read twice (`v05`, `v20`, `v22`:
//! `LOP3.LUT R7, y, K, R9, 0x28`/`0x60` with R9 = K; `v21`: `and(y, lop3(5, 5, y, 0x3c))` is
//! `LOP3.LUT R7, y, 0x5, R9, 0x60` = 0, the spec's, where a read as 0 gives y & 5): e6f0c29f's
//! binding wants x no constant.

use crate::program::emulate::fuzz3701::last_writer;
use crate::program::emulate::origin::{ptxas_constant, PtxasConstant};
use crate::program::exec::Machine;
use crate::program::glue::GlueOp;
use crate::program::{Reg, Stmt};

/// Which input of `lop3(x, x, y)` ptxas 13.0.88 -O3 reads as 0 when it merges it into the OP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ZeroRead {
    /// `a` (e6f0c29f: x and y registers holding no constant): y OP L(0, x, y).
    A,
    /// `b` (d08c2cc6: y a folded constant): y OP L(x, 0, y).
    B,
}

/// The input of the `lop3(x, x, y)` at body index `k`, read by the OP at body index `at` whose
/// other operand is the register `y`, that the merge reads as 0; `None` where ptxas computes it
/// right: x a constant, unless a 64-bit bit-field result (folded after the merge) with y a folded
/// constant.
pub(super) fn zero_read(m: &Machine<'_>, k: usize, at: usize, x: Reg, y: Reg) -> Option<ZeroRead> {
    let y_folded = ptxas_constant(m, at, y) == Some(PtxasConstant::Folded);
    let wide_bit_field = matches!(last_writer(m, k, x), Some((_, Stmt::Glue { glue, .. }))
        if glue.ty.bits() == 64 && matches!(glue.op, GlueOp::Bfind { .. } | GlueOp::Bfe | GlueOp::Bfi | GlueOp::Brev));
    match (ptxas_constant(m, k, x).is_some(), y_folded) {
        (false, true) => Some(ZeroRead::B),
        (false, false) => Some(ZeroRead::A),
        (true, true) if wide_bit_field => Some(ZeroRead::B),
        (true, _) => None,
    }
}
