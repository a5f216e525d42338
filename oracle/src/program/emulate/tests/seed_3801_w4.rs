//! Tests of the scopes seed 3801's traces (corpus/findings/fuzz-h200-3801/trace/T4A.md,
//! T4C.md, T4D.md) gave F's unsigned int-to-float conversion (narrowed: b4269706), N-8 (a `.u32`
//! set destination, 91beedbc; not a set ptxas folds, 85778452) and N-11 (a set skipped again,
//! e0c45d2b), and of N-11's `.f32` conversion through the oracle's own `cvt`.

use super::*;

/// F's unsigned int-to-float conversion is `cvt.<rnd>.f32.u{16,32}` of a loaded `abs.s16`/`abs.s32`
/// only: −2^31 converts as signed (`IABS; I2FP.F32.S32`, ptxas 13.0.88 and 13.5 -O3), 0xcf000000
/// where the spec gives 2^31 (0x4f000000). A `.bf16` (b4269706's `I2F.BF16.U32`), `.f16` or `.f64`
/// destination, a `neg`, an `abs.s64` and an `abs` of a moved immediate (folded) are right.
#[test]
fn f_an_unsigned_f32_cvt_of_a_loaded_abs_converts_as_signed_and_nothing_wider() {
    let d = Deviation::NegationOverflow;
    let with = |source: &str, op: &str, cvt: &str, dst: &str| {
        let (r, store) = match dst {
            "f64" => ("%d5", "st.global.b64 [%out], %d5;"),
            "f16" | "bf16" => ("%h5", "st.global.b16 [%out], %h5;"),
            _ => ("%r5", "st.global.b32 [%out], %r5;"),
        };
        let (a, b, ty) = match op.rsplit('.').next() {
            Some("s16") => ("%h2", "%h3", "u16"),
            Some("s64") => ("%d2", "%d3", "u64"),
            _ => ("%r2", "%r3", "u32"),
        };
        let source = source.replace("A", a);
        vec![source, format!("{op} {b}, {a};"), format!("{cvt}.{dst}.{ty} {r}, {b};"), store.to_string()]
    };
    let loaded32 = "ld.global.u32 A, [%in];";
    let min32 = [0x8000_0000, 0, 0, 0];
    exact_case(&strs(&with(loaded32, "abs.s32", "cvt.rn", "f32")), min32, d, 0x4f00_0000, 0xcf00_0000);
    let loaded16 = "ld.global.u16 A, [%in];";
    exact_case(&strs(&with(loaded16, "abs.s16", "cvt.rm", "f32")), [0x8000, 0, 0, 0], d, 0x4700_0000, 0xc700_0000);
    // Right in ptxas 13.0.88 -O3 (the emulation must not fire).
    untouched(&strs(&with(loaded32, "abs.s32", "cvt.rn", "bf16")), min32, d);
    untouched(&strs(&with(loaded32, "abs.s32", "cvt.rn", "f16")), min32, d);
    untouched(&strs(&with(loaded32, "abs.s32", "cvt.rn", "f64")), min32, d);
    untouched(&strs(&with(loaded32, "neg.s32", "cvt.rn", "f32")), min32, d);
    untouched(&strs(&with(loaded16, "neg.s16", "cvt.rm", "f32")), [0x8000, 0, 0, 0], d);
    untouched(&strs(&with(loaded16, "abs.s16", "cvt.rn", "bf16")), [0x8000, 0, 0, 0], d);
    untouched(&strs(&with("ld.global.u64 A, [%in];", "abs.s64", "cvt.rn", "f32")), [0, 0x8000_0000, 0, 0], d);
    untouched(&strs(&with("mov.b32 A, 2147483648;", "abs.s32", "cvt.rn", "f32")), [0; 4], d);
    untouched(&strs(&with("mov.b16 A, 0x8000;", "abs.s16", "cvt.rm", "f32")), [0; 4], d);
    untouched(&strs(&with("mov.b32 A, 2147483648;", "abs.s32", "cvt.rn", "bf16")), [0; 4], d);
}

