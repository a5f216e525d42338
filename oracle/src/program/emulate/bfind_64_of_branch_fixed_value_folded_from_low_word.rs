//! 592cbe0b (corpus/known/fuzz-h200-4602-592cbe0b-bfind-64-of-branch-fixed-value-folded-as-32-bit.toml):
//! where ptxas 13.0.88 -O3 (and the JIT) learn a 64-bit x = K on the fall-through of
//! `setp.ne.{u64,s64,b64} p, x, K; @p bra L`, they fold `bfind{.shiftamt}.{u64,s64} d, x` there as
//! the bfind of K's low word moved to the high word, (K & 0xffffffff) << 32: `ISETP.NE.U32.AND
//! P0, PT, R2, 0x1, PT; ISETP.NE.U32.AND.EX P0, PT, R3, RZ, PT, P0; @!P0 MOV R7, 0x1f` for K = 1
//! `.shiftamt` (§9.7.1.16 gives 63: the msb of 1 is bit 0). Called from [`glue`](super::glue).
//!
//! Evidence (13.0.88 -O3 listings, corpus/findings/fuzz-h200-4602/trace/T17t4.md "592cbe0b",
//! trace/592cbe0b/ and its `s48/`): the campaign's case (`reduced.ptx`, K = 1, 31), `v5` (`.s64`,
//! 31), `v4`/`v3` (K = 2^32: low word 0, 0xffffffff for both forms), and s48's values that fix
//! the word (the trace's "32-bit bfind of the low word" fits the `.shiftamt` cases only):
//! `w12_u64_k_5_plain` (K = 5: 0x22, spec 2), `w10_k_high_and_low` (0x300000005: 0x22, spec 33),
//! `w1_u64_k_2p32_plus1_plain` (0x100000001: 0x20, spec 32 — right by chance),
//! `w2_s64_k_2p31_plain` (`.s64` K = 2^31: 0x3e, spec 31), `w3_u64_k_2p63_shiftamt` (2^63:
//! 0xffffffff, spec 0), `w11_s64_k_minus2p32` (−2^32: 0xffffffff, spec 31). Wrong alike: K a
//! moved register (`w5_k_moved_reg`), either setp order (`w13_k_moved_first`), `setp.ne.b64`
//! (`w14`), a `mov` copy of x read (`w6_copy_after`), a store between (`w7_store_between`), a
//! guarded bfind (`w15_guarded_bfind`: `@!P0 SEL R7, RZ, 0x22, !P1`).
//!
//! Out (the spec stands; the full `FLO.U32.SH` pair kept or folded right): `setp.eq p, x, K;
//! @!p bra` (`w4_setp_eq_not_bra`), the bfind after the join (`w8_bfind_after_join`), a range
//! (`w9_setp_lt`), a constant moved into x (`v1`, `v6`, `v7`), a loaded x without the branch
//! (`v2`), the `.u32` form (`v8`), -O0 and 13.5 -O3.
//!
//! Invariants: [`glue`] changes only such a bfind's result, to the bfind of its source's low word
//! moved high, and only where no label or branch lies between the `@p bra` and the bfind, x is
//! not written after the `setp`, and the bfind reads x or a copy of it.

use super::fuzz3602::{guard_setp, previous_flow, unchanged_between};
use super::origin::{ptxas_constant, PtxasConstant};
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, Src};
use crate::program::Stmt;
use crate::semantics::Expected;

/// The value ptxas 13.0.88 -O3 gives `bfind{.shiftamt}.{u64,s64} d, x` reached only by the
/// fall-through of `setp.ne p, x, K; @p bra`: the bfind of (x & 0xffffffff) << 32 (x = K
/// there; see the module header); `None` (the spec stands) elsewhere. `vals` are the source
/// values, `result` the spec's.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Bfind { .. }) || !matches!(g.ty, GlueType::U64 | GlueType::S64) {
        return None;
    }
    let v = vals.first().filter(|v| v.is_exact())?;
    let r = reg_of_glue(g, 0)?;
    let (b, &Stmt::Bra { guard: Some(guard), .. }) = previous_flow(m, m.stmt)? else { return None };
    let (s, setp) = guard_setp(m, guard, b)?;
    if guard.negated || setp.op != GlueOp::Setp(Cmp::Ne) || setp.ty.bits() != 64 {
        return None;
    }
    let known = |src: Option<Src>| match src {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(k)) => ptxas_constant(m, s, k) == Some(PtxasConstant::Folded),
        None => false,
    };
    // x, compared with K and not written since, is the bfind's source or holds its value
    // (a `mov` copy: the same producer and value).
    let same_value = |x| {
        let producer = |q| m.producer(t, q).map(|(_, o)| o.stmt);
        x == r || (producer(x).is_some() && producer(x) == producer(r) && m.read(t, x).ok().as_ref() == Some(v))
    };
    let fixed = (0..2).any(|k| {
        reg_of_glue(setp, k).is_some_and(|x| unchanged_between(m, x, s, m.stmt) && same_value(x))
            && known(setp.src[1 - k])
    });
    let moved_high = (v.bits as u64 & 0xFFFF_FFFF) << 32;
    fixed.then(|| Expected::exact(u128::from(g.eval([moved_high, 0, 0, 0], false)), result.width))
}
