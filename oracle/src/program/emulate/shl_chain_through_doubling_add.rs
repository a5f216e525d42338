//! 3501-N2 (`shl-b64-chain-folded-into-lea`) through a doubling step: `add.{s64,u64} d, x, x`
//! (both sources one value) is a `shl.b64` by 1 of the chain (seed 4601's d1299fe9,
//! corpus/findings/fuzz-h200-4601/trace/T17t1.md, variants in trace/d1299fe9/ and its s47/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3): a loop of `shl.b64 d, d, r0; add.s64 d,
//! d, d` (r0 = 10, 8, 6, 4, 2) read by `sub.cc.s64 d, d, K` is unrolled into `IMAD.SHL.U32;
//! SHF.L.U64.HI; IADD3 R9, P0, R9, R9, RZ; IMAD.X R0, R0, 0x1, R0, P0` per trip, and the fourth
//! doubling is fused into the subtraction (`IADD3 RZ, P0, P1, R2, -0x60d822e9, R2; IADD3.X R5,
//! R0, 0x5b73c852, R0, P0, P1`): the running amount counted with each doubling as 1 reaches 32
//! there (10+1+8+1+6+1+4+1), the later `shl 2` and doubling are dropped, (x << 32) − K where the
//! spec (§9.7.1.1 add, §9.7.8.7 shl) has (x << 35) − K. The same cut as `v1_shl1_step` (`shl.b64
//! d, d, 1` for the add, `LEA …, 0x1`). Wrong alike: the trips unrolled (s47/w1), `add.u64`
//! (s47/w3), the doubling into another register (s47/w4), the addend a `mov` copy (s47/w5), 33
//! doublings alone, unrolled or a loop (s47/w2, w9: 32 `IADD3`/`IMAD.X` pairs, the last fused),
//! a doubling then `shl 31` (s47/w7: the doubling after the cut dropped), `shl 31` then three
//! doublings (s47/w8). Right: a total of 31 (s47/w6, `LEA …, 0x4`), and, as for any chain, no
//! constant read (`v3_no_sub`) or a loaded addend (`v4_add_loaded`).
//!
//! Out of scope: a doubling as the first step from a zero-extended base (seed 4501's uncounted
//! widening, not shown with doublings: the plain count stays).
//!
//! Invariants: a query on the statement only; the chain itself is built in `origin.rs`'s
//! `glue_origin`, as for a shift by 1.

use super::lop3_merged_through_b64_packs::same_value;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};

/// Whether `g`, the statement being run, is `add.{s64,u64} d, x, x` whose two sources hold one
/// value as ptxas numbers values (one register, or copies of one): a chain step by 1.
pub(super) fn doubling_add(m: &Machine<'_>, g: &Glue) -> bool {
    if g.op != GlueOp::Add || !matches!(g.ty, GlueType::S64 | GlueType::U64) {
        return false;
    }
    match (reg_of_glue(g, 0), reg_of_glue(g, 1)) {
        (Some(a), Some(b)) => a == b || same_value(m, (m.stmt, a), (m.stmt, b)),
        _ => false,
    }
}
