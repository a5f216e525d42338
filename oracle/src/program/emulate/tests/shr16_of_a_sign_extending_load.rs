//! Tests of G at a shift by 16 of a sign-extending load of either sign (seed 4602's af46c5e9,
//! session 46; corpus/findings/fuzz-h200-4602/trace/T17t3.md, variants in trace/af46c5e9/ and
//! its s46/).

use super::*;

/// `load` of bf16 0xc7b9 (a negative source) into %h0, `glue` (the shift and any glue after it,
/// the last writing %h1), then `reader` of %h1 and a store.
fn chain(load: &str, glue: &[&str], reader: &str) -> Vec<String> {
    let mut lines = vec![format!("{load} %h0, [%in];")];
    lines.extend(glue.iter().map(|g| g.to_string()));
    lines.push(reader.to_string());
    let store = if reader.contains("%r2") { "st.global.u32 [%out], %r2;" } else { "st.global.u16 [%out], %h5;" };
    lines.push(store.to_string());
    lines
}

const SHIFT: &str = "shr.s16 %h1, %h0, 0x10;";
const NEGATIVE: [u32; 4] = [0xc8f9_c7b9, 0, 0, 0];

/// Emulating G turns the spec's `spec` into a set that admits `bug` and fires; without G the
/// program is untouched.
fn admits(lines: &[String], spec: u32, bug: u32) {
    let d = Deviation::ShrS16By16ReadsSource;
    let (s, e, fired) = both(&strs(lines), NEGATIVE, d);
    assert!(s.matches(spec as u128) && !s.matches(bug as u128), "spec of {lines:?}: {s:?}");
    assert!(e.matches(bug as u128) && e.matches(spec as u128), "G of {lines:?}: {e:?}");
    assert_eq!(fired, vec![d]);
    for other in Deviation::ALL.into_iter().filter(|&o| o != d) {
        untouched(&strs(lines), NEGATIVE, other);
    }
}

/// af46c5e9's kernel (`LDG.E.S16 R2; F2F.F16.BF16 R7, R2`, 13.0.88 -O3): bf16 0xc7b9 converts
/// to f16 −inf 0xfc00 where the spec's shift gives 0xffff (a NaN → an f16 NaN). So do
/// `ld.global.nc.s16` (s46/v6), `ld.s8` (s46/v8: the byte 0xb9 sign-extended, bf16 0xffb9 a
/// NaN → the canonical 0x7fff of a NaN's conversion, any NaN to the spec), an `or.b16 0`
/// between (s46/v10) and `cvt.rzi.f16.f16` (v5, `FRND.F16.TRUNC R7, R2`: f16 0xc7b9,
/// −7.72, truncated to −7.0, 0xc700).
#[test]
fn g_a_half_cvt_of_a_shifted_negative_signed_load_converts_the_load() {
    let cvt = "cvt.f16.bf16 %h5, %h1;";
    admits(&chain("ld.global.s16", &[SHIFT], cvt), 0x7fff, 0xfc00);
    admits(&chain("ld.global.nc.s16", &[SHIFT], cvt), 0x7fff, 0xfc00);
    admits(&chain("ld.global.s16", &["shr.s16 %h2, %h0, 0x10;", "or.b16 %h1, %h2, 0;"], cvt), 0x7fff, 0xfc00);
    admits(&chain("ld.global.s16", &[SHIFT], "cvt.rzi.f16.f16 %h5, %h1;"), 0x7fff, 0xc700);
    // The byte 0x80 sign-extended: bf16 0xff80 (−inf) → f16 −inf.
    let d = Deviation::ShrS16By16ReadsSource;
    let (s, e, fired) = both(&strs(&chain("ld.global.s8", &[SHIFT], cvt)), [0x80, 0, 0, 0], d);
    assert!(s.matches(0x7fff) && !s.matches(0xfc00) && e.matches(0xfc00) && e.matches(0x7fff), "{s:?} {e:?}");
    assert_eq!(fired, vec![d]);
}

/// Right (`PRMT 0x9910; F2F … .H1`, the extension computed): `ld.u16` (v1), `ld.b16`
/// (s46/v11), the half of an `ld.s32` unpack (s46/v9), an `or.b16 0x8000` before the shift
/// (s46/v12), a shift by 15 (v2), and a guarded load.
#[test]
fn g_leaves_a_negative_source_alone_unless_a_signed_load_made_it() {
    let d = Deviation::ShrS16By16ReadsSource;
    let cvt = "cvt.f16.bf16 %h5, %h1;";
    untouched(&strs(&chain("ld.global.u16", &[SHIFT], cvt)), NEGATIVE, d);
    untouched(&strs(&chain("ld.global.b16", &[SHIFT], cvt)), NEGATIVE, d);
    let unpack = ["ld.global.s32 %r0, [%in];", "mov.b32 {%h0, %h2}, %r0;", SHIFT, cvt, "st.global.u16 [%out], %h5;"];
    untouched(&unpack, NEGATIVE, d);
    untouched(&strs(&chain("ld.global.s16", &["or.b16 %h0, %h0, 0x8000;", SHIFT], cvt)), NEGATIVE, d);
    untouched(&strs(&chain("ld.global.s16", &["shr.s16 %h1, %h0, 15;"], cvt)), NEGATIVE, d);
    let guarded = [
        "ld.global.u32 %r0, [%in+4];",
        "setp.eq.u32 %p0, %r0, 0;",
        "@%p0 ld.global.s16 %h0, [%in];",
        SHIFT,
        cvt,
        "st.global.u16 [%out], %h5;",
    ];
    untouched(&guarded, NEGATIVE, d);
}

/// af46c5e9's campaign case (32 threads, 4 statements): emulating G alone admits the stored
/// ptxas -O3 word 1, 0xfc000000 (f16 −inf in bits [31:16]), in every thread, beside the spec's
/// NaN; the other words stay the spec's.
#[test]
fn g_af46c5e9_the_campaign_case_admits_the_stored_o3_words() {
    let (p, i) = super::stored_case("4602", "af46c5e9b3c2d8c2");
    let d = Deviation::ShrS16By16ReadsSource;
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!(fired, vec![d]);
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        for w in 0..p.outputs {
            let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
            if w == 1 {
                assert!(!s.matches(0xfc00_0000) && e.matches(0xfc00_0000), "thread {t}: {e:?}");
                assert!(e.matches(0x7fff_0000), "thread {t}: the spec's NaN stays admitted");
            } else {
                assert_eq!(e, s, "thread {t} word {w}");
            }
        }
    }
}
