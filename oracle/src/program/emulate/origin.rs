//! Producer tracking for the register-program emulations: where the value each register of
//! each thread holds was made ([`Origin`]), how a statement passes origins on
//! ([`Machine::origin_of`], [`glue_origin`]) and the questions the emulations ask of a value's
//! producer (f32 typing and its boundaries for B, packed halves for D, negations for F, the
//! `shl.b64` chain of 3501-N2, M's unmasked value, whether ptxas knows the value).
//!
//! Invariants: origins are recorded only while a program deviation is emulated; a query never
//! changes an origin; `mov` copies and unpacks keep their source's origin, f32 copies (`mov.f32`,
//! a plain `cvt.f32.f32`) are producers that remember the producer of what they copied (see
//! [`Machine::origin_of`]).

use super::fuzz3602::{unchanged_between, writes};
use super::multiplier_chain_folded_to_its_low_word::Affine;
use super::negation_inside_fused_min_max_read_as_its_source::{self, NegatedOperand};
use super::{
    d_copies_dropped_before_tf32, f_negation16_through_a_16bit_cvt_copy, known_at_compile_time,
    mul_chain_zero_word_and_predicate_zero_one, mul_step_unread_shfl_predicate_folded_zero,
    multiplier_chain_folded_to_its_low_word, n7_known_within_one_block, producer_forms_of_o_f_g_m,
    shl_chain_of_zero_extended_base, shl_chain_through_constant_adds, shl_chain_through_doubling_add,
    skipped_integer_copy_and_f2fp_mask,
};
use crate::isa::operand::{Operand, Role};
use crate::isa::types::{MemType, Space};
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape, MovType};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::{PredGuard, Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// Where the value a register holds was made.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::program) struct Origin {
    /// The producing statement (body index); `mov` copies looked through.
    pub(in crate::program) stmt: usize,
    /// The producer's first source value (`a`), for a `cvt` or glue producer.
    pub(in crate::program) a: Option<Expected>,
    /// The producer's second source value (`b`), for a glue producer (3702-N1: x of `max.u16 h,
    /// K, x`).
    pub(in crate::program) b: Option<Expected>,
    /// The statement that produced that first source's value, for a `cvt` or glue producer
    /// reading a register whose producer is recorded.
    pub(in crate::program) a_stmt: Option<usize>,
    /// The statement that produced *that* statement's first source (two producers back), for a
    /// glue producer whose source's origin records one (3501-N3: `cnot` of a `cvt` of a `set`).
    pub(in crate::program) a_a_stmt: Option<usize>,
    /// For a `cvt` producer reading a register whose producer recorded its own first source
    /// value, that value (two producers back: 3701-N-A's `cvt.u32.u32` of a float `cvt` reads
    /// the float).
    pub(in crate::program) a_a: Option<Expected>,
    /// Whether a float `cvt` whose guard was false named the register after its producer (A:
    /// ptxas merges the old value into the cvt's float result, [`skipped_isa`](super::skipped_isa)).
    pub(in crate::program) float_merged: bool,
    /// The `cvt` to `.f32` or `.tf32` (or `mov.f32` copy) whose guard was false after the
    /// producer, if one named the
    /// register (B: the merged register is f32-typed to a 64-bit shift that reads it as its
    /// amount, [`skipped_isa`](super::skipped_isa); its statement is where that typing starts, [`boundary_between`]).
    pub(in crate::program) f32_merged: Option<usize>,
    /// Whether an instruction writing a non-f32 type whose guard was false named the register
    /// after its producer (B: ptxas merges it with `SEL` and the shift reads the merge raw,
    /// [`skipped_glue`](super::skipped_glue) and [`skipped_isa`](super::skipped_isa)), or an
    /// integer `mov` copied the value here (the shift reads the copy raw, [`f32_typed`]); the
    /// mirror of [`Origin::f32_merged`].
    pub(in crate::program) f32_cleared: bool,
    /// For a value made by a chain of `shl.b64` by immediates below 32 (each shifting the last's
    /// result), the chain (3501-N2).
    pub(in crate::program) shl_chain: Option<ShlChain>,
    /// For an `and.b16` of a `cvt.rz.f16.f32` result with an immediate mask, the value unmasked
    /// (M: what a pack of it as the low half stores, [`stored`](super::stored) and [`isa`](super::isa)).
    pub(in crate::program) unmasked: Option<Expected>,
    /// When ptxas knows the value at compile time (an unguarded move of an immediate,
    /// unguarded glue or a shuffle of such values; `emulate/known_at_compile_time.rs` says which), the
    /// number of joins passed when it was written (known until the next join): N-7's field and
    /// 3501-N2's amounts and addend.
    pub(in crate::program) known_since: Option<u64>,
    /// When the value is known and every step computing it ran in one ptxas basic block, that
    /// block's number ([`Machine::blocks`]; `emulate/n7_known_within_one_block.rs`): N-7's `a`.
    pub(in crate::program) local_block: Option<u64>,
    /// For a 64-bit multiple of a base composed by d438d526's steps (a run of multiplies by
    /// ±0x7fffffff, a `shl.b64` chain added to its base), the composition
    /// (`emulate/multiplier_chain_folded_to_its_low_word.rs`).
    pub(in crate::program) affine: Option<Affine>,
    /// For a signed `min`/`max` of a negation −x (an unsigned one of a `cnot`), the operand and
    /// what df7cd5e3's fused `VIMNMX3` reads in its place
    /// (`emulate/negation_inside_fused_min_max_read_as_its_source.rs`).
    pub(in crate::program) negated_operand: Option<NegatedOperand>,
    /// For a `lop3` producer, the origin its `c` source's value had where it ran (its own
    /// `c_source` dropped): 3702-N2's `c` that repeats `a` once ptxas folds an identity with 0
    /// (seed 5403's 6cd4a975, `emulate/lop3_c_repeating_a_through_a_zero_identity.rs`).
    pub(in crate::program) c_source: Option<Box<Origin>>,
}

