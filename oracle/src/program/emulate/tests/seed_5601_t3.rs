//! Tests of the three known causes widened after seed 5601's trace T56C (helper t3, session 56;
//! corpus/findings/fuzz-h200-5601/trace/T56C.md, variants in trace/<id8>/s56/ with 13.0.88 and
//! 13.5 -O3 listings): d8a4dedd (3501-N3, a float conversion of a `cnot` tested by an ordered
//! compare with 0: `cnot_number_under_float_zero_test_or_b64_logic::ordered_zero_test`), 3f24325e
//! (3702-N5 at a forwarded `.shared::cluster` load, b a moved constant a live fp8-pair `cvt`
//! holds: `store_forwarded_load::forwardable`, `prmt_constant_b_held_in_a_register::holds`) and
//! 958b8f4e (1c2ac943's y taken as non-negative, read by an `or.b32` with the sign bit:
//! `chained_shr_s32_of_known_ones_folded_to_zero::or_with_the_sign_bit`).

use super::*;

/// Word `w` of thread 0 of `p` on `i`: the spec's and emulating `d`, with the deviations that fired.
fn word0(p: &Program, i: &Inputs, d: Deviation, w: u32) -> (u64, u64, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(p, i, &Allowances::all().emulating(d)).unwrap();
    let e = out.remove(0);
    (spec.field(32 * w, 32).bits as u64, e.field(32 * w, 32).bits as u64, fired)
}

/// The variant `name` of `id8` (in `s56/`) emulating `d`: word `w` of thread 0 is `spec` by the
/// spec and `bug` emulating `d`, which alone fired.
fn wrong(id8: &str, name: &str, patch: &[(usize, u32)], d: Deviation, w: u32, spec: u64, bug: u64) {
    let (p, i) = super::variant_of("5601", id8, &format!("s56/{name}"), patch);
    assert_eq!(word0(&p, &i, d, w), (spec, bug, vec![d]), "{name}");
}

/// The variant `name` of `id8` (in `s56/`) is left alone by `d`: every word the spec's, nothing fired.
fn right(id8: &str, name: &str, patch: &[(usize, u32)], d: Deviation) {
    let (p, i) = super::variant_of("5601", id8, &format!("s56/{name}"), patch);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{name}");
}

/// Each of the first 8 threads of a stored case gives `bug` in word `w` emulating `d` alone,
/// where the spec gives `spec` (the campaign's stored -O3 and JIT words).
fn stored(name: &str, d: Deviation, w: u32, spec: u64, bug: u64) {
    let (p, i) = super::stored_case("5601", name);
    let words = super::words_emulated_alone(&p, &i, d);
    for t in 0..8 {
        let (_, _, s, e) = words.iter().find(|(u, v, _, _)| (*u, *v) == (t, w)).unwrap();
        assert_eq!((s.bits as u64, e.bits as u64), (spec, bug), "{name} thread {t}");
    }
}

const N3: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// d8a4dedd: `cnot.b32` of a loaded 0, `cvt.rn.bf16.f32`, `setp.gt.u16 h, 0`, `selp.b16 h, 0xe000`:
/// 13.0.88 and 13.5 -O3 convert the cnot's 1 as 1.0 (`SEL R0, RZ, 0x3f80, !P0`), so the setp is
/// true and 0x3f80 is stored twice; §9.7.9.21 rounds the bits 2^-149 to +0 (the selp's 0xe000).
#[test]
fn n3_d8a4dedd_an_ordered_zero_test_of_the_conversion_converts_the_number() {
    stored("d8a4dedd2aa19fe4", N3, 0, 0xe000_e000, 0x3f80_3f80);
    // `setp.gt.s16`, `setp.le.u16` (the selp then takes 0xe000), `.f16` (1.0 = 0x3c00).
    wrong("d8a4dedd", "v3_setp_gt_s16", &[], N3, 0, 0xe000_e000, 0x3f80_3f80);
    wrong("d8a4dedd", "v4_setp_le_u16", &[], N3, 0, 0, 0xe000_e000);
    wrong("d8a4dedd", "v9_f16", &[], N3, 0, 0xe000_e000, 0x3c00_3c00);
}

/// d8a4dedd's right neighbours (the bits converted, 13.0.88 and 13.5 -O3): a compare with 1
/// (`v6`, `v11`), a dead setp (`v8`), one false for +0 and 1.0 alike (`v12`, `setp.lt.s16 h, 0`),
/// a compare with a loaded 0 (`v13`), no test (`v1`).
#[test]
fn n3_d8a4dedd_right_neighbours_are_left_alone() {
    for v in ["v1_no_setp", "v6_setp_gt_u16_1", "v8_setp_dead", "v11_setp_ge_u16_1", "v12_setp_lt_s16"] {
        right("d8a4dedd", v, &[], N3);
    }
    right("d8a4dedd", "v13_setp_gt_u16_loaded_zero", &[], N3);
}

