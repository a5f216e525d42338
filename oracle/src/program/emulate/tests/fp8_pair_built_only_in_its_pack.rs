//! Tests of 59da91ec's emulation (`emulate/fp8_pair_built_only_in_its_pack.rs`): an fp8 pair
//! packed right after as a word's low half is built only in the pack; in an arm its half keeps
//! its old value (seed 4802's 59da91ec, trace/T19v3.md, trace/59da91ec/ and s51/), before an arm
//! that rewrites a 64-bit pack it reads an unwritten register (seed 5001's b1ed167e, trace/T21a.md).

use super::*;

const D: Deviation = Deviation::Fp8PairBuiltOnlyInItsPack;

/// The stored cases. 59da91ec: every thread runs the arm (`setp.ge.u64 d1, 0`), words 0 and 1
/// are 0x09210921 on the GPU (h0's old 0x0921 in `{h0, h0, h0, h0}`, xor'ed with the pack's 0),
/// spec 0. b1ed167e: word 0 is 0x0000fe7e on the GPU (`{h4, h4}` read from R0, 0 at launch), spec
/// 0xfe7e0000: the emulated word admits it (set-valued), the other words are the spec's.
#[test]
fn fp8_pair_59da91ec_the_stored_cases_are_reproduced() {
    let (p, i) = super::stored_case("4802", "59da91eced62a91c");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w < 2 { 0x0921_0921 } else { s.bits };
        assert_eq!(e.bits, want, "59da91ec thread {t} word {w}");
        if w < 2 {
            assert_eq!(s.bits, 0, "59da91ec thread {t} word {w}");
        }
    }
    let (p, i) = super::stored_case("5001", "b1ed167ea1c025c9");
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        if w == 0 {
            assert_eq!(s.bits, 0xfe7e_0000, "b1ed167e thread {t}");
            assert!(e.matches(0x0000_fe7e) && e.matches(s.bits), "b1ed167e thread {t}: {e:?}");
        } else {
            assert_eq!(e, s, "b1ed167e thread {t} word {w}");
        }
    }
}

/// Form A: `old` writes h0 before the branch (taken when word 2 is 0), the arm `cvt` of r0 into
/// h0 and `pack` (r3 or d3), then `tail`. Word 0 stores h0 zero-extended, word 1 the pack's
/// first word.
fn arm(old: &str, cvt: &str, pack: &str, inside: &str) -> Vec<String> {
    let mut l: Vec<String> = vec!["ld.global.b32 %r0, [%in];".into(), old.into(), "mov.b16 %h1, 0;".into()];
    l.extend(["mov.b32 %r3, 0;".into(), "mov.b64 %d3, 0;".into(), "ld.global.b32 %r5, [%in+8];".into()]);
    l.extend(["setp.ne.u32 %p0, %r5, 0;".into(), "@%p0 bra $L1;".into(), cvt.into(), pack.into(), inside.into()]);
    l.extend(["$L1:".into(), "cvt.u32.u16 %r6, %h0;".into(), "st.global.u32 [%out], %r6;".into()]);
    l.extend([
        "mov.b64 {%r7, %r8}, %d3;".into(),
        "or.b32 %r7, %r7, %r3;".into(),
        "st.global.u32 [%out+4], %r7;".into(),
    ]);
    l.retain(|s| !s.is_empty());
    l
}

const E4M3: &str = "cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r0;";
const PACK: &str = "mov.b32 %r3, {%h0, %h1};";
/// The pair source 0x3c00_4000 (f16 1.0, 2.0): e4m3 pair 0x3840 (§9.7.9.21: .f16x2 halves
/// converted in order, the upper half the upper byte).
const WORDS: [u32; 4] = [0x3c00_4000, 0, 0, 0];

