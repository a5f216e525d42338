//! Tests of the emulations widened after session 62's trace G (helper mg; corpus/findings/
//! fuzz-h200-6202/trace/T62G.md): seed 6202's 9980fb38, 1c2ac943's y = `shr.s32 x, a` ranged as the
//! logical shift, read by an `or.b32` with an immediate setting every unknown bit
//! (`chained_shr_s32_of_known_ones_folded_to_zero::or_covering_the_unknown_bits`); seed 6203's
//! 7c4a3f02, bfed5396's 0x7fff half of a 0x7fffffff word packed as 0xffff, the word a 64-bit
//! constant's unpacked in an arm that rewrites it
//! (`high_half_of_max_s32_rejoined_after_an_arm::repacked_in_an_arm_rewriting_its_word`).

use super::*;

const SHR: Deviation = Deviation::ChainedShrS32OfKnownOnesFoldedToZero;
const JOINED: Deviation = Deviation::JoinedMaxS32HighHalfReadAsAllOnes;

/// Words `words` of thread `t` of `p` on `i`: the spec's and emulating `d`, with the deviations that fired.
fn words_of(p: &Program, i: &Inputs, d: Deviation, t: usize, words: &[u32]) -> (Vec<u64>, Vec<u64>, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap().remove(t);
    let (mut out, fired) = run_emulating(p, i, &Allowances::all().emulating(d)).unwrap();
    let e = out.remove(t);
    let w = |x: &Expected| words.iter().map(|&w| x.field(32 * w, 32).bits as u64).collect();
    (w(&spec), w(&e), fired)
}

/// The variant `name` (in `s62/`) of `id8` of `seed`: words `words` of thread 0 are `spec` by the
/// spec and `bug` emulating `d`, which fired.
#[allow(clippy::too_many_arguments)]
fn wrong(
    seed: &str,
    id8: &str,
    name: &str,
    patch: &[(usize, u32)],
    d: Deviation,
    words: &[u32],
    spec: &[u64],
    bug: &[u64],
) {
    wrong_in(seed, id8, name, patch, d, 0, words, spec, bug);
}

/// [`wrong`] in thread `t`.
#[allow(clippy::too_many_arguments)]
fn wrong_in(
    seed: &str,
    id8: &str,
    name: &str,
    patch: &[(usize, u32)],
    d: Deviation,
    t: usize,
    words: &[u32],
    spec: &[u64],
    bug: &[u64],
) {
    let (p, i) = super::variant_of(seed, id8, &format!("s62/{name}"), patch);
    assert_eq!(words_of(&p, &i, d, t, words), (spec.to_vec(), bug.to_vec(), vec![d]), "{name}");
}

/// The variant `name` (in `s62/`) of `id8` of `seed` is left alone by `d`: every word the spec's,
/// nothing fired.
fn right(seed: &str, id8: &str, name: &str, patch: &[(usize, u32)], d: Deviation) {
    let (p, i) = super::variant_of(seed, id8, &format!("s62/{name}"), patch);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{name}");
}

/// Each thread of stored case `name` of `seed` gives `bug` in each word of `words` emulating `d`
/// alone, where the spec gives `spec` (the campaign's stored -O3 and JIT words).
fn stored(seed: &str, name: &str, d: Deviation, words: &[u32], spec: u64, bug: u64) {
    let (p, i) = super::stored_case(seed, name);
    let all = super::words_emulated_alone(&p, &i, d);
    for (t, w, s, e) in &all {
        if words.contains(w) {
            assert_eq!((s.bits as u64, e.bits as u64), (spec, bug), "{name} thread {t} word {w}");
        }
    }
}

