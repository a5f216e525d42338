//! Tests of 3801-N2 through a shuffled register ptxas knows holds a constant (seed 4602's
//! 25d80a8d and 21c3de6f, session 46; corpus/findings/fuzz-h200-4602/trace/T17t3.md, variants in
//! trace/25d80a8d/ and its s46/; `emulate/shfl_of_a_register_ptxas_knows.rs`).

use super::seed_3801_new::{warp_case, warp_untouched};
use super::*;

/// The shuffled register written by `source`, shuffled `.up` into %r2, `min.s32` of
/// `1023 − x` (x loaded) and 0, stored.
fn min_of_sub(source: &'static str) -> [&'static str; 7] {
    [
        "mov.b32 %r0, 1000;",
        source,
        "shfl.sync.up.b32 %r2, %r1, 14, 2048, -1;",
        "ld.acquire.sys.global.u32 %r3, [%in];",
        "sub.s32 %r4, %r2, %r3;",
        "min.s32 %r5, %r4, 0;",
        "st.global.b32 [%out], %r5;",
    ]
}

/// 25d80a8d (the case's body; 13.0.88 -O3 `VIADDMNMX R7, R2, 0xfffffc01, RZ, PT`): with x = 0
/// the spec's min(1023 − 0, 0) = 0, the GPU's min(0 − 1023, 0) = 0xfffffc01; the same for a copy
/// of a moved 1023 (`s46/v7`), `add`/`xor` glue making it (`s46/v5`, `s46/v6`) and a shuffle of
/// an immediate (`s46/v10`). 21c3de6f's chain (`reduced.ptx`, `VIADDMNMX.U32 R0, R2, 0x9fdff17b,
/// RZ, !PT`): `max.u32` of a moved 0 and K − x, K the float bits a `mov.f32` moved.
#[test]
fn n2_3801_a_shuffled_register_holding_a_constant_is_read_reversed() {
    let d = Deviation::SubOfShuffledImmediateReversedInMinMax;
    for source in [
        "mov.b32 %r1, 1023;",
        "mov.b32 %r1, %r6;",
        "add.s32 %r1, %r0, 23;",
        "xor.b32 %r1, %r0, 23;",
        "shfl.sync.bfly.b32 %r1, 1023, 3, 31, -1;",
    ] {
        let mut body = min_of_sub(source).to_vec();
        body.insert(0, "mov.b32 %r6, 1023;");
        // 1000 ^ 23 = 1023 as well.
        warp_case(&body, [0; 4], d, 0, 0xffff_fc01);
    }
    let max_u32 = [
        "mov.f32 %r0, 0f60200E85;",
        "shfl.sync.bfly.b32 %r0, %r0, 11, 4186767715, -1;",
        "ld.global.s32 %r1, [%in];",
        "sub.u32 %r3, %r0, %r1;",
        "mov.b32 %r4, 0;",
        "max.u32 %r6, %r4, %r3;",
        "st.global.b32 [%out], %r6;",
    ];
    warp_case(&max_u32, [0; 4], d, 0x6020_0e85, 0x9fdf_f17b);
}

/// Right (`SHFL` kept, `VIADDMNMX R7, R0, -R7, RZ`): a loaded shuffled value (`s46/v8`) and a
/// register a guarded move wrote (`s46/v9`).
#[test]
fn n2_3801_a_shuffled_register_ptxas_does_not_know_is_left_alone() {
    let d = Deviation::SubOfShuffledImmediateReversedInMinMax;
    warp_untouched(&min_of_sub("ld.global.u32 %r1, [%in+4];"), [0, 1023, 0, 0], d);
    let mut guarded = min_of_sub("@%p1 mov.b32 %r1, 1023;").to_vec();
    guarded.splice(0..0, ["ld.global.u32 %r7, [%in+4];", "setp.eq.u32 %p1, %r7, 7;", "mov.b32 %r1, 5;"]);
    warp_untouched(&guarded, [0, 7, 0, 0], d);
}

/// The campaign cases (32 threads, all inputs 0): emulating 3801-N2 alone gives the stored
/// -O3/JIT word 0 in every thread (25d80a8d: 0xfffffc01; 21c3de6f: 0x00007b00, byte 1 the low
/// byte of max(0 − K, 0)) and the spec's other words.
#[test]
fn n2_3801_25d80a8d_and_21c3de6f_the_campaign_cases_give_the_stored_o3_words() {
    let d = Deviation::SubOfShuffledImmediateReversedInMinMax;
    for (case, word0) in [("25d80a8d184db946", 0xffff_fc01_u128), ("21c3de6faa4d138c", 0x0000_7b00)] {
        let (p, i) = super::stored_case("4602", case);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
        assert_eq!(fired, vec![d], "{case}");
        for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
            for w in 0..p.outputs {
                let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
                assert!(e.is_exact(), "{case} thread {t} word {w}");
                assert_eq!(e.bits, if w == 0 { word0 } else { s.bits }, "{case} thread {t} word {w}");
            }
        }
    }
}
