//! Tests of 3701-N-D at a `.v2` 16-bit load ptxas forwards from a store of a destroying pack's
//! word (seed 5101's 75b5812a, corpus/findings/fuzz-h200-5101/trace/T22a.md, variants in
//! trace/75b5812a/s51/; `emulate/merge_c_pack_word_read_by_a_forwarded_load.rs`, the forward by
//! `emulate/store_forwarded_load.rs`).

use super::*;

const D: Deviation = Deviation::MergeCInPlaceDestroysLiveHalf;

/// 75b5812a's input: word 3 = 0xa1fb10e0, so `ld.global.v2.b8 {h0, h1}, [%in+12]` gives h1 =
/// 0x10.
const W: [u32; 4] = [0, 0, 0, 0xa1fb_10e0];

/// 75b5812a with the pair made by `pair` and the read of h1's position by `read` (lines after the
/// vector store of `{0, r0, r0, r0}`), `mov.b32 r14, {h4, h4}` stored as word 0.
fn with(h1: &str, pair: &str, read: &[&str]) -> Vec<String> {
    let mut lines = vec![h1, "mov.b32 %r0, 0;", pair, "mov.b32 %r0, {%h2, %h1};", "mov.b32 %r2, 0;"];
    lines.push("st.shared.v4.f32 [%sh], {%r2, %r0, %r0, %r0};");
    lines.extend(read);
    lines.extend(["mov.b32 %r14, {%h4, %h4};", "st.global.b32 [%out], %r14;"]);
    lines.into_iter().map(String::from).collect()
}

const V2B8: &str = "ld.global.v2.b8 {%h0, %h1}, [%in+12];";
const E5M2: &str = "cvt.rn.satfinite.e5m2x2.f32 %h2, %r0, %r0;";

/// `lines` with 8 shared words per thread: word 0 by the spec, emulating `d`, and what fired.
fn shared_both(lines: &[String], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    let p = Program { shared: 8, ..program(&strs(lines)) };
    let i = Inputs(W.to_vec());
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    (spec.field(0, 32), out.remove(0).field(0, 32), fired)
}

/// Checks that emulating [`D`] turns word 0 from the spec's `spec` into `bug`, and that no other
/// emulation changes it.
fn shared_case(lines: &[String], spec: u128, bug: u128) {
    let (s, e, fired) = shared_both(lines, D);
    assert_eq!((s.bits, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert_eq!((e.bits, e.is_exact()), (bug, true), "{D:?} of {lines:?}");
    assert_eq!(fired, vec![D]);
    for other in Deviation::ALL.into_iter().filter(|&o| o != D) {
        let (_, e, fired) = shared_both(lines, other);
        assert_eq!((e.bits, fired.as_slice()), (spec, &[][..]), "{other:?} of {lines:?}");
    }
}

/// Checks that emulating [`D`] leaves `lines` as the spec says.
fn shared_untouched(lines: &[String]) {
    let (s, e, fired) = shared_both(lines, D);
    assert_eq!((e, fired), (s, Vec::new()), "{D:?} of {lines:?}");
}

/// Wrong (13.0.88 and 13.5 -O3: `PRMT R5, R6, 0x5410, R6` of h1's register holding the pack
/// word, 0 for 0x00100010): 75b5812a's `ld.shared.v2.u16 {h8, h4}, [sh+8]` of the third stored
/// word, `.b16` alike, and the second word (`[sh+4]`, also r0).
#[test]
fn nd_3701_75b5812a_the_high_element_of_a_forwarded_load_of_the_pack_word_is_the_pair() {
    shared_case(&with(V2B8, E5M2, &["ld.shared.v2.u16 {%h8, %h4}, [%sh+8];"]), 0x0010_0010, 0);
    shared_case(&with(V2B8, E5M2, &["ld.shared.v2.b16 {%h8, %h4}, [%sh+8];"]), 0x0010_0010, 0);
    shared_case(&with(V2B8, E5M2, &["ld.shared.v2.u16 {%h8, %h4}, [%sh+4];"]), 0x0010_0010, 0);
}

/// Right: an f16 in the pair's place (`v2`), a scalar `st.b32; ld.u16 [sh+10]` (`v3`, not
/// forwarded: `LDS.U16`), h1 from `ld.global.b16` (`v4`), the low element (`v5`); and the first
/// stored word (`[sh]`, r2, no pack), a `bar.sync` between the store and the load, a
/// `.v2.s16` load (signed loads are not forwarded).
#[test]
fn nd_3701_75b5812a_loads_not_forwarded_or_not_of_the_pack_word_are_left_alone() {
    let ld = "ld.shared.v2.u16 {%h8, %h4}, [%sh+8];";
    shared_untouched(&with(V2B8, "cvt.rn.f16.f32 %h2, %r0;", &[ld]));
    let v3: Vec<String> = with(V2B8, E5M2, &[ld])
        .into_iter()
        .map(|l| match l.as_str() {
            "st.shared.v4.f32 [%sh], {%r2, %r0, %r0, %r0};" => "st.shared.b32 [%sh+8], %r0;".to_string(),
            _ if l == ld => "ld.shared.u16 %h4, [%sh+10];".to_string(),
            _ => l,
        })
        .collect();
    shared_untouched(&v3);
    shared_untouched(&with("ld.global.b16 %h1, [%in+12];", E5M2, &[ld]));
    // `v5` reads `{h8, h8}`: h4 (dead) takes the pair, the stored word is the spec's.
    let v5: Vec<String> = with(V2B8, E5M2, &[ld]).into_iter().map(|l| l.replace("{%h4, %h4}", "{%h8, %h8}")).collect();
    let (s, e, _) = shared_both(&v5, D);
    assert_eq!((s.bits, e), (0, s.clone()), "{v5:?}");
    shared_untouched(&with(V2B8, E5M2, &["ld.shared.v2.u16 {%h8, %h4}, [%sh];"]));
    shared_untouched(&with(V2B8, E5M2, &["bar.sync 0;", ld]));
    shared_untouched(&with(V2B8, E5M2, &["ld.shared.v2.s16 {%h8, %h4}, [%sh+8];"]));
}

/// 75b5812a's campaign case: word 0 is 0 (the spec's 0x00100010) in every thread.
#[test]
fn nd_3701_75b5812a_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5101", "75b5812ae8786894");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0x0010_0010, 0), "thread {t} word {w}");
    }
}
