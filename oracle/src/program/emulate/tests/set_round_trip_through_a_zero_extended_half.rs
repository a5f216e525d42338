//! Tests of 3301-N3 through the zero extension of its half float step (seed 4901's fdd09fa7,
//! session 49; corpus/findings/fuzz-h200-4901/trace/T20.md, variants in trace/fdd09fa7/v/).

use super::*;

const D: Deviation = Deviation::SetRoundTripFolded;

/// `set.eq.u32.u32 r1, x, 0` (x word 0), `mid` (`h0` from r1), `widen` (r0 from h0), `last` and
/// `st`.
fn chain(src: &str, mid: &str, widen: &str, last: &str, st: &str) -> Vec<String> {
    ["ld.global.u32 %r3, [%in];", src, mid, widen, last, st]
        .into_iter()
        .flat_map(|l| l.split('\n'))
        .map(String::from)
        .collect()
}

const SET: &str = "set.eq.u32.u32 %r1, %r3, 0x0;";
const F16: &str = "cvt.rn.f16.s32 %h0, %r1;";
const S32U16: &str = "cvt.s32.u16 %r0, %h0;";

/// The stored case: thread 0's set is true (−1), the GPU's word 0 is 0xffffffff (spec 0); the
/// other threads' sets are false, 0 either way.
#[test]
fn n3_3301_fdd09fa7_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("4901", "fdd09fa76fa874cf");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if t == 0 && w == 0 { 0xffff_ffff } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Wrong (13.0.88 and 13.5 -O3 `SEL R0, RZ, 0xffffffff, !P0` cut at the last cvt's type): the
/// case's `cvt.rni.u16.f32` (0xffff), `.s16` (v2), `.s32` (v6), `.u8` (v23: 0x00ff), a
/// `set.lt.s32.s32` (v16), the `.bf16` step (v18), `cvt.u32.u16` with `.s64` (v22: all ones, the
/// sign of the float step's `.s32` source). The spec: −1.0's bits 0xbc00 read as an f32 denormal, 0.
#[test]
fn n3_3301_a_round_trip_through_a_zero_extended_half_is_the_set() {
    let st16 = "st.global.u16 [%out], %h2;";
    for (mid, widen, last, st, bug) in [
        (F16, S32U16, "cvt.rni.u16.f32 %h2, %r0;", st16, 0xffff),
        (F16, S32U16, "cvt.rni.s16.f32 %h2, %r0;", st16, 0xffff),
        (F16, S32U16, "cvt.rni.u8.f32 %h2, %r0;", st16, 0x00ff),
        (F16, S32U16, "cvt.rzi.s32.f32 %r2, %r0;", "st.global.u32 [%out], %r2;", 0xffff_ffff),
        ("cvt.rn.bf16.s32 %h0, %r1;", S32U16, "cvt.rni.s32.f32 %r2, %r0;", "st.global.u32 [%out], %r2;", 0xffff_ffff),
        (F16, "cvt.u32.u16 %r0, %h0;", "cvt.rzi.s64.f32 %d0, %r0;", "st.global.u64 [%out], %d0;", u64::MAX),
    ] {
        let l = chain(SET, mid, widen, last, st);
        exact_case(&strs(&l), [0, 0, 0, 0], D, 0, bug);
        untouched(&strs(&l), [7, 0, 0, 0], D);
    }
    let lt =
        chain("set.lt.s32.s32 %r1, %r3, 0x0;", F16, S32U16, "cvt.rzi.s32.f32 %r2, %r0;", "st.global.u32 [%out], %r2;");
    exact_case(&strs(&lt), [0x8000_0000, 0, 0, 0], D, 0, 0xffff_ffff);
}

/// Right (`I2F.F16 …; F2I` of the bits, the spec's 0): a loaded −1 (v1), a moved −1 (v7), a
/// `selp` −1 (v8), `cnot` and `and 1` sources (v20, v21), a real `cvt.f32.f16` between (v4).
#[test]
fn n3_3301_leaves_other_sources_and_real_float_steps_alone() {
    let last = "cvt.rni.u16.f32 %h2, %r0;";
    let st = "st.global.u16 [%out], %h2;";
    for src in [
        "ld.global.u32 %r1, [%in+4];",
        "mov.b32 %r1, -1;",
        "setp.eq.u32 %p1, %r3, 0;\nmov.b32 %r4, -1;\nselp.b32 %r1, %r4, 0, %p1;",
        "cnot.b32 %r1, %r3;",
        "and.b32 %r1, %r3, 1;",
    ] {
        untouched(&strs(&chain(src, F16, S32U16, last, st)), [0, 0xffff_ffff, 0, 0], D);
        untouched(&strs(&chain(src, F16, S32U16, last, st)), [1, 0xffff_ffff, 0, 0], D);
    }
    untouched(&strs(&chain(SET, F16, "cvt.f32.f16 %r0, %h0;", last, st)), [0, 0, 0, 0], D);
}
