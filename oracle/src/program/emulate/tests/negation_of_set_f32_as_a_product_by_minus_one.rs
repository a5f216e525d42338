//! Tests of 3602-N2 widened after seed 5802's 4267da28 (corpus/findings/fuzz-h200-5801/trace/
//! T58E.md; variants in corpus/findings/fuzz-h200-5802/trace/4267da28/s58/): the set's negation a
//! `mul.lo` by −1 (`emulate/negation_of_set_f32_as_a_product_by_minus_one.rs`).

use super::*;

const D: Deviation = Deviation::NegOfSetF32HalvesReadAsBoolean;

/// `v1_no_loop` reduced to one thread: `minus_one` writes %r5 (or nothing), `mul` the product
/// %r7 of the set %r3 (1.0f for the words [5, 1, …]); the xor of its halves stored.
fn product(minus_one: &'static str, mul: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r1, [%in+4];",
        minus_one,
        "set.lt.f32.u32 %r3, %r1, %r0;",
        mul,
        "mov.b32 {%h1, %h2}, %r7;",
        "xor.b16 %h3, %h1, %h2;",
        "st.global.u16 [%out], %h3;",
    ]
}

/// The stored case (32 threads): emulating N2 gives the stored -O3/JIT word 0 (byte 3 0x00 where
/// the spec has 0x80, the loop's last product); every other word is the spec's.
#[test]
fn n2_4267da28_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5802", "4267da28df052fcf");
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 0 && s.bits != e.bits {
            assert_eq!((s.bits, e.bits), (0x8000_0000, 0), "thread {t} word {w}");
            changed += 1;
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
    assert_eq!(changed, 32);
}

/// `v1_no_loop` (`mov.b32 r5, -1; mul.lo.u32 r7, r5, r3`) and `v6_mul_s32_imm` (`mul.lo.s32 r7,
/// r3, -1`): `STG … RZ` (13.0.88 and 13.5 -O3), 0 where the spec has 0xc080.
#[test]
fn n2_a_set_f32_times_minus_one_is_its_negated_boolean() {
    let moved = "mov.b32 %r5, 4294967295;";
    exact_case(&product(moved, "mul.lo.u32 %r7, %r5, %r3;"), [5, 1, 0, 0], D, 0xc080, 0);
    exact_case(&product(moved, "mul.lo.s32 %r7, %r3, %r5;"), [5, 1, 0, 0], D, 0xc080, 0);
    exact_case(&product("mov.b32 %r6, 0;", "mul.lo.s32 %r7, %r3, -1;"), [5, 1, 0, 0], D, 0xc080, 0);
}

/// Right: a loaded −1 (`v3_mul_by_loaded_m1`), −2 (`v5_mul_by_m2`), an integer set.
#[test]
fn n2_a_loaded_minus_one_another_factor_or_an_integer_set_is_left_alone() {
    let loaded = product("ld.global.u32 %r5, [%in+8];", "mul.lo.u32 %r7, %r5, %r3;");
    untouched(&loaded, [5, 1, 0xFFFF_FFFF, 0], D);
    untouched(&product("mov.b32 %r5, 4294967294;", "mul.lo.u32 %r7, %r5, %r3;"), [5, 1, 0, 0], D);
    let mut int_set = product("mov.b32 %r5, 4294967295;", "mul.lo.u32 %r7, %r5, %r3;");
    int_set[3] = "set.lt.u32.u32 %r3, %r1, %r0;";
    untouched(&int_set, [5, 1, 0, 0], D);
}
