//! Tests of 3701 C1-N2's trigger widened to an if-converted test against zero after another
//! branch (corpus/findings/fuzz-h200-4303/trace/T14x4.md, 67fafce8, its folder and `x/`;
//! helper z4, session 44): with no logic op of a set in the program, `cvt.rn.bf16.s32` of a
//! set.f32 result is bf16 1.0 (`SEL R7, RZ, 0x3f80, !P0`, ptxas 13.0.88 and 13.5 -O3) where the
//! spec converts the word 0x3f800000 (bf16 0x4e7e). Word 0: the cvt's half high, the low 16 bits
//! of the tested 64-bit x (inputs words 2–3) low; word 1 the r0 of the earlier diamond.

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

const EARLIER: [&str; 4] = ["setp.ne.s32 %p0, %r0, -1;", "@%p0 bra $L0;", "mov.b32 %r0, 0;", "$L0:"];
const SET_CVT: [&str; 3] =
    ["set.lt.f32.u16 %r1, %h1, 198;", "cvt.rn.bf16.s32 %h4, %r1;", "st.global.u16 [%out+2], %h4;"];

/// The zero test `setp` (of x = %d1), its branch and the arm `mov.b64 %d1, 0`.
fn zero_test(setp: &'static str) -> [&'static str; 4] {
    [setp, "@%p2 bra $L2;", "mov.b64 %d1, 0;", "$L2:"]
}

