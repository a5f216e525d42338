//! Tests of 3801-N1's emulation (`emulate/mad_hi_links_dropped_as_repeats.rs`): a chain of
//! `mad.hi` links (or `add`s of one `mul.hi`) is acc + k·hi for k from 1 to its length
//! (corpus/findings/fuzz-h200-4703/trace/7b1e7594/s48/, 13.0.88 -O3 listings): the campaign
//! cases admitted, the right neighbours left alone.

use super::*;

const D: Deviation = Deviation::MadHiChainLosesRepeatedLinks;

/// Each `(thread, word, GPU word)` of a stored case (its findings file's mismatches): emulating
/// 3801-N1 alone admits the GPU's ptxas -O3/JIT word, which the spec's word is not.
pub(super) fn admits_stored_words(seed: &str, name: &str, gpu: &[(usize, u32, u32)]) {
    let (p, i) = super::stored_case(seed, name);
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D], "{name}");
    for &(t, w, word) in gpu {
        let (s, e) = (spec[t].field(32 * w, 32), out[t].field(32 * w, 32));
        assert!(!s.matches(u128::from(word)), "{name} thread {t} word {w}: the spec {s}");
        assert!(e.matches(u128::from(word)), "{name} thread {t} word {w}: {e} does not admit {word:#x}");
        assert!(e.matches(s.bits), "{name} thread {t} word {w}: the spec's value stays admitted");
    }
}

/// The entry's own cases (3a0d32f5: a count-down loop of 8, 3 links; 2cbe4566: a loop of 7
/// links of constants, 4; seed 3802's 2414f1e4: 4 → 3; seed 4101's 6ab8329e: `mul.hi.u32` +
/// `add.s32` in a loop of 8, 5) and seed 4703's 7b1e7594 (an 8-trip `mad.hi.s32` loop, 2 links:
/// byte 1 of word 0).
#[test]
fn n1_the_campaign_cases_admit_the_stored_o3_words() {
    admits_stored_words("3801", "3a0d32f50f45c5e7", &[(0, 0, 0xa216_5942), (0, 1, 0xa216_5942), (3, 1, 0xa216_5942)]);
    admits_stored_words("3801", "2cbe4566db6f003e", &[(0, 0, 0x3e87_9534), (7, 0, 0x3e87_9534)]);
    admits_stored_words("3802", "2414f1e4dd6547ee", &[(0, 0, 0x6b2a_48b4), (2, 1, 0x6b2a_48b4)]);
    admits_stored_words("4101", "6ab8329ef7b4115f", &[(0, 0, 0x933e_bfa5), (7, 0, 0x933e_bfa5)]);
    admits_stored_words(
        "4703",
        "7b1e7594d6d4c127",
        &[(0, 0, 0xf9f8_1003), (1, 0, 0x6ff8_22fc), (2, 0, 0xfea1_4803), (3, 0, 0xeda1_d2fc), (7, 0, 0xe7a1_f303)],
    );
}

/// `s48/v1_loop8_loaded_acc` with `body` in its loop of 8 (loaded x = in[0], y = in[1], acc =
/// in[2], in[3]), acc stored.
fn loop8(body: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec![
        "ld.global.u32 %r0, [%in];",
        "ld.global.u32 %r2, [%in+4];",
        "ld.global.u32 %r1, [%in+8];",
        "ld.global.u32 %r3, [%in+12];",
        "mov.u32 %r8, 8;",
        "$L2:",
    ];
    lines.extend_from_slice(body);
    lines.extend([
        "sub.u32 %r8, %r8, 0x1;",
        "setp.gt.u32 %p7, %r8, 0x0;",
        "@%p7 bra $L2;",
        "st.global.b32 [%out], %r1;",
    ]);
    lines
}

const WORDS: [u32; 4] = [0x9000_0001, 0x7000_0003, 0x1234_5678, 0x5000_0005];

/// hi(x·y) of `WORDS`' x, y as `.s32` (§9.7.1.4).
fn hi_s32(x: u32, y: u32) -> u32 {
    ((i64::from(x as i32) * i64::from(y as i32)) >> 32) as u32
}

