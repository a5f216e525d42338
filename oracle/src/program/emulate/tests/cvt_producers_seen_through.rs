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
/// converts +0 (the low half of 1.0); a false set and a float destination (`v3_float_dst`) are
/// left to the spec. (The high half: the next test.)
#[test]
fn n3_3301_an_integer_cvt_of_the_unpacked_low_half_of_a_set_f32_is_the_set() {
    let d = Deviation::SetRoundTripFolded;
    let with = |cvt: &'static str, st: &'static str| {
        ["ld.global.u32 %r0, [%in];", "set.le.f32.s32 %r2, %r0, 0;", "mov.b32 {%h5, %h6}, %r2;", cvt, st]
    };
    let low = with("cvt.rmi.u16.f16 %h4, %h5;", "st.global.b16 [%out], %h4;");
    exact_case(&low, [0, 0, 0, 0], d, 0, 1);
    untouched(&low, [5, 0, 0, 0], d);
    untouched(&with("cvt.f32.f16 %r4, %h5;", "st.global.b32 [%out], %r4;"), [0, 0, 0, 0], d);
}

/// 3301-N3 at the HIGH half of the unpack (seed 5801's 1a243a8f, corpus/findings/fuzz-h200-5801/
/// trace/T58A.md, trace/1a243a8f/s58/ w1–w8; 13.0.88 and 13.5 -O3 `SEL R0, RZ, 0xffffffff, !P0;
/// IABS R0, R0` for every integer cvt of it): `cvt.rni.s64.f16` of the high half 0x3f80 (1.875) of
/// a true set gives 1, the spec 2 (w6, the finding's: xor with the low half's bf16 cvt, 1 ^ 1 = 0
/// where the spec's 2 ^ 0 = 2); `.rpi` and a `.u8` destination the same (w3, w8). `.rmi` gives the
/// spec's 1 anyway (w2); a false set and a float destination (w7) are left to the spec.
#[test]
fn n3_3301_an_integer_cvt_of_the_unpacked_high_half_of_a_set_f32_is_the_set() {
    let d = Deviation::SetRoundTripFolded;
    let with = |cvt: &'static str, st: &'static str| {
        ["ld.global.u32 %r0, [%in];", "set.le.f32.s32 %r2, %r0, 0;", "mov.b32 {%h5, %h6}, %r2;", cvt, st]
    };
    let rni = with("cvt.rni.u16.f16 %h4, %h6;", "st.global.b16 [%out], %h4;");
    exact_case(&rni, [0, 0, 0, 0], d, 2, 1);
    untouched(&rni, [5, 0, 0, 0], d);
    exact_case(&with("cvt.rpi.u32.f16 %r4, %h6;", "st.global.b32 [%out], %r4;"), [0; 4], d, 2, 1);
    untouched(&with("cvt.f32.f16 %r4, %h6;", "st.global.b32 [%out], %r4;"), [0, 0, 0, 0], d);
    // The finding: both halves converted and xored.
    let finding = [
        "ld.global.u32 %r0, [%in];",
        "set.ge.f32.s32 %r2, %r0, 0;",
        "mov.b32 {%h2, %h0}, %r2;",
        "cvt.rni.s64.f16 %d5, %h0;",
        "cvt.rni.u32.bf16 %r5, %h2;",
        "mov.b64 {%r11, %r12}, %d5;",
        "xor.b32 %r6, %r11, %r5;",
        "st.global.b32 [%out], %r6;",
    ];
    exact_case(&finding, [0; 4], d, 2, 0);
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

/// J, branch-known (corpus/findings/fuzz-h200-3701/, 21862007; trace/TC1.md `v1_loaded_K`:
/// `@!P0 PRMT R0, R6, 0x7610, R0` with R6 = 0x2345, ptxas 13.0.88 -O3): in the fall-through of
/// `setp.ne.u32 %p0, %r0, 0x12345; @%p0 bra`, the high half of `mov.b32 {%h2, %h1}, %r0` is
/// 0x2345, the spec's 0x0001. The low half (`v3_lowhalf`), `setp.eq` with `@!p bra`
/// (`v4_eq_s32`) and the taken branch are right.
#[test]
fn j_the_high_half_of_a_branch_known_value_is_its_low_half() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |setp: &'static str, bra: &'static str, unpack: &'static str| {
        ["ld.global.u32 %r0, [%in];", "mov.b16 %h1, 0;", setp, bra, unpack, "$L0:", "st.global.u16 [%out], %h1;"]
    };
    let (ne, bra) = ("setp.ne.u32 %p0, %r0, 0x12345;", "@%p0 bra $L0;");
    exact_case(&with(ne, bra, "mov.b32 {%h2, %h1}, %r0;"), [0x12345, 0, 0, 0], d, 1, 0x2345);
    untouched(&with(ne, bra, "mov.b32 {%h2, %h1}, %r0;"), [0x12346, 0, 0, 0], d);
    untouched(&with(ne, bra, "mov.b32 {%h1, %h2}, %r0;"), [0x12345, 0, 0, 0], d);
    untouched(
        &with("setp.eq.u32 %p0, %r0, 0x12345;", "@!%p0 bra $L0;", "mov.b32 {%h2, %h1}, %r0;"),
        [0x12345, 0, 0, 0],
        d,
    );
}

