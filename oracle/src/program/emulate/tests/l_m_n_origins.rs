//! Tests of L's constant source, M's dropped f16 mask, N's dropped narrow conversion, and an
//! origin a later write ends (moved out of `emulate/tests.rs`, which holds the shared helpers).

use super::*;

/// L leaves a constant source alone (corpus/findings/fuzz-h200-3501/, ad84da1a; ptxas 13.0.88
/// -O3 folds `mov.b32 %r8, 3123994210; cvt.s64.u32 %d3, %r8` to the zero extension, `MOV R5,
/// 0x0`): a register a move of an immediate wrote converts as the spec says; a loaded one not.
#[test]
fn l_a_constant_source_is_folded_right() {
    let shifted = ["shl.b64 %d1, %d0, 1;", "st.global.b64 [%out], %d1;"];
    let moved = [&["mov.b32 %r0, 3123994210;", "cvt.s64.u32 %d0, %r0;"][..], &shifted].concat();
    untouched(&moved, [0; 4], Deviation::CvtS64U32SignExtends);
    let copied = [&["mov.b32 %r1, 3123994210;", "mov.b32 %r0, %r1;", "cvt.s64.u32 %d0, %r0;"][..], &shifted].concat();
    untouched(&copied, [0; 4], Deviation::CvtS64U32SignExtends);
    let loaded = [&["ld.global.u32 %r0, [%in];", "cvt.s64.u32 %d0, %r0;"][..], &shifted].concat();
    exact_case(&loaded, [0xba34_5e62, 0, 0, 0], Deviation::CvtS64U32SignExtends, 0x1_7468_bcc4, 0xFFFF_FFFF_7468_BCC4);
}

/// M (corpus/findings/fuzz-h100-b/README.md, c4105-compiler-and.b16-8e9fdcdc.case): and.b16
/// 0x7f of cvt.rz.f16.f32(-0.0) as the first element of a `.v2.b16` store, or the low half of
/// `mov.b32 {a, b}`, stores 0x8000, the mask dropped (ptxas 13.0.88 -O3: `PRMT R0, R0, 0x5410,
/// RZ; PRMT R3, R0, 0x5410, R6`, no `LOP3`). Stored alone, as the second element, or read by
/// `setp` the mask stays (`LOP3.LUT R7, R0, 0x7f, RZ, 0xc0`; corpus/findings/fuzz-h200-3501/,
/// 26d7842c).
#[test]
fn m_the_mask_of_an_f16_result_is_dropped_in_the_low_half_of_a_pack() {
    let masked = ["ld.global.u32 %r0, [%in];", "cvt.rz.f16.f32 %h1, %r0;", "and.b16 %h2, %h1, 127;"];
    let other = "ld.global.u16 %h3, [%in+4];";
    let words = [0x8000_0000, 0x1234, 0, 0];
    let vector = [&masked[..], &[other, "st.global.v2.b16 [%out], {%h2, %h3};"]].concat();
    exact_case(&vector, words, Deviation::F16MaskDropped, 0x1234_0000, 0x1234_8000);
    let pack = [&masked[..], &[other, "mov.b32 %r1, {%h2, %h3};", "st.global.u32 [%out], %r1;"]].concat();
    exact_case(&pack, words, Deviation::F16MaskDropped, 0x1234_0000, 0x1234_8000);
    let alone = [&masked[..], &["st.global.b16 [%out], %h2;"]].concat();
    untouched(&alone, words, Deviation::F16MaskDropped);
    let high = [&masked[..], &[other, "st.global.v2.b16 [%out], {%h3, %h2};"]].concat();
    untouched(&high, words, Deviation::F16MaskDropped);
    // 26d7842c's form: the masked value compared (-O3 keeps `LOP3.LUT R0, R0, 0x2, RZ, 0xc0`).
    let compared = [
        "ld.global.u32 %r0, [%in];",
        "cvt.rz.f16.f32 %h1, %r0;",
        "and.b16 %h2, %h1, 2;",
        "setp.ge.s16 %p0, %h1, %h2;",
        "mov.b32 %r2, 1;",
        "mov.b32 %r3, 2;",
        "selp.b32 %r1, %r2, %r3, %p0;",
        "st.global.u32 [%out], %r1;",
    ];
    untouched(&compared, [0xfde7_ae05, 0, 0, 0], Deviation::F16MaskDropped);
    let loaded = ["ld.global.u16 %h1, [%in];", "and.b16 %h2, %h1, 127;", other, "st.global.v2.b16 [%out], {%h2, %h3};"];
    untouched(&loaded, [0x8000, 0x1234, 0, 0], Deviation::F16MaskDropped);
}

