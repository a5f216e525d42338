//! Tests of helper jd's widening (session 60; corpus/findings/fuzz-h200-6002/trace/T60D.md, the
//! variants in trace/e05edb4c/s60/).

use super::*;

/// Each word of `p` on `i` emulating `d`: `want(thread)` (every word).
fn assert_all_words(p: &Program, i: &Inputs, d: Deviation, want: impl Fn(usize) -> u32, what: &str) {
    for (t, w, _, e) in super::words_emulated_alone(p, i, d) {
        assert_eq!((w, e.bits as u32), (w, want(t)), "{what} thread {t} word {w}");
    }
}

/// The byte `ld.b8 [%in+158]` loads in thread `t` of `i` (input word 39, bits 16..23).
fn byte158(i: &Inputs, t: usize) -> u32 {
    (i.0[t * 64 + 39] >> 16) & 0xff
}

/// e05edb4c (seed 6002): G's `mov.b64` unpack of `cvt.u64.u16` of a loaded byte whose other
/// reader is `setp.ge.s64 p, d0, 0`, a sign test ptxas folds true and deletes: the unpack's
/// second half is the byte (13.0.88 and 13.5 -O3 `PRMT R2, R2, 0x5410, R2`), the GPU's
/// 0x00c000c0 in both words where the spec gives 0.
#[test]
fn g_e05edb4c_a_folded_sign_test_of_the_extension_is_no_reader() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let (p, i) = super::stored_case("6002", "e05edb4c1a70fb6b");
    assert_eq!(byte158(&i, 0), 0xc0);
    assert_all_words(&p, &i, d, |t| byte158(&i, t) * 0x0001_0001, "stored");
    // The test gates a write it changes (r0 = p ? 7 : 0, h5 its low half, xored in): wrong alike.
    for (name, taken) in [
        ("s60/v07_setp_ge0_d1seven", true),
        ("s60/v13_setp_lt_s64_0_d1seven", false),
        ("s60/v18_setp_ge_s64_moved0_d1seven", true),
    ] {
        let (p, i) = super::variant_of("6002", "e05edb4c", name, &[]);
        let h5 = if taken { 7 } else { 0 };
        assert_all_words(&p, &i, d, |t| (byte158(&i, t) ^ h5) * 0x0001_0001, name);
    }
}

/// e05edb4c's right variants: tests ptxas keeps (`ISETP` beside `PRMT R2, R2, 0x7632, R2`), of
/// the value against another constant, unsigned, or `gt -1`: the unpack is left alone.
#[test]
fn g_e05edb4c_leaves_unpacks_beside_kept_tests_alone() {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    for name in [
        "v08_setp_ge5_d1seven",
        "v09_setp_lt_u64_65536_d1seven",
        "v10_setp_lt_u64_255_d1seven",
        "v11_setp_gt_s64_m1_moved_d1seven",
        "v12_setp_lt_u64_256_d1seven",
        "v14_setp_gt_s64_m1_d1seven",
        "v15_setp_lt_u64_2p32_d1seven",
        "v16_setp_ge_u64_0_d1seven",
        "v17_setp_ne_s64_m1_d1seven",
    ] {
        let (p, i) = super::variant_of("6002", "e05edb4c", &format!("s60/{name}"), &[]);
        assert_untouched(&p, &i, d, name);
    }
}
