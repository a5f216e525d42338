//! 3701 C1-N2 where the `cvt` that converts the NUMBER reads the set's byte narrowing, which
//! ptxas rebuilds as the integer 0/1 (`byte_of_set_f32_beside_logic_of_a_mask.rs`, 15e3e364):
//! seed 5702's 03b451b4 (corpus/findings/fuzz-h200-5702/trace/T57C.md, variants in
//! `trace/03b451b4/s57/` with 13.0.88 and 13.5 -O3 listings; helper h3, session 57).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3 identical, the JIT; -O0 right): `set.gt.f32.s32 r6, r0, 0;
//! cvt.s8.s32 h0, r6; cvt.f16.f16 h4, h0` beside `set.le.s32.u32 r6; mov.b32 {h12, h13}, r6;
//! xor.b16 h16, h13, h4` is `SEL R7, RZ, 0x3c00, !P0`: h4 = 1.0h where §9.7.9.21 converts the byte
//! 0 (the low byte of 0x3f800000) to 0, and 15e3e364's rebuilt 1 would be the f16 bits 0x0001.
//! Wrong alike: `cvt.rni.f16.f16` (`d2`), `cvt.rn.f16.s16` (`d3`), `cvt.bf16.f16` (`d4`: 0x3f80),
//! `cvt.f32.f16` (`d8`: `FSEL R7, RZ, 1`), the converted half stored (`d9`), h0 overwritten after
//! the cvt (`d5`). Right: no trigger (`d6`). The byte also read elsewhere (`d7`) keeps 15e3e364's
//! byte 1 and converts its bits (`HADD2` of 0x0001): not this form.
//!
//! Invariants: the value is the oracle's own conversion of the number 1 (or 0) in the `cvt`'s
//! source type; `None` unless C1-N2 is emulated, its logic trigger holds and the `cvt`'s source
//! is such a byte read by it alone.

use super::super::fuzz3701::last_writer;
use super::super::j_branch_known_values::observed_only_by;
use super::super::set_f32_widened_as_its_boolean::logic_of_a_predicate_mask;
use super::super::set_truth_made_number_by_a_cvt::folded_by_number;
use super::super::{convert, one_in};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, SetDst};
use crate::program::Stmt;
use crate::semantics::{Deviation, Expected};

/// A float `cvt` ptxas folds by the number ([`folded_by_number`]) whose source's last writer is
/// an unguarded plain `cvt.{u8,s8}.{u32,s32}` of a `set.<cmp>.f32` word (that word observed by
/// the byte cvt alone, the byte by this `cvt` alone), in a program with C1-N2's logic trigger
/// ([`logic_of_a_predicate_mask`]): the conversion of the number 1 (the set true) or 0.
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    if !m.allow.emulates(d) || !folded_by_number(&c) || c.sat || c.relu || c.satfinite || c.ftz {
        return None;
    }
    let h = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (k, Stmt::Isa(Instruction { form: Form::Cvt(bc), operands, guard: None, .. })) = last_writer(m, m.stmt, h)?
    else {
        return None;
    };
    let plain = !bc.sat && !bc.relu && !bc.satfinite && !bc.ftz && bc.rnd.is_none();
    let byte = matches!(bc.dtype, CvtType::U8 | CvtType::S8) && matches!(bc.atype, CvtType::U32 | CvtType::S32);
    if !plain || !byte || !observed_only_by(m, k, h, m.stmt) {
        return None;
    }
    let s = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (j, set) = last_writer(m, k, s)?;
    let of_set_f32 = matches!(set, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    if !of_set_f32 || !observed_only_by(m, j, s, k) || !logic_of_a_predicate_mask(m) {
        return None;
    }
    // The set's word where the byte cvt read it (the register may be written again after).
    let (_, o) = m.producer(t, h)?;
    let word = o.a.as_ref().filter(|v| v.is_exact())?;
    let one = one_in(c.atype).or_else(|| c.atype.is_int().then_some(1))?;
    let number = if word.bits & 0xFFFF_FFFF != 0 { one } else { 0 };
    Some((d, convert(m, &Form::Cvt(c), number)?))
}
