//! Tests of 3702-N5 widened to its mechanism (`emulate/prmt_narrowed_per_zero_extending_reader.rs`, session 40): a narrowed
//! `prmt.b32` reaches every reader that zero-extends its low bytes, through copies, the low half of
//! an unpack and a truncation to 16 bits, whatever other readers (live or dead) it has. Seeds
//! 3901 (c1fd74f1, f1997773, afd53851) and 3902 (a3caccc7, d605bf4d, e99092f5, fa039778), their
//! reduced programs and the variants compiled with ptxas 13.0.88 -O3 in session 40 (prmt 0x959b
//! of d605bf4d). Each is the GPU's word under the emulation and the spec's without, and the
//! forms that keep the whole `PRMT` untouched.

use super::*;

const D: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// c1fd74f1 (3901 trace/T6A.md, `reduced.ptx`): `cvt.s16.u32` of `prmt r, a, a, 0x10AC` read by
/// `setp.ge.u16 h, 52475` is `PRMT R0, RZ, 0xac, R2`: byte 1 (the sign of a's byte 2) is 0, so
/// 1.0f gives h = 0 (< 0xccfb, 0) where the spec's 0xff00 gives 1. `cvt.u16.u32` (v6) the same;
/// the cvt stored (v2, `.s16` too), `setp.lt.s16` (v7) and an index nibble (v5) are right.
#[test]
fn n5_c1fd74f1_truncation_read_by_an_unsigned_16_bit_compare() {
    let with = |cvt: &'static str, setp: &'static str| {
        [
            "mov.b32 %r9, 1;",
            "ld.global.b32 %r0, [%in];",
            "prmt.b32 %r1, %r0, %r0, 0x10AC;",
            cvt,
            setp,
            "selp.b32 %r2, %r9, 0x0, %p0;",
            "st.global.u32 [%out], %r2;",
        ]
    };
    let one = [0x3f80_0000, 0, 0, 0];
    let ge = "setp.ge.u16 %p0, %h2, 52475;";
    exact_case(&with("cvt.s16.u32 %h2, %r1;", ge), one, D, 1, 0);
    exact_case(&with("cvt.u16.u32 %h2, %r1;", ge), one, D, 1, 0);
    untouched(&with("cvt.s16.u32 %h2, %r1;", "setp.lt.s16 %p0, %h2, 52475;"), one, D);
    let stored = ["ld.global.b32 %r0, [%in];", "prmt.b32 %r1, %r0, %r0, 0x10AC;"];
    for cvt in ["cvt.s16.u32 %h2, %r1;", "cvt.u16.u32 %h2, %r1;", "cvt.s16.s32 %h2, %r1;"] {
        untouched(&[stored[0], stored[1], cvt, "st.global.u16 [%out], %h2;"], one, D);
    }
    let mut index = with("cvt.u16.u32 %h2, %r1;", ge);
    index[2] = "prmt.b32 %r1, %r0, %r0, 0x102C;";
    untouched(&index, one, D);
}

/// f1997773 (3901 trace/T6B.md, `v2_sel_6b_setp`): `cvt.u16.u32` of `prmt r, K, b, 0x9D6B` (byte 0
/// the sign of K's byte 3, 0xff) read as the second operand of `setp.gt.u16 21, h` is `PRMT R0,
/// RZ, 0x6b, R2`: h = 0, so 21 > h selects 7 where the spec's h = 0x00ff gives 0.
#[test]
fn n5_f1997773_truncation_read_as_the_second_operand_of_a_compare() {
    let lines = [
        "mov.b16 %h1, 21;",
        "mov.b32 %r9, 7;",
        "mov.b32 %r0, 2868991070;",
        "ld.global.b32 %r3, [%in+12];",
        "prmt.b32 %r4, %r0, %r3, 0x9D6B;",
        "cvt.u16.u32 %h4, %r4;",
        "setp.gt.u16 %p0, %h1, %h4;",
        "selp.b32 %r34, %r9, 0x0, %p0;",
        "st.global.b32 [%out], %r34;",
    ];
    exact_case(&lines, [0, 0, 0, 0], D, 0, 7);
}

