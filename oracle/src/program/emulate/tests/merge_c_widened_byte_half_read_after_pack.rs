//! Tests of 3701-N-D with a widening `cvt` of a byte-converted h made before the pack and read
//! after it (seed 4703's f788f578, helper k3, session 47; corpus/findings/fuzz-h200-4703/trace/
//! T18u4.md, variants in trace/f788f578/ and its s47/;
//! `emulate/merge_c_widened_byte_half_read_after_pack.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// f788f578's frame on word 0 = 0xe4822711: the e5m2x2 pair 0xfbfb in h1, h2 by `half`,
/// `widen` before the pack `mov.b32 r15, {h1, h2}` stored as word 0, then `after`.
fn chain(half: &'static str, widen: &'static str, after: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.s32 %r0, [%in];", "cvt.rn.satfinite.e5m2x2.f32 %h1, %r0, %r0;", half, widen];
    lines.extend(["mov.b32 %r15, {%h1, %h2};", "st.global.b32 [%out], %r15;"]);
    lines.extend_from_slice(after);
    lines
}

const BYTE: &str = "cvt.u8.u32 %h2, %r0;";
const WIDEN64: &str = "cvt.s64.u16 %d0, %h2;";
/// d0's low word stored as word 1 (f788f578's `cvt.u32.s64 r2, d0`).
const LOW_WORD: [&str; 2] = ["cvt.u32.s64 %r2, %d0;", "st.global.u32 [%out+4], %r2;"];
const WORDS: [u32; 4] = [0xe482_2711, 0, 0, 0];

/// f788f578 (`reduced.ptx`, 13.0.88 -O3 `LOP3.LUT R7, R2, 0xff; MERGE_C R2, R2, R2, R7; IMAD.MOV.U32
/// R7, RZ, RZ, R2; STG.E.U16 [+0x6], R7`): the low word of d0 is the pack's word {pair 0xfbfb, h
/// 0x11} (the low half the pair, as stored), the spec 0x11; `v3_cvt_u32_u16_before` (`cvt.u32.u16`
/// stored whole) and `s47/y1_cvt_s64_s16_sign_extending` alike. The high half is h's: the word
/// `MERGE_C` leaves (seed 5702's 2ca01739, whose GPU word 0x00660000 shows it).
#[test]
fn nd_f788f578_a_widening_of_a_byte_half_before_the_pack_is_the_pair() {
    exact_case(&chain(BYTE, WIDEN64, &LOW_WORD), WORDS, D, 0x0000_0011_0011_fbfb, 0x0011_fbfb_0011_fbfb);
    let widen32 = chain(BYTE, "cvt.u32.u16 %r2, %h2;", &["st.global.u32 [%out+4], %r2;"]);
    exact_case(&widen32, WORDS, D, 0x0000_0011_0011_fbfb, 0x0011_fbfb_0011_fbfb);
    exact_case(
        &chain(BYTE, "cvt.s64.s16 %d0, %h2;", &LOW_WORD),
        WORDS,
        D,
        0x0000_0011_0011_fbfb,
        0x0011_fbfb_0011_fbfb,
    );
}

/// Right: d0 read whole (`v4_cvt_s64_stored_whole`: kept in R6:R7), h2 a free truncation
/// `cvt.u16.u32` (`s47/y2_cvt_u16_u32_half`: `LOP3.LUT R9, R6, 0xffff` before the merge), h2 from
/// `ld.u16` (`v5_h2_ld_u16_right`).
#[test]
fn nd_f788f578_a_whole_read_a_truncated_or_loaded_half_is_left_alone() {
    untouched(&chain(BYTE, WIDEN64, &["st.global.u64 [%out], %d0;"]), WORDS, D);
    untouched(&chain("cvt.u16.u32 %h2, %r0;", WIDEN64, &LOW_WORD), WORDS, D);
    untouched(&chain("ld.global.u16 %h2, [%in+4];", WIDEN64, &LOW_WORD), [0xe482_2711, 0x11, 0, 0], D);
}

