//! Tests of the scopes seed 3802's traces widened for root cause J
//! (corpus/findings/fuzz-h200-3802/, trace/T5A.md, T5B.md): the branch-known value as either
//! operand of `{add,min,max}.{u16x2,s16x2}`, the narrowed `add` of a constant and a register,
//! and the narrowed `add` read through a widening `cvt`. Each is the GPU's word under the
//! emulation and the spec's without, and the right variants untouched.

use super::*;

/// J branch-known, either operand, `min`/`max` beside `add` (7f08ae6d, trace/T5A.md: `add.s16x2
/// %r0, %tix, %r0` gives `@!P0 VIADD.16x2 R7, R7, 0x660066`; ff1a71c7, trace/T5B.md: `min.u16x2
/// %r0, %r1, %tix` gives `@!P0 VIMNMX.U16x2 R0, R0, 0xb000b`; ptxas 13.0.88 -O3): with %r0
/// branch-known to 11, `min.u16x2` of 0xe3a55e2c is 0x000b000b (the spec's 0x0000000b),
/// `max.s16x2` with the known operand first 0x000b5e2c (0x00005e2c); with %r0 known to 0x66,
/// `add.s16x2 %r2, %r0, %r1` of 0x12345678 is 0x129a56de (0x123456de). The taken branch and
/// `min.u32`: the spec's.
#[test]
fn j_3802_a_branch_known_operand_of_min_max_or_add_is_splatted_in_either_position() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |k: &'static str, op: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r1, [%in+4];",
            "mov.b32 %r2, 0;",
            k,
            "@%p4 bra $L4;",
            op,
            "$L4:",
            "st.global.u32 [%out], %r2;",
        ]
    };
    let eleven = "setp.ne.s32 %p4, %r0, 11;";
    let min = with(eleven, "min.u16x2 %r2, %r1, %r0;");
    exact_case(&min, [11, 0xe3a5_5e2c, 0, 0], d, 0xb, 0x000b_000b);
    let max = with(eleven, "max.s16x2 %r2, %r0, %r1;");
    exact_case(&max, [11, 0xe3a5_5e2c, 0, 0], d, 0x5e2c, 0x000b_5e2c);
    let add = with("setp.ne.u32 %p4, %r0, 0x66;", "add.s16x2 %r2, %r0, %r1;");
    exact_case(&add, [0x66, 0x1234_5678, 0, 0], d, 0x1234_56de, 0x129a_56de);
    untouched(&min, [12, 0xe3a5_5e2c, 0, 0], d);
    untouched(&with(eleven, "min.u32 %r2, %r1, %r0;"), [11, 0xe3a5_5e2c, 0, 0], d);
}

