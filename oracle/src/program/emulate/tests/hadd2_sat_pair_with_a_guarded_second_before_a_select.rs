//! Tests of 3801-N3 with a guarded second conversion S (seed 4803's 4a65a6da, corpus/findings/
//! fuzz-h200-4803/trace/T19v2.md, variants in trace/4a65a6da/ and its s49/;
//! `emulate/hadd2_sat_pair_with_a_guarded_second_before_a_select.rs`).

use super::*;

const D: Deviation = Deviation::SatCvtPairReadsGuardedOverwrite;

/// 4a65a6da's `reduced.ptx` with `tail` after S (d2 = in[2..4] negative, so p0 is false: the
/// guarded overwrite runs, S is skipped), h4's pair stored in word 0 and h2's in word 1.
fn reduced(s: &'static str, tail: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "mov.b64 %d0, 0;",
        "mov.b16 %h0, 0;",
        "ld.global.u64 %d2, [%in+8];",
        "mov.b32 %r2, 1013972992;",
        "cvt.rn.satfinite.e4m3x2.f32 %h2, %r2, %r2;",
        "cvt.sat.f16.f16 %h4, %h2;",
        "setp.le.s64 %p0, %d0, %d2;",
        "@!%p0 cvt.f16.bf16 %h2, %h0;",
        "ld.global.b32 %r4, [%in+4];",
        s,
    ];
    lines.extend_from_slice(tail);
    lines.extend(["mov.b32 %r6, {%h4, %h4};", "mov.b32 %r8, {%h2, %h2};", "st.global.b32 [%out], %r6;"]);
    lines.push("st.global.b32 [%out+4], %r8;");
    lines
}

const WORDS: [u32; 4] = [0, 0x4658_9421, 0, 0x960e_f21f];
const S: &str = "@%p0 cvt.rz.sat.f16.f32 %h2, %r4;";
const JOIN: [&str; 4] = ["setp.gt.u32 %p1, %r4, 0x0;", "@%p1 bra $L0;", "mov.b16 %h4, 0;", "$L0:"];

/// The stored case (13.0.88 -O3 and the JIT: word 2 = 0, the spec 0x08080808), every thread.
#[test]
fn n3_4a65a6da_a_guarded_second_cvt_before_a_join_pairs() {
    let (p, i) = stored_case("4803", "4a65a6da4da3bfc4");
    let mut seen = 0;
    for (t, w, s, e) in words_emulated_alone(&p, &i, D).into_iter().filter(|&(_, w, ..)| w == 2) {
        assert_eq!((s.bits, e.bits), (0x0808_0808, 0), "thread {t} word {w}");
        seen += 1;
    }
    assert!(seen > 0);
}

/// Wrong (s49, `HADD2.SAT` of the pack read after `@!P0 F2F`): the case's join, a `selp` of h4
/// for it (`w5_S_guarded_selp_join`), S into another register (`w2_S_guarded_other_dst`).
#[test]
fn n3_4a65a6da_a_guarded_s_with_h4_selected_after_it_pairs() {
    exact_case(&reduced(S, &JOIN), WORDS, D, 0x0808_0808, 0);
    let selp = ["setp.gt.u32 %p1, %r4, 0x0;", "selp.b16 %h4, %h4, 0, %p1;"];
    exact_case(&reduced(S, &selp), WORDS, D, 0x0808_0808, 0);
    exact_case(&reduced("@%p0 cvt.rz.sat.f16.f32 %h5, %r4;", &JOIN), WORDS, D, 0x0808_0808, 0);
}

/// Right (F saturated at once): no select of h4 after the guarded S (`v3_no_branch`, s49
/// `w3_S_guarded_other_dst_no_branch`), a branch whose arm writes another register (s49
/// `w6_S_guarded_branch_over_other`).
#[test]
fn n3_4a65a6da_a_guarded_s_without_a_select_of_h4_is_left_alone() {
    untouched(&reduced(S, &[]), WORDS, D);
    untouched(&reduced("@%p0 cvt.rz.sat.f16.f32 %h5, %r4;", &[]), WORDS, D);
    let other = ["setp.gt.u32 %p1, %r4, 0x0;", "@%p1 bra $L0;", "mov.b16 %h5, 0;", "$L0:"];
    untouched(&reduced(S, &other), WORDS, D);
}

/// Out of scope (no listing shows it): a skipped S that writes F's destination itself, as where
/// S runs (`paired` leaves S's own write to decide); the review of session 49 found the skipped
/// path wrote the pair there.
#[test]
fn n3_a_skipped_s_writing_fs_destination_is_not_claimed() {
    untouched(&reduced("@%p0 cvt.rz.sat.f16.f32 %h4, %r4;", &JOIN), WORDS, D);
}
