//! Three known root causes reached through an operand ptxas knows is a constant
//! ([`ptxas_constant`]: folded as written, or known once ptxas drops a `shfl.sync` of one), after
//! session 44's traces (corpus/findings/fuzz-h200-4402/trace/T15t2.md, 6e21e265 and a22d4fd5;
//! corpus/findings/fuzz-h200-4403/trace/T15t5.md, 4b87e2ad; session 45 helper h2's variants and
//! 13.0.88 -O3 listings in `trace/<id>/s45/`). The callers decide each scope where it was
//! decided before, ORing these in:
//! - 3701-C1N4 (`fuzz3701.rs`, `bfi_length_mod_32`): `pos` and `len` may be any constant ptxas
//!   knows, folded or shuffled ([`bfi_constant`]).
//! - 3701-fc9c9c66 (`fuzz3701.rs`, `xor_of_set_and_cnot`): the operand held as a negated word
//!   may be `sub.u32 d, z, x` (or `sub.cc.u32`, seed 4603's 11183ca8) of a folded 0
//!   ([`sub_from_folded_zero`]), the set any integer
//!   source of 32 or 64 bits ([`set_of_wide_integers`]).
//! - 3802-6e4d6e41 (`fuzz3802.rs`, `top_half_of_known_zero_word`): the word may be a shuffled
//!   constant after a `bar.sync` ([`shuffled_word_after_a_barrier`]).
//!
//! What stays out (right in the listings): a shuffled 0 as fc9c9c66's minuend, a `sub.s32` from
//! 0, a shuffled word with no `bar.sync` before the shuffle or with its predicate read, a moved
//! word unshuffled, a shuffled loaded value.
//!
//! Invariants: every function is a condition on the program's statements and the producers the
//! machine records; none changes a value.

use super::fuzz3701::{constant, folded_constant, last_writer};
use super::origin::{ptxas_constant, PtxasConstant};
use super::word_of_an_unpack_known_from_its_pack::known_word_of_an_unpack;
use super::{reg_of_glue, sub_cc_from_folded_zero_held_negated};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// C1-N4's `pos` or `len` (source `k` of `bfi.b32` `g`, value `vals[k]`) when ptxas knows it:
/// an immediate or a moved one ([`constant`]), or a register any [`ptxas_constant`] holds where
/// the `bfi` reads it. 13.0.88 -O3 (`6e21e265/s45/`): a `shfl.sync.up` of a moved 0x6870d683
/// with no predicate destination (`b_len_shfl_nopred`), `.idx` (`b_len_shfl_idx`), a shuffle of
/// the immediate 40 (`b_len_shfl_imm`), `add.u32` of a moved 33 and 7 (`b_len_add_const`), a
/// copy of a moved 40 (`b_len_copy`) and a shuffled `pos` (`b_pos_shfl`) all give `LOP3.LUT R7,
/// R9, 0x3fc` (or `0x1c` for 131): the field `len mod 32` bits wide. Right: a shuffled length
/// below 32 (`b_len_shfl_small`), a shuffled loaded value (`b_len_shfl_loaded`, `SHFL.UP; BMSK`),
/// the shuffle's predicate read (T15t2's `v1_pred_read`). A word of a `mov.b64` unpack of a
/// pack of a folded constant too (1ddf67e8, [`known_word_of_an_unpack`]).
pub(super) fn bfi_constant(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], k: usize) -> Option<u64> {
    constant(m, t, g, vals, k).or_else(|| {
        let r = reg_of_glue(g, k)?;
        // Or a word of a `mov.b64` unpack of a pack of one (seed 4802's 1ddf67e8,
        // `emulate/word_of_an_unpack_known_from_its_pack.rs`).
        let known = ptxas_constant(m, m.stmt, r).is_some() || known_word_of_an_unpack(m, m.stmt, r);
        known.then_some(())?;
        vals.get(k).filter(|v| v.is_exact()).map(|v| v.bits as u64)
    })
}

