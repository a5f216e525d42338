//! A crash finding labelled by a known entry's mechanism ([`crate::findings::CrashBySass`],
//! `[crash_by_sass]` in `corpus/known/`): the program is assembled at each level the entry
//! decides the crash's backends at (-O0 for `cuda:ptxas-O0`, -O3 for `cuda:ptxas-O3`, and the
//! level an entry names for a backend without a listing: K's `cuda:jit` takes -O3's, as K's JIT
//! crashes 2baed4ed and 82e7bd32 had -O3 kernels that never load `c[0x0][0x208]`) and its
//! kernel's SASS checked ([`crate::sass::Checker::check_ptx`]); the crash is that entry's when
//! every level flags a read whose roles the entry names (`descriptor`; or
//! [`LOADED_DESCRIPTOR`], an access whose descriptor holds bits of loaded data,
//! [`crate::sass::loaded_descriptors`]) in a kernel listing with one of the entry's `present`
//! texts and without its `absent` ones (K: `c[0x0][0x208]`, never loaded).
//!
//! Used where crash findings are labelled: the campaign's triage before minimizing
//! ([`super::triage::Triage::crash_check`]), a minimized crash's case
//! ([`super::minimize`]), and the offline retriage (`runner/examples/retriage.rs --ptxas`).
//!
//! Invariants: costs one ptxas and one nvdisasm run per level, only for a crash finding some
//! entry's mechanism admits and no entry names by key (never on the batch path); the ptxas is
//! the campaign's unlabelled one (its SASS is the crash's); a check that cannot run (ptxas
//! rejects, nvdisasm fails) decides nothing: the crash is labelled as without it.

use std::collections::BTreeMap;

use oracle::program::Program;

use crate::findings::crash_by_sass::KernelCheck;
use crate::findings::{Known, KnownSet, Signature};
use crate::ptxas::Ptxas;
use crate::sass::loaded_descriptors::{loaded_descriptor_reads, LOADED_DESCRIPTOR};
use crate::sass::parse::parse_listing;
use crate::sass::{function_listing, Checker, SassError};

/// The tools the check runs: the campaign's ptxas and the SASS checker.
#[derive(Clone, Debug)]
pub struct CrashCheck {
    /// The unlabelled ptxas of the offline-assembled backends.
    pub ptxas: Ptxas,
    /// nvdisasm and its time limit.
    pub checker: Checker,
}

/// The entry of `known` whose mechanism explains the crash finding `sig` of the kernel
/// `kernel` of module `ptx` (for `arch`), run by `check` (see the module docs); `Ok(None)` when
/// no entry's mechanism admits `sig`, an entry names it by key, or the check does not flag what
/// the entry names at every level.
pub fn crash_known_by_sass<'k>(
    known: &'k KnownSet,
    sig: &Signature,
    ptx: &str,
    kernel: &str,
    arch: &str,
    check: &CrashCheck,
) -> Result<Option<&'k Known>, SassError> {
    let levels = known.crash_levels(sig);
    if levels.is_empty() {
        return Ok(None);
    }
    let mut checked = BTreeMap::new();
    for level in levels {
        let (listing, reads) = check.checker.check_ptx(&check.ptxas, ptx, arch, level)?;
        let mut roles: Vec<String> = reads.iter().filter(|u| u.kernel == kernel).map(|u| u.roles.join("+")).collect();
        let listing = function_listing(&listing, kernel).unwrap_or_default().to_string();
        // A listing the parser cannot read adds nothing: the check above has read it already.
        let functions = parse_listing(&listing).unwrap_or_default();
        if functions.iter().filter(|f| f.name == kernel).any(|f| !loaded_descriptor_reads(f).is_empty()) {
            roles.push(LOADED_DESCRIPTOR.to_string());
        }
        checked.insert(level, KernelCheck { roles, listing });
    }
    Ok(known.crash_known_by_sass(sig, &checked))
}

/// [`crash_known_by_sass`] of register program `p`'s kernel.
pub fn program_crash_known_by_sass<'k>(
    known: &'k KnownSet,
    sig: &Signature,
    p: &Program,
    check: &CrashCheck,
) -> Result<Option<&'k Known>, SassError> {
    crash_known_by_sass(known, sig, &p.module_text(), &p.name, &p.target.name(), check)
}
