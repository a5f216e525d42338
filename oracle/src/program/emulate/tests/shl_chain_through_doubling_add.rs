//! Tests of 3501-N2 through a doubling step `add.{s64,u64} d, x, x` (seed 4601's d1299fe9,
//! session 47; `emulate/shl_chain_through_doubling_add.rs`; corpus/findings/fuzz-h200-4601/trace/
//! T17t1.md, variants in trace/d1299fe9/ and its s47/).

use super::*;

const D: Deviation = Deviation::ShlChainFoldedIntoLea;

/// x = 0x17e29525 (d1299fe9's loaded word) in words 0 and 1.
const X: [u32; 4] = [0x17e2_9525, 0, 0, 0];

/// The constant d1299fe9's `sub.cc.s64` subtracts.
const K: i64 = -6_589_830_936_956_230_935;

/// (x << `shift`) − K.
fn shifted(shift: u32) -> u64 {
    (0x17e2_9525_u64 << shift).wrapping_sub(K as u64)
}

/// `ld` of x into %d0, `steps`, `sub.cc.s64 %d0, %d0, K` and the store of %d0.
fn chain(steps: &[&str]) -> Vec<String> {
    let mut v = vec!["ld.global.b64 %d0, [%in];".to_string()];
    v.extend(steps.iter().map(|s| s.to_string()));
    v.push(format!("sub.cc.s64 %d0, %d0, {K};"));
    v.push("st.global.b64 [%out], %d0;".to_string());
    v
}

/// `shl.b64 %d0, %d0, k` then `doubling` for each k of 10, 8, 6, 4, 2 (d1299fe9's trips).
fn trips(doubling: &'static str) -> Vec<&'static str> {
    [
        "shl.b64 %d0, %d0, 10;",
        "shl.b64 %d0, %d0, 8;",
        "shl.b64 %d0, %d0, 6;",
        "shl.b64 %d0, %d0, 4;",
        "shl.b64 %d0, %d0, 2;",
    ]
    .into_iter()
    .flat_map(|s| [s, doubling])
    .collect()
}

/// d1299fe9's loop (13.0.88 -O3: the fourth doubling fused into the subtraction, 10+1+8+1+6+1+4+1
/// = 32, the fifth trip dropped): (x << 32) − K, high word 0x73565d77, where the spec's x << 35
/// gives 0x1a88717a; unrolled (s47/w1), `add.u64` (s47/w3), the addend a `mov` copy (s47/w5).
#[test]
fn n2_d1299fe9_a_doubling_add_is_a_step_by_one() {
    let looped = chain(&[
        "mov.u32 %r0, 10;",
        "$L0:",
        "shl.b64 %d0, %d0, %r0;",
        "add.s64 %d0, %d0, %d0;",
        "sub.u32 %r0, %r0, 0x2;",
        "setp.gt.u32 %p0, %r0, 0x0;",
        "@%p0 bra $L0;",
    ]);
    assert_eq!((shifted(32) >> 32, shifted(35) >> 32), (0x7356_5d77, 0x1a88_717a));
    exact_case(&strs(&looped), X, D, shifted(35), shifted(32));
    exact_case(&strs(&chain(&trips("add.s64 %d0, %d0, %d0;"))), X, D, shifted(35), shifted(32));
    exact_case(&strs(&chain(&trips("add.u64 %d0, %d0, %d0;"))), X, D, shifted(35), shifted(32));
    let copied: Vec<&str> = trips("add.s64 %d0, %d0, %d1;")
        .into_iter()
        .flat_map(|s| if s.starts_with("add") { vec!["mov.b64 %d1, %d0;", s] } else { vec![s] })
        .collect();
    exact_case(&strs(&chain(&copied)), X, D, shifted(35), shifted(32));
}

/// Doublings alone and around a shift by 31 (13.0.88 -O3): 33 doublings keep 32 (s47/w2, w9);
/// a doubling, `shl 31`, a doubling drops the last (s47/w7); `shl 31` and three doublings keep
/// one (s47/w8): (x << 32) − K each time.
#[test]
fn n2_doublings_count_one_each_toward_the_cut() {
    let doublings = ["add.s64 %d0, %d0, %d0;"; 33];
    exact_case(&strs(&chain(&doublings)), X, D, shifted(33), shifted(32));
    let around = ["add.s64 %d0, %d0, %d0;", "shl.b64 %d0, %d0, 31;", "add.s64 %d0, %d0, %d0;"];
    exact_case(&strs(&chain(&around)), X, D, shifted(33), shifted(32));
    let after = ["shl.b64 %d0, %d0, 31;", "add.s64 %d0, %d0, %d0;", "add.s64 %d0, %d0, %d0;", "add.s64 %d0, %d0, %d0;"];
    exact_case(&strs(&chain(&after)), X, D, shifted(34), shifted(32));
}

/// Right (13.0.88 -O3): a total of 31 (s47/w6, `LEA …, 0x4` with the subtraction), an add of
/// another loaded value after each shift (s47/w10, every `LEA` kept), the chain read by a loaded
/// addend (`v4_add_loaded`).
#[test]
fn n2_doubling_chains_below_32_or_other_addends_are_right() {
    let total31 = [
        "shl.b64 %d0, %d0, 10;",
        "add.s64 %d0, %d0, %d0;",
        "shl.b64 %d0, %d0, 8;",
        "add.s64 %d0, %d0, %d0;",
        "shl.b64 %d0, %d0, 6;",
        "add.s64 %d0, %d0, %d0;",
        "shl.b64 %d0, %d0, 4;",
    ];
    untouched(&strs(&chain(&total31)), X, D);
    let mut other = vec!["ld.global.b64 %d1, [%in+8];"];
    other.extend(trips("add.s64 %d0, %d0, %d1;"));
    untouched(&strs(&chain(&other)), [0x17e2_9525, 0, 3, 0], D);
    let mut loaded_addend = vec!["ld.global.b64 %d0, [%in];", "ld.global.b64 %d1, [%in+8];"];
    loaded_addend.extend(trips("add.s64 %d0, %d0, %d0;"));
    loaded_addend.extend(["add.s64 %d0, %d0, %d1;", "st.global.b64 [%out], %d0;"]);
    untouched(&loaded_addend, [0x17e2_9525, 0, 3, 0], D);
}

/// d1299fe9's campaign case: emulating 3501-N2 alone gives the stored ptxas -O3/JIT word 0
/// (0x73565d77) in every thread, and the spec's words elsewhere.
#[test]
fn n2_d1299fe9_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "d1299fe930058367");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert!(w != 0 || (s.bits, s.is_exact()) == (0x1a88_717a, true), "thread {t} spec");
        let want = if w == 0 { 0x7356_5d77 } else { s.bits };
        assert_eq!(e.bits, want, "thread {t} word {w}");
    }
}
