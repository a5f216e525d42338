//! The emulations of the seven root causes the H200 campaigns of seeds 3602 and 3604 found
//! (corpus/findings/fuzz-h200-3602/README.md, 3602-N1 … N4 and 3604-N1 … N3; traces in
//! `trace/T7.md` and `trace/T8.md`), called from the hooks of `emulate.rs` ([`glue`], [`carry`], [`cvt`]).
//!
//! Three of them depend on the control flow around the instruction, which the interpreter
//! states from the program's body ([`Stmt::Bra`], [`Stmt::Label`]): the arm of an if/else
//! diamond (3602-N1), the fall-through of a conditional forward branch (3602-N3) and the exit
//! test of a counted loop (3604-N3, its rule in `unsigned_loop_exit_counted_signed.rs`). The others look at the
//! producers the machine records ([`Origin`](super::Origin)).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction, its producers and (where named) the program structure are exactly the ones its
//! trace shows wrong; it returns `None` (the spec's result stands) otherwise.

mod neg_of_set_f32_beside_logic_of_sets;
mod xor_of_branch_constant;

use super::convert;
use super::j_branch_known_values::{branch_fixed_immediate, observed_only_by, readers};
use super::origin::{producer_through_f32_copies, reads_and_overwrites};
use super::{
    counter_of_a_signed_count_read_after_the_loop, imm_of, known_at_compile_time, reg_of_glue,
    s8_of_a_shuffled_constant_folded_beside_a_load, s8_round_trip_of_a_learned_constant,
    s8_round_trip_of_folded64_and_compare16, set_negation_sign_extension_saturation_queries,
    unsigned_loop_exit_counted_signed, wide16_product_of_s8_round_trip, GlueRule,
};
use crate::isa::operand::{Operand, Role};
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, SetDst};
use crate::program::{PredGuard, Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under the seven deviations: `Some` (the emulated result, the
/// deviation recorded as fired) where 3602-N1, N2, N3, N4, 3604-N1 or N3 applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] = &[
        (Deviation::XorOfBranchConstantDropsInversion, xor_of_branch_constant::glue),
        (Deviation::NegOfSetF32HalvesReadAsBoolean, neg_of_set_f32_halves),
        (Deviation::NegOfSetF32HalvesReadAsBoolean, not_of_neg_of_set_f32),
        // Its float −1.0 beside an and/or/xor.b32 of two set.f32 words (seed 5801's d4409f00).
        (Deviation::NegOfSetF32HalvesReadAsBoolean, neg_of_set_f32_beside_logic_of_sets::glue),
        (Deviation::SubcOfBranchConstantAddsIt, subc_of_branch_constant),
        (Deviation::S8RoundTripThrough64SignExtends32, shr16_of_s8_round_trip),
        (Deviation::S8RoundTripThrough64SignExtends32, hi16_product_of_s8_round_trip),
        (
            Deviation::S8RoundTripThrough64SignExtends32,
            wide16_product_of_s8_round_trip::wide16_product_of_s8_round_trip,
        ),
        (
            Deviation::S8RoundTripThrough64SignExtends32,
            s8_round_trip_of_folded64_and_compare16::compare16_of_s8_round_trip,
        ),
        (Deviation::ShrS16ByU32CvtConvertsAsS16, shr_s16_by_u32_cvt),
        (Deviation::UnsignedLoopExitTestCountedSigned, unsigned_loop_exit_counted_signed::loop_exit_test_signed),
        (Deviation::UnsignedLoopExitTestCountedSigned, counter_of_a_signed_count_read_after_the_loop::step),
    ];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// A `cvt`'s result under the seven deviations (`a` its source value): 3602-N4's
/// `cvt.{u32,s32,u64}.u16` of the round trip, 3604-N2's widening of a set.f32 result.
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt, a: &Expected) -> Option<(Deviation, Expected)> {
    let r = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    // 3602-N4: the 16-bit register holds the byte sign-extended to 32 bits (and further). Any
    // zero extension reading it as a no-op: `cvt.{u32,s32,u64}.u16` (§9.7.9.21: a `.u16` source
    // zero-extends whatever the destination's signedness; corpus/findings/fuzz-h200-4103/trace/
    // T9y3.md, c3105f61: `cvt.s32.u16` the same 13.0.88 -O3 listing as `cvt.u32.u16`).
    // `cvt.s64.u16` is right there (`LOP3 0xffff`, c3105f61's `v2_s64_u16`), and so is
    // `cvt.u64.u16` of a folded constant's byte (f3426d51's `v22_bfe_const_u64dst`, T12a2.md).
    let folded = s8_cvt_source(m, t, r)
        .is_some_and(|k| s8_round_trip_of_folded64_and_compare16::folded_constant_64(m, k))
        || s8_round_trip_of_a_learned_constant::learned_constant_s8(m, t, r)
        || s8_of_a_shuffled_constant_folded_beside_a_load::s8_of_folded_shuffle(m, t, r);
    if m.allow.emulates(Deviation::S8RoundTripThrough64SignExtends32)
        && c.atype == CvtType::U16
        && matches!(c.dtype, CvtType::U32 | CvtType::S32 | CvtType::U64)
        && !(folded && c.dtype == CvtType::U64)
        && s8_round_trip(m, t, r)
        && a.is_exact()
    {
        let byte = a.bits as u8 as i8;
        return Some((
            Deviation::S8RoundTripThrough64SignExtends32,
            Expected::exact(u128::from(byte as i64 as u64), 64),
        ));
    }
    // 3604-N2: cvt.u64.{s32,u32} of a set.f32 result that a setp.*.u64 compares with 0.
    let dst = inst.operands.first().and_then(|o| m.reg_of(o).ok())?;
    let of_set_f32 = matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _)) if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    if m.allow.emulates(Deviation::WidenedSetF32ComparedWithZeroIs0Or1)
        && c.dtype == CvtType::U64
        && matches!(c.atype, CvtType::S32 | CvtType::U32)
        && of_set_f32
        && compared_with_zero_u64(m, m.stmt, dst)
        && a.is_exact()
    {
        let boolean = u128::from(a.bits & 0xFFFF_FFFF != 0);
        return Some((Deviation::WidenedSetF32ComparedWithZeroIs0Or1, Expected::exact(boolean, 64)));
    }
    None
}

