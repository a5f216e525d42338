//! Tests of N-11 with an `add`/`sub` of the destination between two skips of its 16-bit-source
//! set (seed 4703's bd1942aa, session 48; corpus/findings/fuzz-h200-4703/trace/T18u5.md, variants
//! in trace/bd1942aa/s48/; `emulate/skipped_set_low_half_through_an_add.rs`): the second skip
//! reads the low half the add made and extends it by its sign or with zeros.

use super::*;

const D: Deviation = Deviation::SkippedSetSignExtends;

/// bd1942aa's `reduced.ptx`: a 2-trip loop of `step` on %r5 (loaded 0x2936b64d) and the skipped
/// `set` (p0 = loaded word != 0: true, so `@!%p0` is false), %r5 stored.
fn looped(step: &'static str, set: &'static str) -> [&'static str; 12] {
    [
        "ld.global.u32 %r4, [%in];",
        "setp.ne.s32 %p0, %r4, 0;",
        "ld.global.b32 %r5, [%in+4];",
        "ld.global.b16 %h1, [%in+8];",
        "ld.global.b16 %h2, [%in+10];",
        "mov.u32 %r7, 6;",
        "$L0:",
        step,
        set,
        "sub.u32 %r7, %r7, 0x3;",
        "setp.gt.u32 %p2, %r7, 0x0;",
        "@%p2 bra $L0;",
    ]
}

const WORDS: [u32; 4] = [1, 0x2936_b64d, 0x0002_0001, 0];
const ADD: &str = "add.u32 %r5, %r5, %r7;";
const SET_S16: &str = "@!%p0 set.ne.s32.s16 %r5, %h1, %h2;";

/// N-11's stored word of `step` and `set` in the loop (checked to fire).
fn stored(step: &'static str, set: &'static str) -> Expected {
    let mut lines = looped(step, set).to_vec();
    lines.push("st.global.u32 [%out], %r5;");
    let (_, e, fired) = both(&lines, WORDS, D);
    assert_eq!(fired, vec![D], "{step} {set}");
    e.field(0, 32)
}

/// Wrong (13.0.88 -O3 `SEL; PRMT 0x9910; @P0 VIADD; PRMT 0x9910`): `reduced.ptx`
/// (sext16(sext16(x+6)+3) = 0xffffb656), `sub.u32` (s48/v3: 0xffffb644), `add.s32` of an
/// immediate (s48/v4: 0xffffdab5), a `set.ne.u32.u16` (s48/v6). The zero extension stays
/// admitted (N-11's reading for these type pairs); the spec's word does not.
#[test]
fn n11_bd1942aa_an_add_between_two_skips_keeps_its_low_half_either_extension() {
    let cases = [
        (ADD, SET_S16, 0xb656),
        ("sub.u32 %r5, %r5, %r7;", SET_S16, 0xb644),
        ("add.s32 %r5, %r5, 0x1234;", SET_S16, 0xdab5),
        (ADD, "@!%p0 set.ne.u32.u16 %r5, %h1, %h2;", 0xb656),
    ];
    for (step, set, low) in cases {
        let e = stored(step, set);
        assert!(e.matches(0xffff_0000 | low) && e.matches(low), "{step} {set}: {e:?}");
        assert!(!e.matches(0x2936_0000 | low) && !e.matches(0xffff_0000 | (low ^ 1)), "{step} {set}: {e:?}");
    }
}

/// Right (nothing extended, 13.0.88 -O3 no `PRMT`): a `.s32` set source
/// (`v2_s32_source_right`), the skipped set writing another register (s48/v7).
#[test]
fn n11_bd1942aa_a_32_bit_source_or_another_register_is_left_alone() {
    let mut s32 = looped(ADD, "@!%p0 set.ne.s32.s32 %r5, %r1, %r2;").to_vec();
    s32.push("st.global.u32 [%out], %r5;");
    untouched(&s32, WORDS, D);
    let mut other = looped(ADD, "@!%p0 set.ne.s32.s16 %r6, %h1, %h2;").to_vec();
    other.push("st.global.u32 [%out], %r5;");
    untouched(&other, WORDS, D);
}

/// bd1942aa's campaign case: emulating N-11 alone admits the stored word 1 (the same on -O0,
/// -O3 and the JIT) of every listed thread, and word 0's xor of the extended halves (thread 0:
/// 0xb656 ^ 0xffff = 0x49a9 under the spec's 0x6580).
#[test]
fn n11_bd1942aa_the_campaign_case_admits_the_stored_words() {
    let (p, i) = super::stored_case("4703", "bd1942aa1737ccfa");
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    let stored = [
        (0, 0xffff_b656),
        (3, 0xffff_da18),
        (5, 0xffff_8146),
        (6, 0xffff_b30b),
        (8, 0xffff_fb47),
        (10, 0xffff_d7bd),
        (11, 0xffff_b031),
        (12, 0xffff_b4ae),
    ];
    for (t, want) in stored {
        assert!(out[t].field(32, 32).matches(want), "thread {t}: {:?}", out[t].field(32, 32));
    }
    assert!(out[0].field(0, 32).matches(0x6580_49a9), "{:?}", out[0].field(0, 32));
}
