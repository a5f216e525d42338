//! Tests of 3602-N4 where the byte is `cvt.s8.{s32,u32}` of a shuffled constant ptxas folds
//! beside a load (seed 5003's 841bf645, corpus/findings/fuzz-h200-5003/trace/T21e.md, variants in
//! trace/841bf645/s50/; `emulate/s8_of_a_shuffled_constant_folded_beside_a_load.rs`).

use super::seed_3801_new::{warp_case, warp_untouched};
use super::*;

const D: Deviation = Deviation::S8RoundTripThrough64SignExtends32;
const DEAD_LOAD: &str = "ld.global.b32 %r7, [%in+4];";

/// `mov.b32 r0, 0xe863a9be; shfl; cvt h0, r2`, then `reader` (of h0) and `store`, with the dead
/// load or not.
fn body(shfl: &str, cvt: &str, reader: &str, load: bool, store: &str) -> Vec<String> {
    let mut lines = vec!["mov.b32 %r0, 3898868158;".to_string(), shfl.to_string(), cvt.to_string(), reader.to_string()];
    lines.extend(load.then(|| DEAD_LOAD.to_string()));
    lines.push(store.to_string());
    lines
}

const UP: &str = "shfl.sync.up.b32 %r2, %r0, 15, %r0, -1;";
const BFLY: &str = "shfl.sync.bfly.b32 %r2, %r0, 1, 31, -1;";
const S8: &str = "cvt.s8.s32 %h0, %r2;";
const WIDEN: &str = "cvt.u32.u16 %r3, %h0;";
const STORE_WORD: &str = "st.global.u32 [%out], %r3;";

/// 13.0.88 -O3 (`s50/v1_word_stored`, `v7_cvt_s8_u32`, `v8_shfl_bfly`: `MOV R7, 0xffffffbe`;
/// `v4_shr_u16`: `MOV R0, 0xfffb`) where the spec gives 0x0000ffbe and 0x0ffb.
#[test]
fn n4_3602_a_byte_of_a_folded_shuffled_constant_keeps_its_32_bit_extension() {
    let case = |lines: Vec<String>, spec: u64, bug: u64| warp_case(&strs(&lines), [0; 4], D, spec, bug);
    case(body(UP, S8, WIDEN, true, STORE_WORD), 0xffbe, 0xffff_ffbe);
    case(body(UP, "cvt.s8.u32 %h0, %r2;", WIDEN, true, STORE_WORD), 0xffbe, 0xffff_ffbe);
    case(body(BFLY, S8, WIDEN, true, STORE_WORD), 0xffbe, 0xffff_ffbe);
    case(body(UP, S8, "shr.u16 %h1, %h0, 4;", true, "st.global.u16 [%out], %h1;"), 0x0ffb, 0xfffb);
}

/// Right: no load (`v2_no_load`: the shuffle kept), a moved constant (`v3_moved_constant`), a
/// 16-bit truncation (`v6_cvt_s16_s32`).
#[test]
fn n4_3602_leaves_an_unfolded_shuffle_a_moved_constant_and_a_truncation_alone() {
    warp_untouched(&strs(&body(UP, S8, WIDEN, false, STORE_WORD)), [0; 4], D);
    warp_untouched(&strs(&body("mov.b32 %r2, %r0;", S8, WIDEN, true, STORE_WORD)), [0; 4], D);
    warp_untouched(&strs(&body(UP, "cvt.s16.s32 %h0, %r2;", WIDEN, true, STORE_WORD)), [0; 4], D);
}

/// 841bf645's campaign case: emulating 3602-N4 gives the stored ptxas -O3 and JIT word 0, 0xbd
/// (0xffbe + 0xffff, the spec's 0xbe), in every thread.
#[test]
fn n4_3602_841bf645_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5003", "841bf645d5de9300");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0xbd } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 0 || s.bits == 0xbe, "thread {t}: the spec's word 0");
    }
}

