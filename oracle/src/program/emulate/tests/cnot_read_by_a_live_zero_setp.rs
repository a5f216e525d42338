//! Tests of 3501-N3 widened to a `cnot` read by a live `setp` of it against 0 after seed 4701's
//! trace (helper k2, session 47; `emulate/cnot_read_by_a_live_zero_setp.rs`): 024297c0
//! (corpus/findings/fuzz-h200-4701/trace/T18u1.md; variants trace/024297c0/ and
//! trace/024297c0/s47/). Each compiled wrong variant is emulated; the right ones are left alone.

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// A loaded 0: the `cnot` is 1, the bf16 bits 0x0001 (2^-133) the spec converts.
const ZERO: [u32; 4] = [0; 4];

/// 024297c0's `reduced.ptx` with `test` in place of its `setp.le.s16`, `first` in place of its
/// `cnot` and `cvt` for its `cvt.f64.bf16`: the `selp` in word 0, the f64's high word in word 1.
fn reduced(first: &'static str, test: &'static str, cvt: &'static str, high: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u16 %h3, [%in];",
        first,
        test,
        cvt,
        "mov.b16 %h12, 17875;",
        "mov.b16 %h14, 0;",
        "selp.b16 %h13, %h12, %h14, %p0;",
        "st.global.u16 [%out], %h13;",
        high,
    ]
}

const CNOT: &str = "cnot.b16 %h0, %h3;";
const F64: &str = "cvt.f64.bf16 %d2, %h0;";
const HIGH: &str = "mov.b64 {%r4, %r5}, %d2; st.global.b32 [%out+4], %r5;";

/// `reduced` split into its statements (the `HIGH` pair).
fn lines(v: Vec<&'static str>) -> Vec<&'static str> {
    v.into_iter().flat_map(|l| l.split_inclusive(';').map(str::trim)).collect()
}

/// The campaign case: emulating 3501-N3 alone gives the stored -O3 and JIT word 1 of every listed
/// thread (0x000000f0: f64 1.0's high byte 0x3ff0's low byte), where the spec has 0x000000a0.
#[test]
fn n3_024297c0_the_campaign_case_gives_the_stored_words() {
    let (p, i) = super::stored_case("4701", "024297c062ff8a1f");
    let words = super::words_emulated_alone(&p, &i, D);
    for t in 0..8 {
        let (_, _, spec, emulated) = words.iter().find(|(u, w, _, _)| (*u, *w) == (t, 1)).unwrap();
        assert_eq!((spec.bits, emulated.bits), (0xa0, 0xf0), "thread {t}");
    }
}

/// Wrong, 13.0.88 and 13.5 -O3 (`ISETP.EQ.U32 P0; FSEL R7, RZ, 1.875, !P0`: f64 1.0, high word
/// 0x3ff00000, where §9.7.9.21 gives 0x37a00000): `reduced` (`setp.le.s16`), `v3` (`setp.eq.u16`),
/// `v4` (`setp.gt.s16`: the selp then takes 17875), `v6` (`cvt.f32.f16`: `FSEL R7, RZ, 1, !P0`),
/// s47's `w1` (`setp.ne.s16`). (s47's `w2`, `setp.ge.s16 p, 0, h0`, is wrong alike; the program
/// text takes no immediate first source of glue.)
#[test]
fn n3_024297c0_a_live_zero_setp_of_the_cnot_converts_the_number() {
    let case = |test| lines(reduced(CNOT, test, F64, HIGH));
    exact_case(&case("setp.le.s16 %p0, %h0, 0;"), ZERO, D, 0x37a0_0000 << 32, 0x3ff0_0000 << 32);
    exact_case(&case("setp.eq.u16 %p0, %h0, 0;"), ZERO, D, 0x37a0_0000 << 32, 0x3ff0_0000 << 32);
    exact_case(
        &case("setp.gt.s16 %p0, %h0, 0;"),
        ZERO,
        D,
        0x37a0_0000_u64 << 32 | 17875,
        0x3ff0_0000_u64 << 32 | 17875,
    );
    exact_case(
        &case("setp.ne.s16 %p0, %h0, 0;"),
        ZERO,
        D,
        0x37a0_0000_u64 << 32 | 17875,
        0x3ff0_0000_u64 << 32 | 17875,
    );
    let f32 = lines(reduced(CNOT, "setp.le.s16 %p0, %h0, 0;", "cvt.f32.f16 %r5, %h0;", "st.global.b32 [%out+4], %r5;"));
    exact_case(&f32, ZERO, D, 0x3380_0000 << 32, 0x3f80_0000 << 32);
}

/// Right (`F2F.F64.BF16` of the bits), 13.0.88 and 13.5 -O3: `v1` (no setp), `v2` (the selp not
/// stored), `v5` (`setp.ne.s16 …, 1`), `v7` (`selp.b16 c, 1, 0` for the cnot), s47's `r1`
/// (`setp.lt.u16 h0, 0`: false for 0 and 1).
#[test]
fn n3_024297c0_right_neighbours_are_left_alone() {
    untouched(&lines(reduced(CNOT, "mov.pred %p0, 0;", F64, HIGH)), ZERO, D);
    let mut dead = lines(reduced(CNOT, "setp.le.s16 %p0, %h0, 0;", F64, HIGH));
    dead.retain(|l| !l.starts_with("st.global.u16"));
    untouched(&dead, ZERO, D);
    untouched(&lines(reduced(CNOT, "setp.ne.s16 %p0, %h0, 1;", F64, HIGH)), ZERO, D);
    let selp = "mov.b16 %h5, 1; mov.b16 %h6, 0; setp.eq.u16 %p1, %h3, 0; selp.b16 %h0, %h5, %h6, %p1;";
    untouched(&lines(reduced(selp, "setp.le.s16 %p0, %h0, 0;", F64, HIGH)), ZERO, D);
    untouched(&lines(reduced(CNOT, "setp.lt.u16 %p0, %h0, 0;", F64, HIGH)), ZERO, D);
}

/// Seed 5501's 0078d11a (helper t1, session 56; corpus/findings/fuzz-h200-5501/trace/T56A.md):
/// checks that emulating [`D`] on variant `name` (trace/0078d11a/s56/, inputs all 0) turns every
/// word from `spec` into `bug`.
fn wrong_0078(name: &str, spec: u64, bug: u64) {
    let (p, i) = super::variant_of("5501", "0078d11a", &format!("s56/{name}"), &[]);
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits as u64, e.bits as u64), (spec, bug), "{name}: thread {t} word {w}");
    }
}

