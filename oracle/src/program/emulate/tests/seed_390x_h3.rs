//! Tests of the known root causes' scopes widened to their mechanism by helper h3 of session 40
//! (seeds 3901–3903: 3702-N1, N2, N3 and N4; corpus/findings/fuzz-h200-390{1,2,3}/trace/): each
//! the GPU's word under the emulation and the spec's without, and the forms the listings show
//! right, or where the mechanism cannot apply, left alone.

use super::*;

/// 3702-N3 in a one-armed `if` run for thread input 11 (`old` the writes before the branch,
/// `arm` the arm's), storing `%r3`.
fn one_armed_if<'a>(old: &[&'a str], arm: &[&'a str]) -> Vec<&'a str> {
    let mut lines = vec!["ld.global.u32 %r0, [%in];"];
    lines.extend_from_slice(old);
    lines.extend_from_slice(&["setp.ne.s32 %p2, %r0, 11;", "@%p2 bra $L1;"]);
    lines.extend_from_slice(arm);
    lines.extend_from_slice(&["$L1:", "st.global.u32 [%out], %r3;"]);
    lines
}

/// 3702-N3 (corpus/findings/fuzz-h200-3901/, 92812601, trace/T6A.md; fuzz-h200-3903/, 1de51f3f,
/// trace/T6G.md): the arm's `set.le.f32.s32 %r3, %r3, K` reads a register a `set` of constants
/// wrote (−1): 13.0.88 -O3 `MOV R7, 0xffffffff; STG`, the arm's 1.0f dropped. The same arm
/// skipped, and a `set` of a loaded value (no constant), are the spec's.
#[test]
fn n3_the_arms_set_reads_a_register_a_set_of_constants_wrote() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let old = ["mov.b64 %d0, 0;", "set.eq.s32.u64 %r3, %d0, 0;"];
    let arm = ["set.le.f32.s32 %r3, %r3, 941378089;"];
    exact_case(&one_armed_if(&old, &arm), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    untouched(&one_armed_if(&old, &arm), [5, 0, 0, 0], d);
    // 1de51f3f: `set.eq.u32.u64` of the moved 0, the arm `set.lt.f32.s32 …, 0x7fffffff`.
    let old_u32 = ["mov.b64 %d0, 0;", "set.eq.u32.u64 %r3, %d0, 0;"];
    let arm_lt = ["set.lt.f32.s32 %r3, %r3, 2147483647;"];
    exact_case(&one_armed_if(&old_u32, &arm_lt), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    let loaded = ["ld.global.u64 %d0, [%in+8];", "set.eq.s32.u64 %r3, %d0, 0;"];
    untouched(&one_armed_if(&loaded, &arm), [11, 0, 0, 0], d);
}

/// 3702-N3 (corpus/findings/fuzz-h200-3903/, 7e601e7a, trace/T6F.md): the old value a
/// `set.ge.f32.u64` of a moved 0 (1.0f), the arm `set.ne.u32.s32 %r3, %r3, K` (−1) dropped
/// (13.0.88 -O3 `MOV R0, 0x3f800000` only).
#[test]
fn n3_an_old_one_f32_from_a_set_of_constants_is_kept() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let old = ["mov.b64 %d1, 0;", "set.ge.f32.u64 %r3, %d1, 0;"];
    let arm = ["set.ne.u32.s32 %r3, %r3, -1577558721;"];
    exact_case(&one_armed_if(&old, &arm), [11, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
}

/// 3702-N3 generalized (session 40, 13.0.88 -O3, each `MOV R7, 0xffffffff; STG` or the old
/// 1.0f alone): however ptxas knows the two constants, they are merged. The arm's write an `and`
/// of a moved −1 with 0x3f800000, a copy of a moved 1.0f, a `cvt.rn.f32.s32` of a moved 1, a
/// copy of a `selp` by a constant predicate; the old value an `add` of constants (1.0f under the
/// arm's −1); the arm's `set` reading a copy of a `set` of constants.
#[test]
fn n3_any_constant_ptxas_folds_is_merged() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let moved = ["mov.b32 %r3, -1;", "mov.b32 %r5, -1;"];
    exact_case(&one_armed_if(&moved, &["and.b32 %r3, %r5, 0x3f800000;"]), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    let one = ["mov.b32 %r3, -1;", "mov.b32 %r5, 0x3f800000;"];
    exact_case(&one_armed_if(&one, &["mov.b32 %r3, %r5;"]), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    let int_one = ["mov.b32 %r3, -1;", "mov.b32 %r5, 1;"];
    exact_case(&one_armed_if(&int_one, &["cvt.rn.f32.s32 %r3, %r5;"]), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    let selected = [
        "mov.b32 %r3, -1;",
        "mov.b32 %r9, 1;",
        "mov.b32 %r6, 0x3f800000;",
        "setp.eq.s32 %p0, %r9, 1;",
        "selp.b32 %r5, %r6, 7, %p0;",
    ];
    exact_case(&one_armed_if(&selected, &["mov.b32 %r3, %r5;"]), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
    let added = ["mov.b32 %r5, 1065353215;", "add.s32 %r3, %r5, 1;"];
    let arm_ge = ["set.ge.u32.s32 %r3, %r5, 941378089;"];
    exact_case(&one_armed_if(&added, &arm_ge), [11, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    let copied_set = ["mov.b64 %d0, 0;", "set.eq.s32.u64 %r4, %d0, 0;", "mov.b32 %r3, %r4;"];
    let arm_of_copy = ["set.le.f32.s32 %r3, %r4, 941378089;"];
    exact_case(&one_armed_if(&copied_set, &arm_of_copy), [11, 0, 0, 0], d, 0x3F80_0000, 0xFFFF_FFFF);
}

/// 3702-N3 where ptxas cannot know the old value (session 40, 13.0.88 -O3 keeps `@!P0 MOV R7,
/// 0xffffffff; @!P1 MOV R7, 0x3f800000`: right): the old −1 written in an earlier arm, so a
/// join lies between it and the branch; a `set` of constants there the same.
#[test]
fn n3_an_old_value_from_an_earlier_arm_is_no_constant() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let earlier_arm = ["ld.global.u32 %r7, [%in+4];", "mov.b32 %r3, 5;", "setp.ne.s32 %p1, %r7, 3;", "@%p1 bra $L0;"];
    let mut moved = earlier_arm.to_vec();
    moved.extend_from_slice(&["mov.b32 %r3, -1;", "$L0:"]);
    untouched(&one_armed_if(&moved, &["mov.b32 %r3, 0x3f800000;"]), [11, 3, 0, 0], d);
    let mut set = earlier_arm.to_vec();
    set.extend_from_slice(&["mov.b64 %d0, 0;", "set.eq.s32.u64 %r3, %d0, 0;", "$L0:"]);
    untouched(&one_armed_if(&set, &["set.le.f32.s32 %r3, %r3, 941378089;"]), [11, 3, 0, 0], d);
}

/// 3702-N1 (corpus/findings/fuzz-h200-3903/, b4cd7e34, trace/T6F.md): `setp.eq.s16` of
/// `max.s16 h, x, 0` reads VIMNMX's "x selected" (`VIMNMX.S16x2 R0, P0, P0, R2, RZ, !PT`):
/// x = −42 is not selected, p false where §9.7.7.2 gives max = 0 = K, true. `min.s16` the same
/// (session 40; `setp.eq.b16` too, which the oracle's glue does not parse); `setp.ne.s16` and
/// the 32-bit `max.s32` keep an `ISETP` (right).
#[test]
fn n1_a_setp_eq_of_any_16_bit_type_reads_x_selected() {
    let d = Deviation::SetpEqOfMinMaxReadsSelection;
    let with = |minmax: &'static str, setp: &'static str| {
        [
            "ld.global.s8 %h3, [%in+3];",
            "mov.b32 %r8, 7;",
            minmax,
            setp,
            "selp.b32 %r10, %r8, 0, %p2;",
            "st.global.b32 [%out], %r10;",
        ]
    };
    let words = [0xd600_0000, 0, 0, 0];
    exact_case(&with("max.s16 %h0, %h3, 0;", "setp.eq.s16 %p2, %h0, 0;"), words, d, 7, 0);
    // min.s16 of −42 and 9: −42 is selected (p true) where min = −42 ≠ 9.
    exact_case(&with("min.s16 %h0, %h3, 9;", "setp.eq.s16 %p2, %h0, 9;"), words, d, 0, 7);
    untouched(&with("max.s16 %h0, %h3, 0;", "setp.ne.s16 %p2, %h0, 0;"), words, d);
    let wide = [
        "ld.global.s32 %r3, [%in];",
        "max.s32 %r0, %r3, 5;",
        "setp.eq.s32 %p2, %r0, 5;",
        "mov.b32 %r8, 7;",
        "selp.b32 %r10, %r8, 0, %p2;",
        "st.global.b32 [%out], %r10;",
    ];
    untouched(&wide, [0xffff_ffd6, 0, 0, 0], d);
}

/// 3702-N2 (corpus/findings/fuzz-h200-3901/, ec047aa1, trace/T6B.md): `and(lop3(a, a, a, 0x30),
/// a)` is `LOP3.LUT R7, R2, RZ, RZ, 0x30`: both repeated inputs bound to RZ, d = a & L(a, 0, 0)
/// = a, where §9.7.8.6 gives a & (a & ~a) = 0. With an outer xor (session 40: `xor(x, xor(lop3(a,
/// a, a, 0x65), a))` is `LOP3.LUT R7, x, RZ, a, 0x63`) `b` is bound to x and `c` to RZ: d = x ^
/// (a ^ L(a, x, 0)).
#[test]
fn n2_a_lop3_whose_b_and_c_both_repeat_a() {
    let d = Deviation::Lop3MergedIntoXorReadsX;
    let a = 0x7056_0db4u32;
    let lone = [
        "ld.global.b32 %r0, [%in];",
        "lop3.b32 %r1, %r0, %r0, %r0, 0x30;",
        "and.b32 %r2, %r1, %r0;",
        "st.global.b32 [%out], %r2;",
    ];
    exact_case(&lone, [a, 0, 0, 0], d, 0, u64::from(a));
    let x = 0x0f0f_3c3cu32;
    let outer = [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b32 %r5, [%in+4];",
        "lop3.b32 %r1, %r0, %r0, %r0, 0x65;",
        "xor.b32 %r3, %r1, %r0;",
        "xor.b32 %r2, %r5, %r3;",
        "st.global.b32 [%out], %r2;",
    ];
    // The table 0x65 applied bit by bit (§9.7.8.6).
    let lut = |a: u32, b: u32, c: u32| -> u32 {
        (0..32).map(|i| ((0x65u32 >> ((a >> i & 1) * 4 + (b >> i & 1) * 2 + (c >> i & 1))) & 1) << i).sum()
    };
    let spec = x ^ (a ^ lut(a, a, a));
    let bug = x ^ (a ^ lut(a, x, 0));
    exact_case(&outer, [a, x, 0, 0], d, u64::from(spec), u64::from(bug));
}

/// 3702-N4 (corpus/findings/fuzz-h200-3901/, e685156a, trace/T6B.md; fuzz-h200-3902/,
/// 1ab3812a, trace/T6D.md): an element of `ld.v2.s8` widened by `cvt.u32.s16` and converted
/// by `cvt.rn.f32.u32` is `I2F.S8 R7, R2.B1`: 0xd5 gives −43 (0xc22c0000) where §9.7.9.21
/// converts 0xffffffd5 to 2^32 (0x4f800000). Any chain keeping the sign extension the same
/// (session 40, 13.0.88 -O3): a `mov.b16` copy, `cvt.s16.s8` then `cvt.u32.s16`, `cvt.u32.s8`
/// then `cvt.u32.u32`, a `.v4.s8` element, a `.v2.s8` loaded into 32-bit registers read
/// directly. Right: `cvt.u32.u16` (a zero extension), a `.v2.s16` load, a scalar `ld.s8`.
#[test]
fn n4_a_sign_extended_byte_of_a_vector_load_through_any_chain() {
    let d = Deviation::ByteOfVectorLoadU32CvtConvertsSigned;
    let words = [0x0000_d500, 0, 0, 0];
    let with = |load: &'static str, chain: &[&'static str]| {
        let mut lines = vec![load];
        lines.extend_from_slice(chain);
        lines.extend_from_slice(&["cvt.rn.f32.u32 %r7, %r6;", "st.global.b32 [%out], %r7;"]);
        lines
    };
    let v2 = "ld.global.v2.s8 {%h0, %h1}, [%in];";
    let (spec, bug) = (0x4f80_0000, 0xc22c_0000);
    exact_case(&with(v2, &["cvt.u32.s16 %r6, %h1;"]), words, d, spec, bug);
    exact_case(&with(v2, &["cvt.s32.s16 %r6, %h1;"]), words, d, spec, bug);
    exact_case(&with(v2, &["cvt.u32.s8 %r6, %h1;"]), words, d, spec, bug);
    exact_case(&with(v2, &["mov.b16 %h5, %h1;", "cvt.u32.s16 %r6, %h5;"]), words, d, spec, bug);
    exact_case(&with(v2, &["cvt.s16.s8 %h5, %h1;", "cvt.u32.s16 %r6, %h5;"]), words, d, spec, bug);
    exact_case(&with(v2, &["cvt.u32.s8 %r5, %h1;", "cvt.u32.u32 %r6, %r5;"]), words, d, spec, bug);
    let v4 = "ld.global.v4.s8 {%h0, %h1, %h2, %h3}, [%in];";
    exact_case(&with(v4, &["cvt.u32.s16 %r6, %h1;"]), words, d, spec, bug);
    exact_case(&with("ld.global.v2.s8 {%r5, %r6}, [%in];", &[]), words, d, spec, bug);
    untouched(&with(v2, &["cvt.u32.u16 %r6, %h1;"]), words, d);
    untouched(&with("ld.global.v2.s16 {%h0, %h1}, [%in];", &["cvt.u32.s16 %r6, %h0;"]), [0xffd5, 0, 0, 0], d);
    untouched(&with("ld.global.s8 %h1, [%in+1];", &["cvt.u32.s16 %r6, %h1;"]), words, d);
}
