//! 3701 C1-N2 (`cvt-of-set-f32-converts-1-beside-xor-of-set`) under a fourth trigger: a live
//! `setp` of a register x against 0 after the label of a conditional forward branch whose skipped
//! arm writes x with a value that does not read x (a `mov` of an immediate or a register, an
//! `ld`). Seed 4901's 55b28c51 (corpus/findings/fuzz-h200-4901/trace/T20.md; variants in
//! trace/55b28c51/v/ and trace/55b28c51/s49/, each with its README).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3; 13.5 the same): ptxas evaluates the test
//! (§9.7.7.2 `setp`) of the joined x before the branch and splits it into the arm as a predicate
//! write (`ISETP.NE.AND P1, PT, R2, RZ; @!P2 PLOP3.LUT P1, …, 0x8` for `mov.b32 x, 0`, `@!P2
//! ISETP.NE.AND P1, PT, R0, RZ` for a load or a moved register), and with that it holds a
//! `set.<cmp>.f32` word (§9.7.7.1) as its predicate and rebuilds it at the reader as the number:
//! `SEL R9, RZ, 0x1, !P0` for `cvt.s8.u32` (the low byte of 0x3f800000 is 0, §9.7.9.21), `SEL
//! 0x3c00` for `cvt.rn.f16.s32` (v/v16), `SEL R6, RZ, 0x1` for `cvt.u64.u32` (v/v17). Wrong alike:
//! `setp.{ne,eq}.{s32,u32}` (v/v3, v/v9), `.lt.s32` (v/v12), `.gt.u32` (s49/v1), `.ge.s32`
//! (s49/v2), `.le.u32` (s49/v7), a moved 0 (the case), `setp.ne.u64` of a 64-bit x (v/v14), the
//! test feeding a branch (v/v7), the arm `mov.b32 x, 5` (v/v4), an `ld` (v/v22), `mov.b32 x, y`
//! (s49/v3), the set of another load (v/v6), the set after the test (v/v23). Right: no branch
//! (v/v1), no test (v/v2), a test against 5 (v/v5), selp or a guarded mov for the branch (v/v8,
//! v/v15), the test dead (v/v10), the arm writing another register (v/v11) or `add x, x, 1`
//! (v/v21: a predicated `VIADD`, tested after), the test before the branch (s49/v6), a
//! `set.ne.u32` as the test (s49/v4: kept a number), and the set's word also read elsewhere
//! (v/v13 for the byte, s49/v5 for `cvt.rn.f16.s32`: `FSEL 1`, the word's conversion).
//!
//! Invariants: a trigger only (the values stay those of the readers that consult it:
//! `byte_of_set_f32_beside_logic_of_a_mask::byte_of_set_f32`, `fuzz3701::cvt`,
//! `set_f32_widened_as_its_boolean::cvt`); [`triggers_for`] also asks that the set's word be
//! read by the converting statement alone. Deterministic; bounded by the body's length cubed.

use super::b_set_f32_rebuilt_at_its_shifts::constant;
use super::fuzz3602::{label_at, unchanged_between, writes};
use super::j_branch_known_values::{observed, observed_only_by};
use super::origin::reads_and_overwrites;
use super::reg_of_glue;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// Whether the program holds the trigger: a live unguarded `setp.<cmp>.{b,u,s}{32,64} p, x, 0`
/// (or `0, x`; the 0 an immediate or a moved one) after the label of a conditional forward
/// branch whose straight-line arm writes x only by unguarded `mov`s or `ld`s that do not read
/// x, x unwritten between the label and the test.
pub(super) fn zero_test_split_into_an_arm(m: &Machine<'_>) -> bool {
    let body = &m.p.body;
    body.iter().enumerate().any(|(j, s)| {
        let Stmt::Bra { guard: Some(_), label } = *s else { return false };
        let Some(l) = label_at(m, label).filter(|&l| l > j) else { return false };
        let arm = &body[j + 1..l];
        if arm.iter().any(|s| matches!(s, Stmt::Bra { .. } | Stmt::Label(_))) {
            return false;
        }
        let replaced = |x: Reg| {
            let writers: Vec<&Stmt> = arm.iter().filter(|s| writes(s, x)).collect();
            !writers.is_empty() && writers.into_iter().all(|s| replaces(s, x))
        };
        body.iter().enumerate().skip(l + 1).any(|(i, s)| {
            let Stmt::Glue { guard: None, glue } = s else { return false };
            let wide = matches!(
                glue.ty,
                GlueType::B32 | GlueType::U32 | GlueType::S32 | GlueType::B64 | GlueType::U64 | GlueType::S64
            );
            if !matches!(glue.op, GlueOp::Setp(_)) || !wide || !observed(m, i, glue.dst) {
                return false;
            }
            let zero = |k: usize| constant(m, i, glue, k) == Some(0);
            // Either source may be x (the other the 0): the arm's own `mov x, 0` makes x look constant.
            [(reg_of_glue(glue, 0), 1), (reg_of_glue(glue, 1), 0)]
                .into_iter()
                .any(|(x, other)| x.is_some_and(|x| zero(other) && replaced(x) && unchanged_between(m, x, l, i)))
        })
    })
}

/// Whether statement `s` writes `x` a value that does not depend on x: an unguarded `mov` (of
/// an immediate or another register) or `ld` that does not read x (v/v21's `add x, x, 1` is right).
fn replaces(s: &Stmt, x: Reg) -> bool {
    matches!(s, Stmt::Isa(Instruction { form: Form::Mov(_) | Form::Ld(_), guard: None, .. }))
        && !reads_and_overwrites(s, x).0
}

/// The trigger as a reader of the `set.<cmp>.f32` word (written at body index `set_at` to `s`)
/// consults it: the word is observed by the statement being run alone (v/v13, s49/v5 right),
/// and the program holds [`zero_test_split_into_an_arm`].
pub(super) fn triggers_for(m: &Machine<'_>, set_at: usize, s: Reg) -> bool {
    observed_only_by(m, set_at, s, m.stmt) && zero_test_split_into_an_arm(m)
}
