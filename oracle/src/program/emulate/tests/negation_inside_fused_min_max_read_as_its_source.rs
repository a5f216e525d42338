//! Tests of df7cd5e3's emulation (`emulate/negation_inside_fused_min_max_read_as_its_source.rs`):
//! two signed `min`/`max` of one type fused into one `VIMNMX3` read x where the inner's operand
//! is −x (seed 4803's df7cd5e3, corpus/findings/fuzz-h200-4803/trace/T19v2.md and trace/df7cd5e3/;
//! seed 5001's 3c82b3dd, corpus/findings/fuzz-h200-5001/trace/T21a.md and trace/3c82b3dd/s50/).

use super::*;

const D: Deviation = Deviation::NegationInsideFusedMinMaxReadAsItsSource;

/// The stored cases, every differing word: df7cd5e3 (word 0, 0x77fd0000 where the spec gives
/// 0x88030000, every thread) and 3c82b3dd (word 1, 0 where the spec gives 0x00810000).
#[test]
fn fused_min_max_df7cd5e3_the_stored_cases_are_reproduced() {
    for (seed, name, word, spec, gpu) in
        [("4803", "df7cd5e3b361248f", 0, 0x8803_0000, 0x77fd_0000), ("5001", "3c82b3dda3262eae", 1, 0x0081_0000, 0)]
    {
        let (p, i) = super::stored_case(seed, name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            if w == word {
                assert_eq!((s.bits, e.bits), (spec, gpu), "{name} thread {t} word {w}");
            } else {
                assert_eq!(e, s, "{name} thread {t} word {w}");
            }
        }
    }
}

/// x loaded (16- or 32-bit), a second loaded operand a, the negation `neg` into y (statements
/// split at `|`), then `body` (the mins), y stored.
fn case(wide: bool, neg: &str, body: &[&str]) -> Vec<String> {
    let (ld, st) = if wide {
        ("ld.global.b32 %r0, [%in];", "st.global.b32 [%out], %r1;")
    } else {
        ("ld.global.b16 %h0, [%in];", "st.global.b16 [%out], %h1;")
    };
    let a = if wide { "ld.global.b32 %r2, [%in+4];" } else { "ld.global.b16 %h2, [%in+4];" };
    let mut l = vec![ld.to_string(), a.to_string()];
    l.extend(neg.split('|').map(String::from));
    l.extend(body.iter().map(|s| s.to_string()));
    l.push(st.to_string());
    l
}

