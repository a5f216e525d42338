//! The register-program emulations of known compiler root causes ([`Deviation`]s of
//! [`Scope::Program`]): what the interpreter computes instead of the spec's result where a
//! `corpus/known/` root cause applies, when triage switches the deviation on
//! ([`crate::semantics::Allowances::emulating`]). Nothing here changes a result otherwise.
//!
//! A root cause is scoped by the instruction that consumes a value and by where that value was
//! made: each thread remembers, per register, the statement that wrote its value ([`Origin`];
//! `mov` copies and unpacks are looked through, so a value keeps its producer when moved or
//! split; every other write, shuffles included, makes the writer the producer). The hooks are called by the interpreter
//! with the spec's result and give it back changed where an emulation applies ([`glue`],
//! [`carry`], [`skipped_glue`], [`isa`], [`stored`]); each change of a value is recorded as the
//! deviation having fired. A `cvt` producer also records its source value and that value's
//! producer (3301-N3 looks two producers back), a glue producer its first source value (G).
//!
//! Invariants:
//! - Without a program deviation emulated the machine records no origins and the hooks are not
//!   called (the interpreter checks [`Machine::emulating`] first).
//! - A hook only changes the destination (or, [`carry`], the carry flag) of the instruction it
//!   is called for, or ([`skipped_glue`]) what a skipped one leaves there, and only when the
//!   instruction and its source's producer are the ones its deviation's evidence names
//!   (`oracle::semantics::deviation` documents each); a set-valued deviation keeps the spec's
//!   bits (or the evidenced conversion) as the one admissible value it names.

use super::exec::Machine;
use super::glue::{Cmp, Glue, GlueOp, GlueType, SetDst, Src};
use super::interp::InterpError;
use super::{Reg, Stmt};

use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape, MovType, St};
use crate::semantics::operands::{evaluate, Input, Output};
use crate::semantics::{Allowance, Constraint, Deviation, Expected, Free};

/// Where the value a register holds was made.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Origin {
    /// The producing statement (body index); `mov` copies looked through.
    pub(super) stmt: usize,
    /// The producer's first source value (`a`), for a `cvt` or glue producer.
    pub(super) a: Option<Expected>,
    /// The statement that produced that first source's value, for a `cvt` producer reading a
    /// register whose producer is recorded.
    pub(super) a_stmt: Option<usize>,
}

/// `e` as a set-valued result: any value, `e`'s bits the one it names.
fn anything(e: Expected) -> Expected {
    let width = e.width;
    Expected {
        bits: e.bits,
        width,
        free: vec![Free { shift: 0, width, constraint: Constraint::Any, allowance: Allowance::Undefined }],
    }
}

/// Whether a `cvt` writes a float type (what an 8-bit store of its register converts, A).
fn float_dtype(t: CvtType) -> bool {
    matches!(t, CvtType::F16 | CvtType::Bf16 | CvtType::F32 | CvtType::Tf32 | CvtType::F16x2 | CvtType::Bf16x2)
}

/// Whether `t` is `.f16` or `.bf16`.
fn half(t: CvtType) -> bool {
    matches!(t, CvtType::F16 | CvtType::Bf16)
}

/// The signed integer type of the width of `t` (an unsigned one).
fn signed_of(t: CvtType) -> Option<CvtType> {
    Some(match t {
        CvtType::U8 => CvtType::S8,
        CvtType::U16 => CvtType::S16,
        CvtType::U32 => CvtType::S32,
        CvtType::U64 => CvtType::S64,
        _ => return None,
    })
}

/// The result `d` of `form` on source `a` (through the oracle's own semantics), if exact.
fn convert(m: &Machine<'_>, form: &Form, a: u128) -> Option<Expected> {
    let values = [("a".to_string(), Input::Scalar(a))].into_iter().collect();
    let out = evaluate(form, &values, None, m.allow).ok()?;
    out.into_iter().find(|(n, _)| n == "d").and_then(|(_, o)| match o {
        Output::Bits(e) => Some(e),
        _ => None,
    })
}

/// The `cvt` form named by `opcode` (a form the oracle models).
fn cvt_form(opcode: &str) -> Option<Form> {
    Form::parse_opcode(opcode).ok()
}

impl Machine<'_> {
    /// The producer of the value register `r` of thread `t` holds, if recorded.
    fn producer(&self, t: u32, r: Reg) -> Option<(&Stmt, &Origin)> {
        let o = self.origins.get(t as usize)?.get(&r)?;
        Some((&self.p.body[o.stmt], o))
    }

    /// The `cvt` that produced the value of the register operand `o` of thread `t`.
    fn cvt_producer(&self, t: u32, o: Option<&Operand>) -> Option<(Cvt, &Origin)> {
        let r = self.reg_of(o?).ok()?;
        match self.producer(t, r)? {
            (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), origin) => Some((*c, origin)),
            _ => None,
        }
    }

    /// Records that `d` changed `from` into `to` (when it did) and gives `to`.
    fn fire(&mut self, d: Deviation, from: &Expected, to: Expected) -> Expected {
        if &to != from {
            self.fired.insert(d);
        }
        to
    }

    /// The origin the statement being run gives the registers it writes in thread `t`: a `mov`
    /// copy or unpack of a register passes on that register's origin (its halves keep their
    /// producer), every other writer is the producer (with its first source value, and that
    /// value's producer, for a `cvt`).
    pub(super) fn origin_of(&self, t: u32, inst: &Instruction) -> Option<Origin> {
        match &inst.form {
            Form::Mov(mv) if matches!(mv.shape, MovShape::Copy | MovShape::Unpack(_)) && mv.ty != MovType::F32 => {
                let r = self.reg_of(inst.operands.get(1)?).ok()?;
                self.origins[t as usize].get(&r).cloned()
            }
            Form::Cvt(_) => {
                let a = inst.operands.get(1).and_then(|o| self.source(t, o, 64).ok());
                let r = inst.operands.get(1).and_then(|o| self.reg_of(o).ok());
                let a_stmt = r.and_then(|r| self.origins[t as usize].get(&r)).map(|o| o.stmt);
                Some(Origin { stmt: self.stmt, a, a_stmt })
            }
            _ => Some(Origin { stmt: self.stmt, a: None, a_stmt: None }),
        }
    }
}

/// Whether the value register `r` of thread `t` holds is f32-typed: loaded as `.f32`, written
/// by a `cvt` to `.f32` or by `mov.f32` (B).
fn f32_typed(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    match m.producer(t, r) {
        Some((Stmt::Isa(i), _)) => match &i.form {
            Form::Ld(l) => l.ty == MemType::F32,
            Form::LdGlobalNc(l) => l.ty == MemType::F32,
            Form::Cvt(c) => c.dtype == CvtType::F32,
            Form::Mov(mv) => mv.ty == MovType::F32,
            _ => false,
        },
        _ => false,
    }
}

/// Whether the value register `r` of thread `t` holds was written by `abs`/`neg` of a signed
/// type (F).
fn negated(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(
        m.producer(t, r),
        Some((Stmt::Glue { glue, .. }, _))
            if matches!(glue.op, GlueOp::Abs | GlueOp::Neg)
                && matches!(glue.ty, GlueType::S16 | GlueType::S32 | GlueType::S64)
    )
}

/// The immediate source `k` of `g`, if it is one.
fn imm_of(g: &Glue, k: usize) -> Option<u64> {
    match g.src.get(k).copied().flatten() {
        Some(Src::Imm(v)) => Some(v),
        _ => None,
    }
}

/// Whether `v` is the minimum of a signed type of `width` bits.
fn is_min(v: &Expected, width: u32) -> bool {
    v.is_exact() && width > 0 && width <= 64 && v.bits & ((1u128 << width) - 1) == 1u128 << (width - 1)
}

