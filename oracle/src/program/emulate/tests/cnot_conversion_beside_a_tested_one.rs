//! Tests of 3501-N3 widened to a conversion of a `cnot` beside the one tested against zero
//! (helper le, session 61; `emulate/cnot_conversion_beside_a_tested_one.rs`): seed 6102's
//! 7586be16 (corpus/findings/fuzz-h200-6102/trace/T61E.md; variants trace/7586be16/s61/, 13.0.88
//! and 13.5 -O3 listings). Each compiled wrong variant is emulated; the right ones are left alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// A loaded 0: the `cnot` is 1, whose bits the spec converts (to 0), the GPU the number 1.
const ZERO: [u32; 4] = [0; 4];

/// s61's `v3_apart` with `cnot` and the sibling `cvt` given: `ld.s64 x; cnot.b64 d0, x;
/// cvt.rni.u32.f64 r0, d0; <test>; <sibling>` (the test's result in word 0, the sibling's in word 1).
fn apart(test: &'static str, sibling: &'static str, store: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        "cvt.rni.u32.f64 %r0, %d0;",
        test,
        sibling,
        "st.global.b32 [%out], %r4;",
        store,
    ]
}

/// The campaign case: emulating 3501-N3 gives the stored -O3 and JIT word 0 of thread 24
/// (0x00010001: `cnot(cvt.rni(cnot x))` = 0 xor the pair {h0, h0} of `cvt.rmi.u16.f64` = 1),
/// which the spec does not (0x00000001).
#[test]
fn n3_7586be16_the_campaign_case_gives_the_stored_word() {
    let (p, i) = super::stored_case("6102", "7586be16242d633e");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    let (s, e) = (spec[24].field(0, 32), out[24].field(0, 32));
    assert!(e.matches(0x0001_0001) && s.matches(0x0000_0001), "{s:?} {e:?}");
}

/// Wrong, 13.0.88 and 13.5 -O3 (s61/): `v3_apart` (`SEL R7, RZ, 0x1, !P0`: h0 = 1), `v10` (the
/// sibling first), `v5_setp` (`setp.eq.u32 r0, 0` + selp), `v6_sibling_f32` (`FSEL R7, RZ, 1,
/// !P0`), `v8_cnot_b32_f32` (`SEL R7, RZ, 0x3c00, !P0`), `v11_sibling_b16` (`FSEL R9, RZ, 1, !P0`).
#[test]
fn n3_7586be16_a_conversion_beside_the_tested_one_converts_the_number() {
    let u16_store = "st.global.b16 [%out+4], %h0;";
    // Spec: r4 = cnot(rni(4.9e-324)) = 1, h0 = rmi(4.9e-324) = 0; GPU: r4 = 0, h0 = 1.
    exact_case(&apart("cnot.b32 %r4, %r0;", "cvt.rmi.u16.f64 %h0, %d0;", u16_store), ZERO, D, 1, 1 << 32);
    let first = [
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        "cvt.rmi.u16.f64 %h0, %d0;",
        "cvt.rni.u32.f64 %r0, %d0;",
        "cnot.b32 %r4, %r0;",
        "st.global.b32 [%out], %r4;",
        u16_store,
    ];
    exact_case(&first, ZERO, D, 1, 1 << 32);
    let setp = [
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        "cvt.rni.u32.f64 %r0, %d0;",
        "setp.eq.u32 %p0, %r0, 0;",
        "mov.b32 %r6, 7;",
        "mov.b32 %r7, 9;",
        "selp.b32 %r4, %r6, %r7, %p0;",
        "cvt.rmi.u16.f64 %h0, %d0;",
        "st.global.b32 [%out], %r4;",
        u16_store,
    ];
    exact_case(&setp, ZERO, D, 7, 9 | 1 << 32);
    let f32 = apart("cnot.b32 %r4, %r0;", "cvt.rn.f32.f64 %r5, %d0;", "st.global.b32 [%out+4], %r5;");
    // cvt.rn.f32.f64 of 4.9e-324 is +0 (§9.7.9.21, rounded to nearest), of 1.0 is 0x3f800000.
    exact_case(&f32, ZERO, D, 1, 0x3f80_0000 << 32);
    let b32 = [
        "ld.global.f32 %r1, [%in];",
        "cnot.b32 %r2, %r1;",
        "cvt.rmi.u32.f32 %r0, %r2;",
        "cnot.b32 %r4, %r0;",
        "cvt.rn.f16.f32 %h0, %r2;",
        "st.global.b32 [%out], %r4;",
        u16_store,
    ];
    exact_case(&b32, ZERO, D, 1, 0x3c00 << 32);
    let b16 = [
        "ld.global.u16 %h1, [%in];",
        "cnot.b16 %h2, %h1;",
        "cvt.rzi.u32.f16 %r0, %h2;",
        "setp.ne.u32 %p0, %r0, 0;",
        "mov.b32 %r6, 7;",
        "mov.b32 %r7, 9;",
        "selp.b32 %r4, %r6, %r7, %p0;",
        "cvt.f32.f16 %r5, %h2;",
        "st.global.b32 [%out], %r4;",
        "st.global.b32 [%out+4], %r5;",
    ];
    // Spec: rzi(2^-24) = 0 → 9, cvt.f32.f16 of 2^-24 is 0x33800000; GPU: 7 and 1.0f.
    exact_case(&b16, ZERO, D, 9 | 0x3380_0000 << 32, 7 | 0x3f80_0000 << 32);
}

/// Right (the sibling's `F2I.U16.F64.FLOOR` of the bits), 13.0.88 and 13.5 -O3: `v2_no_test`
/// (`not.b32` for the test), `v4_test_dead`, `v9_sibling_only`, `v7_not` (`not.b64` for the `cnot`).
/// The sibling's word (word 1) is the spec's; `v4`'s dead `cvt.rni` may still be emulated, unseen.
#[test]
fn n3_7586be16_right_neighbours_keep_the_bits() {
    let u16_store = "st.global.b16 [%out+4], %h0;";
    let sibling_word = |lines: &[&str]| {
        let (s, e, _) = both(lines, ZERO, D);
        assert_eq!((e.field(32, 32), e.is_exact()), (s.field(32, 32), true), "{lines:?}");
    };
    sibling_word(&apart("not.b32 %r4, %r0;", "cvt.rmi.u16.f64 %h0, %d0;", u16_store));
    let dead = [
        "ld.global.s64 %d0, [%in];",
        "cnot.b64 %d0, %d0;",
        "cvt.rni.u32.f64 %r0, %d0;",
        "cnot.b32 %r4, %r0;",
        "cvt.rmi.u16.f64 %h0, %d0;",
        u16_store,
    ];
    sibling_word(&dead);
    untouched(&["ld.global.s64 %d0, [%in];", "cnot.b64 %d0, %d0;", "cvt.rmi.u16.f64 %h0, %d0;", u16_store], ZERO, D);
    let mut not = apart("cnot.b32 %r4, %r0;", "cvt.rmi.u16.f64 %h0, %d0;", u16_store);
    not[1] = "not.b64 %d0, %d0;";
    untouched(&not, ZERO, D);
}
