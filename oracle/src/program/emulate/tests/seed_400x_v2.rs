//! Tests of N-7 (`bfe-s32-past-msb-all-ones`) widened by seeds 4001–4003's traces: a known `a`
//! rescues the bfe only when ptxas computed it in the bfe's own basic block
//! (`emulate/n7_known_within_one_block.rs`), and the start may be a constant a branch fixes.

use super::*;

/// N-7 with a moved `a` (corpus/findings/fuzz-h200-4001/, 375479fd, trace/T7A.md; fuzz-h200-4002/,
/// 38604c4d, trace/T7E.md; 13.0.88 -O3): `mov.b32 a, 7; bfe.s32 d, a, 32, 1` is right (`STG … RZ`),
/// also past a label no branch targets (`v2_label_only`) or with a barrier before the mov (r12);
/// a loop branching back over the mov, a forward branch, or a `bar.sync` between the mov (or any
/// step computing `a` from it) and the bfe give −1 (`MOV R7, 0xffffffff`), where §9.7.1.19 gives
/// the sign of 7, 0.
#[test]
fn n7_a_known_a_is_forgotten_at_a_block_boundary() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |between: &[&'static str]| {
        let head = ["mov.b32 %r6, 7;"];
        let tail = ["bfe.s32 %r10, %r6, 32, 1;", "st.global.b32 [%out], %r10;"];
        [&head[..], between, &tail[..]].concat()
    };
    untouched(&with(&[]), [0; 4], d);
    untouched(&with(&["$L0:"]), [0; 4], d);
    untouched(&with(&["add.u32 %r3, %r6, 3;", "st.global.b32 [%out+4], %r3;"]), [0; 4], d);
    untouched(
        &["bar.sync 0;", "mov.b32 %r6, 7;", "bfe.s32 %r10, %r6, 32, 1;", "st.global.b32 [%out], %r10;"],
        [0; 4],
        d,
    );
    exact_case(&with(&["bar.sync 0;"]), [0; 4], d, 0, 0xFFFF_FFFF);
    exact_case(&with(&["setp.lt.u32 %p0, %r6, 7;", "@%p0 bra $L0;", "$L0:"]), [0; 4], d, 0, 0xFFFF_FFFF);
    let looped = [
        "$L0:",
        "mov.b32 %r6, 7;",
        "setp.lt.u32 %p0, %r6, 7;",
        "@%p0 bra $L0;",
        "bfe.s32 %r10, %r6, 32, 1;",
        "st.global.b32 [%out], %r10;",
    ];
    exact_case(&looped, [0; 4], d, 0, 0xFFFF_FFFF);
    // A chain: the mov before the barrier, the add after it (ptxas 13.0.88 -O3: −1).
    let chain = [
        "mov.b32 %r5, 6;",
        "bar.sync 0;",
        "add.u32 %r6, %r5, 1;",
        "bfe.s32 %r10, %r6, 32, 1;",
        "st.global.b32 [%out], %r10;",
    ];
    exact_case(&chain, [0; 4], d, 0, 0xFFFF_FFFF);
}

/// N-7 with a shuffle between (corpus/findings/fuzz-h200-4003/, a9e9f24e, trace/T7F.md:
/// `mov.b32 r8, 0; shfl.sync …; bfe.s32 r14, r8, 0x3f, 7` is 13.0.88 -O3 `MOV R7, 0xffffffff`;
/// the shuffle after the bfe, `v_shfl_after`, right).
#[test]
fn n7_a_known_a_is_forgotten_past_a_shuffle() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let shfl = "shfl.sync.idx.b32 %r1|%p3, %r0, 18, 2048, -1;";
    let with = |first: &'static str, second: &'static str| {
        [
            "ld.global.b32 %r0, [%in];",
            "mov.b32 %r8, 0;",
            first,
            second,
            "st.global.b32 [%out], %r14;",
            "st.global.b32 [%out+4], %r1;",
        ]
    };
    let bfe = "bfe.s32 %r14, %r8, 0x3f, 0x7;";
    let (s, e, fired) = warp_both(&with(shfl, bfe), [0; 4], d);
    assert_eq!((s.bits as u32, e.bits as u32, e.is_exact(), fired), (0, 0xFFFF_FFFF, true, vec![d]));
    let (s, e, fired) = warp_both(&with(bfe, shfl), [0; 4], d);
    assert_eq!((e, fired), (s, Vec::new()));
}

/// N-7 with a start a branch fixes (corpus/findings/fuzz-h200-4001/, 423e94d2, trace/T7A.md:
/// `setp.ne.u32 p, %tix, 59; @p bra L; bfe.s32 r0, r0, %tix, 10` is 13.0.88 -O3 `@!P0 MOV R7,
/// 0xffffffff`): the fall-through's start is 59, past the msb; a fixed 27 (`v2_K_27`) is a real
/// extract, and `setp.eq; @!p bra` (`v4_eq_notbra`) fixes nothing.
#[test]
fn n7_a_start_a_branch_fixes_past_the_msb_is_folded() {
    let d = Deviation::BfeS32PastMsbAllOnes;
    let with = |setp: &'static str, bra: &'static str| {
        [
            "ld.global.b32 %r9, [%in];",
            "ld.global.b32 %r0, [%in+4];",
            "mov.b32 %r1, 5;",
            setp,
            bra,
            "bfe.s32 %r1, %r0, %r9, 10;",
            "$L1:",
            "st.global.b32 [%out], %r1;",
        ]
    };
    exact_case(&with("setp.ne.u32 %p2, %r9, 59;", "@%p2 bra $L1;"), [59, 0, 0, 0], d, 0, 0xFFFF_FFFF);
    untouched(&with("setp.ne.u32 %p2, %r9, 27;", "@%p2 bra $L1;"), [27, 0, 0, 0], d);
    untouched(&with("setp.eq.u32 %p2, %r9, 59;", "@!%p2 bra $L1;"), [59, 0, 0, 0], d);
}
