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

/// Seed 5703's 9823257d: `min.s64 |x|, 0` of x = −2^63, the high word stored — the spec's
/// 0x80000000 (−2^63 the smaller), the GPU's 0 (13.0.88 -O3 `STG.E … RZ`) in every thread.
#[test]
fn min_s64_9823257d_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5703", "9823257dab0b066d");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0x8000_0000, 0), "thread {t} word {w}");
    }
}

/// `ld x (64 bits); abs.s64; <min>; st` of the 64-bit word in %d2.
fn abs_min(min: &[&'static str]) -> Vec<&'static str> {
    let mut l = vec!["ld.global.u64 %d1, [%in];", "abs.s64 %d1, %d1;"];
    l.extend(min);
    l.push("st.global.u64 [%out], %d2;");
    l
}

const MIN64: [u32; 4] = [0, 0x8000_0000, 0, 0];

/// Wrong (13.0.88 -O3 `STG … RZ`; trace/9823257d/s57/): `min.s64 |x|, 0` with an immediate 0
/// (the case, `v1` a plain load, `v2` the 64-bit word), the 0 first (`v3`, a moved 0 here: glue
/// takes no immediate first operand), a moved 0 (`v4`).
#[test]
fn min_s64_9823257d_min_of_an_overflowed_abs_and_zero_is_folded_to_zero() {
    let min = 0x8000_0000_0000_0000;
    exact_case(&abs_min(&["min.s64 %d2, %d1, 0;"]), MIN64, D, min, 0);
    exact_case(&abs_min(&["mov.u64 %d3, 0;", "min.s64 %d2, %d3, %d1;"]), MIN64, D, min, 0);
    exact_case(&abs_min(&["mov.u64 %d3, 0;", "min.s64 %d2, %d1, %d3;"]), MIN64, D, min, 0);
}

/// Right (13.0.88 -O3 keeps the compare and `SEL`): a loaded 0 (`v5`), bounds 5 and −1 (`v6`,
/// `v7`), `max.s64` by 0 (`v8`), `min.s32` (`v10`: `VIMNMX`), `min.u64` (`v11`), no abs (`v12`),
/// `neg.s64` (`v13`); and any x but the minimum.
#[test]
fn min_s64_9823257d_other_bounds_types_and_producers_are_left_alone() {
    untouched(&abs_min(&["ld.global.u64 %d3, [%in+8];", "min.s64 %d2, %d1, %d3;"]), MIN64, D);
    for min in ["min.s64 %d2, %d1, 5;", "min.s64 %d2, %d1, -1;", "max.s64 %d2, %d1, 0;", "min.u64 %d2, %d1, 0;"] {
        untouched(&abs_min(&[min]), MIN64, D);
    }
    let s32 = ["ld.global.u32 %r1, [%in];", "abs.s32 %r1, %r1;", "min.s32 %r2, %r1, 0;", "st.global.u32 [%out], %r2;"];
    untouched(&s32, MIN, D);
    untouched(&["ld.global.u64 %d1, [%in];", "min.s64 %d2, %d1, 0;", "st.global.u64 [%out], %d2;"], MIN64, D);
    let neg = ["ld.global.u64 %d1, [%in];", "neg.s64 %d1, %d1;", "min.s64 %d2, %d1, 0;", "st.global.u64 [%out], %d2;"];
    untouched(&neg, MIN64, D);
    untouched(&abs_min(&["min.s64 %d2, %d1, 0;"]), [1, 0x8000_0000, 0, 0], D);
}
