//! ace805b3, its `{h, h}` form (seed 4802's 95e97556): where a loaded half h is packed directly
//! above an e4m3x2/e5m2x2 pair (`mov.b32 r, {pair, h}`) and that word is read live, ptxas 13.0.88 and
//! 13.5 -O3 (and the JIT) may build the word in h's own register (`F2FP.SATFINITE.E4M3.F16.
//! UNPACK_B_MERGE_C R0, R7, R0`: R0 = {pair, h}) and rebuild h from its upper half over it
//! (`PRMT R0, R0, 0x7632, R0`: R0 = {h, h}); a 16-bit `setp` of h is then tested over the 32 bits
//! (`ISETP.GE.U32.AND P0, PT, R0, 0x80, PT`), its upper half h itself, where §9.7.7.2 compares
//! h's 16 bits. The upper half is nonzero exactly where h is, so only a nonzero h can be taken
//! as above every 16-bit K. Whether the word goes to h's register or a fresh one is register
//! allocation's (95e97556's `v2_reduced_no_mad`, `s48/i_r2_stored`: a fresh register, right), so
//! the emulation stays set-valued like the entry's first form
//! ([`super::compare_of_loaded_half_packed_above_fp8_pair`], whose glue asks [`applies`] where
//! its own form, h a word's low half under another half, does not hold).
//!
//! Evidence: corpus/findings/fuzz-h200-4802/ (95e97556, trace/T19v3.md, trace/95e97556/ and its
//! `s48/`, 13.0.88 -O3 listings): wrong with the campaign's `setp.gt.u16 p, K, h` of a moved
//! 128 (`orig`), h first against an immediate (`v1_setp_h_first_imm`) or the immediate first
//! (`s48/d_imm_first`), a loaded K (`s48/c_k_loaded`: `ISETP.GT.U32.AND P0, PT, R11, R0`), an
//! e4m3x2 pair of two f32 (`s48/a_pair_f32`: `PACK_AB_MERGE_C R0, R7, R7, R0`), an e5m2x2 pair
//! (`s48/b_pair_e5m2_f16x2`), `setp.gt.s16` (`s48/e_s16`: `ISETP.GE.AND`), no reader of h after
//! the compare (`s48/h_mad_no_h`).
//!
//! Right, kept out: no pack (`v3_no_pack_right`), an f16 half in the pair's place
//! (`s48/f_f16_pair`: `F2FP.F16.F32.PACK_AB`, no MERGE_C), the pack word never read
//! (`s48/k_pack_word_unread`: `F2FP…MERGE_C R7, R0, RZ`, h's register clean) or read only by a
//! dead `setp` (`s48/k_word_read_by_dead_setp`: the same), the pair above h
//! (`s48/l_pair_above_h`: `PRMT R3, R2, 0x5410, R7`), h = 0 (`{0, 0}` is 0).
//! The allocation-right neighbours (`v2_reduced_no_mad`, `s48/i_r2_stored`) are not named: the
//! set admits the spec.
//!
//! Invariants: decides scope only; the caller changes only the compare's predicate and keeps the
//! spec's admitted.

use super::compare_of_loaded_half_packed_above_fp8_pair::{above_fp8_pair, packs_of};
use super::j_branch_known_values::observed;
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// Whether the compare of the loaded half `h` (its value `value`) of thread `t` reads h rebuilt
/// as `{h, h}` over the word of an fp8 pair packed below it: h is nonzero and some unguarded pack
/// before the compare, h unchanged since, has h directly above an e4m3x2/e5m2x2 pair and a
/// destination some live statement reads after it.
pub(super) fn applies(m: &Machine<'_>, t: u32, h: Reg, value: Option<&Expected>) -> bool {
    if !value.is_some_and(|v| v.is_exact() && v.bits & 0xffff != 0) {
        return false;
    }
    packs_of(m, h)
        .iter()
        .any(|(k, e)| above_fp8_pair(m, t, e, h) && destination(m, *k).is_some_and(|d| observed(m, *k, d)))
}

/// The destination register of the `mov` pack at body index `k`.
fn destination(m: &Machine<'_>, k: usize) -> Option<Reg> {
    match m.p.body.get(k)? {
        Stmt::Isa(i) => m.reg_of(i.operands.first()?).ok(),
        _ => None,
    }
}
