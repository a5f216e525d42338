//! Known root causes widened to their mechanisms after the traces of seeds 3901–3903
//! (corpus/findings/fuzz-h200-390{1,2,3}/trace/T6A.md … T6G.md): 3501-N3's `cnot` converted as
//! the number it counts ([`cnot_converted_as_number`]), 3301-N4's signed clamp of a byte-field
//! `bfe.s32` reached by a 16-bit shift's amount ([`shift16_by_byte_bfe`]), the values ptxas derives
//! from value ranges (a `set` whose comparison the ranges of its sources decide,
//! [`range_decided_set`], known to N-7 and every other reader of [`Origin::known_since`](super::Origin))
//! and the 0 ptxas knows of a `set` of a register with itself (N-8, [`false_set_of_itself`]).
//!
//! Invariants: nothing here changes a value unless its deviation is emulated; each function names
//! the one value the mechanism computes (through the oracle's own semantics), `None` elsewhere.

use super::fuzz3701::set_or_unpack_of_set;
use super::{convert, imm_of, known_at_compile_time, one_in, reg_of_glue, shift16_amount_of_a_sign_extended_element};
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// Whether some `and`/`or`/`xor` `.{b16,b32}` of the program reads, beside another register, a
/// `set.<cmp>.{u32,s32}` result (the set's register, or a half a `mov.b32` unpack took of it):
/// ptxas then lowers the logic of booleans with predicates (`SEL R, R0, RZ, P1` for `and`) and
/// rebuilds a `cnot`'s conversion from its predicate (3501-N3's trigger beside 3701 C1-N2's,
/// corpus/findings/fuzz-h200-3901/, a1c204af, trace/T6C.md, `v8_xor_sep_store`; `and.b32`,
/// `or.b32` and `xor.b16` of the set's halves in its place give the same `SEL R7, RZ, 0x3c00,
/// !P0`, ptxas 13.0.88 -O3, session 40). Not an immediate other source (`xor.b32 d, s, 5`:
/// right), `add` (right), a `selp -1, 0` mask (right), a 64-bit xor of the widened set (right).
pub(super) fn logic_op_reads_an_integer_set(m: &Machine<'_>) -> bool {
    let is_set =
        |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::U32 | SetDst::S32)));
    m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, .. }
            if matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor)
                && matches!(glue.ty, GlueType::B16 | GlueType::B32) =>
        {
            let (a, b) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1));
            a.is_some() && b.is_some() && [a, b].into_iter().flatten().any(|r| set_or_unpack_of_set(m, k, r, &is_set))
        }
        _ => false,
    })
}

/// Whether register `r` of thread `t` holds a `cnot` whose source ptxas knows to be a boolean:
/// `cnot.b32` of `cvt.<irnd>.{u32,s32}.f32` of `set.<cmp>.f32.{u16,s16}` (e0f84cd8), or of the
/// `set.<cmp>.f32` result itself (a8fb5d3f).
fn cnot_of_a_set(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    match m.producer(t, r) {
        Some((Stmt::Glue { glue, .. }, o)) if glue.op == GlueOp::Cnot && glue.ty == GlueType::B32 => {
            let int_cvt = o.a_stmt.is_some_and(|k| {
                matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::Cvt(c0), .. })
                    if matches!(c0.dtype, CvtType::U32 | CvtType::S32) && c0.atype == CvtType::F32)
            });
            let of_set = o.a_a_stmt.is_some_and(|k| {
                matches!(&m.p.body[k], Stmt::Glue { glue, .. }
                    if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) && matches!(glue.ty, GlueType::U16 | GlueType::S16))
            });
            let of_set_itself = o.a_stmt.is_some_and(
                |k| matches!(&m.p.body[k], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32))),
            );
            (int_cvt && of_set) || of_set_itself
        }
        _ => false,
    }
}

