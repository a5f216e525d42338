//! Tests of 3702-N3 widened to an old value shuffled from a constant (seed 4202, 2b94552e;
//! corpus/findings/fuzz-h200-4202/trace/T12b4.md and `trace/2b94552e/s44/`; helper u2, session
//! 44): the traced form and its neighbours the 13.0.88 -O3 listings show wrong emulated, those
//! they show right left alone.

use super::*;

/// A one-armed `if` taken for thread input 11: `old` writes `%r1` before the branch, `arm` in
/// the arm, `after` runs at the join; `%r1` stored.
fn shuffled_if(old: &[&str], arm: &[&str], after: &[&str]) -> Vec<String> {
    let mut lines = vec!["ld.global.u32 %r7, [%in];".to_string()];
    lines.extend(old.iter().map(|s| s.to_string()));
    lines.extend(["setp.ne.s32 %p1, %r7, 11;".to_string(), "@%p1 bra $L0;".to_string()]);
    lines.extend(arm.iter().map(|s| s.to_string()));
    lines.push("$L0:".to_string());
    lines.extend(after.iter().map(|s| s.to_string()));
    lines.push("st.global.u32 [%out], %r1;".to_string());
    lines
}

/// The stored arm: `set.le.s32.s32` of a loaded word with itself (−1).
const LOADED_SELF_SET: [&str; 2] = ["ld.global.b32 %r8, [%in+4];", "set.le.s32.s32 %r1, %r8, %r8;"];

