//! The emulations of the root causes the H200 campaign of seed 3701 found
//! (corpus/findings/fuzz-h200-3701/; traces `trace/TC1.md` … `trace/TC4.md`), called from the
//! hooks of `emulate.rs` ([`glue`], [`pack`], [`cvt`]): 3701-N-A (`cvt.pack` of `.u32` float
//! conversions fused signed), C1-N4 (`bfi.b32` by a constant length of 32 or more), C3-2
//! (`shl.b64` of a product by 64 or more), fc9c9c66 (`xor` of a set and a `cnot`), C3-3
//! (`setp.eq/ne s, 1` of a set), C1-N3 (`shr.s16` by a `cnot`) and C1-N2 (a float `cvt` of a
//! set.f32 result beside an xor of another set's result).
//!
//! Each looks at the producers the machine records ([`Origin`](super::Origin)); a constant
//! operand is an immediate or a register a move of an immediate wrote (ptxas folds it).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction and its producers are exactly the ones its trace shows wrong; it returns `None`
//! (the spec's result stands) otherwise.

use super::compare_with_one_first_tests_the_set;
use super::convert;
use super::fuzz3602::writes;
use super::origin::moved_immediate;
use super::product_factor_folded_after_the_product;
use super::ptxas_constant_operands;
use super::set_f32_boolean_after_a_zero_test_diamond;
use super::set_f32_boolean_beside_a_logic_op_of_set_f32_words;
use super::set_f32_boolean_beside_a_zero_test_split_into_an_arm;
use super::set_f32_boolean_of_a_set_tested_against_zero;
use super::{byte_pack_with_c, imm_of, reg_of_glue, GlueRule};
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtPack, CvtRnd, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{cvt_pack, Deviation, Expected};

mod compare_with_one_an_unrolled_counter;

/// A glue instruction's result under the glue deviations of seed 3701: `Some` (the emulated
/// result, the deviation recorded as fired) where C1-N4, C3-2, fc9c9c66, C3-3 or C1-N3 applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] = &[
        (Deviation::BfiConstantLengthTakenMod32, bfi_length_mod_32),
        (Deviation::ShlB64OfProductByConstantDropped, shl_of_product_dropped),
        (Deviation::XorOfSetAndCnotGivesOneMinus, xor_of_set_and_cnot),
        (Deviation::SetpEqOneOfSetTestsTheSet, setp_one_of_set),
        (Deviation::ShrS16ByCnotClampFolded, shr_s16_by_cnot),
    ];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// The value of source `k` of `g` when it is a constant: an immediate, or a register a move of
/// an immediate wrote (its value `vals[k]`).
pub(super) fn constant(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], k: usize) -> Option<u64> {
    imm_of(g, k).or_else(|| {
        let moved = reg_of_glue(g, k).is_some_and(|r| moved_immediate(m, t, r));
        vals.get(k).filter(|v| moved && v.is_exact()).map(|v| v.bits as u64)
    })
}

/// Whether register `r` of thread `t` holds a `set.<cmp>.{s32,u32}.<type>` result (−1 or 0,
/// §9.7.7.1) of a source type among `types`.
fn of_integer_set(m: &Machine<'_>, t: u32, r: Reg, types: &[GlueType]) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _))
        if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)) && types.contains(&glue.ty))
}

/// Whether register `r` of thread `t` holds `cnot.b32` of a register that is no constant (a
/// constant's `cnot` is folded).
pub(super) fn of_cnot_of_register(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    match m.producer(t, r) {
        Some((Stmt::Glue { glue, .. }, _)) if glue.op == GlueOp::Cnot && glue.ty == GlueType::B32 => {
            reg_of_glue(glue, 0).is_some_and(|x| !moved_immediate(m, t, x))
        }
        _ => false,
    }
}

