//! 3501-N2 (corpus/known/fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea.toml), its multiply chain
//! (seed 4303's 02990ceb: `mul.lo` steps by a factor with k trailing zeros, cut where the running
//! amount first reaches 32) SUBTRACTED from a constant: seed 6002's 1b473611
//! (corpus/findings/fuzz-h200-6002/trace/T60C.md, variants trace/1b473611/s60/).
//!
//! `mul.lo.s64 d, d, -2^18` three times (a loop or unrolled), then `sub.s64 e, C, d` with C a
//! moved constant, is 13.0.88 -O3 (and the JIT) two `IMAD.WIDE.U32 …, -0x40000` steps (18 + 18 =
//! 36 ≥ 32) and `IADD3 RZ, P0, R6, -0x2; IADD3.X R7, R7, 0x7fffffff`: C + x·F², where §9.7.1.2
//! and §9.7.1.3 give C − x·F³. ptxas writes C − chain as C + chain'·(−F), the negation folded
//! into the last step's factor, and drops that step past the cut together with its sign: the
//! constant is ADDED to the cut chain. Wrong alike: four trips (`v02`: C + x·F², the spec C),
//! F = +2^18 (`v04`), −2^17, −2^30 (`v09`, `v11`), unrolled (`v13`), `mov.b64` of C (`v14`),
//! `sub.cc.s64` (`v21`). Right (the spec stands): the cut on the last step (`v01`, two trips:
//! `IMAD.HI.U32 …, 0x40000, C`), a total below 32 (`v10`), C = 0 (`v12`), `.u64` steps (`v16`),
//! `sub.u64` (`v19`); 13.5 -O3 keeps every step. (`chain − C` is the plain rule's, in
//! `emulate.rs`; `neg.s64` of the chain then an add, `v17`, is wrong alike but not claimed.)
//!
//! Invariants: only under `ShlChainFoldedIntoLea`, for `sub{.cc}.s64 d, C, chain` with C a
//! nonzero constant ptxas knows (an immediate, a moved immediate, a value known at compile time),
//! the chain a multiply chain ([`ShlChain::by_multiply`]) past its cut with an exact base,
//! its register last written by an unguarded `mul.lo.s64`; `None` (the spec) otherwise.

use super::origin::{moved_immediate, ShlChain};
use super::{imm_of, known_at_compile_time, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// The GPU's result of `sub{.cc}.s64 d, C, chain` (source values `vals`, the spec's `spec`)
/// where the multiply chain is past its cut: C + the kept chain (see the module docs).
pub(super) fn constant_minus_cut_chain(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    spec: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Sub | GlueOp::SubCc) || g.ty != GlueType::S64 {
        return None;
    }
    let c = vals.first().filter(|v| v.is_exact()).map(|v| v.bits as u64).filter(|&c| c != 0)?;
    let constant = imm_of(g, 0).is_some()
        || reg_of_glue(g, 0).is_some_and(|r| moved_immediate(m, t, r) || known_at_compile_time::known(m, t, r));
    let r = reg_of_glue(g, 1)?;
    let (writer, origin) = m.producer(t, r)?;
    let by_s64_step = matches!(writer, Stmt::Glue { glue: w, guard: None }
        if w.op == GlueOp::MulLo && w.ty == GlueType::S64);
    let chain: &ShlChain = origin.shl_chain.as_ref()?;
    let past_cut = chain.by_multiply && chain.cut.is_some_and(|cut| cut < chain.total) && chain.base.is_exact();
    if !(constant && by_s64_step && past_cut) {
        return None;
    }
    let kept = (chain.base.bits as u64).wrapping_mul(chain.kept_factor).wrapping_add(chain.constant);
    Some(Expected::exact(u128::from(c.wrapping_add(kept)), spec.width))
}
