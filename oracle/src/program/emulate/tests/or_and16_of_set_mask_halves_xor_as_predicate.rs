//! Tests of 7ec10586's mechanism through an `or.b16`/`and.b16` reader of the halves' xor (seed
//! 5001's d3cdbd0c, session 50; corpus/findings/fuzz-h200-5001/trace/T21b.md, variants in
//! trace/d3cdbd0c/s50/).

use super::*;

const D: Deviation = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;

/// The stored case (39 instructions, unminimized): word 0 (`{h7, h0}` bytes, h14 above) of the
/// threads whose set is false: the GPU's 0xffff7eff (h7 = 0xff through the or, h14 = 0xffff through
/// the xor form) is admitted beside the spec's 0x00007e00.
#[test]
fn d3cdbd0c_stored_case_admits_the_stored_o3_word() {
    let (p, i) = super::stored_case("5001", "d3cdbd0c6ce4c695");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert!(!fired.is_empty() && fired.iter().all(|&f| f == D), "{fired:?}");
    for t in [0, 2, 3, 5, 6, 8, 9, 11] {
        let (s, e) = (spec[t].field(0, 32), out[t].field(0, 32));
        assert_eq!((s.bits, s.is_exact()), (0x0000_7e00, true), "thread {t}");
        assert!(e.matches(0xffff_7eff), "thread {t}: {e}");
        assert!(e.matches(s.bits), "thread {t}: {e}");
    }
}

