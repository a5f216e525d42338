//! Known root causes reached through producers their first emulations did not look through, as
//! the traces of seed 3701 show them (corpus/findings/fuzz-h200-3701/, `trace/TC1.md` …
//! `trace/TC4.md`): 3301-N3 through a `mov.b32` unpack (12b23716) and E through an integer
//! 16-bit copy (c78de146; seed 3702's 1f3f107d: the identity copies `cvt.u16.u16`,
//! `cvt.s16.s16`), called from the `cvt` hook of `emulate.rs` ([`cvt`]).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction and its producers are exactly the ones its trace shows wrong; it returns `None`
//! (the spec's result stands) otherwise.

use super::fuzz3602::{unchanged_between, writes};
use super::half;
use super::half_cvt_folded_into_rzi::half_cvt_folded;
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// A `cvt`'s result (`c`, at its own width) under the widened scopes of 3301-N3 and E/I.
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let r = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    unpacked_set_f32_truth(m, t, inst, r, c).or_else(|| half_cvt_through_u16_copy(m, t, r, c))
}

/// 3301-N3 through an unpack (corpus/findings/fuzz-h200-3701/, 12b23716, trace/TC1.md;
/// ptxas 13.0.88 and 13.5 -O3): an integer `cvt` with an integer rounding of a half source `h`,
/// where `mov.b32 {h, _}, w` unpacked the low half of a `set.<cmp>.f32` result `w` (unwritten
/// since), gives the set's |word| 1 or 0 (`SEL R0, RZ, 0xffffffff, !P0; IABS R0, R0; PRMT R7,
/// R0, 0x7710`, the same listing as the `cvt.u16.u32` truncation of dced936c, variant
/// `v1_cvt_trunc`), where the spec converts the low half of 1.0 or 0.0, +0. A float
/// destination (`v3_float_dst`) is not folded. The high half compiles the same (`v2_high_half`,
/// right there for `.rmi`: f16 0x3f80 floors to 1) and is folded alike for every integer rounding
/// and type (seed 5801's 1a243a8f, corpus/findings/fuzz-h200-5801/trace/T58A.md, trace/1a243a8f/s58/:
/// `cvt.rni.s64.f16` of the high half is `SEL; IABS`, 1 where f16 1.875 rounds to 2; `.rpi`, a
/// `.u8` destination the same; `.rmi`, `.rzi` and bf16 give the spec's 1 anyway).
fn unpacked_set_f32_truth(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    h: Reg,
    c: Cvt,
) -> Option<(Deviation, Expected)> {
    let d = Deviation::SetRoundTripFolded;
    if !m.allow.emulates(d) || !c.dtype.is_int() || !c.rnd.is_some_and(CvtRnd::is_integer) || !half(c.atype) {
        return None;
    }
    let set = match m.producer(t, h)? {
        (Stmt::Glue { glue, .. }, o) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => o.stmt,
        _ => return None,
    };
    // The statement that wrote `h`: an unguarded `mov.b32 {lo, hi}, w` unpack, `h` either half.
    let (u, mov) = m.p.body[..m.stmt].iter().enumerate().rev().find(|(_, s)| writes(s, h))?;
    let (w, other) = match mov {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
            if mv.shape == MovShape::Unpack(2) =>
        {
            let (low, hi) = match operands.first() {
                Some(Operand::Vector(items)) => {
                    (items.first().and_then(|o| m.reg_of(o).ok()), items.get(1).and_then(|o| m.reg_of(o).ok()))
                }
                _ => (None, None),
            };
            let w = operands.get(1).and_then(|o| m.reg_of(o).ok());
            let other = if low == Some(h) { hi } else { low.filter(|_| hi == Some(h)) };
            (w.filter(|w| (low == Some(h) || hi == Some(h)) && w.class().bits() == 32)?, other)
        }
        _ => return None,
    };
    // The set's word at the unpack: `w` unwritten since, or (corpus/findings/fuzz-h200-3801/,
    // 36330ec5, trace/T4A.md: `mov.b32 %r0, 0` after the unpack, the same 13.0.88 -O3 `SEL; IABS`)
    // the unpacked halves, both unwritten since (`h` is by its finding).
    let of_set = |r: Reg| m.producer(t, r).is_some_and(|(_, o)| o.stmt == set);
    let unchanged = |r: Reg| of_set(r) && unchanged_between(m, r, u, m.stmt);
    let word = if unchanged(w) {
        m.read(t, w).ok().filter(Expected::is_exact)?.bits
    } else {
        let other = other.filter(|&o| unchanged(o))?;
        let (a, b) = (m.read(t, h).ok().filter(Expected::is_exact)?, m.read(t, other).ok().filter(Expected::is_exact)?);
        (a.bits & 0xFFFF) | (b.bits & 0xFFFF)
    };
    let width = inst.operands.first().and_then(|o| m.reg_of(o).ok())?.class().bits();
    Some((d, Expected::exact(u128::from(word & 0xFFFF_FFFF != 0), width)))
}

/// E through an integer copy (corpus/findings/fuzz-h200-3701/, c78de146, trace/TC3.md; ptxas
/// 13.0.88 and 13.5 -O3): `cvt.rzi.<int>.{f16,bf16}` of `cvt.u16.s16` (no `.sat`: the same 16
/// bits, §9.7.9.21) of a cvt between halves folds as E does without the copy
/// (`cvt.f16.f16 → cvt.u16.s16 → cvt.rzi.s64.f16` is one `F2I.S64.F16`, to nearest, where -O0
/// truncates): ptxas drops the copy. So do the identity copies `cvt.u16.u16` and `cvt.s16.s16`
/// (corpus/findings/fuzz-h200-3702/, 1f3f107d, trace/T3C.md: `cvt.rm.f16.bf16 → cvt.u16.u16 →
/// cvt.rzi.sat.u16.f16` is one `F2I.U16.F16.FLOOR` of the raw bf16 bits, ptxas 13.0.88 and
/// 13.5.37 -O3); `cvt.u16.u8` is no copy (it keeps the `F2F`, right). Only these are evidenced.
fn half_cvt_through_u16_copy(m: &Machine<'_>, t: u32, r: Reg, c: Cvt) -> Option<(Deviation, Expected)> {
    let (copy, o) = match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c1), .. }), o) => (*c1, o),
        _ => return None,
    };
    let sixteen_bit_copy = matches!(
        (copy.dtype, copy.atype),
        (CvtType::U16, CvtType::S16) | (CvtType::U16, CvtType::U16) | (CvtType::S16, CvtType::S16)
    );
    let is_copy = sixteen_bit_copy && !copy.sat && copy.rnd.is_none();
    let c0 = match o.a_stmt.map(|k| &m.p.body[k]) {
        Some(Stmt::Isa(Instruction { form: Form::Cvt(c0), .. })) if is_copy => *c0,
        _ => return None,
    };
    half_cvt_folded(m, c, c0, o.a_a.as_ref())
}
