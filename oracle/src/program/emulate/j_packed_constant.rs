//! Root cause J: ptxas 13.0 -O3 and the JIT (fixed in 13.5) give a 32-bit value they know as a
//! constant wrong packed 16-bit halves (`corpus/known/fuzz-h100-j-branch-constant-splat.toml`).
//! Two mechanisms, each its deviation, called from the hooks of `emulate.rs` ([`glue`],
//! [`unpacked`], [`cvt`], [`pack_c`]):
//! - the branch-known value (3602-N3's fall-through fact,
//!   [`branch_fixed`](super::j_branch_known_values::branch_fixed)) has its low
//!   half as its high half ([`Deviation::BranchConstantHighHalfIsItsLowHalf`]: fuzz-h100 c4102,
//!   fuzz-h200-3701 21862007), also as either operand of `{add,min,max}.{u16x2,s16x2}`
//!   (fuzz-h200-3802 7f08ae6d, ff1a71c7);
//! - `add.{u16x2,s16x2}` of two constants, or of a constant and a register, read as one half is
//!   narrowed to that half and drops the addend it made the immediate
//!   ([`Deviation::AddU16x2OfConstantsNarrowedDropsOne`]: fuzz-h100-b c4105, fuzz-h200-3701
//!   f567f1b4, fuzz-h200-3801 a82b8b26, fuzz-h200-3802 b77bce67 and fd2d1cc8, [`narrowed_half`]);
//!   of an `add.u16x2` of a constant and a register read only by a skipped 16-bit set
//!   (N-11 reads the low half) it drops the constant (fuzz-h200-3701 3f9c3758,
//!   [`narrowed_low_read_by_skipped_set`]).
//!
//! Seeds 3901–3903 generalized both to the mechanism ([`super::j_branch_known_values`]): the branch
//! fact wherever the fall-through dominates, through self-copies and in copies of the compared
//! register (2a67c43e, cb17a684, 75dac7ed); the narrowed add's constants through copies, its sum
//! observed only by the narrowing reader through copies (dead readers ignored), and a byte
//! unpack reading one half (ae678c32, 05c914bf, 2bdcc7c7, debc8a69). Seeds 4401–4402 widened
//! the narrowed add ([`super::j_narrowed_packed_add`]): the half read through a 64-bit pack and a
//! 16-bit unpack (dbd161f7, c825e5ab), a shuffled constant as its register operand (c825e5ab).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction, its producers and the branch around it are exactly the ones the evidence shows
//! wrong; it returns its input (or `None`) otherwise.

mod b64_high_word;

pub(super) use b64_high_word::bit_op;

use super::fuzz3602::fall_through_fixed_ahead;
use super::fuzz3701::folded_constant;
use super::j_branch_known_values::{branch_fixed, observed, observed_only_by};
use super::j_branch_known_word_unpacked_through_a_pack64;
use super::j_constant_unpacked_from_a_folded_b64;
use super::j_narrowed_packed_add::{self, shuffled};
use super::j_shuffled_constant_folded_beside_a_load;
use super::origin::{reads_and_overwrites, value_readers};
use super::{byte_pack_with_c, reg_of_glue, GlueRule};
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtPack, CvtType, Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::thread::extend;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under J: `{add,min,max}.{s16x2,u16x2} d, a, b` with a or b
/// branch-known.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] =
        &[(Deviation::BranchConstantHighHalfIsItsLowHalf, packed_op_of_branch_constant)];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// The constant K register `v` (value `value`) holds where a branch fixes it: a fall-through
/// of `@p bra` on `setp.ne.{u32,s32} p, v, K` that dominates the statement being run, v or a
/// register v copies kept since ([`branch_fixed`]; `.s32`: corpus/findings/fuzz-h200-3702/,
/// c388df98, trace/T3B.md, the same 13.0.88 -O3 listing).
fn branch_known(m: &Machine<'_>, v: Reg, value: &Expected) -> Option<u64> {
    let k = branch_fixed(m, v, m.stmt, &[GlueType::U32, GlueType::S32])?;
    (value.is_exact() && value.bits as u64 & 0xFFFF_FFFF == k).then_some(k)
}

