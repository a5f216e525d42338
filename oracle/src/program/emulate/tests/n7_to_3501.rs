//! Tests of the emulations of N-7, N-8, N-11, row 10 (the u8 extension of an e4m3x2
//! result), A under a skipped guard, the boundaries of B, 3301-N4 and 3501-N1…N3: one per
//! scope, each the GPU's word under the emulation and the spec's without.

use super::*;

/// N-7 (corpus/findings/fuzz-h200-3201/README.md): bfe.s32 of a non-negative word from
/// bit 63 gives −1 (d44f4ae5: `bfe.s32 %r5, %r2, 0x3f, 0x20`); a start below 32, an empty
/// field, or a register start: the spec's result.
#[test]
fn n7_bfe_s32_past_the_msb_is_all_ones() {
    let at = |pos: &str, len: &str| {
        [
            "ld.global.u32 %r0, [%in];".to_string(),
            format!("bfe.s32 %r1, %r0, {pos}, {len};"),
            "st.global.u32 [%out], %r1;".to_string(),
        ]
    };
    let lines = at("0x3f", "0x20");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    exact_case(&lines, [0x1234, 0, 0, 0], Deviation::BfeS32PastMsbAllOnes, 0, 0xFFFF_FFFF);
    for (pos, len) in [("0x1f", "0x20"), ("0x20", "0x0")] {
        let l = at(pos, len);
        untouched(
            &l.iter().map(String::as_str).collect::<Vec<_>>(),
            [0x1234, 0, 0, 0],
            Deviation::BfeS32PastMsbAllOnes,
        );
    }
    let reg = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r2, [%in+4];",
        "bfe.s32 %r1, %r0, %r2, 0x20;",
        "st.global.u32 [%out], %r1;",
    ];
    untouched(&reg, [0x1234, 0x3f, 0, 0], Deviation::BfeS32PastMsbAllOnes);
}

