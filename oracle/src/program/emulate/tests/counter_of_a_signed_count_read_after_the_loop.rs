//! Tests of 3604-N3 past its trip bound with the counter read after the loop (seed 4603's
//! 24adc0f8, session 47; corpus/findings/fuzz-h200-4603/trace/T17t5.md, variants in
//! trace/24adc0f8/ and its s47/, seed 4501's trace/cb86bb27/s46/v9_counter_stored).

use super::*;

const D: Deviation = Deviation::UnsignedLoopExitTestCountedSigned;

/// A loop of `body` with the counter %r2 moved from `start`, stepped by `step` (`add.u32 %r2,
/// %r2, k` or `sub.u32`) under `test` (`setp.<cmp>.u32 %p1, %r2, K`), %r2 stored after it.
fn counted(start: &'static str, body: &[&'static str], step: &'static str, test: &'static str) -> Vec<&'static str> {
    let mut lines = vec![start, "$L0:"];
    lines.extend_from_slice(body);
    lines.extend_from_slice(&[step, test, "@%p1 bra $L0;", "st.global.u32 [%out], %r2;"]);
    lines
}

const FROM_MIN: &str = "mov.u32 %r2, -2147483648;";
const LT_12: &str = "setp.lt.u32 %p1, %r2, 0xc;";

/// The low word of `lines`' output emulating 3604-N3 (with the deviations that fired), and the
/// spec's.
fn counter(lines: &[&str]) -> (Expected, Expected, Vec<Deviation>) {
    let (s, e, fired) = both(lines, [0; 4], D);
    (s.field(0, 32), e.field(0, 32), fired)
}

/// 24adc0f8's campaign case: emulating 3604-N3 alone admits the stored -O3 and JIT word 0,
/// 0xe0000000 (byte 3 = the counter's low byte 0xe0 of 0x80001ae0: 40 peeled trips and one
/// unrolled by 175), in every thread, beside the spec's 0x20000000, and only values whose low
/// five bits (below the step 0x20) are the spec's; the other words stay the spec's.
#[test]
fn n3_24adc0f8_the_campaign_case_admits_the_stored_o3_words() {
    let (p, i) = super::stored_case("4603", "24adc0f84f9cfba2");
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!(fired, vec![D]);
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        let (s0, e0) = (s.field(0, 32), e.field(0, 32));
        assert_eq!((s0.bits, s0.is_exact()), (0x2000_0000, true), "thread {t}");
        assert!(e0.matches(0xe000_0000) && e0.matches(0x2000_0000), "thread {t}");
        assert!(!e0.matches(0xe100_0000) && !e0.matches(0x2000_0001), "thread {t}");
        for w in 1..p.outputs {
            assert_eq!(e.field(32 * w, 32), s.field(32 * w, 32), "thread {t} word {w}");
        }
    }
}

/// The counter stored after such a loop is S + k·(N mod U + U), U ptxas's unroll factor:
/// `reduced` (215 + 350 trips: 0x800046a0), s47 `w1_step_0x18` (k = 24, 286 + 350: 0x80003ba0,
/// its low 3 bits fixed), s47 `w2_down_gt` (a down-count by 0x20 under `gt.u32 0xfffffff0`:
/// 0x7fffb960, spec 0x7fffffc0), cb86bb27's `s46/v9_counter_stored` (5 + 340 trips: 0x80002b20;
/// the shifted register's word stays the spec's, unexplained).
#[test]
fn n3_24adc0f8_a_counter_read_after_a_loop_counted_signed_past_the_bound_is_a_point_of_it() {
    let body = ["xor.b64 %d0, %d0, 0xffff;", "mul.lo.s64 %d1, %d0, 68719476736;"];
    let mut reduced = vec!["mov.b64 %d0, 0;"];
    reduced.extend(counted(FROM_MIN, &body, "add.u32 %r2, %r2, 0x20;", LT_12));
    let (s, e, fired) = counter(&reduced);
    assert_eq!((s.bits, s.is_exact(), fired), (0x8000_0020, true, vec![D]));
    assert!(e.matches(0x8000_46a0) && e.matches(0x8000_0020) && !e.matches(0x8000_46a8));
    let (s, e, _) = counter(&counted(FROM_MIN, &[], "add.u32 %r2, %r2, 0x18;", LT_12));
    assert_eq!(s.bits, 0x8000_0018);
    assert!(e.matches(0x8000_3ba0) && !e.matches(0x8000_3ba4));
    let down = counted("mov.u32 %r2, 0x7fffffe0;", &[], "sub.u32 %r2, %r2, 0x20;", "setp.gt.u32 %p1, %r2, 0xfffffff0;");
    let (s, e, _) = counter(&down);
    assert_eq!(s.bits, 0x7fff_ffc0);
    assert!(e.matches(0x7fff_b960) && !e.matches(0x7fff_b961));
    // cb86bb27's s46/v9_counter_stored: r5 (word 0) the spec's, r13 (word 1) a point of the count.
    let v9 = [
        "ld.global.u32 %r5, [%in];",
        "mov.u32 %r13, -2147483648;",
        "$L3:",
        "shl.b32 %r5, %r5, 0x1;",
        "add.s32 %r13, %r13, 32;",
        "setp.lt.u32 %p3, %r13, 0x7;",
        "@%p3 bra $L3;",
        "st.global.b32 [%out], %r5;",
        "st.global.b32 [%out+4], %r13;",
    ];
    let (s, e, fired) = both(&v9, [0x1234_5679, 0, 0, 0], D);
    assert_eq!((e.field(0, 32), fired), (s.field(0, 32), vec![D]));
    assert!(e.field(32, 32).matches(0x8000_2b20) && !e.field(32, 32).matches(0x8000_2b21));
}

/// Within the trip bound the signed count stays exact (s47 `w3_under_bound_stored`: 32769 trips
/// by 0x10000, `MOV R7, 0x10000`), and a counter not read after the loop is left as before.
#[test]
fn n3_24adc0f8_leaves_counts_within_the_bound_exact() {
    let under = counted(FROM_MIN, &[], "add.u32 %r2, %r2, 0x10000;", LT_12);
    exact_case(&under, [0; 4], D, 0x8001_0000, 0x0001_0000);
    let mut dead = counted(FROM_MIN, &[], "add.u32 %r2, %r2, 0x20;", LT_12);
    dead.pop();
    dead.extend_from_slice(&["mov.u32 %r3, 7;", "st.global.u32 [%out], %r3;"]);
    untouched(&dead, [0; 4], D);
}
