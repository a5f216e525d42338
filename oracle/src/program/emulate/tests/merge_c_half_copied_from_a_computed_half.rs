//! Tests of 3701-N-D with h a copy of a computed half, or a computed half of an I2F.F16 ptxas
//! does not fold (seed 5701's c5e2088f, session 57, helper h4; corpus/findings/fuzz-h200-5701/
//! trace/T57D.md, variants in trace/c5e2088f/s57/;
//! `emulate/merge_c_in_place/half_copied_from_a_computed_half.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// Each thread's words of c5e2088f's variant `name` (the stored case when `None`) with 3701-N-D
/// alone: word 0 (`r2 + {h1, h1}`, r2 = {pair, h1}) with h1's later read the pair, `bug` where
/// the spec gives `spec`; the other words the spec's.
fn merged(name: Option<&str>, spec: u128, bug: u128) {
    let (p, i) = match name {
        None => super::stored_case("5701", "c5e2088f21e23729"),
        Some(name) => super::variant_of("5701", "c5e2088f", name, &[]),
    };
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (spec, bug), "{name:?} thread {t}");
        } else {
            assert_eq!(e, s, "{name:?} thread {t} word {w}");
        }
    }
}

/// The stored case: h1 = 0x83ff (`not` of the +inf f16), the pair 0x3838; the spec's word 0 is
/// 0x83ff3838 + 0x83ff83ff = 0x07febc37, the stored -O3/JIT word 0x83ff3838 + 0x38383838 =
/// 0xbc377070.
#[test]
fn nd_c5e2088f_the_stored_case_gives_the_stored_o3_words() {
    merged(None, 0x07fe_bc37, 0xbc37_7070);
}

/// s57 wrong alike (13.0.88 -O3 `MERGE_C` in place and `PRMT R, R0, 0x5410, R0`): the `not`
/// straight into h1 (x1), the pair in another register (x3), a `mov.b32` pack (x8); the `not`
/// of `cvt.rn.f16.{s32,u32}` of a moved 5 (x11, x12: 0x4500 → 0xbaff); copies of a `xor.b16`
/// (x2: 0x1234) and a `not.b16` (x5: 0xffff) of the loaded half 0; of the `not` of an I2F.F16
/// of the loaded word 0 (x10: 0xffff).
#[test]
fn nd_c5e2088f_a_copy_of_a_computed_half_is_merged_in_place() {
    merged(Some("s57/x1_not_into_h1_directly"), 0x07fe_bc37, 0xbc37_7070);
    merged(Some("s57/x3_pair_in_other_register"), 0x07fe_bc37, 0xbc37_7070);
    merged(Some("s57/x8_b32_pack"), 0x07fe_bc37, 0xbc37_7070);
    // r0 = 5: the e4m3x2 pair of 5.0 (bits of the integer 5 as an f32: a subnormal, 0) is 0.
    merged(Some("s57/x11_f16_of_moved_5"), add(0xbaff_0000, 0xbaff_baff), 0xbaff_0000);
    merged(Some("s57/x12_f16_of_moved_5_u32"), add(0xbaff_0000, 0xbaff_baff), 0xbaff_0000);
    merged(Some("s57/x2_copy_of_xor_of_loaded"), add(0x1234_3838, 0x1234_1234), add(0x1234_3838, 0x3838_3838));
    merged(Some("s57/x5_copy_of_not_of_loaded"), add(0xffff_3838, 0xffff_ffff), add(0xffff_3838, 0x3838_3838));
    merged(Some("s57/x10_copy_of_f16_cvt_of_loaded_not"), add(0xffff_0000, 0xffff_ffff), 0xffff_0000);
}

/// `add.u32` of two words.
fn add(a: u128, b: u128) -> u128 {
    (a + b) & 0xffff_ffff
}

/// Right (the spec stands): a copy of a loaded half (x4) or of the I2F.F16 result itself (x7),
/// a `not` of a moved constant (x6) or of a `cvt.rn.f16.f32` of one (x13), an f16 cvt in place
/// of the pair (x9).
#[test]
fn nd_c5e2088f_a_copy_of_a_loaded_or_folded_half_is_left_alone() {
    for name in [
        "s57/x4_copy_of_loaded_half",
        "s57/x7_f16_cvt_copied_no_not",
        "s57/x6_not_of_moved_constant_copied",
        "s57/x13_f16_of_moved_f32",
        "s57/x9_f16_not_pair",
    ] {
        let (p, i) = super::variant_of("5701", "c5e2088f", name, &[]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