/// C1-N4: `bfi.b32 d, a, b, pos, len` with a constant `pos` and a constant `len` whose low
/// 8 bits (§9.7.1.20) are 32 or more inserts a field of `len mod 32` bits. `pos` may be a moved
/// immediate, integer or float (corpus/findings/fuzz-h200-3801/, bfd7f6c9, trace/T4C.md:
/// `mov.f32 r2, 0f00000012`, `v_movint_pos` and `v_imm_pos` give one 13.0.88 -O3 listing,
/// `LOP3.LUT R7, R9, 0x1fc0000, R2, 0xe2`).
fn bfi_length_mod_32(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Bfi || g.ty != GlueType::B32 || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    // Any constant ptxas knows, folded or shuffled (seed 4402's 6e21e265,
    // `emulate/ptxas_constant_operands.rs`).
    let pos = ptxas_constant_operands::bfi_constant(m, t, g, vals, 2)?;
    let len = ptxas_constant_operands::bfi_constant(m, t, g, vals, 3)? & 0xff;
    if len < 32 {
        return None;
    }
    let v = g.eval([vals[0].bits as u64, vals[1].bits as u64, pos, len % 32], false);
    Some(Expected::exact(u128::from(v), result.width))
}

/// C3-2: `shl.b64 d, p, k` with a constant k ≥ 64 (its `.u32` bits) and p written by
/// `mul.lo.{s64,u64}` or `mul.wide.{u32,s32}` of a register by a constant ptxas knows (either
/// operand order; an immediate or a [`folded_constant`] register, e.g. a moved immediate), or
/// `mad.lo.{s64,u64}` by one with a known addend, gives p unshifted. The signedness is the listings' alike
/// (corpus/findings/fuzz-h200-3801/, b8a9995e, trace/T4B.md: `mul.lo.u64` and its `v1_mul_s64`
/// give one listing, `IMAD.WIDE.U32 … IADD3; STG.E.64` with no shift; ptxas 13.0.88 -O3 the same
/// for `mad.lo.u64`/`.s64` and, `IMAD.WIDE` for `IMAD.WIDE.U32`, `mul.wide.s32`): the low 64 bits
/// of a product (§9.7.1.3, §9.7.1.4) do not depend on it.
fn shl_of_product_dropped(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shl || g.ty.bits() != 64 || constant(m, t, g, vals, 1)? & 0xFFFF_FFFF < 64 {
        return None;
    }
    let by_immediate = match m.producer(t, reg_of_glue(g, 0)?)? {
        (Stmt::Glue { glue: p, .. }, o) => {
            // A constant ptxas knows: an immediate, or a register a move of one (or a fold of
            // such) wrote (corpus/findings/fuzz-h200-4103/, 13a84319, trace/T9y4.md: `mov.s64 d1,
            // K; mul.lo.u64 d0, x, d1` and `v1_imm_operand` give one 13.0.88 -O3 listing).
            // A factor 64-bit `and`/`or`/`xor` glue made is folded only after the product
            // (corpus/findings/fuzz-h200-4603/, ad3d4a1a, trace/T17t4.md:
            // `emulate/product_factor_folded_after_the_product.rs`): not known here.
            let known = |k: usize| {
                imm_of(p, k).is_some()
                    || reg_of_glue(p, k).is_some_and(|r| {
                        folded_constant(m, o.stmt, r, 3)
                            && !product_factor_folded_after_the_product::folded_after_the_product(m, o.stmt, r)
                    })
            };
            // The multiply is commutative: one factor known, the other not (both known: folded whole).
            let by_one_known = known(0) != known(1);
            match p.op {
                GlueOp::MulLo => matches!(p.ty, GlueType::S64 | GlueType::U64) && by_one_known,
                GlueOp::MadLo => matches!(p.ty, GlueType::S64 | GlueType::U64) && by_one_known && known(2),
                GlueOp::MulWide => matches!(p.ty, GlueType::U32 | GlueType::S32) && by_one_known,
                _ => false,
            }
        }
        _ => false,
    };
    let product = vals.first().filter(|p| by_immediate && p.is_exact())?;
    Some(Expected::exact(product.bits & 0xFFFF_FFFF_FFFF_FFFF, result.width))
}

/// Whether register `r` holds, before body index `before`, a constant ptxas folds: the last
/// statement before it that writes `r` ([`writes_folded_constant`]) writes one and reaches it
/// on every path (no label between them that a branch from before the write targets: the body
/// branches only forward); at most `depth` producers deep.
pub(super) fn folded_constant(m: &Machine<'_>, before: usize, r: Reg, depth: u32) -> bool {
    let Some((k, s)) = m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else {
        return false;
    };
    reaches_on_every_path(m, k, before) && writes_folded_constant(m, k, s, depth)
}

