//! Tests of helper hc's widenings (session 58; corpus/findings/fuzz-h200-5802/trace/T58C.md, the
//! variants in each finding's `trace/<id8>/s58/`).

use super::*;

/// ca6045ce (seed 5802): `createpolicy.range` between `mov.b32 a, 0` and `bfe.s32 d, a, 0x3f,
/// 0x3f` ends N-7's block (13.0.88 -O0 expands it into a conditional branch): the stored case
/// gives the GPU's byte 0xff at byte 6 (word 1 0x00ff0000), spec 0.
#[test]
fn n7_ca6045ce_a_range_createpolicy_is_a_block_boundary() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let (p, i) = super::stored_case("5802", "ca6045ce4b80d4a5");
    assert_words(&p, &i, d, 1, |_, _| 0x00ff_0000, "stored");
    // Wrong alike (13.0.88 -O3 `HFMA2.MMA R0 = 0x00ff`): start 32 length 1, primary = total,
    // evict_first, a generic range.
    for name in ["v6_start_32_len_1", "v8_range_primary_eq_total", "v9_range_evict_first", "v10_range_generic"] {
        let (p, i) = super::variant_of("5802", "ca6045ce", &format!("s58/{name}"), &[]);
        assert_words(&p, &i, d, 1, |_, _| 0x00ff_0000, name);
    }
}

