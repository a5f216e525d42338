//! Tests of 3702-N5 at a byte unpack whose low byte is narrowed alone (session 47: seed 4601's
//! b6ac6d50, corpus/findings/fuzz-h200-4601/trace/T17t2.md, trace/b6ac6d50/ and its s47/).

use super::*;

const D: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// `prmt` of the loaded word 0 by `selector`, its low half unpacked to bytes, `{first, second}`
/// stored as a 16-bit word.
fn unpacked(selector: &'static str, first: &'static str, second: &'static str) -> Vec<String> {
    vec![
        "ld.global.b32 %r0, [%in];".into(),
        format!("prmt.b32 %r1, %r0, %r0, {selector};"),
        "mov.b32 {%h0, %h1}, %r1;".into(),
        "mov.b16 {%c0, %c1}, %h0;".into(),
        format!("mov.b16 %h6, {{{first}, {second}}};"),
        "st.global.b16 [%out], %h6;".into(),
    ]
}

/// a's byte 2 negative (0x80), byte 3 0x12, byte 0 0x34.
const A: [u32; 4] = [0x1280_0034, 0, 0, 0];

/// Wrong (13.0.88 -O3 `PRMT R0, RZ, 0xa, R2` for c0): b6ac6d50's `reduced` (0x8d3a, c0 twice),
/// `s47/d1_byte1_index0` (0x8d0a) and `v1_c1_live` (c1 from the whole `PRMT`: 0x12, byte 3).
#[test]
fn n5_3702_the_low_byte_of_an_unpack_is_narrowed_alone_where_byte_1_names_a() {
    exact_case(&strs(&unpacked("0x8d3a", "%c0", "%c0")), A, D, 0xffff, 0x0000);
    exact_case(&strs(&unpacked("0x8d0a", "%c0", "%c0")), A, D, 0xffff, 0x0000);
    exact_case(&strs(&unpacked("0x8d3a", "%c0", "%c1")), A, D, 0x12ff, 0x1200);
}

/// Right: c1 alone (`s47/d2_c1_only_right`: the whole `PRMT`), an index nibble in byte 0
/// (`s47/d3_c0_index_right`), and a's byte 2 positive (the sign 0 either way).
#[test]
fn n5_3702_leaves_c1_and_an_index_byte_0_alone() {
    untouched(&strs(&unpacked("0x8d3a", "%c1", "%c1")), A, D);
    untouched(&strs(&unpacked("0x8d32", "%c0", "%c0")), A, D);
    untouched(&strs(&unpacked("0x8d3a", "%c0", "%c0")), [0x1270_0034, 0, 0, 0], D);
}

/// b6ac6d50's campaign case: emulating 3702-N5 gives the stored ptxas -O3 and JIT word 1, 0 (the
/// spec's 0xffffffff: {c0, c0} twice of the sign of a's byte 2, 0x80), in every thread.
#[test]
fn n5_3702_b6ac6d50_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "b6ac6d5046f5504e");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { 0 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 1 || s.bits == 0xffff_ffff, "thread {t}: the spec's word 1");
    }
}
