//! Which values ptxas 13.0 -O3 knows *within one basic block* ([`Origin::local_block`]): what
//! N-7 (`bfe-s32-past-msb-all-ones`) asks of its `a`. ptxas folds a `bfe.s32` whose start is a
//! constant past the msb to −1 unless it folds the whole `bfe` first, and it does that only for
//! an `a` whose value it computed in the `bfe`'s own block: a constant whose definition (or any
//! step of the chain computing it) lies before a block boundary is no longer there.
//!
//! Evidence (seeds 4001–4003, 13.0.88 -O3; 13.5 right; session 40, variants re-run locally):
//! `mov.b32 a, 7; setp; @p bra L; … bfe.s32 d, a, 32, 1` is −1 with the branch backward
//! (corpus/findings/fuzz-h200-4001/, 375479fd, trace/T7A.md) or forward (`v6_fwd_branch`), and
//! right with a label only (`v2_label_only`) or the loop before the mov (`v5_loop_before_mov`);
//! `bar.sync` or `membar.cta` between the mov and the `bfe` is −1 (corpus/findings/fuzz-h200-4002/,
//! 38604c4d, trace/T7E.md, r9–r15; the mov after the barrier, r12, right); `shfl.sync` is −1
//! (corpus/findings/fuzz-h200-4003/, a9e9f24e, trace/T7F.md; after the `bfe`, `v_shfl_after`,
//! right). Boundaries beyond the traces, from ptxas 13.0.88 -O3 with `mov.u32 a, 5; <x>; bfe.s32
//! d, a, 0x20, 0x20` (−1 for each `<x>` below; right for an unguarded `ld`, `st`, `atom`, glue, a
//! `cvt`, `mbarrier.init`/`mbarrier.arrive`, and a guarded glue or `cvt`): `bra.uni` to the next
//! line, `@p bra` over nothing or a store, `@p ret`, `bar.warp.sync`, `barrier.cta.arrive`,
//! `fence.acq_rel.gpu`, `fence.proxy.async`, `fence.mbarrier_init`, `membar.gl`, `vote.sync`,
//! `redux.sync`, `activemask`, `nanosleep`, a shuffle whose result is dead, a guarded `ld` or `st`
//! (ptxas branches around a guarded access), and a chain of known values with the boundary
//! anywhere in it (`mov a0, 5; bar.sync 0; add a, a0, 1` and the add before the barrier both −1;
//! `bar.sync 0; mov a, 6` right). A shuffle's result is never local (−1 for `shfl.sync a, <moved
//! 5>`).
//!
//! Of these the oracle's programs have branches, their target labels, `bar.sync`, the fences
//! (§9.7.13.4), the shuffles (§9.7.9.5–6) and guarded memory accesses: the boundaries
//! [`boundary`] names, and (seeds 4202–4203) a 64-bit `bfe`, `bfi`, `brev` or `bfind`, which
//! ptxas expands into blocks of its own ([`wide_bit_field_op`]), (seed 5802) a
//! `createpolicy.range` (§9.7.9.18), which ptxas expands into a conditional branch
//! ([`range_policy`]), and (seed 6202) a guarded cache-control instruction ([`guarded_cache_op`]).

mod a_through_a_carry_writer;
mod a_through_a_late_folded_producer;

pub(super) use a_through_a_carry_writer::a_known_locally;

use super::known_at_compile_time::known;
use crate::isa::{Createpolicy, Form, Instruction, PolicyKind};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};
use crate::program::{Reg, Stmt};

/// Whether the statement at body index `i` ends a ptxas basic block for the local fold: a
/// branch, a label some branch targets, `bar.sync`, a shuffle, a fence, a guarded memory access
/// (module docs), a 64-bit `bfe`/`bfi`/`brev`/`bfind` ([`wide_bit_field_op`]), a
/// `createpolicy.range` ([`range_policy`]) or a guarded `prefetch`, `prefetchu`, `applypriority`
/// or `discard` ([`guarded_cache_op`]).
pub(in crate::program) fn boundary(m: &Machine<'_>, i: usize) -> bool {
    match m.p.body.get(i) {
        Some(Stmt::Bra { .. } | Stmt::Bar) => true,
        Some(Stmt::Label(l)) => m.p.body.iter().any(|s| matches!(s, Stmt::Bra { label, .. } if label == l)),
        Some(Stmt::Isa(Instruction { form, guard, .. })) => match form {
            Form::Shfl(_) | Form::ShflSync(_) | Form::Fence(_) => true,
            Form::Ld(_) | Form::LdGlobalNc(_) | Form::Ldu(_) | Form::St(_) => guard.is_some(),
            Form::Createpolicy(c) => range_policy(c),
            _ => guarded_cache_op(form) && guard.is_some(),
        },
        Some(Stmt::Glue { glue, .. }) => wide_bit_field_op(glue),
        _ => false,
    }
}

