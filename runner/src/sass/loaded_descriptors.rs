//! Memory accesses whose descriptor (`desc[UR4]`, UR4:UR5) holds bits of data loaded from
//! memory: a forward may-analysis over a kernel's control-flow graph (the edges of
//! [`super::dataflow::edges::successors`]) of which R and UR registers may hold such bits.
//!
//! Why: a cache-policy descriptor is made by `createpolicy` (§9.7.9.18) from immediates and the
//! thread's addresses, and the global descriptor comes from the constant bank
//! (`ULDC.64 UR4, c[0x0][0x208]`); neither is ever loaded from memory in the programs the
//! generator writes (a policy is opaque there: no instruction reads it as data, none stores it).
//! ptxas 13.0.88 -O3 drops a `createpolicy` with the dead hinted load that reads it while a
//! live hinted access still uses it (`corpus/known/sass-descriptor-never-written.toml`); where
//! register allocation put data in the registers copied into the descriptor
//! (`IMAD.WIDE.U32 R10, R8, R2, RZ; R2UR UR4, R10; R2UR UR5, R11; LDG.E.EL.S8 R9,
//! desc[UR4][R4.64+0x18]` with R8 loaded: corpus/findings/fuzz-h200-4601/trace/T17t2.md,
//! 16e60ff5), the registers ARE written, so the never-written check
//! ([`super::dataflow`]) flags nothing, and the access faults or not with the data. This
//! analysis names such an access (role [`LOADED_DESCRIPTOR`] in a crash's
//! [`crate::findings::crash_by_sass::KernelCheck`]).
//!
//! Invariants: a register written by a load from global, shared or generic memory or by an atomic
//! (`LDG`, `LDS`, `LD`, `LDSM`, `ATOM`, `ATOMG`, `ATOMS`) holds loaded bits; any other
//! instruction writes loaded bits where a register it reads (predicates aside: its guard, a
//! `SEL`'s condition) may hold some, and clears its destinations otherwise unless it is guarded (a may-analysis:
//! a guarded write adds, never removes). Local-memory loads (`LDL`: ptxas's spills, where a
//! policy itself may be parked) and constant-bank loads (`LDC`, `ULDC`) hold none, so a value
//! carried through a spill is not followed: the analysis may miss a loaded descriptor, never
//! names one whose bits come from neither a load nor a register that held loaded bits.
//! Predicates are not followed (a value selected by a predicate computed from data is one of
//! the selected values). The walk ends: the state only grows, and it is bounded by the
//! registers.

use std::collections::BTreeSet;

use super::dataflow::edges::{return_sites, successors};
use super::parse::{File, Function, Reg};

/// The role of a read [`loaded_descriptor_reads`] names, beside the SASS check's
/// ([`super::ROLES`]) in a crash's check.
pub const LOADED_DESCRIPTOR: &str = "descriptor-of-loaded-data";

/// Opcodes whose destinations hold bits loaded from memory (see the module docs).
const LOADS: [&str; 7] = ["LDG", "LDS", "LD", "LDSM", "ATOM", "ATOMG", "ATOMS"];

/// One access whose descriptor may hold loaded bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedDescriptor {
    /// The access's offset in the function.
    pub offset: u32,
    /// Its mnemonic with modifiers (`LDG.E.EL.S8`).
    pub mnemonic: String,
    /// The descriptor's registers that may hold loaded bits (`UR4`, `UR5`).
    pub registers: Vec<String>,
}

fn data(r: &Reg) -> bool {
    matches!(r.file, File::R | File::Ur)
}

/// The accesses of `f` whose descriptor may hold bits loaded from memory, in address order.
pub fn loaded_descriptor_reads(f: &Function) -> Vec<LoadedDescriptor> {
    let n = f.instrs.len();
    if n == 0 {
        return Vec::new();
    }
    let returns = return_sites(f);
    let mut at: Vec<Option<BTreeSet<Reg>>> = vec![None; n];
    at[0] = Some(BTreeSet::new());
    let mut work = vec![0usize];
    while let Some(i) = work.pop() {
        let Some(before) = at[i].clone() else { continue };
        let after = transfer(f, i, before);
        let (next, havoc) = successors(f, i, &returns);
        // A call outside the listing: what it leaves is unknown, and the analysis never names
        // an access it cannot show loaded bits for, so nothing is carried past it.
        let out = if havoc { BTreeSet::new() } else { after };
        for j in next {
            let grown = match &mut at[j] {
                Some(s) => {
                    let len = s.len();
                    s.extend(out.iter().copied());
                    s.len() != len
                }
                slot @ None => {
                    *slot = Some(out.clone());
                    true
                }
            };
            if grown {
                work.push(j);
            }
        }
    }
    f.instrs
        .iter()
        .zip(&at)
        .filter_map(|(ins, state)| {
            let state = state.as_ref()?;
            let loaded: Vec<String> = ins
                .operands
                .iter()
                .flat_map(|o| &o.descriptor)
                .filter(|r| state.contains(r))
                .map(ToString::to_string)
                .collect();
            (!loaded.is_empty()).then(|| LoadedDescriptor {
                offset: ins.offset,
                mnemonic: ins.mnemonic.clone(),
                registers: loaded,
            })
        })
        .collect()
}

/// The registers that may hold loaded bits after instruction `i`, given those before it.
fn transfer(f: &Function, i: usize, mut state: BTreeSet<Reg>) -> BTreeSet<Reg> {
    let ins = &f.instrs[i];
    let loaded = LOADS.contains(&ins.opcode()) || ins.uses.iter().any(|r| data(r) && state.contains(r));
    for d in ins.defs.iter().filter(|r| data(r)) {
        if loaded {
            state.insert(*d);
        } else if ins.guard.is_none() {
            state.remove(d);
        }
    }
    state
}

#[cfg(test)]
mod tests;
