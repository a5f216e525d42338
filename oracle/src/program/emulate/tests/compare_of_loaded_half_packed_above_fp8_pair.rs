//! Tests of ace805b3's emulation (`emulate/compare_of_loaded_half_packed_above_fp8_pair.rs`): a
//! 16-bit `setp` of a loaded half packed directly above an fp8x2 pair (and as a word's low half)
//! admits the predicate of a nonzero upper half (corpus/findings/fuzz-h200-4501/trace/ace805b3/,
//! 13.0.88 and 13.5 -O3 listings): the wrong forms admit the spec's word and the GPU's, the right
//! neighbours are left alone. The traced kernel's offsets are moved into the test program's four
//! input and two output words (h2 the byte 3 of word 0, the selected word 2).

use super::*;

const D: Deviation = Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf;

/// h2 = 0 (word 0), word 2 the loaded word the select takes where p0 is false.
const WORDS: [u32; 4] = [0, 0, 0xe5d6_23a0, 0];

/// ace805b3's `reduced.ptx` with the load `ld` of h2, the pair `pair` into h3, the pack `pack`
/// and the compare `setp` into p0; the selected word stored.
fn reduced(ld: &str, pair: &str, pack: &[&str], setp: &str) -> Vec<String> {
    let mut l = vec!["mov.b32 %r1, 0;", ld, "mov.b16 %h0, 14940;", pair];
    l.extend_from_slice(pack);
    l.extend_from_slice(&[
        "mov.b64 %d2, 0;",
        setp,
        "setp.ne.s64 %p1, %d1, 8651425055072707298;",
        "@%p1 ld.global.b64 %d2, [%in+8];",
        "mov.b64 {%r10, %r11}, %d2;",
        "mov.b32 %r15, 0;",
        "selp.b32 %r16, %r15, %r10, %p0;",
        "st.global.b32 [%out], %r16;",
    ]);
    l.into_iter().map(str::to_string).collect()
}

const LD_U8: &str = "ld.global.u8 %h2, [%in+3];";
const E5M2: &str = "cvt.rn.satfinite.e5m2x2.f32 %h3, %r1, %r1;";
const PACK: &[&str] = &["mov.b64 %d1, {%h2, %h0, %h3, %h2};"];
const LE0: &str = "setp.le.u16 %p0, %h2, 0x0;";

/// Checks that emulating [`D`] admits the spec's exact word 0 `spec` and `bug` (the other
/// predicate's select) and that it fires alone.
fn either(lines: &[String], spec: u64, bug: u64) {
    let (s, e, fired) = both(&strs(lines), WORDS, D);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert!(e.matches(spec.into()) && e.matches(bug.into()), "{e} of {lines:?}");
    assert_eq!(fired, vec![D], "{lines:?}");
}

/// ace805b3's campaign case (32 threads, inputs 0 but word 4 = 0xe5d623a0): emulating ace805b3
/// alone admits the stored -O3 and JIT word 0xe5d623a0 of every thread (`ISETP.GT.U32 P1, PT, R0,
/// RZ` over 0x3a5c0000) and the spec's 0.
#[test]
fn n_4501_ace805b3_the_campaign_case_admits_the_stored_o3_word() {
    let (p, i) = super::stored_case("4501", "ace805b3ed891081");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        assert_eq!(s.field(0, 32).bits, 0, "spec, thread {t}");
        assert!(e.field(0, 32).matches(0xe5d6_23a0) && e.field(0, 32).matches(0), "thread {t}");
        for w in 1..p.outputs {
            assert_eq!(e.field(32 * w, 32), s.field(32 * w, 32), "thread {t} word {w}");
        }
    }
}

