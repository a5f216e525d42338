//! Tests of 3701-C1N4 with `len` a word of a `mov.b64` unpack (seed 4802's 1ddf67e8, T19v4.md;
//! helper x4, session 49; `word_of_an_unpack_known_from_its_pack.rs`): the word ptxas knows
//! through the pack is folded with len mod 32; a loaded or guarded word is left alone.

use super::*;

const D: Deviation = Deviation::BfiConstantLengthTakenMod32;
/// b (word 0).
const B: u32 = 0x0961_ff9b;
const WORDS: [u32; 4] = [B, 0, 0, 0];
/// len 0x9b0961c7: low byte 199, inserted by §9.7.1.20 up to the msb from 14, by ptxas 7 bits.
const SPEC: u64 = (B & 0x3fff) as u64;
const BUG: u64 = (B & !0x1f_c000) as u64;

/// `lines`, then `bfi.b32 r8, a, b, 14, len` (a a moved 0) stored at `[%out]`.
fn with(lines: &[&str], len: &str) -> Vec<String> {
    let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    v.push("ld.global.u32 %r1, [%in];".into());
    v.push("mov.b32 %r7, 0;".into());
    v.push(format!("bfi.b32 %r8, %r7, %r1, 0xe, {len};"));
    v.push("st.global.u32 [%out], %r8;".into());
    v
}

const MOVED: &str = "mov.u32 %r0, 2601083335;";

/// 1ddf67e8's stored case: words 2 and 3 are the GPU's 0x09603f9b (`ULOP3.LUT UR4, URZ,
/// 0x1fc000, UR4, 0xe2`) where §9.7.1.20 gives 0x00003f9b; the other words the spec's.
#[test]
fn c1n4_1ddf67e8_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4802", "1ddf67e811913ecd");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 2 || w == 3 {
            assert_eq!((s.bits, e.bits), (0x3f9b, 0x0960_3f9b), "thread {t} word {w}");
        } else {
            assert_eq!(s, e, "thread {t} word {w}");
        }
    }
}

/// `v2_len_unpacked_loaded_b` (= `reduced`), `s49/w1_high_word_of_unpack`, `s49/
/// w2_other_element_loaded`, `s49/w3_unpack_of_moved_b64`, `s49/w4_copy_of_pack`: 7 bits.
#[test]
fn c1n4_1ddf67e8_a_len_unpacked_from_a_pack_of_a_moved_constant_is_taken_mod_32() {
    let load = "ld.global.u32 %r2, [%in+4];";
    let cases: [(&[&str], &str); 5] = [
        (&[MOVED, "mov.b64 %d0, {%r0, %r0};", "mov.b64 {%r5, %r6}, %d0;"], "%r5"),
        (&[MOVED, load, "mov.b64 %d0, {%r2, %r0};", "mov.b64 {%r5, %r6}, %d0;"], "%r6"),
        (&[MOVED, load, "mov.b64 %d0, {%r0, %r2};", "mov.b64 {%r5, %r6}, %d0;"], "%r5"),
        (&["mov.b64 %d0, -7275411010466266681;", "mov.b64 {%r5, %r6}, %d0;"], "%r5"),
        (&[MOVED, "mov.b64 %d0, {%r0, %r0};", "mov.b64 %d1, %d0;", "mov.b64 {%r5, %r6}, %d1;"], "%r5"),
    ];
    for (lines, len) in cases {
        exact_case(&strs(&with(lines, len)), WORDS, D, SPEC, BUG);
    }
}

/// Right: a loaded len packed and unpacked (`v3_len_loaded`: `BMSK`), a guarded unpack over a
/// moved 7 (`s49/w6_guarded_unpack`: `SEL; BMSK`), the packed element not the word read.
#[test]
fn c1n4_1ddf67e8_a_loaded_or_guarded_unpacked_len_is_left_alone() {
    let load = "ld.global.u32 %r2, [%in+4];";
    untouched(&strs(&with(&[load, "mov.b64 %d0, {%r2, %r2};", "mov.b64 {%r5, %r6}, %d0;"], "%r5")), [B, 199, 0, 0], D);
    untouched(
        &strs(&with(&[MOVED, load, "mov.b64 %d0, {%r0, %r2};", "mov.b64 {%r5, %r6}, %d0;"], "%r6")),
        [B, 199, 0, 0],
        D,
    );
    let guarded = [
        MOVED,
        load,
        "mov.b32 %r5, 7;",
        "setp.ne.u32 %p0, %r2, 0;",
        "mov.b64 %d0, {%r0, %r0};",
        "@%p0 mov.b64 {%r5, %r6}, %d0;",
    ];
    untouched(&strs(&with(&guarded, "%r5")), [B, 1, 0, 0], D);
}
