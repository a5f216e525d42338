//! Root cause 3602-N2 (corpus/known/fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean.toml)
//! widened after seed 5802's 4267da28 (corpus/findings/fuzz-h200-5801/trace/T58E.md, variants in
//! corpus/findings/fuzz-h200-5802/trace/4267da28/s58/): the negation of the `set.<cmp>.f32.<type>`
//! result written as `mul.lo.{s32,u32}` by −1.
//!
//! Mechanism: ptxas canonicalizes a 32-bit low product by −1 to the negation (§9.7.1: the low 32
//! bits of x·(2^32 − 1) are −x) and then negates the set as its boolean, as for N2's own form:
//! `mov.b32 r5, -1; set.lt.f32.s16 r3; mul.lo.u32 r7, r5, r3; mov.b32 {h18, h19}, r7; xor.b16`
//! is `STG.E.U8 [R2.64+0x3], RZ` (13.0.88 and 13.5 -O3; the xor of the boolean's equal halves,
//! 0 where the spec's is 0xc080): the campaign's loop (`orig.ptx`: the product of the set of
//! the previous trip), `v1_no_loop`, `v6_mul_s32_imm` (`mul.lo.s32 r7, r3, -1`) alike, and
//! `v2_loop_neg` (the loop with `neg.s32`). Right: a loaded −1 (`v3_mul_by_loaded_m1`: `IMAD R6,
//! R6, R7` of the float), −2 (`v5_mul_by_m2`), the product stored whole (`v4_no_loop_store_whole`:
//! N2's halves reader absent, the float negated).
//!
//! Scope: unguarded-or-not `mul.lo.{s32,u32}` (a glue producer) with one source an immediate −1
//! or a register whose producer is a `mov` of an immediate, that value −1 when read, and the
//! other source a register whose producer is a `set.*.f32`. Invariants: a query only; it never
//! changes an origin or a value.

use super::origin::{moved_immediate, Origin};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::Stmt;
use crate::semantics::Expected;

/// For the producer `glue` (origin `o`) of a register of thread `t`: the set's value it negates,
/// when `glue` is `mul.lo.{s32,u32}` of a `set.*.f32` result by a known −1 (module docs).
pub(super) fn set_times_minus_one(m: &Machine<'_>, t: u32, glue: &Glue, o: &Origin) -> Option<Expected> {
    if glue.op != GlueOp::MulLo || !matches!(glue.ty, GlueType::S32 | GlueType::U32) {
        return None;
    }
    let minus_one = |v: Option<&Expected>| v.is_some_and(|v| v.is_exact() && v.bits & 0xFFFF_FFFF == 0xFFFF_FFFF);
    let known = |s: Option<Src>| match s {
        Some(Src::Imm(i)) => i & 0xFFFF_FFFF == 0xFFFF_FFFF,
        Some(Src::Reg(r)) => moved_immediate(m, t, r),
        None => false,
    };
    let of_set = |s: Option<Src>| match s {
        Some(Src::Reg(x)) => m.producer(t, x).is_some_and(
            |(p, _)| matches!(p, Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32))),
        ),
        _ => false,
    };
    let (a, b) = (glue.src[0], glue.src[1]);
    if known(a) && minus_one(o.a.as_ref()) && of_set(b) {
        o.b.clone()
    } else if known(b) && minus_one(o.b.as_ref()) && of_set(a) {
        o.a.clone()
    } else {
        None
    }
}