/// b4269706 (trace/T4A.md): F leaves its chain alone (`cvt.rn.bf16.u32` of the `abs.s32` of a
/// moved −2^31 is folded right, `I2F.BF16.U32 R5, 0x80000000`, so `cvt.rpi.u32.f16` of the bf16
/// 0x4f00 read as an f16 gives 28, the shuffle's clamp that keeps the finding's `%p1` true).
#[test]
fn b4269706_f_leaves_its_bf16_chain_alone() {
    let lines = [
        "mov.b32 %r2, 2147483648;",
        "abs.s32 %r3, %r2;",
        "cvt.rn.bf16.u32 %h5, %r3;",
        "cvt.rpi.u32.f16 %r4, %h5;",
        "st.global.u32 [%out], %r4;",
    ];
    let (s, _, _) = both(&lines, [0; 4], Deviation::NegationOverflow);
    assert_eq!((s.bits, s.is_exact()), (28, true));
    untouched(&lines, [0; 4], Deviation::NegationOverflow);
}

/// N-8 with a `.u32` set destination (corpus/findings/fuzz-h200-3801/, 91beedbc, trace/T4D.md):
/// `set.ge.u32.s32 s, r, 0; setp.ge.u32 p, s, 0` (always true) is `ISETP.GE P0, r, 0`, s = 0 on
/// 13.0.88 -O3: for r ≥ 0 the `selp` gives 9 where the spec gives 7; `setp.lt.u32` the mirror.
#[test]
fn n8_an_unsigned_compare_of_a_u32_set_with_zero_is_folded_as_the_set() {
    let d = Deviation::UnsignedBelowZeroOfSet;
    let with = |dst: &str, cmp: &str| {
        vec![
            "ld.global.s32 %r1, [%in];".to_string(),
            format!("set.ge.{dst}.s32 %r3, %r1, 0;"),
            format!("setp.{cmp}.u32 %p1, %r3, 0x0;"),
            "ld.global.u32 %r4, [%in+4];".to_string(),
            "selp.b32 %r2, %r4, 9, %p1;".to_string(),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    exact_case(&strs(&with("u32", "ge")), [5, 7, 0, 0], d, 7, 9);
    exact_case(&strs(&with("u32", "lt")), [5, 7, 0, 0], d, 9, 7);
    exact_case(&strs(&with("s32", "ge")), [5, 7, 0, 0], d, 7, 9);
    // r < 0: the set is 0, and folded or not the compare agrees.
    untouched(&strs(&with("u32", "ge")), [0xffff_fffb, 7, 0, 0], d);
}

/// N-8 is not a set whose value ptxas knows (corpus/findings/fuzz-h200-3801/, 85778452,
/// trace/T4C.md): `set.le.s32.u32 %r8, <moved 0>, 0` is folded to −1 first (13.0.88 -O3 `MOV R7,
/// 0xffffffff` for the `selp`), so `setp.ge.u32 %p3, %r8, 0` is true as the spec says.
#[test]
fn n8_leaves_a_compare_of_a_known_set_alone() {
    let lines = [
        "mov.b32 %r1, 0;",
        "set.le.s32.u32 %r8, %r1, 0x0;",
        "setp.ge.u32 %p3, %r8, 0x0;",
        "selp.b32 %r14, %r8, 0x1, %p3;",
        "st.global.s32 [%out], %r14;",
    ];
    untouched(&lines, [0; 4], Deviation::UnsignedBelowZeroOfSet);
}

/// 85778452 (trace/T4C.md) as stored: the skipped `set.eq.f32.u64` leaves f32(|1|) = 1.0f
/// (N-11), and the `selp` of the folded set gives −1, so the word is 0x3f800000 ^ −1 = 0xc07fffff
/// (the GPU's) under N-11 with N-8 emulated too.
#[test]
fn n8_85778452_under_n11_and_n8_is_the_gpu_word() {
    let lines = [
        "mov.b64 %d0, 0;",
        "mov.b32 %r1, 0;",
        "mov.b32 %r7, 1;",
        "set.le.s32.u32 %r8, %r1, 0x0;",
        "mov.b32 %r13, 4;",
        "setp.lt.u32 %p2, %r13, 0x4;",
        "setp.ge.u32 %p3, %r8, 0x0;",
        "selp.b32 %r14, %r8, 0x1, %p3;",
        "@%p2 set.eq.f32.u64 %r7, %d0, 0x0;",
        "xor.b32 %r26, %r7, %r14;",
        "st.global.s32 [%out], %r26;",
    ];
    let (p, i) = (program(&lines), Inputs(vec![0; 4]));
    let allow =
        Allowances::all().emulating(Deviation::SkippedSetSignExtends).emulating(Deviation::UnsignedBelowZeroOfSet);
    let (out, fired) = run_emulating(&p, &i, &allow).unwrap();
    assert_eq!((out[0].bits as u32, out[0].is_exact()), (0xc07f_ffff, true));
    assert_eq!(fired, vec![Deviation::SkippedSetSignExtends]);
}

/// N-11 on a set skipped again (corpus/findings/fuzz-h200-3801/, e0c45d2b, trace/T4D.md): the
/// first skip of `set.le.u32.u16` leaves 0x4115d2f7 as 0x0000d2f7 or 0xffffd2f7, and a second
/// skip (the next trip of a loop, or the same set twice) reads only that word's low 16 bits,
/// exact, so the GPU's 0xffffd2f7 stays admitted.
#[test]
fn n11_a_set_skipped_again_extends_the_low_half_it_left() {
    let d = Deviation::SkippedSetSignExtends;
    let head = ["mov.b16 %h3, 0;", "mov.b32 %r1, 1091949303;", "ld.global.u32 %r0, [%in];", "setp.lt.u32 %p5, %r0, 0;"];
    let set = "@%p5 set.le.u32.u16 %r1, %h3, 0x0;";
    let store = "st.global.u32 [%out], %r1;";
    let twice: Vec<&str> = head.iter().copied().chain([set, set, store]).collect();
    let looped: Vec<&str> = head
        .iter()
        .copied()
        .chain([
            "mov.u32 %r3, 16;",
            "$L2:",
            set,
            "sub.u32 %r3, %r3, 0x2;",
            "setp.gt.u32 %p7, %r3, 0x0;",
            "@%p7 bra $L2;",
            store,
        ])
        .collect();
    for lines in [twice, looped] {
        let (s, e, fired) = both(&lines, [0; 4], d);
        assert_eq!((s.bits, s.is_exact()), (0x4115_d2f7, true));
        assert!(e.matches(0xffff_d2f7) && e.matches(0x0000_d2f7) && !e.matches(0x4115_d2f7), "{e:?}");
        assert_eq!(fired, vec![d]);
    }
}

/// N-11's `.f32` conversion of the old word goes through the oracle's `cvt.rn.f32.s32` /
/// `cvt.rn.f32.s16` (§9.7.9.21) and gives what the host's round-to-nearest `as f32` gave:
/// f32(|int32(old)|) for a 64-bit source (|−2^31| = −2^31; 0x7fffffff and 0x01000001 round),
/// f32(|int16(old)|) as an s16 for a 16-bit one.
#[test]
fn n11_the_f32_conversion_of_the_old_word_is_unchanged() {
    let at = |old: u32, src: &str| {
        let (ld, reg) = match src {
            "u64" => ("ld.global.u64 %d0, [%in+8];", "%d0"),
            _ => ("ld.global.u16 %h0, [%in+8];", "%h0"),
        };
        vec![
            format!("mov.b32 %r2, {old};"),
            ld.to_string(),
            "setp.eq.u32 %p1, %r2, %r2;".to_string(),
            format!("@!%p1 set.ne.f32.{src} %r2, {reg}, 0;"),
            "st.global.u32 [%out], %r2;".to_string(),
        ]
    };
    let olds = [
        0,
        1,
        31,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0x0100_0001,
        0x0100_0003,
        0xfeff_ffff,
        0x863e_bcfb,
        0xffff_ffff,
        0x1234_fffe,
        0x1234_8000,
        0x0000_7fff,
        0x4115_d2f7,
    ];
    for old in olds {
        let wide = ((old as i32).wrapping_abs() as f32).to_bits();
        let narrow = f32::from(i32::from(old as u16 as i16).unsigned_abs() as u16 as i16).to_bits();
        for (src, host) in [("u64", wide), ("u16", narrow)] {
            let (_, e, _) = both(&strs(&at(old, src)), [0; 4], Deviation::SkippedSetSignExtends);
            assert_eq!((e.bits as u32, e.is_exact()), (host, true), "{old:#x} {src}");
        }
    }
}
