//! Tests of helper v1's widenings (session 42): 7ec10586's "another reader" counts any pack of
//! a half of the set's word (`emulate/xor16_of_set_mask_halves_as_predicate.rs`), and N-7's block boundaries include a
//! 64-bit `bfe`, `bfi`, `brev` or `bfind` (`emulate/n7_known_within_one_block.rs`).

use super::*;

const XOR_MASK: Deviation = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;

/// dc755789's `reduced.ptx` (corpus/findings/fuzz-h200-4201/trace/T12a1.md; e63ae4e6's and
/// 76cb49f0's the same, T12a2.md), offsets moved into the test's words: r1 at [%in], x = h6 at
/// [%in+8], the xor stored at [%out], the set's other reader `mov.b32 %r9, <pack>` at [%out+4].
fn dc755789(pack: &str) -> Vec<String> {
    let mut lines = vec![
        "ld.global.u32 %r1, [%in];",
        "ld.global.u16 %h6, [%in+8];",
        "set.lt.u32.u32 %r2, %r1, 1065353216;",
        "mov.b32 {%h8, %h9}, %r2;",
        "xor.b16 %h10, %h8, %h9;",
        "xor.b16 %h11, %h10, %h6;",
    ];
    if !pack.is_empty() {
        lines.push(pack);
    }
    lines.push("st.global.u16 [%out], %h11;");
    if !pack.is_empty() {
        lines.push("st.global.b32 [%out+4], %r9;");
    }
    lines.into_iter().map(String::from).collect()
}

/// Checks that emulating 7ec10586 admits the spec's `spec` and the GPU's `bug`, not `other`,
/// and fires.
fn xor_either(lines: &[&str], words: [u32; 4], spec: u64, bug: u64, other: u64) {
    let (s, e, fired) = both(lines, words, XOR_MASK);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert!(e.matches(spec.into()) && e.matches(bug.into()), "{e} of {lines:?}");
    assert!(!e.matches(other.into()), "{e} admits {other:#x} of {lines:?}");
    assert_eq!(fired, vec![XOR_MASK]);
}

/// dc755789 `orig`/`reduced` (and e63ae4e6, 76cb49f0): the other reader is `{%h8, %h8}` stored.
/// r1 = 0 makes the set true (−1): x = 0 and the GPU's 0xffff (T12a1 "GPU word recomputed").
#[test]
fn v1_dc755789_a_low_half_packed_twice_is_another_reader() {
    let lines = dc755789("mov.b32 %r9, {%h8, %h8};");
    xor_either(&strs(&lines), [0; 4], 0xffff_ffff_0000_0000, 0xffff_ffff_0000_ffff, 0xffff_ffff_0000_0001);
}

/// e63ae4e6 (T12a2): x = 0x7fff, the GPU's 0x8000.
#[test]
fn v1_e63ae4e6_x_0x7fff_is_complemented() {
    let lines = dc755789("mov.b32 %r9, {%h8, %h8};");
    xor_either(&strs(&lines), [0, 0, 0x7fff, 0], 0xffff_ffff_0000_7fff, 0xffff_ffff_0000_8000, 0xffff_ffff_0000_7ffe);
}

/// dc755789 `v4_pack_hi_hi` and e63ae4e6 `v4_pack_hi_hi`: `{%h9, %h9}`, wrong the same way.
#[test]
fn v1_a_high_half_packed_twice_is_another_reader() {
    let lines = dc755789("mov.b32 %r9, {%h9, %h9};");
    xor_either(&strs(&lines), [0; 4], 0xffff_ffff_0000_0000, 0xffff_ffff_0000_ffff, 0xffff_ffff_0000_0001);
}

/// dc755789 `v5_pack_with_other`: `{%h8, %h6}`, a set half beside x (`SEL R9, ~x, x, P0`).
#[test]
fn v1_a_half_packed_beside_another_value_is_another_reader() {
    let lines = dc755789("mov.b32 %r9, {%h8, %h6};");
    xor_either(&strs(&lines), [0, 0, 0x1234, 0], 0x1234_ffff_0000_1234, 0x1234_ffff_0000_edcb, 0x1234_ffff_0000_0000);
}

