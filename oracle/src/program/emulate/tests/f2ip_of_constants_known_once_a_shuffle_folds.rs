//! Tests of 3802 T5A-1 through a shuffle ptxas folds beside a load (seed 4901's 003cb04b,
//! session 49; corpus/findings/fuzz-h200-4901/trace/T20.md, variants in trace/003cb04b/v/ and
//! trace/003cb04b/s49/; `emulate/f2ip_of_constants_known_once_a_shuffle_folds.rs`).

use super::*;

const D: Deviation = Deviation::PackOfNanCvtAndConstantDropped;

/// The stored case: 13.0.88 -O3 emits no `F2IP`, thread t stores t (its %tid.x) as the byte at
/// +12 where §9.7.9.22 gives 0x80 (rzi of −1.655e12 saturated to 0x80000000, then to −128):
/// with the emulation word 3 is any value (the spec's and the GPU's among them), every other
/// word stays the spec's.
#[test]
fn t5a1_3802_003cb04b_stored_case_is_reached() {
    let (p, i) = super::stored_case("4901", "003cb04bd56b5479");
    for (t, w, s, e) in super::words_emulating(&p, &i, D) {
        if w == 3 {
            assert_eq!((s.bits, s.is_exact()), (0x80, true), "thread {t}");
            assert!(e.matches(0x80) && e.matches(t as u128), "thread {t}: {e:?}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// `mov` of `k` to %r0, `shfl`, the load `ld` (or none), the conversion `cvt` of %r0 to %r1, the
/// pack to %r6 and its store.
fn body(k: &str, shfl: &str, ld: &str, cvt: &str, pack: &str) -> Vec<String> {
    let mv = format!("mov.b32 %r0, {k};");
    [mv.as_str(), "mov.b32 %r1, 0;", shfl, ld, cvt, pack, "st.global.b32 [%out], %r6;"]
        .into_iter()
        .flat_map(|l| l.split('\n'))
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

const DOWN: &str = "shfl.sync.down.b32 %r0, %r0, %r0, %r1, -1;";
const LOAD: &str = "ld.global.f32 %r5, [%in+4];";
const RZI: &str = "cvt.rzi.s32.f32 %r1, %r0;";
const PACK_C_R0: &str = "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, %r0;";
const PACK_C_IMM: &str = "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, 0x1234;";

/// Whether emulating `D` makes word 0 of `lines` any value and fires, word 1 staying.
fn any_word(lines: &[String]) {
    let (s, e, fired) = both(&strs(lines), [0; 4], D);
    assert!(s.is_exact() && e.matches(s.bits) && e.matches(s.bits ^ 0x5a5a), "{lines:?}: {e:?}");
    assert!(!e.matches(s.bits ^ (1 << 40)), "{lines:?}: the second word stays");
    assert_eq!(fired, vec![D], "{lines:?}");
}

/// Wrong (13.0.88 -O3 no `F2IP`; 13.5 ICE C7907): the case's body (u0), x = 1.5-ish (u8),
/// 0x4f800000 with c = x (low half 0: u9), c = 0x1234 (u10) or moved (s49 v1), c a second
/// shuffle of 0x10000 (s49 v6), `.idx` + `.rni` + `.u8` (u13), `.up` + `.u32` with a 16-bit
/// load (s49 v7), the load after the pack (s49 v10), a moved NaN x with a shuffled c of 0x10000
/// (s49 v11).
#[test]
fn t5a1_3802_a_pack_of_a_shuffled_constant_beside_a_load_is_any_value() {
    any_word(&body("3552620926", DOWN, LOAD, RZI, PACK_C_R0)); // u0
    any_word(&body("0x3fc0b17e", DOWN, LOAD, RZI, PACK_C_R0)); // u8
    any_word(&body("0x4f800000", DOWN, LOAD, RZI, PACK_C_R0)); // u9
    any_word(&body("0x3fc00000", DOWN, LOAD, RZI, PACK_C_IMM)); // u11
    let moved_c = format!("mov.b32 %r2, 0x1234;\n{RZI}");
    any_word(&body("0x3fc0b17e", DOWN, LOAD, &moved_c, "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, %r2;")); // v1
    let other = format!("{DOWN}\nmov.b32 %r2, 0x10000;\nshfl.sync.bfly.b32 %r2, %r2, 5, 31, -1;");
    any_word(&body("0x3fc0b17e", &other, LOAD, RZI, "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, %r2;")); // v6
    let idx = "shfl.sync.idx.b32 %r0, %r0, 3, 31, -1;";
    let u8_rni = "cvt.pack.sat.u8.s32.b32 %r6, %r1, %r1, %r0;";
    any_word(&body("3552620926", idx, "ld.global.u32 %r5, [%in+4];", "cvt.rni.s32.f32 %r1, %r0;", u8_rni)); // u13
    let up = "shfl.sync.up.b32 %r0, %r0, 2, 0, -1;";
    let u32_ = "cvt.rni.u32.f32 %r1, %r0;";
    let u8_imm = "cvt.pack.sat.u8.s32.b32 %r6, %r1, %r1, 0x77;";
    any_word(&body("0x42c80000", up, "ld.global.u16 %h3, [%in+4];", u32_, u8_imm)); // v7
    let after = format!("{PACK_C_IMM}\nld.global.f32 %r5, [%in+4];\nst.global.f32 [%out+4], %r5;");
    let l = body("0x3fc0b17e", DOWN, "", RZI, &after);
    let (s, e, fired) = both(&strs(&l), [0; 4], D);
    assert!(e.matches(s.bits) && e.matches(s.bits ^ 0x5a5a) && fired == vec![D], "v10: {e:?}");
    let nan_x = format!("mov.b32 %r2, 0x10000;\nshfl.sync.bfly.b32 %r2, %r2, 5, 31, -1;\n{LOAD}");
    any_word(&body("0x7fc00000", "", &nan_x, RZI, "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, %r2;"));
    // v11
}

/// Right (the `F2IP` kept, or no fusion): no load (u1; s49 v12 with a moved NaN x and a
/// shuffled c), x moved (u2), c = 0 immediate (u5), moved 0 (s49 v2), 0x10000 (s49 v3), a loaded
/// c (s49 v5), a shuffled load (u6), a ≠ b (u12), `.rmi` (s49 v8). (s49 v9's guarded shuffle, right too, is no
/// program the oracle runs.)
#[test]
fn t5a1_3802_leaves_unfolded_shuffles_and_register_or_zero_c_alone() {
    let words = [0x3fc0_0000, 0x4000_0000, 0, 0];
    untouched(&strs(&body("3552620926", DOWN, "", RZI, PACK_C_R0)), words, D); // u1
    let c_shfl = "mov.b32 %r2, 0x10000;\nshfl.sync.bfly.b32 %r2, %r2, 5, 31, -1;";
    let pack_r2 = "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, %r2;";
    untouched(&strs(&body("0x7fc00000", "", c_shfl, RZI, pack_r2)), words, D); // v12
    untouched(&strs(&body("3552620926", "", LOAD, RZI, PACK_C_R0)), words, D); // u2
    untouched(&strs(&body("3552620926", DOWN, LOAD, RZI, "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, 0;")), words, D); // u5
    let moved_0 = format!("mov.b32 %r2, 0;\n{RZI}");
    untouched(&strs(&body("0x3fc0b17e", DOWN, LOAD, &moved_0, pack_r2)), words, D); // v2
    let high_only = "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, 0x10000;";
    untouched(&strs(&body("0x3fc0b17e", DOWN, LOAD, RZI, high_only)), words, D); // v3
    let loaded_c = "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r1, %r5;";
    untouched(&strs(&body("0x3fc0b17e", DOWN, LOAD, RZI, loaded_c)), words, D); // v5
    let shfl_load = "shfl.sync.down.b32 %r0, %r7, 1, %r1, -1;";
    untouched(&strs(&body("0", "ld.global.f32 %r7, [%in];", shfl_load, RZI, PACK_C_R0)), words, D); // u6
    let a_ne_b = "cvt.pack.sat.s8.s32.b32 %r6, %r1, %r5, %r0;";
    untouched(&strs(&body("3552620926", DOWN, LOAD, RZI, a_ne_b)), words, D); // u12
    untouched(&strs(&body("0x3fc0b17e", DOWN, LOAD, "cvt.rmi.s32.f32 %r1, %r0;", PACK_C_IMM)), words, D);
    // v8
}