/// f788f578's stored case: emulating 3701-N-D alone gives the stored -O3/JIT word 1 (high half
/// 0xfbfb, the spec 0x0011) in every thread (word 0 = 0xe4822711 in all 32) and the spec's
/// words elsewhere.
#[test]
fn nd_f788f578_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4703", "f788f57864bb0d05");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (s.bits & 0xffff) | 0xfbfb_0000 } else { s.bits };
        assert!(w != 1 || s.bits >> 16 == 0x0011, "thread {t} spec");
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// The variant `name` (`s57/NAME`) of seed 5702's 2ca01739 with input word 0 of every thread 0x66.
fn variant_2ca01739(name: &str) -> (Program, Inputs) {
    super::variant_of("5702", "2ca01739", name, &[(0, 0x66)])
}

/// Seed 5702's 2ca01739 stored case (`ld.shared.v2.b8 {h3, h0}` of 0x66; `cvt.s64.u8 d5, h3`; the
/// pack `st.shared.v2.s16 {pair, h3}`; d5's low word by a `mov.b64` unpack): emulating 3701-N-D
/// gives the GPU's word 0 0x00660000 (the pack's word {pair 0, h 0x66}) in every thread, the spec
/// 0x66.
#[test]
fn nd_2ca01739_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5702", "2ca01739e2de07cd");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0x0066_0000 } else { s.bits };
        assert!(w != 0 || s.bits == 0x66, "thread {t} spec");
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// 2ca01739's wrong variants (13.0.88 -O3: word 0 the merged register): `cvt.u32.u8` (`w1`),
/// r10 stored too (`w2`, word 1 right), `cvt.u32.s64` after the pack (`w5`), `cvt.s64.u16` of the
/// element (`w9`), `ld.global.v2.u8` (`w10`), a `cvt.u8.u32` h (`w11`), a `mov.b32` pack (`w12`),
/// `ld.shared.v4.b8` with `cvt.u64.u8` (`w14`), `cvt.s32.u8` (`w15`).
#[test]
fn nd_2ca01739_a_u8_widening_of_a_byte_element_before_the_pack_is_the_pack_word() {
    for name in [
        "w1_cvt_u32_u8",
        "w2_unpack_both_stored",
        "w5_cvt_u32_s64_after",
        "w9_cvt_s64_u16",
        "w10_global_v2_u8",
        "w11_cvt_u8_u32_h",
        "w12_mov_b32_pack",
        "w14_v4_b8",
        "w15_cvt_s32_u8",
    ] {
        let (p, i) = variant_2ca01739(&format!("s57/{name}"));
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            if w == 0 {
                assert_eq!((s.bits, e.bits), (0x66, 0x0066_0000), "{name} thread {t}");
            }
        }
    }
}

/// 2ca01739's right variants: `cvt.s64.s8` (`w3`), d5 stored whole (`w4`), a scalar `ld.u8` h
/// (`w6`), no pack (`w7`), f16 halves in the pair's place (`w8`), h first (`w13`).
#[test]
fn nd_2ca01739_leaves_sign_extension_whole_reads_and_scalar_loads_alone() {
    for name in ["w3_cvt_s64_s8", "w4_stored_whole", "w6_scalar_ld_u8", "w7_no_pack", "w8_f16_not_pair", "w13_h_first"]
    {
        let (p, i) = variant_2ca01739(&format!("s57/{name}"));
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}

/// Variant `name` of seed 6201's d3a335ba (`s62/NAME`, corpus/findings/fuzz-h200-6201/trace/
/// d3a335ba/) with input word 0 of every thread 0x3f403f40 (f16 1.8125 twice; as f32 0.75…), each
/// thread's output words by the spec and emulating 3701-N-D alone.
fn d3a335ba_words(name: &str) -> Vec<(Vec<u32>, Vec<u32>)> {
    let (p, i) = super::variant_of("6201", "d3a335ba", &format!("s62/{name}"), &[(0, 0x3f40_3f40)]);
    let mut threads: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if threads.len() <= t {
            threads.resize(t + 1, (Vec::new(), Vec::new()));
        }
        assert_eq!(threads[t].0.len(), w as usize, "{name}: words in order");
        threads[t].0.push(s.bits as u32);
        threads[t].1.push(e.bits as u32);
    }
    threads
}