/// How many copies or conversions deep [`narrowed_half`] follows a constant addend to its move
/// (corpus/findings/fuzz-h200-3901/, ae678c32, trace/T6A.md: `mov.b32 %r0, %r0` after the move;
/// fuzz-h200-3902/, 05c914bf, trace/T6D.md: `mov.u32 %r1, %r0`; both 13.0.88 -O3 `VIADD.16x2 R0,
/// RZ, 0x0` as without the copy): any chain ptxas folds, bounded for the walk.
const CONSTANT_COPIES: u32 = 8;

/// Whether `g` is `add.u16x2` or `add.s16x2`: one modular add of each half (§9.7.1.1), and one
/// `VIADD.16x2` listing on ptxas 13.0.88 -O3 (corpus/findings/fuzz-h200-3801/: trace/T4B.md
/// c34717b2 `v1_u16x2`, trace/T4C.md f2611d02 `v_s16x2`, trace/T4D.md a82b8b26 `v_s16`).
fn packed_add(g: &Glue) -> bool {
    g.op == GlueOp::Add && g.ty.packed()
}

/// The constant K register `v` (value `value`) holds where the branch after the statement being
/// run (the unpack of `v` into `h`) fixes it for every reader of `h`
/// ([`fall_through_fixed_ahead`]: corpus/findings/fuzz-h200-3801/, 87576d8b, trace/T4D.md,
/// `setp.ne.s32`; the halves only, a byte unpack ahead of the branch is not evidenced).
fn branch_known_ahead(m: &Machine<'_>, v: Reg, h: Reg, value: &Expected) -> Option<u64> {
    let k = fall_through_fixed_ahead(m, v, h, &[GlueType::U32, GlueType::S32])?;
    (value.is_exact() && value.bits as u64 & 0xFFFF_FFFF == k).then_some(k)
}

/// J (fuzz-h100 c4102: `mov.b32 %r4, 0; setp.ne.u32 %p0, %tix, 0x5e; @%p0 bra $L0; add.s16x2
/// %r4, %r4, %tix` gives 0x005e005e, `@!P0 VIADD.16x2 R5, RZ, 0x5e005e`): `add.{s16x2,u16x2}
/// d, a, b` with b branch-known to K adds K's low half to both halves (`.u16x2`:
/// corpus/findings/fuzz-h200-3801/, f2611d02, trace/T4C.md, `@!P0 VIADD.16x2 R5, RZ, 0x440044`).
/// Each operand that is branch-known is K's low half in both halves: a as b (add is commutative,
/// §9.7.1.1; corpus/findings/fuzz-h200-3802/, 7f08ae6d, trace/T5A.md: `add.s16x2 %r0, %tix,
/// %r0` and `v1_known_second` give one listing, `@!P0 VIADD.16x2 R7, R7, 0x660066`), and
/// `min`/`max` as `add` (§9.7.1.10–11, lane-wise for `.u16x2`/`.s16x2`; ff1a71c7, trace/T5B.md:
/// `min.u16x2 %r0, %r1, %tix` under `setp.ne.s32 %p4, %tix, 11` gives `@!P0 VIMNMX.U16x2 R0,
/// R0, 0xb000b`, 13.5 `0xb`; ptxas 13.0.88 -O3 gives the same splat for `max.u16x2`,
/// `{min,max}.s16x2`, either operand order and both operands the known register:
/// ff1a71c7/w1b/).
fn packed_op_of_branch_constant(
    m: &Machine<'_>,
    _: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Add | GlueOp::Min | GlueOp::Max) || !g.ty.packed() {
        return None;
    }
    let known = |k: usize| branch_known(m, reg_of_glue(g, k)?, vals.get(k)?);
    let (ka, kb) = (known(0), known(1));
    if ka.is_none() && kb.is_none() {
        return None;
    }
    let operand = |k: usize, known: Option<u64>| match known {
        Some(c) => Some((c & 0xFFFF) * 0x1_0001),
        None => vals.get(k).filter(|v| v.is_exact()).map(|v| v.bits as u64),
    };
    let (a, b) = (operand(0, ka)?, operand(1, kb)?);
    Some(Expected::exact(u128::from(g.eval([a, b, 0, 0], false)), result.width))
}

