//! Tests of 6a4d050b's fold with the arm its `setp.ne s, 1` pins copying s (seed 6101's 5636968d:
//! corpus/findings/fuzz-h200-6101/trace/T61C.md, `trace/5636968d/s61/`;
//! `emulate/setp_one_of_f32_set_of_wide_source/arm_copy_reads_the_pinned_one.rs`).

use super::*;

const D: Deviation = Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet;

/// `set.ge.f32.s64 r1, 0, d8` of the first two words, `compare` into p2, the `arm` layout, r6
/// (0 before) stored.
fn kernel(compare: &'static [&'static str], arm: &'static [&'static str]) -> Vec<&'static str> {
    let mut v =
        vec!["ld.global.u64 %d8, [%in];", "mov.b64 %d6, 0;", "mov.b32 %r6, 0;", "set.ge.f32.s64 %r1, %d6, %d8;"];
    v.extend_from_slice(compare);
    v.extend_from_slice(arm);
    v.push("st.global.u32 [%out], %r6;");
    v
}

const NE_ONE: &[&str] = &["setp.ne.s32 %p2, %r1, 1;"];
/// The case's layout: `@!p2 bra L2; bra L3; L2: mov r6, r1; L3:`.
const JUMP_ARM: &[&str] = &["@!%p2 bra $L2;", "bra $L3;", "$L2:", "mov.b32 %r6, %r1;", "$L3:"];
/// `a4_store32`'s layout: `@p2 bra L3; mov r6, r1; L3:`.
const FALL_ARM: &[&str] = &["@%p2 bra $L3;", "mov.b32 %r6, %r1;", "$L3:"];

/// The stored case: every thread's word 0 is 1 (the GPU's), where the spec stores 0.
#[test]
fn c5636968d_the_stored_case_copies_the_pinned_1() {
    let (p, i) = stored_case("6101", "5636968d99af8e5e");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0, 1), "thread {t} word {w}");
    }
}

/// The case's layout, `a4`'s fall-through arm, `a7`'s moved 1.
#[test]
fn c5636968d_a_copy_in_the_arm_pinned_by_setp_ne_one_is_1() {
    exact_case(&kernel(NE_ONE, JUMP_ARM), [0, 0, 0, 0], D, 0, 1);
    exact_case(&kernel(NE_ONE, FALL_ARM), [0, 0, 0, 0], D, 0, 1);
    let moved = &["mov.b32 %r3, 1;", "setp.ne.s32 %p2, %r1, %r3;"];
    exact_case(&kernel(moved, FALL_ARM), [0, 0, 0, 0], D, 0, 1);
}

/// Right: a compare with 2 (`a2`), the set false (no arm either way); the eq form (`a1`: the fold
/// runs the arm, which copies the word 0x3f800000, not 1).
#[test]
fn c5636968d_outside_a_pinned_arm_the_copy_reads_the_word() {
    untouched(&kernel(&["setp.ne.s32 %p2, %r1, 2;"], JUMP_ARM), [0, 0, 0, 0], D);
    untouched(&kernel(NE_ONE, JUMP_ARM), [5, 0, 0, 0], D);
    let eq = &["setp.eq.s32 %p2, %r1, 1;"];
    let eq_arm: &[&str] = &["@%p2 bra $L2;", "bra $L3;", "$L2:", "mov.b32 %r6, %r1;", "$L3:"];
    let (s, e, _) = both(&kernel(eq, eq_arm), [0, 0, 0, 0], D);
    assert_eq!((s.bits as u32, e.bits as u32), (0, 0x3f80_0000));
}
