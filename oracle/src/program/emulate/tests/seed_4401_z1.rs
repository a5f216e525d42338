//! Tests of B widened by session 44's helper z1 (corpus/findings/fuzz-h200-4301/trace/T14x1.md,
//! d78a59b7; variants in trace/d78a59b7/z1/): a `set.f32` amount read only by 64-bit shifts, in a
//! program with boolean logic on a 0/−1 mask, converts across a label, a branch or `bar.sync`;
//! the raw variants untouched.

use super::*;

/// d78a59b7's kernel with `trigger` (writing nothing the output keeps) before the amount,
/// `between` between the `set.f32` amount and the shift, `after` after it: word 0 (0x5) makes
/// the integer set true, word 1 (0) the `set.le.f32.u32` 1.0; the shift's spec amount is the
/// clamped 0x3f800000 (all out), B's 1.
fn kernel(trigger: &[&'static str], between: &[&'static str], after: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.b32 %r3, [%in];", "ld.global.b32 %r8, [%in+8];"];
    lines.extend_from_slice(trigger);
    lines.extend(["ld.global.b32 %r5, [%in+4];", "set.le.f32.u32 %r6, %r5, 0x0;"]);
    lines.extend_from_slice(between);
    lines.extend(["mov.b64 %d0, 47401077;", "shr.u64 %d1, %d0, %r6;"]);
    lines.extend_from_slice(after);
    lines.push("st.global.b64 [%out], %d1;");
    lines
}

const WORDS: [u32; 4] = [5, 0, 0x1234_5678, 0];
const XOR_OF_HALVES: [&str; 4] = [
    "set.gt.s32.s32 %r4, %r3, 0;",
    "mov.b32 {%h33, %h34}, %r4;",
    "xor.b16 %h35, %h33, %h34;",
    "st.global.u8 [%out], %h35;",
];
const NEVER_TAKEN_LOOP: [&str; 4] = ["$L1:", "mov.b32 %r7, 0;", "setp.ne.u32 %p1, %r7, 0x0;", "@%p1 bra $L1;"];

/// d78a59b7 (4301): `$L1:` and a never-taken back edge between `set.le.f32.u32` and `shr.u64`,
/// an `xor.b16` of the halves of a `set.gt.s32.s32` in the kernel: ptxas 13.0.88 and 13.5 -O3
/// `SEL R0, RZ, 0x1, !P0; SHF.R.U64 R7, R9, R0, RZ` shift by 1, the spec by 0x3f800000 (0).
#[test]
fn d78a59b7_4301_a_set_f32_amount_converts_across_a_deleted_loop() {
    let d = Deviation::F32ShiftAmount;
    let label_first = ["$L1:"];
    let after_loop = ["mov.b32 %r7, 0;", "setp.ne.u32 %p1, %r7, 0x0;", "@%p1 bra $L1;"];
    let mut reduced = kernel(&XOR_OF_HALVES, &label_first, &after_loop);
    exact_case(&reduced, WORDS, d, 0, 47_401_077 >> 1);
    // The set false: 0.0 and 0 alike.
    untouched(&reduced, [5, 1, 0, 0], d);
    // The same listing across a live loop (a loaded predicate), an unused label, a `bra` to
    // the next statement, `bar.sync`, a live forward branch around the shift.
    let live = ["$L1:", "ld.global.b32 %r7, [%in+12];", "setp.ne.u32 %p1, %r7, 0x0;", "@%p1 bra $L1;"];
    for between in [&live[..], &["$L1:"], &["bra $L1;", "$L1:"], &["bar.sync 0;"], &NEVER_TAKEN_LOOP] {
        exact_case(&kernel(&XOR_OF_HALVES, between, &[]), WORDS, d, 0, 47_401_077 >> 1);
    }
    // Other triggers, the same listing: `and.b32` of the set and a loaded word, `not.b16` of a
    // half, the halves of a `selp.b32 -1, 0`, `xor.b16` of a `cvt.u16.u32` of the set and a
    // loaded half, `or.b32` of a copy of the set and another set.
    let and32 = ["set.gt.s32.s32 %r4, %r3, 0;", "and.b32 %r9, %r4, %r8;", "st.global.b32 [%out], %r9;"];
    let not16 = [
        "set.gt.s32.s32 %r4, %r3, 0;",
        "mov.b32 {%h33, %h34}, %r4;",
        "not.b16 %h35, %h33;",
        "st.global.u8 [%out], %h35;",
    ];
    let selp = [
        "setp.gt.s32 %p2, %r3, 0;",
        "mov.b32 %r20, -1;",
        "selp.b32 %r4, %r20, 0, %p2;",
        "mov.b32 {%h33, %h34}, %r4;",
        "xor.b16 %h35, %h33, %h34;",
        "st.global.u8 [%out], %h35;",
    ];
    let cvt16 = [
        "set.gt.s32.s32 %r4, %r3, 0;",
        "cvt.u16.u32 %h33, %r4;",
        "ld.global.u16 %h36, [%in+8];",
        "xor.b16 %h35, %h33, %h36;",
        "st.global.u8 [%out], %h35;",
    ];
    let or_copy = [
        "set.gt.s32.s32 %r4, %r3, 0;",
        "mov.b32 %r10, %r4;",
        "set.gt.s32.s32 %r11, %r8, 0;",
        "or.b32 %r9, %r10, %r11;",
        "st.global.b32 [%out], %r9;",
    ];
    for trigger in [&and32[..], &not16, &selp, &cvt16, &or_copy] {
        exact_case(&kernel(trigger, &NEVER_TAKEN_LOOP, &[]), WORDS, d, 0, 47_401_077 >> 1);
    }
    // Two 64-bit shifts reading the amount (`shl` too): both by 1.
    reduced = kernel(&XOR_OF_HALVES, &NEVER_TAKEN_LOOP, &["shl.b64 %d2, %d1, %r6;", "mov.b64 %d1, %d2;"]);
    exact_case(&reduced, WORDS, d, 0, 47_401_077 >> 1 << 1);
}