/// 9980fb38: `or.b32 x, 0x80000000; shr.s32 y, 1; or.b32 d, y, 0x7fffffff` is 13.0.88 -O3 `MOV R4,
/// 0x7fffffff` (§9.7.8: y's top two bits are ones, d = −1): K | (ones(n + a) & (0xffffffff >> a)) for
/// a K setting every bit below y's n + a known ones, n + a ≤ 4 (s62 v01, v02, v05, v10–v13, v15–v19).
#[test]
fn g_9980fb38_an_or_setting_every_unknown_bit_is_folded_with_the_top_a_bits_cleared() {
    stored("6202", "9980fb38ac917492", SHR, &[0, 1], 0xffff_ffff, 0x7fff_ffff);
    let (s, w) = (&[0xffff_ffff, 0xffff_ffff][..], &[0, 1][..]);
    for (v, bug) in [
        ("v01_case", 0x7fff_ffff),
        ("v02_k_3fffffff", 0x7fff_ffff),
        ("v05_n2_a2_k_0fffffff", 0x3fff_ffff),
        ("v10_n3_a1_k_0fffffff", 0x7fff_ffff),
        ("v11_n3_a1_k_1fffffff", 0x7fff_ffff),
        ("v12_n1_a3_k_0fffffff", 0x1fff_ffff),
        ("v13_n1_a3_k_1fffffff", 0x1fff_ffff),
        ("v16_n2_a2_k_8fffffff", 0xbfff_ffff),
        ("v17_n2_a2_k_4fffffff", 0x7fff_ffff),
        ("v19_shl_between", 0x7fff_ffff),
    ] {
        wrong("6202", "9980fb38", v, &[], SHR, w, s, &[bug, bug]);
    }
    wrong("6202", "9980fb38", "v15_store_b32", &[], SHR, &[0], &[0xffff_ffff], &[0x7fff_ffff]);
    // The `or` guarded (`SEL R6, R0, 0x7fffffff, P0`): wrong where it runs (x = 7).
    wrong("6202", "9980fb38", "v18_guarded_or", &[(7, 7)], SHR, w, s, &[0x7fff_ffff, 0x7fff_ffff]);
}

/// 9980fb38's right neighbours (13.0.88 -O3): a bit below the known ones unset in K (v03, v06: `LOP3`
/// kept), n + a = 5 (v04, v14), K's top a bits set (v07: −1 either way), a loaded K (v08), no `or`
/// (v09), an `xor` (v20), the guarded `or` not run (v18, x = 0).
#[test]
fn g_9980fb38_right_neighbours_are_left_alone() {
    for v in [
        "v03_k_1fffffff",
        "v04_n4_a1",
        "v06_k_7ffffffe",
        "v07_k_bfffffff",
        "v08_k_loaded",
        "v09_no_or",
        "v14_n2_a3_k_07ffffff",
        "v18_guarded_or",
        "v20_xor_k",
    ] {
        right("6202", "9980fb38", v, &[], SHR);
    }
}

