//! Tests of 7ec10586's mechanism as a value (helper e1, `emulate/xor16_of_set_mask_halves_as_predicate.rs`): `xor.b16`
//! of the xor of a set mask's two halves, which ptxas 13.0.88 and 13.5 -O3 test as a 32-bit
//! predicate over a half merge with a stale or never-written upper half (corpus/findings/
//! fuzz-h200-4101/trace/T8x1.md "1e6e819c", fuzz-h200-4102/trace/T9y2.md "24d5ace8",
//! fuzz-h200-3901/trace/T6C.md "7ec10586"). One test per traced variant: the wrong ones admit
//! the spec's word and the GPU's (the xor complemented), the right ones are untouched. Input and
//! output offsets are the traced kernels' moved into the test program's four input and two
//! output words.

use super::*;

const D: Deviation = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;

/// Checks that emulating [`D`] admits the spec's exact output `spec` and `bug` (the xor
/// complemented) but not `other`, that it fires, and that no other emulation changes `lines`.
fn either(lines: &[&str], words: [u32; 4], spec: u64, bug: u64, other: u64) {
    let (s, e, fired) = both(lines, words, D);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert!(e.matches(spec.into()) && e.matches(bug.into()), "{e} of {lines:?}");
    assert!(!e.matches(other.into()), "{e} admits {other:#x} of {lines:?}");
    assert_eq!(fired, vec![D]);
    for o in Deviation::ALL.into_iter().filter(|&o| o != D) {
        let (_, e, fired) = both(lines, words, o);
        assert_eq!((e.bits as u64, fired.as_slice()), (spec, &[][..]), "{o:?} of {lines:?}");
    }
}

/// 1e6e819c's `reduced.ptx` with the set `set_op` and the halves xor-ed by `first` and `second`,
/// the result stored by `store`, `other` reading the set's word as well.
fn set_mask_of_two_copies(set_op: &str, first: &str, second: &str, store: &str, other: &str) -> Vec<String> {
    [
        "mov.b64 %d1, 0;",
        "ld.global.s64 %d2, [%in];",
        set_op,
        "mov.b64 %d5, {%r0, %r0};",
        "mov.b64 {%h2, %h3, %h4, %h5}, %d5;",
        first,
        second,
        store,
        other,
    ]
    .iter()
    .filter(|l| !l.is_empty())
    .map(|l| l.to_string())
    .collect()
}

const SET_NE_U32: &str = "set.ne.u32.s64 %r0, %d1, %d2;";
const XOR_HALVES: &str = "xor.b16 %h6, %h3, %h4;";
const XOR_WITH_H5: &str = "xor.b16 %h7, %h6, %h5;";
const STORE_H7: &str = "st.global.u8 [%out], %h7;";
const STORE_H2: &str = "st.global.u8 [%out+3], %h2;";

/// 1e6e819c (T8x1, `reduced.ptx`): d2 = 1 makes the mask −1, h7 = h5 = 0xffff (byte 0xff), the
/// GPU's byte 0 (R0.hi ≠ 0xffff on that launch: P0 true, `~R0`); byte 3 (h2) stays.
#[test]
fn e1_1e6e819c_reduced_stores_the_xor_or_its_complement() {
    let lines = set_mask_of_two_copies(SET_NE_U32, XOR_HALVES, XOR_WITH_H5, STORE_H7, STORE_H2);
    either(&strs(&lines), [1, 0, 0, 0], 0xff00_00ff, 0xff00_0000, 0x0000_00ff);
    // A zero mask: 0 or 0xff.
    either(&strs(&lines), [0; 4], 0, 0xff, 0xff00_0000);
}

/// 1e6e819c `var/v4_set_s32`: `set.ne.s32.s64`, the same listing.
#[test]
fn e1_1e6e819c_v4_a_set_s32_is_the_same() {
    let lines = set_mask_of_two_copies("set.ne.s32.s64 %r0, %d1, %d2;", XOR_HALVES, XOR_WITH_H5, STORE_H7, STORE_H2);
    either(&strs(&lines), [1, 0, 0, 0], 0xff00_00ff, 0xff00_0000, 0x0000_00ff);
}

