//! Tests of 63f83d6e's emulation (`emulate/pack_high_half_read_from_its_half_after_a_guarded_write.rs`):
//! the high half of `mov.b32 w, {fp8 pair, h}`, unpacked after a branch arm that writes h, is h's
//! value after the arm (seed 5402's 63f83d6e, trace/T54S.md, trace/63f83d6e/s54/ and s55/ with
//! their 13.0.88 and 13.5 -O3 listings).

use super::*;

const D: Deviation = Deviation::PackHighHalfReadFromItsHalfAfterAGuardedWrite;

/// The variant `name` (`orig`, `s54/NAME`, `s55/NAME`) of 63f83d6e on the stored case's inputs,
/// patched ([`variant_of`]).
fn variant(name: &str, patch: &[(usize, u32)]) -> (Program, Inputs) {
    variant_of("5402", "63f83d6e", name, patch)
}

/// Word 0 as the listings compute it where the arm ran: byte 2 is h after the arm (`STG.E.U8
/// [+0x2], R7`), byte 3 the low byte of `R7 ^ R0` with R0 = h3 = −inf (0xfc00): byte 2 again.
fn gpu(spec: u64) -> u64 {
    (spec & 0x00ff_ffff) | (((spec >> 16) & 0xff) << 24)
}

/// Checks that emulating [`D`] alone fires on `(p, i)` and gives `want(spec)` for every word.
fn wrong(what: &str, (p, i): (Program, Inputs), want: impl Fn(u64) -> u64) {
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let s = s.bits as u64;
        assert_eq!(e.bits as u64, want(s), "{what}: thread {t} word {w} (spec {s:#x})");
        changed += usize::from(want(s) != s);
    }
    assert!(changed > 0, "{what}: no word differs from the spec");
}

/// Checks that emulating [`D`] on `(p, i)` leaves every word as the spec gives it, firing nothing.
fn right(what: &str, (p, i): (Program, Inputs)) {
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{what}");
}

/// The stored case: d0 = 0, so every thread runs the arm (`mov.b16 h2, 0`); the spec's word 0 is
/// 0x0a000000 (h17 = the loaded 0xcd0a), the GPU's 0 (h17 read as the new h2, 0).
#[test]
fn pack_high_half_63f83d6e_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5402", "63f83d6e37afba17");
    wrong("63f83d6e", (p, i), |s| {
        assert_eq!(s, 0x0a00_0000);
        0
    });
}

/// Every thread runs the arm (d0 = 0; w3's `@!p0 bra` with d0's high word 0x10000000, p0 true).
const P0_TRUE: (usize, u32) = (13, 0x1000_0000);

/// Wrong (13.0.88 -O3: `MERGE_C R0, …, R7; @!P0 <write> R7; LOP3.LUT R9, R7, R0`): s54 v5
/// (`ld.u16`), v10 (e5m2x2), v11 (the arm an `ld.global.u16`: 0 here); s55 w1 (`add.u16 h, h,
/// 1`: 0xcd0b), w2 (`cvt.u16.u32 h, %tix`), w3 (`@!p0 bra`), w4 (an `.f16x2` pair), w6 (w read
/// whole after the join), w7 (a copy of w unpacked), w8 (a pair of a loaded f32).
#[test]
fn pack_high_half_63f83d6e_wrong_variants_read_the_new_half() {
    for name in [
        "orig",
        "s54/v5_h2_ld_u16",
        "s54/v10_e5m2",
        "s54/v11_overwrite_by_load",
        "s55/w1_arm_add_u16",
        "s55/w2_arm_cvt_u16_u32",
        "s55/w4_f16x2_pair",
        "s55/w6_whole_read_after_join",
        "s55/w7_word_copied",
        "s55/w8_loaded_pair_source",
    ] {
        wrong(name, variant(name, &[]), gpu);
    }
    wrong("w3", variant("s55/w3_branch_sense_negated", &[P0_TRUE]), gpu);
    // w5: w stored whole at [out] (bytes 0, 1: the pair, 0), then byte 2 = h2 and byte 3 = h17 ^ 5,
    // h17 read as the new h2 (0): 0x05000000, where the spec's h17 = 0xcd0a gives 0x0f000000.
    wrong("w5", variant("s55/w5_whole_word_stored", &[]), |s| {
        assert_eq!(s, 0x0f00_0000);
        0x0500_0000
    });
}

