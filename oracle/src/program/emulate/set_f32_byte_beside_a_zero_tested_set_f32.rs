//! 3701 C1-N2's byte narrowing ([`super::byte_of_set_f32_beside_logic_of_a_mask`]) under a third
//! trigger: a live test against 0 of another `set.<cmp>.f32` word anywhere in the program, not a
//! logic op of a predicate mask (the narrowed set's own word tested is 3604-N2's byte form,
//! `set_f32_widened_as_its_boolean::byte_of_set_f32_compared_with_zero`). Seed 4802's 50a1f28c
//! (corpus/findings/fuzz-h200-4802/trace/T19v3.md, trace/50a1f28c/; variants there and in its s48/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3; 13.5 the same): with `set.eq.f32.s32 r4,
//! r1, 0; setp.ne.u32 p3, r4, 0` live (§9.7.7.1, §9.7.7.2), ptxas holds the set.f32 words as their
//! predicates (`ISETP.EQ.AND P1, PT, R2, RZ`) and rebuilds `cvt.s8.u32 h4, r2` of the unrelated
//! `set.ge.f32.s32 r2` as the integer 1 (`ISETP.LE.AND P0, PT, R2, RZ; SEL R6, RZ, 0x1, !P0`),
//! where §9.7.9.21 truncates 0x3f800000 to the byte 0. Wrong alike: the case, the test feeding a
//! `selp` (v2), the other set of an unrelated load (s48/w1),
//! `setp.eq` (s48/w2), the test before the set (s48/w7), `set.ne.u32.u32` as the test (s48/w8),
//! `cvt.u8.u32` beside a `set.lt.f32.u32` (s48/w9), a moved 0 first (s48/w10). Right (`SEL
//! 0xffffffff; IABS; I2FP.F32.S32; PRMT 0x8880`, the real byte, or `FSEL R, RZ, 1`): no test (v1),
//! an integer set tested (v3), the load tested (v4), a test against 5 (s48/w3), `setp.lt.s32`
//! against 0 (s48/w4), a 16-bit reader (s48/w5), the narrowed set's word also stored (s48/w6),
//! the test dead (s48/w11). The set's own word tested (v5) is wrong
//! too: 3604-N2's. The same trigger also makes the float cvt and the 64-bit widening
//! read 1 (s48/x12, x13); those readers are not widened here.
//!
//! Invariants: a trigger only (the value stays the byte form's); the test is
//! [`super::set_f32_zero_tested::zero_test`] (unguarded `set`/`setp` `.eq`/`.ne` of a 32-bit
//! integer type against a folded 0) whose result is observed, of a register last written by a
//! `set.<cmp>.f32`.

use super::fuzz3701::last_writer;
use super::j_branch_known_values::observed;
use super::reg_of_glue;
use super::set_f32_zero_tested::zero_test;
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, SetDst};
use crate::program::Stmt;

/// Whether some live zero test of the program reads a `set.<cmp>.f32` word: the trigger that
/// makes ptxas rebuild a byte of a set.f32 from its predicate as 0/1.
pub(super) fn zero_tested_set_f32(m: &Machine<'_>) -> bool {
    let is_set_f32 = |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    m.p.body.iter().enumerate().any(|(i, s)| {
        let Stmt::Glue { glue, .. } = s else { return false };
        let tested = |r| zero_test(m, i, r) && last_writer(m, i, r).is_some_and(|(_, w)| is_set_f32(w));
        observed(m, i, glue.dst) && [reg_of_glue(glue, 0), reg_of_glue(glue, 1)].into_iter().flatten().any(tested)
    })
}
