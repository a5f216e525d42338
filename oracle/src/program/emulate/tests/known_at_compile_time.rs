//! Tests of the known root causes' scopes widened by the traces of seed 3701
//! (corpus/findings/fuzz-h200-3701/trace/TC1.md … TC4.md): 3501-N2 by amounts and addends ptxas
//! knows, through `min.s64 d, d, d` and with the chain as an add's second operand; N-7 by a known
//! start and length; 3601-C of a `.bf16` source; D through `cvt.f32.f32`; F under a widening
//! `cvt.sat` and in 16-bit multiplies. Each the GPU's word under the emulation, the spec's without
//! or out of scope.

use super::*;

/// The first output word of thread 0 of `lines` run by a warp on `words`: by the spec, and
/// emulating `d` (with the deviations that fired).
fn warp_run(lines: &[&str], words: [u32; 4], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    warp_both(lines, words, d)
}

/// 3501-N2 by register amounts (corpus/findings/fuzz-h200-3701/, e3375831, trace TC2.md): a
/// counted loop `shl.b64 d, d, %r6` with %r6 = 12, 10, …, 2 then `add.s64` of 5 gives
/// (x << 36) + 5 (13.0.88 -O3 `LEA …, 0x6` after 12, 10, 8), the spec (x << 42) + 5; three shifts
/// by a moved 20 give (x << 40) + 5. A loaded amount, or a moved one rewritten on one path of a
/// branch (a join: ptxas no longer knows it), is the spec's.
#[test]
fn n2_3501_a_chain_by_known_register_amounts_is_cut_where_it_reaches_32() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let looped = [
        "ld.global.b64 %d0, [%in];",
        "mov.u32 %r6, 12;",
        "$L0:",
        "shl.b64 %d0, %d0, %r6;",
        "sub.u32 %r6, %r6, 2;",
        "setp.gt.u32 %p2, %r6, 0;",
        "@%p2 bra $L0;",
        "add.s64 %d3, %d0, 5;",
        "st.global.b64 [%out], %d3;",
    ];
    exact_case(&looped, [1, 0, 0, 0], d, 0x400_0000_0005, 0x10_0000_0005);
    let moved = |amount: &'static str| {
        [
            "ld.global.b64 %d0, [%in];",
            amount,
            "shl.b64 %d0, %d0, %r6;",
            "shl.b64 %d0, %d0, %r6;",
            "shl.b64 %d0, %d0, %r6;",
            "add.s64 %d3, %d0, 5;",
            "st.global.b64 [%out], %d3;",
        ]
    };
    exact_case(&moved("mov.u32 %r6, 20;"), [1, 0, 20, 0], d, 0x1000_0000_0000_0005, 0x100_0000_0005);
    untouched(&moved("ld.global.u32 %r6, [%in+8];"), [1, 0, 20, 0], d);
    let joined = [
        "ld.global.b64 %d0, [%in];",
        "ld.global.u32 %r0, [%in+12];",
        "mov.u32 %r6, 20;",
        "setp.eq.u32 %p0, %r0, 0;",
        "@%p0 bra $L1;",
        "mov.u32 %r6, 21;",
        "$L1:",
        "shl.b64 %d0, %d0, %r6;",
        "shl.b64 %d0, %d0, %r6;",
        "shl.b64 %d0, %d0, %r6;",
        "add.s64 %d3, %d0, 5;",
        "st.global.b64 [%out], %d3;",
    ];
    untouched(&joined, [1, 0, 0, 0], d);
}

/// 3501-N2 with the chain as `add.cc`'s second operand and a known addend (2d12fb46, trace
/// TC2.md): a loop by 0, 3, …, 18 (63), then `add.cc.s64 d, c, chain` with c the `selp` of a
/// moved immediate by the loop's exit predicate (false after the loop): c + (x << 45) (13.0.88
/// -O3 `IADD3.X R0, RZ, -0x54143e78, R3`), the spec c + (x << 63). `sub` with the chain second is
/// out of the evidence.
#[test]
fn n2_3501_an_add_reading_the_chain_second_and_a_selected_constant_is_cut_too() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let with = |add: &'static str| {
        [
            "ld.global.b64 %d0, [%in];",
            "mov.u32 %r0, 0;",
            "$L0:",
            "shl.b64 %d0, %d0, %r0;",
            "add.u32 %r0, %r0, 3;",
            "setp.lt.u32 %p0, %r0, 21;",
            "@%p0 bra $L0;",
            "mov.u64 %d2, 12388207989947346990;",
            "selp.b64 %d3, %d0, %d2, %p0;",
            add,
            "st.global.b64 [%out], %d7;",
        ]
    };
    exact_case(&with("add.cc.s64 %d7, %d3, %d0;"), [1, 0, 0, 0], d, 0x2BEB_C188_0477_B02E, 0xABEB_E188_0477_B02E);
    untouched(&with("sub.s64 %d7, %d3, %d0;"), [1, 0, 0, 0], d);
}

