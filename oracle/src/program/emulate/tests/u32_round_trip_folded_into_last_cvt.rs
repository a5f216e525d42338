//! Tests of 80274cbb's u32 round trip folded into its last conversion (seeds 4503's 80274cbb and
//! 4602's d5c92b86, session 46; corpus/findings/fuzz-h200-4503/trace/T16t5.md, trace/80274cbb/;
//! corpus/findings/fuzz-h200-4602/trace/T17t4.md, variants in trace/d5c92b86/s46/).

use super::*;

/// `ld.global.f32` of word 0, then `steps` (the chain from %r0 to %r3), and %r3 stored.
fn chain(steps: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.f32 %r0, [%in];"];
    lines.extend_from_slice(steps);
    lines.push("st.global.b32 [%out], %r3;");
    lines
}

/// 0.99999994 (the d5c92b86 constant): `.rpi` gives 1, 1.0, then 1 by the spec; the last
/// conversion of it directly gives 0 under `.rmi`.
const BELOW_ONE: [u32; 4] = [0x3f7f_ffff, 0, 0, 0];
/// 1.5: `.rzi` then `.rpi` gives 1 by the spec, 2 folded; `.rni` then `.rmi` 2 and 1.
const ONE_AND_A_HALF: [u32; 4] = [0x3fc0_0000, 0, 0, 0];

/// d5c92b86's chain of a loaded x (`v1_loaded`, `F2I.U32.FLOOR.NTZ R0, R2`), its s46 variants
/// (`w1_rz_middle`, `w2_rm_middle`: the same `F2I.U32.FLOOR.NTZ`; `w3_movb32_between`: `mov.b32`
/// copies between the steps; `w4_ftz_first`: the first `.ftz` dropped with it; `w5_ftz_last`:
/// `F2I.FTZ.U32.FLOOR.NTZ`; `w8_rni_first_rmi_last`) and 80274cbb's `v12_loaded_rzi_rn_rpi`
/// (`F2I.U32.CEIL.NTZ`: 1.5 gives 2).
#[test]
fn u32_round_trip_is_the_last_conversion_of_the_first_source() {
    let d = Deviation::U32RoundTripFoldedIntoLastConversion;
    let (rpi, rmi) = ("cvt.rpi.u32.f32 %r1, %r0;", "cvt.rmi.u32.f32 %r3, %r2;");
    for middle in ["cvt.rn.f32.u32 %r2, %r1;", "cvt.rz.f32.u32 %r2, %r1;", "cvt.rm.f32.u32 %r2, %r1;"] {
        exact_case(&chain(&[rpi, middle, rmi]), BELOW_ONE, d, 1, 0);
    }
    let copies = ["mov.b32 %r5, %r1;", "cvt.rn.f32.u32 %r6, %r5;", "mov.b32 %r2, %r6;"];
    exact_case(&chain(&[rpi, copies[0], copies[1], copies[2], rmi]), BELOW_ONE, d, 1, 0);
    let middle = "cvt.rn.f32.u32 %r2, %r1;";
    exact_case(&chain(&["cvt.rpi.ftz.u32.f32 %r1, %r0;", middle, rmi]), BELOW_ONE, d, 1, 0);
    exact_case(&chain(&[rpi, middle, "cvt.rmi.ftz.u32.f32 %r3, %r2;"]), BELOW_ONE, d, 1, 0);
    exact_case(&chain(&["cvt.rni.u32.f32 %r1, %r0;", middle, rmi]), ONE_AND_A_HALF, d, 2, 1);
    let rzi = "cvt.rzi.u32.f32 %r1, %r0;";
    exact_case(&chain(&[rzi, middle, "cvt.rpi.u32.f32 %r3, %r2;"]), ONE_AND_A_HALF, d, 1, 2);
}