/// Whether `g` is a 64-bit `bfe`, `bfi`, `brev` or `bfind` (§9.7.1; `bfe` §9.7.1.19, `bfi`
/// §9.7.1.20): ptxas 13.0.88 -O3 ends the local fold's block at one, used or dead
/// (corpus/findings/fuzz-h200-4202/, d3e07975, trace/T12b2.md: a dead `bfe.s64`;
/// fuzz-h200-4203/, bc9d7881, T12c1.md: a dead `bfe.u64`).
/// Beyond the traces, helper v1's compiles (session 42) of `mov.b32 a, 0; <x>; bfe.s32 d, a,
/// 32, 32` store −1 for `<x>` a `bfe.u64` or `bfe.s64` with an immediate or a register start,
/// `bfi.b64` dead or stored, `brev.b64`, `bfind.u64`, `bfind.s64`, `bfind.shiftamt.u64` (and
/// `div`/`rem`, which the oracle's programs lack), and 0 for `bfe.u32`, `bfe.s32`, `bfi.b32`,
/// `brev.b32`, `bfind.u32`, `shf.l.wrap.b32`, `shl.b64`, `shr.s64`, `popc.b64`, `clz.b64`,
/// `mul.lo.u64`, `mul.hi.u64`, `min.s64`, `abs.s64`, `setp.lt.s64`/`selp.b64`.
fn wide_bit_field_op(g: &Glue) -> bool {
    matches!(g.op, GlueOp::Bfe | GlueOp::Bfi | GlueOp::Brev | GlueOp::Bfind { .. }) && g.ty.bits() == 64
}

/// Whether `c` is a `createpolicy.range` (§9.7.9.18; `.global` or generic): ptxas expands it into
/// a test of the range's size and a conditional branch (13.0.88 -O0: `ISETP.EQ.U32.AND P0, PT, RZ,
/// 0x2000, PT; @P0 BRA; BRA`), so it ends the local fold's block even where -O3 deletes it, dead
/// (corpus/findings/fuzz-h200-5802/, ca6045ce, trace/T58C.md and trace/ca6045ce/s58/: `mov.b32 a, 0;
/// createpolicy.range…; bfe.s32 d, a, 0x3f, 0x3f` is 13.0.88 -O3 `HFMA2.MMA R0 = 0x00ff`, the GPU's
/// byte 0xff; right without it, with it after the bfe or before the mov). `.fractional` and `.cvt`
/// (no conditional branch) are right (`v4`, `v5`, `v11`).
fn range_policy(c: &Createpolicy) -> bool {
    c.kind == PolicyKind::Range
}

/// Whether `f` is a cache-control instruction that ends the local fold's block when guarded:
/// `prefetch`, `prefetchu` (§9.7.9.15), `applypriority` (§9.7.9.16) or `discard` (§9.7.9.17).
/// 13.0.88 -O0 branches around a guarded one (`@!P0 BRA` over the `CCTL`), and -O3 then misses the
/// fold of a known `a` across it, even where it deletes the instruction (a guard it knows false)
/// (corpus/findings/fuzz-h200-6202/, ca933fce, trace/T62F.md and trace/ca933fce/s62/: `mov.b32 a, 0;
/// setp.lt.s16 p, <moved 0>, 0; @p prefetch.global.L2 [in+32]; bfe.s32 d, a, 0x3f, 0x10` is
/// `HFMA2.MMA R0 = 0x00ff`, the GPU's byte 0xff; 13.5 `RZ`). Wrong alike: a loaded or negated
/// guard, `.L1`, `.L2::evict_last`, `.L2::evict_normal`, `prefetchu.L1`, an always-true guard,
/// guarded `applypriority`/`discard` (w1–w8, x1, x2). Right: unguarded (r1, r5), after the bfe (r2),
/// before the mov (r3), a guarded glue (r6).
fn guarded_cache_op(f: &Form) -> bool {
    matches!(f, Form::Prefetch(_) | Form::Prefetchu(_) | Form::Applypriority(_) | Form::Discard(_))
}

/// Counts the block boundary at body index `i`, if it is one (while emulating): values known
/// before it stop being known locally.
pub(in crate::program) fn count_boundary(m: &mut Machine<'_>, i: usize) {
    if boundary(m, i) {
        m.blocks += 1;
    }
}

/// Whether ptxas knows the value register `r` of thread `t` holds within the current block: it
/// is known ([`known`]) and every step computing it ran since the last boundary.
pub(super) fn known_locally(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    known(m, t, r) && m.origins.get(t as usize).and_then(|o| o.get(&r)).is_some_and(|o| o.local_block == Some(m.blocks))
}