/// Wrong (13.0.88 -O3 4 `IMAD.HI` of 8): `s48/v1_loop8_loaded_acc`, its straight form
/// `v2_straight8_loaded_acc`, and `v6_loop8_mul_hi_add`: acc + k·hi for every k in 1..=8, nothing
/// else (k = 0, 9 and a neighbour of acc + 4·hi out).
#[test]
fn n1_a_chain_of_eight_links_is_acc_plus_one_to_eight_steps() {
    let (x, y, acc) = (WORDS[0], WORDS[1], WORDS[2]);
    let hi = hi_s32(x, y);
    let mad = "mad.hi.s32 %r1, %r0, %r2, %r1;";
    let straight: Vec<&str> =
        ["ld.global.u32 %r0, [%in];", "ld.global.u32 %r2, [%in+4];", "ld.global.u32 %r1, [%in+8];"]
            .into_iter()
            .chain([mad; 8])
            .chain(["st.global.b32 [%out], %r1;"])
            .collect();
    let mul_add = {
        let mut l = loop8(&["add.s32 %r1, %r1, %r4;"]);
        l.insert(4, "mul.hi.s32 %r4, %r0, %r2;");
        l
    };
    for lines in [loop8(&[mad]), straight, mul_add] {
        let (s, e, fired) = both(&lines, WORDS, D);
        let word = |k: u32| u128::from(acc.wrapping_add(k.wrapping_mul(hi)));
        assert_eq!((s.field(0, 32).bits, s.is_exact()), (word(8), true), "{lines:?}");
        assert_eq!(fired, vec![D], "{lines:?}");
        let e = e.field(0, 32);
        assert!((1..=8).all(|k| e.matches(word(k))), "{e} of {lines:?}");
        assert!(!e.matches(word(0)) && !e.matches(word(9)) && !e.matches(word(4) + 1), "{e} of {lines:?}");
    }
}

/// Right (13.0.88 -O3 all 8 `IMAD.HI`): links alternating two y (`s48/v3_loop8_alternating_y`,
/// `v4_straight8_alternating_y`), an `add` of a constant between the links
/// (`v5_loop8_add_between`), x stepped in the loop (`v9_loop8_x_stepped`), `mul.hi` + `add` of a
/// y stepped in the loop (`v10_loop8_mul_hi_of_stepped_y`); and `mad.lo` (`v7_loop8_mad_lo`), one
/// link.
#[test]
fn n1_links_that_do_not_repeat_the_one_before_are_left_alone() {
    let alternating = ["mad.hi.s32 %r1, %r0, %r2, %r1;", "mad.hi.s32 %r1, %r0, %r3, %r1;"];
    untouched(&loop8(&alternating), WORDS, D);
    untouched(&loop8(&["mad.hi.s32 %r1, %r0, %r2, %r1;", "add.u32 %r1, %r1, 3;"]), WORDS, D);
    untouched(&loop8(&["mad.hi.s32 %r1, %r0, %r2, %r1;", "add.u32 %r0, %r0, 1;"]), WORDS, D);
    untouched(&loop8(&["mad.lo.s32 %r1, %r0, %r2, %r1;"]), WORDS, D);
    let one = ["ld.global.u32 %r0, [%in];", "mad.hi.s32 %r1, %r0, %r0, %r0;", "st.global.b32 [%out], %r1;"];
    untouched(&one, WORDS, D);
    let other_product = {
        let mut l = loop8(&["mul.hi.s32 %r4, %r0, %r2;", "add.s32 %r1, %r1, %r4;", "add.u32 %r2, %r2, 1;"]);
        l.insert(4, "mov.u32 %r4, 0;");
        l
    };
    untouched(&other_product, WORDS, D);
}

/// Seeds 4801-4803 (`emulate/mad_hi_operand_rewritten_alike_each_trip.rs`): x or y moved from
/// one immediate inside the loop, before the link (d41ca4e6: both, a loop of 4, 3 links at
/// 13.0.88 -O3; 2f12064d: y, a loop of 7, 4 links; 78ee1655: x, a loop of 4 read by a `setp` and
/// a `selp`, 3 links): the stored -O3/JIT words admitted.
#[test]
fn n1_the_links_of_an_operand_moved_alike_each_trip_admit_the_stored_o3_words() {
    admits_stored_words("4801", "d41ca4e68c4ec761", &[(0, 1, 0x743a_846a), (31, 1, 0x743a_846a)]);
    admits_stored_words("4802", "2f12064d2a3a458d", &[(0, 2, 0x0000_d1cc), (31, 2, 0x0000_d1cc)]);
    admits_stored_words("4803", "78ee165572e13ced", &[(0, 0, 0), (31, 0, 0)]);
}

