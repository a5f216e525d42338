//! Tests of 3501-N3 widened to a zero test further down a chain of float-to-integer `cvt`s and
//! copies after seed 4703's trace (helper k2, session 47;
//! `emulate/cnot_conversion_tested_down_a_chain.rs`): 8fe9dbe7, 3b56ff65, c807f7fa
//! (corpus/findings/fuzz-h200-4703/trace/T18u5.md; variants trace/8fe9dbe7/ and
//! trace/8fe9dbe7/s47/). Each compiled wrong variant is emulated; the right ones are left alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// A loaded 0: the `cnot` is 1, the bf16 bits 0x0001 the spec converts (to 0).
const ZERO: [u32; 4] = [0; 4];

/// The chain of 8fe9dbe7's `reduced.ptx` with `test` (lines) after `cvt.rmi.s64.f32 %d1, %r0`,
/// h1 stored in byte 0, `h10` in byte 1, `cvt.rn.bf16.f32 %h6, %r0` in the upper half.
fn chain(test: &[&'static str]) -> Vec<&'static str> {
    let mut v = vec![
        "ld.global.s8 %h0, [%in];",
        "cnot.b16 %h0, %h0;",
        "cvt.rzi.u16.bf16 %h1, %h0;",
        "mov.u16 %h2, %h1;",
        "cvt.rmi.s32.bf16 %r0, %h2;",
        "cvt.rmi.s64.f32 %d1, %r0;",
    ];
    v.extend_from_slice(test);
    v.extend_from_slice(&[
        "cvt.rn.bf16.f32 %h6, %r0;",
        "st.global.u8 [%out], %h1;",
        "st.global.u8 [%out+1], %h10;",
        "st.global.u16 [%out+2], %h6;",
    ]);
    v
}

/// The three campaign cases: emulating 3501-N3 alone admits the stored -O3 and JIT word 0 of every
/// listed thread, which the spec does not (8fe9dbe7 thread 34: spec 0x10000058, GPU 0x1080f057).
/// (Not `words_emulated_alone`: the words of threads whose byte 3 is a NaN payload stay sets.)
#[test]
fn n3_8fe9dbe7_3b56ff65_c807f7fa_the_campaign_cases_give_the_stored_words() {
    let stored: [(&str, [(usize, u32); 3]); 3] = [
        ("8fe9dbe74d258451", [(34, 0x1080_f057), (46, 0x5b9f_f057), (118, 0x5b80_f057)]),
        ("3b56ff651c452924", [(34, 0x5b82_f057), (46, 0x5b82_f057), (118, 0x5b82_f057)]),
        ("c807f7fa221f6dc1", [(34, 0x1000_f057), (46, 0x5b1f_f057), (118, 0x5b00_f057)]),
    ];
    for (name, words) in stored {
        let (p, i) = super::stored_case("4703", name);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!(fired, vec![D], "{name}");
        for (t, want) in words {
            let (s, e) = (spec[t].field(0, 32), out[t].field(0, 32));
            assert!(e.matches(want.into()) && !s.matches(want.into()), "{name} thread {t}: {s:?} {e:?}");
        }
    }
}

/// Wrong, 13.0.88 and 13.5 -O3: `reduced` (`cnot.b64` two `cvt`s and a copy down the chain: h1 =
/// 1, d2 = 0, h6 = bf16 1.0; `SEL R11, RZ, 0x1, !P0; HSETP2.BF16_V2.NEU; SEL R9, RZ, 0x1, P0;
/// SEL R7, RZ, 0x3f80, !P0`), `v5_setp_eq0` (`setp.eq.s64 …, 0`), s47's `w2_two_cvts_no_copy` and
/// `w1_test_after_the_copy` (`cnot.b16` of the copy: `SEL R7, RZ, 0x1, P0`).
#[test]
fn n3_8fe9dbe7_a_zero_test_down_the_chain_converts_the_number() {
    let cnot = chain(&["cnot.b64 %d2, %d1;", "mov.b64 {%h10, %h11, %h12, %h13}, %d2;"]);
    exact_case(&cnot, ZERO, D, 0x0100, 0x3f80_0001);
    let setp =
        chain(&["setp.eq.s64 %p0, %d1, 0;", "mov.b16 %h7, 7;", "mov.b16 %h8, 9;", "selp.b16 %h10, %h7, %h8, %p0;"]);
    exact_case(&setp, ZERO, D, 0x0700, 0x3f80_0901);
    let mut no_copy = cnot.clone();
    no_copy.remove(3);
    no_copy[3] = "cvt.rmi.s32.bf16 %r0, %h1;";
    exact_case(&no_copy, ZERO, D, 0x0100, 0x3f80_0001);
    let after_copy = [
        "ld.global.s8 %h0, [%in];",
        "cnot.b16 %h0, %h0;",
        "cvt.rzi.u16.bf16 %h1, %h0;",
        "mov.u16 %h2, %h1;",
        "cnot.b16 %h3, %h2;",
        "st.global.u8 [%out], %h1;",
        "st.global.u8 [%out+1], %h3;",
    ];
    exact_case(&after_copy, ZERO, D, 0x0100, 0x0001);
}

/// Right (the bits converted: `F2I.U16.BF16.TRUNC.NTZ; F2I.BF16.FLOOR.NTZ; F2I.S64.FLOOR`),
/// 13.0.88 and 13.5 -O3: `v1_not_b64`, `v4_no_test`; s47's `r1_test_of_an_xor` (the tested value
/// an `xor` of the chain), `r2_compare_with_one`, `r3_dead_cnot`.
#[test]
fn n3_8fe9dbe7_right_neighbours_are_left_alone() {
    untouched(&chain(&["not.b64 %d2, %d1;", "mov.b64 {%h10, %h11, %h12, %h13}, %d2;"]), ZERO, D);
    untouched(&chain(&["mov.b16 %h10, 3;"]), ZERO, D);
    let mut xor = chain(&["cnot.b64 %d2, %d1;", "mov.b64 {%h10, %h11, %h12, %h13}, %d2;"]);
    xor[5] = "cvt.rmi.s64.f32 %d1, %r1;";
    xor.insert(5, "xor.b32 %r1, %r0, 4;");
    untouched(&xor, ZERO, D);
    untouched(
        &chain(&["setp.eq.s64 %p0, %d1, 1;", "mov.b16 %h7, 7;", "mov.b16 %h8, 9;", "selp.b16 %h10, %h7, %h8, %p0;"]),
        ZERO,
        D,
    );
    untouched(&chain(&["cnot.b64 %d2, %d1;", "mov.b16 %h10, 3;"]), ZERO, D);
}