/// Whether statement `s` may write register `r` (guarded or not).
pub(super) fn writes(s: &Stmt, r: Reg) -> bool {
    match s {
        Stmt::Glue { glue, .. } => glue.dst == r,
        Stmt::Isa(i) => {
            let mut written = Vec::new();
            for (spec, o) in i.form.operands().iter().zip(&i.operands) {
                if spec.role != Role::Src && !matches!(o, Operand::Address { .. }) {
                    crate::program::text::operand_regs(o, &mut written);
                }
            }
            written.contains(&r)
        }
        Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => false,
    }
}

/// Whether no statement strictly between body indices `from` and `to` may write `r`.
pub(super) fn unchanged_between(m: &Machine<'_>, r: Reg, from: usize, to: usize) -> bool {
    from < to && !m.p.body[from + 1..to].iter().any(|s| writes(s, r))
}

/// The body index of label `l`.
pub(super) fn label_at(m: &Machine<'_>, l: u32) -> Option<usize> {
    m.p.body.iter().position(|s| *s == Stmt::Label(l))
}

/// The first label or branch at or after body index `from`, with its index.
pub(super) fn next_flow<'m>(m: &'m Machine<'_>, from: usize) -> Option<(usize, &'m Stmt)> {
    m.p.body.iter().enumerate().skip(from).find(|(_, s)| matches!(s, Stmt::Label(_) | Stmt::Bra { .. }))
}

/// The last label or branch strictly before body index `to`, with its index.
pub(super) fn previous_flow<'m>(m: &'m Machine<'_>, to: usize) -> Option<(usize, &'m Stmt)> {
    m.p.body[..to].iter().enumerate().rev().find(|(_, s)| matches!(s, Stmt::Label(_) | Stmt::Bra { .. }))
}

