//! Tests of 3501-N3 where a set.f32's truth goes through a float-to-float cvt under a live zero
//! test (seed 4602's 18173692, session 46; corpus/findings/fuzz-h200-4602/trace/T17t3.md,
//! variants in trace/18173692/ and its s46/).

use super::*;

/// `ld.global.s64 d0` (0: the set is true), `set.ge.f32.s64 r2, d0, 0`, `first` of r2 into
/// %h4, then `rest`.
fn chain(first: &str, rest: &[&str]) -> Vec<String> {
    let mut lines = vec!["ld.global.s64 %d0, [%in];".to_string(), "set.ge.f32.s64 %r2, %d0, 0;".to_string()];
    lines.push(first.to_string());
    lines.extend(rest.iter().map(|l| l.to_string()));
    lines
}

const BF16: &str = "cvt.rz.bf16.f32 %h4, %r2;";
const SET_TEST: &str = "set.eq.f32.s16 %r3, %h4, 0;";
const STORES: [&str; 2] = ["st.global.b16 [%out], %h5;", "st.global.b32 [%out+4], %r3;"];
const ZERO: [u32; 4] = [0, 0, 0, 0];

/// The arm's number: `cvt.bf16.f16` of bf16 1.0's bits gives bf16 1.0 (0x3f80), where
/// §9.7.9.21 reads 0x3f80 as f16 1.875 (bf16 0x3ff0); word 1 (the test, 0.0f) stays 0.
#[test]
fn n3_3501_a_float_cvt_of_a_set_under_a_live_zero_test_is_converted_as_the_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    // reduced.ptx (`SEL R9, RZ, 0x3f80, !P0`).
    let reduced = chain(BF16, &[SET_TEST, "cvt.bf16.f16 %h5, %h4;", STORES[0], STORES[1]]);
    exact_case(&strs(&reduced), ZERO, d, 0x3ff0, 0x3f80);
    // v3: `setp.eq.s16` + `selp`.
    let setp = [
        "setp.eq.s16 %p0, %h4, 0;",
        "mov.b32 %r1, 5;",
        "selp.b32 %r3, %r1, 7, %p0;",
        "cvt.bf16.f16 %h5, %h4;",
        STORES[0],
        STORES[1],
    ];
    exact_case(&strs(&chain(BF16, &setp)), ZERO, d, 0x7_0000_3ff0, 0x7_0000_3f80);
    // s46/x1: `set.ne.u32.s16` as the test (−1 in word 1).
    let ne = chain(BF16, &["set.ne.u32.s16 %r3, %h4, 0;", "cvt.bf16.f16 %h5, %h4;", STORES[0], STORES[1]]);
    exact_case(&strs(&ne), ZERO, d, 0xffff_ffff_0000_3ff0, 0xffff_ffff_0000_3f80);
    // s46/x2: the set's own word tested.
    let word = chain(BF16, &["set.eq.f32.s32 %r3, %r2, 0;", "cvt.bf16.f16 %h5, %h4;", STORES[0], STORES[1]]);
    exact_case(&strs(&word), ZERO, d, 0x3ff0, 0x3f80);
    // s46/x3: f16 1.0's bits read as bf16 (0.0078125 → f16 0x2000); the number gives 0x3c00.
    let f16 = chain("cvt.rn.f16.f32 %h4, %r2;", &[SET_TEST, "cvt.f16.bf16 %h5, %h4;", STORES[0], STORES[1]]);
    exact_case(&strs(&f16), ZERO, d, 0x2000, 0x3c00);
    // v8: `cvt.f32.f16` (`FSEL R9, RZ, 1`): 1.0f where the spec gives 1.875f.
    let f32 = chain(BF16, &[SET_TEST, "cvt.f32.f16 %r5, %h4;", "st.global.b32 [%out], %r5;", STORES[1]]);
    exact_case(&strs(&f32), ZERO, d, 0x3ff0_0000, 0x3f80_0000);
}

/// Right: no zero test (`v1`), a dead one (`v2`), a test against 5 (`v4`), `set.lt` (s46/x5),
/// a loaded f32 or a `selp` in place of the set (`v5`, `v6`), `cvt.f32.bf16` (`v7`), the float
/// cvt's value also stored (s46/x6).
#[test]
fn n3_3501_leaves_untested_or_observed_float_cvts_of_a_set_alone() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let run = "cvt.bf16.f16 %h5, %h4;";
    untouched(&strs(&chain(BF16, &[run, STORES[0]])), ZERO, d);
    untouched(&strs(&chain(BF16, &[SET_TEST, run, STORES[0]])), ZERO, d);
    untouched(&strs(&chain(BF16, &["set.eq.f32.s16 %r3, %h4, 5;", run, STORES[0], STORES[1]])), ZERO, d);
    untouched(&strs(&chain(BF16, &["set.lt.f32.s16 %r3, %h4, 0;", run, STORES[0], STORES[1]])), ZERO, d);
    let loaded = ["ld.global.b32 %r2, [%in+8];", BF16, SET_TEST, run, STORES[0], STORES[1]];
    untouched(&loaded, [0, 0, 0x3f80_0000, 0], d);
    let selp = [
        "ld.global.s64 %d0, [%in];",
        "setp.ge.s64 %p0, %d0, 0;",
        "mov.b32 %r1, 0x3f800000;",
        "selp.b32 %r2, %r1, 0, %p0;",
        BF16,
        SET_TEST,
        run,
        STORES[0],
        STORES[1],
    ];
    untouched(&selp, ZERO, d);
    let f32_bf16 = ["cvt.f32.bf16 %r5, %h4;", "st.global.b32 [%out], %r5;", STORES[1]];
    untouched(&strs(&chain("cvt.rn.f16.f32 %h4, %r2;", &[SET_TEST, f32_bf16[0], f32_bf16[1], f32_bf16[2]])), ZERO, d);
    let stored = chain(BF16, &[SET_TEST, run, STORES[0], STORES[1], "st.global.b16 [%out+2], %h4;"]);
    untouched(&strs(&stored), ZERO, d);
}

/// 18173692's campaign case (32 threads, 9 statements): emulating 3501-N3 alone gives the
/// stored ptxas -O3 words 0x3f803f80 (both words) in every thread, where the spec gives
/// 0x3ff03ff0.
#[test]
fn n3_3501_18173692_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4602", "18173692c88a10cd");
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    for (t, w, s, e) in super::words_emulating(&p, &i, d) {
        assert_eq!((s.bits, s.is_exact()), (0x3ff0_3ff0, true), "thread {t} word {w}");
        assert_eq!((e.bits, e.is_exact()), (0x3f80_3f80, true), "thread {t} word {w}");
    }
}
