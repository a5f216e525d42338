//! Tests of 3702-N5 with a constant b ptxas keeps in a register (session 47: seed 4603's
//! 38cbad4d, corpus/findings/fuzz-h200-4603/trace/T17t5.md and trace/38cbad4d/s47/; seed 4601's
//! 48a9855d, corpus/findings/fuzz-h200-4601/trace/T17t2.md and trace/48a9855d/).

use super::*;

const D: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// 38cbad4d's `reduced.ptx` shape: `prmt r1, r0, r0, 0x32fa` of the moved constant r0 (byte 0 the
/// sign of a's byte 2, 0x92: 0xff), its low half zero-tested, beside `reader` of r0; the two
/// predicates as bytes 0 and 1 of word 0.
fn beside(reader: &'static str, tested: &'static str) -> Vec<&'static str> {
    vec![
        "mov.b32 %r0, 0x7092F36A;",
        "ld.global.b32 %r2, [%in];",
        "prmt.b32 %r1, %r0, %r0, 0x32fa;",
        "cvt.u16.u32 %h2, %r1;",
        reader,
        tested,
        "setp.eq.u16 %p2, %h2, 0x0;",
        "mov.b16 %h10, 1;",
        "mov.b16 %h11, 2;",
        "selp.b16 %h4, %h10, 0, %p2;",
        "selp.b16 %h29, %h11, 0, %p0;",
        "st.global.v2.u8 [%out], {%h4, %h29};",
    ]
}

const TEST_R5: &str = "setp.lt.u32 %p0, %r5, 0x1980c01e;";

/// Wrong (13.0.88 -O3 `PRMT R, RZ, 0xfa, R` or `UPRMT UR4, URZ, 0xfa, UR4`): a second live
/// `prmt` reading the constant as b (38cbad4d, `reduced`), as its selector (`s47/a1`) or as a
/// (`s47/a2`), and live glue reading it beside a loaded register (`s47/b3`, `c_xor_b32`,
/// `c_shl_b32`, `c_setp_loaded`): h2 reads 0, the zero test is taken.
#[test]
fn n5_3702_a_constant_b_another_live_reader_holds_in_a_register_is_narrowed() {
    let loaded = [0x8000_0000, 0, 0, 0];
    let wrong: [(&str, &str); 6] = [
        ("prmt.b32 %r5, 0, %r0, 0x08a9;", TEST_R5),
        ("prmt.b32 %r5, %r2, %r2, %r0;", TEST_R5),
        ("prmt.b32 %r5, %r0, 0, 0x08a9;", TEST_R5),
        ("add.u32 %r5, %r2, %r0;", TEST_R5),
        ("shl.b32 %r5, %r0, %r2;", TEST_R5),
        ("xor.b32 %r5, %r2, %r0;", TEST_R5),
    ];
    for (reader, tested) in wrong {
        let (s, e, fired) = both(&beside(reader, tested), loaded, D);
        assert_eq!((s.bits & 0xff, e.bits & 0xff), (0, 1), "{reader}");
        assert_eq!(s.bits >> 8, e.bits >> 8, "{reader}");
        assert_eq!(fired, vec![D], "{reader}");
    }
    let (s, e, _) = both(&beside("mov.b32 %r5, 0;", "setp.lt.u32 %p0, %r2, %r0;"), loaded, D);
    assert_eq!((s.bits & 0xff, e.bits & 0xff), (0, 1), "setp.lt.u32 of the constant and a loaded value");
}

/// Right (13.0.88 -O3 b in the `PRMT`'s immediate slot, the whole `PRMT`/`UPRMT`): no other
/// reader (38cbad4d v1, `s47/a4` with a loaded a), a dead second `prmt` (v2), glue ptxas folds
/// (v3's `add.u32 r5, r0, 7`), `sub.u32` of a loaded value (`s47/c_sub_u32`: the negated constant
/// added), a dead `and` (`s47/c_and_dead`), a store of the constant (`s47/b1`, 48a9855d
/// `v1_b_reg_live`), b a moved 0 (3702's 5bf2de82 v8).
#[test]
fn n5_3702_a_constant_b_in_the_immediate_slot_is_not_narrowed() {
    let loaded = [0x8000_0000, 0, 0, 0];
    let right: [(&str, &str); 4] = [
        ("mov.b32 %r5, 0;", TEST_R5),
        ("add.u32 %r5, %r0, 7;", TEST_R5),
        ("sub.u32 %r5, %r2, %r0;", TEST_R5),
        ("prmt.b32 %r3, 0, %r0, 0x08a9;", "setp.lt.u32 %p0, %r2, 5;"),
    ];
    for (reader, tested) in right {
        untouched(&beside(reader, tested), loaded, D);
    }
    let dead_and = [
        "mov.b32 %r0, 0x7092F36A;",
        "ld.global.b32 %r2, [%in];",
        "prmt.b32 %r1, %r0, %r0, 0x32fa;",
        "cvt.u16.u32 %h2, %r1;",
        "and.b32 %r5, %r2, %r0;",
        "setp.eq.u16 %p2, %h2, 0x0;",
        "mov.b16 %h10, 1;",
        "selp.b16 %h4, %h10, 0, %p2;",
        "st.global.b16 [%out], %h4;",
    ];
    untouched(&dead_and, loaded, D);
    let stored = [
        "mov.b32 %r0, 0x7092F36A;",
        "prmt.b32 %r1, %r0, %r0, 0x32fa;",
        "cvt.u16.u32 %h2, %r1;",
        "setp.eq.u16 %p2, %h2, 0x0;",
        "mov.b16 %h10, 1;",
        "selp.b16 %h4, %h10, 0, %p2;",
        "st.global.b16 [%out], %h4;",
        "st.global.b32 [%out+4], %r0;",
    ];
    untouched(&stored, [0; 4], D);
    // b a moved 0 beside a live `prmt` reading it (RZ: no register to hold).
    let zero_b = [
        "ld.global.b32 %r0, [%in];",
        "mov.b32 %r3, 0;",
        "prmt.b32 %r1, %r0, %r3, 0x000a;",
        "cvt.u8.s32 %h1, %r1;",
        "prmt.b32 %r5, %r0, %r3, 0x0001;",
        "st.global.b16 [%out], %h1;",
        "st.global.b32 [%out+4], %r5;",
    ];
    untouched(&zero_b, [0x0080_0000, 0, 0, 0], D);
}

/// The campaign cases: emulating 3702-N5 gives the stored ptxas -O3 (and JIT) words in every
/// thread, 38cbad4d's word 1 0x0000eb5c (bf16(0x37)'s low byte 0x5c stored under the taken zero
/// test) and 48a9855d's word 0 0x00ff0000 (`mul.hi.u16` of 83 by the narrowed 0).
#[test]
fn n5_3702_the_campaign_cases_with_a_held_constant_b_give_the_stored_o3_words() {
    for (seed, name, word, stored) in
        [("4603", "38cbad4db958af8d", 1, 0x0000_eb5c), ("4601", "48a9855dcc843c72", 0, 0x00ff_0000)]
    {
        let (p, i) = super::stored_case(seed, name);
        for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
            let want = if w == word { stored } else { s.bits };
            assert_eq!(e.bits, want, "{name} thread {t} word {w}");
        }
    }
}