/// N-8 (corpus/findings/fuzz-h200-3201/README.md, fe11eb1e): `setp.lt.u32 %p0, %r8, 0` of
/// `set.ge.s32.s32 %r8, %r0, 0` is never true, but is the set's result being true; a
/// loaded value or a non-zero bound: the spec's result.
#[test]
fn n8_an_unsigned_test_below_zero_of_a_set_result_tests_the_set() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "set.ge.s32.s32 %r8, %r0, 0;",
        "setp.lt.u32 %p0, %r8, 0;",
        "mov.b16 %h0, 34995;",
        "selp.b16 %h1, %h0, 0x0, %p0;",
        "st.global.b16 [%out], %h1;",
    ];
    exact_case(&lines, [5, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet, 0, 34995);
    untouched(&lines, [0x8000_0000, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet);
    let loaded = [
        "ld.global.u32 %r8, [%in];",
        "setp.lt.u32 %p0, %r8, 0;",
        "mov.b16 %h0, 34995;",
        "selp.b16 %h1, %h0, 0x0, %p0;",
        "st.global.b16 [%out], %h1;",
    ];
    untouched(&loaded, [0xFFFF_FFFF, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet);
    let bound = lines.map(|l| if l.starts_with("setp") { "setp.lt.u32 %p0, %r8, 1;" } else { l });
    untouched(&bound, [5, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet);
}

/// N-8 with the operands swapped and a moved 0 (corpus/findings/fuzz-h200-3602/, 5d06e0d1;
/// ptxas 13.0.88 -O3: `ISETP.NE.AND P0, R2, RZ; SEL R7, RZ, 0xf3c16590, !P0`, 13.5 right):
/// `setp.gt.u32 0, s` tests s ≠ 0 (never true by §9.7.7.2: the GPU's 0xf3c16590 where the spec
/// selects 0), `setp.ge.u32 s, 0` and `setp.le.u32 0, s` test s = 0 (always true by the spec);
/// a loaded 0 is no constant.
#[test]
fn n8_a_swapped_or_inclusive_unsigned_test_against_0_of_a_set_result_tests_the_set() {
    let with = |zero: &'static str, setp: &'static str| {
        [
            zero,
            "ld.global.s64 %d1, [%in+8];",
            "set.gt.f32.u64 %r2, %d1, 0x0;",
            "set.ne.s32.s32 %r3, %r2, 0;",
            setp,
            "mov.b32 %r11, 4089537936;",
            "selp.b32 %r12, %r11, 0x0, %p0;",
            "st.global.u32 [%out], %r12;",
        ]
    };
    let d = Deviation::UnsignedBelowZeroOfSet;
    let (moved, true_set, false_set) = ("mov.b32 %r1, 0;", [0, 0, 5, 0], [0; 4]);
    exact_case(&with(moved, "setp.gt.u32 %p0, %r1, %r3;"), true_set, d, 0, 0xf3c1_6590);
    untouched(&with(moved, "setp.gt.u32 %p0, %r1, %r3;"), false_set, d);
    for inclusive in ["setp.le.u32 %p0, %r1, %r3;", "setp.ge.u32 %p0, %r3, %r1;", "setp.ge.u32 %p0, %r3, 0;"] {
        exact_case(&with(moved, inclusive), true_set, d, 0xf3c1_6590, 0);
        untouched(&with(moved, inclusive), false_set, d);
    }
    untouched(&with("ld.global.u32 %r1, [%in];", "setp.gt.u32 %p0, %r1, %r3;"), true_set, d);
    untouched(&with(moved, "setp.gt.u32 %p0, %r3, %r1;"), true_set, d);
}

/// N-11 (corpus/findings/fuzz-h200-3201/README.md, 5690d5c8): `@%p0 set.le.s32.u16 %r0, …`
/// with %p0 false leaves 0xc8a85f01 as 0x00005f01 (sign-extended from 16 bits); a guard
/// that holds, or an `.s32` source: the spec's result.
#[test]
fn n11_a_skipped_set_s32_u16_sign_extends_its_destination() {
    let at = |guard: &str, ty: &str| {
        [
            "mov.b32 %r0, 0xc8a85f01;".to_string(),
            "ld.global.u32 %r1, [%in];".to_string(),
            "cvt.u16.u32 %h0, %r1;".to_string(),
            format!("setp.{guard}.s32 %p0, %r1, 0;"),
            format!("@%p0 set.le.s32.{ty} %r0, %{}0, 0x0;", if ty == "u16" { "h" } else { "r" }),
            "st.global.u32 [%out], %r0;".to_string(),
        ]
    };
    let lines = at("lt", "u16");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    exact_case(&lines, [5, 0, 0, 0], Deviation::SkippedSetSignExtends, 0xc8a8_5f01, 0x5f01);
    let ran = at("ge", "u16");
    untouched(&ran.iter().map(String::as_str).collect::<Vec<_>>(), [5, 0, 0, 0], Deviation::SkippedSetSignExtends);
    let wide = at("lt", "s32");
    untouched(&wide.iter().map(String::as_str).collect::<Vec<_>>(), [5, 0, 0, 0], Deviation::SkippedSetSignExtends);
}

/// N-11 with a `.u32` destination (corpus/findings/fuzz-h200-3301/, 1297e441): `@!%p1
/// set.le.u32.s16 %r1, %h2, 0` with %p1 true leaves 0xe9fb3ef5 as 0x00003ef5 on every
/// backend; with bit 15 of the old value set, the extension by sign and by zeros are both
/// admitted (no campaign has shown which); a guard that holds: the spec's result.
#[test]
fn n11_a_skipped_set_u32_of_a_16_bit_source_extends_its_destination() {
    let at = |old: &str, guard: &str| {
        [
            format!("mov.b32 %r1, {old};"),
            "mov.b16 %h2, 0;".to_string(),
            format!("setp.{guard}.s16 %p1, %h2, 0;"),
            "@!%p1 set.le.u32.s16 %r1, %h2, 0;".to_string(),
            "st.global.u32 [%out], %r1;".to_string(),
        ]
    };
    let lines = at("3925556981", "eq");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    exact_case(&lines, [0; 4], Deviation::SkippedSetSignExtends, 0xe9fb_3ef5, 0x3ef5);
    let high = at("0x1234c001", "eq");
    let high: Vec<&str> = high.iter().map(String::as_str).collect();
    let (s, e, fired) = both(&high, [0; 4], Deviation::SkippedSetSignExtends);
    assert_eq!(s.bits, 0x1234_c001);
    assert!(e.matches(0x0000_c001) && e.matches(0xffff_c001) && !e.matches(0x1234_c001), "{e:?}");
    assert_eq!(fired, vec![Deviation::SkippedSetSignExtends]);
    let ran = at("3925556981", "ne");
    untouched(&ran.iter().map(String::as_str).collect::<Vec<_>>(), [0; 4], Deviation::SkippedSetSignExtends);
}

/// N-11 with an `.f32` destination (corpus/findings/fuzz-h200-3301/, e733b56f): `@%p1
/// set.ne.f32.u64 %r2, %d0, 0` with %p1 false turns 0x863ebcfb into 0x4ef38286, the f32 of
/// |int32(old)| (`IABS; I2FP.F32.S32` after the merge); −2^31 stays negative; a 16-bit
/// source converts |the old low half, sign-extended| as an s16 (13.5's `PRMT 0x9910; IABS;
/// PRMT 0x7710; I2F.S16`); a guard that holds: the spec's result.
#[test]
fn n11_a_skipped_set_f32_converts_its_old_value() {
    let at = |old: &str, guard: &str, src: &str| {
        let (ld, reg) = match src {
            "u64" => ("ld.global.u64 %d0, [%in+8];", "%d0"),
            _ => ("ld.global.u16 %h0, [%in+8];", "%h0"),
        };
        [
            format!("mov.b32 %r2, {old};"),
            ld.to_string(),
            "ld.global.u32 %r1, [%in];".to_string(),
            format!("setp.{guard}.u32 %p1, %r1, 0;"),
            format!("@%p1 set.ne.f32.{src} %r2, {reg}, 0;"),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    for (old, src, bug) in [
        ("0x863ebcfb", "u64", 0x4ef3_8286),
        ("0x80000000", "u64", 0xcf00_0000),
        ("0x1234fffe", "u16", 0x4000_0000),
        ("0x12348000", "s16", 0xc700_0000),
    ] {
        let lines = at(old, "eq", src);
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let spec = u64::from_str_radix(&old[2..], 16).unwrap();
        exact_case(&lines, [5, 0, 0, 0], Deviation::SkippedSetSignExtends, spec, bug);
    }
    let ran = at("0x863ebcfb", "ne", "u64");
    untouched(&ran.iter().map(String::as_str).collect::<Vec<_>>(), [5, 0, 0, 0], Deviation::SkippedSetSignExtends);
}

/// N-11 with an old value that is any f32 NaN (corpus/findings/fuzz-h200-3601/, de45dd17:
/// `cvt.ftz.f32.f32` of 0xffd304ed, then `@!%p0 set.le.f32.u16` skipped): the GPU's NaN is the
/// canonical 0x7fffffff (`FADD.FTZ`), so a 16-bit source stores f32(|sext16(0xffff)|) = 1.0 and
/// a 64-bit one `I2FP.F32.S32(0x7fffffff)` = 0x4f000000. A guard that holds: the spec's.
#[test]
fn n11_a_skipped_set_f32_over_an_f32_nan_converts_the_canonical_nan() {
    let at = |guard: &str, src: &str| {
        let (ld, reg) = match src {
            "u64" => ("ld.global.u64 %d0, [%in+8];", "%d0"),
            _ => ("ld.global.u16 %h0, [%in+8];", "%h0"),
        };
        [
            "ld.global.u32 %r1, [%in];".to_string(),
            "cvt.ftz.f32.f32 %r2, %r1;".to_string(),
            ld.to_string(),
            format!("setp.{guard}.u32 %p1, %r1, 0;"),
            format!("@%p1 set.le.f32.{src} %r2, {reg}, 0;"),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    for (src, bug) in [("u16", 0x3f80_0000u32), ("u64", 0x4f00_0000)] {
        let lines = at("eq", src);
        let (s, e, fired) = both(&strs(&lines), [0xffd3_04ed, 0, 0, 0], Deviation::SkippedSetSignExtends);
        assert!(!s.is_exact() && s.matches(0x7fff_ffff), "{src}: the spec's is any f32 NaN");
        assert_eq!((e.bits as u32, e.is_exact()), (bug, true), "{src}");
        assert_eq!(fired, vec![Deviation::SkippedSetSignExtends]);
    }
    untouched(&strs(&at("ne", "u16")), [0xffd3_04ed, 0, 0, 0], Deviation::SkippedSetSignExtends);
}

/// Row 10 of corpus/findings/fuzz-h200-3201/README.md (243ce6a0): `cvt.u16.u8` of a
/// `cvt.rn.satfinite.e4m3x2.f32` result keeps bit 15 (0x80fe, not 0x00fe); of a loaded
/// register, the spec's zero extension.
#[test]
fn row10_the_u8_extension_of_an_e4m3x2_result_is_dropped() {
    let lines = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r1, [%in+4];",
        "cvt.rn.satfinite.e4m3x2.f32 %h0, %r0, %r1;",
        "cvt.u16.u8 %h1, %h0;",
        "st.global.b16 [%out], %h1;",
    ];
    // e4m3(-0.0) = 0x80 in the high byte, e4m3(-448.0) = 0xfe in the low byte.
    exact_case(&lines, [0x8000_0000, 0xc3e0_0000, 0, 0], Deviation::U8ExtensionOfE4m3x2Dropped, 0xfe, 0x80fe);
    untouched(
        &["ld.global.u16 %h0, [%in];", "cvt.u16.u8 %h1, %h0;", "st.global.b16 [%out], %h1;"],
        [0x80fe, 0, 0, 0],
        Deviation::U8ExtensionOfE4m3x2Dropped,
    );
}

/// A where the float `cvt` is skipped by its guard (corpus/findings/fuzz-h200-3301/, third
/// run, 4a9df7fd and a4cd0d1f): ptxas selects between the cvt's result and the old value and
/// converts the selection at the 8-bit store (-O0 `F2I.BF16.F16; SEL R0, R0, R2, P0; …
/// F2I.U8.F16.TRUNC.NTZ R0, R0`): the old 0xac3e (f16 −0.066) is stored as 0, not 0x3e.
#[test]
fn a_a_float_cvt_skipped_by_its_guard_still_converts_the_narrow_store() {
    let skipped = [
        "mov.b16 %h0, 0;",
        "mov.b16 %h4, 44094;",
        "setp.lt.s16 %p2, %h4, -32768;",
        "@%p2 cvt.bf16.f16 %h4, %h0;",
        "st.global.u8 [%out], %h4;",
    ];
    let (s, e, fired) = both(&skipped, [0; 4], Deviation::NarrowStoreOfFloatCvt);
    assert_eq!((s.bits, s.is_exact()), (0x3e, true));
    assert_eq!(e.bits, 0, "the named byte: F2I.U8.F16.TRUNC of the old value, f16 -0.066");
    assert!(e.matches(0x3e) && e.matches(0xff) && !e.matches(0x100));
    assert_eq!(fired, vec![Deviation::NarrowStoreOfFloatCvt]);
    // a4cd0d1f: `@!%p4 cvt.f16.f16` skipped, `st.s8` of the old 0x00f8 (f16 1.5e-5): 0.
    let negated = [
        "mov.b16 %h1, 248;",
        "mov.b16 %h2, 0;",
        "setp.eq.u16 %p4, %h2, 0x0;",
        "@!%p4 cvt.f16.f16 %h1, %h2;",
        "mov.b16 %h3, %h1;",
        "st.global.s8 [%out], %h3;",
    ];
    let (s, e, fired) = both(&negated, [0; 4], Deviation::NarrowStoreOfFloatCvt);
    assert_eq!((s.bits, e.bits, fired), (0xf8, 0, vec![Deviation::NarrowStoreOfFloatCvt]));
    // A skipped integer cvt, or a write after the skipped float one: the spec's byte.
    let integer = ["mov.b16 %h4, 44094;", "setp.ne.u16 %p2, %h4, %h4;", "@%p2 cvt.rzi.s16.f16 %h4, %h4;"];
    untouched(&[&integer[..], &["st.global.u8 [%out], %h4;"]].concat(), [0; 4], Deviation::NarrowStoreOfFloatCvt);
    let rewritten = [&skipped[..4], &["add.u16 %h4, %h4, 1;", "st.global.u8 [%out], %h4;"]].concat();
    untouched(&rewritten, [0; 4], Deviation::NarrowStoreOfFloatCvt);
}

/// B with a `.tf32` amount and B's signedness (corpus/findings/fuzz-h200-3301/, third run,
/// 46a74d17; ptxas 13.0.88 and 13.5): `cvt.rz.tf32.f32` then `shr.s64` by it is
/// `F2FP.TF32.F32.PACK_B.RZ; F2I.S64.TRUNC; SHF.R.S64`. `shr.u64`/`shr.b64`/`shl.b64` convert
/// with `F2I.U64.TRUNC`, `shr.s64` with `F2I.S64.TRUNC`: a negative amount is a negative
/// integer whose low word is past 64 (clamped, the spec's result), not 0.
#[test]
fn b_a_tf32_amount_converts_and_shr_s64_converts_signed() {
    // 46a74d17 as minimized: tf32 −3.6e34 saturates to −2^63, whose low word 0 shifts by 0.
    let finding = [
        "mov.b32 %r0, 4175390100;",
        "cvt.rz.tf32.f32 %r3, %r0;",
        "mov.b64 %d0, 17933163927542169600;",
        "shr.s64 %d1, %d0, %r3;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&finding, [0; 4], Deviation::F32ShiftAmount, u64::MAX, 17_933_163_927_542_169_600);
    // tf32 1.5 shifts by 1 (the spec: 0x3fc00000, clamped to 64).
    let tf32 = [
        "ld.global.f32 %r0, [%in];",
        "cvt.rz.tf32.f32 %r3, %r0;",
        "ld.global.b64 %d0, [%in+8];",
        "shr.u64 %d1, %d0, %r3;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&tf32, [0x3fc0_0000, 0, 0x100, 0], Deviation::F32ShiftAmount, 0, 0x80);
    // shr.s64 by −1.0: F2I.S64 gives −1, low word 0xffffffff, clamped: the sign, as the spec.
    let signed = [
        "ld.global.f32 %r0, [%in];",
        "ld.global.b64 %d0, [%in+8];",
        "shr.s64 %d1, %d0, %r0;",
        "st.global.b64 [%out], %d1;",
    ];
    untouched(&signed, [0xbf80_0000, 0, 1, 0x8000_0000], Deviation::F32ShiftAmount);
    exact_case(&signed, [0x4000_0000, 0, 0, 0x8000_0000], Deviation::F32ShiftAmount, u64::MAX, 0xe000_0000_0000_0000);
}

/// B's scope (corpus/findings/fuzz-h200-3601/, 7a844563 and 5eea61e2; ptxas 13.0.88 and 13.5,
/// -O0 and -O3): a label, `bar.sync`, `shfl.sync` or a guarded global or shared memory access strictly between the amount's producer and the shift makes the shift
/// read the raw bits (the spec's clamp); before the producer or after the shift, or an
/// unguarded load, or a guarded `add` of another register, it does not.
#[test]
fn b_no_conversion_across_a_block_boundary() {
    // 2.0f: converted, shifts by 2; raw (0x40000000), clamped: 0.
    let with = |between: &[&str]| {
        let mut lines = vec!["ld.global.f32 %r0, [%in];", "ld.global.b64 %d0, [%in+8];", "setp.eq.u32 %p0, %r0, 7;"];
        lines.extend_from_slice(&["mov.b32 %r5, 0;"]);
        lines.extend_from_slice(between);
        lines.extend_from_slice(&["shl.b64 %d1, %d0, %r0;", "st.global.b64 [%out], %d1;"]);
        lines.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let words = [0x4000_0000, 0, 1, 0];
    for boundary in [
        &["bar.sync 0;"][..],
        &["bra $L1;", "$L1:"],
        &["shfl.sync.idx.b32 %r6, %r5, 0, 31, -1;"],
        &["@%p0 ld.global.b32 %r6, [%in+4];"],
        &["@%p0 ld.global.nc.b32 %r6, [%in+4];"],
        &["@%p0 st.global.b32 [%out+4], %r5;"],
    ] {
        untouched(&strs(&with(boundary)), words, Deviation::F32ShiftAmount);
    }
    for harmless in [
        &["ld.global.b32 %r6, [%in+4];"][..],
        &["st.global.b32 [%out+4], %r5;"],
        &["@%p0 add.u32 %r5, %r5, 1;"],
        &["mov.b32 %r6, %r5;"],
        &["shl.b64 %d2, %d0, 1;"],
    ] {
        exact_case(&strs(&with(harmless)), words, Deviation::F32ShiftAmount, 0, 4);
    }
    // a9fb5bb8 (as reduced): a branch around the shift, its label after it — ptxas 13.0.88 and
    // 13.5, -O0 and -O3, shift by the raw bits (no F2I).
    let mut diamond = with(&["@%p0 bra $L9;"]);
    diamond.push("$L9:".into());
    untouched(&strs(&diamond), words, Deviation::F32ShiftAmount);
    // 7a844563 (as reduced): the shift before the barrier converts, the one after does not.
    let finding = [
        "ld.global.f32 %r0, [%in];",
        "ld.global.b64 %d0, [%in+8];",
        "shl.b64 %d1, %d0, %r0;",
        "bar.sync 0;",
        "shr.s64 %d2, %d0, %r0;",
        "xor.b64 %d3, %d1, %d2;",
        "st.global.b64 [%out], %d3;",
    ];
    exact_case(&finding, words, Deviation::F32ShiftAmount, 0, 4);
}

/// B's boundaries, 64-bit bit-field instructions (corpus/findings/fuzz-h200-3602/, a5368bf9;
/// ptxas 13.0.88 and 13.5, -O0 and -O3: `brev.b64` between `cvt.rn.sat.f32.f64` and
/// `shr.b64` leaves the shift raw, `red_brev`; `sep/*` with an `ld.global.f32` producer):
/// `brev.b64`, `bfe.{u64,s64}`, `bfi.b64`, `bfind{.shiftamt}.{u64,s64}` strictly between the
/// amount and the shift, whatever they touch; their 32-bit forms, `clz.b64` and `popc.b64`,
/// or one before the producer, are not boundaries.
#[test]
fn b_no_conversion_across_a_64_bit_bit_field_instruction() {
    fn with<'a>(before: &[&'a str], between: &[&'a str]) -> Vec<&'a str> {
        let mut lines = before.to_vec();
        lines.extend_from_slice(&["ld.global.f32 %r0, [%in];", "ld.global.b64 %d0, [%in+8];"]);
        lines.extend_from_slice(between);
        lines.extend_from_slice(&["shl.b64 %d1, %d0, %r0;", "st.global.b64 [%out], %d1;"]);
        lines
    }
    // 2.0f: converted, shifts by 2; raw (0x40000000), clamped: 0 (the GPU's word with one between).
    let words = [0x4000_0000, 0, 1, 0];
    for boundary in [
        "brev.b64 %d4, %d0;",
        "bfe.u64 %d4, %d0, 3, 4;",
        "bfe.s64 %d4, %d0, 3, 4;",
        "bfi.b64 %d4, %d0, %d0, 3, 4;",
        "bfind.u64 %r4, %d0;",
        "bfind.shiftamt.s64 %r4, %d0;",
    ] {
        untouched(&with(&[], &[boundary]), words, Deviation::F32ShiftAmount);
        let before = boundary.replace("%d0", "%d3");
        exact_case(&with(&["mov.b64 %d3, 5;", &before], &[]), words, Deviation::F32ShiftAmount, 0, 4);
    }
    for harmless in ["brev.b32 %r4, %r5;", "bfe.u32 %r4, %r5, 3, 4;", "clz.b64 %r4, %d0;", "popc.b64 %r4, %d0;"] {
        exact_case(&with(&["mov.b32 %r5, 7;"], &[harmless]), words, Deviation::F32ShiftAmount, 0, 4);
    }
}

/// B's guarded-load boundary (corpus/findings/fuzz-h200-3602/, 73350c55; ptxas 13.0.88 and
/// 13.5): with the guard false (the finding) the first shift, before the guarded load,
/// converts −7.2e−35 to 0 and the second is raw: 0x0000de00, the GPU's word. With the guard
/// true (`red_p`: `@!P0 LDG.E R13 …; SHF.R.U64 R6, R6, R13`) the guarded `ld.f32` is the
/// amount's producer and the shift is still raw.
#[test]
fn b_a_guarded_f32_load_is_a_boundary_and_no_f32_producer() {
    let with = |setp: &'static str| {
        [
            "ld.global.v2.f32 {%r0, %r1}, [%in];",
            "mov.b64 %d1, 16307795215104299230;",
            "shr.s64 %d2, %d1, %r1;",
            "mov.b64 %d3, 2062310735;",
            setp,
            "@%p1 ld.global.v2.f32 {%r1, %r0}, [%in+8];",
            "shr.b64 %d4, %d3, %r1;",
            "mov.b64 {%h10, %h11, %h12, %h13}, %d2;",
            "mov.b64 {%h17, %h18, %h19, %h20}, %d4;",
            "st.global.s8 [%out+1], %h10;",
            "st.global.b16 [%out+2], %h17;",
        ]
    };
    let words = [0, 0x86bf_0001, 0x4000_0000, 0x4000_0000];
    exact_case(&with("setp.lt.u32 %p1, %r1, 0x0;"), words, Deviation::F32ShiftAmount, 0xff00, 0xde00);
    // The guard holds: the second amount is the guarded load's 2.0f, shifted raw (clamped: 0).
    let (s, e, _) = both(&with("setp.ne.u32 %p1, %r1, 0x0;"), words, Deviation::F32ShiftAmount);
    assert_eq!((s.bits, e.bits, e.is_exact()), (0xff00, 0xde00, true));
}

/// B through a guarded write of another type (corpus/findings/fuzz-h200-3601/, 96e7a1b5;
/// ptxas 13.0.88 and 13.5: `SEL R4, R4, R10, P0; SHF.R.U64 R0, R11, R4`, no `F2I`, whatever
/// the guard): a skipped `cvt.u32.u16` or `add.u32` to the amount ends its f32 typing, and a
/// skipped `cvt` to `.f32` after it starts it again.
#[test]
fn b_a_skipped_write_of_another_type_clears_the_f32_typing() {
    let with = |write: &'static str| {
        [
            "ld.global.f32 %r0, [%in];",
            "ld.global.b64 %d0, [%in+8];",
            "setp.eq.u32 %p0, %r0, 7;",
            write,
            "shl.b64 %d1, %d0, %r0;",
            "st.global.b64 [%out], %d1;",
        ]
    };
    let words = [0x4000_0000, 0, 1, 0];
    untouched(&with("@%p0 cvt.u32.u16 %r0, %h0;"), words, Deviation::F32ShiftAmount);
    untouched(&with("@%p0 add.u32 %r0, %r0, 1;"), words, Deviation::F32ShiftAmount);
    exact_case(&with("@%p0 add.u32 %r1, %r0, 1;"), words, Deviation::F32ShiftAmount, 0, 4);
    let again = [
        "ld.global.f32 %r0, [%in];",
        "ld.global.b64 %d0, [%in+8];",
        "setp.eq.u32 %p0, %r0, 7;",
        "@%p0 add.u32 %r0, %r0, 1;",
        "@%p0 cvt.f32.u32 %r0, %r0;",
        "shl.b64 %d1, %d0, %r0;",
        "st.global.b64 [%out], %d1;",
    ];
    exact_case(&again, words, Deviation::F32ShiftAmount, 0, 4);
}

/// B's scope (corpus/findings/fuzz-h200-3601/, 12ee3dcb and 4919e679; ptxas 13.0.88 and 13.5,
/// -O0 and -O3): an amount written by `cvt.*.ftz*.f32.f64` is shifted by its raw bits
/// (`F2F.F32.F64` plus a flush, no `F2I`); without `.ftz` it converts. An amount packed into a
/// `mov.b64` that a guarded `ld` then overwrites is raw too: the guarded load lies between.
#[test]
fn b_an_ftz_f64_to_f32_amount_and_a_guarded_load_after_its_pack_are_raw() {
    let with = |cvt: &'static str| {
        [
            "ld.global.f64 %d2, [%in];",
            cvt,
            "ld.global.b64 %d0, [%in+8];",
            "shl.b64 %d1, %d0, %r0;",
            "st.global.b64 [%out], %d1;",
        ]
    };
    // f64 2.0 = 0x40000000_00000000.
    let words = [0, 0x4000_0000, 1, 0];
    untouched(&with("cvt.rn.ftz.f32.f64 %r0, %d2;"), words, Deviation::F32ShiftAmount);
    untouched(&with("cvt.rz.ftz.sat.f32.f64 %r0, %d2;"), words, Deviation::F32ShiftAmount);
    exact_case(&with("cvt.rn.f32.f64 %r0, %d2;"), words, Deviation::F32ShiftAmount, 0, 4);
    let packed = |load: &'static str| {
        [
            "ld.global.f32 %r0, [%in];",
            "ld.global.b64 %d0, [%in+8];",
            "setp.eq.u32 %p0, %r0, 7;",
            "mov.b64 %d2, {%r0, %r0};",
            load,
            "shr.u64 %d1, %d0, %r0;",
            "xor.b64 %d3, %d1, %d2;",
            "st.global.b64 [%out], %d3;",
        ]
    };
    let words = [0x4000_0000, 0, 0x100, 0];
    untouched(&packed("@%p0 ld.global.nc.b64 %d2, [%in];"), words, Deviation::F32ShiftAmount);
    let pair = 0x4000_0000_4000_0000;
    exact_case(&packed("@%p0 xor.b64 %d2, %d2, 1;"), words, Deviation::F32ShiftAmount, pair, pair ^ 0x40);
}

/// 3301-N4 (corpus/findings/fuzz-h200-3301/, third run, f2f81bb3; ptxas 13.0.88 and 13.5 -O3):
/// `bfe.s32 %r8, %r6, 0, 16; cvt.sat.s16.u32 %h5, %r8` is `PRMT R0, R2, 0x9910; ISETP.LT …
/// -0x8000; ISETP.GT … 0x7fff; SEL; SEL`: the field 0xa645 sign-extended stays 0xa645 where
/// §9.7.9.21 saturates the unsigned 0xffffa645 to 0x7fff.
#[test]
fn n4_3301_a_sat_cvt_of_a_byte_aligned_bfe_s32_saturates_it_signed() {
    let half = ["ld.global.s32 %r6, [%in];", "bfe.s32 %r8, %r6, 0, 16;", "cvt.sat.s16.u32 %h5, %r8;"];
    let store = ["st.global.u16 [%out], %h5;"];
    let lines = [&half[..], &store[..]].concat();
    exact_case(&lines, [0x1234_a645, 0, 0, 0], Deviation::SatCvtOfByteBfeSigned, 0x7fff, 0xa645);
    // To .u16 a negative field clamps to 0 (`ISETP.LT … RZ`), not 0xffff; a byte at 8.
    let unsigned = ["ld.global.s32 %r6, [%in];", "bfe.s32 %r8, %r6, 8, 8;", "cvt.sat.u16.u32 %h5, %r8;"];
    exact_case(&[&unsigned[..], &store[..]].concat(), [0x80ff, 0, 0, 0], Deviation::SatCvtOfByteBfeSigned, 0xffff, 0);
    // A non-negative field, a field not at its own alignment (`SGXT; VIMNMX.U32`), a register
    // start, a signed source type: the spec's.
    untouched(&lines, [0x7000, 0, 0, 0], Deviation::SatCvtOfByteBfeSigned);
    let misaligned = ["ld.global.s32 %r6, [%in];", "bfe.s32 %r8, %r6, 8, 16;", "cvt.sat.s16.u32 %h5, %r8;"];
    untouched(&[&misaligned[..], &store[..]].concat(), [0x00a6_4500, 0, 0, 0], Deviation::SatCvtOfByteBfeSigned);
    let register = ["ld.global.s32 %r6, [%in];", "ld.global.u32 %r7, [%in+4];", "bfe.s32 %r8, %r6, %r7, 16;"];
    let register = [&register[..], &half[2..], &store[..]].concat();
    untouched(&register, [0xa645, 0, 0, 0], Deviation::SatCvtOfByteBfeSigned);
    let signed = [&half[..2], &["cvt.sat.s16.s32 %h5, %r8;"], &store[..]].concat();
    untouched(&signed, [0xa645, 0, 0, 0], Deviation::SatCvtOfByteBfeSigned);
}

/// 3501-N1 (corpus/findings/fuzz-h200-3501/, 03565707; ptxas 13.0.88 -O3, 13.5 right):
/// `slct.s32.s32 %r1, %r0, 0, -2147483648` selects `%r0` (-O3 stores the loaded word, `STG …
/// R3`), where §9.7.7.2 selects `b` for a negative `c`; −1 and −5 select `b` (`HFMA2.MMA R5`
/// of b's 7, `STG … RZ`).
#[test]
fn n1_3501_slct_s32_by_the_immediate_min_selects_a() {
    let min = ["ld.global.u32 %r0, [%in];", "slct.s32.s32 %r1, %r0, 0, -2147483648;", "st.global.u32 [%out], %r1;"];
    exact_case(&min, [0xfbff, 0, 0, 0], Deviation::SlctS32ByMinImmediateSelectsA, 0, 0xfbff);
    // 03565707 as minimized: a moved 64511, then the bf16 of its bits rounds to 0x0001.
    let finding = [
        "mov.b32 %r0, 64511;",
        "slct.s32.s32 %r0, %r0, 0, -2147483648;",
        "cvt.rn.bf16.f32 %h5, %r0;",
        "st.global.u16 [%out], %h5;",
    ];
    exact_case(&finding, [0; 4], Deviation::SlctS32ByMinImmediateSelectsA, 0, 1);
    let minus_one = ["ld.global.u32 %r0, [%in];", "slct.s32.s32 %r1, %r0, 7, -1;", "st.global.u32 [%out], %r1;"];
    untouched(&minus_one, [0xfbff, 0, 0, 0], Deviation::SlctS32ByMinImmediateSelectsA);
    let register = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.s32 %r2, [%in+4];",
        "slct.s32.s32 %r1, %r0, 0, %r2;",
        "st.global.u32 [%out], %r1;",
    ];
    untouched(&register, [0xfbff, 0x8000_0000, 0, 0], Deviation::SlctS32ByMinImmediateSelectsA);
}

/// 3501-N1, wider (corpus/findings/fuzz-h200-3602/, a9cbbc89; ptxas 13.0.88 -O3, bisected on
/// loaded a and b, 13.5 right): the constant c of `slct.{s32,u32}.s32` is tested as an f32,
/// c ≥ 0.0: the NaNs 0x7f800001–0x7fffffff select b (the finding's 0x7fffffff: the GPU stores
/// b, the thread index, where §9.7.7.2 selects a), +inf 0x7f800000 selects a as the spec does;
/// a moved constant the same; `slct.b32.s32` is right.
#[test]
fn n1_3501_slct_by_a_positive_nan_constant_selects_b() {
    let with = |slct: &'static str| {
        ["ld.global.u32 %r0, [%in];", "ld.global.u32 %r2, [%in+4];", "mov.b32 %r3, 2147483647;", slct]
            .into_iter()
            .chain(["st.global.u32 [%out], %r1;"])
            .collect::<Vec<_>>()
    };
    let (words, d) = ([0, 7, 0, 0], Deviation::SlctS32ByMinImmediateSelectsA);
    for nan in [
        "slct.s32.s32 %r1, %r0, %r2, 2147483647;",
        "slct.s32.s32 %r1, %r0, %r2, 2139095041;",
        "slct.u32.s32 %r1, %r0, %r2, 2147483647;",
        "slct.s32.s32 %r1, %r0, %r2, %r3;",
    ] {
        exact_case(&with(nan), words, d, 0, 7);
    }
    for right in ["slct.s32.s32 %r1, %r0, %r2, 2139095040;", "slct.b32.s32 %r1, %r0, %r2, 2147483647;"] {
        untouched(&with(right), words, d);
    }
}

/// 3501-N2 (corpus/findings/fuzz-h200-3501/, 3a6d7b34 and f94a1b7c; ptxas 13.0.88 -O3, 13.5
/// right by value): three `shl.b64` by 31 (93 bits) then `add.u64 …, 5` give (x << 62) + 5
/// (`LEA …, 0x1f` of the one shift kept); the constant may be moved into a register, and
/// `sub.cc` subtracts it. Shifts totalling less than 64 (5 × 7, 31 × 2), by 32 or more (40 × 3,
/// folded to `5`), a loaded `b` (`LEA R6, P0, R5, R6, 0x1f` of x << 62: 0 + b), or no add: the
/// spec's result, as 13.0.88 computes it. Mixed amounts are cut the same way: 31, 31, 30 gives
/// x << 62 (`LEA …, 0x1f`; the cut rule of corpus/findings/fuzz-h200-3601/, 1a7764b0).
#[test]
fn n2_3501_a_shl_b64_chain_reaching_64_fed_to_an_add_shifts_by_twice_its_amount() {
    let chain = |k: u32, n: usize| {
        let mut v = vec!["ld.global.b64 %d0, [%in];".to_string()];
        v.extend((0..n).map(|_| format!("shl.b64 %d0, %d0, {k};")));
        v
    };
    let with = |k: u32, n: usize, tail: &[&str]| {
        let mut v = chain(k, n);
        v.extend(tail.iter().map(|l| l.to_string()));
        v
    };
    let add = ["add.u64 %d1, %d0, 5;", "st.global.b64 [%out], %d1;"];
    let d = Deviation::ShlChainFoldedIntoLea;
    exact_case(&strs(&with(31, 3, &add)), [2, 0, 0, 0], d, 5, 0x8000_0000_0000_0005);
    // x << 40 for seven shifts by 20; a moved constant; sub.cc.
    exact_case(&strs(&with(20, 7, &add)), [0x1_0001, 0, 0, 0], d, 5, 0x0100_0100_0000_0005);
    let moved = ["mov.b64 %d2, 5;", "add.u64 %d1, %d0, %d2;", "st.global.b64 [%out], %d1;"];
    exact_case(&strs(&with(31, 3, &moved)), [2, 0, 0, 0], d, 5, 0x8000_0000_0000_0005);
    let sub = ["sub.cc.s64 %d1, %d0, 5;", "st.global.b64 [%out], %d1;"];
    exact_case(&strs(&with(31, 4, &sub)), [3, 0, 0, 0], d, 0xFFFF_FFFF_FFFF_FFFB, 0xBFFF_FFFF_FFFF_FFFB);
    untouched(&strs(&with(5, 7, &add)), [2, 0, 0, 0], d);
    untouched(&strs(&with(31, 2, &add)), [2, 0, 0, 0], d);
    untouched(&strs(&with(40, 3, &add)), [2, 0, 0, 0], d);
    // Mixed amounts: cut at 62 (31 + 31) of 92.
    let mixed = ["shl.b64 %d0, %d0, 30;", "add.u64 %d1, %d0, 5;", "st.global.b64 [%out], %d1;"];
    exact_case(&strs(&with(31, 2, &mixed)), [2, 0, 0, 0], d, 5, 0x8000_0000_0000_0005);
    // An add of 0 is dropped and the chain stays whole.
    untouched(&strs(&with(31, 3, &["add.u64 %d1, %d0, 0;", "st.global.b64 [%out], %d1;"])), [2, 0, 0, 0], d);
    let loaded = ["ld.global.b64 %d2, [%in+8];", "add.u64 %d1, %d0, %d2;", "st.global.b64 [%out], %d1;"];
    untouched(&strs(&with(31, 3, &loaded)), [2, 0, 5, 0], d);
    untouched(&strs(&with(31, 3, &["st.global.b64 [%out], %d0;"])), [2, 0, 0, 0], d);
}

/// 3501-N2's cut (corpus/findings/fuzz-h200-3601/, 1a7764b0; ptxas 13.0.88 -O3, JIT): the add
/// reads the chain cut at the first shift where the running amount reaches 32: a loop of
/// 7 × `shl.b64 … 7` (49) gives (x << 35) + c; 20, 12, 1 gives (x << 32) + 5; a first amount of
/// 32 or more makes no chain; 5 × 7 (35: the cut on the last shift) stays the spec's.
#[test]
fn n2_3501_the_add_reads_the_chain_cut_where_it_reaches_32() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let looped = [
        "ld.global.u64 %d0, [%in];",
        "mov.u32 %r5, 0;",
        "$L3:",
        "shl.b64 %d0, %d0, 0x7;",
        "add.u32 %r5, %r5, 0x3;",
        "setp.lt.u32 %p2, %r5, 0x15;",
        "@%p2 bra $L3;",
        "mov.b64 %d4, 1302123111085380114;",
        "add.u64 %d5, %d0, %d4;",
        "st.global.b64 [%out], %d5;",
    ];
    let x: u64 = 3068898814;
    let c: u64 = 1302123111085380114;
    exact_case(&looped, [x as u32, 0, 0, 0], d, (x << 49).wrapping_add(c), (x << 35).wrapping_add(c));
    let mixed = |amounts: &[u32]| {
        let mut v = vec!["ld.global.b64 %d0, [%in];".to_string()];
        v.extend(amounts.iter().map(|k| format!("shl.b64 %d0, %d0, {k};")));
        v.extend(["add.u64 %d1, %d0, 5;".to_string(), "st.global.b64 [%out], %d1;".to_string()]);
        v
    };
    exact_case(&strs(&mixed(&[20, 12, 1])), [1, 0, 0, 0], d, (1 << 33) + 5, (1 << 32) + 5);
    untouched(&strs(&mixed(&[40, 1])), [1, 0, 0, 0], d);
    untouched(&strs(&mixed(&[5, 5, 5, 5, 5, 5, 5])), [1, 0, 0, 0], d);
}

/// 3501-N3 (corpus/findings/fuzz-h200-3501/, e0f84cd8; ptxas 13.0.88 and 13.5 -O3): `set.ne.f32.s16
/// → cvt.rpi.sat.u32.f32 → cnot.b32 → cvt.rmi.u32.f32` stores the cnot's 1 (`SEL R7, RZ, 0x1,
/// P0`), where the bits 1 (1.4e−45) floor to 0; `cvt.rn.f16.f32` of it is 1.0 (`SEL R7, RZ,
/// 0x3c00`). A 32-bit set, a loaded float, or `not`: the conversion stays (`F2I`).
#[test]
fn n3_3501_a_float_cvt_of_the_cnot_of_a_set_conversion_converts_its_0_or_1_as_a_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let head = ["ld.global.b16 %h0, [%in];", "set.ne.f32.s16 %r7, %h0, 1;", "cvt.rpi.sat.u32.f32 %r8, %r7;"];
    let tail = ["cnot.b32 %r3, %r8;", "cvt.rmi.u32.f32 %r2, %r3;", "st.global.u32 [%out], %r2;"];
    exact_case(&[&head[..], &tail[..]].concat(), [1, 0, 0, 0], d, 0, 1);
    // %h0 = 2: the set is 1.0, the cnot 0: 0 either way.
    untouched(&[&head[..], &tail[..]].concat(), [2, 0, 0, 0], d);
    let f16 = ["cnot.b32 %r3, %r8;", "cvt.rn.f16.f32 %h2, %r3;", "st.global.u16 [%out], %h2;"];
    exact_case(&[&head[..], &f16[..]].concat(), [1, 0, 0, 0], d, 0, 0x3c00);
    let u16_set = ["ld.global.u16 %h0, [%in];", "set.lt.f32.u16 %r7, %h0, 1;", "cvt.rzi.s32.f32 %r8, %r7;"];
    exact_case(&[&u16_set[..], &tail[..]].concat(), [1, 0, 0, 0], d, 0, 1);
    let wide_set = ["ld.global.u32 %r0, [%in];", "set.ne.f32.u32 %r7, %r0, 1;", "cvt.rzi.u32.f32 %r8, %r7;"];
    untouched(&[&wide_set[..], &tail[..]].concat(), [1, 0, 0, 0], d);
    let loaded = ["ld.global.f32 %r7, [%in];", "cvt.rzi.u32.f32 %r8, %r7;"];
    untouched(&[&loaded[..], &tail[..]].concat(), [0, 0, 0, 0], d);
    let not = ["not.b32 %r3, %r8;", "cvt.rmi.u32.f32 %r2, %r3;", "st.global.u32 [%out], %r2;"];
    untouched(&[&head[..], &not[..]].concat(), [1, 0, 0, 0], d);
}
