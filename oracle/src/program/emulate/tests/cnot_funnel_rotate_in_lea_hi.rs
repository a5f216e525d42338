//! Tests of 4483ae72's negated `LEA.HI` where the funnel is a rotate of the cnot (seed 4502's
//! 5b50d443; corpus/findings/fuzz-h200-4502/trace/T16t4.md, variants in trace/5b50d443/ and
//! trace/5b50d443/s46/; `emulate/cnot_funnel_rotate_in_lea_hi.rs`).

use super::*;

/// 5b50d443's `reduced.ptx` with the funnel line `shf` (writing `%r11` from the cnot `%r8`)
/// and the add `add` (of `%r13` and `%r11`).
fn rotate(shf: &[&'static str], add: &'static str) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r6, [%in+4];", "cnot.b32 %r8, %r6;"];
    lines.extend_from_slice(shf);
    lines.extend(["ld.global.u32 %r13, [%in+8];", add, "st.global.u32 [%out], %r16;"]);
    lines
}

const ADD: &str = "add.u32 %r16, %r13, %r11;";
const X: u32 = 0x330d_330d;

/// 5b50d443 (ptxas 13.0.88 -O3, the JIT: `LEA.HI R7, -R0, R7, R6, 0x7` with R0 = −c, R6 = c):
/// x − ((c << 7) | (R0 >> 25)) = x − 0xff (0x330d320e), the spec x + 0x80; `.clamp` (v3), n =
/// 31 (s46/w2), `.wrap` 39 (s46/w6), `add.s32` swapped (v4, n = 16) and `shf.r` (v6, s46/w1:
/// `LEA.HI … 0x19`) the same.
#[test]
fn n_4483ae72_5b50d443_4502_a_rotate_of_the_cnot_shifts_its_high_word_into_lea_hi() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let words = [0, 0, X, 0];
    let spec = u64::from(X + 0x80);
    exact_case(&rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 7;"], ADD), words, d, spec, u64::from(X - 0xff));
    exact_case(&rotate(&["shf.l.clamp.b32 %r11, %r8, %r8, 7;"], ADD), words, d, spec, u64::from(X - 0xff));
    exact_case(&rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 39;"], ADD), words, d, spec, u64::from(X - 0xff));
    let n31 = rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 31;"], ADD);
    exact_case(&n31, words, d, u64::from(X.wrapping_add(0x8000_0000)), u64::from(X.wrapping_sub(0xffff_ffff)));
    let swapped = rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 16;"], "add.s32 %r16, %r11, %r13;");
    exact_case(&swapped, words, d, u64::from(X + 0x1_0000), u64::from(X - 0x1_ffff));
    let right = rotate(&["shf.r.wrap.b32 %r11, %r8, %r8, 7;"], ADD);
    exact_case(&right, words, d, u64::from(X + 0x200_0000), u64::from(X - 0x3ff_ffff));
    let right_clamp = rotate(&["shf.r.clamp.b32 %r11, %r8, %r8, 7;"], ADD);
    exact_case(&right_clamp, words, d, u64::from(X + 0x200_0000), u64::from(X - 0x3ff_ffff));
    // c = 0: every word 0, the spec's x.
    untouched(&rotate(&["shf.l.wrap.b32 %r11, %r8, %r8, 7;"], ADD), [0, 1, X, 0], d);
}

/// Out of scope: the cnot as the high word of another low word (v5, s46/w5: no negated operand,
/// right), `.clamp` by 32 (s46/w7: `IADD3`, right), `selp 1, 0` in place of the cnot (v7, right);
/// a loaded high word (v2) and another cnot's (s46/w4), `LEA.HI` too but not observed on a GPU.
#[test]
fn n_4483ae72_5b50d443_4502_leaves_other_high_words_alone() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let words = [0, 0, X, 0];
    untouched(&rotate(&["mov.b32 %r9, 0;", "shf.l.wrap.b32 %r11, %r9, %r8, 7;"], ADD), words, d);
    untouched(&rotate(&["ld.global.u32 %r9, [%in+12];", "shf.l.wrap.b32 %r11, %r9, %r8, 7;"], ADD), words, d);
    untouched(&rotate(&["shf.l.clamp.b32 %r11, %r8, %r8, 32;"], ADD), words, d);
    untouched(&rotate(&["ld.global.u32 %r9, [%in+12];", "shf.l.wrap.b32 %r11, %r8, %r9, 7;"], ADD), words, d);
    let other_cnot = ["ld.global.u32 %r7, [%in+12];", "cnot.b32 %r9, %r7;", "shf.l.wrap.b32 %r11, %r8, %r9, 7;"];
    untouched(&rotate(&other_cnot, ADD), words, d);
    let selp = [
        "ld.global.u32 %r6, [%in+4];",
        "setp.eq.u32 %p0, %r6, 0;",
        "mov.b32 %r20, 1;",
        "mov.b32 %r21, 0;",
        "selp.b32 %r8, %r20, %r21, %p0;",
        "shf.l.wrap.b32 %r11, %r8, %r8, 7;",
        "ld.global.u32 %r13, [%in+8];",
        ADD,
        "st.global.u32 [%out], %r16;",
    ];
    untouched(&selp, words, d);
}

