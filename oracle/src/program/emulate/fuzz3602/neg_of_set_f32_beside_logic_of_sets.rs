//! 3602-N2's other materialization (corpus/known/fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean.toml):
//! `neg.s32` of a `set.<cmp>.f32` result rebuilt from the set's predicate as the FLOAT −1.0 once
//! ptxas has lowered the set into predicate logic with another set.f32 (seed 5801's d4409f00,
//! 047b7594, 772de695; corpus/findings/fuzz-h200-5801/trace/T58A.md, variants trace/d4409f00/s58/).
//!
//! `set.eq.f32.u64 r0; set.gt.f32.s64 r2; xor.b32 r3, r2, r0; neg.s32 r4, r0` is, at 13.0.88 and
//! 13.5 -O3 (and the JIT), `ISETP.LT.XOR P1, PT, R0, RZ, P0; FSEL R7, RZ, -1, !P0`: the negation
//! is 0xbf800000 when the set is true, where §9.7.1 negates the word 0x3f800000 to 0xc0800000 (0
//! when false either way). Wrong alike: and/or in place of the xor (v9), `sub.s32` of a moved 0
//! (v10), `.s32` sources (v11), the logic op after the negation (v14), the negation of the logic
//! op's other set (v16), either read through a `mov` copy (v17, v18). Right (the set kept as
//! `SEL 0x3f800000` or `FSEL 1` and negated by `IMAD.MOV -R0`): no logic op (v1–v3), a logic op
//! with a loaded word, an integer set or a `selp 0x3f800000, 0` (v4, v5, v15), a dead logic op
//! (v8), a guarded set (v19).
//!
//! Seed 6002's 06791736 (corpus/findings/fuzz-h200-6002/trace/T60C.md, variants
//! trace/06791736/s60/): the same float −1.0 when the logic op reads the NEGATION beside a
//! predicate mask. `set.ge.f32.u64 r5; neg.s32 r6, r5; set.ge.u32.u64 r10; xor.b32 r13, r6, r10`
//! is 13.0.88 and 13.5 -O3 `SEL R7, R0(0x407fffff), 0xbf800000, P0` (a set source ptxas does not
//! know: `FSEL R9, RZ, -1, !P1; @P0 LOP3.LUT … 0x33`, `v03`). Wrong alike: and/or (`v06`, `v07`),
//! a `set.*.s32` or `set.*.u32.u32` mask (`v09`, `v14`), `selp.b32 -1, 0` (`v13`, not emulated:
//! no glue form), `sub.s32` of 0
//! (`v11`), the neg also stored (`v15`: that word 0xbf800000 too), a copy of the neg (`v16`), the
//! operands swapped (`v17`). Right: the other operand a set.f32 (`v12`), a cnot (`v20`), a loaded
//! word (`v02`), an immediate (`v21`); an add in place of the logic op (`v08`).
//!
//! Seed 6203's 4b53cd6d (corpus/findings/fuzz-h200-6201/trace/T62C.md, variants
//! corpus/findings/fuzz-h200-6203/trace/4b53cd6d/s62/; seed 3902's df546b5a, trace/T6E.md, the
//! same): the float −1.0 when N2's own trigger, a live and/or/xor.b16 of the two halves of a
//! `mov.b32` unpack of the negation, meets a STORE of the negation's value. `set.gt.f32.u32 r2;
//! neg.s32 r1, r2; mov.b32 {h12, h13}, r1; xor.b16 h14, h12, h13; st.v2.b32 [out], {r0, r1}` is
//! 13.0.88 and 13.5 -O3 `FSEL R7, RZ, -1, !P0; PRMT R0, R7, 0x7632; LOP3.LUT … 0x3c` (the stored
//! word 0xbf800000, spec 0xc0800000; the halves' xor then reads the float's halves, right by
//! chance at the low byte). Wrong alike: and/or (`w03`, `w04`), `sub.s32` of a moved 0 (`w10`),
//! `.s32`/`.f32` set sources (`w13`, `w14`), the word stored alone (`w07`) or through a copy
//! (`w12`), a half stored in place of the word (`w08`; df546b5a's `st.s16` of a half). Right: no
//! halves logic (`w01`), the logic dead (`w06`), `add.u16` of the halves (`w05`), the other
//! reader an `add.u32` (`w09`: `FSEL 1; IMAD.MOV -R7`), an integer set (`w11`); without the store
//! N2's boolean (`w02`, `STG.E.S8 … RZ`, [`super::neg_of_set_f32_halves`]), which
//! [`stored_beside_logic_of_its_halves`] then keeps out.
//!
//! Invariants: only when `NegOfSetF32HalvesReadAsBoolean` is emulated (the caller's rule list),
//! for an unguarded set.f32 reaching the negation with no label or branch between, and a live
//! unguarded and/or/xor.b32 either of two different such sets one of which is the negated set,
//! or of the negation and an unguarded integer set (each through copies,
//! with no label or branch between), or a live unguarded and/or/xor.b16 of the two halves of an
//! unguarded unpack of the negation beside an unguarded store of it or of an unpacked half (the
//! word through copies); the spec's result stands otherwise (and for a false set,
//! where the two agree).

