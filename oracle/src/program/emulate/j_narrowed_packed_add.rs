//! J's narrowed `add.{u16x2,s16x2}` widened from the traces of seeds 4401–4402
//! (corpus/findings/fuzz-h200-4401/trace/T15t1.md dbd161f7, fuzz-h200-4402/trace/T15t3.md
//! c825e5ab; `j_packed_constant.rs` applies it):
//! - the one half read reaches its reader through a 64-bit pack and a 16-bit unpack
//!   ([`unpacked_through_pack`]): `mov.b64 d, {r, x}` (or `{x, r}`) of the add's result r, then
//!   `mov.b64 {h0, h1, h2, h3}, d` with one element observed, an element of r;
//! - a shuffle of a constant as the register operand ([`shuffled`]): ptxas knows its value
//!   but keeps it in a register, so the add drops its constant as for a register it does not
//!   know.
//!
//! Invariants: a result changes only when J's narrowed deviation is emulated and the pack, its
//! reader and the add are the forms the listings show wrong; the results are returned as
//! given otherwise.

use super::fuzz3602::writes;
use super::j_branch_known_values::{observed, observed_only_by};
use super::j_packed_constant::narrowed_half_read_at;
use super::values::pack64_of;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The 16-bit elements of `mov.b64 {h0, h1, h2, h3}, w` being run (`items`, `results` the
/// spec's) under J's narrowed add, `w` written by an unguarded `mov.b64 w, {e0, e1}` (§9.7.9.4:
/// e0 the low word) observed only by this unpack (plain copies of w followed), when exactly one
/// element is observed (dead readers ignored) and it lies in an `e` written by a narrowed add
/// whose result the pack alone observes: that element is [`narrowed_half_read_at`]'s half of
/// `e` (h0, h2 the low half). dbd161f7 (T15t1.md): `add.s16x2 %r1, %r3(=0), %r0(=0f4034D2E2);
/// mov.b64 %d4, {%r1, %r3}; mov.b64 {%h3, %h0, %h1, %h4}, %d4`, h3 stored: 13.0.88 -O3
/// `VIADD.16x2 R0, RZ, 0x0` (0, the spec 0xd2e2) as for the `mov.b32` unpack `v1_b32_unpack`;
/// right: d4 stored whole (`v2_b64_whole`), h0 read too (`v3_b64_unpack_hi_read`). c825e5ab
/// (T15t3.md): `mov.b64 %d4, {%r6, %r5}; mov.b64 {_, %h10, %h11, _}, %d4`, h11 the add's low
/// half, `VIADD.16x2 R0, R0, 0x0`; `whole` (both halves read) right. ptxas 13.0.88 -O3,
/// c825e5ab/s44v/: the high half (`shfl5_hi`), a 64-bit copy of d4 before the unpack
/// (`copy64`) drop the constant too; the add also stored whole (`pack_other_reader`) keeps it;
/// an element of the other word observed too (`other_read`) keeps a different operand (not
/// emulated: one observed element only).
pub(super) fn unpacked_through_pack(
    m: &mut Machine<'_>,
    t: u32,
    w: Reg,
    items: &[Operand],
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::AddU16x2OfConstantsNarrowedDropsOne;
    if !m.allow.emulates(d) || w.class().bits() != 64 || items.len() != 4 {
        return results;
    }
    let elements: Vec<Option<Reg>> = items.iter().map(|o| m.reg_of(o).ok()).collect();
    let observed_items: Vec<(usize, Reg)> = elements
        .iter()
        .enumerate()
        .filter_map(|(k, r)| r.filter(|&r| observed(m, m.stmt, r)).map(|r| (k, r)))
        .collect();
    let [(k, h)] = observed_items.as_slice() else { return results };
    let Some(value) = half_through_pack(m, t, w, k / 2, (k % 2) as u32) else { return results };
    if let Some((_, e)) = results.iter_mut().find(|(r, _)| r == h) {
        let from = e.clone();
        *e = m.fire(d, &from, Expected::exact(u128::from(value), from.width));
    }
    results
}

/// The narrowed half `half` of word `word` (0 low) of the 64-bit `w` as the unpack being run
/// reads it, when an unguarded `mov.b64 w, {e0, e1}` wrote w, only the unpack observes w, e_word
/// is 32-bit, kept since the pack, and the pack alone observes the add that wrote it.
fn half_through_pack(m: &Machine<'_>, t: u32, w: Reg, word: usize, half: u32) -> Option<u64> {
    let (pack_at, dst, words) = pack64_of(m, t, w)?;
    let e = (*words.get(word)?)?;
    observed_only_by(m, pack_at, dst, m.stmt).then_some(())?;
    narrowed_half_read_at(m, t, e, half, pack_at)
}

/// Whether register `r` holds, before body index `before`, the result of an unguarded
/// `shfl.sync` (§9.7.9.6): c825e5ab (T15t3.md), `shfl.sync.up.b32 %r2` of a moved 0 as
/// `add.u16x2 %r5, %r2, %r3(=1)`'s a, read as one half: 13.0.88 -O3 `PRMT R0, RZ, 0x7610, R0;
/// VIADD.16x2 R0, R0, 0x0` (0, the spec 1), the constant dropped; c825e5ab/s44v/ `shfl5_b32`,
/// `shfl5_first` (a shuffled 0x00070005, either operand order): `HFMA2.MMA R0, -RZ, RZ, 0, 5`
/// then `VIADD.16x2 R0, R0, 0x0`, the shuffled half kept.
pub(super) fn shuffled(m: &Machine<'_>, before: usize, r: Reg) -> bool {
    let last = m.p.body[..before].iter().rev().find(|s| writes(s, r));
    matches!(last, Some(Stmt::Isa(Instruction { form: Form::ShflSync(_), guard: None, .. })))
}
