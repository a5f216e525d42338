//! Tests of two findings of seed 4802 (corpus/findings/fuzz-h200-4802/trace/T19v3.md, variants
//! in trace/<id8>/ and trace/<id8>/s48/): e66ac96d, 3701 C3-3 with the 1 first
//! (`emulate/compare_with_one_first_tests_the_set.rs`), and 8a55bf3e, J's narrowed add of a
//! word of an unpacked 64-bit constant (`emulate/j_constant_unpacked_from_a_folded_b64.rs`).

use super::*;

/// e66ac96d's body (`orig.ptx`, stored at `[%out]`) with the moved first operand `first` and
/// the `compare` lines.
fn c3_3_body(first: &'static str, compare: &[&'static str]) -> Vec<&'static str> {
    let mut lines =
        vec!["ld.global.b16 %h0, [%in+6];", "mov.b32 %r0, {%h0, %h0};", "set.ge.s32.s32 %r4, %r0, 0;", first];
    lines.extend_from_slice(compare);
    lines.push("st.global.s32 [%out], %r6;");
    lines
}

const ONE: &str = "mov.b32 %r8, 1;";

/// 13.0.88 -O3 folds `op d, 1, s` of a true set s to the set's own truth as for `op d, s, 1`
/// (`orig`: `ISETP.GE P0; SEL R0, RZ, 0xffffffff, !P0; IABS; I2FP.F32.S32`, 1.0f where the
/// spec gives 0): `set.ne.s32` (`w4_set_ne_s32_moved_one_first`), `set.eq.s32` (as the
/// immediate 1 of `w4_set_eq_s32_imm_one_first`, which glue does not take first),
/// `setp.eq`/`setp.ne` + `selp` (`v2_setp_one_first`, `w4_setp_ne_moved_one_first`: `SEL R7,
/// RZ, 0x7, ±P0`; the 7 moved as in `w4_setp_eq_moved_seven`).
#[test]
fn c3_3_e66ac96d_compare_with_one_first_tests_the_set() {
    let d = Deviation::SetpEqOneOfSetTestsTheSet;
    let s_true = [0; 4];
    exact_case(&c3_3_body(ONE, &["set.eq.f32.u32 %r6, %r8, %r4;"]), s_true, d, 0, 0x3f80_0000);
    exact_case(&c3_3_body(ONE, &["set.ne.s32.u32 %r6, %r8, %r4;"]), s_true, d, 0xffff_ffff, 0);
    exact_case(&c3_3_body(ONE, &["set.eq.s32.s32 %r6, %r8, %r4;"]), s_true, d, 0, 0xffff_ffff);
    let setp_eq = ["setp.eq.u32 %p0, %r8, %r4;", "mov.b32 %r9, 7;", "selp.b32 %r6, %r9, 0, %p0;"];
    exact_case(&c3_3_body(ONE, &setp_eq), s_true, d, 0, 7);
    let setp_ne = ["setp.ne.u32 %p0, %r8, %r4;", "mov.b32 %r9, 7;", "selp.b32 %r6, %r9, 0, %p0;"];
    exact_case(&c3_3_body(ONE, &setp_ne), s_true, d, 7, 0);
    // A false set (h0 = 0x8000): the fold gives the spec's word.
    untouched(&c3_3_body(ONE, &["set.eq.f32.u32 %r6, %r8, %r4;"]), [0, 0x8000_0000, 0, 0], d);
}

/// Right on 13.0.88 -O3 (the compare kept): a first operand 2 (`v4_compare_two_right`) or −1
/// (`w4_minus_one_first_right`), a loaded 1 (`w4_loaded_first_right`).
#[test]
fn c3_3_compare_with_another_or_a_loaded_first_operand_is_kept() {
    let d = Deviation::SetpEqOneOfSetTestsTheSet;
    let compare = ["set.eq.f32.u32 %r6, %r8, %r4;"];
    untouched(&c3_3_body("mov.b32 %r8, 2;", &compare), [0; 4], d);
    untouched(&c3_3_body("mov.b32 %r8, -1;", &["set.ne.s32.u32 %r6, %r8, %r4;"]), [0; 4], d);
    untouched(&c3_3_body("ld.global.b32 %r8, [%in+12];", &compare), [0, 0, 0, 1], d);
}

