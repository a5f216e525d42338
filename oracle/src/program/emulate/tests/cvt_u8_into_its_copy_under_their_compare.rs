//! Tests of N widened to a signed-load source (seed 4601's caae8b2b, helper g2, session 47;
//! corpus/findings/fuzz-h200-4601/trace/T17t1.md, variants in trace/caae8b2b/ and its s47/;
//! `emulate/cvt_u8_into_its_copy_under_their_compare.rs`).

use super::*;

const D: Deviation = Deviation::CvtU8S8OfF16Dropped;

/// Byte 0 is 0x89 (h1 = 0xff89 loaded by `ld.s8`; 0x1289 by `ld.s16`).
const WORDS: [u32; 4] = [0x0000_1289, 0, 0, 0];

/// `load` into %h1, `mid` (the copy into %h3 and the guard), the guarded `cvt`, and the word
/// {h3, h3} stored.
fn chain(load: &'static str, mid: &[&'static str], cvt: &'static str) -> Vec<&'static str> {
    let mut lines = vec![load];
    lines.extend_from_slice(mid);
    lines.extend([cvt, "mov.b32 %r6, {%h3, %h3};", "st.global.b32 [%out], %r6;"]);
    lines
}

const LD_S8: &str = "ld.global.s8 %h1, [%in];";
const COPY_GT: [&str; 2] = ["mov.b16 %h3, %h1;", "setp.gt.u16 %p0, %h3, %h1;"];
const CVT: &str = "@!%p0 cvt.u8.s8 %h3, %h1;";

/// caae8b2b's `reduced` (`LDG.E.S8 R2; PRMT R3, R2, 0x5410, R2`, 13.0.88 and 13.5 -O3: the sign-
/// extended 0xff89 kept), the case's `mov.pred` copy of the guard, `v4_guard_true_const`
/// (`setp.eq`, `@p`), `v15_cvt_u8_s16`, s47 `y2_setp_ne_n_shape`, `y5_ld_s16_source`.
#[test]
fn n_a_guarded_cvt_u8_of_a_signed_load_into_its_copy_under_their_compare_is_dropped() {
    exact_case(&chain(LD_S8, &COPY_GT, CVT), WORDS, D, 0x0089_0089, 0xff89_ff89);
    let pred = ["mov.b16 %h3, %h1;", "setp.gt.u16 %p0, %h3, %h1;", "mov.pred %p1, %p0;"];
    exact_case(&chain(LD_S8, &pred, "@!%p1 cvt.u8.s8 %h3, %h1;"), WORDS, D, 0x0089_0089, 0xff89_ff89);
    let eq = ["mov.b16 %h3, %h1;", "setp.eq.u16 %p0, %h3, %h1;"];
    exact_case(&chain(LD_S8, &eq, "@%p0 cvt.u8.s8 %h3, %h1;"), WORDS, D, 0x0089_0089, 0xff89_ff89);
    exact_case(&chain(LD_S8, &COPY_GT, "@!%p0 cvt.u8.s16 %h3, %h1;"), WORDS, D, 0x0089_0089, 0xff89_ff89);
    let ne = ["mov.b16 %h3, %h1;", "setp.ne.u16 %p0, %h1, %h3;"];
    exact_case(&chain(LD_S8, &ne, CVT), WORDS, D, 0x0089_0089, 0xff89_ff89);
    let ld_s16 = "ld.global.s16 %h1, [%in];";
    exact_case(&chain(ld_s16, &COPY_GT, CVT), WORDS, D, 0x0089_0089, 0x1289_1289);
}

/// Right: no guard (`v1_unguarded`, `v9_copy_then_cvt`), a guard from data (`v2_guard_runtime`),
/// d not a copy (`v5_old_zero`), a guard of moved constants (`v10_moved_const_pred`), a compare of
/// a with itself (s47 `y1_compare_source_with_itself`), an `ld.u16` source (`v13_ld_u16`), an
/// `xor.b16` source (s47 `y4_xor_source`).
#[test]
fn n_an_unguarded_or_data_guarded_cvt_u8_or_another_source_is_left_alone() {
    untouched(&chain(LD_S8, &[], "cvt.u8.s8 %h3, %h1;"), WORDS, D);
    untouched(&chain(LD_S8, &["mov.b16 %h3, %h1;"], "cvt.u8.s8 %h3, %h1;"), WORDS, D);
    untouched(&chain(LD_S8, &["mov.b16 %h3, %h1;", "setp.gt.u16 %p0, %h1, 5;"], CVT), WORDS, D);
    untouched(&chain(LD_S8, &["mov.b16 %h3, 0;", "setp.gt.u16 %p0, %h1, %h1;"], CVT), WORDS, D);
    let consts = ["mov.b16 %h3, %h1;", "mov.u32 %r1, 1;", "setp.gt.u32 %p0, %r1, %r1;"];
    untouched(&chain(LD_S8, &consts, CVT), WORDS, D);
    untouched(&chain(LD_S8, &["mov.b16 %h3, %h1;", "setp.gt.u16 %p0, %h1, %h1;"], CVT), WORDS, D);
    untouched(&chain("ld.global.u16 %h1, [%in];", &COPY_GT, CVT), WORDS, D);
    let xor =
        ["ld.global.u16 %h0, [%in];", "xor.b16 %h1, %h0, 0x80;", "mov.b16 %h3, %h1;", "setp.gt.u16 %p0, %h3, %h1;"];
    untouched(&chain(xor[0], &xor[1..], CVT), WORDS, D);
}

