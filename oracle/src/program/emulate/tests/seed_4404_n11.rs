//! N-11 over an old value a `cvt.f32.f64` of a NaN wrote (session 44; seed 4403's d081b377,
//! corpus/findings/fuzz-h200-4403/trace/T15t4.md, trace/d081b377/): the GPU narrows keeping the
//! sign and the payload's top bits, so the skipped `set.<cmp>.f32` converts that word, not the
//! canonical 0x7fffffff (`emulate/skipped.rs`, `f64_narrowed_nan`).

use super::*;

/// d081b377's `reduced.ptx` with the f64 word `d` and the set's guard `guard`.
fn d081b377(d: &str, guard: &str) -> Vec<String> {
    vec![
        format!("mov.b64 %d0, {d};"),
        "cvt.rn.f32.f64 %r0, %d0;".to_string(),
        format!("setp.{guard}.u32 %p0, %tix, %tix;"),
        "@%p0 set.ge.f32.s32 %r0, %r0, 0;".to_string(),
        "st.global.b32 [%out+4], %r0;".to_string(),
    ]
}

/// d081b377 (-O0, -O3 and the JIT on the H200: 0x3f800000): f64 0xffffffffffffffff narrows to
/// 0xffffffff and the skipped set stores |−1| = 1.0, where the canonical-NaN rule gave 2^31
/// (0x4f000000). A positive NaN with a low payload (v1's kind, 0x7ff0000000000001) narrows to
/// 0x7fc00000: 2^31 − 2^22 … converted; a guard that holds gives the spec's 1.0 or 0.0.
#[test]
fn n11_a_skipped_set_over_an_f64_narrowed_nan_converts_its_word() {
    let d = Deviation::SkippedSetSignExtends;
    let (s, e, fired) = both(&strs(&d081b377("0xffffffffffffffff", "ne")), [0; 4], d);
    assert!(!s.is_exact() && s.matches(0xffff_ffff << 32), "the spec's is any f32 NaN: {s:?}");
    assert_eq!((e.bits >> 32, e.is_exact()), (0x3f80_0000, true), "{e:?}");
    assert_eq!(fired, vec![d]);
    // 0x7fc00000 as s32 is 2143289344 → f32 0x4eff8000.
    let (_, e, _) = both(&strs(&d081b377("0x7ff0000000000001", "ne")), [0; 4], d);
    assert_eq!(e.bits >> 32, 0x4eff_8000, "{e:?}");
    untouched(&strs(&d081b377("0xffffffffffffffff", "eq")), [0; 4], d);
}