/// Half `half` (0 low, 1 high) of the value register `w` of thread `t` holds as ptxas narrows
/// it, when `add.{u16x2,s16x2} w, K1, K2` of two registers holding moved immediates wrote it
/// and the statement being run is the one reader that observes it ([`observed_only_by`]:
/// copies followed, dead readers ignored). ptxas narrows both constants to that half,
/// keeps a zero one as RZ and the other as the immediate, else K2 in a register and K1 as the
/// immediate, and drops the immediate: 0 where K1's half is 0 (or K2's), else K2's half
/// (corpus/findings/fuzz-h200-3801/, trace/T4D.md a82b8b26: (K1, K2) = (2, 0) and (0, 2) give
/// `VIADD.16x2 R0, RZ, 0x0`, (2, 5) and (5, 2) `VIADD.16x2 R0, R0(=K2), 0x0`, 13.5 adding K1;
/// trace/T4B.md 53f554e1 `v2_both_nonzero`: K2's 1 kept). K2's half is the add's (the spec's,
/// §9.7.1.1) minus K1's. It fits c4105 (K1 = 0) and f567f1b4 (K1 = K2).
/// Of one such constant and a register ptxas does not know (its producer's result not known
/// at compile time, [`Origin::known_since`](super::Origin)), the constant is the immediate
/// dropped and the register's half is kept, either operand order, `.u16x2` as `.s16x2`
/// (corpus/findings/fuzz-h200-3802/, b77bce67, trace/T5B.md: `add.u16x2 %r1, %r0(=K), %tix`
/// read as one half, `PRMT R0, R5, 0x7632, R0; VIADD.16x2 R0, R0, 0x0`, 13.5 adding 0xeeb8;
/// `v1_low_half` `VIADD.16x2 R0, R4, 0x0`; right: `v2_whole`, read whole. ptxas 13.0.88 -O3
/// gives the same dropped immediate for K second, `.s16x2`, a loaded register, a `cvt.u16.s32`
/// reader and the `c` of `cvt.pack.sat.u8.s32.b32`: b77bce67/w1b/).
/// A shuffled constant (ptxas knows it, keeps it in a register) is such a register
/// ([`j_narrowed_packed_add::shuffled`]: c825e5ab), unless the body loads: then it is a constant of
/// the two ([`j_shuffled_constant_folded_beside_a_load`]: 4b4a61c5). A word of an unpacked
/// 64-bit constant is a constant ([`j_constant_unpacked_from_a_folded_b64`]: 8a55bf3e).
fn narrowed_half(m: &Machine<'_>, t: u32, w: Reg, half: u32) -> Option<u64> {
    narrowed_half_read_at(m, t, w, half, m.stmt)
}

/// [`narrowed_half`] where the one observing reader is the statement at body index `reader`
/// (a pack whose one element read is the half: [`j_narrowed_packed_add::unpacked_through_pack`]).
pub(super) fn narrowed_half_read_at(m: &Machine<'_>, t: u32, w: Reg, half: u32, reader: usize) -> Option<u64> {
    let (g, o) = match m.producer(t, w)? {
        (Stmt::Glue { glue, .. }, o) if packed_add(glue) => (glue, o),
        _ => return None,
    };
    let constant = |k: usize| {
        reg_of_glue(g, k).is_some_and(|r| {
            folded_constant(m, o.stmt, r, CONSTANT_COPIES)
                || j_shuffled_constant_folded_beside_a_load::folded_shuffle(m, o.stmt, r)
                || j_constant_unpacked_from_a_folded_b64::folded_unpack(m, o.stmt, r, CONSTANT_COPIES)
        })
    };
    let (c1, c2) = (constant(0), constant(1));
    let first = o.a.as_ref().filter(|a| (c1 || c2) && a.is_exact())?;
    let sum = m.read(t, w).ok().filter(Expected::is_exact)?;
    let half_of = |v: &Expected| (v.bits as u64 >> (16 * half)) & 0xFFFF;
    let (k1, k2) = (half_of(first), half_of(&sum).wrapping_sub(half_of(first)) & 0xFFFF);
    let kept = match (c1, c2) {
        (true, true) if k1 == 0 => 0,
        (true, true) => k2,
        // One constant: a register ptxas knows (the add then known too) is evidenced only as a
        // shuffle ([`j_narrowed_packed_add::shuffled`]).
        _ if o.known_since.is_some() && !reg_of_glue(g, usize::from(c1)).is_some_and(|r| shuffled(m, o.stmt, r)) => {
            return None
        }
        (true, false) => k2,
        _ => k1,
    };
    observed_only_by(m, o.stmt, g.dst, reader).then_some(kept)
}