/// A chain of `shl.b64` by immediates below 32, each reading the previous one's result.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::program) struct ShlChain {
    /// The sum of the amounts.
    pub(in crate::program) total: u64,
    /// The sum of the amounts up to and including the first shift at which it reached 32, once
    /// it has.
    pub(in crate::program) cut: Option<u64>,
    /// The value the first shift shifted.
    pub(in crate::program) base: Expected,
    /// Whether the chain went through a 64-bit add or sub of a constant after a shift (each
    /// shift and add one `LEA` pair; `emulate/shl_chain_through_constant_adds.rs`).
    pub(in crate::program) through_adds: bool,
    /// For a chain through adds, the value after the add that follows the shift at which the
    /// running amount reached 32 (what ptxas keeps, every later pair dropped).
    pub(in crate::program) at_cut: Option<Expected>,
    /// Whether a step of the chain is a `mul.lo.u64` by 2^k (seed 4102's 9fdf9221): ptxas then
    /// keeps the constants added between the steps exact
    /// ([`multiply_chain_cut`](super::mul_chain_zero_word_and_predicate_zero_one::multiply_chain_cut)).
    pub(in crate::program) by_multiply: bool,
    /// The chain's value for a base of 0: the constants added between the steps, shifted by
    /// the later steps (what a chain with a multiply step keeps exact, seed 4102's 9fdf9221).
    pub(in crate::program) constant: u64,
    /// The product (mod 2^64) of the steps' factors (2^k for a shift, the multiplier for a
    /// multiply) up to and including the cut, or of every step before one (what a multiply
    /// chain keeps of its base; seed 4303's 02990ceb, `emulate/mul_step_unread_shfl_predicate_folded_zero.rs`).
    pub(in crate::program) kept_factor: u64,
    /// The amount of the first shift when ptxas does it as the widening of a zero-extended base,
    /// not counted toward the cut of a plain chain (seed 4501's 6275f4b8,
    /// `emulate/shl_chain_of_zero_extended_base.rs`); 0 otherwise.
    pub(in crate::program) uncounted: u64,
}

impl Origin {
    /// The origin of a register written by statement `stmt` (first source value `a`, produced by
    /// `a_stmt`), no skipped `cvt` merged into it.
    pub(in crate::program) fn written(stmt: usize, a: Option<Expected>, a_stmt: Option<usize>) -> Origin {
        Origin {
            stmt,
            a,
            b: None,
            a_stmt,
            a_a_stmt: None,
            a_a: None,
            float_merged: false,
            f32_merged: None,
            f32_cleared: false,
            shl_chain: None,
            unmasked: None,
            known_since: None,
            local_block: None,
            affine: None,
            negated_operand: None,
            c_source: None,
        }
    }
}

impl Machine<'_> {
    /// The producer of the value register `r` of thread `t` holds, if recorded.
    pub(super) fn producer(&self, t: u32, r: Reg) -> Option<(&Stmt, &Origin)> {
        let o = self.origins.get(t as usize)?.get(&r)?;
        Some((&self.p.body[o.stmt], o))
    }

    /// The `cvt` that produced the value of the register operand `o` of thread `t`.
    pub(super) fn cvt_producer(&self, t: u32, o: Option<&Operand>) -> Option<(Cvt, &Origin)> {
        let r = self.reg_of(o?).ok()?;
        match self.producer(t, r)? {
            (Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), origin) => Some((*c, origin)),
            _ => None,
        }
    }

    /// The origin the statement being run gives the registers it writes in thread `t`: a `mov`
    /// copy or unpack of a register passes on that register's origin (its halves keep their
    /// producer; an integer copy ends B's f32 typing, [`f32_typed`]), every other writer (a move
    /// of an immediate included) is the producer (with its first source value, and that value's
    /// producer, for a `cvt`).
    pub(in crate::program) fn origin_of(&self, t: u32, inst: &Instruction) -> Option<Origin> {
        match &inst.form {
            Form::Mov(mv) if matches!(mv.shape, MovShape::Copy | MovShape::Unpack(_)) && mv.ty != MovType::F32 => {
                match self.reg_of(inst.operands.get(1)?) {
                    Ok(r) => self.origins[t as usize].get(&r).cloned().map(|mut o| {
                        if mv.shape == MovShape::Copy {
                            merge_f32(&mut o, false, self.stmt);
                        }
                        o
                    }),
                    // A move of an immediate is its value's producer.
                    Err(_) => Some(Origin {
                        known_since: known_at_compile_time::moves_known(inst).then_some(self.joins),
                        local_block: known_at_compile_time::moves_known(inst).then_some(self.blocks),
                        ..Origin::written(self.stmt, None, None)
                    }),
                }
            }
            // A `mov.f32` copy is its value's producer (B: it makes the register f32-typed); its
            // `a_stmt` is the producer of the value it copied, f32 copies ([`f32_copy`]) looked
            // through (D, [`packed_half_producer`]).
            Form::Mov(mv) if mv.shape == MovShape::Copy && mv.ty == MovType::F32 => {
                let copied = inst.operands.get(1).and_then(|o| self.reg_of(o).ok());
                let a_stmt =
                    copied.and_then(|r| self.origins[t as usize].get(&r)).and_then(|o| self.copied_producer(o));
                // A move of a float immediate's bits is known as an integer's is (N-7, 33969c1e),
                // and so is an unguarded copy of a known value (corpus/findings/fuzz-h200-3903/,
                // 60d48019, trace/T6F.md: `mov.f32 %r0, %r0` of a moved 0x3ea8a372 as bfe.s32's
                // start is N-7's fold, 13.0.88 -O3).
                let copied_known =
                    inst.guard.is_none() && copied.is_some_and(|r| known_at_compile_time::known(self, t, r));
                let known_since = (known_at_compile_time::moves_known(inst) || copied_known).then_some(self.joins);
                let copied_locally = inst.guard.is_none()
                    && copied.is_some_and(|r| n7_known_within_one_block::known_locally(self, t, r));
                let local_block = (known_at_compile_time::moves_known(inst) || copied_locally).then_some(self.blocks);
                Some(Origin { known_since, local_block, ..Origin::written(self.stmt, None, a_stmt) })
            }
            Form::Cvt(c) => {
                let a = inst.operands.get(1).and_then(|o| self.source(t, o, 64).ok());
                let r = inst.operands.get(1).and_then(|o| self.reg_of(o).ok());
                let source = r.and_then(|r| self.origins[t as usize].get(&r));
                // A plain `cvt.f32.f32` is a copy too: its `a_stmt` looks through f32 copies as a
                // `mov.f32`'s does (D).
                let a_stmt = if plain_f32_cvt(c) {
                    source.and_then(|o| self.copied_producer(o))
                } else {
                    source.map(|o| o.stmt)
                };
                let mut o = Origin::written(self.stmt, a, a_stmt);
                o.a_a = source.and_then(|o| o.a.clone());
                // M: a byte conversion is a mask by 0xff (`emulate/producer_forms_of_o_f_g_m.rs`).
                o.unmasked = producer_forms_of_o_f_g_m::unmasked_by_byte_cvt(self, t, c, r, o.a.as_ref());
                // An integer `cvt` of a known value is known (N-7, seed 4703's 08e15a19,
                // `emulate/known_through_integer_cvt.rs`).
                super::known_through_integer_cvt::mark_known(self, t, inst, c, r, &mut o);
                Some(o)
            }
            _ => Some(Origin::written(self.stmt, None, None)),
        }
    }

    /// The producer of the value whose origin is `o`, f32 copies ([`f32_copy`]) looked through
    /// (their own `a_stmt`).
    fn copied_producer(&self, o: &Origin) -> Option<usize> {
        if f32_copy(&self.p.body[o.stmt]) {
            o.a_stmt
        } else {
            Some(o.stmt)
        }
    }
}

