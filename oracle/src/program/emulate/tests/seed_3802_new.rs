//! Tests of the emulations of seed 3802's root causes (`emulate/fuzz3802.rs`): 3802 T5A-1 (a
//! `cvt.pack.sat` of a constant NaN's conversion and a constant `c` dropped), 6e4d6e41 (the fp8 →
//! f16x2 unpack of a known-zero top half given an immediate) and G through a `mov.b32` unpack
//! (e141eb0d). Each is the GPU's word under the emulation and the spec's without, and the
//! trace's right variants untouched.

use super::*;

/// Whether emulating `d` makes the first output word of `lines` any value (the spec's and
/// `gpu` among them) and fires, the second word staying the spec's.
fn any_first_word(lines: &[&str], words: [u32; 4], d: Deviation, gpu: u32) {
    let (s, e, fired) = both(lines, words, d);
    let high = s.bits & !0xFFFF_FFFF;
    assert!(s.is_exact() && e.matches(s.bits) && e.matches(high | u128::from(gpu)), "{d:?} of {lines:?}: {e:?}");
    assert!(!e.matches(s.bits ^ (1 << 40)), "{d:?} of {lines:?}: the second word stays");
    assert_eq!(fired, vec![d], "{lines:?}");
}

/// 3802 T5A-1 (corpus/findings/fuzz-h200-3802/, f7406f82, trace/T5A.md): `cvt.pack.sat.u8.s32.b32
/// d, a, a, c` of `a = cvt.rzi.s32.f32` of a moved NaN and c = 0x8b2ee872 is any value (13.0.88
/// -O3 emits no pack: thread t stores %tid.x, 0 for thread 0 here), the spec 0xe8720000 (§9.7.9.22:
/// c's low half above two zero bytes). `.rni`, `.u32`, a quiet NaN, `.s8`, c = 1
/// and a moved c are wrong the same way; c's low half 0, a loaded c or float, a non-NaN constant
/// and a ≠ b are right. (v7's immediate NaN operand is no `cvt` the oracle parses.)
#[test]
fn t5a1_3802_a_pack_of_a_constant_nan_conversion_and_a_constant_is_any_value() {
    let d = Deviation::PackOfNanCvtAndConstantDropped;
    let with = |nan: &'static str, convert: &'static str, pack: &'static str| {
        vec![nan, convert, pack, "st.global.b32 [%out], %r5;"]
    };
    let nan = "mov.b32 %r1, 4294967295;";
    let rzi = "cvt.rzi.s32.f32 %r4, %r1;";
    let stored = with(nan, rzi, "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r4, 2334189682;");
    let (s, _, _) = both(&stored, [0; 4], d);
    assert_eq!(s.bits & 0xFFFF_FFFF, 0xe872_0000);
    any_first_word(&stored, [0; 4], d, 0);
    let c1 = "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r4, 1;";
    any_first_word(&with(nan, "cvt.rni.s32.f32 %r4, %r1;", c1), [0; 4], d, 0); // v9
    any_first_word(&with(nan, "cvt.rzi.u32.f32 %r4, %r1;", c1), [0; 4], d, 0); // v3
    any_first_word(&with("mov.b32 %r1, 2143289344;", rzi, c1), [0; 4], d, 0); // w4: 0x7fc00000
    any_first_word(&with(nan, rzi, "cvt.pack.sat.s8.s32.b32 %r5, %r4, %r4, 1;"), [0; 4], d, 0); // v4
    let moved_c =
        [nan, rzi, "mov.b32 %r2, 1;", "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r4, %r2;", "st.global.b32 [%out], %r5;"];
    any_first_word(&moved_c, [0; 4], d, 0); // w3
                                            // Right: c's low half 0 (v5, w2), a loaded c (v11), a loaded float (v1), 1.5 (v2), a ≠ b (v6).
    untouched(&with(nan, rzi, "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r4, 0;"), [0; 4], d);
    untouched(&with(nan, rzi, "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r4, 65536;"), [0; 4], d);
    let loaded_c = [nan, rzi, "ld.global.b32 %r2, [%in];", "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r4, %r2;"];
    untouched(&[&loaded_c[..], &["st.global.b32 [%out], %r5;"][..]].concat(), [1, 0, 0, 0], d);
    untouched(&with("ld.global.b32 %r1, [%in];", rzi, c1), [0xffff_ffff, 0, 0, 0], d);
    untouched(&with("mov.b32 %r1, 1069547520;", rzi, c1), [0; 4], d);
    let a_ne_b = [nan, rzi, "cvt.rzi.s32.f32 %r3, %r1;", "cvt.pack.sat.u8.s32.b32 %r5, %r4, %r3, 1;"];
    untouched(&[&a_ne_b[..], &["st.global.b32 [%out], %r5;"][..]].concat(), [0; 4], d);
}