/// 1e6e819c `var/v6_st16`: the other reader a 16-bit store of h2.
#[test]
fn e1_1e6e819c_v6_a_16_bit_second_store_is_the_same() {
    let lines = set_mask_of_two_copies(SET_NE_U32, XOR_HALVES, XOR_WITH_H5, STORE_H7, "st.global.u16 [%out+2], %h2;");
    either(&strs(&lines), [1, 0, 0, 0], 0xffff_00ff, 0xffff_0000, 0x0000_00ff);
}

/// 1e6e819c `var/v5_and`: `and.b16` of the halves first (`LOP3 P0 … 0xc0`: the unwritten half is
/// and-ed with the mask's high half): right.
#[test]
fn e1_1e6e819c_v5_and_first_is_right() {
    let lines = set_mask_of_two_copies(SET_NE_U32, "and.b16 %h6, %h3, %h4;", XOR_WITH_H5, STORE_H7, STORE_H2);
    untouched(&strs(&lines), [1, 0, 0, 0], D);
    untouched(&strs(&lines), [0; 4], D);
}

/// 1e6e819c `var/v3_one_xor`: the halves' xor stored (`LOP3.LUT R9 … 0x3c`, no predicate): right.
#[test]
fn e1_1e6e819c_v3_one_xor_is_right() {
    let lines = set_mask_of_two_copies(SET_NE_U32, "xor.b16 %h7, %h3, %h4;", "", STORE_H7, STORE_H2);
    untouched(&strs(&lines), [1, 0, 0, 0], D);
}

/// 1e6e819c `var/v2_loaded_word`: a loaded word in place of the set: right.
#[test]
fn e1_1e6e819c_v2_a_loaded_word_is_right() {
    let lines = set_mask_of_two_copies("ld.global.u32 %r0, [%in+8];", XOR_HALVES, XOR_WITH_H5, STORE_H7, STORE_H2);
    untouched(&strs(&lines), [1, 0, 0x1234_ffff, 0], D);
}

/// 1e6e819c `var/v1_no_second_store`: no other reader of the word (all folded to the `SEL`): right.
#[test]
fn e1_1e6e819c_v1_no_other_reader_is_right() {
    let lines = set_mask_of_two_copies(SET_NE_U32, XOR_HALVES, XOR_WITH_H5, STORE_H7, "");
    untouched(&strs(&lines), [1, 0, 0, 0], D);
}

/// This helper's variant of 1e6e819c (13.0.88 -O3; in 24d5ace8's form `var/e1_same_half_twice_right`):
/// the same half twice (`xor.b16 %h6, %h2,
/// %h4`, both low halves; ptxas stores x): right.
#[test]
fn e1_the_same_half_twice_is_right() {
    let lines =
        set_mask_of_two_copies(SET_NE_U32, "xor.b16 %h6, %h2, %h4;", "xor.b16 %h7, %h6, %h5;", STORE_H7, STORE_H2);
    untouched(&strs(&lines), [1, 0, 0, 0], D);
}

/// 24d5ace8's `reduced.ptx` with the lines after the set's pack replaced by `rest` (r13 at
/// [%in], r5 at [%in+4], r1 at [%in+8]).
fn set_beside_loaded(set_op: &str, rest: &[&str]) -> Vec<String> {
    let head = [
        "ld.global.u32 %r13, [%in];",
        set_op,
        "ld.global.u32 %r5, [%in+4];",
        "mov.b64 %d5, {%r15, %r5};",
        "mov.b64 {%h26, %h27, %h28, %h29}, %d5;",
    ];
    head.iter().chain(rest).map(|l| l.to_string()).collect()
}

const SET_EQ: &str = "set.eq.s32.u32 %r15, %tix, %r13;";
const XOR_26_27: &str = "xor.b16 %h30, %h26, %h27;";
const XOR_WITH_28: &str = "xor.b16 %h31, %h30, %h28;";
const STORE_31: &str = "st.global.b8 [%out+2], %h31;";
const UNPACK_AGAIN: [&str; 2] = ["mov.b32 {%h6, %h7}, %r15;", "st.global.v2.b8 [%out+4], {%h6, %h7};"];

