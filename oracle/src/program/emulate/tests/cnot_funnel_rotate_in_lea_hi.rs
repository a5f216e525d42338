//! Tests of 4483ae72's negated `LEA.HI` where the funnel is a rotate of the cnot (seed 4502's
//! 5b50d443; corpus/findings/fuzz-h200-4502/trace/T16t4.md, variants in trace/5b50d443/ and
//! trace/5b50d443/s46/; `emulate/cnot_funnel_rotate_in_lea_hi.rs`).

use super::*;

/// 5b50d443's `reduced.ptx` with the funnel line `shf` (writing `%r11` from the cnot `%r8`)
/// and the add `add` (of `%r13` and `%r11`).
fn rotate(shf: &[&'static str], add: &'static str) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r6, [%in+4];", "cnot.b32 %r8, %r6;"];
    lines.extend_from_slice(shf);
    lines.extend(["ld.global.u32 %r13, [%in+8];", add, "st.global.u32 [%out], %r16;"]);
    lines
}

const ADD: &str = "add.u32 %r16, %r13, %r11;";
const X: u32 = 0x330d_330d;

/// 5b50d443 (ptxas 13.0.88 -O3, the JIT: `LEA.HI R7, -R0, R7, R6, 0x7` with R0 = −c, R6 = c):
/// x − ((c << 7) | (R0 >> 25)) = x − 0xff (0x330d320e), the spec x + 0x80; `.clamp` (v3), n =
/// 31 (s46/w2), `.wrap` 39 (s46/w6), `add.s32` swapped (v4, n = 16) and `shf.r` (v6, s46/w1:
/// `LEA.HI … 0x19`) the same.
#[test]
fn n_4483ae72_5b50d443_4502_a_rotate_of_the_cnot_shifts_its_high_word_into_lea_hi() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let words = [0, 0, X, 0];
    let spec = u64::from(X + 0x80);
    exact_case(&rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 7;"], ADD), words, d, spec, u64::from(X - 0xff));
    exact_case(&rotate(&["shf.l.clamp.b32 %r11, %r8, %r8, 7;"], ADD), words, d, spec, u64::from(X - 0xff));
    exact_case(&rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 39;"], ADD), words, d, spec, u64::from(X - 0xff));
    let n31 = rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 31;"], ADD);
    exact_case(&n31, words, d, u64::from(X.wrapping_add(0x8000_0000)), u64::from(X.wrapping_sub(0xffff_ffff)));
    let swapped = rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 16;"], "add.s32 %r16, %r11, %r13;");
    exact_case(&swapped, words, d, u64::from(X + 0x1_0000), u64::from(X - 0x1_ffff));
    let right = rotate(&["shf.r.wrap.b32 %r11, %r8, %r8, 7;"], ADD);
    exact_case(&right, words, d, u64::from(X + 0x200_0000), u64::from(X - 0x3ff_ffff));
    let right_clamp = rotate(&["shf.r.clamp.b32 %r11, %r8, %r8, 7;"], ADD);
    exact_case(&right_clamp, words, d, u64::from(X + 0x200_0000), u64::from(X - 0x3ff_ffff));
    // c = 0: every word 0, the spec's x.
    untouched(&rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 7;"], ADD), [0, 1, X, 0], d);
}

/// Out of scope: the cnot as the high word of another low word (v5, s46/w5: no negated operand,
/// right), `.clamp` by 32 (s46/w7: `IADD3`, right), `selp 1, 0` in place of the cnot (v7, right);
/// a loaded high word (v2) and another cnot's (s46/w4), `LEA.HI` too but not observed on a GPU.
#[test]
fn n_4483ae72_5b50d443_4502_leaves_other_high_words_alone() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let words = [0, 0, X, 0];
    untouched(&rotate(&["mov.b32 %r9, 0;", "shf.l.wrap.b32 %r11, %r9, %r8, 7;"], ADD), words, d);
    untouched(&rotate(&["ld.global.u32 %r9, [%in+12];", "shf.l.wrap.b32 %r11, %r9, %r8, 7;"], ADD), words, d);
    untouched(&rotate(&["shf.l.clamp.b32 %r11, %r8, %r8, 32;"], ADD), words, d);
    untouched(&rotate(&["ld.global.u32 %r9, [%in+12];", "shf.l.wrap.b32 %r11, %r8, %r9, 7;"], ADD), words, d);
    let other_cnot = ["ld.global.u32 %r7, [%in+12];", "cnot.b32 %r9, %r7;", "shf.l.wrap.b32 %r11, %r8, %r9, 7;"];
    untouched(&rotate(&other_cnot, ADD), words, d);
    let selp = [
        "ld.global.u32 %r6, [%in+4];",
        "setp.eq.u32 %p0, %r6, 0;",
        "mov.b32 %r20, 1;",
        "mov.b32 %r21, 0;",
        "selp.b32 %r8, %r20, %r21, %p0;",
        "shf.l.wrap.b32 %r11, %r8, %r8, 7;",
        "ld.global.u32 %r13, [%in+8];",
        ADD,
        "st.global.u32 [%out], %r16;",
    ];
    untouched(&selp, words, d);
}
