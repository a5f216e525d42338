//! Tests of 3702-N2 through a second outer `xor` (seed 4801's 6a674eeb, T19v1.md; helper x4,
//! session 49; `lop3_chain_merged_into_two_outer_xors.rs`): `xor(xor(a OP lop3(a, a, a, L), x),
//! y)` is one LOP3 = y ^ x ^ (a OP L(a, x, y)); the neighbours whose second `xor` stays a LOP3 of
//! its own keep the one-xor merge's word.

use super::*;

use super::seed_4404_v1::{apply, lop3};

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// a (word 0), x (word 1), y (word 2).
const A: u32 = 0x4e83_55cb;
const X: u32 = 0x5098_6993;
const Y: u32 = 0x0f3c_5a66;
const WORDS: [u32; 4] = [A, X, Y, 0];

/// The chain `l = lop3(a, b, c, L); r = OP(a, l); s = xor(r, x); d = xor(s, y)` with the `lop3`'s
/// inputs `inputs`, stored (`d` word 0; `extra` after).
fn chain(inputs: &str, lut: u32, op: &str, extra: &[&str]) -> Vec<String> {
    let mut v = vec![
        "ld.global.u32 %r0, [%in];".to_string(),
        "ld.global.u32 %r4, [%in+4];".into(),
        "ld.global.u32 %r6, [%in+8];".into(),
        format!("lop3.b32 %r1, {inputs}, {lut:#x};"),
        format!("{op}.b32 %r3, %r0, %r1;"),
        "xor.b32 %r5, %r4, %r3;".into(),
        "xor.b32 %r7, %r5, %r6;".into(),
        "st.global.u32 [%out], %r7;".into(),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

/// The emulated output of `lines` (both words), checked exact, and the spec's.
fn emulated(lines: &[String]) -> (u64, u64) {
    let (s, e, _) = both(&strs(lines), WORDS, D);
    assert!(s.is_exact() && e.is_exact(), "{lines:?}");
    (s.bits as u64, e.bits as u64)
}

/// 6a674eeb's stored case: every thread's word is the GPU's 0xffffffff (`LOP3.LUT R7, x,
/// 0x7c007c00, a, 0xa5` = ~(x ^ a), inputs 0), where §9.7.8.6 gives 0x83ff83ff.
#[test]
fn n2_6a674eeb_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4801", "6a674eeb6a62f67a");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits), (0, 0x83ff_83ff), "thread {t} spec");
        assert_eq!(e.bits, 0xffff_ffff, "thread {t} word {w}");
    }
}

/// The five tables of `tab_results.txt` (v1_lut*, the case's 0x55) under `xor`, and `s49/v3`
/// (`and`: 0x94 for 0xe8) and `s49/v6` (`or`: 0xd6) — every OP, both operand orders of the
/// outer xors: y ^ x ^ (a OP L(a, x, y)).
#[test]
fn n2_6a674eeb_a_second_outer_xor_binds_the_lop3_s_c() {
    for lut in [0x55, 0x96, 0xe8, 0x1e, 0xca] {
        for op in ["xor", "and", "or"] {
            let lines = chain("%r0, %r0, %r0", lut, op, &[]);
            let spec = Y ^ X ^ apply(op, A, lop3(lut, A, A, A));
            let bug = Y ^ X ^ apply(op, A, lop3(lut, A, X, Y));
            assert_eq!(emulated(&lines), (u64::from(spec), u64::from(bug)), "{lut:#x} {op}");
            let mut swapped = lines.clone();
            swapped[5] = "xor.b32 %r5, %r3, %r4;".into();
            swapped[6] = "xor.b32 %r7, %r6, %r5;".into();
            assert_eq!(emulated(&swapped), (u64::from(spec), u64::from(bug)), "{lut:#x} {op} swapped");
        }
    }
}

/// Right (the second xor a LOP3 of its own, reading the one-xor merge's word): `s` stored too
/// (`s49/v5_second_reader`: `LOP3.LUT R7, x, RZ, a, 0xb2` then `0x3c`), and `lop3(a, a, 0)`
/// (`s49/v1_b_repeats_c_zero`: `LOP3.LUT R6, x, a, RZ, 0xd4` = x | a, then `0x3c`).
#[test]
fn n2_6a674eeb_a_second_reader_or_a_lop3_not_of_a_thrice_keeps_the_one_xor_merge() {
    let lut = 0xe8;
    let one_xor = X ^ A ^ lop3(lut, A, X, 0);
    let lines = chain("%r0, %r0, %r0", lut, "xor", &["st.global.u32 [%out+4], %r5;"]);
    let spec = Y ^ X ^ A ^ lop3(lut, A, A, A);
    let (s, e) = emulated(&lines);
    assert_eq!((s as u32, e as u32, (e >> 32) as u32), (spec, one_xor ^ Y, one_xor));
    let lines = chain("%r0, %r0, 0", lut, "xor", &[]);
    let (s, e) = emulated(&lines);
    assert_eq!((s as u32, e as u32), (Y ^ X ^ A ^ lop3(lut, A, A, 0), Y ^ one_xor));
}
