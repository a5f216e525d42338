//! Tests of L widened to shift amounts ptxas knows after seed 4503's trace (helper x2, session
//! 46; `emulate/l_shift_by_an_amount_ptxas_knows.rs`): the `shl.b64` of a `cvt.s64.u32` result
//! by a counted loop's counter or a moved immediate sign-extends as by an immediate
//! (corpus/findings/fuzz-h200-4503/trace/T16t5.md, 99b131f4; variants trace/99b131f4/s46/).

use super::*;

const D: Deviation = Deviation::CvtS64U32SignExtends;

/// The loaded word (99b131f4's r12), bit 31 set.
const X: [u32; 4] = [0xa465_3411, 0, 0, 0];

/// `cvt.s64.u32` of the loaded word, then a loop `shl.b64 %d0, %d0, %r20` with the counter from
/// `start` by `step` while below `bound`, and the store of `%d0`.
fn looped(start: u32, step: u32, bound: u32) -> Vec<String> {
    [
        "ld.global.u32 %r12, [%in];".to_string(),
        "cvt.s64.u32 %d0, %r12;".to_string(),
        format!("mov.u32 %r20, {start};"),
        "$L1:".to_string(),
        "shl.b64 %d0, %d0, %r20;".to_string(),
        format!("add.u32 %r20, %r20, {step};"),
        format!("setp.lt.u32 %p3, %r20, {bound};"),
        "@%p3 bra $L1;".to_string(),
        "st.global.b64 [%out], %d0;".to_string(),
    ]
    .to_vec()
}

/// The word zero- and sign-extended, shifted by `k`.
fn spec_and_bug(k: u32) -> (u64, u64) {
    let x = u64::from(X[0]);
    (x << k, (x | 0xFFFF_FFFF_0000_0000) << k)
}

/// 99b131f4 (`reduced.ptx`: two trips by 0 and 3; 13.0.88 -O3 `SHF.R.S32.HI R7, RZ, 0x1f, R2;
/// SHF.L.U64.HI R6, R2, 0x3, R7`): 0xfffffffd2329a088 where the spec gives 0x52329a088. s46:
/// one trip by 3 (`w1`), three by 0, 3, 6 (`w3`), eight by 0 … 7 (`w4`), and a moved amount
/// (T16t5's `v2_moved_amount`) sign-extend alike.
#[test]
fn l_99b131f4_a_loop_counter_amount_sign_extends() {
    let (spec, bug) = spec_and_bug(3);
    assert_eq!((spec, bug), (0x5_2329_a088, 0xffff_fffd_2329_a088));
    exact_case(&strs(&looped(0, 3, 6)), X, D, spec, bug);
    let (spec, bug) = spec_and_bug(3);
    exact_case(&strs(&looped(3, 3, 4)), X, D, spec, bug);
    let (spec, bug) = spec_and_bug(9);
    exact_case(&strs(&looped(0, 3, 9)), X, D, spec, bug);
    let (spec, bug) = spec_and_bug(28);
    exact_case(&strs(&looped(0, 1, 8)), X, D, spec, bug);
    let moved = [
        "ld.global.u32 %r12, [%in];",
        "cvt.s64.u32 %d0, %r12;",
        "mov.u32 %r20, 3;",
        "shl.b64 %d0, %d0, %r20;",
        "st.global.b64 [%out], %d0;",
    ];
    let (spec, bug) = spec_and_bug(3);
    exact_case(&moved, X, D, spec, bug);
}

/// Right (13.0.88 -O3): a loaded amount (s46's `r2`, T16t5's `v3_loaded_amount_right`:
/// `SHF.L.U64.HI R7, R0, R9, RZ`) zero-extends; a total of 32 (`w5`: 0 then 32) shifts the
/// high word out either way.
#[test]
fn l_a_loaded_amount_or_a_total_of_32_is_right() {
    let loaded = [
        "ld.global.u32 %r12, [%in];",
        "ld.global.u32 %r20, [%in+4];",
        "cvt.s64.u32 %d0, %r12;",
        "shl.b64 %d0, %d0, %r20;",
        "st.global.b64 [%out], %d0;",
    ];
    untouched(&loaded, [X[0], 3, 0, 0], D);
    let (s, e, _) = both(&strs(&looped(0, 32, 33)), X, D);
    assert_eq!((s.bits as u64, e.bits as u64), (u64::from(X[0]) << 32, u64::from(X[0]) << 32));
}
