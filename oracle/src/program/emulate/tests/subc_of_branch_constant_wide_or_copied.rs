//! Tests of 3602-N3 (`subc-of-branch-constant-adds-it`, `emulate/fuzz3602.rs`) in the forms
//! seeds 6001 and 6002 found (corpus/findings/fuzz-h200-6001/trace/T60A.md): the 64-bit `subc`
//! of a `setp.ne.u64` fact (4ce75ab2) and the subtrahend a copy of the compared register
//! (9abc666c). Each fails with its widening undone.

use super::*;

const D: Deviation = Deviation::SubcOfBranchConstantAddsIt;

/// The 64-bit frame: d2 = words 0–1 (compared with `k`), d0 = words 2–3, `sub.cc.u64` by 0 and
/// `subc` (`subc`'s text given) on the fall-through, the result stored.
fn wide(setp: &'static str, subc: &'static str) -> Vec<&'static str> {
    vec![
        "ld.global.u64 %d2, [%in];",
        "ld.global.u64 %d0, [%in+8];",
        setp,
        "@%p0 bra $L0;",
        "sub.cc.u64 %d1, %d0, 0;",
        subc,
        "$L0:",
        "st.global.u64 [%out], %d0;",
    ]
}

/// 4ce75ab2 (stored case): `subc.cc.u64 %d0, %d1, %d2` with d2 = 1 fixed by `setp.ne.u64 %d2,
/// 0x1`, d1 = 0: 13.0.88 -O3 `IADD3.X R10, P1, R10, 0x1; IMAD.X R11, RZ, RZ, R11, P1` gives 2
/// (0 + 1 + 1), the spec 0xffffffffffffffff; every thread's two words the GPU's.
#[test]
fn n3_4ce75ab2_subc_u64_of_a_u64_branch_fact_adds_it() {
    let (p, i) = stored_case("6001", "4ce75ab290c1b531");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        if w < 2 {
            assert_eq!((s.bits, e.bits), (0xFFFF_FFFF, [2, 0][w as usize]), "thread {t} word {w}");
        }
    }
}

/// The 64-bit forms (4ce75ab2's s60/): K with a high word (`a4`: `IADD3.X R11, R11, 0x1`), a
/// negative K (`a5`), `setp.ne.s64` (`a2`; `.b64`, `a3`, alike, a form the generator does not
/// write), `subc.s64` (`a9`), `subc` without `.cc` (`a1`), a 64-bit copy of d2 (`a10`) — the
/// word + 2K + 1 mod 2^64.
#[test]
fn n3_subc_64_forms_of_the_branch_fact_add_k() {
    let hi = wide("setp.ne.u64 %p0, %d2, 0x100000001;", "subc.cc.u64 %d0, %d1, %d2;");
    exact_case(&hi, [1, 1, 5, 0], D, 0xFFFF_FFFF_0000_0004, 0x1_0000_0007);
    let neg = wide("setp.ne.s64 %p0, %d2, -5;", "subc.s64 %d0, %d1, %d2;");
    exact_case(&neg, [0xFFFF_FFFB, 0xFFFF_FFFF, 7, 0], D, 12, 3);
    let plain = wide("setp.ne.u64 %p0, %d2, 0x1;", "subc.u64 %d0, %d1, %d2;");
    exact_case(&plain, [1, 0, 0, 0], D, u64::MAX, 2);
    let mut copied = wide("setp.ne.u64 %p0, %d2, 0x1;", "subc.cc.u64 %d0, %d1, %d3;");
    copied.insert(5, "mov.b64 %d3, %d2;");
    exact_case(&copied, [1, 0, 0, 0], D, u64::MAX, 2);
}

