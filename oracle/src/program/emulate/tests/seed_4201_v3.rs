//! Tests of 3602-N4 (`s8-round-trip-through-64-sign-extends-32`) as widened by helper v3
//! (`emulate/s8_round_trip_of_folded64_and_compare16.rs`): the byte of a 64-bit constant ptxas 13.0.88 -O3 folds
//! (corpus/findings/fuzz-h200-4201/trace/T12a2.md f3426d51, fuzz-h200-4202/trace/T12b3.md
//! 03ee4476) and 16-bit unsigned/bitwise compares of a round trip (fuzz-h200-4203/trace/
//! T12c5.md 70cc8774). One test per traced variant: wrong ones give the listing's word, right
//! ones are untouched. Loads are moved to the test program's input words.

use super::*;

const D: Deviation = Deviation::S8RoundTripThrough64SignExtends32;

/// `producer` (writing %d1 from constants), `cvt.s8.s64 %h1, %d1`, then `reader` (writing %r4
/// from %h1) stored as a word.
fn folded(producer: &[&'static str], reader: &'static str) -> Vec<&'static str> {
    let mut lines = producer.to_vec();
    lines.extend(["cvt.s8.s64 %h1, %d1;", reader, "st.global.b32 [%out], %r4;"]);
    lines
}

const BFE_OF_F64: [&str; 2] = ["mov.f64 %d0, 0d6BC41CD2866DB70A;", "bfe.u64 %d1, %d0, 15, 49;"];
const TO_U32: &str = "cvt.u32.u16 %r4, %h1;";

/// f3426d51 `reduced.ptx` (v1_bfe_of_const): 13.0.88 `MOV R7, 0xffffffdb`, spec 0xffdb.
#[test]
fn v3_f3426d51_bfe_u64_of_a_constant_zero_extends_to_the_32_bit_extension() {
    exact_case(&folded(&BFE_OF_F64, TO_U32), [0; 4], D, 0xffdb, 0xffff_ffdb);
}

/// f3426d51 v12_shr_const: `shr.u64` of the constant (and shr.b64/.s64, compiled by v3) alike.
#[test]
fn v3_f3426d51_shr_64_of_a_constant_is_folded_alike() {
    for shr in ["shr.u64 %d1, %d0, 15;", "shr.b64 %d1, %d0, 15;", "shr.s64 %d1, %d0, 15;"] {
        exact_case(&folded(&["mov.b64 %d0, 0x6BC41CD2866DB70A;", shr], TO_U32), [0; 4], D, 0xffdb, 0xffff_ffdb);
    }
}

/// f3426d51 v13_bfe_s64_const.
#[test]
fn v3_f3426d51_bfe_s64_of_a_constant_is_folded_alike() {
    let producer = ["mov.f64 %d0, 0d6BC41CD2866DB70A;", "bfe.s64 %d1, %d0, 15, 49;"];
    exact_case(&folded(&producer, TO_U32), [0; 4], D, 0xffdb, 0xffff_ffdb);
}

/// f3426d51 v19_and_const_negbyte: `and.b64` of a constant.
#[test]
fn v3_f3426d51_and_b64_of_a_constant_is_folded_alike() {
    let producer = ["mov.b64 %d0, 0x6BC41CD2866DB7DB;", "and.b64 %d1, %d0, 0xffff;"];
    exact_case(&folded(&producer, TO_U32), [0; 4], D, 0xffdb, 0xffff_ffdb);
}

/// f3426d51 v21_bfe_const_s32dst: `cvt.s32.u16` reads the extension as well.
#[test]
fn v3_f3426d51_cvt_s32_u16_reader_of_a_folded_constant() {
    exact_case(&folded(&BFE_OF_F64, "cvt.s32.u16 %r4, %h1;"), [0; 4], D, 0xffdb, 0xffff_ffdb);
}

/// f3426d51 v15_bfe_const_shr16: `shr.u16` by 1 gives 0xffed, spec 0x7fed.
#[test]
fn v3_f3426d51_shr_u16_reader_of_a_folded_constant_shifts_ones_in() {
    let lines =
        [BFE_OF_F64[0], BFE_OF_F64[1], "cvt.s8.s64 %h1, %d1;", "shr.u16 %h2, %h1, 1;", "st.global.b16 [%out], %h2;"];
    exact_case(&lines, [0; 4], D, 0x7fed, 0xffed);
}

/// f3426d51 v22_bfe_const_u64dst: `cvt.u64.u16` of the folded byte is right (0xffdb).
#[test]
fn v3_f3426d51_cvt_u64_u16_of_a_folded_constant_is_right() {
    let lines =
        [BFE_OF_F64[0], BFE_OF_F64[1], "cvt.s8.s64 %h1, %d1;", "cvt.u64.u16 %d4, %h1;", "st.global.b64 [%out], %d4;"];
    untouched(&lines, [0; 4], D);
}