/// Whether every path to body index `to` runs the statement at body index `from` (before it):
/// no label between them that a branch from before `from` targets (the body branches only
/// forward).
pub(super) fn reaches_on_every_path(m: &Machine<'_>, from: usize, to: usize) -> bool {
    let targeted_from_before =
        |l: &u32| m.p.body[..from].iter().any(|b| matches!(b, Stmt::Bra { label, .. } if label == l));
    from < to && !m.p.body[from + 1..to].iter().any(|x| matches!(x, Stmt::Label(l) if targeted_from_before(l)))
}

/// Whether statement `s` at body index `k` writes a value ptxas knows at compile time (the
/// mechanism of 3702-N3's merged constants, and what the other callers call a constant): an
/// unguarded move of an immediate, an unguarded `mov` copy or `cvt` of an immediate or of a
/// [`folded_constant`] (corpus/findings/fuzz-h200-3801/, a280b42d, trace/T4A.md: `mov.b32 %r1,
/// %r2` of a moved −1 is folded as the −1 itself, 13.0.88 -O3 `MOV R7, 0xffffffff` as for
/// `v1_set_reads_moved_imm`), unguarded glue reading no carry whose every source is an
/// immediate or a folded constant (corpus/findings/fuzz-h200-3901/, 92812601, trace/T6A.md, and
/// fuzz-h200-3903/, 1de51f3f and 7e601e7a, trace/T6G.md, T6F.md: `set.eq.s32.u64 %r3, %d0, 0` of
/// a moved 0 read by the arm's `set` is folded as its −1, 13.0.88 -O3 `MOV R7, 0xffffffff` as for
/// the moved −1 of `v2_const`/`v2_old_from_mov`), or an unguarded `set`/`setp` of a register
/// with itself (glue compares integers: x cmp x is known); the sources at most `depth` deep.
pub(super) fn writes_folded_constant(m: &Machine<'_>, k: usize, s: &Stmt, depth: u32) -> bool {
    let deeper = |r: Reg| depth > 0 && folded_constant(m, k, r, depth - 1);
    match s {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) => match operands.get(1) {
            Some(Operand::Imm(_)) => true,
            Some(o) if mv.shape == MovShape::Copy => m.reg_of(o).is_ok_and(deeper),
            _ => false,
        },
        Stmt::Isa(Instruction { form: Form::Cvt(_), operands, guard: None, .. }) => match operands.get(1) {
            Some(Operand::Imm(_)) => true,
            Some(o) => m.reg_of(o).is_ok_and(deeper),
            None => false,
        },
        // A compare of a register with itself (glue compares integers) is folded too.
        Stmt::Glue { glue, guard: None }
            if matches!(glue.op, GlueOp::Set(..) | GlueOp::Setp(_))
                && reg_of_glue(glue, 0).is_some_and(|a| reg_of_glue(glue, 1) == Some(a)) =>
        {
            true
        }
        Stmt::Glue { glue, guard: None } => {
            !glue.op.reads_carry()
                && glue.src.iter().take(glue.op.arity()).all(|src| match src {
                    Some(Src::Imm(_)) => true,
                    Some(Src::Reg(r)) => deeper(*r),
                    None => false,
                })
        }
        _ => false,
    }
}

/// Whether register `r` of thread `t` holds fc9c9c66's set operand: a `set.<cmp>.{s32,u32}.u32`
/// result, or (the stored finding) `xor.b32` of one (its first source) with a register holding
/// a constant 0 ptxas folds (`cvt.rn.f32.f64` of `cvt.rni.sat.f64.f64` of a moved constant).
fn set_operand(m: &Machine<'_>, t: u32, r: Reg, value: &Expected) -> bool {
    // Or of a `.s32`, `.u64` or `.s64` source (seed 4402's a22d4fd5,
    // `emulate/ptxas_constant_operands.rs`).
    if of_integer_set(m, t, r, &[GlueType::U32]) || ptxas_constant_operands::set_of_wide_integers(m, t, r) {
        return true;
    }
    match m.producer(t, r) {
        Some((Stmt::Glue { glue: x, .. }, o)) if x.op == GlueOp::Xor && x.ty == GlueType::B32 => {
            let of_set = o.a_stmt.is_some_and(|k| {
                matches!(&m.p.body[k], Stmt::Glue { glue, .. }
                    if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)) && glue.ty == GlueType::U32)
            });
            // The xor left the set's word as it was: its other source is 0 here.
            let by_zero = o.a.as_ref().is_some_and(|a| a.is_exact() && value.is_exact() && a.bits == value.bits);
            of_set && by_zero && reg_of_glue(x, 1).is_some_and(|z| folded_constant(m, o.stmt, z, 3))
        }
        _ => false,
    }
}