/// The case's set (d2 = in[0..1] ≥ d3 = in[2..3], signed) unpacked into h1..h4, then `tail`.
fn with(tail: &[&'static str]) -> Vec<&'static str> {
    let mut l = vec![
        "ld.global.u64 %d2, [%in];",
        "ld.global.u64 %d3, [%in+8];",
        "set.ge.s32.s64 %r0, %d2, %d3;",
        "mov.b64 %d4, {%r0, %r0};",
        "mov.b64 {%h1, %h2, %h3, %h4}, %d4;",
        "xor.b16 %h5, %h1, %h2;",
    ];
    l.extend_from_slice(tail);
    l
}

/// Thread 0's word 0 by the spec and emulating 7ec10586's mechanism: (spec, emulated, fired).
fn word0(lines: &[&str], words: [u32; 4]) -> (Expected, Expected, Vec<Deviation>) {
    let (s, e, fired) = both(lines, words, D);
    (s.field(0, 32), e.field(0, 32), fired)
}

const FALSE: [u32; 4] = [0, 0, 1, 0];
const TRUE: [u32; 4] = [1, 0, 0, 0];

/// Wrong (13.0.88 and 13.5 -O3): v1 (or, then xor, a half stored: h7 = ~h4 beside h4), v2 (the or
/// stored: 0xffff beside h3), v4 (and, then xor: ~h4 beside h4), v5 (or with a loaded x: 0xffff beside x).
#[test]
fn d3cdbd0c_or_and_of_the_halves_xor_read_it_as_0_or_0xffff() {
    let st_h1 = "st.global.u8 [%out+3], %h1;";
    let or_xor = with(&["or.b16 %h6, %h5, %h3;", "xor.b16 %h7, %h6, %h4;", "st.global.u8 [%out], %h7;", st_h1]);
    let and_xor = with(&["and.b16 %h6, %h5, %h3;", "xor.b16 %h7, %h6, %h4;", "st.global.u8 [%out], %h7;", st_h1]);
    let or_st = with(&["or.b16 %h6, %h5, %h3;", "st.global.u16 [%out], %h6;", st_h1]);
    let or_x = with(&["ld.global.u16 %h9, [%in+12];", "or.b16 %h6, %h5, %h9;", "st.global.u16 [%out], %h6;", st_h1]);
    for (lines, words, spec, other) in [
        (&or_xor, FALSE, 0x0000_0000, 0x0000_00ff),
        (&or_xor, TRUE, 0xff00_0000, 0xff00_0000),
        (&and_xor, TRUE, 0xff00_00ff, 0xff00_0000),
        (&or_st, FALSE, 0x0000_0000, 0x0000_ffff),
        (&or_x, [0, 0, 1, 0x1234], 0x0000_1234, 0x0000_ffff),
    ] {
        let (s, e, fired) = word0(lines, words);
        assert_eq!((s.bits, s.is_exact()), (spec, true), "{lines:?} on {words:?}");
        assert!(e.matches(spec) && e.matches(other), "{e} of {lines:?} on {words:?}");
        assert_eq!(fired, vec![D], "{lines:?}");
    }
}

/// Right: v3 (the or and its xor the only readers of the set: folded, `STG RZ`), v6 (an or of a
/// half, no halves xor).
#[test]
fn d3cdbd0c_leaves_an_unread_set_and_plain_halves_alone() {
    let v3 = with(&["or.b16 %h6, %h5, %h3;", "xor.b16 %h7, %h6, %h4;", "st.global.u8 [%out], %h7;"]);
    let v6 = [
        "ld.global.u64 %d2, [%in];",
        "ld.global.u64 %d3, [%in+8];",
        "set.ge.s32.s64 %r0, %d2, %d3;",
        "mov.b64 %d4, {%r0, %r0};",
        "mov.b64 {%h1, %h2, %h3, %h4}, %d4;",
        "or.b16 %h6, %h1, %h3;",
        "xor.b16 %h7, %h6, %h4;",
        "st.global.u8 [%out], %h7;",
        "st.global.u8 [%out+3], %h1;",
    ];
    for words in [FALSE, TRUE] {
        untouched(&v3, words, D);
        untouched(&v6, words, D);
    }
}

/// Seed 6101's 014173b6 (corpus/findings/fuzz-h200-6101/trace/T61B.md): the set's halves `or`-ed,
/// then xor-ed and added (h18), beside the entry's xor chain (h8). Word 2 of the threads whose
/// squared h0 leaves a stale upper half: the GPU's 0xffff53ff (h8 = 0xff, h18 = 0xffff) admitted
/// beside the spec's 0x00005300.
#[test]
fn or_halves_014173b6_stored_case_admits_the_stored_o3_word() {
    let (p, i) = super::stored_case("6101", "014173b6b59a306c");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert!(!fired.is_empty() && fired.iter().all(|&f| f == D), "{fired:?}");
    for t in [1, 6, 9, 10, 11, 12, 19, 21] {
        let (s, e) = (spec[t].field(64, 32), out[t].field(64, 32));
        assert_eq!((s.bits, s.is_exact()), (0x0000_5300, true), "thread {t}");
        assert!(e.matches(0xffff_53ff), "thread {t}: {e}");
        assert!(e.matches(s.bits), "thread {t}: {e}");
    }
}

/// h18 (word 2's high half) of 014173b6's variant `name` (trace/014173b6/s61/), thread 0, with
/// r0 (input word 1) set to `r0` (1: the set's true mask): (spec, emulated, fired).
fn or_halves_h18(name: &str, r0: u32) -> (Expected, Expected, Vec<Deviation>) {
    let (p, i) = super::variant_of("6101", "014173b6", &format!("s61/{name}"), &[(1, r0)]);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    (spec[0].field(80, 16), out[0].field(80, 16), fired)
}

/// Wrong form (13.0.88 = 13.5 -O3: `LOP3.LUT P0, RZ, mask, R, RZ, 0xfc` over a stale half, then a
/// select): the or of the halves read as 0xffff for the false mask by a later xor (reduced, v7, v11
/// x first, v10 `set.s32`, v12 a half stored as the other reader), or (v3), xor of a loaded x (v8).
#[test]
fn or_halves_read_as_0xffff_for_the_false_mask() {
    for name in [
        "reduced",
        "v7_or_then_xor_stored",
        "v11_xor_x_first",
        "v10_set_s32",
        "v12_other_reader_half_store",
        "v3_or_then_or",
        "v8_or_then_xor_loaded_x",
    ] {
        let (s, e, fired) = or_halves_h18(name, 0x16d9_988c);
        assert!(s.is_exact(), "{name}: {s}");
        let other = if name.starts_with("v8") { !s.bits & 0xffff } else { 0xffff };
        assert_ne!(other, s.bits, "{name}");
        assert!(e.matches(s.bits) && e.matches(other), "{name}: {e} (spec {s})");
        assert_eq!(fired.first(), Some(&D), "{name}");
    }
}

/// Right (13.0.88 = 13.5 -O3), or out of scope: the true mask (the or is 0xffff over any upper half),
/// no other reader (v1: folded), `and.b16` of the halves (v2), the or stored or added (v5, v6: no
/// predicate), the same half twice (v9).
#[test]
fn or_halves_right_forms_are_left_alone() {
    let (s, e, fired) = or_halves_h18("reduced", 1);
    assert_eq!((s.clone(), fired), (e, Vec::new()), "true mask");
    for name in ["v1_no_other_reader", "v2_and_halves", "v5_or_stored", "v6_or_then_add", "v9_or_same_half"] {
        let (s, e, fired) = or_halves_h18(name, 0x16d9_988c);
        assert_eq!((s, fired), (e, Vec::new()), "{name}");
    }
}