/// Wrong (13.0.88 -O3 `@P0 F2FP…MERGE_C R6; @P0 MOV R7, R6` with h0's `0x921` stored): the case's
/// form (reduced.ptx), a loaded old h0 (v4), e5m2x2 (v6), the 64-bit pack (s51 w4): h0 keeps its
/// old value, the pack's word holds the pair.
#[test]
fn fp8_pair_59da91ec_arm_half_keeps_its_old_value_the_pack_gets_the_pair() {
    let pair = 0x3840u64;
    for (old, cvt, pack) in [
        ("mov.b16 %h0, 2337;", E4M3, PACK),
        ("mov.b16 %h0, 2337;", "cvt.rn.satfinite.e5m2x2.f16x2 %h0, %r0;", PACK),
        ("mov.b16 %h0, 2337;", E4M3, "mov.b64 %d3, {%h0, %h1, %h1, %h1};"),
    ] {
        let lines = arm(old, cvt, pack, "");
        let (s, e, fired) = both(&strs(&lines), WORDS, D);
        assert_eq!(fired, vec![D], "{lines:?}");
        let spec_pair = s.bits as u64 & 0xffff;
        assert!(spec_pair == pair || cvt.contains("e5m2"), "{lines:?}: {s:?}");
        assert_eq!(s.bits as u64, spec_pair | (spec_pair << 32), "{lines:?}");
        assert_eq!(e.bits as u64, 0x0921 | (spec_pair << 32), "{lines:?}");
        assert!(e.is_exact());
    }
    // v4: the old h0 loaded (0x1234 from word 1's low half).
    let lines = arm("ld.global.b16 %h0, [%in+4];", E4M3, PACK, "");
    exact_case(&strs(&lines), [0x3c00_4000, 0x1234, 0, 0], D, pair | (pair << 32), 0x1234 | (pair << 32));
}

/// Right (13.0.88 -O3): no pack (v1), `cvt.rn.f16.f32` (v3), the pair as the pack's high half
/// (v9), the pack unread (s51 w2), h0 never written before the cvt (w5), guarded statements (v7),
/// and the branch not taken (the arm skipped: nothing to lose).
#[test]
fn fp8_pair_59da91ec_leaves_unpacked_high_unread_fresh_guarded_and_skipped_alone() {
    let old = "mov.b16 %h0, 2337;";
    for lines in [
        arm(old, E4M3, "", ""),
        arm(old, "cvt.rn.f16.f32 %h0, %r0;", PACK, ""),
        arm(old, E4M3, "mov.b32 %r3, {%h1, %h0};", ""),
        arm("", E4M3, PACK, ""),
    ] {
        untouched(&strs(&lines), WORDS, D);
    }
    // The pack unread: r3 rewritten in the arm after it.
    untouched(&strs(&arm(old, E4M3, PACK, "mov.b32 %r3, 5;")), WORDS, D);
    untouched(&strs(&arm(old, E4M3, PACK, "")), [0x3c00_4000, 0, 1, 0], D);
    let guarded = [
        "ld.global.b32 %r0, [%in];",
        "mov.b16 %h0, 2337;",
        "mov.b16 %h1, 0;",
        "mov.b32 %r3, 0;",
        "ld.global.b32 %r5, [%in+8];",
        "setp.eq.u32 %p0, %r5, 0;",
        "@%p0 cvt.rn.satfinite.e4m3x2.f16x2 %h0, %r0;",
        "@%p0 mov.b32 %r3, {%h0, %h1};",
        "cvt.u32.u16 %r6, %h0;",
        "st.global.u32 [%out], %r6;",
        "st.global.u32 [%out+4], %r3;",
    ];
    untouched(&guarded, WORDS, D);
}

/// Form B (b1ed167e's s50 and 59da91ec's s51 x1, x3): the pair and a 64-bit pack before an arm
/// rewriting the pack (`rewrite`), h4 read as `{h4, h4}` after the join: any value; the arm
/// writing another register (x2) or no branch (v1): right.
fn before(old: &str, rewrite: &str, read_before: bool) -> Vec<String> {
    let mut l: Vec<String> = vec!["mov.b16 %h0, 0;".into(), "ld.global.b32 %r0, [%in];".into(), old.into()];
    l.extend(["cvt.rn.satfinite.e4m3x2.f16x2 %h4, %r0;".into(), "mov.b64 %d0, {%h4, %h0, %h0, %h0};".into()]);
    let read = "mov.b32 %r13, {%h4, %h4};";
    if read_before {
        l.push(read.into());
    }
    l.extend(["setp.gt.u64 %p2, %d0, 2;".into(), "@%p2 bra $L0;".into(), rewrite.into(), "$L0:".into()]);
    if !read_before {
        l.push(read.into());
    }
    l.extend(["mov.b64 {%r8, %r9}, %d0;".into(), "xor.b32 %r14, %r8, %r13;".into()]);
    l.extend(["st.global.u32 [%out], %r14;".into(), "st.global.u32 [%out+4], %r9;".into()]);
    l.retain(|s| !s.is_empty());
    l
}