/// 24d5ace8 (T9y2, `reduced.ptx`): thread 0 with r13 = 5 (the mask 0), r5 = 0x1a and r1 =
/// 0x4c003678: the spec's word 0x4c1a3678, the GPU's 0x4ce53678 (R11.hi, the tid register's,
/// ≠ 0: P0 true, byte 2 complemented).
#[test]
fn e1_24d5ace8_reduced_stores_the_xor_or_its_complement() {
    let mut lines = vec!["ld.global.u32 %r1, [%in+8];".to_string(), "st.global.b32 [%out], %r1;".to_string()];
    lines.extend(set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, STORE_31, UNPACK_AGAIN[0], UNPACK_AGAIN[1]]));
    either(&strs(&lines), [5, 0x1a, 0x4c00_3678, 0], 0x4c1a_3678, 0x4ce5_3678, 0x4c1a_3679);
    // The mask −1 (tid 0 = r13): `~r5.b0` predicted from the listing (T9y2).
    either(&strs(&lines), [0, 0x1a, 0x4c00_3678, 0], 0xffff_4c1a_3678, 0xffff_4ce5_3678, 0x4c1a_3678);
}

/// 24d5ace8 `var/r1_v2b8` (= `s3`): without the ld/st of r1 (the merge base never written).
#[test]
fn e1_24d5ace8_r1_without_the_first_store_is_the_same() {
    let lines = set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, STORE_31, UNPACK_AGAIN[0], UNPACK_AGAIN[1]]);
    either(&strs(&lines), [5, 0x1a, 0, 0], 0x1a_0000, 0xe5_0000, 0x1a_0001);
}

/// 24d5ace8 `var/v3_st16`: a 16-bit store of the xor: exactly the two values.
#[test]
fn e1_24d5ace8_v3_a_16_bit_store_admits_exactly_the_complement() {
    let st16 = "st.global.b16 [%out+2], %h31;";
    let lines = set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, st16, UNPACK_AGAIN[0], UNPACK_AGAIN[1]]);
    either(&strs(&lines), [5, 0x4c1a, 0, 0], 0x4c1a_0000, 0xb3e5_0000, 0x4ce5_0000);
}

/// 24d5ace8 `var/v4_hi_stored_b16`: the other reader a 16-bit store of the high half h27.
#[test]
fn e1_24d5ace8_v4_the_high_half_stored_is_the_same() {
    let lines = set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, STORE_31, "st.global.b16 [%out+4], %h27;"]);
    either(&strs(&lines), [5, 0x1a, 0, 0], 0x1a_0000, 0xe5_0000, 0x1a_0001);
}

/// 24d5ace8 `var/v1_b32_unpack`: the set split by `mov.b32` (7ec10586's never-written form),
/// x a 16-bit load, the halves stored as the other reader.
#[test]
fn e1_24d5ace8_v1_a_b32_unpack_is_the_same() {
    let lines = [
        "ld.global.u32 %r13, [%in];",
        SET_EQ,
        "ld.global.u16 %h28, [%in+4];",
        "mov.b32 {%h26, %h27}, %r15;",
        XOR_26_27,
        XOR_WITH_28,
        STORE_31,
        "st.global.v2.b8 [%out+4], {%h26, %h27};",
    ];
    either(&lines, [5, 0x1a, 0, 0], 0x1a_0000, 0xe5_0000, 0x1a_0001);
}