/// A glue instruction's result under the emulated deviations: `result` (the spec's) changed
/// where B, F, M, N-7 or N-8 applies. `vals` are its source values.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: Expected) -> Expected {
    let reg = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    };
    // B: a 64-bit shift by an f32-typed amount shifts by the low word of its conversion to a
    // u64 (`F2I.U64.TRUNC`, then the shift's own clamp of that word).
    if m.allow.emulates(Deviation::F32ShiftAmount)
        && matches!(g.op, GlueOp::Shl | GlueOp::Shr)
        && g.ty.bits() == 64
        && vals.iter().all(Expected::is_exact)
        && reg(1).is_some_and(|r| f32_typed(m, t, r))
    {
        if let Some(amount) = cvt_form("cvt.rzi.u64.f32").and_then(|f| convert(m, &f, vals[1].bits & 0xFFFF_FFFF)) {
            if amount.is_exact() {
                let low = amount.bits as u64 & 0xFFFF_FFFF;
                let v = Expected::exact(u128::from(g.eval([vals[0].bits as u64, low, 0, 0], false)), 64);
                return m.fire(Deviation::F32ShiftAmount, &result, v);
            }
        }
    }
    // 3301-N1: a 16-bit shift by an immediate of 2^16 or more shifts by its low 16 bits.
    if m.allow.emulates(Deviation::Shift16ImmediateLowHalf)
        && matches!(g.op, GlueOp::Shl | GlueOp::Shr)
        && g.ty.bits() == 16
        && vals.first().is_some_and(Expected::is_exact)
    {
        if let Some(amount) = imm_of(g, 1).filter(|&v| v & 0xFFFF_FFFF > 0xFFFF) {
            let v =
                Expected::exact(u128::from(g.eval([vals[0].bits as u64, amount & 0xFFFF, 0, 0], false)), result.width);
            return m.fire(Deviation::Shift16ImmediateLowHalf, &result, v);
        }
    }
    // M: `and.b16` of a cvt.rz.f16.f32 result with an immediate mask gives the value unmasked.
    if m.allow.emulates(Deviation::F16MaskDropped) && g.op == GlueOp::And && g.ty == GlueType::B16 {
        for (k, other) in [(0usize, 1usize), (1, 0)] {
            let masked_by_imm = matches!(g.src.get(other).copied().flatten(), Some(Src::Imm(_)));
            let rz_f16 = reg(k).is_some_and(|r| {
                matches!(m.producer(t, r), Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _))
                    if c.dtype == CvtType::F16 && c.atype == CvtType::F32 && c.rnd == Some(CvtRnd::Rz))
            });
            if masked_by_imm && rz_f16 && vals[k].is_exact() {
                let v = vals[k].clone();
                return m.fire(Deviation::F16MaskDropped, &result, v);
            }
        }
    }
    let imm = |k: usize| imm_of(g, k);
    // N-7: bfe.s32 with an immediate start past the msb (and a non-empty field) gives −1.
    if m.allow.emulates(Deviation::BfeS32PastMsbAllOnes)
        && g.op == GlueOp::Bfe
        && g.ty == GlueType::S32
        && imm(1).is_some_and(|pos| pos & 0xff >= 32)
        && imm(2).is_some_and(|len| len & 0xff >= 1)
    {
        let v = Expected::exact(0xFFFF_FFFF, result.width);
        return m.fire(Deviation::BfeS32PastMsbAllOnes, &result, v);
    }
    // N-8: setp.lt.u32 of a set.*.s32 result against 0 tests the result being true.
    let of_set = reg(0).is_some_and(|r| {
        matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _)) if matches!(glue.op, GlueOp::Set(_, SetDst::S32)))
    });
    if m.allow.emulates(Deviation::UnsignedBelowZeroOfSet)
        && g.op == GlueOp::Setp(Cmp::Lt)
        && g.ty == GlueType::U32
        && imm(1) == Some(0)
        && of_set
        && vals[0].is_exact()
    {
        let v = Expected::exact(u128::from(vals[0].bits & 0xFFFF_FFFF != 0), result.width);
        return m.fire(Deviation::UnsignedBelowZeroOfSet, &result, v);
    }
    // F: a signed comparison or arithmetic shift of an overflowed abs/neg is folded: any result.
    let signed_consumer =
        matches!(g.op, GlueOp::Setp(_) | GlueOp::Shr) && matches!(g.ty, GlueType::S16 | GlueType::S32 | GlueType::S64);
    if m.allow.emulates(Deviation::NegationOverflow) && signed_consumer {
        let width = g.ty.bits();
        if (0..2).any(|k| reg(k).is_some_and(|r| negated(m, t, r)) && vals.get(k).is_some_and(|v| is_min(v, width))) {
            let to = anything(result.clone());
            return m.fire(Deviation::NegationOverflow, &result, to);
        }
    }
    result
}

/// The carry flag a glue instruction writes under the emulated deviations: `carry` (the spec's)
/// changed where 3301-N2 applies: `sub.cc` of a 64-bit `abs.s64` result that is 0 borrows.
pub(super) fn carry(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], carry: Expected) -> Expected {
    let of_abs_s64 = match g.src.get(1).copied().flatten() {
        Some(Src::Reg(r)) => matches!(
            m.producer(t, r),
            Some((Stmt::Glue { glue, .. }, _)) if glue.op == GlueOp::Abs && glue.ty == GlueType::S64
        ),
        _ => false,
    };
    let zero = vals.get(1).is_some_and(|b| b.is_exact() && b.bits & 0xFFFF_FFFF_FFFF_FFFF == 0);
    if m.allow.emulates(Deviation::SubCcOfAbsZeroBorrows)
        && g.op == GlueOp::SubCc
        && g.ty.bits() == 64
        && of_abs_s64
        && zero
    {
        let v = Expected::exact(1, carry.width);
        return m.fire(Deviation::SubCcOfAbsZeroBorrows, &carry, v);
    }
    carry
}

/// What a glue instruction whose guard is false writes under the emulated deviations (`None`:
/// nothing, as the spec says): N-11 extends the destination of `set.<cmp>.{s32,u32}.{u16,s16}`
/// from its low 16 bits — by its sign for `.s32.u16` (seen with bit 15 set), by its sign or
/// with zeros for the other three (seen only with bit 15 clear: 1297e441 of
/// corpus/findings/fuzz-h200-3301/, `set.le.u32.s16`, 0xe9fb3ef5 → 0x00003ef5).
/// A `set.<cmp>.f32.<type>` whose guard is false converts its old value as it converts its −1
/// to 1.0 (corpus/findings/fuzz-h200-3301/, e733b56f: `SEL R0, R2, R0, P1; IABS R0, R0;
/// I2FP.F32.S32 R0, R0`, the merge before the conversion), see [`skipped_set_f32`].
/// A destination never written before is left alone (the spec's value stands).
pub(super) fn skipped_glue(m: &mut Machine<'_>, t: u32, g: &Glue) -> Option<Expected> {
    if !m.allow.emulates(Deviation::SkippedSetSignExtends) {
        return None;
    }
    if matches!(g.op, GlueOp::Set(_, SetDst::F32)) {
        let old = m.read(t, g.dst).ok()?;
        if !old.is_exact() {
            return None;
        }
        let v = Expected::exact(u128::from(skipped_set_f32(old.bits as u32, g.ty.bits())), old.width);
        return Some(m.fire(Deviation::SkippedSetSignExtends, &old, v));
    }
    let integer_dst = matches!(g.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32));
    if !integer_dst || !matches!(g.ty, GlueType::U16 | GlueType::S16) {
        return None;
    }
    let old = m.read(t, g.dst).ok()?;
    let signed = super::thread::extend(old.field(0, 16), 32, true);
    let v = if matches!(g.op, GlueOp::Set(_, SetDst::S32)) && g.ty == GlueType::U16 {
        signed
    } else {
        let zeros = super::thread::extend(old.field(0, 16), 32, false);
        if signed.is_exact() && zeros.is_exact() && signed.bits != zeros.bits {
            zeros.or_value(signed.bits, Allowance::Undefined)
        } else {
            zeros
        }
    };
    Some(m.fire(Deviation::SkippedSetSignExtends, &old, v))
}