#[test]
fn fp8_pair_59da91ec_before_an_arm_rewriting_the_pack_the_half_is_any_value() {
    // The pair of 0xe59d_65e0 is 0xfe7e (b1ed167e's): spec word 0 = 0xfe7e0000, GPU 0x0000fe7e.
    let words = [0xe59d_65e0, 0, 0, 0];
    for (old, read_before) in [("", false), ("mov.b16 %h4, 2337;", false), ("", true)] {
        let lines = before(old, "mov.b64 %d0, 0;", read_before);
        let (s, e, fired) = both(&strs(&lines), words, D);
        assert_eq!(s.bits as u64 & 0xffff_ffff, 0xfe7e_0000, "{lines:?}");
        assert_eq!(fired, vec![D], "{lines:?}");
        assert!(!e.is_exact() && e.matches(0x0000_fe7e) && e.matches(s.bits), "{lines:?}: {e:?}");
        assert!(e.field(32, 32).is_exact() && e.bits >> 32 == s.bits >> 32, "{lines:?}: {e:?}");
    }
    untouched(&strs(&before("mov.b32 %r9, 5;", "mov.b32 %r9, 0;", false)), words, D);
    let no_branch = [
        "mov.b16 %h0, 0;",
        "ld.global.b32 %r0, [%in];",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h4, %r0;",
        "mov.b64 %d0, {%h4, %h0, %h0, %h0};",
        "mov.b32 %r13, {%h4, %h4};",
        "mov.b64 {%r8, %r9}, %d0;",
        "xor.b32 %r14, %r8, %r13;",
        "st.global.u32 [%out], %r14;",
    ];
    untouched(&no_branch, words, D);
}

/// Seed 5703's 65b4e6cc (corpus/findings/fuzz-h200-5703/trace/T57F.md, trace/65b4e6cc/s57/): the
/// stored case — the pair's half read again by the 64-bit pack's high word `{h0, h1, h0, h0}`, the
/// pack tested by the branch whose arm rewrites it: word 0 (the xor of the pack's words) is
/// 0x00009880 on the GPU (`PRMT R0, R0, 0x5410, R0` of a never-written R0), spec 0x98800000; the
/// emulated word admits both; the other words are the spec's.
#[test]
fn fp8_pair_65b4e6cc_stored_case_high_word_half_is_any_value() {
    let (p, i) = super::stored_case("5703", "65b4e6ccd33d7ed5");
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        if w == 0 {
            assert_eq!(s.bits, 0x9880_0000, "65b4e6cc thread {t}");
            assert!(e.matches(0x0000_9880) && e.matches(s.bits), "65b4e6cc thread {t}: {e:?}");
        } else {
            assert_eq!(e, s, "65b4e6cc thread {t} word {w}");
        }
    }
}

/// 65b4e6cc's form planted: the e5m2x2 pair of the loaded word and the pack `pack` of it and a
/// moved 0, `setp` (of `tested`) before `@!p0 bra L0; mov.b64 d1, 0; L0:`, both words stored.
fn high_word(pack: &str, tested: &str) -> Vec<String> {
    let mut l: Vec<String> = vec!["ld.global.b32 %r4, [%in];".into(), "mov.b16 %h1, 0;".into()];
    l.extend(["cvt.rn.satfinite.e5m2x2.f16x2 %h0, %r4;".into(), pack.into()]);
    l.extend([tested.into(), "@!%p0 bra $L0;".into(), "mov.b64 %d1, 0;".into(), "$L0:".into()]);
    l.extend(["mov.b64 {%r21, %r22}, %d1;".into(), "st.global.u32 [%out], %r21;".into()]);
    l.push("st.global.u32 [%out+4], %r22;".into());
    l
}

