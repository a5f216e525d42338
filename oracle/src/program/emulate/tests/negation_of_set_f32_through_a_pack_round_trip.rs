//! Tests of 3602-N2 widened after seed 4703's a0f3d153 (corpus/findings/fuzz-h200-4703/trace/
//! T18u4.md; variants in trace/a0f3d153/): `neg.s32` of a `set.*.f32` through a `mov.b64` pack
//! and unpack (`emulate/negation_of_set_f32_through_a_pack_round_trip.rs`).

use super::*;

const D: Deviation = Deviation::NegOfSetF32HalvesReadAsBoolean;

/// a0f3d153's `reduced.ptx` (both words loaded, the set packed as word `word` of d0 and
/// unpacked into `%r0`; `set` the set), then the xor of the negation's halves stored.
fn reduced(set: &'static str, word: usize) -> Vec<&'static str> {
    let (pack, unpack) = if word == 1 {
        ("mov.b64 %d0, {%r1, %r4};", "mov.b64 {%r2, %r0}, %d0;")
    } else {
        ("mov.b64 %d0, {%r4, %r1};", "mov.b64 {%r0, %r2}, %d0;")
    };
    vec![
        "ld.global.u32 %r3, [%in];",
        "ld.global.u32 %r0, [%in+4];",
        "ld.global.u32 %r1, [%in+8];",
        set,
        pack,
        unpack,
        "neg.s32 %r5, %r0;",
        "mov.b32 {%h19, %h20}, %r5;",
        "xor.b16 %h21, %h19, %h20;",
        "st.global.u16 [%out], %h21;",
    ]
}

const SET_F32: &str = "set.ne.f32.u32 %r4, %r3, %r0;";

/// a0f3d153's stored case (32 threads): emulating N2 gives the stored -O3/JIT word 1 (byte 5
/// 0x00 where the spec has 0x80, threads 0–7); every other word is the spec's.
#[test]
fn n2_a0f3d153_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4703", "a0f3d153265ac0e3");
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 && s.bits != e.bits {
            assert_eq!((s.bits >> 8 & 0xff, e.bits >> 8 & 0xff), (0x80, 0), "thread {t} word {w}");
            assert_eq!(s.bits & !0xff00, e.bits & !0xff00, "thread {t} word {w}");
            changed += 1;
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
    assert!(changed > 0);
}

/// `reduced.ptx` (the set the pack's high word) and `v3_pack_low_word`: `STG … RZ` (13.0.88
/// and 13.5 -O3), the xor of the boolean's equal halves, 0 where the spec has 0xc080.
#[test]
fn n2_neg_of_a_set_f32_through_a_pack_round_trip_is_its_boolean() {
    exact_case(&reduced(SET_F32, 1), [1, 0, 0, 0], D, 0xc080, 0);
    exact_case(&reduced(SET_F32, 0), [1, 0, 0, 0], D, 0xc080, 0);
}

/// Right (`v5_int_set_right`: an integer set), and the unpack of the pack's other word (not
/// the set's) left alone.
#[test]
fn n2_an_integer_set_or_the_other_word_through_the_pack_is_left_alone() {
    untouched(&reduced("set.ne.u32.u32 %r4, %r3, %r0;", 1), [1, 0, 0, 0], D);
    let mut other = reduced(SET_F32, 1);
    other[5] = "mov.b64 {%r0, %r2}, %d0;";
    untouched(&other, [1, 0, 0x1234_5678, 0], D);
}
