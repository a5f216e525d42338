//! J's "narrowed" rule (corpus/known/fuzz-h100-j-branch-constant-splat.toml,
//! [`Deviation::AddU16x2OfConstantsNarrowedDropsOne`](crate::semantics::Deviation)) where one
//! of the two constants is a shuffled one and the body loads.
//!
//! Role: the one condition of [`j_packed_constant`](super::j_packed_constant)'s
//! `narrowed_half_read_at` that says when a `shfl.sync` result counts as a constant ptxas folds
//! into the narrowed `VIADD.16x2` ([`folded_shuffle`]); the rule itself (a zero constant kept as
//! `RZ`, the other dropped; else the second kept) stays there.
//!
//! Mechanism (corpus/findings/fuzz-h200-4703/, 4b4a61c5, trace/T18u4.md, variants in
//! trace/4b4a61c5/; ptxas 13.0.88 -O3, 13.5 right): every lane of a `shfl.sync` of a constant
//! holds it (§9.7.9.6), so `add.u16x2 r1, shfl(0x7c00fbff), r0(=0)` read as one half is two
//! constants to ptxas: `VIADD.16x2 R0, RZ, 0x0` (0, the spec 0x7c00; `v5_low_half` 0, the spec
//! 0xfbff; `v8_const_nonzero` with r0 = 0x10001 `VIADD.16x2 R0, R0(=1), 0x0`, 1 where the spec
//! gives 0x7c01), the shuffled immediate dropped. The same with the shuffled value a moved
//! register (`v6_shfl_of_moved_reg`, `v2` the constant moved: identical listings) and with the
//! load before the add (`v9_dead_load_before`).
//!
//! What stays out: a body without a load (`v1_no_dead_load_right`: `HFMA2.MMA R0 = 0x7c00;
//! VIADD.16x2 R0, R0, RZ`, right; and c825e5ab, fuzz-h200-4402, the shuffled constant kept in a
//! register and the other dropped: `j_narrowed_packed_add::shuffled`'s case), a shuffled loaded value
//! (`v7_shfl_loaded_right`), a guarded shuffle, the sum read whole (`v4_whole`: J's rule reads
//! one half only).

use super::fuzz3602::writes;
use super::fuzz3801::is_load;
use super::shfl_of_a_register_ptxas_knows::shuffles_a_constant;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether register `r`, read at body index `before`, was last written by an unguarded
/// `shfl.sync` of a constant ptxas knows ([`shuffles_a_constant`]) in a body that loads
/// (anywhere: `ld`, any space): ptxas then folds it as a constant.
pub(super) fn folded_shuffle(m: &Machine<'_>, before: usize, r: Reg) -> bool {
    let body = &m.p.body;
    let last = body[..before.min(body.len())].iter().enumerate().rev().find(|(_, s)| writes(s, r));
    match last {
        Some((at, Stmt::Isa(shfl @ Instruction { form: Form::ShflSync(_), guard: None, .. }))) => {
            shuffles_a_constant(m, shfl, at) && body.iter().any(is_load)
        }
        _ => false,
    }
}
