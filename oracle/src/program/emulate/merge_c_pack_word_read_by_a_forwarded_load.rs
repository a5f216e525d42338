//! 3701-N-D (`corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`,
//! `emulate/merge_c_in_place.rs`) where the read of the destroyed half is an element of a load
//! ptxas forwards from a store of the pack's word, or from the pack's own 16-bit vector store
//! ([`loaded_from_the_pack_store`], seed 6202's 061d23c8, below) (seed 5101's 75b5812a,
//! corpus/findings/fuzz-h200-5101/trace/T22a.md, variants in trace/75b5812a/s51/):
//! `ld.global.v2.b8 {h0, h1}; cvt.rn.satfinite.e5m2x2.f32 h2, 0, 0; mov.b32 r0, {h2, h1};
//! st.shared.v4.f32 [sh], {r2, r0, r0, r0}; ld.shared.v2.u16 {h8, h4}, [sh+8]` is, in 13.0.88
//! and 13.5 -O3, `F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R9, RZ, RZ, R6; IMAD.MOV.U32 R6, RZ,
//! RZ, R9` (h1's register now the pack word) and, for h4, no load but "h1": `PRMT R5, R6, 0x5410,
//! R6` = the pair twice (0, the spec 0x00100010 for `mov.b32 r14, {h4, h4}`). The same listing as
//! `mov.b32 {h8, h4}, r0` (`v1`, the `mov` unpack `merge_c_in_place.rs` emulates). Right: an
//! f16 in the pair's place (`v2`), a scalar `st.shared.b32 [sh+8]; ld.shared.u16 [sh+10]` (`v3`,
//! not forwarded: `LDS.U16`), h1 from `ld.global.b16` (`v4`, rebuilt by `PRMT 0x7632`), the low
//! element (`v5`, the pair itself).
//!
//! Scope: the load being run is a `.v2.{b16,u16}` load forwarded
//! ([`store_forwarded_load::forwarded`]) from a store element that is a 32-bit register holding
//! a destroying pack's word with the pair first (the `mov.b32` pack, or the first word of a
//! `mov.b64` unpack of the `mov.b64` pack: [`merge_c_in_place::merged_word_pair`], the same
//! reader as the unpack's), its pair unwritten since the pack; its second element (h's
//! position, bytes 2..3 of the word) takes the pair.
//!
//! Seed 6202's 061d23c8 (session 62, helper ma; corpus/findings/fuzz-h200-6201/trace/T62A.md,
//! variants in corpus/findings/fuzz-h200-6202/trace/061d23c8/s62/; 13.0.88 = 13.5 -O3, the JIT):
//! the load may be a 16-bit vector load of the destroying pack's own 16-bit vector store
//! ([`store_forwarded_load::forwarded_halves`], [`loaded_from_the_pack_store`]): `and.b16 h4, h3,
//! 0x8001; cvt.rn.satfinite.e5m2x2.f32 h6, 0, 0; st.shared::cta.v4.b16 [sh+16], {h6, h4, h3, h10};
//! ld.shared::cta.v4.s16 {h2, h12, h13, h14}, [sh+16]` is `F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C
//! R10, RZ, RZ, R7; IMAD.MOV.U32 R7, RZ, RZ, R10; PRMT R7, R7, 0x7604, RZ` (h12 read from h4's R7,
//! now the merged word: the pair's low byte 0 stored for h4's 1), the memory word itself right
//! (`STS.64 [R0+0x10], R10`). Wrong alike: a `.v4.b16` (w01) or `.v2.b16` (w02) load, a global
//! store and load (w08), e4m3x2 (w09), the pair at element 2 and h at 3 read by a `.v2` load of
//! elements 2–3 (w10, w13), a `.v2` store and load (w11). Right: a scalar `ld.shared.{u16,s16}` of
//! element 1 (w03, w04: `LDS`), an f16 in the pair's place (w05), h from `ld.global.u16` (w06:
//! rebuilt by `PRMT 0x7632`), h before the pair (w12). Left out (wrong, no rule here): a strong
//! `ld.relaxed.gpu` between the store and the load (w14: still forwarded, [`store_forwarded_load`]
//! stops there), the halves loaded into 32-bit registers (w15: `ld.shared.v2.u16 {r2, r3}`).
//! Scope: every element of the load that reads the store's element naming h (the destroying pack's
//! half, [`merge_c_in_place::destroying_pack`]) after the pair, not a repeat of the pair's word,
//! into a 16-bit register, with the pair unwritten since the store, takes the pair.
//!
//! Invariants: the spec's loaded value (§9.7.9.11, §9.7.9.8: the word's halves as the pack made
//! them, §9.7.9.4) stands unless the deviation is emulated and every condition above holds; only
//! the elements named change (of a `.v2` load of the pack's word, the second, and not where it is
//! also the first's).