/// The `setp` that last wrote the guard's predicate before body index `bra` (its index and
/// instruction), if an unguarded glue `setp` did.
pub(super) fn guard_setp<'m>(m: &'m Machine<'_>, guard: PredGuard, bra: usize) -> Option<(usize, &'m Glue)> {
    let p = Reg::Virt(RegClass::Pred, guard.pred);
    let (k, s) = m.p.body[..bra].iter().enumerate().rev().find(|(_, s)| writes(s, p))?;
    match s {
        Stmt::Glue { guard: None, glue } if matches!(glue.op, GlueOp::Setp(_)) => Some((k, glue)),
        _ => None,
    }
}

/// 3602-N2: `and/or/xor.b16` of the two halves of one `neg.s32` of a `set.*.f32.*` result
/// (or `sub.{s32,u32}` of it from a 0: [`set_negation_sign_extension_saturation_queries::negation_of_set_f32`]): each half is
/// 0xffff when the set is true, 0 when false.
fn neg_of_set_f32_halves(m: &Machine<'_>, t: u32, g: &Glue, _: &[Expected], result: &Expected) -> Option<Expected> {
    if !matches!(g.op, GlueOp::And | GlueOp::Or | GlueOp::Xor) || g.ty != GlueType::B16 {
        return None;
    }
    let (a, b) = (reg_of_glue(g, 0)?, reg_of_glue(g, 1)?);
    let neg_of_set = |r: Reg| set_negation_sign_extension_saturation_queries::negation_of_set_f32(m, t, r);
    let ((ka, set), (kb, _)) = (neg_of_set(a)?, neg_of_set(b)?);
    if !set.is_exact() || ka != kb || a == b {
        return None;
    }
    // Beside a store of the negation the halves are the float −1.0's (seed 6203's 4b53cd6d).
    if neg_of_set_f32_beside_logic_of_sets::stored_beside_logic_of_its_halves(m, ka) {
        return None;
    }
    let half = if set.bits & 0xFFFF_FFFF != 0 { 0xFFFF } else { 0 };
    Some(Expected::exact(u128::from(g.eval([half, half, 0, 0], false)), result.width))
}

/// 3602-N2 read whole by `not.b32` (seed 5501's 7d87687a, helper t1, session 56;
/// corpus/findings/fuzz-h200-5501/trace/T56A.md, variants trace/7d87687a/s56/): `set.ge.f32.s32 s;
/// neg.s32 n, s; not.b32 d, n` is `ISETP.LE; SEL R7, RZ, 0xffffffff, P0` (13.0.88 and 13.5 -O3): d
/// is ~(−1) = 0 when the set is true (the spec's ~(−0x3f800000) = 0x3f7fffff), −1 when false. Wrong
/// alike: `sub.s32` of a moved 0 (`v7`), `.u32`/`.f32` set sources (`v6`, `v13`), a copy of n
/// between (`v18`), d stored as `.b16` (`v19`). Right: n also read elsewhere (`v11`: the other
/// rewrite, FSEL −1.0, seed 3902's df546b5a), d read by an and/or/xor (`v17`: one fused `LOP3` of
/// the real negation), `xor.b32 n, -1` (`v15`), `add`/`sub` of s or n (`v3`, `v8`–`v10`).
fn not_of_neg_of_set_f32(m: &Machine<'_>, t: u32, g: &Glue, _: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Not || g.ty != GlueType::B32 {
        return None;
    }
    let n = reg_of_glue(g, 0)?;
    let (k, set) = set_negation_sign_extension_saturation_queries::negation_of_set_f32(m, t, n)?;
    let negation = match &m.p.body[k] {
        Stmt::Glue { glue, .. } => glue.dst,
        _ => return None,
    };
    let fused = readers(m, m.stmt, g.dst).into_iter().any(|j| {
        matches!(&m.p.body[j], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor))
    });
    if !set.is_exact() || fused || !observed_only_by(m, k, negation, m.stmt) {
        return None;
    }
    let not = if set.bits & 0xFFFF_FFFF != 0 { 0 } else { 0xFFFF_FFFF };
    Some(Expected::exact(not, result.width))
}