/// 3501-N3, generalized: ptxas lowers `cnot` as a 0/1 select of its predicate
/// (`ISETP.EQ.U32 P0, R, RZ; SEL`) and a `cvt` from a float type reading that 0/1 converts the
/// arms as the numbers 0 and 1 (`SEL R7, RZ, 0x3c00, !P0`: 1.0h; `SEL R9, RZ, 0x1, !P0`), where
/// §9.7.9.21 converts the bits 0x0001 (a subnormal). It does so where the `cnot`'s source is a
/// set (the entry's first two scopes, [`cnot_of_a_set`]) and, for a `cnot.{b16,b32}` of any
/// register, where the program lowers boolean logic with predicates
/// ([`logic_op_reads_an_integer_set`]): a1c204af (`cnot.b32` of a loaded f32, `cvt.rn.f16.f32`,
/// T6C.md), 09c3068e (`cnot.b16` of a loaded bf16, a plain `cvt.f16.f16`, T6B.md), 60948fcb
/// (`cnot.b16` of a loaded s8, `cvt.rni.s8.bf16`, T6D.md; `.f16`, `cvt.rzi.u32.f32` the same),
/// and where the conversion is converted to an integer and tested against zero
/// ([`conversions_tested_against_zero::cnot_conversion_tested_against_zero`](super::conversions_tested_against_zero), ce007cb2).
/// Under those triggers the 0/1 may be any a predicate makes (a `cnot` of any width, `selp 1, 0`,
/// a float-to-integer cvt of a `set.f32`, a negated integer set, integer cvts of these:
/// [`zero_one_of_a_predicate`](super::mul_chain_zero_word_and_predicate_zero_one::zero_one_of_a_predicate); seed 4102's
/// 87db6a36 and 6d0262f6, T9y1.md, T9y2.md) and the source type `.f64` (87db6a36: `cnot.b64;
/// cvt.rm.f32.f64` gives `FSEL R6, RZ, 1, !P1`, 1.0f). Seeds 4202/4203 (`emulate/cnot_number_under_float_zero_test_or_b64_logic.rs`):
/// also where the float-to-float conversion is itself tested against zero (06b614f9) and in a
/// program with a live `and.b64`/`or.b64` of `cnot` results (7cb7444f, 7ea011df). Seed 4303
/// (`emulate/cnot_chain_b16_or_b64.rs`): also where the source is a `cnot.{b16,b64}` of a `cnot`
/// (42ff61b7), with no other trigger, and (`emulate/cnot_read_by_a_live_cnot.rs`) where the source
/// is the inner `cnot` of such a pair, read by a live `cnot` (seed 4401's a3fc1374). Seed 4703
/// (`emulate/cnot_conversion_tested_down_a_chain.rs`): also where the zero test sits further down
/// a chain of float-to-integer `cvt`s and copies from the first conversion (8fe9dbe7), and
/// (`emulate/cnot_read_by_a_live_zero_setp.rs`) where a live `setp` of the `cnot` against 0 reads
/// it (seed 4701's 024297c0), or a live `setp` against 0 reads another `cnot.{b16,b64}` (seed
/// 5501's 0078d11a). Seed 6102 (`emulate/cnot_conversion_beside_a_tested_one.rs`): also a
/// conversion of the same `cnot` beside the tested one (7586be16).
/// ptxas 13.0.88 and 13.5 -O3. `r` is the cvt's source register, `a` its value: the conversion
/// of the number `a` (0 or 1) in the cvt's source type.
pub(super) fn cnot_converted_as_number(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    r: Reg,
    a: &Expected,
) -> Option<Expected> {
    if !m.allow.emulates(Deviation::CnotOfSetCvtConvertedAsNumber) || !a.is_exact() {
        return None;
    }
    let one = one_in(c.atype)?;
    // Seed 4802's cc897994: the float conversion of a `cnot`'s 0/1 is read as its number too
    // (`emulate/converted_cnot_read_as_its_number.rs`).
    if let Some(count) = super::converted_cnot_read_as_its_number::whole_conversion(m, t, r) {
        return convert(m, &inst.form, if count == 0 { 0 } else { one });
    }
    // Seed 4701's 64ad9add: the second of two float-to-float cvts of a `cnot` under the logic
    // trigger converts the `cnot`'s number too (`emulate/cnot_number_through_a_float_cvt_chain.rs`).
    if let Some(count) = super::cnot_number_through_a_float_cvt_chain::count_through_a_float_cvt(m, t, &c, r) {
        return convert(m, &inst.form, if count == 0 { 0 } else { one });
    }
    // Any 0/1 ptxas makes from a predicate, not only a `cnot` (seed 4102's 87db6a36 and 6d0262f6,
    // `emulate/mul_chain_zero_word_and_predicate_zero_one.rs`).
    let of_cnot = super::mul_chain_zero_word_and_predicate_zero_one::zero_one_of_a_predicate(m, t, r);
    let scoped = (c.atype == CvtType::F32 && cnot_of_a_set(m, t, r))
        || (of_cnot && logic_op_reads_an_integer_set(m))
        || (of_cnot && super::conversions_tested_against_zero::cnot_conversion_tested_against_zero(m, m.stmt))
        || super::cnot_number_under_float_zero_test_or_b64_logic::cnot_converted_in_a_boolean_program(m, m.stmt, r)
        || super::cnot_chain_b16_or_b64::cnot_of_a_cnot(m, t, r)
        || super::cnot_read_by_a_live_cnot::cnot_read_by_a_live_cnot(m, t, r)
        || super::cnot_conversion_tested_down_a_chain::cnot_conversion_tested_down_a_chain(m, r)
        || super::cnot_conversion_beside_a_tested_one::cnot_converted_beside_a_tested_conversion(m, r)
        || super::cnot_read_by_a_live_zero_setp::cnot_read_by_a_live_zero_setp(m, t, r)
        || super::cnot_read_by_a_live_zero_setp::cnot_converted_beside_a_zero_tested_cnot(m, t, r);
    let bits = c.atype.bits();
    let count = a.bits & ((1u128 << bits) - 1);
    if !scoped || count > 1 {
        return None;
    }
    convert(m, &inst.form, if count == 0 { 0 } else { one })
}