/// M of a `.bf16` conversion masked by a register (corpus/findings/fuzz-h200-5401/, edd64ad1,
/// trace/T54S.md, variants in trace/edd64ad1/s54/; 13.0.88 -O3 `F2FP…BF16.F32.MERGE_C; PRMT R0,
/// R0, 0x5410, RZ`, no `LOP3`, 13.5 right): the `.relu`/`.satfinite` forms keep the unmasked
/// bf16 in the pack's low half, as their `.f16` twins; plain `.rn`/`.rz` (`F2F.BF16.F32`, v7, v8)
/// keep the mask.
#[test]
fn m_a_register_mask_of_a_clamped_bf16_is_dropped_in_a_pack() {
    let d = Deviation::F16MaskDropped;
    let with = m_masked_pack;
    // 1.5 (0x3fc0 as a bf16) masked by 0x0f00.
    let words = [0x3fc0_0000, 0x0f00, 0, 0];
    for cvt in [
        "cvt.rn.satfinite.bf16.f32 %h1, %r0;",
        "cvt.rn.relu.bf16.f32 %h1, %r0;",
        "cvt.rz.satfinite.bf16.f32 %h1, %r0;",
        "cvt.rz.relu.bf16.f32 %h1, %r0;",
        "cvt.rn.relu.satfinite.bf16.f32 %h1, %r0;",
        "cvt.rz.relu.satfinite.bf16.f32 %h1, %r0;",
    ] {
        exact_case(&with(cvt), words, d, 0x0f00, 0x3fc0);
    }
    untouched(&with("cvt.rn.bf16.f32 %h1, %r0;"), words, d);
    untouched(&with("cvt.rz.bf16.f32 %h1, %r0;"), words, d);
    // 484f5b79 (seed 3802): an f16 masked by such a bf16 (of a moved 0) stores the f16, a NaN's relu.rz 0x7fff.
    let f16_by_bf16 = [
        "ld.global.b32 %r0, [%in];",
        "cvt.rz.relu.f16.f32 %h0, %r0;",
        "mov.b32 %r5, 0;",
        "cvt.rn.satfinite.bf16.f32 %h1, %r5;",
        "and.b16 %h2, %h0, %h1;",
        "mov.b16 %h3, 0;",
        "mov.b32 %r1, {%h2, %h3};",
        "st.global.b32 [%out], %r1;",
    ];
    exact_case(&f16_by_bf16, [0xffb8_ffff, 0, 0, 0], d, 0, 0x7fff);
}

/// edd64ad1's campaign case: emulating M gives the stored ptxas -O3 and JIT word 3, 0xf7c6 (the
/// unmasked satfinite bf16 of −8.018e33, the spec's 0xf7c6 & 0 = 0), in every thread.
#[test]
fn m_edd64ad1_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5401", "edd64ad1f589153c");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, Deviation::F16MaskDropped) {
        let want = if w == 3 { 0xf7c6 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 3 || s.bits == 0, "thread {t}: the spec's word 3");
    }
}

/// N (corpus/findings/fuzz-h100-b/README.md): cvt.u8.s8 of cvt.rn.satfinite.f16.f32 of a
/// negative tiny value (-0.0, 0x8000) stores 0x8000, the conversion dropped.
#[test]
fn n_cvt_u8_s8_of_an_f16_result_is_dropped() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "cvt.rn.satfinite.f16.f32 %h0, %r0;",
        "cvt.u8.s8 %h1, %h0;",
        "st.global.b16 [%out], %h1;",
    ];
    exact_case(&lines, [0x8000_0001, 0, 0, 0], Deviation::CvtU8S8OfF16Dropped, 0, 0x8000);
    untouched(
        &["ld.global.u16 %h0, [%in];", "cvt.u8.s8 %h1, %h0;", "st.global.b16 [%out], %h1;"],
        [0x8000, 0, 0, 0],
        Deviation::CvtU8S8OfF16Dropped,
    );
}

/// A register overwritten by another producer loses its origin: no emulation applies.
#[test]
fn a_later_write_ends_the_origin() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "cvt.rz.f16.f32 %h1, %r0;",
        "ld.global.u16 %h1, [%in+4];",
        "and.b16 %h2, %h1, 127;",
        "st.global.v2.b16 [%out], {%h2, %h1};",
    ];
    untouched(&lines, [0x8000_0000, 0x8000, 0, 0], Deviation::F16MaskDropped);
}
