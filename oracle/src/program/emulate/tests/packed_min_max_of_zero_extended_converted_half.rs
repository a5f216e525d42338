//! Tests of 119d98cf's emulation (`emulate/packed_min_max_of_zero_extended_converted_half.rs`):
//! a packed `min`/`max.{u16x2,s16x2}` of `cvt.{u32,s32}.u16` of a half an f32-to-bf16/f16
//! `cvt.{rn,rz}` wrote reads any upper half (corpus/findings/fuzz-h200-4701/trace/119d98cf/ and
//! its `s48/`, 13.0.88 -O3 listings): the wrong forms admit the spec's word and the GPU's, the
//! right neighbours are left alone. The traced kernels' offsets are moved into the test
//! program's four input and two output words (x in word 3).

use super::*;

const D: Deviation = Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax;

/// Input word 3: 119d98cf's x, 0x29f3be31 (bf16 `.rn` 0x29f4, `.rz` 0x29f3; f16 0).
const WORDS: [u32; 4] = [0, 0x0005_0007, 0, 0x29f3_be31];

/// 119d98cf's `reduced.ptx` (= `z8_two_simple_ops`) with the conversion `cvt`, the extension
/// `ext` and the packed reader `reader` of r1 (the 64-bit load left out).
fn reduced(cvt: &str, ext: &str, reader: &str) -> Vec<String> {
    [
        "ld.global.s32 %r0, [%in+12];",
        cvt,
        "add.s32 %r0, %r0, 1;",
        "not.b32 %r0, %r0;",
        ext,
        reader,
        "st.global.u32 [%out], %r1;",
        "st.global.u32 [%out+4], %r0;",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect()
}

const CVT_RN_BF16: &str = "cvt.rn.bf16.f32 %h1, %r0;";
const EXT: &str = "cvt.u32.u16 %r1, %h1;";
const MIN: &str = "min.u16x2 %r1, %r1, %r1;";
/// Word 1 of [`reduced`]: `not(x + 1)`.
const NOT_X1: u64 = 0xd60c_41cd << 32;

/// Checks that emulating [`D`] admits the spec's exact `spec` and `bug` (word 0's upper half
/// changed) but not `other`, and that it fires alone.
fn either(lines: &[String], spec: u64, bug: u64, other: u64) {
    let (s, e, fired) = both(&strs(lines), WORDS, D);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert!(e.matches(spec.into()) && e.matches(bug.into()), "{e} of {lines:?}");
    assert!(!e.matches(other.into()), "{e} admits {other:#x} of {lines:?}");
    assert_eq!(fired, vec![D], "{lines:?}");
}

/// 119d98cf's campaign case (32 threads; `cvt.rn.bf16.f32; cvt.u32.u16; min.u16x2`, then a prmt
/// selected by the min, `cvt.rni.s16.f32`, a pack and `add.u64`): emulating 119d98cf alone admits
/// the stored -O3 and JIT words 0xc2235bd7/0x80008000 of every thread (r1 = 0x29f329f4 read by
/// the prmt), the spec's 0x4222dbd7/0 too; words 2 and 3 stay exact.
#[test]
fn n_4701_119d98cf_the_campaign_case_admits_the_stored_o3_words() {
    let (p, i) = super::stored_case("4701", "119d98cf8f03c408");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    assert_eq!(out.len(), 32);
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        let (w0, w1) = (e.field(0, 32), e.field(32, 32));
        assert_eq!((s.field(0, 32).bits, s.field(32, 32).bits), (0x4222_dbd7, 0), "spec, thread {t}");
        assert!(w0.matches(0xc223_5bd7) && w1.matches(0x8000_8000), "thread {t}: {w0} {w1}");
        assert!(w0.matches(0x4222_dbd7) && w1.matches(0), "thread {t}: {w0} {w1}");
        for w in 2..p.outputs {
            assert_eq!(e.field(32 * w, 32), s.field(32 * w, 32), "thread {t} word {w}");
        }
    }
}

/// `reduced.ptx`: `F2FP.BF16.F32.PACK_AB R3, RZ, R0; PRMT R0, R3, 0x7610, R0; VIMNMX.U16x2 R8,
/// R0, R0, PT` stores 0x29f329f4 where the spec stores 0x000029f4; the low half stays.
#[test]
fn the_reduced_119d98cf_reads_any_upper_half() {
    let l = reduced(CVT_RN_BF16, EXT, MIN);
    either(&l, NOT_X1 | 0x29f4, NOT_X1 | 0x29f3_29f4, NOT_X1 | 0x29f5);
    // Word 1 (x rewritten) is not touched.
    either(&l, NOT_X1 | 0x29f4, NOT_X1 | 0x29f3_29f4, 0x29f4);
}