/// corpus/findings/fuzz-h200-4803/trace/78ee1655/s48/'s frame with `body` in a loop of 4 (acc =
/// in[2], a kept x source r5 = in[0]), acc stored.
fn loop4(body: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r1, [%in+8];", "ld.global.u32 %r5, [%in];", "mov.u32 %r3, 0;", "$L1:"];
    lines.extend_from_slice(body);
    lines.extend([
        "add.u32 %r3, %r3, 0x1;",
        "setp.lt.u32 %p1, %r3, 0x4;",
        "@%p1 bra $L1;",
        "st.global.b32 [%out], %r1;",
    ]);
    lines
}

const MAD_X: &str = "mad.hi.s32 %r1, %r4, 1215229720, %r1;";

/// Wrong (13.0.88 -O3 3 `IMAD.HI` of 4, s48/): x moved from one immediate before the link
/// (the case, `reduced`), x and y both moved (d41ca4e6's form), x a copy of a register the loop
/// keeps (`v7_copy_of_loaded_reg`), the same move before and after the link
/// (`v8_same_mov_before_and_after`): acc + k·hi for every k in 1..=4, nothing else.
#[test]
fn n1_an_operand_moved_alike_each_trip_is_acc_plus_one_to_four_steps() {
    let (x, acc) = (WORDS[0], WORDS[2]);
    let k_x = 1_184_957_712_u32;
    let y = 1_215_229_720_u32;
    let mov_k = "mov.b32 %r4, 1184957712;";
    let both_moved = ["mov.b32 %r4, 1184957712;", "mov.b32 %r6, 1215229720;", "mad.hi.s32 %r1, %r4, %r6, %r1;"];
    let cases = [
        (loop4(&[mov_k, MAD_X]), k_x),
        (loop4(&both_moved), k_x),
        (loop4(&["mov.b32 %r4, %r5;", MAD_X]), x),
        (loop4(&[mov_k, MAD_X, mov_k]), k_x),
    ];
    for (lines, x) in cases {
        assert_acc_plus_one_to_four_steps(&lines, acc, hi_s32(x, y));
    }
}

/// The four-link chain `lines` (over [`WORDS`]): the spec's acc + 4·hi, and under the emulation
/// acc + k·hi for every k in 1..=4 and nothing else.
fn assert_acc_plus_one_to_four_steps(lines: &[&str], acc: u32, hi: u32) {
    let (s, e, fired) = both(lines, WORDS, D);
    let word = |k: u32| u128::from(acc.wrapping_add(k.wrapping_mul(hi)));
    assert_eq!((s.field(0, 32).bits, s.is_exact()), (word(4), true), "{lines:?}");
    assert_eq!(fired, vec![D], "{lines:?}");
    let e = e.field(0, 32);
    assert!((1..=4).all(|k| e.matches(word(k))), "{e} of {lines:?}");
    assert!(!e.matches(word(0)) && !e.matches(word(5)), "{e} of {lines:?}");
}

/// Right (13.0.88 -O3 all 4 `IMAD.HI`, s48/): x a copy of a register the loop steps
/// (`v6_copy_of_stepped_reg`) or of acc (`v10_copy_of_acc`). Out (wrong at 13.0.88 but not
/// claimed): the move after the link, x moved before the loop from another value
/// (`v5_mov_after_link`: the first trip reads it), and a guarded move (`v9_guarded_mov`).
#[test]
fn n1_an_operand_moved_to_a_new_value_each_trip_is_left_alone() {
    untouched(&loop4(&["add.u32 %r5, %r5, 0x11111111;", "mov.b32 %r4, %r5;", MAD_X]), WORDS, D);
    untouched(&loop4(&["mov.b32 %r4, %r1;", MAD_X]), WORDS, D);
    let mut after = loop4(&[MAD_X, "mov.b32 %r4, 1184957712;"]);
    after.insert(3, "mov.b32 %r4, 7;");
    untouched(&after, WORDS, D);
    let mut guarded = loop4(&["setp.ne.u32 %p2, %r5, 0;", "@%p2 mov.b32 %r4, 1184957712;", MAD_X]);
    guarded.insert(3, "mov.b32 %r4, 1184957712;");
    untouched(&guarded, WORDS, D);
}

