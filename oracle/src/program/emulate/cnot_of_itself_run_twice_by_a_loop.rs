//! 3501-N3's chain of `cnot`s (42ff61b7's context, `emulate/cnot_chain_b16_or_b64.rs`) formed by one
//! loop-carried `cnot.{b16,b64} x, x` that a loop runs twice or more (seed 4603's e55c2d82,
//! session 47; corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml):
//! ptxas unrolls the loop, folds `cnot(cnot x)` to a select of the predicate `x == 0` and the
//! float `cvt` reading it converts its arms as the numbers 0 and 1, where §9.7.8.6 gives the bits
//! 0/1 and §9.7.9.21 converts 0x0001 as a subnormal. Called from
//! [`cnot_of_a_cnot`](super::cnot_chain_b16_or_b64::cnot_of_a_cnot), which reads the chain statically
//! (the source's last writer before the `cnot` in the body: here the statement before the loop).
//!
//! Evidence (13.0.88 -O3, 13.5 the same; corpus/findings/fuzz-h200-4603/trace/T17t5.md
//! "e55c2d82", trace/e55c2d82/): `cvt.rn.satfinite.e4m3x2.f32 h0; mov.u32 r6, 2; L: cnot.b16 h0,
//! h0; sub r6, 1; setp.ne.u32 p, r6, 0; @p bra L; cvt.rni.bf16.bf16 h10, h0` is `ISETP.EQ.U32
//! P0; SEL R7, RZ, 0x3f80, P0` (bf16 1.0, byte 0x80) where the spec's is +0 (`reduced`, the
//! campaign case's word 3 byte 2); wrong alike: three trips (`v3_loop_three_trips`), a loaded
//! half (`v5_loaded_half`), the two `cnot`s written out (`v1_straight_two_cnots`, the static
//! form). Right: one trip (`v2_loop_one_trip`: one `cnot`, `FRND.BF16` of its bits), `not.b16`
//! (`v4_loop_not`), no float `cvt` (`v6_no_cvt`).
//!
//! Invariants: a condition on the value's producers as the machine recorded them (dynamic: the
//! `cnot`'s source on this trip was written by the same `cnot` on the last); changes no value.

use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// Whether register `r` of thread `t` holds a `cnot.{b16,b64} x, x` result whose source `x` the
/// same `cnot` wrote (the loop's previous trip): a chain of two `cnot`s or more.
pub(super) fn cnot_of_itself_run_twice(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    m.producer(t, r).is_some_and(|(s, o)| {
        let itself = matches!(s, Stmt::Glue { glue, guard: None }
            if glue.op == GlueOp::Cnot
                && matches!(glue.ty, GlueType::B16 | GlueType::B64)
                && super::reg_of_glue(glue, 0) == Some(glue.dst));
        itself && o.a_stmt == Some(o.stmt)
    })
}
