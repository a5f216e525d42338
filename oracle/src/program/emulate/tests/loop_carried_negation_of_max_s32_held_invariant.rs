//! Tests of 17b32162's emulation (`emulate/loop_carried_negation_of_max_s32_held_invariant.rs`):
//! a loop-carried negation of 0x7fffffff in a loop ptxas does not evaluate ahead keeps
//! 0x7fffffff (corpus/findings/fuzz-h200-4601/trace/5417329a/ and its `s47/`, 35e392ba/, 13.0.88
//! -O3 listings): the wrong forms emulated, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::LoopCarriedNegationOfMaxS32HeldInvariant;

/// `mov r0, init; mov r1, start; L: step; add.s32 r1, r1, 2; setp.lt.u32 p0, r1, 8; @p0 bra L;`
/// and r0 stored: 5417329a's loop.
fn up_loop(init: &'static str, start: &'static str, step: &'static str) -> Vec<String> {
    vec![
        format!("mov.b32 %r0, {init};"),
        format!("mov.u32 %r1, {start};"),
        "$L0:".into(),
        step.into(),
        "add.s32 %r1, %r1, 2;".into(),
        "setp.lt.u32 %p0, %r1, 0x8;".into(),
        "@%p0 bra $L0;".into(),
        "st.global.b32 [%out], %r0;".into(),
    ]
}

const XOR: &str = "xor.b32 %r0, %r0, 0xffffffff;";

/// 5417329a's and 35e392ba's campaign cases: emulating 17b32162 alone gives the stored ptxas
/// -O3 and JIT word 1, 0x7fffffff (`MOV R7, 0x7fffffff; STG.E [+0x4]`), of every thread, and
/// the spec's words elsewhere.
#[test]
fn n_17b32162_the_campaign_cases_of_seed_4601_give_the_stored_o3_words() {
    for name in ["5417329a01f82847", "35e392bae0e1926d"] {
        let (p, i) = super::stored_case("4601", name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            let want = if w == 1 { 0x7fff_ffff } else { s.bits };
            assert_eq!(e.bits, want, "{name} thread {t} word {w}");
            assert!(w != 1 || s.bits == 0x8000_0000, "{name}: the spec's one trip");
        }
    }
}

/// Wrong alike (13.0.88 -O3 `MOV R7, 0x7fffffff`): `neg.s32` (`v5_neg`), `mul.lo.s32` by −1
/// (`s47/v2_mul_m1`), three negations a trip (`s47/v9_three_negations`), starts S = b and S ≥ b + k
/// (`start_scan.txt`, `s47/v1_start_step_scan.txt`), a loaded counter (`v2_loaded_start`), a
/// loaded count stepped down (`s47/v6_loaded_countdown`), and a reader in the loop
/// (`s47/v4_read_in_loop`: `IADD3 R5, R5, 0x7fffffff`).
#[test]
fn n_17b32162_a_negation_of_max_s32_in_a_loop_not_evaluated_ahead_is_held() {
    let held = |lines: &[String], words: [u32; 4]| exact_case(&strs(lines), words, D, 0x8000_0000, 0x7fff_ffff);
    held(&up_loop("2147483647", "1048576", XOR), [0; 4]);
    // −0x7fffffff = 0x80000001 (§9.7.1.14, §9.7.1.3).
    for negation in ["neg.s32 %r0, %r0;", "mul.lo.s32 %r0, %r0, -1;"] {
        exact_case(&strs(&up_loop("2147483647", "1048576", negation)), [0; 4], D, 0x8000_0001, 0x7fff_ffff);
    }
    held(&up_loop("2147483647", "8", XOR), [0; 4]);
    held(&up_loop("2147483647", "10", XOR), [0; 4]);
    let mut three = up_loop("2147483647", "1048576", XOR);
    three.splice(3..3, [XOR.to_string(), XOR.to_string()]);
    held(&three, [0; 4]);
    let mut loaded_start = up_loop("2147483647", "0", XOR);
    loaded_start[1] = "ld.global.u32 %r1, [%in];".into();
    held(&loaded_start, [0x0010_0000, 0, 0, 0]);
    let countdown = [
        "mov.b32 %r0, 2147483647;",
        "ld.global.u32 %r1, [%in];",
        "or.b32 %r1, %r1, 1;",
        "$L0:",
        XOR,
        "sub.u32 %r1, %r1, 1;",
        "setp.gt.u32 %p0, %r1, 0;",
        "@%p0 bra $L0;",
        "st.global.b32 [%out], %r0;",
    ];
    exact_case(&countdown, [3, 0, 0, 0], D, 0x8000_0000, 0x7fff_ffff);
    // The reader in the loop sees the held 0x7fffffff too.
    let mut reader = up_loop("2147483647", "1048576", XOR);
    reader.insert(1, "mov.u32 %r2, 0;".into());
    reader.insert(5, "add.u32 %r2, %r2, %r0;".into());
    reader.push("st.global.b32 [%out+4], %r2;".into());
    let (s, e, fired) = both(&strs(&reader), [0; 4], D);
    assert_eq!((s.bits, e.bits, fired), (0x8000_0000_8000_0000, 0x7fff_ffff_7fff_ffff, vec![D]));
}

