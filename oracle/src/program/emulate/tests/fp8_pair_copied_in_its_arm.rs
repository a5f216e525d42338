//! Tests of 59da91ec's form A reached through a copy of the pair made in the arm (seed 5801's
//! 55941181, session 58, helper he; corpus/findings/fuzz-h200-5801/trace/T58E.md, variants in
//! trace/55941181/s58/; `emulate/fp8_pair_built_only_in_its_pack/copied_in_its_arm.rs`).

use super::*;

const D: Deviation = Deviation::Fp8PairBuiltOnlyInItsPack;

/// 55941181's stored case (`None`) or its variant `name`, with 59da91ec alone: word 1 is `bug`
/// where the spec gives 0 (the arm's copy of the pair keeps the value loaded before the branch);
/// every other word is the spec's.
fn kept(name: Option<&str>, bug: u128) {
    let (p, i) = match name {
        None => super::stored_case("5801", "559411815032520e"),
        Some(name) => super::variant_of("5801", "55941181", name, &[]),
    };
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0, bug), "{name:?} thread {t}");
        } else {
            assert_eq!(e, s, "{name:?} thread {t} word {w}");
        }
    }
}

/// The stored case: `mov.b16 {c0, _}, h0` after the pair's `mov.b64 {h2, h4, h0, h5}` in the arm;
/// the byte pack of c0 after the join stores the `ld.s8` byte 0xa1 (13.0.88 -O3 `PRMT R9, R2,
/// 0x6540, R9` of the load), 0x00a10000 where the spec gives 0.
#[test]
fn fp8_55941181_the_stored_case_gives_the_stored_o3_words() {
    kept(None, 0x00a1_0000);
}

/// s58 wrong alike (13.0.88 -O3): an `.f16x2` pair (v3), a `mov.b32` pack (v5), e5m2x2 (v7), the
/// unpack before the pack (v9), a loaded pair source (v12); a 16-bit copy of h0 into the loaded
/// h6 (v10: `STG.E.U16 R3`, the loaded 0x0ca1).
#[test]
fn fp8_55941181_a_copy_of_the_arms_pair_keeps_its_old_value() {
    for name in ["s58/v3_f16x2_pair", "s58/v5_b32_pack", "s58/v7_e5m2", "s58/v9_unpack_before_pack"] {
        kept(Some(name), 0x00a1_0000);
    }
    kept(Some("s58/v12_loaded_pair_source"), 0x00a1_0000);
    kept(Some("s58/v10_half_copy"), 0x0ca1_0000);
}

/// Right (the spec stands): no branch (v1), no pack (v2), the pair's word unread (v4), an f16 cvt
/// for the pair (v6), the pair the high half of its word (v8).
#[test]
fn fp8_55941181_no_branch_no_read_low_half_or_no_pair_is_left_alone() {
    for name in
        ["s58/v1_no_branch", "s58/v2_no_pack", "s58/v4_pack_h0_first", "s58/v6_f16_not_pair", "s58/v8_pack_element3"]
    {
        let (p, i) = super::variant_of("5801", "55941181", name, &[]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
