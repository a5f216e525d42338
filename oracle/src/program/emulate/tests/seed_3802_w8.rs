//! Tests of the scopes seed 3802's traces widened (corpus/findings/fuzz-h200-3802/trace/T5A.md,
//! T5B.md, T5C.md; helper w8): 3702-N5 read by `cvt.u8.u32` (11115fa6, 3596d932), 3702-N2
//! with no outer xor (3ca5ad75), N-8 against a loop counter ptxas knows is 0 (87cad7bf) and D
//! through a shuffle of constant halves (1350d2f8). Each is the GPU's word under the emulation
//! and the spec's without, and the right variants untouched.

use super::*;

/// 3702-N5 (11115fa6, 3596d932, trace `reduced.ptx`): `cvt.u8.u32` of `prmt.b32 r, a, a, c`
/// whose byte-0 nibble is the sign of a byte of a is `PRMT R7, RZ, 0xb, R4` (13.0.88 -O3, the
/// listing of the `.s32` form): 0, the spec 0xff. `cvt.u16.u32` keeps the whole PRMT (v2, right).
#[test]
fn n5_3702_a_u32_source_cvt_u8_of_a_narrowed_prmt_reads_the_sign_of_zero() {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    let with = |selector: &'static str, cvt: &'static str| {
        ["ld.global.u32 %r0, [%in];", selector, cvt, "st.global.u16 [%out], %h10;"]
    };
    let u8_of = "cvt.u8.u32 %h10, %r1;";
    exact_case(&with("prmt.b32 %r1, %r0, %r0, 0xb7bb;", u8_of), [0x8000_0000, 0, 0, 0], d, 0xff, 0);
    // 3596d932: selector 63177 = 0xF6C9, byte 0 the sign of a's byte 1.
    exact_case(&with("prmt.b32 %r1, %r0, %r0, 63177;", u8_of), [0x8000, 0, 0, 0], d, 0xff, 0);
    untouched(&with("prmt.b32 %r1, %r0, %r0, 0xb7bb;", "cvt.u16.u32 %h10, %r1;"), [0x8000_0000, 0, 0, 0], d);
    untouched(&with("prmt.b32 %r1, %r0, %r0, 0xb7bb;", "cvt.s8.u32 %h10, %r1;"), [0x8000_0000, 0, 0, 0], d);
}

/// 3702-N2 with no outer xor (3ca5ad75, trace `reduced.ptx`): `xor(a, lop3(a, 0, a, 0x65))` is
/// `LOP3.LUT R7, R2, RZ, RZ, 0x93` (13.0.88 -O3): the repeated `a` read as 0, a ^ L(a, 0, 0) =
/// 0xffffffff where the spec gives ~a = 0xebd101c8 (the GPU word). The outer `and` (v6), a
/// repeated `b` with a loaded `c`, an immediate `b` and the swapped order are merged alike; no
/// repeated input (v2), a second reader of the `lop3` and an `or` are right.
#[test]
fn n2_3702_a_lop3_merged_into_its_only_reader_reads_the_repeated_input_as_zero() {
    let d = Deviation::Lop3MergedIntoXorReadsX;
    let with = |lop3: &'static str, op: &'static str| {
        ["ld.global.u32 %r3, [%in];", "ld.global.u32 %r4, [%in+4];", lop3, op, "st.global.u32 [%out], %r16;"]
    };
    let words = [0x142e_fe37, 0x0F0F_00FF, 0, 0];
    let reduced = "lop3.b32 %r10, %r3, 0x0, %r3, 0x65;";
    let xor = "xor.b32 %r16, %r3, %r10;";
    exact_case(&with(reduced, xor), words, d, 0xebd1_01c8, 0xffff_ffff);
    exact_case(&with(reduced, "xor.b32 %r16, %r10, %r3;"), words, d, 0xebd1_01c8, 0xffff_ffff);
    let immediate_b = "lop3.b32 %r10, %r3, 0x1234, %r3, 0x65;";
    exact_case(&with(immediate_b, xor), words, d, 0xebd1_13fc, 0xffff_edcb);
    let repeated_b = "lop3.b32 %r10, %r3, %r3, %r4, 0x65;";
    exact_case(&with(repeated_b, xor), words, d, 0xe4de_0137, 0xf0f0_ff00);
    let majority = "lop3.b32 %r10, %r3, %r4, %r3, 0xe8;";
    exact_case(&with(majority, "and.b32 %r16, %r3, %r10;"), words, d, 0x142e_fe37, 0x040e_0037);
    untouched(&with("lop3.b32 %r10, %r3, 0x0, 0x0, 0x65;", xor), words, d);
    untouched(&with(reduced, "or.b32 %r16, %r3, %r10;"), words, d);
    let mut two_readers = with(reduced, xor).to_vec();
    two_readers.push("st.global.u32 [%out+4], %r10;");
    untouched(&two_readers, words, d);
}