/// fc9c9c66: `xor.b32 d, s, c` (either order) of a true `set.<cmp>.{s32,u32}.u32` result s
/// ([`set_operand`]) and a `cnot.b32` result c gives 1 − c (−(~(−c)) for ~(−(−c))).
fn xor_of_set_and_cnot(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Xor || g.ty != GlueType::B32 || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let (a, b) = (reg_of_glue(g, 0)?, reg_of_glue(g, 1)?);
    // The negated word: a `cnot`, or a `sub.u32` from a folded 0 (seed 4402's a22d4fd5,
    // `emulate/ptxas_constant_operands.rs`).
    let negated = |r: Reg| of_cnot_of_register(m, t, r) || ptxas_constant_operands::sub_from_folded_zero(m, t, r);
    let (s, c) = if set_operand(m, t, a, &vals[0]) && negated(b) {
        (&vals[0], &vals[1])
    } else if set_operand(m, t, b, &vals[1]) && negated(a) {
        (&vals[1], &vals[0])
    } else {
        return None;
    };
    let is_true = s.bits & 0xFFFF_FFFF != 0;
    is_true.then(|| Expected::exact(u128::from(1u32.wrapping_sub(c.bits as u32)), result.width))
}

/// C3-3: `setp.{eq,ne}.{u32,s32} p, s, 1` or `set.{eq,ne}.<dst>.{u32,s32} d, s, 1` (the 1 an
/// immediate or a moved immediate) of a `set.<cmp>.{s32,u32}.{s32,u32,s64,u64}` result s tests
/// the set itself ([`compare_with_one_tests_the_set`]; corpus/findings/fuzz-h200-4103/, 019cca90,
/// trace/T9y4.md: `set.eq.s32.s32 r, s, 1` gives 13.0.88 -O3 `ISETP.LT; SEL R7, RZ, -1, !P0`, as
/// `v1_setp_selp`; `v2` set.ne and `v4_set_eq_u32_f32dst` too). The unsigned sources:
/// corpus/findings/fuzz-h200-3802/ (6f011808, trace/T5A.md: `set.ge.u32.u64`, 13.0.88 -O3
/// `ISETP.LT.U32…EX P0; @P0 PRMT`; `w6_u32_set.ptx`, `set.ge.u32.u32`, and `w6_s32_set.ptx` give
/// the same fold at 32 bits). The 1 first (`op d, 1, s`) alike: seed 4802's e66ac96d
/// ([`compare_with_one_first_tests_the_set`]).
fn setp_one_of_set(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let integer_set = |r| of_integer_set(m, t, r, &[GlueType::S32, GlueType::U32, GlueType::S64, GlueType::U64]);
    compare_with_one_tests_the_set(m, t, g, vals, result, integer_set)
        .or_else(|| compare_with_one_first_tests_the_set::one_first(m, t, g, vals, result, integer_set))
        .or_else(|| compare_with_one_an_unrolled_counter::counter_one(m, g, vals, result, integer_set))
}

/// The fold C3-3 and 6a4d050b share: `setp.{eq,ne}.{u32,s32} p, s, 1` or `set.{eq,ne}.<dst>.{u32,s32}
/// d, s, 1` (the 1 an immediate or a moved immediate), where `of_set` holds for s's register,
/// tests the set that wrote s: eq gives s ≠ 0, ne gives s = 0; a `set` consumer writes that
/// truth as its `<dst>` word (§9.7.7.1). `None` where g is no such compare.
pub(super) fn compare_with_one_tests_the_set(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
    of_set: impl Fn(Reg) -> bool,
) -> Option<Expected> {
    if constant(m, t, g, vals, 1)? & 0xFFFF_FFFF != 1 {
        return None;
    }
    set_compared_with_one(g, vals, result, of_set)
}

