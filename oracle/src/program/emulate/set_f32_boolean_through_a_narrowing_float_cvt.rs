//! 3701 C1-N2 (a `set.f32` rebuilt from its predicate as the boolean and a following `cvt`
//! converting the NUMBER, when an xor reads an integer set's result) where the set's 1.0/0.0 first
//! goes through a narrowing float `cvt.{f16,bf16}.f32` and the `cvt` that converts the number
//! reads that half under another type: seed 4803's 34986b1e (corpus/findings/fuzz-h200-4803/
//! trace/T19v5.md; variants `trace/34986b1e/` and `trace/34986b1e/s49/`; helper x4, session 49).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3, the JIT; -O0 right): `set.ge.f32.s64 r3, 0, d2;
//! cvt.rp.bf16.f32 h0, r3; cvt.bf16.f16 h1, h0` beside `set.gt.s32.u32 r1; xor.b32 r11, r1, x` is
//! `SEL R7, RZ, 0x3f80, !P0` (both F2F gone): ptxas holds the bf16 as a select of the set's
//! predicate and folds `cvt.bf16.f16` by the number (f16 1.0 → bf16 1.0), where §9.7.9.21
//! reads the bits 0x3f80 as f16 1.875 (bf16 0x3ff0). Wrong alike: `reduced`, `s3_orig_no_d0`,
//! `s5_xor_loaded`, `s6_xor_tix_pack`; `s49/v1_set_u32_trigger`; `s49/v2_f16_then_f16_bf16`
//! (`cvt.rn.f16.f32` then `cvt.f16.bf16`: 0x3c00); `s49/v3_bf16_then_f32_f16` (`cvt.f32.f16`:
//! `FSEL R7, RZ, 1`, 1.0f where the spec gives 0x3ff00000). Right: no xor trigger
//! (`v0_no_xor_trigger`, `s1_no_xor`, `s4_set_u32_stored`), a loaded f32 or selp 1.0/0 for the
//! set (`v5`, `v3_selp_one`), `cvt.f32.bf16` (`v7_cvt_f32_f16_second`, `s49/
//! v4_f16_then_f32_bf16_right`: `IMAD.U32 R7, R0, 0x10000`, the exact widening keeps the bits),
//! the narrowed half also stored (`s49/v5_narrowed_also_stored_right`: `F2F.BF16.F16` of the bits).
//! The same listing under 3501-N3's live zero test is `set_truth_through_a_float_cvt_zero_tested.rs`
//! (whose [`float_cvt_of_a_set`] and [`folded_by_number`] decide the form here too).
//!
//! Invariants: the value is the oracle's own conversion of the number 1 (or 0) in the run `cvt`'s
//! source type; `None` unless C1-N2 is emulated, its xor trigger holds
//! ([`xor_reads_an_integer_set`]) and the `cvt`'s source was last written by such a narrowing.

use super::fuzz3701::{last_writer, xor_reads_an_integer_set};
use super::set_truth_made_number_by_a_cvt::folded_by_number;
use super::set_truth_through_a_float_cvt_zero_tested::float_cvt_of_a_set;
use super::{convert, one_in};
use crate::isa::{Cvt, Form, Instruction};
use crate::program::exec::Machine;
use crate::semantics::{Deviation, Expected};

mod of_a_rebuilt_byte;

/// A `cvt` (ptxas folds it by the number, [`folded_by_number`]) whose source the last writer
/// before it is a narrowing float `cvt` of a `set.f32` ([`float_cvt_of_a_set`]), in a program an
/// xor of a set-derived boolean triggers: the `cvt` of the number 1 (or 0) in its source type.
/// A source that is the set's byte narrowing: [`of_a_rebuilt_byte`].
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    // Or of the set's byte narrowing, rebuilt as 0/1 (seed 5702's 03b451b4).
    if let found @ Some(_) = of_a_rebuilt_byte::cvt(m, t, inst, c) {
        return found;
    }
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    if !m.allow.emulates(d) || !folded_by_number(&c) || c.sat || c.relu || c.satfinite {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (k, _) = last_writer(m, m.stmt, s)?;
    float_cvt_of_a_set(m, k)?;
    if !xor_reads_an_integer_set(m) {
        return None;
    }
    let word = m.read(t, s).ok().filter(Expected::is_exact)?;
    let truth = word.bits & ((1u128 << c.atype.bits()) - 1) != 0;
    let one = one_in(c.atype)?;
    Some((d, convert(m, &Form::Cvt(c), if truth { one } else { 0 })?))
}