/// Whether register `r` of thread `t` holds a `bfe.s32` of a byte or half field at its own
/// alignment (immediate `pos` and `len`, §9.7.1.19 reads their low 8 bits): ptxas lowers it as a
/// sign-extending `PRMT 0x8880/0x9910/0x9991` (3301-N4).
pub(super) fn byte_field_bfe(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _)) if aligned_field_bfe(glue))
}

/// Whether glue `g` is a `bfe.s32` of a byte or half field at its own alignment (immediate
/// `pos` and `len`, their low 8 bits read, §9.7.1.19): the sign-extending `PRMT` of 3301-N4.
pub(super) fn aligned_field_bfe(g: &Glue) -> bool {
    if g.op != GlueOp::Bfe || g.ty != GlueType::S32 {
        return false;
    }
    match (imm_of(g, 1).map(|v| v & 0xff), imm_of(g, 2).map(|v| v & 0xff)) {
        (Some(pos), Some(len)) => matches!(len, 8 | 16) && pos % len == 0 && pos + len <= 32,
        _ => false,
    }
}

/// 3301-N4 through a 16-bit shift's amount (corpus/findings/fuzz-h200-3903/, dd8d148c,
/// trace/T6G.md): ptxas clamps the amount of `shl.b16`/`shr.{b16,u16}` to [0, 0xffff] with
/// signed bounds (`ISETP.LT …, RZ; ISETP.GT …, 0xffff; SEL; SEL`) when a byte-field `bfe.s32`
/// ([`byte_field_bfe`]) wrote it, or an `ld.*.v{2,4}.s8` element (seed 5001's c4120841,
/// `emulate/shift16_amount_of_a_sign_extended_element.rs`): a negative field shifts by 0, where §9.7.8.7 reads the `.u32`
/// amount unsigned (0xffffffff clears the value). ptxas 13.0.88 and 13.5 -O3; `shr.s16` clamps
/// to [−0x8000, 0x7fff] and sign-extends (right), 32- and 64-bit shifts have no clamp (right).
pub(super) fn shift16_by_byte_bfe(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let unsigned16 = match g.op {
        GlueOp::Shl => g.ty == GlueType::B16,
        GlueOp::Shr => matches!(g.ty, GlueType::B16 | GlueType::U16),
        _ => false,
    };
    if !unsigned16
        || !reg_of_glue(g, 1).is_some_and(|r| shift16_amount_of_a_sign_extended_element::sign_extended_amount(m, t, r))
    {
        return None;
    }
    shift16_clamped_signed(g, vals, result)
}

/// The word of 16-bit shift `g` (of the unsigned kinds: `shl.b16`, `shr.{b16,u16}`) whose `.u32`
/// amount ptxas clamps to [0, 0xffff] with signed bounds: an amount with bit 31 set shifts by 0
/// (`a` itself), `None` for an amount the signed clamp reads as §9.7.8.7 does.
pub(super) fn shift16_clamped_signed(g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let (x, amount) = (vals.first().filter(|v| v.is_exact())?, vals.get(1).filter(|v| v.is_exact())?);
    if amount.bits & 0x8000_0000 == 0 {
        return None;
    }
    Some(Expected::exact(u128::from(g.eval([x.bits as u64, 0, 0, 0], false)), result.width))
}

