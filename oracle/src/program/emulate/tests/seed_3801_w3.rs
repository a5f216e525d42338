//! Tests of the scopes seed 3801's traces widened (corpus/findings/fuzz-h200-3801/trace/T4A.md,
//! T4C.md, T4D.md): 3702-N2 with a middle `or`/`and` and a repeated `c` (83e44a39), 3702-N3 of a
//! copied constant (a280b42d), 3702-N5 under `and 0xffff` (c3fdf7b6), N-8 of a `set` compare and
//! a `.u32` set (703b2dfd), N-7 of a `mov.f32` immediate (33969c1e), 3301-N3 of an unpacked set
//! rewritten after the unpack (36330ec5) and G of a NaN source (a97764ed). Each is the GPU's word
//! under the emulation and the spec's without, and the right variants untouched.

use super::*;

/// 3702-N2 (83e44a39, trace `reduced.ptx`): `x ^ (t | lop3(t, K, t, 0xe8))` is `LOP3.LUT x, K,
/// t, 0x1a` = x ^ (t | maj(t, K, x)) (13.0.88 -O3), the spec x ^ t; the middle `and` and `xor`,
/// the `or` in either order, a loaded `b`, the repeated `b` under `or` and the `xor.b64` of a
/// pack `{r, r}` (the stored case) bind x the same way (variants compiled in session 39). An
/// outer `add` (`v_noxor`) and a `lop3` with no repeated input are right.
#[test]
fn n2_3702_a_middle_or_and_and_a_repeated_c_bind_x() {
    let d = Deviation::Lop3MergedIntoXorReadsX;
    let with = |lop: &'static str, middle: &'static str, outer: &'static str| {
        [
            "mov.b32 %r1, 2105021005;",
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r6, [%in+8];",
            lop,
            middle,
            "ld.global.u32 %r4, [%in+4];",
            outer,
            "st.global.u32 [%out], %r2;",
        ]
    };
    let words = [0x1234_5678, 0x0F0F_00FF, 0xCAFE_BABE, 0];
    let repeated_c = "lop3.b32 %r5, %r0, %r1, %r0, 0xe8;";
    let xor = "xor.b32 %r2, %r4, %r3;";
    exact_case(&with(repeated_c, "or.b32 %r3, %r0, %r5;", xor), words, d, 0x1d3b_5687, 0x1033_5682);
    exact_case(&with(repeated_c, "or.b32 %r3, %r5, %r0;", xor), words, d, 0x1d3b_5687, 0x1033_5682);
    exact_case(&with(repeated_c, "and.b32 %r3, %r0, %r5;", xor), words, d, 0x1d3b_5687, 0x1d3b_1287);
    exact_case(&with(repeated_c, "xor.b32 %r3, %r0, %r5;", xor), words, d, 0x0f0f_00ff, 0x0207_44fa);
    let loaded_b = "lop3.b32 %r5, %r0, %r6, %r0, 0xe8;";
    exact_case(&with(loaded_b, "or.b32 %r3, %r0, %r5;", xor), words, d, 0x1d3b_5687, 0x1531_5601);
    let repeated_b = "lop3.b32 %r5, %r0, %r0, %r1, 0x6c;";
    exact_case(&with(repeated_b, "or.b32 %r3, %r0, %r5;", xor), words, d, 0x1d3b_5687, 0x1030_5600);
    untouched(&with(repeated_c, "or.b32 %r3, %r0, %r5;", "add.u32 %r2, %r4, %r3;"), words, d);
    let no_repeat = "lop3.b32 %r5, %r0, %r1, %r6, 0xe8;";
    untouched(&with(no_repeat, "or.b32 %r3, %r0, %r5;", xor), words, d);
    // The stored case: `a` copied, rewritten by the `or` itself, and a 64-bit xor of `{r3, r3}`.
    let stored = [
        "mov.b32 %r1, 2105021005;",
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r3, %r0;",
        "lop3.b32 %r5, %r3, %r1, %r3, 0xe8;",
        "or.b32 %r3, %r3, %r5;",
        "ld.global.u64 %d6, [%in+8];",
        "mov.b64 %d12, {%r3, %r3};",
        "xor.b64 %d13, %d6, %d12;",
        "st.global.u64 [%out], %d13;",
    ];
    let x = [0x1234_5678, 0, 0x89AB_CDEF, 0x0123_4567];
    exact_case(&stored, x, d, 0x1317_131f_9b9f_9b97, 0x1217_131a_9297_9b92);
}