/// The halves of a `mov.b32 {lo, hi}, w` unpack (`results`, the spec's, one per register
/// element) under J: the high half of a branch-known w is K's low half (21862007: `mov.b32
/// {%h2, %h1}, %tix` under `setp.ne.u32 %p0, %tix, 0x1; @%p0 bra` stores 1, where the spec's
/// high half is 0), also where the unpack comes before the branch and the half is read only in
/// its fall-through ([`branch_known_ahead`]: 87576d8b); of a narrowed `add.{u16x2,s16x2}`
/// result, the one half that is read is [`narrowed_half`]'s (f567f1b4 `v/j4`: `VIADD.16x2 R0,
/// R0, 0x0`, 0xc83b where the spec gives 0x9076). The bytes of a
/// `mov.b32 {b0, b1, b2, b3}, w` unpack of a branch-known w: b2 is K's byte 0
/// (corpus/findings/fuzz-h200-3702/, c388df98, trace/T3B.md: `@!P0 PRMT R0, R4(=K), 0x7610, R0`
/// on ptxas 13.0.88 -O3, `v1-byte1` K = 0x133 keeps b1 = 0x01; b3 is not evidenced, left to the
/// spec). A `mov.b64 {h0, h1, h2, h3}, d` of a pack of the narrowed sum:
/// [`j_narrowed_packed_add::unpacked_through_pack`].
pub(super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let (Some(Operand::Vector(items)), Some(src)) = (inst.operands.first(), inst.operands.get(1)) else {
        return results;
    };
    let bytes = mv.shape == MovShape::Unpack(4);
    let unpack = mv.shape == MovShape::Unpack(2) || bytes;
    let Some(w) = m.reg_of(src).ok().filter(|_| unpack) else { return results };
    // A 64-bit v known from a `.u64`/`.s64` branch: its high word is K's low word (seed 5801's
    // ed1b0473, `j_packed_constant/b64_high_word.rs`).
    let mut results = if w.class().bits() == 64 { b64_high_word::unpacked(m, t, w, items, results) } else { results };
    // A 64-bit unpack of a pack of a branch-known word
    // (`emulate/j_branch_known_word_unpacked_through_a_pack64.rs`) or of the narrowed add
    // (`emulate/j_narrowed_packed_add.rs`).
    if w.class().bits() == 64 && mv.shape == MovShape::Unpack(4) {
        let results = j_branch_known_word_unpacked_through_a_pack64::unpacked(m, t, w, items, results);
        return j_narrowed_packed_add::unpacked_through_pack(m, t, w, items, results);
    }
    if w.class().bits() != 32 {
        return results;
    }
    let halves: Vec<Option<Reg>> = items.iter().map(|o| m.reg_of(o).ok()).collect();
    let whole = m.read(t, w).ok();
    // The half of w each element lies in (a byte unpack's b0, b1 the low half).
    let half_of = |k: usize| if bytes { k / 2 } else { k };
    for (k, reg) in halves.iter().enumerate() {
        // Only a half that is read (a change of an unread one explains nothing).
        let read = |h: &Reg| value_readers(m, m.stmt, *h) > 0;
        let Some(h) = reg.filter(read) else { continue };
        let (splat_at, mask) = if bytes { (2, 0xFF) } else { (1, 0xFFFF) };
        let known = |v: &Expected| branch_known(m, w, v).or_else(|| branch_known_ahead(m, w, h, v).filter(|_| !bytes));
        let splat = whole.as_ref().filter(|_| k == splat_at).and_then(known).map(|c| c & mask);
        // Narrowed: no element of the other half is observed (dead readers ignored;
        // corpus/findings/fuzz-h200-3902/, 2bdcc7c7, trace/T6E.md: `mov.b32 {%c0, %c1, _, _}`
        // with c1 read, 13.0.88 -O3 `VIADD.16x2 R0, RZ, 0x0` as for the half unpack;
        // fuzz-h200-3903/, debc8a69, trace/T6F.md: c4 of `{_, _, _, %c4}`, the same listing).
        let other_unread = halves
            .iter()
            .enumerate()
            .filter(|&(j, _)| half_of(j) != half_of(k))
            .all(|(_, r)| r.is_none_or(|r| !observed(m, m.stmt, r)));
        let (d, value) = match splat {
            Some(v) if m.allow.emulates(Deviation::BranchConstantHighHalfIsItsLowHalf) => {
                (Deviation::BranchConstantHighHalfIsItsLowHalf, v)
            }
            _ if m.allow.emulates(Deviation::AddU16x2OfConstantsNarrowedDropsOne) && other_unread => {
                match narrowed_half(m, t, w, half_of(k) as u32) {
                    Some(v) if bytes => (Deviation::AddU16x2OfConstantsNarrowedDropsOne, (v >> (8 * (k % 2))) & 0xFF),
                    Some(v) => (Deviation::AddU16x2OfConstantsNarrowedDropsOne, v),
                    None => continue,
                }
            }
            _ => continue,
        };
        if let Some((_, e)) = results.iter_mut().find(|(r, _)| *r == h) {
            let from = e.clone();
            *e = m.fire(d, &from, Expected::exact(u128::from(value), from.width));
        }
    }
    results
}

