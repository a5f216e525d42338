//! Tests of 3701 C1-N2 under the trigger of a `not` of an integer set (seed 5501's 4dd1a6c2 and
//! its mutant 75848456, session 56; corpus/findings/fuzz-h200-5501/trace/T56B.md, variants in
//! trace/4dd1a6c2/s56/ and trace/75848456/s56/; `fuzz3701.rs::not_reads_an_integer_set`).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// The threads whose word 1 the GPU stored as 0x008083fa (`SEL R11, RZ, 0x3f80, !P2`: byte 6
/// bf16 1.0's 0x80) where the spec's is 0x007e83fa (bf16 of 0x3f800000 is 0x4e7e): those where
/// the guarded `ld.nc` is skipped and the set.f32 is true (the json's eight).
const WRONG: [usize; 8] = [0, 7, 8, 10, 11, 13, 16, 17];

/// Checks that emulating [`D`] on `(p, i)` gives byte 6 (word 1's byte 2) 0x80 where the spec's
/// is 0x7e, in at least the threads of [`WRONG`], and every other byte as the spec gives it.
fn wrong(what: &str, (p, i): (Program, Inputs)) {
    let mut changed = Vec::new();
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if e != s {
            assert_eq!(
                (w, s.bits & 0x00ff_0000, e.bits),
                (1, 0x007e_0000, s.bits & !0x00ff_0000 | 0x0080_0000),
                "{what}: thread {t}"
            );
            changed.push(t);
        }
    }
    assert!(WRONG.iter().all(|t| changed.contains(t)), "{what}: {changed:?}");
}

/// The stored cases: word 1 of the json's eight threads (it keeps eight mismatches) 0x008083fa
/// (spec 0x007e83fa); any other word that changes changes only in that byte, 0x7e to 0x80.
#[test]
fn c1n2_4dd1a6c2_and_75848456_stored_cases_are_reached() {
    for name in ["4dd1a6c29c8ebfb6", "7584845603dda2ec"] {
        let (p, i) = super::stored_case("5501", name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            if w == 1 && WRONG.contains(&t) {
                assert_eq!((s.bits, e.bits), (0x007e_83fa, 0x0080_83fa), "{name}: thread {t}");
            }
        }
        wrong(name, (p, i));
    }
}

/// The reduced kernels (s56/reduced, 15 instructions: the set.f32, its cvt, the guarded `ld.nc`,
/// the integer set, its `not`, the xor of the `not`'s halves): `SEL R7, RZ, 0x3f80, !P2; @!P0
/// SGXT R7, R8, 0x8` on 13.0.88 and 13.5 -O3.
#[test]
fn c1n2_4dd1a6c2_reduced_kernels_convert_one() {
    for id8 in ["4dd1a6c2", "75848456"] {
        wrong(id8, super::variant_of("5501", id8, "s56/reduced", &[]));
    }
}

/// A one-thread body: r7 = word 0 (0x30c3afbc: the set.f32 true), the integer set of words 1
/// and 2 with `logic` reading it, `cvt` of the set.f32 result stored as word 0.
fn body(logic: &[&str], cvt: &str) -> Vec<String> {
    let mut l: Vec<String> = ["ld.global.u32 %r7, [%in];", "set.lt.f32.s32 %r3, %r7, 2147483647;", cvt]
        .into_iter()
        .map(String::from)
        .collect();
    l.extend(["ld.global.u32 %r2, [%in+4];".into(), "ld.global.u32 %r9, [%in+8];".into()]);
    l.push("set.lt.u32.s32 %r8, %r2, %r9;".into());
    l.extend(logic.iter().map(|s| s.to_string()));
    l.push("st.global.u32 [%out+4], %r9;".into());
    l
}

const WORDS: [u32; 4] = [0x30c3_afbc, 1, 2, 0];
const BF16: &str = "cvt.rn.bf16.u32 %h2, %r3;";

/// Wrong (s56, 13.0.88 and 13.5 -O3): `not.b32` of the set stored (m4: `SEL 0x3f80`),
/// `cvt.rn.f32.u32` beside it (m10: `FSEL R7, RZ, 1`, 1.0f where the spec's is 0x4e7e0000), `not.b16`
/// of a half of the set (m11).
#[test]
fn c1n2_a_not_of_an_integer_set_converts_one() {
    let store16 = |cvt: &str, logic: &[&str]| {
        let mut l = body(logic, cvt);
        l.insert(3, "st.global.b16 [%out], %h2;".into());
        l
    };
    exact_case(&strs(&store16(BF16, &["not.b32 %r9, %r8;"])), WORDS, D, 0x4e7e, 0x3f80);
    let mut f32 = body(&["not.b32 %r9, %r8;"], "cvt.rn.f32.u32 %r4, %r3;");
    f32.insert(3, "st.global.b32 [%out], %r4;".into());
    exact_case(&strs(&f32), WORDS, D, 0x4e7e_0000, 0x3f80_0000);
    let half = ["mov.b32 {%h16, %h17}, %r8;", "not.b16 %h18, %h16;", "cvt.u32.u16 %r9, %h18;"];
    exact_case(&strs(&store16(BF16, &half)), WORDS, D, 0x4e7e, 0x3f80);
}

/// Right (s56, 13.0.88 and 13.5 -O3 `I2FP.F32.S32; I2F.BF16.U32`): the integer set with no `not`
/// (m8), a `not` of a loaded word (m9).
#[test]
fn c1n2_no_not_of_a_set_is_left_alone() {
    let store16 = |logic: &[&str]| {
        let mut l = body(logic, BF16);
        l.insert(3, "st.global.b16 [%out], %h2;".into());
        l
    };
    untouched(&strs(&store16(&["mov.b32 %r9, %r8;"])), WORDS, D);
    untouched(&strs(&store16(&["not.b32 %r9, %r2;"])), WORDS, D);
}
