//! 3602-N1 (corpus/findings/fuzz-h200-3602/, f4932ac3, trace/T7.md T7-1): ptxas 13.0.88 -O3 and
//! the JIT propagate the value v = K that `setp.ne.{u32,s32,b32} p, v, K` and a branch on p fix
//! into `xor.b32 d, v, 0xffffffff` of the path where v = K and drop the inversion: d = K, not ~K
//! (13.5 right). Session 61 (seed 6103's 407ea10a, corpus/findings/fuzz-h200-6103/trace/T61G.md,
//! variants trace/407ea10a/s61/; helper lg) widened the scope:
//! - the mask may be a register holding a moved 0xffffffff (the case: `mov.b32 r3, -1; …; xor.b32
//!   r3, tix, r3` is `@!P0 MOV R5, 0x3`, 13.5 `0xfffffffc`; `v03`, `v09` the move in the arm,
//!   `v18` the mask first, `v22` in a diamond);
//! - the xor may lie in a one-armed if (`@p bra JOIN; …; JOIN:`, `v06`, `v10`, `v12`, `v13`,
//!   `v19`: `@!P0 MOV R, K`), or an if/else diamond whose other arm is empty (the case);
//! - but where d = v and the value of d on the other path is v itself (a one-armed if, or a
//!   diamond whose other arm leaves v alone) it is right (`v11`, `v14`, `v15`, `v16`, `v21`:
//!   `@!P0 LOP3.LUT R, RZ, R, RZ, 0x33`; 3602's `y5`, `w3`); d = v with the other arm writing v
//!   is wrong (`v23`, the stored f4932ac3).
//!
//! Right (left alone): another mask (`v05`, `v20`), a loaded mask (`v07`), `setp.eq` (`v17`,
//! 3602's `s_eq_*`), `not.b32`, `xor.b16`/`xor.b64`.
//!
//! Invariants: a condition on the program's statements (the branch structure around the xor,
//! the setp and the producers the machine records) and the values it holds; `None` (the spec's
//! result stands) otherwise.

use super::{guard_setp, next_flow, previous_flow, unchanged_between};
use crate::program::emulate::origin::moved_immediate;
use crate::program::emulate::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType};
use crate::program::{PredGuard, Reg, Stmt};
use crate::semantics::Expected;

const WORD: u128 = 0xFFFF_FFFF;

/// The arm of a forward branch that a body index lies in (arms hold no label or branch).
struct Arm {
    /// The conditional branch's guard.
    guard: PredGuard,
    /// The conditional branch's body index.
    bra: usize,
    /// Whether the arm is the branch's target (else its fall-through).
    taken: bool,
    /// The body index the arm starts after (the branch, or the target's label).
    start: usize,
    /// The other arm of an if/else diamond, as body indices it lies strictly between; `None`
    /// for a one-armed if (the other path skips the arm).
    other: Option<(usize, usize)>,
}

/// The arm body index `s` lies in: the fall-through of `@p bra JOIN; arm; JOIN:` (a one-armed
/// if), or either arm of an if/else diamond `@p bra ELSE; then…; bra JOIN; ELSE: else…; JOIN:`.
fn arm_of(m: &Machine<'_>, s: usize) -> Option<Arm> {
    let (k, before) = previous_flow(m, s)?;
    match *before {
        Stmt::Bra { guard: Some(guard), label } => match next_flow(m, s + 1)? {
            // A one-armed if: the arm's end is the branch's label.
            (_, &Stmt::Label(l)) if l == label => Some(Arm { guard, bra: k, taken: false, start: k, other: None }),
            // The then-arm of a diamond: `bra JOIN; ELSE:` ends it, `JOIN:` follows the else arm.
            (e, &Stmt::Bra { guard: None, label: join }) => {
                let else_arm = m.p.body.get(e + 1) == Some(&Stmt::Label(label));
                let (j, end) = next_flow(m, e + 2)?;
                let joined = matches!(*end, Stmt::Label(l) if l == join && l != label);
                (else_arm && joined).then_some(Arm { guard, bra: k, taken: false, start: k, other: Some((e + 1, j)) })
            }
            _ => None,
        },
        // The else arm (the branch's target): `bra JOIN` before its label, `JOIN:` after it.
        Stmt::Label(else_label) => {
            let join_at = k.checked_sub(1)?;
            let Some(&Stmt::Bra { guard: None, label: join }) = m.p.body.get(join_at) else { return None };
            if !matches!(next_flow(m, s + 1), Some((_, &Stmt::Label(l))) if l == join && l != else_label) {
                return None;
            }
            let (b, &Stmt::Bra { guard: Some(guard), label }) = previous_flow(m, join_at)? else { return None };
            (label == else_label).then_some(Arm { guard, bra: b, taken: true, start: k, other: Some((b, join_at)) })
        }
        _ => None,
    }
}

/// 3602-N1 (see the module docs): `xor.b32 d, v, M` (either operand order; M the immediate
/// 0xffffffff or a register holding a moved 0xffffffff) in the arm run when v = K of a branch
/// on `setp.ne.{u32,s32,b32} p, v, K` (K an immediate or a moved one), v unwritten since the
/// setp, gives K — unless d is v and the other path leaves v as it is.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], _: &Expected) -> Option<Expected> {
    if g.op != GlueOp::Xor || g.ty != GlueType::B32 {
        return None;
    }
    let ones = |k: usize| {
        imm_of(g, k) == Some(0xFFFF_FFFF)
            || reg_of_glue(g, k).is_some_and(|r| {
                moved_immediate(m, t, r) && vals.get(k).is_some_and(|x| x.is_exact() && x.bits & WORD == WORD)
            })
    };
    let arm = arm_of(m, m.stmt)?;
    [(0usize, 1usize), (1, 0)].into_iter().find_map(|(kv, km)| {
        let v = reg_of_glue(g, kv)?;
        let value = vals.get(kv)?;
        (ones(km) && value.is_exact() && fixed_to_k(m, t, &arm, v, g.dst))
            .then(|| Expected::exact(value.bits & WORD, 32))
    })
}

/// Whether the arm runs where the branch's `setp.ne` fixes `v` to its K, v unwritten from the
/// setp to the branch and in the arm before the xor, and the xor's destination `d` is not v
/// with v's value on the other path.
fn fixed_to_k(m: &Machine<'_>, t: u32, arm: &Arm, v: Reg, d: Reg) -> bool {
    let Some((k, setp)) = guard_setp(m, arm.guard, arm.bra) else { return false };
    let compares_v = setp.op == GlueOp::Setp(Cmp::Ne)
        && matches!(setp.ty, GlueType::U32 | GlueType::S32 | GlueType::B32)
        && reg_of_glue(setp, 0) == Some(v)
        && (imm_of(setp, 1).is_some() || reg_of_glue(setp, 1).is_some_and(|r| moved_immediate(m, t, r)));
    // `@p bra` jumps when v ≠ K: the fall-through arm is v = K; `@!p bra` the target's.
    let known_arm = arm.taken == arm.guard.negated;
    let unchanged = unchanged_between(m, v, k, arm.bra) && unchanged_between(m, v, arm.start, m.stmt);
    // d = v: right where v reaches the join unchanged on the other path (`v11`, `v15`, `v21`).
    let other_path_rewrites_v =
        arm.other.is_some_and(|(from, to)| m.p.body[from + 1..to].iter().any(|s| super::writes(s, v)));
    compares_v && known_arm && unchanged && (d != v || other_path_rewrites_v)
}