/// 3501-N2 through `min.s64 d, d, d` (31e0340b, trace TC4.md: ptxas drops the no-op; 13.0.88
/// -O3 `LEA …, 0xfffffffa, 0x10` of x << 32): three shifts by 16, each followed by it, then
/// `add.u64 …, -2` give (x << 32) − 2, the spec (x << 48) − 2. A `min` with another register
/// ends the chain.
#[test]
fn n2_3501_a_min_of_a_register_with_itself_carries_the_chain() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let with = |min: &'static str| {
        let mut lines = vec!["ld.global.b64 %d0, [%in];", "ld.global.b64 %d1, [%in+8];"];
        for _ in 0..3 {
            lines.extend(["shl.b64 %d0, %d0, 16;", min]);
        }
        lines.extend(["add.u64 %d2, %d0, 0xfffffffffffffffe;", "st.global.b64 [%out], %d2;"]);
        lines
    };
    exact_case(&with("min.s64 %d0, %d0, %d0;"), [1, 0, 0xffff_ffff, 0x7fff_ffff], d, 0xFFFF_FFFF_FFFE, 0xFFFF_FFFE);
    exact_case(&with("max.u64 %d0, %d0, %d0;"), [1, 0, 0xffff_ffff, 0x7fff_ffff], d, 0xFFFF_FFFF_FFFE, 0xFFFF_FFFE);
    untouched(&with("min.s64 %d0, %d0, %d1;"), [1, 0, 0xffff_ffff, 0x7fff_ffff], d);
}

/// N-7 by a moved immediate start (corpus/findings/fuzz-h200-3701/, 5d90f3ab, trace TC1.md:
/// `mov.b32 r0, 0xf8c79146; bfe.s32 d, a, r0, 29`, start 70, 13.0.88 -O3 `MOV R7, 0xffffffff`):
/// −1, the spec 0 for a ≥ 0; a loaded start is right (13.0.88 and 13.5), and so is a start a
/// skipped guarded write names (ptxas merges it by the guard: no longer a constant).
#[test]
fn n7_a_bfe_s32_by_a_moved_start_past_the_msb_gives_minus_one() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |start: &'static str, skipped: &'static str| {
        [
            "ld.global.u32 %r6, [%in];",
            start,
            "setp.eq.u32 %p0, %r6, 0;",
            skipped,
            "bfe.s32 %r7, %r6, %r0, 29;",
            "st.global.b32 [%out], %r7;",
        ]
    };
    exact_case(&with("mov.b32 %r0, 4173828422;", "mov.b32 %r1, 3;"), [5, 0, 70, 0], d, 0, 0xFFFF_FFFF);
    untouched(&with("ld.global.u32 %r0, [%in+8];", "mov.b32 %r1, 3;"), [5, 0, 70, 0], d);
    untouched(&with("mov.b32 %r0, 4173828422;", "@%p0 mov.b32 %r0, 3;"), [5, 0, 70, 0], d);
    untouched(&with("mov.b32 %r0, 4173828422;", "@%p0 add.u32 %r0, %r0, 1;"), [5, 0, 70, 0], d);
}

