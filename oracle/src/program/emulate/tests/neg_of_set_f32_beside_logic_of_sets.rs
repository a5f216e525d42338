//! Tests of 3602-N2's float −1.0 materialization beside an and/or/xor.b32 of two set.f32 words
//! (seed 5801's d4409f00, 047b7594, 772de695; corpus/findings/fuzz-h200-5801/trace/T58A.md,
//! variants trace/d4409f00/s58/; `emulate/fuzz3602/neg_of_set_f32_beside_logic_of_sets.rs`).

use super::*;

const D: Deviation = Deviation::NegOfSetF32HalvesReadAsBoolean;

/// The set `set.eq.f32.u32 r0, x, 2` (x the first input word), the other set `set.lt.f32.s32 r2,
/// y, 0` (y the second), then `body`; the negation is stored as word 0, `tail` after it.
fn with(body: &[&'static str], tail: &[&'static str]) -> Vec<&'static str> {
    let head = [
        "ld.global.u32 %r7, [%in];",
        "set.eq.f32.u32 %r0, %r7, 2;",
        "ld.global.s32 %r8, [%in+4];",
        "set.lt.f32.s32 %r2, %r8, 0;",
    ];
    [&head[..], body, &["st.global.u32 [%out], %r4;"], tail].concat()
}

const XOR_STORED: [&str; 1] = ["st.global.u32 [%out+4], %r3;"];

/// The two words (word 1 the logic op's 0x3f800000) with the negation by the spec and on the GPU.
const SPEC: u64 = 0x3F80_0000_C080_0000;
const GPU: u64 = 0x3F80_0000_BF80_0000;

/// The finding's form (d4409f00 v7, v9, v11): `neg.s32` of the set beside a live xor/and/or.b32 of
/// it and the other set is 0xbf800000 for the true set (§9.7.1: 0xc0800000); a false set gives 0
/// either way and is left alone.
#[test]
fn n2_3602_neg_of_a_set_f32_beside_logic_of_two_sets_is_float_minus_one() {
    // The and's word 1 is 0 (1.0f & 0).
    let ops = [
        ("xor.b32 %r3, %r2, %r0;", 0),
        ("and.b32 %r3, %r2, %r0;", 0x3F80_0000_0000_0000),
        ("or.b32 %r3, %r0, %r2;", 0),
    ];
    for (op, and) in ops {
        let lines = with(&[op, "neg.s32 %r4, %r0;"], &XOR_STORED);
        exact_case(&lines, [2, 0, 0, 0], D, SPEC - and, GPU - and);
        untouched(&lines, [3, 0, 0, 0], D);
    }
}

/// The other forms the variants show wrong: `sub.s32` of a moved 0 (v10), the logic op after
/// the negation (v14), the negation and the logic op each through a `mov` copy (v17, v18), and the
/// finding's setp/selp readers of the negation (orig).
#[test]
fn n2_3602_neg_of_a_set_f32_beside_logic_of_two_sets_sub_copies_and_order() {
    let sub = with(&["xor.b32 %r3, %r2, %r0;", "mov.b32 %r5, 0;", "sub.s32 %r4, %r5, %r0;"], &XOR_STORED);
    exact_case(&sub, [2, 0, 0, 0], D, SPEC, GPU);
    let after = with(&["neg.s32 %r4, %r0;"], &["xor.b32 %r3, %r2, %r0;", "st.global.u32 [%out+4], %r3;"]);
    exact_case(&after, [2, 0, 0, 0], D, SPEC, GPU);
    let copies =
        with(&["mov.b32 %r5, %r0;", "xor.b32 %r3, %r2, %r5;", "mov.b32 %r6, %r0;", "neg.s32 %r4, %r6;"], &XOR_STORED);
    exact_case(&copies, [2, 0, 0, 0], D, SPEC, GPU);
    let selp = with(
        &["xor.b32 %r3, %r2, %r0;", "neg.s32 %r9, %r0;", "setp.gt.u32 %p1, %r9, %r3;", "selp.b32 %r4, %r9, 0, %p1;"],
        &[],
    );
    exact_case(&selp, [2, 0, 0, 0], D, 0xC080_0000, 0xBF80_0000);
}

/// The variants the listings show right: no logic op (v1), the logic op dead (v8), with a loaded
/// word (v4), with an integer set (v5), with a `selp 0x3f800000, 0` (v15), the negated set
/// guarded (v19), `not.b32` in place of the negation (v12).
#[test]
fn n2_3602_neg_of_a_set_f32_without_logic_of_two_live_sets_is_left_alone() {
    let cases = [
        with(&["neg.s32 %r4, %r0;"], &[]),
        with(&["xor.b32 %r3, %r2, %r0;", "neg.s32 %r4, %r0;"], &[]),
        with(&["ld.global.u32 %r9, [%in+8];", "xor.b32 %r3, %r9, %r0;", "neg.s32 %r4, %r0;"], &XOR_STORED),
        with(&["set.lt.u32.s32 %r9, %r8, 0;", "xor.b32 %r3, %r9, %r0;", "neg.s32 %r4, %r0;"], &XOR_STORED),
        with(
            &[
                "setp.lt.s32 %p1, %r8, 0;",
                "mov.b32 %r10, 0x3f800000;",
                "mov.b32 %r11, 0;",
                "selp.b32 %r9, %r10, %r11, %p1;",
                "xor.b32 %r3, %r9, %r0;",
                "neg.s32 %r4, %r0;",
            ],
            &XOR_STORED,
        ),
        with(&["xor.b32 %r3, %r2, %r0;", "not.b32 %r4, %r0;"], &XOR_STORED),
    ];
    for lines in &cases {
        untouched(lines, [2, 0, 0, 0], D);
    }
    let guarded = [
        "ld.global.u32 %r7, [%in];",
        "mov.b32 %r0, 0;",
        "setp.ne.u32 %p1, %r7, 7;",
        "@%p1 set.eq.f32.u32 %r0, %r7, 2;",
        "ld.global.s32 %r8, [%in+4];",
        "set.lt.f32.s32 %r2, %r8, 0;",
        "xor.b32 %r3, %r2, %r0;",
        "neg.s32 %r4, %r0;",
        "st.global.u32 [%out], %r4;",
        "st.global.u32 [%out+4], %r3;",
    ];
    untouched(&guarded, [2, 0, 0, 0], D);
}

/// The stored cases of the three findings give the GPU's 0xbf800000 in every thread.
#[test]
fn n2_3602_the_seed_5801_findings_give_the_gpus_word() {
    for name in ["d4409f008312381f", "047b759446530f88", "772de69583aa8d64"] {
        let (p, i) = stored_case("5801", name);
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert!(fired.contains(&D), "{name}");
        assert!(out.iter().all(|w| w.is_exact() && w.bits == 0xBF80_0000), "{name}: {out:?}");
    }
}
