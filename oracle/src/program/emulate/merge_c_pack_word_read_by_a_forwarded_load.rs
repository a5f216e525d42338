//! 3701-N-D (`corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`,
//! `emulate/merge_c_in_place.rs`) where the read of the destroyed half is an element of a load
//! ptxas forwards from a store of the pack's word (seed 5101's 75b5812a,
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
//! Invariants: the spec's loaded value (§9.7.9.11, §9.7.9.8: the word's halves as the pack made
//! them, §9.7.9.4) stands unless the deviation is emulated and every condition above holds; only
//! the second element's register changes, and not where it is also the first's.

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