/// ca6045ce's right variants (13.0.88 -O3 `STG … RZ`): no createpolicy, it after the bfe or
/// before the mov, `.fractional`, `.cvt`, a start below 32.
#[test]
fn n7_ca6045ce_leaves_other_policies_and_placements_alone() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    for name in [
        "v1_no_createpolicy",
        "v2_createpolicy_after_bfe",
        "v3_createpolicy_before_mov",
        "v4_fractional",
        "v5_fractional_default",
        "v11_cvt_form",
        "v7_start_5",
    ] {
        let (p, i) = super::variant_of("5802", "ca6045ce", &format!("s58/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}

/// 4483ae72's word with the constant high word `k` and `LEA.HI` amount `n` of `c = 1` (x = 0).
fn lea_hi_of_constant(k: u32, n: u32) -> u32 {
    0u32.wrapping_sub((k << n) | (u32::MAX >> (32 - n)))
}

/// 674386b1 (seed 5803): `add.u32 d, x, (shf.l.clamp.b32 s, cnot(x), 0xfdbd1c7, 8)` is 13.0.88 -O3
/// `LEA.HI R7, -R7, R2, 0xfdbd1c7, 0x8`: the stored case gives the GPU's 0x242e3801 (x = 0, c = 1;
/// spec 0xdbd1c700), and the variants compiled to the same `LEA.HI` give its formula.
#[test]
fn lea_hi_674386b1_a_constant_high_word_is_shifted_in() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let (p, i) = super::stored_case("5803", "674386b18df69a93");
    assert_eq!(lea_hi_of_constant(0xfdb_d1c7, 8), 0x242e_3801);
    assert_words(&p, &i, d, 0, |_, _| 0x242e_3801, "stored");
    let k = 0xfdb_d1c7;
    for (name, k, n) in [
        ("v1_wrap", k, 8),
        ("v2_n16", k, 16),
        ("v3_moved_hi", k, 8),
        ("v4_other_x", k, 8),
        ("v5_swapped", k, 8),
        ("v7_shf_r", k, 24),
        ("v9_add_s32", k, 8),
        ("v10_n31", k, 31),
        ("v12_hi_small", 5, 8),
    ] {
        let (p, i) = super::variant_of("5803", "674386b1", &format!("s58/{name}"), &[]);
        assert_words(&p, &i, d, 0, |_, _| lea_hi_of_constant(k, n), name);
    }
}

/// 674386b1's variants left alone: `.clamp` by 32 (`IADD3`, right) and a loaded high word (the
/// same `LEA.HI`, its GPU value not observed).
#[test]
fn lea_hi_674386b1_leaves_a_clamp_by_32_and_a_loaded_high_word_alone() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    for name in ["v11_clamp32", "v8_loaded_hi"] {
        let (p, i) = super::variant_of("5803", "674386b1", &format!("s58/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}

/// Input word `w` of thread `t` of `i` (64 words a thread).
fn input(i: &Inputs, t: usize, w: usize) -> u32 {
    i.0[t * 64 + w]
}

/// 06f453ea (seed 5802): G's unpack through `cvt.s32.u64` of `cvt.s64.s16` of a loaded byte: the
/// unpack's high half is the byte (13.0.88 and 13.5 -O3 `LDG.E.U8 R3; STG.E.U16 [+0x4], R3`), the
/// stored words' 0x0000002d (spec 0); alike `cvt.u32.u64` (v7), `cvt.s32.s64` (v24), `ld.u8` into
/// the 64-bit register (v23), `cvt.s64.u16` (v4), `cvt.u64.s16` (v5), `ld.u8` (v2), and of a
/// loaded u16 (v21: the half).
#[test]
fn g_06f453ea_the_high_half_of_a_truncated_kept_extension_is_the_value() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let (p, i) = super::stored_case("5802", "06f453ea0b4f0c3c");
    assert_eq!(input(&i, 0, 9) & 0xff, 0x2d);
    assert_words(&p, &i, d, 1, |t, _| input(&i, t, 9) & 0xff, "stored");
    for name in
        ["v7_cvt_u32_u64", "v24_cvt_s32_s64", "v23_ld_u8_d64_trunc", "v4_cvt_s64_u16", "v5_cvt_u64_s16", "v2_ld_u8"]
    {
        let (p, i) = super::variant_of("5802", "06f453ea", &format!("s58/{name}"), &[]);
        assert_words(&p, &i, d, 1, |t, _| input(&i, t, 9) & 0xff, name);
    }
    let (p, i) = super::variant_of("5802", "06f453ea", "s58/v21_ld_u16_cvt_u64_u16", &[]);
    assert_words(&p, &i, d, 1, |t, _| input(&i, t, 9) & 0xffff, "v21");
}

/// 06f453ea's right variants: the 64-bit value stored too (v20: `PRMT 0x7632`), `.sat` (v25),
/// the low half read too (v22), the extension computed (v1 `ld.b16`, v9 `cvt.s64.s8`, v26).
#[test]
fn g_06f453ea_leaves_a_wide_value_read_elsewhere_and_computed_extensions_alone() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    for name in
        ["v20_d0_stored_too", "v25_sat_trunc", "v22_low_read_too", "v1_ld_b16", "v9_cvt_s64_s8", "v26_ld_s8_trunc"]
    {
        let (p, i) = super::variant_of("5802", "06f453ea", &format!("s58/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}

/// b5cfdfb6 (seed 5802): 3702-N5 through `cvt.u64.u32` of `prmt.b32 r6, r5, r5, 0x8888` read by
/// `cvt.u8.s64` (13.0.88 -O3 `PRMT R7, RZ, 0x8, R2`): the stored byte at word 2 is 0 (spec 0xff for
/// a = 0xeb80598d); alike `cvt.s64.s32` (v2), `cvt.u8.u64` (v3), `and.b64 0xff` stored whole (v5),
/// d3 stored too (v6, its words the spec's), `cvt.u32.u64` back between (v9), `cvt.u32.u16` of
/// d3 (v11, 2 bytes).
#[test]
fn n5_b5cfdfb6_a_widened_prmt_is_narrowed_for_its_64_bit_readers() {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    let (p, i) = super::stored_case("5802", "b5cfdfb64ffae282");
    assert_eq!(input(&i, 0, 17), 0xeb80_598d);
    assert_words(&p, &i, d, 2, |_, _| 0, "stored");
    for name in [
        "v2_cvt_s64_s32",
        "v3_cvt_u8_u64",
        "v5_and_b64_ff",
        "v6_d3_stored_too",
        "v9_cvt_u32_u64",
        "v11_cvt_u32_u16_of_u64",
    ] {
        let (p, i) = super::variant_of("5802", "b5cfdfb6", &format!("s58/{name}"), &[]);
        assert_words(&p, &i, d, 2, |_, _| 0, name);
    }
}

/// b5cfdfb6's right variants: `cvt.u16.u64` stored (v4), an index nibble (v7), b's sign (v8),
/// `cvt.s8.s64` (v10).
#[test]
fn n5_b5cfdfb6_leaves_stored_halves_index_nibbles_and_signed_readers_alone() {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    for name in ["v4_cvt_u16_u64_st_b16", "v7_index_nibble", "v8_sign_of_b", "v10_cvt_s8_s64"] {
        let (p, i) = super::variant_of("5802", "b5cfdfb6", &format!("s58/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}

/// The spec word of c40dc95f's `shr.s64 0xa7a52aab00000000` by the f32 amount of thread `t`
/// converted with `round` (the low word stored).
fn c40dc95f_word(t: usize, round: fn(f32) -> f32) -> u32 {
    let amount = round(f32::from_bits(0x418d_0000 | (t as u32) << 8)) as u64 as u32;
    ((0xa7a5_2aab_0000_0000u64 as i64) >> amount) as u32
}

/// c40dc95f (seed 5801): B's `shr.s64` by two `cvt.ftz.f32.f32` copies of a `cvt.pack` word
/// (f32 17.625 in thread 0): emulating 0c8cc6d5 (with B) gives -O3's rounded amount (18: the
/// stored 0x4aaac000, `F2I.FTZ.S64`), B alone -O0's truncated one (17: 0x95558000).
#[test]
fn ftz_copies_c40dc95f_b_amount_rounds_to_nearest() {
    let (p, i) = super::stored_case("5801", "c40dc95ff51db714");
    assert_eq!((c40dc95f_word(0, f32::round_ties_even), c40dc95f_word(0, f32::trunc)), (0x4aaa_c000, 0x9555_8000));
    let both = Allowances::all().emulating(Deviation::F32ShiftAmount).emulating(Deviation::FtzCopiesDropF2iTruncation);
    let (out, fired) = run_emulating(&p, &i, &both).unwrap();
    assert_eq!(fired, vec![Deviation::FtzCopiesDropF2iTruncation]);
    for (t, e) in out.iter().enumerate() {
        assert_eq!(e.field(0, 32).bits as u32, c40dc95f_word(t, f32::round_ties_even), "thread {t}");
    }
    let (out, _) = run_emulating(&p, &i, &Allowances::all().emulating(Deviation::F32ShiftAmount)).unwrap();
    for (t, e) in out.iter().enumerate() {
        assert_eq!(e.field(0, 32).bits as u32, c40dc95f_word(t, f32::trunc), "thread {t}");
    }
}

/// c40dc95f's variants that keep `.TRUNC` (one ftz copy, plain copies, one plain and one ftz):
/// emulating 0c8cc6d5 with B gives B's truncated words and fires B only.
#[test]
fn ftz_copies_c40dc95f_leaves_one_copy_and_plain_copies_truncated() {
    let both = Allowances::all().emulating(Deviation::F32ShiftAmount).emulating(Deviation::FtzCopiesDropF2iTruncation);
    for name in ["v1_one_cvt_ftz", "v2_two_cvt_noftz", "v16_ftz_then_noftz", "v17_noftz_then_ftz"] {
        let (p, i) = super::variant_of("5801", "c40dc95f", &format!("s58/{name}"), &[]);
        let (out, fired) = run_emulating(&p, &i, &both).unwrap();
        assert_eq!(fired, vec![Deviation::F32ShiftAmount], "{name}");
        for (t, e) in out.iter().enumerate() {
            assert_eq!(e.field(0, 32).bits as u32, c40dc95f_word(t, f32::trunc), "{name} thread {t}");
        }
    }
}