/// 3702-N3 (a280b42d, trace `reduced.ptx`): the arm's `set.le.f32.s32 %r2, %r1, 0` reads `%r1`, a
/// `mov.b32` copy of a moved −1, which ptxas folds as the −1 (13.0.88 -O3 `MOV R7, 0xffffffff`,
/// the same as `v1_set_reads_moved_imm`): the arm's 1.0f is merged with the old −1.
#[test]
fn n3_3702_a_set_of_a_copied_constant_is_merged_too() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let lines = [
        "ld.global.s64 %d0, [%in];",
        "setp.gt.s64 %p0, %d0, 7850661035545626943;",
        "mov.b32 %r2, 4294967295;",
        "mov.b32 %r1, %r2;",
        "@%p0 bra $L1;",
        "set.le.f32.s32 %r2, %r1, 0;",
        "$L1:",
        "st.global.b32 [%out], %r2;",
    ];
    exact_case(&lines, [0, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    // A copy of a loaded value is no constant.
    let mut loaded = lines;
    loaded[2] = "ld.global.b32 %r2, [%in+8];";
    untouched(&loaded, [0, 0, 0xFFFF_FFFF, 0], d);
}

/// 3702-N5 (c3fdf7b6, trace `reduced.ptx`): `and.b32 0xffff` of `prmt.b32 r, a, a, 0x3596` (byte
/// 0 b's byte 2, byte 1 the sign of a's byte 1) is `PRMT R6, RZ, 0x96, R2`: byte 1 is 0x00 where
/// the spec replicates the sign (0xff); 0xffffff the same (`PRMT R6, RZ, 0x965, R2`, session 39).
/// A mask of byte 1 alone (0xff00) and an index nibble of a under 0xffff (0x3591) are right.
#[test]
fn n5_3702_a_two_or_three_byte_mask_of_a_narrowed_prmt() {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    let with = |selector: &'static str, mask: &'static str| {
        ["ld.global.b32 %r0, [%in];", selector, mask, "st.global.b32 [%out], %r2;"]
    };
    let words = [0x0055_8000, 0, 0, 0];
    let stored = "prmt.b32 %r1, %r0, %r0, 13718;";
    exact_case(&with(stored, "and.b32 %r2, %r1, 0xffff;"), words, d, 0xff55, 0x0055);
    let three = "prmt.b32 %r1, %r0, %r0, 0x3965;";
    exact_case(&with(three, "and.b32 %r2, %r1, 0xffffff;"), words, d, 0xff_5580, 0x5580);
    untouched(&with(stored, "and.b32 %r2, %r1, 0xff00;"), words, d);
    untouched(&with("prmt.b32 %r1, %r0, %r0, 0x3591;", "and.b32 %r2, %r1, 0xffff;"), words, d);
}

/// N-8 (703b2dfd, trace `reduced.ptx`, v1–v4): `set.le.u32.u32 d, 0, s` of `s = set.gt.u32.s32`
/// is `SEL R7, RZ, 0xffffffff, P0` (13.0.88 -O3): s = 0 tested, so −1 gives 0 where the spec
/// gives −1; `set.ge … s, 0`, `set.lt … s, 0` and an `.f32` destination (`FSEL R7, RZ, 1, P0`,
/// session 39) the same. An `.f32` set producer (`I2FP`, then the compare) is right.
#[test]
fn n8_a_set_compare_of_a_u32_set_result_is_folded_signed() {
    let d = Deviation::UnsignedBelowZeroOfSet;
    let with = |producer: &'static str, compare: &'static str| {
        ["ld.global.s32 %r5, [%in];", producer, "mov.b32 %r1, 0;", compare, "st.global.s32 [%out], %r7;"]
    };
    let u32_set = "set.gt.u32.s32 %r0, %r5, 0;";
    let positive = [5, 0, 0, 0];
    exact_case(&with(u32_set, "set.le.u32.u32 %r7, %r1, %r0;"), positive, d, 0xFFFF_FFFF, 0);
    exact_case(&with("set.gt.s32.s32 %r0, %r5, 0;", "set.le.u32.u32 %r7, %r1, %r0;"), positive, d, 0xFFFF_FFFF, 0);
    exact_case(&with(u32_set, "set.ge.u32.u32 %r7, %r0, 0;"), positive, d, 0xFFFF_FFFF, 0);
    exact_case(&with(u32_set, "set.lt.u32.u32 %r7, %r0, 0;"), positive, d, 0, 0xFFFF_FFFF);
    exact_case(&with(u32_set, "set.le.f32.u32 %r7, %r1, %r0;"), positive, d, 0x3F80_0000, 0);
    // The set false (s = 0): the test holds either way.
    untouched(&with(u32_set, "set.le.u32.u32 %r7, %r1, %r0;"), [0, 0, 0, 0], d);
    untouched(&with("set.gt.f32.s32 %r0, %r5, 0;", "set.lt.u32.u32 %r7, %r0, 0;"), positive, d);
}

/// N-7 (33969c1e, trace `reduced.ptx`, `v1_int_mov`, `v3_loaded_pos`): bfe.s32's start and length
/// `mov.f32 %r2, 0fFCE4DDCA` (0xCA = 202, past the msb) fold to −1 as `mov.b32` of those bits
/// does (13.0.88 -O3 `MOV R7, 0xffffffff`), the spec 0 for a non-negative source; a loaded start
/// is right.
#[test]
fn n7_a_start_moved_as_a_float_immediate_is_known() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |start: &'static str| {
        ["ld.global.b32 %r0, [%in];", start, "bfe.s32 %r7, %r0, %r2, %r2;", "st.global.b32 [%out], %r7;"]
    };
    exact_case(&with("mov.f32 %r2, 0fFCE4DDCA;"), [6, 0, 0, 0], d, 0, 0xFFFF_FFFF);
    exact_case(&with("mov.b32 %r2, 0xFCE4DDCA;"), [6, 0, 0, 0], d, 0, 0xFFFF_FFFF);
    untouched(&with("ld.global.b32 %r2, [%in+4];"), [6, 0xFCE4_DDCA, 0, 0], d);
}

