//! Tests of 3701 C1-N2's byte narrowing under a live zero test of a set.f32 word (seed 4802's
//! 50a1f28c, session 48; corpus/findings/fuzz-h200-4802/trace/T19v3.md, variants in
//! trace/50a1f28c/ and its s48/).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// 50a1f28c's frame (`reduced.ptx`, r1 loaded from word 0, r8 from word 1): `set.ge.f32.s32 r2, 0,
/// r1; cvt.s8.u32 h4, r2`, then `test` (the lines that leave r3), `r7 = r3 + {h4, h4}` stored at
/// word 0, and `extra`.
fn frame(test: &[&str], narrow: &str, extra: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = [
        "mov.b32 %r0, 0;",
        "ld.global.f32 %r1, [%in];",
        "ld.global.f32 %r8, [%in+4];",
        "set.ge.f32.s32 %r2, %r0, %r1;",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    lines.push(narrow.to_string());
    lines.extend(test.iter().map(|l| l.to_string()));
    lines
        .extend(["mov.b32 %r6, {%h4, %h4};", "add.u32 %r7, %r3, %r6;", "st.global.b32 [%out], %r7;"].map(String::from));
    lines.extend(extra.iter().map(|l| l.to_string()));
    lines
}

/// The case's trigger on `x`: `set.eq.f32.s32 r4, x, 0; setp.<cmp>.u32 p3, r4, 0`, a branch
/// around `r3 = 1.0f`.
fn branch(x: &str, cmp: &str) -> Vec<String> {
    vec![
        "mov.b32 %r3, 0;".into(),
        format!("set.eq.f32.s32 %r4, {x}, 0;"),
        format!("setp.{cmp}.u32 %p3, %r4, 0x0;"),
        "@!%p3 bra $L3;".into(),
        "mov.b32 %r3, 1065353216;".into(),
        "$L3:".into(),
    ]
}

const S8: &str = "cvt.s8.u32 %h4, %r2;";

/// Wrong (13.0.88 -O3 `ISETP.LE.AND P0, PT, R2, RZ; SEL R6, RZ, 0x1, !P0; PRMT R3, R6, 0x5410,
/// R6`): the byte of 1.0f (§9.7.9.21: 0) is the integer 1, {h4, h4} = 0x00010001. The case's
/// test of another set of r1 (`reduced`), of an unrelated load (s48/w1), `setp.eq` (s48/w2),
/// `selp` in place of the branch (v2), the test before the set (s48/w7), `set.ne.u32.u32` as the
/// test (s48/w8), `cvt.u8.u32` beside `set.lt.f32.u32 … 7` (s48/w9), a moved 0 first (s48/w10).
#[test]
fn c1n2_a_byte_of_a_set_f32_beside_a_zero_tested_set_f32_is_its_truth() {
    exact_case(&strs(&frame(&strs(&branch("%r1", "ne")), S8, &[])), [0; 4], D, 0x3f80_0000, 0x3f81_0001);
    exact_case(&strs(&frame(&strs(&branch("%r8", "ne")), S8, &[])), [0; 4], D, 0x3f80_0000, 0x3f81_0001);
    exact_case(&strs(&frame(&strs(&branch("%r8", "eq")), S8, &[])), [0; 4], D, 0, 0x0001_0001);
    let selp = [
        "set.eq.f32.s32 %r4, %r1, 0;",
        "setp.ne.u32 %p3, %r4, 0x0;",
        "mov.b32 %r5, 1065353216;",
        "selp.b32 %r3, %r5, 0, %p3;",
    ];
    exact_case(&strs(&frame(&selp, S8, &[])), [0; 4], D, 0x3f80_0000, 0x3f81_0001);
    // The test before the set (s48/w7).
    let mut first =
        vec!["mov.b32 %r0, 0;".to_string(), "ld.global.f32 %r1, [%in];".into(), "ld.global.f32 %r8, [%in+4];".into()];
    first.extend(branch("%r8", "ne"));
    first.extend(
        ["set.ge.f32.s32 %r2, %r0, %r1;", S8, "mov.b32 %r6, {%h4, %h4};", "add.u32 %r7, %r3, %r6;"].map(String::from),
    );
    first.push("st.global.b32 [%out], %r7;".into());
    exact_case(&strs(&first), [0; 4], D, 0x3f80_0000, 0x3f81_0001);
    let set_test = [
        "mov.b32 %r3, 0;",
        "set.eq.f32.s32 %r4, %r8, 0;",
        "set.ne.u32.u32 %r9, %r4, 0;",
        "st.global.b32 [%out+4], %r9;",
        "setp.ne.u32 %p3, %r9, 0;",
        "@!%p3 bra $L3;",
        "mov.b32 %r3, 1065353216;",
        "$L3:",
    ];
    exact_case(&strs(&frame(&set_test, S8, &[])), [0; 4], D, 0xffff_ffff_3f80_0000, 0xffff_ffff_3f81_0001);
    let lt: Vec<String> = branch("%r8", "ne")
        .into_iter()
        .map(|l| l.replace("set.eq.f32.s32 %r4, %r8, 0", "set.lt.f32.u32 %r4, %r8, 7"))
        .collect();
    exact_case(&strs(&frame(&strs(&lt), "cvt.u8.u32 %h4, %r2;", &[])), [0; 4], D, 0x3f80_0000, 0x3f81_0001);
    let moved: Vec<String> = branch("%r8", "ne")
        .into_iter()
        .flat_map(|l| {
            if l.starts_with("setp") {
                vec!["mov.b32 %r9, 0;".to_string(), "setp.ne.u32 %p3, %r9, %r4;".to_string()]
            } else {
                vec![l]
            }
        })
        .collect();
    exact_case(&strs(&frame(&strs(&moved), S8, &[])), [0; 4], D, 0x3f80_0000, 0x3f81_0001);
    // A false set is 0 either way.
    untouched(&strs(&frame(&strs(&branch("%r8", "ne")), S8, &[])), [0x3f80_0000, 0, 0, 0], D);
}

/// The set's own word tested (v5, `setp.ne.u32 p3, r2, 0` + `selp`: the same `SEL R0, RZ, 0x1,
/// !P0`) is 3604-N2's byte form (`byte_of_set_f32_compared_with_zero`), not this one: the set's
/// word is read beside the byte, so C1-N2's byte form stays out.
#[test]
fn the_set_own_word_zero_tested_stays_3604_n2s() {
    let own = ["setp.ne.u32 %p3, %r2, 0x0;", "mov.b32 %r5, 1065353216;", "selp.b32 %r3, %r5, 0, %p3;"];
    let lines = frame(&own, S8, &[]);
    untouched(&strs(&lines), [0; 4], D);
    exact_case(&strs(&lines), [0; 4], Deviation::WidenedSetF32ComparedWithZeroIs0Or1, 0x3f80_0000, 0x3f81_0001);
}

/// Right (13.0.88 -O3 the real byte, `SEL 0xffffffff; IABS; I2FP.F32.S32; PRMT 0x8880`, or
/// `FSEL R, RZ, 1` at a 16-bit reader): no test (v1), an integer set tested (v3), the load tested
/// (v4), a test against 5 (s48/w3), `setp.lt.s32` against 0 (s48/w4), a 16-bit reader (s48/w5),
/// the narrowed set's word also stored (s48/w6), the test dead (s48/w11).
#[test]
fn c1n2_leaves_bytes_beside_other_tests_and_readers_alone() {
    let none = ["mov.b32 %r3, 0;"];
    untouched(&strs(&frame(&none, S8, &[])), [0; 4], D);
    let int_set = [
        "set.eq.u32.s32 %r4, %r1, 0;",
        "setp.ne.u32 %p3, %r4, 0x0;",
        "mov.b32 %r5, 1065353216;",
        "selp.b32 %r3, %r5, 0, %p3;",
    ];
    untouched(&strs(&frame(&int_set, S8, &[])), [0; 4], D);
    let load = ["setp.eq.s32 %p3, %r1, 0;", "mov.b32 %r5, 1065353216;", "selp.b32 %r3, %r5, 0, %p3;"];
    untouched(&strs(&frame(&load, S8, &[])), [0; 4], D);
    let five: Vec<String> = branch("%r8", "ne").into_iter().map(|l| l.replace("%r4, 0x0;", "%r4, 5;")).collect();
    untouched(&strs(&frame(&strs(&five), S8, &[])), [0; 4], D);
    let lt: Vec<String> = branch("%r8", "ne").into_iter().map(|l| l.replace("setp.ne.u32", "setp.lt.s32")).collect();
    untouched(&strs(&frame(&strs(&lt), S8, &[])), [0; 4], D);
    untouched(&strs(&frame(&strs(&branch("%r8", "ne")), "cvt.u16.u32 %h4, %r2;", &[])), [0; 4], D);
    let stored = ["st.global.b32 [%out+4], %r2;"];
    untouched(&strs(&frame(&strs(&branch("%r8", "ne")), S8, &stored)), [0; 4], D);
    let dead = [
        "mov.b32 %r3, 0;",
        "set.eq.f32.s32 %r4, %r8, 0;",
        "setp.ne.u32 %p3, %r4, 0x0;",
        "st.global.b32 [%out+4], %r4;",
    ];
    untouched(&strs(&frame(&dead, S8, &[])), [0; 4], D);
}

/// 50a1f28c's campaign case (32 threads, 12 statements, every input word 0): emulating C1-N2
/// alone gives the stored ptxas -O3 / JIT word 0, 0x3f810001, in every thread and the spec's
/// words elsewhere.
#[test]
fn c1n2_50a1f28c_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4802", "50a1f28cb86ff8c1");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0x3f81_0001 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}
