//! Tests of 3602-N4 at a `mul.wide.u16`/`mad.wide.u16` reader (seed 4601's 664e95be, session 47;
//! corpus/findings/fuzz-h200-4601/trace/T17t1.md, variants in trace/664e95be/ and its s47/).

use super::*;

/// The byte of word 0 loaded and sent through 3602-N4's round trip into %h2.
const ROUND_TRIP: [&str; 3] = ["ld.global.u8 %h1, [%in];", "cvt.u64.s8 %d0, %h1;", "cvt.s8.u64 %h2, %d0;"];

/// `ROUND_TRIP`, then `tail`.
fn after_round_trip(tail: &[&'static str]) -> Vec<&'static str> {
    ROUND_TRIP.iter().chain(tail).copied().collect()
}

/// 664e95be's reader on a loaded byte (`v2_loaded_byte`, 13.0.88 -O3 `PRMT 0x8880; IMAD R0, R0,
/// R0, RZ`): (−128)² = 0x4000 where the 16-bit product is 0xff004000; the other factor an
/// `ld.u16` (s47/s1, `IMAD R7, R6, R9, RZ`) or an immediate (s47/s3), `mad.wide.u16` with its
/// 32-bit addend (s47/s2, `IMAD R7, R9, R9, R6`), and a folded-constant round trip (s47/s4).
#[test]
fn n4_3602_wide_u16_reader_multiplies_the_32_bit_extension() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let words = [0x80, 0x0003_0000, 0x10, 0];
    let both_factors = after_round_trip(&["mul.wide.u16 %r1, %h2, %h2;", "st.global.b32 [%out], %r1;"]);
    exact_case(&both_factors, words, d, 0xff00_4000, 0x4000);
    let loaded =
        after_round_trip(&["ld.global.u16 %h3, [%in+6];", "mul.wide.u16 %r1, %h2, %h3;", "st.global.b32 [%out], %r1;"]);
    exact_case(&loaded, words, d, 0x2_fe80, 0xffff_fe80);
    let immediate = after_round_trip(&["mul.wide.u16 %r1, %h2, 3;", "st.global.b32 [%out], %r1;"]);
    exact_case(&immediate, words, d, 0x2_fe80, 0xffff_fe80);
    let mad = after_round_trip(&[
        "ld.global.u32 %r2, [%in+8];",
        "mad.wide.u16 %r1, %h2, %h2, %r2;",
        "st.global.b32 [%out], %r1;",
    ]);
    exact_case(&mad, words, d, 0xff00_4010, 0x4010);
    let folded = [
        "ld.global.u8 %h1, [%in];",
        "mov.b64 %d0, 0xffffffffffff8b00;",
        "shr.u64 %d0, %d0, 8;",
        "cvt.s8.u64 %h2, %d0;",
        "mul.wide.u16 %r1, %h2, %h1;",
        "st.global.b32 [%out], %r1;",
    ];
    exact_case(&folded, [2, 0, 0, 0], d, 0x1_ff16, 0xffff_ff16);
}

/// Right: `mul.wide.s16` (s47/s5, `PRMT 0x9910` of the other factor: the 16-bit sign extension is
/// the spec's), a round trip through `.s32` (s47/s6, `LOP3 0xffff`), an `ld.s8` factor without a
/// round trip (`v3_wide_no_roundtrip_right`).
#[test]
fn n4_3602_leaves_signed_and_masked_wide_readers_alone() {
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let words = [0x80, 0x0003_0000, 0, 0];
    let signed =
        after_round_trip(&["ld.global.u16 %h3, [%in+6];", "mul.wide.s16 %r1, %h2, %h3;", "st.global.b32 [%out], %r1;"]);
    untouched(&signed, words, d);
    let via_s32 = [
        "ld.global.u8 %h1, [%in];",
        "cvt.s32.s8 %r3, %h1;",
        "cvt.s8.s32 %h2, %r3;",
        "ld.global.u16 %h3, [%in+6];",
        "mul.wide.u16 %r1, %h2, %h3;",
        "st.global.b32 [%out], %r1;",
    ];
    untouched(&via_s32, words, d);
    let no_round_trip = ["ld.global.s8 %h2, [%in];", "mul.wide.u16 %r1, %h2, %h2;", "st.global.b32 [%out], %r1;"];
    untouched(&no_round_trip, words, d);
}

/// 664e95be's campaign case: emulating 3602-N4 alone gives the stored ptxas -O3/JIT word 2 (the
/// high half of (−128)², 0) in every thread, and the spec's words elsewhere.
#[test]
fn n4_3602_664e95be_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "664e95be82ef91ae");
    let d = Deviation::S8RoundTripThrough64SignExtends32;
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!(fired, vec![d]);
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        assert_eq!((s.field(64, 32).bits, s.field(64, 32).is_exact()), (0x0000_ff00, true), "thread {t} spec");
        for w in 0..p.outputs {
            let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
            let want = if w == 2 { 0 } else { s.bits };
            assert_eq!((e.bits, e.is_exact()), (want, true), "thread {t} word {w}");
        }
    }
}