/// 3802 6e4d6e41 (corpus/findings/fuzz-h200-3802/, 6e4d6e41, trace/T5C.md, `reduced.ptx`):
/// `cvt.rn.f16x2.e5m2x2` of element 3 of `mov.b64` of `cvt.s64.u8` of a loaded half is any value
/// (13.0.88 and 13.5 -O3 `F2FP.F16.E5M2.UNPACK_B R5, 0x20`: 0x00002000; the stored kernel's 0x100
/// gives 0x01000000), the spec 0. `cvt.u64.u32`, `cvt.u64.u16`, `and.b64 0xffffffff`, e4m3x2 and
/// the high half of the high word through `mov.b64 {lo, hi}; mov.b32` are wrong the same way;
/// element 2, a constant source, a sign extension, a 32-bit unpack and an f32 reader are right.
#[test]
fn n_6e4d6e41_3802_an_fp8_unpack_of_a_zero_extended_top_half_is_any_value() {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let with = |load: &'static str, extend: &'static str, unpack: &'static str, convert: &'static str| {
        vec![load, extend, unpack, convert, "st.global.b32 [%out], %r5;"]
    };
    let ld16 = "ld.global.u16 %h2, [%in];";
    let s64_u8 = "cvt.s64.u8 %d1, %h2;";
    let top = "mov.b64 {_, %h5, %h6, %h7}, %d1;";
    let e5m2 = "cvt.rn.f16x2.e5m2x2 %r5, %h7;";
    any_first_word(&with(ld16, s64_u8, top, e5m2), [0x1234, 0, 0, 0], d, 0x2000);
    any_first_word(&with(ld16, s64_u8, top, e5m2), [0, 0, 0, 0], d, 0x0100_0000);
    let ld32 = "ld.global.u32 %r1, [%in];";
    let all4 = "mov.b64 {%h4, %h5, %h6, %h7}, %d1;";
    any_first_word(&with(ld32, "cvt.u64.u32 %d1, %r1;", all4, e5m2), [7, 0, 0, 0], d, 0x2000); // v10
    any_first_word(&with(ld16, "cvt.u64.u16 %d1, %h2;", all4, e5m2), [7, 0, 0, 0], d, 0x2000); // w2
    let and64 =
        ["ld.global.u64 %d1, [%in];", "and.b64 %d1, %d1, 0xffffffff;", all4, e5m2, "st.global.b32 [%out], %r5;"];
    any_first_word(&and64, [7, 0xffff_0000, 0, 0], d, 0x2000); // w3
    any_first_word(&with(ld16, s64_u8, top, "cvt.rn.f16x2.e4m3x2 %r5, %h7;"), [7, 0, 0, 0], d, 0x2000); // v7
    let two_step = [
        ld32,
        "cvt.u64.u32 %d1, %r1;",
        "mov.b64 {%r2, %r3}, %d1;",
        "mov.b32 {%h6, %h7}, %r3;",
        e5m2,
        "st.global.b32 [%out], %r5;",
    ];
    any_first_word(&two_step, [7, 0, 0, 0], d, 0x2000); // v11
                                                        // Right: element 2 (v4_h6), a moved constant (w1_const5, v4_cvt), a sign extension (v3_s8),
                                                        // a 32-bit unpack of a zero-extended byte (v6_u32hi), an f32 reader (w4_f32).
    untouched(&with(ld16, s64_u8, all4, "cvt.rn.f16x2.e5m2x2 %r5, %h6;"), [7, 0, 0, 0], d);
    untouched(&with("mov.b32 %r1, 5;", "cvt.u64.u32 %d1, %r1;", all4, e5m2), [0; 4], d);
    untouched(&with("mov.b16 %h2, 0;", s64_u8, top, e5m2), [0; 4], d);
    untouched(&with(ld16, "cvt.s64.s8 %d1, %h2;", top, e5m2), [0x80, 0, 0, 0], d);
    let u32hi = [ld16, "cvt.u32.u8 %r1, %h2;", "mov.b32 {%h4, %h7}, %r1;", e5m2, "st.global.b32 [%out], %r5;"];
    untouched(&u32hi, [7, 0, 0, 0], d);
    untouched(&with(ld16, s64_u8, top, "cvt.f32.f16 %r5, %h7;"), [7, 0, 0, 0], d);
}

