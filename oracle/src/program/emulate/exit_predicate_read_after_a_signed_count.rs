//! 3604-N3 (corpus/known/fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed.toml) where
//! the exit test's predicate is read after the loop: seed 5002's 91b8cb66
//! (corpus/findings/fuzz-h200-5002/trace/T21d.md, variants in trace/91b8cb66/s50/).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3, the JIT; -O0 right): ptxas counts the loop as if its
//! `setp.{gt,ge,lt,le}.u32` exit test were `.s32` and folds it to that trip count
//! (`unsigned_loop_exit_counted_signed.rs`), but a reader of the predicate after the loop gets
//! the test as written (§9.7.7.1, unsigned) of the counter's last value, not the false that
//! left the loop: `mov r3, 0; L: sub.u32 r3, r3, 0x80000000; setp.gt.u32 p0, r3, 0x40; @p0 bra
//! L; @p0 st [out+4], r2` is `HFMA2.MMA R7, …; STG [+0x4], R7` (r2 stored: one trip, r3 =
//! 0x80000000 > 0x40 unsigned), where the spec runs two trips and leaves with p0 false.
//! Wrong alike: a `selp` of p0 (`v2`), a step `add 0x90000000` (`v6`), five spec trips
//! (`v7`: `sub 0x30000000` under `gt.u32 0x20000000`, selp 7 and r3 = 0xd0000000 stored, the
//! spec's 9 and 0x10000000). Right: a `.s32` test (`v4`), a count where both readings agree
//! (`v5`).
//!
//! Invariants: [`restore`] only runs where 3604-N3 is emulated, at the statement after the
//! loop's back edge, and only rewrites the exit test's predicate with the test's own (spec)
//! evaluation of the registers it reads, unchanged since the test.

use super::fuzz3602::{guard_setp, label_at, unchanged_between};
use super::reg_of_glue;
use super::unsigned_loop_exit_counted_signed::{
    exit_test, signed_trips, start_before, step_per_trip, SIGNED_TRIPS_FOLDED,
};
use crate::program::exec::Machine;
use crate::program::glue::Src;
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// At body index `i`, the statement after a loop's `@p bra` back edge whose exit test 3604-N3
/// counts signed (within the trips ptxas folds), gives every thread's `p` the exit test's own
/// value of the counter it left with (see the module header).
pub(in crate::program) fn restore(m: &mut Machine<'_>, i: usize) {
    if !m.allow.emulates(Deviation::UnsignedLoopExitTestCountedSigned) || i == 0 {
        return;
    }
    let bra = i - 1;
    let Some(&Stmt::Bra { guard: Some(guard), label }) = m.p.body.get(bra) else { return };
    let Some(head) = label_at(m, label).filter(|&l| l < bra) else { return };
    if guard.negated {
        return;
    }
    let Some((at, g)) = guard_setp(m, guard, bra).filter(|&(at, _)| at > head) else { return };
    let g = *g;
    let Some((counter, bound, cmp)) = exit_test(&g) else { return };
    let Some(step) = step_per_trip(&m.p.body[head + 1..at], counter) else { return };
    let Some(start) = start_before(&m.p.body[..head], counter) else { return };
    let trips = signed_trips(i64::from(start), i64::from(step), cmp, i64::from(bound as i32));
    if trips.is_none_or(|n| n > SIGNED_TRIPS_FOLDED) || !unchanged_between(m, counter, at, i) {
        return;
    }
    let p = Reg::Virt(RegClass::Pred, guard.pred);
    for t in 0..m.threads {
        let read = |k: usize| match g.src.get(k).copied().flatten() {
            Some(Src::Imm(v)) => Some(v),
            Some(Src::Reg(r)) => m.read(t, r).ok().filter(Expected::is_exact).map(|v| v.bits as u64),
            None => None,
        };
        let (Some(a), Some(b)) = (read(0), read(1)) else { continue };
        let Ok(old) = m.read(t, p) else { continue };
        if reg_of_glue(&g, 0).or(reg_of_glue(&g, 1)) != Some(counter) {
            continue;
        }
        let value = Expected::exact(u128::from(g.eval([a, b, 0, 0], false)), old.width);
        m.regs[t as usize].insert(p, value);
    }
}