/// [`compare_with_one_tests_the_set`] once source 1 of `g` is a 1 ptxas knows (a constant there, or
/// a counter of a loop it unrolls whole: [`compare_with_one_an_unrolled_counter`]).
fn set_compared_with_one(
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
    of_set: impl Fn(Reg) -> bool,
) -> Option<Expected> {
    let (eq, set_dst) = match g.op {
        GlueOp::Setp(Cmp::Eq) => (true, None),
        GlueOp::Setp(Cmp::Ne) => (false, None),
        GlueOp::Set(Cmp::Eq, dst) => (true, Some(dst)),
        GlueOp::Set(Cmp::Ne, dst) => (false, Some(dst)),
        _ => return None,
    };
    if !matches!(g.ty, GlueType::U32 | GlueType::S32) || !of_set(reg_of_glue(g, 0)?) {
        return None;
    }
    let s = vals.first().filter(|s| s.is_exact())?;
    let truth = (s.bits & 0xFFFF_FFFF != 0) == eq;
    // A `set` consumer writes its destination type's word of the folded truth (§9.7.7.1).
    let word = match (truth, set_dst) {
        (false, _) => 0,
        (true, None) => 1,
        (true, Some(SetDst::F32)) => 0x3F80_0000,
        (true, Some(_)) => 0xFFFF_FFFF,
    };
    Some(Expected::exact(word, result.width))
}

/// C1-N3: `shr.s16 d, a, c` with c written by `cnot.b32` of a register: c = 1 (the register
/// was 0) fills d with a's sign (the clamp `umin(c, 16)` is folded as `−c >u 0x8000 ?
/// 0xffff8000 : c`), where §9.7.8.7 shifts by 1.
fn shr_s16_by_cnot(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shr || g.ty != GlueType::S16 || !of_cnot_of_register(m, t, reg_of_glue(g, 1)?) {
        return None;
    }
    let (a, c) = (vals.first()?, vals.get(1)?);
    if !(a.is_exact() && c.is_exact() && c.bits & 0xFFFF_FFFF == 1) {
        return None;
    }
    let fill = if a.bits & 0x8000 != 0 { 0xFFFF } else { 0 };
    Some(Expected::exact(fill, result.width))
}

/// The f32 source and rounding of the float conversion a `cvt.pack` operand `o` of thread `t`
/// comes from, for 3701-N-A: a register written by `cvt.{rni,rzi}{.sat}.u32.f32`, or by
/// `cvt.u32.u32` of one.
fn u32_float_cvt_source(m: &Machine<'_>, t: u32, o: &Operand) -> Option<(Cvt, Expected)> {
    let float_u32 = |c: &Cvt| {
        c.dtype == CvtType::U32 && c.atype == CvtType::F32 && matches!(c.rnd, Some(CvtRnd::Rni | CvtRnd::Rzi))
    };
    let r = m.reg_of(o).ok()?;
    match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), origin) if float_u32(c) => Some((*c, origin.a.clone()?)),
        (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), origin)
            if c.dtype == CvtType::U32 && c.atype == CvtType::U32 && c.rnd.is_none() =>
        {
            let first = match &m.p.body[origin.a_stmt?] {
                Stmt::Isa(Instruction { form: Form::Cvt(c0), .. }) if float_u32(c0) => *c0,
                _ => return None,
            };
            Some((first, origin.a_a.clone()?))
        }
        _ => None,
    }
}

/// 3701-N-A: `cvt.pack.sat.{s8,u8}.s32.b32 d, a, b, c` with both a and b written by
/// `cvt.{rni,rzi}{.sat}.u32.f32` of the same rounding (through a `cvt.u32.u32` too) packs the
/// signed conversion of each float (`F2IP.S8.F32`: the `.u32` clamp lost): the low 16 bits of
/// `d` are the pack of `cvt.<rnd>.s32.f32` of the two floats. `results` (the spec's) changed.
pub(super) fn pack(
    m: &mut Machine<'_>,
    t: u32,
    p: &CvtPack,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::PackOfU32CvtFusedSigned;
    let Some((dst, spec)) = byte_pack_with_c(m, d, p, &results) else { return results };
    let (dst, spec) = (&dst, &spec);
    let source = |k: usize| inst.operands.get(k).and_then(|o| u32_float_cvt_source(m, t, o));
    let (Some((ca, xa)), Some((cb, xb))) = (source(1), source(2)) else { return results };
    if ca.rnd != cb.rnd {
        return results;
    }
    let signed = |c: Cvt, x: &Expected| {
        let f = Form::Cvt(Cvt { dtype: CvtType::S32, sat: false, ..c });
        x.is_exact().then(|| convert(m, &f, x.bits & 0xFFFF_FFFF)).flatten().filter(Expected::is_exact)
    };
    let (Some(sa), Some(sb)) = (signed(ca, &xa), signed(cb, &xb)) else { return results };
    let low = cvt_pack::eval(p, sa.bits as u32, sb.bits as u32, 0).field(0, 16);
    let (dst, from) = (*dst, spec.clone());
    let mut to = from.clone();
    to.replace(0, low);
    vec![(dst, m.fire(d, &from, to))]
}

