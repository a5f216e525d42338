//! 3604-N3 past the trip bound of [`loop_exit_test_signed`](super::unsigned_loop_exit_counted_signed): a loop
//! counted signed for more trips than the emulation runs, whose body (besides the induction step)
//! only shifts registers out by an immediate, so that its state after N trips is known without
//! running them. Called from `emulate/unsigned_loop_exit_counted_signed.rs` where the signed count is past
//! `SIGNED_TRIPS_FOLDED`.
//!
//! Mechanism (ptxas 13.0.88 -O3, 13.5 the same; corpus/findings/fuzz-h200-4501/, cb86bb27,
//! trace `trace/T16t2.md` and `trace/cb86bb27/s46/`): a loop from 0x80000000 by +32 under
//! `setp.lt.u32 i, 7` runs once by the spec (§9.7.7.1 compares `.u32` unsigned), 2^26+1 trips
//! counted `.s32`; its body `shl.b32 r5, r5, 1` is then folded to its value after that count,
//! 0: `STG.E.U8 [R2.64+0xa], RZ` (spec 0x02). The same fold for a loaded r5 (`v6_loaded_shl`),
//! `s46/v7_shr_u32`, `s46/v8_shl_by_3` and two registers shifted (`s46/v11_two_shl_regs`): `STG
//! … RZ`. A `shl.b32`/`shr.u32` by an immediate k ≥ 1 of a register into itself reaches 0
//! within 32 trips and stays there, and the other trips change only the induction register; so
//! where that register is not read after the loop, the loop may leave as soon as every shifted
//! register is 0 (at most 32 trips run) and every value read afterwards is the one 2^26+1 trips
//! give.
//!
//! Out (the spec stands, the finding stays new): the induction register read after the loop
//! (`s46/v9_counter_stored`: ptxas peels 5 trips and runs an unrolled-by-340 body, storing
//! 0x80002b20, neither count's value), any other statement in the body (`v4_add_body`,
//! `v5_mul_body`, `s46/v10_shl_and_add`: peeled and unrolled, no closed form), `shr.s32` (kept
//! and unrolled, `s46/v12_shr_s32`), a shift of another register (`s46/v14_shl_other_src`,
//! right either way), a statement between the test and its branch.
//!
//! `shl.b64`/`shr.u64` (`s46/v13_shl_b64`, seed 4803's 7ef87864) shift out within the one
//! unrolled pass ptxas runs where the body is small: `emulate/b64_body_shifted_out_within_one_unrolled_pass.rs`.

use super::b64_body_shifted_out_within_one_unrolled_pass;
use super::fuzz3602::writes;
use super::origin::read_later;
use super::values::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// For the loop of thread `t` whose label is at body index `head`, whose exit test is the
/// statement being run and whose backward branch is at `bra`, with induction register `i`:
/// `Some(true)` where every register its body shifts out is 0 (the loop may leave), `Some(false)`
/// where some is not yet, `None` where the body is not of that form (no closed form).
pub(super) fn shifted_out(m: &Machine<'_>, t: u32, head: usize, bra: usize, i: Reg) -> Option<bool> {
    if bra != m.stmt + 1 || read_later(m, bra, i) {
        return None;
    }
    let mut shifted = Vec::new();
    let mut any_wide = false;
    for s in m.p.body.get(head + 1..m.stmt)? {
        if writes(s, i) {
            // The induction step (`step_per_trip` has checked every write of i).
            continue;
        }
        let Stmt::Glue { guard: None, glue } = s else { return None };
        let narrow = matches!((glue.op, glue.ty), (GlueOp::Shl, GlueType::B32) | (GlueOp::Shr, GlueType::U32));
        let wide = b64_body_shifted_out_within_one_unrolled_pass::wide_shift(glue);
        let shift = narrow || wide;
        let into_itself = reg_of_glue(glue, 0) == Some(glue.dst);
        let by_an_immediate = imm_of(glue, 1).is_some_and(|k| k >= 1);
        if !(shift && into_itself && by_an_immediate) {
            return None;
        }
        any_wide |= wide;
        shifted.push(glue.dst);
    }
    if shifted.is_empty()
        || (any_wide && shifted.len() > b64_body_shifted_out_within_one_unrolled_pass::WIDE_SHIFTED_MAX)
    {
        return None;
    }
    let mut zero = true;
    for r in shifted {
        let v = m.read(t, r).ok().filter(|v| v.is_exact())?;
        let mask = if r.class().bits() >= 64 { u128::from(u64::MAX) } else { 0xFFFF_FFFF };
        zero &= v.bits & mask == 0;
    }
    Some(zero)
}
