//! J's scopes generalized to its mechanism (seeds 3901–3903, corpus/findings/fuzz-h200-390{1,2,3}/
//! trace/T6A.md, T6C.md, T6D.md, T6E.md, T6F.md; `j_packed_constant.rs` applies them):
//! - the branch-known value ([`branch_fixed`]): ptxas 13.0.88 -O3 propagates the fact `v == K`
//!   of the fall-through of `@p bra L` on `setp.ne p, v, K` to every statement that fall-through
//!   dominates (inner branches that land inside it passed over, 2a67c43e), through writes of `v`
//!   that leave it as it is (`and.b32 v, v, v`, cb17a684) and to plain copies of `v`
//!   (`mov.b32 r, v`, 75dac7ed);
//! - the narrowed add ([`observed_only_by`]): ptxas narrows a value every live reader of which,
//!   through any chain of plain copies, is the one narrowing reader (a reader whose result no
//!   statement reads is dead: fa039778's dead `cvt`, trace/T6D.md, is the same mechanism).
//!
//! Invariants: queries only; each answers from the program's body (and nothing else), so it
//! fires for no program where the fact or the narrowing cannot hold.

use super::fuzz3602::{guard_setp, label_at, previous_flow, writes};
use super::origin::reads_and_overwrites;
use super::{imm_of, reg_of_glue};
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// How many plain copies deep a copy chain is followed (a bound for the walk, not a scope).
const COPY_DEPTH: usize = 8;

/// The register a plain copy statement `s` (32 or 64 bits) copies into `d`: an unguarded `mov d, r`
/// (any integer or bit type, §9.7.9.10) or `and`/`or` `d, r, r` (§9.7.8.1–2: r itself).
fn copied_from(m: &Machine<'_>, s: &Stmt, d: Reg) -> Option<Reg> {
    match s {
        Stmt::Isa(Instruction {
            form: Form::Mov(Mov { shape: MovShape::Copy, .. }), operands, guard: None, ..
        }) => {
            let dst = m.reg_of(operands.first()?).ok()?;
            let src = operands.get(1).filter(|o| !matches!(o, Operand::Imm(_)))?;
            m.reg_of(src).ok().filter(|_| dst == d)
        }
        Stmt::Glue { guard: None, glue } if matches!(glue.op, GlueOp::And | GlueOp::Or) && glue.dst == d => {
            let (a, b) = (reg_of_glue(glue, 0)?, reg_of_glue(glue, 1)?);
            (a == b).then_some(a)
        }
        _ => None,
    }
}

/// Whether statement `s` leaves register `r` as it was: it does not write `r`, or it is a copy
/// of `r` into itself ([`copied_from`]; cb17a684, trace/T6F.md: `and.b32 %r0, %r0, %r0` in the
/// fall-through keeps the fact, `@!P0 MOV R10, 0xffc0ffc0`).
fn keeps(m: &Machine<'_>, s: &Stmt, r: Reg) -> bool {
    !writes(s, r) || copied_from(m, s, r) == Some(r)
}

/// Whether `r` keeps its value over the statements strictly between body indices `from` and `to`.
fn kept_between(m: &Machine<'_>, r: Reg, from: usize, to: usize) -> bool {
    from < to && m.p.body[from + 1..to].iter().all(|s| keeps(m, s, r))
}

/// The registers holding the value `v` holds at body index `at`: `v`, and, through each plain
/// copy that last wrote it ([`copied_from`], self-copies passed over), the register copied,
/// where that one keeps its value up to `at` (75dac7ed, trace/T6D.md: `mov.b32 %r2, %tix` in
/// the fall-through of `setp.ne.u32 %p2, %tix, 0x1e`, then `mov.b32 {…}, %r2`: 13.0.88 -O3
/// stores 0x1e as the byte b2, as for the unpack of `%tix` itself).
fn aliases(m: &Machine<'_>, v: Reg, at: usize) -> Vec<Reg> {
    let mut found = vec![v];
    let (mut r, mut before) = (v, at);
    while found.len() <= COPY_DEPTH {
        let last = m.p.body[..before].iter().enumerate().rev().find(|(_, s)| !keeps(m, s, r));
        let Some((k, s)) = last else { break };
        match copied_from(m, s, r) {
            Some(u) if kept_between(m, u, k, at) && !found.contains(&u) => {
                found.push(u);
                (r, before) = (u, k);
            }
            _ => break,
        }
    }
    found
}