/// Right (13.0.88 and 13.5 -O3 read the pack's half): s54 v9 (no arm), v3 (a guarded `mov`, no
/// branch), v4 (the write unguarded), v1, v2 (no fp8 pair), v8 (h the low half), v6, v7 (w read
/// only by the unpack); and left out, s55 w9 (the arm `mov.b16 h, x` of a loaded x).
#[test]
fn pack_high_half_63f83d6e_right_variants_are_untouched() {
    for name in [
        "s54/v9_no_overwrite",
        "s54/v3_guarded_mov_no_branch",
        "s54/v4_unguarded_overwrite",
        "s54/v1_no_pair",
        "s54/v2_f16_not_pair",
        "s54/v8_low_half_read",
        "s54/v6_no_f16_cvt",
        "s54/v7_h17_stored_directly",
        "s55/w9_arm_mov_of_loaded",
    ] {
        right(name, variant(name, &[]));
    }
    // w3 with p0 false: no thread runs the arm, nothing changes.
    right("w3 arm skipped", variant("s55/w3_branch_sense_negated", &[]));
}

/// Seed 6001's 3e520b16 (63f83d6e mirrored, `word_rewritten_in_an_arm.rs`; trace/T60B.md,
/// trace/3e520b16/s60/ with 13.0.88 = 13.5 -O3 listings): the variant `name` (`orig`,
/// `s60/NAME`) on the stored case's inputs.
fn word_arm_variant(name: &str) -> (Program, Inputs) {
    variant_of("6001", "3e520b16", name, &[])
}

/// The stored case: h0 = 0x0c (an `ld.global.u8`), `mov.b64 d0, {0, 0, pair, h0}`, the arm `mov.b64
/// d0, 0` runs in every thread, `xor.b16 h14, h10, h0` of the unpacked h10: the spec's 0x0c, the
/// GPU's 0 (`@!P0 PRMT R6, RZ, 0x7610, R6; LOP3.LUT R7, R6, R6`: h0's register took h10 = 0).
#[test]
fn word_rewritten_in_an_arm_3e520b16_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("6001", "3e520b16c9728097");
    wrong("3e520b16", (p, i), |s| {
        assert_eq!(s, 0x0c);
        0
    });
}

/// Wrong (13.0.88 = 13.5 -O3: the word's `MERGE_C` into another register, the arm predicated in
/// place in h's register): v3 (e5m2x2), v4 (`ld.u16` h: 0xec0c), v6 (`mov.b32` pack and unpack),
/// v11 (the pair at element 0, h10 element 1), v13 (`@!p bra`), v15 (h an `xor.b16`), v17 (the arm
/// a non-zero immediate: h0 takes 0x1234, the xor still 0), v19 (an `.f16x2` pair): each xor of
/// h10 and h0 read from one register, 0. v10 stores h10 and h0: h0's half 0 too.
#[test]
fn word_rewritten_in_an_arm_3e520b16_wrong_variants_read_the_element_as_h() {
    for name in [
        "s60/v3_e5m2",
        "s60/v4_h_ld_u16",
        "s60/v6_b32_pack",
        "s60/v11_low_word",
        "s60/v13_not_p",
        "s60/v15_h_xor_half",
        "s60/v17_arm_nonzero_imm",
        "s60/v19_f16x2_pair",
    ] {
        wrong(name, word_arm_variant(name), |_| 0);
    }
    // v10: `st.b16 [out], h10; st.b16 [out+2], h0`: spec 0x000c0000, the GPU's 0.
    wrong("s60/v10_h_stored_after", word_arm_variant("s60/v10_h_stored_after"), |s| {
        assert_eq!(s, 0x000c_0000);
        0
    });
}

/// Right (13.0.88 = 13.5 -O3 keep h): v1, v2 (no fp8 pair: the element a copy), v5 (the word read
/// only by the unpack), v8 (the arm a load), v12 (h before the pair), v14 (`selp`, no branch), v18
/// (the element at h's position unread); left out: v9 (the arm `add.s64`: h read from the stack
/// pointer, another mechanism), v20 (the word unpacked through a `mov.b64` into words).
#[test]
fn word_rewritten_in_an_arm_3e520b16_right_variants_are_untouched() {
    for name in [
        "s60/v1_f16_not_pair",
        "s60/v2_h2_loaded_u16",
        "s60/v5_tid_predicate",
        "s60/v8_arm_loaded_word",
        "s60/v12_h_first",
        "s60/v14_no_branch_selp",
        "s60/v18_hi_dead",
        "s60/v9_arm_add",
        "s60/v20_b32_unpack_of_b64",
    ] {
        right(name, word_arm_variant(name));
    }
}
