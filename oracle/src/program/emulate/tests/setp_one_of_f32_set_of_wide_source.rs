//! Tests of 6a4d050b's emulation (`emulate/setp_one_of_f32_set_of_wide_source.rs`): the fold of
//! a compare with 1 of a `set.<cmp>.f32.{u64,s64}` result into the set's test (corpus/findings/
//! fuzz-h200-4203/trace/6a4d050b/; corpus/findings/fuzz-h200-4402/trace/c58b70c2/s45/, 13.0.88
//! and 13.5 -O3 listings): the wrong forms emulated, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet;

/// `ld.global.s64 %d1` (input words 0, 1), `ld.global.u32 %r9` (word 2), `ld.global.u16 %h9`
/// (word 3), `%d0` 0, the set `set` into `%r3`, `consumer` of `%r3` writing `%p0`, and the
/// `selp.b32` of a moved 7 and 0 by `%p0` stored.
fn selected(set: &'static str, consumer: &'static str) -> [&'static str; 10] {
    [
        "ld.global.s64 %d1, [%in];",
        "ld.global.u32 %r9, [%in+8];",
        "ld.global.u16 %h9, [%in+12];",
        "mov.b64 %d0, 0;",
        set,
        consumer,
        "mov.b32 %r6, 7;",
        "mov.b32 %r7, 0;",
        "selp.b32 %r0, %r6, %r7, %p0;",
        "st.global.u32 [%out], %r0;",
    ]
}

/// c58b70c2 (`trace/c58b70c2/reduced.ptx`): `set.ge.f32.s64 r3, 0, d1; setp.eq.s32 p, r3, 1; @p
/// bra` takes the branch where d1 ≤ 0 (`ISETP.LE.U32; ISETP.GT.OR.EX P0; @P0 MOV R7, RZ`): 7
/// stays, where the spec never branches (r3 is 1.0f, not 1) and stores 0.
#[test]
fn c58b70c2_setp_eq_1_of_a_set_f32_of_s64_takes_the_sets_branch() {
    let lines = [
        "ld.global.s64 %d1, [%in];",
        "mov.b64 %d0, 0;",
        "mov.b32 %r0, 7;",
        "set.ge.f32.s64 %r3, %d0, %d1;",
        "setp.eq.s32 %p0, %r3, 1;",
        "@%p0 bra $L2;",
        "mov.b32 %r0, 0;",
        "$L2:",
        "st.global.u32 [%out], %r0;",
    ];
    exact_case(&lines, [0, 0, 0, 0], D, 0, 7);
    // d1 = 5: the set is false, folded or not the branch is not taken.
    untouched(&lines, [5, 0, 0, 0], D);
}

/// `s45/w1_u64_ne_selp` (`ISETP.LT.U32; ISETP.GE.U32.OR.EX P0; SEL R7, RZ, 0x7, !P0`), the
/// sweep's `.u64` form: ne is the set's negation; `s45/w4_moved1`: a moved 1 (`v9_moved1`).
#[test]
fn a_setp_ne_or_a_moved_1_of_a_set_f32_of_u64_is_folded() {
    exact_case(&selected("set.lt.f32.u64 %r3, %d1, 5;", "setp.ne.u32 %p0, %r3, 1;"), [3, 0, 0, 0], D, 7, 0);
    let moved = [
        "ld.global.s64 %d1, [%in];",
        "mov.b64 %d0, 0;",
        "mov.b32 %r5, 1;",
        "set.ge.f32.s64 %r3, %d0, %d1;",
        "setp.eq.u32 %p0, %r3, %r5;",
        "mov.b32 %r6, 7;",
        "mov.b32 %r7, 0;",
        "selp.b32 %r0, %r6, %r7, %p0;",
        "st.global.u32 [%out], %r0;",
    ];
    exact_case(&moved, [0, 0, 0, 0], D, 0, 7);
}

/// `s45/w3_set_consumer` (`SEL R7, RZ, 0xffffffff, !P0`, trace/6a4d050b `v8_setne_dst`) and
/// `s45/w5_set_ne_f32dst` (`SEL -1; IABS; I2FP`: 1.0f where the set is false): a `set`
/// consumer writes its destination's word of the folded truth.
#[test]
fn a_set_consumer_of_a_set_f32_of_s64_writes_the_folded_truth() {
    let with = |consumer: &'static str| {
        [
            "ld.global.s64 %d1, [%in];",
            "mov.b64 %d0, 0;",
            "set.ge.f32.s64 %r3, %d0, %d1;",
            consumer,
            "st.global.u32 [%out], %r0;",
        ]
    };
    exact_case(&with("set.eq.u32.s32 %r0, %r3, 1;"), [0, 0, 0, 0], D, 0, 0xffff_ffff);
    exact_case(&with("set.ne.f32.s32 %r0, %r3, 1;"), [0, 0, 0, 0], D, 0x3f80_0000, 0);
}

/// The right neighbours (13.0.88 and 13.5 -O3 keep the compare): a 32- or 16-bit source
/// (`s45/r1_u32src`, `s45/r2_u16src`: `SEL -1; IABS; I2FP; ISETP.NE 0x1`), a compare with 2
/// (`s45/r3_cmp2`) or 0x3f800000 (`s45/q2_cmp_1f`), `setp.gt.u32 s, 1` (`s45/r4_gt1`), a 16-bit
/// compare of s's low half (`s45/q3_s16_consumer`), and an integer set (C3-3's, not this).
#[test]
fn the_right_neighbours_of_6a4d050b_are_left_alone() {
    let words = [0, 0, 0, 0];
    untouched(&selected("set.ge.f32.u32 %r3, %r9, 0;", "setp.eq.s32 %p0, %r3, 1;"), words, D);
    untouched(&selected("set.ge.f32.u16 %r3, %h9, 0;", "setp.eq.s32 %p0, %r3, 1;"), words, D);
    untouched(&selected("set.ge.f32.s64 %r3, %d0, %d1;", "setp.eq.s32 %p0, %r3, 2;"), words, D);
    untouched(&selected("set.ge.f32.s64 %r3, %d0, %d1;", "setp.eq.s32 %p0, %r3, 1065353216;"), words, D);
    untouched(&selected("set.ge.f32.s64 %r3, %d0, %d1;", "setp.gt.u32 %p0, %r3, 1;"), words, D);
    untouched(&selected("set.ge.s32.s64 %r3, %d0, %d1;", "setp.eq.s32 %p0, %r3, 1;"), words, D);
    let low_half = [
        "ld.global.s64 %d1, [%in];",
        "mov.b64 %d0, 0;",
        "set.ge.f32.s64 %r3, %d0, %d1;",
        "mov.b32 {%h1, %h2}, %r3;",
        "setp.eq.s16 %p0, %h1, 1;",
        "mov.b32 %r6, 7;",
        "mov.b32 %r7, 0;",
        "selp.b32 %r0, %r6, %r7, %p0;",
        "st.global.u32 [%out], %r0;",
    ];
    untouched(&low_half, words, D);
}
