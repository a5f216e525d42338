//! Tests of 3701-N-D widened by seed 4401's traces (helper v3, session 44;
//! `emulate/merge_c_guarded_pack_and_later_duplicate.rs`): a guarded `mov.b64` pack ptxas if-converts with the pair
//! merged in place (corpus/findings/fuzz-h200-4401/trace/T15t1.md, 3fdf8ff2) and a copy of h's
//! expression written after the pack, numbered as h (42bfc506). Each traced wrong variant gives
//! the GPU's word; the right ones are left alone.

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// The e5m2x2 pair 0xe4e4 (of 0xc487f28a) in h0.
const PAIR: [&str; 2] = ["mov.b32 %r4, 3297155466;", "cvt.rn.satfinite.e5m2x2.f32 %h0, %r4, %r4;"];

/// 3fdf8ff2's reduction: the bytes {h4, h1} of word 0, the guard `r3 != 0` of word 1, d1 the
/// loaded words 2-3, `pack` under the guard, then `tail`.
fn d3fdf8ff2(pack: &'static str, tail: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.u32 %r3, [%in+4];",
        "ld.global.u64 %d1, [%in+8];",
        "ld.global.v2.u8 {%h4, %h1}, [%in];",
        "setp.ne.u32 %p1, %r3, 0;",
    ];
    lines.extend(PAIR);
    lines.push(pack);
    lines.extend_from_slice(tail);
    lines
}

/// h4 = 0xbe, h1 = 0x12; the guard `words[1] != 0`; d1's half 3 (word 3's high half) 0x7777.
fn words(guard: u32) -> [u32; 4] {
    [0x12be, guard, 0x0000_5555, 0x7777_0000]
}

/// h4 at byte 0 and d1's half 3 at byte 4 of the output.
const H4_AND_HALF3: [&str; 3] =
    ["mov.b64 {%h5, %h6, %h7, %h8}, %d1;", "st.global.u16 [%out], %h4;", "st.global.u16 [%out+4], %h8;"];

/// 3fdf8ff2 (`F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R8, RZ, RZ, R8; PRMT R9, R9, 0x5410, R8;
/// SEL`, 13.0.88 and 13.5 -O3; s44v `g1_later_elem_and_read_after`: `STG.E.U16 [+8], R9` outside
/// the selects): where the guard holds, half 3 (naming h4) is the pair, and a later read of h4
/// is the pair in every thread; where it fails, d1 keeps its loaded word.
#[test]
fn nd_3fdf8ff2_a_guarded_b64_pack_is_built_in_place_in_every_thread() {
    let lines = d3fdf8ff2("@%p1 mov.b64 %d1, {%h0, %h4, %h1, %h4};", &H4_AND_HALF3);
    exact_case(&lines, words(1), D, 0x0000_00be_0000_00be, 0x0000_e4e4_0000_e4e4);
    exact_case(&lines, words(0), D, 0x0000_7777_0000_00be, 0x0000_7777_0000_e4e4);
    // The negated guard of the finding.
    let negated = d3fdf8ff2("@!%p1 mov.b64 %d1, {%h0, %h4, %h1, %h4};", &H4_AND_HALF3);
    exact_case(&negated, words(0), D, 0x0000_00be_0000_00be, 0x0000_e4e4_0000_e4e4);
}

/// s44v `g3_elem2` (`PRMT R7, R7, 0x5410, R0`: half 2 the pair) and `g2_read_after_only` /
/// `g6_pair_at_2_read_after` (h4 read after only: `STG.E.U16 [+8], R9` of the merged R9).
#[test]
fn nd_3fdf8ff2_s44v_other_guarded_b64_packs() {
    let store = ["st.global.u64 [%out], %d1;"];
    let elem2 = d3fdf8ff2("@%p1 mov.b64 %d1, {%h0, %h4, %h4, %h1};", &store);
    exact_case(&elem2, words(1), D, 0x0012_00be_00be_e4e4, 0x0012_e4e4_00be_e4e4);
    let h4 = ["st.global.u16 [%out], %h4;", "st.global.u32 [%out+4], %r3;"];
    for pack in ["@%p1 mov.b64 %d1, {%h0, %h4, %h1, %h1};", "@%p1 mov.b64 %d1, {%h1, %h1, %h0, %h4};"] {
        exact_case(&d3fdf8ff2(pack, &h4), words(1), D, 0x0000_0001_0000_00be, 0x0000_0001_0000_e4e4);
        exact_case(&d3fdf8ff2(pack, &h4), words(0), D, 0x0000_00be, 0x0000_e4e4);
    }
}

