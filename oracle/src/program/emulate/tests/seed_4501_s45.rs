//! Tests of a seed-4501 finding made known in session 45 (helper w3;
//! corpus/findings/fuzz-h200-4501/trace/T16t1.md; variants in trace/038a8b84/s45/): 3702-N3's
//! join of −1 and 1.0f in a one-armed `if` written as a branch around a branch (038a8b84).

use super::*;

/// 038a8b84's `reduced.ptx` (word 0 loaded, word 0 stored) with the old value `old`, the head
/// `head` (the statements from the guarded branch to the arm's label) and the arm `arm`.
fn around(old: &'static str, head: &[&'static str], arm: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r0, [%in];", "mov.b32 %r5, 0;", old, "setp.eq.s32 %p3, %r0, 2147483647;"];
    lines.extend_from_slice(head);
    lines.extend_from_slice(arm);
    lines.extend_from_slice(&["$L3:", "st.global.u32 [%out], %r3;"]);
    lines
}

/// The branch around a branch to the arm: `@!p bra L2; bra L3; L2:` (038a8b84), or `@p`.
const INVERTED: [&str; 3] = ["@!%p3 bra $L2;", "bra $L3;", "$L2:"];
const PLAIN: [&str; 3] = ["@%p3 bra $L2;", "bra $L3;", "$L2:"];

/// 038a8b84 (13.0.88 -O3 `HFMA2.MMA R7, -RZ, RZ, 1.875, 0; STG`): the arm's −1 over an old 1.0f
/// is dropped; so are `w1_guard_not_inverted`, `w2_swapped_old_m1_arm_1f` (`MOV R7,
/// 0xffffffff`) and `w6_arm_set` (the arm a `set` of constants).
#[test]
fn n3_3702_a_branch_around_a_branch_is_a_one_armed_if() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let (one, minus_one) = ("mov.b32 %r3, 1065353216;", "mov.b32 %r3, 4294967295;");
    // The finding: r0 = 0, so p3 is false and the arm runs (§9.7.12).
    let finding = around(one, &INVERTED, &[minus_one]);
    exact_case(&finding, [0; 4], d, 0xFFFF_FFFF, 0x3F80_0000);
    // The arm skipped: the old value either way.
    untouched(&finding, [0x7FFF_FFFF, 0, 0, 0], d);
    exact_case(&around(one, &PLAIN, &[minus_one]), [0x7FFF_FFFF, 0, 0, 0], d, 0xFFFF_FFFF, 0x3F80_0000);
    exact_case(&around(minus_one, &INVERTED, &[one]), [0; 4], d, 0x3F80_0000, 0xFFFF_FFFF);
    exact_case(&around(one, &INVERTED, &["set.ge.s32.u32 %r3, %r5, 0;"]), [0; 4], d, 0xFFFF_FFFF, 0x3F80_0000);
}

/// Right in 13.0.88 -O3 (trace/038a8b84/s45/): another pair (`r3_pair_5_7`, `@P0 MOV R7, 0x7`),
/// an if/else (`r4_two_armed_if`, `SEL`), the register read in the arm (`r5_read_in_arm`); and
/// a head that is no branch around a branch (`bra` to the arm's own label, a statement between).
#[test]
fn n3_3702_leaves_other_branch_around_a_branch_shapes_alone() {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let (one, minus_one) = ("mov.b32 %r3, 1065353216;", "mov.b32 %r3, 4294967295;");
    untouched(&around("mov.b32 %r3, 5;", &INVERTED, &["mov.b32 %r3, 7;"]), [0; 4], d);
    let two_armed = ["@!%p3 bra $L2;", "mov.b32 %r3, 5;", "bra $L3;", "$L2:"];
    untouched(&around(one, &two_armed, &[minus_one]), [0; 4], d);
    untouched(&around(one, &INVERTED, &[minus_one, "add.s32 %r3, %r3, %r0;"]), [0; 4], d);
    let to_itself = ["@!%p3 bra $L3;", "bra $L2;", "$L2:"];
    untouched(&around(one, &to_itself, &[minus_one]), [0x7FFF_FFFF, 0, 0, 0], d);
}
