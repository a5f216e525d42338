//! What the traces of seed 3701 (corpus/findings/fuzz-h200-3701/trace/TC1.md … TC4.md) showed
//! of known root causes beyond their first scopes, where it needs more than a changed condition
//! in `emulate.rs`: which values ptxas knows at compile time ([`Origin::known_since`], asked by
//! N-7 and 3501-N2), and F's 16-bit multiplies of an overflowed negation ([`glue`]); F's 16-bit
//! unsigned readers of an `abs.s16` of a −2^15 ptxas learns ([`f_abs16_of_a_learned_minimum`], seed
//! 6202's 61e60b91).
//!
//! A value is known at compile time as the program checker's constants are
//! (generator/src/program/check.rs, `const_result`): written by an unguarded `mov` of an integer
//! immediate (or, beyond the checker, of a float immediate's bits: [`moves_known`]), or by
//! unguarded glue (no carry read) whose sources are immediates and such values; forgotten at a join of a forward branch ([`forget_at_join`]) and where a write whose guard
//! was false names the register ([`forget`], [`forget_skipped_isa`]). The checker lets a loop branch
//! back only on such a predicate (at most eight trips, generator `folds::MAX_TRIPS`), which ptxas
//! unrolls whole: a counter is known on every trip (e3375831, 2d12fb46: the shift amounts of the
//! unrolled loop are immediates in the 13.0.88 -O3 listing). Beyond the checker, two forms the
//! listings show folded: a `shfl.sync` without a predicate destination of a known value (every
//! lane holds it; 3b8517e9's `or.b32` of two shuffles of constants, folded by 13.0.88 -O3) and a
//! `selp` by a known predicate of a known value (2d12fb46: the loop's exit predicate, known after
//! the unrolling, selects a moved immediate). Seed 3903 adds an unguarded `mov.f32` copy of a
//! known value (60d48019, `Machine::origin_of`) and a `set` whose comparison the value ranges of
//! its sources decide (972eb062, `emulate/cnot_number_and_range_decided_sets.rs`).
//!
//! Invariants: the known flag is only recorded (no value changes); [`glue`] changes a result only
//! where F is emulated and the instruction and its producer are the ones TC3 shows wrong.

pub(super) mod f_abs16_of_a_learned_minimum;

use super::origin::negated16;
use super::{imm_of, is_min, mul_step_unread_shfl_predicate_folded_zero, reg_of_glue, Origin};
use crate::isa::operand::{Imm, Operand, Role};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// Whether the value register `r` of thread `t` holds is known at compile time.
pub(super) fn known(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    m.origins.get(t as usize).and_then(|o| o.get(&r)).is_some_and(|o| o.known_since == Some(m.joins))
}

/// The value of source `k` of `g` when ptxas knows it: an immediate, or a register holding a
/// known value (`vals[k]`, exact).
pub(super) fn known_source(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], k: usize) -> Option<u64> {
    imm_of(g, k).or_else(|| {
        reg_of_glue(g, k).filter(|&r| known(m, t, r))?;
        vals.get(k).filter(|v| v.is_exact()).map(|v| v.bits as u64)
    })
}

/// Whether the result of the glue statement `g` being run in thread `t` (source values `vals`)
/// is known at compile time: unguarded, no carry read, and every source an immediate or a known
/// value; a `selp` also when its predicate is known and the source it selects is.
pub(super) fn glue_known(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> bool {
    let unguarded = matches!(m.p.body.get(m.stmt), Some(Stmt::Glue { guard: None, .. }));
    if !unguarded || g.op.reads_carry() {
        return false;
    }
    let source = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(r)) => known(m, t, r),
        None => false,
    };
    // A `set` whose comparison the value ranges of its sources decide is known too
    // (`emulate/cnot_number_and_range_decided_sets.rs`).
    if (0..g.op.arity()).all(source) || super::cnot_number_and_range_decided_sets::range_decided_set(m, t, g) {
        return true;
    }
    g.op == GlueOp::Selp
        && source(2)
        && vals.get(2).is_some_and(Expected::is_exact)
        && source(if vals[2].bits == 1 { 0 } else { 1 })
}

/// Whether a `mov` of `inst` writes a known value: unguarded, of an integer immediate or a
/// float immediate given by its bits (`0f…`, `0d…`): ptxas folds its bits as it folds an
/// integer's (corpus/findings/fuzz-h200-3801/, 33969c1e, trace/T4A.md: `mov.f32 %r2, 0fFCE4DDCA`
/// as bfe.s32's start and length gives the same 13.0.88 -O3 `MOV R7, 0xffffffff` as `mov.b32`
/// of those bits, `v1_int_mov`). A decimal float literal is not: its bits are the assembler's.
pub(super) fn moves_known(inst: &Instruction) -> bool {
    inst.guard.is_none()
        && matches!(inst.form, Form::Mov(_))
        && matches!(inst.operands.get(1), Some(Operand::Imm(Imm::Int(_) | Imm::F32Bits(_) | Imm::F64Bits(_))))
}

