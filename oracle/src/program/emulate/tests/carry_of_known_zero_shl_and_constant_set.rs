//! Tests of c6d3ed97's emulation (`emulate/carry_of_known_zero_shl_and_constant_set.rs`): the
//! carry of `sub.cc`/`add.cc` of a `shl.b32` that is 0 by known bits and a nonzero constant is
//! the carry-in PT (seed 5001's c6d3ed97, corpus/findings/fuzz-h200-5001/trace/T21b.md; variants
//! in trace/c6d3ed97/s50/ and s51/).

use super::*;

const D: Deviation = Deviation::CarryOfKnownZeroShlAndConstantSet;

/// The stored case: a loop of 3 trips whose first `sub.cc` reads the known-zero shl (through a
/// `mov`); every thread stores 0xcdc4 at out+4 (word 1 = 0x0000cdc4 by the spec), the GPU 0xcdc3.
#[test]
fn carry_known_zero_shl_c6d3ed97_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5001", "c6d3ed97579aedd4");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0x0000_cdc4, 0x0000_cdc3), "thread {t} word {w}");
        } else {
            assert_eq!(e.bits, s.bits, "thread {t} word {w}");
        }
    }
}

/// x loaded, `z` (lines writing %r8 from %r4), %r11 = 0x45bf8e51 moved, then `cc` (the carry
/// producer into %r12) and `consumer` (into %r1), %r1 stored.
fn chain(z: &[&str], cc: &str, consumer: &str) -> Vec<String> {
    let mut l = vec!["ld.global.u32 %r4, [%in];".to_string()];
    l.extend(z.iter().map(|s| s.to_string()));
    l.push("mov.b32 %r11, 1170181713;".to_string());
    l.push(cc.to_string());
    l.push(consumer.to_string());
    l.push("st.global.u32 [%out], %r1;".to_string());
    l
}

/// s50/v3's known zero: `shl.b32 (shr.s32 (x >> 31), 16), 16`.
const SHR_S32: [&str; 3] = ["shr.u32 %r4, %r4, 31;", "shr.s32 %r6, %r4, 16;", "shl.b32 %r8, %r6, 16;"];
const SUB: &str = "sub.cc.s32 %r12, %r8, -172999494;";
const SUBC: &str = "subc.s32 %r1, %r11, 0;";
const WORDS: [u32; 4] = [0xdead_beef, 0x1234_5678, 0, 0];

/// Wrong (13.0.88 -O3 `IADD3.X …, PT`: 0x45bf8e51 for 0x45bf8e50; `addc` 0x45bf8e52 for
/// 0x45bf8e51): s50/v3, v4 (`add.cc`), v7 (K = 5), v9 (`shl 4`), v10 (`ld.u8 >> 8`); s51/v1 (two
/// and-masks), v2 (`and 0xffff0000` shifted by 16), v3 (a moved K), v4 (`add.cc K, z`), v5
/// (`sub.cc.u32`), v6 (`shr.u32 (x >> 31), 16`).
#[test]
fn carry_known_zero_shl_c6d3ed97_the_carry_of_a_known_zero_shl_is_set() {
    let (spec, bug) = (0x45bf_8e50, 0x45bf_8e51);
    exact_case(&strs(&chain(&SHR_S32, SUB, SUBC)), WORDS, D, spec, bug);
    let addc = "addc.s32 %r1, %r11, 0;";
    exact_case(&strs(&chain(&SHR_S32, "add.cc.s32 %r12, %r8, -172999494;", addc)), WORDS, D, bug, bug + 1);
    let moved_k = [SHR_S32[0], SHR_S32[1], SHR_S32[2], "mov.b32 %r3, -172999494;"];
    exact_case(&strs(&chain(&moved_k, "add.cc.s32 %r12, %r3, %r8;", addc)), WORDS, D, bug, bug + 1);
    exact_case(&strs(&chain(&SHR_S32, "sub.cc.s32 %r12, %r8, 5;", SUBC)), WORDS, D, spec, bug);
    exact_case(&strs(&chain(&SHR_S32, "sub.cc.u32 %r12, %r8, -172999494;", SUBC)), WORDS, D, spec, bug);
    let shl4 = ["shr.u32 %r4, %r4, 31;", "shr.s32 %r6, %r4, 16;", "shl.b32 %r8, %r6, 4;"];
    exact_case(&strs(&chain(&shl4, SUB, SUBC)), WORDS, D, spec, bug);
    let u8 = ["ld.global.u8 %r5, [%in+4];", "shr.u32 %r6, %r5, 8;", "shl.b32 %r8, %r6, 16;"];
    exact_case(&strs(&chain(&u8, SUB, SUBC)), WORDS, D, spec, bug);
    let masks = ["and.b32 %r6, %r4, 0xffe00000;", "and.b32 %r7, %r6, 0x1ffff;", "shl.b32 %r8, %r7, 16;"];
    exact_case(&strs(&chain(&masks, SUB, SUBC)), WORDS, D, spec, bug);
    let low = ["and.b32 %r6, %r4, 0xffff0000;", "shl.b32 %r8, %r6, 16;"];
    exact_case(&strs(&chain(&low, SUB, SUBC)), WORDS, D, spec, bug);
    let shr_u32 = ["shr.u32 %r4, %r4, 31;", "shr.u32 %r6, %r4, 16;", "shl.b32 %r8, %r6, 16;"];
    exact_case(&strs(&chain(&shr_u32, SUB, SUBC)), WORDS, D, spec, bug);
    exact_case(&strs(&chain(&moved_k, "sub.cc.s32 %r12, %r8, %r3;", SUBC)), WORDS, D, spec, bug);
}

/// Right (13.0.88 -O3 computes the carry or folds it right): s50/v1 (no shl), v2 (a moved 0),
/// v5 (`shl (x >> 31), 16`: not known 0), v6 (and-masks, no shl), v8 (K a loaded register);
/// s51/v7 (the shl of a moved 0); s51/v8 (`sub.cc K, z`: another slip, out of this scope).
#[test]
fn carry_known_zero_shl_c6d3ed97_unshifted_unknown_folded_and_register_forms_are_left_alone() {
    untouched(&strs(&chain(&["shr.u32 %r4, %r4, 31;", "shr.s32 %r8, %r4, 16;"], SUB, SUBC)), WORDS, D);
    untouched(&strs(&chain(&["mov.b32 %r8, 0;"], SUB, SUBC)), WORDS, D);
    let not_zero = ["shr.u32 %r4, %r4, 31;", "shl.b32 %r8, %r4, 16;"];
    untouched(&strs(&chain(&not_zero, SUB, SUBC)), WORDS, D);
    untouched(&strs(&chain(&["and.b32 %r6, %r4, 0xffe00000;", "and.b32 %r8, %r6, 0x1ffff;"], SUB, SUBC)), WORDS, D);
    let reg_k = [SHR_S32[0], SHR_S32[1], SHR_S32[2], "ld.global.u32 %r3, [%in+4];"];
    untouched(&strs(&chain(&reg_k, "sub.cc.s32 %r12, %r8, %r3;", SUBC)), WORDS, D);
    untouched(&strs(&chain(&["mov.b32 %r6, 0;", "shl.b32 %r8, %r6, 16;"], SUB, SUBC)), WORDS, D);
    let moved_k = [SHR_S32[0], SHR_S32[1], SHR_S32[2], "mov.b32 %r3, -172999494;"];
    untouched(&strs(&chain(&moved_k, "sub.cc.s32 %r12, %r3, %r8;", SUBC)), WORDS, D);
}
