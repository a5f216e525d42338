//! Tests of the emulations of root causes found by the H200 campaign of seed 3702
//! (`emulate/fuzz3702.rs`: 3702-N1 and 3702-N3): one per cause, each the GPU's word under the
//! emulation and the spec's without, and the variants its trace shows right left alone.

use super::*;

/// 3702-N1 (corpus/findings/fuzz-h200-3702/, e1ce1744, trace `reduced.ptx`): x = 254 gives
/// `max.s16 h, x, 0` = 254, so `setp.eq.u16 h, 0` is false and `selp` gives 1; 13.0.88 -O3's
/// P0 ("x selected") is true and `selp` gives 254 (the stored 254² = 0xfc04 downstream).
#[test]
fn n1_3702_setp_eq_of_a_max_against_its_immediate_reads_x_selected() {
    let d = Deviation::SetpEqOfMinMaxReadsSelection;
    let with = |minmax: &'static str, setp: &'static str| {
        ["ld.global.u8 %h1, [%in];", minmax, setp, "selp.b16 %h3, %h2, 1, %p4;", "st.global.u16 [%out], %h3;"]
    };
    let reduced = with("max.s16 %h2, %h1, 0;", "setp.eq.u16 %p4, %h2, 0;");
    exact_case(&reduced, [0xfe, 0, 0, 0], d, 1, 0xfe);
    // A tie (x = K) is right.
    untouched(&reduced, [0, 0, 0, 0], d);
    // v2 (min) and v3 (an immediate 7): x = 3 gives min 3 ≠ 7, P0 (3 ≤ 7) true.
    exact_case(&with("min.s16 %h2, %h1, 7;", "setp.eq.u16 %p4, %h2, 7;"), [3, 0, 0, 0], d, 1, 3);
    exact_case(&with("max.s16 %h2, %h1, 7;", "setp.eq.u16 %p4, %h2, 7;"), [0xfe, 0, 0, 0], d, 1, 0xfe);
    // Right: a compare with x (v1), setp.ne (v4), a different immediate, a register K (v5).
    untouched(&with("max.s16 %h2, %h1, 0;", "setp.eq.u16 %p4, %h2, %h1;"), [0xfe, 0, 0, 0], d);
    untouched(&with("max.s16 %h2, %h1, 0;", "setp.ne.u16 %p4, %h2, 0;"), [0xfe, 0, 0, 0], d);
    untouched(&with("max.s16 %h2, %h1, 0;", "setp.eq.u16 %p4, %h2, 7;"), [0xfe, 0, 0, 0], d);
    let register_k = [
        "ld.global.u8 %h1, [%in];",
        "ld.global.u8 %h5, [%in+4];",
        "max.s16 %h2, %h1, %h5;",
        "setp.eq.u16 %p4, %h2, %h5;",
        "selp.b16 %h3, %h2, 1, %p4;",
        "st.global.u16 [%out], %h3;",
    ];
    untouched(&register_k, [0xfe, 0, 0, 0], d);
}