/// Whether some `xor.{b16,b32,b64}` of the program reads a boolean ptxas derives from a set
/// (C1-N2's trigger, a compile-time fact): a source register whose last writer before the xor
/// in the body is a `set.<cmp>.{u32,s32}.<type>` (the same −1/0 word; `.s32`: seed 4803's 34986b1e,
/// `trace/34986b1e/s49/v6_int_cvt_set_s32_trigger`, `SEL R7, RZ, 0x3c00`), a `mov.b32` unpack of a register whose last writer
/// before the unpack is one (the reduced kernel's `mov.b32 {%h11, %h12}, %r5; xor.b16 %h13,
/// %h4, %h11`), or an integer `cvt` of any set's result (corpus/findings/fuzz-h200-4003/,
/// 2fb09e8f, trace/T7H.md: `cvt.rni.u64.f32 d1, r8; xor.b64 d1, d1, d1` of a set.f32; the xor
/// of the set.f32 word itself, v2, is right).
pub(super) fn xor_reads_an_integer_set(m: &Machine<'_>) -> bool {
    let is_set =
        |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::U32 | SetDst::S32)));
    let is_any_set = |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(..)));
    let of_set = |k: usize, r: Reg| {
        set_or_unpack_of_set(m, k, r, &is_set)
            || matches!(last_writer(m, k, r), Some((u, Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. })))
                if c.dtype.is_int()
                    && operands
                        .get(1)
                        .and_then(|o| m.reg_of(o).ok())
                        .and_then(|w| last_writer(m, u, w))
                        .is_some_and(|(_, s)| is_any_set(s)))
    };
    m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, .. }
            if glue.op == GlueOp::Xor && matches!(glue.ty, GlueType::B16 | GlueType::B32 | GlueType::B64) =>
        {
            (0..2).filter_map(|i| reg_of_glue(glue, i)).any(|r| of_set(k, r))
        }
        _ => false,
    })
}

/// 3701 C1-N2's trigger as a `not`: whether some `not.{b16,b32}` of the program reads a
/// `set.<cmp>.{u32,s32}` result or a half a `mov.b32` unpack took of one (seed 5501's 4dd1a6c2
/// and 75848456, corpus/findings/fuzz-h200-5501/trace/T56B.md, variants in trace/4dd1a6c2/s56/;
/// ptxas 13.0.88 and 13.5 -O3 identical: `set.lt.u32.s32 r8; not.b32 r9, r8` beside
/// `set.lt.f32.s32 r3; cvt.rn.bf16.u32 h2, r3` is `SEL R, RZ, 0x3f80, !P`, bf16 1.0 where
/// §9.7.9.21 converts 0x3f800000). Wrong: the case's xor of the `not`'s halves (`reduced`), the
/// `not.b32` alone stored (m4; m10 `cvt.rn.f32.u32`: `FSEL R7, RZ, 1`), `not.b16` of a half of the
/// set (m11), the `not` xored with a load (m6). Right: the integer set without a `not` (m8), a
/// `not` of a loaded word (m9). Seed 4203's t5 showed the same `not` trigger for the 64-bit
/// widening ([`super::set_f32_widened_as_its_boolean`]'s `logic_of_a_predicate_mask`).
pub(super) fn not_reads_an_integer_set(m: &Machine<'_>) -> bool {
    let is_set =
        |s: &Stmt| matches!(s, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::U32 | SetDst::S32)));
    m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, .. } if glue.op == GlueOp::Not && matches!(glue.ty, GlueType::B16 | GlueType::B32) => {
            reg_of_glue(glue, 0).is_some_and(|r| set_or_unpack_of_set(m, k, r, &is_set))
        }
        _ => false,
    })
}

/// The last statement before body index `before` that writes `r`, with its index.
pub(super) fn last_writer<'p>(m: &Machine<'p>, before: usize, r: Reg) -> Option<(usize, &'p Stmt)> {
    m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, r))
}

