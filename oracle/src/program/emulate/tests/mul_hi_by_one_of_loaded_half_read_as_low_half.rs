//! Tests of 1a937110's emulation (`emulate/mul_hi_by_one_of_loaded_half_read_as_low_half.rs`):
//! a half-precision `cvt` of `mul.hi`/`mad.hi` by a known 1 of a loaded byte or half converts the
//! loaded value's low half (corpus/findings/fuzz-h200-4601/trace/1a937110/ and its `s46/`, 13.0.88
//! -O3 listings): the wrong forms emulated, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::MulHiByOneOfLoadedHalfReadAsLowHalf;

/// Input word 0: byte 3 is 0x9d (f16 0x009d, a subnormal), bytes 2-3 the half 0x9d00.
const WORDS: [u32; 4] = [0x9d00_0000, 0, 0, 0];

/// `ld` of `%h0`, the multiply `mul` into `%h1`, `reader` of `%h1` into `%h2` (a half) stored.
fn stored_half(ld: &'static str, mul: &'static str, reader: &'static str) -> [&'static str; 4] {
    [ld, mul, reader, "st.global.b16 [%out], %h2;"]
}

const LD_B8: &str = "ld.global.b8 %h0, [%in+3];";

/// 1a937110's campaign case (32 threads, `ld.global.b8; mul.hi.u16 h0, h0, 1; cvt.f16.f16; mov.b32
/// {h2, h2}`): emulating 1a937110 alone gives the stored ptxas -O3 and JIT word 0x009d009d of
/// every thread (`LDG.E.U8 R2; HADD2 R0, R2.H0_H0, -RZ.H0_H0`) and the spec's words elsewhere.
#[test]
fn n_4601_1a937110_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "1a937110475dd07b");
    let words = super::words_emulated_alone(&p, &i, D);
    assert_eq!(words.len(), 32 * p.outputs as usize);
    for (t, w, s, e) in words {
        let want = if w == 0 { 0x009d_009d } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// `reduced.ptx` (= `v16_store_b16`): `HADD2 R3, R2.H0_H0, -RZ.H0_H0` stores 0x009d, spec 0;
/// `v4_other_dst` is this one (another destination), `s46/s1_ld_u8` the `.u8` load.
#[test]
fn the_reduced_1a937110_converts_the_loaded_byte() {
    let l = stored_half(LD_B8, "mul.hi.u16 %h1, %h0, 0x1;", "cvt.f16.f16 %h2, %h1;");
    exact_case(&l, WORDS, D, 0, 0x009d);
    let in_place = [
        "ld.global.u8 %h0, [%in+3];",
        "mul.hi.u16 %h0, %h0, 0x1;",
        "cvt.f16.f16 %h2, %h0;",
        "st.global.b16 [%out], %h2;",
    ];
    exact_case(&in_place, WORDS, D, 0, 0x009d);
}

/// `v17_one_first` with `v6_mul_hi_s16` (the 1 first, here a moved 1, `.s16` of a byte), `v10_mad_hi` and
/// `s46/s13_mad_hi_s16` (addend 0), `s46/s6_mad_hi_moved0` (a moved 0 addend), `v12_mov_one` (a
/// moved 1): all `HADD2 R3, R2.H0_H0`.
#[test]
fn the_one_first_signed_mad_hi_and_moved_constants_are_folded_alike() {
    let reader = "cvt.f16.f16 %h2, %h1;";
    // Glue takes a register first: the 1 first is a moved 1.
    let one_first = [LD_B8, "mov.u16 %h3, 1;", "mul.hi.s16 %h1, %h3, %h0;", reader, "st.global.b16 [%out], %h2;"];
    exact_case(&one_first, WORDS, D, 0, 0x009d);
    exact_case(&stored_half(LD_B8, "mad.hi.u16 %h1, %h0, 1, 0;", reader), WORDS, D, 0, 0x009d);
    exact_case(&stored_half(LD_B8, "mad.hi.s16 %h1, %h0, 1, 0;", reader), WORDS, D, 0, 0x009d);
    let moved0 = [LD_B8, "mov.u16 %h3, 0;", "mad.hi.u16 %h1, %h0, 1, %h3;", reader, "st.global.b16 [%out], %h2;"];
    exact_case(&moved0, WORDS, D, 0, 0x009d);
    let moved1 = [LD_B8, "mov.u16 %h3, 1;", "mul.hi.u16 %h1, %h0, %h3;", reader, "st.global.b16 [%out], %h2;"];
    exact_case(&moved1, WORDS, D, 0, 0x009d);
}

/// `v2_ld_u16` (and `s46/s3_ld_b16`): a loaded half 0x9d00 converts as f16 −0.0053; `v7_cvt_f32_f16`
/// (`HADD2.F32 R7, -RZ, R2.H0_H0`) and `s46/s7_cvt_f64_f16` (`F2F.F64.F16 R6, R2`): the byte's
/// f16 value 157·2^−24 as f32 and f64; `s46/s15_also_stored`: d stored too keeps its 0.
#[test]
fn half_loads_and_wider_readers_convert_the_loaded_value() {
    let reader = "cvt.f16.f16 %h2, %h1;";
    let mul = "mul.hi.u16 %h1, %h0, 0x1;";
    exact_case(&stored_half("ld.global.u16 %h0, [%in+2];", mul, reader), WORDS, D, 0, 0x9d00);
    exact_case(&stored_half("ld.global.b16 %h0, [%in+2];", mul, reader), WORDS, D, 0, 0x9d00);
    let f32 = [LD_B8, mul, "cvt.f32.f16 %r1, %h1;", "st.global.b32 [%out], %r1;"];
    exact_case(&f32, WORDS, D, 0, 0x371d_0000);
    let f64 = [LD_B8, mul, "cvt.f64.f16 %d0, %h1;", "st.global.b64 [%out], %d0;"];
    exact_case(&f64, WORDS, D, 0, 0x3ee3_a000_0000_0000);
    let also_stored = [LD_B8, mul, reader, "mov.b32 %r1, {%h2, %h1};", "st.global.b32 [%out], %r1;"];
    exact_case(&also_stored, WORDS, D, 0, 0x009d);
}

/// The right neighbours (13.0.88 -O3 right): factor 2 (`v3_by_2`: `SHF.L.U32; HADD2 R0.H1_H1`),
/// `mul.lo` (`v11`), integer readers (`v1_no_cvt`, `v9`), `cvt.rzi.s32.f16` and `cvt.f32.bf16`
/// (`s46/s8`, `s46/s9`), `mul.hi.u32` (`v13`), an `ld.s8` (`v22`), `mul.hi.s16` of an `ld.u16`
/// (`s46/s2`: `PRMT 0x9910`), x an unpack of a loaded u32 (`v24`) or an `add.u16` of the load
/// (`v23`), the load read elsewhere too (`s46/s14`, `s46/s16`), `mad.hi` with addend 5
/// (`s46/s12`); and, wrong but not emulated, `cvt.ftz.f32.f16` (`s46/s10`) and a `mov` copy of
/// the load (`s46/s5`).
#[test]
fn the_right_neighbours_of_1a937110_are_left_alone() {
    let reader = "cvt.f16.f16 %h2, %h1;";
    let mul = "mul.hi.u16 %h1, %h0, 0x1;";
    untouched(&stored_half(LD_B8, "mul.hi.u16 %h1, %h0, 0x2;", reader), WORDS, D);
    untouched(&stored_half(LD_B8, "mul.lo.u16 %h1, %h0, 0x1;", reader), WORDS, D);
    untouched(&[LD_B8, mul, "mov.b32 %r1, {%h1, %h1};", "st.global.b32 [%out], %r1;"], WORDS, D);
    untouched(&[LD_B8, mul, "cvt.rn.f32.u16 %r1, %h1;", "st.global.b32 [%out], %r1;"], WORDS, D);
    untouched(&[LD_B8, mul, "cvt.rzi.s32.f16 %r1, %h1;", "st.global.b32 [%out], %r1;"], WORDS, D);
    untouched(&[LD_B8, mul, "cvt.f32.bf16 %r1, %h1;", "st.global.b32 [%out], %r1;"], WORDS, D);
    untouched(&[LD_B8, mul, "cvt.ftz.f32.f16 %r1, %h1;", "st.global.b32 [%out], %r1;"], WORDS, D);
    let u32 = [
        "ld.global.u32 %r1, [%in];",
        "mul.hi.u32 %r1, %r1, 0x1;",
        "mov.b32 {%h1, %h3}, %r1;",
        reader,
        "st.global.b16 [%out], %h2;",
    ];
    untouched(&u32, WORDS, D);
    untouched(&stored_half("ld.global.s8 %h0, [%in+3];", mul, reader), WORDS, D);
    untouched(&stored_half("ld.global.u16 %h0, [%in+2];", "mul.hi.s16 %h1, %h0, 0x1;", reader), WORDS, D);
    let unpacked = ["ld.global.u32 %r1, [%in];", "mov.b32 {%h0, %h3}, %r1;", mul, reader, "st.global.b16 [%out], %h2;"];
    untouched(&unpacked, WORDS, D);
    untouched(&[LD_B8, "add.u16 %h0, %h0, 0x3;", mul, reader, "st.global.b16 [%out], %h2;"], WORDS, D);
    let two_readers =
        [LD_B8, mul, reader, "add.u16 %h3, %h1, %h0;", "mov.b32 %r1, {%h2, %h3};", "st.global.b32 [%out], %r1;"];
    untouched(&two_readers, WORDS, D);
    untouched(&[LD_B8, mul, reader, "mov.b32 %r1, {%h2, %h0};", "st.global.b32 [%out], %r1;"], WORDS, D);
    untouched(&stored_half(LD_B8, "mad.hi.u16 %h1, %h0, 1, 5;", reader), WORDS, D);
    untouched(
        &[LD_B8, "mov.b16 %h3, %h0;", "mul.hi.u16 %h1, %h3, 0x1;", reader, "st.global.b16 [%out], %h2;"],
        WORDS,
        D,
    );
}