/// Checks that emulating 3702-N3 turns the spec's `spec` of `lines` (thread 0 of a warp) into
/// `bug`, firing it.
fn merged(lines: &[String], spec: u32, bug: u32) {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let (s, e, fired) = warp_both(&strs(lines), [11, 0x1234, 0, 0], d);
    assert_eq!((s.bits as u32, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert_eq!((e.bits as u32, e.is_exact(), fired), (bug, true, vec![d]), "{lines:?}");
}

/// Checks that emulating 3702-N3 leaves `lines` as the spec says.
fn kept(lines: &[String]) {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let (s, e, fired) = warp_both(&strs(lines), [11, 0x1234, 0, 0], d);
    assert_eq!((e, fired), (s, vec![]), "{lines:?}");
}

/// 2b94552e (`orig.ptx`, `var/v12_shfl_old`, `var/v14_shfl_bfly`): the old 1.0f a
/// `shfl.sync.idx.b32 r1|p0` (p0 unread) of a moved 1.0f, the arm a self-compare of a loaded
/// word: 13.0.88 -O3 stores 1.0f alone (`HFMA2.MMA R7, -RZ, RZ, 1.875, 0; STG`), where the spec
/// gives −1. The same for every mode, no `|p`, any lane and clamp, an immediate, copied or
/// converted `a`, a shuffle of a shuffle, a copy of the shuffle (`s01`–`s03`, `s05`, `s06`,
/// `s08`–`s10`, `s13`, `s18`, `s19`).
#[test]
fn n3_an_old_one_f32_shuffled_from_a_constant_is_kept_over_a_loaded_self_compare() {
    let one = "mov.b32 %r0, 1065353216;";
    let forms: [&[&str]; 10] = [
        &[one, "shfl.sync.idx.b32 %r1|%p0, %r0, 63, 1921724238, -1;"],
        &[one, "shfl.sync.bfly.b32 %r1|%p0, %r0, 3, 31, -1;"],
        &[one, "shfl.sync.up.b32 %r1|%p0, %r0, 3, 0, -1;"],
        &[one, "shfl.sync.down.b32 %r1, %r0, 5, 0x1f, -1;"],
        &[one, "ld.global.b32 %r5, [%in+8];", "shfl.sync.idx.b32 %r1|%p0, %r0, %r5, %r5, -1;"],
        &["shfl.sync.idx.b32 %r1|%p0, 1065353216, 63, 1921724238, -1;"],
        &[one, "mov.b32 %r2, %r0;", "mov.b32 %r5, -1;", "shfl.sync.idx.b32 %r1|%p0, %r2, 7, 0x1f, %r5;"],
        &["mov.b32 %r0, 1;", "cvt.rn.f32.s32 %r2, %r0;", "shfl.sync.idx.b32 %r1|%p0, %r2, 7, 0x1f, -1;"],
        &[one, "shfl.sync.bfly.b32 %r2, %r0, 1, 0x1f, -1;", "shfl.sync.idx.b32 %r1|%p0, %r2, 63, 1921724238, -1;"],
        &[one, "shfl.sync.idx.b32 %r2|%p0, %r0, 3, 0x1f, -1;", "mov.b32 %r1, %r2;"],
    ];
    for old in forms {
        merged(&shuffled_if(old, &LOADED_SELF_SET, &[]), 0xFFFF_FFFF, 0x3F80_0000);
    }
}

/// The other arms 13.0.88 -O3 drops under a shuffled old value: `setp.le` of a loaded word with
/// itself and `selp` of −1 (moved) and 0 (`s24`, `s24b`), `set.ge.u32.u32` (`s28`), the self-compare of an `add` of
/// the load (`s30`), the load before the branch (`s29`), and under an old shuffled −1
/// `set.le.f32.s32` (1.0f; `s12c`, the −1 stored).
#[test]
fn n3_any_self_compare_of_a_loaded_value_is_dropped_under_a_shuffled_constant() {
    let shuffled_one = ["mov.b32 %r0, 1065353216;", "shfl.sync.idx.b32 %r1|%p0, %r0, 63, 1921724238, -1;"];
    let load = "ld.global.b32 %r8, [%in+4];";
    let arms: [&[&str]; 3] = [
        &[load, "mov.b32 %r10, -1;", "setp.le.s32 %p3, %r8, %r8;", "selp.b32 %r1, %r10, 0, %p3;"],
        &[load, "set.ge.u32.u32 %r1, %r8, %r8;"],
        &[load, "add.u32 %r9, %r8, 3;", "set.le.s32.s32 %r1, %r9, %r9;"],
    ];
    for arm in arms {
        merged(&shuffled_if(&shuffled_one, arm, &[]), 0xFFFF_FFFF, 0x3F80_0000);
    }
    let loaded_before = [shuffled_one[0], shuffled_one[1], load];
    merged(&shuffled_if(&loaded_before, &["set.le.s32.s32 %r1, %r8, %r8;"], &[]), 0xFFFF_FFFF, 0x3F80_0000);
    let shuffled_minus_one = ["mov.b32 %r0, -1;", "shfl.sync.idx.b32 %r1|%p0, %r0, 63, 1921724238, -1;"];
    merged(&shuffled_if(&shuffled_minus_one, &[load, "set.le.f32.s32 %r1, %r8, %r8;"], &[]), 0x3F80_0000, 0xFFFF_FFFF);
}

/// Right in 13.0.88 -O3 (`SHFL` kept, or the arm's `@!P0 MOV` kept): the shuffle's predicate
/// destination read (`s04`), a loaded membermask (`s07`), a loaded `a` (`var/v13`); under a
/// shuffled constant an arm moving −1 (`s21`), copying a moved −1 (`s23`), a `set` of moved
/// constants (`s22`), a `cvt` of a moved 1 under an old −1 (`s25`), a self-compare of a moved
/// value (`s32`; of %tid.x or an `add` of it, `s27`, `s31`).
#[test]
fn n3_a_shuffle_ptxas_keeps_or_an_arm_it_folds_otherwise_is_the_spec() {
    let one = "mov.b32 %r0, 1065353216;";
    let idx = "shfl.sync.idx.b32 %r1|%p0, %r0, 63, 1921724238, -1;";
    kept(&shuffled_if(&[one, idx], &LOADED_SELF_SET, &["selp.b32 %r2, %r7, 9, %p0;", "st.global.u32 [%out+4], %r2;"]));
    let masked = ["ld.global.b32 %r5, [%in+8];", one, "shfl.sync.idx.b32 %r1|%p0, %r0, 3, 0x1f, %r5;"];
    kept(&shuffled_if(&masked, &LOADED_SELF_SET, &[]));
    let of_loaded = ["ld.global.b32 %r0, [%in+12];", "shfl.sync.idx.b32 %r1|%p0, %r0, 63, 1921724238, -1;"];
    kept(&shuffled_if(&of_loaded, &LOADED_SELF_SET, &[]));
    for arm in [
        &["mov.b32 %r1, -1;"][..],
        &["mov.b32 %r5, -1;", "mov.b32 %r1, %r5;"],
        &["mov.b32 %r5, 0;", "set.eq.s32.u32 %r1, %r5, 0;"],
        &["mov.b32 %r9, 3;", "set.le.s32.s32 %r1, %r9, %r9;"],
    ] {
        kept(&shuffled_if(&[one, idx], arm, &[]));
    }
    let minus_one = ["mov.b32 %r0, -1;", "shfl.sync.idx.b32 %r1|%p0, %r0, 63, 1921724238, -1;"];
    kept(&shuffled_if(&minus_one, &["mov.b32 %r5, 1;", "cvt.rn.f32.s32 %r1, %r5;"], &[]));
}