/// The shuffle of `k` narrowed by `mid` into h4 (or a half of an unpack), then `outer` (a byte
/// sign extension into h0), the dead load, `cvt.u32.u16 r3, h0` stored.
fn narrowed(k: &str, mid: &str, outer: &str, load: bool) -> Vec<String> {
    let mut lines = vec![format!("mov.b32 %r0, {k};"), UP.to_string(), mid.to_string()];
    lines.extend(outer.split('\n').map(str::to_string));
    lines.push(WIDEN.to_string());
    lines.extend(load.then(|| DEAD_LOAD.to_string()));
    lines.push(STORE_WORD.to_string());
    lines
}

/// 27046214 (seed 5401, corpus/findings/fuzz-h200-5401/trace/T54S.md, variants in
/// trace/27046214/s54/; 13.0.88 -O3 `ISETP.LT.U32 … -0x35`, `MOV R9, 0xffffffcb`): a 16-bit byte
/// extension (`cvt.u16.s8`, `cvt.s16.s8`, `cvt.s8.{s16,u16}`) of a 16-bit narrowing of the folded
/// shuffle (`cvt{.sat}.{s16,u16}.{s32,u32}`, either half of an unpack) keeps the 32-bit extension.
#[test]
fn n4_3602_a_byte_extension_of_a_narrowed_folded_shuffle_keeps_its_32_bit_extension() {
    let case = |lines: Vec<String>, spec: u64, bug: u64| warp_case(&strs(&lines), [0; 4], D, spec, bug);
    let k = "3898868158"; // 0xe863a9be: the low byte 0xbe
    for mid in ["cvt.s16.s32 %h4, %r2;", "cvt.u16.s32 %h4, %r2;", "cvt.u16.u32 %h4, %r2;", "cvt.s16.u32 %h4, %r2;"] {
        case(narrowed(k, mid, "cvt.u16.s8 %h0, %h4;", true), 0xffbe, 0xffff_ffbe);
    }
    for outer in ["cvt.s16.s8 %h0, %h4;", "cvt.s8.s16 %h0, %h4;", "cvt.s8.u16 %h0, %h4;"] {
        case(narrowed(k, "cvt.s16.s32 %h4, %r2;", outer, true), 0xffbe, 0xffff_ffbe);
    }
    // `v15`: the saturated 0xffff, its byte 0xff.
    case(narrowed(k, "cvt.sat.u16.u32 %h4, %r2;", "cvt.u16.s8 %h0, %h4;", true), 0xffff, 0xffff_ffff);
    // `v10`, `v16`: either half of an unpack (0xa9bee863: the high half's low byte 0xbe).
    case(narrowed(k, "mov.b32 {%h4, %h5}, %r2;", "cvt.u16.s8 %h0, %h4;", true), 0xffbe, 0xffff_ffbe);
    case(narrowed("2847861859", "mov.b32 {%h5, %h4}, %r2;", "cvt.u16.s8 %h0, %h4;", true), 0xffbe, 0xffff_ffbe);
}

/// Right: `cvt.u16.u8` (`v13`, no sign extension), a guarded byte extension (`v18`: `LOP3
/// 0xffff`), no load (`v2`), a moved constant (`v1`).
#[test]
fn n4_3602_leaves_a_zero_extension_a_guarded_extension_and_unfolded_narrowings_alone() {
    let k = "3898868158";
    let mid = "cvt.s16.s32 %h4, %r2;";
    let untouched = |lines: Vec<String>| warp_untouched(&strs(&lines), [0; 4], D);
    untouched(narrowed(k, mid, "cvt.u16.u8 %h0, %h4;", true));
    untouched(narrowed(k, mid, "setp.eq.u32 %p2, %tix, 99;\nmov.b16 %h0, 7;\n@!%p2 cvt.u16.s8 %h0, %h4;", true));
    untouched(narrowed(k, mid, "cvt.u16.s8 %h0, %h4;", false));
    let mut moved = narrowed(k, mid, "cvt.u16.s8 %h0, %h4;", true);
    moved[1] = "mov.b32 %r2, %r0;".to_string();
    untouched(moved);
}