/// J, branch-known, in `add.s16x2` (corpus/findings/fuzz-h100/README.md, c4102: `@!P0
/// VIADD.16x2 R5, RZ, 0x5e005e`): the branch-known 0x5e is added to both halves, 0x005e005e
/// for the spec's 0x0000005e.
#[test]
fn j_a_branch_known_add_s16x2_operand_is_splatted() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r4, 0;",
        "setp.ne.u32 %p0, %r0, 0x5e;",
        "@%p0 bra $L0;",
        "add.s16x2 %r4, %r4, %r0;",
        "$L0:",
        "st.global.u32 [%out], %r4;",
    ];
    exact_case(&lines, [0x5e, 0, 0, 0], d, 0x5e, 0x005e_005e);
    untouched(&lines, [0x5f, 0, 0, 0], d);
}

/// J, narrowed (corpus/findings/fuzz-h200-3701/, f567f1b4; trace/TC2.md `v/j4`:
/// `HFMA2.MMA R0, -RZ, RZ, 0, -8.4609375; VIADD.16x2 R0, R0, 0x0`, ptxas 13.0.88 -O3): `add.u16x2`
/// of 0xc83b0a9f and itself read only as its high half gives 0xc83b, the spec 0x9076; read
/// whole (`v/j1`, and `v/j2` with a loaded addend) it is right. A loaded addend read as one
/// half drops the constant (corpus/findings/fuzz-h200-3802/, b77bce67, trace/T5B.md; this
/// program on ptxas 13.0.88 -O3: `LDG.E.U16 R2, [..+0x2]; VIADD.16x2 R0, R2, 0x0`): 0.
#[test]
fn j_an_add_u16x2_of_constants_read_as_one_half_drops_its_second_addend() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let with = |second: &'static str, reader: &[&'static str]| {
        let mut lines = vec!["ld.global.u32 %r2, [%in];", "mov.b32 %r0, 0xC83B0A9F;", second];
        lines.extend(reader);
        lines
    };
    let (k_k, one_half) = ("add.u16x2 %r1, %r0, %r0;", &["mov.b32 {%h6, %h7}, %r1;", "st.global.b16 [%out], %h7;"][..]);
    exact_case(&with(k_k, one_half), [0; 4], d, 0x9076, 0xc83b);
    untouched(&with(k_k, &["st.global.b32 [%out], %r1;"]), [0; 4], d);
    let both_halves = &["mov.b32 {%h6, %h7}, %r1;", "st.global.b16 [%out], %h7;", "st.global.b16 [%out+2], %h6;"];
    untouched(&with(k_k, both_halves), [0; 4], d);
    exact_case(&with("add.u16x2 %r1, %r2, %r0;", one_half), [0; 4], d, 0xc83b, 0);
    // fuzz-h100-b c4105 (`VIADD.16x2 R0, RZ, 0x0`): 0 + K read by `cvt.u16.s32` stores 0.
    let c4105 = [
        "mov.b32 %r0, 0;",
        "mov.b32 %r1, 3982021679;",
        "add.u16x2 %r0, %r0, %r1;",
        "cvt.u16.s32 %h3, %r0;",
        "st.global.u16 [%out], %h3;",
    ];
    exact_case(&c4105, [0; 4], d, 0xd42f, 0);
    // f567f1b4's reader: the `c` of `cvt.pack.sat.u8.s32.b32`, whose low half is d's high half.
    let pack = ["cvt.pack.sat.u8.s32.b32 %r4, %r2, %r2, %r1;", "st.global.b32 [%out], %r4;"];
    exact_case(&with(k_k, &pack), [0; 4], d, 0x153e_0000, 0x0a9f_0000);
}