/// The orig's chain (24d5ace8 `orig.ptx`: `h31 ^ h29 ^ …` after the pair): the later xors read a
/// value of two; the stored byte admits the GPU's.
#[test]
fn e1_24d5ace8_a_longer_chain_keeps_the_complement() {
    let chain = "xor.b16 %h32, %h31, %h29;";
    let store = "st.global.b8 [%out+2], %h32;";
    let lines = set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, chain, store, UNPACK_AGAIN[0], UNPACK_AGAIN[1]]);
    let (s, e, fired) = both(&strs(&lines), [5, 0x0007_001a, 0, 0], D);
    assert_eq!((s.bits, s.is_exact()), (0x1d_0000, true));
    assert!(e.matches(0x1d_0000) && e.matches(0xe2_0000) && !e.matches(0x1d_0001), "{e}");
    assert_eq!(fired, vec![D]);
}

/// 24d5ace8 `var/r3_no_other_reader`: nothing else reads the set (folded, `STG r5`): right.
#[test]
fn e1_24d5ace8_r3_no_other_reader_is_right() {
    let lines = set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, STORE_31]);
    untouched(&strs(&lines), [5, 0x1a, 0, 0], D);
}

/// 24d5ace8 `var/v2_loaded_not_set`: a loaded word in place of the set (`LOP3 0x96`): right.
#[test]
fn e1_24d5ace8_v2_a_loaded_word_is_right() {
    let lines = set_beside_loaded(
        "ld.global.u32 %r15, [%in+12];",
        &[XOR_26_27, XOR_WITH_28, STORE_31, UNPACK_AGAIN[0], UNPACK_AGAIN[1]],
    );
    untouched(&strs(&lines), [5, 0x1a, 0, 0x1234_ffff], D);
}

/// This helper's variants of 24d5ace8 (`var/e1_xor_x_m_swapped`, `var/e1_word_stored_whole`;
/// 13.0.88 -O3, `@P0 LOP3 ~` as in `s3`): the halves' xor
/// as the second source (`xor.b16 %h31, %h28, %h30`) and the set's word stored whole as the
/// other reader (`st.global.b32`).
#[test]
fn e1_the_xor_either_order_and_a_32_bit_reader_are_the_same() {
    let swapped = set_beside_loaded(
        SET_EQ,
        &[XOR_26_27, "xor.b16 %h31, %h28, %h30;", STORE_31, UNPACK_AGAIN[0], UNPACK_AGAIN[1]],
    );
    either(&strs(&swapped), [5, 0x1a, 0, 0], 0x1a_0000, 0xe5_0000, 0x1a_0001);
    let word = set_beside_loaded(SET_EQ, &[XOR_26_27, XOR_WITH_28, STORE_31, "st.global.b32 [%out+4], %r15;"]);
    either(&strs(&word), [5, 0x1a, 0, 0], 0x1a_0000, 0xe5_0000, 0x1a_0001);
}

/// This helper's variant (24d5ace8 `var/e1_set_s32_hi_first_st16`, 13.0.88 -O3):
/// `set.lt.s32.s32`, the halves xor-ed high first
/// (`xor.b16 %h30, %h27, %h26`) after a `mov.b32` unpack, a 16-bit store, the word stored.
#[test]
fn e1_a_signed_set_high_half_first_is_the_same() {
    let lines = [
        "ld.global.u32 %r13, [%in];",
        "set.lt.s32.s32 %r15, %tix, %r13;",
        "ld.global.u16 %h28, [%in+4];",
        "mov.b32 {%h26, %h27}, %r15;",
        "xor.b16 %h30, %h27, %h26;",
        XOR_WITH_28,
        "st.global.b16 [%out+2], %h31;",
        "st.global.b32 [%out+4], %r15;",
    ];
    either(&lines, [5, 0x4c1a, 0, 0], 0xffff_ffff_4c1a_0000, 0xffff_ffff_b3e5_0000, 0xffff_ffff_4c1b_0000);
}

