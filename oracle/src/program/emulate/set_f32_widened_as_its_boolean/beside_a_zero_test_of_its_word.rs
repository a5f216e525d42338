//! 3604-N2's rebuild (`widened-set-f32-compared-with-zero-is-0-or-1`) of a 64-bit integer widening
//! whose set.f32 WORD (not the widened value) a live 32-bit compare tests against 0: seed 6101's
//! dfda7034 (corpus/findings/fuzz-h200-6101/trace/T61C.md, variants in `trace/dfda7034/s61/` with
//! 13.0.88 and 13.5 -O3 listings; helper lc, session 61).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3 identical, the JIT; -O0 right): `set.ne.f32.u16 r1, h0,
//! 0x798a; cvt.u64.u32 d1, r1; set.ne.s32.s32 r5, 0, r1` with d1's low word and r5 read is
//! `ISETP.NE.U32 P0; SEL R9, RZ, 0x1, !P0; SEL R0, RZ, 0xffffffff, !P0`: the zero test of the
//! word is the set's own predicate, and the widening reads the set rebuilt from it as the number
//! 1, where §9.7.9.21 zero-extends the word 0x3f800000. Wrong alike: the test's result stored with
//! no pack (`v4`), a `setp.ne.s32 s, 0` read by a `selp` (`v7`), `set.eq.u32.u32 s, 0` (`v8`), an
//! `.f32` destination (`v9`), the test before the widening (`v13`), the pack reading a loaded word
//! beside it (`v6`). Right: the test dead (`v10`: `SEL -1; IABS; I2F.S16`, the word), a test of
//! another register (`v2`), against 5 (`v5`), no test (`v3`), no widening (`v1`, `v12`: `FSEL R,
//! RZ, 1`, 1.0f).
//!
//! Invariants: a condition on the program's statements and the set's word; `None` (the spec's
//! result stands) unless 3604-N2 is emulated and every condition holds.

use super::super::origin::read_later;
use super::compares_with_zero;
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// Whether, after body index `k` and before `r` is written again, an unguarded
/// `setp.<cmp>.{u32,s32,b32}` or `set.<cmp>.<dst>.{u32,s32}` compares register `r` with 0 (an
/// immediate, or a register an unguarded move of the immediate 0 last wrote) and its result is
/// read later.
pub(super) fn zero_tested_live(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        if let Stmt::Glue { glue, guard: None } = s {
            let compare = match glue.op {
                GlueOp::Setp(_) => matches!(glue.ty, GlueType::U32 | GlueType::S32 | GlueType::B32),
                GlueOp::Set(..) => matches!(glue.ty, GlueType::U32 | GlueType::S32),
                _ => false,
            };
            if compare && compares_with_zero(m, j, glue, r, true) && read_later(m, j, glue.dst) {
                return true;
            }
        }
        if super::writes(s, r) {
            return false;
        }
    }
    false
}