/// `reduced.ptx`, `v8_e4m3`, `v9_ld_u16`, `v10_lt5`, `v10b_ne0` (h2 = 5: ne true either way, so
/// h2 = 0 there), `v12_b32_packs`: the compare admits the predicate over a nonzero upper half.
#[test]
fn the_reduced_ace805b3_and_its_wrong_variants_admit_the_stale_compare() {
    either(&reduced(LD_U8, E5M2, PACK, LE0), 0, 0xe5d6_23a0);
    either(&reduced(LD_U8, "cvt.rn.satfinite.e4m3x2.f32 %h3, %r1, %r1;", PACK, LE0), 0, 0xe5d6_23a0);
    either(&reduced("ld.global.u16 %h2, [%in+2];", E5M2, PACK, LE0), 0, 0xe5d6_23a0);
    either(&reduced(LD_U8, E5M2, PACK, "setp.lt.u16 %p0, %h2, 5;"), 0, 0xe5d6_23a0);
    // ne 0 of h2 = 0: false by the spec (the word), true over a nonzero upper half (0).
    either(&reduced(LD_U8, E5M2, PACK, "setp.ne.u16 %p0, %h2, 0x0;"), 0xe5d6_23a0, 0);
    let b32 = ["mov.b32 %r20, {%h2, %h0};", "mov.b32 %r21, {%h3, %h2};", "mov.b64 %d1, {%r20, %r21};"];
    either(&reduced(LD_U8, E5M2, &b32, LE0), 0, 0xe5d6_23a0);
    // `v13_s8_le_s16`, `s48/w2_u8_le_s16`, `s48/w7_s16_load`: signed, either predicate.
    either(&reduced("ld.global.s8 %h2, [%in+3];", E5M2, PACK, "setp.le.s16 %p0, %h2, 0x0;"), 0, 0xe5d6_23a0);
    either(&reduced(LD_U8, E5M2, PACK, "setp.le.s16 %p0, %h2, 0x0;"), 0, 0xe5d6_23a0);
    either(&reduced("ld.global.s16 %h2, [%in+2];", E5M2, PACK, "setp.le.s16 %p0, %h2, 0x0;"), 0, 0xe5d6_23a0);
    // `s48/w3_gt3`, `s48/w5_s8_le_u16` (`lt 5`).
    either(&reduced(LD_U8, E5M2, PACK, "setp.gt.u16 %p0, %h2, 3;"), 0xe5d6_23a0, 0);
    either(&reduced("ld.global.s8 %h2, [%in+3];", E5M2, PACK, "setp.lt.u16 %p0, %h2, 5;"), 0, 0xe5d6_23a0);
    // corpus/findings/fuzz-h200-4802/trace/95e97556/s48/`ace805b3_x_f16x2_pair` (the pair of an
    // f16x2: `F2FP.SATFINITE.E5M2.F16.UNPACK_B_MERGE_C R6, RZ, R0`): the reduced listing.
    either(&reduced(LD_U8, "cvt.rn.satfinite.e5m2x2.f16x2 %h3, %r1;", PACK, LE0), 0, 0xe5d6_23a0);
}

/// Where the spec's predicate is the stale one's (h2 = 0x5a: `le 0` false either way), nothing
/// changes.
#[test]
fn a_compare_the_upper_half_cannot_change_is_left_alone() {
    let l = reduced(LD_U8, E5M2, PACK, LE0);
    let (s, e, fired) = both(&strs(&l), [0x5a00_0000, 0, 0xe5d6_23a0, 0], D);
    assert_eq!((e, fired), (s, Vec::new()));
}

/// The right neighbours: no pair (`v1_h3_loaded_u16`), the pair below another half
/// (`v11_pair_not_beside_h2`), the pair above h2 (`v14_pair_high`), an f16 half in the pair's
/// place (`v15_f16x2_not_fp8`), a compare with a register, `ld.u16` under `.s16`
/// (`s48/w6_u16_le_s16`), h not a word's low half (`s48/w1_not_low_half`), a guarded load.
#[test]
fn right_neighbours_are_left_alone() {
    untouched(&strs(&reduced(LD_U8, "ld.global.u16 %h3, [%in+12];", PACK, LE0)), WORDS, D);
    let beside_other = ["ld.global.u16 %h4, [%in+12];", "mov.b64 %d1, {%h2, %h0, %h3, %h4};"];
    untouched(&strs(&reduced(LD_U8, E5M2, &beside_other, LE0)), WORDS, D);
    untouched(&strs(&reduced(LD_U8, E5M2, &["mov.b64 %d1, {%h2, %h0, %h2, %h3};"], LE0)), WORDS, D);
    untouched(&strs(&reduced(LD_U8, "cvt.rn.f16.f32 %h3, %r1;", PACK, LE0)), WORDS, D);
    untouched(&strs(&reduced(LD_U8, E5M2, PACK, "setp.le.u16 %p0, %h2, %h0;")), WORDS, D);
    untouched(&strs(&reduced("ld.global.u16 %h2, [%in+2];", E5M2, PACK, "setp.le.s16 %p0, %h2, 0x0;")), WORDS, D);
    let not_low = ["mov.b64 %d1, {%h0, %h0, %h3, %h2};"];
    untouched(&strs(&reduced(LD_U8, E5M2, &not_low, LE0)), WORDS, D);
    let mut guarded = reduced("setp.eq.u32 %p2, %r1, 0;", E5M2, PACK, LE0);
    guarded.insert(2, "@%p2 ld.global.u8 %h2, [%in+3];".to_string());
    guarded.insert(2, "mov.b16 %h2, 0;".to_string());
    untouched(&strs(&guarded), WORDS, D);
}