/// Whether `c` is `cvt.f32.f32` with no rounding, `.ftz` or `.sat`: a copy, which ptxas drops
/// (corpus/findings/fuzz-h200-3701/, 5a4b88eb and eb5664f7, trace TC3.md and TC4.md; ptxas
/// 13.0.88 and 13.5 -O3: the same `PRMT … 0x7610` of a register never written as with a
/// `mov.f32`; `cvt.rni.f32.f32` (`FRND`) and `cvt.ftz.f32.f32` (`FADD.FTZ`) are right).
fn plain_f32_cvt(c: &Cvt) -> bool {
    c.dtype == CvtType::F32 && c.atype == CvtType::F32 && c.rnd.is_none() && !c.ftz && !c.sat && !c.relu && !c.satfinite
}

/// Whether `s` copies an f32 value: a `mov.f32` copy or a plain `cvt.f32.f32` ([`plain_f32_cvt`]).
fn f32_copy(s: &Stmt) -> bool {
    match s {
        Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) => mv.ty == MovType::F32 && mv.shape == MovShape::Copy,
        Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) => plain_f32_cvt(c),
        _ => false,
    }
}

/// The origin a glue statement `g` (source values `vals`) gives its destination in thread `t`:
/// the statement, its first and second source values, the first's producer and that producer's
/// own first source's producer; the `shl.b64` chain it extends or starts, also through an add of
/// a constant (3501-N2); and, for M, the value unmasked.
pub(in crate::program) fn glue_origin(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Origin {
    let reg = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    };
    let source = reg(0).and_then(|r| m.origins.get(t as usize)?.get(&r));
    let mut o = Origin::written(m.stmt, vals.first().cloned(), source.map(|o| o.stmt));
    o.b = vals.get(1).cloned();
    o.a_a_stmt = source.and_then(|o| o.a_stmt);
    o.known_since = known_at_compile_time::glue_known(m, t, g, vals).then_some(m.joins);
    // Known locally: every register source known in this block (`emulate/n7_known_within_one_block.rs`).
    let local_source = |k: usize| match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => n7_known_within_one_block::known_locally(m, t, r),
        _ => true,
    };
    o.local_block = (o.known_since.is_some() && (0..g.op.arity()).all(local_source)).then_some(m.blocks);
    o.affine = multiplier_chain_folded_to_its_low_word::affine(m, t, g, vals);
    o.negated_operand = negation_inside_fused_min_max_read_as_its_source::negated_operand(m, t, g);
    if g.op == GlueOp::Lop3 && m.allow.emulates(Deviation::Lop3MergedIntoXorReadsX) {
        let c = reg(2).and_then(|r| m.origins.get(t as usize)?.get(&r));
        o.c_source = c.map(|c| Box::new(Origin { c_source: None, ..c.clone() }));
    }
    // A `mul.lo.u64` by 2^k is the same step (seed 4102, `emulate/mul_chain_zero_word_and_predicate_zero_one.rs`), and so is
    // one by any multiplier with k trailing zeros (seed 4303, `emulate/mul_step_unread_shfl_predicate_folded_zero.rs`).
    let multiply = mul_step_unread_shfl_predicate_folded_zero::mul_step(m, t, g, vals);
    // `add.{s64,u64} d, x, x` is a shift by 1 (seed 4601's d1299fe9,
    // `emulate/shl_chain_through_doubling_add.rs`).
    let doubling = multiply.is_none() && shl_chain_through_doubling_add::doubling_add(m, g);
    if m.allow.emulates(Deviation::ShlChainFoldedIntoLea)
        && ((g.op == GlueOp::Shl && g.ty.bits() == 64) || multiply.is_some() || doubling)
    {
        // The amount an immediate, or a register ptxas knows (corpus/findings/fuzz-h200-3701/,
        // e3375831 and 2d12fb46, trace TC2.md: a counted loop's counter or a moved immediate
        // gives the same 13.0.88 -O3 listing as immediates).
        let (amount, x) = match multiply {
            Some(step) => (Some(step.k), step.x),
            None if doubling => (Some(1), 0),
            None => (known_at_compile_time::known_source(m, t, g, vals, 1).map(|k| k & 0xFFFF_FFFF), 0),
        };
        let source = reg(x).and_then(|r| m.origins.get(t as usize)?.get(&r));
        if let (Some(k), Some(a)) = (amount, vals.get(x)) {
            // An amount of 32 or more is 32-bit work on the high word (13.0.88 right): no chain.
            o.shl_chain = (k < 32).then(|| {
                let read = source.and_then(|s| s.shl_chain.as_ref());
                let (total, base) = match read {
                    Some(c) => (c.total + k, c.base.clone()),
                    None => (k, a.clone()),
                };
                let (through_adds, at_cut) = read.map_or((false, None), |c| (c.through_adds, c.at_cut.clone()));
                let by_multiply = multiply.is_some() || read.is_some_and(|c| c.by_multiply);
                // A zero-extended base's first shift is the widening: a plain chain counts from
                // the second (seed 4501's 6275f4b8, `emulate/shl_chain_of_zero_extended_base.rs`).
                let uncounted = read.map_or_else(
                    || {
                        shl_chain_of_zero_extended_base::uncounted_first_shift(
                            m,
                            t,
                            reg(x),
                            k,
                            multiply.is_none() && !doubling,
                        )
                    },
                    |c| c.uncounted,
                );
                let counted = if through_adds || by_multiply { total } else { total.saturating_sub(uncounted) };
                let cut = read.and_then(|c| c.cut).or((counted >= 32).then_some(total));
                let factor = multiply.map_or(1u64 << k, |step| step.factor);
                let constant = read.map_or(0, |c| c.constant.wrapping_mul(factor));
                let kept_factor = match read {
                    Some(c) if c.cut.is_some() => c.kept_factor,
                    Some(c) => c.kept_factor.wrapping_mul(factor),
                    None => factor,
                };
                ShlChain { total, cut, base, through_adds, at_cut, by_multiply, constant, kept_factor, uncounted }
            });
        }
    }
    // A 64-bit add/sub of a constant after a shift: the chain goes on through it (seed 3802,
    // `emulate/shl_chain_through_constant_adds.rs`).
    let spec = || {
        let mut s = [0u64; 4];
        vals.iter().take(4).enumerate().for_each(|(k, v)| s[k] = v.bits as u64);
        Expected::exact(u128::from(g.eval(s, false)), 64)
    };
    if vals.iter().all(Expected::is_exact) {
        if let Some(c) = shl_chain_through_constant_adds::chain_through_add(m, t, g, vals, spec) {
            o.shl_chain = Some(mul_chain_zero_word_and_predicate_zero_one::with_added_constant(m, t, g, vals, c));
        }
    }
    // A 64-bit `min`/`max` of one register with itself is a copy ptxas drops: the chain goes on
    // through it (corpus/findings/fuzz-h200-3701/, 31e0340b, trace TC4.md: `min.s64 d, d, d`
    // after each shift, 13.0.88 -O3 `LEA …, 0xfffffffa, 0x10` of x << 32).
    let same_register = reg(0).is_some() && reg(0) == reg(1);
    if m.allow.emulates(Deviation::ShlChainFoldedIntoLea)
        && matches!(g.op, GlueOp::Min | GlueOp::Max)
        && g.ty.bits() == 64
        && same_register
    {
        o.shl_chain = source.and_then(|s| s.shl_chain.clone());
    }
    if m.allow.emulates(Deviation::F16MaskDropped) && g.op == GlueOp::And && g.ty == GlueType::B16 {
        for (k, other) in [(0usize, 1usize), (1, 0)] {
            // A mask ptxas knows (an immediate, a value known at compile time or a moved
            // immediate) is an immediate mask, and a mask of 0 is folded to 0 (corpus/findings/
            // fuzz-h200-3903/, dae791a1, trace/T6F.md; ptxas 13.0.88 -O3 of `cvt.rn.satfinite.f16.f32`
            // masked as a pack's low half: `mov.b16 h, 0` or the immediate 0 gives `PRMT R5, RZ,
            // 0x5410, R4` or `STG … RZ`, `mov.b16 h, 0x40` the same `F2FP…MERGE_C; PRMT R0, R0,
            // 0x5410, RZ`, no `LOP3`, as the immediate 0x40; a loaded mask keeps the `LOP3`).
            let known_mask = known_at_compile_time::known_source(m, t, g, vals, other).or_else(|| {
                reg(other).filter(|&r| moved_immediate(m, t, r))?;
                vals.get(other).filter(|v| v.is_exact()).map(|v| v.bits as u64)
            });
            let masked_by_imm = known_mask.is_some_and(|mask| mask & 0xFFFF != 0);
            // r written by a `.relu`/`.satfinite` `cvt.{rn,rz}.<dtype>.f32`.
            let clamped = |r: Reg, dtype: CvtType| {
                matches!(m.producer(t, r), Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _))
                    if c.dtype == dtype && c.atype == CvtType::F32 && (c.satfinite || c.relu)
                        && matches!(c.rnd, Some(CvtRnd::Rn | CvtRnd::Rz)))
            };
            // `cvt.rz.f16.f32`, and the other `F2FP` producers seed 3702 shows (c77930ea).
            let imm_maskable = reg(k).is_some_and(|r| skipped_integer_copy_and_f2fp_mask::f2fp_masked_by_imm(m, t, r));
            // corpus/findings/fuzz-h200-3701/, b714f9f1 (trace/TC3.md; 13.0.88 -O3, 13.5
            // right): a `cvt.rn{.relu}.satfinite.f16.f32` result (`F2FP.SATFINITE…MERGE_C`)
            // masked by a register (loaded, or another cvt's result) loses its `LOP3` too.
            // So does a `.relu` or `.satfinite` `cvt.{rn,rz}.f16.f32` (corpus/findings/
            // fuzz-h200-3802/, 484f5b79, trace/T5C.md: `cvt.rz.relu`, `F2FP.RELU…MERGE_C.RZ`;
            // `w6_*_regmask.ptx`: rn.relu, rz.satfinite, rz.relu.satfinite dropped, plain rn and
            // rz keep the `LOP3`). The same `.bf16` forms (corpus/findings/fuzz-h200-5401/,
            // edd64ad1, trace/T54S.md, variants in trace/edd64ad1/s54/: `cvt.rn.satfinite.bf16.f32`
            // `F2FP.SATFINITE.BF16.F32.MERGE_C; PRMT R0, R0, 0x5410, RZ`, no `LOP3`; rn.relu,
            // rz.satfinite, rz.relu, rn/rz.relu.satfinite the same; plain rn and rz `F2F.BF16.F32`
            // keep the `LOP3`).
            // A `.bf16` one counts only where the mask is not itself such a conversion
            // (corpus/findings/fuzz-h200-3802/, 484f5b79: `and.b16` of `cvt.rz.relu.f16.f32` and
            // `cvt.rn.satfinite.bf16.f32` of a moved 0 stores the f16, `F2FP.RELU.F16…; PRMT`).
            let clamped_any = |r: Reg| clamped(r, CvtType::F16) || clamped(r, CvtType::Bf16);
            let clamped_f16 = reg(k).is_some_and(|r| {
                clamped(r, CvtType::F16) || (clamped(r, CvtType::Bf16) && !reg(other).is_some_and(clamped_any))
            });
            let masked_by_reg = reg(other).is_some() && known_mask.is_none();
            // An fp8 pair as the first source, masked by a register (seed 6201's 0f100ce6).
            let pair_first = skipped_integer_copy_and_f2fp_mask::fp8_pair_masked_by_reg(m, t, g, k);
            let dropped = (masked_by_imm && imm_maskable) || (masked_by_reg && (clamped_f16 || pair_first));
            if dropped && vals.get(k).is_some_and(Expected::is_exact) {
                o.unmasked = Some(vals[k].clone());
            }
        }
    }
    // `min.u16 d, x, x` is x (folded: b714f9f1's listing has no `VIMNMX`): d keeps
    // the value M's dropped mask left in x.
    if m.allow.emulates(Deviation::F16MaskDropped) && g.op == GlueOp::Min && g.ty == GlueType::U16 {
        if let (Some(x), Some(y)) = (reg(0), reg(1)) {
            o.unmasked = source.filter(|_| x == y).and_then(|s| s.unmasked.clone());
        }
    }
    // `sub.s16 d, x, z` of a z ptxas knows is 0 is x (folded: c77930ea, `emulate/skipped_integer_copy_and_f2fp_mask.rs`).
    if let Some(unmasked) = skipped_integer_copy_and_f2fp_mask::unmasked_through_sub_of_zero(m, t, g, source) {
        o.unmasked = Some(unmasked);
    }
    // G: identity glue of a `shr.s16 … 16` result passes the shift's origin on (ptxas drops it;
    // `emulate/producer_forms_of_o_f_g_m.rs`).
    if let Some(shift) = producer_forms_of_o_f_g_m::through_identity_of_shr16(m, t, g, vals) {
        return shift;
    }
    o
}

