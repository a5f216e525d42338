//! The emulations of root causes the H200 campaign of seed 3702 found
//! (corpus/findings/fuzz-h200-3702/; traces `trace/T3B.md`, `trace/T3C.md`), called from the
//! hooks of `emulate.rs` ([`glue`], [`mov`], [`cvt`]): 3702-N1 (`setp.eq` of a `min`/`max`
//! against its immediate fused, reading "x selected"), 3702-N2 (a `lop3` merged into a
//! following `xor` chain reads the chain's other operand as its redundant input) and 3702-N3
//! (the constants −1 and 1.0f taken as equal at the join of a one-armed `if`). 3702-N2 through
//! 64-bit operations of `mov.b64` packs, and the value numbering that makes a copy of `a` `a`,
//! are `lop3_merged_through_b64_packs.rs`'s; with the operation's other operand the `lop3`'s `b` or `c`,
//! `lop3_merged_by_its_b_or_c.rs`'s.
//!
//! 3702-N3 depends on the control flow around the instruction, which the interpreter states
//! from the program's body ([`Stmt::Bra`], [`Stmt::Label`]); 3702-N1 and N2 look at the
//! producers the machine records ([`Origin`](super::Origin)) and the statements that wrote them.
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction, its producers and (3702-N3) the program structure are exactly the ones its trace
//! shows wrong; it returns `None` (the spec's result stands) otherwise.

