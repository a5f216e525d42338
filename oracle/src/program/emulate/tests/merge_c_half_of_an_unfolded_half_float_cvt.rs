//! Tests of 3701-N-D with h a 16-bit ALU result of a half-to-half float `cvt` of a constant,
//! which ptxas does not fold (seed 5803's 8704908d, session 58, helper he; corpus/findings/
//! fuzz-h200-5801/trace/T58E.md, variants in corpus/findings/fuzz-h200-5803/trace/8704908d/s58/;
//! `emulate/merge_c_in_place/half_copied_from_a_computed_half.rs`, `unfolded_int_to_f16_half`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// 8704908d's stored case (`None`) or its variant `name`, with 3701-N-D alone: word 0's byte 0
/// (h1 stored by `st.v2.b8 {h1, h27}`) is the pair's low byte 0x80 (e4m3 of the f16 0x8e62, −0)
/// where the spec gives h1's; every other byte and word is the spec's.
fn merged(name: Option<&str>) {
    let (p, i) = match name {
        None => super::stored_case("5803", "8704908d03d69181"),
        Some(name) => super::variant_of("5803", "8704908d", name, &[]),
    };
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert_eq!(e.bits, (s.bits & !0xff) | 0x80, "{name:?} thread {t}");
        } else {
            assert_eq!(e, s, "{name:?} thread {t} word {w}");
        }
    }
}

/// The stored case (`cvt.bf16.bf16`, spec h1 = 0: word 0 0, the GPU's 0x80) and the s58 wrong
/// ones: `cvt.f16.f16` (v1, `HADD2`), `cvt.bf16.f16` (v6, `F2F.BF16.F16`), `cvt.rzi.f16.f16` (v7,
/// `FRND.F16.TRUNC`), each `MERGE_C R7, R0, R7` in the sub's register (13.0.88 and 13.5 -O3).
#[test]
fn nd_8704908d_a_sub_of_an_unfolded_half_float_cvt_is_merged_in_place() {
    merged(None);
    merged(Some("s58/v1_cvt_f16_f16"));
    merged(Some("s58/v6_cvt_bf16_f16"));
    merged(Some("s58/v7_cvt_rzi_f16"));
}

/// Right (folded to `IMAD.MOV.U32 R9, RZ, RZ, 0x…`, the pair built in R0): `cvt.rn.bf16.f32` (v2)
/// and `cvt.rn.f16.f32` (v5) of a moved f32, a copy (v3), `cvt.u16.u32` (v4).
#[test]
fn nd_8704908d_a_sub_of_a_folded_cvt_or_copy_is_left_alone() {
    for name in ["s58/v2_cvt_rn_bf16_f32", "s58/v3_mov_copy", "s58/v4_cvt_u16_u32", "s58/v5_cvt_rn_f16_f32"] {
        let (p, i) = super::variant_of("5803", "8704908d", name, &[]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