/// Wrong (13.0.88 -O3 `VIMNMX3` reading x): `reduced`/`v2` (two `min.s16` straight), `v3` (a loop
/// of two trips), `v8` (three mins), `v12` (`.s32`), `v5` (`max.s16`), `v10`/`v11` (other
/// registers), `v13` (`sub.s16 y, 0, x`), `v20` (the negation also stored: that store right).
#[test]
fn fused_min_max_df7cd5e3_the_wrong_variants_read_x_for_its_negation() {
    let x16 = [0x77fd, 0x1234, 0, 0];
    let min2 = ["min.s16 %h1, %h0, %h1;", "min.s16 %h1, %h0, %h1;"];
    exact_case(&strs(&case(false, "neg.s16 %h1, %h0;", &min2)), x16, D, 0x8803, 0x77fd);
    // (glue has no immediate minuend: the generator's `sub 0, x` is of a moved 0)
    exact_case(&strs(&case(false, "mov.b16 %h3, 0;|sub.s16 %h1, %h3, %h0;", &min2)), x16, D, 0x8803, 0x77fd);
    let three = ["min.s16 %h1, %h0, %h1;", "min.s16 %h1, %h0, %h1;", "min.s16 %h1, %h0, %h1;"];
    exact_case(&strs(&case(false, "neg.s16 %h1, %h0;", &three)), x16, D, 0x8803, 0x77fd);
    let loop2 = [
        "mov.u32 %r12, 0;",
        "$L4:",
        "min.s16 %h1, %h0, %h1;",
        "add.u32 %r12, %r12, 3;",
        "setp.ne.u32 %p4, %r12, 6;",
        "@%p4 bra $L4;",
    ];
    exact_case(&strs(&case(false, "neg.s16 %h1, %h0;", &loop2)), x16, D, 0x8803, 0x77fd);
    // v5: max of a negative x: max(x, max(x, −x)) = −x by the spec, x fused.
    let max2 = ["max.s16 %h1, %h0, %h1;", "max.s16 %h1, %h0, %h1;"];
    exact_case(&strs(&case(false, "neg.s16 %h1, %h0;", &max2)), [0x8803, 0, 0, 0], D, 0x77fd, 0x8803);
    // v10 min(a, min(a, −x)), v11 min(x, min(a, −x)): a = 0x1234.
    let v10 = ["min.s16 %h1, %h2, %h1;", "min.s16 %h1, %h2, %h1;"];
    exact_case(&strs(&case(false, "neg.s16 %h1, %h0;", &v10)), x16, D, 0x8803, 0x1234);
    let v11 = ["min.s16 %h1, %h2, %h1;", "min.s16 %h1, %h0, %h1;"];
    exact_case(&strs(&case(false, "neg.s16 %h1, %h0;", &v11)), x16, D, 0x8803, 0x1234);
    // v12: .s32; s51/v1: `sub.s32` of a moved 0.
    let s32 = ["min.s32 %r1, %r0, %r1;", "min.s32 %r1, %r0, %r1;"];
    exact_case(&strs(&case(true, "neg.s32 %r1, %r0;", &s32)), [5, 0, 0, 0], D, 0xffff_fffb, 5);
    exact_case(&strs(&case(true, "mov.b32 %r3, 0;|sub.s32 %r1, %r3, %r0;", &s32)), [5, 0, 0, 0], D, 0xffff_fffb, 5);
    // v20: the negation stored too (word 1's low half right: 0x8803), the fused min reads x.
    let mut v20 = case(false, "neg.s16 %h1, %h0;", &min2);
    v20.insert(3, "st.global.b16 [%out+4], %h1;".into());
    let (s, e, fired) = both(&strs(&v20), x16, D);
    assert_eq!((s.bits as u64, e.bits as u64, fired), (0x8803_0000_8803, 0x8803_0000_77fd, vec![D]));
}

/// The seed-5001 form: −x a `mul.wide.s16 r, h, -1` of a loaded s8, `min.s32 r, z, r` twice
/// (`s50/v2`: wrong, VIMNMX3 reads h sign-extended).
#[test]
fn fused_min_max_df7cd5e3_a_wide_multiply_by_minus_one_is_the_negation_too() {
    let lines = [
        "ld.global.s8 %h0, [%in];",
        "ld.global.b32 %r2, [%in+4];",
        "mul.wide.s16 %r1, %h0, -1;",
        "min.s32 %r1, %r2, %r1;",
        "min.s32 %r1, %r2, %r1;",
        "st.global.b32 [%out], %r1;",
    ];
    exact_case(&lines, [0x7f, 0, 0, 0], D, 0xffff_ff81, 0);
}

