//! Tests of the first, lettered root causes (A, B, C, D, E, F, G, I, L, O) and the 3301/3601
//! ones kept beside them: one or more per scope, each naming its evidence.

use super::*;

/// A (corpus/findings/fuzz-h200/README.md): bf16 0x3e3c stored by st.b8 through a move is
/// any byte (-O0 stores 0x01, the truncation it names; -O3 0x02); the other bytes stay.
#[test]
fn a_narrow_store_of_a_float_cvt_is_any_byte() {
    let lines = ["mov.b16 %h0, 0x3e3c;", "cvt.bf16.bf16 %h1, %h0;", "mov.b16 %h2, %h1;", "st.global.b8 [%out+1], %h2;"];
    let (s, e, fired) = both(&lines, [0; 4], Deviation::NarrowStoreOfFloatCvt);
    assert_eq!((s.bits, s.is_exact()), (0x3c00, true));
    assert_eq!(e.bits, 0x0100, "the named byte: F2I.U8.F16.TRUNC of 1.56");
    assert!(e.matches(0x0100) && e.matches(0x0200) && e.matches(0x3c00) && !e.matches(0x0201));
    assert_eq!(fired, vec![Deviation::NarrowStoreOfFloatCvt]);
    // A loaded register, or a 16-bit store of the cvt's register: the spec's bytes.
    untouched(
        &["ld.global.b16 %h1, [%in];", "st.global.b8 [%out], %h1;"],
        [0x3e3c; 4],
        Deviation::NarrowStoreOfFloatCvt,
    );
    untouched(
        &["mov.b16 %h0, 0x3e3c;", "cvt.bf16.bf16 %h1, %h0;", "st.global.b16 [%out], %h1;"],
        [0; 4],
        Deviation::NarrowStoreOfFloatCvt,
    );
}

/// A through a vector store (corpus/findings/fuzz-h100/README.md: 13.5 converts every
/// element of a .v2 8-bit store with a float cvt element) and through an unpacked half of
/// a float cvt's result (corpus/findings/fuzz-h200/c2-hardware-spec-cvt.rn.ftz.f32.f64-23300f07.case).
#[test]
fn a_reaches_every_element_of_a_vector_store_and_unpacked_halves() {
    let vector = [
        "mov.b16 %h7, 0x1234;",
        "mov.b16 %h0, 0x3e3c;",
        "cvt.bf16.bf16 %h4, %h0;",
        "st.global.v2.b8 [%out], {%h7, %h4};",
    ];
    let (s, e, _) = both(&vector, [0; 4], Deviation::NarrowStoreOfFloatCvt);
    assert_eq!(s.bits, 0x3c34);
    assert!(e.matches(0x3c00) && e.matches(0x0034) && e.matches(0x0101) && !e.matches(0x1_0000));
    let unpacked = [
        "ld.global.b64 %d3, [%in];",
        "cvt.rn.ftz.f32.f64 %r2, %d3;",
        "mov.b32 {%h14, %h15}, %r2;",
        "st.global.b8 [%out+1], %h15;",
    ];
    let (s, e, fired) = both(&unpacked, [0, 0x3ff0_0000, 0, 0], Deviation::NarrowStoreOfFloatCvt);
    assert_eq!((s.bits, fired), (0x8000, vec![Deviation::NarrowStoreOfFloatCvt]));
    assert!(e.matches(0x0100) && e.matches(0xff00) && !e.matches(0x01_0000));
}

