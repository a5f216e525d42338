//! Tests of three seed-4402 findings made known in session 45 (helper h3;
//! corpus/findings/fuzz-h200-4402/trace/T15t2.md, T15t3.md; variants in trace/<id>/s45/):
//! F's `slct` of an overflowed `abs.s32` (2bec5b10), B's `set.f32` amount whose register an
//! earlier load also wrote (63707241), N-11's skipped set over a dropped `cvt.f32.f32` of a NaN
//! (d1611e55).

use super::*;

/// 2bec5b10's `reduced.ptx` with the `slct` line `slct` and the abs source loaded from word 0.
fn slct_of_abs(op: &'static str, slct: &'static str, store: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r1, [%in];",
        "ld.global.u16 %h1, [%in+4];",
        "ld.global.u16 %h2, [%in+8];",
        "ld.global.u32 %r5, [%in+4];",
        "ld.global.u32 %r6, [%in+8];",
        "mov.b16 %h0, 0;",
        "mov.b32 %r7, 0;",
        "mov.b32 %r8, 5;",
        op,
        slct,
        store,
    ]
}

/// 2bec5b10 (ptxas 13.0.88 -O3, the JIT): `slct.s16.s32 h, 0, 237, abs.s32(−2^31)` is folded to
/// `a` (`STG.E.U8 … RZ`), the spec selects 237; `.b32` and loaded `.s16` operands (`regs`) the
/// same. Right: `slct.s32.s32` of a loaded abs source (x1, v5), `neg.s32` (var/neg), a source
/// that is not −2^31; `.s32` of a moved −2^31 (s45/x8) is another entry's.
#[test]
fn f_2bec5b10_4402_slct_of_an_overflowed_abs_selects_a() {
    let d = Deviation::NegationOverflow;
    let min = [0x8000_0000, 0x1111, 0x2222, 0];
    let abs = "abs.s32 %r2, %r1;";
    let reduced = slct_of_abs(abs, "slct.s16.s32 %h4, %h0, 237, %r2;", "st.global.u8 [%out], %h4;");
    exact_case(&reduced, min, d, 0xed, 0);
    let b32 = slct_of_abs(abs, "slct.b32.s32 %r4, %r7, 237, %r2;", "st.global.u32 [%out], %r4;");
    exact_case(&b32, min, d, 0xed, 0);
    let regs = slct_of_abs(abs, "slct.s16.s32 %h4, %h1, %h2, %r2;", "st.global.u16 [%out], %h4;");
    exact_case(&regs, min, d, 0x2222, 0x1111);
    let moved_min = [
        "mov.b32 %r1, 0x80000000;",
        "mov.b32 %r8, 5;",
        abs,
        "slct.s32.s32 %r4, %r8, 237, %r2;",
        "st.global.u32 [%out], %r4;",
    ];
    // `.s32` of a moved −2^31 (s45/x8) is the entry slct-s32-by-min-immediate-selects-a, not F.
    untouched(&moved_min, [0; 4], d);
    // Right: `.s32` of a loaded source, with immediates or registers; `neg.s32`; abs of 5.
    untouched(&slct_of_abs(abs, "slct.s32.s32 %r4, %r8, 237, %r2;", "st.global.u32 [%out], %r4;"), min, d);
    untouched(&slct_of_abs(abs, "slct.s32.s32 %r4, %r5, %r6, %r2;", "st.global.u32 [%out], %r4;"), min, d);
    let neg = slct_of_abs("neg.s32 %r2, %r1;", "slct.s16.s32 %h4, %h0, 237, %r2;", "st.global.u8 [%out], %h4;");
    untouched(&neg, min, d);
    untouched(&reduced, [5, 0, 0, 0], d);
}

