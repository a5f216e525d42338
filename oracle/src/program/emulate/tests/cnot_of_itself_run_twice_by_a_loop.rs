//! Tests of 3501-N3's chain of `cnot`s formed by one loop-carried `cnot x, x` run twice or more
//! (seed 4603's e55c2d82, session 47; corpus/findings/fuzz-h200-4603/trace/T17t5.md, variants
//! in trace/e55c2d82/; `emulate/cnot_of_itself_run_twice_by_a_loop.rs`).

use super::*;

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// e55c2d82's `reduced.ptx` with `first` writing %h0 and `trips` trips of `step` on it, then
/// `cvt.rni.bf16.bf16` of %h0 stored (448.0f in word 1: the e4m3x2 pair 0x7e7e).
fn looped(first: &'static str, step: &'static str, trips: &'static str) -> Vec<String> {
    vec![
        "ld.global.s32 %r0, [%in+4];".into(),
        first.into(),
        format!("mov.u32 %r6, {trips};"),
        "$L0:".into(),
        step.into(),
        "sub.u32 %r6, %r6, 0x1;".into(),
        "setp.ne.u32 %p1, %r6, 0x0;".into(),
        "@%p1 bra $L0;".into(),
        "cvt.rni.bf16.bf16 %h10, %h0;".into(),
        "st.global.b16 [%out], %h10;".into(),
    ]
}

const PAIR: &str = "cvt.rn.satfinite.e4m3x2.f32 %h0, %r0, %r0;";
const CNOT: &str = "cnot.b16 %h0, %h0;";
const WORDS: [u32; 4] = [0, 0x43e0_0000, 0, 0];

/// e55c2d82's campaign case: emulating 3501-N3 alone admits the stored -O3 word 3 of every
/// listed thread (byte 2 = 0x80, bf16 1.0's high byte: `SEL R11, RZ, 0x3f80, P1`).
#[test]
fn n3_e55c2d82_the_campaign_case_admits_the_stored_o3_words() {
    let (p, i) = super::stored_case("4603", "e55c2d8267cf41b9");
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    let stored =
        [0xef80_ff00, 0xee80_2600, 0x9380_ff00, 0x9080_2600, 0xca80_1300, 0xae80_8000, 0xf380_1300, 0x1380_8000];
    for (t, want) in stored.into_iter().enumerate() {
        assert!(out[t].field(96, 32).matches(want), "thread {t}");
    }
}

/// Wrong (13.0.88 -O3 `SEL R7, RZ, 0x3f80, P0`): two trips (`reduced`), three
/// (`v3_loop_three_trips`: cnot³ = 0 of the pair, converted as 0 either way), a loaded half
/// (`v5_loaded_half`).
#[test]
fn n3_e55c2d82_a_cnot_of_itself_run_twice_converts_as_the_number() {
    exact_case(&strs(&looped(PAIR, CNOT, "2")), WORDS, D, 0, 0x3f80);
    let (s, e, _) = both(&strs(&looped(PAIR, CNOT, "3")), WORDS, D);
    assert_eq!((s.bits, e.bits), (0, 0));
    exact_case(&strs(&looped("ld.global.u16 %h0, [%in+4];", CNOT, "2")), [0, 0x0000_0005, 0, 0], D, 0, 0x3f80);
}

/// Right (the spec stands): one trip (`v2_loop_one_trip`), `not.b16` (`v4_loop_not`), and a
/// `cnot` of another register (no chain).
#[test]
fn n3_e55c2d82_one_cnot_or_a_not_is_left_alone() {
    untouched(&strs(&looped(PAIR, CNOT, "1")), WORDS, D);
    untouched(&strs(&looped(PAIR, "not.b16 %h0, %h0;", "2")), WORDS, D);
    let mut other = looped(PAIR, "cnot.b16 %h0, %h1;", "2");
    other.insert(2, "mov.b16 %h1, 5;".into());
    untouched(&strs(&other), WORDS, D);
}
