//! c80aa912 (corpus/known/fuzz-h200-4703-c80aa912-min-s32-of-max-u32-by-zero-folded-to-zero.toml):
//! ptxas 13.0.88 -O3 and the JIT take `max.u32 y, x, 0` as a signed non-negative value and fold
//! `min.s32 z, y, 0` to 0 (`STG.E.STRONG.GPU desc[UR4][R2.64+0x4], RZ`: the load of x, the max
//! and the min deleted). §9.7.1.13 makes the unsigned max with 0 the identity, so y = x, and
//! §9.7.1.12's signed min of x with bit 31 set and 0 is x. Called from [`glue`](super::glue).
//!
//! Evidence (13.0.88 -O3 listings; corpus/findings/fuzz-h200-4703/trace/T18u4.md "c80aa912",
//! trace/c80aa912/ and its `s48/`): the campaign's case (`reduced.ptx`: `bfind.u32` of %tid.x,
//! 0xffffffff in thread 0, then the max and min of moved 0s), x loaded with the 0 moved
//! (`v9_loaded_max_u32_moved0`) or an immediate (`v10_loaded_max_u32_imm0`), x = %tid.x
//! (`v11`), y stored too (`v19`), the operands swapped (`v22`), a `mov` copy of y between
//! (`s48/c6_copy_between`), a branch and a join between (`s48/c9_min_s32_moved_zero_branch`),
//! a guarded min (`s48/c7_guarded_min`: `SEL R7, R2, RZ, !P0`, the min folded to 0 where its
//! guard holds), and the 64-bit form `max.u64`/`min.s64` (`s48/c2_max_u64_min_s64`:
//! `STG.E.64.STRONG.GPU [+0x8], RZ`).
//!
//! Out (the spec stands; each kept as `VIMNMX.U32; VIMNMX` or folded right): other bounds of
//! the max or the min (`v13` max by 1, `v17`/`v18`/`v21` min by 5, `s48/c4_min_s32_minus1`,
//! `s48/c5_min_s32_minus5`), another reader after the max (`v16`/`s48/c10` max.s32, `v20`
//! min.u32, `v2`/`v12` setp, `v6`/`v14` shr.s32), no max (`v1`, `v3`–`v7`), a max.u32 by a
//! loaded 0 (`s48/c8_max_loaded_zero`), a guarded max (`s48/c12_max_u32_guarded`: `@P0
//! VIMNMX.U32; VIMNMX`), an x ptxas knows (`s48/c1_const_x`: 0x80000000 folded right), the 16-bit
//! form (`s48/c3_max_u16_min_s16`: `VIMNMX.U16x2; VIMNMX.S16x2`), -O0 and 13.5 -O3.
//!
//! Invariants: [`glue`] changes only a `min.{s32,s64}` result, only to 0, and only where one
//! operand is 0 as ptxas knows it and the other's value was made by such a max.
//!
//! Widened (helper t8, session 56; corpus/findings/fuzz-h200-5603/, d1b73357, trace/T56H.md,
//! variants in trace/d1b73357/s56/; 13.0.88 -O3, 13.5 right): the nesting mirrored,
//! [`max_of_min_glue`]. `max.u32 z, y, 0` of `y = slct.b32.s32 r0(=0), x, x` (§9.7.7: x ≥ 0 ? 0 :
//! x, which ptxas makes `min.s32(0, x)`: `s56/v2_slct_only`, `VIMNMX R7, RZ, R2, PT`) is folded to
//! 0 (`STG.E.STRONG.SYS [R2.64], RZ`), where the unsigned max with 0 keeps a negative y. Wrong
//! alike: `min.s32` written out (`v1`), either operand order with a moved 0 (`v13`), the 64-bit
//! `min.s64`/`max.u64` (`v11`), a copy of x as slct's c (`v14`), the min also stored (`v16`), a
//! `setp.ge.s32; selp 0, x` (`v10`, not emulated). Right: other bounds (`v5` max by 1, `v7` min
//! by −1, `v15` min by 5), a slct that is no min (`v6` a = 5, `v9` c another value, `v12` a the
//! immediate 0: `ISETP.LT; SEL; VIMNMX.U32`), -O0 and 13.5 -O3.

use super::lop3_merged_through_b64_packs::same_value;
use super::origin::{ptxas_constant, PtxasConstant};
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// The value ptxas 13.0.88 -O3 gives `min.{s32,s64} z, y, 0` (either order) where y was made by
/// an unguarded `max.{u32,u64} y, x, 0` (either order) of an x ptxas does not know: 0 (see the
/// module header); `None` (the spec stands) elsewhere. `vals` are the source values, `result`
/// the spec's.
pub(super) fn glue(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let max_type = match g.ty {
        GlueType::S32 if g.op == GlueOp::Min => GlueType::U32,
        GlueType::S64 if g.op == GlueOp::Min => GlueType::U64,
        _ => return None,
    };
    let folded =
        (0..2).any(|k| zero_ptxas_knows(m, m.stmt, g, k, vals.get(k)) && of_max_by_zero(m, t, g, 1 - k, max_type));
    folded.then(|| Expected::exact(0, result.width))
}

