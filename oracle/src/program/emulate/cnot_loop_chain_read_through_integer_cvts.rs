//! 3501-N3's loop-carried `cnot` chain (seed 4603's e55c2d82, `emulate/cnot_of_itself_run_twice_by_a_loop.rs`)
//! read by the float `cvt` through integer `cvt`s (seed 5103's de634528, session 51;
//! corpus/findings/fuzz-h200-5103/trace/T22c.md, variants in trace/de634528/s51/;
//! corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml).
//!
//! Mechanism: ptxas unrolls the loop, folds `cnot(cnot x)` to a select of the predicate `x == 0`
//! and converts the arms as the numbers 0 and 1 at the float `cvt`, also when integer `cvt`s
//! (which keep a 0/1 a 0/1) stand between the chain and the float `cvt`, as the static chain
//! (42ff61b7, `emulate/cnot_chain_b16_or_b64.rs`) already allows. §9.7.9.21 converts the bits
//! 0x00000001 (a subnormal) and §9.7.8 cnot gives 1 or 0 (the bits).
//!
//! Evidence (13.0.88 -O3, 13.5 the same): de634528's `L: cnot.b64 d0, d0; …` (six trips) then
//! `cvt.s32.s64 r6, d0; cvt.rp.bf16.f32 h4, r6` is `ISETP.EQ.U32(.EX) P0, d0, RZ; SEL R0, RZ,
//! 0x3f80, P0` (bf16 1.0 where §9.7.9.21 rounds 2^-149 up to 0x0001); s51/v1 (the chain and the
//! two cvts alone) and v4 (two trips, `cvt.u32.u64`, `cvt.rn.f16.f32`: `SEL R7, RZ, 0x3c00, P0`)
//! alike. Right: one trip (v2: `SEL; IADD3 -R0; F2F.BF16.F32.RP` of the bits), `not.b64` (v3).
//!
//! Scope: a register whose producer is an unguarded integer `cvt` (at most `LINK` of them) whose
//! source register still holds the value the `cvt` read (its recorded producer unchanged), down
//! to a `cnot.{b16,b64} x, x` the loop ran twice or more
//! ([`cnot_of_itself_run_twice`](super::cnot_of_itself_run_twice_by_a_loop::cnot_of_itself_run_twice)).
//! Invariants: a condition on the machine's recorded producers; changes no value by itself.

use super::cnot_chain_b16_or_b64::{link_operand, LINK};
use super::cnot_of_itself_run_twice_by_a_loop::cnot_of_itself_run_twice;
use crate::program::exec::Machine;
use crate::program::Reg;

/// Whether register `r` of thread `t` holds, through one to [`LINK`] unguarded integer `cvt`s,
/// a `cnot.{b16,b64} x, x` result of the loop's second trip or later.
pub(super) fn loop_cnot_chain_through_integer_cvts(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    through(m, t, r, LINK)
}

fn through(m: &Machine<'_>, t: u32, r: Reg, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    let Some((s, o)) = m.producer(t, r) else { return false };
    let Some(x) = link_operand(s).and_then(|op| m.reg_of(op).ok()) else { return false };
    // The link's source still holds the value the link read: its producer is the one recorded.
    let unchanged = m.producer(t, x).is_some_and(|(_, ox)| Some(ox.stmt) == o.a_stmt);
    unchanged && (cnot_of_itself_run_twice(m, t, x) || through(m, t, x, depth - 1))
}