/// afd53851 (3901 trace/T6B.md, `reduced.ptx`) and fa039778 (3902 trace/T6D.md, `reduced.ptx`):
/// the narrowing reader (`and 0xff`; `cvt.u8.s32` of a prmt in place) beside a dead reader (`mov.b32
/// %r7, %r1`; `cvt.rni.u16.f32`) is `PRMT R7, RZ, 0xa, R2` / `PRMT R7, RZ, 0xb, R2` as without it.
#[test]
fn n5_afd53851_fa039778_a_dead_second_reader_does_not_matter() {
    let afd = [
        "mov.b32 %r0, 4188831252;",
        "ld.global.b32 %r1, [%in];",
        "prmt.b32 %r1, %r0, %r1, 3762178858;",
        "and.b32 %r6, %r1, 0xff;",
        "mov.b32 %r7, %r1;",
        "st.global.b32 [%out], %r6;",
    ];
    exact_case(&afd, [0x1234_5678, 0, 0, 0], D, 0xff, 0);
    let fa0 = [
        "ld.global.s32 %r0, [%in];",
        "prmt.b32 %r0, %r0, %r0, 1318627131;",
        "cvt.u8.s32 %h3, %r0;",
        "cvt.rni.u16.f32 %h12, %r0;",
        "st.global.u16 [%out], %h3;",
    ];
    exact_case(&fa0, [0x8000_0000, 0, 0, 0], D, 0xff, 0);
}

/// a3caccc7 (3902 trace/T6E.md, `reduced.ptx`): `setp.eq.u16 p, lo, 0` of the low half of `prmt r,
/// K, b, 0xc9be` unpacked by `mov.b32 {lo, hi}` is `PRMT R0, RZ, 0xbe, R2`: byte 1 (the sign of
/// K's byte 3, 0xff) is 0, so the test holds, the branch skips `mov.b16 lo, 0` and the
/// untested 0xff00 is stored twice (0xff00ff00, the GPU word) where the spec stores 0. The half
/// stored (`v1_unpack_stored`) keeps the whole PRMT.
#[test]
fn n5_a3caccc7_compare_of_the_low_half_of_an_unpack() {
    let lines = [
        "mov.b32 %r0, 3811907373;",
        "ld.global.b32 %r3, [%in];",
        "prmt.b32 %r6, %r0, %r3, 51646;",
        "mov.b32 {%h0, %h1}, %r6;",
        "setp.eq.u16 %p2, %h0, 0x0;",
        "@%p2 bra $L2;",
        "mov.b16 %h0, 0;",
        "$L2:",
        "mov.b32 %r18, {%h0, %h0};",
        "st.global.f32 [%out], %r18;",
    ];
    exact_case(&lines, [0, 0, 0, 0], D, 0, 0xff00_ff00);
    let stored = [lines[0], lines[1], lines[2], lines[3], "st.global.b16 [%out], %h0;"];
    untouched(&stored, [0, 0, 0, 0], D);
}

/// d605bf4d (3902 trace/T6D.md, `reduced.ptx`, `v5_setp_eq`) and e99092f5 (`reduced.ptx`,
/// `v1_mulhi`): `cnot.b16`, `setp.eq.u16`, `mul.lo.u16` and `mul.hi.u16` of the low half of an
/// unpacked narrowed `prmt` read byte 1 (the sign of a's byte 1) as 0: `PRMT R0, RZ, 0x9b, R2`,
/// `PRMT R7, RZ, 0xe9, R2`. In `mul.hi.u16 hi, lo` the high half keeps its value. The low half
/// stored (v4-like), the high half (v3, v7) and the whole word are right.
#[test]
fn n5_d605bf4d_e99092f5_arithmetic_of_the_low_half_of_an_unpack() {
    let words = [0, 0, 0, 0];
    exact_case(&d605(&["cnot.b16 %h2, %h0;"]), words, D, 0, 1);
    exact_case(&d605(&["setp.eq.u16 %p0, %h0, 0;", "selp.b16 %h2, %h5, 2, %p0;"]), words, D, 2, 1);
    untouched(&d605(&["cnot.b16 %h2, %h1;"]), words, D);
    untouched(&d605(&["mov.b16 %h2, %h0;"]), words, D);
    let e99 = |reader: &'static str| {
        [
            "ld.global.s32 %r0, [%in];",
            "prmt.b32 %r1, %r0, %r0, 0x84d46e9;",
            "mov.b32 {%h1, %h0}, %r1;",
            reader,
            "st.global.b16 [%out], %h2;",
        ]
    };
    exact_case(&e99("mul.lo.u16 %h2, %h1, 3;"), [0x0000_8000, 0, 0, 0], D, 0x2fd, 0);
    exact_case(&e99("mul.hi.u16 %h2, %h0, %h1;"), [0x00ff_80ff, 0, 0, 0], D, 0xfffe, 0xfeff);
}