/// Seed 5401's 3ab5bc1e (trace/3ab5bc1e/, s54/, s55/): the loaded x (word 0), `sub` (writing
/// `%r11` = −x from a 0 `%r9`), the funnel `shf` of `%r11` into `%r18`, and the add `add`
/// writing `%r19`, stored.
fn negated(sub: &[&'static str], shf: &'static str, add: &'static str) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r8, [%in];", "ld.global.u32 %r12, [%in+4];"];
    lines.extend_from_slice(sub);
    lines.extend([shf, add, "st.global.u32 [%out], %r19;"]);
    lines
}

const SUB: [&str; 2] = ["mov.b32 %r9, 0;", "sub.u32 %r11, %r9, %r8;"];
const SHF16: &str = "shf.l.wrap.b32 %r18, %r11, 0x0, 0x10;";
const ADD_C: &str = "add.s32 %r19, %r11, %r18;";
/// 3ab5bc1e's loaded word (its input word 12) and −it.
const L: u32 = 0x3d9d_96a5;
const C: u32 = L.wrapping_neg();

/// 3ab5bc1e (13.0.88 -O3 `IADD3 R9, -R2, RZ, RZ; LEA.HI R6, -R2, R9, RZ, 0x10`): c − (x >> 16) =
/// 0xc2622bbe, the GPU's word, for the spec's c + (c >> 16) = 0xc2632bbd (an immediate 0, s55/a3,
/// is wrong too but no glue `sub` the oracle reads); n = 8 (s54/w2) and 31 (s55/a9), `sub.cc.u32` (s55/b1), a folded `add.u32` 0 (s55/b5), another
/// loaded addend with `.clamp` and `add.u32` swapped (s55/a1, a5), a copy of c shifted (s55/b4)
/// and a rotate of c (s55/a4, a8: 5b50d443's `LEA.HI R7, -R2, R7, R7, 0x10`) the same.
#[test]
fn n_4483ae72_3ab5bc1e_5401_a_sub_from_a_folded_zero_is_negated_in_lea_hi() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let words = [L, 0x1234_5678, 0, 0];
    assert_eq!(C.wrapping_sub(L >> 16), 0xc262_2bbe);
    exact_case(&negated(&SUB, SHF16, ADD_C), words, d, 0xc263_2bbd, 0xc262_2bbe);
    let n8 = negated(&SUB, "shf.l.wrap.b32 %r18, %r11, 0x0, 8;", ADD_C);
    exact_case(&n8, words, d, u64::from(C.wrapping_add(C >> 24)), u64::from(C.wrapping_sub(L >> 24)));
    let n31 = negated(&SUB, "shf.l.wrap.b32 %r18, %r11, 0x0, 31;", ADD_C);
    exact_case(&n31, words, d, u64::from(C.wrapping_add(C >> 1)), u64::from(C.wrapping_sub(L >> 1)));
    let cc = ["mov.b32 %r9, 0;", "sub.cc.u32 %r11, %r9, %r8;"];
    exact_case(&negated(&cc, SHF16, ADD_C), words, d, 0xc263_2bbd, 0xc262_2bbe);
    let add0 = ["mov.b32 %r10, 3;", "add.u32 %r9, %r10, -3;", "sub.u32 %r11, %r9, %r8;"];
    exact_case(&negated(&add0, SHF16, ADD_C), words, d, 0xc263_2bbd, 0xc262_2bbe);
    let other = negated(&SUB, "shf.l.clamp.b32 %r18, %r11, 0x0, 8;", "add.u32 %r19, %r18, %r12;");
    exact_case(
        &other,
        words,
        d,
        u64::from(0x1234_5678u32.wrapping_add(C >> 24)),
        u64::from(0x1234_5678u32.wrapping_sub(L >> 24)),
    );
    let copy = ["mov.b32 %r9, 0;", "sub.u32 %r11, %r9, %r8;", "mov.b32 %r13, %r11;"];
    let copied = negated(&copy, "shf.l.wrap.b32 %r18, %r13, 0x0, 0x10;", ADD_C);
    exact_case(&copied, words, d, 0xc263_2bbd, 0xc262_2bbe);
    let rotl = negated(&SUB, "shf.l.wrap.b32 %r18, %r11, %r11, 0x10;", ADD_C);
    exact_case(
        &rotl,
        words,
        d,
        u64::from(C.wrapping_add(C.rotate_left(16))),
        u64::from(C.wrapping_sub((C << 16) | (L >> 16))),
    );
    let rotr = negated(&SUB, "shf.r.wrap.b32 %r18, %r11, %r11, 0x10;", ADD_C);
    exact_case(
        &rotr,
        words,
        d,
        u64::from(C.wrapping_add(C.rotate_right(16))),
        u64::from(C.wrapping_sub((C << 16) | (L >> 16))),
    );
}