/// caae8b2b's stored case (32 threads): emulating N gives the stored -O3/JIT word 1
/// (0xff89ff89) and the spec's word 0.
#[test]
fn n_caae8b2b_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "caae8b2b64c2e94c");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 && t < 8 {
            assert_eq!((s.bits, e.bits), (0x0089_0089, 0xff89_ff89), "thread {t} word {w}");
        } else if w != 1 {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// `load` into %h1, its copy into %h3, `setp` (of %h1 and %h3), `@%p0 cvt.u8.s8 %h1, %h1` in place,
/// and the word {h1, h1} stored (seed 5602's ad8569dd).
fn in_place(load: &'static str, setp: &'static str) -> Vec<&'static str> {
    vec![
        load,
        "mov.s16 %h3, %h1;",
        setp,
        "@%p0 cvt.u8.s8 %h1, %h1;",
        "mov.b32 %r6, {%h1, %h1};",
        "st.global.b32 [%out], %r6;",
    ]
}

const LD_U16: &str = "ld.global.u16 %h1, [%in];";

/// ad8569dd (seed 5602, helper t5, session 56; corpus/findings/fuzz-h200-5602/trace/T56E.md, variants
/// in trace/ad8569dd/s56/; 13.0.88 and 13.5 -O3 `LDG.E.U16 R2; PRMT R3, R2, 0x5410, R2`): the cvt in
/// place under a compare of the source with its copy, `ld.u16` under `setp.{eq,le}.s16` (the case,
/// `v11`), into the copy (`v3`), `ld.s8` under `setp.eq.u16` in place (`v8`).
#[test]
fn n_a_cvt_u8_in_place_or_under_a_compare_of_the_other_signedness_is_dropped() {
    exact_case(&in_place(LD_U16, "setp.eq.s16 %p0, %h1, %h3;"), WORDS, D, 0x0089_0089, 0x1289_1289);
    exact_case(&in_place(LD_U16, "setp.le.s16 %p0, %h1, %h3;"), WORDS, D, 0x0089_0089, 0x1289_1289);
    let eq_s16 = ["mov.s16 %h3, %h1;", "setp.eq.s16 %p0, %h1, %h3;"];
    exact_case(&chain(LD_U16, &eq_s16, "@%p0 cvt.u8.s8 %h3, %h1;"), WORDS, D, 0x0089_0089, 0x1289_1289);
    exact_case(&in_place(LD_S8, "setp.eq.u16 %p0, %h1, %h3;"), WORDS, D, 0x0089_0089, 0xff89_ff89);
}

/// Right (ad8569dd's s56): the compare's signedness the load's (`v1` `ld.s8`, `v10` `ld.s16` under
/// `.s16`; `v7` `ld.u16` under `.u16`), unguarded (`v2`), a compare of the source with itself (`v5`).
#[test]
fn n_a_cvt_u8_in_place_under_a_compare_of_the_same_signedness_is_left_alone() {
    untouched(&in_place(LD_S8, "setp.eq.s16 %p0, %h1, %h3;"), WORDS, D);
    untouched(&in_place("ld.global.s16 %h1, [%in];", "setp.eq.s16 %p0, %h1, %h3;"), WORDS, D);
    untouched(&in_place(LD_U16, "setp.eq.u16 %p0, %h1, %h3;"), WORDS, D);
    let mut unguarded = in_place(LD_U16, "setp.eq.s16 %p0, %h1, %h3;");
    unguarded[3] = "cvt.u8.s8 %h1, %h1;";
    untouched(&unguarded, WORDS, D);
    untouched(&in_place(LD_U16, "setp.eq.s16 %p0, %h1, %h1;"), WORDS, D);
    let eq_s16 = ["mov.b16 %h3, %h1;", "setp.eq.s16 %p0, %h3, %h1;"];
    untouched(&chain(LD_S8, &eq_s16, "@%p0 cvt.u8.s8 %h3, %h1;"), WORDS, D);
}

/// ad8569dd's stored case (32 threads): emulating N gives the stored -O3/JIT word 0 (0x3ff83ff8).
#[test]
fn n_ad8569dd_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5602", "ad8569ddbd0bf4f7");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 && t < 8 {
            assert_eq!((s.bits, e.bits), (0x00f8_00f8, 0x3ff8_3ff8), "thread {t} word {w}");
        } else if w != 0 {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}