/// `x4_max` (`max.u16x2`), `s48/a_min_s16x2` and `s48/b_max_s16x2` (`VIMNMX.S16x2 R8, R0, R0`),
/// `s48/m_cvt_s32_u16` (the extension `cvt.s32.u16`): the same merge, wrong alike.
#[test]
fn max_the_signed_packed_forms_and_cvt_s32_u16_are_the_same() {
    for reader in ["max.u16x2 %r1, %r1, %r1;", "min.s16x2 %r1, %r1, %r1;", "max.s16x2 %r1, %r1, %r1;"] {
        either(&reduced(CVT_RN_BF16, EXT, reader), NOT_X1 | 0x29f4, NOT_X1 | 0x29f3_29f4, NOT_X1 | 0x29f5);
    }
    let l = reduced(CVT_RN_BF16, "cvt.s32.u16 %r1, %h1;", MIN);
    either(&l, NOT_X1 | 0x29f4, NOT_X1 | 0x29f3_29f4, NOT_X1 | 0x29f5);
}

/// `s48/g_rz` (`F2FP.BF16.F32.PACK_AB.RZ`: 0x29f3), `z9_f16_two_simple_ops`/`x3_f16_cvt`,
/// `s48/r_f16_rz`, `s48/u_f16_ftz` (`F2FP.F16.F32.PACK_AB{.RZ}`: f16 0 here): wrong alike.
#[test]
fn rz_and_f16_conversions_are_the_same() {
    either(&reduced("cvt.rz.bf16.f32 %h1, %r0;", EXT, MIN), NOT_X1 | 0x29f3, NOT_X1 | 0x29f3_29f3, NOT_X1);
    for cvt in ["cvt.rn.f16.f32 %h1, %r0;", "cvt.rz.f16.f32 %h1, %r0;", "cvt.rn.ftz.f16.f32 %h1, %r0;"] {
        either(&reduced(cvt, EXT, MIN), NOT_X1, NOT_X1 | 0x29f3_0000, NOT_X1 | 1);
    }
}

/// The right neighbours (13.0.88 -O3 keeps or never needs the extension): `add.{u16x2,s16x2}`
/// (`x5_add16x2`, `s48/o_add_s16x2`), 32-bit readers (`s48/d_min_u32`, `s48/e_and_b32`:
/// `F2F.BF16.F32`), `.rm`/`.rp` (`F2F.BF16.F32.RM`), `.relu`, `.satfinite`, `.sat` (the `LOP3
/// 0xffff` mask kept), an integer or f16 source (`I2F.F16`, `F2F.BF16.F16`), a loaded half
/// (`x6_loaded_half`), `cvt.s32.s16` (`x8_cvt_s32_s16`), a guarded conversion.
#[test]
fn right_neighbours_are_left_alone() {
    for reader in
        ["add.u16x2 %r1, %r1, %r1;", "add.s16x2 %r1, %r1, %r1;", "min.u32 %r1, %r1, %r1;", "and.b32 %r1, %r1, %r1;"]
    {
        untouched(&strs(&reduced(CVT_RN_BF16, EXT, reader)), WORDS, D);
    }
    for cvt in [
        "cvt.rm.bf16.f32 %h1, %r0;",
        "cvt.rp.bf16.f32 %h1, %r0;",
        "cvt.rn.relu.bf16.f32 %h1, %r0;",
        "cvt.rn.relu.f16.f32 %h1, %r0;",
        "cvt.rn.satfinite.bf16.f32 %h1, %r0;",
        "cvt.rn.sat.f16.f32 %h1, %r0;",
        "cvt.rn.f16.s32 %h1, %r0;",
        "ld.global.u16 %h1, [%in+4];",
    ] {
        untouched(&strs(&reduced(cvt, EXT, MIN)), WORDS, D);
    }
    untouched(&strs(&reduced(CVT_RN_BF16, "cvt.s32.s16 %r1, %h1;", MIN)), WORDS, D);
    let mut f16_of_f16 = reduced("mov.b32 {%h0, %h2}, %r0;", EXT, MIN);
    f16_of_f16.insert(2, "cvt.rn.bf16.f16 %h1, %h0;".to_string());
    untouched(&strs(&f16_of_f16), WORDS, D);
    let mut guarded = reduced("setp.ne.u32 %p0, %r0, 0;", EXT, MIN);
    guarded.insert(2, "@%p0 cvt.rn.bf16.f32 %h1, %r0;".to_string());
    guarded.insert(2, "mov.b16 %h1, 0;".to_string());
    untouched(&strs(&guarded), WORDS, D);
}
