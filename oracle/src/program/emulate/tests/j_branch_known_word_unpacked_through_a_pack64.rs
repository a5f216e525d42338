//! Tests of J's branch-known value through a 64-bit pack and a 16-bit unpack (seed 5102's
//! 766f2aa7, corpus/findings/fuzz-h200-5102/trace/T22b.md, variants in trace/766f2aa7/s51/;
//! `emulate/j_branch_known_word_unpacked_through_a_pack64.rs`).

use super::*;

const D: Deviation = Deviation::BranchConstantHighHalfIsItsLowHalf;

/// `v1_core` with a loaded r1 (0x00010033 here: the spec's high half 1, K's low half 0x33): the
/// pack `pack`, the compare `setp` and branch `bra`, the unpack `unpack`, `h` stored.
fn body(pack: &str, setp: &str, bra: &str, unpack: &str, h: &str) -> Vec<String> {
    [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r2, 0;",
        pack,
        "mov.b16 %h3, 0;",
        setp,
        bra,
        unpack,
        "$L1:",
        &format!("st.global.u16 [%out], {h};"),
    ]
    .map(str::to_string)
    .to_vec()
}

const PACK: &str = "mov.b64 %d0, {%r1, %r2};";
const NE: &str = "setp.ne.u32 %p3, %r1, 0x10033;";
const BRA: &str = "@%p3 bra $L1;";
const UNPACK: &str = "mov.b64 {%h0, %h3, %h2, %h1}, %d0;";

/// 13.0.88 -O3 `@!P0 PRMT R0, R4(=K), 0x7610, R0`: the high half of the known word, element 1
/// (`v1_core`) or element 3 of the high word (`v4_high_word`), is K's low half; also with
/// `setp.ne.s32` (`v12`) and the pack inside the arm (`v9`).
#[test]
fn j_high_half_of_a_branch_known_word_unpacked_from_a_pack64_is_k_low_half() {
    let k = [0x10033, 0, 0, 0];
    exact_case(&strs(&body(PACK, NE, BRA, UNPACK, "%h3")), k, D, 1, 0x33);
    let high = body("mov.b64 %d0, {%r2, %r1};", NE, BRA, "mov.b64 {%h0, %h1, %h2, %h3}, %d0;", "%h3");
    exact_case(&strs(&high), k, D, 1, 0x33);
    exact_case(&strs(&body(PACK, "setp.ne.s32 %p3, %r1, 0x10033;", BRA, UNPACK, "%h3")), k, D, 1, 0x33);
    let mut in_arm = body("mov.b16 %h3, 0;", NE, BRA, UNPACK, "%h3");
    in_arm.insert(6, PACK.to_string());
    exact_case(&strs(&in_arm), k, D, 1, 0x33);
}

/// `v10_unpack_before_branch`: the unpack ahead of the branch, its h3 read only in the arm (J's
/// unpack ahead of the branch), the same listing.
#[test]
fn j_pack64_unpacked_ahead_of_the_branch_splats_in_the_arm() {
    let lines = [
        "ld.global.u32 %r1, [%in];",
        "mov.b32 %r2, 0;",
        PACK,
        UNPACK,
        "mov.b16 %h5, 0;",
        NE,
        BRA,
        "mov.b16 %h5, %h3;",
        "$L1:",
        "st.global.u16 [%out], %h5;",
    ];
    exact_case(&lines, [0x10033, 0, 0, 0], D, 1, 0x33);
}

/// Right: element 0 (`v2`, the low half is K's), a 32-bit unpack of the pack (`v3`), `setp.eq`
/// with `@!p bra` (`v5`), and a word no branch fixes.
#[test]
fn j_pack64_low_halves_word_unpacks_and_setp_eq_are_untouched() {
    let k = [0x10033, 0, 0, 0];
    untouched(&strs(&body(PACK, NE, BRA, UNPACK, "%h0")), k, D);
    let words = body(PACK, NE, BRA, "mov.b64 {%r5, %r6}, %d0;", "%h3");
    untouched(&strs(&words), k, D);
    untouched(&strs(&body(PACK, "setp.eq.u32 %p3, %r1, 0x10033;", "@!%p3 bra $L1;", UNPACK, "%h3")), k, D);
    untouched(&strs(&body(PACK, "setp.ne.u32 %p3, %r2, 0x0;", BRA, UNPACK, "%h3")), k, D);
}

/// The stored case (766f2aa79f73cbe8): thread 51 (tix = 0x33) word 1 is 0x00000033 where the
/// spec's is 0; every other word the spec's.
#[test]
fn j_766f2aa7_stored_case_is_emulated() {
    let (p, i) = stored_case("5102", "766f2aa79f73cbe8");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        if (t, w) == (51, 1) {
            assert_eq!((s.bits as u32, e.bits as u32), (0, 0x33), "thread {t} word {w}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}