/// A `cvt`'s result under J: `cvt.u16.s32 h, w` (no `.sat`: w's low half, §9.7.9.21) of a
/// narrowed `add.{u16x2,s16x2}` result is [`narrowed_half`]'s low half (fuzz-h100-b c4105: `mov.b32 %r0, 0; mov.b32
/// %r1, K; add.u16x2 %r0, %r0, %r1; cvt.u16.s32` stores 0, `VIADD.16x2 R0, RZ, 0x0`), also
/// `cvt.{u16,s16}.{s32,u32}`; a widening `cvt.{s64,u64}.{s32,u32} d, w` whose one reader is
/// `cvt.{u16,s16,u8,s8}.{u64,s64}` of d ([`read_only_narrowed`]) has that half as d's low
/// 16 bits, the rest the spec's (no reader reads them) (corpus/findings/fuzz-h200-3802/,
/// fd2d1cc8, trace/T5A.md: `add.s16x2` of 0xee31ce0f and 0, `cvt.s64.s32 %d0, %r0; cvt.u8.u64`
/// stores 0, `VIADD.16x2 R0, RZ, 0x0`, 13.5 `0xce0f`. ptxas 13.0.88 -O3, fd2d1cc8/w1b/: each
/// of those readers gives `VIADD.16x2 R0, RZ, 0x0`; `cvt.{u8,s8}.{s32,u32}` read directly,
/// `cvt.s64.s32` read whole or by `cvt.u32.u64` keep 0xee32ce0f: right).
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let word = matches!(c.atype, CvtType::S32 | CvtType::U32);
    if !m.allow.emulates(d) || !word || c.sat || c.rnd.is_some() {
        return None;
    }
    let w = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    match c.dtype {
        CvtType::U16 | CvtType::S16 => Some((d, Expected::exact(u128::from(narrowed_half(m, t, w, 0)?), 16))),
        CvtType::U64 | CvtType::S64 => {
            let dst = inst.operands.first().and_then(|o| m.reg_of(o).ok())?;
            if !read_only_narrowed(m, dst) {
                return None;
            }
            let half = narrowed_half(m, t, w, 0)?;
            let sum = m.read(t, w).ok().filter(Expected::is_exact)?;
            let mut wide = extend(Expected::exact(sum.bits & 0xFFFF_FFFF, 32), 64, c.atype.is_signed_int());
            wide.replace(0, Expected::exact(u128::from(half), 16));
            Some((d, wide))
        }
        _ => None,
    }
}

/// Whether the value the statement being run writes to `d` has one reader, a
/// `cvt.{u16,s16,u8,s8}.{u64,s64}` (no `.sat`: d's low bits, §9.7.9.21).
fn read_only_narrowed(m: &Machine<'_>, d: Reg) -> bool {
    let mut readers = Vec::new();
    for s in &m.p.body[m.stmt + 1..] {
        let (reads, overwrites) = reads_and_overwrites(s, d);
        if reads {
            readers.push(s);
        }
        if overwrites {
            break;
        }
    }
    let narrowing = |c: &Cvt| {
        matches!(c.dtype, CvtType::U16 | CvtType::S16 | CvtType::U8 | CvtType::S8)
            && matches!(c.atype, CvtType::U64 | CvtType::S64)
            && !c.sat
            && c.rnd.is_none()
    };
    matches!(readers.as_slice(), [Stmt::Isa(Instruction { form: Form::Cvt(c), .. })] if narrowing(c))
}

