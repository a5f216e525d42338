//! Tests of 3702-N5 at a `cvt.*.u8` reader (session 50: seed 5003's e7e92a13,
//! corpus/findings/fuzz-h200-5003/trace/T21e.md, trace/e7e92a13/ and its s50/).

use super::*;

const D: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// `prmt` of the loaded word 0 by 0xbe166c89 (byte 0 the sign of a's byte 1), `tail` reading it.
fn prmt_then(tail: &[&str]) -> Vec<String> {
    let mut lines = vec!["ld.global.b32 %r0, [%in];".to_string(), "prmt.b32 %r1, %r0, %r0, 0xbe166c89;".into()];
    lines.extend(tail.iter().map(|l| l.to_string()));
    lines
}

/// e7e92a13's input word: a's byte 1 0xa8 (negative), so the spec's byte 0 is 0xff.
const A: [u32; 4] = [0xe94f_a8d6, 0, 0, 0];

/// Wrong (13.0.88 -O3 `PRMT Rd, RZ, 0x9, R2`: 0): `cvt.{u16,s16,u32,s32,u64}.u8` after the
/// truncation (`s50/v_cvt_*_u8_*`) and `cvt.u32.u8` of the word (`s50/v_cvt_u32_u8_of_word`).
#[test]
fn n5_3702_a_cvt_of_a_u8_source_reads_the_narrowed_byte() {
    for d in ["u16", "s16"] {
        let cvt = format!("cvt.{d}.u8 %h1, %h0;");
        let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", &cvt, "st.global.u16 [%out], %h1;"]);
        exact_case(&strs(&lines), A, D, 0xff, 0);
    }
    for d in ["u32", "s32"] {
        let cvt = format!("cvt.{d}.u8 %r2, %h0;");
        let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", &cvt, "st.global.u32 [%out], %r2;"]);
        exact_case(&strs(&lines), A, D, 0xff, 0);
    }
    let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", "cvt.u64.u8 %d0, %h0;", "st.global.u64 [%out], %d0;"]);
    exact_case(&strs(&lines), A, D, 0xff, 0);
    let lines = prmt_then(&["cvt.u32.u8 %r2, %r1;", "st.global.u32 [%out], %r2;"]);
    exact_case(&strs(&lines), A, D, 0xff, 0);
}

/// Right: a `.s8` source sign-extends (`s50/v_cvt_{s16,u16,s32}_s8_*`: the whole `PRMT`, then
/// `0x8880`).
#[test]
fn n5_3702_leaves_a_cvt_of_an_s8_source_alone() {
    let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", "cvt.s16.s8 %h1, %h0;", "st.global.u16 [%out], %h1;"]);
    untouched(&strs(&lines), A, D);
    let lines = prmt_then(&["cvt.u16.u32 %h0, %r1;", "cvt.s32.s8 %r2, %h0;", "st.global.u32 [%out], %r2;"]);
    untouched(&strs(&lines), A, D);
}

/// e7e92a13's campaign case: emulating 3702-N5 gives the stored ptxas -O3 and JIT word 0, 0 (the
/// spec's 0x3d310000: `cvt.s16.u8` of 0xff is 255 ≥ 3), in every thread.
#[test]
fn n5_3702_e7e92a13_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5003", "e7e92a137d9b7f49");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 0 || s.bits == 0x3d31_0000, "thread {t}: the spec's word 0");
    }
}

/// Seed 5603's 20120274 (corpus/findings/fuzz-h200-5603/, trace/T56G.md, trace/20120274/s56/):
/// `prmt.b32 r5, 0x9b318ca6, b, 0xaa1afc9c; cvt.u16.s32 h3, r5; and.b16 h4, h3, 0xffff` is 13.0.88
/// -O3 `PRMT R7, RZ, 0x9c, R2`: byte 1 (the sign of a's byte 1) 0 where the spec gives 0xff.
fn variant_20120274(name: &str) -> (Program, Inputs) {
    super::variant_of("5603", "20120274", name, &[])
}