/// The constant K the fall-through of a conditional forward branch *after* the statement being
/// run (an unpack of `v` into `h`, among others) fixes `v` to where every reader of the value
/// it writes to `h` lies in that fall-through: the first label or branch after it is `@p bra L`
/// (L after it, p not negated) with `p = setp.ne.<type> v, K` after the statement (K an
/// immediate, `<type>` one of `types`), v unwritten between, and each statement reading that
/// value of `h` lies between the branch and L (J's branch-known value unpacked ahead of the
/// branch, corpus/findings/fuzz-h200-3801/, 87576d8b, trace/T4D.md: `mov.b32 {%h0, %h3}, %tix`
/// before `setp.ne.s32 %p1, %tix, 6; @%p1 bra` gives the listing of the unpack after it).
pub(super) fn fall_through_fixed_ahead(m: &Machine<'_>, v: Reg, h: Reg, types: &[GlueType]) -> Option<u64> {
    let (bra, &Stmt::Bra { guard: Some(guard), label }) = next_flow(m, m.stmt + 1)? else { return None };
    let end = label_at(m, label).filter(|&l| l > bra)?;
    let (k, setp) = guard_setp(m, guard, bra).filter(|&(k, _)| k > m.stmt)?;
    let fixes_v = setp.op == GlueOp::Setp(Cmp::Ne) && types.contains(&setp.ty) && reg_of_glue(setp, 0) == Some(v);
    let constant = imm_of(setp, 1)? & 0xFFFF_FFFF;
    let mut readers = Vec::new();
    for (i, s) in m.p.body.iter().enumerate().skip(m.stmt + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, h);
        if reads {
            readers.push(i);
        }
        if overwrites {
            break;
        }
    }
    let in_fall_through = !readers.is_empty() && readers.iter().all(|&i| bra < i && i < end);
    (!guard.negated && fixes_v && in_fall_through && unchanged_between(m, v, m.stmt, k)).then_some(constant)
}

/// 3602-N3's scope: for `subc{.cc}.{u32,s32,u64,s64} d, a, b` (b a register) on a path a
/// conditional forward branch's fall-through fixes b to K: `@p bra` with `p = setp.ne.<type> b',
/// K`, b' b or a plain copy b reads through ([`branch_fixed_immediate`]), `<type>` of b's width,
/// b holding K (as it must there) — the constant K. (`.s32` and `.b32`:
/// corpus/findings/fuzz-h200-3701/, fb2f0eb8, trace/TC2.md `v/n_{u32,s32,b32}`, one listing
/// `@!P1 IADD3.X R0, R0, 0x3c` on ptxas 13.0.88 -O3; 13.5 right. The 64-bit forms, fact
/// `setp.ne.{u64,s64,b64}`: seed 6001's 4ce75ab2, corpus/findings/fuzz-h200-6001/trace/T60A.md,
/// `IADD3.X R10, P1, R10, 0x1` and `IMAD.X R11, RZ, RZ, R11, P1` — K's words added, each
/// carrying into the next — where 13.5 adds ~K, `-0x2` and `-0x1`; `subc.s64`, K = 0, K with a
/// high word, a negative K alike (`s60/a*`). The copy: seed 6002's 9abc666c, trace/T60A.md,
/// `mov.b32 %r0, %tix` in the fall-through of `setp.ne.u32 %p1, %tix, 0x4`, then `subc.cc.u32
/// %r0, %tix, %r0`: `IADD3.X R5, R0, 0x4` with R0 = 4 (13.5: R0 = −5); a copy made before the
/// branch, two copies, a copy of a loaded word alike, `s60/b*`.)
fn branch_fixed_subtrahend(m: &Machine<'_>, g: &Glue, vals: &[Expected]) -> Option<u64> {
    let (types, mask) = subc_scope(g)?;
    let constant = branch_fixed_immediate(m, reg_of_glue(g, 1)?, m.stmt, types)? & mask;
    let known = vals.get(1).is_some_and(|v| v.is_exact() && v.bits as u64 & mask == constant);
    known.then_some(constant)
}

/// The `setp.ne` types whose fact fixes a 32-bit `subc` subtrahend ([`branch_fixed_subtrahend`]).
const SUBC_FACTS_32: &[GlueType] = &[GlueType::U32, GlueType::S32, GlueType::B32];
/// The `setp.ne` types whose fact fixes a 64-bit `subc` subtrahend (4ce75ab2's `s60/a2`, `a3`).
const SUBC_FACTS_64: &[GlueType] = &[GlueType::U64, GlueType::S64, GlueType::B64];