/// The raw variants of d78a59b7 (ptxas 13.0.88 and 13.5 -O3 `SEL; IABS; I2FP.F32.S32` or
/// `FSEL R7, RZ, 1` read by the shift raw): no trigger (v0), the trigger dead or against an
/// immediate, a half with itself, `add` of the halves, a `selp 1, 0`; the set also stored
/// (`add.f32` the same); an `ld.f32` or `cvt.rn.f32.s32` amount
/// (`selp.f32` too; the interpreter has no `selp.f32`); a guarded `set.f32`.
#[test]
fn d78a59b7_4301_the_raw_variants_are_untouched() {
    let d = Deviation::F32ShiftAmount;
    untouched(&kernel(&[], &NEVER_TAKEN_LOOP, &[]), WORDS, d);
    let set = "set.gt.s32.s32 %r4, %r3, 0;";
    let halves = "mov.b32 {%h33, %h34}, %r4;";
    let store = "st.global.u8 [%out], %h35;";
    for trigger in [
        &[set, halves, "xor.b16 %h35, %h33, %h34;"][..],
        &[set, halves, "xor.b16 %h35, %h33, 5;", store],
        &[set, halves, "xor.b16 %h35, %h33, %h33;", store],
        &[set, halves, "add.u16 %h35, %h33, %h34;", store],
        &[
            "setp.gt.s32 %p2, %r3, 0;",
            "mov.b32 %r20, 1;",
            "selp.b32 %r4, %r20, 0, %p2;",
            "xor.b32 %r9, %r4, %r8;",
            "st.global.b32 [%out], %r9;",
        ],
    ] {
        untouched(&kernel(trigger, &NEVER_TAKEN_LOOP, &[]), WORDS, d);
    }
    untouched(&kernel(&XOR_OF_HALVES, &NEVER_TAKEN_LOOP, &["st.global.b32 [%out], %r6;"]), WORDS, d);
    let with_amount = |amount: &[&'static str]| {
        let mut lines = vec!["ld.global.b32 %r3, [%in];", "ld.global.b32 %r8, [%in+8];"];
        lines.extend(XOR_OF_HALVES);
        lines.extend_from_slice(amount);
        lines.extend(NEVER_TAKEN_LOOP);
        lines.extend(["mov.b64 %d0, 47401077;", "shr.u64 %d1, %d0, %r6;", "st.global.b64 [%out], %d1;"]);
        lines
    };
    let one = [0x3f80_0000, 0x3f80_0000, 0x1234_5678, 0];
    untouched(&with_amount(&["ld.global.f32 %r6, [%in+4];"]), one, d);
    untouched(&with_amount(&["ld.global.b32 %r5, [%in+4];", "cvt.rn.f32.s32 %r6, %r5;"]), [5, 1, 0, 0], d);
    let guarded = [
        "ld.global.b32 %r5, [%in+4];",
        "set.le.f32.u32 %r6, %r5, 0x0;",
        "setp.lt.s32 %p3, %r8, 5;",
        "@%p3 set.le.f32.u32 %r6, %r3, 0x0;",
    ];
    untouched(&with_amount(&guarded), WORDS, d);
}
