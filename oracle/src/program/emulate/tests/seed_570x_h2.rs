//! Tests of 1c2ac943's emulation widened after seeds 5702/5703's trace T57B (helper h2, session 57;
//! corpus/findings/fuzz-h200-5702/trace/T57B.md, variants in fuzz-h200-5702/trace/f9ec76ad/s57/ and
//! fuzz-h200-5703/trace/5ff8f0a0/s57/ with 13.0.88 and 13.5 -O3 listings): y = `shr.s32 x, a` of an
//! x with n known leading ones (n + a ≤ 4) ranged by ptxas 13.0.88 as `shr.u32 x, a`, read by an
//! `and.b32` (f9ec76ad: `chained_shr_s32_of_known_ones_folded_to_zero::and_inside_the_known_ones`)
//! and by a `setp` with an immediate (5ff8f0a0: `::compare_with_an_immediate`).

use super::*;

const D: Deviation = Deviation::ChainedShrS32OfKnownOnesFoldedToZero;

/// Word `w` of thread 0 of `p` on `i`: the spec's and emulating [`D`], with the deviations that fired.
fn word0(p: &Program, i: &Inputs, w: u32) -> (u64, u64, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(p, i, &Allowances::all().emulating(D)).unwrap();
    let e = out.remove(0);
    (spec.field(32 * w, 32).bits as u64, e.field(32 * w, 32).bits as u64, fired)
}

/// The variant `name` (in `s57/`) of `id8` of `seed`: word `w` of thread 0 is `spec` by the spec and
/// `bug` emulating [`D`], which fired.
fn wrong(seed: &str, id8: &str, name: &str, patch: &[(usize, u32)], w: u32, spec: u64, bug: u64) {
    let (p, i) = super::variant_of(seed, id8, &format!("s57/{name}"), patch);
    assert_eq!(word0(&p, &i, w), (spec, bug, vec![D]), "{name}");
}

/// The variant `name` (in `s57/`) of `id8` of `seed` is left alone: every word the spec's, nothing fired.
fn right(seed: &str, id8: &str, name: &str, patch: &[(usize, u32)]) {
    let (p, i) = super::variant_of(seed, id8, &format!("s57/{name}"), patch);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{name}");
}

/// Each of the first 8 threads of stored case `name` of `seed` gives `bug` in each word of `words`
/// emulating [`D`] alone, where the spec gives `spec` (the campaign's stored -O3 and JIT words).
fn stored(seed: &str, name: &str, words: &[u32], spec: u64, bug: u64) {
    let (p, i) = super::stored_case(seed, name);
    let all = super::words_emulated_alone(&p, &i, D);
    for t in 0..8 {
        for &w in words {
            let (_, _, s, e) = all.iter().find(|(u, v, _, _)| (*u, *v) == (t, w)).unwrap();
            assert_eq!((s.bits as u64, e.bits as u64), (spec, bug), "{name} thread {t} word {w}");
        }
    }
}

/// f9ec76ad: `or.b32 x, 0xe0000000; shr.s32 y, 1; and.b32 y, 0x80000000` is 13.0.88 -O3 `STG.E.64
/// RZ` (0, where §9.7.8 gives 0x80000000: y's top 4 bits are ones); the and of a K inside y's known
/// ones is K & (0xffffffff >> a): `v02`, `v03`, `v05`, `v07` (n + a ≤ 4), `v09` (0x40000000), `v11`
/// (0x70000000), `v16` (a 32-bit store), `v17`, `v19`, `v20` (n 2, a 2: 0), `v21`
/// (0x30000000), `v22` (n 1, a 3: 0x10000000).
#[test]
fn c1c2_f9ec76ad_an_and_inside_the_known_ones_loses_the_top_a_bits() {
    stored("5702", "f9ec76ad013ec809", &[0], 0x8000_0000, 0);
    let x = [(1, 0x1234_5678)];
    for v in ["v02_n1_a1", "v03_n2_a1", "v05_n2_a2", "v07_n1_a3", "v16_st_b32", "v17_or_e0000001"] {
        wrong("5702", "f9ec76ad", v, &x, 0, 0x8000_0000, 0);
    }
    wrong("5702", "f9ec76ad", "v09_and_c0000000", &x, 0, 0xc000_0000, 0x4000_0000);
    wrong("5702", "f9ec76ad", "v11_and_f0000000", &x, 0, 0xf000_0000, 0x7000_0000);
    wrong("5702", "f9ec76ad", "v19_and_a0000000", &x, 0, 0xa000_0000, 0x2000_0000);
    wrong("5702", "f9ec76ad", "v20_n2_a2_and_c0000000", &x, 0, 0xc000_0000, 0);
    wrong("5702", "f9ec76ad", "v21_n2_a2_and_f0000000", &x, 0, 0xf000_0000, 0x3000_0000);
    wrong("5702", "f9ec76ad", "v22_n1_a3_and_f0000000", &x, 0, 0xf000_0000, 0x1000_0000);
}

/// f9ec76ad's right neighbours (13.0.88 -O3): n + a = 5 (`v04`, `v06`, `v08`), a K bit outside the
/// known ones (`v10`, `v12`, `v18`, `v23`: `LOP3` kept), no `or` (`v14`), a loaded K (`v15`).
#[test]
fn c1c2_f9ec76ad_right_neighbours_are_left_alone() {
    for v in [
        "v04_n4_a1",
        "v06_n2_a3",
        "v08_n1_a4",
        "v10_and_80000001",
        "v12_and_ff000000",
        "v18_and_7fffffff",
        "v23_n2_a2_and_f8000000",
        "v14_no_or",
        "v15_and_loaded",
    ] {
        right("5702", "f9ec76ad", v, &[(1, 0x9234_5679), (2, 0x8000_0000)]);
    }
}

