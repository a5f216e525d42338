//! Tests of G through shift amounts ptxas folds (`emulate/g_shift_amounts_ptxas_folds.rs`): the
//! amount 16 in a register ptxas knows (seed 4803's f97ff996) and a shift by 0 between the
//! `shr.s16` and the `cvt` (seed 4801's 0a2a189e); variants in their trace folders' s48/.

use super::*;

const D: Deviation = Deviation::ShrS16By16ReadsSource;

/// The byte 0x01 (f16 2^−24, bf16 0x3380) and 0xfe (f16 0x00fe, bf16 0x377e) in word 0.
const BYTES: [u32; 4] = [0x0000_fe01, 16, 0, 0];

/// `ld.global.u8 %h0` of byte `at`, then `glue` (writing %h1 last), `cvt.bf16.f16` of %h1, stored.
fn chain(at: u32, glue: &[&str]) -> Vec<String> {
    let mut lines = vec![format!("ld.global.u8 %h0, [%in+{at}];")];
    lines.extend(glue.iter().map(|g| g.to_string()));
    lines.extend(["cvt.bf16.f16 %h2, %h1;".to_string(), "st.global.u16 [%out], %h2;".to_string()]);
    lines
}

/// G admits bf16 `bug` beside the spec's 0 and fires.
fn admits(lines: &[String], bug: u32) {
    let (s, e, fired) = both(&strs(lines), BYTES, D);
    let (s, e) = (s.field(0, 16), e.field(0, 16));
    assert!(s.matches(0) && !s.matches(u128::from(bug)), "spec of {lines:?}: {s:?}");
    assert!(e.matches(u128::from(bug)) && e.matches(0), "G of {lines:?}: {e:?}");
    assert_eq!(fired, vec![D], "{lines:?}");
}

/// Wrong (13.0.88 -O3 `F2F.BF16.F16 R7, R2` of the unshifted byte): the amount a moved 16
/// (f97ff996), a copy of one (`s48/v8_amount_copied_from_moved_16`); a `shl.b16 … 0` after the
/// shift (0a2a189e), `shr.s16 … 0` (`s48/v7_shr_s16_by_0`), `shr.u16 … 0` (`v4_shr_u16_by_0`), a
/// `shl.b16` by a moved 0 (`s48/v9_shl_by_moved_0`).
#[test]
fn g_a_shift_amount_ptxas_folds_converts_the_unshifted_byte() {
    admits(&chain(0, &["mov.s32 %r0, 16;", "shr.s16 %h1, %h0, %r0;"]), 0x3380);
    admits(&chain(0, &["mov.s32 %r1, 16;", "mov.b32 %r0, %r1;", "shr.s16 %h1, %h0, %r0;"]), 0x3380);
    admits(&chain(1, &["shr.s16 %h3, %h0, 0x10;", "shl.b16 %h1, %h3, 0x0;"]), 0x377e);
    admits(&chain(1, &["shr.s16 %h3, %h0, 0x10;", "shr.s16 %h1, %h3, 0x0;"]), 0x377e);
    admits(&chain(1, &["shr.s16 %h3, %h0, 0x10;", "shr.u16 %h1, %h3, 0x0;"]), 0x377e);
    admits(&chain(1, &["shr.s16 %h3, %h0, 0x10;", "mov.b32 %r3, 0;", "shl.b16 %h1, %h3, %r3;"]), 0x377e);
}

/// Right (13.0.88 -O3 keeps the shift or its clamped 0): a loaded amount 16
/// (`s48/v7_loaded_amount_16`: `SHF.R.S32.HI R0, RZ, R7, R0`), moved amounts 15 and 65552
/// (`v2_reg15`, `s48/v9_amount_65552`), a shift by 1 (`v2_shl_by_1`) and by 65536
/// (`s48/v8_shl_by_65536`: `F2F.BF16.F16 R5, RZ`) after the `shr`.
#[test]
fn g_leaves_amounts_ptxas_does_not_fold_to_16_or_0_alone() {
    untouched(&strs(&chain(0, &["ld.global.u32 %r0, [%in+4];", "shr.s16 %h1, %h0, %r0;"])), BYTES, D);
    untouched(&strs(&chain(0, &["mov.s32 %r0, 15;", "shr.s16 %h1, %h0, %r0;"])), BYTES, D);
    untouched(&strs(&chain(0, &["mov.s32 %r0, 65552;", "shr.s16 %h1, %h0, %r0;"])), BYTES, D);
    untouched(&strs(&chain(1, &["shr.s16 %h3, %h0, 0x10;", "shl.b16 %h1, %h3, 0x1;"])), BYTES, D);
    let by_65536 = ["shr.s16 %h3, %h0, 0x10;", "mov.b32 %r3, 65536;", "shl.b16 %h1, %h3, %r3;"];
    untouched(&strs(&chain(1, &by_65536)), BYTES, D);
}

/// The campaign cases (32 threads): G alone admits the stored ptxas -O3/JIT word 0 of every
/// thread — bf16 0x3380 of f97ff996 in bits [31:16], 0x7e (the low byte of bf16 0x377e) of
/// 0a2a189e in byte 3 — beside the spec's 0.
#[test]
fn g_the_seed_4801_4803_cases_admit_the_stored_o3_words() {
    for (seed, name, word) in [("4803", "f97ff99638fef72f", 0x3380_0000_u32), ("4801", "0a2a189eeab83f04", 0x7e00_0000)]
    {
        let (p, i) = stored_case(seed, name);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!(fired, vec![D], "{name}");
        for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
            let (s, e) = (s.field(0, 32), e.field(0, 32));
            assert!(s.matches(0) && !s.matches(u128::from(word)), "{name} thread {t}: the spec {s}");
            assert!(e.matches(u128::from(word)), "{name} thread {t}: {e} does not admit {word:#x}");
        }
    }
}
