//! 3702-N1 (`setp-eq-of-min-max-reads-selection`, corpus/known/
//! fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection.toml) where the min/max's K is a value
//! ptxas learns only after its local fold: the write of a guarded instruction whose guard it
//! knows to be true. Seed 5002's 50f6d065 (corpus/findings/fuzz-h200-5002/trace/T21d.md,
//! variants in trace/50f6d065/s50/).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 -O3 right): `mov h1, 0; setp.ge.u16 p1, h1,
//! 0xffff; mov h2, 1137; @!p1 and.b16 h2, h1, 0xfffe; max.u16 h3, h2, 0x6e97; setp.eq.u16 p2,
//! h3, 0` (§9.7.7.2 max, §9.7.7.1 setp: max(0, 0x6e97) = 0x6e97 ≠ 0, false) is `HFMA2.MMA R0,
//! -RZ, RZ, 0, 6748; VIMNMX.U16x2 R0, P0, P0, R0, RZ, !PT; SEL R5, RZ, 0xb033a27b, !P0`: the
//! guarded `and` resolved to 0 (RZ) too late for the max to be folded, so the all-constant max
//! is fused with the setp as 3702-N1's session-44 form, P0 "the `VIMNMX`'s first operand
//! selected" = the immediate 0x6e97 (x) selected, true. Wrong alike: `min.u16` (`v3`: P0 false,
//! spec true), a guarded `mov` (`v6`), `max.s16` (`v8`). Right: the unguarded `and` (`v2`,
//! folded), a guard known false (`v7`: the write dropped, folded), `setp.ne` (`v4`), the setp
//! against the immediate itself (`v5`: the same SASS, where P0 is the spec's test).
//!
//! Invariants: a question about the program's statements and the recorded origins; no value
//! changes here (`fuzz3702::setp_eq_of_min_max` consults it).

use super::known_at_compile_time::known;
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::Src;
use crate::program::{Reg, RegClass, Stmt};

/// Whether the value register `r` of thread `t` holds was written by a guarded `mov` of an
/// immediate or guarded glue (no carry read) of immediates and known values, whose guard is a
/// known predicate (it ran, so true): ptxas knows the value, but only after its local fold.
/// Every source (the guard's predicate too) was last written before that write.
pub(super) fn known_through_a_taken_guard(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((s, o)) = m.producer(t, r) else { return false };
    let at = o.stmt;
    let known_before = |r: Reg| known(m, t, r) && m.producer(t, r).is_some_and(|(_, o)| o.stmt < at);
    match s {
        Stmt::Glue { guard: Some(guard), glue } => {
            known_before(Reg::Virt(RegClass::Pred, guard.pred))
                && !glue.op.reads_carry()
                && glue.src.iter().take(glue.op.arity()).all(|src| match src {
                    Some(Src::Imm(_)) => true,
                    Some(Src::Reg(r)) => known_before(*r),
                    None => false,
                })
        }
        Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: Some(guard), .. }) => {
            m.reg_of(&Operand::Name(guard.pred.clone())).is_ok_and(known_before)
                && matches!(operands.get(1), Some(Operand::Imm(Imm::Int(_))))
        }
        _ => false,
    }
}
