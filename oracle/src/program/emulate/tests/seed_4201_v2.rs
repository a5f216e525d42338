//! Tests of 3701 C1-N2 widened to the 64-bit integer widening of a set.f32 result after seed
//! 4203's trace (corpus/findings/fuzz-h200-4203/trace/T12c2.md §A, folders d6a9319f/ with
//! NOTE.txt and `w/`, 06aff9fd/, 6ec845c6/; helper v2, session 42): beside a logic op of a
//! predicate-made −1/0, `cvt.{u64,s64}.{s32,u32}` of a set.f32 result is 0/1 (`SEL R0, RZ, 0x1,
//! !P0`, ptxas 13.0.88 and 13.5 -O3). Each traced wrong variant with the listing's value, the
//! right ones left alone. The set's source is the first input word (tid in the traced kernels).

use super::*;

const D: Deviation = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;

/// The reduced kernels' shape: `set.ne.f32.u32` of the first word (1.0f where not 0), `cvt`,
/// the low word compared with K by `cmp`, xor with the packed half of the third word.
fn reduced(cvt: &'static str, cmp: &'static str, logic: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r0, [%in];",
        "ld.global.u16 %h1, [%in+8];",
        "set.ne.f32.u32 %r1, %r0, 0;",
        cvt,
        "mov.b64 {%r7, %r8}, %d0;",
        cmp,
        "mov.b32 %r22, {%h1, %h1};",
        logic,
        "st.global.b32 [%out], %r23;",
    ]
}

const XOR: &str = "xor.b32 %r23, %r19, %r22;";
const GE_K: &str = "set.ge.u32.u32 %r19, %r7, 202906417;";
const U64_S32: &str = "cvt.u64.s32 %d0, %r1;";

/// d6a9319f (reduced.ptx): 0x3f800000 ≥ 202906417, so r19 = −1 and ~{h1,h1} = 0xffffffff is
/// stored; the GPU compares 1 (`ISETP.GE.U32 R0, 0xc181b31`, never true) and stores 0.
#[test]
fn d6a9319f_the_widened_set_f32_is_1_beside_an_xor_of_a_set() {
    exact_case(&reduced(U64_S32, GE_K, XOR), [1, 0, 0, 0], D, 0xffff_ffff, 0);
}

/// 06aff9fd and 6ec845c6 (reduced.ptx): `set.{le,lt}.u32.u32 r, r7, 0x3de43de4` is false for
/// 0x3f800000 (0 stored) and true for 1 (0xffffffff stored).
#[test]
fn le_and_lt_06aff9fd_6ec845c6_compare_the_1() {
    let le = "set.le.u32.u32 %r19, %r7, 1038368228;";
    exact_case(&reduced(U64_S32, le, XOR), [1, 0, 0, 0], D, 0, 0xffff_ffff);
    let lt = "set.lt.u32.u32 %r19, %r7, 1038368228;";
    exact_case(&reduced(U64_S32, lt, XOR), [1, 0, 0, 0], D, 0, 0xffff_ffff);
}

/// `w/cvt_*`: all four widenings, with `and`/`or`.b32 as the logic op (v11 `and`), are `SEL 0x1`.
#[test]
fn every_widening_and_logic_op_is_rebuilt() {
    for cvt in ["cvt.u64.u32 %d0, %r1;", "cvt.s64.s32 %d0, %r1;", "cvt.s64.u32 %d0, %r1;"] {
        exact_case(&reduced(cvt, GE_K, XOR), [1, 0, 0, 0], D, 0xffff_ffff, 0);
    }
    // The third word's half 0xffff: and keeps r19, or gives all ones either way but the low word.
    exact_case(&reduced(U64_S32, GE_K, "and.b32 %r23, %r19, %r22;"), [1, 0, 0xffff, 0], D, 0xffff_ffff, 0);
    exact_case(&reduced(U64_S32, GE_K, "or.b32 %r23, %r19, %r22;"), [1, 0, 0x1234, 0], D, 0xffff_ffff, 0x1234_1234);
}