/// M with a register mask (corpus/findings/fuzz-h200-3701/, b714f9f1; trace/TC3.md
/// `reduced.ptx`: `F2FP.SATFINITE.F16.F32.MERGE_C R0, 2.1e37, RZ; PRMT R0, R0, 0x5410, RZ` with
/// no `LOP3`, ptxas 13.0.88 -O3): the low half of a pack of `and.b16` of a satfinite f16
/// (0x7bff) and a loaded 0x8421 is 0x7bff, the spec's 0x0021; through `min.u16 x, x` and as
/// the low half of a `mov.b64` pack's high word (the finding's form) too. Stored directly
/// (`var4_st_b16`), `or.b16` (`var5_or`) or a cvt without `.satfinite` (`var2`): the spec's.
#[test]
fn m_a_register_mask_of_a_satfinite_f16_is_dropped_in_a_pack() {
    let d = Deviation::F16MaskDropped;
    let with = |cvt: &'static str, op: &'static str, tail: &[&'static str]| {
        let mut lines = vec!["ld.global.b16 %h0, [%in];", "mov.b32 %r0, 0x7d7d7d7d;", cvt, op, "mov.b16 %h3, 0;"];
        lines.extend(tail);
        lines
    };
    let (satfinite, and) = ("cvt.rn.satfinite.f16.f32 %h1, %r0;", "and.b16 %h2, %h1, %h0;");
    let pack32 = ["mov.b32 %r1, {%h2, %h3};", "st.global.b32 [%out], %r1;"];
    exact_case(&with(satfinite, and, &pack32), [0x8421, 0, 0, 0], d, 0x0021, 0x7bff);
    let pack64 = ["min.u16 %h4, %h2, %h2;", "mov.b64 %d1, {%h3, %h3, %h4, %h3};", "st.global.b64 [%out], %d1;"];
    exact_case(&with(satfinite, and, &pack64), [0x8421, 0, 0, 0], d, 0x0021_0000_0000, 0x7bff_0000_0000);
    untouched(&with(satfinite, and, &["st.global.b16 [%out], %h2;"]), [0x8421, 0, 0, 0], d);
    untouched(&with(satfinite, "or.b16 %h2, %h1, %h0;", &pack32), [0x8421, 0, 0, 0], d);
    untouched(&with("cvt.rn.f16.f32 %h1, %r0;", and, &pack32), [0x8421, 0, 0, 0], d);
}

