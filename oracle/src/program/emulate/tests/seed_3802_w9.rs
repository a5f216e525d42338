//! Tests of 3701-N-D's scope widened by the traces of seed 3802 (helper w9:
//! corpus/findings/fuzz-h200-3802/trace/T5C.md, d69964c3, f4025e70, f33d36d7): each the GPU's
//! word under the emulation and the spec's without, and the variants the trace shows right left
//! alone.

use super::*;

/// `both` with a shared slot of 16 words per thread (`%sh`).
fn both_shared(lines: &[&str], words: [u32; 4], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    let (p, i) = (Program { shared: 16, ..program(lines) }, Inputs(words.to_vec()));
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    (spec, out.remove(0), fired)
}

/// 3701-N-D with the half a 16-bit shared load forwarded from the store of a moved constant right
/// before it (d69964c3, ptxas 13.0.88 and 13.5 -O3: `LOP3.LUT R2, R3, 0xffff; F2FP…PACK_AB_MERGE_C
/// R2, RZ, RZ, R2; PRMT R3, R2, 0x5410, R3`): the `st.shared.v4` pack `{p, h2, h2, h1}` stores
/// the pair as its third half, so the word read back is 0 where the spec gives 0x7c00 in each
/// half.
#[test]
fn nd_3701_a_forwarded_shared_load_of_a_constant_is_destroyed() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |half: &'static [&'static str]| {
        let mut lines = vec!["mov.b32 %r0, 0;", "cvt.rn.satfinite.e4m3x2.f32 %h0, %r0, %r0;", "mov.b16 %h1, 31744;"];
        lines.extend_from_slice(half);
        lines.extend_from_slice(&[
            "st.shared.v4.s16 [%sh+24], {%h0, %h2, %h2, %h1};",
            "ld.shared.v4.b16 {%h4, %h9, %h1, %h10}, [%sh+24];",
            "mov.b64 %d9, {%h1, %h1, %h1, %h1};",
            "st.global.b64 [%out], %d9;",
        ]);
        lines
    };
    let stored = with(&["st.shared.u16 [%sh+16], %h1;", "ld.shared.b16 %h2, [%sh+16];"]);
    let (spec, emulated, fired) = both_shared(&stored, [0; 4], d);
    assert_eq!((spec.bits as u64, spec.is_exact()), (0x7c00_7c00_7c00_7c00, true));
    assert_eq!((emulated.bits as u64, emulated.is_exact()), (0, true));
    assert_eq!(fired, vec![d]);
    // `v1_global_h2`: a loaded half has a register of its own (`PRMT R4, R6, 0x7632, R4`).
    let loaded = with(&["ld.global.u16 %h2, [%in];"]);
    let (spec, emulated, fired) = both_shared(&loaded, [0x7c00; 4], d);
    assert_eq!((emulated, fired), (spec, Vec::new()));
    // `v2_const_h2`: a moved constant half is rematerialized (`IMAD.MOV.U32 R3, 0x7c007c00`).
    let moved = with(&["mov.b16 %h2, 31744;"]);
    let (spec, emulated, fired) = both_shared(&moved, [0; 4], d);
    assert_eq!((emulated, fired), (spec, Vec::new()));
    // `v4_f16cvt`: an f16 in place of the pair has no MERGE_C.
    let mut f16 = stored.clone();
    f16[1] = "cvt.rn.f16.f32 %h0, %r0;";
    let (spec, emulated, fired) = both_shared(&f16, [0; 4], d);
    assert_eq!((emulated, fired), (spec, Vec::new()));
}