/// N-7 by a start and length ptxas computes (3b8517e9, trace TC2.md: `or.b32` of two shuffles of
/// constants, the length a shuffle of `not.b32` of a moved immediate; 13.0.88 -O3 folds the
/// `bfe` to −1): start 0xff, length 0xee give −1, the spec 0 for a ≥ 0. A shuffle of a loaded
/// word is not a value ptxas knows (one with a predicate destination is when nothing reads it:
/// `seed_4303_y4.rs`).
#[test]
fn n7_a_start_and_length_from_shuffles_of_constants_are_known() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |length_shuffle: &'static str| {
        [
            "ld.global.u32 %r9, [%in];",
            "ld.global.u32 %r2, [%in+4];",
            "mov.s32 %r0, 1046035473;",
            "not.b32 %r1, %r0;",
            length_shuffle,
            "shfl.sync.bfly.b32 %r7, 492726485, 22, 1863526385, -1;",
            "or.b32 %r8, %r4, %r7;",
            "bfe.s32 %r10, %r9, %r8, %r4;",
            "st.global.b32 [%out], %r10;",
        ]
    };
    let (s, e, fired) = warp_run(&with("shfl.sync.down.b32 %r4, %r1, %r1, 4292104292, -1;"), [5, 0xee, 0, 0], d);
    assert_eq!((s.bits as u32, s.is_exact()), (0, true));
    assert_eq!((e.bits as u32, e.is_exact()), (0xFFFF_FFFF, true));
    assert_eq!(fired, vec![d]);
    let out_of_scope = "shfl.sync.down.b32 %r4, %r2, 0, 31, -1;";
    let (s, e, fired) = warp_run(&with(out_of_scope), [5, 0xc1a6_c3ee, 0, 0], d);
    assert_eq!((e, fired), (s, vec![]), "{out_of_scope}");
}

/// 3601-C of a `.bf16` source (corpus/findings/fuzz-h200-3701/, e90e547c and 4cdc6561, trace
/// TC1.md and TC4.md; ptxas 13.0.88 and 13.5 -O3 `F2I.BF16.NTZ`, `F2I.BF16.CEIL.NTZ`):
/// `cvt.sat.s32.s64` of `cvt.{rni,rpi}.s64.bf16` of a NaN is 0, the spec 0x80000000; a number is
/// the spec's.
#[test]
fn c_3601_an_int_sat_cvt_of_a_bf16_to_64_bit_cvt_of_a_nan_is_0() {
    let d = Deviation::IntSatOfNanCvtFolded;
    for first in ["cvt.rni.s64.bf16 %d3, %h1;", "cvt.rpi.s64.bf16 %d3, %h1;"] {
        let lines = ["ld.global.u16 %h1, [%in];", first, "cvt.sat.s32.s64 %r7, %d3;", "st.global.u32 [%out], %r7;"];
        exact_case(&lines, [0xffd3, 0, 0, 0], d, 0x8000_0000, 0);
        exact_case(&lines, [0x7fff, 0, 0, 0], d, 0x8000_0000, 0);
        untouched(&lines, [0xc780, 0, 0, 0], d);
    }
}

/// D through `cvt.f32.f32` (corpus/findings/fuzz-h200-3701/, 5a4b88eb and eb5664f7, trace TC3.md
/// and TC4.md; ptxas 13.0.88 and 13.5 -O3 drop the copy and keep `PRMT R9, R8, 0x7610, R9` of a
/// register never written): the copy, alone or with `mov.f32` copies either side, is looked
/// through; `cvt.rni.f32.f32` (`FRND`) and `cvt.ftz.f32.f32` (`FADD.FTZ`) are right.
#[test]
fn d_a_plain_cvt_f32_f32_of_a_packed_half_is_looked_through() {
    let d = Deviation::Tf32OfPackedHalf;
    let with = |copies: &[&'static str]| {
        let mut lines =
            vec!["ld.global.b32 %r0, [%in];", "ld.global.b32 %r1, [%in+4];", "cvt.rn.bf16x2.f32 %r2, %r0, %r1;"];
        lines.extend_from_slice(copies);
        lines.extend_from_slice(&["cvt.rn.tf32.f32 %r3, %r2;", "st.global.b32 [%out], %r3;"]);
        lines
    };
    for copies in [
        &["cvt.f32.f32 %r2, %r2;"][..],
        &["mov.f32 %r4, %r2;", "cvt.f32.f32 %r2, %r4;"],
        &["cvt.f32.f32 %r4, %r2;", "mov.f32 %r2, %r4;"],
        &["cvt.f32.f32 %r4, %r2;", "cvt.f32.f32 %r2, %r4;"],
    ] {
        let (s, e, fired) = both(&with(copies), [0x3f80_0000, 0x4000_0000, 0, 0], d);
        assert!(s.is_exact() && e.matches(s.bits) && e.matches(0x1234_5678 | (s.bits & !0xFFFF_FFFF)), "{copies:?}");
        assert_eq!(fired, vec![d], "{copies:?}");
    }
    for right in ["cvt.rni.f32.f32 %r2, %r2;", "cvt.ftz.f32.f32 %r2, %r2;"] {
        untouched(&with(&[right]), [0x3f80_0000, 0x4000_0000, 0, 0], d);
    }
}

