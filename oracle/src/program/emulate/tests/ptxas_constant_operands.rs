//! Tests of the three scopes reached through a constant ptxas knows, folded or shuffled
//! (`emulate/ptxas_constant_operands.rs`; session 45 helper h2; corpus/findings/fuzz-h200-4402/
//! trace/T15t2.md, 6e21e265 and a22d4fd5, and corpus/findings/fuzz-h200-4403/trace/T15t5.md,
//! 4b87e2ad, with the variants of `trace/<id>/s45/`): the forms the 13.0.88 -O3 listings show
//! wrong emulated, the right neighbours left alone. Thread 0 of a warp; every lane runs the same
//! words.

use super::*;

/// Checks that emulating `d` turns the spec's `spec` (thread 0's first word, exact) into `bug`.
pub(super) fn warp_exact(lines: &[&str], words: [u32; 4], d: Deviation, spec: u32, bug: u32) {
    let (s, e, fired) = warp_both(lines, words, d);
    assert_eq!((s.bits as u32, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert_eq!((e.bits as u32, e.is_exact(), fired), (bug, true, vec![d]), "{d:?} of {lines:?}");
}

/// Checks that emulating `d` leaves `lines` as the spec says.
pub(super) fn warp_kept(lines: &[&str], words: [u32; 4], d: Deviation) {
    let (s, e, fired) = warp_both(lines, words, d);
    assert_eq!((e, fired), (s, vec![]), "{d:?} of {lines:?}");
}

/// 6e21e265 (`reduced.ptx`): `bfi.b32 d, x, x, 2, len` with len a `shfl.sync.up` of a moved
/// 0x6870d683 (131 in its low byte) inserts 3 bits (`LOP3.LUT R7, R9, 0x1c`): 0x…35 for x =
/// 0x5ddbeb3d, the spec 0x…f5. The same with `.idx` and no predicate destination, a shuffle of
/// the immediate 40, `add.u32` of moved constants, a copy, and a shuffled `pos` (`s45/b_*`).
#[test]
fn c1n4_the_bfi_length_or_position_may_be_a_shuffled_or_folded_constant() {
    let d = Deviation::BfiConstantLengthTakenMod32;
    let with = |len: &[&'static str], bfi: &'static str| {
        let mut lines = len.to_vec();
        lines.extend(["ld.global.u32 %r7, [%in];", bfi, "st.global.u32 [%out], %r8;"]);
        lines
    };
    let x = 0x5ddb_eb3d_u32;
    let (words, bfi) = ([x, 0, 0, 0], "bfi.b32 %r8, %r7, %r7, 2, %r1;");
    let field = |len: u32| {
        let mask = ((1u64 << len) - 1) as u32;
        (x << 2 & mask << 2) | (x & !(mask << 2))
    };
    let (spec, three, eight) = (field(30), field(3), field(8));
    let k = "mov.b32 %r0, 1752184707;";
    warp_exact(&with(&[k, "shfl.sync.up.b32 %r1|%p0, %r0, 11, 0, -1;"], bfi), words, d, spec, three);
    warp_exact(&with(&[k, "shfl.sync.idx.b32 %r1, %r0, 3, 31, -1;"], bfi), words, d, spec, three);
    warp_exact(&with(&["shfl.sync.up.b32 %r1, 40, 11, 0, -1;"], bfi), words, d, spec, eight);
    warp_exact(&with(&["mov.b32 %r0, 33;", "add.u32 %r1, %r0, 7;"], bfi), words, d, spec, eight);
    warp_exact(&with(&["mov.b32 %r0, 40;", "mov.b32 %r1, %r0;"], bfi), words, d, spec, eight);
    let pos = ["mov.b32 %r0, 2;", "shfl.sync.up.b32 %r1, %r0, 11, 0, -1;"];
    warp_exact(&with(&pos, "bfi.b32 %r8, %r7, %r7, %r1, 40;"), words, d, spec, eight);
    // Right: a shuffled length below 32, a shuffled loaded value, the predicate read.
    warp_kept(&with(&["mov.b32 %r0, 8;", "shfl.sync.up.b32 %r1, %r0, 11, 0, -1;"], bfi), words, d);
    warp_kept(&with(&["ld.global.u32 %r0, [%in+4];", "shfl.sync.up.b32 %r1, %r0, 11, 0, -1;"], bfi), [x, 40, 0, 0], d);
    let mut read = with(&[k, "shfl.sync.up.b32 %r1|%p0, %r0, 11, 0, -1;"], bfi);
    read.push("@%p0 st.global.u32 [%out+4], %r7;");
    warp_kept(&read, words, d);
}

/// a22d4fd5 (`reduced.ptx`): `xor.b32` of a true `set.eq.u32.s32` and `sub.u32 d, z, x` of a
/// moved 0 gives x + 1 (`@P0 IADD3 R7, -R6` of `LOP3 0x33`): 0x80000001 for x = 0x80000000, the
/// spec 0x7fffffff. The same for an `add.u32` of moved 3 and −3, a `cnot`
/// beside a `.s32` set, and `.s64`/`.u64` sets (`s45/x_*`).
#[test]
fn fc9c9c66_the_negated_word_may_be_a_sub_u32_from_a_folded_zero() {
    let d = Deviation::XorOfSetAndCnotGivesOneMinus;
    let with = |sub: &[&'static str], set: &'static str| {
        let mut lines = vec!["ld.global.s32 %r0, [%in];", "ld.global.s32 %r6, [%in+4];", "ld.global.s64 %d0, [%in+8];"];
        lines.extend_from_slice(sub);
        lines.extend([set, "xor.b32 %r20, %r3, %r5;", "st.global.s32 [%out], %r20;"]);
        lines
    };
    let moved = ["mov.b32 %r1, 0;", "sub.u32 %r3, %r1, %r0;"];
    let eq = "set.eq.u32.s32 %r5, %r0, -2147483648;";
    let words = [0x8000_0000, 0, 0, 0];
    warp_exact(&with(&moved, eq), words, d, 0x7fff_ffff, 0x8000_0001);
    warp_exact(
        &with(&["mov.b32 %r2, 3;", "add.u32 %r1, %r2, -3;", "sub.u32 %r3, %r1, %r0;"], eq),
        words,
        d,
        0x7fff_ffff,
        0x8000_0001,
    );
    warp_exact(&with(&moved, "set.lt.s32.s32 %r5, %r0, %r6;"), words, d, 0x7fff_ffff, 0x8000_0001);
    warp_exact(&with(&moved, "set.lt.u32.s64 %r5, %d0, 1;"), words, d, 0x7fff_ffff, 0x8000_0001);
    warp_exact(&with(&moved, "set.lt.u32.u64 %r5, %d0, 1;"), words, d, 0x7fff_ffff, 0x8000_0001);
    // A cnot beside a `.s32` set: 1 − 1.
    warp_exact(&with(&["cnot.b32 %r3, %r6;"], eq), words, d, 0xffff_fffe, 0);
    // Right: a shuffled 0, `sub.s32` from 0, a moved 5, a false set.
    warp_kept(
        &with(&["mov.b32 %r2, 0;", "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", "sub.u32 %r3, %r1, %r0;"], eq),
        words,
        d,
    );
    warp_kept(&with(&["mov.b32 %r1, 0;", "sub.s32 %r3, %r1, %r0;"], eq), words, d);
    warp_kept(&with(&["mov.b32 %r1, 5;", "sub.u32 %r3, %r1, %r0;"], eq), words, d);
    warp_kept(&with(&moved, eq), [7, 0, 0, 0], d);
}

/// 4b87e2ad (`reduced.ptx`): `cvt.rn.f16x2.e4m3x2` of the high half of `shfl.sync.down` of a
/// moved 0 after a `bar.sync` is `UNPACK_B R5, 0x20` (0x00003000), the spec 0: any value. The
/// same with the `bar.sync` before the `mov`, `c` 31, `.bfly` (`s45/w_*`). Right: no `bar.sync`,
/// the `bar.sync` after the shuffle, the predicate read, the low half.
#[test]
fn e6e4d6e41_the_known_word_may_be_a_constant_shuffled_after_a_barrier() {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let with = |head: &[&'static str], half: &'static str| {
        let mut lines = head.to_vec();
        lines.extend(["mov.b32 {%h9, %h0}, %r0;", half, "st.global.u32 [%out], %r1;"]);
        lines
    };
    let high = "cvt.rn.f16x2.e4m3x2 %r1, %h0;";
    let any = |lines: &[&str]| {
        let (s, e, fired) = warp_both(lines, [0; 4], d);
        assert!(s.is_exact() && e.matches(s.bits) && e.matches(0x3000), "{lines:?}: {e:?}");
        assert_eq!(fired, vec![d], "{lines:?}");
    };
    let shfl = "shfl.sync.down.b32 %r0, %r0, 9, %r0, -1;";
    any(&with(&["mov.b32 %r0, 0;", "bar.sync 0;", shfl], high));
    any(&with(&["bar.sync 0;", "mov.b32 %r0, 0;", shfl], high));
    any(&with(&["mov.b32 %r0, 0;", "bar.sync 0;", "shfl.sync.bfly.b32 %r0, %r0, 1, 31, -1;"], high));
    warp_kept(&with(&["mov.b32 %r0, 0;", shfl], high), [0; 4], d);
    warp_kept(&with(&["mov.b32 %r0, 0;", shfl, "bar.sync 0;"], high), [0; 4], d);
    warp_kept(&with(&["mov.b32 %r0, 0;", "bar.sync 0;", shfl], "cvt.rn.f16x2.e4m3x2 %r1, %h9;"), [0; 4], d);
    let mut read = with(&["mov.b32 %r0, 0;", "bar.sync 0;", "shfl.sync.down.b32 %r0|%p0, %r0, 9, %r0, -1;"], high);
    read.push("@%p0 st.global.u32 [%out+4], %r0;");
    warp_kept(&read, [0; 4], d);
}
