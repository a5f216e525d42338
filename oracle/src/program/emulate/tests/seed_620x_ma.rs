//! Tests of the findings of seeds 6201-6203 traced by helper ma (session 62; corpus/findings/
//! fuzz-h200-6201/trace/T62A.md, variants in each finding's trace/<id8>/s62/): M's register mask of
//! an fp8 pair that is the `and`'s first source (0f100ce6, d2ca2b15:
//! `emulate/skipped_integer_copy_and_f2fp_mask.rs`, `fp8_pair_masked_by_reg`), and 3701-N-D's half
//! read by a 16-bit vector load of the pack's own store (061d23c8:
//! `emulate/merge_c_pack_word_read_by_a_forwarded_load.rs`, `loaded_from_the_pack_store`) or written
//! by an integer `cvt.sat.u8` (ef36a487: `emulate/merge_c_half_of_u8_cvt_or_truncation.rs`,
//! `sat_u8_half`).

use super::*;

const M: Deviation = Deviation::F16MaskDropped;
const ND: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// Every 32-bit word `w` of thread `t` of the stored case `name` of seed `seed`, by the spec and
/// with `d` emulated alone, is `(spec, gpu)` where `w` is `word`, and the spec's elsewhere.
fn stored_words(seed: &str, name: &str, d: Deviation, word: u32, spec: u128, gpu: u128) {
    let (p, i) = super::stored_case(seed, name);
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, d) {
        if w == word {
            assert_eq!((s.bits, e.bits), (spec, gpu), "{name} thread {t}");
        } else {
            assert_eq!(s, e, "{name} thread {t} word {w}");
        }
    }
}

/// Whether emulating `d` on variant `name` of `seed`/`id8` (input words patched by `patch`) fires
/// `d` and changes some word (`true`), or leaves every word the spec's and fires nothing (`false`).
fn variant_fires(seed: &str, id8: &str, name: &str, patch: &[(usize, u32)], d: Deviation) -> bool {
    let (p, i) = super::variant_of(seed, id8, name, patch);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    if fired.is_empty() {
        assert_eq!(out, spec, "{name}");
        return false;
    }
    assert_eq!(fired, vec![d], "{name}");
    assert_ne!(out, spec, "{name}");
    true
}

/// 0f100ce6: `and.b16 h6, h4, h0` of the e4m3x2 pair h4 (0xa300) and a loaded 0 stored as the low
/// half of `st.global.v2.b16 {h6, 0}` is the pair (13.0.88 -O3 `F2FP…MERGE_C R0; PRMT R0, R0,
/// 0x5410, RZ`, no load, no `LOP3`): word 1 0x0000a300 in every thread, spec 0. d2ca2b15: an
/// `ld.global.u8` mask, the low half of a `mov.b64` pack's first word: 0x00008080, spec 0.
#[test]
fn m_an_fp8_pair_masked_by_a_register_is_stored_unmasked() {
    stored_words("6201", "0f100ce65b94f3d5", M, 1, 0, 0xa300);
    stored_words("6201", "d2ca2b151a6a79ce", M, 0, 0, 0x8080);
}

/// The wrong variants of 0f100ce6 (13.0.88 -O3, no `LOP3`): e5m2x2 (v01), `.f16x2` (v02), a
/// `mov.b32` pack (v08), an `ld.u16` (v09), a `cvt.u16.u32` (v15), an unpacked half (v16),
/// an `add.u16` (v17), another pair (v18), a `not.b16` (v23) or a `shl.b16` (v25) mask, word 1 of a
/// `mov.b64` pack (v26); the loaded half 0x0f00 (so that `not.b16` of it is no all-ones mask). (`.relu`, v06, is wrong too, but its pair of a negative value is 0, the
/// masked value.)
#[test]
fn m_the_wrong_fp8_pair_mask_variants_are_emulated() {
    for name in [
        "v01_e5m2x2_f32",
        "v02_e4m3x2_f16x2",
        "v08_mov_b32_pack",
        "v09_mask_ld_u16",
        "v15_mask_cvt_u16_of_tid",
        "v16_mask_unpacked_half",
        "v17_mask_add_of_load",
        "v18_mask_other_pair",
        "v23_mask_not_of_load",
        "v25_mask_shl_of_load",
        "v26_mov_b64_word1",
    ] {
        assert!(variant_fires("6201", "0f100ce6", &format!("s62/{name}"), &[(9, 0x0f00)], M), "{name}");
    }
}

