//! Tests of 3702-N3 with the arm reading or writing a word of an unpacked 64-bit constant
//! (session 54: seed 5402's 8ad6cef7, corpus/findings/fuzz-h200-5402/trace/T54S.md and
//! trace/8ad6cef7/).

use super::*;

const D: Deviation = Deviation::JoinOfMinusOneAndOneF32Merged;

/// 8ad6cef7's campaign case: the stored ptxas -O3 and JIT words (word 2 of threads 103–127:
/// the old 1.0f, the spec's −1), the spec's everywhere else.
#[test]
fn n3_3702_8ad6cef7_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5402", "8ad6cef71e49fa8e");
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 2 && t >= 103 { 0x3f80_0000 } else { s.bits };
        changed += usize::from(want != s.bits);
        assert_eq!((e.bits, e.is_exact()), (want, true), "thread {t} word {w}");
    }
    assert_eq!(changed, 25);
}

/// The arm `mov.b64 {lo, hi}, d; set.le.s32.u32 r3, r3, K` over an old 1.0f, `d` from `first`.
fn arm(first: &'static [&'static str], unpack: &'static str, k: &'static str) -> Vec<&'static str> {
    let mut lines = first.to_vec();
    lines.extend([
        "mov.b32 %r3, 1065353216;",
        "ld.global.u32 %r2, [%in];",
        "setp.lt.u32 %p3, %r2, 0x67;",
        "@%p3 bra $L4;",
        unpack,
        k,
        "$L4:",
        "st.global.f32 [%out], %r3;",
    ]);
    lines
}

const ZERO: &[&str] = &["mov.b64 %d0, 0;"];
const HIGH: &str = "mov.b64 {%r1, %r3}, %d0;";
const LE_0: &str = "set.le.s32.u32 %r3, %r3, 0x0;";

/// Wrong (13.0.88 -O3 the old 1.0f stored): the high or low word (`s54/v3_unpack_low_word`)
/// of a moved 0, of an `xor.b64` of moved constants (`x5_w1`), a high word 1 compared `≤ 1`
/// (`x5_w2_high_word_1`).
#[test]
fn n3_3702_an_arm_of_an_unpacked_constant_is_merged() {
    exact_case(&arm(ZERO, HIGH, LE_0), [200, 0, 0, 0], D, 0xffff_ffff, 0x3f80_0000);
    exact_case(&arm(ZERO, "mov.b64 {%r3, %r1}, %d0;", LE_0), [200, 0, 0, 0], D, 0xffff_ffff, 0x3f80_0000);
    let xor: &[&str] = &["mov.b64 %d0, 81985529216486895;", "xor.b64 %d0, %d0, 81985529216486895;"];
    exact_case(&arm(xor, HIGH, LE_0), [200, 0, 0, 0], D, 0xffff_ffff, 0x3f80_0000);
    let one: &[&str] = &["mov.b64 %d0, 4294967296;"];
    exact_case(&arm(one, HIGH, "set.le.s32.u32 %r3, %r3, 0x1;"), [200, 0, 0, 0], D, 0xffff_ffff, 0x3f80_0000);
}

/// Right: `d` loaded (`s54/v2_unpack_of_loaded`: `@P0 ISETP; @P0 SEL`); the branch taken (no
/// arm run); a set that is false (0, not −1: no merge).
#[test]
fn n3_3702_an_unpack_of_a_loaded_word_is_left_alone() {
    untouched(&arm(&["ld.global.u64 %d0, [%in+8];"], HIGH, LE_0), [200, 0, 0, 0], D);
    untouched(&arm(ZERO, HIGH, LE_0), [5, 0, 0, 0], D);
    untouched(&arm(ZERO, HIGH, "set.gt.s32.u32 %r3, %r3, 0x0;"), [200, 0, 0, 0], D);
}