/// 3701-N-D read through a `mov.b64` unpack into halves of the pack's result (f4025e70, ptxas
/// 13.0.88 and 13.5 -O3: `F2FP.SATFINITE.E5M2.F16.UNPACK_B_MERGE_C R7, RZ, R7; STG.E.U16 R7` for
/// the unpack's second half): the e5m2x2 pair (0) is stored where the spec stores h1 = 0x1065.
#[test]
fn nd_3701_an_unpacked_half_of_a_64_bit_pack_is_the_pair() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |pair_source: &'static str, half: &'static str| {
        [
            "ld.global.f32 %r0, [%in];",
            "cvt.rn.satfinite.e5m2x2.f16x2 %h0, %r0;",
            half,
            pair_source,
            "cvt.rn.satfinite.e5m2x2.f16x2 %h3, %r3;",
            "mov.b16 %h4, 0;",
            "mov.b64 %d0, {%h3, %h1, %h4, %h4};",
            "mov.b64 {%h5, %h6, %h7, %h8}, %d0;",
            "mov.b64 {%r5, %r6}, %d0;",
            "st.global.u16 [%out], %h6;",
            "st.global.b32 [%out+4], %r5;",
        ]
    };
    let xor = "xor.b16 %h1, %h0, 0x1065;";
    exact_case(&with("mov.b32 %r3, 0;", xor), [0; 4], d, 0x1065_0000_0000_1065, 0x1065_0000_0000_0000);
    // `v4_loaded_pair`: a loaded pair source is merged in place too (0x3c00 → e5m2 0x3c each).
    let loaded = with("ld.global.b32 %r3, [%in+4];", xor);
    exact_case(&loaded, [0, 0x3c00_3c00, 0, 0], d, 0x1065_3c3c_0000_1065, 0x1065_3c3c_0000_3c3c);
    // A loaded half has a register of its own.
    untouched(&with("mov.b32 %r3, 0;", "ld.global.b16 %h1, [%in+8];"), [0, 0, 0x1065, 0], d);
}

/// 3701-N-D with the pair the third half of a `mov.b64` pack and the half a `cvt.u8.s32` (f33d36d7,
/// ptxas 13.0.88 and 13.5 -O3: `LOP3.LUT R0, R2, 0xff; F2FP…UNPACK_B_MERGE_C R3, imm, R0; MOV R0,
/// R3; F2I.U32.F16.NTZ R7, R0`): a later `cvt.rni.u32.f16` of h0 converts the pair (here of the
/// f16 pair (1, 2): 0x3840, 0.53; the finding's NaN half gives 0x3c7f, 1.12, §9.7.9.21) and gives
/// 1 where the spec converts h0 = 0x12 (a subnormal) to 0.
#[test]
fn nd_3701_a_pair_at_the_third_half_destroys_a_cvt_u8_half() {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let with = |half: &'static str, pack: &'static str| {
        [
            half,
            "mov.b32 %r1, 1006649344;",
            "cvt.rn.satfinite.e4m3x2.f16x2 %h2, %r1;",
            pack,
            "cvt.rni.u32.f16 %r2, %h0;",
            "st.global.b32 [%out], %r2;",
            "st.global.b32 [%out+4], %r4;",
        ]
    };
    let cvt_u8 = "cvt.u8.s32 %h0, %r0;";
    let x = [0x12, 0, 0, 0];
    let lines = |half, pack| {
        let mut l = vec!["ld.global.u32 %r0, [%in];"];
        l.extend(with(half, pack));
        l
    };
    let in_b64 = [
        "ld.global.u32 %r0, [%in];",
        cvt_u8,
        "mov.b32 %r1, 1006649344;",
        "cvt.rn.satfinite.e4m3x2.f16x2 %h2, %r1;",
        "mov.b64 %d0, {%h0, %h0, %h2, %h0};",
        "cvt.rni.u32.f16 %r2, %h0;",
        "mov.b64 {%r3, %r4}, %d0;",
        "st.global.b32 [%out], %r2;",
        "st.global.b32 [%out+4], %r4;",
    ];
    exact_case(&in_b64, x, d, 0x0012_3840_0000_0000, 0x0012_3840_0000_0001);
    // `v5_b32pack_pairfirst`: the pair first in a `mov.b32` pack.
    exact_case(&lines(cvt_u8, "mov.b32 %r4, {%h2, %h0};"), x, d, 0x0012_3840_0000_0000, 0x0012_3840_0000_0001);
    // `v0_b32pack_right`: the half first, the pair after it.
    untouched(&lines(cvt_u8, "mov.b32 %r4, {%h0, %h2};"), x, d);
    // `v6_ld16_pairfirst`: a loaded half is recovered (`PRMT R0, R7, 0x7632, R0`).
    untouched(&with("ld.global.u16 %h0, [%in];", "mov.b32 %r4, {%h2, %h0};"), x, d);
}
