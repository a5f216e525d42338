//! Tests of A where the skipped float `cvt`'s register holds a value with no recorded producer
//! (seed 5103's 5a40f4d8, session 51; corpus/findings/fuzz-h200-5103/trace/T22c.md, variants in
//! trace/5a40f4d8/s51/; `emulate/float_cvt_skipped_over_an_unrecorded_value.rs`).

use super::*;

const D: Deviation = Deviation::NarrowStoreOfFloatCvt;

/// The stored case: byte 7 (word 1's high byte) is `F2I.U8.F16.TRUNC.NTZ` of tid's bits, 0,
/// where the spec stores tid: with A emulated word 1 is any value with that byte, the spec's and
/// the GPU's among them; word 0 stays the spec's.
#[test]
fn a_5a40f4d8_stored_case_is_reached() {
    let (p, i) = super::stored_case("5103", "5a40f4d8a0f6487a");
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, s.is_exact()), ((t as u128) << 24, true), "thread {t}");
            assert!(e.matches(s.bits) && e.matches(0), "thread {t}: {e:?}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

const SKIPPED: [&str; 3] = ["mov.b32 {%h0, %h1}, %tix;", "setp.lt.u32 %p0, %tix, 0x38;", "@!%p0 cvt.f16.f16 %h0, %h1;"];

/// Right (the spec stands): a guarded integer cvt (s51/v3), a write after the float cvt (v6).
#[test]
fn a_5a40f4d8_an_integer_cvt_or_a_later_write_is_left_alone() {
    let integer = ["mov.b32 {%h0, %h1}, %tix;", "setp.lt.u32 %p0, %tix, 0x38;", "@!%p0 cvt.u16.u8 %h0, %h1;"];
    untouched(&[&integer[..], &["st.global.u8 [%out], %h0;"]].concat(), [0; 4], D);
    let rewritten = [&SKIPPED[..], &["add.u16 %h0, %h0, 1;", "st.global.u8 [%out], %h0;"]].concat();
    untouched(&rewritten, [0; 4], D);
}

/// Wrong: the stored core in one thread (tid 0: the byte stays 0 either way, the store is any
/// byte as A's).
#[test]
fn a_5a40f4d8_the_core_fires() {
    let (s, e, fired) = both(&[&SKIPPED[..], &["st.global.u8 [%out], %h0;"]].concat(), [0; 4], D);
    assert_eq!((s.bits, s.is_exact()), (0, true));
    assert!(e.matches(0) && e.matches(0xff));
    assert_eq!(fired, vec![D]);
}
