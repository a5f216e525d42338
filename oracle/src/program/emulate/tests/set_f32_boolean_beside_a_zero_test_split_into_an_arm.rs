//! Tests of 3701 C1-N2 under a zero test split into a branch arm (seed 4901's 55b28c51, session
//! 49; corpus/findings/fuzz-h200-4901/trace/T20.md, variants in trace/55b28c51/v/ and s49/).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// 55b28c51's core (x loaded from word 0, the branch's control from word 1): `set.gt.f32.u32 r1,
/// x, 0`, `arm` skipped by `@p0 bra $L0` (p0 = word 1 ≠ 42), then `reader` of r1 into h4, then
/// `test` (leaving p2; lines split at `\n`), `h20 = p2 ? 0xf31 : 0`, word 0 = {h4, h20}; `extra` last.
fn frame(arm: &[&str], reader: &str, test: &str, extra: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = [
        "ld.global.s32 %r0, [%in];",
        "ld.global.s32 %r5, [%in+8];",
        "mov.b32 %r1, %r0;",
        "set.gt.f32.u32 %r1, %r1, 0x0;",
        "ld.global.u32 %r2, [%in+4];",
        "setp.ne.u32 %p0, %r2, 0x2a;",
        "@%p0 bra $L0;",
    ]
    .map(String::from)
    .to_vec();
    lines.extend(arm.iter().map(|l| l.to_string()));
    lines.extend(["$L0:", "mov.b32 %r6, 0;"].map(String::from));
    lines.extend([reader, test].iter().flat_map(|l| l.split('\n')).filter(|l| !l.is_empty()).map(String::from));
    lines.extend(
        [
            "mov.b16 %h19, 3889;",
            "selp.b16 %h20, %h19, 0x0, %p2;",
            "mov.b32 %r7, {%h4, %h20};",
            "st.global.b32 [%out], %r7;",
        ]
        .map(String::from),
    );
    lines.extend(extra.iter().map(|l| l.to_string()));
    lines
}

const ZERO: &[&str] = &["mov.b32 %r0, 0;"];
const S8: &str = "cvt.s8.u32 %h4, %r1;";
const NE: &str = "setp.ne.s32 %p2, %r6, %r0;";