/// The value ptxas 13.0.88 -O3 gives `max.{u32,u64} z, y, 0` (either order) where y was made by
/// an unguarded signed min by 0 of an x ptxas does not know ([`of_min_by_zero`]): 0 (d1b73357,
/// see the module header); `None` (the spec stands) elsewhere.
pub(super) fn max_of_min_glue(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let min_type = match g.ty {
        GlueType::U32 if g.op == GlueOp::Max => GlueType::S32,
        GlueType::U64 if g.op == GlueOp::Max => GlueType::S64,
        _ => return None,
    };
    let folded =
        (0..2).any(|k| zero_ptxas_knows(m, m.stmt, g, k, vals.get(k)) && of_min_by_zero(m, t, g, 1 - k, min_type));
    folded.then(|| Expected::exact(0, result.width))
}

/// Whether source `k` of `g` is a register whose value (`mov` copies looked through) an
/// unguarded signed min by 0 of a register x ptxas does not know made: `min.<min_type> y, x, 0`
/// (either order, 0 as [`zero_ptxas_knows`]), or for `.s32` `slct.{b32,s32,u32}.s32 y, z, x, c`
/// with z a register ptxas folds as 0 (an immediate 0 is right: `s56/v12_slct_imm0`) and c
/// holding x's value ([`same_value`]): x ≥ 0 ? 0 : x.
fn of_min_by_zero(m: &Machine<'_>, t: u32, g: &Glue, k: usize, min_type: GlueType) -> bool {
    let Some(r) = reg_of_glue(g, k) else { return false };
    let Some((Stmt::Glue { guard: None, glue: min }, o)) = m.producer(t, r) else { return false };
    let at = o.stmt;
    let unknown = |x: Reg| ptxas_constant(m, at, x).is_none();
    match min.op {
        GlueOp::Min if min.ty == min_type => {
            let vals = [o.a.clone(), o.b.clone()];
            (0..2).any(|j| {
                let x_unknown = reg_of_glue(min, 1 - j).is_some_and(unknown);
                x_unknown && zero_ptxas_knows(m, at, min, j, vals[j].as_ref())
            })
        }
        GlueOp::Slct
            if min_type == GlueType::S32 && matches!(min.ty, GlueType::B32 | GlueType::S32 | GlueType::U32) =>
        {
            let zero_reg = imm_of(min, 0).is_none() && zero_ptxas_knows(m, at, min, 0, o.a.as_ref());
            let (Some(x), Some(c)) = (reg_of_glue(min, 1), reg_of_glue(min, 2)) else { return false };
            zero_reg && unknown(x) && same_value(m, (at, x), (at, c))
        }
        _ => false,
    }
}

/// Whether source `k` of `g` (statement `at`, its value `val`) is 0 as ptxas knows it: an
/// immediate 0, or a register holding 0 that ptxas folds as a constant there.
fn zero_ptxas_knows(m: &Machine<'_>, at: usize, g: &Glue, k: usize, val: Option<&Expected>) -> bool {
    if let Some(v) = imm_of(g, k) {
        return v == 0;
    }
    let folded = reg_of_glue(g, k).is_some_and(|r| ptxas_constant(m, at, r) == Some(PtxasConstant::Folded));
    folded && val.is_some_and(|v| v.is_exact() && v.bits == 0)
}

/// Whether source `k` of `g` is a register whose value (`mov` copies looked through) an
/// unguarded `max.<max_type> y, x, 0` made, 0 as ptxas knows it and x a register it does not.
fn of_max_by_zero(m: &Machine<'_>, t: u32, g: &Glue, k: usize, max_type: GlueType) -> bool {
    let Some(r) = reg_of_glue(g, k) else { return false };
    let Some((Stmt::Glue { guard: None, glue: max }, o)) = m.producer(t, r) else { return false };
    if max.op != GlueOp::Max || max.ty != max_type {
        return false;
    }
    let at = o.stmt;
    let vals = [o.a.clone(), o.b.clone()];
    (0..2).any(|j| {
        let x_unknown = reg_of_glue(max, 1 - j).is_some_and(|x| ptxas_constant(m, at, x).is_none());
        x_unknown && zero_ptxas_knows(m, at, max, j, vals[j].as_ref())
    })
}
