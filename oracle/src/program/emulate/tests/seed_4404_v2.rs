//! Tests of J's narrowed `add.{u16x2,s16x2}` widened from the traces of seeds 4401–4402
//! (`emulate/j_narrowed_packed_add.rs`): the half read through a 64-bit pack and a 16-bit unpack
//! (corpus/findings/fuzz-h200-4401/trace/T15t1.md, dbd161f7) and a shuffled constant as the
//! register operand (fuzz-h200-4402/trace/T15t3.md, c825e5ab). Each: the form the trace shows
//! wrong emulated, the forms it shows right left alone.

use super::*;

/// dbd161f7 (T15t1.md): `add.s16x2` of a moved 0 and a moved float, packed `{r1, r3}` into a
/// `.b64` and read as the 16-bit element h3 stores 0 (13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0`), the
/// spec 0xd2e2; s44v/`consts_hi` (0x00050007 + 0x00030001, element 1): 3, the spec 8. Right:
/// the pack stored whole (`v2_b64_whole`), h0 read too (`v3_b64_unpack_hi_read`), the add
/// stored whole too (`pack_other_reader`).
#[test]
fn j_a_narrowed_half_read_through_a_64_bit_pack_and_unpack_drops_the_addend() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let head = ["mov.f32 %r0, 0f4034D2E2;", "mov.b32 %r3, 0;", "add.s16x2 %r1, %r3, %r0;", "mov.b64 %d4, {%r1, %r3};"];
    let with = |tail: &[&'static str]| [&head[..], tail].concat();
    let unpack = "mov.b64 {%h3, %h0, %h1, %h4}, %d4;";
    exact_case(&with(&[unpack, "st.global.u16 [%out], %h3;"]), [0; 4], d, 0xd2e2, 0);
    let high = [
        "mov.b32 %r2, 0x00050007;",
        "mov.b32 %r3, 0x00030001;",
        "add.s16x2 %r5, %r2, %r3;",
        "mov.b32 %r6, 0;",
        "mov.b64 %d4, {%r5, %r6};",
        "mov.b64 {_, %h10, _, _}, %d4;",
        "st.global.u16 [%out], %h10;",
    ];
    exact_case(&high, [0; 4], d, 8, 3);
    untouched(&with(&["st.global.u64 [%out], %d4;"]), [0; 4], d);
    untouched(&with(&[unpack, "st.global.u16 [%out], %h3;", "st.global.u16 [%out+2], %h0;"]), [0; 4], d);
    untouched(&with(&[unpack, "st.global.u16 [%out], %h3;", "st.global.u32 [%out+4], %r1;"]), [0; 4], d);
}

/// c825e5ab (T15t3.md): `add.u16x2 %r5, %r2, %r3(=1)` with r2 a shuffle of a moved 0, packed
/// `{r6, r5}` and read as h11 of `mov.b64 {_, %h10, %h11, _}`, stored as `{h11, h11}`: 0
/// (13.0.88 -O3 `VIADD.16x2 R0, R0, 0x0`), the spec 0x00010001; the same through a `mov.b32`
/// unpack (`b32unpack`); s44v/`shfl5_first`: a shuffled 0x00070005 as b keeps its half 5 (the
/// spec's 6). Both halves read (`whole`): the spec's.
#[test]
fn j_a_shuffled_constant_is_kept_and_the_addend_dropped() {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let with = |moved: &'static str, add: &'static str, tail: &[&'static str]| {
        let head = [moved, "shfl.sync.up.b32 %r2, %r0, 14, 0, -1;", "mov.b32 %r3, 1;", add];
        [&head[..], tail].concat()
    };
    let pack = ["mov.b32 %r6, 0;", "mov.b64 %d4, {%r6, %r5};", "mov.b64 {_, %h10, %h11, _}, %d4;"];
    let store = ["mov.b32 %r34, {%h11, %h11};", "st.global.s32 [%out], %r34;"];
    let check = |lines: &[&str], spec: u32, bug: u32| {
        let (s, e, fired) = warp_both(lines, [0; 4], d);
        assert_eq!((s.bits as u32, s.is_exact()), (spec, true), "spec of {lines:?}");
        assert_eq!((e.bits as u32, e.is_exact()), (bug, true), "{lines:?}");
        assert_eq!(fired.first(), Some(&d), "{lines:?}");
    };
    let add = "add.u16x2 %r5, %r2, %r3;";
    check(&with("mov.b32 %r0, 0;", add, &[&pack[..], &store].concat()), 0x0001_0001, 0);
    check(&with("mov.b32 %r0, 0;", add, &[&["mov.b32 {%h11, %h12}, %r5;"][..], &store].concat()), 0x0001_0001, 0);
    let first = "add.u16x2 %r5, %r3, %r2;";
    check(&with("mov.b32 %r0, 0x00070005;", first, &[&pack[..], &store].concat()), 0x0006_0006, 0x0005_0005);
    let whole = ["mov.b32 %r6, 0;", "mov.b64 %d4, {%r6, %r5};", "mov.b64 {_, _, %h11, %h12}, %d4;"];
    let whole_store = ["mov.b32 %r34, {%h11, %h12};", "st.global.s32 [%out], %r34;"];
    let lines = with("mov.b32 %r0, 0;", add, &[&whole[..], &whole_store].concat());
    let (s, e, fired) = warp_both(&lines, [0; 4], d);
    assert_eq!((e, fired), (s, vec![]), "{lines:?}");
}