/// The widened word stored as is, with a trigger that does not touch it (v13 `xor.b32` of an
/// unrelated set, t3 of a `selp -1, 0` mask, t5 `not.b32` of a set; another set source type, as v15's `.f32`):
/// the GPU stores 1, the spec 0x3f800000. (The kernels store the trigger's result too; the
/// two output words hold the u64 here, and the trigger is a fact of the program text.)
fn stored(set: &'static str, trigger: &[&'static str]) -> Vec<&'static str> {
    let head = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r22, [%in+8];",
        set,
        "cvt.u64.s32 %d0, %r1;",
        "st.global.u64 [%out], %d0;",
    ];
    [&head[..], trigger].concat()
}

#[test]
fn v13_t3_t5_v15_any_predicate_mask_logic_op_is_the_trigger() {
    let set = "set.ne.f32.u32 %r1, %r0, 0;";
    let xor_of_set = ["set.ge.u32.u32 %r19, %r0, 5;", "xor.b32 %r23, %r19, %r22;"];
    exact_case(&stored(set, &xor_of_set), [7, 0, 0, 0], D, 0x3f80_0000, 1);
    let selp =
        ["setp.ge.u32 %p1, %r0, 5;", "mov.b32 %r18, -1;", "selp.b32 %r19, %r18, 0, %p1;", "xor.b32 %r23, %r19, %r22;"];
    exact_case(&stored(set, &selp), [7, 0, 0, 0], D, 0x3f80_0000, 1);
    let not = ["set.ge.u32.u32 %r19, %r0, 5;", "not.b32 %r23, %r19;"];
    exact_case(&stored(set, &not), [7, 0, 0, 0], D, 0x3f80_0000, 1);
    // v15's `.f32` source is no glue set; any source type is alike (`set.lt.f32.s32` here).
    let s32_source = "set.lt.f32.s32 %r1, %r0, 0;";
    exact_case(&stored(s32_source, &xor_of_set), [0x8000_0000, 0, 0, 0], D, 0x3f80_0000, 1);
    // The set false: 0 either way.
    untouched(&stored(set, &xor_of_set), [0, 0, 0, 0], D);
}

/// The right variants: no logic op (v2), `add` in its place, an xor with an immediate (t4), of
/// a loaded word (v10), of the set.f32 word itself (t6), `xor.b64` of a widened set (t2), and
/// the 32-bit `cvt.u32.s32` (v12).
#[test]
fn without_the_trigger_or_the_widening_the_cvt_is_right() {
    let w = [1, 0, 0, 0];
    untouched(&reduced(U64_S32, GE_K, "mov.b32 %r23, %r19;"), w, D);
    untouched(&reduced(U64_S32, GE_K, "add.u32 %r23, %r19, %r22;"), w, D);
    untouched(&reduced(U64_S32, GE_K, "xor.b32 %r23, %r19, 5;"), w, D);
    untouched(&reduced(U64_S32, "ld.global.u32 %r19, [%in+12];", XOR), w, D);
    let set = "set.ne.f32.u32 %r1, %r0, 0;";
    untouched(&stored(set, &["xor.b32 %r23, %r1, %r22;"]), [7, 0, 0, 0], D);
    let b64 =
        ["set.ge.u32.u32 %r19, %r0, 5;", "cvt.u64.u32 %d2, %r19;", "cvt.u64.u32 %d3, %r22;", "xor.b64 %d4, %d2, %d3;"];
    untouched(&stored(set, &b64), [7, 0, 0, 0], D);
    let narrow = [
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r22, [%in+8];",
        set,
        "cvt.u32.s32 %r2, %r1;",
        "st.global.u32 [%out], %r2;",
        "set.ge.u32.u32 %r19, %r0, 5;",
        "xor.b32 %r23, %r19, %r22;",
    ];
    untouched(&narrow, [7, 0, 0, 0], D);
}