/// For a 32- or 64-bit `subc`: the `setp.ne` types whose fact fixes its subtrahend, and the
/// mask of its word and carry chain; `None` for any other statement.
fn subc_scope(g: &Glue) -> Option<(&'static [GlueType], u64)> {
    match (g.op, g.ty) {
        (GlueOp::Subc { .. }, GlueType::U32 | GlueType::S32) => Some((SUBC_FACTS_32, 0xFFFF_FFFF)),
        (GlueOp::Subc { .. }, GlueType::U64 | GlueType::S64) => Some((SUBC_FACTS_64, u64::MAX)),
        _ => None,
    }
}

/// 3602-N3: the word of a `subc` in [`branch_fixed_subtrahend`]'s scope is the spec's + 2K + 1
/// (a + K + carry for a + ~K + carry), modulo 2^32 or 2^64.
fn subc_of_branch_constant(
    m: &Machine<'_>,
    _: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let constant = branch_fixed_subtrahend(m, g, vals).filter(|_| result.is_exact())?;
    let added = (result.bits as u64).wrapping_add(constant.wrapping_mul(2)).wrapping_add(1);
    let (_, mask) = subc_scope(g)?;
    Some(Expected::exact(u128::from(added & mask), result.width))
}

/// 3602-N3's carry: a `subc.cc` in [`branch_fixed_subtrahend`]'s scope borrows where `a + K +
/// (1 − borrow in)` does not carry out of its 32 or 64 bits (`IADD3.X`'s carry is the inverted
/// borrow; 4ce75ab2's `s60/a11`: the high word's `IADD3.X R11, P1, RZ, R11, RZ, P1` carries
/// into the next `addc`).
pub(super) fn carry(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], carry: &Expected) -> Option<Expected> {
    if !m.allow.emulates(Deviation::SubcOfBranchConstantAddsIt) || g.op != (GlueOp::Subc { cc: true }) {
        return None;
    }
    let constant = branch_fixed_subtrahend(m, g, vals)?;
    let borrow_in = m.carry(t).ok().filter(Expected::is_exact)?;
    let a = vals.first().filter(|a| a.is_exact())?;
    let (_, mask) = subc_scope(g)?;
    let sum = u128::from(a.bits as u64 & mask) + u128::from(constant) + u128::from(borrow_in.bits == 0);
    let v = Expected::exact(u128::from(sum <= u128::from(mask)), carry.width);
    Some(m.fire(Deviation::SubcOfBranchConstantAddsIt, carry, v))
}

/// Whether the value register `r` of thread `t` holds was written by `cvt.s8.{s64,u64}` of a
/// 64-bit value ptxas knows is a sign-extended byte ([`sign_extended_byte_64`]) (3602-N4), or
/// knows as a constant it folds ([`s8_round_trip_of_folded64_and_compare16::folded_constant_64`]: seeds 4201's f3426d51,
/// 4202's 03ee4476), or by a byte sign extension of a 16-bit constant ptxas learns from known
/// bits or a value range ([`s8_round_trip_of_a_learned_constant::learned_constant_s8`]: seed 4303's a3737354),
/// or by `cvt.s8.{s32,u32}` of a shuffled constant ptxas folds beside a load
/// ([`s8_of_a_shuffled_constant_folded_beside_a_load::s8_of_folded_shuffle`]: seed 5003's 841bf645).
pub(super) fn s8_round_trip(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    s8_cvt_source(m, t, r).is_some_and(|k| {
        sign_extended_byte_64(m, k) || s8_round_trip_of_folded64_and_compare16::folded_constant_64(m, k)
    }) || s8_round_trip_of_a_learned_constant::learned_constant_s8(m, t, r)
        || s8_of_a_shuffled_constant_folded_beside_a_load::s8_of_folded_shuffle(m, t, r)
}

/// The body index of the producer of the source of the `cvt.s8.{s64,u64}` that wrote the value
/// register `r` of thread `t` holds, if one did.
fn s8_cvt_source(m: &Machine<'_>, t: u32, r: Reg) -> Option<usize> {
    match m.producer(t, r) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), o))
            if c.dtype == CvtType::S8 && matches!(c.atype, CvtType::S64 | CvtType::U64) =>
        {
            o.a_stmt
        }
        _ => None,
    }
}