/// Wrong (13.0.88 -O3, s57): `{h0, h1, h0, h0}` (the case), `{h0, h1, h1, h0}` (v4): the high
/// word's h0 elements are any value (read from a never-written register: 0 at launch, the GPU's
/// words `gpu`), so is the branch that tests the pack; right: `{h0, h0, h1, h1}` (v3), `{h0, h1, h0,
/// h1}` (v12: the high word CSE'd to the low), a predicate not of the pack (v13, v16).
#[test]
fn fp8_pair_65b4e6cc_high_word_of_a_tested_pack_reads_any_half() {
    let words = [0x987e_8000, 0, 0, 0];
    let of_pack = "setp.gt.u64 %p0, %d1, 0xffffffffffffffff;";
    for (pack, spec, gpu) in [
        ("mov.b64 %d1, {%h0, %h1, %h0, %h0};", 0x9880_9880_0000_9880u64, 0x9880u64),
        ("mov.b64 %d1, {%h0, %h1, %h1, %h0};", 0x9880_0000_0000_9880, 0x9880),
    ] {
        let lines = high_word(pack, of_pack);
        let (s, e, fired) = both(&strs(&lines), words, D);
        assert_eq!(fired, vec![D], "{lines:?}");
        assert_eq!(s.bits as u64, spec, "{lines:?}");
        assert!(!e.is_exact() && e.matches(s.bits) && e.matches(u128::from(gpu)), "{lines:?}: {e:?}");
    }
    for (pack, tested) in [
        ("mov.b64 %d1, {%h0, %h0, %h1, %h1};", of_pack),
        ("mov.b64 %d1, {%h0, %h1, %h0, %h1};", of_pack),
        ("mov.b64 %d1, {%h0, %h1, %h0, %h0};", "setp.ne.s32 %p0, %r4, 0;"),
    ] {
        untouched(&strs(&high_word(pack, tested)), words, D);
    }
}

/// Seed 5802's 21acc633 (corpus/findings/fuzz-h200-5802/trace/T58G.md, trace/21acc633/): the
/// stored case — the pair of two `.f32` packed right after as `{h7, h6}`, an arm (`@!p1 bra L1`,
/// taken by threads 123–127) that rewrites h7, h7 read after the join: thread 127's word 1 is
/// 0x3a85dffe on the GPU (h7's register written only in the arm), spec 0x3a8547xx; the emulated
/// word admits both; the threads that run the arm get the spec's words.
#[test]
fn fp8_pair_21acc633_stored_case_half_rewritten_in_a_later_arm_is_any_value() {
    let (p, i) = super::stored_case("5802", "21acc63398951428");
    let mut seen = false;
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        assert!(e.matches(s.bits), "21acc633 thread {t} word {w}: {e:?}");
        if t <= 122 {
            assert_eq!(e, s, "21acc633 thread {t} word {w}");
        }
        if t == 127 && w == 1 {
            assert!(!e.is_exact() && e.matches(0x3a85_dffe), "21acc633 thread 127: {e:?}");
            seen = true;
        }
    }
    assert!(seen);
}

/// 21acc633's form planted (trace/21acc633/s58/m*): `cvt` the pair of the loaded word into h7,
/// `pack` it, `@!p1 bra L1; arm; L1:` (taken when word 2 is 0), h7 stored (and `before` the branch
/// too), the pack's word stored.
fn later_arm(cvt: &str, pack: &str, arm: &str, before: bool) -> Vec<String> {
    let mut l: Vec<String> = vec!["ld.global.u32 %r0, [%in];".into(), "ld.global.b16 %h6, [%in+4];".into()];
    l.extend([cvt.into(), pack.into(), "ld.global.u32 %r5, [%in+8];".into()]);
    if before {
        l.push("st.global.u16 [%out+6], %h7;".into());
    }
    l.extend(["setp.ne.u32 %p1, %r5, 0;".into(), "@!%p1 bra $L1;".into(), arm.into(), "$L1:".into()]);
    l.extend(["mov.b16 %h14, %h7;".into(), "st.global.u32 [%out], %r1;".into()]);
    l.push("st.global.u16 [%out+4], %h14;".into());
    l
}

