//! Which load ptxas forwards from which earlier store: the one rule the emulations of a value
//! that reaches its reader through a store and a load of the same address share (3702-N5 at a
//! forwarded sub-word load, `emulate/prmt_narrowed_at_a_store_forwarded_load.rs`; 3701-N-D at a
//! forwarded `.v2` load of a destroying pack's word, and at a 16-bit vector load of the pack's
//! own 16-bit vector store, [`forwarded_halves`]:
//! `emulate/merge_c_pack_word_read_by_a_forwarded_load.rs`). ptxas 13.0.88 -O3 (and the JIT)
//! replace such a load by the stored register, so the register's known bits and its in-place
//! history carry through memory; the spec's value is the same bytes (§9.7.9.11 stores the
//! element's low bytes, §9.7.9.8 loads them back), so forwarding itself changes no value.
//!
//! The rule ([`forwarded`]), within one thread's straight-line code: the load at body index
//! `at` is forwarded from the store at `k < at` when
//! - the load is an unguarded, weak (`.weak` or no qualifier: "no synchronization", §9.7.9.8),
//!   non-`.mmio` `ld` of the `.shared` (≡ `.shared::cta`, the default sub-qualifier, §9.7.9.8
//!   and §9.7.9.11), `.shared::cluster` or `.global` space, not a signed sub-word load (`.s8`/`.s16` are kept:
//!   `LDS.S16`, seed 5101's 91d52a5c `v2`; `LDS.S8`, seed 5102's 0081239e `v2`), scalar or a
//!   vector, whose address is `[base+offset]` (not `.unified`);
//! - the store is the last statement before the load other than glue, a `mov`, `prmt`, `cvt`,
//!   `cvt.pack`, `cvta`, `isspacep` or a weak non-`.mmio` `ld` (statements that write no memory
//!   and order nothing): a label, a branch, `bar.sync` or any other §9.7.9 instruction (a
//!   strong load, an asynchronous copy, a fence, …) in between, and there is no forward;
//! - the store is an unguarded, weak, non-`.mmio` `st` of the same space (`.shared` ≡
//!   `.shared::cta`) to the same base with no write of the base register in between;
//! - the load's bytes are exactly one element of the store: the load's whole size (its `.vec`
//!   count times its type's size) is the store's element size, at `offset = store offset + j ×
//!   element size` for an element `j` of the store (a scalar store: `j = 0`). A load of part of
//!   an element is not forwarded (seed 5101's 75b5812a `v3`: `st.shared.b32 [sh+8]; ld.shared.u16
//!   [sh+10]` keeps `LDS.U16`);
//! - element `j` is a register not written between the store and the load.
//!
//! Single-thread reasoning only, as far as ptxas's forwarding goes: a weak store followed in
//! program order by a weak load of the same bytes with no synchronizing operation between reads
//! the stored value unless another thread races on those bytes (the memory consistency model,
//! which §9.7.9.8 and §9.7.9.11 refer to for `.weak`); the fuzzed programs give each thread its
//! own shared and output slots. Evidence: 91d52a5c (`st.shared::cta.b16 [sh+10]; ld.shared.b16
//! [sh+10]`, `v3` `ld.shared.u16` into 32 bits, `v4` a global round trip), 0081239e (`st.shared.b8;
//! ld.shared.b8`, `v3`–`v5`, `v8`), 75b5812a (`st.shared.v4.f32 [sh], {…}; ld.shared.v2.u16 [sh+8]`,
//! element 2: `PRMT R5, R6, 0x5410, R6` of the stored register, no `LDS`).
//!
//! Invariants: pure, reads the program only; `None` wherever any condition above fails.

use super::fuzz3602::{unchanged_between, writes};
use crate::isa::operand::Operand;
use crate::isa::types::{MemType, Space, VecWidth};
use crate::isa::{Form, Instruction, Ld, LdSem, St, StSem};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// A load forwarded from an element of an earlier store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Forward {
    /// The store's body index.
    pub store: usize,
    /// The stored element's register, unwritten between the store and the load.
    pub value: Reg,
    /// The element's (and so the load's) size in bytes.
    pub bytes: u32,
}

