//! Tests of N-7 with an `a` computed through a 16-bit widening multiply or a 64-bit `shr` (seed
//! 6102's 45b70e5a, helper ld, session 61; corpus/findings/fuzz-h200-6102/trace/T61D.md, variants
//! in trace/45b70e5a/s61/; `emulate/n7_known_within_one_block/a_through_a_late_folded_producer.rs`).

use super::*;

const D: Deviation = Deviation::BfeS32PastMsbAllOnes;

/// The variant `name` (`s61/NAME`) of 45b70e5a on the stored case's inputs.
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("6102", "45b70e5a", &format!("s61/{name}"), &[])
}

/// The stored case (`mul.wide.u16 r0, <moved 0>, 0; bfe.s32 r2, r0, 0x20, 0x7`, r2's low half
/// stored as s16 at byte 6): emulating N-7 gives the GPU's word 0xffff0000 in every thread (13.0.88
/// -O3 `MOV R0, 0xffff`), the spec 0.
#[test]
fn n7_45b70e5a_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("6102", "45b70e5aee030b79");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { 0xffff_0000 } else { s.bits };
        assert!(w != 1 || s.bits == 0, "thread {t} spec");
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}

/// Wrong alike (13.0.88 -O3 `MOV R7, 0xffffffff` stored as word 1): `mul.wide.{u16,s16}`,
/// `mad.wide.{u16,s16}` (v1–v5), an add, a copy or a cvt round trip of the product (v6–v8), a moved
/// start (v9), and `shr.{u64,s64,b64}` of a known 64-bit value, its low word by cvt or unpack
/// (x1, x3–x7).
#[test]
fn n7_45b70e5a_an_a_through_a_late_folded_producer_is_not_known() {
    for name in [
        "v1_wide_u16_3x5",
        "v2_wide_s16",
        "v3_wide_u16_two_moved",
        "v4_mad_wide_u16",
        "v5_mad_wide_s16",
        "v6_add_of_wide",
        "v7_copy_of_wide",
        "v8_cvt_round_trip",
        "v9_moved_start",
        "x1_shr_u64_by_32_cvt",
        "x3_shr_u64_by_4_cvt",
        "x4_shr_s64",
        "x5_shr_b64_by_1",
        "x6_shr_u64_unpack_lo",
        "x7_shr_u64_moved_amount",
    ] {
        let (p, i) = variant(name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            let want = if w == 1 { 0xffff_ffff } else { s.bits };
            assert_eq!((w, e.bits), (w, want), "{name} thread {t} word {w}");
        }
    }
}

/// Right (`STG … RZ`, ptxas folds the whole bfe): `mul.lo`, `mul.hi`, `mad.lo`, `mul.wide.u32`
/// (either word), `shl.b64`, `add.u64`, `shr.u32` of known values (r1–r8, r14–r16); N-7 not
/// involved: a start below 32 (r10), `bfe.u32` (r11). (r9, `mov.b32 r0, {h1, h1}` of a
/// `mul.lo.u16` product, right on the GPU, is fired on: the oracle does not take a pack of known
/// halves as known — a gap of `known_at_compile_time`, not of this widening; left out.)
#[test]
fn n7_45b70e5a_leaves_other_producers_of_constants_alone() {
    for name in [
        "r1_mul_lo_u16_cvt",
        "r2_mul_lo_u32",
        "r3_mul_hi_u16",
        "r4_mul_hi_u32",
        "r5_mad_lo_u32",
        "r6_wide_u32_low_cvt",
        "r7_wide_u32_unpack_lo",
        "r8_wide_u32_unpack_hi",
        "r10_start_below_32",
        "r11_bfe_u32",
        "r14_shl_b64_cvt",
        "r15_add_u64_cvt",
        "r16_shr_u32",
    ] {
        let (p, i) = variant(name);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