/// The spec's words of `(p, i)` and, emulating [`D`], the words and the deviations that fired.
fn spec_and_emulated((p, i): &(Program, Inputs)) -> (Vec<Expected>, Vec<Expected>, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(p, i, &Allowances::all().emulating(D)).unwrap();
    (spec, out, fired)
}

/// The stored case and the variants 13.0.88 -O3 narrows (`u5`: widened after the and, `u6`: a moved
/// 0xffff): word 0's low half 0xff00 by the spec, 0 emulated (the GPU's 0x00000000).
#[test]
fn n5_3702_20120274_and_b16_of_a_truncation_reads_the_narrowed_half() {
    let (p, i) = super::stored_case("5603", "201202749c33879d");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits & 0xFFFF, e.bits & 0xFFFF), (0, 0xff00, 0), "thread {t}");
    }
    for name in ["orig", "s56/u5_and_b16_ffff_st_b32", "s56/u6_and_b16_moved_ffff"] {
        let (spec, out, fired) = spec_and_emulated(&variant_20120274(name));
        assert_eq!(fired, vec![D], "{name}");
        for (s, e) in spec.iter().zip(&out) {
            assert_eq!((s.field(0, 16).bits, e.field(0, 16).bits), (0xff00, 0), "{name}");
        }
    }
}