/// The stored case (e66ac96d1db15063): word 2 is 1.0f where the spec gives 0 on every thread,
/// every other word the spec's.
#[test]
fn c3_3_e66ac96d_stored_case_is_emulated() {
    let (p, i) = stored_case("4802", "e66ac96d1db15063");
    for (t, w, s, e) in words_emulated_alone(&p, &i, Deviation::SetpEqOneOfSetTestsTheSet) {
        if w == 2 {
            assert_eq!((s.bits as u32, e.bits as u32), (0, 0x3f80_0000), "thread {t} word {w}");
        } else {
            assert_eq!(s, e, "thread {t} word {w}");
        }
    }
}

/// 8a55bf3e's body (`orig.ptx`) with the addend lines `r2` and `add`, the unpack `unpack` of
/// the sum and the 64-bit constant's lines `d0`.
fn j_body(d0: &[&'static str], r2: &'static str, add: &'static str, unpack: &'static str) -> Vec<&'static str> {
    let mut lines = d0.to_vec();
    lines.extend_from_slice(&["mov.b64 {%r0, %r1}, %d0;", "mov.b16 %h0, 0;", "mov.b16 %h5, 0;", r2, add, unpack]);
    lines.push("st.relaxed.gpu.global.v4.u8 [%out], {%h10, %h0, %h0, %h5};");
    lines
}

const K64: &[&str] = &["mov.s64 %d0, -7021933080544125039;"];
const ZERO: &str = "mov.b32 %r2, 0;";
const ADD: &str = "add.s16x2 %r3, %r0, %r2;";
const HIGH: &str = "mov.b32 {%h9, %h10}, %r3;";

/// 13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0` (orig; `w4_high_word_of_unpack`, `w4_unpacked_second`,
/// `w4_low_half_read`, `w4_unpack_of_folded_add`): the unpacked word dropped, 0 where the spec
/// stores its byte; `w4_both_nonzero` (r2 = 0x00030005): `VIADD.16x2 R0, R0(=3), 0x0`, 3.
#[test]
fn j_8a55bf3e_a_word_of_an_unpacked_b64_constant_is_dropped_from_the_narrowed_add() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    exact_case(&j_body(K64, ZERO, ADD, HIGH), [0; 4], d, 0x9a, 0);
    exact_case(&j_body(K64, ZERO, "add.s16x2 %r3, %r1, %r2;", HIGH), [0; 4], d, 0x8d, 0);
    exact_case(&j_body(K64, ZERO, "add.s16x2 %r3, %r2, %r0;", HIGH), [0; 4], d, 0x9a, 0);
    exact_case(&j_body(K64, ZERO, ADD, "mov.b32 {%h10, %h9}, %r3;"), [0; 4], d, 0x91, 0);
    exact_case(&j_body(K64, "mov.b32 %r2, 0x00030005;", ADD, HIGH), [0; 4], d, 0x9d, 3);
    let folded = ["mov.s64 %d0, -7021933080544125039;", "add.s64 %d0, %d0, 1;"];
    exact_case(&j_body(&folded, ZERO, ADD, HIGH), [0; 4], d, 0x9a, 0);
}

/// Right: an unpack of a loaded word (`w4_unpack_of_loaded_right`: `VIADD.16x2 R0, R2, RZ`, the
/// loaded half kept), the sum read whole (`v3_sum_read_whole_right`: `VIADD.16x2 R5, RZ,
/// 0x299a5f91`).
#[test]
fn j_an_unpacked_loaded_word_or_a_sum_read_whole_is_kept() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    untouched(&j_body(&["ld.global.b64 %d0, [%in];"], ZERO, ADD, HIGH), [0x299a_5f91, 0x9e8d_1511, 0, 0], d);
    let whole = [K64[0], "mov.b64 {%r0, %r1}, %d0;", ZERO, ADD, "st.global.u32 [%out], %r3;"];
    untouched(&whole, [0; 4], d);
}

/// The stored case (8a55bf3eff5ee29c): word 0 is 0 where the spec gives 0x9a on every thread,
/// every other word the spec's.
#[test]
fn j_8a55bf3e_stored_case_is_emulated() {
    let (p, i) = stored_case("4802", "8a55bf3eff5ee29c");
    for (t, w, s, e) in words_emulated_alone(&p, &i, Deviation::AddU16x2OfConstantsNarrowedDropsOne) {
        if w == 0 {
            assert_eq!((s.bits as u32, e.bits as u32), (0x9a, 0), "thread {t} word {w}");
        } else {
            assert_eq!(s, e, "thread {t} word {w}");
        }
    }
}