/// Right (the chain kept in the listings): an `.s32` step (`w7_s32_middle_source`: `F2I.U32.CEIL;
/// I2FP.F32.S32; F2I.U32.FLOOR`; 80274cbb's `v5`, `v7`, `v16`), `.u64` (`v13`), an `.f64`
/// middle (`v8`), a guarded middle step (`w9_guarded_middle`: `I2FP.F32.U32; FSEL`), the round
/// trip without a last conversion (`v14`, d5c92b86's `v2_no_last_cvt_right`), and (folded, not
/// emulated) a `mov.f32` copy between the steps (`w6_movf32_between`).
#[test]
fn u32_round_trip_leaves_other_types_guards_and_f32_copies_alone() {
    let d = Deviation::U32RoundTripFoldedIntoLastConversion;
    let (rpi, middle, rmi) = ("cvt.rpi.u32.f32 %r1, %r0;", "cvt.rn.f32.u32 %r2, %r1;", "cvt.rmi.u32.f32 %r3, %r2;");
    untouched(&chain(&[rpi, "cvt.rn.f32.s32 %r2, %r1;", rmi]), BELOW_ONE, d);
    untouched(
        &chain(&["cvt.rpi.s32.f32 %r1, %r0;", "cvt.rn.f32.s32 %r2, %r1;", "cvt.rmi.s32.f32 %r3, %r2;"]),
        BELOW_ONE,
        d,
    );
    untouched(&chain(&[rpi, middle, "cvt.rmi.s32.f32 %r3, %r2;"]), BELOW_ONE, d);
    let u64 = [
        "cvt.rpi.u64.f32 %d1, %r0;",
        "cvt.rn.f32.u64 %r2, %d1;",
        "cvt.rmi.u64.f32 %d3, %r2;",
        "st.global.b64 [%out], %d3;",
    ];
    untouched(&[&["ld.global.f32 %r0, [%in];"][..], &u64[..]].concat(), BELOW_ONE, d);
    let f64 = ["cvt.rpi.u32.f32 %r1, %r0;", "cvt.rn.f64.u32 %d2, %r1;", "cvt.rmi.u32.f64 %r3, %d2;"];
    untouched(&chain(&f64), BELOW_ONE, d);
    let guarded = [
        "ld.global.u32 %r4, [%in+4];",
        "setp.ne.u32 %p0, %r4, 0;",
        "mov.b32 %r2, 0;",
        rpi,
        "@%p0 cvt.rn.f32.u32 %r2, %r1;",
        rmi,
    ];
    untouched(&chain(&guarded), [0x3f7f_ffff, 1, 0, 0], d);
    untouched(&["ld.global.f32 %r0, [%in];", rpi, middle, "st.global.b32 [%out], %r2;"], BELOW_ONE, d);
    untouched(&chain(&[rpi, "cvt.rn.f32.u32 %r5, %r1;", "mov.f32 %r2, %r5;", rmi]), BELOW_ONE, d);
}

/// The campaign case `name` of `seed`: emulating 80274cbb's fold alone gives `word` of every
/// thread as `bug` (the stored -O3 and JIT word) where the spec gives `spec`; the other words
/// stay the spec's.
fn campaign_case(seed: &str, name: &str, word: u32, spec: u128, bug: u128) {
    let (p, i) = super::stored_case(seed, name);
    let d = Deviation::U32RoundTripFoldedIntoLastConversion;
    let expected = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!(fired, vec![d]);
    for (t, (s, e)) in expected.iter().zip(&out).enumerate() {
        for w in 0..p.outputs {
            let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
            if w == word {
                assert_eq!((s.bits, s.is_exact()), (spec, true), "spec: thread {t} word {w}");
                assert_eq!((e.bits, e.is_exact()), (bug, true), "thread {t} word {w}");
            } else {
                assert_eq!(e, s, "thread {t} word {w}");
            }
        }
    }
}

/// d5c92b86 (seed 4602): `.rpi`, `.rn`, `.rmi` of 0.99999994 is `F2I.U32.FLOOR.NTZ R0,
/// 0.99999994`: byte 4 of the output is 0, word 1 0x00000000 (spec 0x00000001).
#[test]
fn u32_round_trip_d5c92b86_the_campaign_case_gives_the_stored_o3_words() {
    campaign_case("4602", "d5c92b86f59d80e9", 1, 1, 0);
}

/// 80274cbb (seed 4503): `.rpi`, `.rp`, `.rzi` of 1.82e-26 is `STG.E.U16 [R2.64], RZ`: word 0
/// (the low half stored) 0, spec 1.
#[test]
fn u32_round_trip_80274cbb_the_campaign_case_gives_the_stored_o3_words() {
    campaign_case("4503", "80274cbbbbabddb3", 0, 1, 0);
}
