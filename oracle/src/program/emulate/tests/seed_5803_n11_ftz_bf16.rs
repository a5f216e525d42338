//! N-11 over an old value a `cvt.ftz.f32.bf16` wrote (session 58, helper hb; seed 5803's 72b720bf
//! and fff2eec5, corpus/findings/fuzz-h200-5803/trace/T58B.md, variants in trace/72b720bf/s58/ and
//! trace/fff2eec5/s58/): `.ftz` is `F2F.FTZ.F32.BF16`, whose NaN is the canonical 0x7fffffff, so
//! the skipped `set.<cmp>.f32` stores I2FP(|0x7fffffff|) = 0x4f000000, not the f32 of the shifted
//! bf16 bits (`emulate/skipped/bf16_widened.rs`). Without `.ftz` a bf16 NaN ptxas knows is folded
//! canonical at -O3 and shifted at -O0: both words admitted.

use super::*;

const D: Deviation = Deviation::SkippedSetSignExtends;

/// The stored case: every thread skips the set (`setp.le.s16 0, 0` true, `@!p`) over
/// `cvt.ftz.f32.bf16` of 0xffa0; the GPU stores 0x4f000000 on -O0, -O3 and the JIT (13.0.88 -O0
/// `F2F.FTZ.F32.BF16; SEL; SEL; IABS; I2FP.F32.S32`). The shift rule gave 0x4ac00000.
#[test]
fn n11_ftz_bf16_72b720bf_the_stored_case_is_reproduced() {
    let (p, i) = stored_case("5803", "72b720bffd4362b6");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        if w == 0 {
            assert!(!s.is_exact() && s.matches(0x7fff_ffff), "spec: any f32 NaN, thread {t}: {s:?}");
            assert_eq!(e.bits, 0x4f00_0000, "thread {t} word {w}");
        }
    }
}

/// The stored case: thread 13 loads bf16 0xffff (a NaN, −1 as s16), so `setp.gt.s16` fails and the
/// `set.ne.f32.s64` is skipped: 0x4f000000 on every backend (13.0.88 -O3 `F2F.FTZ.F32.BF16 R6, R0;
/// …; SEL R6, R6, RZ, !P0; IABS; I2FP.F32.S32` at run time). The shift rule gave 65536.0.
#[test]
fn n11_ftz_bf16_fff2eec5_the_stored_case_is_reproduced() {
    let (p, i) = stored_case("5803", "fff2eec586d8f96c");
    let words = words_emulating(&p, &i, D);
    let (_, _, s, e) = words.iter().find(|(t, w, _, _)| *t == 13 && *w == 0).unwrap();
    assert!(!s.is_exact() && s.matches(0x7fff_ffff), "{s:?}");
    assert_eq!((e.bits, e.is_exact()), (0x4f00_0000, true), "{e:?}");
}

/// A loaded bf16 `h0` widened by `cvt`, then a skipped `set.eq.f32.s32` (guard `tix != tix`).
fn skipped_over(cvt: &str, src: &str) -> Vec<String> {
    vec![
        src.to_string(),
        format!("{cvt} %r2, %h0;"),
        "setp.ne.u32 %p1, %tix, %tix;".to_string(),
        "@%p1 set.eq.f32.s32 %r2, %tix, 0;".to_string(),
        "st.global.b32 [%out], %r2;".to_string(),
    ]
}

/// `.ftz` (fff2eec5's run-time F2F.FTZ, s58/y8_loaded_ftz): the canonical NaN whatever the
/// payload or sign (s58/y7_ftz_pos_nan); a number stays exact (y6: −1.0 → 0x4e810000).
/// Without `.ftz` a loaded NaN is still the shifted word (y9, seed 4303's rule).
#[test]
fn n11_ftz_bf16_nan_is_the_canonical_nan() {
    let load = "ld.global.b16 %h0, [%in];";
    for nan in [0xffa0, 0x7fa0, 0xffff, 0x7f81] {
        let (s, e, fired) = both(&strs(&skipped_over("cvt.ftz.f32.bf16", load)), [nan, 0, 0, 0], D);
        assert!(!s.is_exact() && s.matches(0x7fff_ffff), "{nan:#x}: {s:?}");
        assert_eq!((e.bits as u32, e.is_exact()), (0x4f00_0000, true), "{nan:#x}: {e:?}");
        assert_eq!(fired, vec![D]);
    }
    exact_case(&strs(&skipped_over("cvt.ftz.f32.bf16", load)), [0xbf80, 0, 0, 0], D, 0xbf80_0000, 0x4e81_0000);
    // No .ftz, loaded: |0xffa00000| = 0x00600000 → 6291456.0.
    let (_, e, _) = both(&strs(&skipped_over("cvt.f32.bf16", load)), [0xffa0, 0, 0, 0], D);
    assert_eq!((e.bits as u32, e.is_exact()), (0x4ac0_0000, true), "{e:?}");
}

/// No `.ftz`, the bf16 a moved immediate (s58/y1_no_ftz): -O0 shifts (0x4ac00000), -O3 folds the
/// canonical NaN (0x4f000000); both admitted, nothing else. A moved number stays exact.
#[test]
fn n11_bf16_constant_nan_admits_the_folded_canonical_word() {
    let (s, e, fired) = both(&strs(&skipped_over("cvt.f32.bf16", "mov.b16 %h0, 0xffa0;")), [0; 4], D);
    assert!(!s.is_exact() && s.matches(0x7fff_ffff), "{s:?}");
    assert!(e.matches(0x4ac0_0000) && e.matches(0x4f00_0000), "{e:?}");
    assert!(!e.matches(0x4780_0000) && !e.matches(0x7fff_ffff), "{e:?}");
    assert_eq!(fired, vec![D]);
    let (_, e, _) = both(&strs(&skipped_over("cvt.f32.bf16", "mov.b16 %h0, 0xbf80;")), [0; 4], D);
    assert_eq!((e.bits as u32, e.is_exact()), (0x4e81_0000, true), "{e:?}");
}
