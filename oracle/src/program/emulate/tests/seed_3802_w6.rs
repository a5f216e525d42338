//! Tests of the emulation scopes widened by seed 3802's traces (corpus/findings/fuzz-h200-3802/,
//! `trace/T5A.md`, `trace/T5C.md`): 3701-C3-3 over unsigned set sources, M over `.relu` and
//! `.satfinite` f16 conversions masked by a register, 3702-N1 over `max.u16` with a moved K in
//! either order, 3501-N3 over the `cnot` of the `set.f32` result itself, 3501-N2 through the
//! adds between the shifts. Each: the GPU's word under the emulation, the spec's without, and
//! the variants the trace shows right left alone.

use super::*;

/// 3701-C3-3 (6f011808, trace/T5A.md): `setp.eq.u32 p, s, 1` of `set.ge.u32.u64 s` folds into
/// the set's compare (13.0.88 -O3 `ISETP.LT.U32…EX P0; @P0 PRMT`): p is the set's truth, where
/// §9.7.7.1 makes s −1 or 0 (never 1). `.u32` sources the same (`w6_u32_set.ptx`).
#[test]
fn c3_3_3701_setp_eq_one_of_an_unsigned_set_tests_the_set() {
    let d = Deviation::SetpEqOneOfSetTestsTheSet;
    let with = |load: &'static str, set: &'static str| {
        [
            load,
            set,
            "mov.b32 %r4, 1;",
            "setp.eq.u32 %p1, %r2, %r4;",
            "mov.b32 %r6, 7;",
            "mov.b32 %r7, 0;",
            "selp.b32 %r5, %r6, %r7, %p1;",
            "st.global.b32 [%out], %r5;",
        ]
    };
    let u64_set = with("ld.global.u64 %d0, [%in];", "set.ge.u32.u64 %r2, %d0, 5;");
    exact_case(&u64_set, [9, 0, 0, 0], d, 0, 7);
    untouched(&u64_set, [3, 0, 0, 0], d);
    let u32_set = with("ld.global.u32 %r0, [%in];", "set.ge.u32.u32 %r2, %r0, 5;");
    exact_case(&u32_set, [9, 0, 0, 0], d, 0, 7);
    // A 16-bit source is not in the evidence: left alone.
    untouched(&with("ld.global.u16 %h0, [%in];", "set.ge.u32.u16 %r2, %h0, 5;"), [9, 0, 0, 0], d);
}

/// M (484f5b79, trace/T5C.md `v2_loadedmask.ptx`: `F2FP.RELU.F16.F32.MERGE_C.RZ R0, R2, RZ; PRMT
/// R0, R0, 0x5410, RZ`, no `LOP3`, 13.0.88 -O3): `and.b16` of a `cvt.rz.relu.f16.f32` result and
/// a loaded register stored as a pack's low half keeps the unmasked f16 (a NaN's relu.rz
/// 0x7fff), where the spec masks it. `.rn.relu` and `.rz.satfinite` the same
/// (`w6_*_regmask.ptx`); plain `cvt.rz` / `cvt.rn` keep the `LOP3` (the spec's).
#[test]
fn m_a_register_mask_of_a_relu_f16_is_dropped_in_a_pack() {
    let d = Deviation::F16MaskDropped;
    let with = m_masked_pack;
    let nan = [0xffb8_ffff, 0, 0, 0];
    exact_case(&with("cvt.rz.relu.f16.f32 %h1, %r0;"), nan, d, 0, 0x7fff);
    exact_case(&with("cvt.rn.relu.f16.f32 %h1, %r0;"), nan, d, 0, 0x7fff);
    // 1.5 (0x3e00 as an f16) masked by 0x0f00.
    let one_and_a_half = [0x3fc0_0000, 0x0f00, 0, 0];
    exact_case(&with("cvt.rz.satfinite.f16.f32 %h1, %r0;"), one_and_a_half, d, 0x0e00, 0x3e00);
    untouched(&with("cvt.rz.f16.f32 %h1, %r0;"), one_and_a_half, d);
    untouched(&with("cvt.rn.f16.f32 %h1, %r0;"), one_and_a_half, d);
}

