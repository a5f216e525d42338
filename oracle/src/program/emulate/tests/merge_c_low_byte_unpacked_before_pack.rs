//! Tests of 3701-N-D with a low byte of h unpacked before the pack and read after it (seed
//! 4601's cf023b23, helper g2, session 47; corpus/findings/fuzz-h200-4601/trace/T17t2.md,
//! variants in trace/cf023b23/ and its s47/; `emulate/merge_c_low_byte_unpacked_before_pack.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// h0 = `@p0 or.b16 h0, h0, 0x6e00` of a moved 0 (the guard `words[0] != 0`, cf023b23's SEL).
const GUARDED_OR: [&str; 4] =
    ["mov.b16 %h0, 0;", "ld.global.u32 %r3, [%in];", "setp.ne.u32 %p0, %r3, 0;", "@%p0 or.b16 %h0, %h0, 0x6e00;"];

/// `half` writing h0, the byte unpack `mov.b16 {c0, c1}, h0` and `before`, the e5m2x2 pair
/// 0x8282 in h1, the pack `mov.b32 r15, {h1, h0}` stored as word 0, then `after`.
fn chain(half: &[&'static str], before: &[&'static str], after: &[&'static str]) -> Vec<&'static str> {
    let mut lines = half.to_vec();
    lines.push("mov.b16 {%c0, %c1}, %h0;");
    lines.extend_from_slice(before);
    lines.extend([
        "mov.b32 %r0, 3082813440;",
        "cvt.rn.satfinite.e5m2x2.f32 %h1, %r0, %r0;",
        "mov.b32 %r15, {%h1, %h0};",
        "st.global.b32 [%out], %r15;",
    ]);
    lines.extend_from_slice(after);
    lines
}

/// `mov.b16 h8, {c0, c0}` stored at byte 4 (cf023b23's reader).
const C0_PAIR: [&str; 2] = ["mov.b16 %h8, {%c0, %c0};", "st.global.b16 [%out+4], %h8;"];

/// cf023b23's `reduced.ptx` (`SEL R0, RZ, 0x6e00, !P0; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R0,
/// R5, R5, R0; …; LOP3.LUT R5, R0, 0xff; PRMT R5, R0, 0x6540, R5`, 13.0.88 and 13.5 -O3): c0 is
/// the pair's low byte 0x82 whatever the guard; s47 `x3_xor_half_loaded` (h0 an `xor.b16` of a
/// loaded half), `x4_c0_stored_byte` (`STG.E.U8 [+0x4], R5` of the merged R5) alike.
#[test]
fn nd_cf023b23_a_low_byte_unpacked_before_the_pack_is_the_pairs() {
    let reduced = chain(&GUARDED_OR, &[], &C0_PAIR);
    exact_case(&reduced, [0, 0, 0, 0], D, 0x0000_0000_0000_8282, 0x0000_8282_0000_8282);
    exact_case(&reduced, [1, 0, 0, 0], D, 0x0000_0000_6e00_8282, 0x0000_8282_6e00_8282);
    let xor = ["ld.global.u16 %h3, [%in+8];", "xor.b16 %h0, %h3, 0x5a;"];
    exact_case(&chain(&xor, &[], &C0_PAIR), [0, 0, 0x1234, 0], D, 0x0000_6e6e_126e_8282, 0x0000_8282_126e_8282);
    let byte = ["st.global.b8 [%out+4], %c0;"];
    exact_case(&chain(&GUARDED_OR, &[], &byte), [1, 0, 0, 0], D, 0x0000_0000_6e00_8282, 0x0000_0082_6e00_8282);
}

/// s47 `x2_c0_read_before_too`: the read before the pack takes h0's byte, the one after the
/// pair's (`LOP3.LUT R0, R5, 0xff` of `R5 = R7`, the merged word).
#[test]
fn nd_cf023b23_only_the_reads_after_the_pack_take_the_pair() {
    let before = ["st.global.b8 [%out+6], %c0;"];
    let xor = ["ld.global.u16 %h3, [%in+8];", "xor.b16 %h0, %h3, 0x5a;"];
    let lines = chain(&xor, &before, &C0_PAIR);
    exact_case(&lines, [0, 0, 0x1234, 0], D, 0x006e_6e6e_126e_8282, 0x006e_8282_126e_8282);
}

/// Right: the high byte c1 read after (s47 `x1_c1_read_after`: `SHF.R.U32.HI R4, RZ, 0x8, R0`
/// before the merge), `cvt.u8.u16` of h0 before the pack (`x6_cvt_u8_of_h_before`), h0 from
/// `ld.u16` (`x5_ld_u16_h_right`), no pack (`v2_no_pack_right`).
#[test]
fn nd_cf023b23_a_high_byte_a_cvt_or_no_pack_is_left_alone() {
    let c1 = ["mov.b16 %h8, {%c1, %c1};", "st.global.b16 [%out+4], %h8;"];
    untouched(&chain(&GUARDED_OR, &[], &c1), [1, 0, 0, 0], D);
    let mut cvt = chain(&GUARDED_OR, &[], &["st.global.b16 [%out+4], %h4;"]);
    cvt[4] = "cvt.u8.u16 %h4, %h0;";
    untouched(&cvt, [1, 0, 0, 0], D);
    untouched(&chain(&["ld.global.u16 %h0, [%in+8];"], &[], &C0_PAIR), [0, 0, 0x1234, 0], D);
    let no_pack: Vec<&str> = chain(&GUARDED_OR, &[], &C0_PAIR).into_iter().filter(|l| !l.contains("%r15")).collect();
    untouched(&no_pack, [1, 0, 0, 0], D);
}

/// cf023b23's stored case (32 threads; `mov.b64 d0, {h1, h2, h1, h0}`, `mov.b64 {r14, r15}, d0`,
/// `xor.b32 r19, r15, r18` of r18 = {h8, h8}, h8 = {c0, c0}): emulating 3701-N-D gives the stored
/// -O3/JIT word 1 (0x82820000) and the spec's word 0.
#[test]
fn nd_cf023b23_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "cf023b23dcfd17c0");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 && t < 8 {
            assert_eq!((s.bits, e.bits), (0x0000_8282, 0x8282_0000), "thread {t} word {w}");
        } else if w != 1 {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}