/// The f32 bits a skipped `set.<cmp>.f32.<type>` leaves from the old word `old` of its
/// destination, `src_bits` the width of its source type: what ptxas's lowering computes after
/// merging the old word in place of the comparison's −1/0 (ptxas 13.0.88 and 13.5, every
/// level). 32- and 64-bit sources: `IABS` then `I2FP.F32.S32` (to nearest; |−2^31| stays
/// −2^31). 16-bit sources (13.5's listing): `PRMT 0x9910` (sign extension from bit 15), `IABS`,
/// `PRMT 0x7710` (the low 16 bits), `I2F.S16`.
fn skipped_set_f32(old: u32, src_bits: u32) -> u32 {
    if src_bits == 16 {
        let magnitude = i32::from(old as u16 as i16).unsigned_abs() as u16;
        f32::from(magnitude as i16).to_bits()
    } else {
        ((old as i32).wrapping_abs() as f32).to_bits()
    }
}

/// A §9.7.9 instruction's destinations under the emulated deviations: `results` (the spec's)
/// changed where D, E, F, I, L, N or row 10's M-like fold applies (all of them concern `cvt`).
pub(super) fn isa(
    m: &mut Machine<'_>,
    t: u32,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Result<Vec<(Reg, Expected)>, InterpError> {
    let Form::Cvt(c) = inst.form else { return Ok(results) };
    let [(dst, spec)] = results.as_slice() else { return Ok(results) };
    let (dst, spec) = (*dst, spec.clone());
    let width = dst.class().bits();
    let src = inst.operands.get(1);
    let a = match src {
        Some(o) => m.source(t, o, 64)?,
        None => return Ok(results),
    };
    let widen = |e: Expected| super::thread::extend(e, width, c.dtype.is_signed_int());
    let mut emulated: Option<(Deviation, Expected)> = None;
    // L: cvt.s64.u32 sign-extends its source.
    if m.allow.emulates(Deviation::CvtS64U32SignExtends)
        && c.dtype == CvtType::S64
        && c.atype == CvtType::U32
        && a.is_exact()
    {
        emulated = Some((Deviation::CvtS64U32SignExtends, widen(super::thread::extend(a.field(0, 32), 64, true))));
    }
    let producer = m.cvt_producer(t, src).map(|(c0, o)| (c0, o.a.clone(), o.a_stmt));
    if let Some((c0, first_a, first_a_stmt)) = producer {
        // 3301-N3: an integer cvt of a float cvt of a set.{s32,u32} result is the set's word
        // (−1 or 0) sign-extended to 64 bits, at the destination's width.
        let of_set = first_a_stmt.is_some_and(|k| {
            matches!(&m.p.body[k], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)))
        });
        let round_trip = c.dtype.is_int()
            && c.rnd.is_some_and(CvtRnd::is_integer)
            && c0.atype.is_int()
            && !c0.dtype.is_int()
            && !c.atype.is_int();
        if m.allow.emulates(Deviation::SetRoundTripFolded) && round_trip && of_set {
            if let Some(w) = first_a.as_ref().filter(|w| w.is_exact()) {
                let word = super::thread::extend(w.field(0, 32), 64, true);
                emulated = Some((Deviation::SetRoundTripFolded, word.field(0, width)));
            }
        }
        let float_to_int = c.dtype.is_int() && half(c.atype) && c.rnd.is_some_and(CvtRnd::is_integer);
        // E and I: cvt.rzi.<int>.{f16,bf16} of a cvt between f16 and bf16 is folded with it:
        // the first cvt's source bits, read as the integer cvt's source type, rounded in the
        // first cvt's direction (to nearest without one). I where that direction is .rp or .rm.
        let directed = matches!(c0.rnd, Some(CvtRnd::Rp | CvtRnd::Rm));
        let d = if directed { Deviation::DirectedRoundingFoldedIntoInt } else { Deviation::Bf16ReadAsF16 };
        if m.allow.emulates(d) && float_to_int && c.rnd == Some(CvtRnd::Rzi) && half(c0.dtype) && half(c0.atype) {
            let rnd = match c0.rnd {
                Some(CvtRnd::Rp) => CvtRnd::Rpi,
                Some(CvtRnd::Rm) => CvtRnd::Rmi,
                Some(CvtRnd::Rz) => CvtRnd::Rzi,
                _ => CvtRnd::Rni,
            };
            let folded = Form::Cvt(Cvt { rnd: Some(rnd), ..c });
            if let Some(v) = first_a.filter(Expected::is_exact).and_then(|x| convert(m, &folded, x.bits & 0xFFFF)) {
                emulated = Some((d, widen(v)));
            }
        }
        // C's float direction: a float-to-float cvt.sat of an integer cvt.sat result is not
        // saturated.
        let float_sat = c.sat && !c.dtype.is_int() && !c.atype.is_int();
        let of_int_sat = c0.sat && c0.dtype.is_int() && c0.atype.is_int();
        if m.allow.emulates(Deviation::FloatSatOfIntSatDropped) && float_sat && of_int_sat && a.is_exact() {
            let unsaturated = Form::Cvt(Cvt { sat: false, ..c });
            let bits = match c.atype {
                CvtType::F16 | CvtType::Bf16 => 16,
                CvtType::F32 => 32,
                _ => 64,
            };
            if let Some(v) = convert(m, &unsaturated, a.bits & ((1u128 << bits) - 1)) {
                emulated = Some((Deviation::FloatSatOfIntSatDropped, widen(v)));
            }
        }
        // N: cvt.u8.s8 of an f16 result of a cvt from f32 is dropped.
        if m.allow.emulates(Deviation::CvtU8S8OfF16Dropped)
            && c.dtype == CvtType::U8
            && c.atype == CvtType::S8
            && c0.dtype == CvtType::F16
            && c0.atype == CvtType::F32
            && a.is_exact()
        {
            emulated = Some((Deviation::CvtU8S8OfF16Dropped, widen(a.field(0, 16))));
        }
        // M's mechanism (row 10 of fuzz-h200-3201): cvt.u16.u8 of an e4m3x2 result is dropped.
        if m.allow.emulates(Deviation::U8ExtensionOfE4m3x2Dropped)
            && c.dtype == CvtType::U16
            && c.atype == CvtType::U8
            && c0.dtype == CvtType::E4m3x2
        {
            // The 16 bits as they are, a NaN's any-NaN byte included (e4m3 NaN under
            // `nan-payload`: 243ce6a0's thread 4 stored its 0x7f).
            emulated = Some((Deviation::U8ExtensionOfE4m3x2Dropped, widen(a.field(0, 16))));
        }
        // D: a tf32 conversion of a packed half result reads a half nothing wrote.
        if m.allow.emulates(Deviation::Tf32OfPackedHalf)
            && c.dtype == CvtType::Tf32
            && matches!(c0.dtype, CvtType::F16x2 | CvtType::Bf16x2)
        {
            emulated = Some((Deviation::Tf32OfPackedHalf, anything(spec.clone())));
        }
    }
    let r = src.and_then(|o| m.reg_of(o).ok());
    // G: a half-source cvt of shr.s16 by 16 of a non-negative `a` may convert `a` itself.
    let by_16 = r.and_then(|r| match m.producer(t, r) {
        Some((Stmt::Glue { glue, .. }, o))
            if glue.op == GlueOp::Shr
                && glue.ty == GlueType::S16
                && matches!(glue.src.get(1).copied().flatten(), Some(Src::Imm(16))) =>
        {
            o.a.clone()
        }
        _ => None,
    });
    if m.allow.emulates(Deviation::ShrS16By16ReadsSource) && half(c.atype) {
        let source = by_16.filter(|a| a.is_exact() && a.bits & 0x8000 == 0);
        if let Some(v) = source.and_then(|a| convert(m, &inst.form, a.bits & 0xFFFF)).filter(Expected::is_exact) {
            if spec.is_exact() && v.bits != spec.bits {
                emulated = Some((Deviation::ShrS16By16ReadsSource, widen(v).or_value(spec.bits, Allowance::Undefined)));
            }
        }
    }
    // D, for the other producers of packed halves: a mov packing two halves, packed glue.
    let packed_producer = r.is_some_and(|r| match m.producer(t, r) {
        Some((Stmt::Isa(Instruction { form: Form::Mov(mv), .. }), _)) => mv.shape == MovShape::Pack(2),
        Some((Stmt::Glue { glue, .. }, _)) => matches!(glue.ty, GlueType::U16x2 | GlueType::S16x2),
        _ => false,
    });
    if m.allow.emulates(Deviation::Tf32OfPackedHalf) && c.dtype == CvtType::Tf32 && packed_producer {
        emulated = Some((Deviation::Tf32OfPackedHalf, anything(spec.clone())));
    }
    // F: an unsigned int-to-float cvt of an overflowed abs/neg converts it as signed.
    let overflowed = r.is_some_and(|r| negated(m, t, r));
    if m.allow.emulates(Deviation::NegationOverflow) && overflowed && !c.dtype.is_int() {
        if let Some(s) = signed_of(c.atype) {
            let bits = match c.atype {
                CvtType::U8 => 8,
                CvtType::U16 => 16,
                CvtType::U32 => 32,
                _ => 64,
            };
            if is_min(&a, bits) {
                let f = Form::Cvt(Cvt { atype: s, ..c });
                if let Some(v) = convert(m, &f, a.bits & ((1u128 << bits) - 1)) {
                    emulated = Some((Deviation::NegationOverflow, widen(v)));
                }
            }
        }
    }
    Ok(match emulated {
        Some((d, v)) => vec![(dst, m.fire(d, &spec, v))],
        None => results,
    })
}