/// Whether every label strictly between body indices `from` and `to` is the target only of
/// branches between `from` and it (the region is entered only past `from`).
fn entered_only_past(m: &Machine<'_>, from: usize, to: usize) -> bool {
    m.p.body[from + 1..to].iter().enumerate().all(|(i, s)| {
        let Stmt::Label(l) = *s else { return true };
        let at = from + 1 + i;
        m.p.body
            .iter()
            .enumerate()
            .all(|(j, b)| !matches!(*b, Stmt::Bra { label, .. } if label == l) || (from < j && j < at))
    })
}

/// The constant K that a conditional forward branch fixes `v` to at body index `at`: a branch
/// `@p bra L` before `at` (p not negated, L after `at`) with `p = setp.ne.<type> v', K` (K an
/// immediate, `<type>` one of `types`, v' `v` or a copy [`aliases`] finds) whose fall-through
/// dominates `at` — between them only branches that land between them (an inner `@q bra L1;
/// L1:`, 2a67c43e, trace/T6C.md: 13.0.88 -O3 `@!P0 VIADD.16x2 R0, R4, 0x440044` as without it),
/// other conditional branches past `at`, and labels only those inner branches target — and v'
/// kept ([`keeps`]) from the `setp` to `at`.
pub(super) fn branch_fixed(m: &Machine<'_>, v: Reg, at: usize, types: &[GlueType]) -> Option<u64> {
    branch_fixed_immediate(m, v, at, types).map(|c| c & 0xFFFF_FFFF)
}

/// [`branch_fixed`]'s K as the `setp` writes it, all 64 bits (a `setp.ne.{u64,s64,b64}` fact:
/// seed 6001's 4ce75ab2, corpus/findings/fuzz-h200-6001/trace/T60A.md).
pub(super) fn branch_fixed_immediate(m: &Machine<'_>, v: Reg, at: usize, types: &[GlueType]) -> Option<u64> {
    let candidates = aliases(m, v, at);
    let mut i = at;
    while let Some((b, s)) = previous_flow(m, i) {
        i = b;
        let Stmt::Bra { guard, label } = *s else { continue };
        let target = label_at(m, label)?;
        if target <= b {
            return None;
        }
        if target <= at {
            continue;
        }
        let guard = guard?;
        let Some((k, setp)) = guard_setp(m, guard, b) else { continue };
        let fixes = |r: &Reg| {
            setp.op == GlueOp::Setp(Cmp::Ne)
                && types.contains(&setp.ty)
                && reg_of_glue(setp, 0) == Some(*r)
                && kept_between(m, *r, k, at)
        };
        if !guard.negated && candidates.iter().any(fixes) && entered_only_past(m, b, at) {
            return imm_of(setp, 1);
        }
    }
    None
}

/// Whether the statement at body index `k` is dead: it writes one register, by glue, a `cvt`, a
/// `mov` copy or a `mov` pack, and nothing but dead statements reads the value it writes there
/// (at most [`COPY_DEPTH`] readers deep). A pack nothing reads is deleted like a copy (seed
/// 5601's f268c40e, corpus/findings/fuzz-h200-5601/trace/T56D.md: `mov.b16 %h11, {%c1, %c1}` of a
/// byte unpack's other-half byte, never read, and `s56/x3` without it give one 13.0.88 -O3
/// listing, J's narrowed `VIADD.16x2 R0, RZ, 0x0`), and so is one read only by a dead copy or dead
/// glue (seed 5703's 4163f94f, corpus/findings/fuzz-h200-5703/trace/T57F.md: `mov.b16 %h17, {%c1,
/// %c1}; mov.b16 %h19, %h17` with h19 never read; s57 x4 two such copies, x5 a dead `xor.b16`: the
/// listing of x1 without the copy; x2, h19 stored, keeps both halves).
pub(super) fn dead(m: &Machine<'_>, k: usize) -> bool {
    dead_within(m, k, COPY_DEPTH)
}

