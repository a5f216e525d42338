//! Tests of ba4f6f03's saturated cnot (seeds 4402's ba4f6f03 and 4602's 8d93b13f, session 46;
//! corpus/findings/fuzz-h200-4402/trace/T15t2.md, trace/ba4f6f03/;
//! corpus/findings/fuzz-h200-4602/trace/T17t4.md, variants in trace/8d93b13f/s46/).

use super::*;

/// `ld` of word 0 into %r0, then `steps` writing %h0 (or %r2), and a store of it.
fn chain(steps: &[&'static str]) -> Vec<&'static str> {
    let store = if steps.iter().any(|s| s.contains(" %r2,")) {
        "st.global.b32 [%out], %r2;"
    } else {
        "st.global.b16 [%out], %h0;"
    };
    let mut lines = vec!["ld.global.b32 %r0, [%in];"];
    lines.extend_from_slice(steps);
    lines.push(store);
    lines
}

const ZERO: [u32; 4] = [0; 4];

/// ba4f6f03's `reduced` (0xff80), `v4_cnot_s16` (0x8000), `v8_cnot_s8u32_st32` (a 32-bit
/// destination: 0xffffff80) and 8d93b13f's `s46/w3_movb32_copy` (a `mov.b32` copy between).
#[test]
fn sat_s8_of_cnot_of_zero_is_the_minimum() {
    let d = Deviation::SatS8S16OfCnotClampsNegatedMask;
    let cnot = "cnot.b32 %r1, %r0;";
    exact_case(&chain(&[cnot, "cvt.sat.s8.u32 %h0, %r1;"]), ZERO, d, 1, 0xff80);
    exact_case(&chain(&[cnot, "cvt.sat.s16.u32 %h0, %r1;"]), ZERO, d, 1, 0x8000);
    exact_case(&chain(&[cnot, "cvt.sat.s8.u32 %r2, %r1;"]), ZERO, d, 1, 0xffff_ff80);
    exact_case(&chain(&[cnot, "mov.b32 %r3, %r1;", "cvt.sat.s8.u32 %h0, %r3;"]), ZERO, d, 1, 0xff80);
}

/// Right: cnot = 0 (a nonzero word), an explicit `neg.s32` (`v1_neg_u32`), an `.s32` source
/// (`v2_cnot_s32src`), `cnot.b16` (`v6`), `cnot.b64` (`v7`), `selp 1, 0` (`v9`), and 8d93b13f's
/// `s46/w1_cnot_of_moved_zero` (folded: 1), `s46/w2_guarded_cnot` (`SEL; ISETP.GT.U32 …, 0x7f`),
/// `s46/w4_sat_s32_u32` (`ISETP.GE.U32 …, -0x80000000` after the negation).
#[test]
fn sat_s8_of_cnot_leaves_other_sources_and_types_alone() {
    let d = Deviation::SatS8S16OfCnotClampsNegatedMask;
    let cnot = "cnot.b32 %r1, %r0;";
    untouched(&chain(&[cnot, "cvt.sat.s8.u32 %h0, %r1;"]), [7, 0, 0, 0], d);
    untouched(&chain(&["neg.s32 %r1, %r0;", "cvt.sat.s8.u32 %h0, %r1;"]), [0xffff_ffff, 0, 0, 0], d);
    untouched(&chain(&[cnot, "cvt.sat.s8.s32 %h0, %r1;"]), ZERO, d);
    untouched(&chain(&["mov.b32 {%h1, %h2}, %r0;", "cnot.b16 %h3, %h1;", "cvt.sat.s8.u16 %h0, %h3;"]), ZERO, d);
    untouched(&chain(&["cvt.u64.u32 %d1, %r0;", "cnot.b64 %d2, %d1;", "cvt.sat.s8.u64 %h0, %d2;"]), ZERO, d);
    let selp = ["setp.eq.u32 %p1, %r0, 0;", "mov.b32 %r4, 1;", "mov.b32 %r5, 0;", "selp.b32 %r1, %r4, %r5, %p1;"];
    untouched(&chain(&[selp[0], selp[1], selp[2], selp[3], "cvt.sat.s8.u32 %h0, %r1;"]), ZERO, d);
    untouched(&chain(&["mov.b32 %r3, 0;", "cnot.b32 %r1, %r3;", "cvt.sat.s8.u32 %h0, %r1;"]), ZERO, d);
    let guarded =
        ["ld.global.u32 %r3, [%in+4];", "mov.b32 %r1, 5;", "setp.eq.u32 %p1, %r3, 0;", "@%p1 cnot.b32 %r1, %r0;"];
    untouched(&chain(&[guarded[0], guarded[1], guarded[2], guarded[3], "cvt.sat.s8.u32 %h0, %r1;"]), ZERO, d);
    untouched(&chain(&[cnot, "cvt.sat.s32.u32 %r2, %r1;"]), ZERO, d);
}

/// The campaign case `name` of `seed`: emulating ba4f6f03's clamp alone gives `bug` in `word`
/// of every thread whose spec word there is `spec` (cnot = 1), the spec's words elsewhere; some
/// thread changes.
fn campaign_case(seed: &str, name: &str, word: u32, spec: u128, bug: u128) {
    let (p, i) = super::stored_case(seed, name);
    let d = Deviation::SatS8S16OfCnotClampsNegatedMask;
    let expected = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!(fired, vec![d]);
    let mut changed = 0;
    for (t, (s, e)) in expected.iter().zip(&out).enumerate() {
        for w in 0..p.outputs {
            let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
            if w == word && s.is_exact() && s.bits == spec {
                assert_eq!((e.bits, e.is_exact()), (bug, true), "thread {t} word {w}");
                changed += 1;
            } else {
                assert_eq!(e, s, "thread {t} word {w}");
            }
        }
    }
    assert!(changed > 0);
}

/// 8d93b13f (seed 4602): `cvt.sat.s8.u32` of `cnot.b32` of a loaded 0, byte 7 of the output:
/// word 1 0x80000000 (spec 0x01000000).
#[test]
fn sat_s8_of_cnot_8d93b13f_the_campaign_case_gives_the_stored_o3_words() {
    campaign_case("4602", "8d93b13f4eeea5fd", 1, 0x0100_0000, 0x8000_0000);
}

/// ba4f6f03 (seed 4402): the byte stored as a 16-bit half at +2: word 0 0xff800000 (spec
/// 0x00010000).
#[test]
fn sat_s8_of_cnot_ba4f6f03_the_campaign_case_gives_the_stored_o3_words() {
    campaign_case("4402", "ba4f6f03a455cd8f", 0, 0x0001_0000, 0xff80_0000);
}