/// B (corpus/findings/shift-clamp/shift64-f32-load.case): 0x8000000000000001 >> (f32 bits 1)
/// shifts by cvt.rzi.u64.f32(1.4e-45) = 0: unshifted; loaded as .b32 the amount is 1.
#[test]
fn b_a_64_bit_shift_by_an_f32_amount_shifts_by_its_conversion() {
    let f32_amount = [
        "ld.global.f32 %r0, [%in];",
        "ld.global.b64 %d0, [%in+8];",
        "shr.b64 %d1, %d0, %r0;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(
        &f32_amount,
        [1, 0, 1, 0x8000_0000],
        Deviation::F32ShiftAmount,
        0x4000_0000_0000_0000,
        0x8000_0000_0000_0001,
    );
    // 2.0f shifts by 2; through a `mov.f32` copy the amount keeps its type, through an
    // integer copy it does not (b_an_integer_copy_ends_the_f32_typing).
    let moved = [
        "ld.global.f32 %r0, [%in];",
        "mov.f32 %r1, %r0;",
        "ld.global.b64 %d0, [%in+8];",
        "shl.b64 %d1, %d0, %r1;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&moved, [0x4000_0000, 0, 1, 0], Deviation::F32ShiftAmount, 0, 4);
    let bits = [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b64 %d0, [%in+8];",
        "shr.b64 %d1, %d0, %r0;",
        "st.global.b64 [%out], %d1;",
    ];
    untouched(&bits, [1, 0, 1, 0x8000_0000], Deviation::F32ShiftAmount);
}

/// B at amounts ≥ 2^32 (corpus/findings/fuzz-h200-3301/, 763c9409: ptxas 13.0.88 and 13.5
/// emit `F2I.U64.TRUNC` and shift by its low word): f32 0x5bffb634 (1.44e17, an integer
/// whose low 33 bits are 0) shifts by 0, not by the saturated u32 0xffffffff; f32 2^64
/// saturates the u64 to all ones (low word 0xffffffff: clamped, §9.7.8.7); a NaN converts
/// to 2^63 (§9.7.9.21) and shifts by 0; a negative value by 0.
#[test]
fn b_an_amount_of_2_pow_32_or_more_shifts_by_the_low_word_of_its_u64_conversion() {
    let lines = [
        "ld.global.f32 %r0, [%in];",
        "ld.global.b64 %d0, [%in+8];",
        "shr.b64 %d1, %d0, %r0;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&lines, [0x5bff_b634, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount, 0, 0x7ac7_d499);
    untouched(&lines, [0x5f80_0000, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount);
    // 2^32 + 512: the low word 512 is past 64, clamped like the spec's amount.
    untouched(&lines, [0x4f80_0001, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount);
    for nan_or_negative in [0x7fc0_0000, 0xbf80_0000] {
        let (s, e, fired) = both(&lines, [nan_or_negative, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount);
        assert_eq!((s.bits, e.bits, e.is_exact()), (0, 0x7ac7_d499, true), "{nan_or_negative:#x}");
        assert_eq!(fired, vec![Deviation::F32ShiftAmount]);
    }
}

/// B through a `set` with an `.f32` destination (corpus/findings/fuzz-h200-3501/, 2bc4dfbb:
/// `set.ge.f32.u16` gives 1.0, and ptxas 13.5 -O0 shifts by `F2I.U64.TRUNC` of it): shifts by
/// 1, not by the clamped 0x3f800000; an integer `set` result is the spec's amount.
#[test]
fn b_a_64_bit_shift_by_a_set_f32_result_shifts_by_its_conversion() {
    let lines = [
        "ld.global.u16 %h0, [%in];",
        "set.ge.f32.u16 %r1, %h0, 0x0;",
        "mov.b64 %d2, 76661604;",
        "shr.u64 %d3, %d2, %r1;",
        "st.global.b64 [%out], %d3;",
    ];
    exact_case(&lines, [0, 0, 0, 0], Deviation::F32ShiftAmount, 0, 76661604 >> 1);
    let integer = [
        "ld.global.u16 %h0, [%in];",
        "set.ge.u32.u16 %r1, %h0, 0x0;",
        "mov.b64 %d2, 76661604;",
        "shr.u64 %d3, %d2, %r1;",
        "st.global.b64 [%out], %d3;",
    ];
    untouched(&integer, [0, 0, 0, 0], Deviation::F32ShiftAmount);
}

/// B through a `cvt.f32` whose guard is false (corpus/findings/fuzz-h200-3501/, ec8d0db0:
/// ptxas 13.5 -O0 selects the old word, `FSEL`, and converts it, `F2I.U64.TRUNC`): the integer
/// bits 0xe0167f86 read as f32 (−4.3e19) convert to 0, so the shift does not move the value;
/// the spec clamps the amount and shifts everything out.
#[test]
fn b_a_skipped_cvt_to_f32_makes_the_old_amount_f32_typed() {
    let lines = [
        "mov.b32 %r0, 3759559814;",
        "ld.global.u16 %h0, [%in];",
        "setp.eq.s16 %p0, %h0, 7;",
        "@%p0 cvt.f32.bf16 %r0, %h0;",
        "mov.b64 %d1, 16147186448485842944;",
        "shr.u64 %d2, %d1, %r0;",
        "st.global.b64 [%out], %d2;",
    ];
    exact_case(&lines, [0, 0, 0, 0], Deviation::F32ShiftAmount, 0, 16147186448485842944);
}

/// B through an integer copy (corpus/findings/fuzz-h200-3604/, 4b388efe; ptxas 13.0.88 and
/// 13.5, -O0 and -O3: `F2I.U64.TRUNC R4, R0; SHF.L.U64.HI …; SHF.R.S64 R7, RZ, R8, R11`, the
/// `shr.s64` by the raw word): the last copy's type counts, `mov.u32`/`mov.b32`/`mov.s32` end the
/// f32 typing, `mov.f32` keeps it. The finding's word: shl by F2I.U64(−702375) = 0 leaves
/// 0xffffffff00000000, the shr.s64 by the raw 0xa8856fff fills with the sign: 0xffff.
#[test]
fn b_an_integer_copy_ends_the_f32_typing() {
    let with = |copy: &'static str| {
        [
            "mov.b64 %d0, 18446744069414584320;",
            "ld.global.f32 %r0, [%in];",
            "ld.global.f32 %r6, [%in+12];",
            copy,
            "shl.b64 %d0, %d0, %r0;",
            "shr.s64 %d0, %d0, %r4;",
            "mov.b64 {%h5, %h6, %h7, %h8}, %d0;",
            "st.global.b16 [%out], %h5;",
        ]
    };
    let words = [0xc92a_c86f, 0, 0, 0xa885_6fff];
    for copy in ["mov.u32 %r4, %r6;", "mov.b32 %r4, %r6;", "mov.s32 %r4, %r6;"] {
        exact_case(&with(copy), words, Deviation::F32ShiftAmount, 0, 0xffff);
    }
    // Through `mov.f32` both shifts convert: shr.s64 by F2I.S64(−1.48e−14) = 0, the low half 0.
    let (s, e, fired) = both(&with("mov.f32 %r4, %r6;"), words, Deviation::F32ShiftAmount);
    assert_eq!((s.bits, e.bits, e.is_exact()), (0, 0, true));
    assert_eq!(fired, vec![Deviation::F32ShiftAmount]);
    // An integer copy then a `mov.f32` copy: f32-typed again.
    let again = [
        "ld.global.f32 %r0, [%in];",
        "mov.b32 %r1, %r0;",
        "mov.f32 %r2, %r1;",
        "ld.global.b64 %d0, [%in+8];",
        "shl.b64 %d1, %d0, %r2;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&again, [0x4000_0000, 0, 1, 0], Deviation::F32ShiftAmount, 0, 4);
}

/// B through a `mov.f32` whose guard is false (corpus/findings/fuzz-h200-3602/, 9ab5ce60,
/// `red_ld`; ptxas 13.0.88 and 13.5: -O0 `FSEL R4, R4, R3, P0; F2I.U64.TRUNC R4, R4`, -O3
/// `F2I.U64.TRUNC` whatever the guard): the old `ld.u32` word 2.0f shifts by 2, as after a
/// skipped `cvt` to `.f32`; a skipped `mov.b32` (`red_movb32`: `SEL`, no `F2I`) leaves it raw.
#[test]
fn b_a_skipped_mov_f32_makes_the_old_amount_f32_typed() {
    let with = |mov: &'static str| {
        [
            "ld.global.b64 %d0, [%in+8];",
            "setp.ge.s64 %p0, %d0, 0;",
            "ld.global.f32 %r4, [%in+4];",
            "ld.global.u32 %r0, [%in];",
            mov,
            "shr.b64 %d0, %d0, %r0;",
            "st.global.u64 [%out], %d0;",
        ]
    };
    let words = [0x4000_0000, 0x3f80_0000, 0x100, 0];
    exact_case(&with("@!%p0 mov.f32 %r0, %r4;"), words, Deviation::F32ShiftAmount, 0, 0x40);
    untouched(&with("@!%p0 mov.b32 %r0, %r4;"), words, Deviation::F32ShiftAmount);
}

/// B through a `shfl.sync` result merged by a skipped `cvt.f32` (corpus/findings/fuzz-h200-3602/,
/// 24bc5888; ptxas 13.0.88 and 13.5, -O0 and -O3: `SHFL.UP P0, R0, R0, 0x1a, RZ; HADD2.F32 R7,
/// …; FSEL R7, R7, R0, P0; F2I.S64.TRUNC R6, R7; SHF.R.S64`): lane 0 keeps its 2, read as the
/// f32 2.8e−45 it converts to 0, so 23403082 is not shifted (the GPU's low half 0x1a4a; the
/// spec's 0x4692). Without the cvt the shuffled word is raw (`red_nocvt`).
#[test]
fn b_a_shuffled_amount_merged_by_a_skipped_cvt_to_f32_converts() {
    let with = |cvt: &'static str| {
        [
            "mov.b32 %r5, 2;",
            "mov.b64 %d2, 23403082;",
            "shfl.sync.up.b32 %r7|%p1, %r5, 26, 291717572, -1;",
            "mov.b16 %h2, 0;",
            cvt,
            "shr.s64 %d2, %d2, %r7;",
            "mov.b64 {%h6, %h7, %h8, %h9}, %d2;",
            "st.global.s16 [%out], %h6;",
        ]
    };
    let (s, e, fired) = warp_both(&with("@%p1 cvt.f32.f16 %r7, %h2;"), [0; 4], Deviation::F32ShiftAmount);
    assert_eq!((s.bits, s.is_exact()), (0x4692, true));
    assert_eq!((e.bits, e.is_exact()), (0x1a4a, true));
    assert_eq!(fired, vec![Deviation::F32ShiftAmount]);
    let (s, e, fired) = warp_both(&with("mov.b16 %h3, 0;"), [0; 4], Deviation::F32ShiftAmount);
    assert_eq!((e, fired), (s, Vec::new()));
}

/// D (corpus/findings/fuzz-h200/README.md): a tf32 conversion of a packed bf16x2 result is
/// any value; of a loaded word it is the spec's.
#[test]
fn d_a_tf32_conversion_of_a_packed_half_is_any_value() {
    let lines = [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b32 %r1, [%in+4];",
        "cvt.rn.bf16x2.f32 %r2, %r0, %r1;",
        "cvt.rn.tf32.f32 %r3, %r2;",
        "st.global.b32 [%out], %r3;",
    ];
    let (s, e, fired) = both(&lines, [0x3f80_0000, 0x4000_0000, 0, 0], Deviation::Tf32OfPackedHalf);
    assert!(s.is_exact() && e.matches(s.bits) && e.matches(0x1234_5678 | (s.bits & !0xFFFF_FFFF)));
    assert_eq!(fired, vec![Deviation::Tf32OfPackedHalf]);
    untouched(
        &["ld.global.b32 %r2, [%in];", "cvt.rn.tf32.f32 %r3, %r2;", "st.global.b32 [%out], %r3;"],
        [0x3f80_0000; 4],
        Deviation::Tf32OfPackedHalf,
    );
}

/// D through `mov.f32` copies (corpus/findings/fuzz-h200-3601/, d603bf3c and 508957df; ptxas
/// 13.0.88 and 13.5 -O3 drop the copy and keep `PRMT R9, R8, 0x7610, R9` of a register never
/// written): the copy, guarded (and run) or not, one or two deep, is looked through; a
/// `mov.f32` of a loaded word stays the spec's; B still sees the copy as f32-typed.
#[test]
fn d_a_mov_f32_copy_of_a_packed_half_is_looked_through() {
    let with = |copies: &[&'static str]| {
        let mut lines = vec![
            "ld.global.b32 %r0, [%in];",
            "ld.global.b32 %r1, [%in+4];",
            "setp.eq.u32 %p1, %r0, %r0;",
            "cvt.rn.bf16x2.f32 %r2, %r0, %r1;",
        ];
        lines.extend_from_slice(copies);
        lines.extend_from_slice(&["cvt.rn.tf32.f32 %r3, %r2;", "st.global.b32 [%out], %r3;"]);
        lines
    };
    for copies in [
        &["mov.f32 %r2, %r2;"][..],
        &["@%p1 mov.f32 %r2, %r2;"],
        &["mov.f32 %r4, %r2;", "mov.f32 %r2, %r4;"],
        &["mov.f32 %r4, %r2;", "mov.b32 %r2, %r4;"],
    ] {
        let (s, e, fired) = both(&with(copies), [0x3f80_0000, 0x4000_0000, 0, 0], Deviation::Tf32OfPackedHalf);
        assert!(s.is_exact() && e.matches(s.bits) && e.matches(0x1234_5678 | (s.bits & !0xFFFF_FFFF)), "{copies:?}");
        assert_eq!(fired, vec![Deviation::Tf32OfPackedHalf], "{copies:?}");
    }
    let loaded =
        ["ld.global.b32 %r2, [%in];", "mov.f32 %r4, %r2;", "cvt.rn.tf32.f32 %r3, %r4;", "st.global.b32 [%out], %r3;"];
    untouched(&loaded, [0x3f80_0000; 4], Deviation::Tf32OfPackedHalf);
    // B: a `mov.f32` copy of an integer word is an f32-typed amount (2.0f shifts by 2).
    let amount = [
        "ld.global.b32 %r0, [%in];",
        "mov.f32 %r1, %r0;",
        "ld.global.b64 %d0, [%in+8];",
        "shl.b64 %d1, %d0, %r1;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&amount, [0x4000_0000, 0, 1, 0], Deviation::F32ShiftAmount, 0, 4);
}

/// E (corpus/known/fuzz-h200-e-bf16-read-as-f16.toml, the mirror case): bf16 0x7bff through
/// cvt.f16.bf16 (+inf) then cvt.rzi.u32.f16 converts as f16 65504, not as +inf.
#[test]
fn e_a_float_to_integer_cvt_of_a_half_cvt_converts_its_source_bits() {
    let lines = [
        "mov.b16 %h0, 0x7bff;",
        "cvt.rn.f16.bf16 %h1, %h0;",
        "cvt.rzi.u32.f16 %r0, %h1;",
        "st.global.u32 [%out], %r0;",
    ];
    exact_case(&lines, [0; 4], Deviation::Bf16ReadAsF16, 0xFFFF_FFFF, 65504);
    // Without a rounding modifier the fold rounds to nearest: bf16 bits 0x3eaf read as f16
    // (1.67) give 2 (corpus/findings/fuzz-h100-b/c4105-compiler-xor.b16-41c11234.case).
    let nearest =
        ["mov.b16 %h2, 16047;", "cvt.bf16.bf16 %h5, %h2;", "cvt.rzi.u32.f16 %r0, %h5;", "st.global.u32 [%out], %r0;"];
    exact_case(&nearest, [0; 4], Deviation::Bf16ReadAsF16, 1, 2);
    untouched(
        &["mov.b16 %h1, 0x7c00;", "cvt.rzi.u32.f16 %r0, %h1;", "st.global.u32 [%out], %r0;"],
        [0; 4],
        Deviation::Bf16ReadAsF16,
    );
}

/// F (corpus/findings/fuzz-h200/README.md): cvt.rm.f32.u16 of abs.s16(-32768) converts as
/// signed (-32768.0); a signed setp of it is any; abs of another value is the spec's.
#[test]
fn f_an_overflowed_negation_is_taken_as_signed() {
    let lines =
        ["ld.global.u16 %h0, [%in];", "abs.s16 %h1, %h0;", "cvt.rm.f32.u16 %r0, %h1;", "st.global.u32 [%out], %r0;"];
    exact_case(&lines, [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0x4700_0000, 0xC700_0000);
    untouched(&lines, [0x8001, 0, 0, 0], Deviation::NegationOverflow);
    let setp = [
        "ld.global.u16 %h0, [%in];",
        "neg.s16 %h1, %h0;",
        "setp.ge.s16 %p0, %h1, 0;",
        "ld.global.b32 %r1, [%in+4];",
        "ld.global.b32 %r2, [%in+8];",
        "selp.b32 %r0, %r1, %r2, %p0;",
        "st.global.u32 [%out], %r0;",
    ];
    let (s, e, fired) = both(&setp, [0x8000, 1, 2, 0], Deviation::NegationOverflow);
    assert_eq!((s.bits, s.is_exact()), (2, true));
    assert!(e.matches(1) && e.matches(2) && fired == vec![Deviation::NegationOverflow]);
}

/// 3301-N1 (corpus/findings/fuzz-h200-3301/, e6e88e27): `shr.b16 %h2, %h0, 0x80000000` of
/// 0x8000 gives 0x8000 (shifted by the immediate's low 16 bits, 0), where the spec's
/// clamped amount gives 0; `shl.b16 …, 0x10001` shifts by 1; a register amount of 2^16,
/// or an immediate below 2^16: the spec's result.
#[test]
fn n1_3301_a_16_bit_shift_by_a_wide_immediate_shifts_by_its_low_half() {
    let at = |op: &str, amount: &str| {
        [
            "ld.global.u16 %h0, [%in];".to_string(),
            "ld.global.u32 %r0, [%in+4];".to_string(),
            format!("{op} %h2, %h0, {amount};"),
            "st.global.b16 [%out], %h2;".to_string(),
        ]
    };
    let d = Deviation::Shift16ImmediateLowHalf;
    for (op, amount, words, spec, bug) in [
        ("shr.b16", "0x80000000", [0x8000, 0, 0, 0], 0, 0x8000),
        ("shr.s16", "0x10000", [0x8000, 0, 0, 0], 0xffff, 0x8000),
        ("shl.b16", "0x10001", [0x4001, 0, 0, 0], 0, 0x8002),
    ] {
        let l = at(op, amount);
        exact_case(&l.iter().map(String::as_str).collect::<Vec<_>>(), words, d, spec, bug);
    }
    for amount in ["%r0", "0xffff"] {
        let l = at("shr.b16", amount);
        untouched(&l.iter().map(String::as_str).collect::<Vec<_>>(), [0x8000, 0x1_0000, 0, 0], d);
    }
    let wide = ["ld.global.u32 %r1, [%in];", "shr.b32 %r2, %r1, 0x80000000;", "st.global.b32 [%out], %r2;"];
    untouched(&wide, [0x8000_0000, 0, 0, 0], d);
}

/// 3301-N2 (corpus/findings/fuzz-h200-3301/, a6d22081): `sub.cc.s64 %d4, %d1, %d2` with
/// %d2 = `abs.s64` of 0 borrows, so `subc.s64` after it is one less; |x| ≠ 0, a loaded 0,
/// or a 32-bit `abs` (13.5: `IADD3 RZ, P0, a, -|x|`, right): the spec's result.
#[test]
fn n2_3301_sub_cc_of_an_abs_s64_zero_borrows() {
    let lines = [
        "ld.global.b64 %d0, [%in];",
        "ld.global.b64 %d1, [%in+8];",
        "abs.s64 %d2, %d0;",
        "sub.cc.s64 %d4, %d1, %d2;",
        "subc.s64 %d5, %d1, %d1;",
        "st.global.b64 [%out], %d5;",
    ];
    let d = Deviation::SubCcOfAbsZeroBorrows;
    exact_case(&lines, [0, 0, 7, 0], d, 0, 0xFFFF_FFFF_FFFF_FFFF);
    untouched(&lines, [1, 0, 7, 0], d);
    let loaded = lines.map(|l| if l.starts_with("abs") { "mov.b64 %d2, %d0;" } else { l });
    untouched(&loaded, [0, 0, 7, 0], d);
    let narrow = [
        "ld.global.b32 %r0, [%in];",
        "ld.global.b32 %r1, [%in+8];",
        "abs.s32 %r2, %r0;",
        "sub.cc.s32 %r4, %r1, %r2;",
        "subc.s32 %r5, %r1, %r1;",
        "st.global.b32 [%out], %r5;",
    ];
    untouched(&narrow, [0, 0, 7, 0], d);
}

/// C's integer direction for a NaN (corpus/findings/fuzz-h200-3601/, 6ac6a5e1; ptxas 13.0.88
/// and 13.5 -O3 fold the pair into `F2I.NTZ`): `cvt.sat.s32.s64` of `cvt.rni.s64.f32` of a NaN
/// is 0, not 0x80000000; `cvt.sat.u32.u64` of `cvt.rzi.u64.f16` of a NaN 0 as well (through a
/// move); a number, an `.f64` source or `cvt.sat.s32.u64`: the spec's.
#[test]
fn c_an_int_sat_cvt_of_a_float_to_64_bit_cvt_of_a_nan_is_0() {
    let d = Deviation::IntSatOfNanCvtFolded;
    let signed = [
        "ld.global.u32 %r0, [%in];",
        "cvt.rni.ftz.sat.s64.f32 %d1, %r0;",
        "cvt.sat.s32.s64 %r3, %d1;",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&signed, [0xffff_ffff, 0, 0, 0], d, 0x8000_0000, 0);
    untouched(&signed, [0x4f00_0000, 0, 0, 0], d);
    let unsigned = [
        "ld.global.u16 %h0, [%in];",
        "cvt.rzi.u64.f16 %d1, %h0;",
        "mov.b64 %d2, %d1;",
        "cvt.sat.u32.u64 %r3, %d2;",
        "st.global.u32 [%out], %r3;",
    ];
    let (s, e, fired) = both(&unsigned, [0x7e00, 0, 0, 0], d);
    assert!(s.is_exact() && (e.bits as u32, e.is_exact()) == (0, true), "spec {s:?}, emulated {e:?}");
    assert_eq!(fired, if s.bits as u32 == 0 { vec![] } else { vec![d] });
    for right in [
        [
            "ld.global.u64 %d0, [%in];",
            "cvt.rni.s64.f64 %d1, %d0;",
            "cvt.sat.s32.s64 %r3, %d1;",
            "st.global.u32 [%out], %r3;",
        ],
        [
            "ld.global.u32 %r0, [%in];",
            "cvt.rzi.u64.f32 %d1, %r0;",
            "cvt.sat.s32.u64 %r3, %d1;",
            "st.global.u32 [%out], %r3;",
        ],
    ] {
        untouched(&right, [0xffff_ffff, 0xffff_ffff, 0, 0], d);
    }
}

/// O (corpus/findings/fuzz-h200-3601/, e9e8eb40; ptxas 13.0.88 -O3 shifts by R0, never
/// written): `shl.b16` of 0xf0 by `cnot.b32` of a loaded 0 is any value (the spec's 0xe0 one
/// of them), as is `shr.b16`; `shr.s16`, `not.b32`, `sub.u32 d, x, 5`: the spec's.
#[test]
fn o_a_16_bit_shift_by_a_cnot_or_negated_u32_amount_is_any_value() {
    let d = Deviation::Shift16ByCnotAmountUnwritten;
    let at = |amount: &str, shift: &str| {
        [
            "ld.global.u32 %r0, [%in];".to_string(),
            format!("{amount};"),
            "ld.global.u16 %h0, [%in+4];".to_string(),
            format!("{shift};"),
            "cvt.u32.u16 %r2, %h1;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    for (amount, shift) in
        [("cnot.b32 %r1, %r0", "shl.b16 %h1, %h0, %r1"), ("cnot.b32 %r1, %r0", "shr.b16 %h1, %h0, %r1")]
    {
        let (s, e, fired) = both(&strs(&at(amount, shift)), [0, 0xf0, 0, 0], d);
        assert!(s.is_exact() && e.matches(s.bits) && e.matches(0xf0) && !e.is_exact(), "{amount}; {shift}");
        assert_eq!(fired, vec![d]);
    }
    for (amount, shift) in [
        ("cnot.b32 %r1, %r0", "shr.s16 %h1, %h0, %r1"),
        ("not.b32 %r1, %r0", "shl.b16 %h1, %h0, %r1"),
        ("sub.u32 %r1, %r0, 5", "shl.b16 %h1, %h0, %r1"),
    ] {
        untouched(&strs(&at(amount, shift)), [0, 0xf0, 0, 0], d);
    }
}

/// 3601-N1 (corpus/findings/fuzz-h200-3601/, c6597432 and c9db337a; ptxas 13.0.88 and 13.5
/// -O3): `sub.cc.{u32,s32}` of a `mul.hi.{u32,s32}` result by a register holding 0 borrows, so
/// `subc` after it is one less (7 − 0 − 1), by an immediate 0 too (corpus/findings/fuzz-h200-3901/,
/// dbb0f09c, trace/T6A.md; this program, 13.0.88 -O3: `IMAD.HI.U32 RZ, P0, R9, R9, R6; IADD3.X`);
/// a nonzero subtrahend, `mad.hi`, `mul.lo`, or a `mul.hi` result a store reads too: the spec's result.
#[test]
fn n1_3601_sub_cc_of_a_mul_hi_result_by_a_zero_register_borrows() {
    let at = |mul: &str, sub: &str, extra: &str| {
        let mut lines = vec![
            "ld.global.u32 %r0, [%in];".to_string(),
            "ld.global.u32 %r7, [%in+4];".to_string(),
            "ld.global.u32 %r5, [%in+8];".to_string(),
            format!("{mul};"),
            format!("{sub};"),
            "subc.u32 %r8, %r5, %r7;".to_string(),
        ];
        lines.extend((!extra.is_empty()).then(|| extra.to_string()));
        lines.push("st.global.u32 [%out], %r8;".to_string());
        lines
    };
    let d = Deviation::SubCcOfMulHiZeroBorrows;
    for (mul, sub) in [
        ("mul.hi.u32 %r6, %r0, %r0", "sub.cc.u32 %r4, %r6, %r7"),
        ("mul.hi.s32 %r6, %r0, %r0", "sub.cc.u32 %r4, %r6, %r7"),
        ("mul.hi.u32 %r6, %r0, %r0", "sub.cc.s32 %r6, %r6, %r7"),
    ] {
        exact_case(&strs(&at(mul, sub, "")), [0x10000, 0, 7, 0], d, 7, 6);
        untouched(&strs(&at(mul, sub, "")), [0x10000, 1, 7, 0], d);
    }
    exact_case(&strs(&at("mul.hi.u32 %r6, %r0, %r0", "sub.cc.u32 %r4, %r6, 0", "")), [0x10000, 0, 7, 0], d, 7, 6);
    let right = [
        ("mad.hi.u32 %r6, %r0, %r0, %r7", "sub.cc.u32 %r4, %r6, %r7", ""),
        ("mul.lo.u32 %r6, %r0, %r0", "sub.cc.u32 %r4, %r6, %r7", ""),
        // A store reading the mul.hi result too keeps it unfused (corpus/findings/fuzz-h200-4003/,
        // trace/4019c7cf/v_other_reader_store); an arithmetic reader does not (T7F.md, seed_400x_v4).
        ("mul.hi.u32 %r6, %r0, %r0", "sub.cc.u32 %r4, %r6, %r7", "st.global.u32 [%out+4], %r6;"),
    ];
    for (mul, sub, extra) in right {
        untouched(&strs(&at(mul, sub, extra)), [0x10000, 0, 7, 0], d);
    }
    // c9db337a: the `subc` overwrites the `mul.hi`'s register; a read after that is another value.
    let reused = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r7, [%in+4];",
        "ld.global.u32 %r5, [%in+8];",
        "mul.hi.s32 %r6, %r0, %r0;",
        "sub.cc.u32 %r4, %r6, %r7;",
        "subc.u32 %r6, %r5, %r7;",
        "add.u32 %r8, %r6, 0;",
        "st.global.u32 [%out], %r8;",
    ];
    exact_case(&reused, [0x10000, 0, 7, 0], d, 7, 6);
}

/// 3301-N3 (corpus/findings/fuzz-h200-3301/, 17e80392): `set.le.s32.s64` (−1), then
/// `cvt.rn.bf16.s32` (bf16 −1.0, 0xbf80) and `cvt.rni.u32.f16` (f16 −1.875 → 0) gives −1;
/// through f32 to `.u16` 0xffff, through f16 to `.u64` all ones (13.5's listings); a set
/// that is false, or a loaded −1: the spec's result.
#[test]
fn n3_3301_a_float_round_trip_of_a_set_result_is_the_set() {
    let at = |src: &str, mid: &str, last: &str, st: &str| {
        ["ld.global.u32 %r1, [%in];".to_string(), src.to_string(), mid.to_string(), last.to_string(), st.to_string()]
    };
    let set = "set.le.s32.u32 %r0, %r1, 5;";
    let d = Deviation::SetRoundTripFolded;
    for (mid, last, st, bug) in [
        ("cvt.rn.bf16.s32 %h0, %r0;", "cvt.rni.u32.f16 %r2, %h0;", "st.global.u32 [%out], %r2;", 0xFFFF_FFFF),
        ("cvt.rn.f32.s32 %r3, %r0;", "cvt.rzi.u16.f32 %h1, %r3;", "st.global.u16 [%out], %h1;", 0xFFFF),
        ("cvt.rn.f16.s32 %h0, %r0;", "cvt.rzi.u64.f16 %d3, %h0;", "st.global.u64 [%out], %d3;", u64::MAX),
    ] {
        let l = at(set, mid, last, st);
        exact_case(&l.iter().map(String::as_str).collect::<Vec<_>>(), [3, 0, 0, 0], d, 0, bug);
        untouched(&l.iter().map(String::as_str).collect::<Vec<_>>(), [9, 0, 0, 0], d);
        let loaded = at("ld.global.u32 %r0, [%in+4];", mid, last, st);
        untouched(&loaded.iter().map(String::as_str).collect::<Vec<_>>(), [3, 0xFFFF_FFFF, 0, 0], d);
    }
}

/// 3301-N3 with the `set.f32` as the float step (corpus/findings/fuzz-h200-3602/, dced936c;
/// ptxas 13.0.88 and 13.5 -O3: `SEL R0, RZ, 0xffffffff, !P0; IABS R0, R0; PRMT R7, R0,
/// 0x7710`): `set.le.f32.s64` (1.0f), `cvt.s16.s32` (its low half, f16 +0) and
/// `cvt.rzi.s16.f16` give 1, the GPU's word, where the spec gives 0; a false set gives 0 either
/// way; `selp.b32 0x3f800000, 0` in place of the set (`d6`: `F2I.S16.F16.TRUNC`) is right.
#[test]
fn n3_3301_an_integer_cvt_of_a_truncated_set_f32_result_is_the_set() {
    let with = |set: &'static str, trunc: &'static str, last: &'static str| {
        ["mov.b64 %d1, 0;", "ld.global.s64 %d2, [%in];", "setp.le.s64 %p0, %d1, %d2;", set, trunc, last]
            .into_iter()
            .chain(["st.global.s16 [%out], %h5;"])
            .collect::<Vec<_>>()
    };
    let d = Deviation::SetRoundTripFolded;
    let set = "set.le.f32.s64 %r0, %d1, %d2;";
    for (trunc, last) in [
        ("cvt.s16.s32 %h0, %r0;", "cvt.rzi.s16.f16 %h5, %h0;"),
        ("cvt.u16.u32 %h0, %r0;", "cvt.rni.u16.f16 %h5, %h0;"),
        ("cvt.s16.s32 %h0, %r0;", "cvt.rzi.s16.bf16 %h5, %h0;"),
    ] {
        exact_case(&with(set, trunc, last), [5, 0, 0, 0], d, 0, 1);
        untouched(&with(set, trunc, last), [0, 0x8000_0000, 0, 0], d);
    }
    let selp = "selp.b32 %r0, %r9, %r8, %p0;";
    let mut selected = with(selp, "cvt.s16.s32 %h0, %r0;", "cvt.rzi.s16.f16 %h5, %h0;");
    selected.splice(0..0, ["mov.b32 %r9, 1065353216;", "mov.b32 %r8, 0;"]);
    untouched(&selected, [5, 0, 0, 0], d);
}

/// C's float direction (corpus/findings/fuzz-h200-3301/, 75b04c3b): f16 19.0 (0x4cc0)
/// through `cvt.sat.s16.u16` (unchanged) and `cvt.sat.f32.f16` gives 19.0, not 1.0; the
/// same to `.f64`; of a loaded half, or of an integer cvt without `.sat`: the spec's 1.0.
#[test]
fn c_a_float_sat_cvt_of_an_integer_sat_cvt_is_not_saturated() {
    let at = |first: &str, last: &str, st: &str| {
        ["ld.global.u16 %h0, [%in];".to_string(), first.to_string(), last.to_string(), st.to_string()]
    };
    let d = Deviation::FloatSatOfIntSatDropped;
    for (last, st, spec, bug) in [
        ("cvt.sat.f32.f16 %r2, %h1;", "st.global.u32 [%out], %r2;", 0x3f80_0000, 0x4198_0000),
        ("cvt.sat.f64.f16 %d2, %h1;", "st.global.u64 [%out], %d2;", 0x3ff0_0000_0000_0000, 0x4033_0000_0000_0000),
    ] {
        let l = at("cvt.sat.s16.u16 %h1, %h0;", last, st);
        exact_case(&l.iter().map(String::as_str).collect::<Vec<_>>(), [0x4cc0, 0, 0, 0], d, spec, bug);
        let loaded = at("mov.b16 %h1, %h0;", last, st);
        untouched(&loaded.iter().map(String::as_str).collect::<Vec<_>>(), [0x4cc0, 0, 0, 0], d);
        let plain = at("cvt.s16.u16 %h1, %h0;", last, st);
        untouched(&plain.iter().map(String::as_str).collect::<Vec<_>>(), [0x4cc0, 0, 0, 0], d);
    }
}

/// G (corpus/findings/fuzz-h200-3301/, 8518bbff): `shr.s16 %h2, %h1, 16` of a loaded byte
/// is 0, but `cvt.sat.f32.f16` of it converts the byte (-O3's `HADD2.F32 R, -RZ, R.H0_H0`
/// of the load): f16 0x3c00 is not a byte, 0x0040 (3.8e-6) is; both values admitted. A
/// shift by 17, or a source with bit 15 set: the spec's result.
#[test]
fn g_a_half_cvt_of_shr_s16_by_16_may_convert_the_unshifted_source() {
    let at = |ld: &str, by: &str| {
        [
            format!("ld.global.{ld} %h1, [%in];"),
            format!("shr.s16 %h2, %h1, {by};"),
            "cvt.sat.f32.f16 %r2, %h2;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    let lines = at("u8", "0x10");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let (s, e, fired) = both(&lines, [0x40, 0, 0, 0], Deviation::ShrS16By16ReadsSource);
    assert_eq!((s.bits, s.is_exact()), (0, true));
    assert!(e.matches(0x3680_0000) && e.matches(0) && !e.matches(0x3f80_0000), "{e:?}");
    assert_eq!(fired, vec![Deviation::ShrS16By16ReadsSource]);
    for other in Deviation::ALL.into_iter().filter(|&o| o != Deviation::ShrS16By16ReadsSource) {
        untouched(&lines, [0x40, 0, 0, 0], other);
    }
    let by_17 = at("u8", "0x11");
    untouched(&by_17.iter().map(String::as_str).collect::<Vec<_>>(), [0x40, 0, 0, 0], Deviation::ShrS16By16ReadsSource);
    let negative = at("u16", "0x10");
    let negative: Vec<&str> = negative.iter().map(String::as_str).collect();
    untouched(&negative, [0xbc00, 0, 0, 0], Deviation::ShrS16By16ReadsSource);
}

/// I (corpus/findings/fuzz-h100/README.md): f16 0x007f through cvt.rp.bf16.f16, then
/// cvt.rzi.u32.bf16, gives 1 (rounded toward +inf), not 0.
#[test]
fn i_a_directed_rounding_is_folded_into_the_integer_cvt() {
    let lines =
        ["mov.b16 %h3, 127;", "cvt.rp.bf16.f16 %h6, %h3;", "cvt.rzi.u32.bf16 %r4, %h6;", "st.global.u32 [%out], %r4;"];
    exact_case(&lines, [0; 4], Deviation::DirectedRoundingFoldedIntoInt, 0, 1);
    untouched(
        &["mov.b16 %h3, 127;", "cvt.rn.bf16.f16 %h6, %h3;", "cvt.rzi.u32.bf16 %r4, %h6;", "st.global.u32 [%out], %r4;"],
        [0; 4],
        Deviation::DirectedRoundingFoldedIntoInt,
    );
    // .rm rounds toward -inf (corpus/findings/fuzz-h200/c1-compiler-xor.b16-a25b6497.case:
    // f16 0xac01 through cvt.rm.bf16.f16 gives -1, hence its word's "sign").
    let rm = [
        "mov.b16 %h0, 44033;",
        "cvt.rm.bf16.f16 %h0, %h0;",
        "cvt.rzi.s32.bf16 %r1, %h0;",
        "st.global.u32 [%out], %r1;",
    ];
    exact_case(&rm, [0; 4], Deviation::DirectedRoundingFoldedIntoInt, 0, 0xFFFF_FFFF);
}

/// I with an integer rounding (corpus/findings/fuzz-h200-3301/, third run, 0048b69b; ptxas
/// 13.0.88 and 13.5 -O3): `cvt.rpi.f16.f16; cvt.rzi.s32.bf16` is `F2I.BF16.CEIL.NTZ` of the
/// first source: f16 0x004e (4.6e-6) read as bf16 (7e-39) rounds up to 1, where the spec
/// rounds it to f16 1.0 (0x3c00, bf16 0.0078) and truncates that to 0. `.rmi` rounds down.
#[test]
fn i_an_integer_rounding_of_the_first_cvt_is_folded_too() {
    let rpi = ["ld.global.u16 %h0, [%in];", "cvt.rpi.f16.f16 %h1, %h0;", "cvt.rzi.s32.bf16 %r0, %h1;"];
    let store = ["st.global.u32 [%out], %r0;"];
    exact_case(&[&rpi[..], &store[..]].concat(), [0x4e, 0, 0, 0], Deviation::DirectedRoundingFoldedIntoInt, 0, 1);
    let rmi = ["ld.global.u16 %h0, [%in];", "cvt.rmi.f16.f16 %h1, %h0;", "cvt.rzi.s32.bf16 %r0, %h1;"];
    let rmi = [&rmi[..], &store[..]].concat();
    exact_case(&rmi, [0x804e, 0, 0, 0], Deviation::DirectedRoundingFoldedIntoInt, 0, 0xFFFF_FFFF);
}

/// F through a saturating narrowing cvt (corpus/findings/fuzz-h200-3301/, third run,
/// 5702bd91; ptxas 13.0.88 and 13.5 -O3): `abs.s32; cvt.sat.u8.s32` is `IABS R9, R8;
/// ISETP.GT.U32 …, 0xff; SEL` — abs of −2^31 (−2^31) saturates to 0xff, not 0; to `.s8` 0x7f.
/// `neg.s32`: `tests/seed_4101_x1.rs`; a wider or same-width destination: `tests/known_at_compile_time.rs`.
#[test]
fn f_a_sat_cvt_of_an_overflowed_abs_saturates_it_as_unsigned() {
    let abs = ["ld.global.s32 %r5, [%in];", "abs.s32 %r4, %r5;"];
    let u8 = [&abs[..], &["cvt.sat.u8.s32 %r6, %r4;", "st.global.u32 [%out], %r6;"]].concat();
    exact_case(&u8, [0x8000_0000, 0, 0, 0], Deviation::NegationOverflow, 0, 0xff);
    untouched(&u8, [0x8000_0005, 0, 0, 0], Deviation::NegationOverflow);
    let s8 = [&abs[..], &["cvt.sat.s8.s32 %r6, %r4;", "st.global.u32 [%out], %r6;"]].concat();
    exact_case(&s8, [0x8000_0000, 0, 0, 0], Deviation::NegationOverflow, 0xffff_ff80, 0x7f);
    let s16 = ["ld.global.s16 %h0, [%in];", "abs.s16 %h1, %h0;", "cvt.sat.u8.s16 %h2, %h1;"];
    let s16 = [&s16[..], &["st.global.u16 [%out], %h2;"]].concat();
    exact_case(&s16, [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0, 0xff);
    // `neg.s32` is no longer left alone: seed 4101's listings show its clamp rewritten onto
    // the negated value (`tests/seed_4101_x1.rs`).
}

/// F at 16 bits (corpus/findings/fuzz-h200-3501/, 5fe30520 and a3b8be37; ptxas 13.0.88 -O3,
/// 13.5 wraps right): `abs.s16`/`neg.s16` of −2^15 are left at 32 bits (`PRMT 0x9910; IABS`,
/// `IMAD.MOV R0, RZ, RZ, -R0`), so a widening cvt converts +2^15 and `set.<cmp>.<dst>.s16`
/// compares +2^15 (`ISETP` at 32 bits); any other source value, and a 32-bit `neg`, the spec's.
#[test]
fn f_an_overflowed_16_bit_abs_or_neg_is_widened_and_compared_as_2_pow_15() {
    let store = ["st.global.u32 [%out], %r1;"];
    // 5fe30520: cvt.sat.u32.s16 of abs.s16 of −32768 gives 0x8000 (`ISETP.LT; SEL`), not 0.
    let abs = ["ld.global.s16 %h0, [%in];", "abs.s16 %h1, %h0;"];
    let sat = [&abs[..], &["cvt.sat.u32.s16 %r1, %h1;"], &store[..]].concat();
    exact_case(&sat, [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0, 0x8000);
    untouched(&sat, [0x8001, 0, 0, 0], Deviation::NegationOverflow);
    // Without .sat (`IABS R7, R0`): 0x8000, not the sign extension 0xffff8000; neg.s16 too.
    let plain = [&abs[..], &["cvt.u32.s16 %r1, %h1;"], &store[..]].concat();
    exact_case(&plain, [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0xffff_8000, 0x8000);
    let neg = ["ld.global.s16 %h0, [%in];", "neg.s16 %h1, %h0;", "cvt.sat.u32.s16 %r1, %h1;"];
    exact_case(&[&neg[..], &store[..]].concat(), [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0, 0x8000);
    // a3b8be37: set.gt.s32.s16 0, neg.s16(−32768) is 0 > +32768, false.
    let set = ["ld.global.s16 %h0, [%in];", "neg.s16 %h5, %h0;", "mov.b16 %h3, 0;", "set.gt.s32.s16 %r1, %h3, %h5;"];
    let set = [&set[..], &store[..]].concat();
    exact_case(&set, [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0xffff_ffff, 0);
    untouched(&set, [0x8001, 0, 0, 0], Deviation::NegationOverflow);
    // abs.s16 of −32768 against −2: the spec's −32768 > −2 is false, +32768 > −2 true.
    let abs_set = [&abs[..], &["ld.global.s16 %h2, [%in+4];", "set.gt.u32.s16 %r1, %h1, %h2;"], &store[..]].concat();
    exact_case(&abs_set, [0x8000, 0xfffe, 0, 0], Deviation::NegationOverflow, 0, 0xffff_ffff);
    // neg.s32 wraps at 32 bits (`IMAD.MOV R0, RZ, RZ, -R2; ISETP.LT`): the spec's.
    let neg32 = ["ld.global.s32 %r0, [%in];", "neg.s32 %r2, %r0;", "mov.b32 %r3, 0;", "set.gt.s32.s32 %r1, %r3, %r2;"];
    untouched(&[&neg32[..], &store[..]].concat(), [0x8000_0000, 0, 0, 0], Deviation::NegationOverflow);
}

/// F, same width or narrower (corpus/findings/fuzz-h200-3601/, e2ff640a; ptxas 13.0.88 and
/// 13.5 -O3): `cvt.sat.{u16,u8,s8}.s16` of `abs.s16`/`neg.s16` of −32768 saturates +32768
/// (0x8000, 0xff, 0x7f; the spec: 0, 0, −128); a non-saturating `cvt.u16.s16`, another source
/// value, or a loaded −32768: the spec's.
#[test]
fn f_a_same_width_sat_cvt_of_an_overflowed_16_bit_abs_or_neg_saturates_2_pow_15() {
    let at = |op: &str, cvt: &str| {
        [
            "ld.global.b16 %h0, [%in];".to_string(),
            format!("{op} %h1, %h0;"),
            format!("{cvt} %h2, %h1;"),
            "cvt.u32.u16 %r0, %h2;".to_string(),
            "st.global.u32 [%out], %r0;".to_string(),
        ]
    };
    for op in ["abs.s16", "neg.s16"] {
        for (cvt, spec, bug) in
            [("cvt.sat.u16.s16", 0, 0x8000), ("cvt.sat.u8.s16", 0, 0xff), ("cvt.sat.s8.s16", 0xff80, 0x7f)]
        {
            exact_case(&strs(&at(op, cvt)), [0x8000, 0, 0, 0], Deviation::NegationOverflow, spec, bug);
        }
        untouched(&strs(&at(op, "cvt.u16.s16")), [0x8000, 0, 0, 0], Deviation::NegationOverflow);
        untouched(&strs(&at(op, "cvt.sat.u16.s16")), [0x8001, 0, 0, 0], Deviation::NegationOverflow);
    }
    let loaded = [
        "ld.global.b16 %h1, [%in];",
        "cvt.sat.u16.s16 %h2, %h1;",
        "cvt.u32.u16 %r0, %h2;",
        "st.global.u32 [%out], %r0;",
    ];
    untouched(&loaded, [0x8000, 0, 0, 0], Deviation::NegationOverflow);
}

/// L (corpus/findings/fuzz-h100-b/README.md, c4104: `cvt.s64.u32; shl.b64 …, 0x1`):
/// cvt.s64.u32 of a word ≥ 2^31 shifted left by an immediate is sign-extended.
#[test]
fn l_cvt_s64_u32_sign_extends() {
    let lines =
        ["ld.global.u32 %r0, [%in];", "cvt.s64.u32 %d0, %r0;", "shl.b64 %d1, %d0, 1;", "st.global.b64 [%out], %d1;"];
    exact_case(&lines, [0x8000_0000, 0, 0, 0], Deviation::CvtS64U32SignExtends, 1 << 32, 0xFFFF_FFFF_0000_0000);
    untouched(&lines, [0x7FFF_FFFF, 0, 0, 0], Deviation::CvtS64U32SignExtends);
}

/// L's scope (corpus/findings/fuzz-h200-3602/, 11a4e5a9; ptxas 13.0.88 and 13.5 -O3): only
/// `shl.b64 d, x, k` by an immediate 1 ≤ k < 32 of the `cvt.s64.u32` result sign-extends it
/// (`reduced_l_shl`: `SHF.R.S32.HI R7, RZ, 0x1c, R2`, while the `%d0` stored beside it keeps
/// its high word 0); stored, `or.b64` with a constant (`reduced_l_or`: `STG … RZ`, the GPU's
/// high word 0), `add.s64`, `shr.s64`, a register amount, k ≥ 32, or an `or` between the cvt
/// and the shift zero-extend, as §9.7.9.21 says.
#[test]
fn l_only_a_shl_b64_by_an_immediate_below_32_sign_extends() {
    let with = |between: &[&'static str], consumer: &'static str| {
        let mut lines = vec!["ld.global.u32 %r0, [%in];", "ld.global.u32 %r1, [%in+4];", "cvt.s64.u32 %d0, %r0;"];
        lines.extend_from_slice(between);
        lines.extend_from_slice(&[consumer, "st.global.b64 [%out], %d1;"]);
        lines
    };
    let words = [0xba34_5e62, 4, 0, 0];
    let d = Deviation::CvtS64U32SignExtends;
    exact_case(&with(&[], "shl.b64 %d1, %d0, 4;"), words, d, 0xb_a345_e620, 0xFFFF_FFFB_A345_E620);
    exact_case(&with(&[], "shl.b64 %d1, %d0, 31;"), words, d, 0xba34_5e62 << 31, 0xFFFF_FFFF_BA34_5E62 << 31);
    for consumer in [
        "mov.b64 %d1, %d0;",
        "or.b64 %d1, %d0, 0x40000000;",
        "add.s64 %d1, %d0, 1;",
        "shr.s64 %d1, %d0, 4;",
        "shl.b64 %d1, %d0, %r1;",
        "shl.b64 %d1, %d0, 32;",
    ] {
        untouched(&with(&[], consumer), words, d);
    }
    untouched(&with(&["or.b64 %d0, %d0, 1;"], "shl.b64 %d1, %d0, 4;"), words, d);
}