/// N-8 (87cad7bf, trace `v4_loop_ge_minus1_to_end0`): a loop counted down from 16 by 2 to 0, whose
/// last trip is `set.ge.s32.u32 s, s, %r12` with %r12 = 0, is unrolled by 13.0.88 -O3 and that
/// trip folded to s = 0 (`SEL R5, RZ, 0xffffffff, P0`): 0 where the spec's `>= 0` is always true
/// (−1). A counter loaded (not known) and a loop ending before 0 (`v3`) are right.
#[test]
fn n8_a_set_against_a_loop_counter_known_to_be_zero_tests_the_set() {
    let d = Deviation::UnsignedBelowZeroOfSet;
    let with = |counter: &'static str, exit: &'static str| {
        [
            "ld.global.s32 %r10, [%in];",
            counter,
            "$L1:",
            "set.ge.s32.u32 %r10, %r10, %r12;",
            "sub.u32 %r12, %r12, 0x2;",
            exit,
            "@%p3 bra $L1;",
            "st.global.b32 [%out], %r10;",
        ]
    };
    let to_zero = "setp.ne.u32 %p3, %r12, 0xfffffffe;";
    let words = [0x7fff_fffe, 16, 0, 0];
    exact_case(&with("mov.u32 %r12, 16;", to_zero), words, d, 0xffff_ffff, 0);
    untouched(&with("ld.global.u32 %r12, [%in+4];", to_zero), words, d);
    untouched(&with("mov.u32 %r12, 16;", "setp.gt.u32 %p3, %r12, 0x0;"), words, d);
}

/// D through a shuffle (1350d2f8, trace `reduced.ptx`): `cvt.rn.tf32.f32` of a `shfl.sync` of a
/// `cvt.rn.bf16x2.f32` of a moved constant is `PRMT R5, R8, 0x7610, R5; F2FP.TF32.F32.PACK_B R5,
/// R5` (13.0.88 and 13.5 -O3, the shuffle dropped): any value. `.bfly` and a `mov` pack of
/// constant halves under `.down` the same (compiled in session 39); a per-thread (loaded) value
/// and a predicate destination keep the `SHFL` (right).
#[test]
fn d_a_shuffle_of_constant_packed_halves_is_looked_through() {
    let d = Deviation::Tf32OfPackedHalf;
    let with = |source: &'static str, shuffle: &'static str| {
        [source, "cvt.rn.bf16x2.f32 %r1, %r0, %r0;", shuffle, "cvt.rn.tf32.f32 %r7, %r6;", "st.global.u32 [%out], %r7;"]
    };
    let moved = "mov.s32 %r0, 1485400949;";
    let idx = "shfl.sync.idx.b32 %r6, %r1, 12, 3630643510, -1;";
    let any_value = |lines: &[&str]| {
        let (s, e, fired) = warp_both(lines, [0x3f80_0000; 4], d);
        assert!(s.is_exact() && e.matches(s.bits) && e.matches(0x1234_5678 | (s.bits & !0xFFFF_FFFF)), "{lines:?}");
        assert_eq!(fired, vec![d], "{lines:?}");
    };
    any_value(&with(moved, idx));
    any_value(&with(moved, "shfl.sync.bfly.b32 %r6, %r1, 1, 31, -1;"));
    let pack = [
        "mov.b16 %h1, 0x1234;",
        "mov.b32 %r1, {%h1, %h1};",
        "shfl.sync.down.b32 %r6, %r1, 3, 31, -1;",
        "cvt.rn.tf32.f32 %r7, %r6;",
        "st.global.u32 [%out], %r7;",
    ];
    any_value(&pack);
    let untouched_warp = |lines: &[&str]| {
        let (s, e, fired) = warp_both(lines, [0x3f80_0000; 4], d);
        assert_eq!((e, fired), (s, Vec::new()), "{lines:?}");
    };
    untouched_warp(&with("ld.global.u32 %r0, [%in];", idx));
    untouched_warp(&with(moved, "shfl.sync.idx.b32 %r6|%p1, %r1, 12, 3630643510, -1;"));
}
