//! 3604-N2's rebuild (`widened-set-f32-compared-with-zero-is-0-or-1`) of a 64-bit integer widening
//! whose set.f32 WORD (not the widened value) a live 32-bit compare tests against 0: seed 6101's
//! dfda7034 (corpus/findings/fuzz-h200-6101/trace/T61C.md, variants in `trace/dfda7034/s61/` with
//! 13.0.88 and 13.5 -O3 listings; helper lc, session 61).
//!
//! Mechanism (ptxas 13.0.88 and 13.5 -O3 identical, the JIT; -O0 right): `set.ne.f32.u16 r1, h0,
//! 0x798a; cvt.u64.u32 d1, r1; set.ne.s32.s32 r5, 0, r1` with d1's low word and r5 read is
//! `ISETP.NE.U32 P0; SEL R9, RZ, 0x1, !P0; SEL R0, RZ, 0xffffffff, !P0`: the zero test of the
//! word is the set's own predicate, and the widening reads the set rebuilt from it as the number
//! 1, where §9.7.9.21 zero-extends the word 0x3f800000. Wrong alike: the test's result stored with
//! no pack (`v4`), a `setp.ne.s32 s, 0` read by a `selp` (`v7`), `set.eq.u32.u32 s, 0` (`v8`), an
//! `.f32` destination (`v9`), the test before the widening (`v13`), the pack reading a loaded word
//! beside it (`v6`). Right: the test dead (`v10`: `SEL -1; IABS; I2F.S16`, the word), a test of
//! another register (`v2`), against 5 (`v5`), no test (`v3`), no widening (`v1`, `v12`: `FSEL R,
//! RZ, 1`, 1.0f).
//!
//! Invariants: a condition on the program's statements and the set's word; `None` (the spec's
//! result stands) unless 3604-N2 is emulated and every condition holds.

use super::super::origin::read_later;
use super::super::{imm_of, reg_of_glue};
use super::last_writer;
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// `cvt.{u64,s64}.{u32,s32} d, s` (plain) of a `set.<cmp>.f32` result s that a live 32-bit
/// compare tests against 0 ([`zero_tested_live`]): 1 where the set is true, 0 where false.
pub(in crate::program::emulate) fn widened(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
) -> Option<(Deviation, Expected)> {
    let d = Deviation::WidenedSetF32ComparedWithZeroIs0Or1;
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz && c.rnd.is_none();
    if !m.allow.emulates(d)
        || !plain
        || !matches!(c.atype, CvtType::S32 | CvtType::U32)
        || !matches!(c.dtype, CvtType::U64 | CvtType::S64)
    {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let set_at = match m.producer(t, s) {
        Some((Stmt::Glue { glue, .. }, o)) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => o.stmt,
        _ => return None,
    };
    if !zero_tested_live(m, set_at, s) {
        return None;
    }
    let word = m.read(t, s).ok().filter(Expected::is_exact)?;
    Some((d, Expected::exact(u128::from(word.bits & 0xFFFF_FFFF != 0), 64)))
}

/// Whether, after body index `k` and before `r` is written again, an unguarded
/// `setp.<cmp>.{u32,s32,b32}` or `set.<cmp>.<dst>.{u32,s32}` compares register `r` with 0 (an
/// immediate, or a register a move of the immediate 0 last wrote) and its result is read later.
fn zero_tested_live(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        if let Stmt::Glue { glue, guard: None } = s {
            let zero = |i: usize| {
                imm_of(glue, i) == Some(0)
                    || reg_of_glue(glue, i).and_then(|x| last_writer(m, j, x)).is_some_and(|(_, w)| {
                        matches!(w, Stmt::Isa(Instruction { form: Form::Mov(_), operands, guard: None, .. })
                            if matches!(operands.get(1), Some(Operand::Imm(Imm::Int(0)))))
                    })
            };
            let with_zero =
                (reg_of_glue(glue, 0) == Some(r) && zero(1)) || (zero(0) && reg_of_glue(glue, 1) == Some(r));
            let compare = match glue.op {
                GlueOp::Setp(_) => matches!(glue.ty, GlueType::U32 | GlueType::S32 | GlueType::B32),
                GlueOp::Set(..) => matches!(glue.ty, GlueType::U32 | GlueType::S32),
                _ => false,
            };
            if compare && with_zero && read_later(m, j, glue.dst) {
                return true;
            }
        }
        if super::writes(s, r) {
            return false;
        }
    }
    false
}