/// The store the load at body index `at` is forwarded from (module docs), with the element it
/// reads.
pub(super) fn forwarded(m: &Machine<'_>, at: usize) -> Option<Forward> {
    let Candidate { l, k, st, store_items, delta } = candidate(m, at)?;
    if matches!(l.ty, MemType::S8 | MemType::S16) {
        return None;
    }
    let bytes = count(l.vec) * l.ty.bits() / 8;
    let element = st.ty.bits() / 8;
    if element != bytes || bytes == 0 {
        return None;
    }
    let j = usize::try_from(delta).ok().filter(|_| delta % i64::from(element) == 0)? / element as usize;
    if j >= count(st.vec) as usize {
        return None;
    }
    let value = match (store_items, st.vec) {
        (Operand::Vector(items), Some(_)) => m.reg_of(items.get(j)?).ok()?,
        (o, None) => m.reg_of(o).ok()?,
        _ => return None,
    };
    unchanged_between(m, value, k, at).then_some(Forward { store: k, value, bytes })
}

/// A 16-bit vector load forwarded element by element from a 16-bit vector store: the store's
/// body index, the index `j0` of the store element the load's first element reads, and the
/// store's element registers (seed 6202's 061d23c8, corpus/findings/fuzz-h200-6201/trace/T62A.md,
/// variants in corpus/findings/fuzz-h200-6202/trace/061d23c8/s62/: `st.shared::cta.v4.b16 [sh+16],
/// {…}; ld.shared::cta.v4.s16 {…}, [sh+16]` has no `LDS` in 13.0.88 and 13.5 -O3, each loaded half
/// read from the stored element's register; `.v4.b16` (w01), `.v2.b16` of elements 0–1 (w02) and
/// 2–3 (w13, `[sh+20]`), a `.v2` store and load (w11) alike; a scalar `ld.shared.{u16,s16}` of
/// element 1 keeps its `LDS` (w03, w04), so only vector loads are taken here). The conditions of
/// [`forwarded`] hold but the bytes: the load is `.v2`/`.v4` of `.b16`/`.u16`/`.s16` (a signed
/// element into a 16-bit register is its bits), the store `.v2`/`.v4` of a 16-bit type, the load
/// at an element boundary and within the store, and each element read unwritten between.
pub(super) fn forwarded_halves(m: &Machine<'_>, at: usize) -> Option<(usize, usize, Vec<Reg>)> {
    let Candidate { l, k, st, store_items, delta } = candidate(m, at)?;
    let halves = |ty: MemType, vec: Option<VecWidth>| {
        matches!(ty, MemType::B16 | MemType::U16 | MemType::S16) && matches!(vec, Some(VecWidth::V2 | VecWidth::V4))
    };
    if !halves(l.ty, l.vec) || !halves(st.ty, st.vec) {
        return None;
    }
    let j0 = usize::try_from(delta).ok().filter(|d| d % 2 == 0)? / 2;
    let Operand::Vector(items) = store_items else { return None };
    let read = items.get(j0..j0 + count(l.vec) as usize)?;
    let regs: Vec<Reg> = items.iter().map(|o| m.reg_of(o).ok()).collect::<Option<_>>()?;
    read.iter().all(|o| m.reg_of(o).is_ok_and(|r| unchanged_between(m, r, k, at))).then_some((k, j0, regs))
}

/// A load and the store before it that it may be forwarded from ([`candidate`]).
struct Candidate<'a> {
    /// The load.
    l: &'a Ld,
    /// The store's body index.
    k: usize,
    /// The store.
    st: &'a St,
    /// The store's value operand (a vector or a register).
    store_items: &'a Operand,
    /// The load's offset past the store's.
    delta: i64,
}

