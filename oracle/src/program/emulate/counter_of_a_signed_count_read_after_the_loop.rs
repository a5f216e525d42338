//! 3604-N3 past the trip bound of [`loop_exit_test_signed`](super::unsigned_loop_exit_counted_signed) with the
//! counter read after the loop (corpus/known/fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed.toml):
//! ptxas -O3 (13.0.88 and 13.5) counts the loop signed, N trips, peels N mod U of them and
//! unrolls the rest by U, but keeps the unsigned exit test on the unrolled body: the loop leaves
//! after the peel and one unrolled trip, and the counter read afterwards is S + k·(N mod U + U)
//! where §9.7.7.1 gives S + k (one trip). U is ptxas's unroll factor, which depends on the body's
//! code (350 for an empty body, 340 for a `shl.b32`, 175 for 24adc0f8's `xor.b64`/`mul.lo.s64`),
//! so the word has no closed form; what every such value shares with the spec's is the counter's
//! low bits below the step's lowest set bit (S + k·j ≡ S modulo that power of two). The
//! emulation admits those bits fixed and the others any value, at the step of the trip where the
//! unsigned test leaves the loop; the exit test then leaves where the spec does (on the one
//! value the set names, the spec's: `unsigned_loop_exit_counted_signed.rs`).
//!
//! Evidence (13.0.88 -O3 = 13.5 -O3, the stored words recomputed): seed 4603's 24adc0f8
//! (corpus/findings/fuzz-h200-4603/, trace/T17t5.md, trace/24adc0f8/ and its s47/): from
//! 0x80000000 by +0x20 under `setp.lt.u32 i, 0xc` (N = 2^26+1), `IMAD.MOV.U32 R0, RZ, RZ,
//! -0x7ffffb00` (40 peeled), `IADD3 R0, R0, 0x15e0` (175 a trip), `ISETP.GE.U32`: byte 3 = 0xe0
//! (0x80001ae0), spec 0x20; `reduced`, `v1_counter_only`, `v2_counter_only_lt7` (215 + 350:
//! 0x800046a0); seed 4501's cb86bb27 `s46/v9_counter_stored` (5 + 340: 0x80002b20); s47
//! `w1_step_0x18` (k = 24: 286 + 350, 0x80003ba0) and `w2_down_gt` (a down-count under
//! `setp.gt.u32 i, 0xfffffff0`: 0x7fffb960, spec 0x7fffffc0); seed 4203's 98d8219f
//! `v_step_0x7fff` (trace/T12c4.md: 65539 = 350·187 + 89 trips, 0x80db7e49 = 2^31 + 0x7fff·439;
//! an odd step fixes no bit, so there the counter's word is any value).
//!
//! Out (the spec stands): a signed count within the bound (folded exactly:
//! `loop_exit_test_signed`; s47 `w3_under_bound_stored`, 32769 trips), the counter not read after
//! the loop (`emulate/signed_count_of_a_shifted_out_body.rs` or the spec), a `.s32` exit test
//! (`v4_signed_test`, right), and the body's other registers (they hold their value after
//! N mod U + U trips, which this does not give: such a word stays unexplained).

use super::fuzz3602::{guard_setp, label_at, next_flow, unchanged_between};
use super::origin::read_later;
use super::unsigned_loop_exit_counted_signed::{
    exit_test, signed_trips, start_before, step_per_trip, SIGNED_TRIPS_FOLDED,
};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};
use crate::program::{Reg, Stmt};
use crate::semantics::{Allowance, Constraint, Expected, Free};

/// 3604-N3: the counter written by the step `g` in the trip where the unsigned exit test leaves
/// a loop ptxas counts signed past [`SIGNED_TRIPS_FOLDED`], the counter read after the loop:
/// the spec's value with the bits from the step's lowest set bit up free; `None` elsewhere.
pub(super) fn step(m: &Machine<'_>, _: u32, g: &Glue, _: &[Expected], result: &Expected) -> Option<Expected> {
    let i = g.dst;
    if !matches!(g.op, GlueOp::Add | GlueOp::Sub) || !result.is_exact() {
        return None;
    }
    if !matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. })) {
        return None;
    }
    let (bra, &Stmt::Bra { guard: Some(guard), label }) = next_flow(m, m.stmt + 1)? else { return None };
    let head = label_at(m, label).filter(|&l| l < m.stmt)?;
    let (test, exit) = guard_setp(m, guard, bra).filter(|&(k, _)| k > m.stmt)?;
    let (counter, bound, cmp) = exit_test(exit)?;
    if guard.negated || counter != i || !unchanged_between(m, i, m.stmt, test) || !read_later(m, bra, i) {
        return None;
    }
    let k = step_per_trip(&m.p.body[head + 1..bra], i)?;
    let start = start_before(&m.p.body[..head], i)?;
    let trips = signed_trips(i64::from(start), i64::from(k), cmp, i64::from(bound as i32))?;
    if trips <= SIGNED_TRIPS_FOLDED || goes_on(exit, i, result) != Some(false) {
        return None;
    }
    let low = (k as u32).trailing_zeros();
    let free = Free { shift: low, width: 32 - low, constraint: Constraint::Any, allowance: Allowance::Undefined };
    Some(Expected { bits: result.bits, width: result.width, free: vec![free] })
}

/// Whether the exit test `exit` (`.u32`, as §9.7.7.1 compares) holds with `i` = `value`.
fn goes_on(exit: &Glue, i: Reg, value: &Expected) -> Option<bool> {
    let operand = |k: usize| match exit.src.get(k).copied().flatten()? {
        crate::program::glue::Src::Reg(r) if r == i => Some(value.bits as u64 & 0xFFFF_FFFF),
        crate::program::glue::Src::Imm(v) => Some(v),
        _ => None,
    };
    Some(exit.eval([operand(0)?, operand(1)?, 0, 0], false) == 1)
}