/// 3701 C1-N2 (corpus/findings/fuzz-h200-3701/, 2dfe7c1c; trace/TC1.md `reduced.ptx`: `SEL R7,
/// RZ, 0x3c00, !P1`, ptxas 13.0.88 and 13.5 -O3): `cvt.rn.f16.s32` of a true `set.ge.f32.u32`
/// gives 1.0 (0x3c00), the spec +inf (0x7c00), where an `xor.b16` reads the unpacked half of a
/// `set.le.u32.u32` result; `cvt.rn.f32.s32` gives 1.0f (`v_cvt_f32_fsel1`, `FSEL R9, RZ, 1`).
/// Without the xor (`right_no_xor`) or with an xor of the cvt's own result (`c5`): the spec's.
#[test]
fn n2_c1_3701_a_float_cvt_of_a_set_f32_beside_an_xor_of_a_set_converts_1() {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let with = |cvt: &'static str, tail: &[&'static str]| {
        let mut lines = vec![
            "ld.global.u32 %r2, [%in];",
            "ld.global.u32 %r6, [%in+4];",
            "ld.global.u16 %h4, [%in+8];",
            "set.ge.f32.u32 %r3, %r2, 0x0;",
            cvt,
            "set.le.u32.u32 %r5, %r6, 5;",
            "mov.b32 {%h11, %h12}, %r5;",
        ];
        lines.extend(tail);
        lines
    };
    let f16 = "cvt.rn.f16.s32 %h0, %r3;";
    let xor = ["xor.b16 %h13, %h4, %h11;", "st.global.b16 [%out+2], %h13;", "st.global.b16 [%out], %h0;"];
    exact_case(&with(f16, &xor), [0, 9, 0, 0], d, 0x7c00, 0x3c00);
    let f32 = ["xor.b16 %h13, %h4, %h11;", "st.global.b16 [%out+4], %h13;", "st.global.b32 [%out], %r7;"];
    exact_case(&with("cvt.rn.f32.s32 %r7, %r3;", &f32), [0, 9, 0, 0], d, 0x4e7e_0000, 0x3f80_0000);
    untouched(&with(f16, &["st.global.b16 [%out+2], %h11;", "st.global.b16 [%out], %h0;"]), [0, 9, 0, 0], d);
    let own = ["xor.b16 %h13, %h4, %h0;", "st.global.b16 [%out+2], %h13;", "st.global.b16 [%out], %h0;"];
    untouched(&with(f16, &own), [0, 9, 0, 0], d);
}

/// J narrowed, read by N-11 (corpus/findings/fuzz-h200-3701/, 3f9c3758; trace/TC2.md, the
/// minimized loop: 13.0.88 -O3 unrolls it with `VIADD.16x2 R, R, 0x0` where 13.5 adds 0x4eea):
/// each iteration's skipped `set.ge.f32.s16` reads the low half of `add.u16x2 %r6, %r5, %r6`
/// without K's, so the chain stays 0 and the last add, read whole, leaves K itself. J alone
/// changes nothing (the skipped set reads nothing without N-11); with a second reader of the
/// add in the loop, N-11 alone's word stands.
#[test]
fn j_an_add_u16x2_of_a_constant_read_by_a_skipped_16_bit_set_drops_the_constant() {
    let (j, n11) = (Deviation::AddU16x2OfConstantsNarrowedDropsOne, Deviation::SkippedSetSignExtends);
    let with = |extra: &'static str| {
        [
            "mov.b16 %h0, 0;",
            "setp.ne.s16 %p0, %h0, 0;",
            "mov.b16 %h1, 0;",
            "mov.b32 %r5, 1824280298;",
            "mov.b32 %r6, 0;",
            "mov.u32 %r7, 0;",
            "$L1:",
            "@%p0 set.ge.f32.s16 %r6, %h1, 0;",
            "add.u16x2 %r6, %r5, %r6;",
            extra,
            "add.u32 %r7, %r7, 0x3;",
            "setp.lt.u32 %p1, %r7, 0xf;",
            "@%p1 bra $L1;",
            "st.global.s32 [%out], %r6;",
        ]
    };
    let lines = with("mov.b32 %r8, 0;");
    let (e, fired) = emulating_together(&lines, [0; 4], &[j, n11]);
    assert_eq!((e.bits as u32, e.is_exact()), (0x6cbc_4eea, true));
    assert_eq!(fired, vec![n11, j]);
    let (spec, alone, fired) = both(&lines, [0; 4], j);
    assert_eq!((alone, fired), (spec, Vec::new()));
    let second_reader = with("st.global.s32 [%out+4], %r6;");
    let (e, _) = emulating_together(&second_reader, [0; 4], &[j, n11]);
    assert_eq!(e, both(&second_reader, [0; 4], n11).1);
    assert_ne!(e.bits as u32, 0x6cbc_4eea);
}
