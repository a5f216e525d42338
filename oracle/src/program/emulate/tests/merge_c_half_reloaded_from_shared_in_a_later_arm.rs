//! Tests of 3701-N-D where h is rewritten after the pack only in a branch arm, by a shared load,
//! and read after the join (seed 5401's 7865568d, corpus/findings/fuzz-h200-5401/trace/T54S.md,
//! variants in trace/7865568d/s54/ and s55/; `emulate/merge_c_half_reloaded_from_shared_in_a_later_arm.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// s54/s2_no_first_arm's shape: the pair of word 0 (0x808f0b1e, a tiny negative: 0x8080), h4
/// the first byte of word 1 (0x3e), the pack `st.shared.v2.u16 [sh], {h0, h4}`, the arm `arm`
/// (skipped where word 2 is not 0), then `mov.b32 r11, {h4, h4}` stored as word 0.
fn with(arm: &[&str], after: &[&str]) -> Vec<String> {
    let mut lines = vec![
        "ld.global.f32 %r0, [%in];",
        "cvt.rn.satfinite.e4m3x2.f32 %h0, %r0, %r0;",
        "ld.global.v4.b8 {%h4, %h2, %h5, %h6}, [%in+4];",
        "ld.global.u32 %r1, [%in+8];",
        "setp.eq.u32 %p3, %r1, 0;",
        "st.shared.v2.u16 [%sh], {%h0, %h4};",
        "@!%p3 bra $L1;",
    ];
    lines.extend(arm);
    lines.push("$L1:");
    lines.extend(after);
    lines.extend(["mov.b32 %r11, {%h4, %h4};", "st.global.b32 [%out], %r11;"]);
    lines.into_iter().map(String::from).collect()
}

const ACQUIRE: &str = "ld.acquire.cluster.shared::cta.u16 %h4, [%sh+2];";
/// The arm skipped (word 2 = 1) and taken (word 2 = 0).
const SKIP: [u32; 4] = [0x808f_0b1e, 0x3e, 1, 0];
const TAKE: [u32; 4] = [0x808f_0b1e, 0x3e, 0, 0];

/// `lines` with 8 shared words: word 0 by the spec, emulating `d`, and what fired.
fn shared_both(lines: &[String], words: [u32; 4], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    let p = Program { shared: 8, ..program(&strs(lines)) };
    let i = Inputs(words.to_vec());
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    (spec.field(0, 32), out.remove(0).field(0, 32), fired)
}

/// Checks that emulating [`D`] turns word 0 of the skipping thread from `{h4, h4}` (0x003e003e)
/// into `{pair, pair}` (0x80808080), that no other emulation changes it, and that the thread
/// running the arm reads what the arm loaded (the spec's: h4 as stored).
fn skipped_reads_the_pair(lines: &[String]) {
    let (s, e, fired) = shared_both(lines, SKIP, D);
    assert_eq!((s.bits, s.is_exact()), (0x003e_003e, true), "spec of {lines:?}");
    assert_eq!((e.bits, e.is_exact()), (0x8080_8080, true), "{D:?} of {lines:?}");
    assert_eq!(fired, vec![D]);
    for other in Deviation::ALL.into_iter().filter(|&o| o != D) {
        let (_, e, fired) = shared_both(lines, SKIP, other);
        assert_eq!((e.bits, fired.as_slice()), (0x003e_003e, &[][..]), "{other:?} of {lines:?}");
    }
    let (s, e, _) = shared_both(lines, TAKE, D);
    assert_eq!((s.bits, e), (0x003e_003e, s.clone()), "the arm run: {lines:?}");
}

/// Checks that emulating [`D`] leaves `lines` as the spec says, the arm skipped.
fn untouched_skipped(lines: &[String]) {
    let (s, e, fired) = shared_both(lines, SKIP, D);
    assert_eq!((e, fired), (s, Vec::new()), "{D:?} of {lines:?}");
}