/// The interval `[lo, hi]` of the values (read at `bits` bits, signed when `signed`) register
/// `r` of thread `t` can hold as ptxas derives it: the value itself where it is known
/// ([`known_at_compile_time::known`]), `[0, 2^n − 1]` for a zero-extending load (`.u8/.b8/.u16/.b16`
/// into a wider register) or conversion (`cvt.<int>.{u8,u16}`), a same-width integer `cvt`
/// keeping its source's, an `and` with an immediate mask bounded by it.
fn interval(m: &Machine<'_>, t: u32, r: Reg, bits: u32, signed: bool, depth: u32) -> Option<(i128, i128)> {
    let read = |v: u128| {
        let v = v & ((1u128 << bits) - 1);
        if signed && v >> (bits - 1) == 1 {
            v as i128 - (1i128 << bits)
        } else {
            v as i128
        }
    };
    if known_at_compile_time::known(m, t, r) {
        let v = read(m.read(t, r).ok().filter(Expected::is_exact)?.bits);
        return Some((v, v));
    }
    // A non-negative bound below the sign bit of the compare reads the same signed or unsigned.
    let below = |n: u32| (n < bits).then(|| (0, (1i128 << n) - 1));
    let (s, _) = m.producer(t, r)?;
    match s {
        Stmt::Isa(Instruction { form: Form::Ld(l), .. }) if zero_extending(l.ty) => below(l.ty.bits()),
        Stmt::Isa(Instruction { form: Form::LdGlobalNc(l), .. }) if zero_extending(l.ty) => below(l.ty.bits()),
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. })
            if !c.sat && c.dtype.is_int() && c.atype.is_int() =>
        {
            if matches!(c.atype, CvtType::U8 | CvtType::U16) && c.dtype.bits() > c.atype.bits() {
                return below(c.atype.bits());
            }
            let source = operands.get(1).and_then(|x| m.reg_of(x).ok())?;
            let same = c.dtype.bits() == c.atype.bits() && source.class().bits() == c.atype.bits();
            (same && depth > 0).then(|| interval(m, t, source, bits, signed, depth - 1)).flatten()
        }
        Stmt::Glue { glue, .. } if glue.op == GlueOp::And => {
            let mask = imm_of(glue, 1).or_else(|| imm_of(glue, 0))?;
            (mask < 1 << (bits - 1)).then_some((0, mask as i128))
        }
        _ => None,
    }
}

/// Whether a load of `ty` zero-extends into a wider register (§9.7.9.8: `.u` and `.b` types).
pub(super) fn zero_extending(ty: MemType) -> bool {
    matches!(ty, MemType::U8 | MemType::B8 | MemType::U16 | MemType::B16)
}

/// Whether the glue statement `g` being run in thread `t` is an unguarded `set.<cmp>` whose
/// comparison the value intervals of its sources ([`interval`]) decide: ptxas knows its result
/// (corpus/findings/fuzz-h200-3903/, 972eb062, trace/T6G.md: `ld.b8 h0; cvt.u16.s16 h1, h0;
/// set.lt.s32.u16 r2, h1, 0x638f` is known −1, and `bfe.s32 d, a, r2, 1` is N-7's `MOV R7,
/// 0xffffffff`, ptxas 13.0.88 -O3; 13.5 right).
pub(super) fn range_decided_set(m: &Machine<'_>, t: u32, g: &Glue) -> bool {
    let GlueOp::Set(cmp, _) = g.op else { return false };
    let unguarded = matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. }));
    if !unguarded {
        return false;
    }
    let (bits, signed) = (g.ty.bits(), g.ty.signed());
    let source = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Imm(v)) => {
            let v = u128::from(v) & ((1u128 << bits) - 1);
            let v = if signed && v >> (bits - 1) == 1 { v as i128 - (1i128 << bits) } else { v as i128 };
            Some((v, v))
        }
        Some(Src::Reg(r)) => interval(m, t, r, bits, signed, 4),
        None => None,
    };
    let (Some(a), Some(b)) = (source(0), source(1)) else { return false };
    decided(cmp, a, b).is_some()
}

/// The outcome of comparison `cmp` of a value in interval `a` with one in interval `b` (each
/// `[lo, hi]`), if the intervals decide it: `Some(true)` when it holds for every pair of values,
/// `Some(false)` when it holds for none (also asked by `emulate/s8_round_trip_of_a_learned_constant.rs`).
pub(super) fn decided(cmp: Cmp, (la, ha): (i128, i128), (lb, hb): (i128, i128)) -> Option<bool> {
    let (holds, fails) = match cmp {
        Cmp::Lt => (ha < lb, la >= hb),
        Cmp::Ge => (la >= hb, ha < lb),
        Cmp::Le => (ha <= lb, la > hb),
        Cmp::Gt => (la > hb, ha <= lb),
        Cmp::Eq => (la == ha && lb == hb && la == lb, ha < lb || hb < la),
        Cmp::Ne => (ha < lb || hb < la, la == ha && lb == hb && la == lb),
    };
    (holds || fails).then_some(holds)
}

/// Whether register `r` of thread `t` holds a `set.{ne,lt,gt}.<dst>.<int>` of one register with
/// itself: false (0) in every thread, which ptxas folds (N-8's 0, corpus/findings/fuzz-h200-3901/,
/// 0e470a25, trace/T6C.md: `set.ne.u32.s32 r1, t, t; setp.ge.u32 p, s, r1` is `v1_imm0`'s listing,
/// 13.0.88 -O3; `sub.u32 r1, t, t` keeps the compare, right).
pub(super) fn false_set_of_itself(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _))
        if matches!(glue.op, GlueOp::Set(Cmp::Ne | Cmp::Lt | Cmp::Gt, _))
            && reg_of_glue(glue, 0).is_some()
            && reg_of_glue(glue, 0) == reg_of_glue(glue, 1))
}