/// Right (13.0.88 -O3 computes −x): one min (`v1`), the negation in the outer min (`v14`), an
/// immediate outer operand (`v21`), `.u16`/`.u32` (`v7`, `v18`), `not`, `abs` and `sub b, x` for the
/// negation (`v6`, `v19`, `v17`), a `mul.wide.s16` by −2 (5001's `s50/v4`).
#[test]
fn fused_min_max_df7cd5e3_leaves_the_right_variants_alone() {
    let x16 = [0x77fd, 0x1234, 0, 0];
    let min2 = ["min.s16 %h1, %h0, %h1;", "min.s16 %h1, %h0, %h1;"];
    untouched(&strs(&case(false, "neg.s16 %h1, %h0;", &["min.s16 %h1, %h0, %h1;"])), x16, D);
    untouched(&strs(&case(false, "neg.s16 %h1, %h0;", &["min.s16 %h3, %h2, %h0;", "min.s16 %h1, %h1, %h3;"])), x16, D);
    untouched(&strs(&case(false, "neg.s16 %h1, %h0;", &["min.s16 %h1, %h2, %h1;", "min.s16 %h1, %h1, 5;"])), x16, D);
    let u16 = ["min.u16 %h1, %h0, %h1;", "min.u16 %h1, %h0, %h1;"];
    untouched(&strs(&case(false, "neg.s16 %h1, %h0;", &u16)), x16, D);
    let u32 = ["min.u32 %r1, %r0, %r1;", "min.u32 %r1, %r0, %r1;"];
    untouched(&strs(&case(true, "neg.s32 %r1, %r0;", &u32)), [5, 0, 0, 0], D);
    for neg in ["not.b16 %h1, %h0;", "abs.s16 %h1, %h0;", "sub.s16 %h1, %h2, %h0;"] {
        untouched(&strs(&case(false, neg, &min2)), [0x8803, 0x1234, 0, 0], D);
    }
    let minus2 = [
        "ld.global.s8 %h0, [%in];",
        "ld.global.b32 %r2, [%in+4];",
        "mul.wide.s16 %r1, %h0, -2;",
        "min.s32 %r1, %r2, %r1;",
        "min.s32 %r1, %r2, %r1;",
        "st.global.b32 [%out], %r1;",
    ];
    untouched(&minus2, [0x7f, 0, 0, 0], D);
}

/// Right too (s51, 13.0.88 -O3): an immediate in the inner min (`v2`), a min then a max (`v4`),
/// x rewritten between (`v5`), the inner's result also stored (`v6`: two VIMNMX), and a loop whose
/// trip count is loaded (`v3`: `IMAD.MOV R5, RZ, RZ, -R0` kept, the fused VIMNMX3 reads it).
#[test]
fn fused_min_max_df7cd5e3_leaves_unfused_pairs_and_unknown_trip_counts_alone() {
    let w = [5, 0x1234, 7, 0];
    let neg = "neg.s32 %r1, %r0;";
    untouched(&strs(&case(true, neg, &["min.s32 %r1, %r1, 5;", "min.s32 %r1, %r2, %r1;"])), w, D);
    untouched(&strs(&case(true, neg, &["min.s32 %r1, %r2, %r1;", "max.s32 %r1, %r2, %r1;"])), w, D);
    let v5 = ["min.s32 %r1, %r2, %r1;", "add.s32 %r0, %r0, 1;", "min.s32 %r1, %r0, %r1;"];
    untouched(&strs(&case(true, neg, &v5)), w, D);
    let v6 = ["min.s32 %r1, %r2, %r1;", "st.global.b32 [%out+4], %r1;", "min.s32 %r1, %r0, %r1;"];
    untouched(&strs(&case(true, neg, &v6)), w, D);
    let v3 = [
        "ld.global.u32 %r5, [%in+8];",
        "mov.u32 %r12, 0;",
        "$L4:",
        "min.s32 %r1, %r0, %r1;",
        "add.u32 %r12, %r12, 1;",
        "setp.lt.u32 %p4, %r12, %r5;",
        "@%p4 bra $L4;",
    ];
    untouched(&strs(&case(true, neg, &v3)), w, D);
    // The same loop with an immediate count (8 trips) is the stored case's form: wrong.
    let mut counted = v3;
    counted[5] = "setp.lt.u32 %p4, %r12, 8;";
    exact_case(&strs(&case(true, neg, &counted)), w, D, 0xffff_fffb, 5);
}