/// Whether register `r` of thread `t` holds `sub.u32 d, z, x` or `sub.cc.u32 d, z, x` (unguarded) with `z` 0 as an
/// immediate or a [`PtxasConstant::Folded`] register and `x` a register no constant: ptxas holds
/// it as the negated word `x`, as it holds a `cnot` as −(0/−1), and fc9c9c66's xor with a true
/// set gives −(~x) = x + 1, i.e. 1 − d (a22d4fd5, §9.7.1.2). 13.0.88 -O3 (`a22d4fd5/s45/`):
/// `LOP3.LUT R6, RZ, R0, RZ, 0x33; IADD3 R7, -R0; @P0 IADD3 R7, -R6` for a moved 0
/// (`x_sub_moved0_*`), the immediate 0 (`x_sub_u32_imm0`) and `add.u32` of a moved 3 and −3
/// (`x_sub_add0`). Right (`@P0 LOP3.LUT R7, RZ, R7, RZ, 0x33` of −x): a shuffled 0
/// (`x_sub_shfl0`, `x_sub_shfl0_idx`), `sub.s32` from 0 (`x_sub_s32_imm0`, `x_sub_s32_moved0`), a
/// moved 5 (`x_sub_moved5`).
pub(super) fn sub_from_folded_zero(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Glue { glue, guard: None }, o)) = m.producer(t, r) else { return false };
    // `sub.cc.u32` alike (seed 4603's 11183ca8, `emulate/sub_cc_from_folded_zero_held_negated.rs`).
    if !sub_cc_from_folded_zero_held_negated::unsigned_sub_u32(glue) {
        return false;
    }
    let zero = o.a.as_ref().is_some_and(|a| a.is_exact() && a.bits & 0xFFFF_FFFF == 0);
    let z_folded = match glue.src[0] {
        Some(Src::Imm(_)) => true,
        Some(Src::Reg(z)) => ptxas_constant(m, o.stmt, z) == Some(PtxasConstant::Folded),
        None => false,
    };
    let x_variable = reg_of_glue(glue, 1).is_some_and(|x| !folded_constant(m, o.stmt, x, 3));
    zero && z_folded && x_variable
}

/// Whether register `r` of thread `t` holds a `set.<cmp>.{s32,u32}.{s32,u64,s64}` result: the
/// set sources beside `.u32` that fc9c9c66 shows with (13.0.88 -O3, `a22d4fd5/s45/`:
/// `set.lt.u32.s32` with a `cnot` (`x_cnot_set_s32`) or a `sub` from 0, `set.lt.u32.{s64,u64}`
/// (`x_sub_moved0_s64`, `_u64`), `set.lt.s32.s32` (`x_sub_moved0_s32dst`), all `@P0 IADD3 R7,
/// -R6` of `LOP3 0x33`).
pub(super) fn set_of_wide_integers(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    matches!(m.producer(t, r), Some((Stmt::Glue { glue, .. }, _))
        if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32))
            && matches!(glue.ty, GlueType::S32 | GlueType::U64 | GlueType::S64))
}

/// Whether `word`, read by the unpack at body index `k`, holds a [`PtxasConstant::Shuffled`]
/// constant whose `shfl.sync` (the word's last writer) follows a `bar.sync`: ptxas drops the
/// shuffle late and 6e4d6e41's unpack of its high half gets a bogus immediate (4b87e2ad:
/// `F2FP.F16.E4M3.UNPACK_B R5, 0x20`, 13.0.88 and 13.5 -O3). 13.0.88 -O3 (`4b87e2ad/s45/`): the
/// `bar.sync` before the `mov` (`w_bar_before_mov`), `c` 31 (`w_bar_c31`), `.bfly`
/// (`w_bar_bfly`), the moved 0 in another register (`w_bar_otherreg`) give the immediate.
/// Right (`PRMT R0, RZ, 0x7610, R0; UNPACK_B R5, R0`): no `bar.sync` (`t_nobar`), the `bar.sync`
/// after the shuffle (`w_bar_after_shfl`), `membar.gl` in its place (`w_membar_gl`); the
/// predicate destination read keeps the `SHFL` (`w_bar_pred_read`, `R0.H1`).
pub(super) fn shuffled_word_after_a_barrier(m: &Machine<'_>, k: usize, word: Reg) -> bool {
    let Some((j, Stmt::Isa(Instruction { form: Form::ShflSync(_), .. }))) = last_writer(m, k, word) else {
        return false;
    };
    let barrier_before = m.p.body[..j].iter().any(|s| matches!(s, Stmt::Bar));
    barrier_before && ptxas_constant(m, k, word) == Some(PtxasConstant::Shuffled)
}