/// d605bf4d's program (`prmt.b32 %r2, K, b, 0x959b`: byte 0 the sign of K's byte 3, 0x00; byte 1
/// the sign of K's byte 1, 0xff) with `readers` after its `mov.b32 {%h0, %h1}` unpack, storing
/// `%h2`.
fn d605(readers: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "mov.b16 %h5, 1;",
        "ld.global.b32 %r0, [%in];",
        "mov.b32 %r1, 1067232186;",
        "prmt.b32 %r2, %r1, %r0, 0x959b;",
        "mov.b32 {%h0, %h1}, %r2;",
    ];
    lines.extend_from_slice(readers);
    lines.push("st.global.b16 [%out], %h2;");
    lines
}

/// The variants of d605bf4d compiled with ptxas 13.0.88 -O3 in session 40: `PRMT R, RZ, 0x9b, R2`
/// (byte 1 read as 0) under `setp.ne.u16` (`.b16` the same, not in the program model),
/// `set.lt.u32.u16`, `shr.{u16,b16}`, `mad.lo.u16`, `mul.wide.u16`, `cvt.{u32,s32}.u16`, through a `mov.b16` copy and through `cvt.u16.s32` in
/// place of the unpack; `PRMT R, RZ, 0xb, R2` (byte 0 alone) under `cvt.u8.{u16,s16}`.
#[test]
fn n5_session_40_zero_extending_readers_of_the_low_half() {
    let words = [0, 0, 0, 0];
    exact_case(&d605(&["setp.ne.u16 %p0, %h0, 0;", "selp.b16 %h2, %h5, 2, %p0;"]), words, D, 1, 2);
    exact_case(&d605(&["setp.lt.u16 %p0, %h0, 77;", "selp.b16 %h2, %h5, 2, %p0;"]), words, D, 2, 1);
    exact_case(&d605(&["shr.u16 %h2, %h0, 3;"]), words, D, 0x1fe0, 0);
    exact_case(&d605(&["shr.b16 %h2, %h0, 8;"]), words, D, 0xff, 0);
    exact_case(&d605(&["mad.lo.u16 %h2, %h0, 3, 5;"]), words, D, 0xfd05, 5);
    let copied = ["mov.b16 %h3, %h0;", "setp.lt.u16 %p0, %h3, 77;", "selp.b16 %h2, %h5, 2, %p0;"];
    exact_case(&d605(&copied), words, D, 2, 1);
    let set = [
        "ld.global.b32 %r0, [%in];",
        "mov.b32 %r1, 1067232186;",
        "prmt.b32 %r2, %r1, %r0, 0x959b;",
        "cvt.u16.s32 %h0, %r2;",
    ];
    let mut cvt = set.to_vec();
    cvt.extend(["cvt.u32.u16 %r3, %h0;", "st.global.b32 [%out], %r3;"]);
    exact_case(&cvt, words, D, 0xff00, 0);
    let mut set_u16 = set.to_vec();
    set_u16.extend(["set.lt.u32.u16 %r3, %h0, 77;", "st.global.b32 [%out], %r3;"]);
    exact_case(&set_u16, words, D, 0, 0xffff_ffff);
    let mut wide = set.to_vec();
    wide.extend(["mul.wide.u16 %r3, %h0, 7;", "st.global.b32 [%out], %r3;"]);
    exact_case(&wide, words, D, 0x6_f900, 0);
    // Byte 0 alone: `PRMT R7, RZ, 0xb, R2` (cvt.u8.u16); here byte 0 is the sign of K's byte 3
    // (0x3f, 0x00 either way), so a K with a negative byte 3 shows it.
    let negative = |cvt: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            "mov.b32 %r1, 3214715834;",
            "prmt.b32 %r2, %r1, %r0, 0x959b;",
            "mov.b32 {%h0, %h1}, %r2;",
            cvt,
            "st.global.b16 [%out], %h2;",
        ]
    };
    exact_case(&negative("cvt.u8.u16 %h2, %h0;"), words, D, 0xff, 0);
    exact_case(&negative("cvt.u8.s16 %h2, %h0;"), words, D, 0xff, 0);
}