const N5: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// 3f24325e: `prmt.b32 r4, r1, r1, 0x16b` of a moved 0x94571323 (also read by a live
/// `cvt.rn.satfinite.e5m2x2.f32`), `cvt.s16.u32`, `st.shared::cluster.u8`, `ld.shared::cluster.u8`
/// of the same byte: 13.0.88 -O3 forwards the load and narrows it to `PRMT R6, RZ, 0xb, R6` (0,
/// where §9.7.9.7 replicates the sign of 0x94: 0xff). `x01` (`.shared`: the fp8 cvt holding the
/// constant alone), `x12` (a loaded b: the `.shared::cluster` forward alone) and `x09` (`e4m3x2`)
/// the same.
#[test]
fn n5_3f24325e_a_forwarded_shared_cluster_load_of_a_held_constant_is_narrowed() {
    stored("3f24325ed6cd147a", N5, 1, 0x00ff_00ff, 0);
    wrong("3f24325e", "x01_shared", &[], N5, 1, 0x00ff_00ff, 0);
    wrong("3f24325e", "x09_e4m3x2", &[], N5, 1, 0x00ff_00ff, 0);
    wrong("3f24325e", "x12_loaded_b", &[(0, 0x9457_1323)], N5, 1, 0x00ff_00ff, 0);
}

/// 3f24325e's right neighbours (13.0.88 -O3): no live fp8 cvt (`x03`, `x13`: b in the `PRMT`'s
/// immediate slot), conversions ptxas folds (`x10`, `x11`), a signed load (`x06`), another
/// address (`x07`), an index nibble (`x08`).
#[test]
fn n5_3f24325e_right_neighbours_are_left_alone() {
    for v in [
        "x03_no_fp8_cvt",
        "x13_fp8_dead",
        "x10_cvt_f16_f32",
        "x11_cvt_bf16x2",
        "x06_ld_s8",
        "x07_other_address",
        "x08_index_nibble",
    ] {
        right("3f24325e", v, &[], N5);
    }
}

const C1C2: Deviation = Deviation::ChainedShrS32OfKnownOnesFoldedToZero;

/// 958b8f4e: `or.b32 x, 0xc0000000; shr.s32 y, 1; or.b32 y, 0x80000000` is 13.0.88 -O3
/// `LEA.HI.SX32 R7, R0, 0x80000000, 0x1f` (y + 2^31: 0x60000000 for x = 0, where §9.7.8 gives y
/// itself, 0xe0000000); wrong alike whenever n + a ≤ 4 (`w02`, `w03`, `w05`, `w07`) and for `or
/// 0xc0000000` (`w16`).
#[test]
fn c1c2_958b8f4e_an_or_with_the_sign_bit_of_the_shift_is_an_add() {
    stored("958b8f4e5c4c4d6e", C1C2, 0, 0xe000_0000, 0x6000_0000);
    wrong("958b8f4e", "w02_n1_a1", &[], C1C2, 0, 0xc000_0000, 0x4000_0000);
    wrong("958b8f4e", "w03_n3_a1", &[], C1C2, 0, 0xf000_0000, 0x7000_0000);
    wrong("958b8f4e", "w05_n2_a2", &[], C1C2, 0, 0xf000_0000, 0x7000_0000);
    wrong("958b8f4e", "w07_n1_a3", &[], C1C2, 0, 0xf000_0000, 0x7000_0000);
    wrong("958b8f4e", "w16_or_c0000000", &[(4, 0x1234_5678)], C1C2, 0, 0xe91a_2b3c, 0x691a_2b3c);
}

/// 958b8f4e's right neighbours (13.0.88 -O3): n + a = 5 (`w04`, `w06`, `w08`), an unknown bit in
/// the immediate (`w18`, `LOP3` kept), a known one alone (`w09`), no known ones (`w19`), a loaded
/// operand (`w20`), the shift stored (`w15`).
#[test]
fn c1c2_958b8f4e_right_neighbours_are_left_alone() {
    for v in [
        "w04_n4_a1",
        "w06_n2_a3",
        "w08_n1_a4",
        "w18_or_80000001",
        "w09_or_bit30",
        "w19_no_first_or",
        "w20_or_loaded",
        "w15_shr_stored",
    ] {
        right("958b8f4e", v, &[(4, 0x1234_5678), (5, 0x8000_0000)], C1C2);
    }
}