/// Seed 5403 (`emulate/mad_hi_links_under_one_guard.rs`, corpus/findings/fuzz-h200-5403/trace/T54S.md):
/// a4cbab31's seven `@!%p1 mad.hi.u16` links (3 at 13.0.88 -O3: word 1 0x00030003, the spec
/// 0x00070007) and 965cd327's four `@!%p1 mad.hi.s32` links (2: 2·hi where the spec is 4·hi,
/// threads 5–12): the stored -O3/JIT words admitted.
#[test]
fn n1_guarded_links_admit_the_stored_o3_words() {
    admits_stored_words("5403", "a4cbab310a34fcdf", &[(0, 1, 0x0003_0003), (7, 1, 0x0003_0003)]);
    admits_stored_words("5403", "965cd3279fd004e3", &[(5, 1, 2), (8, 1, 2), (9, 1, 4), (12, 1, 4)]);
}

/// `s54/`'s guarded links on `loop4`'s frame (`%p2` = in[3] ≠ 0, true on `WORDS`).
fn guarded(body: &[&'static str]) -> Vec<&'static str> {
    let mut lines = loop4(body);
    lines.insert(2, "setp.ne.u32 %p2, %r6, 0;");
    lines.insert(2, "ld.global.u32 %r6, [%in+12];");
    lines
}

const GUARDED_MAD: &str = "@%p2 mad.hi.s32 %r1, %r5, %r7, %r1;";

/// Wrong (13.0.88 -O3 2 `IMAD.HI` of 4, trace/965cd327/s54/): a loop of 4 guarded links by a
/// loaded word (`v2_guard_loaded`), four straight guarded links (`v3_guarded_straight`), and the
/// guard rewritten each trip by a `setp` of registers the loop keeps (a4cbab31's form, its
/// `s54/v2_u32_guarded`: 3 of 7): acc + k·hi for every k in 1..=4, nothing else.
#[test]
fn n1_links_under_one_held_guard_are_acc_plus_one_to_four_steps() {
    let (x, y, acc) = (WORDS[0], WORDS[1], WORDS[2]);
    let hi = hi_s32(x, y);
    let y_load = "ld.global.u32 %r7, [%in+4];";
    let mut straight = vec![
        "ld.global.u32 %r1, [%in+8];",
        "ld.global.u32 %r5, [%in];",
        y_load,
        "ld.global.u32 %r6, [%in+12];",
        "setp.ne.u32 %p2, %r6, 0;",
    ];
    straight.extend([GUARDED_MAD; 4]);
    straight.push("st.global.b32 [%out], %r1;");
    let mut in_loop = guarded(&["setp.ne.u32 %p2, %r6, 0;", GUARDED_MAD]);
    in_loop.insert(0, y_load);
    let mut before_loop = guarded(&[GUARDED_MAD]);
    before_loop.insert(0, y_load);
    for lines in [before_loop, straight, in_loop] {
        assert_acc_plus_one_to_four_steps(&lines, acc, hi);
    }
    links_under_a_guard_that_may_change_are_left_alone();
}

/// a4cbab31's `s54/` frame: x, y the high halves of in[0], in[1], acc 0, `link` run 7 times under
/// `%p1` = (in[3] == 0), false on `WORDS`, acc stored as both halves of word 0.
fn loop7_of_halves(link: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u32 %r0, [%in];",
        "mov.b32 {%h2, %h0}, %r0;",
        "ld.global.u32 %r2, [%in+4];",
        "mov.b32 {%h2, %h1}, %r2;",
        "ld.global.u32 %r5, [%in+12];",
        "mov.b16 %h3, 0;",
        "mov.u32 %r6, 0;",
        "$L0:",
        "setp.eq.u32 %p1, %r5, 0;",
        link,
        "add.u32 %r6, %r6, 0x3;",
        "setp.ne.u32 %p2, %r6, 0x15;",
        "@%p2 bra $L0;",
        "mov.b32 %r10, {%h3, %h3};",
        "st.global.b32 [%out], %r10;",
    ]
}

/// Checks that `lines` (`loop7_of_halves`) store acc + 7·`hi` (16 bits) by the spec and admit
/// acc + k·`hi` for every k in 1..=7 emulated, not k = 0 or 8.
fn assert_halves_plus_one_to_seven_steps(lines: &[&str], hi: u32) {
    let (s, e, fired) = both(lines, WORDS, D);
    let half = |k: u32| u128::from(k.wrapping_mul(hi) & 0xffff);
    assert_eq!((s.field(0, 32).bits, s.is_exact()), (half(7) * 0x1_0001, true));
    assert_eq!(fired, vec![D]);
    for k in 1..=7 {
        assert!(e.field(0, 32).matches(half(k) * 0x1_0001), "{e}: {k}");
    }
    assert!(!e.field(0, 16).matches(half(0)) && !e.field(0, 16).matches(half(8)), "{e}");
}

/// a4cbab31's `@!p mad.hi.u16` loop of 7 (13.0.88 -O3 3 links): each half of the stored pack is
/// acc + k·hi16 for k in 1..=7; unguarded (`s54/v1_u16_unguarded`: `LEA.HI` links, all 7) left
/// alone.
#[test]
fn n1_guarded_u16_links_lose_steps_and_unguarded_ones_do_not() {
    let hi = ((WORDS[0] >> 16) * (WORDS[1] >> 16)) >> 16;
    assert_halves_plus_one_to_seven_steps(&loop7_of_halves("@!%p1 mad.hi.u16 %h3, %h0, %h1, %h3;"), hi);
    untouched(&loop7_of_halves("mad.hi.u16 %h3, %h0, %h1, %h3;"), WORDS, D);
}

/// Seed 6201's 7ba41d93 (corpus/findings/fuzz-h200-6201/trace/T62B.md, trace/7ba41d93/s62/): six
/// `@!%p0 mad.hi.s16` links in a loop, 2 at 13.0.88 -O3 (byte 5 0x27, the spec 0x67: word 1
/// 0x00002700, the stored threads 0–7) — the GPU's words admitted; on a4cbab31's frame the guarded `.s16`
/// loop is acc + k·hi16 of the signed product (0x9000·0x7000: 0xcf00, not `.u16`'s 0x3f00) for k
/// in 1..=7; unguarded `.s16` (`s62/u1_unguarded_s16`: `LEA.HI.SX32` links, all 6) left alone.
#[test]
fn n1_guarded_s16_links_lose_steps_and_unguarded_ones_do_not() {
    admits_stored_words("6201", "7ba41d93ae831793", &[(0, 1, 0x2700), (3, 1, 0x2700), (7, 1, 0x2700)]);
    let hi = ((i32::from((WORDS[0] >> 16) as u16 as i16) * i32::from((WORDS[1] >> 16) as u16 as i16)) >> 16) as u32;
    assert_eq!(hi & 0xffff, 0xcf00);
    assert_halves_plus_one_to_seven_steps(&loop7_of_halves("@!%p1 mad.hi.s16 %h3, %h0, %h1, %h3;"), hi);
    untouched(&loop7_of_halves("mad.hi.s16 %h3, %h0, %h1, %h3;"), WORDS, D);
}

/// Out (no listing seen): a guard the loop may change (its `setp` of a stepped register), links
/// under two guards, a link whose acc a skipped writer names between, and guarded `mul.hi` +
/// `add` links. Called by [`n1_links_under_one_held_guard_are_acc_plus_one_to_four_steps`].
fn links_under_a_guard_that_may_change_are_left_alone() {
    let mut stepped = guarded(&["setp.ne.u32 %p2, %r3, 0x7;", GUARDED_MAD]);
    stepped.insert(0, "ld.global.u32 %r7, [%in+4];");
    untouched(&stepped, WORDS, D);
    let mut straight = vec![
        "ld.global.u32 %r1, [%in+8];",
        "ld.global.u32 %r5, [%in];",
        "ld.global.u32 %r7, [%in+4];",
        "ld.global.u32 %r6, [%in+12];",
        "setp.ne.u32 %p2, %r6, 0;",
        "setp.eq.u32 %p3, %r6, 0;",
        GUARDED_MAD,
        "@!%p3 mad.hi.s32 %r1, %r5, %r7, %r1;",
        GUARDED_MAD,
        "@%p3 add.u32 %r1, %r1, 1;",
        GUARDED_MAD,
        "st.global.b32 [%out], %r1;",
    ];
    untouched(&straight, WORDS, D);
    straight.truncate(7);
    straight.extend(["@%p2 mul.hi.s32 %r4, %r5, %r7;", "@%p2 add.s32 %r1, %r1, %r4;"]);
    straight.extend(["@%p2 add.s32 %r1, %r1, %r4;", "st.global.b32 [%out], %r1;"]);
    untouched(&straight, WORDS, D);
}