/// How ptxas knows that a register holds a constant where a statement reads it: the one fact
/// the scopes through constants share (session 45, helper h2; `emulate/ptxas_constant_operands.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PtxasConstant {
    /// Folded as written ([`folded_constant`](super::fuzz3701::folded_constant)): a move of an
    /// immediate, a copy or `cvt` of one, unguarded glue of such values.
    Folded,
    /// Known only once ptxas drops a `shfl.sync` of a folded constant (every lane holds the
    /// same value, §9.7.9.6; [`shuffled_constant`](super::join_merged_over_shuffled_constant::shuffled_constant)),
    /// or a copy of such a shuffle: later than a folded one, which the 13.0.88 -O3 listings of
    /// seeds 4402/4403 tell apart (corpus/findings/fuzz-h200-4402/trace/a22d4fd5/s45/).
    Shuffled,
}

/// How ptxas knows that register `r` holds a constant before body index `before` (its last
/// writer reaching `before` on every path), if it does ([`PtxasConstant`]).
pub(super) fn ptxas_constant(m: &Machine<'_>, before: usize, r: Reg) -> Option<PtxasConstant> {
    const DEPTH: u32 = 3;
    if super::fuzz3701::folded_constant(m, before, r, DEPTH) {
        Some(PtxasConstant::Folded)
    } else if super::join_merged_over_shuffled_constant::shuffled_constant(m, before, r, DEPTH) {
        Some(PtxasConstant::Shuffled)
    } else {
        None
    }
}

