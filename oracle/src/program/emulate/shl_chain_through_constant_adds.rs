//! 3501-N2 through adds (corpus/findings/fuzz-h200-3802/, 81cc67f0, trace/T5A.md and
//! trace/81cc67f0/): a chain of `shl.b64 d, d, k` each followed by a 64-bit add or sub of a
//! constant (`sub.cc.s64 d, d, 0x7fff…ffff`) is fused by ptxas 13.0.88 -O3 (and the JIT) into
//! `LEA`/`LEA.HI.X` pairs, and as in a plain chain every pair after the shift at which the
//! running amount reaches 32 is dropped: 8,7,…,1 keeps the pairs by 8 … 3 (33), `v4_16_16_1`
//! drops the pair by 1 after 16 + 16, `v1_total30` keeps all (right); 13.5 keeps every pair.
//! The last kept pair's low addend is not the constant's (`LEA R4, P0, R0, 0xe1c73c3, 0x3`
//! where the sub adds 1; `0x204108b` in `v2_total33_then1`), so the GPU's low word is not
//! known and its high word is the kept value's or one more (the carry of that addend).
//!
//! Invariants: a chain passes through an add only when its other operand is a nonzero constant
//! (the one `emulate.rs`'s 3501-N2 rule folds); a value is emulated only past the cut of
//! a chain that went through adds and recorded the value after the cut's pair
//! ([`ShlChain::at_cut`]); otherwise the plain rule (or the spec) stands.

use super::origin::{moved_immediate, ShlChain};
use super::{imm_of, known_at_compile_time, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};
use crate::semantics::{Allowance, Constraint, Deviation, Expected, Free};

/// The chain and the index of the operand carrying it in a 64-bit add/sub `g` of thread `t`
/// that 3501-N2 folds into the chain's last `LEA`: one source carries a `shl.b64` chain, the
/// other is a nonzero constant (an immediate, a moved immediate or a value ptxas knows); an
/// add's in either order. A `mad.{lo,hi}.{s64,u64}` or `mad.wide.{s32,u32}` whose two factors
/// are constants is the add of their nonzero product to the addend, the chain
/// (corpus/findings/fuzz-h200-4003/, 5ddee562, trace/T7F.md: `mad.wide.s32 d1, -1, -1, chain`
/// is `LEA …, 0x1, 0x10` as `add.s64 d1, chain, 1` is, `mad.lo.u64 d1, 3, 5, chain` `LEA …,
/// 0xf, 0x10`, 13.0.88 -O3; a loaded factor keeps every shift).
pub(super) fn chain_and_addend(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<(ShlChain, usize)> {
    let mad = match g.op {
        GlueOp::Add | GlueOp::Sub | GlueOp::AddCc | GlueOp::SubCc => false,
        GlueOp::MadLo | GlueOp::MadHi | GlueOp::MadWide => true,
        _ => return None,
    };
    // The result (and so the addend) is 64 bits wide: a 64-bit type, or a widening of 32 bits.
    let wide = if g.op == GlueOp::MadWide { g.ty.bits() == 32 } else { g.ty.bits() == 64 };
    if !m.allow.emulates(Deviation::ShlChainFoldedIntoLea) || !wide {
        return None;
    }
    let chain = |k: usize| reg_of_glue(g, k).and_then(|r| m.origins.get(t as usize)?.get(&r)?.shl_chain.clone());
    let constant = |k: usize| {
        imm_of(g, k).is_some()
            || reg_of_glue(g, k).is_some_and(|r| moved_immediate(m, t, r) || known_at_compile_time::known(m, t, r))
    };
    let exact = |k: usize| vals.get(k).filter(|v| v.is_exact()).map(|v| v.bits as u64);
    if mad {
        let product = exact(0).zip(exact(1)).map(|(a, b)| g.eval([a, b, 0, 0], false));
        let nonzero = product.is_some_and(|p| p != 0);
        return chain(2).filter(|_| constant(0) && constant(1) && nonzero).map(|c| (c, 2));
    }
    let orders: &[(usize, usize)] =
        if matches!(g.op, GlueOp::Add | GlueOp::AddCc) { &[(0, 1), (1, 0)] } else { &[(0, 1)] };
    orders.iter().find_map(|&(x, b)| {
        let nonzero = exact(b).is_some_and(|v| v != 0);
        chain(x).filter(|_| constant(b) && nonzero).map(|c| (c, x))
    })
}

/// The chain the result of add/sub `g` (spec's result `spec`) carries on: the one it read, now
/// through adds, recording `spec` as the value after the cut's pair when the shift before it
/// made the running amount reach 32.
pub(super) fn chain_through_add(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    spec: impl FnOnce() -> Expected,
) -> Option<ShlChain> {
    let (c, _) = chain_and_addend(m, t, g, vals)?;
    let at_cut = c.at_cut.clone().or_else(|| (c.cut == Some(c.total)).then(spec));
    Some(ShlChain { through_adds: true, at_cut, ..c })
}

/// What the GPU holds for an add/sub of a chain through adds past its cut: the value after
/// the cut's pair, its low word unknown and its high word that value's or one more.
pub(super) fn past_cut(c: &ShlChain) -> Option<Expected> {
    let kept = c.at_cut.as_ref().filter(|v| v.is_exact() && c.cut.is_some_and(|cut| cut < c.total))?;
    let high = (kept.bits >> 32) as u64 & 0xFFFF_FFFF;
    let mut v = Expected::exact(kept.bits, 64);
    v.free = vec![
        Free { shift: 0, width: 32, constraint: Constraint::Any, allowance: Allowance::Undefined },
        Free {
            shift: 32,
            width: 32,
            constraint: Constraint::OrValue(u128::from(high.wrapping_add(1) & 0xFFFF_FFFF)),
            allowance: Allowance::Undefined,
        },
    ];
    Some(v)
}
