//! Tests of 3801-N1's `mul.hi` + `add.cc` links whose carry nothing reads, the `mul.hi` inside the
//! loop (seed 5001's e60617f3, session 50; corpus/findings/fuzz-h200-5001/trace/T21b.md, variants in
//! trace/e60617f3/s50/).

use super::*;

const D: Deviation = Deviation::MadHiChainLosesRepeatedLinks;

/// The stored case: a loop of 8 `mul.hi.s32 r2, r5, r1; add.cc.u32 r6, r6, r2` (r5 a shuffled
/// 0x3f7fffff, r1 = 0x1f557ace): the GPU's word 2 is 5·hi's low half (0x83c9) above, the spec's 8·hi
/// (0x9fa8).
#[test]
fn n1_3801_e60617f3_stored_case_admits_the_stored_o3_word() {
    let gpu = [(0, 2, 0x83c9_0000), (7, 2, 0x83c9_0000), (31, 2, 0x83c9_0000)];
    super::mad_hi_links_dropped_as_repeats::admits_stored_words("5001", "e60617f31a3d77d5", &gpu);
}

/// A loop of 8 trips (x = in[0], y = 0x1f557ace) of `mul.hi.s32 r2, r5, r1` and `add`, with `after`
/// after the loop; acc (r6) stored in word 0, r8 in word 1.
fn loop8(add: &'static str, carry: Option<&'static str>, after: Option<&'static str>) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.u32 %r5, [%in];",
        "mov.b32 %r1, 525695694;",
        "mov.b32 %r6, 0;",
        "mov.b32 %r8, 0;",
        "mov.u32 %r7, 16;",
        "$L4:",
        "mul.hi.s32 %r2, %r5, %r1;",
        add,
    ];
    lines.extend(carry);
    lines.extend(["sub.u32 %r7, %r7, 0x2;", "setp.gt.u32 %p3, %r7, 0x0;", "@%p3 bra $L4;"]);
    lines.extend(after);
    lines.extend(["st.global.u32 [%out], %r6;", "st.global.u32 [%out+4], %r8;"]);
    lines
}

const ADD_CC: &str = "add.cc.u32 %r6, %r6, %r2;";

/// hi(x·y) of the `mul.hi.s32` links (x = 0x3f7fffff).
const HI: u32 = 0x07c5_b3f5;

/// Wrong (13.0.88 -O3: 5 `IMAD.HI`, 13.5: 8): the loop of `add.cc` (v1) admits acc + k·hi for k
/// from 1 to 8, 5 among them; so with an `addc` after the loop (v3) for acc, and `add.u32` (v5).
#[test]
fn n1_3801_add_cc_links_of_an_unread_carry_lose_links() {
    let words = [0x3f7f_ffff, 0, 0, 0];
    let plain = loop8("add.u32 %r6, %r6, %r2;", None, None);
    for lines in [loop8(ADD_CC, None, None), loop8(ADD_CC, None, Some("addc.u32 %r8, %r8, 0;")), plain] {
        let (s, e, fired) = both(&lines, words, D);
        let acc = |k: u32| u128::from(k.wrapping_mul(HI));
        assert_eq!(s.field(0, 32).bits, acc(8), "{lines:?}");
        assert!((1..=8).all(|k| e.field(0, 32).matches(acc(k))), "{e} of {lines:?}");
        assert!(!e.field(0, 32).matches(acc(9)), "{e} of {lines:?}");
        assert_eq!(fired, vec![D]);
    }
}

/// Right (13.0.88 -O3: 8 `IMAD.HI …, P<n>`): an `addc` in the loop reads each carry (v4); and (the
/// entry's `s48/v10_loop8_mul_hi_of_stepped_y`) a `mul.hi` of an x the loop steps.
#[test]
fn n1_3801_add_cc_links_whose_carry_is_read_are_left_alone() {
    untouched(&loop8(ADD_CC, Some("addc.u32 %r8, %r8, 0;"), None), [0x3f7f_ffff, 0, 0, 0], D);
    untouched(&loop8(ADD_CC, Some("add.u32 %r5, %r5, 3;"), None), [0x3f7f_ffff, 0, 0, 0], D);
}