/// Right (the whole `PRMT` kept): another mask (`u3` 0xff00, `u7` 0x7fff), `or.b16 0` (`u8`), the
/// and of an unpack's low half with no `cvt` (`u4`), no and (`u1`); `and.b16 0xff` (`u2`) narrows
/// to byte 0, which names b's sign and keeps its value.
#[test]
fn n5_3702_20120274_leaves_other_masks_and_an_unpacked_half_alone() {
    for name in
        ["u1_no_and", "u2_and_b16_ff", "u3_and_b16_ff00", "u4_and_b16_of_unpack", "u7_and_b16_7fff", "u8_or_b16_0"]
    {
        let (spec, out, fired) = spec_and_emulated(&variant_20120274(&format!("s56/{name}")));
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}

/// Session 58 (helper hd), corpus/findings/fuzz-h200-5801/trace/T58D.md: the narrowed `PRMT` through
/// 64 bits (`emulate/prmt_narrowed_per_zero_extending_reader/through_64_bits.rs`). `mul.lo.u16` by 3
/// of the 2 narrowed bytes: 0xffff · 3 = 0xfffd by the spec, 0 narrowed (both bytes name a's sign).
fn times_three(reach: &[&str], h: &str) -> Vec<String> {
    let mut tail: Vec<String> = reach.iter().map(|l| l.to_string()).collect();
    tail.extend([
        "mov.b16 %h5, 3;".to_string(),
        format!("mul.lo.u16 %h6, {h}, %h5;"),
        "st.global.u16 [%out], %h6;".into(),
    ]);
    prmt_then(&strs(&tail))
}

/// Wrong (13.0.88 -O3): a 64-bit round trip `cvt.{s64,u64}.{s32,u32}; cvt.{s16,u16}.{s64,u64}`
/// (c8c7cdc4 and `s58/v2_u64`), a low-half element (h0 or h2) of a `mov.b64` unpack of a pack of
/// the `prmt` (2f7d1698 and `s58/v2_high_word`).
#[test]
fn n5_3702_reached_through_64_bits_reads_the_narrowed_half() {
    for (w, n) in [("s64", "s32"), ("u64", "u32")] {
        for d in ["s16", "u16"] {
            let reach = [format!("cvt.{w}.{n} %d0, %r1;"), format!("cvt.{d}.{w} %h0, %d0;")];
            exact_case(&strs(&times_three(&strs(&reach), "%h0")), A, D, 0xfffd, 0);
        }
    }
    let low = ["mov.b32 %r2, 0;", "mov.b64 %d0, {%r1, %r2};", "mov.b64 {%h0, %h1, %h2, %h3}, %d0;"];
    exact_case(&strs(&times_three(&low, "%h0")), A, D, 0xfffd, 0);
    let high = ["mov.b32 %r2, 0;", "mov.b64 %d0, {%r2, %r1};", "mov.b64 {%h0, %h1, %h2, %h3}, %d0;"];
    exact_case(&strs(&times_three(&high, "%h2")), A, D, 0xfffd, 0);
}

/// Wrong (13.0.88 -O3, seed 6202's 6a0d8362, variants in corpus/findings/fuzz-h200-6202/trace/
/// 6a0d8362/s62/): the low word of a `mov.b64` pack of the `prmt` read by a truncation
/// `cvt.{u16,s16}.u64` (`x11_mul_lo_u16_reader_of_pack_truncation`: `PRMT R7, RZ, 0x89, R2`, the
/// listing of `cvt.u16.u32`, `x12`; `x3` `.s16.s64`), the high word another register (`x2`), or by
/// the byte reader itself (`x4` `cvt.u8.u64`, `x9` `and.b64 0xff`).
#[test]
fn n5_3702_the_low_word_of_a_pack_of_the_prmt_reads_the_narrowed_half() {
    for t in ["u16", "s16"] {
        let truncated = ["mov.b64 %d0, {%r1, %r1};".to_string(), format!("cvt.{t}.u64 %h0, %d0;")];
        exact_case(&strs(&times_three(&strs(&truncated), "%h0")), A, D, 0xfffd, 0);
    }
    let loaded_high = ["ld.global.b32 %r2, [%in+4];", "mov.b64 %d0, {%r1, %r2};", "cvt.u16.u64 %h0, %d0;"];
    exact_case(&strs(&times_three(&loaded_high, "%h0")), A, D, 0xfffd, 0);
    let byte = prmt_then(&["mov.b64 %d0, {%r1, %r1};", "cvt.u8.u64 %h1, %d0;", "st.global.u16 [%out], %h1;"]);
    exact_case(&strs(&byte), A, D, 0xff, 0);
    let masked = prmt_then(&["mov.b64 %d0, {%r1, %r1};", "and.b64 %d1, %d0, 255;", "st.global.u64 [%out], %d1;"]);
    exact_case(&strs(&masked), A, D, 0xff, 0);
}

/// Right or out of scope: the high half of a word of the unpack (the whole `PRMT`'s `0x7732`), a
/// 64-bit round trip read by a signed reader, an element of the word that is not the `prmt`'s, the
/// `prmt` as the high word of a pack whose low word a truncation reads (6a0d8362's `x8`: `LOP3.LUT
/// R0, R2, 0xff` of the other word), a signed reader of a pack's low word (`x5`: `cvt.s64.s8`,
/// `PRMT 0x8880` of the whole `PRMT`).
#[test]
fn n5_3702_through_64_bits_leaves_other_links_alone() {
    let unpack = ["mov.b32 %r2, 0;", "mov.b64 %d0, {%r1, %r2};", "mov.b64 {%h0, %h1, %h2, %h3}, %d0;"];
    untouched(&strs(&times_three(&unpack, "%h1")), A, D);
    untouched(&strs(&times_three(&unpack, "%h2")), A, D);
    let signed = prmt_then(&[
        "cvt.s64.s32 %d0, %r1;",
        "cvt.s16.s64 %h0, %d0;",
        "mul.lo.s16 %h6, %h0, 3;",
        "st.global.u16 [%out], %h6;",
    ]);
    untouched(&strs(&signed), A, D);
    let prmt_high = ["ld.global.b32 %r2, [%in+4];", "mov.b64 %d0, {%r2, %r1};", "cvt.u16.u64 %h0, %d0;"];
    untouched(&strs(&times_three(&prmt_high, "%h0")), A, D);
    let signed_of_pack = prmt_then(&[
        "mov.b64 %d0, {%r1, %r1};",
        "cvt.u16.u64 %h0, %d0;",
        "cvt.s64.s8 %d1, %h0;",
        "st.global.u64 [%out], %d1;",
    ]);
    untouched(&strs(&signed_of_pack), A, D);
}

/// Seed 6202's 6a0d8362 (`mov.b64 d3, {r0, r0}` of `prmt r0, 0xe486f375, r0, 0xa6579bab`;
/// `cvt.u16.u64 h6, d3; cvt.u64.u8 d5, h6`; h9 of a `mov.b64` unpack of d5 xor 0x897f): emulating
/// 3702-N5 gives the stored -O3 and JIT word 0 0x897f in every thread (13.0.88 `PRMT R0, RZ, 0xb,
/// R2`), the spec 0x8980 (byte 0 the sign of a's byte 3, 0xe4: 0xff).
#[test]
fn n5_3702_6a0d8362_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6202", "6a0d8362ff35addd");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { (0x8980, 0x897f) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "6a0d8362 thread {t} word {w}");
    }
}

