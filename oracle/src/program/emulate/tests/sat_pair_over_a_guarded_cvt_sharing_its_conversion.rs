//! Tests of 3801-N3 with F's conversion shared with a guarded write of S's source (seed 4602's
//! b9890c40, helper g2, session 47; corpus/findings/fuzz-h200-4602/trace/T17t3.md, variants in
//! trace/b9890c40/; `emulate/sat_pair_over_a_guarded_cvt_sharing_its_conversion.rs`).

use super::*;

const D: Deviation = Deviation::SatCvtPairReadsGuardedOverwrite;

/// Word 0 the loaded half 0x7608 (f16 24704.0) in its high half, word 1 r0 (0: the guard
/// `r0 <= 352195589` holds), word 2 another f32 (2.0).
const WORDS: [u32; 4] = [0x7608_0000, 0, 0x4000_0000, 0];

/// b9890c40's `reduced.ptx` with `guarded` (the write of h1) and `second` (S), h0 stored at
/// byte 0 and h2 at byte 4.
fn chain(guarded: &'static str, second: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u16 %h1, [%in+2];",
        "ld.global.s32 %r0, [%in+4];",
        "ld.global.f32 %r1, [%in+8];",
        "setp.le.s32 %p0, %r0, 352195589;",
        "cvt.rn.sat.f16.f32 %h2, %r0;",
        guarded,
        second,
        "st.global.b16 [%out], %h0;",
        "st.global.b16 [%out+4], %h2;",
    ]
}

const S: &str = "cvt.sat.f16.f16 %h0, %h1;";

/// `reduced` (`F2FP.F16.F32.PACK_AB R0, RZ, R0; @!P0 LDG.E.U16 R0; HADD2.SAT R0, R0.H0_H0,
/// -RZ.H0_H0; STG.E.S16 [+0x8], R0`, 13.0.88 and 13.5 -O3): where the write is skipped, h2 is
/// sat(0x7608) = 0x3c00, where §9.7.9.21 gives sat(f16(0)) = 0; `v6_guard_p` (`@p0`, p0 false).
#[test]
fn n3_3801_b9890c40_f_shares_its_conversion_with_the_guarded_write_of_s_source() {
    let lines = chain("@!%p0 cvt.rn.f16.f32 %h1, %r0;", S);
    exact_case(&lines, WORDS, D, 0x0000_0000_0000_3c00, 0x0000_3c00_0000_3c00);
    let p = chain("@%p0 cvt.rn.f16.f32 %h1, %r0;", S);
    // r0 = 0x3e800000 (0.25; p0 false): §9.7.9.21 h2 = 0x3400.
    exact_case(&p, [0x7608_0000, 0x3e80_0000, 0x4000_0000, 0], D, 0x0000_3400_0000_3c00, 0x0000_3c00_0000_3c00);
}

/// Right: the guarded cvt of another f32 (`v1_else_other_f32`), of another rounding
/// (`v8_guarded_rz`), the cvt unguarded (`v3_unguarded`), no S (`v2_no_second_sat`), F's source
/// rewritten before the guarded cvt (s47 `z1_source_rewritten_between`).
#[test]
fn n3_3801_b9890c40_another_source_rounding_or_no_guard_is_left_alone() {
    untouched(&chain("@!%p0 cvt.rn.f16.f32 %h1, %r1;", S), WORDS, D);
    untouched(&chain("@!%p0 cvt.rz.f16.f32 %h1, %r0;", S), WORDS, D);
    untouched(&chain("cvt.rn.f16.f32 %h1, %r0;", S), WORDS, D);
    untouched(&chain("@!%p0 cvt.rn.f16.f32 %h1, %r0;", "mov.b16 %h0, %h1;"), WORDS, D);
    // s47 `z1_source_rewritten_between` (`add.s32 r0, r0, 1` before the guarded cvt: `@P0 F2F.F16.F32
    // R7, R6; PRMT R0, R0, 0x5410, R7; HADD2.SAT R0, R0`, a real pack).
    let mut rewritten = chain("@!%p0 cvt.rn.f16.f32 %h1, %r0;", S);
    rewritten.insert(5, "add.s32 %r0, %r0, 1;");
    untouched(&rewritten, WORDS, D);
}

/// b9890c40's stored case (32 threads): emulating 3801-N3 gives the stored -O3/JIT word 2
/// (0x00003c00) and the spec's other words.
#[test]
fn n3_3801_b9890c40_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4602", "b9890c405845f262");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 2 && t < 8 {
            assert_eq!((s.bits, e.bits), (0, 0x3c00), "thread {t} word {w}");
        } else if w != 2 {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}