/// 3702-N3 (corpus/findings/fuzz-h200-3702/, 2a151aca, trace `reduced.ptx` with the arm's
/// `set`'s 0 moved (glue takes no immediate first source), and d357c575,
/// trace `min.ptx`): in a one-armed `if`, the arm's −1 over an old 1.0f (or its 1.0f over an old
/// −1) is dropped, the old value stored (13.0.88 -O3 `MOV R7, 0xffffffff; STG`, no compare).
#[test]
fn n3_3702_minus_one_and_one_f32_are_merged_at_the_join_of_a_one_armed_if() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let with = |old: &'static str, arm: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "mov.b32 %r5, 0;",
            old,
            "setp.gt.u32 %p1, %r0, 88;",
            "@!%p1 bra $L0;",
            arm,
            "$L0:",
            "st.global.u32 [%out], %r3;",
        ]
    };
    // 2a151aca's reduced form: old 1.0f, the arm's `set` −1 (run for r0 = 89).
    let reduced = with("mov.b32 %r3, 1065353216;", "set.ge.s32.u32 %r3, %r5, 0;");
    exact_case(&reduced, [89, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    // The arm skipped: the old value either way.
    untouched(&reduced, [5, 0, 0, 0], d);
    // v11 (the arm a `mov`), v10 (old −1, the arm `set.f32` 1.0f), a `set` of a register with
    // itself (the stored cases' form).
    exact_case(&with("mov.b32 %r3, 1065353216;", "mov.b32 %r3, -1;"), [89, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    exact_case(&with("mov.b32 %r3, -1;", "set.ge.f32.u32 %r3, %r5, 0;"), [89, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    let self_set = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u16 %h0, [%in+4];",
        "set.eq.f32.s16 %r3, %h0, %h0;",
        "setp.gt.u32 %p1, %r0, 88;",
        "@!%p1 bra $L0;",
        "ld.global.u64 %d0, [%in+8];",
        "set.ge.s32.u64 %r3, %d0, %d0;",
        "$L0:",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&self_set, [89, 7, 3, 4], d, 0xFFFF_FFFF, 0x3F80_0000);
    // Right: old 5 (v0), other pairs (T3C), a loaded operand of the arm's `set` (v2/v8), the
    // guarded form without a branch (v4/v9), the register read in the arm after the write.
    untouched(&with("mov.b32 %r3, 5;", "set.ge.s32.u32 %r3, %r5, 0;"), [89, 0, 0, 0], d);
    untouched(&with("mov.b32 %r3, -1;", "mov.b32 %r3, 1;"), [89, 0, 0, 0], d);
    untouched(&with("mov.b32 %r3, -1;", "mov.b32 %r3, 0x3c00;"), [89, 0, 0, 0], d);
    untouched(&with("mov.b32 %r3, 1065353216;", "set.ge.s32.u32 %r3, %r0, 0;"), [89, 0, 0, 0], d);
    let guarded = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r5, 0;",
        "mov.b32 %r3, 1065353216;",
        "setp.gt.u32 %p1, %r0, 88;",
        "@%p1 set.ge.s32.u32 %r3, %r5, 0;",
        "st.global.u32 [%out], %r3;",
    ];
    untouched(&guarded, [89, 0, 0, 0], d);
    let read_in_arm = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r3, 1065353216;",
        "setp.gt.u32 %p1, %r0, 88;",
        "@!%p1 bra $L0;",
        "mov.b32 %r3, -1;",
        "add.u32 %r4, %r3, 1;",
        "$L0:",
        "st.global.u32 [%out], %r3;",
    ];
    untouched(&read_in_arm, [89, 0, 0, 0], d);
}

/// 3702-N2 (corpus/findings/fuzz-h200-3702/, 2a3b3599, trace `reduced.ptx`): a = 5, x =
/// 0x0f0f0f0f: the spec's x ^ a ^ L(a, 0, 0) is ~x = 0xf0f0f0f0 (L = 0x49 gives ~a); 13.0.88's
/// merged LOP3 reads x as c: x ^ a ^ L(a, 0, x) = 0xfffffffa. The stored case's form (b = a, c
/// a register 0x12345678) reads x as b: x ^ a ^ L(a, x, c) = 0xedcba987, the spec 0xe2c4a68d.
#[test]
fn n2_3702_a_lop3_merged_into_a_xor_chain_reads_x_as_its_redundant_input() {
    let d = Deviation::Lop3MergedIntoXorReadsX;
    let with = |lop3: &'static str, outer: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r2, [%in+4];",
            "ld.global.u32 %r3, [%in+8];",
            lop3,
            "xor.b32 %r7, %r0, %r4;",
            outer,
            "st.global.u32 [%out], %r8;",
        ]
    };
    let words = [5, 0x0F0F_0F0F, 0x1234_5678, 0];
    let reduced = with("lop3.b32 %r4, %r0, 0x0, 0x0, 0x49;", "xor.b32 %r8, %r7, %r2;");
    exact_case(&reduced, words, d, 0xF0F0_F0F0, 0xFFFF_FFFA);
    exact_case(
        &with("lop3.b32 %r4, %r0, 0x0, 0x0, 0x49;", "xor.b32 %r8, %r2, %r7;"),
        words,
        d,
        0xF0F0_F0F0,
        0xFFFF_FFFA,
    );
    exact_case(
        &with("lop3.b32 %r4, %r0, %r0, %r3, 0x49;", "xor.b32 %r8, %r7, %r2;"),
        words,
        d,
        0xE2C4_A68D,
        0xEDCB_A987,
    );
    // Right: a loaded b (v4), no outer xor (v1: the chain stored as it is).
    untouched(&with("lop3.b32 %r4, %r0, %r3, 0x0, 0x49;", "xor.b32 %r8, %r7, %r2;"), words, d);
    untouched(&with("lop3.b32 %r4, %r0, 0x0, 0x0, 0x49;", "mov.b32 %r8, %r7;"), words, d);
}