/// The origin `shfl.sync` `inst` gives its destinations (it is their producer): known when it
/// has no predicate destination, or one nothing reads (ptxas drops it; seed 4303's c24603c9,
/// `emulate/mul_step_unread_shfl_predicate_folded_zero.rs`), and its value `a` is an immediate or, in every thread, a
/// known value (every lane then reads the same value, §9.7.9.6).
pub(in crate::program) fn shuffle_origin(m: &Machine<'_>, inst: &Instruction) -> Origin {
    let mut o = Origin::written(m.stmt, None, None);
    let pred_dst = matches!(inst.form, Form::ShflSync(s) if s.pred_dst);
    let known = (!pred_dst || mul_step_unread_shfl_predicate_folded_zero::predicate_destination_unread(m, inst))
        && inst.guard.is_none()
        && match inst.operands.get(1) {
            Some(Operand::Imm(Imm::Int(_))) => true,
            Some(op) => m.reg_of(op).is_ok_and(|r| (0..m.origins.len() as u32).all(|t| known(m, t, r))),
            None => false,
        };
    o.known_since = known.then_some(m.joins);
    o
}

/// Forgets which values are known at the label at body index `label` when a forward branch
/// targets it (a join: a value may come from either path, as the checker's constants are
/// cleared there): counts the join, which every value known before it stops being
/// ([`Origin::known_since`]).
pub(in crate::program) fn forget_at_join(m: &mut Machine<'_>, label: usize) {
    let Some(Stmt::Label(l)) = m.p.body.get(label) else { return };
    let l = *l;
    if m.p.body[..label].iter().any(|s| matches!(s, Stmt::Bra { label: b, .. } if *b == l)) {
        m.joins += 1;
    }
}

/// Forgets that the registers `inst`, whose guard was false in thread `t`, writes hold known
/// values: ptxas merges the old value by the guard (`SEL`), as the checker forgets a register a
/// guarded instruction writes.
pub(super) fn forget_skipped_isa(m: &mut Machine<'_>, t: u32, inst: &Instruction) {
    let mut written = Vec::new();
    for (spec, o) in inst.form.operands().iter().zip(&inst.operands) {
        if spec.role != Role::Src && !matches!(o, Operand::Address { .. }) {
            crate::program::text::operand_regs(o, &mut written);
        }
    }
    forget(m, t, &written);
}

/// Forgets that the registers `regs` of thread `t` hold known values (a skipped write names them).
pub(super) fn forget(m: &mut Machine<'_>, t: u32, regs: &[Reg]) {
    if let Some(origins) = m.origins.get_mut(t as usize) {
        for r in regs {
            if let Some(o) = origins.get_mut(r) {
                o.known_since = None;
            }
        }
    }
}

/// F, 16-bit multiplies (corpus/findings/fuzz-h200-3701/, 434a41d1, trace TC3.md; ptxas 13.0.88
/// -O3 and the JIT, 13.5 right): `mul.hi.s16`, `mad.hi.s16` and `mul.wide.s16` of an overflowed
/// `abs.s16`/`neg.s16` (−2^15) read it as +2^15 at 32 bits (`PRMT R0, R2, 0x9910; IMAD.MOV R0,
/// RZ, RZ, -R0; IMAD.SHL.U32 R0, R0, 0x8; SHF.R.S32.HI R7, RZ, 0x10, R0`: no wrap back to 16
/// bits; 13.5 adds `PRMT R0, R0, 0x9910`), either operand, by an immediate or a register. The
/// product is the 32-bit `mul.lo.s32` of the two sign-extended operands (+2^15 for the
/// overflowed one; no product of two 16-bit magnitudes overflows it), then for `.hi` its
/// `shr.s32` by 16 plus `c` (`add.u16`), for `.wide` the product itself (§9.7.1.3, §9.7.1.4).
/// `mad.wide.s16` too, the product plus `c` at 32 bits (corpus/findings/fuzz-h200-3903/,
/// 14a3a4b4, trace/T6G.md: `PRMT 0x9910; IADD3 R7, RZ, -R0; IMAD R7, R6, R7, R9`, 13.0.88 -O3;
/// corpus/findings/fuzz-h200-3902/, 9a95803a, trace/T6E.md: `IABS R7, R0; IMAD R7, R7, 0x3f`).
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let hi = match g.op {
        GlueOp::MulHi | GlueOp::MadHi => true,
        GlueOp::MulWide | GlueOp::MadWide => false,
        _ => return None,
    };
    if !m.allow.emulates(Deviation::NegationOverflow) || g.ty != GlueType::S16 {
        return None;
    }
    let overflowed = |k: usize| reg_of_glue(g, k).is_some_and(|r| negated16(m, t, r)) && is_min(&vals[k], 16);
    if !vals.iter().all(Expected::is_exact) || !(overflowed(0) || overflowed(1)) {
        return None;
    }
    let wide = |k: usize| if overflowed(k) { 0x8000 } else { u64::from(i32::from(vals[k].bits as u16 as i16) as u32) };
    let at_32 = |op: GlueOp, ty: GlueType, s: [u64; 2]| Glue { op, ty, ..*g }.eval([s[0], s[1], 0, 0], false);
    let product = at_32(GlueOp::MulLo, GlueType::S32, [wide(0), wide(1)]);
    let bits = if hi {
        let high = at_32(GlueOp::Shr, GlueType::S32, [product, 16]);
        let c = if g.op == GlueOp::MadHi { vals[2].bits as u64 } else { 0 };
        at_32(GlueOp::Add, GlueType::U16, [high & 0xFFFF, c & 0xFFFF])
    } else if g.op == GlueOp::MadWide {
        at_32(GlueOp::Add, GlueType::U32, [product & 0xFFFF_FFFF, vals[2].bits as u64 & 0xFFFF_FFFF])
    } else {
        product
    };
    let v = Expected::exact(u128::from(bits), result.width);
    Some(m.fire(Deviation::NegationOverflow, result, v))
}