/// F under a widening or same-width `cvt.sat` (corpus/findings/fuzz-h200-3701/, 1d8039b3, trace
/// TC1.md; ptxas 13.0.88 and 13.5 -O3: `IABS R6, R2` zero-extended, no clamp):
/// `cvt.sat.{u64,u32}.s32` of `abs.s32` of −2^31 give 0x80000000, the spec 0, and so does
/// `neg.s32`, whose clamp `ISETP.GT.U32 …, -0x80000000` keeps it (seed 4701's 72d92e64,
/// trace/72d92e64/s47/; the note here that it kept the clamp was a misread); another source
/// value is the spec's.
#[test]
fn f_a_widening_sat_cvt_of_an_overflowed_abs_s32_is_2_pow_31() {
    let d = Deviation::NegationOverflow;
    let with = |negation: &'static str, cvt: &'static str, store: &'static str| {
        ["ld.global.s32 %r0, [%in];", negation, cvt, store]
    };
    let u64 = with("abs.s32 %r1, %r0;", "cvt.sat.u64.s32 %d0, %r1;", "st.global.b64 [%out], %d0;");
    exact_case(&u64, [0x8000_0000, 0, 0, 0], d, 0, 0x8000_0000);
    untouched(&u64, [0x8000_0005, 0, 0, 0], d);
    let u32 = with("abs.s32 %r1, %r0;", "cvt.sat.u32.s32 %r2, %r1;", "st.global.b32 [%out], %r2;");
    exact_case(&u32, [0x8000_0000, 0, 0, 0], d, 0, 0x8000_0000);
    let neg = with("neg.s32 %r1, %r0;", "cvt.sat.u64.s32 %d0, %r1;", "st.global.b64 [%out], %d0;");
    exact_case(&neg, [0x8000_0000; 4], d, 0, 0x8000_0000);
    untouched(&neg, [0x8000_0005; 4], d);
}

/// F in 16-bit multiplies (corpus/findings/fuzz-h200-3701/, 434a41d1, trace TC3.md; ptxas
/// 13.0.88 -O3 `PRMT 0x9910; IMAD.MOV R0, RZ, RZ, -R0; IMAD.SHL.U32 R0, R0, 0x8; SHF.R.S32.HI
/// R7, RZ, 0x10, R0`): `neg.s16` of 0x8000 read as +2^15 — `mad.hi.s16 d, n, 8, 0` gives 4 (the
/// spec 0xfffc), `mul.hi.s16` by a register, the negation second, 0x0004 + 0 likewise,
/// `mul.wide.s16 d, n, 8` 0x40000 (the spec 0xfffc0000); `mul.hi.u16` and another value are the
/// spec's.
#[test]
fn f_a_16_bit_multiply_of_an_overflowed_negation_reads_2_pow_15() {
    let d = Deviation::NegationOverflow;
    let with = |mul: &'static str, store: &'static str| {
        ["ld.global.u16 %h0, [%in];", "ld.global.u16 %h3, [%in+4];", "neg.s16 %h1, %h0;", mul, store]
    };
    let mad_hi = with("mad.hi.s16 %h2, %h1, 8, 0;", "st.global.b16 [%out], %h2;");
    exact_case(&mad_hi, [0x8000, 8, 0, 0], d, 0xFFFC, 0x0004);
    untouched(&mad_hi, [0x8001, 8, 0, 0], d);
    let register = with("mul.hi.s16 %h2, %h3, %h1;", "st.global.b16 [%out], %h2;");
    exact_case(&register, [0x8000, 8, 0, 0], d, 0xFFFC, 0x0004);
    let wide = with("mul.wide.s16 %r2, %h1, 8;", "st.global.b32 [%out], %r2;");
    exact_case(&wide, [0x8000, 8, 0, 0], d, 0xFFFC_0000, 0x0004_0000);
    untouched(&with("mul.hi.u16 %h2, %h1, 8;", "st.global.b16 [%out], %h2;"), [0x8000, 8, 0, 0], d);
}
