//! Tests of 592cbe0b's emulation (`emulate/bfind_64_of_branch_fixed_value_folded_from_low_word.rs`):
//! a 64-bit bfind of a value fixed by the fall-through of `setp.ne x, K; @p bra` is the bfind of
//! K's low word moved high (corpus/findings/fuzz-h200-4602/trace/592cbe0b/ and its `s48/`,
//! 13.0.88 -O3 listings): the wrong forms emulated, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::BfindOf64BranchFixedValueFoldedFromLowWord;

/// `mov r1, 0; ld x; <setp>; @p bra L; <bfind>; L: st r1`: the case's frame, x in %d2 loaded
/// from input words 0 and 1.
fn fall_through(setp: String, bra: &'static str, bfind: &'static str) -> Vec<String> {
    vec![
        "mov.b32 %r1, 0;".into(),
        "ld.global.u64 %d2, [%in];".into(),
        setp,
        bra.into(),
        bfind.into(),
        "$L2:".into(),
        "st.global.u32 [%out], %r1;".into(),
    ]
}

/// The words of the 64-bit value `k` (low, high) as the first two input words.
fn words(k: u64) -> [u32; 4] {
    [k as u32, (k >> 32) as u32, 0, 0]
}

/// The campaign's case: emulating 592cbe0b alone gives the stored ptxas -O3 and JIT word 0,
/// 0x1f (`@!P0 MOV R7, 0x1f`; the spec's `bfind.shiftamt.u64` of 1 is 63), in every thread.
#[test]
fn n_592cbe0b_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4602", "592cbe0bf873e2a1");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits, e.bits), (0, 0x3f, 0x1f), "thread {t}");
    }
}

/// Wrong alike (13.0.88 -O3 `@!P0 MOV R7, <folded>`): K = 1 `.shiftamt` (`reduced`), K = 2^32
/// (`v3`, `v4`: 0xffffffff), K = 5 plain (`s48/w12`: 0x22), 0x300000005 (`s48/w10`: 0x22),
/// `.s64` 2^31 (`s48/w2`: 0x3e), 2^63 `.shiftamt` (`s48/w3`: 0xffffffff), `.s64` −2^32
/// (`s48/w11`), K a moved register on either side (`s48/w5`, `w13`) (`setp.ne.b64`, `s48/w14`,
/// is wrong too; the glue has no `setp.b64`), a copy of x read (`s48/w6`), a store between (`s48/w7`).
#[test]
fn n_592cbe0b_a_64_bit_bfind_on_the_fall_through_of_setp_ne_is_the_low_word_moved_high() {
    let setp = |ty: &str, k: &str| format!("setp.ne.{ty} %p2, %d2, {k};");
    let bra = "@%p2 bra $L2;";
    let wrong = |lines: Vec<String>, k: u64, spec: u64, bug: u64| exact_case(&strs(&lines), words(k), D, spec, bug);
    wrong(fall_through(setp("u64", "0x1"), bra, "bfind.shiftamt.u64 %r1, %d2;"), 1, 63, 31);
    wrong(fall_through(setp("s64", "0x1"), bra, "bfind.shiftamt.s64 %r1, %d2;"), 1, 63, 31);
    wrong(fall_through(setp("u64", "0x100000000"), bra, "bfind.shiftamt.u64 %r1, %d2;"), 1 << 32, 31, 0xffff_ffff);
    wrong(fall_through(setp("u64", "0x100000000"), bra, "bfind.u64 %r1, %d2;"), 1 << 32, 32, 0xffff_ffff);
    wrong(fall_through(setp("u64", "0x5"), bra, "bfind.u64 %r1, %d2;"), 5, 2, 0x22);
    wrong(fall_through(setp("u64", "0x300000005"), bra, "bfind.u64 %r1, %d2;"), 0x3_0000_0005, 33, 0x22);
    wrong(fall_through(setp("s64", "0x80000000"), bra, "bfind.s64 %r1, %d2;"), 1 << 31, 31, 0x3e);
    wrong(
        fall_through(setp("u64", "0x8000000000000000"), bra, "bfind.shiftamt.u64 %r1, %d2;"),
        1 << 63,
        0,
        0xffff_ffff,
    );
    wrong(fall_through(setp("s64", "-4294967296"), bra, "bfind.s64 %r1, %d2;"), 0xffff_ffff_0000_0000, 31, 0xffff_ffff);
    for (k, setp) in
        [("mov.b64 %d5, 5;", "setp.ne.u64 %p2, %d2, %d5;"), ("mov.b64 %d5, 5;", "setp.ne.u64 %p2, %d5, %d2;")]
    {
        let mut lines = fall_through(setp.into(), bra, "bfind.u64 %r1, %d2;");
        lines.insert(2, k.into());
        wrong(lines, 5, 2, 0x22);
    }
    let mut copy = fall_through(setp("u64", "0x1"), bra, "bfind.shiftamt.u64 %r1, %d3;");
    copy.insert(4, "mov.b64 %d3, %d2;".into());
    wrong(copy, 1, 63, 31);
    let mut store = fall_through(setp("u64", "0x1"), bra, "bfind.shiftamt.u64 %r1, %d2;");
    store.insert(4, "st.global.u32 [%out+4], %r1;".into());
    wrong(store, 1, 63, 31);
}

/// Right (the spec stands): `setp.eq p, x, K; @!p bra` (`s48/w4`), the bfind after the join
/// (`s48/w8`), a range (`s48/w9`), a loaded K (no constant), no branch (`v2`), the `.u32` form
/// (`v8`).
#[test]
fn n_592cbe0b_other_branches_joins_and_forms_are_left_alone() {
    let k = words(1);
    let shiftamt = "bfind.shiftamt.u64 %r1, %d2;";
    untouched(&strs(&fall_through("setp.eq.u64 %p2, %d2, 0x1;".into(), "@!%p2 bra $L2;", shiftamt)), k, D);
    let mut after_join =
        fall_through("setp.ne.u64 %p2, %d2, 0x1;".into(), "@%p2 bra $L2;", "st.global.u32 [%out+4], %r1;");
    after_join.insert(6, shiftamt.into());
    untouched(&strs(&after_join), k, D);
    let mut range = fall_through("setp.ge.u64 %p2, %d2, 0x2;".into(), "@%p2 bra $L2;", shiftamt);
    range.splice(4..4, ["setp.eq.u64 %p3, %d2, 0x0;".to_string(), "@%p3 bra $L2;".to_string()]);
    untouched(&strs(&range), k, D);
    let mut loaded_k = fall_through("setp.ne.u64 %p2, %d2, %d5;".into(), "@%p2 bra $L2;", shiftamt);
    loaded_k.insert(2, "ld.global.u64 %d5, [%in];".into());
    untouched(&strs(&loaded_k), k, D);
    untouched(&["ld.global.u64 %d2, [%in];", shiftamt, "st.global.u32 [%out], %r1;"], k, D);
    let narrow = [
        "mov.b32 %r1, 0;",
        "ld.global.u32 %r2, [%in];",
        "setp.ne.u32 %p2, %r2, 0x1;",
        "@%p2 bra $L2;",
        "bfind.shiftamt.u32 %r1, %r2;",
        "$L2:",
        "st.global.u32 [%out], %r1;",
    ];
    untouched(&narrow, k, D);
}
