//! Tests of B where the skipped `cvt` to `.f32` (or `mov.f32`) writes a register whose old value
//! has no recorded origin, an integer copy of `%tix` (seed 5702's e9fc9a48, session 57, helper
//! h4; corpus/findings/fuzz-h200-5701/trace/T57D.md, variants in
//! corpus/findings/fuzz-h200-5702/trace/e9fc9a48/s57/; `emulate/skipped/f32_write_over_an_unrecorded_value.rs`).

use super::*;

const D: Deviation = Deviation::F32ShiftAmount;

/// The moved d0 shifted by the amount (`shr.u64 d1, d0, r1`; words 0-1 d0, words 2-3 d1).
const D0: u128 = 0x2205_e782;

/// Each thread's words of the variant `name` (the stored case when `None`), spec and emulated,
/// with B alone: words 0, 1 and 3 the spec's, word 2 (d1's low word) `d0 >> tid` by the spec and
/// d0 unshifted emulated (the amount converted: tid's bits as an f32, a subnormal, truncate to 0).
fn converted(name: Option<&str>) {
    let (p, i) = match name {
        None => super::stored_case("5702", "e9fc9a4851b9aadf"),
        Some(name) => super::variant_of("5702", "e9fc9a48", name, &[]),
    };
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 2 {
            assert_eq!((s.bits, e.bits), (D0 >> t, D0), "{name:?} thread {t}");
        } else {
            assert_eq!(e, s, "{name:?} thread {t} word {w}");
        }
    }
}

/// The stored case (`mov.s32 r1, %tix; @!p0 cvt.rz.f32.s32 r1, r0` with p0 true): the stored
/// -O3 words, 0x2205e782 in word 2 of every thread.
#[test]
fn b_e9fc9a48_the_stored_case_gives_the_stored_o3_words() {
    converted(None);
}

/// s57: `mov.b32 r1, %tix` (y4), a run-time guard of tid (y1), a skipped `mov.f32` (y7) alike.
#[test]
fn b_e9fc9a48_a_skipped_f32_write_over_a_copy_of_tid_converts_the_amount() {
    for name in ["s57/y4_mov_b32_copy", "s57/y1_guard_of_tid", "s57/y7_skipped_mov_f32"] {
        converted(Some(name));
    }
}

/// Right (raw shifts): no skipped write (y6), a branch around an unguarded cvt (y8: a label
/// between, B's boundary).
#[test]
fn b_e9fc9a48_no_skipped_write_or_a_branch_around_it_is_left_alone() {
    for name in ["s57/y6_no_cvt", "s57/y8_branch_around"] {
        let (p, i) = super::variant_of("5702", "e9fc9a48", name, &[]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