/// dc755789 `v1_no_pack_store` (and e63ae4e6 `v2_no_other_reader`): right, and a pack no
/// instruction reads is no reader either (ptxas drops it).
#[test]
fn v1_no_other_reader_and_a_dead_pack_are_right() {
    untouched(&strs(&dc755789("")), [0; 4], XOR_MASK);
    let mut dead = dc755789("mov.b32 %r9, {%h8, %h8};");
    dead.retain(|l| !l.contains("%r9;"));
    untouched(&strs(&dead), [0; 4], XOR_MASK);
    // A pack of halves of another word (x twice) reads none of the set.
    untouched(&strs(&dc755789("mov.b32 %r9, {%h6, %h6};")), [0; 4], XOR_MASK);
}

/// A pack of the set's half twice, unpacked again and a half of it stored: the chain of moves
/// still ends at a reader of the set.
#[test]
fn v1_a_half_packed_twice_then_unpacked_is_another_reader() {
    let mut lines = dc755789("mov.b32 %r9, {%h8, %h8};");
    lines.pop();
    lines.push("mov.b32 {%h12, %h13}, %r9;".into());
    lines.push("st.global.u16 [%out+4], %h13;".into());
    xor_either(&strs(&lines), [0; 4], 0xffff_0000_0000, 0xffff_0000_ffff, 0xffff_0000_0001);
}

const BFE_S32: Deviation = Deviation::BfeS32PastMsbAllOnes;

/// d3e07975's shape (corpus/findings/fuzz-h200-4202/trace/T12b2.md, 13.0.88 -O3 `MOV R5,
/// 0xffffffff`): `mov.b32 a, 0; <x>; bfe.s32 r, a, 32, 32`, `<x>` a dead 64-bit bit-field op.
fn moved_a_then(between: &[&'static str]) -> Vec<&'static str> {
    let head = ["ld.global.u64 %d1, [%in];", "mov.b32 %r0, 0;"];
    let tail = ["bfe.s32 %r3, %r0, 32, 32;", "st.global.b32 [%out], %r3;"];
    [&head[..], between, &tail[..]].concat()
}

/// d3e07975 (seed 4202): a dead `bfe.s64` between the mov of a and the bfe.s32: −1.
#[test]
fn v1_d3e07975_a_bfe_s64_between_is_a_block_boundary() {
    exact_case(&moved_a_then(&["bfe.s64 %d5, %d1, 9, 16;"]), [0; 4], BFE_S32, 0, 0xFFFF_FFFF);
}

/// bc9d7881 (seed 4203, fuzz-h200-4203/trace/T12c1.md `w1`, `w6`): a dead `bfe.u64`: −1.
#[test]
fn v1_bc9d7881_a_bfe_u64_between_is_a_block_boundary() {
    exact_case(&moved_a_then(&["bfe.u64 %d5, %d1, 0x39, 1;"]), [0; 4], BFE_S32, 0, 0xFFFF_FFFF);
    exact_case(&moved_a_then(&["bfe.u64 %d5, %d1, 0, 1;"]), [0; 4], BFE_S32, 0, 0xFFFF_FFFF);
}

/// This helper's compiles (`n7_known_within_one_block::wide_bit_field_op`): `bfi.b64`, `brev.b64` and
/// `bfind.u64` between are boundaries as well.
#[test]
fn v1_other_64_bit_bit_field_ops_are_block_boundaries() {
    for x in ["bfi.b64 %d5, %d1, %d1, 9, 16;", "brev.b64 %d5, %d1;", "bfind.u64 %r5, %d1;"] {
        exact_case(&moved_a_then(&[x]), [0; 4], BFE_S32, 0, 0xFFFF_FFFF);
    }
}

/// Right (13.0.88 -O3 `STG … RZ`): no 64-bit op between (d3e07975's, bc9d7881 `v0_no_bfeu64`),
/// the `bfe.u64` before the mov of a (`w7_bfeu64_before_mov_a`), and 32-bit or other 64-bit ops
/// between (this helper's compiles).
#[test]
fn v1_no_boundary_leaves_a_known() {
    untouched(&moved_a_then(&[]), [0; 4], BFE_S32);
    let before = [
        "ld.global.u64 %d1, [%in];",
        "bfe.u64 %d5, %d1, 0x39, 1;",
        "mov.b32 %r0, 0;",
        "bfe.s32 %r3, %r0, 32, 32;",
        "st.global.b32 [%out], %r3;",
    ];
    untouched(&before, [0; 4], BFE_S32);
    for x in ["bfe.u32 %r5, %r0, 9, 16;", "brev.b32 %r5, %r0;", "shl.b64 %d5, %d1, 3;", "popc.b64 %r5, %d1;"] {
        untouched(&moved_a_then(&[x]), [0; 4], BFE_S32);
    }
}
