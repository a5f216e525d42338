//! Tests of the emulations widened by seed 5603's traces (helper t8, session 56;
//! corpus/findings/fuzz-h200-5603/trace/T56H.md, variants trace/<id8>/s56/ with 13.0.88 and 13.5
//! -O3 listings): d1b73357 (c80aa912 mirrored, `max.u32` of a signed min by 0 folded to 0,
//! `emulate/min_s32_of_max_u32_by_zero_folded_to_zero.rs::max_of_min_glue`) and 5b4dc85d
//! (6e4d6e41's fp8 unpack of the high half of a shuffled constant ptxas folds because the body
//! loads, `emulate/j_shuffled_constant_folded_beside_a_load.rs`).

use super::*;

/// Checks that emulating `d` on variant `name` of `id8` (trace/<id8>/s56/) turns every 32-bit
/// word `s` into `bug(thread, word, s)`, some word changing.
fn wrong(d: Deviation, id8: &str, name: &str, bug: impl Fn(usize, u32, u64) -> u64) {
    let (p, i) = variant_of("5603", id8, &format!("s56/{name}"), &[]);
    let mut changed = 0;
    for (t, w, s, e) in words_emulated_alone(&p, &i, d) {
        let want = bug(t, w, s.bits as u64);
        assert_eq!(e.bits as u64, want, "{name}: thread {t} word {w} (spec {:#x})", s.bits);
        changed += usize::from(want != s.bits as u64);
    }
    assert!(changed > 0, "{name}: no word differs from the spec");
}

/// Checks that emulating `d` on variant `name` of `id8` leaves every word as the spec gives it,
/// firing nothing.
fn right(d: Deviation, id8: &str, name: &str) {
    let (p, i) = variant_of("5603", id8, &format!("s56/{name}"), &[]);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{name}");
}

const C80: Deviation = Deviation::MinS32OfMaxU32ByZeroFoldedToZero;

/// d1b73357's stored case: `slct.b32.s32 y, r0(=0), x, x; max.u32 z, y, 0` of x = 0xffffffff is
/// 13.0.88 -O3 `STG.E.STRONG.SYS [R2.64], RZ`: word 0 of every thread 0, the spec's 0xffffffff.
#[test]
fn d1b73357_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = stored_case("5603", "d1b73357af2c42d0");
    for (t, w, s, e) in words_emulated_alone(&p, &i, C80) {
        if w == 0 {
            assert_eq!((s.bits, e.bits), (0xffff_ffff, 0), "thread {t} word 0");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// Wrong alike (13.0.88 -O3 folded to `STG … RZ`): the min written out (`v1`), ld.global (`v3`),
/// the 64-bit `min.s64; max.u64` (`v11`), a moved 0 first (`v13`), a copy of x as slct's c
/// (`v14`), the min also stored (`v16`: the max's word 0, the min's word 1 kept).
#[test]
fn d1b73357_max_u32_of_a_signed_min_by_zero_is_folded_to_zero() {
    for name in ["v3_ld_global", "v1_min_s32", "v13_max_moved0_first", "v14_slct_b_is_x_c_other_reg_copy"] {
        wrong(C80, "d1b73357", name, |_, w, s| if w == 0 { 0 } else { s });
    }
    wrong(C80, "d1b73357", "v11_64bit", |_, _, _| 0);
    wrong(C80, "d1b73357", "v16_min_stored_too", |_, w, s| if w == 0 { 0 } else { s });
}

/// Right (the spec stands): other bounds (`v5` max by 1, `v7` min by −1, `v15` min by 5), a slct
/// that is no min (`v6` a = 5, `v9` c another load; `v12`, a the immediate 0, is right too but
/// the oracle's parser takes no immediate `a`), the slct alone (`v2`), `max.s32` (`v4`: 0 either way), `min.u32` of `max.s32`
/// (`v8`: 0 either way).
#[test]
fn d1b73357_other_bounds_and_selects_that_are_no_min_are_left_alone() {
    for name in [
        "v2_slct_only",
        "v4_max_s32",
        "v5_max_u32_by_1",
        "v6_slct_a5",
        "v7_min_s32_minus1",
        "v8_min_u32_of_max_s32",
        "v9_slct_other_c",
        "v15_max_u32_of_max_s32",
    ] {
        right(C80, "d1b73357", name);
    }
}

const FP8: Deviation = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;

/// Checks that emulating 6e4d6e41 on `(p, i)` makes word 0 of every thread any value (the stored
/// 0 and the spec's `spec` among them), the rest as the spec gives them.
fn any_word0(p: &Program, i: &Inputs, what: &str, spec: u128) {
    for (t, w, s, e) in words_emulating(p, i, FP8) {
        if w == 0 {
            assert_eq!(s.bits, spec, "{what}: spec of thread {t}");
            assert!(!e.is_exact() && e.matches(0) && e.matches(s.bits), "{what}: thread {t}: {e:?}");
        } else {
            assert_eq!(e, s, "{what}: thread {t} word {w}");
        }
    }
}

/// 5b4dc85d's stored case: `shfl.sync.idx.b32 r3, 0xd6774dea, …; mov.b32 {h0, h2}, r3;
/// cvt.rn.f16x2.e4m3x2 r6, h2; ld.global.v4 (dead)` is 13.0.88 and 13.5 -O3 `F2FP.F16.E4M3.UNPACK_B
/// R0, 0x12`: the stored 0 where the spec's h48 is 0xcb00 (word 0 = 0xcb000000).
#[test]
fn e5b4dc85d_the_campaign_case_is_any_value() {
    let (p, i) = stored_case("5603", "5b4dc85ddebfd331");
    any_word0(&p, &i, "orig", 0xcb00_0000);
}

/// Wrong alike (the bogus immediate, 13.0.88 and 13.5 -O3): any load (`w1` other registers, `w2`
/// scalar, `w5` before the shuffle), c 31 (`w6`), a moved constant (`w7`), e5m2x2 (`w8`), K = 0
/// (`w4`, 0x20), K = 0x12345678 (`w11`).
#[test]
fn e5b4dc85d_the_known_word_may_be_a_shuffled_constant_folded_beside_a_load() {
    for (name, spec) in [
        ("w1_load_other_regs", 0xcb00_0000),
        ("w2_scalar_load", 0xcb00_0000),
        ("w5_load_first", 0xcb00_0000),
        ("w6_c31", 0xcb00_0000),
        ("w7_moved_a", 0xcb00_0000),
        ("w4_zero", 0),
        ("w11_other_const", 0x2900_0000),
    ] {
        let (p, i) = variant_of("5603", "5b4dc85d", &format!("s56/{name}"), &[]);
        any_word0(&p, &i, name, spec);
    }
}

/// Right (the spec stands): no load (`v1_no_load`, `v2_c31`, `v3_moved_a`: `HFMA2.MMA R0 =
/// 0xd677`), the low half (`w3`), a loaded a (`w10`: the `SHFL` kept), the predicate destination
/// read (`w14_pred_read`: the `SHFL` kept), no shuffle (`w12`).
#[test]
fn e5b4dc85d_no_load_the_low_half_a_loaded_a_or_a_read_predicate_are_left_alone() {
    for name in
        ["v1_no_load", "v2_c31", "v3_moved_a", "w3_low_half", "w10_loaded_a", "w12_no_shfl_load", "w14_pred_read"]
    {
        right(FP8, "5b4dc85d", name);
    }
}
