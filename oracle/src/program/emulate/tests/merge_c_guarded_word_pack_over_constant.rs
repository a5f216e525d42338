//! Tests of 3701-N-D through a guarded `mov.b32` pack over a folded constant, if-converted with
//! the pair built in h's register in every thread (seed 4801's cdcda77b, bf035d4e, 65e28c38,
//! helper x1, session 49; corpus/findings/fuzz-h200-4801/trace/T19v1.md, variants in
//! trace/cdcda77b/ and its s49/; `emulate/merge_c_guarded_word_pack_over_constant.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// The campaign's cases: emulating 3701-N-D alone gives the stored ptxas -O3 and JIT words in
/// every thread (h4 = 0 read after the guarded pack as the pair 0xcf4b): cdcda77b and bf035d4e
/// word 0 0x004b3d00 (byte 1 = bits 55:48 of `cvt.f64.f16` of 0xcf4b; the spec's 0x004b0000),
/// 65e28c38 word 1 0x004b0000 (`cvt.bf16.bf16` of the pair, byte 2; the spec's 0).
#[test]
fn nd_cdcda77b_bf035d4e_65e28c38_the_campaign_cases_give_the_stored_o3_words() {
    for (name, word, spec, bug) in [
        ("cdcda77b22e53e85", 0, 0x004b_0000, 0x004b_3d00),
        ("bf035d4e893edf48", 0, 0x004b_0000, 0x004b_3d00),
        ("65e28c38ece8d82f", 1, 0, 0x004b_0000),
    ] {
        let (p, i) = super::stored_case("4801", name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            if w == word {
                assert_eq!((s.bits, e.bits), (spec, bug), "{name} thread {t}");
            } else {
                assert_eq!(e.bits, s.bits, "{name} thread {t} word {w}");
            }
        }
    }
}

/// The unit frame of cdcda77b's `reduced.ptx`: the e4m3x2 pair of word 0's f16x2 (0xc76945bc:
/// 0xcf4b), h4 element 0 of the `.v2.b8` load of word 1 (0x12), the guard word 2 ≠ 0; `old`
/// writes r6 before `@p0 mov.b32 r6, {pack}`; r6 stored at word 0, h4 (as u16) at word 1.
fn frame(old: &[&'static str], h4: &'static str, pack: &'static str) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.b32 %r3, [%in];",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h3, %r3;",
        h4,
        "ld.global.u32 %r5, [%in+8];",
        "setp.ne.u32 %p0, %r5, 0;",
    ];
    lines.extend_from_slice(old);
    lines.extend([pack, "st.global.b32 [%out], %r6;", "st.global.u16 [%out+4], %h4;"]);
    lines
}

const V2B8: &str = "ld.global.v2.b8 {%h4, %h1}, [%in+4];";
const PACK: &str = "@%p0 mov.b32 %r6, {%h3, %h4};";
const GUARD_TRUE: [u32; 4] = [0xc769_45bc, 0x12, 1, 0x777];
const GUARD_FALSE: [u32; 4] = [0xc769_45bc, 0x12, 0, 0x777];

/// Wrong (13.0.88 and 13.5 -O3 `F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, imm, R0; …; SEL R7,
/// R0, <old>, !P0`; the read of h4 takes R0.H0, the pair): the old value a moved 0 (`reduced`),
/// a moved 0x12345678 (`s49/v1_old_moved_imm`), glue of constants (`s49/v2_old_glue_of_constants`:
/// `SEL R7, R0, 0x10`); where the guard fails h4 is the pair too (`s49/v4_guard_false_in_half_the_threads`:
/// `F2F.F64.F16 R4, R0` outside the SEL).
#[test]
fn nd_cdcda77b_a_guarded_word_pack_over_a_folded_constant_builds_the_pair_in_h() {
    for (old, was) in [
        (&["mov.b32 %r6, 0;"][..], 0u64),
        (&["mov.b32 %r6, 0x12345678;"][..], 0x1234_5678),
        (&["mov.b32 %r5, 7;", "add.u32 %r6, %r5, 9;"][..], 0x10),
    ] {
        let lines = frame(old, V2B8, PACK);
        exact_case(&lines, GUARD_TRUE, D, 0x0012_0012_cf4b, 0xcf4b_0012_cf4b);
        exact_case(&lines, GUARD_FALSE, D, 0x0012_0000_0000 | was, 0xcf4b_0000_0000 | was);
    }
}

/// Wrong alike (`s49/v6_h_xor_loaded_pair_f32`: `LOP3.LUT R9, R6, 0x11; F2FP.SATFINITE.E4M3.F32.
/// PACK_AB_MERGE_C R9, R7, R0, R9; SEL R7, R9, RZ, P0; STG.E.U16 [+0x4], R9`): an `xor.b16` h,
/// the pair of two loaded f32 words (1.0, 2.0: 0x4038).
#[test]
fn nd_cdcda77b_s49_v6_an_xor_half_and_a_loaded_f32_pair_alike() {
    let lines = [
        "ld.global.u32 %r3, [%in];",
        "ld.global.u32 %r4, [%in+4];",
        "ld.global.u16 %h5, [%in+12];",
        "setp.ne.u32 %p0, %r3, 0;",
        "xor.b16 %h4, %h5, 0x11;",
        "cvt.rn.satfinite.e4m3x2.f32 %h0, %r4, %r3;",
        "mov.b32 %r1, 0;",
        "@%p0 mov.b32 %r1, {%h0, %h4};",
        "st.global.u32 [%out], %r1;",
        "st.global.u16 [%out+4], %h4;",
    ];
    exact_case(&lines, [0x3f80_0000, 0x4000_0000, 0, 0x22], D, 0x0033_0033_4038, 0x4038_0033_4038);
}

/// Right (kept out): the old value loaded (trace/cdcda77b/`v2_old_loaded`, seed 4401's
/// `v3_guarded_b32`: `@!P0 PRMT R11, R0, 0x5410, R9` of a pair built from `RZ`) or computed from a
/// loaded one (`s49/v3_old_computed_right`), h before the pair (`s49/v7_h_first_right`), h from
/// `ld.u16` (`s49/v9_h_scalar_ld_u16_right`: `PRMT R7, R7, 0x7632, R7` recovers it).
#[test]
fn nd_cdcda77b_right_variants_stay_the_spec() {
    let loaded = ["ld.global.b32 %r6, [%in+12];"];
    let computed = ["ld.global.b32 %r7, [%in+12];", "add.u32 %r6, %r7, 1;"];
    let moved = ["mov.b32 %r6, 0;"];
    for words in [GUARD_TRUE, GUARD_FALSE] {
        untouched(&frame(&loaded, V2B8, PACK), words, D);
        untouched(&frame(&computed, V2B8, PACK), words, D);
        untouched(&frame(&moved, V2B8, "@%p0 mov.b32 %r6, {%h4, %h3};"), words, D);
        untouched(&frame(&moved, "ld.global.u16 %h4, [%in+4];", PACK), words, D);
    }
}
