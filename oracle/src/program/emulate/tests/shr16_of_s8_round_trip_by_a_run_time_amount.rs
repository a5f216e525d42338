//! Tests of 3602-N4 at a `shr.{u16,b16}` reader whose amount is a run-time value in 16..31 (seed
//! 6005's 08ac0734, session 60; corpus/findings/fuzz-h200-6005/trace/T60E.md, variants in
//! trace/08ac0734/s60/).

use super::*;

const D: Deviation = Deviation::S8RoundTripThrough64SignExtends32;

/// The byte of word 0 through the round trip into %h1, the amount `amount` (a statement writing
/// %r0), `shr.<ty> %h2, %h1, <shift>` stored as a half.
fn shift(amount: &'static str, ty: &str, by: &str) -> Vec<String> {
    [
        "ld.global.b8 %h0, [%in];".to_string(),
        "cvt.s64.s8 %d0, %h0;".into(),
        "cvt.s8.u64 %h1, %d0;".into(),
        amount.into(),
        format!("shr.{ty} %h2, %h1, {by};"),
        "st.global.b16 [%out], %h2;".into(),
    ]
    .to_vec()
}

const LOADED: &str = "ld.global.s32 %r0, [%in+4];";

/// The stored case: 0xb8 by a loaded 16 is 0xffff in both halves (13.0.88 -O3 `SEL R6, R6, 0xffff;
/// SHF.R.U32.HI R0, RZ, R0, R9` of `PRMT R9, R0, 0x8880`), the spec 0 (§9.7.8.8 clamps to 16).
#[test]
fn n4_6005_stored_case_shifts_the_extension_by_a_loaded_16() {
    let (p, i) = super::stored_case("6005", "08ac0734a3f0987c");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0, 0xFFFF_FFFF), "thread {t} word {w}");
    }
}

/// A loaded amount in 16..31 shifts the 32-bit extension (`b16` and `u16`: s60/v01 the same
/// listing); from 32 on SHF clamps to the spec's 0; a non-negative byte has no ones to bring in.
#[test]
fn n4_6005_a_loaded_amount_from_16_to_31_shifts_the_extension() {
    for ty in ["b16", "u16"] {
        let lines = shift(LOADED, ty, "%r0");
        exact_case(&strs(&lines), [0xb8, 16, 0, 0], D, 0, 0xFFFF);
        exact_case(&strs(&lines), [0xb8, 20, 0, 0], D, 0, 0x0FFF);
        exact_case(&strs(&lines), [0x80, 31, 0, 0], D, 0, 0x1);
        untouched(&strs(&lines), [0xb8, 32, 0, 0], D);
        untouched(&strs(&lines), [0xb8, 0x1_0010, 0, 0], D);
        untouched(&strs(&lines), [0x52, 16, 0, 0], D);
    }
    // An `ld.u8` amount (s60/v09) alike.
    exact_case(&strs(&shift("ld.global.u8 %r0, [%in+4];", "b16", "%r0")), [0xb8, 16, 0, 0], D, 0, 0xFFFF);
}

/// An amount ≥ 16 ptxas knows is folded by the 16-bit rule to 0 (s60/v02-v05: `STG.E [R2], RZ`):
/// the immediates 16 and 20, the moved 16 and 31.
#[test]
fn n4_6005_a_known_amount_from_16_is_folded_right() {
    untouched(&strs(&shift(LOADED, "b16", "16")), [0xb8, 16, 0, 0], D);
    untouched(&strs(&shift(LOADED, "b16", "20")), [0xb8, 16, 0, 0], D);
    untouched(&strs(&shift("mov.u32 %r0, 16;", "b16", "%r0")), [0xb8, 0, 0, 0], D);
    untouched(&strs(&shift("mov.u32 %r0, 31;", "b16", "%r0")), [0xb8, 0, 0, 0], D);
}

/// The trace's variants on the stored inputs: v01 and v09 wrong (0xffffffff), v02-v05 (known
/// amounts), v06 (through .s32), v07 (`shr.s16`), v10 (through .s16) right.
#[test]
fn n4_6005_trace_variants() {
    for name in ["v01_shr_u16_loaded", "v09_amount_ldu8"] {
        let (p, i) = variant_of("6005", "08ac0734", &format!("s60/{name}"), &[]);
        for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
            assert_eq!((s.bits, e.bits), (0, 0xFFFF_FFFF), "{name}: thread {t} word {w}");
        }
    }
    for name in
        ["v02_imm16", "v03_imm20", "v04_moved16", "v05_moved31", "v06_through_s32", "v07_shr_s16", "v10_through_s16"]
    {
        let (p, i) = variant_of("6005", "08ac0734", &format!("s60/{name}"), &[]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