/// 3702-N1 (3ba99472, trace/T5A.md `orig.ptx`): `max.u16 h, K, x; setp.eq.u16 p, K, h` with K a
/// moved 0 is `VIMNMX.U16x2 R0, P0, P0, x, RZ` whose P0 is "x selected" (x ≥ 0: always), where
/// §9.7.7.2 tests max = 0 (x = 0 only): x = 0x023e is replaced by the arm's 0. K = 5 and the
/// immediate order as in `v2_u16_K5.ptx`.
#[test]
fn n1_3702_setp_eq_of_a_max_u16_against_a_moved_k_reads_x_selected() {
    let d = Deviation::SetpEqOfMinMaxReadsSelection;
    let with = |max: &'static str, setp: &'static str| {
        [
            "mov.b16 %h0, 0;",
            "ld.global.b16 %h1, [%in];",
            max,
            setp,
            "@!%p0 bra $L0;",
            "mov.b16 %h1, 0;",
            "$L0:",
            "st.global.u16 [%out], %h1;",
        ]
    };
    let orig = with("max.u16 %h1, %h0, %h1;", "setp.eq.u16 %p0, %h0, %h1;");
    exact_case(&orig, [0x023e, 0, 0, 0], d, 0x023e, 0);
    // x = 0: a tie, right either way.
    untouched(&orig, [0, 0, 0, 0], d);
    // K = 5 as immediates, x = 0x8000: unsigned x ≥ 5 selected (signed it would not be).
    let k5 = with("max.u16 %h1, %h1, 5;", "setp.eq.u16 %p0, %h1, 5;");
    exact_case(&k5, [0x8000, 0, 0, 0], d, 0x8000, 0);
    // x = 3 < 5: max = 5, the spec's p true (the arm's 0); x is not selected: 5 stays.
    exact_case(&k5, [3, 0, 0, 0], d, 0, 5);
    // A compare with x is not fused.
    untouched(&with("max.u16 %h2, %h0, %h1;", "setp.eq.u16 %p0, %h1, %h2;"), [0x023e, 0, 0, 0], d);
}

/// 3501-N3 (a8fb5d3f, trace/T5C.md `reduced.ptx`: `ISETP.GE.U32; SEL R6, RZ, 0x1, P0`, 13.0.88
/// and 13.5 -O3): `set.ge.f32.u32 → cnot.b32 → cvt.rzi.u64.f32` converts the cnot's 1 as the
/// number 1, where its bits (1.4e−45) truncate to 0. `.s32`, `.u16`, `.f32`, `.u64` set
/// sources the same (`w6_set_f32_*.ptx`); `not` in place of `cnot` (`v2_not`) and an integer
/// set (`v3_u32set`) keep the `F2I` (the spec's).
#[test]
fn n3_3501_a_float_cvt_of_the_cnot_of_a_set_f32_converts_its_0_or_1_as_a_number() {
    let d = Deviation::CnotOfSetCvtConvertedAsNumber;
    let with = |set: &'static str, cnot: &'static str| {
        [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r2, [%in+4];",
            set,
            cnot,
            "cvt.rzi.u64.f32 %d1, %r3;",
            "st.global.u64 [%out], %d1;",
        ]
    };
    let reduced = with("set.ge.f32.u32 %r1, %r0, %r2;", "cnot.b32 %r3, %r1;");
    exact_case(&reduced, [1, 2, 0, 0], d, 0, 1);
    // The set true: 1.0f, the cnot 0: 0 either way.
    untouched(&reduced, [2, 1, 0, 0], d);
    exact_case(&with("set.lt.f32.s32 %r1, %r0, %r2;", "cnot.b32 %r3, %r1;"), [2, 1, 0, 0], d, 0, 1);
    untouched(&with("set.ge.f32.u32 %r1, %r0, %r2;", "not.b32 %r3, %r1;"), [1, 2, 0, 0], d);
    untouched(&with("set.ge.u32.u32 %r1, %r0, %r2;", "cnot.b32 %r3, %r1;"), [1, 2, 0, 0], d);
}

/// 3501-N2 through adds (81cc67f0, trace/T5A.md `reduced.ptx`, `model.py`): `shl.b64 d, d, k;
/// sub.s64 d, d, 0x7fff…ffff` for k = 8 … 1 is `LEA`/`LEA.HI.X` pairs by 8 … 3 (13.0.88 -O3):
/// the pairs by 2 and 1 (past the running amount 33) are dropped, and the last pair's low addend
/// is not the sub's, so the low word is unknown and the high word the kept value's (or one
/// more). x = 0x63466f14 stores the high word 0x468cde28 where the spec's is 0xb466f140.
/// `v1_total30` (8 … 4, total 30) keeps every pair: the spec's.
#[test]
fn n2_3501_a_shl_b64_chain_through_subs_drops_the_pairs_past_32() {
    let d = Deviation::ShlChainFoldedIntoLea;
    let chain = |amounts: &[u32]| {
        let mut lines = vec!["ld.global.b64 %d0, [%in];".to_string()];
        for k in amounts {
            lines.push(format!("shl.b64 %d0, %d0, {k};"));
            lines.push("sub.s64 %d0, %d0, 9223372036854775807;".to_string());
        }
        lines.push("st.global.b64 [%out], %d0;".to_string());
        lines
    };
    let lines = chain(&[8, 7, 6, 5, 4, 3, 2, 1]);
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let (spec, emulated, fired) = both(&lines, [0x6346_6f14, 0, 0, 0], d);
    assert_eq!((spec.bits >> 32, spec.is_exact()), (0xb466_f140, true));
    assert_eq!(fired, vec![d]);
    assert!(!emulated.is_exact());
    // The GPU's high word with any low word; the spec's high word is not admitted.
    assert!(emulated.matches((0x468c_de28u128 << 32) | 0x0123_4567));
    assert!(!emulated.matches((0xb466_f140u128 << 32) | (spec.bits & 0xFFFF_FFFF)));
    let total30 = chain(&[8, 7, 6, 5, 4]);
    untouched(&total30.iter().map(String::as_str).collect::<Vec<_>>(), [0x6346_6f14, 0, 0, 0], d);
}
