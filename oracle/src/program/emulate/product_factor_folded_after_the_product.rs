//! 3701-C3-2 (corpus/known/fuzz-h200-3701-c3n2-shl-b64-of-product-by-64-dropped.toml) with a
//! factor ptxas knows only after it has taken the product for "a register by a constant": a
//! constant made by 64-bit `and`/`or`/`xor` glue.
//!
//! Role: the one condition of [`fuzz3701`](super::fuzz3701)'s `shl_of_product_dropped` that says
//! which folded-constant factors do not count as known for its "one factor known" test
//! ([`folded_after_the_product`]); the rest of C3-2's scope stays in `fuzz3701.rs`.
//!
//! Mechanism (corpus/findings/fuzz-h200-4603/, ad3d4a1a, trace/T17t4.md; variants in
//! trace/ad3d4a1a/ and trace/ad3d4a1a/s46/; ptxas 13.0.88 -O3, 13.5 alike): `mov.s64 d0, K;
//! xor.b64 d0, d0, 3; mul.lo.s64 d1, d0, 2^36; shl.b64 d1, d1, 0x3ffff` is `HFMA2.MMA R0, -RZ,
//! RZ, 44.84375, 55.8125` (d0's low word, the xor folded) `; SHF.L.U32 R0, R0, 0x4` (the
//! product's high word) with no shift: C3-2's drop, although both factors are constants. A
//! factor made by `and.b64` or `or.b64` gives the same listing (`s46/v8`, `s46/v9`), with the
//! immediate first too (`s46/v17`), or a moved immediate as the other factor (`s46/v15`). So
//! such a factor is, for the fold, a register ptxas does not know yet: two of them (`s46/v12`)
//! or one beside a loaded factor (`s46/v16`) are not "by a constant" and stay right (`STG.E.S16
//! …, RZ`).
//!
//! What stays out (a constant ptxas folds before the product, so the product is folded whole:
//! right): a plain move (`v1_mov_const_factor`), an `add.s64`- (`v5_add_folded_factor`) or
//! `sub.s64`-made factor (`s46/v13`), `not.b64` (`s46/v10`), and a 32-bit `xor.b32` of a
//! constant, widened by `cvt.u64.u32` (`s46/v14`) or read by `mul.wide.u32` (`s46/v18`).

use super::fuzz3701::last_writer;
use crate::program::exec::Machine;
use crate::program::glue::GlueOp;
use crate::program::{Reg, Stmt};

/// Whether register `r`, a factor read at body index `at`, was last written before `at` by
/// unguarded 64-bit `and`/`or`/`xor` glue: a constant (when its sources are) that ptxas folds
/// only after the product.
pub(super) fn folded_after_the_product(m: &Machine<'_>, at: usize, r: Reg) -> bool {
    matches!(last_writer(m, at, r), Some((_, Stmt::Glue { glue, guard: None }))
        if matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor) && glue.ty.bits() == 64)
}