/// Right (the spec stands): other start values of r0 (`v3_init_{5,2147483648}`), a loaded r0
/// (`s47/v8_loaded_init_r0`), `not.b32` (`v4_not`), a start ptxas evaluates ahead (S < b: 35e392ba's
/// `v3_one_trip_small`; b < S < b + k: S = 9), a known count stepped down (`s47/v5_countdown_const3`),
/// no loop (`v6_no_loop`), and a start S ≥ 2^31 (not emulated: `s47/v7_start_min`).
#[test]
fn n_17b32162_leaves_evaluated_loops_and_other_values_alone() {
    let alone = |lines: &[String], words: [u32; 4]| untouched(&strs(lines), words, D);
    alone(&up_loop("5", "1048576", XOR), [0; 4]);
    alone(&up_loop("2147483648", "1048576", XOR), [0; 4]);
    alone(&up_loop("2147483647", "1048576", "not.b32 %r0, %r0;"), [0; 4]);
    alone(&up_loop("2147483647", "7", XOR), [0; 4]);
    alone(&up_loop("2147483647", "9", XOR), [0; 4]);
    alone(&up_loop("2147483647", "2147483648", XOR), [0; 4]);
    let mut loaded_r0 = up_loop("0", "1048576", XOR);
    loaded_r0[0] = "ld.global.u32 %r0, [%in];".into();
    alone(&loaded_r0, [0x7fff_ffff, 0, 0, 0]);
    let countdown = [
        "mov.b32 %r0, 2147483647;",
        "mov.u32 %r1, 3;",
        "$L0:",
        XOR,
        "sub.u32 %r1, %r1, 1;",
        "setp.gt.u32 %p0, %r1, 0;",
        "@%p0 bra $L0;",
        "st.global.b32 [%out], %r0;",
    ];
    untouched(&countdown, [0; 4], D);
    untouched(&["mov.b32 %r0, 2147483647;", XOR, "st.global.b32 [%out], %r0;"], [0; 4], D);
}

/// A constant count (`mov.u32 r4, count`, stepped down to 0) after a join reached by
/// `@!p bra $L0` over `arm` (p from a loaded word), r0 moved before the branch: 17b32162's orig.
fn behind_a_branch(arm: &'static str, count: &'static str) -> Vec<String> {
    vec![
        "mov.b32 %r0, 2147483647;".into(),
        "ld.global.u32 %r5, [%in];".into(),
        "setp.ne.s32 %p0, %r5, 1;".into(),
        "@!%p0 bra $L0;".into(),
        arm.into(),
        "$L0:".into(),
        format!("mov.u32 %r4, {count};"),
        "$L2:".into(),
        XOR.into(),
        "sub.u32 %r4, %r4, 0x1;".into(),
        "setp.gt.u32 %p2, %r4, 0x0;".into(),
        "@%p2 bra $L2;".into(),
        "st.global.b32 [%out], %r0;".into(),
    ]
}

/// 17b32162's own campaign case (seed 4201, `mov.f32 r0, 0f7FFFFFFF`, a branch over an
/// `ld.acquire`, 7 trips): emulating 17b32162 alone gives the stored -O3 and JIT word 3,
/// 0x7fffffff, of every thread; and the arms ptxas keeps (an `ld.acquire`, a store:
/// `d_store_arm_loop`, `s2_c1`, `s4_c3`) hold the negation, the arms it deletes (`r3_no_load`,
/// `r5_ld_weak`) do not, nor r0 moved after the join (`w/i_loop_other_reg_init`).
#[test]
fn n_17b32162_a_loop_after_a_join_of_a_kept_arm_is_held() {
    let (p, i) = super::stored_case("4201", "17b3216231ef1f7e");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 3 { 0x7fff_ffff } else { s.bits };
        assert_eq!((e.bits, e.is_exact()), (want, true), "thread {t} word {w}");
    }
    let acquire = "ld.acquire.gpu.global.u64 %d0, [%in+8];";
    let store = "st.global.u32 [%out+4], %r5;";
    for (arm, count) in [(acquire, "7"), (acquire, "1"), (acquire, "3"), (store, "1")] {
        let (s, e, fired) = both(&strs(&behind_a_branch(arm, count)), [0; 4], D);
        assert_eq!((s.bits & 0xFFFF_FFFF, e.bits & 0xFFFF_FFFF, fired), (0x8000_0000, 0x7fff_ffff, vec![D]), "{arm}");
    }
    for arm in ["add.u32 %r6, %r5, 1;", "ld.global.u64 %d0, [%in+8];"] {
        untouched(&strs(&behind_a_branch(arm, "7")), [0; 4], D);
    }
    let mut after_join = behind_a_branch(store, "1");
    let moved = after_join.remove(0);
    after_join.insert(5, moved);
    untouched(&strs(&after_join), [0; 4], D);
}
