//! Tests of J's scopes generalized to its mechanism (`emulate/j_branch_known_values.rs`; seeds 3901–3903,
//! corpus/findings/fuzz-h200-390{1,2,3}/trace/T6A.md, T6C.md, T6D.md, T6E.md, T6F.md): the
//! narrowed `add.{u16x2,s16x2}` of constants through copies of its addends, read through a byte
//! unpack or a chain of copies; the branch-known value past inner branches, through self-copies
//! and in copies of the compared register.

use super::*;

/// J narrowed, an addend copied after its move (ae678c32, trace/T6A.md: `mov.b32 %r0, %r0`,
/// 13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0` read as `cvt.pack`'s c; 05c914bf, trace/T6D.md:
/// `mov.u32 %r1, %r0` read as the high half): the constant is still dropped. Read as `a` too,
/// c is read whole: the spec's.
#[test]
fn j_narrowed_a_copied_constant_addend_is_still_dropped() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let pack = |reader: &'static str| {
        [
            "mov.b32 %r0, 3206784128;",
            "mov.b32 %r0, %r0;",
            "mov.b32 %r2, 0;",
            "add.u16x2 %r3, %r0, %r2;",
            reader,
            "st.global.u32 [%out], %r5;",
        ]
    };
    // c's low half 0xa480 is d's high half; a, b (0xbf23a480) saturate to 0x80 (§9.7.9.22).
    exact_case(&pack("cvt.pack.sat.s8.s32.b32 %r5, %r0, %r0, %r3;"), [0; 4], d, 0xa480_8080, 0x8080);
    untouched(&pack("cvt.pack.sat.s8.s32.b32 %r5, %r3, %r0, %r3;"), [0; 4], d);
    let high = [
        "mov.b32 %r0, 4294967295;",
        "mov.u32 %r1, %r0;",
        "mov.b32 %r3, 0;",
        "add.s16x2 %r1, %r3, %r1;",
        "mov.b32 {%h38, %h39}, %r1;",
        "st.global.s16 [%out+4], %h39;",
    ];
    exact_case(&high, [0; 4], d, 0xffff_0000_0000, 0);
}

/// J narrowed, read through a chain of copies: every live reader of the sum, copies followed,
/// is the one narrowing unpack (a dead reader ignored); a copy also stored whole is read whole.
#[test]
fn j_narrowed_through_copies_only_where_nothing_else_reads_the_sum() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let with = |tail: &[&'static str]| {
        let mut lines = vec!["mov.b32 %r0, 4294967295;", "mov.b32 %r3, 0;", "add.s16x2 %r1, %r3, %r0;"];
        lines.extend(tail);
        lines
    };
    let copy = ["mov.b32 %r4, %r1;", "mov.b32 {%h38, %h39}, %r4;", "st.global.s16 [%out+4], %h39;"];
    exact_case(&with(&copy), [0; 4], d, 0xffff_0000_0000, 0);
    let dead = ["cvt.u32.u32 %r7, %r1;", "mov.b32 {%h38, %h39}, %r1;", "st.global.s16 [%out+4], %h39;"];
    exact_case(&with(&dead), [0; 4], d, 0xffff_0000_0000, 0);
    let also_whole = [
        "mov.b32 %r4, %r1;",
        "mov.b32 {%h38, %h39}, %r4;",
        "st.global.s16 [%out+4], %h39;",
        "st.global.b32 [%out], %r4;",
    ];
    untouched(&with(&also_whole), [0; 4], d);
}

/// J narrowed, read through a byte unpack whose read bytes lie in one half (2bdcc7c7,
/// trace/T6E.md: b1 of `add.s16x2` of 0 and 0x7ffffffe, 13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0`;
/// debc8a69, trace/T6F.md: b3 of 0x47a1a34e + 0): each byte is the narrowed half's. K1's half
/// 0x47a1 non-zero and K2's 0x0102 give K2's half kept, its byte 0 as b2. Bytes of both halves
/// read: the spec's.
#[test]
fn j_narrowed_read_through_a_byte_unpack() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let b1 = [
        "mov.s32 %r0, 2147483646;",
        "mov.b32 %r5, 0;",
        "add.s16x2 %r5, %r5, %r0;",
        "mov.b32 {%c0, %c1, _, _}, %r5;",
        "mov.b16 %h25, {%c1, %c1};",
        "st.global.s8 [%out+6], %h25;",
    ];
    exact_case(&b1, [0; 4], d, 0xff_0000_0000_0000, 0);
    let with = |k2: &'static str, unpack: &'static str, pack: &'static str| {
        ["mov.u32 %r5, 1201797710;", k2, "add.u16x2 %r8, %r5, %r6;", unpack, pack, "st.global.b16 [%out+6], %h11;"]
    };
    let zero = "mov.b32 %r6, 0;";
    exact_case(
        &with(zero, "mov.b32 {_, _, _, %c4}, %r8;", "mov.b16 %h11, {%c4, %c4};"),
        [0; 4],
        d,
        0x4747_0000_0000_0000,
        0,
    );
    let k2 = "mov.b32 %r6, 0x01020304;";
    // Spec b2 = (0x47a1 + 0x0102) & 0xff = 0xa3; narrowed: K2's half 0x0102, b2 = 0x02.
    exact_case(
        &with(k2, "mov.b32 {_, _, %c4, _}, %r8;", "mov.b16 %h11, {%c4, %c4};"),
        [0; 4],
        d,
        0xa3a3_0000_0000_0000,
        0x0202_0000_0000_0000,
    );
    untouched(&with(k2, "mov.b32 {_, %c1, %c4, _}, %r8;", "mov.b16 %h11, {%c4, %c1};"), [0; 4], d);
}

