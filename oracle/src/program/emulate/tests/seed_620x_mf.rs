//! Tests of helper mf's widenings (session 62; corpus/findings/fuzz-h200-6202/trace/T62F.md, the
//! variants in each finding's `trace/<id8>/s62/`).

use super::*;

/// ca933fce (seed 6202): a guarded `prefetch.global.L2` between `mov.b32 a, 0` and `bfe.s32 d, a,
/// 0x3f, 0x10` ends N-7's block: the stored case gives the GPU's byte 0xff at byte 2 (word 0
/// 0x00ff0000, 13.0.88 -O3 `HFMA2.MMA R0 = 0x00ff`), spec 0.
#[test]
fn n7_ca933fce_a_guarded_prefetch_is_a_block_boundary() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let (p, i) = super::stored_case("6202", "ca933fce4bac240c");
    assert_words(&p, &i, d, 0, |_, s| s | 0x00ff_0000, "stored");
    // Wrong alike (13.0.88 -O3 `HFMA2.MMA R0 = 0x00ff`): a loaded, negated or always-true guard,
    // the other levels, `prefetchu.L1`, a guarded `applypriority`.
    for name in [
        "w1_loaded_guard",
        "w2_L1",
        "w3_evict_last",
        "w4_evict_normal",
        "w5_not_guard",
        "w6_loaded_guard_out",
        "w7_true_guard",
        "w8_prefetchu",
        "x1_applypriority",
    ] {
        let (p, i) = super::variant_of("6202", "ca933fce", &format!("s62/{name}"), &[]);
        assert_words(&p, &i, d, 0, |_, s| s | 0x00ff_0000, name);
    }
}

