//! Tests of J's branch-known value one size up (seed 5801's ed1b0473,
//! corpus/findings/fuzz-h200-5801/trace/T58D.md, variants in trace/ed1b0473/s58/;
//! `emulate/j_packed_constant/b64_high_word.rs`).

use super::*;

const D: Deviation = Deviation::BranchConstantHighHalfIsItsLowHalf;

/// A loaded 64-bit d0 compared with `setp`, branched on by `bra`, unpacked by `unpack` in the
/// fall-through over a moved 0 in `r`, `r` stored (a 32-bit word, or a 16-bit element).
fn body(setp: &str, bra: &str, unpack: &str, r: &str) -> Vec<String> {
    let zero = if r.starts_with("%h") { format!("mov.b16 {r}, 0;") } else { format!("mov.b32 {r}, 0;") };
    let store =
        if r.starts_with("%h") { format!("st.global.u16 [%out], {r};") } else { format!("st.global.u32 [%out], {r};") };
    ["ld.global.u64 %d0, [%in];".to_string(), zero, setp.into(), bra.into(), unpack.into(), "$L0:".into(), store]
        .to_vec()
}

const NE: &str = "setp.ne.u64 %p1, %d0, 0x500000001;";
const BRA: &str = "@%p1 bra $L0;";
const WORDS: &str = "mov.b64 {%r0, %r2}, %d0;";
const HALVES: &str = "mov.b64 {%h0, %h1, %h2, %h3}, %d0;";
/// d0 = K = 0x00050000_00000001... as `[low, high, _, _]`.
const K: [u32; 4] = [1, 5, 0, 0];

/// 13.0.88 -O3 `@!P0 PRMT R0, R6(=K's low word), 0x7610, R0`: the high word of the known 64-bit
/// value is K's low word (`v1_K_hi_nonzero`: 1, the spec 5), also under `setp.ne.s64` (`v3_s64`) and
/// as the 16-bit elements of the high word (`v7_unpack16`: element 2; `v6_hi_half`: the high half).
#[test]
fn j_high_word_of_a_branch_known_b64_is_k_low_word() {
    exact_case(&strs(&body(NE, BRA, WORDS, "%r2")), K, D, 5, 1);
    let s64 = "setp.ne.s64 %p1, %d0, 0x500000001;";
    exact_case(&strs(&body(s64, BRA, WORDS, "%r2")), K, D, 5, 1);
    exact_case(&strs(&body(NE, BRA, HALVES, "%h2")), K, D, 5, 1);
    let k = "setp.ne.u64 %p1, %d0, 0x7000000012345678;";
    let words = [0x1234_5678, 0x7000_0000, 0, 0];
    exact_case(&strs(&body(k, BRA, HALVES, "%h2")), words, D, 0, 0x5678);
    exact_case(&strs(&body(k, BRA, HALVES, "%h3")), words, D, 0x7000, 0x1234);
}

/// Right (left alone): the low word (`v2_low_word`), `setp.eq; @!p bra` (`v4_eq_notp`), a 32-bit
/// compare of the 64-bit register's producer not in play (a taken branch: the spec's value).
#[test]
fn j_b64_leaves_the_low_word_and_other_branches_alone() {
    untouched(&strs(&body(NE, BRA, WORDS, "%r0")), K, D);
    untouched(&strs(&body(NE, BRA, HALVES, "%h0")), K, D);
    let eq = "setp.eq.u64 %p1, %d0, 0x500000001;";
    untouched(&strs(&body(eq, "@!%p1 bra $L0;", WORDS, "%r2")), K, D);
    untouched(&strs(&body(NE, BRA, WORDS, "%r2")), [1, 6, 0, 0], D);
}

/// ed1b0473's campaign case: emulating J gives the stored ptxas -O3 and JIT word 0x00010000 (the
/// spec's 0) in every thread.
#[test]
fn j_ed1b0473_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5801", "ed1b047396549aff");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits, e.bits), (0, 0, 0x0001_0000), "thread {t}");
    }
}

/// `ld d0; mov r2, 0; setp.ne.u64 d0, K; @p bra; <op> r2, d0; st r2` (seed 5902's ea4a3d40 frame).
fn bit_op(k: &str, op: &str) -> Vec<String> {
    let setp = format!("setp.ne.u64 %p1, %d0, {k};");
    ["ld.global.u64 %d0, [%in];", "mov.b32 %r2, 0;", &setp, BRA, op, "$L0:", "st.global.u32 [%out], %r2;"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// Seed 5902's ea4a3d40 (corpus/findings/fuzz-h200-5902/trace/T59D.md, trace/ea4a3d40/s59/,
/// 13.0.88 -O3): `popc.b64` of the branch-known d0 counts K's low word in both words (the case: K
/// = 3, `@!P0 MOV R7, 0x4`, the spec 2; `v1`: K = 0x500000001, 2, the spec 3; `v2`: 0x12345678,
/// 26, the spec 13; `v9`: 0x300000000, 0, the spec 2), `clz.b64` (`v6`: 30, the spec 62) and
/// `brev.b64` (`v10`: its low word 0xc0000000, the spec 0) the same.
#[test]
fn j_popc_clz_brev_of_a_branch_known_b64_read_k_low_word_twice() {
    let popc = "popc.b64 %r2, %d0;";
    exact_case(&strs(&bit_op("3", popc)), [3, 0, 0, 0], D, 2, 4);
    exact_case(&strs(&bit_op("0x500000001", popc)), K, D, 3, 2);
    exact_case(&strs(&bit_op("0x12345678", popc)), [0x1234_5678, 0, 0, 0], D, 13, 26);
    exact_case(&strs(&bit_op("0x300000000", popc)), [0, 3, 0, 0], D, 2, 0);
    exact_case(&strs(&bit_op("3", "clz.b64 %r2, %d0;")), [3, 0, 0, 0], D, 62, 30);
    let brev = "brev.b64 %d1, %d0;\nmov.b64 {%r2, %r3}, %d1;";
    let brev: Vec<String> = bit_op("3", "X")
        .into_iter()
        .flat_map(|l| if l == "X" { brev.lines().map(str::to_string).collect() } else { vec![l] })
        .collect();
    exact_case(&strs(&brev), [3, 0, 0, 0], D, 0, 0xc000_0000);
}

/// Right (ea4a3d40's s59/): `setp.eq; @!p bra` (`v4`), K = −1 (`v12`: the splat is K), a value not
/// equal to K (the branch taken).
#[test]
fn j_popc_of_b64_outside_the_fall_through_keeps_the_spec() {
    let eq = [
        "ld.global.u64 %d0, [%in];",
        "mov.b32 %r2, 0;",
        "setp.eq.u64 %p1, %d0, 3;",
        "@!%p1 bra $L0;",
        "popc.b64 %r2, %d0;",
        "$L0:",
        "st.global.u32 [%out], %r2;",
    ];
    untouched(&eq, [3, 0, 0, 0], D);
    untouched(&strs(&bit_op("-1", "popc.b64 %r2, %d0;")), [u32::MAX, u32::MAX, 0, 0], D);
    untouched(&strs(&bit_op("3", "popc.b64 %r2, %d0;")), [3, 1, 0, 0], D);
}

/// ea4a3d40's campaign case: emulating J gives the stored ptxas -O3 and JIT word 1 = 4 (the spec's
/// 2) in every thread.
#[test]
fn j_ea4a3d40_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5902", "ea4a3d40a33666ef");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 1 { (2, 4) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}