/// J branch-known past an inner branch that lands before the add (2a67c43e, trace/T6C.md:
/// `@!%p1 bra $L1; $L1: add.s16x2 %r1, %r0, %tix` in the fall-through of `setp.ne.s32 %p0,
/// %tix, 68`, 13.0.88 -O3 `@!P0 VIADD.16x2 R0, R4, 0x440044`). A label also entered from
/// before the outer branch: not dominated, the spec's.
#[test]
fn j_branch_known_past_an_inner_branch() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |first: &'static str| {
        [
            "ld.global.u32 %r9, [%in];",
            "mov.b32 %r0, 4056949900;",
            "mov.b32 %r1, 0;",
            first,
            "setp.ne.s32 %p0, %r9, 68;",
            "@%p0 bra $L0;",
            "setp.eq.s32 %p1, %r9, 109;",
            "@!%p1 bra $L1;",
            "$L1:",
            "add.s16x2 %r1, %r0, %r9;",
            "$L0:",
            "st.global.u32 [%out], %r1;",
        ]
    };
    exact_case(&with("mov.b32 %r2, 0;"), [68, 0, 0, 0], d, 0xf1d0_24d0, 0xf214_24d0);
    untouched(&with("mov.b32 %r2, 0;"), [69, 0, 0, 0], d);
    let entered = with("setp.eq.s32 %p2, %r9, 68;");
    let mut entered: Vec<&str> = entered.to_vec();
    entered.insert(4, "@%p2 bra $L1;");
    untouched(&entered, [68, 0, 0, 0], d);
}

/// J branch-known in a copy of the compared register (75dac7ed, trace/T6D.md: `mov.b32 %r2,
/// %tix` in the fall-through of `setp.ne.u32 %p2, %tix, 0x1e`, byte b2 of its unpack stored:
/// 13.0.88 -O3 0x1e, K's byte 0). A register copied before it was overwritten: the spec's.
#[test]
fn j_branch_known_in_a_copy_of_the_compared_register() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |copy: &[&'static str]| {
        let mut lines = vec!["ld.global.u32 %r9, [%in];", "setp.ne.u32 %p2, %r9, 0x1e;", "@%p2 bra $L1;"];
        lines.extend(copy);
        lines.extend([
            "mov.b32 {%c3, %c4, %c5, %c6}, %r2;",
            "cvt.u16.u8 %h12, %c5;",
            "st.global.u8 [%out+6], %h12;",
            "$L1:",
        ]);
        lines
    };
    exact_case(&with(&["mov.b32 %r2, %r9;"]), [0x1e, 0, 0, 0], d, 0, 0x1e_0000_0000_0000);
    untouched(&with(&["mov.b32 %r2, %r9;"]), [0x1f, 0, 0, 0], d);
    untouched(&with(&["mov.b32 %r2, %r9;", "ld.global.u32 %r9, [%in+4];"]), [0x1e, 0x1e, 0, 0], d);
}

/// J branch-known through a self-copy of the compared register in the fall-through
/// (cb17a684, trace/T6F.md: `and.b32 %r0, %r0, %r0; add.s16x2 %r0, %r0, %r0`, 13.0.88 -O3
/// `@!P0 MOV R10, 0xffc0ffc0; @!P0 VIADD.16x2 R10, R10, 0xffc0ffc0`). An `or` with another
/// register (holding 0) is no self-copy: the spec's.
#[test]
fn j_branch_known_through_a_self_copy() {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    let with = |rewrite: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            "ld.global.b32 %r3, [%in+4];",
            "setp.ne.u32 %p1, %r0, 0xffffffc0;",
            "@%p1 bra $L2;",
            rewrite,
            "add.s16x2 %r0, %r0, %r0;",
            "bra $L3;",
            "$L2:",
            "mov.b32 %r0, 0;",
            "$L3:",
            "st.global.u32 [%out], %r0;",
        ]
    };
    let words = [0xffff_ffc0, 0, 0, 0];
    exact_case(&with("and.b32 %r0, %r0, %r0;"), words, d, 0xfffe_ff80, 0xff80_ff80);
    untouched(&with("or.b32 %r0, %r0, %r3;"), words, d);
}
