//! Tests of known root causes' emulations widened to their mechanisms from the traces of seeds
//! 3901–3903 (corpus/findings/fuzz-h200-390{1,2,3}/trace/, T6A.md … T6G.md): O's dropped
//! producer read by a saturating narrowing and written as `sub.cc.u32` of a moved 0, F's
//! `sub.s16` of a moved 0 and `mad.wide.s16` reader, G through identity glue and through
//! `cvt.s32.u16`, M's mask written as `cvt.{s16,u16}.u8`, N-7's start copied by `mov.f32`.
//! Each: the form the trace shows wrong emulated, the forms it shows right left alone.

use super::*;

/// Checks that emulating `d` makes `lines`' output any value (the spec's `spec` one of them).
fn any_case(lines: &[&str], words: [u32; 4], d: Deviation, spec: u64) {
    let (s, e, fired) = both(lines, words, d);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert!(!e.is_exact() && e.matches(s.bits) && e.matches(s.bits ^ 0x1), "{d:?} of {lines:?}: {e:?}");
    assert_eq!(fired, vec![d]);
}

/// O (1391020a, T6A.md; 17b9ea5e, T6C.md): `cvt.sat.{u16,u8}.u32` of `cnot.b32` of a loaded 0 is
/// any value (the cnot dropped, the cvt of a never-written register); `cvt.u16.u32`,
/// `cvt.sat.u8.s32`, `cvt.sat.s16.s32` and `not.b32` are right.
#[test]
fn o_a_saturating_narrowing_of_a_cnot_reads_an_unwritten_register() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let at = |producer: &str, cvt: &str| {
        [
            "ld.global.u32 %r0, [%in];".to_string(),
            format!("{producer} %r1, %r0;"),
            format!("{cvt} %h1, %r1;"),
            "cvt.u32.u16 %r2, %h1;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    any_case(&strs(&at("cnot.b32", "cvt.sat.u16.u32")), [0; 4], d, 1);
    any_case(&strs(&at("cnot.b32", "cvt.sat.u8.u32")), [0; 4], d, 1);
    for (producer, cvt) in [
        ("cnot.b32", "cvt.u16.u32"),
        ("cnot.b32", "cvt.sat.u8.s32"),
        ("cnot.b32", "cvt.sat.s16.s32"),
        ("not.b32", "cvt.sat.u16.u32"),
    ] {
        untouched(&strs(&at(producer, cvt)), [0; 4], d);
    }
}

/// O, seed 5901's 549ef6fc (corpus/findings/fuzz-h200-5901/trace/T59C.md, trace/549ef6fc/s59/): the
/// stored kernel's `ld.global.s32 %r0; cnot.b32 %r0, %r0; cvt.sat.u8.u32` (the cnot in place, a
/// loaded nonzero word) is `LOP3.LUT R5, R0, 0xff` of a never-written R0 (13.0.88 -O3; 13.5 -O3
/// crashes): any value. `cvt.u8.u32` (u2), `not.b32` (u3), `cvt.sat.u8.s32` (u4) are right.
#[test]
fn o_cvt_sat_u8_of_a_loaded_cnot_in_place_is_any_value() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let at = |producer: &str, cvt: &str| {
        [
            "ld.global.s32 %r0, [%in];".to_string(),
            format!("{producer} %r0, %r0;"),
            format!("{cvt} %h1, %r0;"),
            "cvt.u32.u16 %r2, %h1;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    any_case(&strs(&at("cnot.b32", "cvt.sat.u8.u32")), [256, 0, 0, 0], d, 0);
    for (producer, cvt) in [("cnot.b32", "cvt.u8.u32"), ("not.b32", "cvt.sat.u8.u32"), ("cnot.b32", "cvt.sat.u8.s32")] {
        untouched(&strs(&at(producer, cvt)), [256, 0, 0, 0], d);
    }
}

/// O (f860a7e5, T6E.md): a 16-bit shift by `sub.cc.u32 d, z, x` (or `sub.u32`) of a moved 0 `z`
/// shifts by a register nothing wrote: any value. `sub.s32` of the moved 0 and a loaded minuend
/// are right (the O entry).
#[test]
fn o_a_16_bit_shift_by_a_subtraction_from_a_moved_zero_is_any_value() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let at = |zero: &str, sub: &str| {
        [
            "ld.global.u32 %r0, [%in];".to_string(),
            format!("{zero};"),
            format!("{sub} %r1, %r9, %r0;"),
            "ld.global.u16 %h0, [%in+4];".to_string(),
            "shr.u16 %h1, %h0, %r1;".to_string(),
            "cvt.u32.u16 %r2, %h1;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    // 0 − 0 = 0: the spec shifts 0x7e64 by 0.
    let words = [0, 0x7e64, 0, 0];
    any_case(&strs(&at("mov.b32 %r9, 0", "sub.cc.u32")), words, d, 0x7e64);
    any_case(&strs(&at("mov.b32 %r9, 0", "sub.u32")), words, d, 0x7e64);
    untouched(&strs(&at("mov.b32 %r9, 0", "sub.s32")), words, d);
    untouched(&strs(&at("ld.global.u32 %r9, [%in+8]", "sub.u32")), words, d);
}

/// F (bcabb8af, T6D.md): `sub.s16 d, z, x` of a moved 0 is `neg.s16`: of 0x8000 it stays +2^15
/// at 32 bits, so `shr.s16 …, 15` is any value and `cvt.s32.s16` gives 0x00008000. `sub.u16` and
/// a loaded minuend are right.
#[test]
fn f_a_subtraction_from_a_moved_zero_is_a_16_bit_negation() {
    let d = Deviation::NegationOverflow;
    let at = |zero: &'static str, sub: &'static str, reader: &[&'static str]| {
        let head = ["ld.global.b16 %h2, [%in];", zero, "shl.b16 %h4, %h2, 15;", sub];
        [&head[..], reader].concat()
    };
    let shr: &[&str] = &["shr.s16 %h7, %h5, 15;", "cvt.s32.s16 %r1, %h7;", "st.global.u32 [%out], %r1;"];
    let widened: &[&str] = &["cvt.s32.s16 %r1, %h5;", "st.global.u32 [%out], %r1;"];
    let (zero, sub) = ("mov.b16 %h3, 0;", "sub.s16 %h5, %h3, %h4;");
    any_case(&at(zero, sub, shr), [1, 0, 0, 0], d, 0xFFFF_FFFF);
    exact_case(&at(zero, sub, widened), [1, 0, 0, 0], d, 0xFFFF_8000, 0x8000);
    untouched(&at(zero, "sub.u16 %h5, %h3, %h4;", widened), [1, 0, 0, 0], d);
    untouched(&at("ld.global.b16 %h3, [%in+4];", sub, widened), [1, 0, 0, 0], d);
}

/// F (14a3a4b4, T6G.md; 9a95803a, T6E.md): `mad.wide.s16` of an overflowed `neg.s16`/`abs.s16`
/// multiplies +2^15 at 32 bits, then adds `c`: 63 · 2^15 + 5, where the spec's is −63 · 2^15 + 5.
#[test]
fn f_mad_wide_s16_of_an_overflowed_negation_multiplies_plus_2_pow_15() {
    let d = Deviation::NegationOverflow;
    let at = |negation: &str| {
        [
            "ld.global.b16 %h0, [%in];".to_string(),
            format!("{negation} %h1, %h0;"),
            "ld.global.u8 %h3, [%in+4];".to_string(),
            "ld.global.u32 %r3, [%in+8];".to_string(),
            "mad.wide.s16 %r2, %h3, %h1, %r3;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    let words = [0x8000, 63, 5, 0];
    exact_case(&strs(&at("neg.s16")), words, d, 0xFFE0_8005, 0x001F_8005);
    exact_case(&strs(&at("abs.s16")), words, d, 0xFFE0_8005, 0x001F_8005);
    untouched(&strs(&at("neg.s16")), [0x8001, 63, 5, 0], d);
}

/// G (0f02a559, T6B.md): identity glue between `shr.s16 …, 16` and the half cvt (`or.b16 h, h,
/// 0`, `xor.b16` with a moved 0, `and.b16 0xffff`, chained) is dropped: the cvt may convert the
/// unshifted byte. `or.b16 h, h, 1` is right.
#[test]
fn g_identity_glue_after_the_shift_is_looked_through() {
    let d = Deviation::ShrS16By16ReadsSource;
    let at = |between: &[&'static str]| {
        let head = ["ld.global.u8 %h1, [%in];", "shr.s16 %h2, %h1, 16;"];
        let tail = ["cvt.sat.f32.f16 %r2, %h2;", "st.global.u32 [%out], %r2;"];
        [&head[..], between, &tail[..]].concat()
    };
    let words = [0x40, 0, 0, 0];
    for between in [
        &["or.b16 %h2, %h2, 0;"][..],
        &["mov.b16 %h5, 0;", "xor.b16 %h2, %h5, %h2;"][..],
        &["and.b16 %h2, %h2, 0xffff;", "add.s16 %h2, %h2, 0;"][..],
    ] {
        let (s, e, fired) = both(&at(between), words, d);
        assert_eq!((s.bits, s.is_exact()), (0, true));
        assert!(e.matches(0x3680_0000) && e.matches(0), "{between:?}: {e:?}");
        assert_eq!(fired, vec![d], "{between:?}");
    }
    untouched(&at(&["or.b16 %h2, %h2, 1;"]), words, d);
}

/// G through an unpack (fd7cf510, T6C.md): `cvt.s32.u16` zero-extends as `cvt.u32.u16` does
/// (§9.7.9.21), so `mov.b32 {_, hi}` of it gives the value as `hi` (+inf, 0x7c00, where the spec
/// gives 0). `cvt.u32.u8` keeps its `PRMT 0x7632` (right, session 40's 13.0.88 -O3 listing).
#[test]
fn g_the_high_half_of_cvt_s32_u16_is_read_as_the_value() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let at = |cvt: &str| {
        [
            "ld.global.u64 %d0, [%in];".to_string(),
            "cvt.rn.f16.u64 %h0, %d0;".to_string(),
            format!("{cvt} %r11, %h0;"),
            "mov.b32 {%h6, %h7}, %r11;".to_string(),
            "st.global.u16 [%out], %h7;".to_string(),
        ]
    };
    let words = [0, 0xd1a2_cf9a, 0, 0];
    exact_case(&strs(&at("cvt.s32.u16")), words, d, 0, 0x7c00);
    untouched(&strs(&at("cvt.u32.u8")), words, d);
}

/// M (97412e12, T6F.md): `cvt.s16.u8` (or `cvt.u16.u8`) of `cvt.rn.f16.f32` is a mask by 0xff
/// that 13.0.88 -O3 drops in a pack's low half: −0.0 (0x8000) stays. A direct 16-bit store keeps
/// the mask, and a loaded half is no `F2FP` result.
#[test]
fn m_a_byte_conversion_is_a_mask_dropped_in_a_pack() {
    let d = Deviation::F16MaskDropped;
    let at = |producer: &'static str, mask: &'static str, tail: &[&'static str]| {
        let head = ["ld.global.u32 %r0, [%in];", producer, mask, "ld.global.u16 %h3, [%in+4];"];
        [&head[..], tail].concat()
    };
    let pack: &[&str] = &["mov.b32 %r1, {%h2, %h3};", "st.global.u32 [%out], %r1;"];
    let alone: &[&str] = &["st.global.b16 [%out], %h2;"];
    let words = [0x8000_0000, 0x1234, 0, 0];
    let f16 = "cvt.rn.f16.f32 %h1, %r0;";
    exact_case(&at(f16, "cvt.s16.u8 %h2, %h1;", pack), words, d, 0x1234_0000, 0x1234_8000);
    exact_case(&at(f16, "cvt.u16.u8 %h2, %h1;", pack), words, d, 0x1234_0000, 0x1234_8000);
    untouched(&at(f16, "cvt.s16.u8 %h2, %h1;", alone), words, d);
    untouched(&at("ld.global.u16 %h1, [%in];", "cvt.s16.u8 %h2, %h1;", pack), words, d);
}

/// N-7 (60d48019, T6F.md): a `mov.f32` copy of a moved immediate is known, so `bfe.s32` of a
/// loaded `a` by it (start 0x72 ≥ 32) and a `mov.f32` length gives −1; a copy of a loaded start
/// is not known.
#[test]
fn n7_a_mov_f32_copy_of_a_known_start_is_known() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let at = |start: &'static str| {
        [
            "ld.global.u32 %r5, [%in];",
            start,
            "mov.f32 %r0, %r0;",
            "mov.f32 %r1, 0f0000001E;",
            "bfe.s32 %r3, %r5, %r0, %r1;",
            "st.global.b32 [%out], %r3;",
        ]
    };
    let words = [5, 0x3ea8_a372, 0, 0];
    exact_case(&at("mov.b32 %r0, 1051239282;"), words, d, 0, 0xFFFF_FFFF);
    untouched(&at("ld.global.u32 %r0, [%in+4];"), words, d);
}

/// O (seed 5501's cc7f459c, corpus/findings/fuzz-h200-5501/trace/T56B.md, variants in
/// trace/cc7f459c/s56/): `cvt.sat.u8.u32` of `sub.u32 d, z, x` of a moved 0 is any value — u3's
/// `LOP3.LUT R5, R0, 0xff, RZ, 0xc0` of a never-written R0 (13.0.88 -O3; 13.5 -O3 crashes). A
/// loaded minuend (u5), no `.sat` (u6) and `neg.s32` (u7) are right.
#[test]
fn o_a_saturating_narrowing_of_a_subtraction_from_a_moved_zero_is_any_value() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let at = |zero: &str, producer: &str, cvt: &str| {
        [
            "ld.global.u32 %r3, [%in];".to_string(),
            format!("{zero};"),
            format!("{producer};"),
            format!("{cvt} %h3, %r5;"),
            "cvt.u32.u16 %r2, %h3;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    let (zero, sub) = ("mov.b32 %r4, 0", "sub.u32 %r5, %r4, %r3");
    any_case(&strs(&at(zero, sub, "cvt.sat.u8.u32")), [7, 0, 0, 0], d, 0xff);
    untouched(&strs(&at("ld.global.u32 %r4, [%in+4]", sub, "cvt.sat.u8.u32")), [7, 0, 0, 0], d);
    untouched(&strs(&at(zero, sub, "cvt.u8.u32")), [7, 0, 0, 0], d);
    untouched(&strs(&at(zero, "neg.s32 %r5, %r3", "cvt.sat.u8.u32")), [7, 0, 0, 0], d);
}
