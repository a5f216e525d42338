//! 3701 C1-N2 (`cvt-of-set-f32-converts-1-beside-xor-of-set`) at a narrowing to a BYTE of a
//! `set.<cmp>.f32` word: seed 4602's 15e3e364 (corpus/findings/fuzz-h200-4602/trace/T17t3.md,
//! variants in trace/15e3e364/ and its s46/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3, 13.5 the same): where the program has
//! C1-N2's trigger (a logic op of a predicate-made −1/0, `set_f32_widened_as_its_boolean`'s
//! `logic_of_a_predicate_mask`), ptxas holds the set as its predicate and rebuilds it at the
//! reader. A byte narrowing (§9.7.9.21: the low 8 bits of 0x3f800000, 0) gets the integer 1
//! (`ISETP.NE.U32 P0, R2, RZ; SEL R0, RZ, 0x1, !P0`): `cvt.s8.s16` of `cvt.s16.s32` of the word
//! (the case, `v5_orig_chain_s8`), `cvt.u8.u32` of it (`v3`), `cvt.u8.u16` of `cvt.u16.u32`
//! (s46/w1), `cvt.s8.s32` (s46/w2), a 32-bit destination (s46/w4), the 16-bit step also read by a
//! dead `add` (s46/w9). Right: a 16-bit narrowing alone (`reduced`, `v2`, `v7`, `v8`: `FSEL R, RZ,
//! 1`, 1.0f), no trigger (`v1`, s46/w3: the word's bytes), a loaded word in place of the set
//! (s46/w5), the 16-bit step also stored (s46/w6) and the set word also stored (s46/w8): `FSEL R7,
//! RZ, 1; LOP3 0xff`, the real byte.
//!
//! Invariants: nothing here changes a value unless C1-N2's deviation is emulated; the value is
//! the set's truth as the integer 0/1 at the byte, `None` elsewhere.

use super::j_branch_known_values::observed_only_by;
use super::set_f32_boolean_beside_a_zero_test_split_into_an_arm::zero_test_split_into_an_arm;
use super::set_f32_byte_beside_a_zero_tested_set_f32::zero_tested_set_f32;
use super::set_f32_widened_as_its_boolean::logic_of_a_predicate_mask;
use crate::isa::{Cvt, CvtType, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, SetDst};
use crate::program::Stmt;
use crate::semantics::{Deviation, Expected};

/// Whether `c` is a plain `cvt` (no rounding, `.sat`, `.ftz`, `.relu`, `.satfinite`).
fn plain(c: &Cvt) -> bool {
    !c.sat && !c.relu && !c.satfinite && !c.ftz && c.rnd.is_none()
}

/// The body index of the `set.<cmp>.f32` that wrote the register statement `k` read as its first
/// source (its producer `a_stmt`), where that set's word is observed only by statement `k`.
fn set_read_only_by(m: &Machine<'_>, a_stmt: Option<usize>, k: usize) -> Option<usize> {
    let at = a_stmt?;
    match m.p.body.get(at)? {
        Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => {
            observed_only_by(m, at, glue.dst, k).then_some(at)
        }
        _ => None,
    }
}

/// C1-N2 at `cvt.{u8,s8}.{u32,s32} d, s` of a `set.<cmp>.f32` word s, or at `cvt.{u8,s8}.{u16,s16}
/// d, h` of `h = cvt.{u16,s16}.{u32,s32} s` of one (h and s each read by the next cvt alone), in a
/// program C1-N2's logic trigger is in, or a live zero test of a set.f32 word (seed 4802's 50a1f28c,
/// [`zero_tested_set_f32`]), or a zero test split into a branch arm (seed 4901's 55b28c51,
/// [`zero_test_split_into_an_arm`]): 1 where the set is true, 0 where false (8 bits).
pub(super) fn byte_of_set_f32(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    if !m.allow.emulates(d) || !matches!(c.dtype, CvtType::U8 | CvtType::S8) || !plain(&c) {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (_, o) = m.producer(t, s)?;
    let word = match (c.atype, &m.p.body[o.stmt]) {
        (CvtType::U32 | CvtType::S32, Stmt::Glue { glue, .. }) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => {
            observed_only_by(m, o.stmt, glue.dst, m.stmt).then(|| m.read(t, s).ok()).flatten()?
        }
        (CvtType::U16 | CvtType::S16, Stmt::Isa(first)) => {
            let crate::isa::Form::Cvt(c0) = first.form else { return None };
            let h = first.operands.first().and_then(|x| m.reg_of(x).ok())?;
            let to_16 = matches!(c0.dtype, CvtType::U16 | CvtType::S16)
                && matches!(c0.atype, CvtType::U32 | CvtType::S32)
                && plain(&c0)
                && first.guard.is_none();
            if !to_16 || !observed_only_by(m, o.stmt, h, m.stmt) {
                return None;
            }
            set_read_only_by(m, o.a_stmt, o.stmt)?;
            o.a.clone()?
        }
        _ => return None,
    };
    let triggered = || logic_of_a_predicate_mask(m) || zero_tested_set_f32(m) || zero_test_split_into_an_arm(m);
    if !word.is_exact() || !triggered() {
        return None;
    }
    Some((d, Expected::exact(u128::from(word.bits & 0xFFFF_FFFF != 0), 8)))
}