/// ca933fce's right variants (13.0.88 -O3 `STG … RZ`): an unguarded prefetch, the guarded one
/// after the bfe or before the mov, none, a guarded glue instruction.
#[test]
fn n7_ca933fce_leaves_unguarded_prefetches_and_other_placements_alone() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    for name in
        ["r1_unguarded", "r2_after_bfe", "r3_before_mov", "r4_no_prefetch", "r5_unguarded_L1", "r6_guarded_glue"]
    {
        let (p, i) = super::variant_of("6202", "ca933fce", &format!("s62/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}

/// 3602-N4's `IMAD` product of 6b672a69's round trip: the loaded half times the byte's 32-bit sign
/// extension (the byte of `shr.s16 h, 1` of `h`'s 16 bits, or of `h` itself).
fn imad_of(h: u32, shifted: bool) -> u32 {
    let byte = if shifted { (h as u16 as i16 >> 1) as u8 } else { h as u8 };
    h.wrapping_mul(byte as i8 as i32 as u32)
}

/// 6b672a69 (seed 6203): `cvt.s32.s8 r0, h2; cvt.s64.s32 d0, r0; cvt.s8.s64 h2, d0` is 3602-N4's
/// round trip (13.0.88 -O3 `PRMT R7, R0, 0x8880; IMAD R7, R2, R7`): `mad.wide.u16` of it stores
/// 0xffe41282 (0x4b42 × −95), spec 0x4b261282.
#[test]
fn n4_6b672a69_a_round_trip_through_a_cvt_s32_s8_sign_extends_32() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let (p, i) = super::stored_case("6203", "6b672a693b383186");
    assert_words(&p, &i, d, 1, |_, _| 0xffe4_1282, "stored");
    // Wrong alike: `mul.wide.u16` (v2), `cvt.u32.s8` (v4), `cvt.u64.s32` + `cvt.s8.u64` (v5),
    // `cvt.s64.u32` (v8); no `shr.s16` (v1, a negative byte patched in).
    for name in ["v2_mul_wide", "v4_u32_s8", "v5_u64_s32", "v8_s64_u32_of_s8"] {
        let (p, i) = super::variant_of("6203", "6b672a69", &format!("s62/{name}"), &[]);
        assert_words(&p, &i, d, 1, |_, _| imad_of(0x4b42, true), name);
    }
    let (p, i) = super::variant_of("6203", "6b672a69", "s62/v1_no_shr", &[(7, 0x4bc2_be80)]);
    assert_words(&p, &i, d, 1, |_, _| imad_of(0x4bc2, false), "v1_no_shr");
    // Its other readers: `cvt.u32.u16` (v6, `MOV R7, R0`: 0xffffffa1) and `shr.u16 4` (v7: 0xfffa).
    let (p, i) = super::variant_of("6203", "6b672a69", "s62/v6_cvt_u32_u16_reader", &[]);
    assert_words(&p, &i, d, 1, |_, _| 0xffff_ffa1, "v6");
    let (p, i) = super::variant_of("6203", "6b672a69", "s62/v7_shr_u16_reader", &[]);
    assert_words(&p, &i, d, 1, |_, _| 0xfffa, "v7");
}

/// 6b672a69's right variants (13.0.88 -O3 `PRMT 0x7710` or `LOP3 0xffff` before the `IMAD`):
/// `cvt.s16.s8` then `cvt.s64.s16` (v3), `cvt.u32.u8` (r1), `cvt.s32.s16` (r2), `mul.wide.s16` (r3),
/// a round trip through `.s32` only (r4), a loaded word (r5), an `add` between (r6).
#[test]
fn n4_6b672a69_leaves_other_extensions_alone() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    for name in [
        "v3_s16_s8_then_s64_s16",
        "r1_u32_u8",
        "r2_s32_s16",
        "r3_wide_s16",
        "r4_s32_round_trip",
        "r5_loaded_s32",
        "r6_add_between",
    ] {
        let (p, i) = super::variant_of("6203", "6b672a69", &format!("s62/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}

/// Every word of `p` on `i` emulating F is `want` (61e60b91's variants store one 32-bit value
/// twice, or a 64-bit one whose high word is 0: `hi`).
fn assert_f_words(p: &Program, i: &Inputs, want: u32, hi: Option<u32>, what: &str) {
    for (t, w, _, e) in super::words_emulated_alone(p, i, Deviation::NegationOverflow) {
        let expected = if w == 1 { hi.unwrap_or(want) } else { want };
        assert_eq!((w, e.bits as u32), (w, expected), "{what} thread {t} word {w}");
    }
}

/// 61e60b91 (seed 6202): `abs.s16` of the −2^15 ptxas learns from `or.b16 (and.b16 <ld.u8>,
/// 0x8000), 0x8000` is held as 0xffff8000, so `mul.wide.u16` by the 0x8000 stores 0xc0000000 in
/// both words (13.0.88 and 13.5 -O3 `MOV R5, 0xc0000000`), spec 0x40000000.
#[test]
fn f_61e60b91_abs16_of_a_learned_minimum_is_read_sign_extended() {
    let (p, i) = super::stored_case("6202", "61e60b91f3f04908");
    assert_f_words(&p, &i, 0xc000_0000, None, "stored");
    let variant =
        |name: &str, patch: &[(usize, u32)]| super::variant_of("6202", "61e60b91", &format!("s62/{name}"), patch);
    // The readers (13.0.88 and 13.5 -O3 constants).
    for (name, want) in [
        ("v03_abs_times_3", 0xfffe_8000),
        ("v06_hi_u16", 0xc000),
        ("v09_cvt_u32_of_abs", 0xffff_8000),
        ("v12_mad_wide", 0xc000_0000),
        ("v15_cvt_s32_u16", 0xffff_8000),
        ("v16_shr_u16_4", 0xf800),
        ("v17_setp_gt_u16", 1),
        ("v18_shr8_learned", 0xffff_8000),
        ("v26_mov_copy", 0xffff_8000),
        ("z1_mad_hi_u16", 0xc001),
        ("z2_shr_b16", 0xf800),
        ("z6_set_gt_u32_u16", 0xffff_ffff),
    ] {
        let (p, i) = variant(name, &[]);
        assert_f_words(&p, &i, want, None, name);
    }
    // A loaded half 5 (z7: `IMAD R6, R2, -0x8000`) and 0x9000 (z4: `ISETP.GE.U32 R2, -0x8000`).
    let (p, i) = variant("z7_mul_wide_loaded", &[(3, 0x0000_0005)]);
    assert_f_words(&p, &i, 0xfffd_8000, None, "z7");
    let (p, i) = variant("z4_setp_lt_u16_loaded", &[(3, 0x0000_9000)]);
    assert_f_words(&p, &i, 1, None, "z4");
}

/// 61e60b91's right variants: a moved 0x8000 (v01, v10, v14), `and 0` identities (v19, v30), a
/// guarded write deciding the value (v20), a loaded abs source (v11), `neg.s16` (v04, v23, y1, y8),
/// other learned values and signed ops (v13, v25, y2–y7), `cvt.{u64,s64}.u16` (v21, z5),
/// `cvt.rn.f32.u16` (v22), `add`/`mul.lo`/`not`/a pack (v24, v28, y9, v27), the `.s16` multiplies
/// (v05, z9, z10: F's run-time +2^15 rule kept off), `cvt.{s32,u32,s64}.s16` (v29, z11, z12), the square (v08:
/// 0xffff8000² is the spec's 2^30), no abs (v02, v07).
#[test]
fn f_61e60b91_leaves_moved_identity_guarded_and_other_readers_alone() {
    for name in [
        "v01_moved_8000",
        "v02_no_abs_times_3",
        "v04_neg",
        "v05_wide_s16",
        "v07_square_no_abs",
        "v08_abs_square",
        "v10_moved_times_3",
        "v11_loaded_abs",
        "v13_or_4000",
        "v14_moved_cvt_u32",
        "v19_and0_identity",
        "v20_range_guard",
        "v21_cvt_u64_u16",
        "v22_f32_u16",
        "v23_neg_cvt_u32",
        "v24_add_after_abs",
        "v25_learned_b32_sext",
        "v27_pack",
        "v28_mul_lo_u16",
        "v29_cvt_s32_s16",
        "v30_abs_of_loaded_u16_and",
        "y1_neg_of_learned_1",
        "y2_shr_s16_learned",
        "y3_cvt_s16_s8_learned",
        "y4_add_s16_learned",
        "y5_min_s16_learned",
        "y6_sub_s16_learned",
        "y7_abs_learned_fffe",
        "y8_neg_of_learned_8001",
        "y9_abs_then_not",
        "z5_cvt_s64_u16",
        "z9_mad_wide_s16",
        "z10_mul_hi_s16",
        "z11_cvt_u32_s16",
        "z12_cvt_s64_s16",
    ] {
        let (p, i) = super::variant_of("6202", "61e60b91", &format!("s62/{name}"), &[]);
        assert_untouched(&p, &i, Deviation::NegationOverflow, name);
    }
}