/// The right variants of 0f100ce6 (13.0.88 -O3 keeps the `LOP3`): the pair as the second source
/// (v03: `LOP3.LUT R7, R2, R7, RZ, 0xc0`), a mask ptxas fuses into a three-input `LOP3` (v10 an
/// `xor.b16` of a load, `0x60`; v24 an `and.b16` of two loads, `0x80`), a high half (v04), a 16-bit
/// store (v05), `or`/`xor` in place of the `and` (v07, v13): left alone.
#[test]
fn m_the_right_fp8_pair_mask_variants_are_left_alone() {
    for name in [
        "v03_mask_first",
        "v10_mask_xor_of_load",
        "v24_mask_and_of_loads",
        "v04_high_half",
        "v05_scalar_store",
        "v07_or",
        "v13_xor",
    ] {
        assert!(!variant_fires("6201", "0f100ce6", &format!("s62/{name}"), &[(9, 0x0f00)], M), "{name}");
    }
}

/// 061d23c8: `ld.shared::cta.v4.s16` of the destroying pack `st.shared::cta.v4.b16 {p, h4, h3, h10}`
/// reads its element 1 from h4's register, now the merged word (`IMAD.MOV.U32 R7, RZ, RZ, R10; PRMT
/// R7, R7, 0x7604, RZ`): byte 1 of word 0 is the pair's 0, spec h4 = 0xcf & 0x8001 = 1.
#[test]
fn nd_a_vector_load_of_the_pack_store_reads_the_pair_for_h() {
    stored_words("6202", "061d23c8df1b3f58", ND, 0, 0x100, 0);
}

/// 061d23c8's variants: wrong and emulated, a `.v4.b16` (w01) or `.v2.b16` (w02) load, e4m3x2 (w09),
/// the pair at element 2 and h at 3 (w10, and read by a `.v2` load of elements 2-3, w13), a `.v2`
/// store and load (w11); right and left alone, a scalar `ld.shared.{u16,s16}` (w03, w04: `LDS`),
/// an f16 (w05), h loaded (w06), h before the pair (w12).
#[test]
fn nd_the_pack_store_load_variants() {
    for name in ["w01_ld_v4_b16", "w02_ld_v2_b16", "w09_e4m3", "w10_pair_at_lane2", "w11_v2_store_v2_load"] {
        assert!(variant_fires("6202", "061d23c8", &format!("s62/{name}"), &[], ND), "{name}");
    }
    assert!(variant_fires("6202", "061d23c8", "s62/w13_v2_load_of_elements_2_3", &[], ND));
    for name in ["w03_scalar_u16", "w04_scalar_s16", "w05_f16_not_pair", "w06_h_ld_u16", "w12_no_pair_lane0"] {
        assert!(!variant_fires("6202", "061d23c8", &format!("s62/{name}"), &[], ND), "{name}");
    }
}

/// ef36a487: `cvt.sat.u8.u64 h0` (0xff) packed after the e4m3x2 pair and read again by `mov.b32
/// r26, {h0, h0}` is the pair there (13.0.88 -O3 `LOP3.LUT R0, R0, 0xff; F2FP…UNPACK_B_MERGE_C R0,
/// RZ, R0; PRMT R3, R0, 0x5410, R0`): r2 + r26 = 0x00ff0000, spec 0x01fe00ff.
#[test]
fn nd_a_sat_u8_half_is_merged_over() {
    stored_words("6203", "ef36a48734d38d06", ND, 1, 0x01fe_00ff, 0x00ff_0000);
}

/// ef36a487's variants on a 64-bit source 0x77 (so that every `.sat` keeps a nonzero byte): wrong and
/// emulated, `.sat.u8` of `.s64` (x01), `.u32` (x03), `.s32` (x11), `.s16` (x12), `.u16` (x16), `.s8`
/// (x17), an e5m2x2 (x08) or `.f32` (x15) pair; right and left alone, `.sat.s8` (x04, x06),
/// `.sat.u16`/`.sat.s16` (x05, x07), an f16 (x09), h before the pair (x10).
#[test]
fn nd_the_sat_u8_variants() {
    let patch = [(24, 0x77), (25, 0)];
    for name in [
        "x01_cvt_sat_u8_s64",
        "x03_cvt_sat_u8_u32",
        "x11_cvt_sat_u8_s32",
        "x12_cvt_sat_u8_s16",
        "x16_cvt_sat_u8_u16",
        "x17_cvt_sat_u8_s8",
        "x08_e5m2",
        "x15_pair_of_f32",
    ] {
        assert!(variant_fires("6203", "ef36a487", &format!("s62/{name}"), &patch, ND), "{name}");
    }
    for name in [
        "x04_cvt_sat_s8_u64",
        "x06_cvt_sat_s8_s64",
        "x05_cvt_sat_u16_u64",
        "x07_cvt_sat_s16_s64",
        "x09_f16_not_pair",
        "x10_h_first",
    ] {
        assert!(!variant_fires("6203", "ef36a487", &format!("s62/{name}"), &patch, ND), "{name}");
    }
}