/// J narrowed, a constant and a register (b77bce67, trace/T5B.md: `add.u16x2 %r1, %r0(=K),
/// %tix` read as its high half, `VIADD.16x2 R0, R0, 0x0`, 13.5 adding 0xeeb8; ptxas 13.0.88
/// -O3 drops K for K second, `.s16x2`, a loaded register and a `cvt.u16.s32` reader too):
/// K = 0xeeb8e2e5 plus %tix (0) read as the high half is 0 (the spec's 0xeeb8); plus a loaded
/// 0x00010002, the high half 1 (0xeeb9), the low half with K second 2 (0xe2e7), by `cvt.u16.s32`
/// 2. Read whole (`v2_whole`) and both halves read: the spec's.
#[test]
fn j_3802_a_narrowed_add_of_a_constant_and_a_register_keeps_the_register() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let with = |add: &'static str, reader: &[&'static str]| {
        let mut lines = vec!["mov.s32 %r0, -289873179;", "ld.global.u32 %r2, [%in];", add];
        lines.extend(reader);
        lines
    };
    let high = ["mov.b32 {%h2, %h1}, %r1;", "st.global.u16 [%out], %h1;"];
    let low = ["mov.b32 {%h2, %h1}, %r1;", "st.global.u16 [%out], %h2;"];
    let words = [0x0001_0002, 0, 0, 0];
    exact_case(&with("add.u16x2 %r1, %r0, %tix;", &high), words, d, 0xeeb8, 0);
    exact_case(&with("add.u16x2 %r1, %r0, %r2;", &high), words, d, 0xeeb9, 1);
    exact_case(&with("add.s16x2 %r1, %r2, %r0;", &low), words, d, 0xe2e7, 2);
    let cvt = ["cvt.u16.s32 %h1, %r1;", "st.global.u16 [%out], %h1;"];
    exact_case(&with("add.u16x2 %r1, %r0, %r2;", &cvt), words, d, 0xe2e7, 2);
    untouched(&with("add.u16x2 %r1, %r0, %r2;", &["st.global.u32 [%out], %r1;"]), words, d);
    let both_halves = ["mov.b32 {%h2, %h1}, %r1;", "st.global.u16 [%out], %h1;", "st.global.u16 [%out+2], %h2;"];
    untouched(&with("add.u16x2 %r1, %r0, %r2;", &both_halves), words, d);
    // A second addend ptxas computes from immediates (7 + 1) is a constant too: both dropped,
    // `VIADD.16x2 R0, RZ, 0x0` (ptxas 13.0.88 -O3, session 40; this case was listed as right
    // before the session-40 widening of constants, unchecked).
    let known = ["mov.s32 %r0, -289873179;", "mov.b32 %r3, 7;", "add.u32 %r2, %r3, 1;", "add.u16x2 %r1, %r0, %r2;"];
    exact_case(&[&known[..], &high[..]].concat(), words, d, 0xeeb8, 0);
}

/// J narrowed, read through a widening `cvt` (fd2d1cc8, trace/T5A.md: `add.s16x2` of 0xee31ce0f
/// and 0, `cvt.s64.s32 %d0, %r0; cvt.u8.u64 %h2, %d0` stores 0, `VIADD.16x2 R0, RZ, 0x0`; ptxas
/// 13.0.88 -O3 gives that listing for `cvt.{s64,u64}.{s32,u32}` read by
/// `cvt.{u16,s16,u8,s8}.{u64,s64}` and for `cvt.{u16,s16}.{s32,u32}`): 0 where the spec gives
/// 0x0f (0xce0f through `cvt.s16.u32`, `cvt.u64.u32` then `cvt.u16.u64`). `cvt.u8.s32` read
/// directly, `cvt.s64.s32` read by `cvt.u32.u64` (both keep 0xee32ce0f in the listing): the
/// spec's.
#[test]
fn j_3802_a_narrowed_add_read_through_a_widening_cvt_drops_an_addend() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let with = |reader: &[&'static str]| {
        let mut lines = vec!["mov.b32 %r0, 3996306959;", "mov.b32 %r1, 0;", "add.s16x2 %r0, %r0, %r1;"];
        lines.extend(reader);
        lines
    };
    let finding = ["cvt.s64.s32 %d0, %r0;", "cvt.u8.u64 %h2, %d0;", "st.global.u16 [%out], %h2;"];
    exact_case(&with(&finding), [0; 4], d, 0x0f, 0);
    let unsigned = ["cvt.u64.u32 %d0, %r0;", "cvt.u16.u64 %h2, %d0;", "st.global.u16 [%out], %h2;"];
    exact_case(&with(&unsigned), [0; 4], d, 0xce0f, 0);
    exact_case(&with(&["cvt.s16.u32 %h2, %r0;", "st.global.u16 [%out], %h2;"]), [0; 4], d, 0xce0f, 0);
    untouched(&with(&["cvt.u8.s32 %h2, %r0;", "st.global.u16 [%out], %h2;"]), [0; 4], d);
    let word = ["cvt.s64.s32 %d0, %r0;", "cvt.u32.u64 %r3, %d0;", "st.global.u32 [%out], %r3;"];
    untouched(&with(&word), [0; 4], d);
}