/// Whether the value register `r` of thread `t` holds is a constant: written by a move of an
/// immediate (which ptxas folds as the immediate).
pub(super) fn moved_immediate(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Isa(Instruction { form: Form::Mov(_), operands, .. }), _))
        if matches!(operands.get(1), Some(Operand::Imm(_))))
}

/// Whether the value register `r` of thread `t` holds was produced as packed halves (D): by a
/// `cvt` to `.f16x2`/`.bf16x2`, a `mov` packing two halves or packed glue, f32 copies
/// ([`f32_copy`]) looked through (corpus/findings/fuzz-h200-3601/, d603bf3c: ptxas 13.0.88 and
/// 13.5 -O3 drop the `mov.f32` and keep the `PRMT 0x7610` of a register never written; a plain
/// `cvt.f32.f32` the same, corpus/findings/fuzz-h200-3701/, 5a4b88eb and eb5664f7).
/// A `shfl.sync` of constant halves is looked through too ([`shuffled_constant_halves`]).
/// Copies ptxas folds to their source ([`d_copies_dropped_before_tf32::copied_source`]: `or.b32 x, 0`,
/// corpus/findings/fuzz-h200-3902/, 5a4c85c6, trace/T6E.md) are looked through as well, a chain
/// of at most [`COPY_DEPTH`] of them, each with an unguarded writer of its source.
pub(super) fn packed_half_producer(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let mut k = match m.producer(t, r) {
        Some((s, o)) if f32_copy(s) => o.a_stmt,
        other => other.map(|(_, o)| o.stmt),
    };
    for _ in 0..COPY_DEPTH {
        let Some(at) = k else { return false };
        let source = match &m.p.body[at] {
            s @ Stmt::Isa(Instruction { operands, .. }) if f32_copy(s) => {
                operands.get(1).and_then(|o| m.reg_of(o).ok())
            }
            _ => d_copies_dropped_before_tf32::copied_source(m, t, at),
        };
        match source {
            Some(x) => k = d_copies_dropped_before_tf32::unguarded_writer(m, at, x),
            None => break,
        }
    }
    k.is_some_and(|k| packs_halves(&m.p.body[k]) || shuffled_constant_halves(m, t, k))
}

