//! Tests of the known root causes' scopes widened by the traces of seed 3701 (helper scopesB:
//! corpus/findings/fuzz-h200-3701/trace/TC1.md … TC4.md): each the GPU's word under the
//! emulation and the spec's without, and the variants the traces show right left alone.

use super::*;

/// The output of `lines` on `words` emulating every deviation of `ds`, with those that fired.
fn emulating_together(lines: &[&str], words: [u32; 4], ds: &[Deviation]) -> (Expected, Vec<Deviation>) {
    let (p, i) = (program(lines), Inputs(words.to_vec()));
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating_all(ds.iter().copied())).unwrap();
    (out.remove(0), fired)
}

/// 3602-N3 on `setp.ne.s32` (corpus/findings/fuzz-h200-3701/, fb2f0eb8; trace/TC2.md
/// `v/n_{u32,s32,b32}`: one listing, `@!P1 IADD3.X R7, R7, 0x3c`): the subc adds K as with `.u32`.
#[test]
fn n3_3602_a_signed_or_untyped_branch_compare_fixes_the_subtrahend_too() {
    let d = Deviation::SubcOfBranchConstantAddsIt;
    let with = |setp: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            setp,
            "@%p0 bra $L1;",
            "ld.global.u32 %r2, [%in+4];",
            "ld.global.u32 %r4, [%in+8];",
            "sub.cc.u32 %r5, %r2, 0;",
            "subc.u32 %r6, %r4, %r0;",
            "st.global.b32 [%out], %r6;",
            "$L1:",
        ]
    };
    // 0xdf0039e4 − 60 − 0 by the spec; + 60 + 1 on the GPU (`IADD3.X`: + 2·60 + 1). (The
    // interpreter's glue has no `setp.ne.b32`, the trace's third form.)
    exact_case(&with("setp.ne.s32 %p0, %r0, 60;"), [60, 5, 0xDF00_39E4, 0], d, 0xDF00_39A8, 0xDF00_3A21);
    untouched(&with("setp.eq.s32 %p0, %r0, 60;"), [61, 5, 0xDF00_39E4, 0], d);
}

/// N-11 over an old word whose high half is two-valued (corpus/findings/fuzz-h200-3701/,
/// c2bdc418; trace/TC2.md `v/k1`: `PRMT 0x9910` for the first skip, then `PRMT 0x9910; IABS;
/// PRMT 0x7710; I2F.S16`): a skipped `set.gt.u32.s16` leaves 0x3f9a9f68 sign- or
/// zero-extended from bit 15, and the skipped `set.ge.f32.u16` after it converts
/// |sext16(0x9f68)| = 24728.0 (0x46c13000) either way. A 32-bit source reads the whole
/// two-valued word: left to the spec.
#[test]
fn n11_a_skipped_16_bit_set_f32_reads_only_the_low_half_of_its_old_word() {
    let d = Deviation::SkippedSetSignExtends;
    let with = |second: &'static str| {
        [
            "ld.global.f32 %r0, [%in];",
            "ld.global.u16 %h0, [%in+4];",
            "ld.global.u32 %r1, [%in+8];",
            "setp.eq.u32 %p0, %r1, 7;",
            "@%p0 set.gt.u32.s16 %r0, %h0, 0;",
            second,
            "st.global.u32 [%out], %r0;",
        ]
    };
    let lines = with("@%p0 set.ge.f32.u16 %r0, %h0, 0;");
    exact_case(&lines, [0x3F9A_9F68, 0, 0, 0], d, 0x3F9A_9F68, 0x46C1_3000);
    exact_case(&lines, [0xFF9B_F2D7, 0, 0, 0], d, 0xFF9B_F2D7, 0x4552_9000);
    let (s, e, _) = both(&with("@%p0 set.ge.f32.u32 %r0, %r1, 0;"), [0x3F9A_9F68, 0, 0, 0], d);
    assert_eq!(s.bits, 0x3F9A_9F68);
    assert!(!e.is_exact() && e.matches(0x0000_9F68) && e.matches(0xFFFF_9F68), "{e:?}");
}