use super::super::b_set_f32_rebuilt_at_its_shifts::constant;
use super::super::j_branch_known_values::{observed, readers};
use super::super::origin::moved_immediate;
use super::super::reg_of_glue;
use super::writes;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// How many `mov` copies between a set and its reader are looked through.
const COPY_DEPTH: usize = 4;

/// The word ptxas gives the negation of a true set: the float −1.0.
const FLOAT_MINUS_ONE: u128 = 0xBF80_0000;

/// The glue rule: `neg.s32 d, s` or `sub.{s32,u32} d, z, s` (z a moved 0) of a true set.f32 `s`
/// in a live and/or/xor.b32 with another set.f32 gives 0xbf800000.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let (s, v) = match (g.op, g.ty) {
        (GlueOp::Neg, GlueType::S32) => (reg_of_glue(g, 0)?, vals.first()?),
        (GlueOp::Sub, GlueType::S32 | GlueType::U32) => {
            let z = reg_of_glue(g, 0)?;
            let zero = vals.first().is_some_and(|z| z.is_exact() && z.bits & 0xFFFF_FFFF == 0);
            if !zero || !moved_immediate(m, t, z) {
                return None;
            }
            (reg_of_glue(g, 1)?, vals.get(1)?)
        }
        _ => return None,
    };
    if !v.is_exact() || v.bits & 0xFFFF_FFFF != 0x3F80_0000 {
        return None;
    }
    let set = set_f32_behind(m, s, m.stmt)?;
    let rebuilt =
        in_logic_with_another_set(m, set) || in_logic_with_a_mask(m, m.stmt) || halves_in_logic_and_stored(m, m.stmt);
    rebuilt.then(|| Expected::exact(FLOAT_MINUS_ONE, result.width))
}

/// The body index of the statement that writes the value register `r` holds at statement `at`,
/// looking back through unguarded `mov` copies, with no label or branch between.
fn source_behind(m: &Machine<'_>, r: Reg, at: usize) -> Option<usize> {
    let (mut r, mut i) = (r, at);
    for _ in 0..=COPY_DEPTH {
        let (k, s) = m.p.body[..i].iter().enumerate().rev().find(|(_, s)| writes(s, r) || flow(s))?;
        match s {
            Stmt::Isa(Instruction {
                form: Form::Mov(Mov { shape: MovShape::Copy, .. }),
                operands,
                guard: None,
                ..
            }) => {
                r = match operands.get(1) {
                    Some(o @ Operand::Name(_)) => m.reg_of(o).ok()?,
                    _ => return None,
                };
                i = k;
            }
            _ if flow(s) => return None,
            _ => return Some(k),
        }
    }
    None
}

/// The body index of the unguarded `set.<cmp>.f32` whose word register `r` holds at statement
/// `at`, looking back through unguarded `mov` copies, with no label or branch between.
fn set_f32_behind(m: &Machine<'_>, r: Reg, at: usize) -> Option<usize> {
    let k = source_behind(m, r, at)?;
    matches!(&m.p.body[k], Stmt::Glue { guard: None, glue } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)))
        .then_some(k)
}

/// Whether the statement at body index `k` is an unguarded predicate mask: an integer
/// `set.<cmp>.{u32,s32}` (0xffffffff or 0; seed 6002's 06791736, `v09`, `v14`). (`selp.b32 -1, 0`,
/// `v13`, wrong alike, is no glue form of the program language: two immediates.)
fn predicate_mask(m: &Machine<'_>, k: usize) -> bool {
    matches!(m.p.body.get(k), Some(Stmt::Glue { guard: None, glue })
        if matches!(glue.op, GlueOp::Set(_, SetDst::U32 | SetDst::S32)))
}

/// A label or branch: the rule is evidenced only within one straight run of statements.
fn flow(s: &Stmt) -> bool {
    matches!(s, Stmt::Label(_) | Stmt::Bra { .. })
}

/// Whether a live unguarded and/or/xor.b32 of two registers reads the set at body index `set`
/// and another set.f32 (each directly or through copies).
fn in_logic_with_another_set(m: &Machine<'_>, set: usize) -> bool {
    m.p.body.iter().enumerate().any(|(j, s)| {
        let Stmt::Glue { guard: None, glue } = s else { return false };
        if !matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor) || glue.ty != GlueType::B32 {
            return false;
        }
        let (Some(a), Some(b)) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1)) else { return false };
        let (Some(ka), Some(kb)) = (set_f32_behind(m, a, j), set_f32_behind(m, b, j)) else { return false };
        ka != kb && (ka == set || kb == set) && observed(m, j, glue.dst)
    })
}

