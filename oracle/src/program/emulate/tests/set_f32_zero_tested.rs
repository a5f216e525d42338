//! Tests of B's rebuilt `set.f32` amount where a live test of the set's word against 0 is the
//! trigger (seed 4501's ac502846; corpus/findings/fuzz-h200-4501/trace/T16t1.md, variants in
//! trace/ac502846/ and trace/ac502846/s46/; `emulate/set_f32_zero_tested.rs`).

use super::*;

/// ac502846's `reduced.ptx` with the zero test's lines `test` (writing `%r2`, stored as word 1)
/// before the guarded load and `after` after the shift; `shift` the 64-bit shift by `%r1`.
fn zero_tested(test: &[&'static str], shift: &'static str, after: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.b32 %r0, [%in];", "mov.s64 %d0, -738456585820630395;", "mov.b32 %r3, 1065353216;"];
    lines.push("set.ne.f32.u32 %r1, %r3, %r0;");
    lines.extend_from_slice(test);
    lines.extend(["setp.gt.u32 %p2, %tix, 0x62;", "@%p2 ld.global.b64 %d0, [%in];", shift]);
    lines.extend_from_slice(after);
    lines.extend(["mov.b64 {%r5, %r6}, %d0;", "st.global.s32 [%out], %r5;", "st.global.u32 [%out+4], %r2;"]);
    lines
}

const SHR: &str = "shr.s64 %d0, %d0, %r1;";
const K: u64 = 0xf5c0_79a5_d01d_1285;

/// ac502846 (ptxas 13.0.88 and 13.5 -O3, the JIT: `SEL R11, RZ, 0x1, !P0; SHF.R.S64 R7, R6,
/// R11, R7`): across the guarded load the 1.0 amount shifts by 1 (low word 0xe80e8942), the
/// spec clamps 0x3f800000 to 63 (0xffffffff); the case's moved 0 (`set.eq.s32.s32 r2, r0, r1`), the
/// test as `setp` + `selp` (v3), `set.ne` with 0
/// second (v8), after the shift (v7), `setp.ne.u32 p, 0, r1` (s46/w3), a moved 0 (s46/w7) and a
/// `shl.b64` (s46/w4) the same.
#[test]
fn b_ac502846_4501_a_set_f32_tested_against_0_is_rebuilt_at_its_shift() {
    let d = Deviation::F32ShiftAmount;
    let by_one = ((K as i64) >> 1) as u64 & 0xFFFF_FFFF;
    let reduced = zero_tested(&["set.eq.s32.s32 %r2, %r1, 0;"], SHR, &[]);
    exact_case(&reduced, [0; 4], d, 0xFFFF_FFFF, by_one);
    // The stored case (the minimized program): r1 copied first, r0 reused for the moved 0.
    let case = [
        "ld.global.b32 %r0, [%in];",
        "mov.u32 %r1, %r0;",
        "mov.s64 %d0, -738456585820630395;",
        "mov.b32 %r0, 1065353216;",
        "set.ne.f32.u32 %r1, %r0, %r1;",
        "mov.b32 %r0, 0;",
        "set.eq.s32.s32 %r2, %r0, %r1;",
        "setp.gt.u32 %p2, %tix, 0x62;",
        "@%p2 ld.global.b64 %d0, [%in];",
        SHR,
        "mov.b64 {%r5, %r6}, %d0;",
        "st.global.s32 [%out], %r5;",
        "st.global.u32 [%out+4], %r2;",
    ];
    exact_case(&case, [0; 4], d, 0xFFFF_FFFF, by_one);
    let setp = zero_tested(&["setp.eq.s32 %p0, %r1, 0;", "selp.b32 %r2, %r0, 9, %p0;"], SHR, &[]);
    exact_case(&setp, [0; 4], d, 9 << 32 | 0xFFFF_FFFF, 9 << 32 | by_one);
    let ne = zero_tested(&["set.ne.u32.s32 %r2, %r1, 0;"], SHR, &[]);
    exact_case(&ne, [0; 4], d, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF << 32 | by_one);
    let after = zero_tested(&[], SHR, &["set.eq.s32.s32 %r2, %r1, 0;"]);
    exact_case(&after, [0; 4], d, 0xFFFF_FFFF, by_one);
    let setp_zero_first =
        zero_tested(&["mov.b32 %r4, 0;", "setp.ne.u32 %p1, %r4, %r1;", "selp.b32 %r2, %r3, 4, %p1;"], SHR, &[]);
    exact_case(&setp_zero_first, [0; 4], d, 0x3f80_0000 << 32 | 0xFFFF_FFFF, 0x3f80_0000 << 32 | by_one);
    let moved_zero = zero_tested(&["mov.b32 %r4, 0;", "set.eq.s32.s32 %r2, %r4, %r1;"], SHR, &[]);
    exact_case(&moved_zero, [0; 4], d, 0xFFFF_FFFF, by_one);
    // shl.b64 by 1: the spec clamps to 64 and shifts everything out.
    let shl = zero_tested(&["set.eq.s32.s32 %r2, %r1, 0;"], "shl.b64 %d0, %d0, %r1;", &[]);
    exact_case(&shl, [0; 4], d, 0, (K << 1) & 0xFFFF_FFFF);
    // x = 1.0: the set gives 0.0, a shift by 0 either way.
    untouched(&reduced, [0x3f80_0000, 0, 0, 0], d);
}

/// Right in 13.0.88 -O3 (the raw `IABS; I2FP.F32.S32` or `FSEL` shifted by its bits): no test
/// (v1), a test against 5 (v4), the set stored too (v5; s46/w2 with the test), the test dead
/// (s46/w1), `set.lt` against 0 (s46/w6).
#[test]
fn b_ac502846_4501_leaves_other_readers_of_a_set_f32_across_a_boundary_alone() {
    let d = Deviation::F32ShiftAmount;
    untouched(&zero_tested(&["mov.b32 %r2, 0;"], SHR, &[]), [0; 4], d);
    untouched(&zero_tested(&["set.eq.s32.s32 %r2, %r1, 5;"], SHR, &[]), [0; 4], d);
    untouched(&zero_tested(&["mov.b32 %r4, 5;", "set.eq.s32.s32 %r2, %r4, %r1;"], SHR, &[]), [0; 4], d);
    let stored = zero_tested(&["set.eq.s32.s32 %r2, %r1, 0;"], SHR, &["st.global.u32 [%out+4], %r1;"]);
    untouched(&stored, [0; 4], d);
    untouched(&zero_tested(&["set.eq.s32.s32 %r4, %r1, 0;", "mov.b32 %r2, 0;"], SHR, &[]), [0; 4], d);
    untouched(&zero_tested(&["set.lt.u32.s32 %r2, %r1, 0;"], SHR, &[]), [0; 4], d);
}
