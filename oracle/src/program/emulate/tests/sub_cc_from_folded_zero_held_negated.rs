//! Tests of 3701-fc9c9c66 through `sub.cc.u32` from a folded 0 (seed 4603's 11183ca8, session
//! 47; `emulate/sub_cc_from_folded_zero_held_negated.rs`; corpus/findings/fuzz-h200-4603/trace/
//! T17t5.md, variants in trace/11183ca8/ and its s47/). Thread 0 of a warp.

use super::ptxas_constant_operands::{warp_exact, warp_kept};
use super::*;

const D: Deviation = Deviation::XorOfSetAndCnotGivesOneMinus;

/// 11183ca8's frame: r0 = word 0, d1 = words 2–3, the set `0 > d1` into %r1, `sub` (writing
/// %r6), the xor and its store.
fn with(sub: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.b32 %r0, [%in];", "mov.b64 %d0, 0;", "ld.global.s64 %d1, [%in+8];"];
    lines.push("set.gt.s32.s64 %r1, %d0, %d1;");
    lines.extend_from_slice(sub);
    lines.extend(["xor.b32 %r9, %r1, %r6;", "st.global.b32 [%out], %r9;"]);
    lines
}

/// r0 = 0, d1 = 0xb1fa799d00000000 (11183ca8's words: the set true).
const WORDS: [u32; 4] = [0, 0, 0, 0xb1fa_799d];

/// 11183ca8 (`reduced.ptx`: `@P0 IADD3 R7, -R6` of `LOP3 0x33`, x + 1): 1 for r0 = 0, the spec
/// 0xffffffff; x = 0x80000000 gives 0x80000001 (spec 0x7fffffff); the immediate 0 (s47/x1) and
/// an `add.u32` of a moved 3 and −3 (s47/x4) alike.
#[test]
fn fc9c9c66_11183ca8_the_negated_word_may_be_a_sub_cc_u32_from_a_folded_zero() {
    let moved = ["mov.b32 %r5, 0;", "sub.cc.u32 %r6, %r5, %r0;"];
    warp_exact(&with(&moved), WORDS, D, 0xffff_ffff, 1);
    warp_exact(&with(&moved), [0x8000_0000, 0, 0, 0xb1fa_799d], D, 0x7fff_ffff, 0x8000_0001);
    let added = ["mov.b32 %r4, 3;", "add.u32 %r5, %r4, -3;", "sub.cc.u32 %r6, %r5, %r0;"];
    warp_exact(&with(&added), WORDS, D, 0xffff_ffff, 1);
}

/// Right (13.0.88 -O3 `@P0 LOP3.LUT R7, RZ, R7, RZ, 0x33` of −x): a shuffled 0 (s47/x2), a moved
/// 5 (s47/x3, `v4_from_5_right`), `sub.cc.s32` (`v5_sub_cc_s32`), a false set.
#[test]
fn fc9c9c66_a_sub_cc_from_a_shuffled_or_nonzero_or_signed_minuend_is_right() {
    let shuffled = ["mov.b32 %r4, 0;", "shfl.sync.bfly.b32 %r5, %r4, 1, 31, -1;", "sub.cc.u32 %r6, %r5, %r0;"];
    warp_kept(&with(&shuffled), WORDS, D);
    warp_kept(&with(&["mov.b32 %r5, 5;", "sub.cc.u32 %r6, %r5, %r0;"]), WORDS, D);
    warp_kept(&with(&["mov.b32 %r5, 0;", "sub.cc.s32 %r6, %r5, %r0;"]), WORDS, D);
    warp_kept(&with(&["mov.b32 %r5, 0;", "sub.cc.u32 %r6, %r5, %r0;"]), [0, 0, 0, 1], D);
}

/// 11183ca8's campaign case: emulating fc9c9c66 alone gives the stored ptxas -O3/JIT word 0 (1,
/// the spec 0xffffffff) in every thread (r0 = 0, d1 < 0 in all 32; the campaign lists the first
/// eight mismatches), and the spec's words elsewhere.
#[test]
fn fc9c9c66_11183ca8_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4603", "11183ca870b2a757");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { 1 } else { s.bits };
        assert!(w != 0 || (s.bits, s.is_exact()) == (0xffff_ffff, true), "thread {t} spec");
        assert_eq!((e.bits, e.is_exact()), (want, true), "thread {t} word {w}");
    }
}
