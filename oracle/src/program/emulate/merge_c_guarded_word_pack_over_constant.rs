//! 3701-N-D (`corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`,
//! `emulate/merge_c_in_place.rs`) widened after seed 4801's traces (corpus/findings/
//! fuzz-h200-4801/trace/T19v1.md: cdcda77b and its mutants bf035d4e, 65e28c38; helper x1,
//! session 49; variants and 13.0.88 / 13.5 -O3 listings in trace/cdcda77b/ and its s49/).
//!
//! Mechanism: a GUARDED `mov.b32 r, {p, h}` (§9.7.9.4 packs the halves as given; §9.3 the guard)
//! whose destination's old value is a constant ptxas folds ([`folded_constant`]) is if-converted
//! into one `SEL` of the packed word and that constant, so ptxas builds the pack unconditionally,
//! as an unguarded one: the pair in place in h's register (`F2FP…MERGE_C`), in every thread. A
//! later read of h takes the pair whatever the guard. cdcda77b: `mov.b32 r6, 0; @p0 mov.b32 r6,
//! {pair, h4}; cvt.f64.f16 d2, h4` (h4 an element of `ld.v2.b8`) is `PRMT R0, R2, 0x7770, RZ;
//! F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, -59717.734375, R0; F2F.F64.F16 R4, R0; SEL R7, R0,
//! RZ, !P0` (13.0.88 and 13.5 -O3; f64 of the pair 0xcf4b, byte 0x3d where the spec's is 0);
//! bf035d4e (`st.s8`) and 65e28c38 (`cvt.bf16.bf16` reads h4: `HFMA2.BF16_V2 R0, -RZ, RZ, R5.H0_H0`
//! of the merged R5) the same pack. Wrong alike: s49 `v1_old_moved_imm` (`SEL R7, R0, 0x12345678,
//! !P0`), `v2_old_glue_of_constants` (`mov.b32 r5, 7; add.u32 r6, r5, 9`: `SEL R7, R0, 0x10`),
//! `v4_guard_false_in_half_the_threads` (`F2F.F64.F16 R4, R0` outside the SEL), `v5_4401_v3_guarded_b32_old_moved_0`
//! (seed 4401's right `v3_guarded_b32` with its loaded old value replaced by a moved 0:
//! `PACK_AB_MERGE_C R7, RZ, RZ, R7; SEL R9, R7, RZ, P0; STG.E.U16 [+0x4], R7`),
//! `v6_h_xor_loaded_pair_f32` (an `xor.b16` h, a pair of loaded words); trace/cdcda77b/
//! `v4_guard_loaded`, `v5_h_read_by_add`.
//!
//! Scope: the pack `mov.b32` of two halves with a guard, its 32-bit destination last written
//! (on every path) by a folded constant at most [`FOLD_DEPTH`] producers deep; the pair and h
//! of the forms `merge_c_in_place::pair_and_half` takes. Right, kept out: the old value loaded
//! (trace/cdcda77b/`v2_old_loaded`; seed 4401's `v3_guarded_b32`, `g7`, `g8`: the pair built
//! from `RZ` in another register, `@!P0 PRMT R11, R0, 0x5410, R9`) or computed from a loaded
//! one (s49 `v3_old_computed_right`: `VIADD R11, R8, 0x1; @!P0 PRMT R11, R0, 0x5410, R9`);
//! h before the pair (s49 `v7_h_first_right`: `PRMT R0, R9, 0x5410, R0`), h from `ld.u16`
//! (s49 `v9_h_scalar_ld_u16_right`: merged in place but `PRMT R7, R7, 0x7632, R7` recovers it),
//! both out of `pair_and_half`'s scope as for an unguarded pack (no pair at an even element
//! before h; h a scalar 16-bit load). Not emulated (wrong, no defined old value to model): the
//! destination never written before (s49 `v8_old_undefined`: `SEL R7, R0, R1, !P0`).
//!
//! Invariants: decides scope only (a bool over the statement's form and its destination's
//! writer); the values are `merge_c_in_place.rs`'s: the pack's word the spec's, h and the
//! registers numbered as h the pair (where the guard fails, through `merge_c_in_place::skipped`).

use super::fuzz3701::folded_constant;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::Stmt;

/// How many producers deep the destination's old value is looked for as a folded constant
/// (as `merge_c_relu_u8_of_64_guarded_over_constant` looks for h's).
const FOLD_DEPTH: u32 = 3;

/// Whether the statement at body index `k` is a guarded `mov.b32` pack of two halves whose
/// destination holds a folded constant before it: ptxas if-converts it into a `SEL` with the
/// pair merged in place in every thread (module docs).
pub(super) fn if_converted_word_pack(m: &Machine<'_>, k: usize) -> bool {
    let Some(Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: Some(_), .. })) = m.p.body.get(k) else {
        return false;
    };
    let Some(dst) = operands.first().and_then(|o| m.reg_of(o).ok()) else { return false };
    mv.shape == MovShape::Pack(2) && dst.class().bits() == 32 && folded_constant(m, k, dst, FOLD_DEPTH)
}