/// Seed 6201's d3a335ba (session 62; the widening AFTER the pack): `cvt.rni.u8.f16 h2` of a moved
/// 0x3f40 (2); `mov.b32 r0, {pair, h2}`; `cvt.u32.u8 r10, h2` read with r0 by `xor.b32`: 13.0.88 =
/// 13.5 -O3 `LOP3.LUT R5, R0, R0, RZ, 0x3c` of the merged R0, 0 in every thread, the spec
/// 0x00020002 (r10 was the pair zero-extended before session 62: 0x00020000).
#[test]
fn nd_d3a335ba_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6201", "d3a335bad5401767");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { (0x0002_0002, 0) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "d3a335ba thread {t} word {w}");
    }
}

/// d3a335ba's wrong variants (13.0.88 = 13.5 -O3: w stored as the merged register, the pack's word
/// {pair, h}): a widening `cvt.{u32,s32}.{u8,u16,s16}` of h after the pack (word 0; the pack's word
/// stored as word 1), of an f16 constant, a loaded f16 or f32, a `cvt.u8.u32` or an `ld.v2.u8`
/// element; 64-bit widenings (`v2`, `v16`: word 0 the pack's word, stored as word 2, word 1 zero);
/// a `mov.b64` pack (`v21`: the pack's first word stored as word 2).
#[test]
fn nd_d3a335ba_a_widening_of_a_byte_half_after_the_pack_is_the_pack_word() {
    let b32 = [
        "v1_r10_stored_alone",
        "v3_cvt_u32_u16_after",
        "v5_loaded_f16",
        "v6_cvt_u8_u32_h",
        "v9_e4m3",
        "v13_cvt_s32_u8_after",
        "v15_v2_u8_element",
        "v17_cvt_s32_s16_after",
        "v20_rni_u8_f32_loaded",
    ];
    let cases = b32.iter().map(|n| (*n, 1)).chain([("v2_cvt_u64_u8_after", 2), ("v16_cvt_s64_u16_after", 2)]);
    for (name, pack_word) in cases.chain([("v21_mov_b64_pack", 2)]) {
        for (t, (s, e)) in d3a335ba_words(name).iter().enumerate() {
            let word = s[pack_word];
            assert!(word >> 16 != 0 && s[0] == word >> 16, "{name} thread {t}: h = {:#x}", s[0]);
            assert_eq!(e[0], word, "{name} thread {t}");
            assert_eq!(e[1..], s[1..], "{name} thread {t}");
        }
    }
}

/// d3a335ba's right variants for the widening: read as 16 bits or sign-extended from a byte it is
/// the pair, as emulated before (`v4` `cvt.s32.s8`: `PRMT 0x8880` of the pair's byte; `v11`
/// `cvt.u16.u8` packed twice: `PRMT R5, R0, 0x5410, R0`; `v14` h an `add.u16` of a load, `cvt.u32.u16`:
/// `LOP3 0xffff`); untouched: no pack (`v8`), h first (`v10`), a scalar `ld.u8` h (`v18`).
#[test]
fn nd_d3a335ba_other_widenings_and_halves_are_not_the_pack_word() {
    for name in ["v4_cvt_s32_s8_after", "v11_cvt_u16_u8_after", "v14_add_u16_h_u16_widen"] {
        for (t, (s, e)) in d3a335ba_words(name).iter().enumerate() {
            let pair = s[1] & 0xffff;
            let want = match name {
                "v4_cvt_s32_s8_after" => pair as u8 as i8 as i32 as u32,
                "v11_cvt_u16_u8_after" => pair << 16 | pair,
                _ => pair,
            };
            assert_ne!(e[0], s[1], "{name} thread {t}");
            assert_eq!((e[0], &e[1..]), (want, &s[1..]), "{name} thread {t}");
        }
    }
    for name in ["v8_no_pack", "v10_h_first", "v18_scalar_ld_u8"] {
        let (p, i) = super::variant_of("6201", "d3a335ba", &format!("s62/{name}"), &[(0, 0x3f40_3f40)]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