/// Whether a live unguarded and/or/xor.b32 reads the negation at body index `neg` beside a
/// [`predicate_mask`] (each directly or through copies; seed 6002's 06791736).
fn in_logic_with_a_mask(m: &Machine<'_>, neg: usize) -> bool {
    m.p.body.iter().enumerate().skip(neg + 1).any(|(j, s)| {
        let Stmt::Glue { guard: None, glue } = s else { return false };
        if !matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor) || glue.ty != GlueType::B32 {
            return false;
        }
        let (Some(a), Some(b)) = (reg_of_glue(glue, 0), reg_of_glue(glue, 1)) else { return false };
        let (ka, kb) = (source_behind(m, a, j), source_behind(m, b, j));
        let pair = |x: Option<usize>, y: Option<usize>| x == Some(neg) && y.is_some_and(|k| predicate_mask(m, k));
        (pair(ka, kb) || pair(kb, ka)) && observed(m, j, glue.dst)
    })
}

/// Whether the unguarded statement at body index `neg` is a negation [`glue`] rebuilds as the
/// float −1.0 for N2's own trigger beside a store ([`halves_in_logic_and_stored`]): `neg.s32` or
/// `sub.{s32,u32}` from a moved 0 of a set.f32 word ([`set_f32_behind`]). N2's boolean halves
/// ([`super::neg_of_set_f32_halves`]) do not apply to it: the halves are the float's.
pub(super) fn stored_beside_logic_of_its_halves(m: &Machine<'_>, neg: usize) -> bool {
    let Some(Stmt::Glue { guard: None, glue }) = m.p.body.get(neg) else { return false };
    let negated = match (glue.op, glue.ty) {
        (GlueOp::Neg, GlueType::S32) => reg_of_glue(glue, 0),
        (GlueOp::Sub, GlueType::S32 | GlueType::U32)
            if constant(m, neg, glue, 0).is_some_and(|z| z & 0xFFFF_FFFF == 0) =>
        {
            reg_of_glue(glue, 1)
        }
        _ => None,
    };
    negated.is_some_and(|s| set_f32_behind(m, s, neg).is_some()) && halves_in_logic_and_stored(m, neg)
}

/// Whether the value the statement at body index `neg` writes (or an unguarded `mov` copy of it)
/// is unpacked by an unguarded `mov.b32 {lo, hi}` whose two halves a live unguarded
/// and/or/xor.b16 reads, and is read by an unguarded `st` itself or through a half of such an
/// unpack (seed 6203's 4b53cd6d, seed 3902's df546b5a).
fn halves_in_logic_and_stored(m: &Machine<'_>, neg: usize) -> bool {
    let Some(dst) = dst_of(m, neg) else { return false };
    let (mut logic, mut stored) = (false, false);
    let mut words = vec![(neg, dst)];
    let mut depth = 0;
    while let Some((k, w)) = words.pop() {
        for i in readers(m, k, w) {
            match &m.p.body[i] {
                s if store(s) => stored = true,
                Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) => match mv.shape {
                    MovShape::Copy if depth < COPY_DEPTH => {
                        depth += 1;
                        words.extend(dst_of(m, i).map(|c| (i, c)));
                    }
                    MovShape::Unpack(2) if mv.ty.bits() == 32 => {
                        let half = |n: usize| match operands.first() {
                            Some(Operand::Vector(items)) => items.get(n).and_then(|o| m.reg_of(o).ok()),
                            _ => None,
                        };
                        let (Some(lo), Some(hi)) = (half(0), half(1)) else { continue };
                        logic |= halves_logic(m, i, lo, hi);
                        stored |= [lo, hi].iter().any(|&h| readers(m, i, h).into_iter().any(|j| store(&m.p.body[j])));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
    logic && stored
}

/// The one register the statement at body index `k` writes: a glue destination, or a `mov`
/// copy's.
fn dst_of(m: &Machine<'_>, k: usize) -> Option<Reg> {
    match m.p.body.get(k)? {
        Stmt::Glue { glue, .. } => Some(glue.dst),
        Stmt::Isa(Instruction { form: Form::Mov(Mov { shape: MovShape::Copy, .. }), operands, .. }) => {
            m.reg_of(operands.first()?).ok()
        }
        _ => None,
    }
}

/// An unguarded `st`.
fn store(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(Instruction { form: Form::St(_), guard: None, .. }))
}

/// Whether a live unguarded and/or/xor.b16 reads the halves `lo` and `hi` the unpack at body
/// index `u` wrote, one each.
fn halves_logic(m: &Machine<'_>, u: usize, lo: Reg, hi: Reg) -> bool {
    lo != hi
        && readers(m, u, lo).into_iter().any(|j| {
            let Stmt::Glue { guard: None, glue } = &m.p.body[j] else { return false };
            let pair = (reg_of_glue(glue, 0), reg_of_glue(glue, 1));
            matches!(glue.op, GlueOp::And | GlueOp::Or | GlueOp::Xor)
                && glue.ty == GlueType::B16
                && (pair == (Some(lo), Some(hi)) || pair == (Some(hi), Some(lo)))
                && readers(m, u, hi).contains(&j)
                && observed(m, j, glue.dst)
        })
}
