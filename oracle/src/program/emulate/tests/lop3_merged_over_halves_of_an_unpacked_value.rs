//! Tests of 3702-N2's lop3(x, y, y) form over the halves of a `mov.b64` unpack of a value that
//! is no pack (seed 5002's 051c9b8e, T21c.md, trace/051c9b8e/s50/; `same_value` in
//! `lop3_merged_through_b64_packs.rs`): `OP(y, lop3(x, y, y, L))` is y OP L(x, y, 0) when y and
//! x are the low and high words of a `cvt.rni.s64.f32` result or of a 64-bit load.

use super::*;

use super::seed_4404_v1::{apply, lop3};

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// −3e9 as an f32: `cvt.rni.s64.f32` gives 0xffffffff_4d2fa200.
const F: u32 = 0xcf32_d05e;
const LO: u32 = 0x4d2f_a200;
const HI: u32 = 0xffff_ffff;

/// 051c9b8e's stored case: every thread's half is the GPU's 0xffff (`LOP3.LUT R7, R6, RZ, R7,
/// 0x3c` = y, the low word of −1), where §9.7.8.6 gives y ^ y = 0.
#[test]
fn n2_051c9b8e_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5002", "051c9b8e5a92ec0f");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((w, s.bits), (0, 0), "thread {t} spec");
        assert_eq!(e.bits, 0xffff, "thread {t} word {w}");
    }
}

/// `d0` from `source`, unpacked, `lop3.b32 r10, r9, r8, r8, L` read by `OP r11, r8, r10`
/// (`OP` first operand `first`) alone, stored.
fn unpacked(source: &[&str], lut: u32, op: &str, c: &str) -> Vec<String> {
    let mut v: Vec<String> = source.iter().map(|s| s.to_string()).collect();
    v.push("mov.b64 {%r8, %r9}, %d0;".into());
    v.push(format!("lop3.b32 %r10, %r9, %r8, {c}, {lut:#x};"));
    v.push(format!("{op}.b32 %r11, %r8, %r10;"));
    v.push("st.global.u32 [%out], %r11;".into());
    v
}

const CVT: [&str; 2] = ["ld.global.u32 %r1, [%in];", "cvt.rni.s64.f32 %d0, %r1;"];
const LOAD: [&str; 1] = ["ld.global.u64 %d0, [%in+8];"];

/// Wrong (v1 0xaa, v5 0x96, `and` as v6, v3 an unpack of a loaded u64): y OP L(x, y, 0).
#[test]
fn n2_051c9b8e_lop3_of_x_y_y_over_unpacked_halves_reads_c_as_zero() {
    for (lut, op) in [(0xaa, "xor"), (0x96, "xor"), (0x96, "and")] {
        let spec = apply(op, LO, lop3(lut, HI, LO, LO));
        let bug = apply(op, LO, lop3(lut, HI, LO, 0));
        exact_case(&strs(&unpacked(&CVT, lut, op, "%r8")), [F, 0, 0, 0], D, u64::from(spec), u64::from(bug));
        exact_case(&strs(&unpacked(&LOAD, lut, op, "%r8")), [0, 0, LO, HI], D, u64::from(spec), u64::from(bug));
    }
}

/// Right (v7): three distinct inputs (the lop3's c a loaded word) keep two LOP3s.
#[test]
fn n2_051c9b8e_a_lop3_of_three_values_stays_the_spec_s() {
    let mut lines = unpacked(&CVT, 0xaa, "xor", "%r2");
    lines.insert(0, "ld.global.u32 %r2, [%in+4];".into());
    untouched(&strs(&lines), [F, 0x1234_5678, 0, 0], D);
}
