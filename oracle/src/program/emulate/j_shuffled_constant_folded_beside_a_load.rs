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
//!
//! The same late fold makes the word 6e4d6e41's known word (helper t8, session 56;
//! corpus/findings/fuzz-h200-5603/, 5b4dc85d, trace/T56H.md, variants in trace/5b4dc85d/s56/):
//! [`fp8_unpacked_word_of_a_folded_shuffle`].

use super::fuzz3602::writes;
use super::fuzz3801::is_load;
use super::origin::{ptxas_constant, PtxasConstant};
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

/// Whether `word`, read by the `mov.b32 {_, h}` unpack at body index `k` whose high half an fp8
/// `cvt.rn.f16x2.{e4m3x2,e5m2x2}` converts, is a shuffled constant ptxas folds because the body
/// loads ([`folded_shuffle`]): 6e4d6e41's known word (`fuzz3802.rs::top_half_of_known_zero_word`),
/// whose high half gets a bogus immediate, as seed 4403's 4b87e2ad's shuffle after a `bar.sync`
/// does. 5b4dc85d (seed 5603; 13.0.88 and 13.5 -O3): `shfl.sync.idx.b32 r3, 0xd6774dea, …; mov.b32
/// {h0, h2}, r3; cvt.rn.f16x2.e4m3x2 r6, h2; ld.global.v4 (dead)` is `F2FP.F16.E4M3.UNPACK_B R0,
/// 0x12` (h48 = 0, the spec's 0xcb00); wrong alike (`s56/`): any load, before or after, into any
/// register (`w1`, `w2`, `w5`), c 31 (`w6`), a moved constant (`w7`), e5m2x2 (`w8`), `.bfly`
/// (`w9`: 0x1f), K = 0 (`w4`: 0x20), another K (`w11`). Right: no load (`v1`–`v11`: `HFMA2.MMA R0
/// = 0xd677`), the low half (`w3`), a loaded a (`w10`: `SHFL; UNPACK_B R0, R0.H1`), the
/// shuffle's predicate destination read (`w14_pred_read`: the `SHFL` kept, as 4b87e2ad's
/// `w_bar_pred_read`), so the shuffle must also be a [`PtxasConstant::Shuffled`] one.
pub(super) fn fp8_unpacked_word_of_a_folded_shuffle(m: &Machine<'_>, k: usize, word: Reg) -> bool {
    folded_shuffle(m, k, word) && ptxas_constant(m, k, word) == Some(PtxasConstant::Shuffled)
}