/// This helper's variants (24d5ace8 `var/e1_x_lo_hi_order_right`, `var/e1_f32_set_right`;
/// 13.0.88 -O3): `x ^ lo ^ hi` in that order (a three-way `LOP3 0x96`)
/// and a `set.eq.f32` (1.0f, `I2FP`): right.
#[test]
fn e1_x_first_and_an_f32_set_are_right() {
    let x_first = set_beside_loaded(
        SET_EQ,
        &["xor.b16 %h30, %h28, %h26;", "xor.b16 %h31, %h30, %h27;", STORE_31, UNPACK_AGAIN[0], UNPACK_AGAIN[1]],
    );
    untouched(&strs(&x_first), [5, 0x1a, 0, 0], D);
    let f32 = set_beside_loaded(
        "set.eq.f32.u32 %r15, %tix, %r13;",
        &[XOR_26_27, XOR_WITH_28, STORE_31, UNPACK_AGAIN[0], UNPACK_AGAIN[1]],
    );
    untouched(&strs(&f32), [0, 0x1a, 0, 0], D);
}

/// 7ec10586 (T6C, `reduced.ptx`): the other reader an `add.u16` chain of the halves (`IADD3 R7,
/// R8, R0, R7`); `v8_st16` with 16-bit stores the same.
#[test]
fn e1_7ec10586_an_add_chain_of_the_halves_is_the_other_reader() {
    let with = |store13: &str, store28: &str| {
        vec![
            "ld.global.u64 %d0, [%in];".to_string(),
            "set.gt.u32.s64 %r0, %d0, 5;".to_string(),
            "ld.global.u32 %r1, [%in+8];".to_string(),
            "mov.b64 %d4, {%r0, %r1};".to_string(),
            "mov.b64 {%h8, %h9, %h10, %h11}, %d4;".to_string(),
            "xor.b16 %h12, %h8, %h9;".to_string(),
            "xor.b16 %h13, %h12, %h10;".to_string(),
            "add.u16 %h26, %h8, %h9;".to_string(),
            "add.u16 %h28, %h26, %h11;".to_string(),
            store13.to_string(),
            store28.to_string(),
        ]
    };
    // d0 = 9 > 5: the mask −1; h13 = r1.lo = 0x5678, h28 = 0xfffe + 0x1234 = 0x1232.
    let bytes = with("st.global.b8 [%out+1], %h13;", "st.global.b8 [%out+5], %h28;");
    either(&strs(&bytes), [9, 0, 0x1234_5678, 0], 0x3200_0000_7800, 0x3200_0000_8700, 0x3200_0000_7801);
    let halves = with("st.global.b16 [%out], %h13;", "st.global.b16 [%out+4], %h28;");
    either(&strs(&halves), [9, 0, 0x1234_5678, 0], 0x1232_0000_5678, 0x1232_0000_a987, 0x1232_0000_a988);
}

/// 7ec10586 `v1_s32set`, `v3_st16` (T6C says "the same pattern"; their 13.0.88 -O3 listings are
/// `STG` of the loaded half): the set split by `mov.b32` with no other reader: right.
#[test]
fn e1_7ec10586_v1_no_other_reader_is_right() {
    let lines = [
        "ld.global.u32 %r2, [%in];",
        "set.gt.u32.s32 %r0, %r2, 5;",
        "ld.global.u32 %r1, [%in+8];",
        "mov.b32 {%h8, %h9}, %r0;",
        "mov.b32 {%h10, %h11}, %r1;",
        "xor.b16 %h12, %h8, %h9;",
        "xor.b16 %h13, %h12, %h10;",
        "st.global.b8 [%out+1], %h13;",
    ];
    untouched(&lines, [9, 0, 0x1234_5678, 0], D);
}

/// 7ec10586 `v7_loaded`: loaded words in place of the set (the xor a three-way `LOP3`): right.
#[test]
fn e1_7ec10586_v7_loaded_words_are_right() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r1, [%in+8];",
        "mov.b64 %d4, {%r0, %r1};",
        "mov.b64 {%h8, %h9, %h10, %h11}, %d4;",
        "xor.b16 %h12, %h8, %h9;",
        "xor.b16 %h13, %h12, %h10;",
        "add.u16 %h26, %h8, %h9;",
        "add.u16 %h28, %h26, %h11;",
        "st.global.b8 [%out+1], %h13;",
        "st.global.b8 [%out+5], %h28;",
    ];
    untouched(&lines, [0xffff_ffff, 0, 0x1234_5678, 0], D);
}