/// The campaign cases: emulating 3702-N5 gives the stored ptxas -O3 and JIT words in every thread
/// — c8c7cdc4 word 2 0x00009b00 (spec 0x0000de00), 2f7d1698 word 0 0 (spec 0x00000200).
#[test]
fn n5_3702_c8c7cdc4_and_2f7d1698_the_campaign_cases_give_the_stored_o3_words() {
    let (p, i) = super::stored_case("5801", "c8c7cdc4bfde48a5");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 2 { (0xde00, 0x9b00) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "c8c7cdc4 thread {t} word {w}");
    }
    let (p, i) = super::stored_case("5802", "2f7d1698f0fbb0d8");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { (0x200, 0) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "2f7d1698 thread {t} word {w}");
    }
}

/// Seed 6201's 28ffacaf (corpus/findings/fuzz-h200-6201/trace/T62B.md, trace/28ffacaf/s62/): the
/// addend of `mad.lo.u16` zero-extends the low half of `prmt.b32 r4, 0x95378a0c, b, 0xe885a3eb`
/// (byte 0 the sign of a's byte 3: 0xff): 13.0.88 -O3 `PRMT R7, RZ, 0xeb, R2` gives 0. The stored
/// case (byte 7: word 1 0, the spec 0xff000000, every thread), `v2` (a loaded factor: `IMAD R7, R6,
/// 0xaa7, R7` of the narrowed copy), `v7` (the half stored by `st.b16`: 0x00ff0000 by the spec) and
/// `v9` (the half a `cvt.u16.u32` truncation).
#[test]
fn n5_3702_28ffacaf_the_addend_of_mad_lo_u16_reads_the_narrowed_half() {
    let (p, i) = super::stored_case("6201", "28ffacaf14532e2b");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (0xff00_0000, 0) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
    for name in ["v2_addend_loaded_factor", "v7_store_b16", "v9_cvt_truncation"] {
        let (spec, out, fired) = spec_and_emulated(&super::variant_of("6201", "28ffacaf", &format!("s62/{name}"), &[]));
        assert_eq!(fired, vec![D], "{name}");
        for (s, e) in spec.iter().zip(&out) {
            assert_ne!(s.field(32, 32).bits, 0, "{name}");
            assert_eq!(e.field(32, 32).bits, 0, "{name}");
        }
    }
}

/// Right (13.0.88 -O3 keeps the whole `PRMT`, 28ffacaf's `s62/`): the half stored directly (`v1`),
/// `add.u16` of a moved 0 (`v4`), the addend of `mad.lo.s16` (`v5`, `v8`: `PRMT 0x9910`) and of
/// `mad.hi.u16` (`v6`: `LEA.HI` of the whole `PRMT`).
#[test]
fn n5_3702_28ffacaf_leaves_other_readers_of_the_half_alone() {
    for name in
        ["v1_store_half_directly", "v4_add_u16", "v5_mad_lo_s16_zero", "v8_mad_lo_s16_loaded", "v6_mad_hi_u16_addend"]
    {
        let (spec, out, fired) = spec_and_emulated(&super::variant_of("6201", "28ffacaf", &format!("s62/{name}"), &[]));
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
