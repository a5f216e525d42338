//! Tests of root cause F widened after seed 4101's traces (corpus/findings/fuzz-h200-4101/
//! trace/T8x1.md; helper x1, session 41): a narrowing `cvt.sat.*.s32` of a 32-bit negation
//! (`emulate/f_clamped_negation32.rs`). Each: the traced form emulated, a neighbour the listings show
//! right left alone.

use super::*;

/// The lines `neg` (a 32-bit negation of the loaded word, into `%r1`), `between`, then
/// `cvt.sat.<dst>.s32 %r6, <read>` stored as a word.
fn clamped(neg: &[&'static str], between: &[&'static str], cvt: &'static str) -> Vec<&'static str> {
    let load = ["ld.global.s32 %r0, [%in];"];
    let store = ["st.global.u32 [%out], %r6;"];
    [&load[..], neg, between, &[cvt][..], &store[..]].concat()
}

/// ac4a6049 (`neg.s32; cvt.sat.u16.s32`: `ISETP.GT P0, R2, RZ; ISETP.LE P1, R2, -0xffff; SEL;
/// SEL … 0xffff`, 13.0.88 and 13.5 -O3, GPU 0xffff) and cd71a421 (`.s8`: 0x7f): −2^31 takes
/// the clamp's upper bound; every destination narrower than 32 bits; another source value is
/// the spec's.
#[test]
fn f_neg_s32_of_the_minimum_saturates_to_the_upper_bound() {
    let d = Deviation::NegationOverflow;
    let neg = ["neg.s32 %r1, %r0;"];
    let min = [0x8000_0000, 0, 0, 0];
    exact_case(&clamped(&neg, &[], "cvt.sat.u16.s32 %r6, %r1;"), min, d, 0, 0xffff);
    exact_case(&clamped(&neg, &[], "cvt.sat.s16.s32 %r6, %r1;"), min, d, 0xffff_8000, 0x7fff);
    exact_case(&clamped(&neg, &[], "cvt.sat.u8.s32 %r6, %r1;"), min, d, 0, 0xff);
    exact_case(&clamped(&neg, &[], "cvt.sat.s8.s32 %r6, %r1;"), min, d, 0xffff_ff80, 0x7f);
    untouched(&clamped(&neg, &[], "cvt.sat.u16.s32 %r6, %r1;"), [0x8000_0001, 0, 0, 0], d);
}

/// The same negation as `sub.s32` from a moved 0 (`v_sub_moved_zero`; the program text has
/// no immediate minuend) and through a `mov` copy (`v_mov_copy`), guarded cvt included
/// (`v_neg32_guarded_sat`).
#[test]
fn f_sub_s32_from_zero_and_copies_clamp_the_same() {
    let d = Deviation::NegationOverflow;
    let min = [0x8000_0000, 0, 0, 0];
    let moved = ["mov.b32 %r3, 0;", "sub.s32 %r1, %r3, %r0;"];
    exact_case(&clamped(&moved, &[], "cvt.sat.u8.s32 %r6, %r1;"), min, d, 0, 0xff);
    let neg = ["neg.s32 %r1, %r0;"];
    let copy = ["mov.b32 %r2, %r1;", "mov.u32 %r4, %r2;"];
    exact_case(&clamped(&neg, &copy, "cvt.sat.s16.s32 %r6, %r4;"), min, d, 0xffff_8000, 0x7fff);
}

/// Right in the listings, so left alone: `sub.u32` (`IADD3; I2I.U16.S32.SAT`), a negation another path's write joins before the
/// cvt (`v_neg32_branch`: `I2I.S16.S32.SAT` of the join), a negation ptxas knows (`v_moved_min`:
/// folded) and `neg.s64` (`v_neg64_sat_*`).
#[test]
fn f_right_negations_and_readers_are_left_alone() {
    let d = Deviation::NegationOverflow;
    let min = [0x8000_0000, 0, 0, 0];
    let sub_u32 = ["mov.b32 %r3, 0;", "sub.u32 %r1, %r3, %r0;"];
    untouched(&clamped(&sub_u32, &[], "cvt.sat.u16.s32 %r6, %r1;"), min, d);
    let neg = ["neg.s32 %r1, %r0;"];
    let joined =
        ["ld.global.s32 %r2, [%in+4];", "setp.ne.s32 %p1, %r2, 0;", "@%p1 bra $L1;", "add.s32 %r1, %r1, 1;", "$L1:"];
    untouched(&clamped(&neg, &joined, "cvt.sat.s16.s32 %r6, %r1;"), [0x8000_0000, 1, 0, 0], d);
    let known =
        ["mov.b32 %r0, -2147483648;", "neg.s32 %r1, %r0;", "cvt.sat.u16.s32 %r6, %r1;", "st.global.u32 [%out], %r6;"];
    untouched(&known, min, d);
    let neg64 =
        ["ld.global.s64 %d0, [%in];", "neg.s64 %d1, %d0;", "cvt.sat.s32.s64 %r6, %d1;", "st.global.u32 [%out], %r6;"];
    untouched(&neg64, [0, 0x8000_0000, 0, 0], d);
}