/// f3426d51 v0_mov_imm_right: the immediate moved directly is right.
#[test]
fn v3_f3426d51_a_moved_immediate_is_right() {
    untouched(&folded(&["mov.b64 %d1, 0xd78839a50cdb;"], TO_U32), [0; 4], D);
}

/// f3426d51 v20_add_const: `add.s64` of an immediate is right.
#[test]
fn v3_f3426d51_add_s64_of_a_constant_is_right() {
    untouched(&folded(&["mov.b64 %d0, 0xd0;", "add.s64 %d1, %d0, 11;"], TO_U32), [0; 4], D);
}

/// f3426d51 v6_bfe_of_loaded: `bfe.u64` of a loaded word is right.
#[test]
fn v3_f3426d51_bfe_u64_of_a_loaded_word_is_right() {
    let producer = ["ld.global.u64 %d0, [%in];", "bfe.u64 %d1, %d0, 15, 49;"];
    untouched(&folded(&producer, TO_U32), [0x866D_B70A, 0x6BC4_1CD2, 0, 0], D);
}

/// 03ee4476 `producer` into %d2, `cvt.<s8 from> %h5, %d2`, `shr.b16 %h6, %h5, 3` stored.
fn shr3(producer: &[&'static str], cvt: &'static str) -> Vec<&'static str> {
    let mut lines = producer.to_vec();
    lines.extend([cvt, "shr.b16 %h6, %h5, 3;", "st.global.u16 [%out], %h6;"]);
    lines
}

const CVT_S64: &str = "cvt.s8.s64 %h5, %d2;";

/// 03ee4476 `reduced.ptx` (r7_or_80_sh3): 13.0.88 `MOV R0, 0xfff0`, spec 0x1ff0.
#[test]
fn v3_03ee4476_or_b64_of_constants_shr_b16_shifts_ones_in() {
    exact_case(&shr3(&["mov.b64 %d0, 0;", "or.b64 %d2, %d0, 0x80;"], CVT_S64), [0; 4], D, 0x1ff0, 0xfff0);
}

/// 03ee4476 r13_xor64.
#[test]
fn v3_03ee4476_xor_b64_of_constants_is_folded_alike() {
    exact_case(&shr3(&["mov.b64 %d0, 0;", "xor.b64 %d2, %d0, 0x80;"], CVT_S64), [0; 4], D, 0x1ff0, 0xfff0);
}

/// 03ee4476 r14_and64 (`and.b64 -1, 0x80`).
#[test]
fn v3_03ee4476_and_b64_of_constants_is_folded_alike() {
    exact_case(&shr3(&["mov.b64 %d0, -1;", "and.b64 %d2, %d0, 0x80;"], CVT_S64), [0; 4], D, 0x1ff0, 0xfff0);
}

/// 03ee4476 r15_or_regs: an `or.b64` of two moved registers.
#[test]
fn v3_03ee4476_or_b64_of_two_moved_registers_is_folded_alike() {
    let producer = ["mov.b64 %d0, 0;", "mov.b64 %d1, 0x80;", "or.b64 %d2, %d0, %d1;"];
    exact_case(&shr3(&producer, CVT_S64), [0; 4], D, 0x1ff0, 0xfff0);
}

/// 03ee4476 r18_or_u64src: `cvt.s8.u64` alike.
#[test]
fn v3_03ee4476_cvt_s8_u64_of_a_folded_constant() {
    let lines = shr3(&["mov.b64 %d0, 0;", "or.b64 %d2, %d0, 0x80;"], "cvt.s8.u64 %h5, %d2;");
    exact_case(&lines, [0; 4], D, 0x1ff0, 0xfff0);
}

/// 03ee4476 r12_or_cvt_u32: `MOV R7, 0xffffffff`, spec 0xffff.
#[test]
fn v3_03ee4476_cvt_u32_u16_reader_of_a_folded_or() {
    let lines =
        ["mov.b64 %d0, 0;", "or.b64 %d2, %d0, 0xff;", CVT_S64, "cvt.u32.u16 %r6, %h5;", "st.global.u32 [%out], %r6;"];
    exact_case(&lines, [0; 4], D, 0xffff, 0xffff_ffff);
}

/// 03ee4476 r11_or_loaded: an `or.b64` with a loaded word is right.
#[test]
fn v3_03ee4476_or_b64_with_a_loaded_word_is_right() {
    untouched(&shr3(&["ld.global.u64 %d0, [%in];", "or.b64 %d2, %d0, 0xff;"], CVT_S64), [0; 4], D);
}