/// Whether body statement `k` is a `cvt.{s64,u64}.atype` whose result ptxas knows is a
/// sign-extended byte: `.atype` `.s8` (§9.7.9.21 sign-extends the byte), or `.s16`/`.s32` of a
/// register an unguarded `ld*.s8` (scalar or vector element; §9.7.9.8 sign-extends it to the
/// register) last wrote (corpus/findings/fuzz-h200-4002/, cd70f198, trace/T7D.md: `ld.global.s8;
/// cvt.s64.s16` is `LDG.E.S8` alone, 13.0.88 -O3; an `ld.b8` or `ld.s16` source is right), or
/// `.s32`/`.u32` of a register an unguarded `cvt.{s32,u32}.s8` (no `.sat`) last wrote (seed 6203's
/// 6b672a69, corpus/findings/fuzz-h200-6202/trace/T62F.md, variants in
/// corpus/findings/fuzz-h200-6203/trace/6b672a69/s62/: `cvt.s32.s8 r0, h; cvt.s64.s32 d0, r0;
/// cvt.s8.s64 h2, d0` is `PRMT 0x8880` alone, 13.0.88 -O3; `cvt.u32.s8`, `cvt.u64.s32`,
/// `cvt.s64.u32` alike; `cvt.s16.s8` then `cvt.s64.s16`, `cvt.u32.u8`, `cvt.s32.s16`, an `add`
/// between are right).
fn sign_extended_byte_64(m: &Machine<'_>, k: usize) -> bool {
    let Stmt::Isa(Instruction { form: Form::Cvt(c0), operands, .. }) = &m.p.body[k] else { return false };
    if !matches!(c0.dtype, CvtType::S64 | CvtType::U64) {
        return false;
    }
    let source = || {
        let x = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
        m.p.body[..k].iter().rev().find(|s| writes(s, x))
    };
    match c0.atype {
        CvtType::S8 => true,
        CvtType::S16 | CvtType::S32 | CvtType::U32 => match source() {
            Some(Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. })) => {
                c0.atype != CvtType::U32 && l.ty == MemType::S8
            }
            Some(Stmt::Isa(Instruction { form: Form::LdGlobalNc(l), guard: None, .. })) => {
                c0.atype != CvtType::U32 && l.ty == MemType::S8
            }
            Some(Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })) => {
                c0.atype != CvtType::S16
                    && c.atype == CvtType::S8
                    && matches!(c.dtype, CvtType::S32 | CvtType::U32)
                    && !c.sat
            }
            _ => false,
        },
        _ => false,
    }
}

/// 3602-N4: `shr.{u16,b16} d, h, n` (n < 16) of the round trip shifts the byte's 32-bit sign
/// extension: ones come in.
///
/// An amount n in 16..31 does the same when ptxas does not know it (seed 6005's 08ac0734,
/// corpus/findings/fuzz-h200-6005/trace/T60E.md: a loaded amount is `SEL min(n, 0xffff);
/// SHF.R.U32.HI` of the unmasked `PRMT 0x8880` extension, 13.0.88 -O3: 0xffff for 0xb8 by 16,
/// where §9.7.8.8 clamps to 0; an immediate or moved amount ≥ 16 is folded to 0, right —
/// trace/08ac0734/s60/ v02-v05). From 32 on SHF clamps to 0, the spec's value.
fn shr16_of_s8_round_trip(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shr || !matches!(g.ty, GlueType::U16 | GlueType::B16) || !s8_round_trip(m, t, reg_of_glue(g, 0)?)
    {
        return None;
    }
    let (h, n) = (vals.first()?, vals.get(1)?);
    let n = (h.is_exact() && n.is_exact())
        .then_some(n.bits as u32)
        .filter(|&n| n < 16 || (n < 32 && known_at_compile_time::known_source(m, t, g, vals, 1).is_none()))?;
    let wide = h.bits as u8 as i8 as i32 as u32;
    Some(Expected::exact(u128::from((wide >> n) & 0xFFFF), result.width))
}

