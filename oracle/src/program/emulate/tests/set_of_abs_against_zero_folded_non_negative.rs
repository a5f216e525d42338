//! Tests of F's `set` of an overflowed `abs` against 0 (seed 5002's f46efbdc;
//! `emulate/set_of_abs_against_zero_folded_non_negative.rs`, variants in
//! corpus/findings/fuzz-h200-5002/trace/f46efbdc/s50/).

use super::*;

const D: Deviation = Deviation::NegationOverflow;

/// `ld x; abs.{s32,s64}; <set>; st [%out]`: x = −2^31 (word 0), or −2^63 (words 0–1) for 64 bits.
fn abs_set(set: &'static str) -> Vec<&'static str> {
    vec!["ld.global.u32 %r1, [%in];", "abs.s32 %r1, %r1;", "mov.b32 %r5, 0;", set, "st.global.u32 [%out], %r8;"]
}

const MIN: [u32; 4] = [0x8000_0000, 0, 0, 0];

/// The stored case: both words 0x3f800000 (`HFMA2.MMA R4 …, 1.875, 0; MOV R5, 0x3f800000`), the
/// spec's 0.0f (0 ≤ −2^31 false), in every thread.
#[test]
fn f46efbdc_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5002", "f46efbdc86d9bcb2");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0, 0x3f80_0000), "thread {t} word {w}");
    }
}

/// Wrong (13.0.88 -O3 folds the compare): `set.le.f32` 0 first with a moved 0 (`v1`), `set.ge.u32`
/// (`v2`), `set.lt.s32` (`v3`), `set.gt.s32` 0 first (`v9`), `abs.s64` (`v11`).
#[test]
fn f46efbdc_orders_non_negativity_decides_are_folded() {
    let moved = [
        "ld.global.u32 %r1, [%in];",
        "abs.s32 %r1, %r1;",
        "mov.b32 %r5, 0;",
        "set.le.f32.s32 %r8, %r5, %r1;",
        "st.global.u32 [%out], %r8;",
    ];
    exact_case(&moved, MIN, D, 0, 0x3f80_0000);
    exact_case(&abs_set("set.ge.u32.s32 %r8, %r1, 0;"), MIN, D, 0, 0xffff_ffff);
    exact_case(&abs_set("set.lt.s32.s32 %r8, %r1, 0;"), MIN, D, 0xffff_ffff, 0);
    exact_case(&abs_set("set.gt.s32.s32 %r8, %r5, %r1;"), MIN, D, 0xffff_ffff, 0);
    let wide =
        ["ld.global.u64 %d1, [%in];", "abs.s64 %d1, %d1;", "set.ge.u32.s64 %r8, %d1, 0;", "st.global.u32 [%out], %r8;"];
    exact_case(&wide, [0, 0x8000_0000, 0, 0], D, 0, 0xffff_ffff);
}

/// Right (13.0.88 -O3 keeps `IABS; ISETP`): `gt`/`le` with the abs first (`v4`, `v10`), `eq`
/// (`v5`), another bound (`v6`), `neg.s32` (`v7`), an unsigned compare (`v8`); and any x but
/// the minimum (abs is then non-negative).
#[test]
fn f46efbdc_other_orders_bounds_and_producers_are_left_alone() {
    for set in [
        "set.gt.f32.s32 %r8, %r1, 0;",
        "set.le.f32.s32 %r8, %r1, 0;",
        "set.eq.f32.s32 %r8, %r1, 0;",
        "set.le.f32.s32 %r8, %r1, 5;",
        "set.ge.u32.u32 %r8, %r1, 0x80000000;",
    ] {
        untouched(&abs_set(set), MIN, D);
    }
    let neg = [
        "ld.global.u32 %r1, [%in];",
        "neg.s32 %r1, %r1;",
        "mov.b32 %r5, 0;",
        "set.le.f32.s32 %r8, %r5, %r1;",
        "st.global.u32 [%out], %r8;",
    ];
    untouched(&neg, MIN, D);
    untouched(&abs_set("set.ge.u32.s32 %r8, %r1, 0;"), [0x8000_0001, 0, 0, 0], D);
}