/// How many copies deep [`packed_half_producer`] looks.
const COPY_DEPTH: usize = 4;

/// Whether statement `s` writes packed halves: a `cvt` to `.f16x2`/`.bf16x2`, a `mov` packing
/// two halves or packed glue.
fn packs_halves(s: &Stmt) -> bool {
    match s {
        Stmt::Isa(Instruction { form: Form::Cvt(c0), .. }) => matches!(c0.dtype, CvtType::F16x2 | CvtType::Bf16x2),
        Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) => mv.shape == MovShape::Pack(2),
        Stmt::Glue { glue, .. } => matches!(glue.ty, GlueType::U16x2 | GlueType::S16x2),
        _ => false,
    }
}

/// D through a shuffle (corpus/findings/fuzz-h200-3802/, 1350d2f8, trace/T5B.md; ptxas 13.0.88
/// and 13.5 -O3): whether statement `k` of the program run by thread `t` is a `shfl.sync` with no
/// predicate destination of a register (unwritten since) that a `cvt` to `.f16x2`/`.bf16x2`, a
/// `mov` pack of two halves or packed `.{u16x2,s16x2}` glue (9f78d433) wrote from constants (immediates, or registers unwritten since
/// holding a value ptxas knows, [`known_at_compile_time::known`], as a moved immediate): every lane holds
/// the same value, ptxas drops the shuffle (§9.7.9.6: each lane reads the value of some lane) and
/// keeps the `PRMT R0, R8, 0x7610, R0` of a register never written before the tf32 conversion
/// (`.idx`, the stored case; `.bfly`, `.down` and membermask 0xffff compiled in session 39, helper
/// w8). A shuffle of a per-thread value (a per-thread load, %tid.x) and one with a predicate
/// destination keep the `SHFL` and convert its whole word (right). A load from one address for
/// every lane is dropped as well (`v2_loaded`) but is not looked through here: the oracle does
/// not know which values are warp-uniform beyond constants.
fn shuffled_constant_halves(m: &Machine<'_>, t: u32, k: usize) -> bool {
    let Stmt::Isa(inst @ Instruction { form: Form::ShflSync(s), .. }) = &m.p.body[k] else { return false };
    let a = inst.form.operands().iter().zip(&inst.operands).find(|(spec, _)| spec.name == "a").map(|(_, o)| o);
    let Some(a) = a.and_then(|o| m.reg_of(o).ok()) else { return false };
    if s.pred_dst || writes(&m.p.body[k], a) || !unchanged_between(m, a, k, m.stmt) {
        return false;
    }
    let known_reg =
        |r: Reg, since: usize| unchanged_between(m, r, since, m.stmt) && known_at_compile_time::known(m, t, r);
    let constant = |x: &Operand, since: usize| match x {
        Operand::Imm(_) => true,
        x => m.reg_of(x).is_ok_and(|r| known_reg(r, since)),
    };
    // Packed glue of constants (corpus/findings/fuzz-h200-3901/, 9f78d433, trace/T6C.md:
    // `min.s16x2 r2, r1, r1` of a moved constant, `VIMNMX.S16x2 R8, R0, 0x41c541c5; PRMT R5, R8,
    // 0x7610, R5`, 13.0.88 and 13.5 -O3): every lane holds the same value as well.
    if let Some((Stmt::Glue { glue, .. }, o)) = m.producer(t, a) {
        let packed = matches!(glue.ty, GlueType::U16x2 | GlueType::S16x2);
        let mut sources = glue.src.iter().flatten().peekable();
        let any = sources.peek().is_some();
        let all_constant = sources.all(|x| match *x {
            Src::Imm(_) => true,
            Src::Reg(r) => known_reg(r, o.stmt),
        });
        return packed && o.stmt < k && any && all_constant;
    }
    let Some((Stmt::Isa(pack), o)) = m.producer(t, a) else { return false };
    let sources: Vec<&Operand> = match &pack.form {
        Form::Cvt(c0) if matches!(c0.dtype, CvtType::F16x2 | CvtType::Bf16x2) => pack
            .form
            .operands()
            .iter()
            .zip(&pack.operands)
            .filter(|(spec, _)| spec.role == Role::Src)
            .map(|(_, o)| o)
            .collect(),
        Form::Mov(mv) if mv.shape == MovShape::Pack(2) => match pack.operands.get(1) {
            Some(Operand::Vector(items)) => items.iter().collect(),
            _ => return false,
        },
        _ => return false,
    };
    o.stmt < k && !sources.is_empty() && sources.into_iter().all(|x| constant(x, o.stmt))
}