const F32_PAIR: &str = "cvt.rn.satfinite.e4m3x2.f32 %h7, %r0, %r0;";
const ARM: &str = "cvt.rn.ftz.bf16.f32 %h7, %r1;";

/// Wrong (13.0.88 and 13.5 -O3: `F2FP…PACK_AB_MERGE_C R7, R0, R0, R7; @!P0 F2F.FTZ.BF16.F32 R9, R7`,
/// `STG.E.U16 … R9` of a register written only in the arm): the pair of two `.f32` (m1), of a
/// `.f16x2` (m2), e5m2x2 (m6), `.relu` (m14), an arm `mov` (m10), h7 read before the branch too
/// (m11): h7 is any value when the arm is skipped, the pack's word the spec's; with the arm run,
/// the spec's.
#[test]
fn fp8_pair_21acc633_half_rewritten_in_a_later_arm_reads_any_value() {
    let pack = "mov.b32 %r1, {%h7, %h6};";
    let skip = [0x4444_4444, 0x1234, 0, 0];
    for (cvt, arm, before) in [
        (F32_PAIR, ARM, false),
        ("cvt.rn.satfinite.e4m3x2.f16x2 %h7, %r0;", ARM, false),
        ("cvt.rn.satfinite.e5m2x2.f32 %h7, %r0, %r0;", ARM, false),
        ("cvt.rn.satfinite.relu.e4m3x2.f32 %h7, %r0, %r0;", ARM, false),
        (F32_PAIR, "mov.b16 %h7, 0x1234;", false),
        (F32_PAIR, ARM, true),
    ] {
        let lines = later_arm(cvt, pack, arm, before);
        let (p, i) = (program(&strs(&lines)), Inputs(skip.to_vec()));
        let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!(fired, vec![D], "{lines:?}");
        let e = &out[0];
        // Word 0 the pack, word 1 h14 (bytes 4..5) and h7 stored before the branch (6..7).
        assert!(!e.field(32, 16).is_exact() && e.matches(spec.bits), "{lines:?}: {e:?}");
        assert!(e.field(48, 16).is_exact() != before, "{lines:?}: {e:?}");
        assert!(e.field(0, 32).is_exact() && e.bits as u32 == spec.bits as u32, "{lines:?}: {e:?}");
        if !cvt.contains("f16x2") && !cvt.contains("e5m2") {
            // 0x44444444 is 785.07f: satfinite e4m3 0x7e in both bytes; h6 0x1234 above it.
            assert_eq!(spec.bits as u32, 0x1234_7e7e, "{lines:?}");
        }
        // The arm run (word 2 nonzero): every word the spec's.
        let (s, e, _) = both(&strs(&lines), [0x4444_4444, 0x1234, 1, 0], D);
        if before {
            assert!(e.field(0, 48) == s.field(0, 48) && e.matches(s.bits), "{lines:?}: {e:?}");
        } else {
            assert_eq!(e, s, "{lines:?}");
        }
    }
}

/// Right (13.0.88 -O3): no pack (m3), the arm writing another register (m4), the pair as the
/// pack's high half (m7), `cvt.rn.f16.f32` (m9), no branch (m12).
#[test]
fn fp8_pair_21acc633_leaves_unpacked_other_register_high_half_and_no_branch_alone() {
    let skip = [0x4444_4444, 0x1234, 0, 0];
    let pack = "mov.b32 %r1, {%h7, %h6};";
    for lines in [
        later_arm(F32_PAIR, "mov.b32 %r1, %r0;", ARM, false),
        later_arm(F32_PAIR, pack, "cvt.rn.ftz.bf16.f32 %h6, %r1;", false),
        later_arm(F32_PAIR, "mov.b32 %r1, {%h6, %h7};", ARM, false),
        later_arm("cvt.rn.f16.f32 %h7, %r0;", pack, ARM, false),
    ] {
        untouched(&strs(&lines), skip, D);
    }
    let mut no_branch = later_arm(F32_PAIR, pack, ARM, false);
    no_branch.retain(|s| !s.contains("bra") && !s.ends_with(':'));
    untouched(&strs(&no_branch), skip, D);
}