/// Checks that emulating [`D`] on `(p, i)` leaves every word as the spec gives it, firing nothing.
fn spec_words(what: &str, (p, i): (Program, Inputs)) {
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{what}");
}

/// 0078d11a, the campaign case: `cnot.b64 d1` tested by a live `setp.le.u64 p0, d1, 0` (a guard),
/// `cvt.bf16.bf16` of ANOTHER cnot, a `cnot.b16`: the stored -O3 and JIT words 0x3f803f80 (bf16
/// 1.0 twice) of every listed thread, where the spec keeps the bits (0x00010001).
#[test]
fn n3_0078d11a_the_campaign_case_gives_the_stored_words() {
    let (p, i) = super::stored_case("5501", "0078d11a1ff0f74a");
    let words = super::words_emulated_alone(&p, &i, D);
    for t in 0..8 {
        for w in 0..2 {
            let (_, _, spec, emulated) = words.iter().find(|(u, v, _, _)| (*u, *v) == (t, w)).unwrap();
            assert_eq!((spec.bits, emulated.bits), (0x0001_0001, 0x3f80_3f80), "thread {t} word {w}");
        }
    }
}

/// Wrong, 13.0.88 and 13.5 -O3 (`SEL …, 0x3f80, !P1`; `w13` `SEL …, 0x3c00`): the tested cnot
/// read by a `selp` (`w3`), `setp.ne.u64` (`w7`: the selp's 7 added), a tested `cnot.b16` of
/// another value (`w9`), `cvt.f32.f16; cvt.rn.f16.f32` (`w13`), `cvt.rn.bf16.f16` (`w14`: the f16
/// subnormal 2^-24 is bf16 0x3380 by the spec).
#[test]
fn n3_0078d11a_a_zero_setp_of_another_cnot_converts_the_number() {
    wrong_0078("w3_setp_selp", 0x0001_0001, 0x3f80_3f80);
    wrong_0078("w7_setp_ne", 0x0001_0008, 0x3f80_3f87);
    wrong_0078("w9_other_cnot_b16", 0x0001_0001, 0x3f80_3f80);
    wrong_0078("w13_two_cvts", 0x0001_0001, 0x3c00_3c00);
    wrong_0078("w14_cvt_bf16_f16", 0x3380_3380, 0x3f80_3f80);
}

/// Right (`HFMA2.BF16_V2` of the bits), 13.0.88 and 13.5 -O3: no setp (`w1`, `w2`), `not.b64`
/// tested (`w4`), the loaded word tested (`w5`), the setp dead (`w6`), a compare with 1 (`w8`), a
/// tested `cnot.b32` (`w10`), `setp.lt.u64 d1, 0` and `setp.gt.u64 d1, 5` (`w11`, `w12`).
#[test]
fn n3_0078d11a_right_neighbours_are_left_alone() {
    for name in [
        "w1_no_setp",
        "w2_cvt_alone",
        "w4_not_b64",
        "w5_setp_loaded_d0",
        "w6_setp_cnot_dead",
        "w8_setp_eq_one",
        "w10_other_cnot_b32",
        "w11_setp_lt_u64_never",
        "w12_setp_gt_5",
    ] {
        spec_words(name, super::variant_of("5501", "0078d11a", &format!("s56/{name}"), &[]));
    }
}
