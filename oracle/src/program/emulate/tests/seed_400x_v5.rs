//! Tests of the emulation of seed 4003's new word-level root cause (`emulate/fuzz4003.rs`):
//! 0c35d334, a `shl.b64` by a constant of 64 or more of a select of two constants folded as
//! `c << (k & 63)`. Each is the GPU's word under the emulation and the spec's without, the
//! variants ptxas 13.0.88 -O3 compiles right untouched.

use super::*;

/// 0c35d334 (corpus/findings/fuzz-h200-4003/, trace/T7F.md, `trace/0c35d334/reduced.ptx`):
/// c = 0x2c75e3be37e54566, `@!p neg.s64 d, d` (p false: d = −c = 0xd38a1c41c81aba9a), `shl.b64`
/// by 0x100: the spec clamps to 0; 13.0.88 and 13.5 -O3 store −c unshifted (the stored low
/// half 0xba9a), 65 gives c << 1, 100 c << 36 (the output is the 64-bit word).
#[test]
fn n_0c35d334_a_shl_b64_of_a_select_of_two_constants_by_64_or_more_shifts_by_k_mod_64() {
    let d = Deviation::ShlB64OfTwoConstantSelectMasked;
    let c: u64 = 0x2c75_e3be_37e5_4566;
    let guarded = |write: &'static str, shift: &'static str| {
        vec![
            "ld.global.u32 %r0, [%in];",
            "mov.s64 %d0, 3203717116065039718;",
            "setp.gt.u32 %p0, %r0, 0x3e;",
            write,
            shift,
            "st.global.b64 [%out], %d7;",
        ]
    };
    let neg = "@!%p0 neg.s64 %d0, %d0;";
    let by256 = "shl.b64 %d7, %d0, 0x100;";
    let neg_c = c.wrapping_neg();
    exact_case(&guarded(neg, by256), [0; 4], d, 0, neg_c);
    // The other arm (p true, no neg): c unshifted.
    exact_case(&guarded(neg, by256), [0x40, 0, 0, 0], d, 0, c);
    // 65 → c << 1, 100 → c << 36 (the high word checked through a shr as well),
    // 0xffffffff → c << 63 = 0 for an even c (no change, the spec's 0).
    exact_case(&guarded(neg, "shl.b64 %d7, %d0, 65;"), [0x40, 0, 0, 0], d, 0, c << 1);
    let high = [
        "ld.global.u32 %r0, [%in];",
        "mov.s64 %d0, 3203717116065039718;",
        "setp.gt.u32 %p0, %r0, 0x3e;",
        neg,
        "shl.b64 %d7, %d0, 100;",
        "shr.u64 %d6, %d7, 32;",
        "st.global.b64 [%out], %d6;",
    ];
    exact_case(&high, [0x40, 0, 0, 0], d, 0, (c << 36) >> 32);
    // A moved amount, a guarded mov of 77 (v_guarded_mov) and a selp of two immediates (v_selp).
    let moved = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r1, 64;",
        "mov.s64 %d0, 3203717116065039718;",
        "setp.gt.u32 %p0, %r0, 0x3e;",
        neg,
        "shl.b64 %d7, %d0, %r1;",
        "st.global.b64 [%out], %d7;",
    ];
    exact_case(&moved, [0; 4], d, 0, neg_c);
    exact_case(&guarded("@!%p0 mov.s64 %d0, 77;", by256), [0; 4], d, 0, 77);
    let selp = [
        "ld.global.u32 %r0, [%in];",
        "setp.gt.u32 %p0, %r0, 0x3e;",
        "mov.s64 %d1, 3203717116065039718;",
        "selp.b64 %d0, %d1, 77, %p0;",
        by256,
        "st.global.b64 [%out], %d7;",
    ];
    exact_case(&selp, [0; 4], d, 0, 77);
    // Right: a single constant (v_unguarded_neg), a loaded value under the guarded neg
    // (v_loaded_guarded_neg), a selp of a constant and a loaded value, shr.u64 (v_shr),
    // shl.b32 (v_shl32), an amount below 64 (v_by40).
    untouched(&guarded("neg.s64 %d0, %d0;", by256), [0; 4], d);
    let loaded = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.s64 %d0, [%in+8];",
        "setp.gt.u32 %p0, %r0, 0x3e;",
        neg,
        by256,
        "st.global.b64 [%out], %d7;",
    ];
    untouched(&loaded, [0, 0, 5, 0], d);
    let selp_loaded = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.s64 %d1, [%in+8];",
        "setp.gt.u32 %p0, %r0, 0x3e;",
        "selp.b64 %d0, %d1, 3203717116065039718, %p0;",
        by256,
        "st.global.b64 [%out], %d7;",
    ];
    untouched(&selp_loaded, [0x40, 0, 5, 0], d);
    untouched(&guarded(neg, "shr.u64 %d7, %d0, 0x100;"), [0; 4], d);
    let shl32 = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r1, 0x37e54566;",
        "setp.gt.u32 %p0, %r0, 0x3e;",
        "@!%p0 neg.s32 %r1, %r1;",
        "shl.b32 %r2, %r1, 0x100;",
        "st.global.b32 [%out], %r2;",
    ];
    untouched(&shl32, [0; 4], d);
    untouched(&guarded(neg, "shl.b64 %d7, %d0, 40;"), [0; 4], d);
}
