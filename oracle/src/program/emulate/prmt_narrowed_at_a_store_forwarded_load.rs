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
//! Invariants: a load's value changes only when the deviation is emulated, the load is a weak,
//! unguarded scalar unsigned sub-word load, the last statement before it that stores, branches
//! or labels is an unguarded weak scalar store of the same space, size and address (base and
//! offset) whose value register is not written in between and reaches a narrowed `prmt`
//! ([`narrowed_source`]), and the spec's loaded value is that register's low bytes.

use super::fuzz3602::writes;
use super::prmt_narrowed_per_zero_extending_reader::narrowed_source;
use crate::isa::operand::Operand;
use crate::isa::types::{MemType, Space};
use crate::isa::{Form, Instruction, Ld, LdSem, St, StSem};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The value of `ld` `inst` being run in thread `t` (`results`, the spec's) under 3702-N5: the
/// narrowed `prmt`'s low bytes where a store of them is forwarded to it.
pub(super) fn loaded(
    m: &mut Machine<'_>,
    t: u32,
    l: &Ld,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    if !m.allow.emulates(d) {
        return results;
    }
    let [(_, spec)] = results.as_slice() else { return results };
    let Some(narrowed) = forwarded_narrowed(m, t, l, inst, spec) else { return results };
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

/// The size in bytes of a sub-word store type (its low bytes stored, whatever the sign).
fn stored_bytes(ty: MemType) -> Option<u32> {
    match ty {
        MemType::B8 | MemType::U8 | MemType::S8 => Some(1),
        MemType::B16 | MemType::U16 | MemType::S16 => Some(2),
        _ => None,
    }
}

/// The spaces whose round trip the listings show forwarded (`v1`, `v5`).
fn forwarded_space(space: Option<Space>) -> bool {
    matches!(space, Some(Space::Shared | Space::SharedCta | Space::Global))
}

/// The narrowed bytes the load being run reads (`None` out of scope), where the spec's loaded
/// value `spec` is the stored register's low bytes.
fn forwarded_narrowed(m: &Machine<'_>, t: u32, l: &Ld, inst: &Instruction, spec: &Expected) -> Option<u32> {
    let weak = matches!(l.sem, None | Some(LdSem::Weak));
    if inst.guard.is_some() || l.vec.is_some() || !weak || l.mmio || !forwarded_space(l.space) {
        return None;
    }
    let bytes = zero_extended_bytes(l.ty)?;
    let address = inst.operands.get(1)?;
    let (k, h) = forwarding_store(m, l, address, bytes)?;
    if m.p.body[k + 1..m.stmt].iter().any(|s| writes(s, h)) {
        return None;
    }
    let word = m.read(t, h).ok().filter(Expected::is_exact)?.bits as u32;
    let mask = (1u32 << (8 * bytes)) - 1;
    (spec.is_exact() && spec.bits as u32 == word & mask).then_some(())?;
    narrowed_source(m, t, h, bytes, word)
}

/// The body index and value register of the store forwarded to the load being run: the last
/// statement before it that stores, branches or labels, an unguarded weak scalar `st` of the
/// load's space and size to the same `address`.
fn forwarding_store(m: &Machine<'_>, l: &Ld, address: &Operand, bytes: u32) -> Option<(usize, Reg)> {
    let (k, s) = m.p.body[..m.stmt].iter().enumerate().rev().find(|(_, s)| {
        matches!(s, Stmt::Label(_) | Stmt::Bra { .. } | Stmt::Isa(Instruction { form: Form::St(_), .. }))
    })?;
    let Stmt::Isa(Instruction { form: Form::St(st), operands, guard: None, .. }) = s else { return None };
    let St { sem, space, vec, ty, mmio, .. } = st;
    let weak = matches!(sem, None | Some(StSem::Weak));
    if !weak || *mmio || vec.is_some() || *space != l.space || stored_bytes(*ty) != Some(bytes) {
        return None;
    }
    (operands.first()? == address).then_some(())?;
    Some((k, m.reg_of(operands.get(1)?).ok()?))
}