/// Right (s44v): a guarded `mov.b32` pack (3fdf8ff2's `v3_guarded_b32`, `g7`: `@P0 PRMT` of a
/// pair built from RZ), a guarded `st.v4` (`g4`), a half-1 unpack of the guarded pack's result
/// (`g9`: the selected word's high half is h4).
#[test]
fn nd_3fdf8ff2_guarded_b32_packs_and_stores_are_right() {
    let b32 = ["ld.global.u32 %r1, [%in+8];", "@%p1 mov.b32 %r1, {%h0, %h4};"];
    let tail = ["st.global.u32 [%out], %r1;", "st.global.u16 [%out+4], %h4;"];
    let mut lines = d3fdf8ff2(b32[0], &[b32[1]]);
    lines.extend(tail);
    untouched(&lines, words(1), D);
    let st = d3fdf8ff2("@%p1 st.global.v4.b16 [%out], {%h0, %h4, %h1, %h4};", &[]);
    untouched(&st, words(1), D);
    // The pack still fires (its unread half 3 is the pair); the half read is h4.
    let unpack = ["mov.b64 {%h5, %h6, %h7, %h8}, %d1;", "st.global.u16 [%out], %h6;"];
    let (s, e, _) = both(&d3fdf8ff2("@%p1 mov.b64 %d1, {%h0, %h4, %h1, %h4};", &unpack), words(1), D);
    assert_eq!((e.bits, e.is_exact()), (s.bits, true));
    assert_eq!(s.bits, 0xbe);
}

/// 42bfc506's reduction: h3 = `mid` of the loaded word 0, packed beside the pair in r1, then
/// h5 = `dup` after the pack; r1 stored at word 0, h5 at byte 4.
fn d42bfc506(mid: [&'static str; 2], dup: &'static str) -> Vec<&'static str> {
    let mut lines = vec![mid[0], mid[1]];
    lines.extend(PAIR);
    lines.extend(["mov.b32 %r1, {%h0, %h3};", dup, "st.global.u32 [%out], %r1;", "st.global.b16 [%out+4], %h5;"]);
    lines
}

const BYTES: [&str; 2] = ["ld.global.s8 %c0, [%in];", "mov.b16 %h3, {%c0, %c0};"];

/// 42bfc506 (`PRMT R7, R2, 0x6540, R7; F2FP…PACK_AB_MERGE_C R7, RZ, RZ, R7; STG.E.U16 [+4], R7`,
/// 13.0.88 and 13.5 -O3): the byte pack written after the pack is read from h3's register.
#[test]
fn nd_42bfc506_an_identical_byte_pack_after_the_pack_is_the_pair() {
    let lines = d42bfc506(BYTES, "mov.b16 %h5, {%c0, %c0};");
    exact_case(&lines, [0x60, 0, 0, 0], D, 0x0000_6060_6060_e4e4, 0x0000_e4e4_6060_e4e4);
}

/// s44v `d1_glue_dup_after` (`xor.b16`), `d5_glue_dup_swapped` (the xor's sources swapped) and
/// `d4_mul_dup_after` (`mul.lo.u16`): `STG.E.U16 [+4], R7` of the merged R7.
#[test]
fn nd_42bfc506_s44v_glue_written_after_the_pack_is_the_pair() {
    let cases = [
        ("xor.b16 %h3, %h1, 0x55;", "xor.b16 %h5, %h1, 0x55;", 0x1224_u64),
        ("xor.b16 %h3, %h1, %h2;", "xor.b16 %h5, %h2, %h1;", 0x1271),
        ("mul.lo.u16 %h3, %h1, 0x4abf;", "mul.lo.u16 %h5, %h1, 0x4abf;", 0x4abf_u64.wrapping_mul(0x1271) & 0xffff),
    ];
    for (h3, h5, value) in cases {
        let lines = d42bfc506(["ld.global.v2.u16 {%h1, %h2}, [%in];", h3], h5);
        let spec = value << 32 | value << 16 | 0xe4e4;
        exact_case(&lines, [0x0000_1271, 0, 0, 0], D, spec, 0xe4e4 << 32 | value << 16 | 0xe4e4);
    }
}

/// Right: another expression after the pack (42bfc506's `v3_after_other_order`, `{c0, c1}`),
/// and h3 rewritten between the pack and the copy (no longer the merged register's value).
#[test]
fn nd_42bfc506_other_expressions_after_the_pack_are_right() {
    let mut other = vec!["ld.global.s8 %c1, [%in+1];"];
    other.extend(d42bfc506(BYTES, "mov.b16 %h5, {%c0, %c1};"));
    untouched(&other, [0x7060, 0, 0, 0], D);
    let mut rewritten = d42bfc506(BYTES, "mov.b16 %h5, {%c0, %c0};");
    rewritten.insert(5, "mov.b16 %h3, 7;");
    untouched(&rewritten, [0x60, 0, 0, 0], D);
}