/// 27046214's campaign case: emulating 3602-N4 gives the stored ptxas -O3 and JIT word 0,
/// 0xe6cbe6cb (the loaded 0xfffe compared below 0xffffffcb, not 0xffcb), in every thread.
#[test]
fn n4_3602_27046214_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5401", "27046214c38ce8fe");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 0xe6cb_e6cb } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 0 || t >= 8 || s.bits == 0, "thread {t}: the spec's word 0");
    }
}

/// `mov.b32 r0, 0xe863a9be; shfl`, then `mid` (into r2's successors) and `cvt` of the result into h0,
/// `cvt.u32.u16 r3, h0` stored, with the dead load or not (seed 5602's c3ac5e22).
fn shifted(shfl: &str, mid: &[&str], cvt: &str, load: bool) -> Vec<String> {
    let mut lines = vec!["mov.b32 %r0, 3898868158;".to_string(), shfl.to_string()];
    lines.extend(mid.iter().map(|l| l.to_string()));
    lines.extend([cvt.to_string(), WIDEN.to_string()]);
    lines.extend(load.then(|| DEAD_LOAD.to_string()));
    lines.push(STORE_WORD.to_string());
    lines
}

const SHL4: &str = "shl.b32 %r4, %r2, 4;";

/// c3ac5e22 (helper t5, session 56; corpus/findings/fuzz-h200-5602/trace/T56E.md, variants in
/// trace/c3ac5e22/s56/; 13.0.88 -O3 `ISETP.GE.U32.AND P0, PT, R0, -0x80`, 13.5 `0xff80`):
/// `cvt.sat.s8.s32` of the folded shuffle (`v2`: -128) and `cvt{.sat}.s8.s32` of a `shl.b32` of it
/// by an immediate (the case, `v1`): 0x863a9be0's byte 0xe0, saturated -128.
#[test]
fn n4_3602_a_saturated_or_shifted_byte_of_a_folded_shuffle_keeps_its_32_bit_extension() {
    let case = |lines: Vec<String>, spec: u64, bug: u64| warp_case(&strs(&lines), [0; 4], D, spec, bug);
    case(shifted(UP, &[], "cvt.sat.s8.s32 %h0, %r2;", true), 0xff80, 0xffff_ff80);
    case(shifted(UP, &[SHL4], "cvt.s8.s32 %h0, %r4;", true), 0xffe0, 0xffff_ffe0);
    case(shifted(BFLY, &[SHL4], "cvt.sat.s8.s32 %h0, %r4;", true), 0xff80, 0xffff_ff80);
}

/// Right (c3ac5e22's s56): no load (`v3`), a moved constant (`v4`), `cvt.sat.s16.s32` (`v5`).
#[test]
fn n4_3602_leaves_a_shifted_shuffle_without_a_load_a_moved_constant_and_a_sat_s16_alone() {
    let sat = "cvt.sat.s8.s32 %h0, %r4;";
    warp_untouched(&strs(&shifted(UP, &[SHL4], sat, false)), [0; 4], D);
    warp_untouched(&strs(&shifted("mov.b32 %r2, %r0;", &[SHL4], sat, true)), [0; 4], D);
    warp_untouched(&strs(&shifted(UP, &[SHL4], "cvt.sat.s16.s32 %h0, %r4;", true)), [0; 4], D);
}

/// c3ac5e22's campaign case: emulating 3602-N4 gives the stored ptxas -O3 and JIT word 1, 0 (the
/// loaded 0xffe7 not below 0xffffff80; the spec's 0x0000f900), in every thread.
#[test]
fn n4_3602_c3ac5e22_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5602", "c3ac5e22bf1938d0");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { 0 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
        assert!(w != 1 || t >= 8 || s.bits == 0xf900, "thread {t}: the spec's word 1");
    }
}
