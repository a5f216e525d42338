//! 3702-N3 with the arm's constant an `addc`/`subc` of constants whose carry-in is 0
//! (`emulate/carry_reader_of_constants_with_zero_carry_in.rs`; seed 5101's 204fad1e,
//! corpus/findings/fuzz-h200-5101/trace/T22a.md, variants in trace/204fad1e/s51/).

use super::*;

/// A one-armed `if` run for input word 0 = 11 (the arm taken), `old` before the branch and
/// `arm` in it, storing `%r3`.
fn one_armed_if<'a>(old: &[&'a str], arm: &[&'a str]) -> Vec<&'a str> {
    let mut lines = vec!["ld.global.u32 %r9, [%in];"];
    lines.extend_from_slice(old);
    lines.extend_from_slice(&["setp.ne.s32 %p2, %r9, 11;", "@%p2 bra $L1;"]);
    lines.extend_from_slice(arm);
    lines.extend_from_slice(&["$L1:", "st.global.u32 [%out], %r3;"]);
    lines
}

/// The stored case: lanes 0..18 run the arm (`sub.cc` of a moved 1.0f and a moved 0xe1ebff7e
/// borrows, `subc r0, r0, r0` = −1); 13.0.88 -O3 stores the old 1.0f on every lane
/// (`HFMA2.MMA R7, -RZ, RZ, 1.875, 0; STG`), the GPU's 0x3f800000.
#[test]
fn the_stored_204fad1e_case_is_the_gpus() {
    let (p, i) = stored_case("5101", "204fad1e3a303b76");
    let words = words_emulated_alone(&p, &i, Deviation::JoinOfMinusOneAndOneF32Merged);
    let mut changed = 0;
    for (t, w, s, e) in words {
        if w != 0 {
            continue;
        }
        assert_eq!(e.bits as u32, 0x3F80_0000, "thread {t}");
        if t <= 18 {
            assert_eq!(s.bits as u32, 0xFFFF_FFFF, "thread {t}");
            changed += 1;
        }
    }
    assert_eq!(changed, 19);
}

/// Wrong forms (13.0.88 -O3 drops the arm): `subc` after a borrowing `sub.cc` of moved constants
/// (v1_core), of an immediate (v4), of zeros (v11); `addc` after an `add.cc` that does not carry
/// (v9, 1.0f over an old −1).
#[test]
fn a_zero_carry_in_of_constants_is_merged() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let old = ["mov.b32 %r3, 1065353216;"];
    let v1 = ["mov.b32 %r2, 0xe1ebff7e;", "sub.cc.u32 %r2, %r3, %r2;", "subc.u32 %r3, %r3, %r3;"];
    exact_case(&one_armed_if(&old, &v1), [11, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    let v4 = ["sub.cc.s32 %r2, %r3, 0x7f000000;", "subc.cc.s32 %r3, %r3, %r3;"];
    exact_case(&one_armed_if(&old, &v4), [11, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    let v11 = ["mov.b32 %r4, 0;", "sub.cc.u32 %r2, %r4, 5;", "subc.u32 %r3, %r4, 0;"];
    exact_case(&one_armed_if(&old, &v11), [11, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    let minus_one = ["mov.b32 %r3, -1;"];
    let v9 = ["mov.b32 %r4, 0x3f800000;", "add.cc.u32 %r2, %r3, 0;", "addc.u32 %r3, %r4, 0;"];
    exact_case(&one_armed_if(&minus_one, &v9), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    // The arm skipped: the spec's.
    untouched(&one_armed_if(&old, &v1), [5, 0, 0, 0], d);
}

/// Right forms (13.0.88 -O3 keeps `@!P0 IADD3.X …, PT, !PT` and the compare): a carry-in of 1 —
/// `subc` with no borrow (v10: −1 − 0 − 0), `addc` with a carry (v12: −1 + −1 + 1) — and the
/// carry of a loaded value (v3).
#[test]
fn a_carry_in_of_one_or_of_a_loaded_value_is_left() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let old = ["mov.b32 %r3, 1065353216;"];
    let v10 = ["mov.b32 %r4, -1;", "sub.cc.u32 %r2, %r3, 5;", "subc.u32 %r3, %r4, 0;"];
    untouched(&one_armed_if(&old, &v10), [11, 0, 0, 0], d);
    let v12 = ["mov.b32 %r4, -1;", "add.cc.u32 %r2, %r4, 1;", "addc.u32 %r3, %r4, -1;"];
    untouched(&one_armed_if(&old, &v12), [11, 0, 0, 0], d);
    let v3 = ["ld.global.u32 %r2, [%in+4];", "sub.cc.s32 %r2, %r3, %r2;", "subc.cc.s32 %r3, %r3, %r3;"];
    untouched(&one_armed_if(&old, &v3), [11, 0xe1eb_ff7e, 0, 0], d);
}