/// 7c4a3f02: `mov.s64 d1, 0x7ffffffffffffffe; @p0 bra L0; mov.b64 {_, h3, h4, h0}, d1; mov.b64 d1,
/// {h3, h3, h4, h0}; L0: mov.b64 {r7, r8}, d1` stores r8 = 0xffffffff on 13.0.88 -O3 (`@!P0 MOV R9,
/// 0xffffffff`; §9.7.9.4: 0x7fffffff): h0, the 0x7fff high half of the 0x7fffffff word, packed as
/// 0xffff (s62 v04, v11, v16, v18, v20–v26, v28–v30; the stored case's threads all take the arm, d0 = 0;
/// from v20 on the branch tests `tid`, the arm run by thread 23).
#[test]
fn g_7c4a3f02_the_high_half_of_a_max_s32_word_unpacked_in_an_arm_rewriting_it_is_packed_as_0xffff() {
    stored("6203", "7c4a3f0282d9f52c", JOINED, &[0], 0x7fff_ffff, 0xffff_ffff);
    let w = &[0, 1][..];
    let m = 0x7fff_7fff;
    wrong("6203", "7c4a3f02", "v04_arm_h0_splat", &[], JOINED, w, &[m, m], &[0xffff_ffff, 0xffff_ffff]);
    wrong("6203", "7c4a3f02", "v11_low_word", &[], JOINED, w, &[m, 0], &[0xffff_ffff, 0]);
    wrong("6203", "7c4a3f02", "v16_all_7fff_ffff", &[], JOINED, w, &[m, m], &[0xffff_ffff, 0xffff_ffff]);
    // An element of the pack loaded (input word 0 = 0x1234 in every thread: h1 = 0x1234).
    wrong(
        "6203",
        "7c4a3f02",
        "v18_pack_with_loaded",
        &[(0, 0x1234)],
        JOINED,
        w,
        &[0x1234_1234, 0x7fff_1234],
        &[0x1234_1234, 0xffff_1234],
    );
    // The arm runs in thread 23 only (`setp.ne.s32 p0, tix, 23; @p0 bra`).
    wrong_in("6203", "7c4a3f02", "v20_tix_branch", &[], JOINED, 23, w, &[m, m], &[0xffff_ffff, 0xffff_ffff]);
    wrong("6203", "7c4a3f02", "v21_moved_s64_decimal", &[], JOINED, w, &[m, m], &[0xffff_ffff, 0xffff_ffff]);
    wrong_in(
        "6203",
        "7c4a3f02",
        "v25_arm_stmt_between",
        &[],
        JOINED,
        23,
        w,
        &[0x0001_0001, m],
        &[0x0001_0001, 0xffff_ffff],
    );
    wrong_in("6203", "7c4a3f02", "v26_elem1_of_low", &[], JOINED, 23, w, &[m, m], &[0xffff_ffff, 0xffff_ffff]);
    // 32-bit packs of h0 beside the rewrite (word 2 = r6), before or after it, and rewrites by a
    // `mov` of an immediate or an `add`.
    wrong_in(
        "6203",
        "7c4a3f02",
        "v22_h0_also_b32_packed",
        &[],
        JOINED,
        23,
        &[0, 1, 2],
        &[m, m, m],
        &[0xffff_ffff, 0xffff_ffff, 0xffff_ffff],
    );
    wrong_in(
        "6203",
        "7c4a3f02",
        "v24_b32_pack_first",
        &[],
        JOINED,
        23,
        &[0, 1, 2],
        &[0, 0x7fff_0000, 0x7fff],
        &[0, 0xffff_0000, 0xffff],
    );
    wrong_in("6203", "7c4a3f02", "v28_rewrite_without_h0", &[], JOINED, 23, &[2], &[m], &[0xffff_ffff]);
    wrong_in("6203", "7c4a3f02", "v29_rewrite_by_mov_imm", &[], JOINED, 23, &[2], &[m], &[0xffff_ffff]);
    wrong_in("6203", "7c4a3f02", "v30_rewrite_by_add", &[], JOINED, 23, &[2], &[m], &[0xffff_ffff]);
}

/// 7c4a3f02's right neighbours (13.0.88 and 13.5 -O3): no branch (v03), the unpack before the branch
/// (v05), the pack after the join (v06, v17), a predicated arm (v07), a 32-bit pack with no rewrite
/// (v08, v10), another constant (v12), a loaded d1 (v13), an if/else diamond (v14), h0 stored alone
/// (v15), a pack into another register with no rewrite (v19), the low half of the word (v27).
#[test]
fn g_7c4a3f02_right_neighbours_are_left_alone() {
    for v in [
        "v03_no_branch",
        "v05_unpack_before_branch",
        "v06_repack_after_join",
        "v07_guarded_arm",
        "v08_b32_pack_in_arm",
        "v10_b32_const_in_arm",
        "v12_other_const",
        "v13_loaded_hi",
        "v14_diamond",
        "v15_store_h0_in_arm",
        "v17_pack_after_join",
        "v19_other_dst",
        "v27_elem0_swapped",
    ] {
        right("6203", "7c4a3f02", v, &[], JOINED);
    }
}
