//! Tests of ace805b3's `{h, h}` form (`emulate/compare_of_loaded_half_rebuilt_over_its_fp8_pair_word.rs`):
//! a 16-bit `setp` of a loaded half packed directly above an fp8x2 pair in a word read live
//! admits the predicate of h rebuilt as `{h, h}` (corpus/findings/fuzz-h200-4802/trace/95e97556/
//! and its `s48/`, 13.0.88 -O3 listings). The traced kernel's load is moved to byte 3 of the
//! test program's input word 0 (h0 = 1), a loaded K to word 2.

use super::*;

const D: Deviation = Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf;

/// h0 = 1 (byte 3 of word 0), word 2 = 128 (a loaded K).
const WORDS: [u32; 4] = [0x0100_0000, 0, 0x80, 0];

/// 95e97556's kernel with the pair `pair`, the pack `pack`, K's writer `k`, the compare `setp`
/// into p0 and the word's reader `read` (`setp.lt.s32 p2` under the case's `cvt.rn.bf16.f32`).
fn case(pair: &str, pack: &str, k: &str, setp: &str, read: &[&str]) -> Vec<String> {
    let mut l = vec!["ld.global.u8 %h0, [%in+3];", "cvt.f32.f16 %r0, %h0;", "cvt.f32.f16 %r1, %h0;", pair, pack];
    l.extend_from_slice(&["mov.b16 %h3, %h1;", k, setp]);
    l.extend_from_slice(read);
    l.extend_from_slice(&[
        "mov.b16 %h5, 0;",
        "@%p0 mad.hi.s16 %h3, %h5, 0, %h0;",
        "mov.b64 %d1, {%h3, %h3, %h3, %h3};",
        "st.global.b64 [%out], %d1;",
    ]);
    l.into_iter().map(str::to_string).collect()
}

const PAIR: &str = "cvt.rn.satfinite.e4m3x2.f16x2 %h1, %r1;";
const PACK: &str = "mov.b32 %r2, {%h1, %h0};";
const K: &str = "mov.b16 %h4, 128;";
const GT: &str = "setp.gt.u16 %p0, %h4, %h0;";
const READ: &[&str] = &["setp.lt.s32 %p2, %r1, %r2;", "@%p2 cvt.rn.bf16.f32 %h3, %r0;"];

/// The spec's words (the mad's h0 = 1 in each half) and the GPU's (h3 = the pair 0x2700).
const SPEC: u64 = 0x0001_0001_0001_0001;
const BUG: u64 = 0x2700_2700_2700_2700;

/// Checks that emulating [`D`] admits the spec's exact words and the GPU's, and fires alone.
fn either(lines: &[String]) {
    let (s, e, fired) = both(&strs(lines), WORDS, D);
    assert_eq!((s.bits as u64, s.is_exact()), (SPEC, true), "spec of {lines:?}");
    assert!(e.matches(SPEC.into()) && e.matches(BUG.into()), "{e} of {lines:?}");
    assert_eq!(fired, vec![D], "{lines:?}");
}

/// 95e97556's campaign case (32 threads, h0 = 1 each): emulating ace805b3 alone admits the
/// stored -O3 and JIT words 0x27002700, 0x27002700 (`ISETP.GE.U32.AND P0, PT, R0, 0x80` over
/// R0 = 0x00010001) and the spec's 0x00010001 of every thread.
#[test]
fn n_4802_95e97556_the_campaign_case_admits_the_stored_o3_words() {
    let (p, i) = super::stored_case("4802", "95e97556ab092896");
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        assert_eq!((s.bits, s.is_exact()), (0x0001_0001, true), "spec, thread {t} word {w}");
        assert!(e.matches(0x2700_2700) && e.matches(0x0001_0001), "thread {t} word {w}: {e}");
    }
}

/// `orig` (`setp.gt.u16 p, K, h` of a moved 128), `v1_setp_h_first_imm`, `s48/g_k_reg_h_first`,
/// (`s48/d_imm_first`, an immediate first, is no glue the oracle takes) `s48/c_k_loaded`, `s48/a_pair_f32`, `s48/b_pair_e5m2_f16x2`,
/// `s48/e_s16` (signed: either predicate), `s48/h_mad_no_h` (its words: 7 or the pair).
#[test]
fn the_95e97556_case_and_its_wrong_variants_admit_the_rebuilt_compare() {
    either(&case(PAIR, PACK, K, GT, READ));
    either(&case(PAIR, PACK, K, "setp.lt.u16 %p0, %h0, 128;", READ));
    either(&case(PAIR, PACK, K, "setp.lt.u16 %p0, %h0, %h4;", READ));
    either(&case(PAIR, PACK, "ld.global.u16 %h4, [%in+8];", GT, READ));
    either(&case("cvt.rn.satfinite.e4m3x2.f32 %h1, %r0, %r1;", PACK, K, GT, READ));
    either(&case("cvt.rn.satfinite.e5m2x2.f16x2 %h1, %r1;", PACK, K, GT, READ));
    either(&case(PAIR, PACK, K, "setp.gt.s16 %p0, %h4, %h0;", READ));
    let mut no_h = case(PAIR, PACK, K, GT, READ);
    no_h[11] = "@%p0 mov.b16 %h3, 7;".to_string();
    let (s, e, fired) = both(&strs(&no_h), WORDS, D);
    assert_eq!((s.bits as u64, s.is_exact()), (0x0007_0007_0007_0007, true));
    assert!(e.matches(0x0007_0007_0007_0007) && e.matches(BUG.into()), "{e}");
    assert_eq!(fired, vec![D]);
}

/// The right neighbours: an f16 half in the pair's place (`s48/f_f16_pair`), the pack word never
/// read (`s48/k_pack_word_unread`) or read by a dead setp only (`s48/k_word_read_by_dead_setp`),
/// the pair above h (`s48/l_pair_above_h`), no pack (`v3_no_pack_right`), and h = 0 (`{0, 0}`).
#[test]
fn right_neighbours_of_the_rebuilt_half_are_left_alone() {
    untouched(&strs(&case("cvt.rn.f16.f32 %h1, %r1;", PACK, K, GT, READ)), WORDS, D);
    untouched(&strs(&case(PAIR, PACK, K, GT, &[])), WORDS, D);
    untouched(&strs(&case(PAIR, PACK, K, GT, &["setp.lt.s32 %p2, %r1, %r2;"])), WORDS, D);
    untouched(&strs(&case(PAIR, "mov.b32 %r2, {%h0, %h1};", K, GT, READ)), WORDS, D);
    untouched(&strs(&case(PAIR, "mov.b32 %r2, 0;", K, GT, READ)), WORDS, D);
    untouched(&strs(&case(PAIR, PACK, K, GT, READ)), [0, 0, 0x80, 0], D);
}