/// The `cvt` that produced the value register `r` of thread `t` holds, f32 copies
/// ([`f32_copy`]) looked through (C's float direction: corpus/findings/fuzz-h200-3801/,
/// 0b744aae, ptxas drops a `mov.f32` between the two `cvt.sat`).
pub(super) fn cvt_through_f32_copies(m: &Machine<'_>, t: u32, r: Reg) -> Option<Cvt> {
    let stmt = match m.producer(t, r)? {
        (s, o) if f32_copy(s) => &m.p.body[o.a_stmt?],
        (s, _) => s,
    };
    match stmt {
        Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) => Some(*c),
        _ => None,
    }
}

/// The producer (and its origin) of the value register `r` of thread `t` holds, f32 copies
/// ([`f32_copy`]) looked through while each copied register still holds what it copied (its
/// producer is the one the copy recorded, and nothing wrote it since the copy), at most
/// [`COPY_DEPTH`] copies: ptxas drops them (3604-N1's amount, seed 6203's f783c3c1).
pub(super) fn producer_through_f32_copies<'m>(m: &'m Machine<'_>, t: u32, r: Reg) -> Option<(&'m Stmt, &'m Origin)> {
    let (mut s, mut o) = m.producer(t, r)?;
    for _ in 0..COPY_DEPTH {
        if !f32_copy(s) {
            return Some((s, o));
        }
        let Stmt::Isa(Instruction { operands, guard: None, .. }) = s else { return None };
        let copied = operands.get(1).and_then(|x| m.reg_of(x).ok())?;
        let (cs, co) = m.producer(t, copied)?;
        if m.copied_producer(co) != o.a_stmt || !unchanged_between(m, copied, o.stmt, m.stmt) {
            return None;
        }
        (s, o) = (cs, co);
    }
    (!f32_copy(s)).then_some((s, o))
}

/// How many statements read the value statement `k` wrote to register `r`: those after it (the
/// body branches only forward) that read `r` (as a source, an address or a guard), up to and
/// including the first that writes `r` unguarded.
pub(super) fn value_readers(m: &Machine<'_>, k: usize, r: Reg) -> usize {
    let mut n = 0;
    for s in &m.p.body[k + 1..] {
        let (reads, overwrites) = reads_and_overwrites(s, r);
        n += usize::from(reads);
        if overwrites {
            break;
        }
    }
    n
}

/// Whether some statement after body index `k` reads register `r` before it is overwritten.
pub(super) fn read_later(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    value_readers(m, k, r) > 0
}

/// Whether statement `s` reads register `r` (as a source, an address or a guard), and whether
/// it writes `r` unguarded.
pub(super) fn reads_and_overwrites(s: &Stmt, r: Reg) -> (bool, bool) {
    let pred = |g: &Option<PredGuard>| g.is_some_and(|g| Reg::Virt(RegClass::Pred, g.pred) == r);
    match s {
        Stmt::Glue { guard, glue } => {
            (pred(guard) || glue.src.contains(&Some(Src::Reg(r))), guard.is_none() && glue.dst == r)
        }
        Stmt::Isa(i) => {
            let (mut read, mut written) = (Vec::new(), Vec::new());
            for (spec, o) in i.form.operands().iter().zip(&i.operands) {
                let into = if spec.role == Role::Src || matches!(o, Operand::Address { .. }) {
                    &mut read
                } else {
                    &mut written
                };
                crate::program::text::operand_regs(o, into);
            }
            let guarded = i.guard.as_ref().is_some_and(|g| Reg::parse(&g.pred) == Some(r));
            (guarded || read.contains(&r), i.guard.is_none() && written.contains(&r))
        }
        Stmt::Bra { guard, .. } => (pred(guard), false),
        Stmt::Label(_) | Stmt::Bar => (false, false),
    }
}

/// The value M's dropped mask leaves in the register operand `o` of thread `t` (the `and.b16`
/// source unmasked), if an `and.b16` M concerns wrote it.
pub(super) fn unmasked(m: &Machine<'_>, t: u32, o: &Operand) -> Option<Expected> {
    if !m.allow.emulates(Deviation::F16MaskDropped) {
        return None;
    }
    let r = m.reg_of(o).ok()?;
    m.origins.get(t as usize)?.get(&r)?.unmasked.clone()
}

/// Where the value register `r` of thread `t` holds became f32-typed (B), if it is: its
/// producer's statement when it was loaded as `.f32`, written by a `cvt` to `.f32` or `.tf32`
/// (an f32 bit pattern, §9.7.9.21), by `mov.f32`, or by a `set` with an `.f32` destination
/// (1.0 or 0.0, §9.7.7.1; corpus/findings/fuzz-h200-3501/: ptxas 13.5 -O0 converts that float
/// back with `F2I.U64.TRUNC` before the shift); the statement of a skipped `cvt` to `.f32` that
/// named it ([`Origin::f32_merged`]). Not f32-typed (ptxas shifts by the raw bits; 13.0.88 and
/// 13.5, -O0 and -O3, corpus/findings/fuzz-h200-3601/): a value written by
/// `cvt.*.ftz*.f32.f64` (lowered as `F2F.F32.F64` plus a `DSETP`/`FMUL` flush, 12ee3dcb), or
/// one a skipped write of another type named after ([`Origin::f32_cleared`], 96e7a1b5), or one
/// an integer `mov` copied ([`Origin::f32_cleared`]: the last copy's type counts, `mov.u32`,
/// `mov.b32` and `mov.s32` shift raw, `mov.f32` converts; corpus/findings/fuzz-h200-3602/,
/// 4b388efe), or one a guarded load wrote, which is a boundary ([`boundary_between`]) and
/// shifts raw when it runs too (73350c55, `@!P0 LDG.E R13` then `SHF.R.U64 … R13`).
pub(super) fn f32_typed(m: &Machine<'_>, t: u32, r: Reg) -> Option<usize> {
    let origin = m.origins.get(t as usize).and_then(|o| o.get(&r))?;
    if origin.f32_cleared {
        return None;
    }
    if let Some(k) = origin.f32_merged {
        return Some(k);
    }
    let typed = match m.producer(t, r) {
        Some((Stmt::Isa(i), _)) => match &i.form {
            Form::Ld(l) => l.ty == MemType::F32 && !(i.guard.is_some() && shared_or_global(l.space)),
            Form::LdGlobalNc(l) => l.ty == MemType::F32 && i.guard.is_none(),
            Form::Cvt(c) => matches!(c.dtype, CvtType::F32 | CvtType::Tf32) && !(c.ftz && c.atype == CvtType::F64),
            Form::Mov(mv) => mv.ty == MovType::F32,
            _ => false,
        },
        Some((Stmt::Glue { glue, .. }, _)) => matches!(glue.op, GlueOp::Set(_, SetDst::F32)),
        _ => false,
    };
    typed.then_some(origin.stmt)
}

