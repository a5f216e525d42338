//! Tests of N-7 with a start ptxas knows through an integer `cvt` (seed 4703's 08e15a19,
//! session 47; `emulate/known_through_integer_cvt.rs`; corpus/findings/fuzz-h200-4703/trace/
//! T18u4.md, variants in trace/08e15a19/ and its s47/).

use super::*;

const D: Deviation = Deviation::BfeS32PastMsbAllOnes;

/// `bfe.s32` of a loaded word (5) with `start` as both start and length, stored.
fn with(start: &[&'static str]) -> Vec<&'static str> {
    let mut lines = vec!["ld.global.u32 %r5, [%in];"];
    lines.extend_from_slice(start);
    lines.extend(["bfe.s32 %r1, %r5, %r0, %r0;", "st.global.u32 [%out], %r1;"]);
    lines
}

/// 08e15a19 (`reduced.ptx`: 13.0.88 -O3 folds the bfe to −1): `cvt.s32.u64` of a moved
/// 0xf581e018afb4b858 (start 0x58 = 88); `cvt.u32.u64` (`v3`), `cvt.s32.s16` of a moved 0x58
/// (`v5`) and `cvt.u16.u64; cvt.s32.u16` (`s47/w1`) alike. The spec: the sign of 5, 0.
#[test]
fn n7_08e15a19_the_start_may_be_an_integer_cvt_of_a_moved_immediate() {
    for start in [
        &["mov.b64 %d0, 17690667207919712344;", "cvt.s32.u64 %r0, %d0;"][..],
        &["mov.b64 %d0, 17690667207919712344;", "cvt.u32.u64 %r0, %d0;"],
        &["mov.b16 %h0, 0x58;", "cvt.s32.s16 %r0, %h0;"],
        &["mov.b64 %d0, 17690667207919712344;", "cvt.u16.u64 %h0, %d0;", "cvt.s32.u16 %r0, %h0;"],
    ] {
        let (s, e, fired) = both(&with(start), [5, 0, 0, 0], D);
        assert_eq!((s.bits as u32, s.is_exact()), (0, true), "spec of {start:?}");
        assert_eq!((e.bits as u32, e.is_exact(), fired), (0xffff_ffff, true, vec![D]), "{start:?}");
    }
}

/// Right (13.0.88 -O3 `SHF.R.S32.HI; SGXT`): a guarded `cvt` (`s47/w2`: `SEL` of the loaded and
/// the converted start), a `cvt` of a loaded word (`s47/w3`), a converted start below 32
/// (`s47/w4`, 0x14).
#[test]
fn n7_a_guarded_or_loaded_or_small_converted_start_is_right() {
    let guarded = [
        "ld.global.u32 %r0, [%in+8];",
        "mov.b64 %d0, 17690667207919712344;",
        "ld.global.u32 %r6, [%in+4];",
        "setp.lt.u32 %p0, %r6, 4;",
        "@%p0 cvt.s32.u64 %r0, %d0;",
    ];
    untouched(&with(&guarded), [5, 0, 0x14, 0], D);
    untouched(&with(&["ld.global.u64 %d0, [%in+8];", "cvt.s32.u64 %r0, %d0;"]), [5, 0, 0x58, 0], D);
    untouched(&with(&["mov.b64 %d0, 17690667207919712276;", "cvt.s32.u64 %r0, %d0;"]), [5, 0, 0, 0], D);
}

/// 08e15a19's campaign case: emulating N-7 alone gives the stored ptxas -O3/JIT word 1 (byte 7
/// 0xfe, the spec 0x00: the halves of −1 added) in every thread, and admits the spec's words
/// elsewhere (r1's other readers, the `shr.s32` and the `subc` into the bf16x2 `cvt`, read −1
/// too; their words admit the spec's, the trace's "only byte 7 differs"; the `cvt` of the
/// `subc`'s subnormal makes word 0 a set in the spec already, so `words_emulated_alone`'s
/// exactness does not hold).
#[test]
fn n7_08e15a19_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4703", "08e15a19af705bab");
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits >> 24, s.is_exact()), (0, true), "thread {t} spec");
            assert_eq!((e.bits, e.is_exact()), ((s.bits & 0x00ff_ffff) | 0xfe00_0000, true), "thread {t}");
        } else {
            assert!(e.matches(s.bits), "thread {t} word {w}: {e:?}");
        }
    }
}