/// The load at body index `at` and the store it may be forwarded from: every condition of the
/// module docs but the bytes read (the load's type and size, and the element it names) and the
/// elements' registers left unwritten.
fn candidate<'m>(m: &'m Machine<'_>, at: usize) -> Option<Candidate<'m>> {
    let Some(Stmt::Isa(Instruction { form: Form::Ld(l), operands, guard: None, .. })) = m.p.body.get(at) else {
        return None;
    };
    if !weak_load(l) || !forwardable(l.space) {
        return None;
    }
    let (base, offset) = address(operands.get(1)?)?;
    let k = m.p.body[..at].iter().rposition(|s| !inert(s))?;
    let Stmt::Isa(Instruction { form: Form::St(st), operands: so, guard: None, .. }) = &m.p.body[k] else {
        return None;
    };
    if !matches!(st.sem, None | Some(StSem::Weak)) || st.mmio || same_space(st.space) != same_space(l.space) {
        return None;
    }
    let (store_base, store_offset) = address(so.first()?)?;
    let base_kept = Reg::parse(base).is_none_or(|b| !m.p.body[k + 1..at].iter().any(|s| writes(s, b)));
    if store_base != base || !base_kept {
        return None;
    }
    let delta = offset.checked_sub(store_offset)?;
    Some(Candidate { l, k, st, store_items: so.get(1)?, delta })
}

/// Whether `l` is a weak, non-`.mmio` load (`.weak` is the default, §9.7.9.8).
fn weak_load(l: &Ld) -> bool {
    matches!(l.sem, None | Some(LdSem::Weak)) && !l.mmio
}

/// The spaces whose round trip the listings show forwarded (shared: 91d52a5c, 0081239e,
/// 75b5812a; global: 91d52a5c `v4`, 0081239e `v5`; `.shared::cluster`, a generic `ST.E.U8` and
/// no `LD`: seed 5601's 3f24325e, corpus/findings/fuzz-h200-5601/trace/T56C.md, its s56/ `x00`
/// and `x12`). A `.shared::cluster` store and load of the same base and offset name the same
/// bytes (§9.7.9.8, §9.7.9.11); it is its own space in [`same_space`], so a `.shared` load is
/// not taken as forwarded from a `.shared::cluster` store.
fn forwardable(space: Option<Space>) -> bool {
    matches!(space, Some(Space::Shared | Space::SharedCta | Space::SharedCluster | Space::Global))
}

/// `space` with `.shared` read as `.shared::cta` (§9.7.9.8, §9.7.9.11: the default
/// sub-qualifier).
fn same_space(space: Option<Space>) -> Option<Space> {
    match space {
        Some(Space::Shared) => Some(Space::SharedCta),
        s => s,
    }
}

/// The number of elements of a `.vec` (1 for a scalar).
fn count(vec: Option<VecWidth>) -> u32 {
    vec.map_or(1, |v| u32::from(v.len()))
}

/// The base and offset of an address operand `[base+offset]` (not `.unified`, not absolute).
fn address(o: &Operand) -> Option<(&str, i64)> {
    match o {
        Operand::Address { base: Some(b), offset, unified: false } => Some((b.as_str(), *offset)),
        _ => None,
    }
}

/// Whether statement `s` writes no memory and orders nothing, so a forward may pass it: glue,
/// `mov`, `prmt`, `cvt`, `cvt.pack`, `cvta`, `isspacep`, and weak non-`.mmio` loads.
fn inert(s: &Stmt) -> bool {
    match s {
        Stmt::Glue { .. } => true,
        Stmt::Isa(i) => match &i.form {
            Form::Mov(_) | Form::Prmt(_) | Form::Cvt(_) | Form::CvtPack(_) | Form::Cvta(_) | Form::Isspacep(_) => true,
            Form::Ld(l) => weak_load(l),
            _ => false,
        },
        Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => false,
    }
}
