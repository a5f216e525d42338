//! 3701-N-D widened by session 47's traces (helper g2;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`), called from
//! `pair_and_half` in `emulate/merge_c_in_place.rs`: the pack's pair element may be an unguarded
//! 16-bit copy of the pair, not the pair conversion itself.
//!
//! Mechanism: ptxas coalesces a copy, so the copy's register is the pair's, and the pair is built
//! in place in the register of the half packed beside the copy as it is beside the pair itself.
//! corpus/findings/fuzz-h200-4601/trace/T17t1.md, f5d8ab7c: `cvt.rn.satfinite.e4m3x2.f32 h0, r3,
//! r2; mov.u16 h1, h0; …; mov.b16 h2, {c0, c0}; st.global.v4.s16 [out], {h4, h0, h1, h2};
//! st.global.v2.s8 [out+10], {h1, h2}` is (13.0.88 and 13.5 -O3) `PRMT R5, R0, 0x6540, R5;
//! F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R5, R7, R6, R5; PRMT R0, R5, 0x7610, R0; PRMT R9, R5,
//! 0x7604, R0; STG.E.U16.STRONG.GPU [+0xa], R9` (byte 11, meant as h2's, is the pair's);
//! `v1_pair_direct` (the cvt writes h1) is the identical listing, `v2_copy_no_overwrite` and
//! `v3_copy_plain_ld` (`MERGE_C R9, R7, R6, R9; …; STG.E.U16 [+0xa], R9`) alike. Helper g2,
//! 13.0.88 -O3 (trace/f5d8ab7c/s47/): a chain of two copies (`w1_copy_chain`), the copy's source
//! still read after the pack (`w2_copy_source_read_after`), a `cvt.u16.u16` copy
//! (`w3_cvt_u16_u16_copy`), a `mov.b16` copy after h is written (`w4_mov_b16_copy_after_h2`):
//! each `MERGE_C R9, R7, R6, R9; …; STG.E.U16 [+0xa], R9`. Right: a GUARDED copy over a loaded
//! old value (`w5_guarded_copy`: `F2FP…MERGE_C R0, R15, R14, RZ; @!P0 LDG.E.U16 R0`, h in R7),
//! a copy of an f16 conversion (`w6_f16_copy_right`: `F2FP.F16.F32.PACK_AB`, no pair).
//!
//! Invariants: decides scope only (whether a register's last writer is such a copy of a pair
//! conversion, at most [`COPY_DEPTH`] copies deep); what the pack's readers take is computed by
//! `merge_c_in_place.rs` (the pair's value, read from the copy, §9.7.9.3 `mov` copies it).

use super::fuzz3701::last_writer;
use super::fuzz3702_conversions::bare;
use super::merge_c_in_place::pair_cvt;
use crate::isa::operand::Operand;
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// How many unguarded copies deep the pair conversion is looked for (`w1_copy_chain` has two).
const COPY_DEPTH: u32 = 4;

/// Whether `s`, at body index `w`, the last writer of a pack's pair element, is an unguarded
/// 16-bit copy (`mov` of a register, or `cvt.u16.u16`) of a register whose last writer before it
/// is a pair conversion in scope (`pair_cvt`), directly or through further such copies (module
/// docs).
pub(super) fn copied_pair(m: &Machine<'_>, w: usize, s: &Stmt) -> bool {
    let (mut w, mut s) = (w, s);
    for _ in 0..COPY_DEPTH {
        let Some(src) = copy_source(m, s) else { return false };
        let Some((v, writer)) = last_writer(m, w, src) else { return false };
        if let Stmt::Isa(Instruction { form: Form::Cvt(cv), guard: None, .. }) = writer {
            return pair_cvt(cv);
        }
        (w, s) = (v, writer);
    }
    false
}

/// The 16-bit register `s` copies, when `s` is an unguarded `mov` of a register into a 16-bit
/// register or an unguarded `cvt.u16.u16` (`w3_cvt_u16_u16_copy`).
fn copy_source(m: &Machine<'_>, s: &Stmt) -> Option<Reg> {
    let Stmt::Isa(Instruction { form, operands, guard: None, .. }) = s else { return None };
    let copies = match form {
        Form::Mov(mv) => mv.shape == MovShape::Copy,
        Form::Cvt(cv) => *cv == bare(CvtType::U16, CvtType::U16, false),
        _ => false,
    };
    let (Some(d), Some(a @ Operand::Name(_))) = (operands.first(), operands.get(1)) else { return None };
    let (d, a) = (m.reg_of(d).ok()?, m.reg_of(a).ok()?);
    (copies && d.class().bits() == 16 && a.class().bits() == 16).then_some(a)
}