/// 63707241's `reduced.ptx` with `first` (the load's line), `before` and `after` around the
/// amount's `set` (`set.eq.f32.s16` of two zeros: 1.0); words 2–3 the shifted s64.
fn b_kernel(
    first: &'static str,
    before: &[&'static str],
    set: &'static str,
    after: &[&'static str],
) -> Vec<&'static str> {
    let mut lines = vec![first, "mov.b16 %h0, 0;", "cvt.bf16.bf16 %h1, %h0;", "ld.global.u64 %d1, [%in+8];"];
    lines.extend_from_slice(before);
    lines.push(set);
    lines.extend_from_slice(after);
    lines.extend([
        "shfl.sync.idx.b32 %r10|%p1, %r1, 0, 31, 1;",
        "shr.s64 %d2, %d1, %r0;",
        "mov.b32 %r9, 0;",
        "set.lt.s32.s32 %r11, %r9, %tix;",
        "mov.b32 {%h22, %h23}, %r11;",
        "xor.b16 %h24, %h22, %h23;",
        "st.global.u8 [%out], %h24;",
        "st.global.u64 [%out], %d2;",
    ]);
    lines
}

/// 63707241 (ptxas 13.0.88 and 13.5 -O3, the JIT): the dead `ld.global.v2.f32 {%r0, %r1}`
/// before the set also writes the amount register, and the listing is z1's (`SEL R7, RZ, 0x1,
/// !P0; SHF.R.S64`: shift by 1, the spec by the clamped 0x3f800000); a dead `mov` before it
/// (s45/s1) the same. Right: a branch that skips the set to a label before the shift (s45/s6),
/// a guarded set (s45/s5).
#[test]
fn b_63707241_4402_an_earlier_write_of_the_amount_is_overwritten_by_the_set() {
    let d = Deviation::F32ShiftAmount;
    let x: u64 = 0xc23f_4fc5_e000_0000;
    let words = [0x4000_0000, 7, x as u32, (x >> 32) as u32];
    let (v2, set) = ("ld.global.v2.f32 {%r0, %r1}, [%in];", "set.eq.f32.s16 %r0, %h0, %h1;");
    let by_one = ((x as i64) >> 1) as u64;
    exact_case(&b_kernel(v2, &[], set, &[]), words, d, u64::MAX, by_one);
    let dead_mov = b_kernel("ld.global.v2.f32 {%r5, %r1}, [%in];", &["mov.b32 %r0, 0x42000000;"], set, &[]);
    exact_case(&dead_mov, words, d, u64::MAX, by_one);
    // Right: the earlier write reaches the shift past a branch around the set; a guarded set.
    let skips = b_kernel(v2, &["setp.eq.u32 %p3, %tix, 5;", "@%p3 bra $L1;"], set, &["$L1:"]);
    untouched(&skips, words, d);
    let guarded = b_kernel(v2, &["setp.ne.u32 %p3, %tix, 5;"], "@%p3 set.eq.f32.s16 %r0, %h0, %h1;", &[]);
    untouched(&guarded, words, d);
}

/// d1611e55's `reduced.ptx` with the old value's lines `old` (writing `%r2`).
fn n11_kernel(old: &[&'static str]) -> Vec<&'static str> {
    let mut lines = old.to_vec();
    lines.extend(["setp.eq.u32 %p0, %tix, 6;", "@%p0 set.le.f32.s32 %r2, %tix, 0;", "st.global.u32 [%out], %r2;"]);
    lines
}

/// d1611e55 (ptxas 13.0.88 and 13.5 -O3, the JIT): `cvt.f32.f32` of the moved sNaN 0x7f8762d7
/// is dropped, so the skipped set converts the constant's bits (`SEL R0, R0, 0x7f8762d7, !P0;
/// IABS; I2FP.F32.S32` = 0x4eff0ec6), -O0's `FADD` the canonical 0x7fffffff (0x4f000000): both
/// admitted. A loaded NaN (s45/n2) and a negative one (n5: |0xffc00001| = 4194303 = 0x4a7ffffc)
/// the same. Not: `cvt.ftz.f32.f32` (n1), which keeps the canonical word alone.
#[test]
fn n11_d1611e55_4402_a_dropped_cvt_f32_f32_keeps_its_nan_bits() {
    let d = Deviation::SkippedSetSignExtends;
    let check = |lines: &[&str], words: [u32; 4], kept: u128| {
        let (_, e, fired) = both(lines, words, d);
        assert_eq!(e.bits & 0xffff_ffff, kept, "{e:?}");
        assert!(e.matches(kept) && e.matches(0x4f00_0000) && !e.matches(0x3f80_0000), "{e:?}");
        assert_eq!(fired, vec![d]);
    };
    check(&n11_kernel(&["mov.b32 %r1, 2139579095;", "cvt.f32.f32 %r2, %r1;"]), [0; 4], 0x4eff_0ec6);
    check(&n11_kernel(&["ld.global.u32 %r1, [%in];", "cvt.f32.f32 %r2, %r1;"]), [0x7f87_62d7, 0, 0, 0], 0x4eff_0ec6);
    check(&n11_kernel(&["mov.b32 %r1, 0xffc00001;", "cvt.f32.f32 %r2, %r1;"]), [0; 4], 0x4a7f_fffc);
    let (_, e, _) = both(&n11_kernel(&["mov.b32 %r1, 2139579095;", "cvt.ftz.f32.f32 %r2, %r1;"]), [0; 4], d);
    assert_eq!((e.bits & 0xffff_ffff, e.is_exact()), (0x4f00_0000, true), "{e:?}");
}