/// The same variants that keep the whole `PRMT` (13.0.88 -O3, session 40): `add.u16`, `xor.b16`,
/// `shl.b16`, `min.u16`, `and.b16 0xff` (the `LOP3` of the whole word), the signed readers
/// `setp.lt.s16`, `mul.lo.s16`, `shr.s16`, `cvt.s32.s16` (a sign extension `PRMT 0x9910`),
/// `cvt.rn.f32.u16` (`I2F.U16`), `cvt.sat.u16.u32`, a store of the half and a byte unpack.
#[test]
fn n5_session_40_readers_that_keep_the_whole_prmt() {
    let words = [0, 0, 0, 0];
    for readers in [
        &["add.u16 %h2, %h0, 3;"][..],
        &["xor.b16 %h2, %h0, 0x1234;"],
        &["shl.b16 %h2, %h0, 3;"],
        &["min.u16 %h2, %h0, 300;"],
        &["and.b16 %h2, %h0, 0xff;"],
        &["mul.lo.s16 %h2, %h0, 3;"],
        &["shr.s16 %h2, %h0, 3;"],
        &["st.global.b8 [%out+4], %h0;", "mov.b16 %h2, 0;"],
    ] {
        untouched(&d605(readers), words, D);
    }
    untouched(&d605(&["setp.lt.s16 %p0, %h0, 77;", "selp.b16 %h2, %h5, 2, %p0;"]), words, D);
    let base =
        ["mov.b16 %h5, 1;", "ld.global.b32 %r0, [%in];", "mov.b32 %r1, 1067232186;", "prmt.b32 %r2, %r1, %r0, 0x959b;"];
    let more = |lines: &[&'static str]| base.iter().chain(lines).copied().collect::<Vec<_>>();
    untouched(&more(&["mov.b32 {%h0, %h1}, %r2;", "cvt.s32.s16 %r3, %h0;", "st.global.b32 [%out], %r3;"]), words, D);
    untouched(&more(&["mov.b32 {%h0, %h1}, %r2;", "cvt.rn.f32.u16 %r3, %h0;", "st.global.b32 [%out], %r3;"]), words, D);
    let sat = ["cvt.sat.u16.u32 %h0, %r2;", "setp.lt.u16 %p0, %h0, 77;", "selp.b16 %h2, %h5, 2, %p0;"];
    untouched(&more(&[sat[0], sat[1], sat[2], "st.global.b16 [%out], %h2;"]), words, D);
    let bytes = ["mov.b32 {%c0, %c1, %c2, %c3}, %r2;", "cvt.u32.u8 %r3, %c1;", "st.global.b32 [%out], %r3;"];
    untouched(&more(&bytes), words, D);
}

/// A live second reader does not keep the whole `PRMT` for the narrowing one: ptxas 13.0.88 -O3
/// (session 40) emits a narrowed copy for it and the whole `PRMT` for the other (`PRMT R0, RZ,
/// 0x9b, R2` and `PRMT R7, R7, 0x959b, R2` with the low half also stored; `PRMT R9, RZ, 0xb, R2`
/// and `PRMT R7, R11, 0x959b, R2` with the word also stored after a `cvt.u8.s32`).
#[test]
fn n5_session_40_a_live_second_reader_keeps_its_own_whole_prmt() {
    let words = [0, 0, 0, 0];
    let setp = ["setp.lt.u16 %p0, %h0, 77;", "selp.b16 %h2, %h5, 2, %p0;", "st.global.b16 [%out+4], %h0;"];
    // The low half stored at word 1 keeps its value (0xff00): only the compare reads the narrowed copy.
    exact_case(&d605(&setp), words, D, 0xff00_0000_0002, 0xff00_0000_0001);
    let add = ["setp.lt.u16 %p0, %h0, 77;", "selp.b16 %h2, %h5, 2, %p0;", "add.u16 %h3, %h0, 5;"];
    exact_case(&d605(&add), words, D, 2, 1);
}
