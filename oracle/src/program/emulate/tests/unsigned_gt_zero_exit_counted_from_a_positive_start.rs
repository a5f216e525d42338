//! Tests of 3604-N3's `setp.gt.u32 i, 0` exit test counted signed from a positive start (seed
//! 4802's 13ad5714, corpus/findings/fuzz-h200-4802/trace/T19v2.md, variants in trace/13ad5714/
//! and its s49/; `emulate/unsigned_gt_zero_exit_counted_from_a_positive_start.rs`).

use super::*;

const D: Deviation = Deviation::UnsignedLoopExitTestCountedSigned;

/// 13ad5714's loop (`shr.u16 h1` of 206 each trip) from `start` by `step` under `test`, h1
/// stored twice as a word.
fn halving(start: &'static str, step: &'static str, test: &'static str) -> [&'static str; 8] {
    [
        "mov.b16 %h1, 206;",
        start,
        "$L0:",
        "shr.u16 %h1, %h1, 0x1;",
        step,
        test,
        "@%p2 bra $L0;",
        "st.global.b32 [%out], %r10;",
    ]
}

/// The stored case (13.0.88 -O3 and the JIT `HFMA2.MMA R7` = 0x00670067, one trip; the spec
/// 0x000c000c, four), every thread.
#[test]
fn n3_13ad5714_gt_zero_from_a_positive_start_is_counted_signed() {
    let (p, i) = stored_case("4802", "13ad5714b308c870");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits, e.bits), (0x000c_000c, 0x0067_0067), "thread {t} word {w}");
    }
}

/// s49's wrong variants with the counter stored: `v8_counter_stored` (0xc0000003 = 4 −
/// 0x40000001, one trip; the spec 0) and `v7_start8_sub40000002` alike (`v3_swapped_lt_0_i`,
/// `lt.u32 0, i`, is wrong alike but the program text takes no immediate first operand).
#[test]
fn n3_13ad5714_variants_from_a_positive_start_leave_after_one_trip() {
    let sub = "sub.u32 %r10, %r10, 0x40000001;";
    exact_case(&halving("mov.u32 %r10, 4;", sub, "setp.gt.u32 %p2, %r10, 0x0;"), [0; 4], D, 0, 0xc000_0003);
    let eight = halving("mov.u32 %r10, 8;", "sub.u32 %r10, %r10, 0x40000002;", "setp.gt.u32 %p2, %r10, 0x0;");
    exact_case(&eight, [0; 4], D, 0, 0xc000_0006);
}

/// Right (13.0.88 -O3 keeps `ISETP.LT.U32 P0, PT, RZ, UR4`): from 0 (`v2_start0_sub40000001`,
/// s49 `v5_gt0_start0_sub40000000`) and from a negative start (s49 `v2_negative_start`: 3 trips,
/// the signed count 1).
#[test]
fn n3_13ad5714_gt_zero_from_zero_or_a_negative_start_is_left_alone() {
    let test = "setp.gt.u32 %p2, %r10, 0x0;";
    untouched(&halving("mov.u32 %r10, 0;", "sub.u32 %r10, %r10, 0x40000000;", test), [0; 4], D);
    untouched(&halving("mov.u32 %r10, 0xc0000000;", "sub.u32 %r10, %r10, 0x40000000;", test), [0; 4], D);
    untouched(&halving("mov.u32 %r10, 0x80000000;", "sub.u32 %r10, %r10, 0x40000000;", test), [0; 4], D);
}