/// 16cd6583 (fuzz-h200-4203/trace/T12c4.md, `16cd6583/variants.md`): a set.f32 compared with 0
/// and read by a byte is the integer 0/1 (3604-N2's rebuild, `SEL R0, RZ, 0x1, !P0`).
const N2: Deviation = Deviation::WidenedSetF32ComparedWithZeroIs0Or1;

/// The reduced kernel without its guarded `cvt.s16.u32 h3, 0`: `set` of the first word,
/// `compare`, `reader` into h3, `st.s16`.
fn byte_read(set: &'static str, compare: &'static str, reader: &'static str) -> Vec<&'static str> {
    vec!["ld.global.u32 %r0, [%in];", "mov.b32 %r1, 0;", set, compare, reader, "st.global.s16 [%out], %h3;"]
}

const GT_F32: &str = "set.gt.f32.u32 %r0, %r0, 0;";
const X: [u32; 4] = [0xb7c8_2522, 0, 0, 0];

/// reduced.ptx (`setp.eq.s32` of a moved 0: GPU 1, spec 0), v8 (`setp.ne.u32 s, 0`), v13
/// (`setp.gt.s32`), v10 (`cvt.s8.s32`), v15 (a `.s32` set source).
#[test]
fn n2_16cd6583_a_byte_of_a_set_f32_compared_with_zero_is_the_integer_1() {
    let mut reduced = byte_read(GT_F32, "setp.eq.s32 %p0, %r1, %r0;", "cvt.u8.u32 %h3, %r0;");
    reduced.insert(5, "@%p0 cvt.s16.u32 %h3, %r1;");
    exact_case(&reduced, X, N2, 0, 1);
    exact_case(&byte_read(GT_F32, "setp.ne.u32 %p1, %r0, 0;", "cvt.u8.u32 %h3, %r0;"), X, N2, 0, 1);
    exact_case(&byte_read(GT_F32, "setp.gt.s32 %p1, %r0, 0;", "cvt.u8.u32 %h3, %r0;"), X, N2, 0, 1);
    exact_case(&byte_read(GT_F32, "setp.ne.u32 %p1, %r0, 0;", "cvt.s8.s32 %h3, %r0;"), X, N2, 0, 1);
    let s32_source = "set.le.f32.s32 %r0, %r0, 0;";
    exact_case(&byte_read(s32_source, "setp.ne.u32 %p1, %r0, 0;", "cvt.u8.u32 %h3, %r0;"), X, N2, 0, 1);
}

/// The right variants: no compare (v1), a compare with 5 (v14), a 16-bit reader (v6, v9), an
/// integer set (v5: the byte 0xff either way); the set false (0 either way).
#[test]
fn n2_without_a_compare_with_zero_or_a_byte_reader_the_set_f32_is_right() {
    untouched(&byte_read(GT_F32, "mov.b32 %r2, %r0;", "cvt.u8.u32 %h3, %r0;"), X, N2);
    untouched(&byte_read(GT_F32, "setp.eq.u32 %p1, %r0, 5;", "cvt.u8.u32 %h3, %r0;"), X, N2);
    untouched(&byte_read(GT_F32, "setp.ne.u32 %p1, %r0, 0;", "cvt.u16.u32 %h3, %r0;"), X, N2);
    untouched(&byte_read(GT_F32, "setp.eq.s32 %p0, %r1, %r0;", "cvt.u16.u32 %h3, %r0;"), X, N2);
    let int_set = "set.gt.u32.u32 %r0, %r0, 0;";
    untouched(&byte_read(int_set, "setp.eq.s32 %p0, %r1, %r0;", "cvt.u8.u32 %h3, %r0;"), X, N2);
    untouched(&byte_read(GT_F32, "setp.ne.u32 %p1, %r0, 0;", "cvt.u8.u32 %h3, %r0;"), [0, 0, 0, 0], N2);
}
