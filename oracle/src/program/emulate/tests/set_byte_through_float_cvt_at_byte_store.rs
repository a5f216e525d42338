//! 3301-N3 with A's implicit conversion of an 8-bit store as the integer step (helper w5;
//! `emulate/set_byte_through_float_cvt_at_byte_store.rs`): seed 4501's aa2046a3, 4601's
//! cf337f2a, 4603's 1e161819.

use super::*;

const D: Deviation = Deviation::SetRoundTripFolded;

/// aa2046a3's `reduced.ptx` with the float cvt `cvt` (into `h`) stored by `st` at byte 2;
/// input word 0 is 3 (the set `3 <= 5` is true, −1).
fn f(set: &str, cvt: &str, h: &str, st: &str) -> Vec<String> {
    vec![
        "ld.global.u32 %r4, [%in];".to_string(),
        format!("{set} %r1, %r4, 5;"),
        format!("{cvt} {h}, %r1;"),
        format!("{st} [%out+2], {h};"),
    ]
}

/// 13.0.88 -O3 stores the set's 0xff (`SEL; LOP3.LUT …0xff; STG.E.U8`, `PRMT 0x7770` for
/// `.s8`) where the spec stores the float's low byte: reduced (bf16 −1.0 0xbf80: 0x80),
/// `v5_u32set_u32cvt` (bf16 2^32 0x4f80: 0x80), `v4_f16` / cf337f2a v1 (f16 −1.0 0xbc00: 0x00), cf337f2a (`.u32`: f16 +inf 0x7c00: 0x00),
/// `v6_f32` (0xbf800000: 0x00), `v7_s8`, 1e161819 (`cvt.rm.bf16.s32`, `set.ne.u32`), s46/x2
/// (`cvt.rn.f64.s32`). (A's own
/// emulation, any byte, covers these too; A is not admitted at -O3, whose listing has no F2I.)
#[test]
fn n3_a_byte_store_of_a_float_cvt_of_a_set_stores_the_set_byte() {
    for (set, cvt, h, st, spec) in [
        ("set.le.s32.u32", "cvt.rn.bf16.s32", "%h0", "st.global.b8", 0x80),
        ("set.le.s32.u32", "cvt.rn.f16.s32", "%h0", "st.global.b8", 0x00),
        ("set.le.s32.u32", "cvt.rn.f16.u32", "%h0", "st.global.u8", 0x00),
        ("set.le.u32.u32", "cvt.rn.bf16.u32", "%h0", "st.global.b8", 0x80),
        ("set.le.s32.u32", "cvt.rn.f32.s32", "%r2", "st.global.b8", 0x00),
        ("set.le.s32.u32", "cvt.rn.bf16.s32", "%h0", "st.global.s8", 0x80),
        ("set.ne.u32.u32", "cvt.rm.bf16.s32", "%h0", "st.global.s8", 0x80),
        ("set.le.s32.u32", "cvt.rn.f64.s32", "%d2", "st.global.b8", 0x00),
    ] {
        let l = f(set, cvt, h, st);
        let (s, e, fired) = both(&strs(&l), [3, 0, 0, 0], D);
        assert_eq!((s.bits, s.is_exact()), (spec << 16, true), "spec of {l:?}");
        assert_eq!((e.bits, e.is_exact(), fired), (0xff << 16, true, vec![D]), "{l:?}");
    }
}

/// Right in the listings: a false set (0 either way), a 16-bit store (no A: `I2F.BF16;
/// STG.E.U16`, aa2046a3 v1), a loaded word (plain A: `F2I.U8.F16.TRUNC`, v2) and a `selp.s32
/// -1, 0` mask (v8, converted), a `set.f32` as the float (s46/x3, converted).
#[test]
fn n3_a_byte_store_leaves_its_right_neighbours() {
    let set = "set.le.s32.u32";
    untouched(&strs(&f(set, "cvt.rn.bf16.s32", "%h0", "st.global.b8")), [9, 0, 0, 0], D);
    untouched(&strs(&f(set, "cvt.rn.bf16.s32", "%h0", "st.global.b16")), [3, 0, 0, 0], D);
    let loaded = ["ld.global.u32 %r1, [%in+4];", "cvt.rn.bf16.s32 %h0, %r1;", "st.global.b8 [%out+2], %h0;"];
    untouched(&loaded, [3, 0xFFFF_FFFF, 0, 0], D);
    let selp = [
        "ld.global.u32 %r4, [%in];",
        "setp.le.u32 %p0, %r4, 5;",
        "mov.b32 %r10, -1;",
        "selp.b32 %r1, %r10, 0, %p0;",
        "cvt.rn.bf16.s32 %h0, %r1;",
        "st.global.b8 [%out+2], %h0;",
    ];
    untouched(&selp, [3, 0, 0, 0], D);
    let set_f32 = [
        "ld.global.u32 %r4, [%in];",
        "set.le.f32.u32 %r1, %r4, 5;",
        "cvt.rn.bf16.f32 %h0, %r1;",
        "st.global.b8 [%out+2], %h0;",
    ];
    untouched(&set_f32, [3, 0, 0, 0], D);
}

/// s46/x1: both bytes of a `st.v2.b8` of the set's bf16 are 0xff (`SEL; LOP3 …0xff; PRMT
/// 0x7604; STG.E.U16`), the spec's 0x80 each.
#[test]
fn n3_each_byte_of_a_vector_byte_store_is_the_set_byte() {
    let l = [
        "ld.global.u32 %r4, [%in];",
        "set.le.s32.u32 %r1, %r4, 5;",
        "cvt.rn.bf16.s32 %h0, %r1;",
        "cvt.rn.bf16.s32 %h1, %r1;",
        "st.global.v2.b8 [%out+2], {%h0, %h1};",
    ];
    let (s, e, fired) = both(&l, [3, 0, 0, 0], D);
    assert_eq!((s.bits, e.bits, fired), (0x8080_0000, 0xffff_0000, vec![D]));
}