/// 5ff8f0a0: `or.b32 x, 0xe6cbf576; shr.s32 y, 1; setp.ge.s32 p, y, 3; selp.b32 y, -1, p` is
/// 13.0.88 -O3 y stored (0xf365fabb for x = 0), where §9.7.7 gives −1 (y is negative); every compare
/// with K outside [ones(n) >> a, 0xffffffff >> a] folded from that range.
#[test]
fn c1c2_5ff8f0a0_a_compare_with_an_immediate_is_decided_by_the_logical_range() {
    stored("5703", "5ff8f0a0662ffc20", &[0, 1], 0xffff_ffff, 0xf365_fabb);
    let wrong = |name: &str, spec: u64, bug: u64| wrong("5703", "5ff8f0a0", name, &[], 0, spec, bug);
    let m1 = 0xffff_ffff;
    wrong("u02_n1_a1", m1, 0xd365_fabb);
    wrong("u03_n2_a1", m1, 0xe365_fabb);
    wrong("u05_n2_a2", m1, 0xf1b2_fd5d);
    wrong("u07_n1_a3", m1, 0xf4d9_7eae);
    wrong("u09_or_e0000000", m1, 0xf000_0000);
    wrong("u20_ld_b32", m1, 0xf365_fabb);
    // ge 0, gt 3, ge −5, lt.u32 0x80000000, ge lo − 1: folded true.
    for v in ["u10_ge_0", "u23_gt_3", "u25_ge_m5", "u41_lt_u32_80000000", "u44_ge_6fffffff"] {
        wrong(v, m1, 0xf365_fabb);
    }
    // lt 0, le 2, lt 3, lt −5: folded false.
    for v in ["u11_lt_0", "u16_le_2", "u24_lt_3", "u26_lt_m5"] {
        wrong(v, 0xf365_fabb, m1);
    }
    wrong("u34_gt_m1_selp5", 5, 0xf365_fabb);
}

/// 5ff8f0a0's right neighbours (13.0.88 -O3): n + a = 5 (`u04`, `u06`, `u08`), K inside [lo, hi]
/// (`ISETP` kept), the min/max forms (`VIMNMX`), no `or`, a loaded K, and folds the spec agrees with.
#[test]
fn c1c2_5ff8f0a0_right_neighbours_are_left_alone() {
    for v in [
        "u04_n4_a1",
        "u06_n2_a3",
        "u08_n1_a4",
        "u13_ge_74000000",
        "u14_ge_7365fabb",
        "u15_ge_7365fabc",
        "u30_n1_ge_40000000",
        "u31_n1_ge_40000001",
        "u32_le_7fffffff",
        "u33_lt_7fffffff",
        "u43_n2_a2_ge_3fffffff",
        "u45_ge_70000000",
        "u12_gt_m1",
        "u35_ge_3_selp3",
        "u40_lt_m1_selpm1",
        "u21_no_or",
        "u22_ge_reg",
        "u17_eq_3",
        "u18_ne_3",
        "u19_ge_u32",
        "u36_eq_m1",
        "u37_ne_m1",
        "u42_n2_a2_ge_40000000",
    ] {
        right("5703", "5ff8f0a0", v, &[(3, 0x1234_5678), (4, 0x8000_0000)]);
    }
}

/// Planted: the and and the compare of the same y, spec against emulated (every other emulation
/// leaves them alone).
#[test]
fn c1c2_planted_and_and_compare_of_the_logical_shift() {
    let shr = ["ld.global.b32 %r0, [%in];", "or.b32 %r1, %r0, 0xc0000000;", "shr.s32 %r2, %r1, 2;"];
    let and = [&shr[..], &["and.b32 %r3, %r2, 0xc0000000;", "st.global.u32 [%out], %r3;"]].concat();
    exact_case(&and, [0x0123_4567, 0, 0, 0], D, 0xc000_0000, 0);
    // y = 0xf048d159: ge 0x2fffffff (below lo 0x30000000) folded true, le 0x40000000 (above hi) true.
    let ge = ["setp.ge.s32 %p1, %r2, 0x2fffffff;", "selp.b32 %r3, %r2, 7, %p1;", "st.global.u32 [%out], %r3;"];
    exact_case(&[&shr[..], &ge].concat(), [0x0123_4567, 0, 0, 0], D, 7, 0xf048_d159);
    let le = ["setp.le.s32 %p1, %r2, 0x40000000;", "selp.b32 %r3, %r2, 7, %p1;", "st.global.u32 [%out], %r3;"];
    untouched(&[&shr[..], &le].concat(), [0x0123_4567, 0, 0, 0], D);
    let kept = ["setp.ge.s32 %p1, %r2, 0x30000000;", "selp.b32 %r3, %r2, 7, %p1;", "st.global.u32 [%out], %r3;"];
    untouched(&[&shr[..], &kept].concat(), [0x0123_4567, 0, 0, 0], D);
    let max = ["setp.gt.s32 %p1, %r2, 5;", "selp.b32 %r3, %r2, 5, %p1;", "st.global.u32 [%out], %r3;"];
    untouched(&[&shr[..], &max].concat(), [0x0123_4567, 0, 0, 0], D);
}
