//! Tests of the emulation of a root cause seed 4103's campaign found (helper z2,
//! `emulate/high_half_of_max_s32_rejoined_after_an_arm.rs`): bfed5396, the high half of a 0x7fffffff that a one-armed if
//! rewrote to 0x7fffffff read as 0xffff (corpus/findings/fuzz-h200-4103/trace/T9y4.md,
//! `trace/bfed5396/`). Each is the GPU's word under the emulation and the spec's without, the
//! variants ptxas 13.0.88 -O3 compiles right untouched.

use super::*;

/// The reduced case with `arm` as the one-armed if's op (`branch` skips it), the register
/// holding `start`, and the high half repacked by `pack` and stored.
fn joined(start: &str, branch: [&'static str; 2], arm: &str, pack: &str) -> Vec<String> {
    vec![
        format!("mov.b32 %r1, {start};"),
        branch[0].to_string(),
        branch[1].to_string(),
        arm.to_string(),
        "$L0:".to_string(),
        "mov.b32 {%h2, %h1}, %r1;".to_string(),
        pack.to_string(),
        "st.global.b32 [%out], %r12;".to_string(),
    ]
}

/// The case's branch: thread 0 (tid 0 ≠ 23) runs the arm.
const RUNS_ARM: [&str; 2] = ["setp.ne.s32 %p1, %tix, 23;", "@!%p1 bra $L0;"];
/// `setp_eq_arm`: thread 0 branches around the arm.
const SKIPS_ARM: [&str; 2] = ["setp.eq.s32 %p1, %tix, 0;", "@%p1 bra $L0;"];
const SPLAT: &str = "mov.b32 %r12, {%h1, %h1};";

/// bfed5396 (trace/T9y4.md, `reduced.ptx`): `cvt.sat.u32.s32` of 0x7fffffff in the arm, then
/// `mov.b32 {%h2, %h1}` and `{%h1, %h1}`: 13.0.88 -O3 `MOV R7, 0xffffffff`, the spec 0x7fff7fff;
/// the campaign's word 0x6c126c11 is 0xffffffff + 0x6c126c12. The other evidenced arms (`max.s32
/// r, r, 0`, `min.u32 r, r, 0x7fffffff`, `and.b32 r, r, 0x7fffffff`, `abs.s32`,
/// `cvt.sat.s32.u32`), the thread that skips the arm (`setp_eq_arm`) and the repack `{h1, h2}`
/// (`pack_h1_h2`: 0xffffffff for 0xffff7fff) alike.
#[test]
fn bfed5396_the_high_half_of_a_joined_0x7fffffff_is_read_as_0xffff() {
    let d = Deviation::JoinedMaxS32HighHalfReadAsAllOnes;
    let case = |branch, arm: &str, pack| joined("2147483647", branch, arm, pack);
    exact_case(&strs(&case(RUNS_ARM, "cvt.sat.u32.s32 %r1, %r1;", SPLAT)), [0; 4], d, 0x7fff_7fff, 0xffff_ffff);
    let with_add = [
        case(RUNS_ARM, "cvt.sat.u32.s32 %r1, %r1;", SPLAT),
        vec!["add.u32 %r15, %r12, 1813146642;".to_string(), "st.global.b32 [%out], %r15;".to_string()],
    ]
    .concat();
    exact_case(&strs(&with_add), [0; 4], d, 0xec11_ec11, 0x6c12_6c11);
    for arm in [
        "max.s32 %r1, %r1, 0;",
        "max.s32 %r1, %r1, 5;",
        "min.u32 %r1, %r1, 2147483647;",
        "min.s32 %r1, %r1, 2147483647;",
        "and.b32 %r1, %r1, 2147483647;",
        "abs.s32 %r1, %r1;",
        "cvt.sat.s32.u32 %r1, %r1;",
    ] {
        exact_case(&strs(&case(RUNS_ARM, arm, SPLAT)), [0; 4], d, 0x7fff_7fff, 0xffff_ffff);
    }
    exact_case(&strs(&case(SKIPS_ARM, "cvt.sat.u32.s32 %r1, %r1;", SPLAT)), [0; 4], d, 0x7fff_7fff, 0xffff_ffff);
    let h1_h2 = "mov.b32 %r12, {%h1, %h2};";
    exact_case(&strs(&case(RUNS_ARM, "cvt.sat.u32.s32 %r1, %r1;", h1_h2)), [0; 4], d, 0xffff_7fff, 0xffff_ffff);
}

/// Right on 13.0.88 -O3 (trace/T9y4.md, `trace/bfed5396/` v*.ptx and var/): another constant
/// (0x7ffffffe, 0x0000ffff), an arm ptxas drops as a copy (`cvt.u32.s32`, `add 0`, `max r, r,
/// r`), no branch (`v1_nobranch`), a predicated arm (`v5_guarded`), an if/else diamond, the
/// register stored whole (`v3_direct_store`) or shifted (`v7_hi_shr`), the high half stored
/// alone (`st_h1_only`), a loaded value (`v6_loaded`).
#[test]
fn bfed5396_other_constants_copies_straight_code_and_other_readers_are_left_alone() {
    let d = Deviation::JoinedMaxS32HighHalfReadAsAllOnes;
    let sat = "cvt.sat.u32.s32 %r1, %r1;";
    untouched(&strs(&joined("2147483646", RUNS_ARM, sat, SPLAT)), [0; 4], d);
    untouched(&strs(&joined("65535", RUNS_ARM, "and.b32 %r1, %r1, 65535;", SPLAT)), [0; 4], d);
    for copy in ["cvt.u32.s32 %r1, %r1;", "add.u32 %r1, %r1, 0;", "max.s32 %r1, %r1, %r1;", "mov.b32 %r1, %r1;"] {
        untouched(&strs(&joined("2147483647", RUNS_ARM, copy, SPLAT)), [0; 4], d);
    }
    let straight = ["mov.b32 %r1, 2147483647;", sat, "mov.b32 {%h2, %h1}, %r1;", SPLAT, "st.global.b32 [%out], %r12;"];
    untouched(&straight, [0; 4], d);
    let guarded = [
        "mov.b32 %r1, 2147483647;",
        "setp.ne.s32 %p1, %tix, 23;",
        "@%p1 cvt.sat.u32.s32 %r1, %r1;",
        "mov.b32 {%h2, %h1}, %r1;",
        SPLAT,
        "st.global.b32 [%out], %r12;",
    ];
    untouched(&guarded, [0; 4], d);
    let diamond = [
        "mov.b32 %r1, 2147483647;",
        "setp.ne.s32 %p1, %tix, 23;",
        "@!%p1 bra $L1;",
        sat,
        "bra $L0;",
        "$L1:",
        "max.s32 %r1, %r1, 0;",
        "$L0:",
        "mov.b32 {%h2, %h1}, %r1;",
        SPLAT,
        "st.global.b32 [%out], %r12;",
    ];
    untouched(&diamond, [0; 4], d);
    let mut whole = joined("2147483647", RUNS_ARM, sat, "shr.u32 %r12, %r1, 16;");
    untouched(&strs(&whole), [0; 4], d);
    whole[5] = "mov.b32 %r12, %r1;".to_string();
    untouched(&strs(&whole), [0; 4], d);
    let mut alone = joined("2147483647", RUNS_ARM, sat, "mov.b32 %r12, 0;");
    alone[7] = "st.global.b16 [%out], %h1;".to_string();
    untouched(&strs(&alone), [0; 4], d);
    let mut loaded = joined("2147483647", RUNS_ARM, sat, SPLAT);
    loaded[0] = "ld.global.b32 %r1, [%in];".to_string();
    untouched(&strs(&loaded), [0x7fff_ffff; 4], d);
}