use super::carry_reader_of_constants_with_zero_carry_in;
use super::fuzz3602::writes;
use super::fuzz3701::{constant, folded_constant, writes_folded_constant};
use super::join_arm_of_an_unpacked_constant;
use super::join_arm_pinned_by_the_branch_compare;
use super::join_merged_over_shuffled_constant;
use super::known_at_compile_time::known;
use super::lop3_c_repeating_a_through_a_zero_identity;
use super::lop3_chain_merged_into_two_outer_xors;
use super::lop3_merged_by_its_b_or_c;
use super::lop3_merged_through_b64_packs::{self, same_value};
use super::lop3_of_its_a_with_b_repeating_c;
use super::lop3_of_one_folded_constant::lop3_of_one_folded_constant;
use super::min_max_operand_known_through_a_taken_guard;
use super::one_armed_if_by_branch_around_a_branch::branch_around_a_branch;
use super::origin::{moved_immediate, value_readers};
use super::{imm_of, reg_of_glue, GlueRule};
use crate::isa::operand::{Imm, Operand};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, Src};
use crate::program::{PredGuard, Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under the glue deviations of seed 3702: `Some` (the emulated
/// result, the deviation recorded as fired) where 3702-N1, N2 or N3 (an arm's glue) applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] = &[
        (Deviation::SetpEqOfMinMaxReadsSelection, setp_eq_of_min_max),
        (Deviation::JoinOfMinusOneAndOneF32Merged, arm_glue_merged),
        (Deviation::Lop3MergedIntoXorReadsX, xor_of_lop3_chain),
        (Deviation::Lop3MergedIntoXorReadsX, lop3_chain_merged_into_two_outer_xors::xor_of_xor_of_thrice_a_lop3_chain),
        (Deviation::Lop3MergedIntoXorReadsX, lop3_merged_through_b64_packs::xor_of_packed_lop3_chain),
        (Deviation::Lop3MergedIntoXorReadsX, lop3_chain_with_no_outer_xor),
        (Deviation::Lop3MergedIntoXorReadsX, lop3_merged_by_its_b_or_c::op_of_lop3_of_its_b_or_c),
        (Deviation::Lop3MergedIntoXorReadsX, lop3_of_its_a_with_b_repeating_c::op_of_lop3_of_its_a_with_b_repeating_c),
        (Deviation::Lop3MergedIntoXorReadsX, lop3_merged_through_b64_packs::lop3_chain_of_packs),
    ];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// A `mov`'s destinations under 3702-N3 (an unguarded `mov` of an immediate or copy of a
/// constant as the arm's write): `results` (the spec's) changed where it applies.
pub(super) fn mov(
    m: &mut Machine<'_>,
    t: u32,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    let is_copy = matches!(&inst.form, Form::Mov(mv) if mv.shape == MovShape::Copy) && inst.guard.is_none();
    if !m.allow.emulates(d) || !is_copy {
        return results;
    }
    let [(dst, spec)] = results.as_slice() else { return results };
    let Some(v) = merged_at_join(m, t, *dst, spec) else { return results };
    let (dst, from) = (*dst, spec.clone());
    vec![(dst, m.fire(d, &from, v))]
}

/// A `cvt`'s destination `dst` under 3702-N3 (an unguarded `cvt` of a constant as the arm's
/// write; session 40: `cvt.rn.f32.s32 %r3, %r5` of a moved 1 over an old moved −1 is `MOV R7,
/// 0xffffffff; STG`, 13.0.88 -O3): the deviation and the old value where it applies to `spec`
/// (the spec's result).
pub(super) fn cvt(m: &Machine<'_>, t: u32, dst: Reg, spec: &Expected) -> Option<(Deviation, Expected)> {
    let d = Deviation::JoinOfMinusOneAndOneF32Merged;
    if !m.allow.emulates(d) {
        return None;
    }
    merged_at_join(m, t, dst, spec).map(|v| (d, v))
}

/// 3702-N1 (T3B, e1ce1744): `setp.eq.u16 p, h, K` of `h = max.s16 x, K` (or `min.s16`), K the
/// same immediate in both, is fused into `VIMNMX.S16x2 R0, P0, P0, x, K` whose predicate P0 is
/// "x selected" (ptxas 13.0.88 -O3 and the JIT): p = x ≥ K for `max`, x ≤ K for `min` (signed
/// 16-bit), where §9.7.7.2 tests max(x, K) = K (§9.7.1 `max`, `min`), i.e. x ≤ K for `max` and
/// x ≥ K for `min`; ties are right. A compare with x, `setp.ne` and a register K are not fused
/// (right), 13.5 never fuses it.
/// Seed 3802 (corpus/findings/fuzz-h200-3802/, 3ba99472, trace/T5A.md): `max.u16` fuses the same
/// way into `VIMNMX.U16x2` (x selected compared unsigned; v2_u16_K5), K may be a moved immediate
/// (one register in both) and the operands come in either order in the `min`/`max` and in the
/// `setp` (`max.u16 h, K, x; setp.eq.u16 p, K, h`: the same listing as v1_s16_in_scope).
/// The `setp.eq` may be of any 16-bit type (equality does not depend on it): `setp.eq.s16`
/// (corpus/findings/fuzz-h200-3903/, b4cd7e34, trace/T6F.md: `VIMNMX.S16x2 R0, P0, P0, R2, RZ,
/// !PT; SEL R6, RZ, 0xfc0f8db2, !P0`, 13.0.88 -O3), `.b16` and `min.s16` of a moved K the same
/// (session 40); `setp.ne.s16` keeps `ISETP.NE` and 32-bit `max.s32`/`min.u32` keep an `ISETP`
/// (right).
/// Seed 4002 (corpus/findings/fuzz-h200-4002/, 73c13b6f, trace/T7D.md): K may also be a
/// register a move of the same immediate wrote (another register than the setp's, ptxas folds
/// both), and x may be the min/max's immediate: `mov h1, 161; mov h0, 161; shfl.sync …; max.u16
/// h3, h1, 0; setp.eq.s16 p, h3, h0` is `VIMNMX.U16x2 R0, P0, P0, RZ, 0xa1; SEL …, !P0` with P0
/// "0 selected" (0 ≥ 161, false). With x an immediate every operand is a constant, which ptxas
/// folds (right, v0/v1/v2) unless a `shfl.sync` or `bar.sync` before the setp stops it (v9,
/// v6, v7 wrong).
/// Seed 4202 (corpus/findings/fuzz-h200-4202/, 0320c7c9, trace/T12b2.md, variants and 13.0.88
/// -O3 listings trace/0320c7c9/s44/): what stops the fold is ptxas's local (per basic block)
/// fold, so the all-constant form (every operand known, [`Origin::known_since`](super::Origin))
/// is fused exactly when the min/max was not known within its block
/// ([`Origin::local_block`](super::Origin), `n7_known_within_one_block.rs`: a loop's label, a branch, a
/// barrier, a shuffle between K's producer and the min/max; v3, v10, v14, v16 wrong; a boundary
/// before K's move, v6–v8, or none, v1, v21, folded: right). K may be any value ptxas knows (a
/// `sub` of constants, v17), x a known register (v18). P0 is then "the `VIMNMX`'s first operand
/// selected", which is the immediate (v13, v20) or, of two registers, the second (v25, v26):
/// wrong only where that operand is x; where it is K (v4, v19, v27) P0 is the spec's test.
fn setp_eq_of_min_max(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Setp(Cmp::Eq) || g.ty.bits() != 16 {
        return None;
    }
    [(0usize, 1usize), (1, 0)].into_iter().find_map(|(at_h, at_k)| {
        let k = constant(m, t, g, vals, at_k)? & 0xFFFF;
        let (Stmt::Glue { glue: p, .. }, o) = m.producer(t, reg_of_glue(g, at_h)?)? else { return None };
        let is_max = match p.op {
            GlueOp::Max => true,
            GlueOp::Min => false,
            _ => return None,
        };
        let signed = match p.ty {
            GlueType::S16 => true,
            GlueType::U16 => false,
            _ => return None,
        };
        let late = |r: Reg| min_max_operand_known_through_a_taken_guard::known_through_a_taken_guard(m, t, r);
        // The min/max's operands as it read them; K is the immediate K or the setp's K register.
        let read = |j: usize| (if j == 0 { o.a.as_ref() } else { o.b.as_ref() }).filter(|v| v.is_exact());
        let is_k = |j: usize| {
            let same_register = reg_of_glue(p, j).is_some_and(|r| Some(r) == reg_of_glue(g, at_k));
            let known_k = reg_of_glue(p, j).is_some_and(|r| moved_immediate(m, t, r) || known(m, t, r) || late(r));
            imm_of(p, j).map(|b| b & 0xFFFF) == Some(k)
                || ((same_register || known_k) && read(j).is_some_and(|v| v.bits as u64 & 0xFFFF == k))
        };
        // Both operands known (seed 4202, 0320c7c9): fused only where ptxas's local fold left the
        // min/max (not every source known in its block), and P0 reads the `VIMNMX`'s first
        // operand selected, which is the immediate or, of two registers, the second.
        // Or every source known with one learnt only through a taken guard (seed 5002's 50f6d065,
        // `emulate/min_max_operand_known_through_a_taken_guard.rs`): never folded locally.
        let late_constant = (0..2).any(|j| reg_of_glue(p, j).is_some_and(late))
            && (0..2).all(|j| imm_of(p, j).is_some() || reg_of_glue(p, j).is_some_and(|r| known(m, t, r) || late(r)));
        let all_constant = o.known_since.is_some() || late_constant;
        let vimnmx_first = if imm_of(p, 0).is_some() { 0 } else { 1 };
        let fused_as_x = |j: usize| {
            if all_constant {
                (late_constant || o.local_block.is_none()) && j == vimnmx_first
            } else {
                reg_of_glue(p, j).is_some()
            }
        };
        let at_x = [0usize, 1].into_iter().find(|&j| is_k(1 - j) && fused_as_x(j))?;
        let x = read(at_x)?.bits as u16;
        let k = k as u16;
        let selected = match (is_max, signed) {
            (true, true) => x as i16 >= k as i16,
            (false, true) => x as i16 <= k as i16,
            (true, false) => x >= k,
            (false, false) => x <= k,
        };
        Some(Expected::exact(u128::from(selected), result.width))
    })
}

/// 3702-N3 for an arm's glue write (a `set` or any glue of constants): see [`merged_at_join`].
fn arm_glue_merged(m: &Machine<'_>, t: u32, g: &Glue, _: &[Expected], result: &Expected) -> Option<Expected> {
    merged_at_join(m, t, g.dst, result)
}

/// Whether statement `s` (guarded or not) mentions register `r`: as a guard, a source, an
/// address or a destination.
fn mentions(s: &Stmt, r: Reg) -> bool {
    let pred = |g: &Option<PredGuard>| g.is_some_and(|g| Reg::Virt(RegClass::Pred, g.pred) == r);
    match s {
        Stmt::Glue { guard, glue } => pred(guard) || glue.dst == r || glue.src.contains(&Some(Src::Reg(r))),
        Stmt::Isa(i) => {
            let mut regs = Vec::new();
            for o in &i.operands {
                crate::program::text::operand_regs(o, &mut regs);
            }
            i.guard.as_ref().is_some_and(|g| Reg::parse(&g.pred) == Some(r)) || regs.contains(&r)
        }
        Stmt::Bra { guard, .. } => pred(guard),
        Stmt::Label(_) | Stmt::Bar => false,
    }
}

/// 3702-N3 (T3B 2a151aca, T3C d357c575; ptxas 13.0.88 -O3 and the JIT, 13.5 right in every
/// listing): in a one-armed `if` (`@p bra L; arm; L:`, or `@p bra A; bra L; A: arm; L:`, the arm
/// without labels or branches), an
/// unguarded write of `d` in the arm of a value ptxas knows ([`writes_folded_constant`]: a
/// moved immediate, a copy or `cvt` of a constant, a `set` or other glue of constants), `d`
/// holding such a constant from its last write before the branch ([`folded_constant`]: it
/// reaches the branch on every path; unwritten since), the two constants 0xffffffff and
/// 0x3f800000 (either order), and `d` neither read nor written again before `L`: ptxas merges
/// the two values as one and drops the arm's write (the compare too: `MOV R7, 0xffffffff; STG`),
/// so the arm leaves `d`'s old value, where §9.7.12 (`bra`) runs the arm. `spec` is the arm's
/// value (the spec's result); gives the old value where the deviation applies.
/// How the constants are made does not matter to ptxas (seeds 3901 and 3903: 92812601,
/// trace/T6A.md, and 1de51f3f, 7e601e7a, trace/T6G.md, T6F.md: the arm's `set` reads a register
/// a `set` of constants wrote; the moved −1 of `v2_const`/`v2_old_from_mov` gives the same
/// 13.0.88 -O3 listing). The old value may also be a `shfl.sync` of a constant when the arm
/// compares a loaded value with itself (seed 4202, 2b94552e, trace/T12b4.md;
/// [`join_merged_over_shuffled_constant`]).
fn merged_at_join(m: &Machine<'_>, t: u32, d: Reg, spec: &Expected) -> Option<Expected> {
    let s = m.stmt;
    // The arm's write may also be an `addc`/`subc` of constants with a carry-in of 0 (seed 5101's
    // 204fad1e, `emulate/carry_reader_of_constants_with_zero_carry_in.rs`).
    let folded = writes_folded_constant(m, s, &m.p.body[s], 3)
        || carry_reader_of_constants_with_zero_carry_in::folded_carry_reader(m, t, s, &m.p.body[s])
        // Or glue of a word of an unpacked 64-bit constant (seed 5402's 8ad6cef7).
        || join_arm_of_an_unpacked_constant::glue_of_an_unpacked_constant(m, s, &m.p.body[s], 3);
    if d.class().bits() != 32 {
        return None;
    }
    let flow = |k: &(usize, &Stmt)| matches!(k.1, Stmt::Label(_) | Stmt::Bra { .. });
    let (b, before) = m.p.body[..s].iter().enumerate().rev().find(flow)?;
    // Or a value of a register the head's own `setp.ne r, K; @p bra` pins to K in the arm (seed
    // 5803's b7cf5d00, `emulate/join_arm_pinned_by_the_branch_compare.rs`).
    if !folded && !join_arm_pinned_by_the_branch_compare::arm_write_of_a_pinned_register(m, b, s) {
        return None;
    }
    // The head: `@p bra L;` right before the arm, or a branch around a branch (seed 4501,
    // 038a8b84: `@!p bra A; bra L; A:`, [`branch_around_a_branch`]).
    let (b, label) = match *before {
        Stmt::Bra { guard: Some(_), label } => (b, label),
        _ => branch_around_a_branch(&m.p.body, b)?,
    };
    let (j, after) = m.p.body.iter().enumerate().skip(s + 1).find(flow)?;
    if *after != Stmt::Label(label) || m.p.body[s + 1..j].iter().any(|x| mentions(x, d)) {
        return None;
    }
    // `d`'s value before the branch: a constant. Earlier writes of `d` in the arm (seed 4002,
    // corpus/findings/fuzz-h200-4002/, d82eb12b, trace/T7D.md: `mov.b32 %r0, 0; set.le.s32.u32
    // %r0, %r0, 0` in the arm, 13.0.88 -O3 stores the old 1.0f) must be folded constants too:
    // ptxas still knows the arm's final value; the old value is then read from the move of an
    // immediate that wrote it before the branch (other folded forms are not evaluated here).
    // Or a shuffle of a constant under an arm comparing a loaded value with itself (seed 4202,
    // 2b94552e, `join_merged_over_shuffled_constant.rs`).
    let shuffled = || {
        join_merged_over_shuffled_constant::shuffled_constant(m, b, d, 3)
            && join_merged_over_shuffled_constant::self_compare_of_loaded(m, s, &m.p.body[s])
    };
    if !folded_constant(m, b, d, 3) && !shuffled() {
        return None;
    }
    let arm_writes: Vec<usize> = (b + 1..s).filter(|&k| writes(&m.p.body[k], d)).collect();
    let old = if arm_writes.is_empty() {
        m.read(t, d).ok().filter(Expected::is_exact)?
    } else {
        let unpack = |k: usize| join_arm_of_an_unpacked_constant::unpack_of_a_folded_constant(m, k, d, 3);
        if !arm_writes.iter().all(|&k| writes_folded_constant(m, k, &m.p.body[k], 3) || unpack(k)) {
            return None;
        }
        moved_immediate_before(m, b, d)?
    };
    let (old_word, arm_word) = (old.bits as u32, spec.bits as u32);
    let pair = [old_word, arm_word];
    let merged = spec.is_exact() && (pair == [0xFFFF_FFFF, 0x3F80_0000] || pair == [0x3F80_0000, 0xFFFF_FFFF]);
    merged.then(|| Expected::exact(u128::from(old_word), spec.width))
}

/// The 32-bit value register `d` holds before body index `before` when its last writer there is an
/// unguarded move of an immediate.
fn moved_immediate_before(m: &Machine<'_>, before: usize, d: Reg) -> Option<Expected> {
    let (_, w) = m.p.body[..before].iter().enumerate().rev().find(|(_, x)| writes(x, d))?;
    match w {
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
            match operands.get(1) {
                Some(Operand::Imm(Imm::Int(v))) => Some(Expected::exact(u128::from(*v as u32), 32)),
                Some(Operand::Imm(Imm::F32Bits(v))) => Some(Expected::exact(u128::from(*v), 32)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The input of the inner `lop3` a merged [`lop3_chain`] binds to the outer `xor`'s other
/// operand x: its `c` (b an immediate 0 and c a constant 0, or c the register `a` itself or a
/// copy, [`same_value`]; `b` holding the value given), or its `b` (b `a` itself or a copy; `c`
/// holding the value given).
#[derive(Clone, Copy)]
pub(super) enum FreedInput {
    /// `lop3(a, b, 0, L)` (b an immediate 0, the 0 of `c` an immediate or a folded constant) or
    /// `lop3(a, b, a, L)`: d = x ^ (a OP L(a, b, x)).
    C(u64),
    /// `lop3(a, a, c, L)`: d = x ^ (a OP L(a, x, c)).
    B(u64),
}

/// For 3702-N2: the `a` value, the middle operation OP, the input bound to x and the look-up
/// table of the chain in register `r` of thread `t` at body index `at` (the outer `xor`):
/// `r = OP.b32 a, l` (either order; OP `xor`, `or` or `and`) with `l = lop3.b32 a, b, c, L` (`a`
/// one value as ptxas numbers values, [`same_value`]: the same register unwritten between them
/// or a copy; `L` an immediate), `a`'s value the one the `lop3`
/// or OP recorded; the input that stays ([`FreedInput`]) an immediate or a register unwritten
/// from the `lop3` to `at`.
pub(super) fn lop3_chain(m: &Machine<'_>, t: u32, r: Reg, at: usize) -> Option<Lop3Chain> {
    let (Stmt::Glue { glue: x, .. }, o) = m.producer(t, r)? else { return None };
    chain_of_op(m, t, x, o.stmt, o.a.as_ref(), at)
}

/// A [`lop3_chain`]: the `a` value, the middle operation OP, the input bound to x, the table.
pub(super) type Lop3Chain = (u64, GlueOp, FreedInput, u64);

/// [`lop3_chain`] of the OP `x` at body index `op_at` whose first source held `first`.
fn chain_of_op(
    m: &Machine<'_>,
    t: u32,
    x: &Glue,
    op_at: usize,
    first: Option<&Expected>,
    at: usize,
) -> Option<Lop3Chain> {
    if !matches!(x.op, GlueOp::Xor | GlueOp::Or | GlueOp::And) || x.ty != GlueType::B32 {
        return None;
    }
    // Or, in a loop, the `lop3` of the trip before (seed 5403's 6cd4a975:
    // `emulate/lop3_c_repeating_a_through_a_zero_identity.rs`).
    let (ka, l, k, lop) = lop3_of_op(m, x, op_at)
        .or_else(|| lop3_c_repeating_a_through_a_zero_identity::lop3_over_a_back_edge(m, t, x, op_at))?;
    // `a`'s value: OP's recorded first source, or (`a` second) the `lop3`'s, `l` still its value.
    let a_value =
        if ka == 0 { first } else { m.producer(t, l).filter(|(_, ol)| ol.stmt == k).and_then(|(_, ol)| ol.a.as_ref()) };
    let a_value = a_value.filter(|v| v.is_exact())?.bits as u64 & 0xFFFF_FFFF;
    lop3_chain_of(m, t, x.op, lop, k, a_value, at)
}

/// The `lop3` a [`lop3_chain`]'s OP `x` (at body index `op_at`) reads beside its own `a`: the
/// index of OP's `a` operand, the `lop3`'s register, its body index and the `lop3` (unguarded).
pub(super) fn lop3_of_op<'p>(m: &'p Machine<'_>, x: &Glue, op_at: usize) -> Option<(usize, Reg, usize, &'p Glue)> {
    [(0, 1), (1, 0)].into_iter().find_map(|(ka, kl)| {
        let (a, l) = (reg_of_glue(x, ka)?, reg_of_glue(x, kl)?);
        let (k, lop) = m.p.body[..op_at].iter().enumerate().rev().find(|(_, s)| writes(s, l))?;
        let Stmt::Glue { guard: None, glue: lop } = lop else { return None };
        // `a` the `lop3`'s own `a` as ptxas numbers values (seed 4302: through copies).
        let same_a = reg_of_glue(lop, 0).is_some_and(|la| same_value(m, (op_at, a), (k, la)));
        (lop.op == GlueOp::Lop3 && same_a).then_some((ka, l, k, lop))
    })
}

/// The [`Lop3Chain`] of OP `op` over the `lop3` `lop` at body index `k` whose `a` holds
/// `a_value`: the input it frees (a `b` or `c` repeating `a` as ptxas numbers values, or the
/// constant-0 `c`) and the table; the input that stays an immediate or a register unwritten
/// from the `lop3` to `at`.
pub(super) fn lop3_chain_of(
    m: &Machine<'_>,
    t: u32,
    op: GlueOp,
    lop: &Glue,
    k: usize,
    a_value: u64,
    at: usize,
) -> Option<Lop3Chain> {
    let a = reg_of_glue(lop, 0)?;
    // An input's value: an immediate, or a register unwritten from the `lop3` to `at`.
    let value = |j: usize| {
        imm_of(lop, j).or_else(|| {
            let v = reg_of_glue(lop, j)?;
            // (A `lop3` reached over a back edge, `k` ≥ `at`: registers not followed.)
            if m.p.body.get(k + 1..at).is_none_or(|between| between.iter().any(|s| writes(s, v))) {
                return None;
            }
            Some(m.read(t, v).ok().filter(Expected::is_exact)?.bits as u64)
        })
    };
    let zero_c = imm_of(lop, 2) == Some(0)
        || reg_of_glue(lop, 2).is_some_and(|c| folded_constant(m, k, c, 3) && value(2).is_some_and(|v| v as u32 == 0));
    // `c` repeating `a` through an identity with a folded 0 too (seed 5403's 6cd4a975).
    let repeats = |j: usize| {
        reg_of_glue(lop, j).is_some_and(|r| same_value(m, (k, r), (k, a)))
            || (j == 2 && lop3_c_repeating_a_through_a_zero_identity::c_repeats_a(m, t, lop, k))
    };
    let freed = match (repeats(1), repeats(2)) {
        (true, false) => FreedInput::B(value(2)? & 0xFFFF_FFFF),
        (false, true) => FreedInput::C(value(1)? & 0xFFFF_FFFF),
        (false, false) if imm_of(lop, 1) == Some(0) && zero_c => FreedInput::C(0),
        // Every input one constant ptxas folds: propagated into `b`, `c` bound to x (seed 4502,
        // d288306a: `lop3_of_one_folded_constant.rs`).
        (true, true) if lop3_of_one_folded_constant(m, lop, k) => FreedInput::C(a_value),
        // Both repeating `a`: `b` bound to x, `c` to 0 (see [`lop3_chain_with_no_outer_xor`]).
        (true, true) => FreedInput::B(0),
        _ => return None,
    };
    Some((a_value, op, freed, imm_of(lop, 3)? & 0xFF))
}

/// 3702-N2 (T3B, 2a3b3599; ptxas 13.0.88 -O3 and the JIT, 13.5 right): `xor d, x, r` (either
/// order) with `r` a [`lop3_chain`] `a OP lop3(a, b, c, L)` is merged into one `LOP3.LUT d, x,
/// a, …, L'` whose table binds the inner `lop3`'s redundant input to `x`: its constant `c`
/// (the traced kernels: d = x ^ a ^ L(a, 0, x), for six tables `lut0x*.ptx`), its `b` that
/// repeats `a` (the stored case: d = x ^ a ^ L(a, x, c), which gives its words exactly) or its
/// `c` that repeats `a` (corpus/findings/fuzz-h200-3801/, 83e44a39, trace/T4D.md: `x ^ (t |
/// lop3(t, K, t, 0xe8))` is `LOP3.LUT x, K, t, 0x1a` = x ^ (t | maj(t, K, x))), where §9.7.8.6
/// gives x ^ (a OP L(a, b, c)). The middle OP may be `xor`, `or` or `and`, in either order, and
/// the input that stays an immediate or a loaded register: ptxas 13.0.88 -O3 binds x the same
/// way in each (tables 0x1a, 0x1c, 0x4e, 0x1e, 0xd2, 0xb2, 0xd8, 0xb8, 0x44, 0x22, 0x0a, 0x0c of
/// the variants compiled for 83e44a39, session 39). A `xor.b64` of a pack `{r, r}` is two such
/// merges, one per 32-bit half. No outer xor (v1), a `lop3` with no redundant input (v4: a
/// loaded `b` and `c` 0) and an `add` in place of the outer xor (83e44a39 `v_noxor`) are right.
fn xor_of_lop3_chain(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Xor
        || !matches!(g.ty, GlueType::B32 | GlueType::B64)
        || !vals.iter().take(2).all(Expected::is_exact)
    {
        return None;
    }
    let merged = |x: u64, chain: Lop3Chain| merged_chain(g, x, chain);
    let at = m.stmt;
    for (chain, other) in [(1usize, 0usize), (0, 1)] {
        let Some(r) = reg_of_glue(g, chain) else { continue };
        let x = vals[other].bits as u64;
        if g.ty == GlueType::B32 {
            if let Some(c) = lop3_chain(m, t, r, at) {
                return Some(Expected::exact(u128::from(merged(x & 0xFFFF_FFFF, c)), result.width));
            }
            continue;
        }
        // A 64-bit xor of the pack `{r, r}` of one chain register.
        let Some((Stmt::Isa(Instruction { form: Form::Mov(mv), operands, .. }), _)) = m.producer(t, r) else {
            continue;
        };
        let halves = match operands.get(1) {
            Some(Operand::Vector(items)) if mv.shape == MovShape::Pack(2) => items,
            _ => continue,
        };
        let regs: Vec<Reg> = halves.iter().filter_map(|o| m.reg_of(o).ok()).collect();
        let [lo, hi] = regs.as_slice() else { continue };
        let Some(c) = lop3_chain(m, t, *lo, at).filter(|_| lo == hi) else { continue };
        let word = |x: u64| merged(x & 0xFFFF_FFFF, c);
        let v = word(x) | (word(x >> 32) << 32);
        return Some(Expected::exact(u128::from(v), result.width));
    }
    None
}

/// The word of the one `LOP3` ptxas 13.0.88 -O3 merges a [`lop3_chain`] into, the input it
/// frees bound to `x` (32 bits): x ^ (a OP L(a, b, x)) or x ^ (a OP L(a, x, c)). `g` is any glue
/// instruction (its operands are not read).
pub(super) fn merged_chain(g: &Glue, x: u64, (a, op, freed, lut): Lop3Chain) -> u64 {
    let lop3 = |a: u64, b: u64, c: u64, lut: u64| {
        Glue { op: GlueOp::Lop3, ty: GlueType::B32, ..*g }.eval([a, b, c, lut], false)
    };
    let inner = match freed {
        FreedInput::C(b) => lop3(a, b, x, lut),
        FreedInput::B(c) => lop3(a, x, c, lut),
    };
    x ^ Glue { op, ty: GlueType::B32, ..*g }.eval([a, inner, 0, 0], false)
}

/// 3702-N2 with no outer xor (corpus/findings/fuzz-h200-3802/, 3ca5ad75, trace/T5B.md; ptxas
/// 13.0.88 -O3 and the JIT, 13.5 right): `OP.b32 d, a, l` (either order; OP `xor` or `and`) of
/// `l = lop3.b32 a, b, c, L` whose `b` or `c` repeats the register `a`, `l` read by OP alone, is
/// merged into one `LOP3.LUT d, a, …, RZ, L'` whose table binds the repeated input to the RZ
/// slot: d = a OP L(a, b, 0) or a OP L(a, 0, c), the [`lop3_chain`] merge with x = 0
/// (`xor(a, lop3(a, 0, a, 0x65))` is `LOP3.LUT R7, R2, RZ, RZ, 0x93`, all ones, where §9.7.8.6
/// gives ~a). Wrong in the trace's variants (13.0.88 -O3): `b` repeating `a` (v3), a loaded `b`
/// (v4), table 0xe4 (v5), an outer `and` (v6); and in those compiled in session 39 (helper w8):
/// `b` repeating `a` with a loaded `c` (`LOP3.LUT R7, R0, RZ, R7, 0x95`), `and` with a repeated
/// `b` (0x60), an immediate `b` 0x1234 (`LOP3.LUT R7, R4, 0x1234, RZ, 0x95`), the operands
/// swapped, an `add` reading the `and` (0x60 kept). Right: no repeated input (v2, `b` and `c`
/// immediate 0: the freed slot is 0), no OP (v1), `l` read by a second instruction too (two
/// `LOP3`s kept). An `or` is merged the same way (0xf3) but a | L(a, …) never depends on the
/// repeated `a`, so it is the spec's.
/// `b` and `c` both repeating `a` (corpus/findings/fuzz-h200-3901/, ec047aa1, trace/T6B.md:
/// `and(lop3(a, a, a, 0x30), a)` is `LOP3.LUT R7, R2, RZ, RZ, 0x30` = a where §9.7.8.6 gives 0;
/// `v2` 0xc0 and `v3` xor alike): both bound to RZ, d = a OP L(a, 0, 0); with an outer xor the
/// `b` is bound to x and the `c` to RZ, d = x ^ (a OP L(a, x, 0)): session 40 compiled tables
/// 0x1e, 0x65, 0x96, 0xe8 under `and`, `or`, `xor`, with and without an outer xor (13.0.88 -O3,
/// e.g. `xor(x, xor(lop3(a, a, a, 0x65), a))` is `LOP3.LUT R7, x, RZ, a, 0x63`), and only that
/// binding gives every table.
/// All three inputs one constant ptxas folds (seed 4502, d288306a): bound as `lop3(x, y, x)`,
/// d = a OP L(a, a, 0), and merged with a second reader of `l` too
/// (`lop3_of_one_folded_constant.rs`).
fn lop3_chain_with_no_outer_xor(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Xor | GlueOp::And)
        || g.ty != GlueType::B32
        || !vals.iter().take(2).all(Expected::is_exact)
    {
        return None;
    }
    let lone_lop3 = [(0, 1), (1, 0)].into_iter().any(|(ka, kl)| {
        let (Some(a), Some(l)) = (reg_of_glue(g, ka), reg_of_glue(g, kl)) else { return false };
        matches!(m.producer(t, l), Some((Stmt::Glue { glue: lop, .. }, o))
            if lop.op == GlueOp::Lop3
                && (value_readers(m, o.stmt, l) == 1 || lop3_of_one_folded_constant(m, lop, o.stmt))
                && reg_of_glue(lop, 0).is_some_and(|la| same_value(m, (m.stmt, a), (o.stmt, la))))
    });
    if !lone_lop3 {
        return None;
    }
    let chain = chain_of_op(m, t, g, m.stmt, vals.first(), m.stmt)?;
    let word = Expected::exact(u128::from(merged_chain(g, 0, chain)), result.width);
    (&word != result).then_some(word)
}
