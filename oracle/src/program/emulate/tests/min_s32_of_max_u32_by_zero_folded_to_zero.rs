//! Tests of c80aa912's emulation (`emulate/min_s32_of_max_u32_by_zero_folded_to_zero.rs`):
//! `min.{s32,s64}` of `max.{u32,u64}(x, 0)` and 0 folded to 0 (corpus/findings/fuzz-h200-4703/
//! trace/c80aa912/ and its `s48/`, 13.0.88 -O3 listings): the wrong forms emulated, the right
//! neighbours left alone.

use super::*;

const D: Deviation = Deviation::MinS32OfMaxU32ByZeroFoldedToZero;

/// `ld x; max; min; st [%out]` with the given max and min lines (x in %r2, the min in %r3).
fn loaded(max: &'static str, min: &'static str) -> Vec<&'static str> {
    vec!["ld.global.u32 %r2, [%in];", max, min, "st.global.u32 [%out], %r3;"]
}

/// The campaign's case: emulating c80aa912 alone gives the stored ptxas -O3 and JIT word 1 of
/// thread 0, 0 (`STG.E.STRONG.GPU [+0x4], RZ`; the spec's min.s32(0xffffffff, 0) = 0xffffffff),
/// and the spec's words elsewhere.
#[test]
fn c80aa912_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4703", "c80aa91287a5c90c");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if (t, w) == (0, 1) {
            assert_eq!((s.bits, e.bits), (0xffff_ffff, 0), "thread 0 word 1");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// Wrong alike (13.0.88 -O3 `STG … RZ`): x loaded with immediate 0s (`v10_loaded_max_u32_imm0`),
/// moved 0s (`v9_loaded_max_u32_moved0`), the operands swapped (`v22`), a copy of y between
/// (`s48/c6_copy_between`), a branch and a join between (`s48/c9_min_s32_moved_zero_branch`),
/// and the 64-bit form (`s48/c2_max_u64_min_s64`).
#[test]
fn c80aa912_min_s32_of_max_u32_by_zero_and_zero_is_folded_to_zero() {
    let words = [0x8000_0000, 3, 0, 0];
    exact_case(&loaded("max.u32 %r1, %r2, 0;", "min.s32 %r3, %r1, 0;"), words, D, 0x8000_0000, 0);
    // The min's moved 0 first (glue takes no immediate first operand; `v22` swaps immediates).
    let swapped = [
        "ld.global.u32 %r2, [%in];",
        "mov.b32 %r0, 0;",
        "max.u32 %r1, %r2, 0;",
        "min.s32 %r3, %r0, %r1;",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&swapped, words, D, 0x8000_0000, 0);
    let moved = [
        "ld.global.u32 %r2, [%in];",
        "mov.b32 %r1, 0;",
        "max.u32 %r1, %r1, %r2;",
        "mov.b32 %r3, 0;",
        "min.s32 %r3, %r3, %r1;",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&moved, words, D, 0x8000_0000, 0);
    let copy = [
        "ld.global.u32 %r2, [%in];",
        "max.u32 %r1, %r2, 0;",
        "mov.b32 %r0, %r1;",
        "min.s32 %r3, %r0, 0;",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&copy, [0xffff_fff0, 3, 0, 0], D, 0xffff_fff0, 0);
    let branch = [
        "ld.global.u32 %r2, [%in];",
        "max.u32 %r1, %r2, 0;",
        "ld.global.u32 %r0, [%in+4];",
        "setp.eq.u32 %p1, %r0, 3;",
        "@%p1 bra $L1;",
        "st.global.u32 [%out+4], %r0;",
        "$L1:",
        "min.s32 %r3, %r1, 0;",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&branch, words, D, 0x8000_0000, 0);
    let wide =
        ["ld.global.u64 %d1, [%in];", "max.u64 %d2, %d1, 0;", "min.s64 %d3, %d2, 0;", "st.global.u64 [%out], %d3;"];
    exact_case(&wide, [5, 0x8000_0000, 0, 0], D, 0x8000_0000_0000_0005, 0);
    // x without its sign bit: min(x, 0) = 0 already; nothing fires.
    untouched(&loaded("max.u32 %r1, %r2, 0;", "min.s32 %r3, %r1, 0;"), [0x7fff_ffff, 0, 0, 0], D);
}

/// Right (the spec stands; 13.0.88 -O3 keeps `VIMNMX.U32; VIMNMX` or folds right): other
/// bounds (`v13` max by 1, `v17` min by 5, `s48/c4`, `c5` min by −1, −5), another reader after
/// the max (`s48/c10` max.s32, `v20` min.u32), a max by a loaded 0 (`s48/c8`), a guarded max
/// (`s48/c12`), an x ptxas knows (`s48/c1_const_x`), the 16-bit form (`s48/c3`).
#[test]
fn c80aa912_other_bounds_readers_and_sources_are_left_alone() {
    let words = [0x8000_0000, 0, 0, 0];
    for (max, min) in [
        ("max.u32 %r1, %r2, 1;", "min.s32 %r3, %r1, 0;"),
        ("max.u32 %r1, %r2, 0;", "min.s32 %r3, %r1, 5;"),
        ("max.u32 %r1, %r2, 0;", "min.s32 %r3, %r1, -1;"),
        ("max.u32 %r1, %r2, 0;", "min.s32 %r3, %r1, -5;"),
        ("max.u32 %r1, %r2, 0;", "max.s32 %r3, %r1, -1;"),
        ("max.u32 %r1, %r2, 0;", "min.u32 %r3, %r1, 0;"),
        ("max.s32 %r1, %r2, 0;", "min.s32 %r3, %r1, 0;"),
    ] {
        untouched(&loaded(max, min), words, D);
    }
    let loaded_zero = [
        "ld.global.u32 %r2, [%in];",
        "ld.global.u32 %r0, [%in+4];",
        "max.u32 %r1, %r2, %r0;",
        "min.s32 %r3, %r1, 0;",
        "st.global.u32 [%out], %r3;",
    ];
    untouched(&loaded_zero, words, D);
    let guarded_max = [
        "ld.global.u32 %r2, [%in];",
        "ld.global.u32 %r1, [%in+4];",
        "setp.ne.u32 %p1, %r1, 7;",
        "@%p1 max.u32 %r1, %r2, 0;",
        "min.s32 %r3, %r1, 0;",
        "st.global.u32 [%out], %r3;",
    ];
    untouched(&guarded_max, words, D);
    let const_x =
        ["mov.b32 %r2, 0x80000000;", "max.u32 %r1, %r2, 0;", "min.s32 %r3, %r1, 0;", "st.global.u32 [%out], %r3;"];
    untouched(&const_x, words, D);
    let half =
        ["ld.global.u16 %h1, [%in];", "max.u16 %h2, %h1, 0;", "min.s16 %h3, %h2, 0;", "st.global.u16 [%out], %h3;"];
    untouched(&half, [0x8000, 0, 0, 0], D);
}