/// Wrong (13.0.88 = 13.5 -O3, `MERGE_C R3, R8, R8, R3; PRMT R6, R3, 0x7610, R6; @!P1 LDS.U16
/// R6; PRMT R3, R6, 0x5410, R6`): the arm's `ld.acquire.cluster.shared::cta.u16` (the case, s54/s2),
/// `ld.shared.u16` (s54/s4, s55/c6), `ld.volatile.shared.u16` (s55/c8), `ld.shared.u8` (s55/c7),
/// `ld.shared.v2.u16` (s55/c10); with another statement in the arm after the load.
#[test]
fn nd_3701_7865568d_a_half_reloaded_from_shared_in_a_later_arm_is_the_pair_where_skipped() {
    skipped_reads_the_pair(&with(&[ACQUIRE], &[]));
    skipped_reads_the_pair(&with(&["ld.shared.u16 %h4, [%sh+2];"], &[]));
    skipped_reads_the_pair(&with(&["ld.volatile.shared.u16 %h4, [%sh+2];"], &[]));
    skipped_reads_the_pair(&with(&["ld.shared.u8 %h4, [%sh+2];"], &[]));
    skipped_reads_the_pair(&with(&["ld.shared.v2.u16 {%h7, %h4}, [%sh];"], &[]));
    skipped_reads_the_pair(&with(&[ACQUIRE, "ld.global.u32 %r5, [%in+12];"], &["add.u32 %r6, %r1, 1;"]));
}

/// Right or left out: the arm's write a weak `ld.global.u16` (s55/c1, right), `cvt.u16.u32` (c2,
/// right), a moved immediate (c4, right), `ld.acquire.gpu.global.u16` (c15, the load unguarded);
/// `ld.global.u8` (c16) and a `mov` unpack of a shared `b32` load (c11), wrong but not one rule
/// with c1; a second arm rewriting h by a weak global load (c3, right); h rewritten unguarded
/// after the join (c5: nothing reads the pack's h).
#[test]
fn nd_3701_7865568d_other_arm_writes_are_left_alone() {
    untouched_skipped(&with(&["ld.global.u16 %h4, [%in+2];"], &[]));
    untouched_skipped(&with(&["cvt.u16.u32 %h4, %r1;"], &[]));
    untouched_skipped(&with(&["mov.b16 %h4, 0x1234;"], &[]));
    untouched_skipped(&with(&["ld.acquire.gpu.global.u16 %h4, [%in+2];"], &[]));
    untouched_skipped(&with(&["ld.global.u8 %h4, [%in+2];"], &[]));
    untouched_skipped(&with(&["ld.shared.b32 %r5, [%sh];", "mov.b32 {%h4, %h7}, %r5;"], &[]));
    let second = ["setp.eq.u32 %p2, %r1, 7;", "@%p2 bra $L2;", "ld.global.u16 %h4, [%in+6];", "$L2:"];
    untouched_skipped(&with(&[ACQUIRE], &second));
    untouched_skipped(&with(&[ACQUIRE], &["ld.global.u16 %h4, [%in+6];"]));
}

/// 7865568d's campaign case: word 3 of the threads that skip the arm (0, 40, 45) is the GPU's
/// (`{h4, h4}` read as the pair's `{0x8080, 0x8080}`); thread 37 skips it too, its word open (an
/// f16 NaN's bf16).
#[test]
fn nd_3701_7865568d_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5401", "7865568db043a5e1");
    let gpu = [(0, 0x375e_b75e), (40, 0x3668_b668), (45, 0x0080_8080)];
    let mut seen = 0;
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        match gpu.iter().find(|&&(g, _)| g == t) {
            Some(&(_, word)) if w == 3 => {
                assert_eq!((e.bits, e.is_exact()), (word, true), "thread {t}");
                seen += 1;
            }
            _ if t == 37 && w == 3 => {}
            _ => assert_eq!(e, s, "thread {t} word {w}"),
        }
    }
    assert_eq!(seen, gpu.len());
}
