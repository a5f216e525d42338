//! 3701-N-D's half `h` widened to if-converted writers (helper v4, session 42;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place.toml`), called from `pair_and_half` in
//! `emulate/merge_c_in_place.rs`: ptxas 13.0.88 and 13.5 -O3 turn a guarded write of h into
//! one `SEL` (or a predicated ALU instruction) whose result is h's fresh register, and then
//! build the e4m3x2/e5m2x2 pair in that register in place, as for any fresh one-instruction
//! result.
//!
//! Scope (the listings): h's last writer is
//! - a guarded `mov`, `cvt` or glue whose value ptxas knows at compile time (an immediate or
//!   a folded constant, [`writes_folded_constant`] of the statement without its guard):
//!   corpus/findings/fuzz-h200-4202/trace/T12b3.md, a36272a5: `@!p0 cvt.f16.f16 h0, h0` of a
//!   moved 1 is `SEL R0, R0, 0x1, P0; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R5, R5, R0`,
//!   its `v2_guarded_mov` (`@!p0 mov.b16 h0, 7`) alike; trace/T12b4.md, bc46b617: `@p2
//!   cvt.rn.satfinite.e5m2x2.f16x2 h0, r10` of a moved 0 is `SEL R7, R7, R2, P0;
//!   F2FP…UNPACK_B_MERGE_C R7, R0, R7`, its `v2_guarded_mov_imm` alike; helper v4, 13.0.88 -O3:
//!   `@p2 add.u16 h0, h3, 5` of a moved h3 is `SEL R7, R0, 0x7, !P0; MERGE_C R7, R6, R7`;
//! - a guarded 16-bit glue computing from a register (the ALU forms of `computed_half`):
//!   bc46b617's `v1_guarded_add` (`@p add.u16 h0, h0, 3` of a loaded h0: `@P0 VIADD R0;
//!   MERGE_C R0, R7, R0`);
//!
//! An unguarded `selp.b16` of two constants under a computed predicate (a36272a5's `v3_selp`;
//! helper v4, 13.0.88 -O3: `selp.b16 h0, 7, 3, p2` is `SEL R7, R7, 0x3, P0; MERGE_C R7, R2,
//! R7`) needs nothing here: `computed_half` already takes a `selp` with any non-constant
//! source, the predicate included.
//!
//! Right (another register, `PRMT 0x7632` recovers h), kept out: a guarded `cvt` of a loaded
//! value (a36272a5's `v5_guarded_loaded_cvt`, bc46b617's `v9_guarded_cvt_of_loaded` and
//! `v6_guarded_cvt_f16`: the source is no folded constant), h only loaded (`v13`).
//!
//! Invariants: decides scope only; the value the pack's readers take is computed by
//! `merge_c_in_place.rs` (the pair, §9.7.9.4).

use super::fuzz3701::writes_folded_constant;
use super::merge_c_in_place::computed_half;
use crate::isa::Instruction;
use crate::program::exec::Machine;
use crate::program::Stmt;

/// How many producers deep a folded constant is looked for (as `computed_half` does).
const FOLD_DEPTH: u32 = 3;

/// Whether the guarded statement `s` at body index `w`, the last writer of h, is one ptxas
/// if-converts into h's fresh register (module docs). False for an unguarded `s`.
pub(super) fn guarded_half(m: &Machine<'_>, w: usize, s: &Stmt) -> bool {
    let unguarded = match s {
        Stmt::Isa(i @ Instruction { guard: Some(_), .. }) => Stmt::Isa(Instruction { guard: None, ..i.clone() }),
        Stmt::Glue { glue, guard: Some(_) } => {
            if computed_half(m, w, glue) {
                return true;
            }
            Stmt::Glue { glue: *glue, guard: None }
        }
        _ => return false,
    };
    writes_folded_constant(m, w, &unguarded, FOLD_DEPTH)
}