/// Whether a statement across which ptxas does not carry an f32 amount's typing lies strictly
/// between the body indices `from` (where the amount became f32-typed) and `to` (the 64-bit
/// shift) in program order (B; ptxas 13.0.88 and 13.5, -O0 and -O3,
/// corpus/findings/fuzz-h200-3601/, 7a844563 and 5eea61e2): a label, a `bra` (guarded or not:
/// a diamond whose label follows the shift, corpus/findings/fuzz-h200-3602/, a9fb5bb8,
/// f89b9251, abc7b2d8), `bar.sync`, `shfl.sync`,
/// or a guarded `ld`/`st` of `.global` or `.shared`, `ld.global.nc` or `prefetch`; and a 64-bit
/// bit-field instruction, `brev.b64`, `bfe.{u64,s64}`, `bfi.b64`, `bfind{.shiftamt}.{u64,s64}`
/// (corpus/findings/fuzz-h200-3602/, a5368bf9: ptxas 13.0.88 and 13.5, -O0 and -O3, whatever
/// register it touches, even dead; their 32-bit forms, `clz.b64` and `popc.b64` are not
/// boundaries). Across one the shift reads the raw bits (not a `set.f32` amount ptxas rebuilds at
/// the shift, [`b_set_f32_rebuilt_at_its_shifts`](super::b_set_f32_rebuilt_at_its_shifts)). (`fence.acq_rel.gpu`, `membar.gl`,
/// `vote`, `match`, `redux` and `activemask` are boundaries too, but the interpreter runs no
/// program with one.) A
/// `from` at or after `to` (a loop's back edge) has the loop's label between them.
pub(super) fn boundary_between(m: &Machine<'_>, from: usize, to: usize) -> bool {
    if from >= to {
        return true;
    }
    m.p.body[from + 1..to].iter().any(|s| match s {
        Stmt::Label(_) | Stmt::Bar | Stmt::Bra { .. } => true,
        Stmt::Glue { glue, .. } => {
            glue.ty.bits() == 64 && matches!(glue.op, GlueOp::Brev | GlueOp::Bfe | GlueOp::Bfi | GlueOp::Bfind { .. })
        }
        Stmt::Isa(i) => match &i.form {
            Form::ShflSync(_) => true,
            Form::Ld(l) => i.guard.is_some() && shared_or_global(l.space),
            Form::St(st) => i.guard.is_some() && shared_or_global(st.space),
            Form::LdGlobalNc(_) | Form::Prefetch(_) => i.guard.is_some(),
            _ => false,
        },
    })
}

/// Whether a memory access of state space `s` is one whose guard makes it a boundary for B
/// (`.global` or `.shared`).
fn shared_or_global(s: Option<Space>) -> bool {
    matches!(s, Some(Space::Global | Space::Shared | Space::SharedCta | Space::SharedCluster))
}

/// Whether the value register `r` of thread `t` holds was written by `abs`/`neg` of a signed
/// type (F).
pub(super) fn negated(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    negated_type(m, t, r).is_some()
}

/// Whether the value register `r` of thread `t` holds was written by `abs.s16`/`neg.s16` (F's
/// 16-bit form: ptxas 13.0.88 -O3 leaves the result at 32 bits, see [`glue`](super::glue) and [`isa`](super::isa)).
pub(super) fn negated16(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    negated_type(m, t, r) == Some(GlueType::S16)
}

/// The signed type of the `abs`/`neg` that wrote the value register `r` of thread `t` holds;
/// `sub.s16 d, z, x` of a moved 0 is `neg.s16` to ptxas (`emulate/producer_forms_of_o_f_g_m.rs`).
pub(super) fn negated_type(m: &Machine<'_>, t: u32, r: Reg) -> Option<GlueType> {
    match m.producer(t, r) {
        Some((Stmt::Glue { glue, .. }, _))
            if matches!(glue.op, GlueOp::Abs | GlueOp::Neg)
                && matches!(glue.ty, GlueType::S16 | GlueType::S32 | GlueType::S64) =>
        {
            Some(glue.ty)
        }
        Some((Stmt::Glue { glue, .. }, o)) if producer_forms_of_o_f_g_m::sub_s16_from_zero(m, glue, o) => {
            Some(GlueType::S16)
        }
        // Through a 16-bit `cvt` copy ptxas drops (seed 5902's 958e24a0).
        Some((s, o)) if f_negation16_through_a_16bit_cvt_copy::copied_negation16(m, s, o.a_stmt) => Some(GlueType::S16),
        _ => None,
    }
}

/// B's record of a write whose guard was false at statement `stmt` on the origin `o` of the
/// register it names: a `cvt` to `.f32`/`.tf32` (`f32`) makes the register f32-typed from
/// there, a write of another type clears that typing.
pub(super) fn merge_f32(o: &mut Origin, f32: bool, stmt: usize) {
    o.f32_merged = f32.then_some(stmt);
    o.f32_cleared = !f32;
}