/// Right in the 13.0.88 -O3 listings (no negated `LEA.HI` operand): `sub.s32` from 0 (s55/a2,
/// a7), `neg.s32` (s54/w1), a loaded minuend (s55/b3), a moved 5 (s55/a6); and, not followed, c
/// rewritten between the funnel and the add (the sub no longer its producer there).
#[test]
fn n_4483ae72_3ab5bc1e_5401_leaves_other_subtractions_alone() {
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let words = [L, 0x1234_5678, 0, 0];
    untouched(&negated(&["mov.b32 %r9, 0;", "sub.s32 %r11, %r9, %r8;"], SHF16, ADD_C), words, d);
    untouched(&negated(&["mov.b32 %r9, 0;", "sub.s32 %r11, %r9, %r8;"], SHF16, "add.s32 %r19, %r18, %r12;"), words, d);
    untouched(&negated(&["neg.s32 %r11, %r8;"], SHF16, ADD_C), words, d);
    // A minuend loaded (0 here), not folded.
    untouched(&negated(&["ld.global.u32 %r9, [%in+8];", "sub.u32 %r11, %r9, %r8;"], SHF16, ADD_C), words, d);
    untouched(&negated(&["mov.b32 %r9, 5;", "sub.u32 %r11, %r9, %r8;"], SHF16, ADD_C), words, d);
    let rewritten = ["mov.b32 %r9, 0;", "sub.u32 %r11, %r9, %r8;", SHF16, "mov.b32 %r11, %r12;"];
    let mut lines = vec!["ld.global.u32 %r8, [%in];", "ld.global.u32 %r12, [%in+4];"];
    lines.extend(rewritten);
    lines.extend([ADD_C, "st.global.u32 [%out], %r19;"]);
    untouched(&lines, words, d);
}

/// 3ab5bc1e, the stored campaign case: words 0 and 1 (`mov.b64 d3, {r19, r19}`) are c − (x >> 16)
/// for the thread's loaded x (input word 12), the GPU's 0xc2622bbe where x = 0x3d9d96a5.
#[test]
fn n_4483ae72_3ab5bc1e_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5401", "3ab5bc1ea2718ee8");
    let d = Deviation::AddOfCnotFunnelShiftNegatedInLeaHi;
    let mut seen = false;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, d) {
        let x = i.0[16 * t + 12];
        let want = if w < 2 { x.wrapping_neg().wrapping_sub(x >> 16) } else { s.bits as u32 };
        assert_eq!(e.bits as u32, want, "thread {t} word {w}");
        seen |= w == 0 && x == L && e.bits == 0xc262_2bbe;
    }
    assert!(seen, "the GPU's word 0xc2622bbe");
}