/// 3301-N3 through an unpack (36330ec5, trace `orig.ptx`): `cvt.rmi.s64.bf16` of the low half of
/// a true `set.gt.f32.u32` unpacked by `mov.b32 {%h1, %h2}` gives 1 (`SEL; IABS`, 13.0.88 and
/// 13.5 -O3) though the set's register is rewritten after the unpack (`mov.b32 %r0, 0`); the
/// halves still hold its word. A float destination (`v3_f32_of_bf16`) is right.
#[test]
fn n3_3301_the_unpacked_set_word_is_read_from_its_halves() {
    let d = Deviation::SetRoundTripFolded;
    let with = |convert: &'static str, store: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "set.gt.f32.u32 %r0, %r0, 0x0;",
            "mov.b32 {%h1, %h2}, %r0;",
            "mov.b32 %r0, 0;",
            convert,
            store,
        ]
    };
    exact_case(&with("cvt.rmi.s64.bf16 %d0, %h1;", "st.global.b64 [%out], %d0;"), [5, 0, 0, 0], d, 0, 1);
    untouched(&with("cvt.f32.bf16 %r3, %h1;", "st.global.b32 [%out], %r3;"), [5, 0, 0, 0], d);
    // The set false: 0 either way.
    untouched(&with("cvt.rmi.s64.bf16 %d0, %h1;", "st.global.b64 [%out], %d0;"), [0, 0, 0, 0], d);
}

/// G (a97764ed, trace `orig.ptx`): `cvt.f16.bf16` of `shr.s16 h, 16` of the non-negative bf16
/// NaN 0x7ffe is `F2F.F16.BF16` of the source, the canonical f16 NaN 0x7fff (13.0.88 and 13.5
/// -O3); the spec's 0 is admitted too, as G's other values are.
#[test]
fn g_a_nan_source_converts_to_the_canonical_nan() {
    let d = Deviation::ShrS16By16ReadsSource;
    let lines =
        ["ld.global.s16 %h0, [%in];", "shr.s16 %h1, %h0, 16;", "cvt.f16.bf16 %h1, %h1;", "st.global.b16 [%out], %h1;"];
    let (s, e, fired) = both(&lines, [0x7ffe, 0, 0, 0], d);
    assert_eq!((s.bits, s.is_exact()), (0, true));
    assert!(e.matches(0x7fff) && e.matches(0) && !e.matches(0x7e00), "{e:?}");
    assert_eq!(fired, vec![d]);
    // A negative NaN (bit 15 set): the spec's result.
    untouched(&lines, [0xfffe, 0, 0, 0], d);
}