/// Whether register `r`, read at body index `k`, was last written by a statement `is_set`
/// accepts (a set of the destination types a cause names), or by a `mov` unpack into two halves
/// of a register such a statement wrote last (one half of the set's word).
pub(super) fn set_or_unpack_of_set(m: &Machine<'_>, k: usize, r: Reg, is_set: &dyn Fn(&Stmt) -> bool) -> bool {
    match last_writer(m, k, r) {
        Some((_, w)) if is_set(w) => true,
        Some((u, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }))) if mv.shape == MovShape::Unpack(2) => {
            let w = operands.get(1).and_then(|o| m.reg_of(o).ok());
            w.and_then(|w| last_writer(m, u, w)).is_some_and(|(_, s)| is_set(s))
        }
        _ => false,
    }
}

/// 3701 C1-N2: a float `cvt.<frnd>.<float>.{s32,u32} d, s` of a `set.<cmp>.f32.<any type>`
/// result s, in a program an xor of a set-derived boolean triggers
/// ([`xor_reads_an_integer_set`], or a `not` of one, [`not_reads_an_integer_set`]), converts s's |word|: 1 where the set is true, 0 where false
/// (`SEL R7, RZ, 0x3c00, !P1`: 1.0, not +inf). The mechanism: ptxas rebuilds the set.f32 from
/// its predicate as the boolean and converts the number. Any set source type and either
/// integer source type of the cvt (corpus/findings/fuzz-h200-4002/, 12e77443, trace/T7C.md:
/// `set.gt.f32.u16; cvt.rn.f32.u32` is `FSEL R7, RZ, 1, !P0`; v2–v5 .s32/.u32/.u16 alike;
/// fuzz-h200-4003/, 2fb09e8f, T7H.md: `set.gt.f32.s32`, v7 `.f32` set); every float
/// destination (the conversion of 0 and 1 is exact under any float rounding). The other
/// trigger: an if-converted test against zero after another branch
/// ([`set_f32_boolean_after_a_zero_test_diamond::zero_test_diamond_after_a_branch`], fuzz-h200-4303/, 67fafce8, T14x4.md);
/// and a zero test split into a branch arm, the set's word read by the cvt alone
/// ([`set_f32_boolean_beside_a_zero_test_split_into_an_arm::triggers_for`], fuzz-h200-4901/, 55b28c51,
/// T20.md: v/v16 `SEL R7, RZ, 0x3c00`; s49/v5, the word also stored, right); and an `and`/`xor.b32` of
/// the cvt's own result and another set.f32-derived word
/// ([`set_f32_boolean_beside_a_logic_op_of_set_f32_words::logic_op_of_the_cvt_and_a_set_f32_word`],
/// fuzz-h200-5103/, 15219630, T22c.md).
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet;
    let plain = !c.sat && !c.relu && !c.satfinite && !c.ftz;
    if !m.allow.emulates(d)
        || !matches!(c.atype, CvtType::S32 | CvtType::U32)
        || !c.dtype.is_scalar_float()
        || !c.rnd.is_some_and(CvtRnd::is_frnd)
        || !plain
    {
        return None;
    }
    let s = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let set_at = match m.producer(t, s) {
        Some((Stmt::Glue { glue, .. }, o)) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)) => Some(o.stmt),
        _ => None,
    };
    let of_set_f32 = set_at.is_some();
    let triggered = || {
        xor_reads_an_integer_set(m)
            || not_reads_an_integer_set(m)
            || set_f32_boolean_after_a_zero_test_diamond::zero_test_diamond_after_a_branch(m)
            || set_at.is_some_and(|k| set_f32_boolean_beside_a_zero_test_split_into_an_arm::triggers_for(m, k, s))
            || set_at.is_some_and(|k| set_f32_boolean_of_a_set_tested_against_zero::tests_a_set_against_zero(m, k))
            || inst.operands.first().and_then(|o| m.reg_of(o).ok()).is_some_and(|d| {
                set_f32_boolean_beside_a_logic_op_of_set_f32_words::logic_op_of_the_cvt_and_a_set_f32_word(m, m.stmt, d)
            })
    };
    if !of_set_f32 || !triggered() {
        return None;
    }
    let word = m.read(t, s).ok().filter(Expected::is_exact)?;
    let number = u128::from(word.bits & 0xFFFF_FFFF != 0);
    Some((d, convert(m, &inst.form, number)?))
}
