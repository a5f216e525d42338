//! Tests of the widenings for seed 5703's findings traced by helper h6 (session 57,
//! corpus/findings/fuzz-h200-5703/trace/T57F.md): 9af9a4d8, 3701-N-D with h a zero-extending byte
//! `cvt` read through a later byte pack (`emulate/merge_c_zero_extended_byte_half.rs`), and
//! 4163f94f, J's narrowed add whose other half's byte only a pack read by a dead copy reads
//! (`emulate/j_branch_known_values.rs`, `dead`). 65b4e6cc's are in `fp8_pair_built_only_in_its_pack.rs`.

use super::*;

const ND: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;
const J: Deviation = Deviation::AddU16x2OfConstantsNarrowedDropsOne;

/// Word `w` of every thread of `name` of finding `id8` (the stored case `case`, or an s57 variant
/// on its inputs): by the spec, emulating `d`, and whether `d` fired.
fn words(id8: &str, case: &str, name: &str, d: Deviation, w: u32) -> (Vec<(u32, u32)>, bool) {
    let (p, i) = match name {
        "orig" => stored_case("5703", case),
        _ => variant_of("5703", id8, &format!("s57/{name}"), &[]),
    };
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    let pairs = spec
        .iter()
        .zip(&out)
        .map(|(s, e)| {
            let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
            assert!(s.is_exact() && e.is_exact(), "{id8} {name}: {e:?}");
            (s.bits as u32, e.bits as u32)
        })
        .collect();
    (pairs, fired == vec![d])
}

/// 9af9a4d8 (13.0.88 = 13.5 -O3): the merge of the e4m3x2 pair 0 into h1 = `cvt.u8.s8` of the
/// loaded 0x2a2a (`LOP3.LUT R7, R2, 0xff; …MERGE_C R7, RZ, R7`) reaches byte 1 of a later byte
/// pack of the load's byte c0 (`PRMT R6, R2, 0x6540, R7`): the case `{c0, c0}` stores 0x002a002a
/// (the GPU's; spec 0x2a2a2a2a), w4 `{c1, c0}`, `cvt.u8.u16` (w7), `cvt.u8.s16` (w12), `cvt.u16.u8`
/// (w13), the unpack after the cvt (w18), a `mov.b32` pack (w9), e5m2x2 (w10) alike; h1 itself read
/// after (w1, w16 of an `xor.b16`) is the pair.
#[test]
fn merge_c_9af9a4d8_byte_of_a_zero_extended_cvt_source_reads_the_pair() {
    let id = ("9af9a4d8", "9af9a4d86958c055");
    for name in ["orig", "w4_pack_c1_c0", "w7_cvt_u8_u16", "w12_cvt_u8_s16", "w13_cvt_u16_u8", "w18_unpack_after_cvt"]
        .into_iter()
        .chain(["w9_mov_b32_pack", "w10_e5m2"])
    {
        let (words, fired) = words(id.0, id.1, name, ND, 0);
        assert!(fired, "{name}");
        assert_eq!(words.len(), 32, "{name}");
        assert!(words.iter().all(|&w| w == (0x2a2a_2a2a, 0x002a_002a)), "{name}: {words:x?}");
    }
    for (name, spec) in [("w1_h1_read_after", 0x002a_002a), ("w16_cvt_u8_s8_of_xor_read_after", 0x003b_003b)] {
        let (words, fired) = words(id.0, id.1, name, ND, 0);
        assert!(fired, "{name}");
        assert!(words.iter().all(|&w| w == (spec, 0)), "{name}: {words:x?}");
    }
}

/// 9af9a4d8's right variants (13.0.88 -O3): c0 at element 0 (w3), c0 widened alone (w2), `{c1,
/// c1}` (w5), `cvt.s8.s8` (w6), an f16 for the pair (w8), no pack (w11), `and.b16 0xff` (w14), h
/// from a byte load (w15): the spec's words, nothing fired.
#[test]
fn merge_c_9af9a4d8_right_variants_are_left_alone() {
    for name in [
        "w2_c0_widened_alone",
        "w3_pack_c0_c1",
        "w5_pack_c1_c1",
        "w6_cvt_s8_s8",
        "w8_f16_not_pair",
        "w11_no_pack",
        "w14_and_b16_0xff",
        "w15_h_of_byte_load_read_after",
    ] {
        let (words, fired) = words("9af9a4d8", "9af9a4d86958c055", name, ND, 0);
        assert!(!fired, "{name}");
        assert!(words.iter().all(|&(s, e)| s == e), "{name}: {words:x?}");
    }
}

/// 4163f94f (13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0`, 13.5 `0x50af`): c4 of `add.s16x2` of the moved
/// 0x50afcb91 and 0 stored as 0 (word 1: the GPU's 0, spec 0x50500000) though c1's pack `{c1, c1}`
/// is read — by a copy nothing reads (the case), two such copies (x4), a dead `xor.b16` (x5); x1
/// (no copy) too. Right: x2 (the copy stored: c1 observed, both halves kept).
#[test]
fn j_4163f94f_a_pack_read_only_by_dead_statements_is_dead() {
    let id = ("4163f94f", "4163f94fc85ac1c7");
    for name in [
        "orig",
        "x1_no_copy_of_dead_pack",
        "x3_no_createpolicy",
        "x4_two_copies_of_dead_pack",
        "x5_dead_xor_of_the_pack",
    ] {
        let (words, fired) = words(id.0, id.1, name, J, 1);
        assert!(fired, "{name}");
        assert_eq!(words.len(), 32, "{name}");
        assert!(words.iter().all(|&w| w == (0x5050_0000, 0)), "{name}: {words:x?}");
    }
    let (words, fired) = words(id.0, id.1, "x2_copy_stored", J, 1);
    assert!(!fired, "x2");
    assert!(words.iter().all(|&(s, e)| s == e && s == 0x5050_cbcb), "x2: {words:x?}");
}