/// 03ee4476 r17_shl64: `shl.b64` of a constant is right.
#[test]
fn v3_03ee4476_shl_b64_of_a_constant_is_right() {
    untouched(&shr3(&["mov.b64 %d0, 0x40;", "shl.b64 %d2, %d0, 1;"], CVT_S64), [0; 4], D);
}

/// 03ee4476 r19_or_s16dst: `cvt.s16.s64` (no byte) is right.
#[test]
fn v3_03ee4476_cvt_s16_s64_of_a_folded_or_is_right() {
    untouched(&shr3(&["mov.b64 %d0, 0;", "or.b64 %d2, %d0, 0xff80;"], "cvt.s16.s64 %h5, %d2;"), [0; 4], D);
}

/// 70cc8774's round trip of the loaded 0x07725f8a (h3 = 0xff8a), `compare` (writing %p3, or %r0
/// for a `set`) then `selp` into %r0 stored.
fn compared(compare: &'static str) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.u64 %d0, [%in];",
        "cvt.s8.s64 %h0, %d0;",
        "cvt.s64.s8 %d0, %h0;",
        "cvt.s8.s64 %h3, %d0;",
        "ld.global.u16 %h4, [%in+8];",
        compare,
    ];
    if compare.starts_with("setp") {
        lines.extend(["mov.b32 %r1, 1;", "selp.b32 %r0, %r1, 0x0, %p3;"]);
    }
    lines.push("st.global.b32 [%out], %r0;");
    lines
}

const WORDS: [u32; 4] = [0x0772_5f8a, 0, 0xfff0, 0];

/// 70cc8774 `reduced.ptx`: `ISETP.GT.U32 R6, 0xffff` of 0xffffff8a: 0, spec 1.
#[test]
fn v3_70cc8774_setp_le_u16_compares_the_32_bit_extension() {
    exact_case(&compared("setp.le.u16 %p3, %h3, 0xffff;"), WORDS, D, 1, 0);
}

/// 70cc8774 r1_rt_setp_lt_fff0.
#[test]
fn v3_70cc8774_setp_lt_u16_compares_the_32_bit_extension() {
    exact_case(&compared("setp.lt.u16 %p3, %h3, 0xfff0;"), WORDS, D, 1, 0);
}

/// 70cc8774 r2_rt_setp_gt_reg: against a loaded half (0xfff0 here).
#[test]
fn v3_70cc8774_setp_gt_u16_against_a_loaded_half() {
    exact_case(&compared("setp.gt.u16 %p3, %h3, %h4;"), WORDS, D, 0, 1);
}

/// 70cc8774 r3_rt_set_u32_u16: the mask 0, spec 0xffffffff.
#[test]
fn v3_70cc8774_set_le_u32_u16_compares_the_32_bit_extension() {
    exact_case(&compared("set.le.u32.u16 %r0, %h3, 0xffff;"), WORDS, D, 0xffff_ffff, 0);
}

/// 70cc8774 r5_rt_setp_eq_b16 (0xffffff8a ≠ 0xff8a) in its `.u16` spelling: the oracle's glue
/// language has no `setp.*.b16`, so the `.b16` compare is covered by the code, not a test.
#[test]
fn v3_70cc8774_setp_eq_u16_compares_the_32_bit_extension() {
    exact_case(&compared("setp.eq.u16 %p3, %h3, 0xff8a;"), WORDS, D, 1, 0);
}

/// setp.ge.u16 and setp.ne.u16 (compiled by v3: `ISETP.GE.U32`/`ISETP.NE.U32` of the extension).
#[test]
fn v3_70cc8774_setp_ge_and_ne_u16_compare_the_32_bit_extension() {
    exact_case(&compared("setp.ge.u16 %p3, %h3, 0xfff0;"), WORDS, D, 0, 1);
    exact_case(&compared("setp.ne.u16 %p3, %h3, 0xff8a;"), WORDS, D, 0, 1);
}

/// 70cc8774 r4_rt_setp_le_s16_right: the signed compare is right.
#[test]
fn v3_70cc8774_setp_le_s16_is_right() {
    untouched(&compared("setp.le.s16 %p3, %h3, 0x7fff;"), WORDS, D);
}

/// 70cc8774 v0_single_cvt_right: one `cvt.s8.s64` of a loaded word (no round trip) is right.
#[test]
fn v3_70cc8774_a_single_cvt_compared_is_right() {
    let lines = [
        "ld.global.u64 %d0, [%in];",
        "cvt.s8.s64 %h3, %d0;",
        "setp.le.u16 %p3, %h3, 0xffff;",
        "mov.b32 %r1, 1;",
        "selp.b32 %r0, %r1, 0x0, %p3;",
        "st.global.b32 [%out], %r0;",
    ];
    untouched(&lines, WORDS, D);
}
