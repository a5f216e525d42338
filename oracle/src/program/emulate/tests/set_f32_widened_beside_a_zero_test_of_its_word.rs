//! Tests of 3604-N2's rebuild of a 64-bit widening of a set.f32 whose word a live 32-bit compare
//! tests against 0 (seed 6101's dfda7034: corpus/findings/fuzz-h200-6101/trace/T61C.md,
//! `trace/dfda7034/s61/`; `emulate/set_f32_widened_as_its_boolean/beside_a_zero_test_of_its_word.rs`).

use super::*;

const D: Deviation = Deviation::WidenedSetF32ComparedWithZeroIs0Or1;

/// `set.ne.f32.u32` of the first word (1.0f where not 0), its widening `cvt`, the zero `test`
/// (writing r5), then the widened low word stored in word 0 and `store` (word 1).
fn kernel(cvt: &'static str, test: &'static [&'static str], store: &'static str) -> Vec<&'static str> {
    let mut v = vec!["ld.global.u32 %r0, [%in];", "mov.b32 %r2, 0;", "set.ne.f32.u32 %r1, %r0, 0;", cvt];
    v.extend_from_slice(test);
    v.extend(["mov.b64 {%r3, %r4}, %d1;", "st.global.u32 [%out], %r3;", store]);
    v
}

const U64: &str = "cvt.u64.u32 %d1, %r1;";
const SET_NE: &[&str] = &["set.ne.s32.s32 %r5, %r2, %r1;"];
const STORE_R5: &str = "st.global.u32 [%out+4], %r5;";

/// The stored case: `cvt.pack.sat.u4.s32.b32 r3, r1, r2, r1` with r2 the widened set's low word
/// (15 by the spec, the GPU's 1: 0xffffff01 where the spec stores 0xffffff0f, word 1).
#[test]
fn dfda7034_the_stored_case_packs_the_widened_set_as_1() {
    let (p, i) = stored_case("6101", "dfda70341e6be9be");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (0xffff_ff0f, 0xffff_ff01) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}

/// v4 (the test's set stored, no pack), v8 (`set.eq.u32.u32 s, 0`), v9 (an `.f32` destination),
/// v13 (the test before the widening), v7 (`setp.ne.s32 s, 0` read by a `selp`), `cvt.s64.s32`.
#[test]
fn dfda7034_a_widened_set_f32_beside_a_live_zero_test_of_its_word_is_1() {
    exact_case(&kernel(U64, SET_NE, STORE_R5), [7, 0, 0, 0], D, 0xffff_ffff_3f80_0000, 0xffff_ffff_0000_0001);
    let eq = &["set.eq.u32.u32 %r5, %r1, 0;"];
    exact_case(&kernel(U64, eq, STORE_R5), [7, 0, 0, 0], D, 0x3f80_0000, 1);
    let f32_dst = &["set.ne.f32.s32 %r5, %r1, 0;"];
    exact_case(&kernel(U64, f32_dst, STORE_R5), [7, 0, 0, 0], D, 0x3f80_0000_3f80_0000, 0x3f80_0000_0000_0001);
    let mut before = kernel(U64, SET_NE, STORE_R5);
    before.swap(3, 4);
    exact_case(&before, [7, 0, 0, 0], D, 0xffff_ffff_3f80_0000, 0xffff_ffff_0000_0001);
    let setp = &["setp.ne.s32 %p0, %r1, 0;", "mov.b32 %r6, 7;", "selp.b32 %r5, %r6, 9, %p0;"];
    exact_case(&kernel(U64, setp, STORE_R5), [7, 0, 0, 0], D, 0x7_3f80_0000, 0x7_0000_0001);
    exact_case(
        &kernel("cvt.s64.s32 %d1, %r1;", SET_NE, STORE_R5),
        [7, 0, 0, 0],
        D,
        0xffff_ffff_3f80_0000,
        0xffff_ffff_0000_0001,
    );
}

/// Right: the test dead (v10), a test of another register (v2), against 5 (v5), no test (v3);
/// the set false (0 either way).
#[test]
fn dfda7034_without_a_live_zero_test_of_the_word_the_widening_is_right() {
    let none = "st.global.u32 [%out+4], %r0;";
    untouched(&kernel(U64, SET_NE, none), [7, 0, 0, 0], D);
    untouched(&kernel(U64, &["set.ne.s32.s32 %r5, %r2, %r0;"], STORE_R5), [7, 0, 0, 0], D);
    untouched(&kernel(U64, &["mov.b32 %r2, 5;", "set.ne.s32.s32 %r5, %r2, %r1;"], STORE_R5), [7, 0, 0, 0], D);
    untouched(&kernel(U64, &[], none), [7, 0, 0, 0], D);
    untouched(&kernel(U64, SET_NE, STORE_R5), [0, 0, 0, 0], D);
}
