//! Session 58, helper hg (corpus/findings/fuzz-h200-5802/trace/T58G.md): seed 5802's 59f49ca8,
//! O's dropped amount producer `sub.u32 d, z, x` with `z` a `set.{lt,gt,ne}` of one register with
//! itself (`emulate/mul_step_unread_shfl_predicate_folded_zero.rs`, `folded_zero`). 21acc633's
//! tests are in `fp8_pair_built_only_in_its_pack.rs`.

use super::*;

const O: Deviation = Deviation::Shift16ByCnotAmountUnwritten;

/// The stored case: word 0's low half is h9 = h8 ^ (h0 >> (set.lt.f32.s32(r0, r0) - r2), an s32
/// compare with a `.f32` destination, 0.0f): the GPU's
/// 0x0fa8d44a for thread 0 (the shift by the stack pointer R1), spec 0x0fa8d435; the emulated word
/// admits both.
#[test]
fn o_59f49ca8_stored_case_shift_by_a_sub_from_a_self_set_is_any_value() {
    let (p, i) = super::stored_case("5802", "59f49ca863ed7583");
    let mut seen = false;
    for (t, w, s, e) in super::words_emulating(&p, &i, O) {
        assert!(e.matches(s.bits), "59f49ca8 thread {t} word {w}: {e:?}");
        if t == 0 && w == 0 {
            assert_eq!(s.bits, 0x0fa8_d435);
            assert!(!e.is_exact() && e.matches(0x0fa8_d44a), "59f49ca8 thread 0: {e:?}");
            seen = true;
        }
    }
    assert!(seen);
}

/// trace/59f49ca8/s58/o*: `shr.u16 h4, h0, r1` (or `shl.b16`) by `sub.u32 r1, z, r2` with `z` a
/// self-compare ptxas folds to 0: 13.0.88 -O3 shifts by a register nothing wrote (`LOP3.LUT R7,
/// R0, 0xffff; SHF.R.U32.HI R7, RZ, R7, R2`, no load of r2; 13.5 -O3 segfaults): any value. Right:
/// `set.le`, `set.eq` (−1: the amount clamped), two registers (`o8`).
#[test]
fn o_a_16_bit_shift_by_a_sub_from_a_set_of_a_register_with_itself_is_any_value() {
    let at = |set: &str, shift: &str| {
        [
            "ld.global.u32 %r0, [%in];".to_string(),
            "ld.global.u32 %r2, [%in+4];".to_string(),
            "ld.global.u16 %h0, [%in+8];".to_string(),
            format!("{set};"),
            "sub.u32 %r1, %r1, %r2;".to_string(),
            format!("{shift} %h4, %h0, %r1;"),
            "cvt.u32.u16 %r3, %h4;".to_string(),
            "st.global.u32 [%out], %r3;".to_string(),
        ]
    };
    // r0 = 1.5f, r2 = 7: the spec's amount 0xfffffff9 (≥ 16) shifts 0x1234 out: 0.
    let words = [0x3fc0_0000, 7, 0x1234, 0];
    for (set, shift) in [
        ("set.lt.f32.s32 %r1, %r0, %r0", "shr.u16"),
        ("set.gt.f32.s32 %r1, %r0, %r0", "shr.u16"),
        ("set.ne.f32.s32 %r1, %r0, %r0", "shr.u16"),
        ("set.lt.f32.u32 %r1, %r0, %r0", "shr.u16"),
        ("set.lt.s32.s32 %r1, %r0, %r0", "shr.u16"),
        ("set.ne.u32.u32 %r1, %r0, %r0", "shr.u16"),
        ("set.lt.f32.s32 %r1, %r0, %r0", "shl.b16"),
    ] {
        let lines = at(set, shift);
        let (s, e, fired) = both(&strs(&lines), words, O);
        assert_eq!((s.bits as u32, s.is_exact()), (0, true), "{set} {shift}");
        assert!(!e.is_exact() && e.matches(0) && e.matches(0x1234), "{set} {shift}: {e:?}");
        assert_eq!(fired, vec![O], "{set} {shift}");
    }
    for set in ["set.le.f32.s32 %r1, %r0, %r0", "set.eq.f32.s32 %r1, %r0, %r0", "set.lt.f32.s32 %r1, %r0, %r2"] {
        untouched(&strs(&at(set, "shr.u16")), words, O);
    }
}