use super::fuzz3602::unchanged_between;
use super::merge_c_in_place;
use super::store_forwarded_load::{self, Forward};
use crate::isa::operand::Operand;
use crate::isa::types::{MemType, VecWidth};
use crate::isa::{Instruction, Ld};
use crate::program::exec::Machine;
use crate::program::Reg;
use crate::semantics::{Deviation, Expected};

/// The destinations of `ld` `inst` being run in thread `t` (`results`, the spec's) under
/// 3701-N-D: the second element of a forwarded `.v2` 16-bit load of a destroying pack's word is
/// the pair.
pub(super) fn loaded(
    m: &mut Machine<'_>,
    t: u32,
    l: &Ld,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) || l.vec != Some(VecWidth::V2) || !matches!(l.ty, MemType::B16 | MemType::U16) {
        return results;
    }
    let Some(Forward { value: word, bytes: 4, .. }) = store_forwarded_load::forwarded(m, m.stmt) else {
        return results;
    };
    let Some(Operand::Vector(items)) = inst.operands.first() else { return results };
    let (Some(lo), Some(hi)) = (items.first(), items.get(1)) else { return results };
    let Ok(hi) = m.reg_of(hi) else { return results };
    if m.reg_of(lo).ok() == Some(hi) {
        return results;
    }
    let Some(pair) = merge_c_in_place::merged_word_pair(m, t, word) else { return results };
    if let Some((_, e)) = results.iter_mut().find(|(r, _)| *r == hi) {
        let from = e.clone();
        *e = m.fire(d, &from, pair);
    }
    results
}

/// The destinations of the 16-bit vector load `inst` being run in thread `t` (`results`, the
/// spec's) under 3701-N-D: each element forwarded from the element naming h of the destroying pack
/// that is its own store is the pair (module docs, seed 6202's 061d23c8).
pub(super) fn loaded_from_the_pack_store(
    m: &mut Machine<'_>,
    t: u32,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) {
        return results;
    }
    let Some((k, j0, stored)) = store_forwarded_load::forwarded_halves(m, m.stmt) else { return results };
    let Some((at, p, h)) = merge_c_in_place::destroying_pack(m, k, false) else { return results };
    let Ok(pair) = m.read(t, p) else { return results };
    let Some(Operand::Vector(items)) = inst.operands.first() else { return results };
    if !unchanged_between(m, p, k, m.stmt) {
        return results;
    }
    let named: Vec<Option<Reg>> = stored.iter().map(|&r| Some(r)).collect();
    for (i, item) in items.iter().enumerate() {
        let j = j0 + i;
        let names_h = stored.get(j) == Some(&h) && j > at && !merge_c_in_place::repeated_pair_word(&named, at, j);
        let Ok(r) = m.reg_of(item) else { continue };
        if !names_h || r.class().bits() != 16 {
            continue;
        }
        if let Some((_, e)) = results.iter_mut().find(|(x, _)| *x == r) {
            let from = e.clone();
            *e = m.fire(d, &from, pair.field(0, 16));
        }
    }
    results
}
