//! Tests of the emulations widened by seed 5501's traces (helper t1, session 56;
//! corpus/findings/fuzz-h200-5501/trace/T56A.md, variants trace/<id8>/s56/ with 13.0.88 and 13.5
//! -O3 listings): 7d87687a (3602-N2 read whole by `not.b32`, `emulate/fuzz3602.rs`) and 9baa273a
//! (3701-N-D with h a `cvt.u8.f16`, `emulate/merge_c_half_of_u8_cvt_or_truncation.rs`). 0078d11a's
//! tests are in `cnot_read_by_a_live_zero_setp.rs`.

use super::*;

/// Checks that emulating `d` on variant `name` of `id8` (trace/<id8>/s56/, input words `patch`)
/// turns every 32-bit word `s` into `bug(thread, s)`, some word changing.
fn wrong(d: Deviation, id8: &str, name: &str, patch: &[(usize, u32)], bug: impl Fn(usize, u64) -> u64) {
    let (p, i) = variant_of("5501", id8, &format!("s56/{name}"), patch);
    let mut changed = 0;
    for (t, w, s, e) in words_emulated_alone(&p, &i, d) {
        let want = bug(t, s.bits as u64);
        assert_eq!(e.bits as u64, want, "{name}: thread {t} word {w} (spec {:#x})", s.bits);
        changed += usize::from(want != s.bits as u64);
    }
    assert!(changed > 0, "{name}: no word differs from the spec");
}

/// Checks that emulating `d` on variant `name` of `id8` leaves every word as the spec gives it,
/// firing nothing.
fn right(d: Deviation, id8: &str, name: &str, patch: &[(usize, u32)]) {
    let (p, i) = variant_of("5501", id8, &format!("s56/{name}"), patch);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{name}");
}

const N2: Deviation = Deviation::NegOfSetF32HalvesReadAsBoolean;

/// 7d87687a, the campaign case: `set.ge.f32.s32 s, 0, x; neg.s32 n, s; not.b32 d, n` of x = 0 is
/// the stored -O3 and JIT word 0 (~(−1) of the boolean) where the spec gives 0x3f7fffff.
#[test]
fn n2_7d87687a_the_campaign_case_gives_the_stored_words() {
    let (p, i) = stored_case("5501", "7d87687af459e91a");
    for (t, w, s, e) in words_emulated_alone(&p, &i, N2) {
        assert_eq!((s.bits, e.bits), (0x3f7f_ffff, 0), "thread {t} word {w}");
    }
}

/// Wrong, 13.0.88 and 13.5 -O3 (`SEL R7, RZ, 0xffffffff, P0`): `sub.s32` of a moved 0 (`v7`), a
/// copy of the negation between (`v18`), d stored as `.b16` (`v19`), `set.gt.f32.u32` with the set
/// true (`v6`, x = word 3 set to 1). (`v13`, `set.ge.f32.f32`, wrong alike, is no program text.)
#[test]
fn n2_7d87687a_not_of_a_negated_set_f32_reads_the_boolean() {
    for name in ["v7_sub_zero", "v18_copy_between"] {
        wrong(N2, "7d87687a", name, &[], |_, s| {
            assert_eq!(s, 0x3f7f_ffff);
            0
        });
    }
    wrong(N2, "7d87687a", "v19_not_stored_b16", &[], |_, s| {
        assert_eq!(s, 0xffff);
        0
    });
    wrong(N2, "7d87687a", "v6_set_u32", &[(3, 1)], |_, s| {
        assert_eq!(s, 0x3f7f_ffff);
        0
    });
}

/// Right, 13.0.88 and 13.5 -O3: the negation stored (`v1`), `not` of the set (`v2`), `add`/`xor`/
/// `and` readers of the negation (`v3`, `v4`, `v16`), an integer set (`v5`), s − 1 written out
/// (`v8`–`v10`, `v12`), the negation also stored (`v11`, another rewrite), a loaded word (`v14`),
/// `xor.b32 n, -1` (`v15`), the not read by an `and` (`v17`, fused).
#[test]
fn n2_7d87687a_right_neighbours_are_left_alone() {
    for name in [
        "v1_neg_stored",
        "v2_not_of_set",
        "v3_add_minus1_of_neg",
        "v4_xor_minus1_of_neg",
        "v5_int_set",
        "v8_add_minus1",
        "v9_sub_one",
        "v10_add_minus2",
        "v11_neg_also_stored",
        "v12_add_moved_minus1",
        "v14_loaded_word",
        "v15_xor_minus1",
        "v16_and_loaded",
        "v17_not_then_and",
    ] {
        right(N2, "7d87687a", name, &[]);
    }
}

const ND: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// 9baa273a, the campaign case: the xor's h3 (`cvt.rni.u8.f16` of a moved 0) is the e4m3x2 pair
/// 0xfe04 built in its register, so the stored byte is the spec's ^ 0x04: the stored -O3 and JIT
/// words 0x00050000 (thread 0) and 0x00010000 (threads 1–7).
#[test]
fn nd_9baa273a_the_campaign_case_gives_the_stored_words() {
    let (p, i) = stored_case("5501", "9baa273aeef067a5");
    for (t, w, s, e) in words_emulated_alone(&p, &i, ND) {
        let (spec, gpu) = if t == 0 { (0x0001_0000, 0x0005_0000) } else { (0x0005_0000, 0x0001_0000) };
        assert_eq!((s.bits, e.bits), (spec, gpu), "thread {t} word {w}");
    }
}

/// Wrong, 13.0.88 and 13.5 -O3 (`F2I.U8.F16…; LOP3 0xff; MERGE_C R0, imm, R0`): a loaded source
/// (`v1`, `v8`), `.rzi`/`.rmi`/`.rpi` (`v3`, `v11`), `.sat` (`v13`): h3 = 0 read as the pair's low
/// byte 0x04; `v9` (an e5m2x2 pair of f32, `mov.b32 {h3, h3}` xor-ed with the pack): 0xe4e40000.
#[test]
fn nd_9baa273a_a_float_to_u8_cvt_of_f16_is_the_pair_later() {
    for name in ["v1_loaded_f16", "v3_rzi", "v8_loaded_reused_reg", "v11_rmi", "v11_rpi", "v13_rni_sat"] {
        wrong(ND, "9baa273a", name, &[], |_, s| s ^ 0x0004_0000);
    }
    wrong(ND, "9baa273a", "v9_pair_f32_like_4302_v12", &[], |_, s| {
        assert_eq!(s, 0x0000_e4e4);
        0xe4e4_0000
    });
}

/// Right, 13.0.88 and 13.5 -O3: `.s8.f16` (`v4`: h3 recovered by `PRMT 0x7632`), a folded constant
/// h3 (`v5` `.u16`, `v7` a moved 0), h3 not packed (`v10`).
#[test]
fn nd_9baa273a_right_neighbours_are_left_alone() {
    for name in ["v4_s8", "v5_u16", "v7_moved_zero_h3", "v10_no_pack"] {
        right(ND, "9baa273a", name, &[]);
    }
}
