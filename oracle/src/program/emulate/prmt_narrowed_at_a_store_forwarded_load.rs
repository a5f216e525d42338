//! 3702-N5 (`prmt-sign-of-a-narrowed-reads-zero`, `corpus/known/fuzz-h200-3702-n5-prmt-sign-of-a-
//! narrowed-reads-zero.toml`) where the zero-extending reader is a load: ptxas 13.0.88 -O3 (and
//! the JIT; 13.5 right) forwards a weak `st.{shared,global}.{b8,u8,s8,b16,u16,s16}` of the low
//! bytes of a `prmt.b32` result to a weak unsigned load of the same size from the same address,
//! `ld.{shared,global}.{b8,u8,b16,u16}`, whose zero extension of the loaded bytes into a wider
//! register (§9.7.9.8) it folds into a copy of the `PRMT` narrowed to those bytes, as for any
//! zero-extending reader (`emulate/prmt_narrowed_per_zero_extending_reader.rs`): a dropped, a
//! byte naming the sign of a byte of a (§9.7.9.7) reads RZ's, 0. The store keeps the whole `PRMT`.
//!
//! Evidence (seed 5102's 0081239e, corpus/findings/fuzz-h200-5102/trace/T22b.md, variants in
//! trace/0081239e/s51/): `prmt.b32 r5, r3, r3, 0x195b; cvt.u16.u32 h2, r5; st.shared.b8 [sh+18],
//! h2; ld.shared.b8 h3, [sh+18]` is `PRMT R9, RZ, 0xb, R2` (0, the spec 0xff) beside `PRMT R7, R2,
//! 0x195b, R2; STS.U8 [R0+0x12], R7`. Wrong alike: `st.b16; ld.u16` into 32 bits (`v3`, 2 bytes,
//! `PRMT R7, RZ, 0x5b, R2`), the b32 itself stored by `st.b8` and loaded by `ld.u8` (`v4`), a
//! global round trip (`v5`), the low half of a `mov.b32` unpack (`v8`). Right: `ld.s8` (`v2`: not
//! forwarded, `LDS.S8`), an index nibble in byte 0 (`v6`), a load from another address (`v7`,
//! `LDS.U8`), the store alone (`v9`).
//!
//! Seed 5101's 91d52a5c (corpus/findings/fuzz-h200-5101/trace/T22a.md, variants in
//! trace/91d52a5c/s51/): the same with a 16-bit round trip, `cvt.u16.u32 h7, r1; st.shared::cta.b16
//! [sh+10], h7; ld.shared.b16 h8, [sh+10]` is `PRMT R9, RZ, 0x8d, R2` (0x00ff, the spec 0xffff) beside
//! the stored whole `PRMT R7, R2, 0x988d, R2`; wrong alike `ld.shared.u16` into 32 bits (`v3`) and a
//! global round trip (`v4`); right `ld.shared.s16` (`v2`), the half stored directly (`v1`), an index
//! nibble (`v5`). Not reached before session 54: the store named `.shared::cta`, the load `.shared`.
//! Which load is forwarded from which store is the shared rule of
//! `emulate/store_forwarded_load.rs` (same space, `.shared` ≡ `.shared::cta`; same address; the
//! load's bytes one whole element of the store; nothing in between that stores or orders).
//!
//! Invariants: a load's value changes only when the deviation is emulated, the load is a
//! scalar unsigned sub-word load forwarded ([`store_forwarded_load::forwarded`]) from a store
//! whose value register reaches a narrowed `prmt` ([`narrowed_source`]), and the spec's loaded
//! value is that register's low bytes.

use super::prmt_narrowed_per_zero_extending_reader::narrowed_source;
use super::store_forwarded_load::{self, Forward};
use crate::isa::types::MemType;
use crate::isa::Ld;
use crate::program::exec::Machine;
use crate::program::Reg;
use crate::semantics::{Deviation, Expected};

/// The value of the `ld` `l` being run in thread `t` (`results`, the spec's) under 3702-N5: the
/// narrowed `prmt`'s low bytes where a store of them is forwarded to it.
pub(super) fn loaded(m: &mut Machine<'_>, t: u32, l: &Ld, mut results: Vec<(Reg, Expected)>) -> Vec<(Reg, Expected)> {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    if !m.allow.emulates(d) {
        return results;
    }
    let [(_, spec)] = results.as_slice() else { return results };
    let Some(narrowed) = forwarded_narrowed(m, t, l, spec) else { return results };
    if let [(_, e)] = results.as_mut_slice() {
        let from = e.clone();
        *e = m.fire(d, &from, Expected::exact(u128::from(narrowed), from.width));
    }
    results
}

/// How many bytes a weak scalar unsigned load of `ty` zero-extends (`.b8`/`.u8` 1, `.b16`/`.u16`
/// 2; a signed load sign-extends and is not forwarded, `v2_ld_s8_right`).
fn zero_extended_bytes(ty: MemType) -> Option<u32> {
    match ty {
        MemType::B8 | MemType::U8 => Some(1),
        MemType::B16 | MemType::U16 => Some(2),
        _ => None,
    }
}

/// The narrowed bytes the load being run reads (`None` out of scope), where the spec's loaded
/// value `spec` is the stored register's low bytes.
fn forwarded_narrowed(m: &Machine<'_>, t: u32, l: &Ld, spec: &Expected) -> Option<u32> {
    // Unguarded: the shared rule asks it.
    if l.vec.is_some() {
        return None;
    }
    let bytes = zero_extended_bytes(l.ty)?;
    let Forward { value: h, bytes: stored, .. } = store_forwarded_load::forwarded(m, m.stmt)?;
    (stored == bytes).then_some(())?;
    let word = m.read(t, h).ok().filter(Expected::is_exact)?.bits as u32;
    let mask = (1u32 << (8 * bytes)) - 1;
    (spec.is_exact() && spec.bits as u32 == word & mask).then_some(())?;
    narrowed_source(m, t, h, bytes, word)
}
