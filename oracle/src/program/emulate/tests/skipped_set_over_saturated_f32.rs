//! Tests of N-11 over a `cvt.sat.f32.f32` old value (seed 4602's c98ee331, session 47;
//! `emulate/skipped_set_over_saturated_f32.rs`; corpus/findings/fuzz-h200-4602/trace/T17t4.md,
//! variants in trace/c98ee331/ and its s47/): -O3 converts the low half signed (no `IABS`), -O0
//! its magnitude; both admitted.

use super::*;

const D: Deviation = Deviation::SkippedSetSignExtends;

/// c98ee331's input word 0x3d008316 (0.031375).
const WORDS: [u32; 4] = [0x3d00_8316, 0, 0, 0];

/// −31978.0, `I2F.S16` of 0x8316 (13.0.88 -O3, the stored word).
const SIGNED: u128 = 0xc6f9_d400;

/// 31978.0, `I2F.S16` of `IABS` of it (13.0.88 -O0, N-11's word).
const MAGNITUDE: u128 = 0x46f9_d400;

/// c98ee331's `reduced.ptx` with the old value written by `producer` and the skipped set `set`.
fn skipped(producer: &'static str, set: &'static str) -> [&'static str; 6] {
    let guard = "setp.lt.u16 %p1, %h0, 0x0;";
    ["ld.global.s32 %r0, [%in];", "mov.b16 %h0, 0;", producer, guard, set, "st.global.b32 [%out], %r1;"]
}

const SET_S16: &str = "@%p1 set.le.f32.s16 %r1, %h0, -25706;";

/// N-11's low word of `lines` on `words` (checked to fire).
fn low_word(lines: &[&str], words: [u32; 4]) -> Expected {
    let (_, e, fired) = both(lines, words, D);
    assert_eq!(fired, vec![D], "{lines:?}");
    e.field(0, 32)
}

/// c98ee331 (`FADD.SAT R6, RZ, R2; I2F.S16 R6, R6` at -O3, `IABS` at -O0), `cvt.ftz.sat`
/// (s47/y1), a `.u16` set source (s47/y4): both words, nothing else (`cvt.rni.sat`, s47/y2, is
/// 0 or 1.0: no low half to tell).
#[test]
fn n11_c98ee331_a_saturated_f32_old_value_converts_signed_or_as_its_magnitude() {
    for producer in ["cvt.sat.f32.f32 %r1, %r0;", "cvt.ftz.sat.f32.f32 %r1, %r0;"] {
        let e = low_word(&skipped(producer, SET_S16), WORDS);
        assert!(e.matches(SIGNED) && e.matches(MAGNITUDE) && !e.matches(0x3d00_8316), "{producer}: {e:?}");
    }
    let e = low_word(&skipped("cvt.sat.f32.f32 %r1, %r0;", "@%p1 set.le.f32.u16 %r1, %h0, 39830;"), WORDS);
    assert!(e.matches(SIGNED) && e.matches(MAGNITUDE), "{e:?}");
}

/// Right (the `IABS` kept at -O3, N-11's magnitude alone): no `.sat` (s47/y3 `cvt.rni.f32.f32`
/// of 32899.08: 32899.0 = 0x47008300, |sext16(0x8300)| = 32000.0; `v1_no_sat`'s `mov`), an
/// integer `and` clearing the sign (`v3_and_int`).
#[test]
fn n11_an_unsaturated_old_value_keeps_the_magnitude_alone() {
    let e = low_word(&skipped("cvt.rni.f32.f32 %r1, %r0;", SET_S16), [0x4700_8316, 0, 0, 0]);
    assert_eq!((e.bits, e.is_exact()), (0x46fa_0000, true));
    for producer in ["mov.b32 %r1, %r0;", "and.b32 %r1, %r0, 0x7fffffff;"] {
        let e = low_word(&skipped(producer, SET_S16), WORDS);
        assert_eq!((e.bits, e.is_exact()), (MAGNITUDE, true), "{producer}");
    }
}

/// c98ee331's campaign case: emulating N-11 alone admits the stored ptxas -O3/JIT words 0 and 1
/// (0xc6f9d400) in every thread, and the replayed -O0 word (0x46f9d400).
#[test]
fn n11_c98ee331_the_campaign_case_admits_the_stored_o3_words() {
    let (p, i) = super::stored_case("4602", "c98ee331acf3f4a5");
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    for (t, e) in out.iter().enumerate() {
        for w in 0..2 {
            let e = e.field(32 * w, 32);
            assert!(e.matches(SIGNED) && e.matches(MAGNITUDE), "thread {t} word {w}: {e:?}");
        }
    }
}
