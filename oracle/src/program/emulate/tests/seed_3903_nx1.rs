//! Tests of two emulations narrowed where seed 3903's trace (corpus/findings/fuzz-h200-3903/,
//! `trace/T6F.md`) shows ptxas 13.0.88 right: M with a mask ptxas knows (dae791a1) and N-7 with
//! an `a` ptxas knows (43d72870). Each: the variant the listing shows right left alone, the one
//! it shows wrong still emulated.

use super::*;

/// M (dae791a1, trace/T6F.md; `trace/dae791a1/nx1_*.ptx`, 13.0.88 -O3): a moved-immediate mask is
/// an immediate mask. `mov.b16 h, 0` (or the immediate 0) folds the `and` to 0 (`PRMT R5, RZ,
/// 0x5410, R4`), so a `cvt.rn.satfinite.f16.f32` masked by it keeps the spec's 0 in a pack's low
/// half; `mov.b16 h, 0x40` drops the mask as the immediate 0x40 does (`F2FP…; PRMT R0, R0, 0x5410,
/// RZ`, no `LOP3`), also after a plain `cvt.rn`/`cvt.rz`.
#[test]
fn m_a_moved_immediate_mask_is_an_immediate_mask() {
    let d = Deviation::F16MaskDropped;
    let with = |cvt: &'static str, mask: &'static [&'static str]| {
        let head = ["ld.global.b32 %r2, [%in];", cvt];
        let tail = ["ld.global.b16 %h9, [%in+4];", "mov.b32 %r18, {%h8, %h9};", "st.global.b32 [%out], %r18;"];
        [&head[..], mask, &tail[..]].concat()
    };
    // 1.5 (0x3e00 as an f16), the high half 0x1234.
    let words = [0x3fc0_0000, 0x1234, 0, 0];
    let moved_zero: &[&str] = &["mov.b16 %h4, 0;", "and.b16 %h8, %h4, %h1;"];
    let zero: &[&str] = &["and.b16 %h8, %h1, 0;"];
    let moved_0x40: &[&str] = &["mov.b16 %h4, 0x40;", "and.b16 %h8, %h4, %h1;"];
    let satfinite = "cvt.rn.satfinite.f16.f32 %h1, %r2;";
    untouched(&with(satfinite, moved_zero), words, d);
    untouched(&with(satfinite, zero), words, d);
    untouched(&with("cvt.rz.f16.f32 %h1, %r2;", moved_zero), words, d);
    exact_case(&with(satfinite, moved_0x40), words, d, 0x1234_0000, 0x1234_3e00);
    exact_case(&with("cvt.rn.f16.f32 %h1, %r2;", moved_0x40), words, d, 0x1234_0000, 0x1234_3e00);
    exact_case(&with("cvt.rz.f16.f32 %h1, %r2;", moved_0x40), words, d, 0x1234_0000, 0x1234_3e00);
}

/// N-7 (43d72870, trace/T6F.md: `reduced`, `v1_loaded_a`; 13.0.88 -O3): with `a` a moved
/// 0x0fffffff too, `bfe.s32 d, r0, r0, r0` (start and length 0xff) folds right (`STG … RZ`, the
/// sign of a non-negative `a`, §9.7.1.19); a loaded `a` gives −1 (`MOV R5, 0xffffffff`). An `a`
/// computed from known values is known too (`or.b32` of moved immediates: `STG … RZ`).
#[test]
fn n7_a_known_a_folds_the_bfe_right() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |a: &'static [&'static str], bfe: &'static str| {
        let tail = [bfe, "st.global.b32 [%out], %r1;"];
        [&["mov.b32 %r0, 268435455;"][..], a, &tail[..]].concat()
    };
    let words = [0x0fff_ffff, 0, 0, 0];
    untouched(&with(&[], "bfe.s32 %r1, %r0, %r0, %r0;"), words, d);
    let or_of_moved: &[&str] = &["mov.b32 %r3, 16;", "or.b32 %r2, %r3, %r0;"];
    untouched(&with(or_of_moved, "bfe.s32 %r1, %r2, %r0, %r0;"), words, d);
    let loaded: &[&str] = &["ld.global.b32 %r2, [%in];"];
    exact_case(&with(loaded, "bfe.s32 %r1, %r2, %r0, %r0;"), words, d, 0, 0xFFFF_FFFF);
}
