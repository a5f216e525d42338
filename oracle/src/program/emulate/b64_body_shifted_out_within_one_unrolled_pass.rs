//! 3604-N3 past the trip bound (corpus/known/fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed.toml)
//! for a body of 64-bit shifts: a loop counted signed for N trips past `SIGNED_TRIPS_FOLDED`
//! whose body shifts registers into themselves by an immediate k ≥ 1 with `shl.b64` or
//! `shr.u64` (§9.7.8.7, §9.7.8.8) is peeled N mod U trips and unrolled by U, and leaves after
//! one unrolled pass (the unsigned test kept on it; the law of `emulate/
//! counter_of_a_signed_count_read_after_the_loop.rs`). Where N mod U + U ≥ ⌈64/k⌉ every shifted
//! register is 0 when it leaves, whatever U is: the closed form of
//! [`shifted_out`](super::signed_count_of_a_shifted_out_body::shifted_out), widened here from
//! 32 to 64 bits.
//!
//! U shrinks as the body grows (ptxas 13.0.88 -O3 = 13.5 -O3, the step +15 from 0x80000000 under
//! `setp.lt.u32 i, 12`, N = 143165578): 350 for one `shl.b64` of a moved constant, 344 loaded,
//! 172 for two registers, 113 for three, 68 for four, 48 for six, 35 for eight, and twelve keep
//! the loop with its unsigned test (right). So the form is taken with at most
//! [`WIDE_SHIFTED_MAX`] shifted registers, where N mod U + U ≥ 68 ≥ 64 trips were seen.
//!
//! Evidence (seed 4803's 7ef87864, corpus/findings/fuzz-h200-4803/trace/T19v2.md, variants in
//! trace/7ef87864/ and its s49/): wrong, 0 — the case (`shl.b64 d0, d0, 15` of a moved constant:
//! 178 peeled, `UMOV UR4/UR5, URZ`, U 350; the GPU's words 0/0, the spec 0x1b310000/0x7842d5e2),
//! `v2_shl_b64_loaded` (2 + 344), `v3_shr_b64_by_15` (`shr.u64`), `v4_shl_b64_by_1` (178 + 350
//! shifts by 1), s49 `v2_loaded_shl_b64_by_63` (`STG.E.64` of 0), s49 `v3_shl_b64_and_shl_b32`
//! (2 + 172, `STG … RZ` for the 32-bit one), s49 `v6_four_shl_b64_by_1` (10 + 68 shifts by 1),
//! and seed 4501's cb86bb27 `s46/v13_shl_b64` (5 + 340 shifts by 1, once listed as "kept").
//! Out (the spec stands): s49 `v7_six_shl_b64_by_1` (10 + 48 = 58 shifts by 1: d << 58, not 0)
//! and `v8_eight_shl_b64_by_1` (3 + 35) — wrong, but not shifted out; s49
//! `v9_twelve_shl_b64_by_1` (the loop kept: right); `shr.s64` (s49 `v1_shr_s64` of a positive
//! constant folds to 0 too, but a negative one does not shift out: left out as `shr.s32` is);
//! a shift of another register (s49 `v4_shl_b64_other_src`: right); the counter read after the
//! loop (s49 `v5_shl_b64_counter_stored`: its d0 is 0, but `shifted_out` leaves such a loop to
//! `emulate/counter_of_a_signed_count_read_after_the_loop.rs`, which gives no other register).

use crate::program::glue::{Glue, GlueOp, GlueType};

/// The most registers a body may shift out with a 64-bit one among them (module docs).
pub(super) const WIDE_SHIFTED_MAX: usize = 4;

/// Whether `glue` is a 64-bit shift that shifts its register out (`shl.b64`, `shr.u64`); its
/// operands are checked by the caller.
pub(super) fn wide_shift(glue: &Glue) -> bool {
    matches!((glue.op, glue.ty), (GlueOp::Shl, GlueType::B64) | (GlueOp::Shr, GlueType::U64))
}