/// Right (13.0.88 -O3 `~R4`, `~R5`): a `setp.eq` fact (`a6`), `sub.u64` (`a7`); and the fact's
/// constant not the value (another thread's path).
#[test]
fn n3_subc_64_without_the_fact_is_right() {
    let eq = [
        "ld.global.u64 %d2, [%in];",
        "ld.global.u64 %d0, [%in+8];",
        "setp.eq.u64 %p0, %d2, 0x1;",
        "@!%p0 bra $L0;",
        "sub.cc.u64 %d1, %d0, 0;",
        "subc.cc.u64 %d0, %d1, %d2;",
        "$L0:",
        "st.global.u64 [%out], %d0;",
    ];
    untouched(&eq, [1, 0, 0, 0], D);
    let sub = wide("setp.ne.u64 %p0, %d2, 0x1;", "sub.u64 %d0, %d1, %d2;");
    untouched(&sub, [1, 0, 0, 0], D);
}

/// The 64-bit borrow out (4ce75ab2's `s60/a14`: the next `subc.u64 %d4, %d0, 0` is `IADD3.X R6,
/// P1, R10, -0x1` of the high `IADD3.X R11, P1, R11, -0x1`'s carry): none where a + K + 1
/// carries out of 64 bits (7 + 0xfffffffffffffffb + 1), so d4 = d0 = 3; the spec 12 − 1 = 11.
#[test]
fn n3_subc_cc_u64_borrows_as_the_64_bit_addition_carries() {
    let mut lines = wide("setp.ne.u64 %p0, %d2, 0xfffffffffffffffb;", "subc.cc.u64 %d0, %d1, %d2;");
    lines.insert(6, "subc.u64 %d4, %d0, 0;");
    lines.push("st.global.u64 [%out], %d4;");
    exact_case(&lines, [0xFFFF_FFFB, 0xFFFF_FFFF, 7, 0], D, 11, 3);
}

/// 9abc666c (stored case): `mov.b32 %r0, %tix; sub.cc.u32 %r1, %r0, 0; subc.cc.u32 %r0, %tix,
/// %r0` on the fall-through of `setp.ne.u32 %p1, %tix, 0x4`: 13.0.88 -O3 `IADD3.X R5, R0, 0x4`
/// with R0 = 4 gives 9 for thread 4, the spec 0; the other threads skip it.
#[test]
fn n3_9abc666c_subc_of_a_copy_of_the_compared_register_adds_k() {
    let (p, i) = stored_case("6002", "9abc666cd2bbdcff");
    for (t, w, s, e) in words_emulated_alone(&p, &i, D) {
        let gpu = if (t, w) == (4, 0) { 9 } else { s.bits };
        assert_eq!(e.bits, gpu, "thread {t} word {w}");
    }
}

/// The copy's forms (9abc666c's s60/): made before the branch (`b2`), two copies (`b3`), a copy
/// of a loaded word (`b7`), a loaded minuend (`b4`), `subc.s32` (`b6`) — all `IADD3.X …, 0x4`.
#[test]
fn n3_subc_32_of_a_copied_subtrahend_adds_k() {
    let frame = |copies: &[&'static str], subc: &'static str| {
        let mut lines = vec!["ld.global.u32 %r4, [%in];", "ld.global.u32 %r5, [%in+4];"];
        lines.extend_from_slice(copies);
        lines.extend(["setp.ne.u32 %p1, %r4, 0x4;", "@%p1 bra $L1;", "sub.cc.u32 %r1, %r5, 0;", subc]);
        lines.extend(["$L1:", "st.global.b32 [%out], %r0;"]);
        lines
    };
    let before = frame(&["mov.b32 %r0, 0;", "mov.b32 %r3, %r4;"], "subc.cc.u32 %r0, %r5, %r3;");
    exact_case(&before, [4, 10, 0, 0], D, 6, 15);
    let mut in_arm = frame(&["mov.b32 %r0, 0;"], "subc.s32 %r0, %r5, %r6;");
    in_arm.splice(5..5, ["mov.b32 %r3, %r4;", "mov.b32 %r6, %r3;"]);
    exact_case(&in_arm, [4, 10, 0, 0], D, 6, 15);
}