/// 3602-N4: `mul.hi.u16 d, a, b` and `mad.hi.u16 d, a, b, c` with a round trip as a factor
/// multiply the byte's 32-bit sign extension: ptxas forms the 32-bit product with `IMAD` and
/// takes its bits 16–31 (`IMAD R0, R0, 0x8001; LEA.HI R0, R0, 0x5ccd, RZ, 0x10`), where §9.7.3.4
/// and §9.7.3.5 multiply the 16-bit values (corpus/findings/fuzz-h200-4002/, 0aa7c9e7,
/// trace/T7E.md: 0x5cc6 for the spec's 0xdcc7, `mul.hi.u16` alike, 13.0.88 -O3; 13.5 right).
/// Either factor (or both); the other factor and the addend read as their 16 bits. `.s16`
/// (the same high half either way) and `mul.lo`/`mad.lo` (the low half) are right. The product
/// is [`wide16_product_of_s8_round_trip::imad_product_of_s8_round_trip`]'s (the `.wide` readers' too).
fn hi16_product_of_s8_round_trip(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::MulHi | GlueOp::MadHi) {
        return None;
    }
    let high = wide16_product_of_s8_round_trip::imad_product_of_s8_round_trip(m, t, g, vals)? >> 16;
    let addend = match g.op {
        GlueOp::MadHi => vals.get(2).filter(|c| c.is_exact()).map(|c| c.bits as u32 & 0xFFFF)?,
        _ => 0,
    };
    Some(Expected::exact(u128::from(high.wrapping_add(addend) & 0xFFFF), result.width))
}

/// 3604-N1: `shr.s16 d, a, r` with r written by `cvt.<irnd>.u32.f32` of x: where x rounded is
/// ≤ −1 the fused signed `F2I.S16` makes the amount negative and d is a's sign fill. f32 copies
/// between are looked through (seed 6203's f783c3c1, corpus/findings/fuzz-h200-6201/trace/T62E.md:
/// `cvt.rni.u32.f32 r1, r0; mov.f32 r2, r1; shr.s16 h5, h2, r2` is `F2I.S16.NTZ R0, R0; SHF.R.S32.HI
/// R7, RZ, R0, R7`, 13.0.88 = 13.5 -O3; two `mov.f32`s and a plain `cvt.f32.f32` alike; a
/// `cvt.ftz.f32.f32` keeps `F2I.U32` and the clamp, right).
fn shr_s16_by_u32_cvt(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Shr || g.ty != GlueType::S16 {
        return None;
    }
    let (c0, x) = match producer_through_f32_copies(m, t, reg_of_glue(g, 1)?)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c0), .. }), o)
            if c0.dtype == CvtType::U32 && c0.atype == CvtType::F32 && c0.rnd.is_some_and(CvtRnd::is_integer) =>
        {
            (*c0, o.a.clone()?)
        }
        _ => return None,
    };
    let a = vals.first().filter(|a| a.is_exact())?;
    let signed = Form::Cvt(Cvt { dtype: CvtType::S32, sat: false, ..c0 });
    let rounded = x.is_exact().then(|| convert(m, &signed, x.bits & 0xFFFF_FFFF)).flatten()?;
    // §9.7.9.21: a NaN converts to 0, so a negative result is a number ≤ −1.
    if !rounded.is_exact() || (rounded.bits as u32 as i32) > -1 {
        return None;
    }
    let fill = if a.bits & 0x8000 != 0 { 0xFFFF } else { 0 };
    Some(Expected::exact(fill, result.width))
}

/// Whether, after body index `k` and before `r` is written again unguarded, a `setp.*.u64`
/// compares register `r` with an immediate 0 (3604-N2).
fn compared_with_zero_u64(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    for s in &m.p.body[k + 1..] {
        if let Stmt::Glue { glue, .. } = s {
            let with_zero = (reg_of_glue(glue, 0) == Some(r) && imm_of(glue, 1) == Some(0))
                || (imm_of(glue, 0) == Some(0) && reg_of_glue(glue, 1) == Some(r));
            if matches!(glue.op, GlueOp::Setp(_)) && glue.ty == GlueType::U64 && with_zero {
                return true;
            }
        }
        let unguarded = match s {
            Stmt::Glue { guard, .. } => guard.is_none(),
            Stmt::Isa(i) => i.guard.is_none(),
            _ => false,
        };
        if unguarded && writes(s, r) {
            return false;
        }
    }
    false
}