/// A `cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c` under J: c's low half, which d's high half is
/// (§9.7.9.22), is [`narrowed_half`]'s where a narrowed `add.{u16x2,s16x2}` wrote c (f567f1b4: `add.u16x2 %r1, %r0,
/// %r0` of `mov.f32 %r0, 0fC83B0A9F` read only as that `c`). `results` (the spec's) changed.
pub(super) fn pack_c(
    m: &mut Machine<'_>,
    t: u32,
    p: &CvtPack,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    let Some((dst, spec)) = byte_pack_with_c(m, d, p, &results) else { return results };
    let (dst, spec) = (&dst, &spec);
    let reg = |k: usize| inst.operands.get(k).and_then(|o| m.reg_of(o).ok());
    // c read as a or b too is read whole: not narrowed.
    let c = reg(3).filter(|&c| reg(1) != Some(c) && reg(2) != Some(c));
    let Some(half) = c.and_then(|c| narrowed_half(m, t, c, 0)) else {
        return results;
    };
    let (dst, from) = (*dst, spec.clone());
    let mut to = from.clone();
    to.replace(16, Expected::exact(u128::from(half), 16));
    vec![(dst, m.fire(d, &from, to))]
}

/// Whether no statement but the one being run reads the value statement `k` wrote to `r` on the
/// way to it: straight on (`k` before it), or around a loop (`k` after it: up to the first
/// branch after `k`, back to a label at or before the statement being run, then from there).
fn read_only_here(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    let read = |stmts: &[Stmt]| stmts.iter().any(|s| reads_and_overwrites(s, r).0);
    if k < m.stmt {
        return !read(&m.p.body[k + 1..m.stmt]);
    }
    let back = m.p.body.iter().enumerate().skip(k + 1).find_map(|(b, s)| match s {
        Stmt::Bra { label, .. } => Some((b, *label)),
        _ => None,
    });
    let Some((b, label)) = back else { return false };
    let head = m.p.body.iter().position(|s| *s == Stmt::Label(label)).filter(|&h| h <= m.stmt);
    head.is_some_and(|h| !read(&m.p.body[k + 1..=b]) && !read(&m.p.body[h..m.stmt]))
}

/// J narrowed, read by N-11 (corpus/findings/fuzz-h200-3701/, 3f9c3758, trace/TC2.md; ptxas
/// 13.0.88 -O3 and the JIT, 13.5 right): the low 16 bits the skipped 16-bit-source set being
/// run reads of its old word `r`, when `add.u16x2 r, K, x` (K a moved immediate, x not a
/// constant) wrote it and the set is its only reader on the way (a loop `@p set.ge.f32.s16 %r6;
/// add.u16x2 %r6, %r5, %r6` unrolled: `VIADD.16x2 R, R, 0x0` where 13.5 adds 0x4eea, the last
/// add, read whole by the store, keeps K): x's low half, K's dropped. Recorded as fired where
/// that differs from the spec's low half.
pub(super) fn narrowed_low_read_by_skipped_set(m: &mut Machine<'_>, t: u32, r: Reg, old: &Expected) -> Option<u32> {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    if !m.allow.emulates(d) || !old.is_exact() {
        return None;
    }
    let (g, o) = match m.producer(t, r)? {
        (Stmt::Glue { glue, .. }, o) if glue.op == GlueOp::Add && glue.ty == GlueType::U16x2 => (glue, o),
        _ => return None,
    };
    let (k, (a, x)) = (o.stmt, (reg_of_glue(g, 0)?, reg_of_glue(g, 1)?));
    let constant =
        o.a.as_ref().filter(|v| v.is_exact() && folded_constant(m, k, a, 0) && !folded_constant(m, k, x, 0))?;
    if !read_only_here(m, k, r) {
        return None;
    }
    let low = (old.bits as u32).wrapping_sub(constant.bits as u32) & 0xFFFF;
    let spec = Expected::exact(old.bits & 0xFFFF, 16);
    m.fire(d, &spec, Expected::exact(u128::from(low), 16));
    Some(low)
}