/// [`dead`], following readers at most `depth` deep.
fn dead_within(m: &Machine<'_>, k: usize, depth: usize) -> bool {
    let dst = match &m.p.body[k] {
        Stmt::Glue { glue, .. } => Some(glue.dst),
        Stmt::Isa(Instruction {
            form: Form::Cvt(_) | Form::Mov(Mov { shape: MovShape::Copy | MovShape::Pack(_), .. }),
            operands,
            ..
        }) => operands.first().and_then(|o| m.reg_of(o).ok()),
        _ => None,
    };
    dst.is_some_and(|d| readers(m, k, d).into_iter().all(|i| depth > 0 && dead_within(m, i, depth - 1)))
}

/// The statements that read the value statement `k` wrote to `r` (the body branches only
/// forward): those after it up to and including the first that writes `r` unguarded.
pub(super) fn readers(m: &Machine<'_>, k: usize, r: Reg) -> Vec<usize> {
    let mut found = Vec::new();
    for (i, s) in m.p.body.iter().enumerate().skip(k + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, r);
        if reads {
            found.push(i);
        }
        if overwrites {
            break;
        }
    }
    found
}

/// Whether the value statement `k` wrote to `r` has a live reader (one not [`dead`]).
pub(super) fn observed(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    readers(m, k, r).into_iter().any(|i| !dead(m, i))
}

/// Whether the value statement `k` wrote to `r` is observed only by the statement at body
/// index `at`: each of its live readers is `at`, or a plain copy ([`copied_from`]) whose value
/// is observed only by `at` in turn; `at` reads it at all.
pub(super) fn observed_only_by(m: &Machine<'_>, k: usize, r: Reg, at: usize) -> bool {
    observed_only_by_except(m, k, r, at, &|_, _| false)
}

/// [`observed_only_by`], a reader `i` of the value (of `r` or of a copy `c` of it) for which
/// `ignored(i, c)` holds counting as dead (a reader ptxas folds away, e.g.
/// [`g_unpack_beside_a_folded_sign_test::folded_sign_test`](super::g_unpack_beside_a_folded_sign_test::folded_sign_test)).
pub(super) fn observed_only_by_except(
    m: &Machine<'_>,
    k: usize,
    r: Reg,
    at: usize,
    ignored: &dyn Fn(usize, Reg) -> bool,
) -> bool {
    fn walk(
        m: &Machine<'_>,
        k: usize,
        r: Reg,
        at: usize,
        ignored: &dyn Fn(usize, Reg) -> bool,
        depth: usize,
        reached: &mut bool,
    ) -> bool {
        readers(m, k, r).into_iter().all(|i| {
            if i == at {
                *reached = true;
                return true;
            }
            if dead(m, i) || ignored(i, r) {
                return true;
            }
            let copy = match &m.p.body[i] {
                Stmt::Glue { glue, .. } => Some(glue.dst).filter(|&d| copied_from(m, &m.p.body[i], d) == Some(r)),
                Stmt::Isa(Instruction { operands, .. }) => operands
                    .first()
                    .and_then(|o| m.reg_of(o).ok())
                    .filter(|&d| copied_from(m, &m.p.body[i], d) == Some(r)),
                _ => None,
            };
            copy.is_some_and(|d| depth < COPY_DEPTH && walk(m, i, d, at, ignored, depth + 1, reached))
        })
    }
    let mut reached = false;
    walk(m, k, r, at, ignored, 0, &mut reached) && reached
}