/// The stored case (all 32 threads load x = 0x910ee232, the set is true, the arm never runs):
/// word 2 is {h4 = 1, h20 = 0xf31} where the spec's h4 is the low byte of 0x3f800000, 0.
#[test]
fn c1n2_55b28c51_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("4901", "55b28c5155453afd");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 2 { 0x0f31_0001 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Wrong (13.0.88 and 13.5 -O3 `@!P2 PLOP3.LUT P1 …` or `@!P2 ISETP.NE P1, R0, RZ`, then `SEL R9,
/// RZ, 0x1, !P0`): the case's core (a moved 0 tested), `setp.ne.s32 x, 0` (v/v3), `.eq` (v/v9),
/// `.lt.s32` (v/v12), `.gt.u32` (s49/v1), `.ge.s32` (s49/v2), `.le.u32` (s49/v7), the arm `mov
/// x, 5` (v/v4), an `ld` (v/v22), `mov x, y` (s49/v3), a 64-bit x (v/v14), `cvt.u8.u32` (v/v19);
/// the float reader `cvt.rn.f16.s32` (v/v16: `SEL 0x3c00`) and `cvt.u64.u32` (v/v17: 1).
#[test]
fn c1n2_a_set_f32_beside_a_zero_test_split_into_an_arm_is_its_truth() {
    let x = [5, 0, 7, 0];
    exact_case(&strs(&frame(ZERO, S8, NE, &[])), x, D, 0x0f31_0000, 0x0f31_0001);
    for test in [
        "setp.ne.s32 %p2, %r0, 0;",
        "setp.gt.u32 %p2, %r0, 0;",
        "setp.ge.s32 %p2, %r0, 0;",
        "setp.eq.u32 %p2, %r0, 0;",
        "setp.le.u32 %p2, %r0, 0;",
    ] {
        let (s, e, fired) = both(&strs(&frame(ZERO, S8, test, &[])), x, D);
        assert_eq!((e.bits ^ s.bits, e.is_exact(), fired), (1, true, vec![D]), "{test}");
    }
    exact_case(&strs(&frame(ZERO, S8, "setp.lt.s32 %p2, %r0, 0;", &[])), x, D, 0, 1);
    exact_case(&strs(&frame(&["mov.b32 %r0, 5;"], S8, NE, &[])), x, D, 0x0f31_0000, 0x0f31_0001);
    exact_case(&strs(&frame(&["ld.global.s32 %r0, [%in+12];"], S8, NE, &[])), x, D, 0x0f31_0000, 0x0f31_0001);
    exact_case(&strs(&frame(&["mov.b32 %r0, %r5;"], S8, NE, &[])), x, D, 0x0f31_0000, 0x0f31_0001);
    exact_case(&strs(&frame(ZERO, "cvt.u8.u32 %h4, %r1;", NE, &[])), x, D, 0x0f31_0000, 0x0f31_0001);
    // A 64-bit x (v/v14).
    let wide = frame(&["mov.b64 %d0, 0;"], S8, "setp.ne.u64 %p2, %d0, 0;", &[]);
    let mut wide: Vec<String> = wide.into_iter().collect();
    wide.insert(0, "ld.global.u64 %d0, [%in+8];".into());
    exact_case(&strs(&wide), x, D, 0x0f31_0000, 0x0f31_0001);
    // The float and 64-bit readers: f16 1.0 (0x3c00) for +inf (0x7c00), and 1 for 0x3f800000.
    exact_case(&strs(&frame(ZERO, "cvt.rn.f16.s32 %h4, %r1;", NE, &[])), x, D, 0x0f31_7c00, 0x0f31_3c00);
    let u64 =
        frame(ZERO, "cvt.u64.u32 %d1, %r1;", NE, &["st.global.b64 [%out], %d1;", "st.global.b16 [%out+6], %h20;"]);
    let u64: Vec<String> =
        u64.into_iter().filter(|l| !l.starts_with("mov.b32 %r7") && !l.contains("[%out], %r7")).collect();
    exact_case(&strs(&u64), x, D, 0x0f31_0000_3f80_0000, 0x0f31_0000_0000_0001);
    // A false set is 0 either way.
    untouched(&strs(&frame(ZERO, S8, NE, &[])), [0, 0, 0, 0], D);
}

/// Right (13.0.88 -O3 the word's byte `SEL -1; IABS; I2FP.F32.S32; PRMT 0x8880`, or `FSEL 1`
/// converted): no branch (v/v1), no test (v/v2), a test against 5 (v/v5), selp or a guarded mov for
/// the branch (v/v8, v/v15), the test dead (v/v10), the arm writing another register (v/v11) or
/// `add x, x, 1` (v/v21), the test before the branch (s49/v6), `set.ne.u32` as the test (s49/v4),
/// the set's word also stored (v/v13; s49/v5 for `cvt.rn.f16.s32`).
#[test]
fn c1n2_leaves_sets_beside_other_tests_and_arms_alone() {
    let x = [5, 0, 7, 0];
    let no_branch: Vec<String> =
        frame(ZERO, S8, NE, &[]).into_iter().filter(|l| !l.contains("bra") && l != "mov.b32 %r0, 0;").collect();
    untouched(&strs(&no_branch), x, D);
    let no_test = frame(ZERO, S8, "setp.ne.s32 %p2, %r5, 7;", &["st.global.b32 [%out+4], %r0;"]);
    untouched(&strs(&no_test), x, D);
    untouched(&strs(&frame(ZERO, S8, "setp.ne.s32 %p2, %r0, 5;", &[])), x, D);
    let selp: Vec<String> = frame(&[], S8, NE, &[])
        .into_iter()
        .map(|l| if l.contains("bra") { "selp.b32 %r0, %r0, 0, %p0;".to_string() } else { l })
        .filter(|l| l != "$L0:")
        .collect();
    untouched(&strs(&selp), x, D);
    let guarded: Vec<String> = frame(&[], S8, NE, &[])
        .into_iter()
        .map(|l| if l.contains("bra") { "@!%p0 mov.b32 %r0, 0;".to_string() } else { l })
        .filter(|l| l != "$L0:")
        .collect();
    untouched(&strs(&guarded), x, D);
    // The test dead: h20 not stored.
    let dead: Vec<String> = frame(ZERO, S8, NE, &[])
        .into_iter()
        .map(|l| if l.starts_with("mov.b32 %r7") { "mov.b32 %r7, {%h4, %h4};".to_string() } else { l })
        .collect();
    untouched(&strs(&dead), x, D);
    untouched(&strs(&frame(&["mov.b32 %r5, 0;"], S8, NE, &["st.global.b32 [%out+4], %r5;"])), x, D);
    untouched(&strs(&frame(&["add.s32 %r0, %r0, 1;"], S8, NE, &[])), x, D);
    let set_test = "set.ne.u32.s32 %r8, %r0, 0;\nsetp.ne.s32 %p2, %r5, 7;";
    untouched(&strs(&frame(ZERO, S8, set_test, &["st.global.b32 [%out+4], %r8;"])), x, D);
    untouched(&strs(&frame(ZERO, S8, NE, &["st.global.b32 [%out+4], %r1;"])), x, D);
    untouched(&strs(&frame(ZERO, "cvt.rn.f16.s32 %h4, %r1;", NE, &["st.global.b32 [%out+4], %r1;"])), x, D);
    // The test before the branch (s49/v6).
    let before: Vec<String> = {
        let mut v = frame(ZERO, S8, "", &[]);
        v.retain(|l| !l.is_empty());
        let at = v.iter().position(|l| l.starts_with("setp.ne.u32 %p0")).unwrap();
        v.insert(at, "setp.ne.s32 %p2, %r0, 0;".into());
        v
    };
    untouched(&strs(&before), x, D);
}