/// B through N-11 (corpus/findings/fuzz-h200-3701/, a862ac7a; trace/TC1.md: `SEL R2, R2, R0,
/// P0; IABS; I2FP.F32.S32; F2I.U64.TRUNC; SHF.R.U64` at -O0, ptxas 13.0.88 and 13.5): a skipped
/// `set.eq.f32.s32` turns the old −1 into 1.0, an f32 the `shr.b64` converts, so it shifts by 1
/// where the spec clamps 0xffffffff and gives 0. Either emulation alone leaves the word alone
/// (N-11 alone shifts by the raw 0x3f800000: 0 as well); a skipped integer set is raw
/// (`v2_guarded_b32`).
#[test]
fn b_a_skipped_set_f32_makes_its_converted_old_value_f32_typed() {
    let with = |set: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r1, [%in+4];",
            "setp.eq.u32 %p0, %r1, 7;",
            set,
            "ld.global.u64 %d1, [%in+8];",
            "shr.b64 %d2, %d1, %r0;",
            "st.global.b64 [%out], %d2;",
        ]
    };
    let (b, n11) = (Deviation::F32ShiftAmount, Deviation::SkippedSetSignExtends);
    let words = [0xFFFF_FFFF, 0, 0xD3A9_1DC2, 0xED6D_F600];
    let lines = with("@%p0 set.eq.f32.s32 %r0, %r1, 0;");
    let (e, fired) = emulating_together(&lines, words, &[b, n11]);
    assert_eq!((e.bits as u64, e.is_exact()), (0xED6D_F600_D3A9_1DC2 >> 1, true));
    assert_eq!(fired, vec![b, n11]);
    assert_eq!(both(&lines, words, b).1.bits, 0);
    assert_eq!(both(&lines, words, n11).1.bits, 0);
    let integer = with("@%p0 set.eq.u32.s32 %r0, %r1, 0;");
    let (e, fired) = emulating_together(&integer, words, &[b, n11]);
    assert_eq!((e.bits, fired), (0, Vec::new()));
}

/// 3301-N3 through a `mov.b32` unpack (corpus/findings/fuzz-h200-3701/, 12b23716; trace/TC1.md
/// `reduced.ptx`: `SEL R0, RZ, 0xffffffff, !P0; IABS R0, R0; PRMT R7, R0, 0x7710`, 13.0.88 and
/// 13.5 -O3): `cvt.rmi.u16.f16` of the low half of a true `set.le.f32.s32` gives 1, the spec
/// converts +0 (the low half of 1.0); a false set, the high half and a float destination
/// (`v2_high_half`, `v3_float_dst`) are left to the spec.
#[test]
fn n3_3301_an_integer_cvt_of_the_unpacked_low_half_of_a_set_f32_is_the_set() {
    let d = Deviation::SetRoundTripFolded;
    let with = |cvt: &'static str, st: &'static str| {
        ["ld.global.u32 %r0, [%in];", "set.le.f32.s32 %r2, %r0, 0;", "mov.b32 {%h5, %h6}, %r2;", cvt, st]
    };
    let low = with("cvt.rmi.u16.f16 %h4, %h5;", "st.global.b16 [%out], %h4;");
    exact_case(&low, [0, 0, 0, 0], d, 0, 1);
    untouched(&low, [5, 0, 0, 0], d);
    untouched(&with("cvt.rni.u16.f16 %h4, %h6;", "st.global.b16 [%out], %h4;"), [0, 0, 0, 0], d);
    untouched(&with("cvt.f32.f16 %r4, %h5;", "st.global.b32 [%out], %r4;"), [0, 0, 0, 0], d);
}

/// E through an integer copy (corpus/findings/fuzz-h200-3701/, c78de146; trace/TC3.md:
/// `cvt.f16.f16 → cvt.u16.s16 → cvt.rzi.s64.f16` is one `F2I.S64.F16`, to nearest, 13.0.88 and
/// 13.5 -O3): f16 58.875 gives 59, the spec truncates to 58; −1.637 (0xbe8c) gives −2 for −1.
/// Without the `cvt.f16.f16` the copy alone is right.
#[test]
fn e_an_integer_16_bit_copy_between_the_half_cvt_and_the_rzi_is_looked_through() {
    let d = Deviation::Bf16ReadAsF16;
    let with = |x: &'static str| {
        [x, "cvt.f16.f16 %h1, %h0;", "cvt.u16.s16 %h2, %h1;", "cvt.rzi.s64.f16 %d2, %h2;", "st.global.b64 [%out], %d2;"]
    };
    exact_case(&with("mov.b16 %h0, 0x535c;"), [0; 4], d, 58, 59);
    exact_case(&with("mov.b16 %h0, 0xbe8c;"), [0; 4], d, u64::MAX, u64::MAX - 1);
    let copy_only = ["ld.global.u16 %h1, [%in];", "cvt.u16.s16 %h2, %h1;", "cvt.rzi.s64.f16 %d2, %h2;"];
    untouched(&[&copy_only[..], &["st.global.b64 [%out], %d2;"]].concat(), [0x535c, 0, 0, 0], d);
}