/// The values an 8-bit store writes for its element operands `elems` (whose spec values are
/// `values`) under the emulated deviations: A makes every element any byte when a float `cvt`
/// wrote one of them (a vector store converts each element, `F2I.U8.F16` per element). The byte
/// each names is the truncating conversion of its register read as `.f16`/`.f32` when a float
/// `cvt` wrote it (what -O0's `F2I.U8.F16.TRUNC` stores), its spec byte otherwise.
pub(super) fn stored(m: &mut Machine<'_>, t: u32, st: &St, elems: &[&Operand], values: Vec<Expected>) -> Vec<Expected> {
    let narrow = matches!(st.ty, MemType::B8 | MemType::U8 | MemType::S8);
    let from_float =
        |m: &Machine<'_>, o: &Operand| m.cvt_producer(t, Some(o)).is_some_and(|(c0, _)| float_dtype(c0.dtype));
    if !m.allow.emulates(Deviation::NarrowStoreOfFloatCvt) || !narrow || !elems.iter().any(|o| from_float(m, o)) {
        return values;
    }
    let int = if st.ty == MemType::S8 { "s8" } else { "u8" };
    let mut out = Vec::with_capacity(values.len());
    for (o, v) in elems.iter().zip(values) {
        let named = m.reg_of(o).ok().filter(|_| from_float(m, o)).and_then(|reg| {
            let value = m.read(t, reg).ok().filter(Expected::is_exact)?;
            let bits = reg.class().bits();
            let f = match bits {
                16 => cvt_form(&format!("cvt.rzi.{int}.f16")),
                32 => cvt_form(&format!("cvt.rzi.{int}.f32")),
                _ => None,
            }?;
            convert(m, &f, value.bits & ((1u128 << bits) - 1))
        });
        let byte = named.map_or_else(|| v.clone(), |n| n.field(0, 8));
        out.push(m.fire(Deviation::NarrowStoreOfFloatCvt, &v, anything(byte)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::interp::{run, run_emulating};
    use crate::program::text::parse_stmt;
    use crate::program::{Inputs, Launch, Program};
    use crate::semantics::Allowances;

    /// A one-thread program of `lines` reading the input words `words`, writing two words.
    fn program(lines: &[&str]) -> Program {
        Program {
            name: "k".into(),
            target: "sm_90@9.0".parse().unwrap(),
            launch: Launch::one_cta(1),
            inputs: 4,
            outputs: 2,
            shared: 0,
            body: lines.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
        }
    }

    /// The output (two words) of `lines` on `words`: by the spec, and emulating `d` (with the
    /// deviations that fired).
    fn both(lines: &[&str], words: [u32; 4], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
        let (p, i) = (program(lines), Inputs(words.to_vec()));
        let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
        let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
        (spec, out.remove(0), fired)
    }

    /// Checks that emulating `d` turns the spec's exact `spec` into the exact `bug` and fires.
    fn exact_case(lines: &[&str], words: [u32; 4], d: Deviation, spec: u64, bug: u64) {
        let (s, e, fired) = both(lines, words, d);
        assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
        assert_eq!((e.bits as u64, e.is_exact()), (bug, true), "{d:?} of {lines:?}");
        assert_eq!(fired, vec![d]);
        // Every other emulation leaves the program alone.
        for other in Deviation::ALL.into_iter().filter(|&o| o != d) {
            let (_, e, fired) = both(lines, words, other);
            assert_eq!((e.bits as u64, fired.as_slice()), (spec, &[][..]), "{other:?} of {lines:?}");
        }
    }

    /// Checks that emulating `d` leaves `lines` as the spec says (out of its scope).
    fn untouched(lines: &[&str], words: [u32; 4], d: Deviation) {
        let (s, e, fired) = both(lines, words, d);
        assert_eq!((e, fired), (s, Vec::new()), "{d:?} of {lines:?}");
    }

    /// A (corpus/findings/fuzz-h200/README.md): bf16 0x3e3c stored by st.b8 through a move is
    /// any byte (-O0 stores 0x01, the truncation it names; -O3 0x02); the other bytes stay.
    #[test]
    fn a_narrow_store_of_a_float_cvt_is_any_byte() {
        let lines =
            ["mov.b16 %h0, 0x3e3c;", "cvt.bf16.bf16 %h1, %h0;", "mov.b16 %h2, %h1;", "st.global.b8 [%out+1], %h2;"];
        let (s, e, fired) = both(&lines, [0; 4], Deviation::NarrowStoreOfFloatCvt);
        assert_eq!((s.bits, s.is_exact()), (0x3c00, true));
        assert_eq!(e.bits, 0x0100, "the named byte: F2I.U8.F16.TRUNC of 1.56");
        assert!(e.matches(0x0100) && e.matches(0x0200) && e.matches(0x3c00) && !e.matches(0x0201));
        assert_eq!(fired, vec![Deviation::NarrowStoreOfFloatCvt]);
        // A loaded register, or a 16-bit store of the cvt's register: the spec's bytes.
        untouched(
            &["ld.global.b16 %h1, [%in];", "st.global.b8 [%out], %h1;"],
            [0x3e3c; 4],
            Deviation::NarrowStoreOfFloatCvt,
        );
        untouched(
            &["mov.b16 %h0, 0x3e3c;", "cvt.bf16.bf16 %h1, %h0;", "st.global.b16 [%out], %h1;"],
            [0; 4],
            Deviation::NarrowStoreOfFloatCvt,
        );
    }

    /// A through a vector store (corpus/findings/fuzz-h100/README.md: 13.5 converts every
    /// element of a .v2 8-bit store with a float cvt element) and through an unpacked half of
    /// a float cvt's result (corpus/findings/fuzz-h200/c2-hardware-spec-cvt.rn.ftz.f32.f64-23300f07.case).
    #[test]
    fn a_reaches_every_element_of_a_vector_store_and_unpacked_halves() {
        let vector = [
            "mov.b16 %h7, 0x1234;",
            "mov.b16 %h0, 0x3e3c;",
            "cvt.bf16.bf16 %h4, %h0;",
            "st.global.v2.b8 [%out], {%h7, %h4};",
        ];
        let (s, e, _) = both(&vector, [0; 4], Deviation::NarrowStoreOfFloatCvt);
        assert_eq!(s.bits, 0x3c34);
        assert!(e.matches(0x3c00) && e.matches(0x0034) && e.matches(0x0101) && !e.matches(0x1_0000));
        let unpacked = [
            "ld.global.b64 %d3, [%in];",
            "cvt.rn.ftz.f32.f64 %r2, %d3;",
            "mov.b32 {%h14, %h15}, %r2;",
            "st.global.b8 [%out+1], %h15;",
        ];
        let (s, e, fired) = both(&unpacked, [0, 0x3ff0_0000, 0, 0], Deviation::NarrowStoreOfFloatCvt);
        assert_eq!((s.bits, fired), (0x8000, vec![Deviation::NarrowStoreOfFloatCvt]));
        assert!(e.matches(0x0100) && e.matches(0xff00) && !e.matches(0x01_0000));
    }

    /// B (corpus/findings/shift-clamp/shift64-f32-load.case): 0x8000000000000001 >> (f32 bits 1)
    /// shifts by cvt.rzi.u64.f32(1.4e-45) = 0: unshifted; loaded as .b32 the amount is 1.
    #[test]
    fn b_a_64_bit_shift_by_an_f32_amount_shifts_by_its_conversion() {
        let f32_amount = [
            "ld.global.f32 %r0, [%in];",
            "ld.global.b64 %d0, [%in+8];",
            "shr.b64 %d1, %d0, %r0;",
            "st.global.b64 [%out], %d1;",
        ];
        exact_case(
            &f32_amount,
            [1, 0, 1, 0x8000_0000],
            Deviation::F32ShiftAmount,
            0x4000_0000_0000_0000,
            0x8000_0000_0000_0001,
        );
        // 2.0f shifts by 2; through a move the amount keeps its type.
        let moved = [
            "ld.global.f32 %r0, [%in];",
            "mov.b32 %r1, %r0;",
            "ld.global.b64 %d0, [%in+8];",
            "shl.b64 %d1, %d0, %r1;",
            "st.global.b64 [%out], %d1;",
        ];
        exact_case(&moved, [0x4000_0000, 0, 1, 0], Deviation::F32ShiftAmount, 0, 4);
        let bits = [
            "ld.global.b32 %r0, [%in];",
            "ld.global.b64 %d0, [%in+8];",
            "shr.b64 %d1, %d0, %r0;",
            "st.global.b64 [%out], %d1;",
        ];
        untouched(&bits, [1, 0, 1, 0x8000_0000], Deviation::F32ShiftAmount);
    }

    /// B at amounts ≥ 2^32 (corpus/findings/fuzz-h200-3301/, 763c9409: ptxas 13.0.88 and 13.5
    /// emit `F2I.U64.TRUNC` and shift by its low word): f32 0x5bffb634 (1.44e17, an integer
    /// whose low 33 bits are 0) shifts by 0, not by the saturated u32 0xffffffff; f32 2^64
    /// saturates the u64 to all ones (low word 0xffffffff: clamped, §9.7.8.7); a NaN converts
    /// to 2^63 (§9.7.9.21) and shifts by 0; a negative value by 0.
    #[test]
    fn b_an_amount_of_2_pow_32_or_more_shifts_by_the_low_word_of_its_u64_conversion() {
        let lines = [
            "ld.global.f32 %r0, [%in];",
            "ld.global.b64 %d0, [%in+8];",
            "shr.b64 %d1, %d0, %r0;",
            "st.global.b64 [%out], %d1;",
        ];
        exact_case(&lines, [0x5bff_b634, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount, 0, 0x7ac7_d499);
        untouched(&lines, [0x5f80_0000, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount);
        // 2^32 + 512: the low word 512 is past 64, clamped like the spec's amount.
        untouched(&lines, [0x4f80_0001, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount);
        for nan_or_negative in [0x7fc0_0000, 0xbf80_0000] {
            let (s, e, fired) = both(&lines, [nan_or_negative, 0, 0x7ac7_d499, 0], Deviation::F32ShiftAmount);
            assert_eq!((s.bits, e.bits, e.is_exact()), (0, 0x7ac7_d499, true), "{nan_or_negative:#x}");
            assert_eq!(fired, vec![Deviation::F32ShiftAmount]);
        }
    }

    /// D (corpus/findings/fuzz-h200/README.md): a tf32 conversion of a packed bf16x2 result is
    /// any value; of a loaded word it is the spec's.
    #[test]
    fn d_a_tf32_conversion_of_a_packed_half_is_any_value() {
        let lines = [
            "ld.global.b32 %r0, [%in];",
            "ld.global.b32 %r1, [%in+4];",
            "cvt.rn.bf16x2.f32 %r2, %r0, %r1;",
            "cvt.rn.tf32.f32 %r3, %r2;",
            "st.global.b32 [%out], %r3;",
        ];
        let (s, e, fired) = both(&lines, [0x3f80_0000, 0x4000_0000, 0, 0], Deviation::Tf32OfPackedHalf);
        assert!(s.is_exact() && e.matches(s.bits) && e.matches(0x1234_5678 | (s.bits & !0xFFFF_FFFF)));
        assert_eq!(fired, vec![Deviation::Tf32OfPackedHalf]);
        untouched(
            &["ld.global.b32 %r2, [%in];", "cvt.rn.tf32.f32 %r3, %r2;", "st.global.b32 [%out], %r3;"],
            [0x3f80_0000; 4],
            Deviation::Tf32OfPackedHalf,
        );
    }

    /// E (corpus/known/fuzz-h200-e-bf16-read-as-f16.toml, the mirror case): bf16 0x7bff through
    /// cvt.f16.bf16 (+inf) then cvt.rzi.u32.f16 converts as f16 65504, not as +inf.
    #[test]
    fn e_a_float_to_integer_cvt_of_a_half_cvt_converts_its_source_bits() {
        let lines = [
            "mov.b16 %h0, 0x7bff;",
            "cvt.rn.f16.bf16 %h1, %h0;",
            "cvt.rzi.u32.f16 %r0, %h1;",
            "st.global.u32 [%out], %r0;",
        ];
        exact_case(&lines, [0; 4], Deviation::Bf16ReadAsF16, 0xFFFF_FFFF, 65504);
        // Without a rounding modifier the fold rounds to nearest: bf16 bits 0x3eaf read as f16
        // (1.67) give 2 (corpus/findings/fuzz-h100-b/c4105-compiler-xor.b16-41c11234.case).
        let nearest = [
            "mov.b16 %h2, 16047;",
            "cvt.bf16.bf16 %h5, %h2;",
            "cvt.rzi.u32.f16 %r0, %h5;",
            "st.global.u32 [%out], %r0;",
        ];
        exact_case(&nearest, [0; 4], Deviation::Bf16ReadAsF16, 1, 2);
        untouched(
            &["mov.b16 %h1, 0x7c00;", "cvt.rzi.u32.f16 %r0, %h1;", "st.global.u32 [%out], %r0;"],
            [0; 4],
            Deviation::Bf16ReadAsF16,
        );
    }

    /// F (corpus/findings/fuzz-h200/README.md): cvt.rm.f32.u16 of abs.s16(-32768) converts as
    /// signed (-32768.0); a signed setp of it is any; abs of another value is the spec's.
    #[test]
    fn f_an_overflowed_negation_is_taken_as_signed() {
        let lines = [
            "ld.global.u16 %h0, [%in];",
            "abs.s16 %h1, %h0;",
            "cvt.rm.f32.u16 %r0, %h1;",
            "st.global.u32 [%out], %r0;",
        ];
        exact_case(&lines, [0x8000, 0, 0, 0], Deviation::NegationOverflow, 0x4700_0000, 0xC700_0000);
        untouched(&lines, [0x8001, 0, 0, 0], Deviation::NegationOverflow);
        let setp = [
            "ld.global.u16 %h0, [%in];",
            "neg.s16 %h1, %h0;",
            "setp.ge.s16 %p0, %h1, 0;",
            "ld.global.b32 %r1, [%in+4];",
            "ld.global.b32 %r2, [%in+8];",
            "selp.b32 %r0, %r1, %r2, %p0;",
            "st.global.u32 [%out], %r0;",
        ];
        let (s, e, fired) = both(&setp, [0x8000, 1, 2, 0], Deviation::NegationOverflow);
        assert_eq!((s.bits, s.is_exact()), (2, true));
        assert!(e.matches(1) && e.matches(2) && fired == vec![Deviation::NegationOverflow]);
    }

    /// 3301-N1 (corpus/findings/fuzz-h200-3301/, e6e88e27): `shr.b16 %h2, %h0, 0x80000000` of
    /// 0x8000 gives 0x8000 (shifted by the immediate's low 16 bits, 0), where the spec's
    /// clamped amount gives 0; `shl.b16 …, 0x10001` shifts by 1; a register amount of 2^16,
    /// or an immediate below 2^16: the spec's result.
    #[test]
    fn n1_3301_a_16_bit_shift_by_a_wide_immediate_shifts_by_its_low_half() {
        let at = |op: &str, amount: &str| {
            [
                "ld.global.u16 %h0, [%in];".to_string(),
                "ld.global.u32 %r0, [%in+4];".to_string(),
                format!("{op} %h2, %h0, {amount};"),
                "st.global.b16 [%out], %h2;".to_string(),
            ]
        };
        let d = Deviation::Shift16ImmediateLowHalf;
        for (op, amount, words, spec, bug) in [
            ("shr.b16", "0x80000000", [0x8000, 0, 0, 0], 0, 0x8000),
            ("shr.s16", "0x10000", [0x8000, 0, 0, 0], 0xffff, 0x8000),
            ("shl.b16", "0x10001", [0x4001, 0, 0, 0], 0, 0x8002),
        ] {
            let l = at(op, amount);
            exact_case(&l.iter().map(String::as_str).collect::<Vec<_>>(), words, d, spec, bug);
        }
        for amount in ["%r0", "0xffff"] {
            let l = at("shr.b16", amount);
            untouched(&l.iter().map(String::as_str).collect::<Vec<_>>(), [0x8000, 0x1_0000, 0, 0], d);
        }
        let wide = ["ld.global.u32 %r1, [%in];", "shr.b32 %r2, %r1, 0x80000000;", "st.global.b32 [%out], %r2;"];
        untouched(&wide, [0x8000_0000, 0, 0, 0], d);
    }

    /// 3301-N2 (corpus/findings/fuzz-h200-3301/, a6d22081): `sub.cc.s64 %d4, %d1, %d2` with
    /// %d2 = `abs.s64` of 0 borrows, so `subc.s64` after it is one less; |x| ≠ 0, a loaded 0,
    /// or a 32-bit `abs` (13.5: `IADD3 RZ, P0, a, -|x|`, right): the spec's result.
    #[test]
    fn n2_3301_sub_cc_of_an_abs_s64_zero_borrows() {
        let lines = [
            "ld.global.b64 %d0, [%in];",
            "ld.global.b64 %d1, [%in+8];",
            "abs.s64 %d2, %d0;",
            "sub.cc.s64 %d4, %d1, %d2;",
            "subc.s64 %d5, %d1, %d1;",
            "st.global.b64 [%out], %d5;",
        ];
        let d = Deviation::SubCcOfAbsZeroBorrows;
        exact_case(&lines, [0, 0, 7, 0], d, 0, 0xFFFF_FFFF_FFFF_FFFF);
        untouched(&lines, [1, 0, 7, 0], d);
        let loaded = lines.map(|l| if l.starts_with("abs") { "mov.b64 %d2, %d0;" } else { l });
        untouched(&loaded, [0, 0, 7, 0], d);
        let narrow = [
            "ld.global.b32 %r0, [%in];",
            "ld.global.b32 %r1, [%in+8];",
            "abs.s32 %r2, %r0;",
            "sub.cc.s32 %r4, %r1, %r2;",
            "subc.s32 %r5, %r1, %r1;",
            "st.global.b32 [%out], %r5;",
        ];
        untouched(&narrow, [0, 0, 7, 0], d);
    }

    /// 3301-N3 (corpus/findings/fuzz-h200-3301/, 17e80392): `set.le.s32.s64` (−1), then
    /// `cvt.rn.bf16.s32` (bf16 −1.0, 0xbf80) and `cvt.rni.u32.f16` (f16 −1.875 → 0) gives −1;
    /// through f32 to `.u16` 0xffff, through f16 to `.u64` all ones (13.5's listings); a set
    /// that is false, or a loaded −1: the spec's result.
    #[test]
    fn n3_3301_a_float_round_trip_of_a_set_result_is_the_set() {
        let at = |src: &str, mid: &str, last: &str, st: &str| {
            [
                "ld.global.u32 %r1, [%in];".to_string(),
                src.to_string(),
                mid.to_string(),
                last.to_string(),
                st.to_string(),
            ]
        };
        let set = "set.le.s32.u32 %r0, %r1, 5;";
        let d = Deviation::SetRoundTripFolded;
        for (mid, last, st, bug) in [
            ("cvt.rn.bf16.s32 %h0, %r0;", "cvt.rni.u32.f16 %r2, %h0;", "st.global.u32 [%out], %r2;", 0xFFFF_FFFF),
            ("cvt.rn.f32.s32 %r3, %r0;", "cvt.rzi.u16.f32 %h1, %r3;", "st.global.u16 [%out], %h1;", 0xFFFF),
            ("cvt.rn.f16.s32 %h0, %r0;", "cvt.rzi.u64.f16 %d3, %h0;", "st.global.u64 [%out], %d3;", u64::MAX),
        ] {
            let l = at(set, mid, last, st);
            exact_case(&l.iter().map(String::as_str).collect::<Vec<_>>(), [3, 0, 0, 0], d, 0, bug);
            untouched(&l.iter().map(String::as_str).collect::<Vec<_>>(), [9, 0, 0, 0], d);
            let loaded = at("ld.global.u32 %r0, [%in+4];", mid, last, st);
            untouched(&loaded.iter().map(String::as_str).collect::<Vec<_>>(), [3, 0xFFFF_FFFF, 0, 0], d);
        }
    }

    /// C's float direction (corpus/findings/fuzz-h200-3301/, 75b04c3b): f16 19.0 (0x4cc0)
    /// through `cvt.sat.s16.u16` (unchanged) and `cvt.sat.f32.f16` gives 19.0, not 1.0; the
    /// same to `.f64`; of a loaded half, or of an integer cvt without `.sat`: the spec's 1.0.
    #[test]
    fn c_a_float_sat_cvt_of_an_integer_sat_cvt_is_not_saturated() {
        let at = |first: &str, last: &str, st: &str| {
            ["ld.global.u16 %h0, [%in];".to_string(), first.to_string(), last.to_string(), st.to_string()]
        };
        let d = Deviation::FloatSatOfIntSatDropped;
        for (last, st, spec, bug) in [
            ("cvt.sat.f32.f16 %r2, %h1;", "st.global.u32 [%out], %r2;", 0x3f80_0000, 0x4198_0000),
            ("cvt.sat.f64.f16 %d2, %h1;", "st.global.u64 [%out], %d2;", 0x3ff0_0000_0000_0000, 0x4033_0000_0000_0000),
        ] {
            let l = at("cvt.sat.s16.u16 %h1, %h0;", last, st);
            exact_case(&l.iter().map(String::as_str).collect::<Vec<_>>(), [0x4cc0, 0, 0, 0], d, spec, bug);
            let loaded = at("mov.b16 %h1, %h0;", last, st);
            untouched(&loaded.iter().map(String::as_str).collect::<Vec<_>>(), [0x4cc0, 0, 0, 0], d);
            let plain = at("cvt.s16.u16 %h1, %h0;", last, st);
            untouched(&plain.iter().map(String::as_str).collect::<Vec<_>>(), [0x4cc0, 0, 0, 0], d);
        }
    }

    /// G (corpus/findings/fuzz-h200-3301/, 8518bbff): `shr.s16 %h2, %h1, 16` of a loaded byte
    /// is 0, but `cvt.sat.f32.f16` of it converts the byte (-O3's `HADD2.F32 R, -RZ, R.H0_H0`
    /// of the load): f16 0x3c00 is not a byte, 0x0040 (3.8e-6) is; both values admitted. A
    /// shift by 17, or a source with bit 15 set: the spec's result.
    #[test]
    fn g_a_half_cvt_of_shr_s16_by_16_may_convert_the_unshifted_source() {
        let at = |ld: &str, by: &str| {
            [
                format!("ld.global.{ld} %h1, [%in];"),
                format!("shr.s16 %h2, %h1, {by};"),
                "cvt.sat.f32.f16 %r2, %h2;".to_string(),
                "st.global.u32 [%out], %r2;".to_string(),
            ]
        };
        let lines = at("u8", "0x10");
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (s, e, fired) = both(&lines, [0x40, 0, 0, 0], Deviation::ShrS16By16ReadsSource);
        assert_eq!((s.bits, s.is_exact()), (0, true));
        assert!(e.matches(0x3680_0000) && e.matches(0) && !e.matches(0x3f80_0000), "{e:?}");
        assert_eq!(fired, vec![Deviation::ShrS16By16ReadsSource]);
        for other in Deviation::ALL.into_iter().filter(|&o| o != Deviation::ShrS16By16ReadsSource) {
            untouched(&lines, [0x40, 0, 0, 0], other);
        }
        let by_17 = at("u8", "0x11");
        untouched(
            &by_17.iter().map(String::as_str).collect::<Vec<_>>(),
            [0x40, 0, 0, 0],
            Deviation::ShrS16By16ReadsSource,
        );
        let negative = at("u16", "0x10");
        let negative: Vec<&str> = negative.iter().map(String::as_str).collect();
        untouched(&negative, [0xbc00, 0, 0, 0], Deviation::ShrS16By16ReadsSource);
    }

    /// I (corpus/findings/fuzz-h100/README.md): f16 0x007f through cvt.rp.bf16.f16, then
    /// cvt.rzi.u32.bf16, gives 1 (rounded toward +inf), not 0.
    #[test]
    fn i_a_directed_rounding_is_folded_into_the_integer_cvt() {
        let lines = [
            "mov.b16 %h3, 127;",
            "cvt.rp.bf16.f16 %h6, %h3;",
            "cvt.rzi.u32.bf16 %r4, %h6;",
            "st.global.u32 [%out], %r4;",
        ];
        exact_case(&lines, [0; 4], Deviation::DirectedRoundingFoldedIntoInt, 0, 1);
        untouched(
            &[
                "mov.b16 %h3, 127;",
                "cvt.rn.bf16.f16 %h6, %h3;",
                "cvt.rzi.u32.bf16 %r4, %h6;",
                "st.global.u32 [%out], %r4;",
            ],
            [0; 4],
            Deviation::DirectedRoundingFoldedIntoInt,
        );
        // .rm rounds toward -inf (corpus/findings/fuzz-h200/c1-compiler-xor.b16-a25b6497.case:
        // f16 0xac01 through cvt.rm.bf16.f16 gives -1, hence its word's "sign").
        let rm = [
            "mov.b16 %h0, 44033;",
            "cvt.rm.bf16.f16 %h0, %h0;",
            "cvt.rzi.s32.bf16 %r1, %h0;",
            "st.global.u32 [%out], %r1;",
        ];
        exact_case(&rm, [0; 4], Deviation::DirectedRoundingFoldedIntoInt, 0, 0xFFFF_FFFF);
    }

    /// L (corpus/findings/fuzz-h100-b/README.md): cvt.s64.u32 of a word ≥ 2^31 sign-extends.
    #[test]
    fn l_cvt_s64_u32_sign_extends() {
        let lines = ["ld.global.u32 %r0, [%in];", "cvt.s64.u32 %d0, %r0;", "st.global.b64 [%out], %d0;"];
        exact_case(&lines, [0x8000_0000, 0, 0, 0], Deviation::CvtS64U32SignExtends, 0x8000_0000, 0xFFFF_FFFF_8000_0000);
        untouched(&lines, [0x7FFF_FFFF, 0, 0, 0], Deviation::CvtS64U32SignExtends);
    }

    /// M (corpus/findings/fuzz-h100-b/README.md): and.b16 0x7f of cvt.rz.f16.f32(-0.0) stores
    /// 0x8000, the mask dropped.
    #[test]
    fn m_the_mask_of_an_f16_result_is_dropped() {
        let lines = [
            "ld.global.u32 %r0, [%in];",
            "cvt.rz.f16.f32 %h1, %r0;",
            "and.b16 %h2, %h1, 127;",
            "st.global.b16 [%out], %h2;",
        ];
        exact_case(&lines, [0x8000_0000, 0, 0, 0], Deviation::F16MaskDropped, 0, 0x8000);
        untouched(
            &["ld.global.u16 %h1, [%in];", "and.b16 %h2, %h1, 127;", "st.global.b16 [%out], %h2;"],
            [0x8000, 0, 0, 0],
            Deviation::F16MaskDropped,
        );
    }

    /// N (corpus/findings/fuzz-h100-b/README.md): cvt.u8.s8 of cvt.rn.satfinite.f16.f32 of a
    /// negative tiny value (-0.0, 0x8000) stores 0x8000, the conversion dropped.
    #[test]
    fn n_cvt_u8_s8_of_an_f16_result_is_dropped() {
        let lines = [
            "ld.global.u32 %r0, [%in];",
            "cvt.rn.satfinite.f16.f32 %h0, %r0;",
            "cvt.u8.s8 %h1, %h0;",
            "st.global.b16 [%out], %h1;",
        ];
        exact_case(&lines, [0x8000_0001, 0, 0, 0], Deviation::CvtU8S8OfF16Dropped, 0, 0x8000);
        untouched(
            &["ld.global.u16 %h0, [%in];", "cvt.u8.s8 %h1, %h0;", "st.global.b16 [%out], %h1;"],
            [0x8000, 0, 0, 0],
            Deviation::CvtU8S8OfF16Dropped,
        );
    }

    /// A register overwritten by another producer loses its origin: no emulation applies.
    #[test]
    fn a_later_write_ends_the_origin() {
        let lines = [
            "ld.global.u32 %r0, [%in];",
            "cvt.rz.f16.f32 %h1, %r0;",
            "ld.global.u16 %h1, [%in+4];",
            "and.b16 %h2, %h1, 127;",
            "st.global.b16 [%out], %h2;",
        ];
        untouched(&lines, [0x8000_0000, 0x8000, 0, 0], Deviation::F16MaskDropped);
    }

    /// N-7 (corpus/findings/fuzz-h200-3201/README.md): bfe.s32 of a non-negative word from
    /// bit 63 gives −1 (d44f4ae5: `bfe.s32 %r5, %r2, 0x3f, 0x20`); a start below 32, an empty
    /// field, or a register start: the spec's result.
    #[test]
    fn n7_bfe_s32_past_the_msb_is_all_ones() {
        let at = |pos: &str, len: &str| {
            [
                "ld.global.u32 %r0, [%in];".to_string(),
                format!("bfe.s32 %r1, %r0, {pos}, {len};"),
                "st.global.u32 [%out], %r1;".to_string(),
            ]
        };
        let lines = at("0x3f", "0x20");
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        exact_case(&lines, [0x1234, 0, 0, 0], Deviation::BfeS32PastMsbAllOnes, 0, 0xFFFF_FFFF);
        for (pos, len) in [("0x1f", "0x20"), ("0x20", "0x0")] {
            let l = at(pos, len);
            untouched(
                &l.iter().map(String::as_str).collect::<Vec<_>>(),
                [0x1234, 0, 0, 0],
                Deviation::BfeS32PastMsbAllOnes,
            );
        }
        let reg = [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r2, [%in+4];",
            "bfe.s32 %r1, %r0, %r2, 0x20;",
            "st.global.u32 [%out], %r1;",
        ];
        untouched(&reg, [0x1234, 0x3f, 0, 0], Deviation::BfeS32PastMsbAllOnes);
    }

    /// N-8 (corpus/findings/fuzz-h200-3201/README.md, fe11eb1e): `setp.lt.u32 %p0, %r8, 0` of
    /// `set.ge.s32.s32 %r8, %r0, 0` is never true, but is the set's result being true; a
    /// loaded value or a non-zero bound: the spec's result.
    #[test]
    fn n8_an_unsigned_test_below_zero_of_a_set_result_tests_the_set() {
        let lines = [
            "ld.global.u32 %r0, [%in];",
            "set.ge.s32.s32 %r8, %r0, 0;",
            "setp.lt.u32 %p0, %r8, 0;",
            "mov.b16 %h0, 34995;",
            "selp.b16 %h1, %h0, 0x0, %p0;",
            "st.global.b16 [%out], %h1;",
        ];
        exact_case(&lines, [5, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet, 0, 34995);
        untouched(&lines, [0x8000_0000, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet);
        let loaded = [
            "ld.global.u32 %r8, [%in];",
            "setp.lt.u32 %p0, %r8, 0;",
            "mov.b16 %h0, 34995;",
            "selp.b16 %h1, %h0, 0x0, %p0;",
            "st.global.b16 [%out], %h1;",
        ];
        untouched(&loaded, [0xFFFF_FFFF, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet);
        let bound = lines.map(|l| if l.starts_with("setp") { "setp.lt.u32 %p0, %r8, 1;" } else { l });
        untouched(&bound, [5, 0, 0, 0], Deviation::UnsignedBelowZeroOfSet);
    }

    /// N-11 (corpus/findings/fuzz-h200-3201/README.md, 5690d5c8): `@%p0 set.le.s32.u16 %r0, …`
    /// with %p0 false leaves 0xc8a85f01 as 0x00005f01 (sign-extended from 16 bits); a guard
    /// that holds, or an `.s32` source: the spec's result.
    #[test]
    fn n11_a_skipped_set_s32_u16_sign_extends_its_destination() {
        let at = |guard: &str, ty: &str| {
            [
                "mov.b32 %r0, 0xc8a85f01;".to_string(),
                "ld.global.u32 %r1, [%in];".to_string(),
                "cvt.u16.u32 %h0, %r1;".to_string(),
                format!("setp.{guard}.s32 %p0, %r1, 0;"),
                format!("@%p0 set.le.s32.{ty} %r0, %{}0, 0x0;", if ty == "u16" { "h" } else { "r" }),
                "st.global.u32 [%out], %r0;".to_string(),
            ]
        };
        let lines = at("lt", "u16");
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        exact_case(&lines, [5, 0, 0, 0], Deviation::SkippedSetSignExtends, 0xc8a8_5f01, 0x5f01);
        let ran = at("ge", "u16");
        untouched(&ran.iter().map(String::as_str).collect::<Vec<_>>(), [5, 0, 0, 0], Deviation::SkippedSetSignExtends);
        let wide = at("lt", "s32");
        untouched(&wide.iter().map(String::as_str).collect::<Vec<_>>(), [5, 0, 0, 0], Deviation::SkippedSetSignExtends);
    }

    /// N-11 with a `.u32` destination (corpus/findings/fuzz-h200-3301/, 1297e441): `@!%p1
    /// set.le.u32.s16 %r1, %h2, 0` with %p1 true leaves 0xe9fb3ef5 as 0x00003ef5 on every
    /// backend; with bit 15 of the old value set, the extension by sign and by zeros are both
    /// admitted (no campaign has shown which); a guard that holds: the spec's result.
    #[test]
    fn n11_a_skipped_set_u32_of_a_16_bit_source_extends_its_destination() {
        let at = |old: &str, guard: &str| {
            [
                format!("mov.b32 %r1, {old};"),
                "mov.b16 %h2, 0;".to_string(),
                format!("setp.{guard}.s16 %p1, %h2, 0;"),
                "@!%p1 set.le.u32.s16 %r1, %h2, 0;".to_string(),
                "st.global.u32 [%out], %r1;".to_string(),
            ]
        };
        let lines = at("3925556981", "eq");
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        exact_case(&lines, [0; 4], Deviation::SkippedSetSignExtends, 0xe9fb_3ef5, 0x3ef5);
        let high = at("0x1234c001", "eq");
        let high: Vec<&str> = high.iter().map(String::as_str).collect();
        let (s, e, fired) = both(&high, [0; 4], Deviation::SkippedSetSignExtends);
        assert_eq!(s.bits, 0x1234_c001);
        assert!(e.matches(0x0000_c001) && e.matches(0xffff_c001) && !e.matches(0x1234_c001), "{e:?}");
        assert_eq!(fired, vec![Deviation::SkippedSetSignExtends]);
        let ran = at("3925556981", "ne");
        untouched(&ran.iter().map(String::as_str).collect::<Vec<_>>(), [0; 4], Deviation::SkippedSetSignExtends);
    }

    /// N-11 with an `.f32` destination (corpus/findings/fuzz-h200-3301/, e733b56f): `@%p1
    /// set.ne.f32.u64 %r2, %d0, 0` with %p1 false turns 0x863ebcfb into 0x4ef38286, the f32 of
    /// |int32(old)| (`IABS; I2FP.F32.S32` after the merge); −2^31 stays negative; a 16-bit
    /// source converts |the old low half, sign-extended| as an s16 (13.5's `PRMT 0x9910; IABS;
    /// PRMT 0x7710; I2F.S16`); a guard that holds: the spec's result.
    #[test]
    fn n11_a_skipped_set_f32_converts_its_old_value() {
        let at = |old: &str, guard: &str, src: &str| {
            let (ld, reg) = match src {
                "u64" => ("ld.global.u64 %d0, [%in+8];", "%d0"),
                _ => ("ld.global.u16 %h0, [%in+8];", "%h0"),
            };
            [
                format!("mov.b32 %r2, {old};"),
                ld.to_string(),
                "ld.global.u32 %r1, [%in];".to_string(),
                format!("setp.{guard}.u32 %p1, %r1, 0;"),
                format!("@%p1 set.ne.f32.{src} %r2, {reg}, 0;"),
                "st.global.u32 [%out], %r2;".to_string(),
            ]
        };
        for (old, src, bug) in [
            ("0x863ebcfb", "u64", 0x4ef3_8286),
            ("0x80000000", "u64", 0xcf00_0000),
            ("0x1234fffe", "u16", 0x4000_0000),
            ("0x12348000", "s16", 0xc700_0000),
        ] {
            let lines = at(old, "eq", src);
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let spec = u64::from_str_radix(&old[2..], 16).unwrap();
            exact_case(&lines, [5, 0, 0, 0], Deviation::SkippedSetSignExtends, spec, bug);
        }
        let ran = at("0x863ebcfb", "ne", "u64");
        untouched(&ran.iter().map(String::as_str).collect::<Vec<_>>(), [5, 0, 0, 0], Deviation::SkippedSetSignExtends);
    }

    /// Row 10 of corpus/findings/fuzz-h200-3201/README.md (243ce6a0): `cvt.u16.u8` of a
    /// `cvt.rn.satfinite.e4m3x2.f32` result keeps bit 15 (0x80fe, not 0x00fe); of a loaded
    /// register, the spec's zero extension.
    #[test]
    fn row10_the_u8_extension_of_an_e4m3x2_result_is_dropped() {
        let lines = [
            "ld.global.u32 %r0, [%in];",
            "ld.global.u32 %r1, [%in+4];",
            "cvt.rn.satfinite.e4m3x2.f32 %h0, %r0, %r1;",
            "cvt.u16.u8 %h1, %h0;",
            "st.global.b16 [%out], %h1;",
        ];
        // e4m3(-0.0) = 0x80 in the high byte, e4m3(-448.0) = 0xfe in the low byte.
        exact_case(&lines, [0x8000_0000, 0xc3e0_0000, 0, 0], Deviation::U8ExtensionOfE4m3x2Dropped, 0xfe, 0x80fe);
        untouched(
            &["ld.global.u16 %h0, [%in];", "cvt.u16.u8 %h1, %h0;", "st.global.b16 [%out], %h1;"],
            [0x80fe, 0, 0, 0],
            Deviation::U8ExtensionOfE4m3x2Dropped,
        );
    }
}