/// reduced.ptx's loads, then `middle`, then the stores of x's low half and of r0.
fn kernel(middle: &[&[&'static str]]) -> Vec<&'static str> {
    let head = ["ld.global.s32 %r0, [%in];", "ld.global.u16 %h1, [%in+4];", "ld.global.u64 %d1, [%in+8];"];
    let tail = ["cvt.u16.u64 %h7, %d1;", "st.global.u16 [%out], %h7;", "st.global.u32 [%out+4], %r0;"];
    [&head[..], &middle.concat(), &tail[..]].concat()
}

const GE_U64: &str = "setp.ge.u64 %p2, %d1, 0;";
/// h1 = 3 < 198: the set is 1.0f; x = 0x1234; r0 = 5 (not −1, kept).
const WORDS: [u32; 4] = [5, 3, 0x1234, 0];
/// The two output words (word 1 high): bf16 0x4e7e by the spec, 1.0 (0x3f80) on the GPU.
const SPEC: u64 = 0x5_4e7e_1234;
const BUG: u64 = 0x5_3f80_1234;

/// 67fafce8 (reduced.ptx = z1): the r0 diamond, the set and cvt, the `ge.u64 0` diamond.
#[test]
fn reduced_67fafce8_converts_1_after_two_if_converted_branches() {
    exact_case(&kernel(&[&EARLIER, &SET_CVT, &zero_test(GE_U64)]), WORDS, D, SPEC, BUG);
    // The set false: 0 both ways.
    untouched(&kernel(&[&EARLIER, &SET_CVT, &zero_test(GE_U64)]), [5, 300, 0x1234, 0], D);
}

/// x/: every compare with 0 of a 32- or 64-bit type (x7 ne.u64, w2 ge.s64, x4 gt.s64,
/// a_b_notbra `@!p`), the set and cvt before both branches (z2) or between the setp and its
/// branch (set_a_b_cvt), the earlier branch around a store (z13).
#[test]
fn any_wide_compare_with_zero_and_any_order_after_the_earlier_branch() {
    for setp in ["setp.ne.u64 %p2, %d1, 0;", "setp.ge.s64 %p2, %d1, 0;", "setp.gt.s64 %p2, %d1, 0;"] {
        exact_case(&kernel(&[&EARLIER, &SET_CVT, &zero_test(setp)]), WORDS, D, SPEC, BUG);
    }
    exact_case(&kernel(&[&EARLIER, &zero_test(GE_U64), &SET_CVT]), WORDS, D, SPEC, BUG);
    let not_bra = ["setp.lt.s64 %p2, %d1, 0;", "@!%p2 bra $L2;", "mov.b64 %d1, 0;", "$L2:"];
    exact_case(&kernel(&[&EARLIER, &SET_CVT, &not_bra]), WORDS, D, SPEC, BUG);
    let around_store = ["setp.ne.s32 %p0, %r0, -1;", "@%p0 bra $L0;", "st.global.u32 [%out+4], %r0;", "$L0:"];
    exact_case(&kernel(&[&around_store, &SET_CVT, &zero_test(GE_U64)]), WORDS, D, SPEC, BUG);
    // a_b_u32: a second 32-bit diamond `setp.gt.u32 r2, 0` (r2 = word 3 = 0, so r2 becomes 9).
    let u32_test = [
        "ld.global.u32 %r2, [%in+12];",
        "setp.gt.u32 %p1, %r2, 0;",
        "@%p1 bra $L5;",
        "mov.b32 %r2, 9;",
        "$L5:",
        "st.global.u16 [%out], %r2;",
    ];
    exact_case(&kernel(&[&EARLIER, &SET_CVT, &u32_test]), WORDS, D, SPEC, BUG);
}

/// x/a_b_cvtu64 (`SEL R6, RZ, 0x1`) and a_b_cvtf32u32 (`FSEL R9, RZ, 1`): the widening and an
/// f32 conversion of the set under the same trigger.
#[test]
fn the_widening_and_the_f32_conversion_under_the_zero_test() {
    let head = ["ld.global.s32 %r0, [%in];", "ld.global.u16 %h1, [%in+4];", "ld.global.u64 %d1, [%in+8];"];
    let tail = [
        "cvt.u16.u64 %h7, %d1;",
        "st.global.u16 [%out+4], %h7;",
        "cvt.u16.u32 %h8, %r0;",
        "st.global.u16 [%out+6], %h8;",
    ];
    let set = "set.lt.f32.u16 %r1, %h1, 198;";
    let widen = [set, "cvt.u64.s32 %d3, %r1;", "cvt.u32.u64 %r6, %d3;", "st.global.u32 [%out], %r6;"];
    let lines = [&head[..], &EARLIER, &zero_test(GE_U64), &widen, &tail].concat();
    exact_case(&lines, WORDS, D, 0x5_1234_3f80_0000, 0x5_1234_0000_0001);
    let f32 = [set, "cvt.rn.f32.u32 %r5, %r1;", "st.global.u32 [%out], %r5;"];
    let lines = [&head[..], &EARLIER, &zero_test(GE_U64), &f32, &tail].concat();
    exact_case(&lines, WORDS, D, 0x5_1234_4e7e_0000, 0x5_1234_3f80_0000);
}

/// The right variants: the zero test first (b_a_cvt, b_cvt_a), its setp above the earlier
/// branch (a_b_setp_early), one branch only (z4, z5), the arm writing another register (x/
/// b_arm_other, b_cmp_d1_arm_d2), a guarded mov for the zero test (z15), an if/else diamond
/// (b_ifelse), the earlier arm dead (a_nonstored_arm), a compare with 5 (z8),
/// with −1 (z7), a 16-bit test (a_h_ne0_16).
#[test]
fn right_variants_are_left_alone() {
    untouched(&kernel(&[&zero_test(GE_U64), &EARLIER, &SET_CVT]), WORDS, D);
    untouched(&kernel(&[&zero_test(GE_U64), &SET_CVT, &EARLIER]), WORDS, D);
    let early = ["setp.ne.u64 %p2, %d1, 0;"];
    let late = ["@%p2 bra $L2;", "mov.b64 %d1, 0;", "$L2:"];
    untouched(&kernel(&[&early, &EARLIER, &SET_CVT, &late]), WORDS, D);
    untouched(&kernel(&[&SET_CVT, &zero_test(GE_U64)]), WORDS, D);
    untouched(&kernel(&[&EARLIER, &SET_CVT]), WORDS, D);
    let other = ["setp.ne.u64 %p2, %d1, 0;", "@%p2 bra $L2;", "mov.b32 %r0, 5;", "$L2:"];
    untouched(&kernel(&[&EARLIER, &SET_CVT, &other]), WORDS, D);
    let guarded = ["setp.ge.u64 %p2, %d1, 0;", "@!%p2 mov.b64 %d1, 0;"];
    untouched(&kernel(&[&EARLIER, &SET_CVT, &guarded]), WORDS, D);
    untouched(&kernel(&[&EARLIER, &SET_CVT, &zero_test("setp.ge.u64 %p2, %d1, 5;")]), WORDS, D);
    untouched(&kernel(&[&EARLIER, &SET_CVT, &zero_test("setp.ne.u64 %p2, %d1, -1;")]), WORDS, D);
    let u16_test =
        ["setp.ne.u16 %p1, %h1, 0;", "@%p1 bra $L5;", "mov.b16 %h1, 0;", "$L5:", "st.global.u16 [%out], %h1;"];
    untouched(&[&kernel(&[&EARLIER, &SET_CVT])[..], &u16_test].concat(), WORDS, D);
    // b_ifelse: the zero test an if/else diamond.
    let if_else =
        ["setp.ne.u64 %p2, %d1, 0;", "@%p2 bra $L2;", "mov.b64 %d1, 0;", "bra $L3;", "$L2:", "mov.b64 %d1, 9;", "$L3:"];
    untouched(&kernel(&[&EARLIER, &SET_CVT, &if_else]), WORDS, D);
    // a_nonstored_arm: the earlier arm writes a register nothing reads (dropped; one branch left).
    let dead = ["setp.ne.s32 %p0, %r0, -1;", "@%p0 bra $L0;", "mov.b32 %r3, 0;", "$L0:"];
    untouched(&kernel(&[&dead, &SET_CVT, &zero_test(GE_U64)]), WORDS, D);
}

/// x/b_reg0: the 0 a register a `mov` of 0 holds (`setp.ge.u64 p2, d1, d2`) is wrong too.
#[test]
fn a_moved_zero_is_the_zero() {
    let moved = ["mov.b64 %d2, 0;", "setp.ge.u64 %p2, %d1, %d2;", "@%p2 bra $L2;", "mov.b64 %d1, 0;", "$L2:"];
    exact_case(&kernel(&[&EARLIER, &SET_CVT, &moved]), WORDS, D, SPEC, BUG);
}
