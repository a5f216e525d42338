//! Tests of C1-N2 under A's byte-store conversion (seed 5002's 11a06fef, T21c.md,
//! trace/11a06fef/s50/; `set_f32_boolean_converted_at_a_byte_store.rs`): an 8-bit store of a
//! float `cvt` of a `set.<cmp>.f32` result, in a program with C1-N2's xor trigger, stores the
//! set's boolean number (ptxas 13.0.88 -O3 `SEL R7, RZ, 0x1; STG.E.U8`), where §9.7.9.21 and
//! §9.7.9.11 store the low byte of the converted word (+inf: 0).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// 11a06fef's stored case: byte 14 (word 3, bits 16–23) is the GPU's 1 in threads 0–7 (`set.ne.f32.s16`
/// true in the loop, `cvt.rn.f16.s32`, `st.weak.global.b8`), the spec's 0.
#[test]
fn c1n2_11a06fef_the_campaign_case_gives_the_stored_o3_byte() {
    let (p, i) = super::stored_case("5002", "11a06fefae9c8360");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        // (findings.json lists the first 8 mismatches; every emulated byte is the set's 0 or 1.)
        assert_eq!(s.field(3 * 32 + 16, 8), Expected::exact(0, 8), "thread {t} spec");
        let byte = e.field(3 * 32 + 16, 8);
        assert!(byte == Expected::exact(1, 8) || (t >= 8 && byte == Expected::exact(0, 8)), "thread {t}: {byte:?}");
        // The bytes around it are the spec's (h22's 0x07 above it).
        assert_eq!(e.field(3 * 32 + 24, 8), s.field(3 * 32 + 24, 8), "thread {t} byte 15");
    }
}

/// The trigger (an xor of an integer set's halves, stored at byte 4) and the set.f32 of two
/// loaded halves (input word 2's halves), then `tail`; word 1 holds the stored byte.
fn with(trigger: bool, tail: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    if trigger {
        v.extend(
            [
                "ld.global.u32 %r0, [%in];",
                "set.gt.u32.u32 %r5, %r0, 7;",
                "mov.b32 {%h17, %h18}, %r5;",
                "xor.b16 %h19, %h17, %h18;",
                "st.global.u16 [%out], %h19;",
            ]
            .map(String::from),
        );
    }
    v.extend(["ld.global.u16 %h8, [%in+8];", "ld.global.u16 %h5, [%in+10];"].map(String::from));
    v.extend(tail.iter().map(|s| s.to_string()));
    v
}

/// The stored byte (word 1's low byte) by the spec and emulating C1-N2, with what fired.
fn byte(lines: &[String]) -> (u64, u64, Vec<Deviation>) {
    let (s, e, fired) = both(&strs(lines), [3, 0, 0x0005_0004, 0], D);
    (((s.bits >> 32) & 0xff) as u64, ((e.bits >> 32) & 0xff) as u64, fired)
}

/// Wrong (v1, v4, v5): `.f16.s32` into `st.b8`, `.f32.s32`, `set.ne.f32.u32` with `.f16.u32`
/// into `st.u8`: the byte is 1 (the set true), the spec's 0.
#[test]
fn c1n2_11a06fef_a_byte_store_of_the_converted_set_stores_its_boolean() {
    let tails: [&[&str]; 3] = [
        &["set.ne.f32.s16 %r7, %h8, %h5;", "cvt.rn.f16.s32 %h13, %r7;", "st.global.b8 [%out+4], %h13;"],
        &["set.ne.f32.s16 %r7, %h8, %h5;", "cvt.rn.f32.s32 %r6, %r7;", "st.global.b8 [%out+4], %r6;"],
        &["set.ne.f32.u16 %r7, %h8, %h5;", "cvt.rn.f16.u32 %h13, %r7;", "st.global.u8 [%out+4], %h13;"],
    ];
    for tail in tails {
        assert_eq!(byte(&with(true, tail)), (0, 1, vec![D]), "{tail:?}");
    }
}

/// Right (v2, v6): no xor trigger (A's conversion of the word, not C1-N2's), an integer set
/// (`SEL -1; I2F.F16; F2I.U8`): nothing fires.
#[test]
fn c1n2_11a06fef_no_trigger_or_an_integer_set_keeps_the_spec_s_byte() {
    let f32_set = ["set.ne.f32.s16 %r7, %h8, %h5;", "cvt.rn.f16.s32 %h13, %r7;", "st.global.b8 [%out+4], %h13;"];
    let int_set = ["set.ne.u32.s16 %r7, %h8, %h5;", "cvt.rn.f16.s32 %h13, %r7;", "st.global.b8 [%out+4], %h13;"];
    for lines in [with(false, &f32_set), with(true, &int_set)] {
        let (s, e, fired) = byte(&lines);
        assert_eq!((e, fired), (s, vec![]), "{lines:?}");
    }
}