/// Seed 6202's 1623a931 (corpus/findings/fuzz-h200-6201/trace/T62B.md, trace/1623a931/s62/): a
/// `cnot.b16` (ptxas's `SEL` mask negated) as the inner's b of a loop of four `min.u16 h0, h1, h0`
/// is read as its mask by the fused `VIMNMX3.U16x2` (13.0.88 -O3): h0 = min(0x71f4, 0xffff) where
/// the spec has min(0x71f4, 1) = 1, word 1 0x71f40000 (the spec 0x00010000) in every thread.
#[test]
fn fused_min_max_1623a931_the_stored_case_reads_the_cnot_mask() {
    let (p, i) = super::stored_case("6202", "1623a931d33b85b0");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (0x0001_0000, 0x71f4_0000) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}

/// Word 1 of `name` by the spec and emulating [`D`] (asserting that it fired), thread 0.
fn word1_of_1623a931(name: &str, patch: &[(usize, u32)]) -> (u128, u128) {
    let (p, i) = super::variant_of("6202", "1623a931", &format!("s62/{name}"), patch);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D], "{name}");
    (spec[0].field(32, 32).bits, out[0].field(32, 32).bits)
}

/// Wrong (13.0.88 -O3: the `VIMNMX3` reads the `SEL` mask, 0xffff for the cnot's 1): two trips
/// (`w2`), the half stored (`w3`), a loaded `u16` (`w6`), two straight mins (`w8`; `w14` another
/// outer register, in[42] patched to 0x5000; `w20` the inner as the outer's a), the cnot also
/// stored (`w10`: that store right), the cnot of a `cvt.u16.u32` (`w24`), `cnot.b32` under
/// `min.u32`/`max.u32` (`w9`, `w21`), `max.u16` (`w5`: the mask 0xffff, a bf16 NaN, for 0x71f4).
#[test]
fn fused_min_max_1623a931_the_wrong_variants_read_the_cnot_mask() {
    let bf = |h: u128| h << 16;
    for name in [
        "w2_two_trips",
        "w6_loaded_u16",
        "w8_straight2",
        "w20_straight_inner_first_in_outer",
        "w10_cnot_also_stored",
        "w24_cnot_of_b16_cvt_of_s32",
    ] {
        assert_eq!(word1_of_1623a931(name, &[]), (bf(1), bf(0x71f4)), "{name}");
    }
    assert_eq!(word1_of_1623a931("w3_store_b16", &[]), (bf(1), bf(0x71f4)));
    assert_eq!(word1_of_1623a931("w14_straight_other_outer", &[(42, 0x5000)]), (bf(1), bf(0x5000)));
    assert_eq!(word1_of_1623a931("w9_cnot_b32_min_u32", &[]), (1, 0xb025_71f4));
    assert_eq!(word1_of_1623a931("w21_cnot_b32_max_u32", &[]), (0xb025_71f4, 0xffff_ffff));
    let (spec, emulated) = word1_of_1623a931("w5_max_u16", &[]);
    assert_eq!(spec, bf(0x71f4));
    assert_ne!(emulated, spec);
}

/// Right (13.0.88 -O3 keeps the negation): one trip (`w1`), the cnot the inner's a (`w7`, `w15`),
/// `.s16`/`.s32` (`w4`, `w12`, `w18`), a min then a max (`w22`), a loaded trip count (`w11`),
/// `not.b16` (`w16`), `neg.s16` under `min.u16` (`w17`). (`w23`, an immediate first operand of the
/// inner, and `w19`, `selp.b16 h0, 1, 0, p`, are no glue statements the oracle parses; no register
/// negation is in either.)
#[test]
fn fused_min_max_1623a931_leaves_the_right_variants_alone() {
    for name in [
        "w1_one_trip",
        "w7_operands_swapped",
        "w15_straight_cnot_first",
        "w4_min_s16",
        "w12_cnot_b32_min_s32",
        "w18_cnot_b16_max_s16",
        "w22_min_then_max_u16",
        "w11_loaded_trips",
        "w16_not_b16",
        "w17_neg_s16_min_u16",
    ] {
        let (p, i) = super::variant_of("6202", "1623a931", &format!("s62/{name}"), &[]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