/// G through a `mov.b32` unpack (corpus/findings/fuzz-h200-3802/, e141eb0d, trace/T5B.md; the
/// stored case): `cvt.u32.u16 r, h; mov.b32 {lo, hi}, r; st.b8 hi` with `h` = `cvt.rz.bf16.s64`
/// of 0x0CDE7E49_00000000 (bf16 0x5d4d) stores 0x4d (13.0.88 and 13.5 -O3 `I2F.BF16.S64.RZ R5;
/// STG.E.S8 R5`), the spec 0. A loaded half (v7), a `.b16` store (v4) and a 32-bit `ld.u16`/`ld.u8`
/// (fuzz-h200-3701 TC4 `var/p`, `var/u`) are wrong the same way; `lo` read too (`var/s`),
/// `shr.u32` (v6), a pack with 0 (v9), `and.b32 0xffff` (`var/v`) and `cvt.s32.s16` are right.
#[test]
fn g_the_high_half_of_an_unpacked_zero_extended_half_is_the_half() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let stored = [
        "mov.b64 %d0, 927317425282613248;",
        "cvt.rz.bf16.s64 %h4, %d0;",
        "cvt.u32.u16 %r1, %h4;",
        "mov.b32 {%h8, %h9}, %r1;",
        "st.global.s8 [%out], %h9;",
    ];
    exact_case(&stored, [0; 4], d, 0, 0x4d);
    let with = |load: &'static str, widen: &'static str, store: &'static str| {
        vec![load, widen, "mov.b32 {%h8, %h9}, %r1;", store]
    };
    let ld16 = "ld.global.u16 %h4, [%in];";
    let u32_u16 = "cvt.u32.u16 %r1, %h4;";
    exact_case(&with(ld16, u32_u16, "st.global.u8 [%out], %h9;"), [0x1234, 0, 0, 0], d, 0, 0x34); // v7
    exact_case(&with(ld16, u32_u16, "st.global.b16 [%out], %h9;"), [0x1234, 0, 0, 0], d, 0, 0x1234); // v4
    let ld_r32 = |load: &'static str| vec![load, "mov.b32 {%h8, %h9}, %r1;", "st.global.b16 [%out], %h9;"];
    exact_case(&ld_r32("ld.global.u16 %r1, [%in];"), [0x1234, 0, 0, 0], d, 0, 0x1234); // 3701 var/p
    exact_case(&ld_r32("ld.global.u8 %r1, [%in];"), [0x1234, 0, 0, 0], d, 0, 0x34); // 3701 var/u
                                                                                    // Right: both halves read (var/s), shr.u32 (v6), a pack with 0 (v9), a mask (var/v), a sign
                                                                                    // extension (var/t).
    let both_read =
        [ld16, u32_u16, "mov.b32 {%h8, %h9}, %r1;", "st.global.b16 [%out], %h9;", "st.global.b16 [%out+2], %h8;"];
    untouched(&both_read, [0x1234, 0, 0, 0], d);
    untouched(&[ld16, u32_u16, "shr.u32 %r2, %r1, 16;", "st.global.b32 [%out], %r2;"], [0x1234, 0, 0, 0], d);
    let pack0 =
        [ld16, "mov.b16 %h5, 0;", "mov.b32 %r1, {%h4, %h5};", "mov.b32 {%h8, %h9}, %r1;", "st.global.u8 [%out], %h9;"];
    untouched(&pack0, [0x1234, 0, 0, 0], d);
    untouched(
        &with("ld.global.b32 %r1, [%in];", "and.b32 %r1, %r1, 0xffff;", "st.global.b16 [%out], %h9;"),
        [0x1234, 0, 0, 0],
        d,
    );
    untouched(&with(ld16, "cvt.s32.s16 %r1, %h4;", "st.global.b16 [%out], %h9;"), [0x1234, 0, 0, 0], d);
}
